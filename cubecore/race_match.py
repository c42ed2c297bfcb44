"""The exact race cube strategy at a match score: Zadeh-Kobliska's race on a match table.

The race model of :mod:`cubecore.race` ([ZK77]_: each roll moves the roller's count
down by the dice total, doubles counting four times; the first count at or below 0
wins; no gammons), solved exactly by dynamic programming over both counts and
every cube state, with the value of a finished game read from a match equity
table instead of counted in points. No tool has this; it is the match-play analogue
of :func:`cubecore.race.race_cube_equities`.

Model
-----
The player on roll ("the player", ``a``-away) races the opponent (``b``-away). A game
won with the cube at ``c`` is worth the player's match winning chance (MWC) at the
next game's start, ``win(c) = M(a - c, b)``; a lost one ``lose(c) = M(a, b - c)``; 1
or 0 when the match ends (:func:`cubecore.match_points` reads these, with the
table's Crawford and post-Crawford entries, [GNUBG]_). The cube states are the
centred cube at 1 and every value ``c = 2, 4, ..., 2^K`` owned by either side, ``2^K``
the first power of two at or above ``max(a, b)`` (the score's cap). A side may double
from ``c`` when it has access, ``c`` is below its own away score (above that the
cube is dead for it: a win at ``c`` already wins the match) and the game is not the
Crawford game. With ``f(t)`` the chance of dice total ``t`` and values in the
player's MWC:

* the player on roll at counts ``(x, y)`` and cube state ``s``:
  ``ND = sum_t f(t) V_opp(s; x - t, y)`` (``win(c)`` if ``x - t <= 0``),
  ``DT = ND(2c owned by the opponent)``, ``DP = win(c)``; he doubles iff
  ``min(DT, DP) > ND``, and the value is ``max(ND, min(DT, DP))``;
* the opponent on roll: the same with ``lose(c)`` and ``min``/``max`` exchanged (he
  minimises the player's MWC).

The recursion runs over the diagonals ``x + y`` in increasing order, as in
:mod:`cubecore.race`. Decisions at a state, from the doubler's side: "double/take"
(``DT <= DP`` and doubling gains), "double/pass" (``DT > DP`` and cashing gains),
"too good" (the opponent would pass, but playing on is worth strictly more than
cashing: possible at a score, through a later double the opponent must take), or
"no double". A tie (doubling worth exactly what holding is, within 1e-12, e.g. a
certain win) is "no double", as in :func:`cubecore.race.cube_action_map`.

The same recursion runs on real bear-offs (:func:`bearoff_match_equities`): the
two-sided positions of :mod:`cubecore.bearoff` with up to
:data:`MAX_BEAROFF_CHECKERS` (4) checkers a side, each roll's plays enumerated and
the best chosen per cube state (checker play may depend on the score and cube).

Budget: both counts at most :data:`MAX_MATCH_COUNT` (160) pips, the score within the
table (at most 64-away, so at most 13 cube states). One solve is ``2 max_count``
diagonal steps, each a gather of ``states x max_count x 13`` values; it takes well
under a second at 160 pips (measured 0.13-0.20 s on one core), keeps about 5 MB
(25-away, 160 pips) and is cached per (table, score, phase, size), 32 solves at
most. A bear-off solve (209 x 209 pairs
at 4 checkers) takes about 0.6 s; 5 checkers would take 5 s and 300 MB, hence the
bound.

References
----------
.. [ZK77] N. Zadeh and G. Kobliska, "On Optimal Doubling in Backgammon",
   Management Science 23(8), 853-858, April 1977.
   https://doi.org/10.1287/mnsc.23.8.853
.. [GNUBG] GNU Backgammon 1.07 manual, "The market window" and match equity
   tables, https://www.gnu.org/software/gnubg/manual/ (the MWC after a game with
   its Crawford and post-Crawford entries; the live cube's cash point).
.. [Jan93] R. Janowski, "Take-Points in Money Games", self-published paper, 1993
   (the cube life ``x`` interpolating between the dead and the live cube; the
   project's registry entry ``J93`` in :mod:`cubecore.references`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from cubecore._docs import fill_doc
from cubecore._validate import _shown, whole_number
from cubecore.bearoff import _WEIGHTS as _BEAROFF_WEIGHTS
from cubecore.bearoff import _Index, _pairs_by_total, _play_results, _plays_of, bearoff_positions
from cubecore.janowski import _implied_life
from cubecore.match_points import (
    CubeOwner,
    MatchPhase,
    MatchScore,
    _after,
    _check_match_score,
    _check_table,
    cube_points,
)
from cubecore.met import MatchEquityTable
from cubecore.race import (
    ROLL_TOTALS,
    ROLL_WAYS,
    _decision_values,
    _life_table,
    _offset_pairs,
    _win_grid,
)

__all__ = [
    "MATCH_ACTIONS",
    "MAX_BEAROFF_CHECKERS",
    "MAX_MATCH_COUNT",
    "MAX_SCORE_GRID",
    "RaceMatchEquities",
    "bearoff_match_equities",
    "cube_cap",
    "race_match_action_map",
    "race_match_cube_life",
    "race_match_cube_life_by_score",
    "race_match_equities",
    "race_match_window",
]

#: Largest pip count of either side in the match DP (the documented budget: one
#: solve at 160 pips and a 25-away score takes well under a second).
MAX_MATCH_COUNT = 160
#: Cube actions at a match score, in the order of the codes 0..3.
MATCH_ACTIONS = ("no double", "double/take", "double/pass", "too good")
#: Largest score grid of :func:`race_match_cube_life_by_score` (n x n solves).
MAX_SCORE_GRID = 11
_WINDOW_MARGIN = 40  # opponent counts beyond the roller's in race_match_window
_TIE = 1e-12  # doubling must gain more than this (rounding of sums of table values)
_PAD = max(ROLL_TOTALS)
_TOTALS = np.array(ROLL_TOTALS)
_WAYS = np.array(ROLL_WAYS, dtype=float)  # out of 36; summed before dividing, so 1s stay 1
#: The 21 bear-off rolls' ways (1 or 2 in 36), summed before dividing as :data:`_WAYS`.
_BEAROFF_WAYS = np.rint(_BEAROFF_WEIGHTS * 36.0)
_CENTER: CubeOwner = "center"
_PLAYER: CubeOwner = "player"
_OPPONENT: CubeOwner = "opponent"


class _States(NamedTuple):
    """Cube states of one score: value, owner, and the state each side doubles into."""

    value: NDArray[np.float64]
    owner: tuple[str, ...]
    player_doubles_to: NDArray[np.int64]  # -1 where the player may not double
    opponent_doubles_to: NDArray[np.int64]


def cube_cap(away: int, opp_away: int) -> int:
    """Highest cube value of a score: the first power of two at or above ``max(a, b)``.

    Parameters
    ----------
    away, opp_away : int
        Points the player and the opponent need, whole numbers in [1, 64].

    Returns
    -------
    int
        ``2^K`` with ``K = ceil(log2(max(away, opp_away)))``: a side may double from
        ``c`` only while ``c`` is below its own away score, so no cube goes higher.

    Examples
    --------
    >>> cube_cap(2, 2), cube_cap(3, 5), cube_cap(1, 1)
    (2, 8, 1)
    """
    a = whole_number("away", away, 1, 64)
    b = whole_number("opp_away", opp_away, 1, 64)
    return 1 << (max(a, b) - 1).bit_length()


def _states(a: int, b: int, crawford: bool) -> _States:
    levels = (max(a, b) - 1).bit_length()
    value = [1.0]
    owner = [_CENTER]
    for k in range(1, levels + 1):
        value += [2.0**k, 2.0**k]
        owner += [_PLAYER, _OPPONENT]
    index = {(v, o): i for i, (v, o) in enumerate(zip(value, owner, strict=True))}
    player_to, opponent_to = [], []
    for v, o in zip(value, owner, strict=True):
        ok = not crawford and v < a and o != _OPPONENT
        player_to.append(index[(2 * v, _OPPONENT)] if ok else -1)
        ok = not crawford and v < b and o != _PLAYER
        opponent_to.append(index[(2 * v, _PLAYER)] if ok else -1)
    return _States(np.array(value), tuple(owner), np.array(player_to), np.array(opponent_to))


class _Solution(NamedTuple):
    """Solved DP of one score; arrays ``[state, x, y]``, row/column 0 unused (NaN)."""

    states: _States
    win: NDArray[np.float64]  # win(c) per state
    lose: NDArray[np.float64]
    no_double: NDArray[np.float64]  # player on roll
    optimal: NDArray[np.float64]


@lru_cache(maxsize=32)
def _solve(table: MatchEquityTable, a: int, b: int, phase: MatchPhase, size: int) -> _Solution:
    """Backward induction over the diagonals ``x + y`` (module docstring), validated input."""
    states = _states(a, b, phase == "Crawford")
    mwc = _after(table, a, b, phase)
    win = np.array([mwc(int(v), 0) for v in states.value])
    lose = np.array([mwc(0, int(v)) for v in states.value])
    n = len(states.value)
    # value once the player's roll has left him at i (row i + PAD): win(c) for i <= 0
    after_player = np.empty((n, size + 1 + _PAD, size + 1))
    after_player[:] = win[:, None, None]
    after_opponent = np.empty((n, size + 1, size + 1 + _PAD))
    after_opponent[:] = lose[:, None, None]
    no_double = np.full((n, size + 1, size + 1), np.nan)
    optimal = np.full((n, size + 1, size + 1), np.nan)
    p_to, o_to = states.player_doubles_to, states.opponent_doubles_to
    p_may, o_may = p_to >= 0, o_to >= 0
    for s in range(2, 2 * size + 1):
        x = np.arange(max(1, s - size), min(size, s - 1) + 1)
        y = s - x
        rows = x[:, None] - _TOTALS[None, :] + _PAD
        cols = y[:, None] - _TOTALS[None, :] + _PAD
        nd_p = after_player[:, rows, y[:, None]] @ _WAYS / 36.0  # (states, len(x))
        nd_o = after_opponent[:, x[:, None], cols] @ _WAYS / 36.0
        # the player on roll: doubling is worth min(DT, DP) to him
        double_p = np.minimum(nd_p[np.maximum(p_to, 0)], win[:, None])
        gain_p = p_may[:, None] & (double_p > nd_p + _TIE)
        value_p = np.where(gain_p, double_p, nd_p)
        # the opponent on roll: doubling leaves the player max(DT, DP)
        double_o = np.maximum(nd_o[np.maximum(o_to, 0)], lose[:, None])
        gain_o = o_may[:, None] & (double_o < nd_o - _TIE)
        value_o = np.where(gain_o, double_o, nd_o)
        no_double[:, x, y] = nd_p
        optimal[:, x, y] = value_p
        after_player[:, x + _PAD, y] = value_o
        after_opponent[:, x, y + _PAD] = value_p
    for array in (win, lose, no_double, optimal):
        array.flags.writeable = False
    return _Solution(states, win, lose, no_double, optimal)


class _Request(NamedTuple):
    table: MatchEquityTable
    a: int
    b: int
    phase: MatchPhase
    state: int


def _request(score: MatchScore) -> _Request:
    """The score (checked by :class:`MatchScore`) under the cube cap; the cube state's index."""
    score = _check_match_score(score)
    a, b, c = score.away, score.opp_away, score.cube_value
    cap = cube_cap(a, b)
    if c > cap:
        raise ValueError(
            f"`cube_value` must be at most {cap} at {a}-away/{b}-away (the score's cap; got {c})"
        )
    states = _states(a, b, score.phase == "Crawford")
    pairs = list(zip(states.value.tolist(), states.owner, strict=True))
    return _Request(score.table, a, b, score.phase, pairs.index((float(c), score.cube_owner)))


