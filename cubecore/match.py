"""Match play: a match equity table generated from the continuous game, take points at any score.

The model
---------
Every number here is computed exactly (an exact recursion over the scores, no
simulation) from the following stated assumptions.

1. **Continuous game** ([KS69]_ section 1, [ZK77]_ Lemma 1). Within a game the
   player's probability ``p`` of winning the game moves continuously, like
   Brownian motion on ``[0, 1]``, from ``p = 1/2`` at the start; the game ends when
   ``p`` reaches 0 or 1. Hence every equity is linear in ``p`` between the points
   where someone doubles, takes or drops.
2. **Gammons** are independent of the path: a won game is a gammon (worth twice the
   cube) with probability ``G`` (``gammon_rate``), whoever wins. Backgammons are
   counted as gammons. In the table both sides share ``G`` (that is what makes
   ``M(a, b) + M(b, a) = 1``); :func:`take_point` accepts a rate per side.
3. **The cube at the score.** The table is in match winning chances (MWC), so a
   game's end values are the table's own entries at the resulting score. With the
   cube at ``c`` owned by one side, that side doubles when doubling is worth more
   than holding and the other side takes or drops, whichever is worth more to it;
   with the cube centred both sides may double. In the continuous game these are
   an optimal stopping problem (one owner) and a Dynkin game (centred cube) for
   Brownian motion; their values are the least concave majorant of the doubling
   value, its greatest convex minorant, and the taut string between the two, all
   exact for the piecewise-linear values that arise. Cube levels go up until the
   cube decides the match for both sides (``c >= max(a, b)``): that cube is dead.
4. **Cube efficiency** ``x`` (``cube_efficiency``), after Janowski ([JR12]_): at
   every cube level the equity is ``x`` times the continuous-game (live) value plus
   ``1 - x`` times the dead-cube value, then kept between what the two sides can
   force by doubling now (an owner can always double, so the equity never falls
   below doubling's value). ``x = 1`` is the pure continuous game of [KS69]_, where
   the doubling point equals the opponent's drop point (their Theorem 1); ``x = 0``
   is the dead cube: the cube is worth something only through a double made at
   once, at the start of the game (e.g. a trailer doubling a leader who must take
   or give up a point), never later in the game.
5. **Crawford** ([RULES]_). When a side first
   reaches 1-away the next game is the Crawford game, played without the cube::

       C(b) = 1/2 + 1/2 [(1 - G) P(b - 1) + G P(b - 2)]

   for the leader at 1-away against a trailer ``b``-away, ``P(k)`` the leader's
   post-Crawford MWC with the trailer ``k``-away, ``P(k <= 0) = 0``.
6. **Post-Crawford.** The leader's cube is dead (one point wins him the match)
   and the trailer loses the match whatever the cube if he loses the game, so the
   trailer doubles at once (the convention of the literature; in this continuous
   model doubling at once is optimal whenever the leader takes). The leader takes
   or drops, whichever is worth more::

       P(1) = 1/2 (double match point),
       P(b) = max(1/2 + 1/2 [(1 - G) P(b - 2) + G P(b - 4)],  P(b - 1)).

   **Free drop.** Trailing at an even score the trailer gains nothing from being
   dropped a point: without gammons ``P(2k) = P(2k - 1)`` exactly (at 2-away a
   doubled game decides the match, and a dropped point leaves double match point;
   at 4-away the point dropped leaves 3-away, which after the next double is the
   same as 2-away). So the leader may drop once "for free" at an even score; with
   gammons taking costs the trailer's gammons, so the leader drops. At odd scores
   the drop costs a point that matters and the leader takes.
7. **Holland rule**: the trailer may not double post-Crawford until each side has
   played two rolls. Modelled as a delay of ``delay_rolls`` rolls during which
   ``p`` diffuses from 1/2 with standard deviation ``volatility`` per roll
   (absorbed at 0 and 1; the game can end in the delay at cube 1); at the end of
   the delay the trailer doubles at once. The expectation is computed in closed
   form (odd periodic images of the heat kernel, normal integrals).
   ``DEFAULT_VOLATILITY = 0.07`` makes a game last ``1/4 / 0.07**2 ≈ 51`` rolls on
   average (expected exit time of Brownian motion from 1/2), a stated modelling
   choice, not a published number.

Take points
-----------
:func:`take_point` gives, from the taker's view (he is doubled from ``c`` to
``2c``): the dead-cube take point ``risk / (risk + gain)`` from the table, the same
with gammons, the live take point of the recursion ``TP_live(n) = TP_dead(n) (1 -
TP_live(2n))`` (continuous game without gammons: the taker redoubles at his cash
point, which is one minus the doubler's live take point one level up; base case:
the dead take point where the taker's redouble cannot gain, i.e. when winning the
doubled game already wins him the match), and the take point of the full model
above, with the market window (the doubler's doubling point and cash point).

The row/column convention of the table: ``M(a, b)`` is the MWC at the start of a
game of the player ``a``-away against an opponent ``b``-away, cube centred. For
``a, b >= 2`` the game is pre-Crawford. A 1-away entry is the **Crawford game**
(``M(1, b) = C(b)``, ``M(a, 1) = 1 - C(a)``), the game that is played when a side
has just reached 1-away; ``M(1, 1) = 1/2``. Post-Crawford values are given by
:func:`post_crawford_equity` and :func:`crawford_table`.

References
----------
Cited by key of :data:`cubecore.references.REFERENCES`:

.. [KS69] E. Keeler, J. Spencer, "Proper Raising Points in a Generalization of
   Backgammon", RAND Corporation paper P-4078, 1969,
   https://www.rand.org/pubs/papers/P4078.html: section 1 Lemma, section 2
   eqs. (3)-(5) (the 80% point).
.. [ZK77] N. Zadeh, G. Kobliska, "On Optimal Doubling in Backgammon", Management
   Science 23(8), 853-858, 1977, https://doi.org/10.1287/mnsc.23.8.853.
.. [JR12] "Janowski model revisited", blog post, 28 March 2012.
.. [Z77] N. Zadeh, "On Doubling in Tournament Backgammon", Management Science
   23(9), 986-993, 1977 (the tradition of generating match equities by recursion).
.. [RULES] "Doubling cube", Wikipedia, https://en.wikipedia.org/wiki/Doubling_cube
   (the Crawford and Holland rules).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Literal

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from cubecore._normal import normal_cdf
from cubecore._validate import choice, flag, real_in_range, whole_number
from cubecore.piecewise import (
    PiecewiseLinear,
    _clamp,
    _combine,
    _solve_between,
    _value_at,
    crossings_and_values,
    first_at_least,
    line,
)

__all__ = [
    "CUBE_OWNERS",
    "DEFAULT_CUBE_EFFICIENCY",
    "DEFAULT_DELAY_ROLLS",
    "DEFAULT_GAMMON_RATE",
    "DEFAULT_VOLATILITY",
    "MAX_AWAY",
    "PHASES",
    "HollandEffect",
    "ScorePhase",
    "TakeCube",
    "TakePoint",
    "crawford_equity",
    "crawford_table",
    "holland_effect",
    "holland_table",
    "match_equity",
    "match_equity_table",
    "match_phase",
    "match_winning_chance",
    "post_crawford_equity",
    "take_point",
    "take_point_table",
    "take_points_by_cube",
]

#: Largest away-score of the table (the issue asks for 25-away each).
MAX_AWAY = 25
#: Fraction of won games that are gammons; "0.26 typical" per the issue's brief.
DEFAULT_GAMMON_RATE = 0.26
#: Janowski cube efficiency; 1 is the continuous game of [KS69]_.
DEFAULT_CUBE_EFFICIENCY = 1.0
#: Holland rule: each side plays two rolls before the trailer may double.
DEFAULT_DELAY_ROLLS = 4
#: Per-roll standard deviation of ``p``: mean game length 0.25 / 0.07**2 ≈ 51 rolls.
DEFAULT_VOLATILITY = 0.07
#: Where the cube may be before the opponent doubles the taker (see :func:`take_point`).
TakeCube = Literal["center", "opponent"]
CUBE_OWNERS: tuple[TakeCube, ...] = ("center", "opponent")

#: The phases of a match, as :func:`match_phase` names them.
ScorePhase = Literal["pre-Crawford", "Crawford game", "post-Crawford", "double match point"]
PHASES: tuple[ScorePhase, ...] = (
    "pre-Crawford",
    "Crawford game",
    "post-Crawford",
    "double match point",
)

_TIE = 1e-12  # equities are O(1): differences below this are rounding, i.e. ties
_IMAGES = 12  # periodic images of the heat kernel; s <= 1 leaves < 1e-30 beyond them


# ----------------------------------------------------------------------------------
# One game at a score, from the player's view (p = player's game winning chance)
# ----------------------------------------------------------------------------------
class _Game:
    """Cubeful MWC of one game at (a, b)-away as piecewise-linear functions of ``p``."""

    def __init__(
        self,
        a: int,
        b: int,
        next_mwc: Callable[[int, int], float],
        gammon_rate: float,
        opp_gammon_rate: float,
        efficiency: float,
    ):
        self.a, self.b, self.next = a, b, next_mwc
        self.g, self.h, self.x = gammon_rate, opp_gammon_rate, efficiency
        self._memo: dict[tuple[int, str], PiecewiseLinear] = {}

    def ends(self, c: int) -> tuple[float, float, float, float]:
        """Win, loss (gammons included), player cashes, opponent cashes: cube at c."""
        a, b, n = self.a, self.b, self.next
        win = (1 - self.g) * n(a - c, b) + self.g * n(a - 2 * c, b)
        loss = (1 - self.h) * n(a, b - c) + self.h * n(a, b - 2 * c)
        return float(win), float(loss), float(n(a - c, b)), float(n(a, b - c))

    def _finish(
        self,
        live: PiecewiseLinear,
        win: float,
        loss: float,
        low: PiecewiseLinear | None,
        high: PiecewiseLinear | None,
    ) -> PiecewiseLinear:
        mixed = live
        if self.x < 1.0:  # [JR12]: x * live + (1 - x) * dead, at every cube level
            xs, ys = live
            x = self.x
            mixed = (
                xs,
                tuple(
                    x * y + (1 - x) * (loss + p * (win - loss)) for p, y in zip(xs, ys, strict=True)
                ),
            )
            if low is not None:  # the player can always double now
                mixed = _combine(mixed, low, max)
            if high is not None:  # ... and so can the opponent
                mixed = _combine(mixed, high, min)
        return mixed

    def player_doubles(self, c: int) -> PiecewiseLinear:
        """Value of the player doubling c -> 2c now: the opponent takes or drops."""
        _, _, cash, _ = self.ends(c)
        return _clamp(self.value(2 * c, "opponent"), cash, min)

    def opponent_doubles(self, c: int) -> PiecewiseLinear:
        _, _, _, cash = self.ends(c)
        return _clamp(self.value(2 * c, "player"), cash, max)

    def value(self, c: int, owner: str) -> PiecewiseLinear:
        key = (c, owner)
        if key not in self._memo:
            win, loss, _, _ = self.ends(c)
            if c >= max(self.a, self.b):  # the cube decides the match for both: dead
                self._memo[key] = line(loss, win)
            else:
                low = self.player_doubles(c) if owner in ("player", "center") else None
                high = self.opponent_doubles(c) if owner in ("opponent", "center") else None
                live = _solve_between(low, high, loss, win)
                self._memo[key] = self._finish(live, win, loss, low, high)
        return self._memo[key]


# ----------------------------------------------------------------------------------
# The tables
# ----------------------------------------------------------------------------------
def _post_crawford(max_away: int, g: float) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
    """Leader's post-Crawford MWC P[k] (k = trailer's away, P[0] = 0) and free drops."""
    p = np.zeros(max_away + 1)
    drops = np.zeros(max_away + 1, dtype=bool)

    def at(k: int) -> float:
        return 0.0 if k <= 0 else float(p[k])

    p[1] = 0.5  # double match point
    for k in range(2, max_away + 1):
        take = 0.5 + 0.5 * ((1 - g) * at(k - 2) + g * at(k - 4))
        drop = at(k - 1)
        drops[k] = drop >= take - _TIE
        p[k] = max(take, drop)
    return p, drops


def _crawford(max_away: int, g: float, post: NDArray[np.float64]) -> NDArray[np.float64]:
    """Leader's Crawford-game MWC C[k], trailer k-away (C[1] = 1/2 by convention)."""
    c = np.full(max_away + 1, np.nan)
    c[1] = 0.5
    for k in range(2, max_away + 1):
        c[k] = 0.5 + 0.5 * ((1 - g) * post[k - 1] + g * (post[k - 2] if k > 2 else 0.0))
    return c


