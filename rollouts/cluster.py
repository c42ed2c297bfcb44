"""Rollouts on a Dask cluster: a local one sized to the machine, or an existing scheduler.

The pure parts of a rollout (its seeded batches, the combine) are in
:mod:`cubecore.rollout`; this module only schedules them, so that :mod:`cubecore` stays
free of Dask (``tests/test_layering.py``). Each batch is one Dask task
(:func:`cubecore.rollout.run_batch`); a batch depends only on its task, so a batch whose
worker dies is run again elsewhere by the scheduler with the same result, and the
combined result does not depend on how many workers ran the batches or in which order
they finished (:func:`cubecore.rollout.combine`).

- By default :func:`connect` starts a :class:`distributed.LocalCluster` of one worker
  process per core, one thread each: every worker keeps one warm engine (the engine
  adapter's child process, started by the worker's first batch and kept for the next).
- With ``CUBE_LAB_DASK_SCHEDULER=tcp://host:8786`` it connects to that scheduler
  instead (``dask scheduler`` and ``dask worker`` started from the same lock file, with
  this project on the workers' ``PYTHONPATH``).

A :class:`ClusterRollout` can be cancelled (:meth:`ClusterRollout.cancel` keeps the
finished batches) and resumed (a new :class:`ClusterRollout` given those batches runs
only the others).
"""

from __future__ import annotations

import os
import re
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from distributed import Client, Future, LocalCluster, as_completed
from distributed.diagnostics.plugin import WorkerPlugin

from cubecore import engine
from cubecore import rollout as ro
from cubecore.position import Position
from store.rollouts import RolloutStore

__all__ = ["SCHEDULER_ENV", "ClusterRollout", "connect", "scheduler_address"]

#: The environment variable naming an existing scheduler (``tcp://host:port``).
SCHEDULER_ENV = "CUBE_LAB_DASK_SCHEDULER"
#: Seconds to wait for a scheduler named by :data:`SCHEDULER_ENV` to answer.
CONNECT_TIMEOUT = 30.0
_ADDRESS = re.compile(r"^tcp://[A-Za-z0-9.\-]{1,253}:[0-9]{1,5}$")


def scheduler_address(environ: Mapping[str, str] | None = None) -> str | None:
    """The scheduler named by :data:`SCHEDULER_ENV`, or None for a local cluster.

    Raises
    ------
    ValueError
        The variable is set but is not ``tcp://host:port`` (port 1..65535).
    """
    value = (os.environ if environ is None else environ).get(SCHEDULER_ENV, "").strip()
    if not value:
        return None
    if not _ADDRESS.match(value) or not 0 < int(value.rsplit(":", 1)[1]) < 65536:
        raise ValueError(
            f"`{SCHEDULER_ENV}` must be a scheduler address tcp://host:port, got {value!r}"
        )
    return value


class _EngineTeardown(WorkerPlugin):
    """Stops a worker's engine child when the worker closes (no process left behind)."""

    name = "cube-lab-engine"
    #: Registered once per cluster: every app process's runner registers it when it
    #: connects, and Dask tears a plugin down before it replaces it, which stopped every
    #: worker's warm engine each time another app process connected.
    idempotent = True

    def teardown(self, worker: object) -> None:
        engine.stop_child()


@contextmanager
def connect(workers: int | None = None) -> Iterator[Client]:
    """A client of the rollout cluster; closes what it started.

    Parameters
    ----------
    workers : int, optional
        Worker processes of the local cluster (default: the machine's cores). Ignored
        when :data:`SCHEDULER_ENV` names a scheduler.
    """
    address = scheduler_address()
    if address is not None:
        client = Client(address, timeout=CONNECT_TIMEOUT)
        try:
            client.register_plugin(_EngineTeardown())
            yield client
        finally:
            client.close()
        return
    n = (os.cpu_count() or 1) if workers is None else workers
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 256:
        raise ValueError(f"`workers` must be a whole number in 1..256, got {workers!r}")
    cluster = LocalCluster(
        n_workers=n,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",  # scheduler and workers listen on loopback only
        dashboard_address=None,
        silence_logs=40,  # logging.ERROR: a killed worker is reported, not shouted
    )
    try:
        client = Client(cluster)
        try:
            client.register_plugin(_EngineTeardown())
            yield client
        finally:
            client.close()
    finally:
        cluster.close()


class ClusterRollout:
    """One rollout's batches submitted to a cluster; progress, result, cancel, resume.

    Parameters
    ----------
    client : distributed.Client
        From :func:`connect`.
    position, settings
        As :func:`cubecore.rollout.plan` (checked there, before anything is submitted).
    done : mapping of batch index to RolloutBatchSums, optional
        Batches already finished (a resumed rollout); they are not run again.
    store : RolloutStore, optional
        Where finished batches are kept: its stored batches of this rollout are not run
        again, and every batch that finishes here is saved there.
    """

    def __init__(
        self,
        client: Client,
        position: Position,
        settings: ro.RolloutSettings,
        done: Mapping[int, engine.RolloutBatchSums] | None = None,
        store: RolloutStore | None = None,
    ) -> None:
        self.tasks = ro.plan(position, settings)
        self._store = store
        self.results: dict[int, engine.RolloutBatchSums] = dict(done or {})
        if store is not None:
            self.results.update(store.load(self.tasks))
        if self.results:
            ro.combine(self.tasks, self.results)  # refuses batches of another rollout
        self._client = client
        token = uuid.uuid4().hex[:8]  # a cancelled key is not reused by a resumed run
        self._futures: dict[Future[engine.RolloutBatchSums], int] = {
            client.submit(ro.run_batch, task, key=f"{task.key}-{task.index}-{token}"): task.index
            for task in self.tasks
            if task.index not in self.results
        }

    @property
    def futures(self) -> list[Future[engine.RolloutBatchSums]]:
        """The batches submitted and not yet collected (to wait on several rollouts)."""
        return list(self._futures)

    @property
    def pending(self) -> int:
        """Batches submitted and not yet collected."""
        return len(self._futures)

    def _collect(self, future: Future[engine.RolloutBatchSums]) -> None:
        index = self._futures.pop(future)
        self.results[index] = future.result()
        if self._store is not None:
            self._store.save(self.tasks[index], self.results[index])

    def progress(self) -> ro.RolloutResult | None:
        """The result of the batches finished so far (None before the first)."""
        for future in [f for f in self._futures if f.done()]:
            self._collect(future)
        return ro.combine(self.tasks, self.results) if self.results else None

    def next_batch(self, timeout: float | None = None) -> int:
        """Wait for the next batch to finish; return its index.

        Raises
        ------
        ValueError
            No batch is pending.
        TimeoutError
            None finished within ``timeout`` seconds.
        """
        if not self._futures:
            raise ValueError("no batch is pending: the rollout is finished or cancelled")
        for future in as_completed(list(self._futures), timeout=timeout):
            index = self._futures[future]
            self._collect(future)
            return index
        raise AssertionError("as_completed returned no future")  # pragma: no cover

    def result(self, timeout: float | None = None) -> ro.RolloutResult:
        """Wait for every pending batch and combine them all."""
        for future in as_completed(list(self._futures), timeout=timeout):
            self._collect(future)
        return ro.combine(self.tasks, self.results)

    def cancel(self) -> dict[int, engine.RolloutBatchSums]:
        """Cancel the batches not yet finished; return the finished ones (to resume)."""
        self.progress()
        self._client.cancel(list(self._futures))
        self._futures.clear()
        return dict(self.results)
