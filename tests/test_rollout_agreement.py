"""The cluster's rollout agrees with the engine's own single-process rollout
(cubecore.engine.evaluate at level "rollout") on 11 positions: races, bear-offs and three
contact positions, on a real LocalCluster of two worker processes (the session's:
``two_workers``, tests/clusters.py).

1. Identity at the same seed and trials: one batch of all the trials, seeded with the
   engine's rollout seed (engine.ROLLOUT_SEED) and run on a cluster worker, gives exactly
   the engine's cubeless probabilities and equity (its standard error within a
   rounding); its ND and DT within 3 of the engine's standard errors (the engine's
   cubeful path was once not reproducible at the same seed: see the test).
2. The seeded rollout as the queue runs it (batches of 36 trials, each with its own
   seed derived from the rollout seed): its means differ from the engine's by at most
   3 standard errors of the difference, sqrt(se_cluster**2 + se_engine**2) (the two use
   independent dice), and its result reports the cube decision's standard errors.
"""

from __future__ import annotations

import dataclasses
import math

import pytest

from cubecore import engine
from cubecore import rollout as ro
from cubecore.position import Position, position_from_id
from rollouts import cluster

pytestmark = [pytest.mark.xdist_group("dask"), pytest.mark.timeout(1800)]

WAIT = 900.0


def _side(**points: int) -> tuple[int, ...]:
    """A side's 24 points from its own view, e.g. ``_side(p6=5, p8=3)``."""
    return tuple(points.get(f"p{k}", 0) for k in range(1, 25))


START = {"p6": 5, "p8": 3, "p13": 5, "p24": 2}
#: (name, position, trials): races and bear-offs at 360 trials, contact at 72 (a contact
#: trial costs about 0.2 s on this machine; both sides of the comparison roll it out).
POSITIONS = [
    ("short race", Position.from_home((0, 0, 2, 0, 3, 0), (0, 2, 0, 1, 2, 0)), 360),
    ("two each", Position.from_home((0, 0, 0, 2, 0, 0), (0, 0, 2, 0, 0, 0)), 360),
    ("one on 6 v two", Position.from_home((0, 0, 0, 0, 0, 1), (1, 1, 0, 0, 0, 0)), 360),
    ("six v six", Position.from_home((1, 1, 1, 1, 1, 1), (1, 1, 1, 1, 1, 1)), 360),
    ("twelve v twelve", Position.from_home((2, 2, 2, 2, 2, 2), (2, 2, 2, 2, 2, 2)), 360),
    ("fifteen v fifteen", Position.from_home((3, 3, 3, 2, 2, 2), (2, 3, 3, 3, 2, 2)), 360),
    (
        "long race",
        Position(
            _side(p5=2, p6=4, p7=3, p8=3, p9=2, p10=1), _side(p4=2, p5=3, p6=4, p7=3, p8=2, p9=1)
        ),
        360,
    ),
    (
        "mid race, some off",
        Position(
            _side(p4=1, p5=2, p6=3, p7=2, p8=2, p9=1, p10=1),
            _side(p3=1, p4=2, p5=2, p6=3, p7=2, p8=2, p9=1),
        ),
        360,
    ),
    ("opening", position_from_id("4HPwATDgc/ABMA"), 72),
    ("advanced anchor", Position(_side(**{**START, "p24": 0, "p21": 2}), _side(**START)), 72),
    (
        "hit or escape",
        Position(
            _side(p2=3, p3=3, p4=3, p5=3, p6=2, p7=1), _side(p1=3, p2=3, p3=3, p4=3, p5=2, p24=1)
        ),
        72,
    ),
]


class _EngineRollouts(dict[str, engine.EngineCubeDecision]):
    """The engine's own rollout of each position in this process (its seed, 42), once."""

    def __missing__(self, name: str) -> engine.EngineCubeDecision:
        position, trials = next((p, n) for key, p, n in POSITIONS if key == name)
        self[name] = engine.evaluate(position, level="rollout", trials=trials)
        return self[name]


