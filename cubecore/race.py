"""The Zadeh-Kobliska race model and its exact optimal doubling strategy.

The model of [ZK77]_: the player on roll has count ``x``, his opponent count ``y``.
A roll reduces the roller's count by the dice total (36 equally likely rolls;
doubles count four times, so the totals are 3..12, 16, 20 and 24). The roller wins
if his count reaches ``<= 0`` before the opponent's does. No gammons; money play.

[ZK77]_ computes the cubeless winning chances exactly (its Table 1) but estimates
the cube strategy by simulation (its Tables 2 and 3). Here the cube strategy of the
race model is solved exactly by dynamic programming over the counts, for the three
cube positions, with both sides playing optimally.

Conventions
-----------
* ``on_roll``/``x`` is the roller's count, ``opponent``/``y`` the other side's.
* Offsets are ``opponent - on_roll``: a positive offset means the roller leads.
  Table 1's row labels follow that convention (its text: "when A's count is 70 and
  he is 10 pips ahead, his probability of winning is 77.9%" is row ``+10``, column
  70, i.e. opponent's count 80).
* Cube positions are seen from the roller: ``"center"``, ``"owned"`` (the roller
  owns it), ``"opponent"`` (the opponent owns it). Equities are per unit of the
  current cube, from the roller's view.
* Counts run from 1 to :data:`MAX_COUNT` (375, the largest pip count a backgammon
  position can have: 15 checkers on the bar). The cube tables cover all of them,
  built once per process on first use (about 0.1 s); larger counts are rejected.

References
----------
.. [ZK77] N. Zadeh and G. Kobliska, "On Optimal Doubling in Backgammon",
   Management Science 23(8), 853-858, April 1977.
   https://doi.org/10.1287/mnsc.23.8.853
.. [GNU] GNU Backgammon, ``eval.c``, ``EvalEfficiency``: race cube life
   ``x = rRaceCoefficientX + rRaceFactorX * pips`` clamped to
   ``[rRaceMin, rRaceMax]`` = ``0.55 + 0.00125 * pips`` in ``[0.60, 0.70]``, where
   ``pips`` is the pip count of the player on roll.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple, cast

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from cubecore._docs import fill_doc
from cubecore._validate import (
    MAX_ARRAY_SIZE,
    broadcast_together,
    choice,
    finite_array,
    real_in_range,
    whole_number,
)
from cubecore.janowski import (
    CUBE_POSITIONS,
    CubePosition,
    _implied_life,
    dead_cube_equity,
    live_cube_equity,
)

_ROLLER_CUBE_DOC = """
cube : {"center", "owned", "opponent"}
    Cube position seen from the roller.