def _decisions(
    solution: _Solution | _BearoffSolution, state: int, x: NDArray[np.int64], y: NDArray[np.int64]
) -> dict[str, NDArray[np.float64] | NDArray[np.int64] | NDArray[np.bool_]]:
    """No double / double take / double pass / optimal / action code of the player on roll."""
    no_double = solution.no_double[state, x, y]
    target = int(solution.states.player_doubles_to[state])
    if target < 0:
        nan = np.full(no_double.shape, np.nan)
        return {
            "no_double": no_double,
            "double_take": nan,
            "double_pass": nan,
            "optimal": solution.optimal[state, x, y],
            "code": np.zeros(no_double.shape, dtype=np.int64),
            "may_double": np.zeros(no_double.shape, dtype=bool),
            "tie": np.zeros(no_double.shape, dtype=bool),
        }
    double_take = solution.no_double[target, x, y]
    double_pass = np.full(no_double.shape, solution.win[state])
    passes = double_take > double_pass
    doubles = np.minimum(double_take, double_pass) > no_double + _TIE
    too_good = passes & ~doubles & (no_double > double_pass + _TIE)
    code = np.where(doubles, np.where(passes, 2, 1), np.where(too_good, 3, 0))
    return {
        "no_double": no_double,
        "double_take": double_take,
        "double_pass": double_pass,
        "optimal": solution.optimal[state, x, y],
        "code": code.astype(np.int64),
        "may_double": np.ones(no_double.shape, dtype=bool),
        "tie": np.abs(np.minimum(double_take, double_pass) - no_double) <= _TIE,
    }


