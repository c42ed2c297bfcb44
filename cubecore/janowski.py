"""Janowski's cube life index: cubeful equity between the dead and the live cube.

The model, exactly as [JR12]_ states it: the cubeful equity of a money game, per
unit of the current cube, is the linear interpolation

.. math:: E(P) = x \\, E_{\\mathrm{live}}(P) + (1 - x) \\, E_{\\mathrm{dead}}(P)

between the dead-cube equity :math:`E_{\\mathrm{dead}} = P (W + L) - L` and a
piecewise-linear live-cube equity whose corners are the live take point
:math:`TP = (L - 1/2)/(W + L + 1/2)` and cash point :math:`CP = (L + 1)/(W + L + 1/2)`.
``x`` is the cube life index (0: dead cube, 1: perfectly live cube), ``W`` and ``L``
the average values of a win and a loss (gammons included), ``P`` the cubeless
winning probability of the player whose view we take.

Every decision point comes from comparing cubeful equities, as [JR12]_ insists:
take when owning the doubled cube is worth more than passing; double when the
value of doubling, ``min(2 E(opponent owns), +1)``, beats the equity at the
current cube. The points are found by root finding on those comparisons; the
closed forms in the tests are only a cross-check.

References
----------
.. [JR12] "Janowski model revisited", blog post, 28 March 2012
   (:data:`cubecore.references.REFERENCES` ``["JR12"]``).
.. [RJ93] R. Janowski, "Take-Points in Money Games", 1993 (the original
   centred-cube formula, eq. for E quoted in the page).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypeVar

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from cubecore._validate import array_in_range, choice, flag, real_in_range

#: A probability or an array of them (the private model helpers take either, and give the same).
_Probabilities = TypeVar("_Probabilities", float, NDArray[np.float64])

__all__ = [
    "CUBE_POSITIONS",
    "MAX_SWEEP_POINTS",
    "CubeDecision",
    "CubePoints",
    "CubePosition",
    "DoublingCube",
    "TwoIndexPoints",
    "cube_decision",
    "cube_points",
    "cube_points_sweep",
    "cubeful_equity",
    "dead_cube_equity",
    "janowski_1993_center_equity",
    "live_cash_point",
    "live_cube_equity",
    "live_take_point",
    "two_index_points",
    "two_index_sweep",
]

#: Where the cube is, always seen from the player whose winning probability is ``p``.
CubePosition = Literal["center", "owned", "opponent"]
#: The cube positions from which that player may double.
DoublingCube = Literal["center", "owned"]
#: Cube positions, always seen from the player whose winning probability is ``p``.
CUBE_POSITIONS: tuple[CubePosition, ...] = ("center", "owned", "opponent")
#: Most cube lives one :func:`cube_points_sweep` solves (each ~1 ms; the app draws 101).
MAX_SWEEP_POINTS = 1_000

#: Where the model says a decision point is never reached.
NEVER = 1.0

_BRACKET_GRID = np.linspace(0.0, 1.0, 4001)
_TIE = 1e-12  # equities are O(1): differences below this are rounding, i.e. ties


def _check_gammon_values(W: float, L: float) -> tuple[float, float]:
    W = real_in_range("W", W, 1.0, np.inf)
    L = real_in_range("L", L, 1.0, np.inf)
    return W, L


def _live_points(W: float, L: float) -> tuple[float, float]:
    """The live cube's take and cash points ``(TP, CP)`` of [JR12]_: the corners of its equity."""
    return (L - 0.5) / (W + L + 0.5), (L + 1.0) / (W + L + 0.5)


def live_take_point(W: float = 1.0, L: float = 1.0) -> float:
    """Live-cube take point ``TP = (L - 1/2) / (W + L + 1/2)`` of [JR12]_.

    After taking, the taker owns the 2-cube; with a live cube his equity per unit
    rises linearly from ``-L`` at 0 to ``+1`` at his cash point ``CP``. Taking is
    worth passing (``-1`` on the 2-cube, ``-1/2`` per unit) at ``TP = (L - 1/2) CP / (L + 1)``.

    Parameters
    ----------
    W, L : float
        Average value of a win and of a loss of the taker (>= 1; 1 means no gammons).

    Returns
    -------
    float
        The taker's winning probability at which taking and passing are worth the same.

    Examples
    --------
    >>> round(live_take_point(), 12)
    0.2
    """
    return _live_points(*_check_gammon_values(W, L))[0]


