"""The rollout queue's runner (rollouts.runner) on a real LocalCluster of two worker
processes and a real SQLite database: a job runs to the result of an undisturbed
rollout, a cancelled job stops and resumes, an app process SIGKILLed mid-rollout loses
its lease and another process resumes the job from the stored batches, and two app
processes (real OS processes) submitting the same position run it once. The cluster is
the session's (``two_workers``, tests/clusters.py)."""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import signal
import threading
import time

import pytest

from cubecore import rollout as ro
from cubecore.position import Position, position_from_id
from rollouts import cluster, runner
from rollouts.runner import QueueRunner
from store.rollout_queue import RolloutQueue
from tests import rollout_app

pytestmark = [pytest.mark.xdist_group("dask"), pytest.mark.timeout(900)]

SHORT_RACE = Position.from_home((0, 0, 2, 0, 3, 0), (0, 2, 0, 1, 2, 0))
SETTINGS = ro.RolloutSettings(trials=36 * 6, batch_trials=36, seed=2041)
#: The opening position truncated after 6 plies: about 0.75 s a 36-trial batch, long
#: enough to kill a process mid-rollout.
OPENING = position_from_id("4HPwATDgc/ABMA")
SLOW = ro.RolloutSettings(trials=36 * 12, batch_trials=36, seed=2042, truncation=6)
ALICE = "a" * 32
BOB = "b" * 32
WAIT = 600.0


def _until(condition, what: str, pause: float = 0.05):
    """Wait until ``condition()`` is truthy (a bound, not a pace); return its value."""
    event = threading.Event()
    deadline = time.monotonic() + WAIT
    while not (value := condition()):
        assert time.monotonic() < deadline, f"waited {WAIT:g} s for {what}"
        event.wait(pause)
    return value


def _runner_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "rollout-runner"]


@pytest.fixture(scope="module")
def reference(dask_cluster):
    """The undisturbed rollouts, straight on the cluster (no queue, no store)."""
    dask_cluster.wait_for_workers(2, timeout=WAIT)
    return {
        "race": cluster.ClusterRollout(dask_cluster, SHORT_RACE, SETTINGS).result(timeout=WAIT),
        "slow": cluster.ClusterRollout(dask_cluster, OPENING, SLOW).result(timeout=WAIT),
    }


@pytest.fixture
def queue(tmp_path):
    q = RolloutQueue(f"sqlite:///{tmp_path / 'queue.sqlite3'}")
    yield q
    q.dispose()


@pytest.fixture
def no_runner_left():
    yield
    runner.stop_process_runner()
    assert _runner_threads() == []


def test_a_queued_rollout_runs_to_the_undisturbed_result(
    queue, two_workers, reference, no_runner_left
):
    job = queue.submit(SHORT_RACE, SETTINGS, ALICE)
    worker = QueueRunner(queue, client=two_workers, poll=0.1).start()
    try:
        _until(lambda: queue.job(job.key).state == "done", "the job to be done")
        assert worker.workers().keys() == two_workers.scheduler_info()["workers"].keys()
    finally:
        worker.stop()
    assert not worker.alive and worker.batches_run == 6 and worker.jobs_finished == 1
    assert queue.result(queue.job(job.key)) == reference["race"]
    # submitted again (by anyone): the job is done, nothing runs
    assert queue.submit(SHORT_RACE, SETTINGS, BOB).state == "done"
    assert queue.claim("another") is None
    assert two_workers.scheduler_info()["workers"]  # a cluster passed in is not closed


