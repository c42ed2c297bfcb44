"""A real engine's evaluation of any position: the adapter to Open Sage (``bgsage``).

This module is the only place that imports ``bgsage`` ([SAGE]_, MPL-2.0 from version
1.7 on). The project's :class:`~cubecore.position.Position` and cube/score arguments go
in; the project's :class:`~cubecore.cubeful.CubelessProbabilities` and an
:class:`EngineCubeDecision` come out. Versions change results, so the tested version is
named once (:data:`ENGINE_VERSION`, pinned with hashes in ``requirements.lock``) and
the tests compare the adapter with that version's outputs and with GNU Backgammon 1.07
([GNUBG]_, the oracle for conventions, never imported: ``tests/data/engine_gnubg_0ply.json``).

bgsage's conventions and how each maps to ours (each has a test in ``tests/test_engine.py``):

1. **Board array.** bgsage reads a list of 26 ints from the view of the player on roll:
   index ``i`` in 1..24 is his point ``i``, positive counts his checkers, negative the
   opponent's (whose own point there is ``25 - i``); index 25 is his bar, index 0 the
   opponent's bar. Our :class:`Position` counts each side on its own points, so
   ``board[i] = on_roll[i-1] - opponent[24-i]``. The starting position is
   ``[0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0]``
   (bgsage's ``STARTING_BOARD``); bgsage's pip counts of the array equal ours.
2. **Perspective.** ``cube_action`` is a pre-roll analysis: its five probabilities are
   the player on roll's, cumulative (gammons include backgammons), as ours and gnubg's.
   The same state seen by the other side (the side that has just moved: bgsage's
   post-move analysis of the swapped board, :func:`probabilities_after_move`) has the
   complementary probabilities: ``win -> 1 - win``, gammons and backgammons exchanged.
   Note bgsage itself checks nothing (16 checkers a side are evaluated): our
   :class:`Position` refuses illegal positions before anything reaches it.
3. **Ply numbering.** bgsage numbers plies as eXtreme Gammon does: its 1-ply is the raw
   network, gnubg's 0-ply; its ``n``-ply is gnubg's ``(n-1)``-ply. Our levels use
   bgsage's names (:data:`LEVELS`: ``"1-ply"`` .. ``"4-ply"``, ``"rollout"``).
4. **Jacoby and beavers** default to *on* in bgsage (money only; off in match play). We
   never rely on the default: ``jacoby`` and ``beavers`` are keyword arguments that
   default to *off* (as in our other money functions) and are always passed.
5. **Cube owner** is ``"centered"``, ``"player"`` (on roll) or ``"opponent"`` in
   bgsage; ours ``"center"``, ``"player"``, ``"opponent"``. Equities are per unit of
   the current cube: ND with the cube owned by the opponent is half of DT with the cube
   centred. With the opponent owning the cube only ND is meaningful (bgsage fills DT
   anyway; we return ``None``).
6. **Match play.** Scores are ``away`` and ``opp_away`` (points each side needs, the
   player on roll first), 1..:data:`MAX_AWAY` (25); bgsage accepts larger numbers
   silently, so we refuse them. Its match equity table is fixed inside it
   (Kazaross-XG2, gnubg's default too: :data:`ENGINE_TABLE`; its match cube decision at
   1-ply is gnubg's match model of :mod:`cubecore.cubeful` on that table at x = 0.68,
   within float32); equities are normalised (EMG: double/pass is +1). A Crawford game
   needs one side 1-away.
7. **Bear-offs** come from bgsage's one-sided database, not from a two-sided one: the
   win chance is off by up to :data:`BEAROFF_WIN_ERROR` against the exact value.
8. **Cube life.** At its 1-ply bgsage applies Janowski's formula with ``x = 0.68`` for
   contact and crashed positions and ``clamp(0.55 + 0.00125 * avg pips, 0.6, 0.7)`` in
   a race (the average of both sides' pips; gnubg uses the roller's pips).
   :func:`implied_cube_life` recovers the ``x`` that reproduces any level's ND equity
   from its own probabilities.
9. **Version-dependent switches.** Options whose defaults change results are passed,
   never left to the version: ``cubeful_trial_moves`` (rollout trials pick moves by
   cubeful equity; 2.0's default is True while its own comment still calls False the
   default), the rollout seed, the thread count and the bear-off database. Every
   rollout states its seed to the cached analyzer it runs on (``set_seed``), so one
   seeded batch (:func:`rollout_batch`, the unit of :mod:`cubecore.rollout`) never
   changes the next rollout's dice (a batch's result did not depend on the thread
   count, 1 or 2). The thread count stays bgsage's automatic one (one per core): a
   same-seed mismatch seen once on a loaded machine (``tests/test_rollout_agreement.py``)
   did not come back in 2,000 rollouts of its position with 2 threads nor in 2,000 with
   1, at a load average of 10, nor after other evaluations in the adapter's child
   (2026-11-29), so one thread is not shown to fix anything; it made a contact rollout
   1.2 to 1.5 times slower (72 trials of the opening: 12-15 s against 18.5 s).
10. **Rollout estimates** use variance reduction, so a rate near 0 can come out a hair
    below it (a backgammon chance of -4e-6 in an ace-point game): a rollout's
    probabilities are the nearest ones a game can have
    (:meth:`~cubecore.cube_decision.CubelessProbabilities.nearest`); its equities are
    bgsage's, unclipped.

Every evaluation has a time budget (:data:`DEFAULT_BUDGETS`, seconds per level); levels
above 1-ply run in a child process that is killed when the budget runs out, so no call
outlives its budget (``TimeoutError`` naming ``budget``). 1-ply runs in the calling
process on a network loaded once per process (:class:`_Network`: ~0.1 ms a call, where
bgsage's own 1-ply loads its weights at each call, ~30 ms); the child's deeper levels
still load them at each call (bgsage offers no N-ply cube decision on a loaded network
with the same results).

References
----------
.. [SAGE] M. Higgins, "Open Sage backgammon bot engine" (bgsage), version 2.0.20260907,
   2026, https://github.com/markbgsage/bgsage (README: levels, interfaces, licence).
.. [GNUBG] GNU Backgammon 1.07 (2023), https://www.gnu.org/software/gnubg/ .
.. [RJ93] R. Janowski, "Take-Points in Money Games", 1993;
   http://www.bkgm.com/articles/Janowski/cubeformulae.pdf
"""

