"""Cube points and gammon values at a match score, read from a match equity table.

Everything here is a function of one :class:`~cubecore.met.MatchEquityTable` (any
table: bundled, uploaded or generated) and the score. The definitions are those of
GNU Backgammon's ``show marketwindow`` and ``show gammonvalues`` ([GNUBG]_ manual,
"Market window" and "Gammon values"), reimplemented here from their definitions in
match winning chances (MWC); no gnubg code is used.

Notation, from the doubler's view: the doubler is ``a``-away, the taker ``b``-away,
the cube is at ``c``; ``win(n)`` / ``lose(n)`` are the doubler's MWC after he wins /
loses ``n`` points (the table at the next game's start: 1 for a won match, 0 for a
lost one; post-Crawford entries once a side is 1-away). The doubler wins a gammon
(worth twice the cube) with probability ``g`` and a backgammon (three times) with
``h`` per game he wins (gammon-only and backgammon rates, not folded together), the
taker ``g'`` and ``h'``::

    W(v) = (1 - g - h) win(v) + g win(2v) + h win(3v)        (doubler wins at cube v)
    L(v) = (1 - g' - h') lose(v) + g' lose(2v) + h' lose(3v)  (doubler loses at cube v)

With the doubled cube at ``d = 2c``, ``P = win(c)`` (double, pass):

- double point (dead cube) ``DP = (L(c) - L(d)) / (L(c) - L(d) + W(d) - W(c))``: where
  doubling's risk equals its gain;
- cash point (dead cube) ``CP = (P - L(d)) / (W(d) - L(d))``: where the taker's
  take and pass are worth the same; the taker's take point is ``1 - CP``;
- too-good point (dead cube) ``TG = (P - L(c)) / (W(c) - L(c))``: where playing on
  undoubled for the gammon is worth what cashing is;
- automatic redouble: when the doubler is at most ``d``-away and the taker more
  than ``d``-away, the taker redoubles to ``2d`` at no risk; gnubg then gives the
  same two points with the game played at ``2d`` (``W(2d)``, ``L(2d)``);
- live cash point ([GNUBG]_, after J. Thyssen's notes on the cubeful equity in
  match play): the taker, now owning ``d``, redoubles at his own live cash point
  ``CP'(d)`` and the doubler then passes (MWC ``lose(d)``); if the taker's equity is
  linear in the doubler's winning chance ``p`` between ``p = 1 - CP'(d)`` (value
  ``lose(d)``) and ``p = 1`` (value ``W(d)``), it equals the pass value ``P`` at::

      CP(c) = 1 - CP'(d) (W(d) - P) / (W(d) - lose(d)),

  a recursion up the cube levels, ending where the doubled cube is dead (a side at
  most ``d``-away), where the live cash point is the dead one (with the automatic
  redouble if there is one).

Gammon and backgammon values ([GNUBG]_, "Gammon values"), for the player ``a``-away
against ``b``-away at cube ``c``::

    GV  = (M(a - 2c, b) - M(a - c, b)) / (M(a - c, b) - M(a, b - c))
    BGV = (M(a - 3c, b) - M(a - c, b)) / (M(a - c, b) - M(a, b - c))

the value of a gammon (backgammon) over a single win in units of the single game's
swing; for the opponent the same with the roles swapped (the same denominator).
In money play ``GV = 1/2`` and ``BGV = 1``.

References
----------
.. [GNUBG] GNU Backgammon 1.07 manual, "The market window" and "Gammon values",
   https://www.gnu.org/software/gnubg/manual/ (``show marketwindow``, ``show
   gammonvalues``); checked against the gnubg 1.07 binary (``tests/data``).
.. [KS69] E. Keeler and J. Spencer, "Proper Raising Points in a Generalization of
   Backgammon", RAND Corporation P-4078, 1969,
   https://www.rand.org/pubs/papers/P4078.html (the live cube's cash point).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

from cubecore._validate import choice, real_in_range, real_number, whole_number
from cubecore.met import MatchEquityTable

__all__ = [
    "GAMMON_CLASSES",
    "GAMMON_CLASS_BOUNDS",
    "MATCH_PHASES",
    "MAX_CUBE_VALUE",
    "MAX_TABLE_AWAY",
    "NO_GAMMONS",
    "OWNERS",
    "CubeOwner",
    "CubePoints",
    "GammonRates",
    "GammonValues",
    "MarketWindow",
    "MatchPhase",
    "MatchScore",
    "classify_gammon_value",
    "cube_life_take_point",
    "cube_points",
    "cube_points_table",
    "dead_take_point_table",
    "gammon_value_table",
    "gammon_values",
]

#: The three kinds of game in a match: both sides 2-away or more, the Crawford game
#: (a side has just reached 1-away; no cube), and post-Crawford games.
MatchPhase = Literal["pre-Crawford", "Crawford", "post-Crawford"]
MATCH_PHASES: tuple[MatchPhase, ...] = ("pre-Crawford", "Crawford", "post-Crawford")
#: Where the cube is, from the player's view.
CubeOwner = Literal["center", "player", "opponent"]
OWNERS: tuple[CubeOwner, ...] = ("center", "player", "opponent")
#: Largest cube value accepted (a power of two); the points recurse over cube levels.
MAX_CUBE_VALUE = 1024
#: Largest away score accepted (gnubg's tables go to 64-away at most).
MAX_TABLE_AWAY = 64
#: Gammon-value classes and their lower bounds (the project's own convention, stated
#: here once): money play has GV = 1/2, so "money-like" is a band around it; a gammon
#: worth at least the whole single-game swing (GV >= 1) is "gammon-go".
GAMMON_CLASSES = ("dead", "low", "money-like", "high", "gammon-go")
GAMMON_CLASS_BOUNDS = (0.05, 0.35, 0.65, 1.0)

_Mwc = Callable[[int, int], float]  # (points the player wins, points the opponent wins)


@dataclass(frozen=True)
class MarketWindow:
    """One side's double at a match score: the doubler's points, the taker's take points.

    All points are in the doubler's game winning chances except the take points,
    which are in the taker's own (``take_point = 1 - cash_point``). ``nan`` where a
    point is 0/0 (the double neither risks nor gains anything).

    Attributes
    ----------
    doubler : {"player", "opponent"}
    may_double : bool
        The doubler has access to the cube (centred or his), the game is not the
        Crawford game, and he is more than ``cube_value`` away (else doubling gains
        nothing).
    double_kind : {"initial double", "redouble", "no access"}
        Which point ``double_point`` is for this cube position.
    double_point, cash_point, too_good_point : float
        Dead cube, with the gammon and backgammon rates given (module docstring).
    auto_redouble : bool
        The taker's redouble to twice the doubled cube is automatic (gnubg's
        "opponent redoubles" line).
    double_point_redoubled, cash_point_redoubled : float
        The same two points with the automatic redouble (``nan`` without one).
    cash_point_live : float
        The live cube's cash point (recursion over the cube levels).
    cash_point_gammonless : float
        The dead cash point with no gammons for either side (the automatic redouble
        counted, as in ``take_point``).
    take_point, take_point_live, take_point_gammonless : float
        The taker's take points: dead with gammons (after the automatic redouble if
        there is one), live, and dead without gammons.
    """

    doubler: str
    may_double: bool
    double_kind: str
    double_point: float
    cash_point: float
    too_good_point: float
    auto_redouble: bool
    double_point_redoubled: float
    cash_point_redoubled: float
    cash_point_live: float
    cash_point_gammonless: float
    take_point: float
    take_point_live: float
    take_point_gammonless: float


@dataclass(frozen=True)
class MatchScore:
    """A match score and its cube: the position of the match a cube decision is taken at.

    The first argument of :func:`cube_points` and of the functions of
    :mod:`cubecore.race_match`; checked once, when it is made.

    Parameters
    ----------
    table : MatchEquityTable
        The table the MWC come from.
    away, opp_away : int
        Points the player and the opponent need, 1..``table.length`` (at most 64).
    phase : {"pre-Crawford", "Crawford", "post-Crawford"}
        A 1-away score is the Crawford game or post-Crawford; otherwise pre-Crawford.
    cube_value : int
        The cube now, a power of two in [1, 1024]; 1 exactly when centred, and 1 in
        the Crawford game (no cube).
    cube_owner : {"center", "player", "opponent"}
        Who owns the cube ("player": the player, who is ``away``-away).

    Raises
    ------
    ValueError
        A score outside the table, a phase that does not fit the score, a cube that
        is not a power of two or does not fit its owner or the phase.
    TypeError
        ``table`` is not a :class:`~cubecore.met.MatchEquityTable`.

    Notes
    -----
    The phases are GNU Backgammon's ([GNUBG]_): the Crawford game is the one game
    after a side first reaches 1-away, played without the cube.

    Examples
    --------
    >>> t = MatchEquityTable("kxg2", "Kazaross-XG2 (corner)",
    ...                      [[0.5, 0.67736], [0.32264, 0.5]], [0.5, 0.48803])
    >>> MatchScore(t, 2, 1, phase="post-Crawford").cube_owner
    'center'
    """

    table: MatchEquityTable
    away: int
    opp_away: int
    phase: MatchPhase = "pre-Crawford"
    cube_value: int = 1
    cube_owner: CubeOwner = "center"

    def __post_init__(self) -> None:
        table = _check_table(self.table)
        a, b = _check_score(table, self.away, self.opp_away, self.phase)
        c, owner = _check_cube(self.phase, self.cube_value, self.cube_owner)
        object.__setattr__(self, "away", a)
        object.__setattr__(self, "opp_away", b)
        object.__setattr__(self, "cube_value", c)
        object.__setattr__(self, "cube_owner", owner)


@dataclass(frozen=True)
class GammonRates:
    """How often each side's wins are gammons and backgammons.

    The second argument of :func:`cube_points` and :func:`cube_points_table`;
    checked once, when it is made.

    Parameters
    ----------
    gammon_rate, backgammon_rate : float
        Share of the player's wins that are gammons (not backgammons) and
        backgammons, each in [0, 1], summing to at most 1.
    opp_gammon_rate, opp_backgammon_rate : float
        The same for the opponent's wins.

    Raises
    ------
    ValueError
        A rate out of [0, 1], or a side's two rates summing to more than 1.

    Examples
    --------
    >>> GammonRates(gammon_rate=0.26, opp_gammon_rate=0.26).opp_backgammon_rate
    0.0
    """

    gammon_rate: float = 0.0
    backgammon_rate: float = 0.0
    opp_gammon_rate: float = 0.0
    opp_backgammon_rate: float = 0.0

    def __post_init__(self) -> None:
        g, bg = _check_rates("", self.gammon_rate, self.backgammon_rate)
        og, obg = _check_rates("opp_", self.opp_gammon_rate, self.opp_backgammon_rate)
        for name, value in zip(
            ("gammon_rate", "backgammon_rate", "opp_gammon_rate", "opp_backgammon_rate"),
            (g, bg, og, obg),
            strict=True,
        ):
            object.__setattr__(self, name, value)

    def _sides(self) -> tuple[float, float, float, float]:
        """``(g, bg, og, obg)``: the player's rates, then the opponent's."""
        return (
            self.gammon_rate,
            self.backgammon_rate,
            self.opp_gammon_rate,
            self.opp_backgammon_rate,
        )


@dataclass(frozen=True)
class CubePoints:
    """Everything about the cube at one score, cube level and ownership.

    Attributes
    ----------
    score : MatchScore
        The score and the cube.
    mwc : float
        The player's match winning chance at the start of this game (cube centred at
        1: the table entry; other cube positions are not in a table).
    player_doubles, opponent_doubles : MarketWindow
        The player's double (the opponent's take points) and the opponent's double
        (the player's take points).
    """

    score: MatchScore
    mwc: float
    player_doubles: MarketWindow
    opponent_doubles: MarketWindow


@dataclass(frozen=True)
class GammonValues:
    """Gammon and backgammon values of both sides at one score and cube level.

    What :func:`gammon_values` returns; :func:`gammon_value_table` has one row of
    these fields per score.

    Attributes
    ----------
    gammon_value, backgammon_value : float
        The player's (module docstring); ``nan`` if a single game decides nothing.
    opp_gammon_value, opp_backgammon_value : float
        The opponent's, on the same scale.
    gammon_class, opp_gammon_class : str
        :func:`classify_gammon_value` of each side's gammon value.
    """

    away: int
    opp_away: int
    phase: MatchPhase
    cube_value: int
    gammon_value: float
    backgammon_value: float
    opp_gammon_value: float
    opp_backgammon_value: float
    gammon_class: str
    opp_gammon_class: str


# ----------------------------------------------------------------------------------
# Validation and the table after the game
# ----------------------------------------------------------------------------------
def _check_table(table: MatchEquityTable) -> MatchEquityTable:
    if not isinstance(table, MatchEquityTable):
        raise TypeError(f"`table` must be a cubecore.met.MatchEquityTable (got {type(table)})")
    return table


def _check_score(
    table: MatchEquityTable, away: int, opp_away: int, phase: MatchPhase
) -> tuple[int, int]:
    high = min(table.length, MAX_TABLE_AWAY)
    a = whole_number("away", away, 1, high)
    b = whole_number("opp_away", opp_away, 1, high)
    choice("phase", phase, MATCH_PHASES)
    if phase == "pre-Crawford" and min(a, b) == 1:
        raise ValueError(
            f"phase 'pre-Crawford' needs away and opp_away >= 2 (got {a} and {b}); a 1-away"
            " score is the Crawford game or post-Crawford"
        )
    if phase != "pre-Crawford" and min(a, b) != 1:
        raise ValueError(f"phase {phase!r} needs away or opp_away to be 1 (got {a} and {b})")
    if phase != "pre-Crawford" and max(a, b) > table.post_length:
        raise ValueError(
            f"the post-Crawford column of {table.name} covers 1..{table.post_length} away"
            f" (got {max(a, b)})"
        )
    return a, b


def _check_cube(phase: MatchPhase, cube_value: int, cube_owner: CubeOwner) -> tuple[int, CubeOwner]:
    c = whole_number("cube_value", cube_value, 1, MAX_CUBE_VALUE)
    if c & (c - 1):
        raise ValueError(f"`cube_value` must be a power of two in [1, {MAX_CUBE_VALUE}] (got {c})")
    owner = choice("cube_owner", cube_owner, OWNERS)
    if (owner == "center") != (c == 1):
        raise ValueError(
            f"cube_owner 'center' goes with cube_value 1 and only with it (got {owner!r}, {c})"
        )
    if phase == "Crawford" and c != 1:
        raise ValueError(f"the Crawford game has no cube: cube_value must be 1 (got {c})")
    return c, owner


def _check_match_score(score: MatchScore) -> MatchScore:
    if not isinstance(score, MatchScore):
        raise TypeError(f"`score` must be a cubecore.match_points.MatchScore (got {type(score)})")
    return score


def _check_gammon_rates(rates: GammonRates) -> GammonRates:
    if not isinstance(rates, GammonRates):
        raise TypeError(f"`rates` must be a cubecore.match_points.GammonRates (got {type(rates)})")
    return rates


def _check_rates(prefix: str, gammon: float, backgammon: float) -> tuple[float, float]:
    g = real_in_range(f"{prefix}gammon_rate", gammon, 0.0, 1.0)
    bg = real_in_range(f"{prefix}backgammon_rate", backgammon, 0.0, 1.0)
    if g + bg > 1.0 + 1e-12:
        raise ValueError(
            f"{prefix}gammon_rate + {prefix}backgammon_rate must be at most 1 (got {g + bg:g})"
        )
    return g, bg


#: No gammons for either side: the default of :func:`cube_points` (and gnubg's gammonless lines).
NO_GAMMONS = GammonRates()


def _after(table: MatchEquityTable, a: int, b: int, phase: MatchPhase) -> _Mwc:
    """The player's MWC at the next game's start after the player (opponent) wins n (m)."""
    post = phase != "pre-Crawford"  # after a Crawford or post-Crawford game: post-Crawford

    def mwc(n: int, m: int) -> float:  # a finished match reads 1 or 0 from the table
        a2, b2 = a - n, b - m
        return table.mwc(a2, b2, post_crawford=post and min(a2, b2) == 1)

    return mwc


def _ratio(num: float, den: float) -> float:
    """``num / den``; 0/0 (no risk and no gain) is ``nan``."""
    if den == 0.0:
        return math.nan
    return num / den


# ----------------------------------------------------------------------------------
# Market window
# ----------------------------------------------------------------------------------
class _Side:
    """One doubler's view: his MWC after each result, with both sides' rates."""

    def __init__(self, mwc: _Mwc, a: int, b: int, rates: tuple[float, float, float, float]):
        self.mwc, self.a, self.b = mwc, a, b
        self.g, self.bg, self.og, self.obg = rates

    def win(self, n: int) -> float:
        return self.mwc(n, 0)

    def lose(self, n: int) -> float:
        return self.mwc(0, n)

    def w(self, v: int) -> float:  # doubler wins at cube v: single, gammon, backgammon
        return (
            (1 - self.g - self.bg) * self.win(v)
            + self.g * self.win(2 * v)
            + self.bg * self.win(3 * v)
        )

    def l(self, v: int) -> float:  # noqa: E743 - doubler loses at cube v
        return (
            (1 - self.og - self.obg) * self.lose(v)
            + self.og * self.lose(2 * v)
            + self.obg * self.lose(3 * v)
        )

    def auto_redouble(self, c: int) -> bool:
        return self.a <= 2 * c < self.b

    def dead_points(self, c: int, played_at: int) -> tuple[float, float]:
        """Double point and cash point, the doubled game played at ``played_at``."""
        ndw, ndl, dtw, dtl = self.w(c), self.l(c), self.w(played_at), self.l(played_at)
        double = _ratio(ndl - dtl, (ndl - dtl) + (dtw - ndw))
        cash = _ratio(self.win(c) - dtl, dtw - dtl)
        return double, cash

    def too_good(self, c: int) -> float:
        return _ratio(self.win(c) - self.l(c), self.w(c) - self.l(c))


def _live_cash_point(sides: tuple[_Side, _Side], k: int, v: int) -> float:
    """Live cash point of side ``k`` doubling ``v`` to ``2v`` (module docstring)."""
    side = sides[k]
    if side.a <= 2 * v or side.b <= 2 * v:  # the doubled cube is dead
        played_at = 4 * v if side.auto_redouble(v) else 2 * v
        return side.dead_points(v, played_at)[1]
    taker_cash = _live_cash_point(sides, 1 - k, 2 * v)
    dtw, cash = side.w(2 * v), side.win(v)
    return 1.0 - taker_cash * _ratio(dtw - cash, dtw - side.lose(2 * v))


def _window(
    sides: tuple[_Side, _Side],
    gammonless: tuple[_Side, _Side],
    k: int,
    c: int,
    access: bool,
    centred: bool,
    crawford: bool,
) -> MarketWindow:
    side = sides[k]
    double, cash = side.dead_points(c, 2 * c)
    auto = side.auto_redouble(c)
    double2, cash2 = side.dead_points(c, 4 * c) if auto else (math.nan, math.nan)
    live = _live_cash_point(sides, k, c)
    plain = gammonless[k].dead_points(c, 4 * c if auto else 2 * c)[1]
    effective = cash2 if auto else cash
    kind = "no access" if not access else ("initial double" if centred else "redouble")
    return MarketWindow(
        doubler=("player", "opponent")[k],
        may_double=access and not crawford and side.a > c,
        double_kind=kind,
        double_point=double,
        cash_point=cash,
        too_good_point=side.too_good(c),
        auto_redouble=auto,
        double_point_redoubled=double2,
        cash_point_redoubled=cash2,
        cash_point_live=live,
        cash_point_gammonless=plain,
        take_point=1.0 - effective,
        take_point_live=1.0 - live,
        take_point_gammonless=1.0 - plain,
    )


def _cube_points(score: MatchScore, rates: GammonRates) -> CubePoints:
    table, a, b, phase = score.table, score.away, score.opp_away, score.phase
    c, owner = score.cube_value, score.cube_owner
    mwc = _after(table, a, b, phase)
    g, bg, og, obg = rates._sides()

    def swap(n: int, m: int) -> float:
        return 1.0 - mwc(m, n)

    sides = (_Side(mwc, a, b, (g, bg, og, obg)), _Side(swap, b, a, (og, obg, g, bg)))
    zero = (0.0, 0.0, 0.0, 0.0)
    plain = (_Side(mwc, a, b, zero), _Side(swap, b, a, zero))
    crawford = phase == "Crawford"
    centred = owner == "center"
    start = table.mwc(a, b, post_crawford=phase == "post-Crawford")
    return CubePoints(
        score=score,
        mwc=start,
        player_doubles=_window(sides, plain, 0, c, owner != "opponent", centred, crawford),
        opponent_doubles=_window(sides, plain, 1, c, owner != "player", centred, crawford),
    )


def cube_points(score: MatchScore, rates: GammonRates = NO_GAMMONS) -> CubePoints:
    """Market windows and take points of both sides at one match score.

    The double, cash and too-good points (dead cube, gammon-adjusted), the points
    with the taker's automatic redouble, the live cash point and the take points
    of each side's double from ``cube_value`` to ``2 cube_value``, as defined in the
    module docstring ([GNUBG]_ ``show marketwindow``; the live cash point is the
    continuous-game cash point of [KS69]_ at the score).

    Parameters
    ----------
    score : MatchScore
        The table, the score and the cube; the cube's owner decides who may double
        (the points themselves do not depend on it, as in gnubg).
    rates : GammonRates
        Both sides' gammon and backgammon rates (default: none).

    Returns
    -------
    CubePoints

    Raises
    ------
    TypeError
        ``score`` is not a :class:`MatchScore` or ``rates`` not a
        :class:`GammonRates` (each checked its values when it was made).

    Notes
    -----
    Cost: a handful of table look-ups per cube level up to where the cube is dead
    (at most ``log2(2 max(away, opp_away))`` levels).

    Examples
    --------
    2-away/2-away on Kazaross-XG2 without gammons: the doubler cashes where the
    taker's drop (2-away/1-away, the Crawford game: 0.32264) equals his take, so the
    take point is 0.32264, and the doubled game decides the match:

    >>> t = MatchEquityTable("kxg2", "Kazaross-XG2 (corner)",
    ...                      [[0.5, 0.67736], [0.32264, 0.5]], [0.5, 0.48803])
    >>> p = cube_points(MatchScore(t, 2, 2))
    >>> round(p.player_doubles.take_point, 5), p.player_doubles.cash_point_live
    (0.32264, 0.67736)
    """
    return _cube_points(_check_match_score(score), _check_gammon_rates(rates))


_WINDOW_COLUMNS = (
    "may_double",
    "double_kind",
    "double_point",
    "cash_point",
    "too_good_point",
    "auto_redouble",
    "double_point_redoubled",
    "cash_point_redoubled",
    "cash_point_live",
    "cash_point_gammonless",
    "take_point",
    "take_point_live",
    "take_point_gammonless",
)


def cube_points_table(score: MatchScore, rates: GammonRates = NO_GAMMONS) -> pd.DataFrame:
    """:func:`cube_points` at every cube level and ownership of one score, as a tidy table.

    Cube levels run from 1 (centred) up to the first level at which the cube is
    dead for both sides (``cube_value >= max(away, opp_away)``), each level from 2 on
    owned by the player and by the opponent; the Crawford game has the centred cube
    only. One row per (cube_value, cube_owner, doubler).

    Parameters
    ----------
    score : MatchScore
        The table, the score and the phase; its own cube is not used (every cube
        position of the game is listed).
    rates : GammonRates
        As in :func:`cube_points`.

    Returns
    -------
    pandas.DataFrame
        Columns ``cube_value, cube_owner, doubler`` and the fields of
        :class:`MarketWindow`; at most ``2 log2(64) + 2 = 14`` cube positions.

    Examples
    --------
    >>> t = MatchEquityTable("kxg2", "Kazaross-XG2 (corner)",
    ...                      [[0.5, 0.67736], [0.32264, 0.5]], [0.5, 0.48803])
    >>> cube_points_table(MatchScore(t, 2, 2))[["cube_value", "cube_owner", "doubler"]].shape
    (6, 3)
    """
    score, rates = _check_match_score(score), _check_gammon_rates(rates)
    table, a, b, phase = score.table, score.away, score.opp_away, score.phase
    positions: list[tuple[int, CubeOwner]] = [(1, "center")]
    c = 2
    while phase != "Crawford" and c <= max(a, b):
        positions += [(c, "player"), (c, "opponent")]
        c *= 2
    rows = []
    for value, owner in positions:
        level = MatchScore(table, a, b, phase=phase, cube_value=value, cube_owner=owner)
        points = _cube_points(level, rates)
        for window in (points.player_doubles, points.opponent_doubles):
            row = {"cube_value": value, "cube_owner": owner, "doubler": window.doubler}
            row.update({name: getattr(window, name) for name in _WINDOW_COLUMNS})
            rows.append(row)
    return pd.DataFrame(rows)


def _take_point_at_life(sides: tuple[_Side, _Side], k: int, c: int, x: float) -> float:
    """The take point of side ``1 - k`` against side ``k``'s double at cube life ``x``."""
    side = sides[k]
    d = 2 * c
    if side.a <= d or side.b <= d:  # the doubled cube is dead: live = dead, any x
        played_at = 2 * d if side.auto_redouble(c) else d
        return 1.0 - side.dead_points(c, played_at)[1]
    pass_value, win, loss = side.win(c), side.w(d), side.l(d)  # P, W(d), L(d)
    cashed = side.lose(d)  # the taker redoubles at his live cash point; the doubler passes
    p0 = 1.0 - _live_cash_point(sides, 1 - k, d)  # there, in the doubler's chances
    at_p0 = (1 - x) * (loss + p0 * (win - loss)) + x * cashed
    if pass_value >= at_p0:  # between p0 and 1 both parts are linear
        slope = (1 - x) * (win - loss) + x * _ratio(win - cashed, 1.0 - p0)
        cash = p0 + _ratio(pass_value - at_p0, slope)
    else:  # below p0 the live part is flat at the redouble's pass
        cash = _ratio(_ratio(pass_value - x * cashed, 1 - x) - loss, win - loss)
    return 1.0 - cash


def cube_life_take_point(
    score: MatchScore, rates: GammonRates = NO_GAMMONS, cube_life: float = 0.68
) -> float:
    """The player's take point of the opponent's double at a cube life ``x``.

    The taker's match winning chance after the take, in the doubler's game winning
    chance ``p``, is Janowski's mixture of the dead cube and the live cube, as GNU
    Backgammon generalises it to match play ([GNUBG]_, ``Cl2CfMatch``, after
    J. Thyssen): ``E_x(p) = (1 - x) E_dead(p) + x E_live(p)``, where, at the doubled
    cube ``d`` (module docstring's notation, the doubler's MWC),

    - ``E_dead(p) = L(d) + p (W(d) - L(d))``: the game played out at ``d``;
    - ``E_live(p)`` is ``lose(d)`` up to ``p0 = 1 - CP'(d)``, the taker's live cash
      point in the doubler's chances (he redoubles, the doubler passes), then linear
      to ``W(d)`` at ``p = 1``: the assumption that gives the live cash point.

    The doubler's cash point solves ``E_x(p) = P`` (the pass); the take point is one
    minus it. ``x = 0`` gives ``take_point`` of :class:`MarketWindow` (dead, with
    gammons), ``x = 1`` its ``take_point_live``. Where the doubled cube is dead (a
    side at most ``d``-away) the take point is the dead one at any ``x``, with the
    automatic redouble when there is one.

    Parameters
    ----------
    score : MatchScore
        The table, the score and the cube the opponent doubles from.
    rates : GammonRates
        Both sides' gammon and backgammon rates.
    cube_life : float
        Janowski's cube life index ``x`` in [0, 1]; gnubg's defaults are 0.68 for
        contact and crashed positions, 0.6 to 0.7 in races
        (:func:`cubecore.cubeful.cube_life`).

    Returns
    -------
    float
        ``nan`` where the double neither risks nor gains anything (0/0).

    Examples
    --------
    4-away/4-away on Kazaross-XG2 with 26% gammons each: the dead take point
    (``take_point``, 0.3597), gnubg's contact cube life, the live one
    (``take_point_live``, 0.2895).

    >>> from cubecore.met import load_table
    >>> score = MatchScore(load_table("kxg2"), 4, 4)
    >>> rates = GammonRates(gammon_rate=0.26, opp_gammon_rate=0.26)
    >>> [round(cube_life_take_point(score, rates, x), 4) for x in (0.0, 0.68, 1.0)]
    [0.3597, 0.3088, 0.2895]
    """
    score, rates = _check_match_score(score), _check_gammon_rates(rates)
    x = real_in_range("cube_life", cube_life, 0.0, 1.0)
    mwc = _after(score.table, score.away, score.opp_away, score.phase)
    g, bg, og, obg = rates._sides()

    def swap(n: int, m: int) -> float:
        return 1.0 - mwc(m, n)

    sides = (
        _Side(mwc, score.away, score.opp_away, (g, bg, og, obg)),
        _Side(swap, score.opp_away, score.away, (og, obg, g, bg)),
    )
    return _take_point_at_life(sides, 1, score.cube_value, x)


def dead_take_point_table(table: MatchEquityTable, *, max_away: int) -> pd.DataFrame:
    """The player's gammonless dead take point of the opponent's initial double at
    every pre-Crawford score ``2..max_away`` each, as a tidy table.

    Each row is :func:`cube_points` at the centred cube without gammons,
    ``opponent_doubles.take_point_gammonless``: in the module's notation, from the
    opponent's (the doubler's) view at ``c = 1``, ``d = 2`` and
    ``g = h = g' = h' = 0``,

    .. math:: T = 1 - CP = 1 - \\frac{P - L(d)}{W(d) - L(d)},

    with ``4`` for ``d`` after an automatic redouble ([GNUBG]_, "The market window").
    The take-point heatmaps of one table, and the differences between two, are this
    table.

    Parameters
    ----------
    table : MatchEquityTable
    max_away : int
        2..``min(table.length, 64)``: at most 63 x 63 rows.

    Returns
    -------
    pandas.DataFrame
        Columns ``away, opp_away, take_point``, ``away`` the outer order.

    Examples
    --------
    At 2-away 2-away the doubled cube decides the match, so a pass hands the doubler
    the Crawford game at 1-away against 2-away: ``T = 1 - M(1, 2)``.

    >>> t = MatchEquityTable("kxg2", "Kazaross-XG2 (corner)",
    ...                      [[0.5, 0.67736], [0.32264, 0.5]], [0.5, 0.48803])
    >>> dead_take_point_table(t, max_away=2).round(5).to_dict("records")
    [{'away': 2, 'opp_away': 2, 'take_point': 0.32264}]
    """
    table = _check_table(table)
    n = whole_number("max_away", max_away, 2, min(table.length, MAX_TABLE_AWAY))
    rows = [
        {
            "away": a,
            "opp_away": b,
            "take_point": _cube_points(
                MatchScore(table, a, b), NO_GAMMONS
            ).opponent_doubles.take_point_gammonless,
        }
        for a in range(2, n + 1)
        for b in range(2, n + 1)
    ]
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------------
# Gammon values
# ----------------------------------------------------------------------------------
def classify_gammon_value(value: float) -> str:
    """The class of a gammon value: dead, low, money-like, high or gammon-go.

    Classes by the bounds :data:`GAMMON_CLASS_BOUNDS` (0.05, 0.35, 0.65, 1.0): below
    0.05 a gammon is worth (almost) nothing more than a single win ("dead"); money
    play's 1/2 sits in the middle of "money-like" [0.35, 0.65); from 1 on a gammon is
    worth at least the whole single-game swing ("gammon-go"). The bounds are this
    project's convention, not a published scale; ``nan`` (no gammon value: a single
    game decides nothing) is "dead".

    Examples
    --------
    >>> classify_gammon_value(0.5), classify_gammon_value(1.2)
    ('money-like', 'gammon-go')
    """
    if isinstance(value, (float, np.floating)) and math.isnan(value):
        return "dead"
    number = real_number("value", value)  # refuses bools, text, complex
    if number < 0.0:
        raise ValueError(f"`value` must be a gammon value >= 0 (got {number:g})")
    index = int(np.searchsorted(GAMMON_CLASS_BOUNDS, number, side="right"))
    return GAMMON_CLASSES[index]


def _gammon_values(
    table: MatchEquityTable, a: int, b: int, phase: MatchPhase, c: int
) -> GammonValues:
    mwc = _after(table, a, b, phase)
    win1, win2, win3 = mwc(c, 0), mwc(2 * c, 0), mwc(3 * c, 0)
    lose1, lose2, lose3 = mwc(0, c), mwc(0, 2 * c), mwc(0, 3 * c)
    swing = win1 - lose1
    gv, bgv = _ratio(win2 - win1, swing), _ratio(win3 - win1, swing)
    ogv, obgv = _ratio(lose1 - lose2, swing), _ratio(lose1 - lose3, swing)
    return GammonValues(
        away=a,
        opp_away=b,
        phase=phase,
        cube_value=c,
        gammon_value=gv,
        backgammon_value=bgv,
        opp_gammon_value=ogv,
        opp_backgammon_value=obgv,
        gammon_class=classify_gammon_value(max(gv, 0.0) if not math.isnan(gv) else gv),
        opp_gammon_class=classify_gammon_value(max(ogv, 0.0) if not math.isnan(ogv) else ogv),
    )


def gammon_values(score: MatchScore) -> GammonValues:
    """Gammon and backgammon values of both sides at a score and cube level.

    .. math:: GV = \\frac{M(a - 2c, b) - M(a - c, b)}{M(a - c, b) - M(a, b - c)},
              \\qquad
              BGV = \\frac{M(a - 3c, b) - M(a - c, b)}{M(a - c, b) - M(a, b - c)},

    ``M`` the player's MWC at the next game's start ([GNUBG]_ "Gammon values";
    module docstring); the opponent's values swap the roles over the same
    denominator. Money play has ``GV = 1/2``, ``BGV = 1``.

    Parameters
    ----------
    score : MatchScore
        The table, the score and the cube's value (any owner: the values do not
        depend on it).

    Returns
    -------
    GammonValues
        ``nan`` values only if a single game moves nobody's MWC (a degenerate table).

    Notes
    -----
    Values are not clipped: a table that is not monotone gives a negative value
    (and then the class of 0). Table entries that a gammon can reach are read as
    the table has them (a won match is 1).

    Examples
    --------
    2-away/2-away on a 1-cube (Kazaross-XG2): a gammon wins the match (1) where a
    single win leaves the Crawford game as leader (0.67736) and a loss the Crawford
    game as trailer (0.32264): GV = 0.32264 / 0.35472, a high gammon value.

    >>> t = MatchEquityTable("kxg2", "Kazaross-XG2 (corner)",
    ...                      [[0.5, 0.67736], [0.32264, 0.5]], [0.5, 0.48803])
    >>> v = gammon_values(MatchScore(t, 2, 2))
    >>> round(v.gammon_value, 5), v.gammon_class
    (0.90956, 'high')
    """
    score = _check_match_score(score)
    return _gammon_values(score.table, score.away, score.opp_away, score.phase, score.cube_value)


def gammon_value_table(
    table: MatchEquityTable, *, max_away: int = 11, cube_value: int = 1
) -> pd.DataFrame:
    """:func:`gammon_values` at every score ``1..max_away`` each, as a tidy table.

    Scores with both sides 2-away or more are pre-Crawford; a 1-away score is read
    as post-Crawford (the Crawford game has the same values: the game after it is
    post-Crawford either way).

    Parameters
    ----------
    table : MatchEquityTable
    max_away : int
        1..``min(table.length, table.post_length, 64)``: at most 64 x 64 rows.
    cube_value : int
        A power of two in [1, 1024].

    Returns
    -------
    pandas.DataFrame
        Columns ``away, opp_away, phase, cube_value, gammon_value,
        backgammon_value, opp_gammon_value, opp_backgammon_value, gammon_class,
        opp_gammon_class``.

    Examples
    --------
    >>> t = MatchEquityTable("kxg2", "Kazaross-XG2 (corner)",
    ...                      [[0.5, 0.67736], [0.32264, 0.5]], [0.5, 0.48803])
    >>> gammon_value_table(t, max_away=2).shape
    (4, 10)
    """
    table = _check_table(table)
    high = min(table.length, table.post_length, MAX_TABLE_AWAY)
    n = whole_number("max_away", max_away, 1, high)
    c = whole_number("cube_value", cube_value, 1, MAX_CUBE_VALUE)
    if c & (c - 1):
        raise ValueError(f"`cube_value` must be a power of two in [1, {MAX_CUBE_VALUE}] (got {c})")
    rows = []
    for a in range(1, n + 1):
        for b in range(1, n + 1):
            phase: MatchPhase = "pre-Crawford" if min(a, b) >= 2 else "post-Crawford"
            rows.append(_gammon_values(table, a, b, phase, c).__dict__)
    return pd.DataFrame(rows)