@pytest.fixture(scope="module")
def engine_rollouts():
    try:
        yield _EngineRollouts()
    finally:
        engine.stop_child()


def test_there_are_enough_positions_of_each_kind():
    kinds = [p.is_race for _, p, _ in POSITIONS]
    assert len(POSITIONS) >= 10 and kinds.count(False) == 3


@pytest.mark.parametrize(("name", "position", "trials"), POSITIONS, ids=[p[0] for p in POSITIONS])
def test_one_batch_at_the_engine_seed_is_the_engine_rollout(
    two_workers, engine_rollouts, name, position, trials
):
    settings = ro.RolloutSettings(trials=trials, batch_trials=trials)
    (planned,) = ro.plan(position, settings)
    task = dataclasses.replace(planned, seed=engine.ROLLOUT_SEED)
    batch = two_workers.submit(ro.run_batch, task, pure=False).result(timeout=WAIT)
    ours = ro.combine([task], {0: batch})
    theirs = engine_rollouts[name]
    assert ours.trials == trials and theirs.standard_errors is not None
    # the cubeless results are the engine's, exactly
    assert ours.cubeless_equity == theirs.cubeless_equity
    assert ours.probabilities == theirs.probabilities
    # The cubeful ND and DT were the engine's exactly in 32 of 33 position runs; once
    # (one on 6 v two, on a loaded machine) the engine's own rollout in this process
    # said ND 0.50885 where the same seed gave 0.5 (the exact value) on the worker and
    # in a quiet process three times: bgsage's rollout runs 2 threads here
    # (parallel_threads=0 is one per core) and its cubeful path is not always
    # reproducible across threads. Until the engine adapter pins one thread, they are
    # held to 3 standard errors of the engine's estimate, not to identity.
    for k, (a, b) in enumerate(
        [(ours.no_double, theirs.no_double), (ours.double_take, theirs.double_take)], 1
    ):
        assert b is not None and abs(a - b) <= 3 * theirs.standard_errors[k] + 1e-12
    # a batch keeps the variance of its sum, (n se)**2, and the combine takes its root
    # over n again: the engine's standard error of the cubeless equity comes back
    # within a rounding
    assert ours.standard_errors[0] == pytest.approx(theirs.standard_errors[0], rel=1e-14, abs=0)


@pytest.mark.parametrize(("name", "position", "trials"), POSITIONS, ids=[p[0] for p in POSITIONS])
def test_the_seeded_cluster_rollout_agrees_within_three_standard_errors(
    two_workers, engine_rollouts, name, position, trials
):
    settings = ro.RolloutSettings(trials=trials, batch_trials=36, seed=4141)
    ours = cluster.ClusterRollout(two_workers, position, settings).result(timeout=WAIT)
    theirs = engine_rollouts[name]
    assert ours.complete and ours.batches == trials // 36
    assert theirs.standard_errors is not None and theirs.double_take is not None
    # the cube decision's standard errors are reported: (cubeless, ND, DT)
    assert len(ours.standard_errors) == 3 and all(se >= 0 for se in ours.standard_errors)
    pairs = {
        "cubeless equity": (ours.cubeless_equity, theirs.cubeless_equity, 0),
        "no double": (ours.no_double, theirs.no_double, 1),
        "double, take": (ours.double_take, theirs.double_take, 2),
    }
    for what, (a, b, k) in pairs.items():
        se = math.hypot(ours.standard_errors[k], theirs.standard_errors[k])
        assert abs(a - b) <= 3 * se + 1e-9, (
            f"{name}, {what}: cluster {a:.5f} +- {ours.standard_errors[k]:.5f}, "
            f"engine {b:.5f} +- {theirs.standard_errors[k]:.5f}"
        )
    if not position.is_race:  # contact: the dice matter, the errors are not 0
        assert min(ours.standard_errors) > 0
