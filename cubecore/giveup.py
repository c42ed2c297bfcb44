"""Woolsey's give-up-point model of the doubling cube ("Doubling Theory").

[KW]_ replaces the recube by a *give-up point*: the game is re-defined so that
the holder of cube access wins automatically as soon as his cubeless winning
chance reaches ``g``. A cubeless equity ``e`` becomes a winning chance
``w = (e + 1) / 2``, the winning chance in the modified game is

.. math::

    p_{\\mathrm{opponent}} = \\frac{w - (1 - g)}{g}, \\qquad
    p_{\\mathrm{owned}} = \\frac{w}{g}, \\qquad
    p_{\\mathrm{center}} = \\frac{w - (1 - g_c)}{2 g_c - 1},

and the modified equity is ``2 p - 1`` (one-cube units). ``g`` is the give-up
point once the cube has been turned (essay: .86), ``g_c`` the one with the cube
in the centre (essay: .835). From the three equities ``e0`` (centre), ``e1``
(opponent owns) and ``e2`` (player owns) the essay derives the doubling points
(double when ``e1 > e0 / 2``, redouble when ``e1 > e2 / 2``) and the gain of
doubling now rather than after the next exchange of rolls.

The essay's symbols map to the names used here: ``g`` -> ``own_give_up``,
``g_c`` -> ``center_give_up`` (the two fields of :class:`GiveUpPoints`, the
model's parameters: a function needing both takes them as one argument
``give_ups``), the minimum take point (21.5 %) -> ``min_take``. Everything is for
money play without gammons (``W = L = 1``).

References
----------
.. [KW] K. Woolsey, "Doubling Theory", essay (references key ``W-DT``). The essay has no
   numbered equations; citations name the step ("w = p + (1 - p) * (1 - .86)",
   the table of e0, e1, e2, the worked example at e = .200).
.. [ZK77] N. Zadeh and G. Kobliska, "On optimal doubling in backgammon",
   Management Science 23 (1977): effective doubling points DA, DB.
.. [JR12] "Janowski model revisited", blog post, 28 March 2012:
   cube life index x, live take point .2 and cash point .8 for W = L = 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import NamedTuple

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray
from scipy import special

from cubecore import janowski, race
from cubecore._docs import fill_doc
from cubecore._validate import (
    _shown,
    array_in_range,
    broadcast_together,
    choice,
    finite_array,
    flag,
    real_in_range,
)
from cubecore.janowski import CUBE_POSITIONS, CubePosition, DoublingCube

__all__ = [
    "CUBE_POSITIONS",
    "DEAD_CUBE_TAKE_POINT",
    "DOUBLING_CUBES",
    "ESSAY_GIVE_UPS",
    "ESSAY_MIN_TAKE",
    "ESSAY_QUOTED_DEVIATIONS",
    "ESSAY_QUOTED_PRINTED",
    "ESSAY_TABLE_DEVIATIONS",
    "ESSAY_TABLE_EQUITIES",
    "ESSAY_TABLE_PRINTED",
    "MAX_ESSAY_ROWS",
    "MAX_SPREAD_POINTS",
    "MIN_VOLATILITY",
    "BetaSpread",
    "DoublingPoints",
    "EffectiveDoublingPoints",
    "GiveUpPoints",
    "ModelEquivalences",
    "RaceDoublingVerdict",
    "cube_life_from_give_up",
    "doubling_gain",
    "doubling_points",
    "effective_points_from_give_up",
    "essay_quoted_numbers",
    "essay_table",
    "essay_table_with_printed",
    "give_up_from_cube_life",
    "give_up_from_min_take",
    "initial_double_point",
    "janowski_comparison",
    "market_losing_equity",
    "min_take_from_give_up",
    "model_equivalences",
    "modified_equity",
    "modified_win_probability",
    "net_doubling_gain",
    "next_equity_density",
    "next_equity_spread",
    "race_doubling_verdict",
    "race_sequence_gains",
    "redouble_point",
    "spread_exists",
    "volatility_doubling_gain",
]

#: Cube positions from which the player can double: initial double, redouble.
DOUBLING_CUBES: tuple[DoublingCube, ...] = ("center", "owned")

#: [KW] "If there were no recube possible then the minimum take point would be .25".
DEAD_CUBE_TAKE_POINT = 0.25

#: Smallest positive volatility of a Beta spread: below it the Beta parameters pass 1e24
#: and scipy's Beta routines overflow (1e-20) or return NaN (below 1e-154, where
#: ``volatility**2`` underflows). 0 itself is the point mass and stays allowed.
MIN_VOLATILITY = 1e-12
#: Most (equity, volatility) pairs of one call (each is a Beta integral: 100
#: thousand take ~0.8 s).
MAX_SPREAD_POINTS = 100_000
#: Most rows of :func:`essay_table_with_printed` (each row is compared with the printed
#: table in Python, ~16 us of CPU a row: 10,000 rows ~0.2 s; a million took 16 s).
MAX_ESSAY_ROWS = 10_000

#: [KW] "the minimum take point is about 21.5%".
ESSAY_MIN_TAKE = 0.215

#: Cubeless equities of the essay's examples: the three table rows, then the
#: worked example of the cost section ("suppose ... our equity is .200").
ESSAY_TABLE_EQUITIES = (0.40, 0.39, 0.42, 0.200)

#: The printed rows ``(e, e0, e1, e2)``: [KW] table (rows 1-3) and the worked
#: example "e0 = .299, e1 = .070, e2 = .395" (row 4). Three printed decimals.
ESSAY_TABLE_PRINTED = (
    (0.40, 0.597, 0.302, 0.628),
    (0.39, 0.582, 0.291, 0.616),
    (0.42, 0.627, 0.326, 0.651),
    (0.200, 0.299, 0.070, 0.395),
)

#: Printed table cells that differ from the exact model, ``{(row, col): (printed, reason)}``.
#: Every cell of :data:`ESSAY_TABLE_PRINTED` is the exact value rounded to three
#: decimals, so there is none.
ESSAY_TABLE_DEVIATIONS: MappingProxyType[tuple[int, int], tuple[float, str]] = MappingProxyType({})

#: Single numbers quoted in the essay's text (three printed decimals; the give-up
#: point .86 two).
ESSAY_QUOTED_PRINTED: MappingProxyType[str, float] = MappingProxyType(
    {
        "own_give_up": 0.86,  # [KW] "x = .14", give-up 1 - x
        "market_losing_equity": 0.570,  # [KW] "the doubler has an equity of .570"
        "initial_double_point": 0.390,  # [KW] "an initial double with an equity of .390"
        "redouble_point": 0.420,  # [KW] "to redouble with an equity of .420"
        "initial_double_cost": 0.159,  # [KW] ".299 - 2 * .070 = .159" at e = .200
        "redouble_cost": 0.255,  # [KW] ".395 - 2 * .070 = .255" at e = .200
    }
)

#: Quoted numbers that are not the exact model value rounded to the printed
#: digits, ``{name: (printed, reason)}``.
ESSAY_QUOTED_DEVIATIONS: MappingProxyType[str, tuple[float, str]] = MappingProxyType(
    {
        "initial_double_point": (
            0.390,
            "read off the rounded table: at e = .39 the printed e1 = .291 equals e0/2 = "
            ".582/2, a tie of three-decimal values; exactly e1 = .29070 < e0/2 = .29104 "
            "there, and e1 = e0/2 at e = 469/1200 = .39083, which rounds to .391",
        ),
        "redouble_cost": (
            0.255,
            "computed from the rounded e2 = .395 and e1 = .070; the exact cost "
            "e2 - 2 e1 = 22/86 = .25581 rounds to .256",
        ),
    }
)


# --------------------------------------------------------------------------- helpers


def _check_give_up(name: str, value: float) -> float:
    """Give-up points live in (1/2, 1]: above 1/2 so that DA = g > DB = 1 - g."""
    return real_in_range(name, value, 0.5, 1.0, low_open=True)


# ------------------------------------------------------------ the model's parameters


@dataclass(frozen=True)
class GiveUpPoints:
    """Woolsey's two give-up points: the parameters of his model ([KW]).

    The argument of every function here that needs both points (``g`` alone is a
    plain number: :func:`market_losing_equity`, :func:`redouble_point`). Checked
    once, when it is made.

    Parameters
    ----------
    own_give_up : float
        ``g``, the give-up point once the cube has been turned, in (1/2, 1]: the
        cube holder wins the modified game when his cubeless chance reaches ``g``
        ([KW] "x = .14 ... the taker wins automatically if his probability of
        winning reaches .86").
    center_give_up : float
        ``g_c``, the give-up point with the cube in the centre, in (1/2, 1]
        ([KW] "I estimated that .835 is the give up point with the cube in the
        center").

    Raises
    ------
    ValueError
        A point that is not a real number in (1/2, 1].

    Notes
    -----
    ``g_c = 1/2`` is excluded: ``2 g_c - 1 = 0`` and the centred transform is
    undefined; ``g = 1/2`` would make [ZK77]'s ``DA = DB``. ``g = g_c = 1`` is the
    dead cube, ``g = g_c = .8`` the live cube of the continuous model.

    Examples
    --------
    >>> GiveUpPoints(0.8, 0.8).center_give_up  # the Keeler-Spencer limit
    0.8
    """

    own_give_up: float
    center_give_up: float

    def __post_init__(self) -> None:
        for name in ("own_give_up", "center_give_up"):
            object.__setattr__(self, name, _check_give_up(name, getattr(self, name)))


#: The essay's give-up points: ``g`` = .86 (``4 T`` at the minimum take point
#: :data:`ESSAY_MIN_TAKE`) and ``g_c`` = .835 ([KW], quoted in :class:`GiveUpPoints`).
ESSAY_GIVE_UPS = GiveUpPoints(own_give_up=0.86, center_give_up=0.835)


def _check_give_ups(give_ups: GiveUpPoints) -> tuple[float, float]:
    """``(g, g_c)`` of a :class:`GiveUpPoints` (its fields were checked when it was made)."""
    if not isinstance(give_ups, GiveUpPoints):
        raise TypeError(
            f"`give_ups` must be a cubecore.giveup.GiveUpPoints (got {type(give_ups).__name__})"
        )
    return give_ups.own_give_up, give_ups.center_give_up


_OWN_GIVE_UP_DOC = """
own_give_up : float
    ``g`` in (1/2, 1].
"""
_GIVE_UPS_DOC = """
give_ups : GiveUpPoints
    ``g`` and ``g_c``; default :data:`ESSAY_GIVE_UPS`, the essay's .86 and .835.
"""
_PARAMETERS_HEADER = "Parameters\n----------"
_give_up_doc = fill_doc(
    own_give_up=_OWN_GIVE_UP_DOC,
    give_ups=_GIVE_UPS_DOC,
    own_give_up_parameters=_PARAMETERS_HEADER + _OWN_GIVE_UP_DOC,
    give_ups_parameters=_PARAMETERS_HEADER + _GIVE_UPS_DOC,
    doubling_cube="""
    cube : {"center", "owned"}
        Initial double or redouble.
    """,
)


def _as_output(array: NDArray[np.float64]) -> float | NDArray[np.float64]:
    """A 0-d result comes back as a Python float, anything else as an array."""
    return float(array) if array.ndim == 0 else array


def _raw_probability(
    w: NDArray[np.float64], cube: CubePosition, g: float, g_c: float
) -> NDArray[np.float64]:
    """Unconceded modified winning chance: the three linear transforms of [KW].

    They are [ZK77]'s eqs. (1)-(3) with ``DA = g``, ``DB = 1 - g`` (owned,
    opponent) and ``DA = g_c``, ``DB = 1 - g_c`` (centre), computed by
    :func:`cubecore.race.effective_point_chance`: [KW] p = w / .86 (owned),
    p = (w - .14) / .86 (opponent), p = (w - .165) / .670 (centre).
    """
    give_up = g_c if cube == "center" else g
    return race.effective_point_chance(w, give_up, 1.0 - give_up, cube)


def _conceded(p: NDArray[np.float64]) -> NDArray[np.float64]:
    """The give-up rule: past a give-up point the game is over (p = 0 or p = 1)."""
    return np.where(p < 0.0, 0.0, np.where(p > 1.0, 1.0, p))


def _modified(
    e: NDArray[np.float64], cube: CubePosition, g: float, g_c: float
) -> NDArray[np.float64]:
    """Conceded modified equity ``2 p - 1`` for validated arguments."""
    return 2.0 * _conceded(_raw_probability((e + 1.0) / 2.0, cube, g, g_c)) - 1.0


# ------------------------------------------------------------------- the transform


def modified_win_probability(
    e: ArrayLike,
    cube: CubePosition,
    give_ups: GiveUpPoints = ESSAY_GIVE_UPS,
    *,
    concede: bool = True,
) -> float | NDArray[np.float64]:
    """Winning chance in Woolsey's modified game, where a give-up point ends the game.

    With ``w = (e + 1) / 2`` the player's cubeless winning chance,

    .. math::

        p = \\begin{cases}
            (w - (1 - g)) / g & \\text{opponent owns the cube} \\\\
            w / g & \\text{player owns the cube} \\\\
            (w - (1 - g_c)) / (2 g_c - 1) & \\text{cube in the centre}
        \\end{cases}

    ([KW], "p = (w - .14) / .86", "p = w / .86", "p = (w - .165) / .670").

    Parameters
    ----------
    e : array_like
        Cubeless equity of the player, in [-1, 1].
    cube : {"center", "owned", "opponent"}
        Cube position seen from the player.
    give_ups : GiveUpPoints
        ``g``, give-up point once the cube is turned, and ``g_c``, give-up point
        with the cube in the centre. Essay: .86 and .835 (:data:`ESSAY_GIVE_UPS`).
    concede : bool
        Apply the give-up rule (default). ``False`` returns the raw linear
        value, which leaves [0, 1] beyond a give-up point.

    Returns
    -------
    float or ndarray
        ``p``, shaped like ``e``.

    Notes
    -----
    The linear formulas are derived in [KW] for a game still in progress. Beyond a
    give-up point the modified game has ended: the cube holder whose cubeless
    chance has reached ``g`` (``g_c``) has won. Hence with ``concede=True`` a raw
    value below 0 is 0 (the opponent has reached his give-up point: he wins)
    and above 1 is 1 (the player has reached his). This is the model's own rule,
    not a numerical safeguard; it acts for ``w < 1 - g`` (opponent owns),
    ``w > g`` (player owns) and outside ``[1 - g_c, g_c]`` (centre).
    ``g = 1`` is the dead cube (``p = w``). ``g_c = 1/2`` is excluded:
    ``2 g_c - 1 = 0`` and the centred transform is undefined.

    Examples
    --------
    >>> round(modified_win_probability(0.570, "opponent"), 12)  # [KW] "= .75"
    0.75
    """
    g, g_c = _check_give_ups(give_ups)
    cube = choice("cube", cube, CUBE_POSITIONS)
    e = array_in_range("e", e, -1.0, 1.0)
    concede = flag("concede", concede)
    p = _raw_probability((e + 1.0) / 2.0, cube, g, g_c)
    return _as_output(_conceded(p) if concede else p)


@_give_up_doc
def modified_equity(
    e: ArrayLike, cube: CubePosition, give_ups: GiveUpPoints = ESSAY_GIVE_UPS
) -> float | NDArray[np.float64]:
    """Cubeful equity in Woolsey's model: ``E = 2 p - 1`` for a one-cube.

    ``p`` is :func:`modified_win_probability` with the give-up rule applied
    ([KW], steps 1-3: "w = (e+1) / 2", "p = (w - .14) / .86", "E = 2 * p - 1").
    ``e0``, ``e1``, ``e2`` of the essay are ``cube = "center"``, ``"opponent"``,
    ``"owned"``.

    Parameters
    ----------
    e : array_like
        Cubeless equity in [-1, 1].
    cube : {"center", "owned", "opponent"}
        Cube position seen from the player.
    {give_ups}

    Returns
    -------
    float or ndarray
        Modified equity in [-1, 1], non-decreasing in ``e``.

    Notes
    -----
    Past a give-up point the modified equity is exactly -1 or +1 (the game has
    been conceded); see :func:`modified_win_probability`.

    Examples
    --------
    >>> round(modified_equity(0.40, "center"), 3)  # [KW] table: e0 = .597
    0.597
    """
    p = modified_win_probability(e, cube, give_ups)
    return _as_output(2.0 * np.asarray(p) - 1.0)


def give_up_from_min_take(min_take: float) -> float:
    """Give-up point ``g = 4 T`` implied by the minimum take point ``T``.

    [KW]: at the minimum take the doubler wins the modified game 75 % of the time
    (the dead-cube take point 1/4 in a game with no cube left), and after the
    taker's automatic win still pulls the game out with chance ``x``:
    ``.75 + x * .25 = 1 - T``, so ``x = 1 - 4 T`` and ``g = 1 - x = 4 T``.

    Parameters
    ----------
    min_take : float
        ``T``, the taker's minimum cubeless winning chance, in (1/8, 1/4].

    Returns
    -------
    float
        ``g`` in (1/2, 1].

    Notes
    -----
    ``T = 1/4`` gives ``g = 1``: no recube vig, the dead cube. ``T = 1/5`` gives
    ``g = 4/5``, the perfectly efficient recube of the continuous (Keeler-Spencer)
    model. Between them lies the essay's range of real recube efficiency;
    ``T`` in (1/8, 1/5) is allowed by the algebra (better than a perfect recube,
    a Janowski cube life above 1) but not by the essay's argument. ``T <= 1/8``
    would give ``g <= 1/2``; ``T > 1/4`` would give ``g > 1`` (a negative chance
    ``x``).

    Examples
    --------
    >>> round(give_up_from_min_take(0.215), 12)  # [KW] "x = .14", g = .86
    0.86
    """
    min_take = real_in_range("min_take", min_take, 0.125, 0.25, low_open=True)
    return 4.0 * min_take


def min_take_from_give_up(own_give_up: float) -> float:
    """Minimum take point ``T = g / 4`` implied by the give-up point (inverse of
    :func:`give_up_from_min_take`).

    Examples
    --------
    >>> round(min_take_from_give_up(0.86), 12)  # [KW] "about 21.5%"
    0.215
    """
    return _check_give_up("own_give_up", own_give_up) / 4.0


# --------------------------------------------------------------- doubling points


@_give_up_doc
def market_losing_equity(own_give_up: float = ESSAY_GIVE_UPS.own_give_up) -> float:
    """Cubeless equity at which the doubler loses his market: ``e_m = 1 - g / 2``.

    The taker's modified winning chance with the cube on his side is ``1 - p``
    with ``p = (w - (1 - g)) / g``; it reaches the take point of the modified game,
    which has no cube left (1/4), when ``w = 1 - g / 4``, i.e. the taker's cubeless
    chance is the minimum take ``T = g / 4``. Then ``e = 2 w - 1 = 1 - g / 2`` and
    the doubler's modified equity is exactly .5 ([KW] "a cubeless equity of .570
    turns into a modified equity of .500").

    {own_give_up_parameters}

    Returns
    -------
    float
        ``e_m`` in [1/2, 3/4).

    Examples
    --------
    >>> round(market_losing_equity(0.86), 12)  # [KW] ".570"
    0.57
    """
    g = _check_give_up("own_give_up", own_give_up)
    return 1.0 - g / 2.0


@_give_up_doc
def initial_double_point(give_ups: GiveUpPoints = ESSAY_GIVE_UPS) -> float:
    """Cubeless equity above which an initial double is correct: ``e1 = e0 / 2``.

    Both transforms are linear in ``e`` between the give-up points, so the
    criterion ``e1 > e0 / 2`` of [KW] ("if e1 > e0 / 2 it is correct to double")
    has the closed-form root

    .. math:: e_d = 1 - \\frac{g (4 g_c - 3)}{4 g_c - 2 - g}
              \\qquad (g_c > 1 - g / 4).

    {give_ups_parameters}

    Returns
    -------
    float
        ``e_d``; doubling is correct for every ``e > e_d``.

    Notes
    -----
    On ``e >= 0`` the difference ``e1 - e0 / 2`` is piecewise linear, negative at
    ``e = 0`` (zero when ``g = 1``) and increasing wherever the centred transform
    is not conceded iff ``g_c > 1/2 + g/4``. Two branches:

    * ``g_c > 1 - g/4`` (the essay's case): the root lies where both transforms
      are linear; it is the formula above, and ``e_d <= e_m``
      (:func:`market_losing_equity`). ``g = 1`` gives ``e_d = 0``.
    * ``g_c <= 1 - g/4``: the centred give-up point is reached no later than the
      market is lost, the linear root is not in the linear region, and ``e1``
      reaches ``e0 / 2 = 1/2`` only at ``e_m``: the double/take window is empty
      and ``e_d = e_m``. (At ``g = 1, g_c = 3/4`` the criterion is an exact tie on
      ``0 <= e <= 1/2``; the branch returns ``e_m``, the first strict gain.)

    Both branches agree at ``g_c = 1 - g/4``; ``g = g_c = .8`` gives ``e_d = .6``,
    the continuous 80 % doubling point.

    Examples
    --------
    >>> round(initial_double_point(GiveUpPoints(0.86, 0.835)), 5)  # [KW] ".390"; exactly 469/1200
    0.39083
    """
    return _initial_double(*_check_give_ups(give_ups))


def _initial_double(g: float, g_c: float) -> float:
    """:func:`initial_double_point` for checked ``g``, ``g_c``."""
    if g_c > 1.0 - g / 4.0:
        return 1.0 - g * (4.0 * g_c - 3.0) / (4.0 * g_c - 2.0 - g)
    return 1.0 - g / 2.0  # empty window: the doubling point is the market-losing point


@_give_up_doc
def redouble_point(own_give_up: float = ESSAY_GIVE_UPS.own_give_up) -> float:
    """Cubeless equity above which a redouble is correct: ``e1 = e2 / 2``.

    Solving ``2 (2 p1 - 1) = 2 p2 - 1`` with ``p1 = (w - 1 + g) / g`` and
    ``p2 = w / g`` ([KW] "if e1 > e2 / 2 it is correct to redouble") gives
    ``w = 2 - 3 g / 2``, i.e.

    .. math:: e_r = 3 - 3 g \\qquad (g \\ge 4/5).

    {own_give_up_parameters}

    Returns
    -------
    float
        ``e_r``; redoubling is correct for every ``e > e_r``.

    Notes
    -----
    The root lies in the player's linear region ``w <= g`` iff ``g >= 4/5``. For
    ``g < 4/5`` the owner's give-up point comes first (``e2 = 1`` there) and
    ``e1 = 1/2`` only at the market-losing equity: the window is empty and
    ``e_r = e_m = 1 - g/2``. ``g = 4/5`` gives ``e_r = e_m = .6`` (80 %, the
    continuous model); ``g = 1`` gives ``e_r = 0``.

    Examples
    --------
    >>> round(redouble_point(0.86), 12)  # [KW] ".420"
    0.42
    """
    g = _check_give_up("own_give_up", own_give_up)
    if g >= 0.8:
        return 3.0 - 3.0 * g
    return 1.0 - g / 2.0  # empty window: the redouble point is the market-losing point


@dataclass(frozen=True)
class DoublingPoints:
    """Cubeless equities that bound the double/take windows of the give-up model.

    Attributes
    ----------
    initial_double : float
        :func:`initial_double_point`.
    redouble : float
        :func:`redouble_point`.
    market_losing : float
        :func:`market_losing_equity` (the same edge for doubles and redoubles).
    """

    initial_double: float
    redouble: float
    market_losing: float


@_give_up_doc
def doubling_points(give_ups: GiveUpPoints = ESSAY_GIVE_UPS) -> DoublingPoints:
    """The three edges of the doubling windows for ``g``, ``g_c``.

    {give_ups_parameters}

    Returns
    -------
    DoublingPoints
        :func:`initial_double_point`, :func:`redouble_point` and
        :func:`market_losing_equity` at these give-up points.

    Examples
    --------
    >>> points = doubling_points()
    >>> round(points.redouble, 3), round(points.market_losing, 3)  # [KW] .420, .570
    (0.42, 0.57)
    """
    g, g_c = _check_give_ups(give_ups)
    return DoublingPoints(
        initial_double=_initial_double(g, g_c),
        redouble=redouble_point(g),
        market_losing=market_losing_equity(g),
    )


@_give_up_doc
def essay_table(
    equities: ArrayLike = ESSAY_TABLE_EQUITIES, give_ups: GiveUpPoints = ESSAY_GIVE_UPS
) -> pd.DataFrame:
    """The essay's table of modified equities for chosen cubeless equities.

    Parameters
    ----------
    equities : array_like
        Cubeless equities in [-1, 1]; default the essay's .40, .39, .42, .200.
    {give_ups}

    Returns
    -------
    pandas.DataFrame
        One row per equity, columns ``e``, ``e0`` (centre), ``e1`` (opponent
        owns), ``e2`` (player owns), ``double`` (``e1 > e0 / 2``), ``redouble``
        (``e1 > e2 / 2``), ``double_cost`` (``e0 - 2 e1``) and ``redouble_cost``
        (``e2 - 2 e1``): the costs the essay quotes when the next-exchange
        equity is too weak to double.

    Examples
    --------
    >>> essay_table()[["e0", "e1", "e2"]].iloc[3].round(3).tolist()  # [KW] e = .200
    [0.299, 0.07, 0.395]
    """
    g, g_c = _check_give_ups(give_ups)
    e = np.atleast_1d(array_in_range("equities", equities, -1.0, 1.0)).ravel()
    e0 = _modified(e, "center", g, g_c)
    e1 = _modified(e, "opponent", g, g_c)
    e2 = _modified(e, "owned", g, g_c)
    return pd.DataFrame(
        {
            "e": e,
            "e0": e0,
            "e1": e1,
            "e2": e2,
            "double": e1 > e0 / 2.0,
            "redouble": e1 > e2 / 2.0,
            "double_cost": e0 - 2.0 * e1,
            "redouble_cost": e2 - 2.0 * e1,
        }
    )


def _is_essay_setting(g: float, g_c: float) -> bool:
    """Whether ``g``, ``g_c`` are the essay's .86 and .835 (the printed numbers' setting)."""
    essay = ESSAY_GIVE_UPS
    return abs(g - essay.own_give_up) < 1e-9 and abs(g_c - essay.center_give_up) < 1e-9


@_give_up_doc
def essay_table_with_printed(
    equities: ArrayLike = ESSAY_TABLE_EQUITIES, give_ups: GiveUpPoints = ESSAY_GIVE_UPS
) -> pd.DataFrame:
    """The essay's table for chosen rows, the printed cells beside the exact ones ([KW]).

    A row gets the printed ``e0, e1, e2`` (:data:`ESSAY_TABLE_PRINTED`) when its
    equity is one of the essay's rows and ``g``, ``g_c`` are the essay's .86 and
    .835; ``check`` says whether each printed cell is the exact value rounded to
    the three printed decimals, or gives the listed reason when it is not
    (:data:`ESSAY_TABLE_DEVIATIONS`).

    Parameters
    ----------
    equities : array_like
        Cubeless equities in [-1, 1] (one row each), at most :data:`MAX_ESSAY_ROWS`.
    {give_ups}

    Returns
    -------
    pandas.DataFrame
        ``e``, ``e0``, ``e1``, ``e2`` (:func:`essay_table`), ``printed e0``,
        ``printed e1``, ``printed e2`` (NaN where nothing is printed), ``check``,
        ``double (e1 > e0/2)``, ``redouble (e1 > e2/2)``, ``cost e0 - 2 e1`` and
        ``cost e2 - 2 e1``.

    Examples
    --------
    >>> t = essay_table_with_printed()
    >>> float(t.loc[0, "printed e0"]), t.loc[0, "check"]  # [KW] table, row e = .40
    (0.597, 'every printed cell is the exact value rounded')
    """
    rows = np.atleast_1d(array_in_range("equities", equities, -1.0, 1.0)).size
    if rows > MAX_ESSAY_ROWS:
        raise ValueError(f"`equities` must have at most {MAX_ESSAY_ROWS:,} entries (got {rows:,})")
    table = essay_table(equities, give_ups)
    g, g_c = _check_give_ups(give_ups)
    printed = {row[0]: (index, row[1:]) for index, row in enumerate(ESSAY_TABLE_PRINTED)}
    columns = ("e0", "e1", "e2")
    shown: dict[str, list[float]] = {f"printed {c}": [] for c in columns}
    checks = []
    for _, row in table.iterrows():
        match = next((key for key in printed if abs(key - row["e"]) < 1e-9), None)
        if match is None or not _is_essay_setting(g, g_c):
            for c in columns:
                shown[f"printed {c}"].append(np.nan)
            checks.append(
                "not a row of the essay"
                if match is None
                else "printed for the essay's g = .86, g_c = .835 only"
            )
            continue
        index, values = printed[match]
        notes = []
        for position, (c, value) in enumerate(zip(columns, values, strict=True), start=1):
            shown[f"printed {c}"].append(value)
            deviation = ESSAY_TABLE_DEVIATIONS.get((index, position))
            if deviation is not None:
                notes.append(f"{c}: {deviation[1]}")
            elif round(float(row[c]), 3) != value:
                notes.append(f"{c}: differs from the exact {row[c]:.4f}, no listed reason")
        checks.append("; ".join(notes) or "every printed cell is the exact value rounded")
    frame = table[["e", "e0", "e1", "e2"]].copy()
    for c in columns:
        frame[f"printed {c}"] = shown[f"printed {c}"]
    frame["check"] = checks
    frame["double (e1 > e0/2)"] = table["double"]
    frame["redouble (e1 > e2/2)"] = table["redouble"]
    frame["cost e0 - 2 e1"] = table["double_cost"]
    frame["cost e2 - 2 e1"] = table["redouble_cost"]
    return frame


def essay_quoted_numbers() -> pd.DataFrame:
    """Each number the essay quotes ([KW]): printed, exact for its setting, and why they differ.

    The exact values are for the essay's setting (``T = .215`` so ``g = 4T = .86``,
    ``g_c = .835``); the printed ones are :data:`ESSAY_QUOTED_PRINTED` (two decimals
    for ``g``, three for the others).

    Returns
    -------
    pandas.DataFrame
        ``number``, ``printed``, ``exact``, ``exact_rounded`` (to the printed
        digits), ``agrees`` (no listed deviation) and ``reason`` (the listed
        deviation, :data:`ESSAY_QUOTED_DEVIATIONS`, or "the exact value rounds to
        the print").

    Examples
    --------
    >>> q = essay_quoted_numbers().set_index("number")
    >>> round(float(q.loc["redouble_cost", "exact"]), 5), bool(q.loc["redouble_cost", "agrees"])
    (0.25581, False)
    """
    g = give_up_from_min_take(ESSAY_MIN_TAKE)
    essay = GiveUpPoints(g, ESSAY_GIVE_UPS.center_give_up)
    exact = {
        "own_give_up": g,
        "market_losing_equity": market_losing_equity(g),
        "initial_double_point": initial_double_point(essay),
        "redouble_point": redouble_point(g),
        "initial_double_cost": -float(doubling_gain(0.200, "center", essay)),
        "redouble_cost": -float(doubling_gain(0.200, "owned", essay)),
    }
    rows = []
    for name, printed in ESSAY_QUOTED_PRINTED.items():
        digits = 2 if name == "own_give_up" else 3
        deviation = ESSAY_QUOTED_DEVIATIONS.get(name)
        rows.append(
            {
                "number": name,
                "printed": printed,
                "exact": exact[name],
                "exact_rounded": round(exact[name], digits),
                "agrees": deviation is None,
                "reason": deviation[1] if deviation else "the exact value rounds to the print",
            }
        )
    return pd.DataFrame(rows)


# --------------------------------------------------------------- cost of doubling


def _doubling_point(cube: CubePosition, g: float, g_c: float) -> float:
    """``e_d``: :func:`initial_double_point` (``cube`` "center") or :func:`redouble_point`."""
    return _initial_double(g, g_c) if cube == "center" else redouble_point(g)


def _gain(e: NDArray[np.float64], cube: CubePosition, g: float, g_c: float) -> NDArray[np.float64]:
    """Gain of having doubled, for validated arguments (see :func:`doubling_gain`)."""
    e_m = 1.0 - g / 2.0
    e_d = _doubling_point(cube, g, g_c)
    e1 = _modified(e, "opponent", g, g_c)
    e_held = _modified(e, cube, g, g_c)  # e0 (centre) or e2 (owned): not having doubled
    market_lost = 2.0 * e1 - 1.0  # [KW] "the cost is 2 * E - 1"
    too_weak = 2.0 * e1 - e_held  # [KW] "the cost of doubling is e0 - 2 * e1"
    return np.where(e > e_m, market_lost, np.where(e >= e_d, 0.0, too_weak))


@_give_up_doc
def doubling_gain(
    next_equity: ArrayLike,
    cube: DoublingCube = "center",
    give_ups: GiveUpPoints = ESSAY_GIVE_UPS,
) -> float | NDArray[np.float64]:
    """Gain of having doubled now, given the cubeless equity after the next exchange.

    With ``e`` the next-exchange cubeless equity, ``e1`` its modified equity with
    the opponent owning the cube and ``e_held`` the one with the cube where it is
    now (``e0`` centred, ``e2`` owned), [KW] distinguishes

    .. math::

        G(e) = \\begin{cases}
            2 e_1 - 1 & e > e_m \\quad\\text{(market lost)} \\\\
            0 & e_d \\le e \\le e_m \\quad\\text{(double/take either way)} \\\\
            2 e_1 - e_{\\mathrm{held}} & e < e_d \\quad\\text{(too weak to double)}
        \\end{cases}

    with ``e_m`` = :func:`market_losing_equity` and ``e_d`` =
    :func:`initial_double_point` (``cube="center"``) or :func:`redouble_point`
    (``cube="owned"``). A negative gain is the essay's cost.

    Parameters
    ----------
    next_equity : array_like
        Cubeless equity after the next exchange of rolls, in [-1, 1].
    cube : {"center", "owned"}
        Where the cube is now: initial double or redouble.
    {give_ups}

    Returns
    -------
    float or ndarray
        Gain in units of the current cube, shaped like ``next_equity``.

    Notes
    -----
    The region edges are the exact roots, so ``G`` is continuous: at ``e_m`` the
    modified equity is ``e1 = 1/2`` (``2 e1 - 1 = 0``), at ``e_d`` the doubling
    criterion is an equality (``2 e1 - e_held = 0``). When the window is empty
    (``e_d = e_m``, see :func:`initial_double_point`) the middle branch is a
    single point.

    Examples
    --------
    >>> round(-doubling_gain(0.200, "center"), 3)  # [KW] "the cost of doubling is .159"
    0.159
    """
    g, g_c = _check_give_ups(give_ups)
    cube = choice("cube", cube, DOUBLING_CUBES)
    e = array_in_range("next_equity", next_equity, -1.0, 1.0)
    return _as_output(_gain(e, cube, g, g_c))


@_give_up_doc
def net_doubling_gain(
    next_equities: ArrayLike,
    cube: DoublingCube = "center",
    weights: ArrayLike | None = None,
    give_ups: GiveUpPoints = ESSAY_GIVE_UPS,
) -> float:
    """Weighted mean of :func:`doubling_gain` over next-exchange equities.

    [KW]: "For each of these equities, determine the gain or loss from doubling.
    Add them up, divide by 1296": ``sum_i w_i G(e_i) / sum_i w_i``.

    Parameters
    ----------
    next_equities : array_like
        Cubeless equities after the next exchange, in [-1, 1]; at least one.
    {doubling_cube}
    weights : array_like, optional
        Non-negative weights of the same shape with a positive sum (normalised
        here). Default: equal weights, the essay's 1/1296.
    {give_ups}

    Returns
    -------
    float
        Net gain of doubling now; positive means double.

    Examples
    --------
    >>> round(net_doubling_gain([0.2, 0.2]), 3)  # [KW] cost .159 at e = .200
    -0.159
    """
    array_in_range("next_equities", next_equities, -1.0, 1.0)
    gain = np.asarray(doubling_gain(next_equities, cube, give_ups))
    if gain.size == 0:
        raise ValueError("`next_equities` must hold at least one equity")
    if weights is None:
        return float(np.mean(gain))
    w = finite_array("weights", weights)
    if w.shape != gain.shape:
        raise ValueError(f"`weights` must have the shape of next_equities {gain.shape}")
    if np.any(w < 0.0):
        raise ValueError("`weights` must be non-negative")
    total = float(np.sum(w))
    if not total > 0.0:
        raise ValueError("`weights` must have a positive sum")
    return float(np.sum(w * gain) / total)


# ----------------------------------------------------------- volatility model (3a)


class BetaSpread(NamedTuple):
    """Beta law of the next-exchange cubeless winning chance ``w' = (e' + 1) / 2``."""

    alpha: float | NDArray[np.float64]
    beta: float | NDArray[np.float64]


def _check_spread(
    equity: ArrayLike, volatility: ArrayLike
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Validate ``(equity, volatility)`` jointly: ``volatility**2 < 1 - equity**2`` or 0."""
    e = array_in_range("equity", equity, -1.0, 1.0, max_size=MAX_SPREAD_POINTS)
    sigma = array_in_range("volatility", volatility, 0.0, 2.0, max_size=MAX_SPREAD_POINTS)
    if np.any((sigma > 0.0) & (sigma < MIN_VOLATILITY)):
        raise ValueError(
            f"`volatility` must be 0 or at least {MIN_VOLATILITY:g} (got {_shown(volatility)})"
        )
    e, sigma = broadcast_together(("equity", "volatility"), e, sigma)
    if np.any((sigma > 0.0) & (sigma**2 >= 1.0 - e**2)):
        raise ValueError(
            "`volatility` must be 0 or satisfy volatility**2 < 1 - equity**2 "
            "(the spread of an equity inside [-1, 1] with mean equity)"
        )
    return e, sigma