"""
_race_doc = fill_doc(
    roller_cube=_ROLLER_CUBE_DOC,
    roller_cube_parameters="Parameters\n----------" + _ROLLER_CUBE_DOC,
)

__all__ = [
    "ACTIONS",
    "CUBE_POSITIONS",
    "DA_RANGE",
    "DB_RANGE",
    "GNUBG_RACE_CUBE_LIFE",
    "MAX_COUNT",
    "MAX_POSITIONS",
    "ROLL_TOTALS",
    "ROLL_WAYS",
    "TABLE_1_DEVIATIONS",
    "TABLE_1_OFFSETS",
    "TABLE_1_PRINTED",
    "TABLE_1_YOUR_COUNTS",
    "TABLE_2_PRINTED",
    "TABLE_3_PRINTED",
    "EffectivePoints",
    "RaceCubeEquities",
    "RaceThresholds",
    "bearoff_distribution",
    "bearoff_roll_probability",
    "check_doubling_points",
    "cube_action_map",
    "cube_win_probability",
    "effective_point_chance",
    "effective_points",
    "gnubg_race_cube_life",
    "implied_cube_life",
    "implied_doubling_points",
    "next_exchange_equities",
    "race_cube_equities",
    "race_thresholds",
    "race_win_probability",
    "roll_total_distribution",
    "table_1",
    "table_1_comparison",
    "table_2",
    "table_3",
    "table_3_comparison",
]

# ----------------------------------------------------------------------------- constants

#: Dice totals of one roll in a race, doubles counted four times ([ZK77]_, p. 3:
#: "the dice can show any one of 13 numbers").
ROLL_TOTALS: tuple[int, ...] = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 20, 24)
#: Number of the 36 equally likely rolls giving each total of :data:`ROLL_TOTALS`.
ROLL_WAYS: tuple[int, ...] = (2, 3, 4, 4, 6, 5, 4, 2, 2, 1, 1, 1, 1)
_ROLLS = 36
_MIN_TOTAL, _MAX_TOTAL = 3, 24

#: Largest pip count of a backgammon position (15 checkers on the bar: 15 x 25).
MAX_COUNT = 375
#: Most count pairs one :func:`race_win_probability` or :func:`table_1` evaluates:
#: every pair of counts, 375**2 (~0.9 s).
MAX_POSITIONS = MAX_COUNT**2
_MAX_ROLLS = -(-MAX_COUNT // _MIN_TOTAL)  # a count is off in at most ceil(x / 3) rolls
_ROLLS_LIMIT = 10**6  # largest ``rolls`` accepted (any n > 125 gives 0)

#: The one domain of the effective doubling points, for every use of [ZK77]_ eqs.
#: (1)-(6) in cubecore: ``DA`` in (1/2, 1] (open below), ``DB`` in [0, 1/2) (open
#: above). See :func:`check_doubling_points`.
DA_RANGE = (0.5, 1.0)
DB_RANGE = (0.0, 0.5)

#: Cube actions of the exact strategy, in the order used by :func:`cube_action_map`.
ACTIONS = ("no double", "double/take", "double/pass")

#: GNU Backgammon's race cube life ([GNU]_): coefficient, factor per pip, min, max.
GNUBG_RACE_CUBE_LIFE = {"coefficient": 0.55, "factor": 0.00125, "min": 0.60, "max": 0.70}

#: Columns (your count) and rows (offset = opponent's count - your count) of Table 1.
TABLE_1_YOUR_COUNTS: tuple[int, ...] = tuple(range(10, 111, 10))
TABLE_1_OFFSETS: tuple[int, ...] = tuple(range(-20, 31, 5))
_TABLE_1_VALUES = (  # [ZK77] Table 1, percent, as printed (row "Even" is offset 0)
    (0.0, 0.0, 5.1, 8.3, 11.6, 14.2, 16.5, 18.4, 20.0, 21.4, 22.6),
    (0.0, 7.6, 13.2, 18.0, 21.2, 23.7, 25.6, 27.2, 28.5, 29.6, 30.5),
    (0.0, 20.3, 27.6, 31.3, 33.6, 35.2, 36.4, 37.3, 38.1, 38.7, 39.3),
    (32.2, 44.4, 46.5, 47.0, 47.4, 47.7, 47.9, 48.0, 48.1, 48.2, 48.3),
    (78.2, 68.7, 64.3, 62.2, 60.8, 59.9, 59.1, 58.5, 58.0, 57.6, 57.3),
    (90.6, 82.9, 78.0, 74.8, 72.4, 70.7, 69.3, 68.2, 67.2, 66.4, 65.7),
    (94.8, 91.1, 87.2, 84.1, 81.6, 79.6, 77.9, 76.5, 75.3, 74.2, 73.2),
    (99.3, 96.0, 93.2, 90.6, 88.4, 86.5, 84.8, 83.3, 81.9, 80.8, 79.7),
    (99.7, 98.3, 96.6, 94.8, 93.0, 91.4, 89.9, 88.5, 87.3, 86.1, 85.0),
    (99.9, 99.4, 98.4, 97.2, 96.0, 94.8, 93.5, 92.4, 91.3, 90.3, 89.3),
    (100.0, 99.8, 99.3, 98.6, 97.8, 96.9, 96.0, 95.1, 94.2, 93.4, 92.5),
)
#: [ZK77]_ Table 1 as printed: win probability (percent) of the player on roll;
#: index = offset (opponent's count - your count), columns = your count.
TABLE_1_PRINTED = pd.DataFrame(
    _TABLE_1_VALUES,
    index=pd.Index(TABLE_1_OFFSETS, name="offset"),
    columns=pd.Index(TABLE_1_YOUR_COUNTS, name="your_count"),
)
#: Half a unit in the last printed place of Table 1 (percent to one decimal).
_TABLE_1_HALF_UNIT = 0.05
#: Printed cells of Table 1 that differ from the exact model by more than half a
#: unit in the last printed place: ``{(offset, your_count): (printed, reason)}``.
TABLE_1_DEVIATIONS: dict[tuple[int, int], tuple[float, str]] = {
    (-20, 30): (
        5.1,
        "exact 5.018% (30 vs 10) rounds to 5.0; not a rounding tie, so an error in the "
        "paper's computation or typesetting (one unit high in the last digit)",
    ),
    (25, 100): (
        90.3,
        "exact 90.2497% (100 vs 125) is 0.0003 below the rounding tie 90.25; the paper's "
        "double rounding (90.2497 -> 90.25 -> 90.3) or floating-point error rounds it up",
    ),
}

#: [ZK77]_ Table 2 as printed (simulated expectations of A, on roll, per unit of the
#: initial cube). ``cube`` is "owned" for the paper's "Redouble" rows and "center"
#: for "Double". ``run`` numbers repeated positions (see :func:`table_2`).
TABLE_2_PRINTED = pd.DataFrame(
    [
        ("Redouble", "owned", 20, 20, 1, 0.611, 0.685),
        ("Redouble", "owned", 20, 19, 1, 0.470, 0.435),
        ("Redouble", "owned", 20, 19, 2, 0.481, 0.472),
        ("Double", "center", 20, 18, 1, 0.330, 0.313),
        ("Redouble", "owned", 40, 44, 1, 0.744, 0.783),
        ("Redouble", "owned", 40, 43, 1, 0.693, 0.693),
        ("Redouble", "owned", 40, 43, 2, 0.689, 0.681),
        ("Double", "center", 40, 42, 1, 0.577, 0.580),
        ("Redouble", "owned", 70, 78, 1, 0.791, 0.822),
        ("Redouble", "owned", 70, 77, 1, 0.766, 0.747),
        ("Redouble", "owned", 70, 77, 2, 0.737, 0.721),
        ("Double", "center", 70, 76, 1, 0.664, 0.652),
        ("Redouble", "owned", 110, 122, 1, 0.833, 0.866),
        ("Redouble", "owned", 110, 121, 1, 0.818, 0.796),
        ("Double", "center", 110, 120, 1, 0.757, 0.769),
        ("Double", "center", 110, 119, 1, 0.710, 0.709),
    ],
    columns=["label", "cube", "on_roll", "opponent", "run", "not_doubling", "doubling"],
)

#: [ZK77]_ Table 3 as printed: offsets (opponent's count - your count) in pips; a
#: half-pip value is a boundary between two whole counts.
TABLE_3_PRINTED = pd.DataFrame(
    {
        "your_count": [20, 40, 70, 110],
        "minimum_take": [2.0, 5.5, 10.0, 14.5],
        "redouble": [-0.5, 3.0, 7.5, 11.5],
        "double": [-1.5, 2.0, 6.5, 9.5],
    }
)

# ----------------------------------------------------------------------------- validation


def _count_array(
    name: str,
    value: ArrayLike,
    low: float = 1,
    high: float = MAX_COUNT,
    max_size: int = MAX_ARRAY_SIZE,
) -> NDArray[np.int64]:
    """Return ``value`` as an int array after checking whole numbers in ``[low, high]``."""
    if np.asarray(value).dtype == bool:
        raise ValueError(f"`{name}` must be a whole number, not a bool")
    array = finite_array(name, value, max_size=max_size)
    if np.any(array != np.round(array)):
        raise ValueError(f"`{name}` must be a whole number (or an array of whole numbers)")
    if np.any(array < low) or np.any(array > high):
        raise ValueError(f"`{name}` must be a whole number in [{low:g}, {high:g}]")
    return array.astype(np.int64)


# ----------------------------------------------------------------------------- one roll


def roll_total_distribution() -> pd.DataFrame:
    """Distribution of the dice total of one roll in a race ([ZK77]_, p. 3).

    Returns
    -------
    pandas.DataFrame
        Columns ``total``, ``ways`` (out of 36) and ``probability``: the 13 totals
        3..12, 16, 20, 24 (doubles count four times).

    Examples
    --------
    >>> d = roll_total_distribution()
    >>> int(d["ways"].sum()), int(d.loc[d["total"] == 8, "ways"].iloc[0])
    (36, 5)
    """
    ways = np.array(ROLL_WAYS)
    return pd.DataFrame(
        {"total": np.array(ROLL_TOTALS), "ways": ways, "probability": ways / _ROLLS}
    )


# ----------------------------------------------------------------------------- bear-off rolls


@lru_cache(maxsize=1)
def _bearoff_table() -> NDArray[np.float64]:
    """``P[x, n]``: chance that count ``x`` (0..MAX_COUNT) is off in exactly ``n`` rolls.

    Row 0 stands for every count ``<= 0``: ``P[0, 0] = 1``. Read-only.
    """
    table = np.zeros((MAX_COUNT + 1, _MAX_ROLLS + 1))
    table[0, 0] = 1.0
    totals = np.array(ROLL_TOTALS)
    ways = np.array(ROLL_WAYS, dtype=float)
    # every count <= 0 maps to row 0 ("already off")
    after = np.maximum(np.arange(1, MAX_COUNT + 1)[:, None] - totals[None, :], 0)
    for n in range(_MAX_ROLLS):
        table[1:, n + 1] = table[after, n] @ ways / _ROLLS  # [ZK77] P(x, k+1) recursion
    table.flags.writeable = False
    return table


@lru_cache(maxsize=1)
def _bearoff_tail() -> NDArray[np.float64]:
    """``S[x, n] = sum_{k >= n} P[x, k]``: chance that count ``x`` needs ``>= n`` rolls."""
    tail = np.cumsum(_bearoff_table()[:, ::-1], axis=1)[:, ::-1].copy()
    tail.flags.writeable = False
    return tail


def bearoff_roll_probability(pips: ArrayLike, rolls: ArrayLike) -> NDArray[np.float64]:
    """Chance ``P(x, n)`` that a count of ``pips`` bears off in exactly ``rolls`` rolls.

    Parameters
    ----------
    pips : array_like of int
        Count ``x``, whole numbers in [1, 375].
    rolls : array_like of int
        Number of rolls ``n``, whole numbers in [0, 10**6] (broadcast against
        ``pips``).

    Returns
    -------
    numpy.ndarray
        ``P(x, n)``.

    Notes
    -----
    [ZK77]_, p. 3, with ``f`` the one-roll total distribution:

    .. math:: P(x, 1) = \\sum_{y=x}^{24} f(y), \\qquad
              P(x, k+1) = \\sum_{y=3}^{24} f(y) P(x - y, k),

    with ``P(z, k) = 0`` for ``z <= 0, k >= 1``. ``P(x, 0) = 0`` for ``x >= 1``, and
    ``P(x, n) = 0`` for ``n > ceil(x / 3)`` (a roll is at least 3).

    Examples
    --------
    A count of 4 fails to get off in one roll only with 1-2 (2 ways in 36):

    >>> float(bearoff_roll_probability(4, 1) * 36)
    34.0
    """
    x = _count_array("pips", pips)
    n = _count_array("rolls", rolls, low=0, high=_ROLLS_LIMIT)
    x, n = broadcast_together(("pips", "rolls"), x, n)
    beyond = n > _MAX_ROLLS  # no count <= MAX_COUNT needs that many rolls
    values = _bearoff_table()[x, np.where(beyond, 0, n)]
    return np.where(beyond, 0.0, values)


def bearoff_distribution(pips: int) -> pd.DataFrame:
    """Whole distribution of the number of rolls a count needs to bear off.

    Parameters
    ----------
    pips : int
        Count, whole number in [1, 375].

    Returns
    -------
    pandas.DataFrame
        Columns ``rolls`` (1..ceil(pips/3)), ``probability`` (``P(x, n)``, summing to
        1) and ``cumulative`` (off within ``n`` rolls).

    Examples
    --------
    >>> d = bearoff_distribution(10)
    >>> round(float(d["probability"].iloc[0]) * 36), float(d["probability"].sum())
    (8, 1.0)
    """
    x = whole_number("pips", pips, 1, MAX_COUNT)
    last = -(-x // _MIN_TOTAL)
    probability = _bearoff_table()[x, 1 : last + 1].copy()
    return pd.DataFrame(
        {
            "rolls": np.arange(1, last + 1),
            "probability": probability,
            "cumulative": np.cumsum(probability),
        }
    )


# ----------------------------------------------------------------------------- cubeless race


def _win(x: NDArray[np.int64], y: NDArray[np.int64]) -> NDArray[np.float64]:
    """Cubeless win chance of the roller; counts are int arrays in [0, MAX_COUNT].

    ``a = sum_j P(x, j) S(y, j)`` (the roller wins) and ``b = sum_j P(y, j)
    S(x, j + 1)`` (the opponent wins) add up to 1 exactly; returning ``a / (a + b)``
    keeps the rounding error of the sums from leaving [0, 1] (no clipping).
    """
    table, tail = _bearoff_table(), _bearoff_tail()
    roller_wins = np.einsum("...k,...k->...", table[x], tail[y])
    opponent_wins = np.einsum("...k,...k->...", table[y][..., :-1], tail[x][..., 1:])
    chance: NDArray[np.float64] = roller_wins / (roller_wins + opponent_wins)
    return chance


def _win_grid(x: NDArray[np.int64], y: NDArray[np.int64]) -> NDArray[np.float64]:
    """:func:`_win` on the grid ``x`` (rows) by ``y`` (columns), by matrix products.

    Same sums as :func:`_win` (``a = P[x] S[y]^T``, ``b = S[x, 1:] P[y, :-1]^T``),
    a few hundred times faster than gathering one row pair per cell.
    """
    table, tail = _bearoff_table(), _bearoff_tail()
    roller_wins = table[x] @ tail[y].T
    opponent_wins = tail[x][:, 1:] @ table[y][:, :-1].T
    chance: NDArray[np.float64] = roller_wins / (roller_wins + opponent_wins)
    return chance


def race_win_probability(on_roll: ArrayLike, opponent: ArrayLike) -> NDArray[np.float64]:
    """Cubeless chance that the player on roll wins the race ([ZK77]_, p. 3).

    Parameters
    ----------
    on_roll, opponent : array_like of int
        Counts of the roller and of his opponent, whole numbers in [1, 375]
        (broadcast together, at most ``MAX_POSITIONS`` pairs).

    Returns
    -------
    numpy.ndarray
        Winning probability of the roller.

    Notes
    -----
    The roller (who rolls first) wins iff he needs no more rolls than the opponent:

    .. math:: p(x_A, x_B) = \\sum_{j \\ge 1} P(x_A, j) \\sum_{k \\ge j} P(x_B, k).

    Examples
    --------
    [ZK77]_ text: count 70, 10 pips ahead, wins 77.9% (Table 1, row +10):

    >>> round(100 * float(race_win_probability(70, 80)), 1)
    77.9
    """
    x = _count_array("on_roll", on_roll, max_size=MAX_POSITIONS)
    y = _count_array("opponent", opponent, max_size=MAX_POSITIONS)
    x, y = broadcast_together(("on_roll", "opponent"), x, y)  # views: no memory yet
    if x.size > MAX_POSITIONS:
        raise ValueError(f"`on_roll` and `opponent` must pair at most {MAX_POSITIONS} counts")
    return _win(x, y)


def table_1(
    your_counts: ArrayLike = TABLE_1_YOUR_COUNTS, offsets: ArrayLike = TABLE_1_OFFSETS
) -> pd.DataFrame:
    """Table 1 of [ZK77]_ for any range: win chance (percent) of the player on roll.

    Parameters
    ----------
    your_counts : array_like of int
        Roller's counts (columns), whole numbers in [1, 375]; at most
        ``MAX_POSITIONS`` cells with ``offsets``.
    offsets : array_like of int
        Opponent's count minus your count (rows); ``+10`` means you lead by 10.
        Opponent's counts above 375 are rejected.

    Returns
    -------
    pandas.DataFrame
        Index ``offset``, columns ``your_count``, values in percent.

    Notes
    -----
    Where ``your_count + offset <= 0`` the opponent has already borne off and the
    cell is 0, as the paper prints it (rows -20, -15, -10 of column 10).

    Examples
    --------
    >>> round(float(table_1([70], [10]).loc[10, 70]), 1)  # [ZK77] Table 1
    77.9
    """
    x = _count_array("your_counts", np.atleast_1d(your_counts), max_size=MAX_COUNT)
    offset = _count_array(
        "offsets", np.atleast_1d(offsets), low=-MAX_COUNT, high=MAX_COUNT, max_size=MAX_COUNT
    )
    if x.size * offset.size > MAX_POSITIONS:
        raise ValueError(
            f"`your_counts` x `offsets` must be at most {MAX_POSITIONS} cells"
            f" (got {x.size} x {offset.size})"
        )
    if x.ndim != 1 or offset.ndim != 1:
        raise ValueError("your_counts and offsets must be one-dimensional")
    y = x[None, :] + offset[:, None]
    if np.any(y > MAX_COUNT):
        raise ValueError(f"your_counts + offsets must be at most {MAX_COUNT}")
    # [ZK77] Table 1: an opponent already off (count <= 0) leaves the roller 0%
    values = 100.0 * _win(np.broadcast_to(x[None, :], y.shape), np.maximum(y, 0))
    return pd.DataFrame(
        values,
        index=pd.Index(offset, name="offset"),
        columns=pd.Index(x, name="your_count"),
    )


def table_1_comparison() -> pd.DataFrame:
    """[ZK77]_ Table 1 cell by cell: printed, exact, and the reason where they differ.

    A cell agrees when the exact percentage is within half a unit of the printed
    last digit (0.05, plus 1e-9 for the float sum); each cell that does not is one
    of :data:`TABLE_1_DEVIATIONS`, whose reason is given.

    Returns
    -------
    pandas.DataFrame
        ``offset``, ``your_count``, ``printed``, ``exact`` (percent, unrounded),
        ``agrees`` (bool) and ``reason`` ("" where the cell agrees and has no listed
        deviation), row by row of Table 1.

    Examples
    --------
    >>> t = table_1_comparison()
    >>> len(t), int((~t["agrees"]).sum()) == len(TABLE_1_DEVIATIONS)
    (121, True)
    """
    exact = table_1()
    rows = []
    for offset in TABLE_1_PRINTED.index:
        for count in TABLE_1_PRINTED.columns:
            value = float(exact.loc[offset, count])
            shown = float(TABLE_1_PRINTED.loc[offset, count])
            reason = TABLE_1_DEVIATIONS.get((int(offset), int(count)), (None, ""))[1]
            rows.append(
                {
                    "offset": int(offset),
                    "your_count": int(count),
                    "printed": shown,
                    "exact": value,
                    "agrees": abs(value - shown) <= _TABLE_1_HALF_UNIT + 1e-9,
                    "reason": reason,
                }
            )
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------- effective points


@dataclass(frozen=True)
class EffectivePoints:
    """Doubling points of [ZK77]_ Theorem 1, in the doubler's cubeless win chance."""

    #: ``M``, eq. (4): the largest ``p`` at which the opponent can take.
    minimum_take_point: float
    #: Eq. (5) (named ``r(t)`` in the paper): the smallest ``p`` at which the
    #: cube owner gains by redoubling.
    redouble_point: float
    #: Eq. (6) (named ``d(t)`` in the paper): the smallest ``p`` at which doubling
    #: from the centre gains.
    initial_double_point: float