from __future__ import annotations

import atexit
import importlib.metadata
import json
import math
import os
import select
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import bgbot_cpp  # bgsage's compiled core, installed with it
import bgsage
from bgsage import weights as bgsage_weights

from cubecore._validate import choice, flag, whole_number
from cubecore.cubeful import (
    CubelessProbabilities,
    match_cube_decision,
    money_cube_decision,
    proper_cube_action,
)
from cubecore.match_points import CubeOwner
from cubecore.met import MatchEquityTable, load_table
from cubecore.position import Position

__all__ = [
    "BEAROFF_WIN_ERROR",
    "DEFAULT_BUDGETS",
    "DEFAULT_ROLLOUT_TRIALS",
    "ENGINE_TABLE",
    "ENGINE_VERSION",
    "LEVELS",
    "MAX_AWAY",
    "MAX_BUDGET",
    "MAX_TRUNCATION",
    "ROLLOUT_PLAYS",
    "EngineCubeDecision",
    "EvaluationStopped",
    "ImpliedCubeLife",
    "RolloutBatchSums",
    "board",
    "cubeless_probabilities",
    "engine_cube_life",
    "engine_pips",
    "evaluate",
    "implied_cube_life",
    "installed_version",
    "probabilities_after_move",
    "rollout_batch",
    "stop_child",
]

#: The bgsage version the adapter and its fixtures were made with (requirements.lock).
ENGINE_VERSION = "2.0.20260907"
#: Evaluation levels, bgsage's (XG's) ply numbering: "1-ply" is gnubg's 0-ply.
LEVELS = ("1-ply", "2-ply", "3-ply", "4-ply", "rollout")
#: Default time budget of one evaluation, seconds, per level.
DEFAULT_BUDGETS = {"1-ply": 10.0, "2-ply": 30.0, "3-ply": 60.0, "4-ply": 300.0, "rollout": 600.0}
#: Largest budget accepted, seconds.
MAX_BUDGET = 3600.0
#: Largest away score bgsage's match equity table covers (Kazaross-XG2, 25 points).
MAX_AWAY = 25
#: The match equity table fixed inside bgsage (Kazaross-XG2; :func:`cubecore.met.load_table` key).
ENGINE_TABLE = "kxg2"
#: Largest cube value accepted (2**12, as :mod:`cubecore.cubeful`).
MAX_CUBE = 4096
#: Largest |error| of bgsage's bear-off win chance. bgsage reads bear-offs from a
#: one-sided database (each side's distribution of rolls to bear off, taken as
#: independent), not a two-sided one: against the app's exact two-sided database
#: (:func:`cubecore.bearoff.two_sided`) the win chance was off by at most 0.0120 (mean
#: 0.0004) over 3000 seeded positions of up to 6 checkers a side (measured 2026-11-28
#: on bgsage 2.0.20260907); this bound is that maximum, rounded up.
BEAROFF_WIN_ERROR = 0.015
#: Rollout trials by default (a multiple of 36: the first roll is stratified). 144 trials
#: of the opening position took 45 s on 2 shared cores at load 10 (2026-11-28,
#: ``python -m bench engine``), so 360 fit the default rollout budget there.
DEFAULT_ROLLOUT_TRIALS = 360
#: Fewest and most rollout trials accepted.
ROLLOUT_TRIALS_RANGE = (36, 1_296_000)
#: Rollout seed (results are reproducible).
ROLLOUT_SEED = 42
#: Largest rollout seed bgsage accepts (its RNG is seeded with an unsigned 32-bit integer).
MAX_SEED = 2**32 - 1
#: Largest truncation depth of a rollout batch, plies (0: played to the end).
MAX_TRUNCATION = 100
#: Levels of the checker play (and cube play) inside a rollout's trials, bgsage's
#: ``decision_ply``: 1-ply (the network alone, its default) to 3-ply. On this 2-core
#: machine 36 trials of the opening position took 2.3 s at 1-ply, 3.5 s at 2-ply and
#: 20 s at 3-ply (one thread, 2026-11-29); 4-ply would take minutes a batch.
ROLLOUT_PLAYS = (1, 2, 3)
#: Relative tolerance under which live and dead cube equities count as equal.
_COINCIDE = 1e-12

_LEVEL_NAMES = {"1-ply": "1ply", "2-ply": "2ply", "3-ply": "3ply", "4-ply": "4ply"}
_OWNERS = {"center": "centered", "player": "player", "opponent": "opponent"}
_CPP_OWNERS = {
    "center": bgbot_cpp.CubeOwner.CENTERED,
    "player": bgbot_cpp.CubeOwner.PLAYER,
    "opponent": bgbot_cpp.CubeOwner.OPPONENT,
}
_ANALYZERS: dict[tuple[str, int, int, int], Any] = {}
_ANALYZERS_LOCK = threading.Lock()
_ROOT = Path(__file__).resolve().parents[1]


def installed_version() -> str:
    """The version of bgsage installed (compare with :data:`ENGINE_VERSION`)."""
    return importlib.metadata.version("bgsage")


# --------------------------------------------------------------------------- inputs


def _position(position: object) -> Position:
    if not isinstance(position, Position):
        raise ValueError(
            "`position` must be a Position (cubecore.position: Position(...), "
            f"position_from_id or position_from_xgid), got {type(position).__name__}"
        )
    if position.on_roll_borne_off == 15 or position.opponent_borne_off == 15:
        who = "on_roll" if position.on_roll_borne_off == 15 else "opponent"
        raise ValueError(f"`position`: {who} has borne off all 15 checkers; the game is over")
    return position


