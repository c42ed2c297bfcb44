"""The shared rollout queue (store.rollout_queue) on SQLite and on a real PostgreSQL server:
one job per rollout, the limits, bad input refused with nothing stored, and leases (a
fake clock moves time; nothing sleeps). The cluster runs in tests/test_rollout_runner.py.
"""

from __future__ import annotations

import dataclasses
import secrets
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config

import store
from cubecore import rollout as ro
from cubecore.position import Position
from store import rollout_queue as rq
from store.rollout_queue import RolloutQueue
from store.schema import rollout_batches, rollout_jobs

SHORT_RACE = Position.from_home((0, 0, 2, 0, 3, 0), (0, 2, 0, 1, 2, 0))
OTHER_RACE = Position.from_home((0, 0, 0, 2, 0, 0), (0, 0, 2, 0, 0, 0))
SETTINGS = ro.RolloutSettings(trials=72, batch_trials=36, seed=7)
ALICE = "a" * 32
BOB = "b" * 32


@pytest.fixture
def queue(database, clock):
    q = RolloutQueue(database, clock=clock)
    yield q
    q.dispose()


def _rows(q: RolloutQueue, table: sa.Table) -> int:
    with q.engine.connect() as db:
        return db.execute(sa.select(sa.func.count()).select_from(table)).scalar_one()


def _race(n: int) -> Position:
    """The n-th of many distinct short races (n < 15)."""
    return Position.from_home((0, 0, 0, 0, 0, 1 + n), (0, 0, 0, 0, 2, 0))


# one job per rollout ---------------------------------------------------------------------
def test_a_rollout_is_queued_once_whoever_submits_it(queue):
    first = queue.submit(SHORT_RACE, SETTINGS, ALICE)
    assert first.state == "queued" and first.submitted_by == ALICE
    assert first.key == ro.rollout_key(SHORT_RACE, SETTINGS)
    assert first.position == SHORT_RACE and first.settings == SETTINGS and first.trials == 72
    assert queue.submit(SHORT_RACE, SETTINGS, ALICE) == first
    assert queue.submit(SHORT_RACE, SETTINGS, BOB) == first  # Bob sees Alice's job
    assert _rows(queue, rollout_jobs) == 1
    # another seed is another rollout
    other = queue.submit(SHORT_RACE, dataclasses.replace(SETTINGS, seed=8), BOB)
    assert other.key != first.key and _rows(queue, rollout_jobs) == 2
    assert [j.key for j in queue.jobs(session=BOB)] == [other.key]
    assert {j.key for j in queue.jobs()} == {first.key, other.key}


def test_a_done_rollout_is_never_queued_again(queue):
    job = queue.submit(SHORT_RACE, SETTINGS, ALICE)
    assert queue.claim("runner-1") is not None
    assert queue.finish(job.key, "runner-1", "done")
    again = queue.submit(SHORT_RACE, SETTINGS, BOB)
    assert again.state == "done" and again.submitted_by == ALICE
    assert queue.claim("runner-2") is None


def test_a_cancelled_rollout_submitted_again_is_queued_again(queue, clock):
    job = queue.submit(SHORT_RACE, SETTINGS, ALICE)
    with pytest.raises(ValueError, match="Only the session that submitted"):
        queue.cancel(job.key, BOB)
    assert queue.cancel(job.key, ALICE).state == "cancelled"
    assert queue.claim("runner-1") is None  # nothing to run
    clock.advance(timedelta(minutes=1))
    again = queue.submit(SHORT_RACE, SETTINGS, BOB)
    assert again.state == "queued" and again.submitted_by == BOB
    assert again.submitted_at > job.submitted_at and _rows(queue, rollout_jobs) == 1
    with pytest.raises(ValueError, match="no such rollout"):
        queue.cancel("rollout-" + "0" * 32, BOB)


def test_a_running_rollout_cancelled_stops_its_runner_at_the_next_heartbeat(queue):
    job = queue.submit(SHORT_RACE, SETTINGS, ALICE)
    assert queue.claim("runner-1").key == job.key
    assert queue.heartbeat(job.key, "runner-1")
    queue.cancel(job.key, ALICE)
    assert not queue.heartbeat(job.key, "runner-1")
    assert not queue.finish(job.key, "runner-1", "done")  # it stays cancelled
    assert queue.job(job.key).state == "cancelled"