def test_a_cancelled_job_stops_and_resumes_from_its_batches(
    queue, two_workers, reference, no_runner_left
):
    job = queue.submit(OPENING, SLOW, ALICE)
    worker = QueueRunner(queue, client=two_workers, poll=0.1, heartbeat=0.2).start()
    try:
        tasks = ro.plan(OPENING, SLOW)
        _until(lambda: queue.batches.load(tasks), "a first stored batch")
        queue.cancel(job.key, ALICE)
        _until(lambda: worker.running == (), "the runner to drop the cancelled job")
        kept = len(queue.batches.load(tasks))
        assert 1 <= kept < 12 and queue.job(job.key).state == "cancelled"
        partial = queue.result(queue.job(job.key))
        assert partial is not None and not partial.complete
        before = worker.batches_run
        assert queue.submit(OPENING, SLOW, ALICE).state == "queued"
        worker.wake()
        _until(lambda: queue.job(job.key).state == "done", "the resumed job to be done")
        resumed_from = len(queue.batches.load(tasks)) - (worker.batches_run - before)
    finally:
        worker.stop()
    assert resumed_from >= kept  # nothing stored was run again
    assert queue.result(queue.job(job.key)) == reference["slow"]


def test_a_killed_app_process_loses_its_lease_and_another_resumes_the_job(
    queue, two_workers, reference, no_runner_left
):
    job = queue.submit(OPENING, SLOW, ALICE)
    tasks = ro.plan(OPENING, SLOW)
    spawn = multiprocessing.get_context("spawn")
    address = two_workers.scheduler.address
    app = spawn.Process(target=rollout_app.run_until_killed, args=(queue.url, address, 3.0))
    app.start()
    try:
        _until(lambda: queue.batches.load(tasks), "the app process's first stored batch")
        held = queue.job(job.key)
        assert held.state == "running" and held.lease_owner.split(":")[1] == str(app.pid)
    finally:
        os.kill(app.pid, signal.SIGKILL)
        app.join(WAIT)
    assert app.exitcode == -signal.SIGKILL
    kept = len(queue.batches.load(tasks))
    assert 1 <= kept < 12
    assert queue.claim("too-early") is None  # the dead process's lease still holds
    survivor = QueueRunner(queue, client=two_workers, poll=0.1).start()
    try:  # within the 3 s lease the survivor takes the job and resumes it
        _until(lambda: queue.job(job.key).state == "done", "the job to be done by the survivor")
    finally:
        survivor.stop()
    assert survivor.batches_run == 12 - kept  # only the batches not stored
    assert queue.job(job.key).lease_owner is None
    assert queue.result(queue.job(job.key)) == reference["slow"]


@pytest.fixture
def shared_queue(database):
    """A queue on a fresh database of each kind (the app processes open it by its URL)."""
    q = RolloutQueue(database)
    yield q
    q.dispose()


def test_two_app_processes_submitting_the_same_position_run_it_once(
    shared_queue, two_workers, reference, no_runner_left
):
    queue = shared_queue
    spawn = multiprocessing.get_context("spawn")
    barrier = spawn.Barrier(2)
    results = spawn.Queue()
    address = two_workers.scheduler.address
    apps = [
        spawn.Process(
            target=rollout_app.submit_and_wait,
            args=(queue.url, address, SHORT_RACE, SETTINGS, session, barrier, results),
        )
        for session in (ALICE, BOB)
    ]
    for app in apps:
        app.start()
    try:
        reports = [results.get(timeout=WAIT) for _ in apps]
    finally:
        for app in apps:
            app.join(WAIT)
    assert [app.exitcode for app in apps] == [0, 0]
    pids = {pid for pid, *_ in reports}
    assert pids == {app.pid for app in apps}
    keys = {key for _, key, *_ in reports}
    assert keys == {ro.rollout_key(SHORT_RACE, SETTINGS)}
    assert len(queue.jobs()) == 1
    # the batches ran once: one process ran all six, the other none
    assert sorted((ran, finished) for _, _, ran, finished, _ in reports) == [(0, 0), (6, 1)]
    # both see the same result, the undisturbed one
    assert [result for *_, result in reports] == [reference["race"]] * 2