def board(position: Position) -> list[int]:
    """bgsage's 26-int board array of a position (convention 1 of the module notes).

    Examples
    --------
    >>> start = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2,)
    >>> board(Position(start, start))[:8]
    [0, -2, 0, 0, 0, 0, 5, 0]
    """
    position = _position(position)
    out = [0] * 26
    out[0] = position.opponent_bar
    out[25] = position.on_roll_bar
    for point in range(1, 25):
        out[point] = position.on_roll[point - 1] - position.opponent[24 - point]
    return out


def engine_pips(position: Position) -> tuple[int, int]:
    """bgsage's own pip counts ``(on roll, opponent)`` of :func:`board`'s array."""
    pips = bgbot_cpp.pip_counts(board(position))
    return int(pips[0]), int(pips[1])


def engine_cube_life(position: Position) -> float:
    """The cube life ``x`` bgsage uses at its 1-ply for a position (module note 8)."""
    array = board(position)
    mine, theirs = bgbot_cpp.pip_counts(array)
    return float(bgbot_cpp.cube_efficiency([0.5] * 5, bgbot_cpp.is_race(array), mine, theirs))


def _level(level: str) -> str:
    return choice("level", level, LEVELS)


def _budget(budget: float | None, level: str) -> float:
    if budget is None:
        return DEFAULT_BUDGETS[level]
    if isinstance(budget, bool) or not isinstance(budget, (int, float)):
        raise ValueError(f"`budget` must be a number of seconds, got {budget!r}")
    value = float(budget)
    if not (math.isfinite(value) and 0.0 < value <= MAX_BUDGET):
        raise ValueError(f"`budget` must be in (0, {MAX_BUDGET:g}] seconds, got {budget!r}")
    return value


def _cube(cube: int, owner: CubeOwner, money: bool) -> tuple[int, CubeOwner]:
    value = whole_number("cube", cube, 1, MAX_CUBE)
    if value & (value - 1):
        raise ValueError(f"`cube` must be a power of two in [1, {MAX_CUBE}] (got {value})")
    owner = choice("owner", owner, tuple(_OWNERS))
    if owner == "center" and value != 1 and money:
        raise ValueError(f"a centred cube is on 1 in money play (got cube={value})")
    return value, owner


def _score(away: int | None, opp_away: int | None, crawford: bool) -> tuple[int, int, bool]:
    crawford = flag("crawford", crawford)
    if away is None and opp_away is None:
        if crawford:
            raise ValueError("`crawford` needs a match score (away and opp_away)")
        return 0, 0, False
    if away is None or opp_away is None:
        raise ValueError("give both `away` and `opp_away` for a match, or neither for money")
    a = whole_number("away", away, 1, MAX_AWAY)
    b = whole_number("opp_away", opp_away, 1, MAX_AWAY)
    if crawford and 1 not in (a, b):
        raise ValueError(f"`crawford`: the Crawford game needs one side 1-away (got {a}, {b})")
    if crawford and a == b == 1:
        raise ValueError("`crawford`: at 1-away/1-away the Crawford game is over")
    return a, b, crawford


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class EngineCubeDecision:
    """The engine's evaluation of a position before the roll: cubeless and cubeful.

    Equities are per unit of the current cube (money equity, or normalised match
    equity EMG at a score), from the player on roll's view.

    Attributes
    ----------
    probabilities : CubelessProbabilities
        The five cubeless probabilities of the player on roll.
    cubeless_equity : float
        Cubeless money equity (EMG at a score) as the engine reports it.
    no_double, double_take, double_pass : float or None
        Cubeful equities; DT and DP are None where the player on roll cannot double.
        DT is the equity of a double that is taken, *unbeavered* (gnubg's and
        :mod:`cubecore.cubeful`'s convention; bgsage reports ``2 DT`` when its taker
        beavers).
    optimal : float
        The equity of the proper action (gnubg's convention: DT unbeavered).
    action : str
        The proper action from the three equities in gnubg's words, by the app's one
        decision rule (:func:`cubecore.cubeful.proper_cube_action`), e.g. "Double, take".
    doubles, taker_passes, taker_beavers : bool
        Whether the proper action turns the cube; whether a double should be passed
        (``DT > DP``); money with beavers: whether the taker beavers (``-2 <= DT <= 0``).
    engine_action : str
        bgsage's own label ("No Double", "Double/Take", "Double/Pass", "Double/Beaver");
        it calls a won position that cannot be gammoned "No Double" where the rule
        says "Double, pass" (ND = DP).
    cube_available : bool
        Whether the player on roll may double (bgsage's ``can_double_match``: not
        when the opponent owns the cube, in the Crawford game, or where the cube
        already covers what the player needs).
    level : str
        The level evaluated (:data:`LEVELS`).
    cube, owner, away, opp_away, crawford, jacoby, beavers
        The cube and score evaluated (``away = opp_away = 0`` for money).
    standard_errors : tuple of float or None
        Rollouts: standard errors of (cubeless equity, ND, DT); else None.
    seconds : float
        Wall-clock time of the evaluation.
    """

    probabilities: CubelessProbabilities
    cubeless_equity: float
    no_double: float
    double_take: float | None
    double_pass: float | None
    optimal: float
    action: str
    doubles: bool
    taker_passes: bool
    taker_beavers: bool
    engine_action: str
    cube_available: bool
    level: str
    cube: int
    owner: CubeOwner
    away: int
    opp_away: int
    crawford: bool
    jacoby: bool
    beavers: bool
    standard_errors: tuple[float | None, float | None, float | None] | None
    seconds: float = field(compare=False)

    @property
    def money(self) -> bool:
        """True for money play."""
        return self.away == 0

    def implied_cube_life(self, action: str = "no_double") -> ImpliedCubeLife:
        """The cube life that puts this ND (or, ``action="double_take"``, DT) equity
        back into Janowski's model (:func:`implied_cube_life`)."""
        away = None if self.money else self.away
        opp_away = None if self.money else self.opp_away
        equity = self.no_double
        if action == "double_take":
            if self.double_take is None:
                reason = "the player on roll cannot double here: there is no double/take"
                return ImpliedCubeLife(None, reason, math.nan, math.nan, math.nan)
            equity = self.double_take
        return implied_cube_life(
            self.probabilities, equity, cube=self.cube, owner=self.owner,
            jacoby=self.jacoby, away=away, opp_away=opp_away, crawford=self.crawford,
            action=action,
        )  # fmt: skip