def check_doubling_points(da: float, db: float) -> tuple[float, float]:
    r"""Validate effective doubling points against their one domain ([ZK77]_, Lemma 2).

    Every use of [ZK77]_ eqs. (1)-(6) in cubecore (this module, the give-up points
    of :mod:`cubecore.giveup` with ``DA = g``, ``DB = 1 - g``, and the model atlas)
    takes ``DA`` and ``DB`` from this domain:

    .. math:: \tfrac12 < D_A \le 1,\qquad 0 \le D_B < \tfrac12,

    each player's point beyond even chances (A wins at ``DA``, B at ``DB``). The paper
    estimates ``DA`` in [0.8, 1] and ``DB`` in [0, 0.2] for real games (p. 2); the
    formulas hold on the whole domain.

    Parameters
    ----------
    da, db : float
        A's and B's effective doubling points (in A's cubeless winning chance).

    Returns
    -------
    (da, db) : tuple of float

    Raises
    ------
    ValueError
        Naming ``da`` or ``db``, its range and the value given.

    Examples
    --------
    >>> check_doubling_points(0.88, 0.12)
    (0.88, 0.12)
    """
    da = real_in_range("da", da, DA_RANGE[0], DA_RANGE[1], low_open=True)
    db = real_in_range("db", db, DB_RANGE[0], DB_RANGE[1], high_open=True)
    return da, db