def live_cash_point(W: float = 1.0, L: float = 1.0) -> float:
    """Live-cube cash point ``CP = (L + 1) / (W + L + 1/2)`` of [JR12]_.

    It is one minus the opponent's take point (:func:`live_take_point`), his ``W``
    and ``L`` being the doubler's ``L`` and ``W``: ``1 - (W - 1/2)/(W + L + 1/2)``.

    Parameters
    ----------
    W, L : float
        As in :func:`live_take_point`, but the doubler's.

    Returns
    -------
    float
        The doubler's winning probability above which his opponent passes a double.

    Examples
    --------
    >>> round(live_cash_point(), 12)
    0.8
    """
    return _live_points(*_check_gammon_values(W, L))[1]


def dead_cube_equity(p: ArrayLike, W: float = 1.0, L: float = 1.0) -> NDArray[np.float64]:
    """Dead-cube equity ``P (W + L) - L`` per unit of the current cube ([JR12]_).

    Examples
    --------
    >>> float(dead_cube_equity(0.75))
    0.5
    """
    W, L = _check_gammon_values(W, L)
    p = array_in_range("p", p, 0.0, 1.0)
    return p * (W + L) - L


def _implied_life(
    cubeful: NDArray[np.float64],
    dead: NDArray[np.float64],
    live: NDArray[np.float64],
    tolerance: float = 1e-12,
) -> NDArray[np.float64]:
    """Cube life ``x`` solving ``cubeful = (1 - x) dead + x live`` ([RJ93]_; the model
    equation of :func:`cubeful_equity`, read backwards).

    NaN where the live and the dead cube agree within ``tolerance`` (``x`` undefined).
    Shared by the race models (money and match) and the bear-off comparison.
    """
    gap = live - dead
    defined = np.abs(gap) > tolerance
    life: NDArray[np.float64] = np.where(
        defined, (cubeful - dead) / np.where(defined, gap, 1.0), np.nan
    )
    return life


def _live_corners(
    cube: CubePosition, W: float, L: float, jacoby: bool
) -> tuple[list[float], list[float]]:
    """Corners (P, equity) of the piecewise-linear live-cube equity, [JR12]_ cases 1-3."""
    tp, cp = _live_points(W, L)
    if cube == "center":
        if jacoby:  # with the cube centred gammons do not count: the ends are -1 and +1
            return [0.0, tp, cp, 1.0], [-1.0, -1.0, 1.0, 1.0]
        return [0.0, tp, cp, 1.0], [-L, -1.0, 1.0, W]
    if cube == "owned":
        return [0.0, cp, 1.0], [-L, 1.0, W]
    return [0.0, tp, 1.0], [-L, -1.0, W]


def live_cube_equity(
    p: ArrayLike,
    cube: CubePosition,
    W: float = 1.0,
    L: float = 1.0,
    *,
    jacoby: bool = False,
) -> NDArray[np.float64]:
    """Live-cube (perfectly efficient cube) equity of [JR12]_, per unit of the cube.

    Parameters
    ----------
    p : array_like
        Cubeless winning probability of the player, in [0, 1].
    cube : {"center", "owned", "opponent"}
        Cube position seen from that player.
    W, L : float
        Average value of a win and of a loss (>= 1; 1 means no gammons).
    jacoby : bool
        Jacoby rule: with the cube centred, gammons do not count (the ends of the
        centred curve are -1 and +1); the take and cash points, which concern the
        turned cube, keep ``W`` and ``L``.

    Notes
    -----
    Piecewise linear through the corners ([JR12]_, cases 1-3):
    centred ``(0, -L), (TP, -1), (CP, 1), (1, W)``; owned ``(0, -L), (CP, 1), (1, W)``;
    opponent owns ``(0, -L), (TP, -1), (1, W)``.

    Examples
    --------
    >>> round(float(live_cube_equity(0.8, "center")), 12)
    1.0
    """
    W, L = _check_gammon_values(W, L)
    cube = choice("cube", cube, CUBE_POSITIONS)
    p = array_in_range("p", p, 0.0, 1.0)
    corners_p, corners_e = _live_corners(cube, W, L, flag("jacoby", jacoby))
    return np.interp(p, corners_p, corners_e)