# --------------------------------------------------------------------------- evaluation


def _analyzer(level: str, trials: int, truncation: int = 0, play: int = 1) -> Any:
    key = (level, trials, truncation, play)
    with _ANALYZERS_LOCK:
        if key not in _ANALYZERS:
            if level == "rollout":
                _ANALYZERS[key] = bgsage.BgBotAnalyzer(
                    eval_level="rollout",
                    n_trials=trials,
                    truncation_depth=truncation,
                    decision_ply=play,
                    seed=ROLLOUT_SEED,
                    bearoff_db=True,
                    cubeful_trial_moves=True,
                    parallel_threads=0,
                )
            else:
                _ANALYZERS[key] = bgsage.BgBotAnalyzer(
                    eval_level=_LEVEL_NAMES[level], bearoff_db=True, parallel_threads=0
                )
        return _ANALYZERS[key]


class _Network:
    """bgsage's production network and bear-off database, loaded once per process.

    bgsage's 1-ply cube analysis (``BgBotAnalyzer.cube_action``, i.e. bgbot_cpp's
    ``evaluate_cube_decision_unified``) takes the weights' file paths and loads the
    24 networks' weights (9.3 MB) at every call: 25-40 ms of a ~30 us evaluation,
    holding the interpreter's lock. This keeps one loaded network (bgbot_cpp's
    ``BearoffStrategy`` around ``create_strategy``, as bgsage's own analyzer holds it)
    and takes that function's steps on it with bgbot_cpp's own functions:
    the raw network on the board seen by the opponent (``flip_board``) as a
    post-move position, ``invert_probs_py``, the cube life of ``cube_efficiency``,
    Janowski's ``cube_decision_1ply``, ``cubeless_equity``; bgsage's beaver rule
    (money: the taker beavers where DT < 0, and DT is then reported doubled) and its
    action labels. The result equals ``cube_action``'s exactly
    (``tests/test_engine.py``: every field, over positions of every class, cube
    states, scores, Jacoby and beavers).
    """

    def __init__(self) -> None:
        weights = bgsage.default_weights()
        self._strategy: Any = bgbot_cpp.create_strategy(
            weights.strategy_type, weights.weight_paths_list, weights.hidden_sizes_list
        )
        path = bgsage_weights.bearoff_db_path()
        database = bgbot_cpp.BearoffDB()
        if path is None or not database.load(path):
            raise RuntimeError("bgsage's bear-off database could not be loaded")
        self._database = database  # kept alive with the strategy that reads it
        self._strategy = bgbot_cpp.BearoffStrategy(self._strategy, database)
        self._lock = threading.Lock()

    def cube_action(self, request: dict[str, Any]) -> dict[str, Any]:
        """bgsage's 1-ply cube analysis of ``request`` (the fields of :func:`_raw`)."""
        array = request["board"]
        away, opp_away = request["away"], request["opp_away"]
        money = away == 0 and opp_away == 0
        owner = _CPP_OWNERS[request["owner"]]
        flipped = bgbot_cpp.flip_board(array)
        with self._lock:
            post_move = self._strategy.evaluate_board(flipped, flipped)["probs"]
        probs = bgbot_cpp.invert_probs_py(list(post_move))
        mine, theirs = bgbot_cpp.pip_counts(array)
        x = bgbot_cpp.cube_efficiency(probs, bgbot_cpp.is_race(array), mine, theirs)
        decision = bgbot_cpp.cube_decision_1ply(
            probs, request["cube"], owner, x, away, opp_away, request["crawford"],
            jacoby=money and request["jacoby"],
        )  # fmt: skip
        nd, dt, dp = decision.equity_nd, decision.equity_dt, decision.equity_dp
        doubles, takes = decision.should_double, decision.should_take
        beaver = money and request["beavers"] and dt < 0.0
        if beaver:  # bgsage's money rule: DB = 2 DT, and the decision on it
            dt = 2.0 * dt
            doubles, takes = min(dt, dp) > nd, dt <= dp
        return {
            "probs": bgsage.Probabilities.from_list(list(probs)).to_list(),
            "cubeless_equity": float(bgbot_cpp.cubeless_equity(probs)),
            "nd": float(nd),
            "dt": float(dt),
            "dp": float(dp),
            "is_beaver": bool(beaver),
            "action": (
                "No Double"
                if not doubles
                else "Double/Beaver"
                if beaver
                else "Double/Take"
                if takes
                else "Double/Pass"
            ),
        }


_NETWORK: list[_Network] = []


def _network() -> _Network:
    with _ANALYZERS_LOCK:
        if not _NETWORK:
            _NETWORK.append(_Network())
        return _NETWORK[0]


def _available(request: dict[str, Any]) -> bool:
    if request["away"] == 0:  # money: bgsage's can_double_match answers False
        return bool(request["owner"] != "opponent")
    return bool(
        bgsage.can_double_match(
            request["away"],
            request["opp_away"],
            request["cube"],
            _OWNERS[request["owner"]],
            request["crawford"],
        )
    )