def _next_mwc_factory(
    table: NDArray[np.float64], crawford: NDArray[np.float64], post: NDArray[np.float64], phase: str
) -> Callable[[int, int], float]:
    """MWC at the start of the next game after this one ends at (a', b')."""

    def next_mwc(a: int, b: int) -> float:
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        if phase == "post":  # one side is already 1-away after the Crawford game
            if a == 1:
                return float(post[b])
            return 1.0 - float(post[a])
        if a == 1 and b == 1:
            return 0.5
        if a == 1:
            return float(crawford[b])
        if b == 1:
            return 1.0 - float(crawford[a])
        return float(table[a, b])

    return next_mwc


#: The solved tables of one model: match equity, Crawford, post-Crawford, free drops.
_Tables = tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray[np.bool_]]


@lru_cache(maxsize=64)
def _tables(max_away: int, g: float, x: float) -> _Tables:
    post, drops = _post_crawford(max_away, g)
    craw = _crawford(max_away, g, post)
    table: NDArray[np.float64] = np.full((max_away + 1, max_away + 1), np.nan)
    table[1, 1] = 0.5
    table[1, 2:] = craw[2:]
    table[2:, 1] = 1.0 - craw[2:]
    next_mwc = _next_mwc_factory(table, craw, post, "pre")
    for a in range(2, max_away + 1):
        for b in range(2, max_away + 1):
            game = _Game(a, b, next_mwc, g, g, x)
            table[a, b] = _value_at(game.value(1, "center"), 0.5)
    for arr in (table, craw, post, drops):
        arr.setflags(write=False)
    return table, craw, post, drops