def _dead_equity(
    p: _Probabilities, cube: CubePosition, W: float, L: float, jacoby: bool
) -> _Probabilities:
    if jacoby and cube == "center":
        return 2.0 * p - 1.0
    return p * (W + L) - L


def _model_equity(
    p: _Probabilities, x: float, cube: CubePosition, W: float, L: float, jacoby: bool = False
) -> _Probabilities:
    """Unchecked model equity ``x * live + (1 - x) * dead`` (the checked form is public)."""
    corners_p, corners_e = _live_corners(cube, W, L, jacoby)
    live = np.interp(p, corners_p, corners_e)
    return x * live + (1.0 - x) * _dead_equity(p, cube, W, L, jacoby)


def cubeful_equity(
    p: ArrayLike,
    x: float,
    cube: CubePosition,
    W: float = 1.0,
    L: float = 1.0,
    *,
    jacoby: bool = False,
) -> NDArray[np.float64]:
    """Cubeful equity of the Janowski model, per unit of the current cube.

    .. math:: E = x \\, E_{\\mathrm{live}}(P) + (1 - x) \\, (P (W + L) - L)

    Parameters
    ----------
    p : array_like
        Cubeless winning probability of the player, in [0, 1] (vectorized).
    x : float
        Cube life index in [0, 1]: 0 is the dead cube, 1 the live cube.
    cube : {"center", "owned", "opponent"}
        Cube position, seen from the player whose winning probability is ``p``.
    W, L : float
        Average value of a win and of a loss, >= 1.
    jacoby : bool
        Jacoby rule (money play): with the cube centred gammons do not count.

    Returns
    -------
    ndarray
        The equity, same shape as ``p``.

    References
    ----------
    [JR12]_: "the Janowski model equity is x * live cube equity + (1-x) * dead
    cube equity".

    Examples
    --------
    At x = 1 and W = L = 1 the cube owner is worth +1 at the 80% cash point:

    >>> round(float(cubeful_equity(0.8, 1.0, "owned")), 12)
    1.0
    """
    W, L = _check_gammon_values(W, L)
    x = real_in_range("x", x, 0.0, 1.0)
    cube = choice("cube", cube, CUBE_POSITIONS)
    p = array_in_range("p", p, 0.0, 1.0)
    return _model_equity(p, x, cube, W, L, flag("jacoby", jacoby))


def janowski_1993_center_equity(
    p: ArrayLike, x: float, W: float = 1.0, L: float = 1.0
) -> NDArray[np.float64]:
    """Janowski's original centred-cube formula ([RJ93]_), for comparison.

    .. math:: E = \\frac{4}{4 - x} \\left[ P (W + L + x/2) - L - x/4 \\right]

    It agrees with the interpolation of [JR12]_ between the take and cash points
    only at ``x = 0`` and ``x = 1``.

    Examples
    --------
    >>> round(float(janowski_1993_center_equity(0.5, 1.0)), 12)
    0.0
    """
    W, L = _check_gammon_values(W, L)
    x = real_in_range("x", x, 0.0, 1.0)
    p = array_in_range("p", p, 0.0, 1.0)
    return 4.0 / (4.0 - x) * (p * (W + L + x / 2.0) - L - x / 4.0)


def _grid_with(knots: tuple[float, ...]) -> NDArray[np.float64]:
    """``_BRACKET_GRID`` with the knots (clipped to [0, 1]) inserted in order.

    The same array as ``np.union1d(_BRACKET_GRID, knots)`` without sorting the
    4001-point grid again on every call (this runs hundreds of times per sweep).
    """
    extra = np.unique(np.clip(np.asarray(knots, dtype=float), 0.0, 1.0))
    where = np.searchsorted(_BRACKET_GRID, extra)
    inside = np.minimum(where, _BRACKET_GRID.size - 1)
    new = _BRACKET_GRID[inside] != extra
    return np.insert(_BRACKET_GRID, where[new], extra[new])