def _beta_parameters(
    e: NDArray[np.float64], sigma: NDArray[np.float64]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Beta(alpha, beta) with mean ``(1 + e) / 2`` and sd ``sigma / 2`` (``sigma > 0``)."""
    w = (1.0 + e) / 2.0
    concentration = (1.0 - e**2) / sigma**2 - 1.0  # alpha + beta = w(1-w)/var(w') - 1
    return w * concentration, (1.0 - w) * concentration


def spread_exists(equity: ArrayLike, volatility: ArrayLike) -> bool | NDArray[np.bool_]:
    """Whether a next-exchange spread with mean ``equity`` and sd ``volatility`` exists.

    A law on [-1, 1] with mean ``e`` has variance at most ``1 - e**2`` (the two-point
    law on -1 and +1), so a spread exists iff ``volatility == 0`` (the point mass) or
    ``volatility**2 < 1 - equity**2``; the Beta model also needs ``volatility >=
    MIN_VOLATILITY``. True exactly where :func:`volatility_doubling_gain` and
    :func:`next_equity_spread` accept the pair.

    Parameters
    ----------
    equity : array_like
        Today's cubeless equity in [-1, 1].
    volatility : array_like
        Standard deviation of the next-exchange equity: 0 or in
        ``[MIN_VOLATILITY, 2]``.

    Returns
    -------
    bool or numpy.ndarray of bool
        A bool for scalar arguments.

    Examples
    --------
    >>> bool(spread_exists(0.45, 0.2)), bool(spread_exists(0.9, 0.5)), bool(spread_exists(1.0, 0))
    (True, False, True)
    """
    e, sigma = broadcast_together(
        ("equity", "volatility"),
        array_in_range("equity", equity, -1.0, 1.0),
        array_in_range("volatility", volatility, 0.0, 2.0),
    )
    fits = (sigma == 0.0) | ((sigma >= MIN_VOLATILITY) & (sigma**2 < 1.0 - e**2))
    return bool(fits) if np.ndim(fits) == 0 else np.asarray(fits, dtype=bool)


def next_equity_density(e: ArrayLike, equity: float, volatility: float) -> NDArray[np.float64]:
    """Density of the next-exchange cubeless equity ``e'`` at ``e`` (volatility model).

    ``w' = (e' + 1) / 2`` is Beta(``alpha``, ``beta``) (:func:`next_equity_spread`);
    by the change of variables ``e' = 2 w' - 1`` the density of ``e'`` is half the
    Beta density at ``(e + 1) / 2``.

    Parameters
    ----------
    e : array_like
        Points in [-1, 1] where the density is wanted.
    equity, volatility : float
        Today's equity and the spread, with ``0 < volatility**2 < 1 - equity**2``
        and ``volatility >= MIN_VOLATILITY``.

    Returns
    -------
    numpy.ndarray
        The density; NaN where it is infinite (an end point with ``alpha < 1`` or
        ``beta < 1``).

    Examples
    --------
    The uniform case: equity 0 and volatility ``1/sqrt(3)`` give Beta(1, 1), density 1/2.

    >>> next_equity_density([-0.5, 0.5], 0.0, 3 ** -0.5).round(12).tolist()
    [0.5, 0.5]
    """
    points = array_in_range("e", e, -1.0, 1.0)
    equity = real_in_range("equity", equity, -1.0, 1.0)  # one law: numbers, not arrays
    volatility = real_in_range("volatility", volatility, 0.0, 2.0)
    spread = next_equity_spread(equity, volatility)
    # imported here: scipy.stats takes about 0.6 s to import, and every process that
    # imports cubecore (each app server, each rollout worker) would pay it at start
    from scipy import stats

    density = np.asarray(stats.beta.pdf((points + 1.0) / 2.0, spread.alpha, spread.beta)) / 2.0
    return np.where(np.isfinite(density), density, np.nan)


def next_equity_spread(equity: ArrayLike, volatility: ArrayLike) -> BetaSpread:
    """Beta law of the next-exchange winning chance for today's equity and volatility.

    The next-exchange cubeless equity ``e'`` has mean ``equity`` (equities are
    martingales) and standard deviation ``volatility``; ``w' = (e' + 1) / 2``
    is Beta(``alpha``, ``beta``) with

    .. math:: \\alpha + \\beta = \\frac{1 - e^2}{\\sigma^2} - 1, \\quad
              \\alpha = w (\\alpha + \\beta), \\quad \\beta = (1 - w)(\\alpha + \\beta).

    Parameters
    ----------
    equity : array_like
        Today's cubeless equity ``e`` in (-1, 1).
    volatility : array_like
        ``sigma``, the standard deviation of ``e'``, with
        ``0 < sigma**2 < 1 - e**2`` and ``sigma >= MIN_VOLATILITY`` (a law on
        [-1, 1] with mean ``e`` has variance at most ``1 - e**2``, reached only by
        the two-point law on -1 and +1).

    Returns
    -------
    BetaSpread

    Notes
    -----
    ``volatility = 0`` is the point mass at ``e`` and has no Beta parameters
    (``alpha + beta`` infinite): it is rejected here, and handled as its own
    branch in :func:`volatility_doubling_gain`. This is a modelling choice for
    section 3a, not taken from [KW].

    Examples
    --------
    >>> spread = next_equity_spread(0.0, 0.5)
    >>> round(spread.alpha, 12), round(spread.beta, 12)
    (1.5, 1.5)
    """
    e, sigma = _check_spread(equity, volatility)
    if np.any(sigma == 0.0):
        raise ValueError("`volatility` must be positive for a Beta spread")
    alpha, beta = _beta_parameters(e, sigma)
    return BetaSpread(_as_output(alpha), _as_output(beta))


_MERGE_KINKS = 1e-12  # kinks closer than this share a piece: the kink error is O(1e-12)


def _gain_pieces(
    cube: CubePosition, g: float, g_c: float
) -> tuple[
    NDArray[np.float64],
    NDArray[np.float64],
    NDArray[np.float64],
    NDArray[np.float64],
    NDArray[np.float64],
]:
    """The gain as a continuous piecewise-linear function of ``w`` on [0, 1].

    Returns ``(lo, hi, mid, value_at_mid, slope)`` arrays, one entry per piece
    between consecutive kinks (give-up points, doubling and market-losing points).
    """
    e_d = _doubling_point(cube, g, g_c)
    kinks = [0.0, 1.0, 1.0 - g, g, 1.0 - g_c, g_c, (1.0 + e_d) / 2.0, 1.0 - g / 4.0]
    edges = [0.0]
    for kink in np.unique(np.clip(kinks, 0.0, 1.0))[1:]:
        if kink - edges[-1] > _MERGE_KINKS:
            edges.append(float(kink))
    edges[-1] = 1.0  # a kink merged into 1 leaves no gap
    lo, hi = np.array(edges[:-1]), np.array(edges[1:])
    mid = (lo + hi) / 2.0
    left, right = lo + (hi - lo) / 4.0, hi - (hi - lo) / 4.0  # inside: clear of the kinks
    value = _gain(2.0 * mid - 1.0, cube, g, g_c)
    slope = (_gain(2.0 * right - 1.0, cube, g, g_c) - _gain(2.0 * left - 1.0, cube, g, g_c)) / (
        right - left
    )
    return lo, hi, mid, value, slope


@_give_up_doc
def volatility_doubling_gain(
    equity: ArrayLike,
    volatility: ArrayLike,
    cube: DoublingCube = "center",
    give_ups: GiveUpPoints = ESSAY_GIVE_UPS,
) -> float | NDArray[np.float64]:
    """Net gain of doubling now when the next equity is spread around today's.

    ``E[G(e')]`` with ``G`` = :func:`doubling_gain` and ``w' = (e' + 1)/2`` Beta
    distributed as in :func:`next_equity_spread` (mean ``e``, sd ``volatility``).
    ``G`` is continuous and piecewise linear in ``w'``, so on each piece
    ``[l, h]`` with ``G = G(m) + s (w' - m)``

    .. math:: E[G 1_{[l,h]}] = (G(m) - s m)\\,[I_h(\\alpha, \\beta) - I_l(\\alpha, \\beta)]
              + s \\frac{\\alpha}{\\alpha + \\beta}
              [I_h(\\alpha + 1, \\beta) - I_l(\\alpha + 1, \\beta)],

    ``I`` the regularized incomplete beta function: the expectation is exact up to
    rounding (no Monte Carlo, no truncated quadrature).

    Parameters
    ----------
    equity : array_like
        Today's cubeless equity in [-1, 1].
    volatility : array_like
        Standard deviation of the next-exchange equity: 0, or at least
        ``MIN_VOLATILITY`` with ``volatility**2 < 1 - equity**2``. Broadcast
        against ``equity``.
    {doubling_cube}
    {give_ups}

    Returns
    -------
    float or ndarray
        Net gain (positive: double now).

    Notes
    -----
    ``volatility = 0`` is the point mass at ``equity``: the gain is
    ``G(equity)`` (named branch, and the limit of the Beta expectation).
    ``equity = +-1`` admits only ``volatility = 0``.

    Examples
    --------
    >>> round(volatility_doubling_gain(0.200, 0.0), 3)  # [KW] cost .159 at e = .200
    -0.159
    """
    g, g_c = _check_give_ups(give_ups)
    cube = choice("cube", cube, DOUBLING_CUBES)
    e, sigma = _check_spread(equity, volatility)
    point_mass = sigma == 0.0
    # Dummy parameters where sigma == 0 keep betainc finite; those entries are replaced below.
    alpha, beta = _beta_parameters(np.where(point_mass, 0.0, e), np.where(point_mass, 0.5, sigma))
    mean = alpha / (alpha + beta)
    total = np.zeros(np.broadcast(e, sigma).shape)
    for lo, hi, mid, value, slope in zip(*_gain_pieces(cube, g, g_c), strict=True):
        mass = special.betainc(alpha, beta, hi) - special.betainc(alpha, beta, lo)
        first_moment = mean * (
            special.betainc(alpha + 1.0, beta, hi) - special.betainc(alpha + 1.0, beta, lo)
        )
        total = total + (value - slope * mid) * mass + slope * first_moment
    result = np.where(point_mass, _gain(e, cube, g, g_c), total)
    return _as_output(result)


# ---------------------------------------------------------------- equivalences (4)


class EffectiveDoublingPoints(NamedTuple):
    """Effective doubling points of [ZK77]: ``da`` for the owner, ``db = 1 - da``."""

    da: float
    db: float


def effective_points_from_give_up(give_up: float) -> EffectiveDoublingPoints:
    """[ZK77] effective doubling points equivalent to a give-up point: ``DA = g``,
    ``DB = 1 - g``.

    [ZK77] transforms the cubeless chance ``p`` into ``p/DA`` (A owns),
    ``(p - DB)/(1 - DB)`` (B owns) and ``(p - DB)/(DA - DB)`` (centre). With
    ``DA = g``, ``DB = 1 - g`` the first two are Woolsey's owned/opponent
    transforms; with ``DA = g_c``, ``DB = 1 - g_c`` the third is his centred one.

    Parameters
    ----------
    give_up : float
        ``g`` or ``g_c`` in (1/2, 1].

    Returns
    -------
    EffectiveDoublingPoints

    Notes
    -----
    One [ZK77] pair drives all three transforms, so the give-up model equals the
    single-pair model only when ``g_c = g``; Woolsey's ``g_c = .835 < g = .86``
    needs the pair (.86, .14) after the double and (.835, .165) before it.
    ``g = 1/2`` would make ``DA = DB`` (the centred transform divides by zero).

    Examples
    --------
    >>> points = effective_points_from_give_up(0.86)
    >>> round(points.da, 12), round(points.db, 12)  # [KW] ".86" and ".14"
    (0.86, 0.14)
    """
    g = _check_give_up("give_up", give_up)
    return EffectiveDoublingPoints(da=g, db=1.0 - g)


def cube_life_from_give_up(give_up: float, cube: CubePosition = "owned") -> float:
    """Janowski cube life ``x`` that reproduces the give-up transform (``W = L = 1``).

    In Janowski's model ``E = x E_live + (1 - x)(2p - 1)`` with the live cube linear
    between the take point .2 and the cash point .8 [JR12]. Matching slopes in the
    linear region:

    * owned or opponent's cube (live slope 5/2 on [0, .8] resp. [.2, 1]):
      ``2/g = 2 + x/2``, so ``x = 4 (1/g - 1)``;
    * centred cube (live slope 10/3 on [.2, .8]): ``2/(2 g_c - 1) = 2 + 4x/3``, so
      ``x = 3/2 (1/(2 g_c - 1) - 1)``.

    The intercepts then agree too, so the equities coincide on the linear region
    (``p <= min(.8, g)`` owned, ``p >= max(.2, 1 - g)`` opponent's,
    ``[max(.2, 1 - g_c), min(.8, g_c)]`` centred).

    Parameters
    ----------
    give_up : float
        ``g`` (``cube`` "owned"/"opponent") or ``g_c`` (``cube`` "center"), in (1/2, 1].
    cube : {"center", "owned", "opponent"}

    Returns
    -------
    float
        ``x``; in [0, 1] iff the give-up point is in [.8, 1].

    Notes
    -----
    ``g = 1`` is the dead cube ``x = 0``, ``g = .8`` the live cube ``x = 1``.
    Below .8 the implied ``x`` exceeds 1, outside Janowski's range: the mapping
    breaks. Past the linear region the two models differ (Janowski's live cube
    cashes at .8, the give-up model keeps a linear equity up to ``g``). ``g`` and
    ``g_c`` map to the same ``x`` only if ``g_c = (3 + x)/(3 + 2x)``; the essay's
    .86 and .835 give ``x`` = .651 after the double but .739 before it.

    Examples
    --------
    >>> round(cube_life_from_give_up(0.86, "owned"), 3)  # from [KW] g = .86
    0.651
    """
    cube = choice("cube", cube, CUBE_POSITIONS)
    if cube == "center":
        g_c = _check_give_up("give_up", give_up)
        return 1.5 * (1.0 / (2.0 * g_c - 1.0) - 1.0)
    g = _check_give_up("give_up", give_up)
    return 4.0 * (1.0 / g - 1.0)


def give_up_from_cube_life(cube_life: float, cube: CubePosition = "owned") -> float:
    """Give-up point equivalent to a Janowski cube life (inverse of
    :func:`cube_life_from_give_up`): ``g = 4 / (4 + x)``, ``g_c = (3 + x)/(3 + 2x)``.

    Parameters
    ----------
    cube_life : float
        ``x`` in [0, 1].
    cube : {"center", "owned", "opponent"}

    Returns
    -------
    float
        ``g`` (owned/opponent) or ``g_c`` (centre), in [.8, 1].

    Examples
    --------
    >>> round(give_up_from_cube_life(1.0, "center"), 12)  # live cube: the 80 % point
    0.8
    """
    cube = choice("cube", cube, CUBE_POSITIONS)
    x = real_in_range("cube_life", cube_life, 0.0, 1.0)
    if cube == "center":
        return (3.0 + x) / (3.0 + 2.0 * x)
    return 4.0 / (4.0 + x)


@dataclass(frozen=True)
class ModelEquivalences:
    """A give-up pair ``g``, ``g_c`` as effective doubling points and Janowski cube lives.

    Attributes
    ----------
    da, db : float
        ``DA = g``, ``DB = 1 - g``: [ZK77]'s points for the owned and opponent cube.
    da_center, db_center : float
        ``DA = g_c``, ``DB = 1 - g_c``: the pair of the centred transform.
    x_own, x_center : float
        Janowski cube lives implied by ``g`` (cube turned) and ``g_c`` (centred).
    g_c_matching : float or None
        The ``g_c`` implying the cube life ``x_own`` (None when ``x_own`` is outside
        [0, 1]).
    zk77_max_difference : float or None
        Largest gap between the give-up model's transforms (conceded) and [ZK77]'s
        (:func:`cubecore.race.cube_win_probability`) with ``DA = g``, ``DB = 1 - g``,
        owned and opponent cube, each on its cube state's domain (201 points); None
        when ``g < .8``, below the range [ZK77] states for ``DA`` (p. 2).
    """

    da: float
    db: float
    da_center: float
    db_center: float
    x_own: float
    x_center: float
    g_c_matching: float | None
    zk77_max_difference: float | None


#: Points per cube state on which :func:`model_equivalences` compares the transforms.
_EQUIVALENCE_POINTS = 201
#: Lower end of the range [ZK77] states for DA ("DA lies between 0.80 and 1", p. 2).
_ZK77_STATED_MIN_DA = 0.8


@_give_up_doc
def model_equivalences(give_ups: GiveUpPoints = ESSAY_GIVE_UPS) -> ModelEquivalences:
    """Give-up points as [ZK77] effective doubling points and as Janowski cube lives.

    ``DA = g``, ``DB = 1 - g`` (:func:`effective_points_from_give_up`), the cube
    lives ``x = 4 (1/g - 1)`` and ``x_c = 1.5 (1/(2 g_c - 1) - 1)``
    (:func:`cube_life_from_give_up`) and where the mapping holds.

    {give_ups_parameters}

    Returns
    -------
    ModelEquivalences

    Examples
    --------
    At the Keeler-Spencer limit every model is the live cube:

    >>> m = model_equivalences(GiveUpPoints(0.8, 0.8))
    >>> round(m.x_own, 12), round(m.x_center, 12), round(m.g_c_matching, 12)
    (1.0, 1.0, 0.8)
    """
    g, g_c = _check_give_ups(give_ups)
    own = effective_points_from_give_up(g)
    center = effective_points_from_give_up(g_c)
    x_own = cube_life_from_give_up(g, "owned")
    x_center = cube_life_from_give_up(g_c, "center")
    matching = give_up_from_cube_life(x_own, "center") if 0.0 <= x_own <= 1.0 else None
    gap = None
    if own.da >= _ZK77_STATED_MIN_DA:
        gaps = []
        sides: tuple[tuple[CubePosition, float, float], ...] = (
            ("owned", 0.0, own.da),
            ("opponent", own.db, 1.0),
        )
        for cube, low, high in sides:
            w = np.linspace(low, high, _EQUIVALENCE_POINTS)
            woolsey = modified_win_probability(2.0 * w - 1.0, cube, give_ups)
            zk = race.cube_win_probability(w, own.da, own.db, cube)
            gaps.append(float(np.max(np.abs(woolsey - zk))))
        gap = max(gaps)
    return ModelEquivalences(
        da=own.da,
        db=own.db,
        da_center=center.da,
        db_center=center.db,
        x_own=x_own,
        x_center=x_center,
        g_c_matching=matching,
        zk77_max_difference=gap,
    )


@_give_up_doc
def janowski_comparison(
    w: ArrayLike, give_ups: GiveUpPoints = ESSAY_GIVE_UPS
) -> pd.DataFrame | None:
    """Give-up-model equities beside Janowski's with the cube lives they imply.

    Janowski's cubeful equity ([JR12], ``W = L = 1``) with ``x = 4 (1/g - 1)`` for the
    owned and opponent-owned cube and ``x_c = 1.5 (1/(2 g_c - 1) - 1)`` for the
    centred one (:func:`cube_life_from_give_up`): the two models agree in the linear
    region and part beyond it (Janowski's live cube cashes at .8).

    Parameters
    ----------
    w : array_like
        Cubeless winning chances in [0, 1].
    {give_ups}

    Returns
    -------
    pandas.DataFrame or None
        ``w`` and, per cube position, ``giveup_<cube>`` (:func:`modified_equity`) and
        ``janowski_<cube>``; None when an implied cube life is outside Janowski's
        [0, 1] (a give-up point below .8).

    Examples
    --------
    >>> t = janowski_comparison([0.5], GiveUpPoints(0.8, 0.8))  # the live cube: both models agree
    >>> float(t["giveup_owned"][0]), round(float(t["janowski_owned"][0]), 12)
    (0.25, 0.25)
    >>> janowski_comparison([0.5], GiveUpPoints(0.7, 0.835)) is None
    True
    """
    g, g_c = _check_give_ups(give_ups)
    chances = np.atleast_1d(array_in_range("w", w, 0.0, 1.0)).ravel()
    x_own = cube_life_from_give_up(g, "owned")
    x_center = cube_life_from_give_up(g_c, "center")
    if not (0.0 <= x_own <= 1.0 and 0.0 <= x_center <= 1.0):
        return None
    frame: dict[str, NDArray[np.float64]] = {"w": chances}
    for cube in CUBE_POSITIONS:
        x = x_center if cube == "center" else x_own
        frame[f"giveup_{cube}"] = np.asarray(modified_equity(2.0 * chances - 1.0, cube, give_ups))
        frame[f"janowski_{cube}"] = janowski.cubeful_equity(chances, x, cube)
    return pd.DataFrame(frame)


# ------------------------------------------------------------------ real dice (3b)


@dataclass(frozen=True)
class RaceDoublingVerdict:
    """The essay's procedure on a race position, beside the exact optimal action.

    Attributes
    ----------
    cubeless_equity : float
        Roller's cubeless equity now (weighted mean of the next-exchange equities).
    net_gain : float
        :func:`net_doubling_gain` over the 1296 two-roll sequences.
    market_lost_chance, window_chance, too_weak_chance : float
        Probability that the next-exchange equity lands above the market-losing
        equity, inside the double/take window, below the doubling point.
    action : str
        Give-up model's verdict, one of ``race.ACTIONS``.
    optimal_action : str
        The exact optimal race strategy's action (:func:`cubecore.race.race_cube_equities`).
    """

    cubeless_equity: float
    net_gain: float
    market_lost_chance: float
    window_chance: float
    too_weak_chance: float
    action: str
    optimal_action: str

    @property
    def agrees(self) -> bool:
        """Whether the give-up model and the exact race strategy take the same action."""
        return self.action == self.optimal_action


@_give_up_doc
def race_doubling_verdict(
    on_roll: int,
    opponent: int,
    cube: DoublingCube = "center",
    give_ups: GiveUpPoints = ESSAY_GIVE_UPS,
) -> RaceDoublingVerdict:
    """Should the roller double in a race? [KW]'s procedure on the 1296 two-roll sequences.

    [KW]: "Look at the 1296 possible pairs of initial rolls and responses ... For each
    of these equities, determine the gain or loss from doubling. Add them up, divide
    by 1296". The next-exchange cubeless equities come from
    :func:`cubecore.race.next_exchange_equities` (the [ZK77] race model).

    Parameters
    ----------
    on_roll, opponent : int
        Pip counts of the roller and his opponent, whole numbers in [1, 375].
    {doubling_cube}
    {give_ups}

    Returns
    -------
    RaceDoublingVerdict

    Notes
    -----
    Verdict: "double/pass" if today's cubeless equity is above the market-losing
    equity (the taker's modified chance is below 1/4); otherwise "double/take" if
    the net gain is positive, else "no double" (a zero gain does not double).
    A roll that bears off ends the game (equity +-1), which ``doubling_gain``
    treats like any other equity.

    Examples
    --------
    >>> v = race_doubling_verdict(70, 80)
    >>> v.action, v.optimal_action
    ('double/take', 'double/take')
    """
    g, g_c = _check_give_ups(give_ups)
    cube = choice("cube", cube, DOUBLING_CUBES)
    sequences = race.next_exchange_equities(on_roll, opponent)
    e_next = sequences["equity"].to_numpy(dtype=float)
    weight = sequences["weight"].to_numpy(dtype=float)
    weight = weight / weight.sum()
    e_m = 1.0 - g / 2.0
    e_d = _doubling_point(cube, g, g_c)
    cubeless = float(np.dot(weight, e_next))
    net_gain = net_doubling_gain(e_next, cube, weight, give_ups)
    if cubeless > e_m:
        action = race.ACTIONS[2]  # double/pass: past the market already
    elif net_gain > 0.0:
        action = race.ACTIONS[1]  # double/take
    else:
        action = race.ACTIONS[0]  # no double
    return RaceDoublingVerdict(
        cubeless_equity=cubeless,
        net_gain=net_gain,
        market_lost_chance=float(weight[e_next > e_m].sum()),
        window_chance=float(weight[(e_next >= e_d) & (e_next <= e_m)].sum()),
        too_weak_chance=float(weight[e_next < e_d].sum()),
        action=action,
        optimal_action=race.race_cube_equities(on_roll, opponent, cube).action,
    )


@_give_up_doc
def race_sequence_gains(
    on_roll: int,
    opponent: int,
    cube: DoublingCube = "center",
    give_ups: GiveUpPoints = ESSAY_GIVE_UPS,
) -> pd.DataFrame:
    """[KW]'s 1296 two-roll sequences of a race with the gain of doubling at each.

    Parameters
    ----------
    on_roll, opponent : int
        Pip counts, whole numbers in [1, 375].
    {doubling_cube}
    {give_ups}

    Returns
    -------
    pandas.DataFrame
        :func:`cubecore.race.next_exchange_equities` (one row per pair of dice
        totals, ``equity`` and ``weight``) plus ``gain`` (:func:`doubling_gain` at
        the next equity) and ``sequences`` (``weight * 1296``, of the 1296 sequences).

    Examples
    --------
    >>> t = race_sequence_gains(70, 80)
    >>> int(t["sequences"].sum())
    1296
    """
    _check_give_ups(give_ups)
    cube = choice("cube", cube, DOUBLING_CUBES)
    frame = race.next_exchange_equities(on_roll, opponent)
    frame["gain"] = doubling_gain(frame["equity"].to_numpy(), cube, give_ups)
    frame["sequences"] = np.rint(frame["weight"] * 1296).astype(int)
    return frame
