"""Tests of cubecore.rollout: seeds, plan, bad input, and a combine that ignores order."""

import math

import hypothesis.strategies as hst
import numpy as np
import pytest
from hypothesis import given, settings

from cubecore import engine
from cubecore import rollout as ro
from cubecore.cubeful import proper_cube_action
from cubecore.position import Position

SHORT_RACE = Position.from_home((0, 0, 2, 0, 3, 0), (0, 2, 0, 1, 2, 0))
SMALL = ro.RolloutSettings(trials=108, batch_trials=36, seed=7)


def test_batch_seeds_are_seed_sequence_children():
    seeds = ro.batch_seeds(7, 4)
    children = np.random.SeedSequence(7).spawn(4)
    assert seeds == tuple(int(c.generate_state(1, dtype=np.uint32)[0]) for c in children)
    assert len(set(seeds)) == 4
    assert ro.batch_seeds(7, 6)[:4] == seeds  # more batches keep the first ones' seeds
    assert ro.batch_seeds(8, 4) != seeds


def test_plan_splits_trials_into_seeded_batches():
    tasks = ro.plan(SHORT_RACE, SMALL)
    assert [t.index for t in tasks] == [0, 1, 2]
    assert tuple(t.seed for t in tasks) == ro.batch_seeds(7, 3)
    assert len({t.key for t in tasks}) == 1
    # the key names the rollout: another seed, cube or score is another rollout,
    # the budget is not
    assert ro.plan(SHORT_RACE, ro.RolloutSettings(108, 36, 7, batch_budget=5.0))[0].key == (
        tasks[0].key
    )
    for other in (
        ro.RolloutSettings(108, 36, 8),
        ro.RolloutSettings(108, 36, 7, away=3, opp_away=5),
        ro.RolloutSettings(108, 36, 7, truncation=7),
        ro.RolloutSettings(144, 36, 7),
    ):
        assert ro.plan(SHORT_RACE, other)[0].key != tasks[0].key


@pytest.mark.parametrize(
    ("settings_", "named"),
    [
        (ro.RolloutSettings(trials=0, batch_trials=36), "trials"),
        (ro.RolloutSettings(trials=10**9, batch_trials=36), "trials"),
        (ro.RolloutSettings(trials=100, batch_trials=36), "trials"),
        (ro.RolloutSettings(trials=72, batch_trials=40), "batch_trials"),
        (ro.RolloutSettings(trials=ro.MAX_TRIALS, batch_trials=36), "batch_trials"),
        (ro.RolloutSettings(truncation=-1), "truncation"),
        (ro.RolloutSettings(seed=-5), "seed"),
        (ro.RolloutSettings(cube=3), "cube"),
        (ro.RolloutSettings(owner="me"), "owner"),  # type: ignore[arg-type]
        (ro.RolloutSettings(away=3), "away"),
        (ro.RolloutSettings(away=30, opp_away=3), "away"),
        (ro.RolloutSettings(away=3, opp_away=3, crawford=True), "crawford"),
        (ro.RolloutSettings(batch_budget=0.0), "batch_budget"),
        (ro.RolloutSettings(batch_budget=float("nan")), "batch_budget"),
        (ro.RolloutSettings(batch_budget=10**6), "batch_budget"),
    ],
)
def test_plan_refuses_bad_settings_by_name(settings_, named):
    with pytest.raises(ValueError, match=f"`{named}`"):
        ro.plan(SHORT_RACE, settings_)


def test_plan_refuses_a_finished_game_and_non_positions():
    over = Position.from_home((0,) * 6, (1, 0, 0, 0, 0, 0))
    with pytest.raises(ValueError, match="`position`"):
        ro.plan(over, SMALL)
    with pytest.raises(ValueError, match="`position`"):
        ro.plan("4HPwATDgc/ABMA", SMALL)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="`settings`"):
        ro.plan(SHORT_RACE, {"trials": 36})  # type: ignore[arg-type]


# --------------------------------------------------------------------------- combine

PLAN = ro.plan(SHORT_RACE, ro.RolloutSettings(trials=36 * 8, batch_trials=36, seed=11))


def _batch(task, win, gammon, nd, dt, var):
    n = task.settings.batch_trials
    return engine.RolloutBatchSums(
        seed=task.seed,
        trials=n,
        truncation=task.settings.truncation,
        probabilities=(n * win, n * gammon, 0.0, 0.0, 0.0),
        cubeless=n * (2 * win - 1 + gammon),
        no_double=n * nd,
        double_take=n * dt,
        cubeless_variance=var,
        no_double_variance=2 * var,
        double_take_variance=4 * var,
        cube_available=True,
        engine_version=engine.ENGINE_VERSION,
    )


batch_values = hst.tuples(
    hst.floats(0.3, 0.9),  # win
    hst.floats(0.0, 0.25),  # gammon (<= win)
    hst.floats(-1.0, 1.0),  # ND
    hst.floats(-2.0, 2.0),  # DT
    hst.floats(1e-6, 10.0),  # variance of a sum
)