def _check_model(gammon_rate: float, cube_efficiency: float) -> tuple[float, float]:
    g = real_in_range("gammon_rate", gammon_rate, 0.0, 1.0)
    x = real_in_range("cube_efficiency", cube_efficiency, 0.0, 1.0)
    return g, x


def match_equity_table(
    max_away: int = MAX_AWAY,
    gammon_rate: float = DEFAULT_GAMMON_RATE,
    cube_efficiency: float = DEFAULT_CUBE_EFFICIENCY,
) -> pd.DataFrame:
    """Match equity table of the continuous game with gammons, cube centred.

    ``M(a, b)`` is the player's match winning chance at the start of a game when
    he needs ``a`` points and the opponent ``b``. For ``a, b >= 2``

    .. math:: M(a, b) = V^{(1)}_{\\text{centre}}(1/2),

    the value at ``p = 1/2`` of the centred-cube Dynkin game whose end values are
    ``(1 - G) N(a - c, b) + G N(a - 2c, b)`` (player wins at cube ``c``) and
    ``(1 - G) N(a, b - c) + G N(a, b - 2c)`` (player loses), ``N`` the table at
    the next game's start (``N = 1`` once the player has won, ``0`` once the
    opponent has); see the module docstring, assumptions 1-4 ([KS69]_ section 2,
    [JR12]_). Row/column 1 hold the Crawford game ``M(1, b) = C(b)``.

    Parameters
    ----------
    max_away : int
        Largest away-score, 1..25 (rows and columns ``1..max_away``).
    gammon_rate : float
        Fraction ``G`` of won games that are gammons, both sides, in [0, 1].
    cube_efficiency : float
        Janowski's ``x`` in [0, 1]; 1 is the continuous game.

    Returns
    -------
    pandas.DataFrame
        Index ``away`` (player's points to go), columns ``opp_away``.

    Notes
    -----
    The table is decreasing down each column (more to go is worse) and increasing
    along each row. Degenerate cases: ``G = 1`` makes every win a gammon; ``x = 0``
    values each cube level at the dead-cube equity, kept between what the sides can
    force by doubling at once (the recursion is then pointwise at ``p = 1/2``).

    Examples
    --------
    With the game deciding the match, 2-away/2-away is even:

    >>> float(match_equity_table(2, gammon_rate=0.0).loc[2, 2])
    0.5

    and at 3-away/1-away without gammons the trailer wins the Crawford game
    (1/2) and then double match point (1/2): 1/4.

    >>> float(match_equity_table(3, gammon_rate=0.0).loc[3, 1])
    0.25
    """
    n = whole_number("max_away", max_away, 1, MAX_AWAY)
    g, x = _check_model(gammon_rate, cube_efficiency)
    table = _tables(n, g, x)[0]
    labels = pd.RangeIndex(1, n + 1)
    return pd.DataFrame(
        np.array(table[1 : n + 1, 1 : n + 1]),
        index=pd.Index(labels, name="away"),
        columns=pd.Index(labels, name="opp_away"),
    )