def _raw(request: dict[str, Any]) -> dict[str, Any]:
    """One bgsage cube analysis as plain values (runs in this process or a child)."""
    if request["level"] == "1-ply" and request.get("kind") != "after_move":
        return {**_network().cube_action(request), "available": _available(request), "se": None}
    analyzer = _analyzer(
        request["level"], request["trials"], request.get("truncation", 0), request.get("play", 1)
    )
    if request["level"] == "rollout":
        # Cached analyzers are shared: every rollout states its seed (set_seed is
        # equivalent to a fresh analyzer of that seed; checked in tests/test_engine.py).
        analyzer.set_seed(request.get("seed", ROLLOUT_SEED))
    if request.get("kind") == "after_move":
        moved = analyzer.post_move_analytics(request["board"], "centered", 1, jacoby=False)
        return {"probs": [float(v) for v in moved.probs.to_list()]}
    r = analyzer.cube_action(
        request["board"],
        request["cube"],
        _OWNERS[request["owner"]],
        away1=request["away"],
        away2=request["opp_away"],
        is_crawford=request["crawford"],
        jacoby=request["jacoby"],
        beaver=request["beavers"],
    )
    return {
        "probs": [float(v) for v in r.probs.to_list()],
        "cubeless_equity": float(r.cubeless_equity),
        "nd": float(r.equity_nd),
        "dt": float(r.equity_dt),
        "dp": float(r.equity_dp),
        "is_beaver": bool(r.is_beaver),
        "available": _available(request),
        "action": str(r.optimal_action),
        "se": None if r.cubeless_se is None else (r.cubeless_se, r.equity_nd_se, r.equity_dt_se),
    }


class EvaluationStopped(RuntimeError):
    """An evaluation was stopped by its caller (``stop`` of :func:`evaluate` was set)."""


#: How often a waiting evaluation looks at its ``stop`` event, seconds.
_STOP_POLL = 0.05