def _first_crossing(
    gap: Callable[[NDArray[np.float64]], NDArray[np.float64]],
    knots: tuple[float, ...] = (),
    *,
    strict: bool = False,
) -> float:
    """Smallest P in [0, 1] where ``gap(P) >= 0`` (``> 0`` if strict; ``NEVER`` if none).

    ``gap`` is piecewise linear in P with its corners at ``knots`` (take and cash
    points). On a grid that contains the corners, ``gap`` is linear between
    neighbouring grid points, so the first sign change is bracketed by the grid,
    even where ``gap`` only touches zero at a corner (the live cube, where
    doubling, cashing and playing on tie at the cash point), and solved exactly by
    linear interpolation. Differences within ``_TIE`` of zero count as ties, so
    that rounding in the equities cannot hide a tie.
    """
    grid = _grid_with(knots)
    values = gap(grid)
    reached = values > _TIE if strict else values >= -_TIE
    hits = np.flatnonzero(reached)
    if hits.size == 0:
        return NEVER
    first = int(hits[0])
    if first == 0:
        return 0.0
    low, high = grid[first - 1], grid[first]
    gap_low, gap_high = values[first - 1], values[first]
    if not strict and gap_high <= 0.0:  # touches zero at the grid point
        return float(high)
    share = np.clip(-gap_low / (gap_high - gap_low), 0.0, 1.0)
    return float(low + share * (high - low))


@dataclass(frozen=True)
class CubePoints:
    """Decision points of the Janowski model, each in the deciding player's probability.

    Attributes
    ----------
    take_point : float
        Taker's winning probability at which taking and passing are equal.
    cash_point : float
        Doubler's winning probability at which the taker starts to pass.
    beaver_point : float
        Taker's winning probability above which beavering beats taking.
    raccoon_point : float
        Doubler's winning probability above which a raccoon beats accepting the beaver.
    initial_double_point, redouble_point : float
        Doubler's winning probability from which doubling (from the centre, or
        redoubling an owned cube) beats holding.
    too_good_center, too_good_owned : float
        Doubler's winning probability from which playing on beats cashing.
    """

    take_point: float
    cash_point: float
    beaver_point: float
    raccoon_point: float
    initial_double_point: float
    redouble_point: float
    too_good_center: float
    too_good_owned: float


@dataclass(frozen=True)
class TwoIndexPoints:
    """Decision points when the doubler and the taker have their own cube life index.

    All in the doubler's winning probability; W and L are the doubler's.

    Attributes
    ----------
    initial_double_point, redouble_point : float
        Where doubling beats holding in the doubler's model (his ``x``).
    perceived_cash_point : float
        Where the doubler's model (his ``x``) says the taker should pass.
    actual_cash_point : float
        Where the taker, using his own ``x``, actually passes.
    too_good_center, too_good_owned : float
        Where the doubler, in his model, prefers playing on to cashing.
    take_point : float
        The taker's take point in his own winning probability (his ``x``).
    """

    initial_double_point: float
    redouble_point: float
    perceived_cash_point: float
    actual_cash_point: float
    too_good_center: float
    too_good_owned: float
    take_point: float


def _take_point(x: float, W: float, L: float) -> float:
    """Taker's P where owning the 2-cube equals passing: ``2 E_owned(P) = -1``."""
    cash = _live_points(W, L)[1]
    return _first_crossing(lambda q: 2.0 * _model_equity(q, x, "owned", W, L) + 1.0, (cash,))


def _doubling_value(
    p: _Probabilities, x: float, W: float, L: float, beavers: bool = False
) -> _Probabilities:
    """Doubler's value of doubling in his own model: ``min(2 E_opponent, +1)``.

    With beavers, a taker whose take is worth more than nothing to him
    (``2 E_opponent < 0`` for the doubler) beavers: the cube goes to 4 on his side
    and the double is worth ``4 E_opponent`` to the doubler.
    """
    double_take = 2.0 * _model_equity(p, x, "opponent", W, L)
    if beavers:
        double_take = np.where(double_take < 0.0, 2.0 * double_take, double_take)  # type: ignore[assignment]
    return np.minimum(double_take, 1.0)  # type: ignore[no-any-return]  # a float for a float