def match_equity(
    away: int,
    opp_away: int,
    gammon_rate: float = DEFAULT_GAMMON_RATE,
    cube_efficiency: float = DEFAULT_CUBE_EFFICIENCY,
) -> float:
    """One entry ``M(away, opp_away)`` of :func:`match_equity_table`.

    Examples
    --------
    >>> match_equity(1, 1)
    0.5
    """
    a = whole_number("away", away, 1, MAX_AWAY)
    b = whole_number("opp_away", opp_away, 1, MAX_AWAY)
    g, x = _check_model(gammon_rate, cube_efficiency)
    return float(_tables(max(a, b), g, x)[0][a, b])


def post_crawford_equity(opp_away: int, gammon_rate: float = DEFAULT_GAMMON_RATE) -> float:
    """Leader's MWC post-Crawford: leader 1-away, trailer ``opp_away``-away.

    .. math:: P(b) = \\max\\left(\\tfrac12 + \\tfrac12[(1-G)P(b-2) + G P(b-4)],\\; P(b-1)\\right),
              \\quad P(1) = \\tfrac12,\\; P(k \\le 0) = 0,

    the trailer doubling at once and the leader taking or dropping (module
    docstring, assumption 6). ``opp_away = 1`` is double match point.

    Notes
    -----
    Without gammons ``P(b) = 1 - 2^{-\\lceil b/2 \\rceil}``: the leader's free drop at
    even ``b`` makes ``P(2k) = P(2k - 1)``.

    Examples
    --------
    Leader 1-away, trailer 2-away: the doubled game decides the match.

    >>> post_crawford_equity(2)
    0.5
    """
    b = whole_number("opp_away", opp_away, 1, MAX_AWAY)
    g = real_in_range("gammon_rate", gammon_rate, 0.0, 1.0)
    return float(_post_crawford(b, g)[0][b])


def crawford_equity(opp_away: int, gammon_rate: float = DEFAULT_GAMMON_RATE) -> float:
    """Leader's MWC in the Crawford game: leader 1-away, trailer ``opp_away``-away, no cube.

    .. math:: C(b) = \\tfrac12 + \\tfrac12\\,[(1 - G) P(b - 1) + G P(b - 2)]

    with ``P`` of :func:`post_crawford_equity` (``P(0) = 0``: a gammon at 2-away
    wins the trailer the match).

    Notes
    -----
    ``opp_away = 1`` is not a Crawford game; it returns double match point, 1/2.

    Examples
    --------
    Trailer 2-away without gammons: he must win the Crawford game and then the
    double match point, 1/4; the leader has 3/4.

    >>> crawford_equity(2, gammon_rate=0.0)
    0.75
    """
    b = whole_number("opp_away", opp_away, 1, MAX_AWAY)
    g = real_in_range("gammon_rate", gammon_rate, 0.0, 1.0)
    post, _ = _post_crawford(b, g)
    return float(_crawford(b, g, post)[b])


def crawford_table(
    max_away: int = MAX_AWAY, gammon_rate: float = DEFAULT_GAMMON_RATE
) -> pd.DataFrame:
    """The Crawford rule in numbers, one row per trailer's score ``2..max_away``.

    Columns: ``opp_away`` (trailer's away), ``crawford`` (leader's MWC in the
    Crawford game, :func:`crawford_equity`), ``no_crawford_rule`` (the same game
    if the trailer could double in it, i.e. a post-Crawford game:
    :func:`post_crawford_equity`), ``protection`` (their difference: what the
    rule is worth to the leader), ``post_crawford`` (the leader's MWC in the
    games after it, the same as ``no_crawford_rule``), ``leader_drops`` (the
    leader drops the trailer's immediate double: the free drop at even scores).

    Examples
    --------
    Without gammons the rule protects the leader at 2-away (3/4 instead of 1/2),
    and not at all at 3-away (one point and a doubled game are worth the same):

    >>> crawford_table(3, gammon_rate=0.0)["protection"].tolist()
    [0.25, 0.0]
    """
    n = whole_number("max_away", max_away, 2, MAX_AWAY)
    g = real_in_range("gammon_rate", gammon_rate, 0.0, 1.0)
    post, drops = _post_crawford(n, g)
    craw = _crawford(n, g, post)
    k = np.arange(2, n + 1)
    return pd.DataFrame(
        {
            "opp_away": k,
            "crawford": craw[k],
            "no_crawford_rule": post[k],
            "protection": craw[k] - post[k],
            "post_crawford": post[k],
            "leader_drops": drops[k],
        }
    )