@dataclass(frozen=True)
class RaceMatchEquities:
    """Exact cubeful match winning chances of a race position at a score.

    Attributes
    ----------
    no_double, double_take, double_pass : float
        The player's MWC if he rolls without doubling; if he doubles and is taken;
        if he doubles and the opponent passes (``win(c)``). The doubling fields are
        NaN where he may not double (no access, a dead cube, the Crawford game).
    optimal : float
        His MWC with both sides optimal from here.
    action : str
        One of :data:`MATCH_ACTIONS`.
    cubeless_win : float
        His cubeless winning chance in the race.
    """

    no_double: float
    double_take: float
    double_pass: float
    optimal: float
    action: str
    cubeless_win: float


def _count(name: str, value: int) -> int:
    return whole_number(name, value, 1, MAX_MATCH_COUNT)


#: The head of every public function's parameters: the score they all take first.
_score_doc = fill_doc(
    score_parameters="""
    Parameters
    ----------
    score : MatchScore
        The table the end-of-game values come from, the score (``away``: the player
        on roll's) and the cube (``cube_value`` at most :func:`cube_cap`; "player"
        is the player on roll).
    """
)


@_score_doc
def race_match_equities(score: MatchScore, on_roll: int, opponent: int) -> RaceMatchEquities:
    """Exact cube decision of a race at a match score, in match winning chance.

    {score_parameters}
    on_roll, opponent : int
        Pip counts, whole numbers in [1, 160] (:data:`MAX_MATCH_COUNT`).

    Returns
    -------
    RaceMatchEquities

    Notes
    -----
    The recursion of the module docstring, solved for both counts up to
    ``max(on_roll, opponent)``. The player doubles iff ``min(DT, DP) > ND`` and the
    opponent takes iff ``DT <= DP`` ([ZK77]_'s race; end values from [GNUBG]_'s
    table semantics).

    Examples
    --------
    Post-Crawford at 2-away the trailer doubles at once and the doubled game
    decides the match; the leader passes (to 1-away/1-away, 1/2) when the trailer
    is the favourite, and takes when he is not:

    >>> from cubecore.met import load_table
    >>> score = MatchScore(load_table("kxg2"), 2, 1, phase="post-Crawford")
    >>> race_match_equities(score, 50, 50).action
    'double/pass'
    >>> e = race_match_equities(score, 50, 45)
    >>> e.action, abs(e.double_take - e.cubeless_win) < 1e-12
    ('double/take', True)
    """
    request = _request(score)
    x, y = _count("on_roll", on_roll), _count("opponent", opponent)
    solution = _solve(request.table, request.a, request.b, request.phase, max(x, y))
    values = _decisions(solution, request.state, np.array(x), np.array(y))
    cubeless_win = float(_win_grid(np.array([x]), np.array([y]))[0, 0])
    return RaceMatchEquities(*_decision_values(values, MATCH_ACTIONS), cubeless_win)