def _doubler_points(
    x: float, W: float, L: float, jacoby: bool, beavers: bool = False
) -> dict[str, float]:
    """Double, redouble and too-good points of the doubler, from his cubeful equities."""
    take, cash = _live_points(W, L)
    knots: tuple[float, ...] = (
        take,
        cash,
        1.0 - _take_point(x, L, W),  # where 2 E_opponent reaches +1: the taker passes
    )
    if beavers:  # where 2 E_opponent crosses 0: the taker stops beavering (raccoon point)
        knots += (_first_crossing(lambda p: _model_equity(p, x, "opponent", W, L), (take,)),)

    def double_gap(cube: CubePosition) -> Callable[[NDArray[np.float64]], NDArray[np.float64]]:
        return lambda p: (
            _doubling_value(p, x, W, L, beavers) - _model_equity(p, x, cube, W, L, jacoby)
        )

    def too_good_gap(cube: CubePosition) -> Callable[[NDArray[np.float64]], NDArray[np.float64]]:
        # Too good: the taker would pass (doubling is worth +1) and holding is worth
        # strictly more; where holding only equals +1 (no gammons) it is never too good.
        def gap(p: NDArray[np.float64]) -> NDArray[np.float64]:
            holding = _model_equity(p, x, cube, W, L, jacoby)
            passes = 2.0 * _model_equity(p, x, "opponent", W, L) >= 1.0 - _TIE
            return np.where(passes, holding - 1.0, -1.0)

        return gap

    return {
        "initial_double_point": _first_crossing(double_gap("center"), knots),
        "redouble_point": _first_crossing(double_gap("owned"), knots),
        "too_good_center": _first_crossing(too_good_gap("center"), knots, strict=True),
        "too_good_owned": _first_crossing(too_good_gap("owned"), knots, strict=True),
    }


def cube_points(
    x: float, W: float = 1.0, L: float = 1.0, *, jacoby: bool = False, beavers: bool = False
) -> CubePoints:
    """All decision points of the Janowski model for one cube life index.

    Each point is found by comparing the model's cubeful equities ([JR12]_) and
    is expressed in the deciding player's own winning probability with that
    player's ``W`` and ``L``: the take and beaver points in the taker's, the
    others in the doubler's (the taker's W and L are then the doubler's L and W).
    A point the model never reaches is reported as 1.0.

    Parameters
    ----------
    x : float
        Cube life index in [0, 1].
    W, L : float
        Average value of a win and of a loss of the deciding player, >= 1.
    jacoby : bool
        Jacoby rule: gammons do not count while the cube is centred. It moves the
        initial double and too-good points; the others concern a turned cube.
    beavers : bool
        Beavers allowed (money play): a taker whose take is worth more than nothing
        to him beavers, and the double is then worth ``2 DT`` (the cube on 4) to the
        doubler. It moves only the initial double point under the Jacoby rule (see
        Notes); elsewhere holding the cube already beats a double that is beavered.

    Notes
    -----
    Conditions, with ``E_c``, ``E_o``, ``E_op`` the model equities for the cube
    centred, owned and owned by the opponent:

    - take: ``2 E_o(q) = -1`` in the taker's probability ``q``;
    - cash: one minus the taker's take point (taker's W, L = doubler's L, W);
    - beaver: ``4 E_o(q) = 2 E_o(q)``, i.e. ``E_o(q) = 0``;
    - raccoon: ``8 E_op(P) = 4 E_op(P)``, i.e. ``E_op(P) = 0``;
    - initial double / redouble: ``min(2 E_op(P), 1) = E_c(P)`` / ``= E_o(P)``;
    - too good: the taker passes and ``E_c(P)`` (or ``E_o(P)``) reaches +1. The
      model's cubeful equity, not the dead-cube equity, is compared with the
      double/pass value: the correction [JR12]_ makes to the author's earlier work.

    Closed forms (outside the Jacoby rule): take ``(L - 1/2)/(W + L + x/2)``,
    beaver ``L/(W + L + x/2)``, raccoon ``(L + x/2)/(W + L + x/2)``, redouble
    ``(L + x)/(W + L + x/2)``, cash ``(L + 1/2 + x/2)/(W + L + x/2)``.

    Jacoby rule with beavers. Below the raccoon point ``R`` (where ``E_op = 0``) the
    taker beavers and the double is worth ``4 E_op`` to the doubler; the initial
    double point is then the smallest ``P`` with ``min(DT*, 1) = E_c`` where
    ``DT* = 4 E_op`` below ``R`` and ``2 E_op`` above. With the dead cube (``x = 0``),
    ``E_c = 2P - 1`` and ``4 E_op = 4 (P (W + L) - L)``, so

    .. math:: P_{ID} = \\frac{L - 1/4}{W + L - 1/2}

    (without beavers ``(L - 1/2)/(W + L - 1)``), the value GNU Backgammon prints in
    ``show marketwindow`` (0.475 for W = 1.3, L = 1.2). For ``0 < x < 1`` the
    solution is linear on each piece between the corners ``TP``, ``R`` and ``CP``:
    inside the window (``TP <= P <= R``)
    ``x (-1 + 2 (P - TP)/(CP - TP)) + (1 - x)(2P - 1) = 4 [x (-1 + (W + 1)(P - TP)/(1 - TP))
    + (1 - x)(P (W + L) - L)]``; if the solution lies above ``R`` the beaver no
    longer applies and the point is the one without beavers. At ``x = 1`` the point
    is the cash point ``(L + 1)/(W + L + 1/2)`` with or without beavers.

    Examples
    --------
    The live cube with no gammons gives the 20% take and 80% cash points:

    >>> points = cube_points(1.0)
    >>> round(points.take_point, 12), round(points.cash_point, 12)
    (0.2, 0.8)
    """
    W, L = _check_gammon_values(W, L)
    x = real_in_range("x", x, 0.0, 1.0)
    return CubePoints(
        take_point=_take_point(x, W, L),
        # the cash point is where the taker passes; his W and L are the doubler's L and W
        cash_point=1.0 - _take_point(x, L, W),
        beaver_point=_first_crossing(
            lambda q: _model_equity(q, x, "owned", W, L), (live_cash_point(W, L),)
        ),
        raccoon_point=_first_crossing(
            lambda p: _model_equity(p, x, "opponent", W, L), (live_take_point(W, L),)
        ),
        **_doubler_points(x, W, L, flag("jacoby", jacoby), flag("beavers", beavers)),
    )