# ----------------------------------------------------------------------------------
# Take points at any score and cube level
# ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class TakePoint:
    """Take points of the player doubled from ``cube_value`` to ``2 cube_value``.

    All take points are the taker's minimum game winning chance to take; the
    market window is in the doubler's game winning chances.

    Attributes
    ----------
    dead : float
        Dead cube, no gammons: ``risk / (risk + gain)`` from the table.
    dead_gammon : float
        Dead cube with gammons for both sides.
    live : float
        ``TP_live(n) = TP_dead(n) (1 - TP_live(2n))``, continuous game, no gammons.
    model : float
        The full model of :func:`match_equity_table` (live cube at the score,
        gammons, cube efficiency): where owning ``2 cube_value`` equals dropping.
    risk, gain : float
        MWC lost by taking and losing instead of dropping, and gained by taking
        and winning instead of dropping (no gammons).
    drop_mwc, take_win_mwc, take_lose_mwc : float
        The taker's MWC after dropping, after taking and winning, after taking
        and losing (no gammons; next game's start).
    doubling_point, cash_point : float
        The doubler's market window in the model: where doubling starts to beat
        holding and where the taker drops (``1 - model``). ``nan`` where the
        doubler never doubles (his cube is dead). In the continuous game
        (``cube_efficiency = 1``) the two coincide, [KS69]_ Theorem 1.
    """

    away: int
    opp_away: int
    cube_value: int
    dead: float
    dead_gammon: float
    live: float
    model: float
    risk: float
    gain: float
    drop_mwc: float
    take_win_mwc: float
    take_lose_mwc: float
    doubling_point: float
    cash_point: float


def _power_of_two(name: str, value: int, high: int) -> int:
    """A cube value: a whole power of two in [1, high]."""
    number = whole_number(name, value, 1, high)
    if number & (number - 1):
        raise ValueError(f"`{name}` must be a power of two in [1, {high}]")
    return number


def _live_take_point(t_away: int, d_away: int, n: int, mwc: Callable[[int, int], float]) -> float:
    """Live take point of the side ``t_away`` doubled from n to 2n, no gammons."""
    drop = mwc(t_away, d_away - n)
    lose = mwc(t_away, d_away - 2 * n)
    win = mwc(t_away - 2 * n, d_away)
    dead = (drop - lose) / (win - lose)
    if t_away <= 2 * n:  # base case: winning the doubled game wins him the match
        return dead
    return dead * (1.0 - _live_take_point(d_away, t_away, 2 * n, mwc))


def _last_where_doubles(value: PiecewiseLinear, doubles: PiecewiseLinear) -> float:
    """Supremum of the p in (0, 1) where the value equals the opponent's doubling value.

    The opponent doubles where holding is worth no more to him than doubling
    (``value >= doubles`` from the player's view). ``nan`` if nowhere inside.
    """
    xs, held, doubled = crossings_and_values(value, doubles)
    hits = [h - d >= -_TIE for h, d in zip(held, doubled, strict=True)]
    inside = [x for x, hit in zip(xs[1:-1], hits[1:-1], strict=True) if hit]
    if not inside:
        return math.nan
    if inside[-1] == xs[-2] and hits[-1]:  # equal on the whole last segment
        return 1.0
    return inside[-1]


def _check_take_cube(
    cube_value: int,
    cube_owner: TakeCube,
    gammon_rate: float,
    opp_gammon_rate: float | None,
    cube_efficiency: float,
) -> tuple[int, str, float, float, float]:
    """Validated cube, owner, both gammon rates and ``x`` of :func:`take_point` (its order)."""
    c = _power_of_two("cube_value", cube_value, 64)
    owner = choice("cube_owner", cube_owner, CUBE_OWNERS)
    if owner == "center" and c != 1:
        raise ValueError("cube_owner 'center' requires cube_value = 1")
    g, x = _check_model(gammon_rate, cube_efficiency)
    h = g if opp_gammon_rate is None else real_in_range("opp_gammon_rate", opp_gammon_rate, 0, 1)
    return c, owner, g, h, x


def take_point(
    away: int,
    opp_away: int,
    cube_value: int = 1,
    cube_owner: TakeCube = "center",
    gammon_rate: float = DEFAULT_GAMMON_RATE,
    opp_gammon_rate: float | None = None,
    cube_efficiency: float = DEFAULT_CUBE_EFFICIENCY,
) -> TakePoint:
    """Take points of the player ``away``-away doubled by the opponent ``opp_away``-away.

    The cube is at ``cube_value`` (centred or on the opponent's side) and is
    doubled to ``2 cube_value``. With ``D``, ``W``, ``L`` the taker's MWC after
    dropping, taking and winning, taking and losing (table at the next game's
    start, gammons counted with ``gammon_rate`` for the taker's wins and
    ``opp_gammon_rate`` for the doubler's in ``dead_gammon``):

    .. math:: TP_{dead} = \\frac{D - L}{W - L}, \\qquad
              TP_{live}(n) = TP_{dead}(n)\\,\\bigl(1 - TP^{opp}_{live}(2n)\\bigr),

    the second being the continuous game of [KS69]_ section 2 at the score: the
    taker, owning ``2n``, redoubles at his cash point ``1 - TP^{opp}_{live}(2n)``;
    base case ``TP_live = TP_dead`` when ``away <= 2n`` (his redouble cannot gain).
    ``model`` solves the full model of :func:`match_equity_table`.

    Parameters
    ----------
    away, opp_away : int
        Points to go, 1..25. A 1-away score is taken as post-Crawford (the
        Crawford game has no cube); 1-away/1-away is double match point.
    cube_value : int
        Current cube, a power of two in [1, 64].
    cube_owner : {"center", "opponent"}
        Where the cube is before the double ("center" only with ``cube_value = 1``).
    gammon_rate : float
        The taker's gammon rate, and the table's, in [0, 1].
    opp_gammon_rate : float, optional
        The doubler's gammon rate in this game (default: ``gammon_rate``).
    cube_efficiency : float
        Janowski's ``x`` of the model, in [0, 1].

    Notes
    -----
    A cube that kills the match (``2 cube_value`` at least what a side needs)
    enters only through the end values: a win at the doubled cube then wins the
    match (MWC 1), a loss loses it (MWC 0). At double match point the cube is
    meaningless: every take point is 0 (dropping loses the match).

    Examples
    --------
    2-away/2-away, doubled to 2: the game decides the match. Dropping leaves the
    taker 2-away/1-away, i.e. the Crawford game trailing, 1/4 without gammons,
    so the take point is 1/4:

    >>> take_point(2, 2, gammon_rate=0.0).dead
    0.25
    """
    a = whole_number("away", away, 1, MAX_AWAY)
    b = whole_number("opp_away", opp_away, 1, MAX_AWAY)
    c, owner, g, h, x = _check_take_cube(
        cube_value, cube_owner, gammon_rate, opp_gammon_rate, cube_efficiency
    )
    return _take_point(a, b, c, owner, g, h, x, _tables(max(a, b), g, x))


