"""A rollout as a set of seeded tasks: plan the batches, evaluate one, combine them.

A rollout of one position (with its cube, score and settings) is split into batches of
trials. Each batch has its own seed, derived from the one rollout seed by NumPy's
:class:`numpy.random.SeedSequence` ([NEP19]_): batch ``i`` of ``n`` gets

.. math::

    \\text{seed}_i = \\operatorname{SeedSequence}(\\text{seed}).\\operatorname{spawn}(n)[i]
    .\\operatorname{generate\\_state}(1, \\text{uint32})[0],

statistically independent streams (SeedSequence hashes the entropy with the spawn key)
that depend only on the rollout seed and ``i``. A batch is therefore a pure task: the
same batch gives the same sums on any worker, after any failure and in any order, and
:func:`combine` adds the batches in the order of their index with exactly rounded sums
(:func:`math.fsum`), so the combined result is the same whatever the number of workers
and the order in which batches finish.

Combining independent batches is stratified sampling ([COCHRAN]_, eq. 5.6): with batch
``b`` of :math:`n_b` trials reporting the sum :math:`S_b = n_b \\bar x_b` and the
variance of that sum :math:`V_b = n_b^2 s_b^2` (:class:`cubecore.engine.RolloutBatchSums`),

.. math::

    \\bar x = \\frac{\\sum_b S_b}{N}, \\qquad
    \\operatorname{se}(\\bar x) = \\frac{\\sqrt{\\sum_b V_b}}{N}, \\qquad N = \\sum_b n_b .

The cube decision is the app's one decision rule
(:func:`cubecore.cubeful.proper_cube_action`) on the combined ND and DT equities.

This module schedules nothing: :mod:`rollouts.cluster` runs the tasks on a Dask cluster;
:func:`run_batch` evaluates one task in the calling process.

References
----------
.. [NEP19] R. Kern et al., "NEP 19 - Random number generator policy", NumPy, 2018;
   https://numpy.org/neps/nep-0019-rng-policy.html (SeedSequence and spawn).
.. [COCHRAN] W. G. Cochran, *Sampling Techniques*, 3rd ed., Wiley, 1977, ch. 5
   (stratified random sampling: mean and variance of the estimate).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass

import numpy as np

from cubecore import engine
from cubecore._validate import choice, flag, whole_number
from cubecore.cubeful import CubelessProbabilities, proper_cube_action
from cubecore.match_points import CubeOwner
from cubecore.position import Position, position_id

__all__ = [
    "MAX_BATCHES",
    "MAX_TRIALS",
    "RolloutResult",
    "RolloutSettings",
    "RolloutTask",
    "batch_seeds",
    "combine",
    "decision",
    "plan",
    "rollout_key",
    "run_batch",
]

#: Most trials of one rollout (a budget: 100 full 1,296-trial rollouts).
MAX_TRIALS = 129_600
#: Most batches of one rollout (a budget on the number of tasks).
MAX_BATCHES = 1_000
#: Most seconds one batch may take (the engine's budget of one evaluation).
MAX_BATCH_BUDGET = engine.MAX_BUDGET


@dataclass(frozen=True)
class RolloutSettings:
    """What a rollout is, besides its position: cube, score, trials, seed, budget.

    Attributes
    ----------
    trials : int
        Trials in all, a multiple of ``batch_trials``, 36 .. :data:`MAX_TRIALS`.
    batch_trials : int
        Trials of one batch (one task), a multiple of 36 (the first roll is stratified).
    seed : int
        The rollout seed, 0 .. 2**32 - 1; the batches' seeds derive from it.
    truncation : int
        Plies after which a trial is evaluated instead of played on (0: none).
    play : int
        The ply of the trials' checker play, one of :data:`cubecore.engine.ROLLOUT_PLAYS`
        (1: the engine's network alone, the default).
    cube, owner, away, opp_away, crawford, jacoby, beavers
        As in :func:`cubecore.engine.evaluate` (``away = opp_away = 0``: money).
    batch_budget : float
        Seconds one batch may take before it is stopped, (0, 3600].
    """

    trials: int = 1296
    batch_trials: int = 144
    seed: int = engine.ROLLOUT_SEED
    truncation: int = 0
    play: int = 1
    cube: int = 1
    owner: CubeOwner = "center"
    away: int = 0
    opp_away: int = 0
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False
    batch_budget: float = 600.0

    @property
    def batches(self) -> int:
        """Number of batches."""
        return self.trials // self.batch_trials


@dataclass(frozen=True)
class RolloutTask:
    """One batch of a rollout: everything a worker needs, and nothing else.

    Attributes
    ----------
    key : str
        The rollout's key (:func:`rollout_key`): position, cube, score, engine version
        and settings; equal keys are the same rollout.
    index : int
        The batch's index, 0 .. batches - 1.
    seed : int
        The batch's bgsage seed (:func:`batch_seeds`).
    position : Position
        The position, from the view of the player on roll.
    settings : RolloutSettings
        The rollout's settings.
    """

    key: str
    index: int
    seed: int
    position: Position
    settings: RolloutSettings


@dataclass(frozen=True)
class RolloutResult:
    """The combined result of a rollout's finished batches.

    Attributes
    ----------
    key : str
        The rollout's key.
    trials, batches : int
        Trials and batches combined; ``complete`` when all of the plan's are in.
    complete : bool
        Every batch of the plan is combined.
    probabilities : CubelessProbabilities
        Mean cubeless probabilities of the player on roll.
    cubeless_equity, no_double, double_take, double_pass : float
        Mean equities per unit of the cube (DT unbeavered; DP is 1, a pass).
    standard_errors : tuple of 3 float
        Standard errors of (cubeless equity, ND, DT).
    action : str
        The proper action by :func:`cubecore.cubeful.proper_cube_action` ("No double
        (the cube is not available)" where the player on roll may not double).
    optimal : float
        The equity of the proper action.
    engine_version : str
        The engine version that computed the batches.
    cube_available : bool
        Whether the player on roll may double (as the engine's batches say).
    """

    key: str
    trials: int
    batches: int
    complete: bool
    probabilities: CubelessProbabilities
    cubeless_equity: float
    no_double: float
    double_take: float
    double_pass: float
    standard_errors: tuple[float, float, float]
    action: str
    optimal: float
    engine_version: str
    cube_available: bool = True


def batch_seeds(seed: int, batches: int) -> tuple[int, ...]:
    """The batches' bgsage seeds derived from one rollout seed (module notes).

    Examples
    --------
    >>> batch_seeds(42, 3) == batch_seeds(42, 5)[:3]
    True
    """
    root = whole_number("seed", seed, 0, engine.MAX_SEED)
    n = whole_number("batches", batches, 1, MAX_BATCHES)
    children = np.random.SeedSequence(root).spawn(n)
    return tuple(int(child.generate_state(1, dtype=np.uint32)[0]) for child in children)


def _settings(settings: object) -> RolloutSettings:
    if not isinstance(settings, RolloutSettings):
        raise ValueError(f"`settings` must be a RolloutSettings, got {type(settings).__name__}")
    s = settings
    batch = whole_number("batch_trials", s.batch_trials, 36, MAX_TRIALS)
    if batch % 36:
        raise ValueError(f"`batch_trials` must be a multiple of 36 (got {batch})")
    trials = whole_number("trials", s.trials, 36, MAX_TRIALS)
    if trials % batch:
        raise ValueError(f"`trials` ({trials}) must be a multiple of `batch_trials` ({batch})")
    if trials // batch > MAX_BATCHES:
        raise ValueError(
            f"`batch_trials`: {trials} trials in batches of {batch} make more than "
            f"{MAX_BATCHES} batches"
        )
    whole_number("seed", s.seed, 0, engine.MAX_SEED)
    whole_number("truncation", s.truncation, 0, engine.MAX_TRUNCATION)
    whole_number("play", s.play, min(engine.ROLLOUT_PLAYS), max(engine.ROLLOUT_PLAYS))
    choice("owner", s.owner, ("center", "player", "opponent"))
    flag("crawford", s.crawford)
    flag("jacoby", s.jacoby)
    flag("beavers", s.beavers)
    whole_number("away", s.away, 0, engine.MAX_AWAY)
    whole_number("opp_away", s.opp_away, 0, engine.MAX_AWAY)
    if (s.away == 0) != (s.opp_away == 0):
        raise ValueError("give both `away` and `opp_away` for a match, or neither (0) for money")
    budget = s.batch_budget
    if isinstance(budget, bool) or not isinstance(budget, (int, float)):
        raise ValueError(f"`batch_budget` must be a number of seconds, got {budget!r}")
    if not (math.isfinite(budget) and 0.0 < budget <= MAX_BATCH_BUDGET):
        raise ValueError(f"`batch_budget` must be in (0, {MAX_BATCH_BUDGET:g}] s, got {budget!r}")
    return s


def rollout_key(position: Position, settings: RolloutSettings) -> str:
    """A rollout's key: a hash of position, cube, score, engine version and settings.

    The per-batch budget is left out (it bounds the work, it does not change a result),
    and so is a checker play at 1-ply (the only one before the setting existed), so a
    rollout keeps its key; another level is another rollout.
    """
    fields = asdict(settings)
    del fields["batch_budget"]
    if fields["play"] == 1:
        del fields["play"]
    text = json.dumps(
        {
            "position": position_id(position),
            "engine": engine.ENGINE_VERSION,
            "settings": fields,
        },
        sort_keys=True,
    )
    return "rollout-" + hashlib.sha256(text.encode()).hexdigest()[:32]


def plan(position: Position, settings: RolloutSettings) -> tuple[RolloutTask, ...]:
    """Split a rollout into its seeded batches (tasks), after checking every input.

    Parameters
    ----------
    position : Position
        A legal position with the game not over.
    settings : RolloutSettings
        Cube, score, trials, batch size, seed, truncation and per-batch budget.

    Returns
    -------
    tuple of RolloutTask
        ``settings.trials / settings.batch_trials`` tasks, index 0 first.

    Raises
    ------
    ValueError
        Naming the parameter: not a Position or a finished game, trials outside
        36 .. :data:`MAX_TRIALS` or not a multiple of the batch, a batch not a multiple
        of 36, more than :data:`MAX_BATCHES` batches, a seed, truncation, cube or score
        out of range, a budget outside (0, 3600] s.

    Examples
    --------
    >>> p = Position.from_home((0, 0, 0, 0, 2, 0), (0, 0, 0, 2, 0, 0))
    >>> [t.index for t in plan(p, RolloutSettings(trials=108, batch_trials=36))]
    [0, 1, 2]
    """
    if not isinstance(position, Position):
        raise ValueError(f"`position` must be a Position, got {type(position).__name__}")
    s = _settings(settings)
    # the engine's own checks of position, cube and score, before any work
    engine._position(position)
    away, opp_away = (None, None) if s.away == 0 else (s.away, s.opp_away)
    engine._score(away, opp_away, s.crawford)
    engine._cube(s.cube, s.owner, s.away == 0)
    key = rollout_key(position, s)
    seeds = batch_seeds(s.seed, s.batches)
    return tuple(RolloutTask(key, i, seed, position, s) for i, seed in enumerate(seeds))


def run_batch(task: RolloutTask) -> engine.RolloutBatchSums:
    """Evaluate one task in this process with the engine (its budget: ``batch_budget``)."""
    s = task.settings
    money = s.away == 0
    return engine.rollout_batch(
        task.position,
        seed=task.seed,
        trials=s.batch_trials,
        truncation=s.truncation,
        play=s.play,
        cube=s.cube,
        owner=s.owner,
        away=None if money else s.away,
        opp_away=None if money else s.opp_away,
        crawford=s.crawford,
        jacoby=s.jacoby,
        beavers=s.beavers,
        budget=s.batch_budget,
    )


def combine(
    tasks: Iterable[RolloutTask], results: Mapping[int, engine.RolloutBatchSums]
) -> RolloutResult:
    """Combine the finished batches of a plan (module notes: means and standard errors).

    Parameters
    ----------
    tasks : iterable of RolloutTask
        The plan (:func:`plan`).
    results : mapping of batch index to RolloutBatchSums
        The batches finished so far, in any order; at least one.

    Returns
    -------
    RolloutResult
        The same for the same batches, whatever the order of ``results``.

    Notes
    -----
    The engine's estimate of a probability uses variance reduction, which can stray a
    hair outside what one game allows (a rate of nearly 0 estimated at -1.35e-5 on 72
    trials of an ace-point game). The reported probabilities are the nearest ones a game
    can have (:meth:`cubecore.cube_decision.CubelessProbabilities.nearest`, as the
    engine adapter's own rollouts). The equities and their standard errors are the
    engine's estimates as combined, unclipped.

    Raises
    ------
    ValueError
        ``tasks`` empty or of more than one rollout; ``results`` empty, with an index
        not in the plan, or a batch whose seed, trials or truncation differ from its
        task's (a result of another rollout).
    """
    plan_ = tuple(tasks)
    if not plan_ or any(not isinstance(t, RolloutTask) for t in plan_):
        raise ValueError("`tasks` must be the non-empty plan of one rollout (RolloutTask)")
    if len({t.key for t in plan_}) != 1:
        raise ValueError("`tasks` mixes batches of more than one rollout")
    by_index = {t.index: t for t in plan_}
    if not results:
        raise ValueError("`results` is empty: no batch has finished")
    for index, batch in results.items():
        task = by_index.get(index)
        if task is None:
            raise ValueError(f"`results`: batch {index!r} is not in the plan")
        s = task.settings
        if not isinstance(batch, engine.RolloutBatchSums) or (
            batch.seed,
            batch.trials,
            batch.truncation,
        ) != (task.seed, s.batch_trials, s.truncation):
            raise ValueError(f"`results`: batch {index} is not the result of its task")
    done = [results[i] for i in sorted(results)]
    versions = sorted({b.engine_version for b in done})
    if len(versions) != 1:
        raise ValueError(f"`results` come from several engine versions: {versions}")
    n = sum(b.trials for b in done)

    def mean(values: Iterable[float]) -> float:
        return math.fsum(values) / n

    def error(variances: Iterable[float]) -> float:
        return math.sqrt(math.fsum(variances)) / n

    probabilities = CubelessProbabilities.nearest(
        *(mean(b.probabilities[k] for b in done) for k in range(5))
    )
    nd = mean(b.no_double for b in done)
    dt = mean(b.double_take for b in done)
    settings = plan_[0].settings
    money = settings.away == 0
    available = all(b.cube_available for b in done)
    if available:
        proper = proper_cube_action(
            nd, dt, 1.0, centred=settings.owner == "center",
            can_gammon=probabilities.win_gammon > 0.0, money=money,
            jacoby=settings.jacoby and money, beavers=settings.beavers and money,
        )  # fmt: skip
        action, optimal = proper.action, proper.optimal
    else:
        action, optimal = "No double (the cube is not available)", nd
    return RolloutResult(
        key=plan_[0].key,
        trials=n,
        batches=len(done),
        complete=len(done) == len(plan_),
        probabilities=probabilities,
        cubeless_equity=mean(b.cubeless for b in done),
        no_double=nd,
        double_take=dt,
        double_pass=1.0,
        standard_errors=(
            error(b.cubeless_variance for b in done),
            error(b.no_double_variance for b in done),
            error(b.double_take_variance for b in done),
        ),
        action=action,
        optimal=optimal,
        engine_version=versions[0],
        cube_available=available,
    )


def decision(result: RolloutResult, settings: RolloutSettings) -> engine.EngineCubeDecision:
    """A combined rollout as the engine adapter's answer at its ``"rollout"`` level.

    The fields are the rollout's (:func:`combine`): its probabilities, equities and
    standard errors, and the app's one decision rule on ND, DT and DP = 1
    (:func:`cubecore.cubeful.proper_cube_action`). A combined rollout has no bgsage
    label of its own: ``engine_action`` is the rule's action. ``seconds`` is 0 (the
    cluster's time is not this call's).

    Raises
    ------
    ValueError
        ``result`` of the wrong type, ``settings`` as :func:`plan` refuses them.
    """
    if not isinstance(result, RolloutResult):
        raise ValueError(f"`result` must be a RolloutResult, got {type(result).__name__}")
    s = _settings(settings)
    money = s.away == 0
    p = result.probabilities
    nd, dt = result.no_double, result.double_take
    jacoby, beavers = s.jacoby and money, s.beavers and money
    doubles = passes = False
    if result.cube_available:
        proper = proper_cube_action(
            nd, dt, 1.0, centred=s.owner == "center", can_gammon=p.win_gammon > 0.0,
            money=money, jacoby=jacoby, beavers=beavers,
        )  # fmt: skip
        doubles, passes = proper.doubles, proper.taker_passes
    return engine.EngineCubeDecision(
        probabilities=p,
        cubeless_equity=result.cubeless_equity,
        no_double=nd,
        double_take=dt if result.cube_available else None,
        double_pass=1.0 if result.cube_available else None,
        optimal=result.optimal,
        action=result.action,
        doubles=doubles,
        taker_passes=passes,
        taker_beavers=result.cube_available and beavers and -2.0 <= dt <= 0.0,
        engine_action=result.action,
        cube_available=result.cube_available,
        level="rollout",
        cube=s.cube,
        owner=s.owner,
        away=s.away,
        opp_away=s.opp_away,
        crawford=s.crawford,
        jacoby=jacoby,
        beavers=beavers,
        standard_errors=result.standard_errors,
        seconds=0.0,
    )