def _chance(
    p: NDArray[np.float64], da: float, db: float, cube: CubePosition
) -> NDArray[np.float64]:
    """[ZK77] eqs. (1)-(3) for validated arguments: the one place they are written."""
    if cube == "owned":
        return p / da  # [ZK77] eq. (1)
    if cube == "opponent":
        return (p - db) / (1.0 - db)  # [ZK77] eq. (2)
    return (p - db) / (da - db)  # [ZK77] eq. (3)


def effective_point_chance(
    p: ArrayLike, da: float, db: float, cube: CubePosition
) -> NDArray[np.float64]:
    r"""A's winning chance with the cube, [ZK77]_ eqs. (1)-(3), for any cubeless chance ``p``.

    .. math:: p(t,A) = \frac{p}{D_A},\qquad p(t,B) = \frac{p - D_B}{1 - D_B},\qquad
       p(t,M) = \frac{p - D_B}{D_A - D_B}

    for the cube owned by A, by B, and centred (Lemma 2). This is the raw linear
    transform: outside the cube state's domain (owned ``[0, DA]``, opponent
    ``[DB, 1]``, centred ``[DB, DA]``) the value leaves [0, 1], and each caller
    decides what that means (:func:`cube_win_probability` refuses such ``p``; the
    give-up model and the atlas concede the game, i.e. limit the value to [0, 1]).

    Parameters
    ----------
    p : array_like
        A's cubeless winning chance, finite.
    da, db : float
        Effective doubling points in their domain (:func:`check_doubling_points`).
    cube : {"center", "owned", "opponent"}
        Cube position seen from A.

    Returns
    -------
    numpy.ndarray

    Examples
    --------
    >>> round(float(effective_point_chance(0.6, 0.8, 0.0, "center")), 12)  # Example 2
    0.75
    >>> float(effective_point_chance(0.9, 0.8, 0.2, "owned"))  # past DA: outside [0, 1]
    1.125
    """
    da, db = check_doubling_points(da, db)
    cube = choice("cube", cube, CUBE_POSITIONS)
    return _chance(finite_array("p", p), da, db, cube)


def effective_points(da: float, db: float) -> EffectivePoints:
    """Minimum take, redouble and initial double points from ``DA``, ``DB`` ([ZK77]_).

    Parameters
    ----------
    da, db : float
        Effective doubling points of A (the doubler) and B, in their one domain
        ``1/2 < DA <= 1``, ``0 <= DB < 1/2`` (:func:`check_doubling_points`).

    Returns
    -------
    EffectivePoints

    Notes
    -----
    With (1) ``p_A = p/DA`` and (2) ``p_B = (p - DB)/(1 - DB)``, (3)
    ``p_M = (p - DB)/(DA - DB)``, the points solve:

    * take point (4): ``1 - p_B(M) = 1/4`` gives ``M = 1 - (1 - DB)/4``;
    * redouble point (5), condition (8) = (10):
      ``2p/DA - 1 = 2(2(p - DB)/(1 - DB) - 1)`` gives
      ``p = (3 DA DB + DA) / (4 DA - 2(1 - DB))``;
    * initial double point (6): ``2 p_M - 1 = 2(2 p_B - 1)`` gives
      ``p = (DB^2 + 3 DB (1 - DA) - DA) / (2 DB - 4 DA + 2)``.

    The statement of Theorem 1 calls (5) ``r(t)``, "the minimum value for which A
    can double", and (6) ``d(t)``, "redouble"; its proofs derive (5) from the
    redouble condition and (6) from the initial double condition, which is what
    the formulas satisfy: the statement has the names swapped. Formula (5) as
    printed is right; the printed (10) and (11) misplace a parenthesis (read
    literally, (11) would give ``4 DA DB / (4 DA - 2(1 - DB))``, not (5)).

    Degenerate case, an explicit branch: the denominator of (5), ``4 DA - 2(1 - DB)``,
    is positive on the whole domain, but that of (6) vanishes where
    ``2 DA - DB = 1`` (e.g. ``DA = 0.55``, ``DB = 0.1``). Where ``2 DA - DB <= 1`` the
    doubled line ``2(2 p_B - 1)`` is never above the centred one ``2 p_M - 1`` on
    ``p >= DB`` (its slope is not larger and it starts lower), so doubling from the
    centre never gains: the initial double point is ``inf``. A point above ``DA``
    likewise means A is never in time to double. On the paper's range (``DA >= 0.8``,
    ``DB <= 0.2``) both denominators are at least 0.8 in size and all points lie in
    [0.75, 1]. At ``DA = 1`` the owned cube is dead for A; at ``DB = 0`` the cube is
    dead for B.

    Examples
    --------
    The continuous game of Keeler and Spencer ([ZK77]_, p. 2): everything is 0.8.

    >>> e = effective_points(0.8, 0.2)
    >>> [round(v, 12) for v in (e.minimum_take_point, e.redouble_point,
    ...                         e.initial_double_point)]
    [0.8, 0.8, 0.8]
    """
    da, db = check_doubling_points(da, db)
    take = 1.0 - (1.0 - db) / 4.0  # [ZK77] eq. (4)
    redouble = (3.0 * da * db + da) / (4.0 * da - 2.0 * (1.0 - db))  # [ZK77] eq. (5)
    if 2.0 * da - db <= 1.0:  # (6) has no crossing on p >= DB: doubling never gains
        return EffectivePoints(take, redouble, math.inf)
    double = (db**2 + 3.0 * db * (1.0 - da) - da) / (2.0 * db - 4.0 * da + 2.0)  # eq. (6)
    return EffectivePoints(take, redouble, double)