# leases ----------------------------------------------------------------------------------
def test_a_lease_holds_the_job_until_it_expires_then_another_process_takes_it(queue, clock):
    job = queue.submit(SHORT_RACE, SETTINGS, ALICE)
    held = queue.claim("runner-1")
    assert held.state == "running" and held.lease_owner == "runner-1"
    assert held.lease_expires == queue.now() + rq.LEASE
    assert queue.claim("runner-2") is None  # held
    clock.advance(rq.LEASE / 2)
    assert queue.heartbeat(job.key, "runner-1")  # renewed: another LEASE from now
    clock.advance(rq.LEASE * 3 / 4)
    assert queue.claim("runner-2") is None  # still held thanks to the heartbeat
    clock.advance(rq.LEASE)  # runner-1 died: no heartbeat for longer than the lease
    taken = queue.claim("runner-2")
    assert taken.key == job.key and taken.lease_owner == "runner-2"
    assert not queue.heartbeat(job.key, "runner-1")  # the dead one cannot take it back
    assert not queue.finish(job.key, "runner-1", "done")
    assert queue.finish(job.key, "runner-2", "done")
    assert queue.job(job.key).state == "done" and queue.job(job.key).lease_owner is None


def test_jobs_are_taken_oldest_first_and_a_given_back_job_waits_again(queue, clock):
    keys = []
    for n in range(3):
        keys.append(queue.submit(_race(n), SETTINGS, ALICE).key)
        clock.advance(timedelta(seconds=1))
    assert queue.claim("r").key == keys[0]
    assert queue.finish(keys[0], "r", "queued")  # a runner stopping gives its job back
    assert queue.job(keys[0]).state == "queued"
    assert [queue.claim("r").key for _ in range(3)] == keys
    assert queue.claim("r") is None
    with pytest.raises(ValueError, match="`state`"):
        queue.finish(keys[0], "r", "cancelled")
    with pytest.raises(ValueError, match="lease owner"):
        queue.claim("bad owner; drop table")


# limits ----------------------------------------------------------------------------------
def test_a_session_holds_at_most_five_rollouts_waiting_or_running(queue):
    assert rq.SESSION_JOBS == 5 and queue.session_jobs == 5
    jobs = [queue.submit(_race(n), SETTINGS, ALICE) for n in range(5)]
    with pytest.raises(ValueError, match="You already have 5 rollouts waiting or running"):
        queue.submit(_race(5), SETTINGS, ALICE)
    assert _rows(queue, rollout_jobs) == 5
    assert queue.submit(_race(0), SETTINGS, ALICE) == jobs[0]  # one already queued: fine
    queue.submit(_race(5), SETTINGS, BOB)  # another session has its own share
    # one finishes: a place is free again
    assert queue.claim("r").key == jobs[0].key
    assert queue.finish(jobs[0].key, "r", "done")
    assert queue.submit(_race(6), SETTINGS, ALICE).state == "queued"
    queue.cancel(jobs[1].key, ALICE)
    assert queue.submit(_race(7), SETTINGS, ALICE).state == "queued"


def test_the_whole_queue_is_bounded(database, clock):
    assert rq.QUEUE_JOBS == 200
    q = RolloutQueue(database, clock=clock, queue_jobs=3)
    try:
        for n in range(3):
            q.submit(_race(n), SETTINGS, secrets.token_hex(16))
        with pytest.raises(ValueError, match=r"The rollout queue is full \(3 rollouts"):
            q.submit(_race(3), SETTINGS, secrets.token_hex(16))
        assert _rows(q, rollout_jobs) == 3
    finally:
        q.dispose()


def test_a_client_address_holds_a_bounded_share_whatever_its_session_tokens(database, clock):
    assert rq.CLIENT_JOBS == 50
    q = RolloutQueue(database, clock=clock, client_jobs=3)
    try:
        for n in range(3):  # a script drawing a new session token for every submission
            q.submit(_race(n), SETTINGS, secrets.token_hex(16), client="203.0.113.7")
        with pytest.raises(ValueError, match=r"3 rollouts from your network .*\(at most 3\)"):
            q.submit(_race(3), SETTINGS, secrets.token_hex(16), client="203.0.113.7")
        q.submit(_race(3), SETTINGS, secrets.token_hex(16), client="198.51.100.1")
        assert _rows(q, rollout_jobs) == 4
        with pytest.raises(ValueError, match="client address must be text"):
            q.submit(_race(4), SETTINGS, ALICE, client=7)
    finally:
        q.dispose()