class _Worker:
    """A child process that evaluates levels above 1-ply, killed when a budget runs out.

    The child is ``python -m cubecore.engine`` (a fresh interpreter: no fork of a
    threaded server), kept between calls so its start-up is paid once; it reads one
    JSON request a line on its standard input and answers one JSON line. A call that
    outlives its budget kills the child (the next call starts another), so no
    evaluation runs past its budget. One call at a time; waiting counts in the budget.
    """

    def __init__(self) -> None:
        self._process: subprocess.Popen[str] | None = None
        self._lock = threading.Lock()

    def _start(self) -> subprocess.Popen[str]:
        if self._process is None or self._process.poll() is not None:
            env = dict(os.environ)
            env["PYTHONPATH"] = os.pathsep.join(
                [str(_ROOT), *filter(None, [env.get("PYTHONPATH", "")])]
            )
            self._process = subprocess.Popen(
                [sys.executable, "-m", "cubecore.engine"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                env=env,
            )
        return self._process

    def stop(self) -> None:
        """Kill the child (if any) and wait for it."""
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            self._process = None

    def call(
        self, request: dict[str, Any], budget: float, stop: threading.Event | None = None
    ) -> dict[str, Any]:
        deadline = time.monotonic() + budget
        while not self._lock.acquire(timeout=min(_STOP_POLL, budget)):
            if stop is not None and stop.is_set():
                raise EvaluationStopped(f"the {request['level']} evaluation was stopped")
            if time.monotonic() >= deadline:
                raise _over_budget(request, budget)
        try:
            process = self._start()
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write(json.dumps(request) + "\n")
            process.stdin.flush()
            while True:
                left = deadline - time.monotonic()
                ready, _, _ = select.select(
                    [process.stdout], [], [], max(0.0, min(_STOP_POLL, left))
                )
                if ready:
                    break
                if stop is not None and stop.is_set():
                    self.stop()  # the child runs this call only: killing it stops just this one
                    raise EvaluationStopped(f"the {request['level']} evaluation was stopped")
                if left <= _STOP_POLL:
                    self.stop()
                    raise _over_budget(request, budget)
            line = process.stdout.readline()
            if not line:
                self.stop()
                raise RuntimeError("the engine's process ended without a result")
            answer: dict[str, Any] = json.loads(line)
        finally:
            self._lock.release()
        if "error" in answer:
            raise RuntimeError(f"the engine failed: {answer['error']}")
        return answer


def _over_budget(request: dict[str, Any], budget: float) -> TimeoutError:
    return TimeoutError(
        f"`budget`: the {request['level']} evaluation did not finish within {budget:g} s;"
        " it was stopped (raise the budget or choose a lower level)"
    )


_WORKER = _Worker()
atexit.register(_WORKER.stop)


def stop_child() -> None:
    """Stop the child process of the levels above 1-ply (the next such call starts one)."""
    _WORKER.stop()


def _run(
    request: dict[str, Any], budget: float, stop: threading.Event | None = None
) -> dict[str, Any]:
    """Evaluate in-process at 1-ply (milliseconds); above, in the budgeted child."""
    if request["level"] == "1-ply":
        return _raw(request)
    return _WORKER.call(request, budget, stop)


def _serve() -> None:  # pragma: no cover - runs in the child process of _Worker
    """The child's loop: one JSON request a line on stdin, one JSON answer a line out."""
    for line in sys.stdin:
        try:
            answer = _raw(json.loads(line))
        except Exception as error:  # reported to the parent
            answer = {"error": f"{type(error).__name__}: {error}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


def evaluate(
    position: Position,
    *,
    level: str = "1-ply",
    cube: int = 1,
    owner: CubeOwner = "center",
    away: int | None = None,
    opp_away: int | None = None,
    crawford: bool = False,
    jacoby: bool = False,
    beavers: bool = False,
    budget: float | None = None,
    trials: int = DEFAULT_ROLLOUT_TRIALS,
    stop: threading.Event | None = None,
) -> EngineCubeDecision:
    """The engine's cubeless probabilities and cube decision for the player on roll.

    Parameters
    ----------
    position : Position
        Checkers, from the view of the player on roll (before his roll).
    level : {"1-ply", "2-ply", "3-ply", "4-ply", "rollout"}
        bgsage's levels; "1-ply" is the raw network (gnubg's 0-ply).
    cube : int
        Cube value, a power of two; 1 when centred in money play.
    owner : {"center", "player", "opponent"}
        Who owns the cube; "player" is the player on roll.
    away, opp_away : int, optional
        Match score: points the player on roll and his opponent need (1..25). Both
        None (the default) is money play.
    crawford : bool
        This is the Crawford game (one side 1-away).
    jacoby, beavers : bool
        Money-play rules (ignored at a match score, as bgsage does).
    budget : float, optional
        Seconds the evaluation may take (default :data:`DEFAULT_BUDGETS` of the level).
    trials : int
        Rollout trials (``level="rollout"`` only), 36 .. 1 296 000.
    stop : threading.Event, optional
        Levels above 1-ply: setting it (from another thread) stops the evaluation
        within :data:`_STOP_POLL` seconds, waiting or running (its child process is
        killed; the next call starts another), with :class:`EvaluationStopped`.

    Returns
    -------
    EngineCubeDecision

    Raises
    ------
    ValueError
        Naming the parameter: not a Position, a finished game, an unknown level, a
        budget outside (0, 3600] s, a cube not a power of two, an away score outside
        1..25, a Crawford game without a 1-away side, a bad trial count. Checked
        before anything is evaluated.
    TimeoutError
        The evaluation did not finish within the budget (it is stopped).
    EvaluationStopped
        ``stop`` was set before the evaluation finished.

    Examples
    --------
    >>> start = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2,)
    >>> d = evaluate(Position(start, start))
    >>> d.action, round(d.probabilities.win, 2)
    ('No double, take', 0.53)
    """
    position = _position(position)
    level = _level(level)
    seconds = _budget(budget, level)
    a, b, crawford = _score(away, opp_away, crawford)
    money = a == 0
    value, owner = _cube(cube, owner, money)
    jacoby = flag("jacoby", jacoby) and money
    beavers = flag("beavers", beavers) and money
    n_trials = whole_number("trials", trials, *ROLLOUT_TRIALS_RANGE)
    request = {
        "board": board(position),
        "level": level,
        "trials": n_trials if level == "rollout" else 0,
        "cube": value,
        "owner": owner,
        "away": a,
        "opp_away": b,
        "crawford": crawford,
        "jacoby": jacoby,
        "beavers": beavers,
    }
    start = time.perf_counter()
    if stop is not None and not isinstance(stop, threading.Event):
        raise ValueError(f"`stop` must be a threading.Event, got {type(stop).__name__}")
    raw = _run(request, seconds, stop)
    elapsed = time.perf_counter() - start
    win, wg, wbg, lg, lbg = raw["probs"]
    # a rollout's variance-reduced estimates can stray a hair outside [0, 1] (module note 10)
    feasible = CubelessProbabilities.nearest if level == "rollout" else CubelessProbabilities
    probabilities = feasible(win, wg, wbg, lg, lbg)
    available = raw["available"]
    nd, dp = raw["nd"], raw["dp"]
    dt = raw["dt"] / 2.0 if raw["is_beaver"] else raw["dt"]  # bgsage: 2 DT when beavered
    if available:
        proper = proper_cube_action(
            nd, dt, dp, centred=owner == "center", can_gammon=wg > 0.0, money=money,
            jacoby=jacoby, beavers=beavers,
        )  # fmt: skip
        action, optimal = proper.action, proper.optimal
        doubles, passes = proper.doubles, proper.taker_passes
    else:
        action, optimal, doubles, passes = "No double (the cube is not available)", nd, False, False
    return EngineCubeDecision(
        probabilities=probabilities,
        cubeless_equity=raw["cubeless_equity"],
        no_double=nd,
        double_take=dt if available else None,
        double_pass=dp if available else None,
        optimal=optimal,
        action=action,
        doubles=doubles,
        taker_passes=passes,
        taker_beavers=available and beavers and -2.0 <= dt <= 0.0,
        engine_action=raw["action"],
        cube_available=available,
        level=level,
        cube=value,
        owner=owner,
        away=a,
        opp_away=b,
        crawford=crawford,
        jacoby=jacoby,
        beavers=beavers,
        standard_errors=None if raw["se"] is None else (raw["se"][0], raw["se"][1], raw["se"][2]),
        seconds=elapsed,
    )


def cubeless_probabilities(
    position: Position, *, level: str = "1-ply", budget: float | None = None
) -> CubelessProbabilities:
    """The engine's five cubeless probabilities of the player on roll (see :func:`evaluate`).

    Examples
    --------
    >>> p = cubeless_probabilities(Position.from_home((0, 0, 0, 0, 0, 1), (1, 0, 0, 0, 0, 0)))
    >>> round(p.win, 4)
    0.75
    """
    return evaluate(position, level=level, budget=budget).probabilities


def probabilities_after_move(
    position: Position, *, level: str = "1-ply", budget: float | None = None
) -> CubelessProbabilities:
    """Cubeless probabilities of the side that has just moved (``position``'s opponent).

    The same game state as :func:`evaluate` sees it, from the other side: bgsage's
    post-move analysis of the board from the mover's view (convention 2 of the module
    notes). The two are complementary: ``win = 1 - win'`` and the gammon and
    backgammon chances exchanged.

    Examples
    --------
    >>> p = Position.from_home((0, 0, 0, 0, 0, 1), (1, 0, 0, 0, 0, 0))
    >>> round(probabilities_after_move(p).win, 4)
    0.25
    """
    position = _position(position)
    level = _level(level)
    seconds = _budget(budget, level)
    request: dict[str, Any] = {
        "kind": "after_move",
        "board": board(position.swapped()),
        "level": level,
        "trials": DEFAULT_ROLLOUT_TRIALS if level == "rollout" else 0,
    }
    raw = _run(request, seconds)
    return CubelessProbabilities(*raw["probs"])


# --------------------------------------------------------------------------- rollout batches


@dataclass(frozen=True)
class RolloutBatchSums:
    """One seeded batch of rollout trials, as the sums that combine across batches.

    A batch of :math:`n` trials reports bgsage's means :math:`\\bar x` and standard
    errors :math:`s` (its own estimator, variance reduction included). They are kept as
    the sum over the batch's trials, :math:`n \\bar x`, and the variance of that sum,
    :math:`n^2 s^2`: for independent batches (distinct seeds) the combined mean is
    :math:`\\sum_b n_b \\bar x_b / N` and its standard error
    :math:`\\sqrt{\\sum_b n_b^2 s_b^2} / N` (the stratified-sampling estimator,
    W. G. Cochran, *Sampling Techniques*, 3rd ed., Wiley, 1977, eq. 5.6), whatever the
    engine's estimator inside a batch.

    Attributes
    ----------
    seed, trials, truncation
        The batch's bgsage seed, trial count and truncation depth (0: none).
    probabilities : tuple of 5 float
        Sums of the cubeless probabilities (win, gammon, backgammon, lose gammon,
        lose backgammon) of the player on roll, cumulative as in
        :class:`~cubecore.cubeful.CubelessProbabilities`.
    cubeless, no_double, double_take : float
        Sums of the cubeless equity and of the cubeful ND and DT equities (DT
        unbeavered, per unit of the current cube, as :class:`EngineCubeDecision`).
    cubeless_variance, no_double_variance, double_take_variance : float
        Variances of those three sums, :math:`n^2 s^2`.
    cube_available : bool
        Whether the player on roll may double (as :class:`EngineCubeDecision`).
    engine_version : str
        The bgsage version that computed the batch (:func:`installed_version`).
    """

    seed: int
    trials: int
    truncation: int
    probabilities: tuple[float, float, float, float, float]
    cubeless: float
    no_double: float
    double_take: float
    cubeless_variance: float
    no_double_variance: float
    double_take_variance: float
    cube_available: bool
    engine_version: str


def rollout_batch(
    position: Position,
    *,
    seed: int,
    trials: int,
    truncation: int = 0,
    play: int = 1,
    cube: int = 1,
    owner: CubeOwner = "center",
    away: int | None = None,
    opp_away: int | None = None,
    crawford: bool = False,
    jacoby: bool = False,
    beavers: bool = False,
    budget: float | None = None,
) -> RolloutBatchSums:
    """Roll out one seeded batch of trials and return its sums (:class:`RolloutBatchSums`).

    The same position, cube, score, seed, trials and truncation give the same sums in
    any process (``tests/test_rollout_cluster.py``: a batch in the test's process equals
    the cluster workers'); with 1 and with 2 engine threads they were equal too
    (checked by hand on the opening position, 2026-11-28). The batch runs in the
    budgeted child process, as the rollout level of :func:`evaluate` does.

    Parameters
    ----------
    position, cube, owner, away, opp_away, crawford, jacoby, beavers
        As in :func:`evaluate`.
    seed : int
        bgsage's rollout seed, 0 .. 2**32 - 1.
    trials : int
        Trials of the batch, a multiple of 36 (the first roll is stratified over the
        36 rolls), 36 .. 1 296 000.
    truncation : int
        Plies after which a trial stops and is evaluated at the decision level;
        0 (the default) plays every trial to the end. 0 .. 100.
    play : int
        The ply at which the trials choose their checker plays, one of
        :data:`ROLLOUT_PLAYS` (bgsage's ``decision_ply``; a truncated trial is also
        evaluated at it). 1 (the default) is bgsage's own default.
    budget : float, optional
        Seconds the batch may take (default the rollout level's); the child is
        stopped when it runs out.

    Raises
    ------
    ValueError
        Naming the parameter, as :func:`evaluate`, and a seed, trial count or
        truncation out of range.
    TimeoutError
        The batch did not finish within the budget.
    """
    position = _position(position)
    seconds = _budget(budget, "rollout")
    a, b, crawford = _score(away, opp_away, crawford)
    money = a == 0
    value, owner = _cube(cube, owner, money)
    jacoby = flag("jacoby", jacoby) and money
    beavers = flag("beavers", beavers) and money
    n = whole_number("trials", trials, *ROLLOUT_TRIALS_RANGE)
    if n % 36:
        raise ValueError(f"`trials` must be a multiple of 36 (got {n})")
    rollout_seed = whole_number("seed", seed, 0, MAX_SEED)
    depth = whole_number("truncation", truncation, 0, MAX_TRUNCATION)
    ply = whole_number("play", play, min(ROLLOUT_PLAYS), max(ROLLOUT_PLAYS))
    request = {
        "board": board(position),
        "level": "rollout",
        "trials": n,
        "truncation": depth,
        "play": ply,
        "seed": rollout_seed,
        "cube": value,
        "owner": owner,
        "away": a,
        "opp_away": b,
        "crawford": crawford,
        "jacoby": jacoby,
        "beavers": beavers,
    }
    raw = _run(request, seconds)
    half = 0.5 if raw["is_beaver"] else 1.0  # bgsage: 2 DT when beavered
    se_cubeless, se_nd, se_dt = (0.0, 0.0, 0.0) if raw["se"] is None else raw["se"]
    probs = tuple(float(n * v) for v in raw["probs"])
    return RolloutBatchSums(
        seed=rollout_seed,
        trials=n,
        truncation=depth,
        probabilities=(probs[0], probs[1], probs[2], probs[3], probs[4]),
        cubeless=n * raw["cubeless_equity"],
        no_double=n * raw["nd"],
        double_take=n * half * raw["dt"],
        cubeless_variance=(n * float(se_cubeless)) ** 2,
        no_double_variance=(n * float(se_nd)) ** 2,
        double_take_variance=(n * half * float(se_dt)) ** 2,
        cube_available=bool(raw["available"]),
        engine_version=installed_version(),
    )


# --------------------------------------------------------------------------- cube life


@dataclass(frozen=True)
class ImpliedCubeLife:
    """The cube life index that makes Janowski's model reproduce an engine's ND equity.

    Attributes
    ----------
    x : float or None
        The implied index; None where it is undefined (see ``reason``). It may lie
        outside [0, 1] where the engine's equity lies outside the model's range.
    reason : str
        Empty when ``x`` is defined, else why not.
    no_double : float
        The engine's equity (per cube) that was matched: ND, or DT for a
        ``"double_take"`` reading (:func:`implied_cube_life`'s ``action``).
    dead, live : float
        The model's equity of the same action at ``x = 0`` and at ``x = 1``.
    """

    x: float | None
    reason: str
    no_double: float
    dead: float
    live: float

    def equity(self) -> float:
        """``(1 - x) dead + x live``: the model's ND equity at the implied ``x``."""
        if self.x is None:
            raise ValueError(f"the implied cube life is undefined: {self.reason}")
        return (1.0 - self.x) * self.dead + self.x * self.live


def implied_cube_life(
    probabilities: CubelessProbabilities | tuple[float, ...],
    no_double: float,
    *,
    cube: int = 1,
    owner: CubeOwner = "center",
    jacoby: bool = False,
    away: int | None = None,
    opp_away: int | None = None,
    crawford: bool = False,
    table: MatchEquityTable | None = None,
    action: str = "no_double",
) -> ImpliedCubeLife:
    """The ``x`` for which Janowski's model gives the engine's ND (or DT) equity.

    Janowski's cubeful equity is linear in the cube life ``x`` ([RJ93]_; gnubg's
    ``Cl2CfMoney``, :func:`cubecore.cubeful.money_cube_decision`; at a match score
    Thyssen's generalisation, linear in MWC and so in EMG,
    :func:`cubecore.cubeful.match_cube_decision`):

    .. math::

        E(x) = (1 - x) E_{dead} + x E_{live}, \\qquad
        x^{*} = \\frac{E_{engine} - E_{dead}}{E_{live} - E_{dead}}

    with :math:`E_{dead} = E(0)` and :math:`E_{live} = E(1)` computed by those
    functions from the engine's own probabilities.

    Parameters
    ----------
    probabilities : CubelessProbabilities or 5 numbers
        The engine's cubeless probabilities of the player on roll.
    no_double : float
        The engine's cubeful ND equity (DT with ``action="double_take"``), per cube
        (EMG at a score), same cube state.
    cube, owner, jacoby
        The cube state, as in :func:`~cubecore.cubeful.money_cube_decision`.
    away, opp_away, crawford
        A match score (both None: money), as in :func:`evaluate`.
    table : MatchEquityTable, optional
        The table of the match model; default bgsage's fixed one, Kazaross-XG2
        (:data:`ENGINE_TABLE`).
    action : {"no_double", "double_take"}
        Which of the engine's cubeful equities ``no_double`` holds: ND (the default),
        or DT (per unit of the current cube, unbeavered), matched with the model's DT,
        which is linear in ``x`` too (the opponent owning the doubled cube).

    Returns
    -------
    ImpliedCubeLife
        ``x`` is None where live and dead equities coincide (within 1e-12 relative):
        no ``x`` changes the model's equity, e.g. a game already decided (``P(win)``
        0 or 1) or a dead cube at a match score (Crawford game); for DT also where the
        player on roll cannot double (the model has no DT).

    Examples
    --------
    >>> p = (0.7, 0.2, 0.01, 0.05, 0.002)
    >>> nd = money_cube_decision(p, 0.68).no_double
    >>> round(implied_cube_life(p, nd).x, 12)
    0.68
    """
    if isinstance(no_double, bool) or not isinstance(no_double, (int, float)):
        raise ValueError(f"`no_double` must be a number, got {no_double!r}")
    if not math.isfinite(no_double):
        raise ValueError(f"`no_double` must be finite, got {no_double!r}")
    action = choice("action", action, ("no_double", "double_take"))
    a, b, crawford = _score(away, opp_away, crawford)
    if a == 0:
        dead = money_cube_decision(probabilities, 0.0, cube=cube, owner=owner, jacoby=jacoby)
        live = money_cube_decision(probabilities, 1.0, cube=cube, owner=owner, jacoby=jacoby)
    else:
        if table is None:
            table = load_table(ENGINE_TABLE)
        if not isinstance(table, MatchEquityTable):
            raise ValueError(f"`table` must be a MatchEquityTable, got {type(table).__name__}")
        match = partial(
            match_cube_decision, probabilities, table=table, away=a, opp_away=b, cube=cube,
            owner=owner, crawford=crawford,
        )  # fmt: skip
        dead, live = match(0.0), match(1.0)
    if action == "no_double":
        e_dead, e_live = dead.no_double, live.no_double
    elif dead.double_take is None or live.double_take is None:
        reason = "the player on roll cannot double here: the model has no double/take equity"
        return ImpliedCubeLife(None, reason, float(no_double), math.nan, math.nan)
    else:
        e_dead, e_live = dead.double_take, live.double_take
    if abs(e_live - e_dead) <= _COINCIDE * max(1.0, abs(e_dead)):
        reason = (
            f"live and dead cube equities coincide ({e_dead:.6f}): the model's equity "
            "does not depend on the cube life here"
        )
        return ImpliedCubeLife(None, reason, float(no_double), e_dead, e_live)
    x = (float(no_double) - e_dead) / (e_live - e_dead)
    return ImpliedCubeLife(x, "", float(no_double), e_dead, e_live)


if __name__ == "__main__":  # pragma: no cover - the child process of _Worker
    _serve()