def cube_win_probability(
    p: ArrayLike, da: float, db: float, cube: CubePosition
) -> NDArray[np.float64]:
    """A's winning chance with the cube, formulas (1)-(3) of [ZK77]_ (Lemma 2), in domain.

    Parameters
    ----------
    p : array_like
        A's cubeless winning chance, in the cube state's domain (below).
    da, db : float
        Effective doubling points in their one domain (:func:`check_doubling_points`).
    cube : {"center", "owned", "opponent"}
        Cube position seen from A.

    Returns
    -------
    numpy.ndarray
        ``p_A = p/DA`` (owned, (1)), ``p_B = (p - DB)/(1 - DB)`` (opponent, (2)),
        ``p_M = (p - DB)/(DA - DB)`` (center, (3)); see :func:`effective_point_chance`.

    Notes
    -----
    Lemma 1 applied to the game stopped at ``DA`` (A wins) and ``DB`` (B wins).
    Domains: owned ``p`` in [0, DA], opponent [DB, 1], center [DB, DA]; outside
    them the position has already been doubled out and a ``ValueError`` is raised.

    Examples
    --------
    >>> round(float(cube_win_probability(0.6, 0.8, 0.0, "center")), 12)  # [ZK77] Example 2
    0.75
    """
    da, db = check_doubling_points(da, db)
    cube = choice("cube", cube, CUBE_POSITIONS)
    low = 0.0 if cube == "owned" else db
    high = 1.0 if cube == "opponent" else da
    p = finite_array("p", p)
    if np.any(p < low) or np.any(p > high):
        raise ValueError(f"`p` must lie in [{low:g}, {high:g}] for cube={cube!r}")
    return _chance(p, da, db, cube)


# ----------------------------------------------------------------------------- exact cube DP


class _CubeTables(NamedTuple):
    """No-double equities ``[x, y]`` of the roller (row/col 0 unused, NaN), read-only."""

    center: NDArray[np.float64]
    owned: NDArray[np.float64]
    opponent: NDArray[np.float64]


def _optimal(
    no_double: NDArray[np.float64], double_take: NDArray[np.float64]
) -> NDArray[np.float64]:
    """Optimal equity: the roller doubles iff ``min(double_take, 1) > no_double``."""
    doubling = np.minimum(double_take, 1.0)
    return np.where(doubling > no_double, doubling, no_double)


@lru_cache(maxsize=2)
def _cube_tables(size: int = MAX_COUNT) -> _CubeTables:
    """Exact optimal cube equities for all counts ``1..size`` per side.

    The recursion runs over the diagonals ``x + y = s`` in increasing order: every
    successor ``(y, x - t)`` of ``(x, y)`` has a smaller sum. ``after[c, y, z + 24]``
    holds the roller's value once his roll has left him at ``z`` with the opponent
    (count ``y``) on roll and cube state ``c`` seen from the opponent: ``+1`` for
    ``z <= 0`` (the roller is off), ``-E_c(y, z)`` otherwise.
    """
    pad = _MAX_TOTAL
    totals = np.array(ROLL_TOTALS)
    ways = np.array(ROLL_WAYS, dtype=float)
    after = np.ones((3, size + 1, size + 1 + pad))  # order: center, owned, opponent
    no_double = np.full((3, size + 1, size + 1), np.nan)
    for s in range(2, 2 * size + 1):
        x = np.arange(max(1, s - size), min(size, s - 1) + 1)
        y = s - x
        cols = x[:, None] - totals[None, :] + pad
        # the roller's cube state c is the opponent's state (center, opponent, owned)
        gathered = after[:, y[:, None], cols] @ ways / _ROLLS  # shape (3, len(x))
        center, owned_by_opp_view, opp_by_opp_view = gathered
        nd_center = center
        nd_owned = opp_by_opp_view  # roller owns: the opponent sees "opponent owns"
        nd_opponent = owned_by_opp_view  # opponent owns: he sees "owned"
        double_take = 2.0 * nd_opponent  # the taker owns the 2-cube, roller rolls
        no_double[0, x, y] = nd_center
        no_double[1, x, y] = nd_owned
        no_double[2, x, y] = nd_opponent
        after[0, x, y + pad] = -_optimal(nd_center, double_take)
        after[1, x, y + pad] = -_optimal(nd_owned, double_take)
        after[2, x, y + pad] = -nd_opponent
    tables = _CubeTables(*no_double)
    for table in tables:
        table.flags.writeable = False
    return tables


def _cube_arrays(
    x: NDArray[np.int64], y: NDArray[np.int64], cube: CubePosition
) -> dict[str, NDArray[np.float64]]:
    """No double / double take / double pass / optimal / action code arrays."""
    tables = _cube_tables(MAX_COUNT)
    no_double = getattr(tables, cube)[x, y]
    if cube == "opponent":
        nan = np.full(no_double.shape, np.nan)
        return {
            "no_double": no_double,
            "double_take": nan,
            "double_pass": nan,
            "optimal": no_double,
            "code": np.zeros(no_double.shape, dtype=int),
        }
    double_take = 2.0 * tables.opponent[x, y]
    doubles = np.minimum(double_take, 1.0) > no_double
    # the opponent takes iff taking (-double_take) is no worse than passing (-1)
    code = np.where(doubles, np.where(double_take <= 1.0, 1, 2), 0)
    return {
        "no_double": no_double,
        "double_take": double_take,
        "double_pass": np.ones(no_double.shape),
        "optimal": _optimal(no_double, double_take),
        "code": code,
    }


@dataclass(frozen=True)
class RaceCubeEquities:
    """Exact cubeful equities of a race position, per unit of the current cube.

    The doubling fields are NaN when the opponent owns the cube.
    """

    #: Roller's equity if he rolls without doubling.
    no_double: float
    #: Roller's equity if he doubles and is taken (``2 x`` his equity with the
    #: opponent owning the 2-cube).
    double_take: float
    #: Roller's equity if he doubles and the opponent passes (+1).
    double_pass: float
    #: ``max(no_double, min(double_take, double_pass))``.
    optimal: float
    #: One of :data:`ACTIONS`.
    action: str


