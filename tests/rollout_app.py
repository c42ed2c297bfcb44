"""What an app process does with the rollout queue, run in real OS processes (spawned by
tests/test_rollout_runner.py): submit, run the queue's runner on the test's cluster (its
scheduler named by CUBE_LAB_DASK_SCHEDULER), report. Nothing here is a test."""

from __future__ import annotations

import os
import threading
import time
from datetime import timedelta
from typing import Any

from cubecore import rollout as ro
from cubecore.position import Position
from rollouts.cluster import SCHEDULER_ENV
from rollouts.runner import QueueRunner
from store.rollout_queue import RolloutQueue

#: Seconds an app process waits for its rollout before it gives up (a bound, not a pace).
WAIT = 600.0
#: How often it looks at the job's state while waiting.
LOOK = 0.1


def _wait_done(queue: RolloutQueue, key: str) -> None:
    pause = threading.Event()
    deadline = time.monotonic() + WAIT
    while (job := queue.job(key)) is None or job.state != "done":
        if time.monotonic() > deadline:
            raise TimeoutError(f"the rollout was not done within {WAIT:g} s: {job}")
        pause.wait(LOOK)


def submit_and_wait(
    url: str,
    address: str,
    position: Position,
    settings: ro.RolloutSettings,
    session: str,
    barrier: Any,
    results: Any,
) -> None:
    """An app process: submit at the barrier, run the runner until the job is done."""
    os.environ[SCHEDULER_ENV] = address
    queue = RolloutQueue(url)
    runner = QueueRunner(queue, poll=0.2)
    try:
        barrier.wait(timeout=WAIT)
        job = queue.submit(position, settings, session)
        runner.start()
        _wait_done(queue, job.key)
        result = queue.result(queue.job(job.key) or job)
        runner.stop()
        results.put((os.getpid(), job.key, runner.batches_run, runner.jobs_finished, result))
    finally:
        runner.stop()
        queue.dispose()


def run_until_killed(url: str, address: str, lease_seconds: float) -> None:
    """An app process whose runner takes jobs until the process is killed."""
    os.environ[SCHEDULER_ENV] = address
    queue = RolloutQueue(url, lease=timedelta(seconds=lease_seconds))
    QueueRunner(queue, poll=0.2).start()
    threading.Event().wait(WAIT)  # the test kills this process long before