@_score_doc
def race_match_action_map(
    score: MatchScore, *, max_count: int = 100, min_count: int = 1
) -> pd.DataFrame:
    """Tidy table of the exact race cube action at a score over both pip counts.

    {score_parameters}
    max_count, min_count : int
        Both counts run over ``min_count..max_count`` (1 <= min <= max <= 160).

    Returns
    -------
    pandas.DataFrame
        One row per position: ``on_roll``, ``opponent``, ``offset`` (opponent -
        on roll), ``cubeless_win``, ``no_double``, ``double_take``, ``double_pass``,
        ``optimal`` (MWC of the player on roll), ``action`` (categorical,
        :data:`MATCH_ACTIONS`), ``opponent_takes`` (``DT <= DP``; False where he
        may not double), ``may_double`` and ``doubling_ties`` (doubling is worth
        what holding is, within 1e-12: the action is "no double" by the strict
        rule, but doubling is not wrong; e.g. post-Crawford, a trailer who cannot
        bear off this roll loses nothing by waiting one roll).

    Examples
    --------
    At 2-away/2-away the cube is dead once turned; the leader in an even race
    doubles (the same count is a 50% race less the roller's edge):

    >>> from cubecore.met import load_table
    >>> m = race_match_action_map(MatchScore(load_table("kxg2"), 2, 2), max_count=30)
    >>> m.loc[(m.on_roll == 30) & (m.opponent == 30), "action"].item()
    'double/take'
    """
    request = _request(score)
    high = whole_number("max_count", max_count, 1, MAX_MATCH_COUNT)
    low = whole_number("min_count", min_count, 1, high)
    counts = np.arange(low, high + 1)
    x, y = (grid.ravel() for grid in np.meshgrid(counts, counts, indexing="ij"))
    solution = _solve(request.table, request.a, request.b, request.phase, high)
    values = _decisions(solution, request.state, x, y)
    code = np.asarray(values["code"], dtype=np.int64)
    return pd.DataFrame(
        {
            "on_roll": x,
            "opponent": y,
            "offset": y - x,
            "cubeless_win": _win_grid(counts, counts).ravel(),
            "no_double": values["no_double"],
            "double_take": values["double_take"],
            "double_pass": values["double_pass"],
            "optimal": values["optimal"],
            "action": pd.Categorical.from_codes(code, categories=pd.Index(list(MATCH_ACTIONS))),
            "opponent_takes": np.asarray(values["double_take"])
            <= np.asarray(values["double_pass"]),
            "may_double": values["may_double"],
            "doubling_ties": values["tie"],
        }
    )