@_race_doc
def race_cube_equities(on_roll: int, opponent: int, cube: CubePosition) -> RaceCubeEquities:
    """Exact optimal cube equities of a race position (money play, no gammons).

    Parameters
    ----------
    on_roll, opponent : int
        Counts, whole numbers in [1, 375].
    {roller_cube}

    Returns
    -------
    RaceCubeEquities

    Notes
    -----
    With ``f(t) = ways(t)/36`` and, after the roll, ``+1`` if ``x - t <= 0``:

    * ``ND_c(x, y) = sum_t f(t) (-E_c'(y, x - t))`` where ``c'`` is the cube state
      seen by the opponent (center -> center, owned -> opponent, opponent -> owned);
    * ``DT(x, y) = 2 ND_opponent(x, y)``, ``DP = 1``;
    * ``E_c = max(ND_c, min(DT, 1))`` for c in {center, owned}; ``E_opponent = ND``.

    The roller doubles iff ``min(DT, 1) > ND`` (strictly: where ``ND = 1`` exactly,
    a sure win or a certain cash next turn, doubling only ties and the action is
    "no double"); the opponent takes iff ``DT <= 1``.
    Both sides are optimal. The model of [ZK77]_, solved exactly rather than
    simulated as in its Table 2.

    Examples
    --------
    [ZK77] Table 2 (simulated): at 110 vs 122, cube owned, A redoubles (0.866 >
    0.833). The exact model agrees:

    >>> e = race_cube_equities(110, 122, "owned")
    >>> e.action, e.double_take > e.no_double
    ('double/take', True)
    """
    x = whole_number("on_roll", on_roll, 1, MAX_COUNT)
    y = whole_number("opponent", opponent, 1, MAX_COUNT)
    cube = choice("cube", cube, CUBE_POSITIONS)
    values = _cube_arrays(np.array(x), np.array(y), cube)
    return RaceCubeEquities(*_decision_values(values, ACTIONS))


@_race_doc
def cube_action_map(cube: CubePosition, max_count: int = 100, min_count: int = 1) -> pd.DataFrame:
    """Tidy table of the exact cube action over (your count, opponent's count).

    {roller_cube_parameters}
    max_count, min_count : int
        Both counts run over ``min_count..max_count`` (1 <= min <= max <= 375).

    Returns
    -------
    pandas.DataFrame
        One row per position: ``on_roll``, ``opponent``, ``offset``,
        ``cubeless_win``, ``no_double``, ``double_take``, ``double_pass``,
        ``optimal``, ``action`` (categorical with the categories :data:`ACTIONS`),
        ``full_point`` (``no_double == 1`` exactly: a sure win or a certain cash
        next turn, where doubling would only tie; the action there is "no double").

    Examples
    --------
    >>> m = cube_action_map("center", 20)
    >>> m.loc[(m.on_roll == 20) & (m.opponent == 20), "action"].item()
    'double/take'
    """
    cube = choice("cube", cube, CUBE_POSITIONS)
    high = whole_number("max_count", max_count, 1, MAX_COUNT)
    low = whole_number("min_count", min_count, 1, high)
    counts = np.arange(low, high + 1)
    x, y = (grid.ravel() for grid in np.meshgrid(counts, counts, indexing="ij"))
    values = _cube_arrays(x, y, cube)
    return pd.DataFrame(
        {
            "on_roll": x,
            "opponent": y,
            "offset": y - x,
            "cubeless_win": _win_grid(counts, counts).ravel(),  # ij order, as x and y
            "no_double": values["no_double"],
            "double_take": values["double_take"],
            "double_pass": values["double_pass"],
            "optimal": values["optimal"],
            "action": pd.Categorical.from_codes(
                values["code"].astype(np.int64), categories=pd.Index(list(ACTIONS))
            ),
            "full_point": values["no_double"] == 1.0,
        }
    )


class RaceThresholds(NamedTuple):
    """Offsets (opponent's count - your count) of the exact race strategy.

    ``None`` where the decision never occurs for counts 1..375 of the opponent.
    """

    last_take: int | None
    first_redouble: int | None
    first_double: int | None


def race_thresholds(count: int) -> RaceThresholds:
    """Take, redouble and double thresholds for a count, as in [ZK77]_ Table 3.

    Parameters
    ----------
    count : int
        The roller's count, a whole number in [1, 375].

    Returns
    -------
    RaceThresholds
        ``last_take``: the largest offset at which the opponent takes;
        ``first_redouble``: the smallest offset at which the roller owning the
        cube redoubles; ``first_double``: the smallest offset at which he doubles
        from the centre. Offsets are opponent's count - ``count``, the opponent's
        count running over 1..375.

    Notes
    -----
    The take decision (``2 ND_opponent <= 1``) is monotone in the offset. The
    doubling decision is monotone too, except where ``no_double`` is exactly +1:
    a sure win, or a certain cash next turn (the opponent cannot finish and the
    roller will double him out). There doubling ties with not doubling, the
    action is "no double" by the strict rule, and the thresholds skip those
    positions. The tests check that, ties aside, the doubling offsets form one
    interval starting at the threshold, for every count 1..375 and both cube
    positions. ``None`` means the decision never occurs (counts 1..3 never lose:
    the opponent always passes and the roller never needs to double).
    [ZK77]_ Table 3 prints boundaries with half pips; compare
    ``floor(minimum take)`` with ``last_take`` and ``ceil(redouble)``,
    ``ceil(double)`` with the first (re)double (see :func:`table_3`).

    Examples
    --------
    [ZK77] Table 3 at count 20: minimum take +2, redouble -1/2, double -1 1/2,
    i.e. take up to 22, redouble from 20, double from 19; the exact model agrees:

    >>> race_thresholds(20)
    RaceThresholds(last_take=2, first_redouble=0, first_double=-1)
    """
    x = whole_number("count", count, 1, MAX_COUNT)
    tables = _cube_tables(MAX_COUNT)
    y = np.arange(1, MAX_COUNT + 1)
    xs = np.full(y.shape, x)
    takes = 2.0 * tables.opponent[xs, y] <= 1.0

    def first_double(cube: CubePosition) -> int | None:
        values = _cube_arrays(xs, y, cube)
        hits = np.flatnonzero(values["code"] > 0)  # ties (no_double == 1) have code 0
        return int(y[hits[0]] - x) if hits.size else None

    last = np.flatnonzero(takes)
    last_take = int(y[last[-1]] - x) if last.size else None
    return RaceThresholds(last_take, first_double("owned"), first_double("center"))


def table_3(counts: ArrayLike = (20, 40, 70, 110)) -> pd.DataFrame:
    """Exact thresholds beside [ZK77]_ Table 3.

    Parameters
    ----------
    counts : array_like of int
        Roller's counts, whole numbers in [1, 375], at most 375 of them.

    Returns
    -------
    pandas.DataFrame
        ``your_count``, ``last_take``, ``first_redouble``, ``first_double`` (exact,
        integer offsets) and, where the count is in Table 3, the printed values
        ``printed_minimum_take``, ``printed_redouble``, ``printed_double``.

    Examples
    --------
    >>> t = table_3([20])
    >>> int(t.last_take[0]), float(t.printed_minimum_take[0])  # [ZK77] Table 3: +2
    (2, 2.0)
    """
    x = _count_array("counts", np.atleast_1d(counts), max_size=MAX_COUNT)
    rows = [race_thresholds(int(c))._asdict() | {"your_count": int(c)} for c in x]
    exact = pd.DataFrame(rows, columns=["your_count", *RaceThresholds._fields])
    exact = exact.astype("Int64")  # None (never) becomes <NA>
    printed = TABLE_3_PRINTED.rename(
        columns={
            "minimum_take": "printed_minimum_take",
            "redouble": "printed_redouble",
            "double": "printed_double",
        }
    )
    return exact.merge(printed, on="your_count", how="left")


