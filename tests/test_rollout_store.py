"""The rollout batches in the store (store.rollouts): a batch read back is the batch
written, a batch is stored once, and only a plan's own batches are loaded."""

import pytest
from sqlalchemy import func, select

from cubecore import rollout as ro
from cubecore.position import Position
from store.rollouts import RolloutStore
from store.schema import rollout_batches

SHORT_RACE = Position.from_home((0, 0, 2, 0, 3, 0), (0, 2, 0, 1, 2, 0))
SETTINGS = ro.RolloutSettings(trials=72, batch_trials=36, seed=99)


@pytest.fixture
def rollout_store(tmp_path):
    store = RolloutStore(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    yield store
    store.dispose()


def test_a_batch_read_back_is_the_batch_written_and_is_stored_once(rollout_store):
    tasks = ro.plan(SHORT_RACE, SETTINGS)
    batch = ro.run_batch(tasks[1])
    assert rollout_store.load(tasks) == {}
    assert rollout_store.save(tasks[1], batch) is True
    assert rollout_store.save(tasks[1], batch) is False  # already there: nothing changes
    assert rollout_store.load(tasks) == {1: batch}
    with rollout_store.engine.connect() as db:
        assert db.execute(select(func.count()).select_from(rollout_batches)).scalar() == 1
    assert ro.combine(tasks, rollout_store.load(tasks)) == ro.combine(tasks, {1: batch})
    # another rollout (another seed) sees none of them
    other = ro.plan(SHORT_RACE, ro.RolloutSettings(trials=72, batch_trials=36, seed=98))
    assert rollout_store.load(other) == {}
    with pytest.raises(ValueError, match="not the result of its task"):
        rollout_store.save(other[1], batch)