def _take_point(
    a: int,
    b: int,
    c: int,
    owner: str,
    g: float,
    h: float,
    x: float,
    tables: _Tables,
) -> TakePoint:
    """:func:`take_point` on validated arguments, with the tables (size >= max(a, b)) given."""
    table, craw, post, _ = tables
    phase = "post" if min(a, b) == 1 else "pre"
    mwc = _next_mwc_factory(table, craw, post, phase)

    drop, win, lose = mwc(a, b - c), mwc(a - 2 * c, b), mwc(a, b - 2 * c)
    risk, gain = drop - lose, win - drop
    dead = risk / (risk + gain)
    win_g = (1 - g) * win + g * mwc(a - 4 * c, b)
    lose_g = (1 - h) * lose + h * mwc(a, b - 4 * c)
    dead_gammon = (drop - lose_g) / (win_g - lose_g)
    live = _live_take_point(a, b, c, mwc)

    game = _Game(a, b, mwc, g, h, x)
    model = first_at_least(game.value(2 * c, "player"), drop)
    value = game.value(c, owner if owner == "center" else "opponent")
    last = _last_where_doubles(value, game.opponent_doubles(c))
    return TakePoint(
        away=a,
        opp_away=b,
        cube_value=c,
        dead=float(dead),
        dead_gammon=float(dead_gammon),
        live=float(live),
        model=float(model),
        risk=float(risk),
        gain=float(gain),
        drop_mwc=float(drop),
        take_win_mwc=float(win),
        take_lose_mwc=float(lose),
        doubling_point=float(1.0 - last),
        cash_point=float(1.0 - model),
    )


def take_point_table(
    max_away: int = MAX_AWAY,
    cube_value: int = 1,
    cube_owner: TakeCube = "center",
    gammon_rate: float = DEFAULT_GAMMON_RATE,
    opp_gammon_rate: float | None = None,
    cube_efficiency: float = DEFAULT_CUBE_EFFICIENCY,
    away: int | None = None,
) -> pd.DataFrame:
    """:func:`take_point` at every score ``1..max_away`` each, as a tidy table.

    One row per score: ``away`` (the taker's points to go), ``opp_away`` (the
    doubler's), and the fields ``dead``, ``dead_gammon``, ``live``, ``model``,
    ``doubling_point`` and ``cash_point`` of :class:`TakePoint`, the cube doubled
    from ``cube_value`` to ``2 cube_value`` at every score. Parameters as in
    :func:`take_point`, plus ``max_away`` (1..25) and ``away``: when given, only
    that taker's row (his score fixed, the doubler's ``1..max_away``). The values
    equal :func:`take_point`'s exactly; the table is solved once for all scores.

    Examples
    --------
    >>> table = take_point_table(2, gammon_rate=0.0)
    >>> float(table.query("away == 2 and opp_away == 2")["dead"].iloc[0])
    0.25
    """
    n = whole_number("max_away", max_away, 1, MAX_AWAY)
    rows_wanted = range(1, n + 1) if away is None else [whole_number("away", away, 1, n)]
    c, owner, g, h, x = _check_take_cube(
        cube_value, cube_owner, gammon_rate, opp_gammon_rate, cube_efficiency
    )
    tables = _tables(n, g, x)  # one solve; each score reads its own corner of it
    fields = ("dead", "dead_gammon", "live", "model", "doubling_point", "cash_point")
    rows = []
    for a in rows_wanted:
        for b in range(1, n + 1):
            tp = _take_point(a, b, c, owner, g, h, x, tables)
            rows.append((a, b, *(getattr(tp, field) for field in fields)))
    return pd.DataFrame(rows, columns=["away", "opp_away", *fields])


# ----------------------------------------------------------------------------------
# The Holland rule
# ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class HollandEffect:
    """The Holland rule post-Crawford, leader 1-away, trailer ``opp_away``-away.

    Attributes
    ----------
    leader_without, leader_with : float
        Leader's MWC when the trailer doubles at once / after the delay.
    trailer_without, trailer_with : float
        The trailer's, ``1 -`` the above.
    trailer_change : float
        ``trailer_with - trailer_without``: what the rule costs the trailer (< 0).
    spread : float
        Standard deviation of the free diffusion over the delay, ``volatility *
        sqrt(delay_rolls)``.
    """

    opp_away: int
    leader_without: float
    leader_with: float
    trailer_without: float
    trailer_with: float
    trailer_change: float
    spread: float


