"""The queue's runner: one daemon thread per app process that runs queued rollouts.

A :class:`QueueRunner` takes the oldest job of the shared queue
(:meth:`store.rollout_queue.RolloutQueue.claim`), drives a
:class:`rollouts.cluster.ClusterRollout` with the queue's batch store (batches already
stored are not run again, every finished batch is stored at once) and renews the job's
lease after every batch and at least every :attr:`QueueRunner.heartbeat` seconds. It
stops a job when its lease is lost (the submitter cancelled it, or this process was too
slow and another took it), marks it done when its last batch is in, failed when a batch
fails (the engine's budget ran out), and gives it back to the queue when the runner is
stopped. It runs one job at a time: the cluster, not the app process, runs the batches
in parallel.

The cluster is opened on the first job (:func:`rollouts.cluster.connect`: a local one
or ``CUBE_LAB_DASK_SCHEDULER``'s) and closed after :attr:`QueueRunner.idle` seconds with
nothing to do and when the runner stops, so an idle app keeps no worker processes. A
client passed in (tests, a bench) is used as it is and never closed.

:func:`process_runner` gives the one runner of this process, started lazily by the first
submission (``ui/rollouts``) and stopped at exit.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import socket
import threading
import time
import uuid

from distributed import Client

from rollouts import cluster
from store.rollout_queue import RolloutJob, RolloutQueue

__all__ = ["QueueRunner", "existing_runner", "process_runner", "stop_process_runner"]

#: Seconds between looks at an empty queue (a submission in this process wakes it at once).
POLL = 2.0
#: Seconds without a job after which the runner closes the cluster it opened.
IDLE = 300.0


class QueueRunner:
    """Runs the queue's jobs on a cluster, one at a time, in a daemon thread.

    Parameters
    ----------
    queue : RolloutQueue
        The shared queue (and its batch store).
    client : distributed.Client, optional
        A cluster to use (never closed here); default: :func:`rollouts.cluster.connect`
        when the first job comes, closed when idle.
    workers : int, optional
        Worker processes of a local cluster opened here (default: the cores).
    poll, idle : float
        Seconds between looks at an empty queue; seconds idle before closing the cluster.
    heartbeat : float, optional
        Seconds between heartbeats while a batch runs (default a quarter of the lease).
    """

    def __init__(
        self,
        queue: RolloutQueue,
        *,
        client: Client | None = None,
        workers: int | None = None,
        poll: float = POLL,
        idle: float = IDLE,
        heartbeat: float | None = None,
    ) -> None:
        self.queue = queue
        self.owner = f"{socket.gethostname()[:30]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._given = client
        self._workers = workers
        self.poll = poll
        self.idle = idle
        self.heartbeat = queue.lease.total_seconds() / 4 if heartbeat is None else heartbeat
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._opened: contextlib.ExitStack | None = None
        self._client: Client | None = None
        #: Batches this runner ran and stored, and jobs it finished (done or failed).
        self.batches_run = 0
        self.jobs_finished = 0
        #: The key of the job being run, or None.
        self.running: str | None = None

    # life --------------------------------------------------------------------------------
    def start(self) -> QueueRunner:
        """Start the thread (once; later calls only wake it)."""
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._stop.clear()
                self._thread = threading.Thread(
                    target=self._loop, name="rollout-runner", daemon=True
                )
                self._thread.start()
        self.wake()
        return self

    def wake(self) -> None:
        """Look at the queue now (after a submission)."""
        self._wake.set()

    def stop(self, timeout: float = 120.0) -> None:
        """Stop: the job in hand goes back to the queue; the cluster opened here closes."""
        self._stop.set()
        self._wake.set()
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
        self._close()

    @property
    def alive(self) -> bool:
        """The thread is running."""
        return self._thread is not None and self._thread.is_alive()

    def workers(self) -> dict[str, dict[str, object]]:
        """The cluster's workers (address -> scheduler's info), empty when none is open."""
        client = self._client
        if client is None:
            return {}
        try:
            return dict(client.scheduler_info()["workers"])
        except (OSError, RuntimeError, KeyError):
            return {}

    # the loop ----------------------------------------------------------------------------
    def _open(self) -> Client:
        if self._client is None:
            if self._given is not None:
                self._client = self._given
            else:
                stack = contextlib.ExitStack()
                self._client = stack.enter_context(cluster.connect(self._workers))
                self._opened = stack
        return self._client

    def _close(self) -> None:
        stack, self._opened = self._opened, None
        self._client = None
        if stack is not None:
            stack.close()

    def _loop(self) -> None:
        idle_since = time.monotonic()
        while not self._stop.is_set():
            try:
                job = self.queue.claim(self.owner)
            except Exception:  # the database is away: look again later, stay alive
                self._wake.wait(self.poll)
                self._wake.clear()
                continue
            if job is None:
                if self._opened is not None and time.monotonic() - idle_since > self.idle:
                    self._close()
                self._wake.wait(self.poll)
                self._wake.clear()
                continue
            self.running = job.key
            try:
                self._run(job)
            except Exception:  # the cluster or the database went away mid-rollout
                self._close()
                with contextlib.suppress(Exception):
                    self.queue.finish(
                        job.key, self.owner, "failed", "The cluster could not run this rollout."
                    )
            finally:
                self.running = None
                idle_since = time.monotonic()

    def _run(self, job: RolloutJob) -> None:
        key = job.key
        try:
            client = self._open()
        except Exception:  # a bad CUBE_LAB_DASK_SCHEDULER, a scheduler that does not answer
            self._close()
            self.queue.finish(key, self.owner, "failed", "The cluster could not be reached.")
            self.jobs_finished += 1
            return
        try:
            run = cluster.ClusterRollout(
                client, job.position, job.settings, store=self.queue.batches
            )
        except ValueError:  # stored batches that are not this rollout's
            self.queue.finish(
                key, self.owner, "failed", "The rollout's stored trials could not be read."
            )
            self.jobs_finished += 1
            return
        while run.pending:
            if self._stop.is_set():
                run.cancel()
                self.queue.finish(key, self.owner, "queued")  # another process resumes it
                return
            before = run.pending
            try:
                run.next_batch(timeout=self.heartbeat)
                self.batches_run += 1
            except TimeoutError:
                if run.pending < before:  # the batch itself ran out of its budget
                    self._fail(run, key, "A batch of trials did not finish within its time budget.")
                    return
            except Exception:  # a batch failed on the cluster (a worker died too often)
                self._fail(run, key, "A batch of trials failed on the cluster.")
                return
            if not self.queue.heartbeat(key, self.owner):  # cancelled, or the lease lost
                run.cancel()
                return
        self.queue.finish(key, self.owner, "done")
        self.jobs_finished += 1

    def _fail(self, run: cluster.ClusterRollout, key: str, message: str) -> None:
        run.cancel()
        self.queue.finish(key, self.owner, "failed", message)
        self.jobs_finished += 1


_PROCESS: dict[str, QueueRunner] = {}
_PROCESS_LOCK = threading.Lock()


def process_runner(queue: RolloutQueue) -> QueueRunner:
    """This process's one runner of ``queue``'s database, started (and woken) now."""
    with _PROCESS_LOCK:
        runner = _PROCESS.get(queue.url)
        if runner is None:
            runner = _PROCESS[queue.url] = QueueRunner(queue)
    return runner.start()


def existing_runner(url: str) -> QueueRunner | None:
    """This process's runner of the database ``url`` if one was started, else None."""
    with _PROCESS_LOCK:
        return _PROCESS.get(url)


@atexit.register
def stop_process_runner() -> None:
    """Stop this process's runners (at exit; tests call it too)."""
    with _PROCESS_LOCK:
        runners = list(_PROCESS.values())
        _PROCESS.clear()
    for runner in runners:
        runner.stop()