def table_3_comparison() -> pd.DataFrame:
    """[ZK77]_ Table 3 threshold by threshold: printed boundary, its whole-offset reading, exact.

    The printed thresholds are half-pip boundaries read off the simulations. The
    paper's own reading (count 20): redouble "if your opponent's count is 19 1/2 or
    more" and take "up to" the printed offset, so a boundary ``b`` means first
    (re)double at ``ceil(b)`` and last take at ``floor(b)``.

    Returns
    -------
    pandas.DataFrame
        One row per count of Table 3 and threshold (``"last take"``, ``"first
        redouble"``, ``"first double"``): ``your_count``, ``threshold``, ``printed``,
        ``printed_as_whole_offset``, ``exact`` (:func:`race_thresholds`) and
        ``exact_minus_printed`` (exact minus the whole-offset reading).

    Examples
    --------
    At count 20 the printed minimum take is +2, and so is the exact last take:

    >>> first = table_3_comparison().iloc[0]
    >>> int(first.your_count), first.threshold, float(first.printed), int(first.exact)
    (20, 'last take', 2.0, 2)
    """
    rows = []
    for row in table_3().itertuples():
        for name, printed, reading, exact in (
            ("last take", row.printed_minimum_take, math.floor, row.last_take),
            ("first redouble", row.printed_redouble, math.ceil, row.first_redouble),
            ("first double", row.printed_double, math.ceil, row.first_double),
        ):
            whole = reading(cast(float, printed))
            rows.append(
                {
                    "your_count": row.your_count,
                    "threshold": name,
                    "printed": printed,
                    "printed_as_whole_offset": whole,
                    "exact": int(cast(int, exact)),
                    "exact_minus_printed": int(cast(int, exact)) - whole,
                }
            )
    return pd.DataFrame(rows)


def table_2() -> pd.DataFrame:
    """[ZK77]_ Table 2's positions recomputed exactly, beside the simulated values.

    Returns
    -------
    pandas.DataFrame
        The columns of :data:`TABLE_2_PRINTED` plus ``exact_not_doubling`` (roller
        holds the cube for one roll, both sides optimal afterwards) and
        ``exact_doubling`` (``min(double_take, +1)``), per unit of the initial cube;
        then the verdicts: ``simulated_verdict`` and ``exact_verdict`` ("double"
        where doubling's expectation is the larger, else "hold") and
        ``verdicts_agree``.

    Notes
    -----
    The paper simulated 10,000 games per entry with strategies fitted on real
    boards up to 12 pips and guessed from 12 to 20, so its values carry a
    standard error of about 0.01-0.02 and a strategy bias; the exact values are
    for the pure race model with both sides optimal. The transcription squashes
    the counts ("110122" is 110 vs 122). Each block repeats one position (20 vs
    19, 40 vs 43, 70 vs 77) with different numbers: the text says the runs were
    repeated after the guesses were modified ("new runs were made with the then
    accurate strategies"), so both rows are kept as two simulation runs of the
    same redouble decision (``run`` 1 and 2), not reinterpreted.

    Examples
    --------
    At 20 vs 20 with the cube owned, simulated 0.611 / 0.685 (redouble):

    >>> t = table_2()
    >>> t.loc[0, ["exact_not_doubling", "exact_doubling"]].astype(float).round(3).tolist()
    [0.581, 0.647]
    """
    printed = TABLE_2_PRINTED.copy()
    not_doubling, doubling = [], []
    for row in printed.itertuples():
        e = race_cube_equities(
            cast(int, row.on_roll), cast(int, row.opponent), cast(CubePosition, row.cube)
        )
        not_doubling.append(e.no_double)
        doubling.append(min(e.double_take, e.double_pass))
    printed["exact_not_doubling"] = not_doubling
    printed["exact_doubling"] = doubling
    printed["simulated_verdict"] = np.where(
        printed["doubling"] > printed["not_doubling"], "double", "hold"
    )
    printed["exact_verdict"] = np.where(
        printed["exact_doubling"] > printed["exact_not_doubling"], "double", "hold"
    )
    printed["verdicts_agree"] = printed["simulated_verdict"] == printed["exact_verdict"]
    return printed


# ----------------------------------------------------------------------------- measured points


def implied_doubling_points(max_count: int = 100) -> pd.DataFrame:
    """Effective doubling points ``DA``, ``DB`` implied by the exact model, even races.

    Parameters
    ----------
    max_count : int
        Counts ``1..max_count`` (both sides equal), at most 375.

    Returns
    -------
    pandas.DataFrame
        ``count``, ``cubeless_win`` ``p``; ``win_owned``, ``win_opponent``,
        ``win_center`` (cubeful equity ``E`` turned into a win chance
        ``(1 + E)/2``); ``da``, ``db``; ``win_center_predicted`` from (3);
        ``da_center``, the ``DA`` that makes (3) exact given ``db``.

    Notes
    -----
    Inverting [ZK77]_ (1) and (2) with the exact owned and opponent-owned
    equities of the roller A at ``count`` vs ``count``:

    .. math:: DA = p / p_A, \\qquad DB = (p - p_B) / (1 - p_B),

    ``p_A = (1 + E_owned)/2``, ``p_B = (1 + E_opponent)/2``. ``DA`` is always
    defined (``p_A >= p > 0``). ``DB`` is undefined (NaN) where ``p_B = 1``: a sure
    win (counts 1..3). ``win_center_predicted = (p - DB)/(DA - DB)`` is (3) with
    those points, to compare with the exact ``win_center``; ``da_center = DB +
    (p - DB)/p_M`` inverts (3) instead, the paper's reading ("even race ... cube in
    the middle", p. 2), NaN where ``DB`` is.

    Examples
    --------
    [ZK77] p. 2 estimates DA ~ .88 at 40 pips and ~ .90 at 20 (cube centred):

    >>> d = implied_doubling_points(40).set_index("count")
    >>> [round(float(d.loc[40, k]), 3) for k in ("da", "db", "da_center")]
    [0.852, 0.112, 0.849]
    """
    n = whole_number("max_count", max_count, 1, MAX_COUNT)
    counts = np.arange(1, n + 1)
    tables = _cube_tables(MAX_COUNT)
    p = _win(counts, counts)
    win_owned = (1.0 + tables.owned[counts, counts]) / 2.0
    center = _optimal(tables.center[counts, counts], 2.0 * tables.opponent[counts, counts])
    win_center = (1.0 + center) / 2.0
    win_opponent = (1.0 + tables.opponent[counts, counts]) / 2.0
    da = p / win_owned  # [ZK77] eq. (1) inverted
    undefined = win_opponent >= 1.0
    safe = np.where(undefined, 0.0, win_opponent)
    db = np.where(undefined, np.nan, (p - safe) / (1.0 - safe))  # [ZK77] eq. (2) inverted
    predicted = (p - db) / (da - db)  # [ZK77] eq. (3)
    da_center = db + (p - db) / win_center  # [ZK77] eq. (3) inverted; p_M > 0 here
    return pd.DataFrame(
        {
            "count": counts,
            "cubeless_win": p,
            "win_owned": win_owned,
            "win_opponent": win_opponent,
            "win_center": win_center,
            "da": da,
            "db": db,
            "win_center_predicted": predicted,
            "da_center": da_center,
        }
    )