def test_the_process_runner_is_one_per_database_and_opens_no_cluster_while_idle(
    queue, no_runner_left
):
    first = runner.process_runner(queue)
    assert runner.process_runner(queue) is first and first.alive
    assert first.workers() == {} and first.running == ()
    runner.stop_process_runner()
    assert not first.alive


def test_a_job_whose_batches_run_out_of_budget_fails_with_a_message(
    queue, two_workers, no_runner_left
):
    tight = dataclasses.replace(SLOW, batch_budget=0.01, seed=7)
    job = queue.submit(OPENING, tight, ALICE)
    worker = QueueRunner(queue, client=two_workers, poll=0.1).start()
    try:
        failed = _until(
            lambda: (j := queue.job(job.key)).state == "failed" and j, "the job to fail"
        )
    finally:
        worker.stop()
    assert failed.message == "A batch of trials did not finish within its time budget."
    assert queue.batches.load(ro.plan(OPENING, tight)) == {}
    assert queue.claim("another") is None


def test_a_cluster_that_cannot_be_reached_fails_the_job_and_the_runner_lives_on(
    queue, monkeypatch, no_runner_left
):
    monkeypatch.setenv(cluster.SCHEDULER_ENV, "http://not-a-scheduler")
    job = queue.submit(SHORT_RACE, SETTINGS, ALICE)
    worker = QueueRunner(queue, poll=0.1).start()
    try:
        failed = _until(
            lambda: (j := queue.job(job.key)).state == "failed" and j, "the job to fail"
        )
        assert failed.message == "The cluster could not be reached."
        assert worker.alive and worker.workers() == {}
        # the next job is taken too (and fails the same way): the thread did not die
        other = queue.submit(SHORT_RACE, dataclasses.replace(SETTINGS, seed=1), ALICE)
        worker.wake()
        _until(lambda: queue.job(other.key).state == "failed", "the next job to fail")
    finally:
        worker.stop()


def test_a_stopped_runner_gives_its_job_back_and_another_finishes_it(
    queue, two_workers, reference, no_runner_left
):
    job = queue.submit(OPENING, SLOW, ALICE)
    tasks = ro.plan(OPENING, SLOW)
    first = QueueRunner(queue, client=two_workers, poll=0.1, heartbeat=0.2).start()
    try:
        _until(lambda: queue.batches.load(tasks), "a first stored batch")
    finally:
        first.stop()
    assert not first.alive
    back = queue.job(job.key)
    assert back.state == "queued" and back.lease_owner is None
    kept = len(queue.batches.load(tasks))
    second = QueueRunner(queue, client=two_workers, poll=0.1).start()
    try:
        _until(lambda: queue.job(job.key).state == "done", "the job to be done")
    finally:
        second.stop()
    assert second.batches_run == 12 - kept
    assert queue.result(queue.job(job.key)) == reference["slow"]


def test_a_runner_holds_two_jobs_at_once_and_each_gets_its_own_result(
    queue, two_workers, reference, no_runner_left
):
    slow = queue.submit(OPENING, SLOW, ALICE)
    race = queue.submit(SHORT_RACE, SETTINGS, BOB)
    worker = QueueRunner(queue, client=two_workers, poll=0.1, jobs_at_once=2).start()
    try:
        both = (slow.key, race.key)
        _until(lambda: {queue.job(k).state for k in both} == {"done"}, "both jobs to be done")
    finally:
        worker.stop()
    assert worker.batches_run == 12 + 6 and worker.jobs_finished == 2
    # held together (one at a time, the race would have been claimed only after the
    # opening was done). Not read from the batches' times: the cluster may still run the
    # older job's batches first, both being in hand
    assert worker.most_held == 2
    assert queue.result(queue.job(slow.key)) == reference["slow"]
    assert queue.result(queue.job(race.key)) == reference["race"]
    with pytest.raises(ValueError, match="`jobs_at_once`"):
        QueueRunner(queue, jobs_at_once=0)