def two_index_points(
    x_doubler: float,
    x_taker: float,
    W: float = 1.0,
    L: float = 1.0,
) -> TwoIndexPoints:
    """Decision points when each player interpolates with his own cube life index.

    [JR12]_: "it makes it easy to generalize to two cube life indexes: each
    player's interpolation of equity uses their appropriate index". The doubler
    decides to double, redouble or play on with his ``x``; the taker decides to
    take or pass with his. Where the doubler's model says the taker should pass
    (perceived cash point) and where the taker actually passes part whenever the
    two indexes differ.

    Parameters
    ----------
    x_doubler, x_taker : float
        Cube life indexes in [0, 1].
    W, L : float
        The doubler's average win and loss values (the taker's are L and W).

    Examples
    --------
    >>> pts = two_index_points(0.7, 0.7)
    >>> abs(pts.perceived_cash_point - pts.actual_cash_point) < 1e-12
    True
    """
    W, L = _check_gammon_values(W, L)
    x_doubler = real_in_range("x_doubler", x_doubler, 0.0, 1.0)
    x_taker = real_in_range("x_taker", x_taker, 0.0, 1.0)
    doubler = _doubler_points(x_doubler, W, L, jacoby=False)
    return TwoIndexPoints(
        initial_double_point=doubler["initial_double_point"],
        redouble_point=doubler["redouble_point"],
        perceived_cash_point=1.0 - _take_point(x_doubler, L, W),
        actual_cash_point=1.0 - _take_point(x_taker, L, W),
        too_good_center=doubler["too_good_center"],
        too_good_owned=doubler["too_good_owned"],
        take_point=_take_point(x_taker, L, W),
    )


def two_index_sweep(
    x_doubler: float,
    x_takers: ArrayLike,
    W: float = 1.0,
    L: float = 1.0,
) -> pd.DataFrame:
    """Two-index decision points against the taker's cube life: one row per ``x_taker``.

    Returns a tidy DataFrame with column ``x_taker`` and one column per field of
    :class:`TwoIndexPoints` (:func:`two_index_points` at each taker's index, [JR12]_):
    the doubler's points stay put while the actual cash point moves with the taker's
    index.

    Examples
    --------
    >>> sweep = two_index_sweep(0.7, [0.5, 0.7])
    >>> (sweep["perceived_cash_point"] - sweep["actual_cash_point"]).round(4).tolist()
    [0.0095, 0.0]
    """
    takers = array_in_range("x_takers", x_takers, 0.0, 1.0, max_size=MAX_SWEEP_POINTS).ravel()
    W, L = _check_gammon_values(W, L)  # here too: an empty grid would never check them
    x_doubler = real_in_range("x_doubler", x_doubler, 0.0, 1.0)
    rows = [
        {"x_taker": float(x), **two_index_points(x_doubler, float(x), W, L).__dict__}
        for x in takers
    ]
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class CubeDecision:
    """The cube decision at one winning probability, with the equities that decide it.

    Equities are per unit of the current cube from the doubler's view.

    Attributes
    ----------
    no_double : float
        Equity of holding the cube at its current value.
    double_take, double_pass : float
        Value of doubling and being taken (``2 E_opponent``), and of a pass (+1).
    doubler_action : str
        "no double", "double/take", "double/pass" or "too good" (play on for more).
    taker_action : str
        "take", "pass" or "beaver", from the taker's own model.
    taker_take_equity : float
        The taker's equity if he takes, per unit of the current cube, his model.
    """

    no_double: float
    double_take: float
    double_pass: float
    doubler_action: str
    taker_action: str
    taker_take_equity: float