def _first(mask: NDArray[np.bool_], values: NDArray[np.float64], last: bool = False) -> float:
    hits = np.flatnonzero(mask)
    if hits.size == 0:
        return math.nan
    return float(values[hits[-1] if last else hits[0]])


@_score_doc
def race_match_window(score: MatchScore, *, max_count: int = 100) -> pd.DataFrame:
    """The race doubling window by pip count at a score and cube level.

    {score_parameters}
    max_count : int
        The roller's count runs over 1..max_count (at most 160), the opponent's over
        1..min(160, max_count + 40), so that the window of every count up to 120 lies
        inside the range (the widest window, at long scores, is under 20 pips).

    Returns
    -------
    pandas.DataFrame
        One row per roller's count ``on_roll``: ``first_double`` (smallest offset,
        opponent's count minus his, at which he doubles), ``last_take`` (largest
        offset at which the opponent would take a double), ``first_too_good``
        (smallest offset at which he plays on for more than the cash) and
        ``double_point``, ``take_point``, ``too_good_point``: the roller's cubeless
        winning chance at those positions. NaN where the decision never occurs in
        the range (e.g. he may not double, or the opponent never takes).

    Notes
    -----
    The window in pip terms: the roller doubles from ``first_double`` on, and the
    double is a take up to ``last_take``. The decisions are monotone in the offset
    away from ties (e.g. certain wins, where doubling only ties); the boundaries
    are the first (last) occurrence in the range, so a gap would not be hidden
    from :func:`race_match_action_map`.

    Examples
    --------
    >>> from cubecore.met import load_table
    >>> w = race_match_window(MatchScore(load_table("kxg2"), 5, 5), max_count=60)
    >>> w = w.set_index("on_roll")
    >>> bool(w.loc[60, "first_double"] <= w.loc[60, "last_take"])
    True
    """
    request = _request(score)
    high = whole_number("max_count", max_count, 1, MAX_MATCH_COUNT)
    size = min(MAX_MATCH_COUNT, high + _WINDOW_MARGIN)
    solution = _solve(request.table, request.a, request.b, request.phase, size)
    xs, ys = np.arange(1, high + 1), np.arange(1, size + 1)
    x, y = np.meshgrid(xs, ys, indexing="ij")  # one row per roller's count
    values = _decisions(solution, request.state, x, y)
    offset = (y - x).astype(float)
    win = _win_grid(xs, ys)
    code = np.asarray(values["code"])
    doubles = (code == 1) | (code == 2)
    takes = np.asarray(values["double_take"]) <= np.asarray(values["double_pass"])
    too_good = code == 3
    rows = []
    for i, count in enumerate(xs.tolist()):
        rows.append(
            {
                "on_roll": count,
                "first_double": _first(doubles[i], offset[i]),
                "last_take": _first(takes[i], offset[i], last=True),
                "first_too_good": _first(too_good[i], offset[i]),
                "double_point": _first(doubles[i], win[i]),
                "take_point": _first(takes[i], win[i], last=True),
                "too_good_point": _first(too_good[i], win[i]),
            }
        )
    return pd.DataFrame(rows)