def gnubg_race_cube_life(pips: ArrayLike) -> NDArray[np.float64]:
    """GNU Backgammon's race cube life ``clamp(0.55 + 0.00125 pips, 0.60, 0.70)``.

    Parameters
    ----------
    pips : array_like
        Pip count of the player on roll (as GNU BG's ``EvalEfficiency`` uses it),
        whole numbers in [1, 375].

    Returns
    -------
    numpy.ndarray

    Notes
    -----
    [GNU]_: 0.60 up to 40 pips, 0.70 from 120 pips, linear in between.

    Examples
    --------
    >>> float(gnubg_race_cube_life(80))
    0.65
    """
    pips = _count_array("pips", pips)
    c = GNUBG_RACE_CUBE_LIFE
    raw = c["coefficient"] + c["factor"] * pips
    life: NDArray[np.float64] = np.minimum(np.maximum(raw, c["min"]), c["max"])  # a clamp
    return life


def _decision_values(
    values: Mapping[str, NDArray[np.generic]], actions: tuple[str, ...]
) -> tuple[float, float, float, float, str]:
    """ND, DT, DP, optimal and the action's name of one position, from decision arrays.

    ``values`` holds 0-d arrays ``no_double``, ``double_take``, ``double_pass``,
    ``optimal`` and ``code`` (the index of the action in ``actions``), in the field
    order of :class:`RaceCubeEquities` (and of the match version).
    """
    return (
        float(values["no_double"]),
        float(values["double_take"]),
        float(values["double_pass"]),
        float(values["optimal"]),
        actions[int(values["code"])],
    )


def _offset_pairs(
    offset: int, max_count: int, most: int
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Counts ``(x, x + offset)`` for ``x = 1..max_count``, the second within ``1..most``.

    ``offset`` (in [-100, 100]) and ``max_count`` (in ``1..most``) are checked here.
    """
    shift = whole_number("offset", offset, -100, 100)
    n = whole_number("max_count", max_count, 1, most)
    x = np.arange(1, n + 1)
    y = x + shift
    keep = (y >= 1) & (y <= most)
    return x[keep], y[keep]


def _life_table(
    x: NDArray[np.int64],
    y: NDArray[np.int64],
    p: NDArray[np.float64],
    cubeful: NDArray[np.float64],
    dead: NDArray[np.float64],
    live: NDArray[np.float64],
    **extra: NDArray[np.float64],
) -> pd.DataFrame:
    """The implied cube life along a race, beside the equities it is read from."""
    life = _implied_life(cubeful, dead, live)
    columns = {"on_roll": x, "opponent": y, "cubeless_win": p, "cubeful": cubeful}
    return pd.DataFrame({**columns, "dead": dead, "live": live, "cube_life": life, **extra})


@_race_doc
def implied_cube_life(
    cube: CubePosition = "center", offset: int = 0, max_count: int = 300
) -> pd.DataFrame:
    """Janowski cube life ``x`` implied by the exact model along a race.

    {roller_cube_parameters}
    offset : int
        Opponent's count - roller's count (0: even race), in [-100, 100].
    max_count : int
        Roller's counts run over 1..max_count (opponent's count kept in 1..375).

    Returns
    -------
    pandas.DataFrame
        ``on_roll``, ``opponent``, ``cubeless_win``, ``cubeful``, ``dead``, ``live``,
        ``cube_life`` (NaN where undefined), ``gnubg`` (GNU BG's rule at the
        roller's pip count).

    Notes
    -----
    ``x = (E_cubeful - E_dead) / (E_live - E_dead)`` with ``W = L = 1``, ``E_dead =
    2p - 1`` and ``E_live`` the live-cube equity of Janowski's model for the same
    cube position (from :mod:`cubecore.janowski`). Undefined where ``E_live =
    E_dead``: ``p`` = 0 or 1, and for the owned cube, where the live cube equals the
    dead cube only at the ends too. The pip count is the roller's, as in GNU BG.

    Examples
    --------
    At 100 vs 100, cube centred, the exact race gives ``x = 0.783``; GNU BG's rule
    at 100 pips gives 0.675:

    >>> d = implied_cube_life("center", 0, 100).set_index("on_roll")
    >>> round(float(d.loc[100, "cube_life"]), 3), round(float(d.loc[100, "gnubg"]), 3)
    (0.783, 0.675)
    """
    cube = choice("cube", cube, CUBE_POSITIONS)
    x, y = _offset_pairs(offset, max_count, MAX_COUNT)
    p = _win(x, y)
    cubeful = _cube_arrays(x, y, cube)["optimal"]
    dead = dead_cube_equity(p)
    live = live_cube_equity(p, cube)
    return _life_table(x, y, p, cubeful, dead, live, gnubg=gnubg_race_cube_life(x))


# ----------------------------------------------------------------------------- next exchange


def next_exchange_equities(on_roll: int, opponent: int) -> pd.DataFrame:
    """Cubeless equities after the roller's roll and the opponent's reply.

    Parameters
    ----------
    on_roll, opponent : int
        Counts, whole numbers in [1, 375].

    Returns
    -------
    pandas.DataFrame
        One row per pair of dice totals (169 rows): ``roller_total``,
        ``opponent_total``, ``weight`` (ways / 1296, summing to 1),
        ``roller_count``, ``opponent_count`` (after the exchange, ``<= 0`` meaning
        off) and ``equity``: the roller's cubeless equity ``2p - 1`` with him on
        roll again, ``+1`` if he bore off with the first roll (the reply is then
        moot, its weight kept), ``-1`` if the opponent bore off with the reply.

    Notes
    -----
    The 1296 two-roll sequences collapse onto the 13 x 13 totals. The weighted
    mean of ``equity`` is the cubeless equity of the position, ``2 p(x, y) - 1``.

    Examples
    --------
    >>> d = next_exchange_equities(70, 80)
    >>> round(float((d.weight * d.equity).sum()), 12) == round(
    ...     float(2 * race_win_probability(70, 80) - 1), 12)
    True
    """
    x = whole_number("on_roll", on_roll, 1, MAX_COUNT)
    y = whole_number("opponent", opponent, 1, MAX_COUNT)
    totals = np.array(ROLL_TOTALS)
    ways = np.array(ROLL_WAYS)
    t1, t2 = (g.ravel() for g in np.meshgrid(totals, totals, indexing="ij"))
    w1, w2 = (g.ravel() for g in np.meshgrid(ways, ways, indexing="ij"))
    x_after, y_after = x - t1, y - t2
    roller_off = x_after <= 0
    opponent_off = ~roller_off & (y_after <= 0)
    live = ~roller_off & ~opponent_off
    equity = np.where(roller_off, 1.0, -1.0)
    equity[live] = 2.0 * _win(x_after[live], y_after[live]) - 1.0
    return pd.DataFrame(
        {
            "roller_total": t1,
            "opponent_total": t2,
            "weight": w1 * w2 / _ROLLS**2,
            "roller_count": x_after,
            "opponent_count": y_after,
            "equity": equity,
        }
    )