def _normal_pdf(z: NDArray[np.float64]) -> NDArray[np.float64]:
    density: NDArray[np.float64] = np.exp(-0.5 * z * z) / math.sqrt(2.0 * math.pi)
    return density


def _killed_expectation(
    xs: NDArray[np.float64], ys: NDArray[np.float64], h0: float, h1: float, s: float
) -> float:
    """E h(X) for Brownian motion from 1/2 run for variance s**2, absorbed at 0 and 1.

    ``h`` is piecewise linear through ``(xs, ys)`` on the open interval, ``h(0) = h0``
    and ``h(1) = h1`` at absorption. With ``l`` the chord through the end values,
    ``E h = l(1/2) + E psi(1/2 + s Z)``, ``psi`` the odd 2-periodic extension of
    ``h - l`` (method of images for the heat equation with Dirichlet data).
    """
    chord = h0 + xs * (h1 - h0)
    psi = ys - chord
    slope = np.diff(psi) / np.diff(xs)
    icpt = psi[:-1] - slope * xs[:-1]
    lows, highs, alphas, betas = [], [], [], []
    for k in range(-_IMAGES, _IMAGES + 1):
        shift = 2.0 * k
        lows += [xs[:-1] + shift, -xs[1:] + shift]  # the piece and its odd image
        highs += [xs[1:] + shift, -xs[:-1] + shift]
        alphas += [icpt - slope * shift, -icpt - slope * shift]
        betas += [slope, slope]
    lo, hi = np.concatenate(lows), np.concatenate(highs)
    al, be = np.concatenate(alphas), np.concatenate(betas)
    m = 0.5
    zl, zh = (lo - m) / s, (hi - m) / s
    mass = normal_cdf(zh) - normal_cdf(zl)
    first = m * mass - s * (_normal_pdf(zh) - _normal_pdf(zl))
    return float(h0 + 0.5 * (h1 - h0) + np.sum(al * mass + be * first))


def holland_effect(
    opp_away: int,
    gammon_rate: float = DEFAULT_GAMMON_RATE,
    delay_rolls: int = DEFAULT_DELAY_ROLLS,
    volatility: float = DEFAULT_VOLATILITY,
) -> HollandEffect:
    """Effect of the Holland rule on the post-Crawford trailer's MWC.

    The trailer may double only after ``delay_rolls`` rolls, during which his game
    winning chance ``q`` diffuses from 1/2 with variance ``volatility**2`` per roll,
    absorbed at 0 and 1 (the game ends at cube 1). He then doubles at once:

    .. math:: H(q) = \\max\\bigl((1 - q) + q[(1-G)P(b-2) + G P(b-4)],\\; P(b-1)\\bigr),

    the leader's MWC, taking or dropping (module docstring, assumption 7); at
    absorption ``H(0) = 1`` and ``H(1) = (1-G)P(b-1) + G P(b-2)``. The leader's
    MWC with the rule is ``E H(q_delay)``, in closed form; without it ``P(b)``.

    Notes
    -----
    ``delay_rolls = 0`` or ``volatility = 0`` is the rule without effect (explicit
    branch); a positive volatility is at least 1e-12 (below it the normal law's
    standardised bounds overflow). A wider spread helps the leader: ``H`` is convex
    in ``q``.

    Examples
    --------
    Trailer 2-away, no gammons: ``H(q) = max(1 - q, 1/2)`` (the leader takes a
    double that comes late, or drops for free). Over one roll with ``s = 0.05``
    absorption is negligible and the leader gains ``E (1/2 - q)^+ = s / sqrt(2 pi)``:

    >>> e = holland_effect(2, gammon_rate=0.0, delay_rolls=1, volatility=0.05)
    >>> round(e.leader_with - e.leader_without, 6)
    0.019947
    """
    b = whole_number("opp_away", opp_away, 2, MAX_AWAY)
    g = real_in_range("gammon_rate", gammon_rate, 0.0, 1.0)
    n = whole_number("delay_rolls", delay_rolls, 0, 1000)
    sigma = real_in_range("volatility", volatility, 0.0, 0.5)
    if 0.0 < sigma < 1e-12:
        raise ValueError(f"`volatility` must be 0 or in [1e-12, 0.5] (got {volatility!r})")
    post, _ = _post_crawford(b, g)

    def at(k: int) -> float:
        return 0.0 if k <= 0 else post[k]

    tail = (1 - g) * at(b - 2) + g * at(b - 4)  # leader's MWC when the trailer wins at 2
    drop = at(b - 1)
    # H on (0, 1): max of the take line 1 - q (1 - tail) and the drop level
    xs = np.array([0.0, 1.0])
    if 1.0 - tail > 0 and 0.0 < (1.0 - drop) / (1.0 - tail) < 1.0:
        xs = np.array([0.0, (1.0 - drop) / (1.0 - tail), 1.0])
    ys = np.maximum(1.0 - xs * (1.0 - tail), drop)
    h0, h1 = 1.0, (1 - g) * at(b - 1) + g * at(b - 2)
    spread = sigma * math.sqrt(n)
    if spread == 0.0:  # no delay: the trailer doubles at q = 1/2
        with_rule = float(np.interp(0.5, xs, ys))
    else:
        with_rule = _killed_expectation(xs, ys, h0, h1, spread)
    without = float(post[b])
    return HollandEffect(
        opp_away=b,
        leader_without=without,
        leader_with=with_rule,
        trailer_without=1.0 - without,
        trailer_with=1.0 - with_rule,
        trailer_change=without - with_rule,
        spread=spread,
    )