def _live_and_dead(
    score: MatchScore, p: NDArray[np.float64]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Dead-cube and live-cube MWC of the player at cubeless chance ``p``."""
    mwc = _after(score.table, score.away, score.opp_away, score.phase)
    c = score.cube_value
    win, lose = mwc(c, 0), mwc(0, c)
    dead = lose + p * (win - lose)
    points = cube_points(score)
    mine, theirs = points.player_doubles, points.opponent_doubles
    high = mine.cash_point_live if mine.may_double else 1.0
    low = 1.0 - theirs.cash_point_live if theirs.may_double else 0.0
    high = 1.0 if math.isnan(high) else high
    low = 0.0 if math.isnan(low) else low
    if high <= low:  # no room between the cash points: the live cube is dead
        return dead, dead
    share = np.clip((p - low) / (high - low), 0.0, 1.0)  # flat beyond each cash point
    return dead, lose + share * (win - lose)


@_score_doc
def race_match_cube_life(
    score: MatchScore, *, offset: int = 0, max_count: int = 100
) -> pd.DataFrame:
    """Janowski cube life ``x`` implied by the exact race at a score, along a race.

    {score_parameters}
    offset : int
        Opponent's count - roller's count, in [-100, 100].
    max_count : int
        Roller's counts run over 1..max_count (the opponent's kept in 1..160).

    Returns
    -------
    pandas.DataFrame
        ``on_roll``, ``opponent``, ``cubeless_win``, ``cubeful``, ``dead``, ``live``
        (MWC) and ``cube_life`` (NaN where undefined).

    Notes
    -----
    The analogue of :func:`cubecore.race.implied_cube_life` in MWC ([Jan93]_):
    ``x = (MWC_cubeful - MWC_dead) / (MWC_live - MWC_dead)`` with
    ``MWC_dead = lose(c) + p (win(c) - lose(c))`` and ``MWC_live`` linear between
    ``lose(c)`` at the opponent's live cash point and ``win(c)`` at the player's
    (:func:`cubecore.match_points.cube_points`, ``cash_point_live``; a side that may
    not double has no cash point), flat beyond them. Undefined where the live and
    the dead cube agree (``p`` = 0 or 1, or neither side may double).

    Examples
    --------
    >>> from cubecore.met import load_table
    >>> d = race_match_cube_life(MatchScore(load_table("kxg2"), 9, 9), max_count=80)
    >>> d = d.set_index("on_roll")
    >>> 0.0 < float(d.loc[80, "cube_life"]) < 1.0
    True
    """
    request = _request(score)
    x, y = _offset_pairs(offset, max_count, MAX_MATCH_COUNT)
    size = int(max(x.max(initial=1), y.max(initial=1)))
    solution = _solve(request.table, request.a, request.b, request.phase, size)
    cubeful = solution.optimal[request.state, x, y]
    p = np.array([_win_grid(np.array([i]), np.array([j]))[0, 0] for i, j in zip(x, y, strict=True)])
    dead, live = _live_and_dead(score, p)
    return _life_table(x, y, p, cubeful, dead, live)


def race_match_cube_life_by_score(
    table: MatchEquityTable, on_roll: int, opponent: int, *, max_away: int = 7
) -> pd.DataFrame:
    """Implied cube life of one race position, centred cube, at every score.

    Parameters
    ----------
    table : MatchEquityTable
        The table the end-of-game values come from.
    on_roll, opponent : int
        Pip counts, whole numbers in [1, 160].
    max_away : int
        Scores ``2..max_away`` for both sides, pre-Crawford (at most 11, and within
        the table): up to 100 solves, each of size ``max(on_roll, opponent)``
        (measured: 3.2 s for 9 x 9 at 160 pips, about 5 s for 11 x 11).

    Returns
    -------
    pandas.DataFrame
        Tidy: ``away``, ``opp_away``, ``cubeless_win``, ``cubeful``, ``dead``,
        ``live`` and ``cube_life`` (see :func:`race_match_cube_life`).

    Examples
    --------
    >>> from cubecore.met import load_table
    >>> d = race_match_cube_life_by_score(load_table("kxg2"), 60, 60, max_away=3)
    >>> len(d), sorted(set(d.away))
    (4, [2, 3])
    """
    table = _check_table(table)
    x, y = _count("on_roll", on_roll), _count("opponent", opponent)
    n = whole_number("max_away", max_away, 2, min(MAX_SCORE_GRID, table.length))
    rows = []
    for a in range(2, n + 1):
        for b in range(2, n + 1):
            score = MatchScore(table, a, b)
            request = _request(score)
            solution = _solve(request.table, a, b, request.phase, max(x, y))
            p = np.array([_win_grid(np.array([x]), np.array([y]))[0, 0]])
            cubeful = float(solution.optimal[0, x, y])
            dead, live = _live_and_dead(score, p)
            life = float(_implied_life(np.array([cubeful]), dead, live)[0])
            rows.append(
                {
                    "away": a,
                    "opp_away": b,
                    "cubeless_win": float(p[0]),
                    "cubeful": cubeful,
                    "dead": float(dead[0]),
                    "live": float(live[0]),
                    "cube_life": life,
                }
            )
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------------
# The same on the exact two-sided bear-off (real checkers, optimal checker play)
# ----------------------------------------------------------------------------------
#: Largest number of checkers per side of :func:`bearoff_match_equities` (the budget:
#: C(10, 5) = 252 positions a side, 63,504 pairs; one solve takes a few seconds).
MAX_BEAROFF_CHECKERS = 4


class _BearoffSolution(NamedTuple):
    """Solved bear-off DP of one score: arrays ``[state, i, j]`` (player on roll at i)."""

    states: _States
    win: NDArray[np.float64]
    positions: NDArray[np.int8]
    cubeless: NDArray[np.float64]  # [i, j]: cubeless chance of the player on roll
    no_double: NDArray[np.float64]
    optimal: NDArray[np.float64]


@lru_cache(maxsize=16)
def _solve_bearoff(
    table: MatchEquityTable, a: int, b: int, phase: MatchPhase, checkers: int
) -> _BearoffSolution:
    """Backward induction over the total pips of both sides, validated input.

    ``seen_o[s, k, m]``: the player's MWC once he has moved to ``m`` and the opponent,
    at ``k``, is on roll (``win(c)`` when ``m`` is empty: he bore off). ``seen_p[s, k,
    m]``: the player on roll at ``k``, the opponent having moved to ``m`` (``lose(c)``
    when ``m`` is empty). Each side picks, for each roll and cube state, the play best
    for itself (the player maximises his MWC, the opponent minimises it); state 0 of
    the extra leading axis entry is the cubeless race (values 1 and 0, no cube).
    """
    states = _states(a, b, phase == "Crawford")
    mwc = _after(table, a, b, phase)
    win = np.array([mwc(int(v), 0) for v in states.value])
    lose = np.array([mwc(0, int(v)) for v in states.value])
    # prepend the cubeless race as a pseudo state: win 1, lose 0, no doubling
    end_win, end_lose = np.concatenate([[1.0], win]), np.concatenate([[0.0], lose])
    p_to = np.concatenate(
        [[-1], np.where(states.player_doubles_to >= 0, states.player_doubles_to + 1, -1)]
    )
    o_to = np.concatenate(
        [[-1], np.where(states.opponent_doubles_to >= 0, states.opponent_doubles_to + 1, -1)]
    )
    p_may, o_may = p_to >= 0, o_to >= 0
    positions = bearoff_positions(checkers)
    count, n = len(positions), len(end_win)
    plays = _play_results(positions)
    pips = positions.astype(np.int64) @ np.arange(1, 7)
    seen_o = np.zeros((n, count, count))
    seen_p = np.zeros((n, count, count))
    seen_o[:, :, 0] = end_win[:, None]  # the player has borne off: he won
    seen_p[:, :, 0] = end_lose[:, None]  # the opponent has borne off
    no_double = np.full((n, count, count), np.nan)
    optimal = np.full((n, count, count), np.nan)
    for _, i, j in _pairs_by_total(pips):
        if len(i) == 0:
            continue
        nd_p = np.zeros((n, len(i)))
        nd_o = np.zeros((n, len(i)))
        for ways, (data, indptr) in zip(_BEAROFF_WAYS, plays, strict=True):
            after, lengths, starts = _plays_of(data, indptr, i)
            other = np.repeat(j, lengths)
            # the roller at i plays to ``after``; the other side, at j, is then on roll
            nd_p += ways * np.maximum.reduceat(seen_o[:, other, after], starts, axis=1)
            nd_o += ways * np.minimum.reduceat(seen_p[:, other, after], starts, axis=1)
        # out of 36 ways, divided once: a sure win stays exactly 1 (1/36 has no exact float)
        nd_p /= 36.0
        nd_o /= 36.0
        double_p = np.minimum(nd_p[np.maximum(p_to, 0)], end_win[:, None])
        value_p = np.where(p_may[:, None] & (double_p > nd_p + _TIE), double_p, nd_p)
        double_o = np.maximum(nd_o[np.maximum(o_to, 0)], end_lose[:, None])
        value_o = np.where(o_may[:, None] & (double_o < nd_o - _TIE), double_o, nd_o)
        no_double[:, i, j] = nd_p
        optimal[:, i, j] = value_p
        seen_p[:, i, j] = value_p  # the player on roll at i, the opponent at j
        seen_o[:, i, j] = value_o  # the opponent on roll at i, the player at j
    cubeless = np.clip(optimal[0], 0.0, 1.0)  # sums of 21 terms: rounding of 1e-16
    for array in (win, cubeless):
        array.flags.writeable = False
    return _BearoffSolution(states, win, positions, cubeless, no_double[1:], optimal[1:])


def _as_tuple(points: object) -> tuple[int, ...] | None:
    """``points`` as a tuple, or None when it is not a one-dimensional sequence."""
    try:
        array = np.asarray(points)
    except (TypeError, ValueError):
        return None
    return tuple(array.tolist()) if array.ndim == 1 else None


def _home(name: str, points: Sequence[int]) -> tuple[int, ...]:
    """Checkers on points 1..6, at most :data:`MAX_BEAROFF_CHECKERS`, at least one."""
    values = None if isinstance(points, (str, bytes)) else _as_tuple(points)
    if values is None or len(values) != 6:
        raise ValueError(
            f"`{name}` must be a sequence of 6 checker counts (points 1..6; got {_shown(points)})"
        )
    counts = tuple(
        whole_number(f"{name}[{k}]", v, 0, MAX_BEAROFF_CHECKERS) for k, v in enumerate(values)
    )
    if not 1 <= sum(counts) <= MAX_BEAROFF_CHECKERS:
        raise ValueError(
            f"`{name}` must hold 1..{MAX_BEAROFF_CHECKERS} checkers (got {sum(counts)})"
        )
    return counts


@_score_doc
def bearoff_match_equities(
    score: MatchScore, on_roll: Sequence[int], opponent: Sequence[int]
) -> RaceMatchEquities:
    """Exact cube decision of a real bear-off at a match score (optimal checker play).

    {score_parameters}
    on_roll, opponent : sequence of 6 int
        Checkers on points 1..6 of the player on roll and of the opponent, 1..4
        checkers a side (:data:`MAX_BEAROFF_CHECKERS`).

    Returns
    -------
    RaceMatchEquities
        As for the pip model; ``cubeless_win`` is the exact cubeless chance with
        checker play that maximises it.

    Notes
    -----
    The recursion of the module docstring on the two-sided bear-off of
    :func:`cubecore.bearoff.build_two_sided` instead of pip counts: each roll's
    plays are enumerated, and in every cube state the mover picks the play best for
    him in MWC (checker play can depend on the score and the cube). Both sides'
    positions of up to ``max(checkers)`` checkers are solved together, by total pips.

    Examples
    --------
    One checker on the 6-point against one on the ace at double match point: the
    roller bears off with 27 rolls in 36, and that is his match winning chance:

    >>> from cubecore.met import load_table
    >>> score = MatchScore(load_table("kxg2"), 1, 1, phase="post-Crawford")
    >>> e = bearoff_match_equities(score, (0, 0, 0, 0, 0, 1), (1, 0, 0, 0, 0, 0))
    >>> round(e.optimal, 12), e.action
    (0.75, 'no double')
    """
    request = _request(score)
    mine, theirs = _home("on_roll", on_roll), _home("opponent", opponent)
    checkers = max(sum(mine), sum(theirs))
    solution = _solve_bearoff(request.table, request.a, request.b, request.phase, checkers)
    index = _Index(solution.positions)
    i, j = index(np.array([mine, theirs], dtype=np.int8))
    values = _decisions(solution, request.state, np.array(i), np.array(j))
    cubeless_win = float(solution.cubeless[i, j])
    return RaceMatchEquities(*_decision_values(values, MATCH_ACTIONS), cubeless_win)