def cube_decision(
    p: float,
    x: float,
    cube: DoublingCube = "center",
    W: float = 1.0,
    L: float = 1.0,
    *,
    x_taker: float | None = None,
    jacoby: bool = False,
    beavers: bool = False,
) -> CubeDecision:
    """The doubler's and the taker's decision at winning probability ``p``.

    The doubler doubles when his doubling value ``min(2 E_opponent(p), +1)``
    beats holding ``E_cube(p)``; when holding is better and the taker would pass
    anyway he is too good. The taker (his own ``x``, W and L swapped) takes when
    owning the 2-cube beats -1, and, with ``beavers``, beavers when owning it is
    worth more than 0; the doubler (who expects the beaver in his own model, where
    ``2 E_opponent < 0``) then values the double at ``4 E_opponent(p)``. See
    :func:`cube_points` for the initial double point this gives under the Jacoby rule.

    Examples
    --------
    >>> cube_decision(0.7, 1.0).doubler_action
    'no double'
    >>> cube_decision(0.79, 0.0).doubler_action
    'double/pass'
    """
    W, L = _check_gammon_values(W, L)
    p = real_in_range("p", p, 0.0, 1.0)
    x = real_in_range("x", x, 0.0, 1.0)
    cube = choice("cube", cube, ("center", "owned"))
    x_taker = x if x_taker is None else real_in_range("x_taker", x_taker, 0.0, 1.0)
    beavers = flag("beavers", beavers)
    jacoby = flag("jacoby", jacoby)
    holding = float(_model_equity(p, x, cube, W, L, jacoby))
    double_take = float(2.0 * _model_equity(p, x, "opponent", W, L))
    taker_owned = float(_model_equity(1.0 - p, x_taker, "owned", L, W))
    if 2.0 * taker_owned < -1.0:
        taker_action = "pass"
    elif beavers and taker_owned > 0.0:
        taker_action = "beaver"
    else:
        taker_action = "take"
    doubling_value = float(_doubling_value(p, x, W, L, beavers))
    if doubling_value > holding:
        doubler_action = "double/pass" if taker_action == "pass" else "double/take"
    elif double_take >= 1.0:
        doubler_action = "too good"
    else:
        doubler_action = "no double"
    return CubeDecision(
        no_double=holding,
        double_take=double_take,
        double_pass=1.0,
        doubler_action=doubler_action,
        taker_action=taker_action,
        taker_take_equity=-2.0 * taker_owned,
    )


def cube_points_sweep(
    x_values: ArrayLike,
    W: float = 1.0,
    L: float = 1.0,
    *,
    jacoby: bool = False,
    beavers: bool = False,
) -> pd.DataFrame:
    """Decision points against the cube life index: one row per ``x``.

    Returns a tidy DataFrame with column ``x`` and one column per field of
    :class:`CubePoints`: the window from the initial double point to the cash
    point narrows as the cube comes alive (at ``x = 1`` the doubler waits for his
    cash point).

    Examples
    --------
    >>> cube_points_sweep([0.0, 1.0])["take_point"].round(6).tolist()
    [0.25, 0.2]
    """
    xs = array_in_range("x_values", x_values, 0.0, 1.0, max_size=MAX_SWEEP_POINTS).ravel()
    W, L = _check_gammon_values(W, L)  # here too: an empty grid would never check them
    jacoby, beavers = flag("jacoby", jacoby), flag("beavers", beavers)
    rows = [
        {"x": float(x), **cube_points(float(x), W, L, jacoby=jacoby, beavers=beavers).__dict__}
        for x in xs
    ]
    return pd.DataFrame(rows)