def holland_table(
    max_away: int = MAX_AWAY,
    gammon_rate: float = DEFAULT_GAMMON_RATE,
    delay_rolls: int = DEFAULT_DELAY_ROLLS,
    volatility: float = DEFAULT_VOLATILITY,
) -> pd.DataFrame:
    """:func:`holland_effect` for every trailer's score ``2..max_away``, as a tidy table.

    One row per trailer's score, the fields of :class:`HollandEffect` as columns
    (module docstring, assumption 7; the Holland rule as stated in [RULES]_).

    Parameters
    ----------
    max_away : int
        Largest trailer's score, 2..25 (the size bound: one closed form per row).
    gammon_rate, delay_rolls, volatility
        As in :func:`holland_effect`.

    Examples
    --------
    >>> holland_table(4, gammon_rate=0.0)["opp_away"].tolist()
    [2, 3, 4]
    """
    n = whole_number("max_away", max_away, 2, MAX_AWAY)
    rows = [
        asdict(holland_effect(b, gammon_rate, delay_rolls, volatility)) for b in range(2, n + 1)
    ]
    return pd.DataFrame(rows)


def match_phase(away: int, opp_away: int, post_crawford: bool = False) -> ScorePhase:
    """The phase of the match at this score, one of :data:`PHASES`.

    Both sides 1-away: double match point. One side 1-away: the Crawford game
    (the first game after a side reaches 1-away, played without the cube, [RULES]_)
    or, with ``post_crawford``, the games after it. Otherwise pre-Crawford.

    Parameters
    ----------
    away, opp_away : int
        Points to go of each side, 1..25.
    post_crawford : bool
        Whether the Crawford game has been played (matters only with a side 1-away).

    Examples
    --------
    >>> match_phase(1, 5), match_phase(1, 5, post_crawford=True), match_phase(3, 3)
    ('Crawford game', 'post-Crawford', 'pre-Crawford')
    """
    a = whole_number("away", away, 1, MAX_AWAY)
    b = whole_number("opp_away", opp_away, 1, MAX_AWAY)
    post_crawford = flag("post_crawford", post_crawford)
    if a == b == 1:
        return "double match point"
    if min(a, b) == 1:
        return "post-Crawford" if post_crawford else "Crawford game"
    return "pre-Crawford"


def match_winning_chance(
    away: int,
    opp_away: int,
    post_crawford: bool = False,
    gammon_rate: float = DEFAULT_GAMMON_RATE,
    cube_efficiency: float = DEFAULT_CUBE_EFFICIENCY,
) -> float:
    """The player's MWC at the start of a game at this score and phase, cube centred.

    The table's entry ``M(away, opp_away)`` (:func:`match_equity`), except
    post-Crawford (:func:`match_phase`), where it is the leader's
    :func:`post_crawford_equity` ``P(b)``, or ``1 - P(a)`` for the trailer.

    Parameters
    ----------
    away, opp_away : int
        Points to go, 1..25.
    post_crawford : bool
        Whether the Crawford game has been played (matters only with a side 1-away).
    gammon_rate, cube_efficiency : float
        The model's ``G`` and ``x``, each in [0, 1].

    Examples
    --------
    Trailer 2-away post-Crawford: the doubled game decides the match.

    >>> match_winning_chance(2, 1, post_crawford=True)
    0.5
    """
    phase = match_phase(away, opp_away, post_crawford)
    if phase != "post-Crawford":
        return match_equity(away, opp_away, gammon_rate, cube_efficiency)
    if away == 1:
        return post_crawford_equity(opp_away, gammon_rate)
    return 1.0 - post_crawford_equity(away, gammon_rate)


def take_points_by_cube(
    away: int,
    opp_away: int,
    gammon_rate: float = DEFAULT_GAMMON_RATE,
    opp_gammon_rate: float | None = None,
    cube_efficiency: float = DEFAULT_CUBE_EFFICIENCY,
) -> pd.DataFrame:
    """:func:`take_point` at this score for every cube level that still matters.

    Cube 1 is centred, higher cubes are owned by the doubler (redoubles). The list
    stops before the first cube ``c >= opp_away`` (the doubler already wins the
    match with it: the taker's drop loses the match, take point 0, and doubling
    gains the doubler nothing): at most five levels, as ``opp_away <= 25``.

    Parameters
    ----------
    away, opp_away : int
        The taker's and the doubler's points to go, 1..25.
    gammon_rate, opp_gammon_rate, cube_efficiency
        As in :func:`take_point`.

    Returns
    -------
    pandas.DataFrame
        ``cube`` ("1 -> 2", ...) and the fields of :class:`TakePoint`.

    Examples
    --------
    A cube of 4 already wins 3-away the match: two levels.

    >>> take_points_by_cube(5, 3)["cube"].tolist()
    ['1 -> 2', '2 -> 4']
    """
    rows = []
    cube = 1
    while True:
        owner: TakeCube = "center" if cube == 1 else "opponent"
        tp = take_point(away, opp_away, cube, owner, gammon_rate, opp_gammon_rate, cube_efficiency)
        rows.append({"cube": f"{cube} -> {2 * cube}", **asdict(tp)})
        cube *= 2
        if cube >= opp_away:
            break
    return pd.DataFrame(rows)