GAME_OVER = Position.from_home((0, 0, 0, 0, 0, 0), (0, 0, 0, 0, 2, 0))


@pytest.mark.parametrize(
    ("position", "changes", "session", "message"),
    [
        (
            SHORT_RACE,
            {"trials": 0, "batch_trials": 36},
            ALICE,
            "Trials must be .* from 36 to 46,656; got 0",
        ),
        (SHORT_RACE, {"trials": 10**9}, ALICE, "Trials must be .* got 1000000000"),
        (SHORT_RACE, {"trials": 46_692, "batch_trials": 36}, ALICE, "from 36 to 46,656"),
        (
            SHORT_RACE,
            {"trials": 108, "batch_trials": 72},
            ALICE,
            r"multiple of the trials per batch \(72\)",
        ),
        (SHORT_RACE, {"batch_trials": 40, "trials": 80}, ALICE, "multiple of 36; got 40"),
        (SHORT_RACE, {"truncation": -1}, ALICE, "Truncation must be .* from 0 .* to 100; got -1"),
        (SHORT_RACE, {"truncation": 101}, ALICE, "got 101"),
        (SHORT_RACE, {"trials": 72.0}, ALICE, "Trials must be a whole number"),
        (GAME_OVER, {}, ALICE, "The game is over in this position"),
        (SHORT_RACE, {"cube": 3}, ALICE, "cannot be rolled out: cube"),
        (SHORT_RACE, {"away": 3, "opp_away": 0}, ALICE, "cannot be rolled out"),
        ("4HPwATDgc/ABMA", {}, ALICE, "not a backgammon position"),
        (SHORT_RACE, {}, "not-a-token", "session token"),
    ],
)
def test_bad_input_is_named_and_nothing_is_stored(queue, position, changes, session, message):
    settings = dataclasses.replace(SETTINGS, **changes)
    with pytest.raises(ValueError, match=message) as refused:
        queue.submit(position, settings, session)
    assert "`" not in str(refused.value)  # players' words
    assert _rows(queue, rollout_jobs) == 0 and _rows(queue, rollout_batches) == 0


# schema ----------------------------------------------------------------------------------
def test_the_jobs_revision_goes_down_and_up_again(database, clock):
    q = RolloutQueue(database, clock=clock)
    q.submit(SHORT_RACE, SETTINGS, ALICE)
    config = Config()
    config.set_main_option("script_location", str(Path(store.__file__).parent / "migrations"))
    with q.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0004_rollout_batches")
    assert "rollout_jobs" not in sa.inspect(q.engine).get_table_names()
    q.dispose()
    again = RolloutQueue(database, clock=clock)  # migrates up again: an empty queue
    assert again.jobs() == () and again.submit(SHORT_RACE, SETTINGS, ALICE).state == "queued"
    again.dispose()


def test_the_tests_really_ran_on_postgresql(postgres_url):
    engine = sa.create_engine(postgres_url)
    with engine.connect() as db:
        assert db.execute(sa.text("SELECT version()")).scalar_one().startswith("PostgreSQL")
    engine.dispose()


def test_progress_counts_the_stored_batches_and_the_time_left_follows_their_rate(queue):
    job = queue.submit(SHORT_RACE, SETTINGS, ALICE)
    assert queue.progress(job.key) == rq.Progress(0, 0, None, None)
    assert queue.result(job) is None
    tasks = ro.plan(SHORT_RACE, SETTINGS)
    batch = ro.run_batch(tasks[1])
    queue.batches.save(tasks[1], batch)
    progress = queue.progress(job.key)
    assert (progress.batches, progress.trials) == (1, 36)
    assert progress.seconds_left(72) is None  # one batch: no rate yet
    assert queue.result(job) == ro.combine(tasks, {1: batch})
    # 3 batches of 36 in 10 s: 72 trials since the first, 252 to go -> 35 s
    t0 = datetime(2026, 11, 29, 9, 0)
    assert rq.Progress(3, 108, t0, t0 + timedelta(seconds=10)).seconds_left(360) == 35.0
    assert rq.Progress(3, 108, t0, t0).seconds_left(360) is None  # no time has passed
    assert rq.Progress(3, 108, t0, t0 + timedelta(seconds=10)).seconds_left(108) == 0.0
