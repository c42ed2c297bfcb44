"""The queue's runner: one daemon thread per app process that runs queued rollouts.

A :class:`QueueRunner` takes the oldest jobs of the shared queue
(:meth:`store.rollout_queue.RolloutQueue.claim`), up to :data:`JOBS_AT_ONCE` at a time,
drives a :class:`rollouts.cluster.ClusterRollout` for each with the queue's batch store
(batches already stored are not run again, every finished batch is stored at once) and
renews each job's lease at least every :attr:`QueueRunner.heartbeat` seconds. It
stops a job when its lease is lost (the submitter cancelled it, or this process was too
slow and another took it), marks it done when its last batch is in, failed when a batch
fails (the engine's budget ran out), and gives it back to the queue when the runner is
stopped (its jobs in hand go back to the queue). The cluster, not the app process, runs
the batches in parallel.

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

from distributed import Client, wait

from rollouts import cluster
from store.rollout_queue import RolloutJob, RolloutQueue

__all__ = ["QueueRunner", "existing_runner", "process_runner", "stop_process_runner"]

#: Seconds between looks at an empty queue (a submission in this process wakes it at once).
POLL = 2.0
#: Seconds without a job after which the runner closes the cluster it opened.
IDLE = 300.0
#: Jobs a runner holds at once: two 36-batch rollouts keep 16 workers busy where one
#: leaves a third of them idle in its last round (deploy/README.md's arithmetic).
JOBS_AT_ONCE = 2
#: The most a runner may hold (each holds its batches' futures and a lease).
MAX_JOBS_AT_ONCE = 16


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
    jobs_at_once : int
        Jobs in hand at once, oldest first (default :data:`JOBS_AT_ONCE`), 1..16.
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
        jobs_at_once: int = JOBS_AT_ONCE,
    ) -> None:
        self.queue = queue
        self.owner = f"{socket.gethostname()[:30]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._given = client
        self._workers = workers
        self.poll = poll
        self.idle = idle
        self.heartbeat = queue.lease.total_seconds() / 4 if heartbeat is None else heartbeat
        if isinstance(jobs_at_once, bool) or not isinstance(jobs_at_once, int):
            raise ValueError(f"`jobs_at_once` must be a whole number, got {jobs_at_once!r}")
        if not 1 <= jobs_at_once <= MAX_JOBS_AT_ONCE:
            raise ValueError(f"`jobs_at_once` must be in 1..{MAX_JOBS_AT_ONCE}, got {jobs_at_once}")
        self.jobs_at_once = jobs_at_once
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._opened: contextlib.ExitStack | None = None
        self._client: Client | None = None
        #: Batches this runner ran and stored, and jobs it finished (done or failed).
        self.batches_run = 0
        self.jobs_finished = 0
        #: The keys of the jobs in hand, and the most jobs it has held at once.
        self.running: tuple[str, ...] = ()
        self.most_held = 0

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
        held: dict[str, cluster.ClusterRollout] = {}
        idle_since = time.monotonic()
        try:
            while not self._stop.is_set():
                self._fill(held)
                self.running = tuple(held)
                self.most_held = max(self.most_held, len(held))
                if not held:
                    if self._opened is not None and time.monotonic() - idle_since > self.idle:
                        self._close()
                    self._wake.wait(self.poll)
                    self._wake.clear()
                    continue
                try:
                    self._step(held)
                except Exception:  # the cluster or the database went away mid-rollout
                    for key, run in held.items():
                        self._fail(run, key, "The cluster could not run this rollout.")
                    held.clear()
                    self._close()
                idle_since = time.monotonic()
        finally:  # stopped: the jobs in hand go back to the queue for another process
            for key, run in held.items():
                with contextlib.suppress(Exception):
                    run.cancel()
                    self.queue.finish(key, self.owner, "queued")
            self.running = ()

    def _fill(self, held: dict[str, cluster.ClusterRollout]) -> None:
        """Take jobs from the queue until :attr:`jobs_at_once` are in hand or none waits."""
        while len(held) < self.jobs_at_once and not self._stop.is_set():
            try:
                job = self.queue.claim(self.owner)
            except Exception:  # the database is away: look again later, stay alive
                return
            if job is None:
                return
            run = self._start(job)
            if run is not None:
                held[job.key] = run

    def _start(self, job: RolloutJob) -> cluster.ClusterRollout | None:
        """Submit a job's batches not yet stored; None (the job failed) when it cannot."""
        key = job.key
        try:
            client = self._open()
        except Exception:  # a bad CUBE_LAB_DASK_SCHEDULER, a scheduler that does not answer
            self._close()
            self._end(key, "failed", "The cluster could not be reached.")
            return None
        try:
            return cluster.ClusterRollout(
                client, job.position, job.settings, store=self.queue.batches
            )
        except ValueError:  # stored batches that are not this rollout's
            self._end(key, "failed", "The rollout's stored trials could not be read.")
            return None

    def _step(self, held: dict[str, cluster.ClusterRollout]) -> None:
        """Wait for a batch of any job in hand (at most a heartbeat), store what finished,
        renew the leases; end the jobs that are done, failed, cancelled or lost."""
        futures = [future for run in held.values() for future in run.futures]
        if futures:
            with contextlib.suppress(TimeoutError):  # none finished: beat and wait again
                wait(futures, timeout=self.heartbeat, return_when="FIRST_COMPLETED")
        for key, run in list(held.items()):
            before = run.pending
            try:
                run.progress()  # collects and stores the finished batches
            except TimeoutError:  # a batch ran out of its budget
                del held[key]
                self._fail(run, key, "A batch of trials did not finish within its time budget.")
                continue
            except Exception:  # a batch failed on the cluster (a worker died too often)
                del held[key]
                self._fail(run, key, "A batch of trials failed on the cluster.")
                continue
            self.batches_run += before - run.pending
            if not run.pending:
                del held[key]
                self._end(key, "done")
            elif not self.queue.heartbeat(key, self.owner):  # cancelled, or the lease lost
                del held[key]
                run.cancel()

    def _end(self, key: str, state: str, message: str = "") -> None:
        with contextlib.suppress(Exception):
            self.queue.finish(key, self.owner, state, message)
        self.jobs_finished += 1

    def _fail(self, run: cluster.ClusterRollout, key: str, message: str) -> None:
        with contextlib.suppress(Exception):
            run.cancel()
        self._end(key, "failed", message)


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