@settings(max_examples=60, deadline=None)
@given(values=hst.lists(batch_values, min_size=8, max_size=8), data=hst.data())
def test_combine_is_the_same_whatever_the_order_and_workers(values, data):
    results = {t.index: _batch(t, *v) for t, v in zip(PLAN, values, strict=True)}
    reference = ro.combine(PLAN, results)
    # any finishing order (the order of a dict is its insertion order)
    order = data.draw(hst.permutations(list(results)))
    assert ro.combine(PLAN, {i: results[i] for i in order}) == reference
    # any number of workers: batches dealt round-robin to w workers, each worker's
    # results arriving as a block, the blocks in any order
    workers = data.draw(hst.integers(1, 8))
    blocks = [order[w::workers] for w in range(workers)]
    arrival = [i for block in data.draw(hst.permutations(blocks)) for i in block]
    assert ro.combine(PLAN, {i: results[i] for i in arrival}) == reference
    assert reference.complete and reference.trials == 288 and reference.batches == 8


def test_combine_means_and_standard_errors_by_hand():
    two = ro.plan(SHORT_RACE, ro.RolloutSettings(trials=72, batch_trials=36, seed=3))
    a = _batch(two[0], 0.6, 0.1, 0.30, 0.50, 0.36)
    b = _batch(two[1], 0.8, 0.2, 0.70, 0.90, 1.00)
    r = ro.combine(two, {1: b, 0: a})
    assert r.probabilities.win == pytest.approx(0.7)
    assert r.probabilities.win_gammon == pytest.approx(0.15)
    assert r.no_double == pytest.approx(0.5)
    assert r.double_take == pytest.approx(0.7)
    # se = sqrt(sum of the sums' variances) / N
    assert r.standard_errors[0] == pytest.approx(math.sqrt(1.36) / 72)
    assert r.standard_errors[1] == pytest.approx(math.sqrt(2.72) / 72)
    assert r.standard_errors[2] == pytest.approx(math.sqrt(5.44) / 72)
    proper = proper_cube_action(0.5, 0.7, 1.0, money=True, can_gammon=True)
    assert (r.action, r.optimal) == (proper.action, proper.optimal)
    partial = ro.combine(two, {1: b})
    assert not partial.complete and partial.trials == 36
    assert partial.no_double == pytest.approx(0.7)


def test_combine_refuses_results_of_another_rollout():
    results = {t.index: _batch(t, 0.6, 0.1, 0.3, 0.5, 1.0) for t in PLAN}
    other = ro.plan(SHORT_RACE, ro.RolloutSettings(trials=36 * 8, batch_trials=36, seed=12))
    with pytest.raises(ValueError, match="`results`: batch 0 is not the result of its task"):
        ro.combine(other, results)
    with pytest.raises(ValueError, match="`results`: batch 99"):
        ro.combine(PLAN, {99: results[0]})
    with pytest.raises(ValueError, match="`results` is empty"):
        ro.combine(PLAN, {})
    with pytest.raises(ValueError, match="more than one rollout"):
        ro.combine([*PLAN, *other], results)


def test_run_batch_is_the_engine_batch_of_its_task():
    tasks = ro.plan(SHORT_RACE, SMALL)
    done = ro.run_batch(tasks[1])
    assert done.seed == tasks[1].seed and done.trials == 36
    assert done == engine.rollout_batch(SHORT_RACE, seed=tasks[1].seed, trials=36)
    result = ro.combine(tasks, {1: done})
    assert result.no_double == pytest.approx(done.no_double / 36)


def test_combine_reports_feasible_probabilities_when_an_estimate_strays_outside():
    # bgsage's variance-reduced estimate of a rate that is nearly 0 can come out a hair
    # below 0 (seen: P(lose gammon) = -1.35e-5 on 72 trials of an ace-point game, where
    # the engine's own rollout level raised on it); the result reports the nearest
    # probabilities one game can have, and leaves the equities as estimated
    task = PLAN[0]
    n = task.settings.batch_trials
    stray = engine.RolloutBatchSums(
        seed=task.seed,
        trials=n,
        truncation=0,
        probabilities=(n * 1.00002, n * 0.3, n * 0.31, n * -1.35e-5, n * -2e-6),
        cubeless=n * 1.3,
        no_double=n * 0.9,
        double_take=n * 1.7,
        cubeless_variance=0.01,
        no_double_variance=0.01,
        double_take_variance=0.01,
        cube_available=True,
        engine_version=engine.ENGINE_VERSION,
    )
    r = ro.combine(PLAN, {0: stray})
    assert tuple(r.probabilities.__dict__.values()) == (1.0, 0.3, 0.3, 0.0, 0.0)
    assert r.cubeless_equity == pytest.approx(1.3)
    assert r.no_double == pytest.approx(0.9) and r.double_take == pytest.approx(1.7)
