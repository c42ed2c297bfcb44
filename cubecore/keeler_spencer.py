"""Proper raising points in a continuous game: Keeler & Spencer (1969).

The game is reduced to its P-game: the indicator ``p`` (A's probability of
winning) moves like Brownian motion on [0, 1] and A wins when it reaches 1
([KS69] section 1, eqs. (1)-(2)). This module computes, for the betting rules
of the paper,

* the first doubling point with at most ``n`` alternating doubles (section 2);
* the raising points ``alpha(i, j)`` and ``beta(i, j)`` when A holds ``i``
  raises of factor ``a`` and B holds ``j`` raises of factor ``b`` that need not
  alternate, by the recursion (8)-(9) and by the coin-flip closed form of
  Theorem 2 (section 3), with A's value of an even game, eq. (19);
* the continuous limit in which each player holds a total raise potential
  (section 4, eq. (18)), its even-game value (eqs. (19)-(20)), the potential at
  which B should resign (Table V), the normal approximation (23) and the
  asymptotic gain ``log(a / b)`` (eq. (26)).

Every probability is A's probability of winning. The printed Tables I-V are
transcribed as ``TABLE_*_PRINTED``; cells where the exact computation
disagrees with the print are listed with their reason in ``TABLE_*_DEVIATIONS``
and ``TEXT_DEVIATIONS``.

References
----------
.. [KS69] E. Keeler and J. Spencer, "Proper raising points in a generalization
   of backgammon", The RAND Corporation, P-4078, May 1969.
   https://www.rand.org/pubs/papers/P4078.html
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Literal, NamedTuple, TypeVar

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from cubecore._docs import fill_doc
from cubecore._normal import normal_cdf
from cubecore._validate import array_in_range, choice, real_in_range, whole_number
from cubecore.printed import compare_printed

#: A probability or raise factor, as a float or as an exact rational (the helpers take either).
_Real = TypeVar("_Real", float, Fraction)
#: An exact or fixed-precision number: a rational, or a decimal at its context's precision.
_Exact = TypeVar("_Exact", Fraction, Decimal)

__all__ = [
    "ALTERNATING_DOUBLING_POINT",
    "MAX_EXACT_RAISES",
    "MAX_LIMITED_DOUBLES",
    "MAX_RAISES",
    "MAX_RESIGNATION_B",
    "MAX_SWEEP_POINTS",
    "MAX_TABLE_SIZE",
    "MAX_TABLE_V_ENTRIES",
    "MAX_TABLE_V_SECONDS",
    "MAX_TREE_RAISES",
    "PRINTED_TABLES",
    "TABLE_III_DEVIATIONS",
    "TABLE_III_PRINTED",
    "TABLE_II_DEVIATIONS",
    "TABLE_II_PRINTED",
    "TABLE_IV_DEVIATIONS",
    "TABLE_IV_PRINTED",
    "TABLE_I_DEVIATIONS",
    "TABLE_I_PRINTED",
    "TABLE_V_DEVIATIONS",
    "TABLE_V_MISSING_B",
    "TABLE_V_PRINTED",
    "TABLE_V_SECONDS",
    "TEXT_DEVIATIONS",
    "RaisingMethod",
    "RaisingPoint",
    "RaisingPoints",
    "RaisingTree",
    "asymptotic_even_game_value",
    "coin_flip_table",
    "continuous_even_game_value",
    "continuous_even_game_value_table",
    "continuous_raising_points",
    "continuous_raising_points_table",
    "continuous_sweep",
    "even_game_value",
    "even_game_value_table",
    "exact_raising_points",
    "limited_doubling_point",
    "limited_doubling_points",
    "normal_raising_point",
    "path_cube_actions",
    "printed_comparison",
    "raising_points",
    "raising_points_table",
    "raising_tree",
    "resignation_potential",
    "resignation_potential_table",
]

#: Doubling point of unlimited alternating doubles, 4/5 ([KS69] eq. (5)).
ALTERNATING_DOUBLING_POINT = 0.8
#: Largest number of raises a player may hold in :func:`raising_points` (cost is O(i + j)).
MAX_RAISES = 100_000
#: Largest number of raises in :func:`exact_raising_points` (exact rationals grow fast).
MAX_EXACT_RAISES = 100
#: Largest total of doubles in :func:`limited_doubling_point` (beyond ~27 the float is 4/5;
#: the exact rational has a 2n-bit denominator).
MAX_LIMITED_DOUBLES = 10_000
#: Largest ``b`` of :func:`resignation_potential`: the root's bracket ``[b, 4 b]`` and the
#: root ``a ~ b e`` stay within float range (up to ~4.5e307). A call costs ~2 ms for
#: ``b <= 1e6`` and up to 0.3 s near this bound (2026-11-28, 2 cores AMD EPYC).
MAX_RESIGNATION_B = 1e307
#: Most entries of :func:`resignation_potential_table`: ~5 ms each for ``b <= 1e6``, so
#: ~5 s (10,000 entries took 36-48 s); see also :data:`TABLE_V_SECONDS`.
MAX_TABLE_V_ENTRIES = 1_000
#: Default wall-time budget of :func:`resignation_potential_table`, in seconds: its large
#: ``b`` cost up to 0.3 s an entry. The app's largest table (80 entries up to
#: ``b = 1e6``) takes ~0.4 s.
TABLE_V_SECONDS = 5.0
#: Longest wall-time budget :func:`resignation_potential_table` accepts, in seconds.
MAX_TABLE_V_SECONDS = 3600.0
#: Largest table side for Tables I-II ("any size up to 30x30", issue 3).
MAX_TABLE_SIZE = 30
#: Largest ``i + j`` for :func:`raising_tree` (the tree has up to 2**(i+j+1) - 1 nodes).
MAX_TREE_RAISES = 8
#: Most potentials :func:`continuous_sweep` evaluates (each is one series of eq. (18)),
#: and most cells of :func:`continuous_even_game_value_table` and
#: :func:`continuous_raising_points_table`.
MAX_SWEEP_POINTS = 10_000

# Series truncation: sum Poisson terms until the proven bound on every omitted
# tail is below this fraction of the partial sum it belongs to (2**-60 < eps/2**7).
_TAIL_RELATIVE_TOLERANCE = 2.0**-60
_MAX_SERIES_DOUBLINGS = 30

#: How a raising point is computed: the recursion (8)-(9) or the coin-flip closed form of Theorem 2.
RaisingMethod = Literal["recursion", "closed_form"]
_METHODS: tuple[RaisingMethod, ...] = ("recursion", "closed_form")
#: A chance within this of a threshold has reached it (lattice paths hit 0.8 exactly).
_PATH_TOLERANCE = 1e-12
#: Which raising point: alpha (A's) or beta (B's), both in A's winning probability.
RaisingPoint = Literal["alpha", "beta"]
_POINTS: tuple[RaisingPoint, ...] = ("alpha", "beta")

_ks_doc = fill_doc(
    raises_parameters="""
    Parameters
    ----------
    i, j : int
        Raises left to A and to B, ``0 <= i, j <= MAX_RAISES``.
    a, b : float
        Raise factors of A and B, finite and ``>= 1``.
    """,
    potentials_parameters="""
    Parameters
    ----------
    a, b : float
        Raise potentials of A and B, finite and ``>= 1``.
    """,
    value_returns="""
    Returns
    -------
    float
        A's expected value in units of the initial stakes, in [-1, 1].
    """,
)


# ---------------------------------------------------------------------------
# Published tables, transcribed exactly as printed in [KS69].
#
# OCR repairs applied to the seed transcription (reading only, never values):
# ". 8945" and "• 9666" are .8945 and .9666 (a space or a bullet for the point);
# the column label "ц" of Tables I-II is "4"; in Tables II and IV the entries
# above the diagonal lost "-." in the OCR ("333" is -.333): the sign is
# restored from the antisymmetry E(i, j) = -E(j, i) of the even-game value,
# which every restored cell satisfies against its mirror below the diagonal.
# ---------------------------------------------------------------------------

_TABLE_I_CELLS = (
    (1.0000, 1.0000, 1.0000, 1.0000, 1.0000, 1.0000, 1.0000, 1.0000, 1.0000, 1.0000),
    (0.7500, 0.8125, 0.8594, 0.8945, 0.9209, 0.9407, 0.9555, 0.9666, 0.9750, 0.9812),
    (0.5625, 0.6563, 0.7305, 0.7891, 0.8352, 0.8715, 0.8999, 0.9221, 0.9395, 0.9531),
    (0.4219, 0.5273, 0.6152, 0.6880, 0.7479, 0.7969, 0.8369, 0.8693, 0.8955, 0.9167),
    (0.3164, 0.4219, 0.5142, 0.5940, 0.6624, 0.7205, 0.7696, 0.8107, 0.8451, 0.8736),
    (0.2373, 0.3362, 0.4268, 0.5085, 0.5812, 0.6451, 0.7008, 0.7488, 0.7900, 0.8252),
    (0.1780, 0.2670, 0.3522, 0.4322, 0.5058, 0.5726, 0.6324, 0.6856, 0.7323, 0.7731),
    (0.1335, 0.2113, 0.2892, 0.3649, 0.4369, 0.5042, 0.5662, 0.6226, 0.6734, 0.7187),
    (0.1001, 0.1669, 0.2364, 0.3064, 0.3750, 0.4410, 0.5033, 0.5613, 0.6147, 0.6634),
    (0.0751, 0.1314, 0.1924, 0.2559, 0.3200, 0.3832, 0.4444, 0.5026, 0.5574, 0.6082),
)
_TABLE_II_CELLS = (
    (0.000, -0.333, -0.778, -1.000, -1.000, -1.000, -1.000, -1.000, -1.000, -1.000),
    (0.333, 0.000, -0.394, -0.870, -1.000, -1.000, -1.000, -1.000, -1.000, -1.000),
    (0.778, 0.394, 0.000, -0.430, -0.919, -1.000, -1.000, -1.000, -1.000, -1.000),
    (1.000, 0.870, 0.430, 0.000, -0.450, -0.944, -1.000, -1.000, -1.000, -1.000),
    (1.000, 1.000, 0.919, 0.450, 0.000, -0.462, -0.958, -1.000, -1.000, -1.000),
    (1.000, 1.000, 1.000, 0.944, 0.462, 0.000, -0.469, -0.967, -1.000, -1.000),
    (1.000, 1.000, 1.000, 1.000, 0.958, 0.469, 0.000, -0.474, -0.972, -1.000),
    (1.000, 1.000, 1.000, 1.000, 1.000, 0.967, 0.474, 0.000, -0.478, -0.976),
    (1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 0.972, 0.478, 0.000, -0.480),
    (1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 1.000, 0.976, 0.480, 0.000),
)
_TABLE_III_CELLS = (
    (1.0000, 1.0000, 1.0000, 1.0000, 1.0000, 1.0000, 1.0000, 1.0000, 1.0000, 1.0000),
    (0.7071, 0.7809, 0.8153, 0.8363, 0.8510, 0.8620, 0.8707, 0.8778, 0.8837, 0.8888),
    (0.5774, 0.6745, 0.7209, 0.7498, 0.7703, 0.7857, 0.7980, 0.8081, 0.8166, 0.8239),
    (0.5000, 0.6074, 0.6597, 0.6927, 0.7161, 0.7340, 0.7483, 0.7601, 0.7700, 0.7786),
    (0.4472, 0.5598, 0.6153, 0.6507, 0.6760, 0.6954, 0.7110, 0.7238, 0.7347, 0.7441),
    (0.4082, 0.5235, 0.5810, 0.6179, 0.6445, 0.6649, 0.6813, 0.6949, 0.7065, 0.7164),
    (0.3780, 0.4945, 0.5534, 0.5913, 0.6187, 0.6398, 0.6568, 0.6710, 0.6830, 0.6934),
    (0.3536, 0.4707, 0.5303, 0.5690, 0.5970, 0.6186, 0.6361, 0.6507, 0.6631, 0.6738),
    (0.3333, 0.4506, 0.5107, 0.5499, 0.5783, 0.6004, 0.6182, 0.6331, 0.6458, 0.6568),
    (0.3162, 0.4333, 0.4938, 0.5332, 0.5620, 0.5844, 0.6025, 0.6176, 0.6305, 0.6418),
)
_TABLE_IV_CELLS = (
    (0.000, -0.414, -0.732, -1.000, -1.000, -1.000, -1.000, -1.000, -1.000, -1.000),
    (0.414, 0.000, -0.287, -0.516, -0.709, -0.878, -1.000, -1.000, -1.000, -1.000),
    (0.732, 0.287, 0.000, -0.220, -0.402, -0.558, -0.696, -0.821, -0.934, -1.000),
    (1.000, 0.516, 0.220, 0.000, -0.178, -0.330, -0.462, -0.581, -0.688, -0.787),
    (1.000, 0.709, 0.402, 0.178, 0.000, -0.150, -0.280, -0.395, -0.500, -0.595),
    (1.000, 0.878, 0.558, 0.330, 0.150, 0.000, -0.129, -0.243, -0.346, -0.439),
    (1.000, 1.000, 0.696, 0.462, 0.280, 0.129, 0.000, -0.114, -0.215, -0.307),
    (1.000, 1.000, 0.821, 0.581, 0.395, 0.243, 0.114, 0.000, -0.101, -0.193),
    (1.000, 1.000, 0.934, 0.688, 0.500, 0.346, 0.215, 0.101, 0.000, -0.091),
    (1.000, 1.000, 1.000, 0.787, 0.595, 0.439, 0.307, 0.193, 0.091, 0.000),
)

#: [KS69] Table I, doubling points alpha(i, j) for a = b = 2 (rows i: A's doubles, columns j: B's).
TABLE_I_PRINTED = pd.DataFrame(
    _TABLE_I_CELLS,
    index=pd.RangeIndex(10, name="i"),
    columns=pd.RangeIndex(10, name="j"),
)
#: [KS69] Table II, A's value of an even game for a = b = 2 (rows i, columns j).
TABLE_II_PRINTED = pd.DataFrame(
    _TABLE_II_CELLS,
    index=pd.RangeIndex(10, name="i"),
    columns=pd.RangeIndex(10, name="j"),
)
#: [KS69] Table III, continuous raising points alpha(a, b) (rows a = 1..10, columns b = 1..10).
TABLE_III_PRINTED = pd.DataFrame(
    _TABLE_III_CELLS,
    index=pd.RangeIndex(1, 11, name="a"),
    columns=pd.RangeIndex(1, 11, name="b"),
)
#: [KS69] Table IV, A's value of an even game with raise potentials a (rows), b (columns).
TABLE_IV_PRINTED = pd.DataFrame(
    _TABLE_IV_CELLS,
    index=pd.RangeIndex(1, 11, name="a"),
    columns=pd.RangeIndex(1, 11, name="b"),
)

# (b, printed a, decimals printed), in increasing b.
_TABLE_V_ROWS = (
    (1.0, 4.0, 1),
    (1.1, 4.2775, 4),
    (1.2, 4.5556, 4),
    (1.3, 4.8342, 4),
    (1.4, 5.1132, 4),
    (1.5, 5.3927, 4),
    (1.6, 5.6725, 4),
    (1.7, 5.9527, 4),
    (1.8, 6.2332, 4),
    (1.9, 6.5141, 4),
    (2.0, 6.7952, 4),
    (2.1, 7.0765, 4),
    (2.2, 7.3581, 4),
    (2.8, 9.0510, 4),
    (2.9, 9.3336, 4),
    (3.0, 9.6164, 4),
    (3.1, 9.8992, 4),
    (3.2, 10.1821, 4),
    (3.3, 10.4650, 4),
    (3.4, 10.7481, 4),
    (3.5, 11.0312, 4),
    (3.6, 11.3144, 4),
    (3.7, 11.5976, 4),
    (3.8, 11.8808, 4),
    (3.9, 12.1641, 4),
    (4.0, 12.4475, 4),
    (4.1, 12.7308, 4),
    (4.2, 13.0142, 4),
    (4.3, 13.2977, 4),
    (4.4, 13.5811, 4),
    (4.5, 13.8646, 4),
    (4.6, 14.1481, 4),
    (4.7, 14.4316, 4),
    (4.8, 14.7151, 4),
    (4.9, 14.9987, 4),
    (5.0, 15.2822, 4),
    (5.1, 15.5658, 4),
    (5.2, 15.8494, 4),
    (5.3, 16.1329, 4),
    (5.4, 16.4165, 4),
    (5.5, 16.7001, 4),
    (5.6, 16.9837, 4),
    (5.7, 17.2673, 4),
    (5.8, 17.5508, 4),
    (5.9, 17.8344, 4),
    (6.0, 18.1180, 4),
    (6.5, 19.5359, 4),
    (7.0, 20.9536, 4),
    (7.5, 22.3712, 4),
    (8.0, 23.7885, 4),
    (8.5, 25.2056, 4),
    (9.0, 26.6224, 4),
    (9.5, 28.0389, 4),
    (10.0, 29.4551, 4),
    (10.5, 30.8710, 4),
    (11.0, 32.2867, 4),
    (11.5, 33.7020, 4),
    (12.0, 35.1171, 4),
    (12.5, 36.5319, 4),
    (13.0, 37.9464, 4),
    (13.5, 39.3607, 4),
    (14.0, 40.7746, 4),
    (14.5, 42.1884, 4),
    (15.0, 43.6018, 4),
    (15.5, 45.0150, 4),
    (16.0, 46.4280, 4),
    (16.5, 47.8407, 4),
    (17.0, 49.2533, 4),
    (17.5, 50.6655, 4),
    (18.0, 52.0776, 4),
    (18.5, 53.4895, 4),
    (19.0, 54.9011, 4),
    (19.5, 56.3126, 4),
    (20.0, 57.7238, 4),
    (25, 71.827, 3),
    (30, 85.914, 3),
    (35, 99.990, 3),
    (40, 114.055, 3),
    (45, 128.112, 3),
    (50, 142.163, 3),
    (55, 156.208, 3),
    (60, 170.248, 3),
    (65, 184.283, 3),
    (70, 198.315, 3),
    (75, 212.344, 3),
    (80, 226.371, 3),
    (85, 240.395, 3),
    (90, 254.417, 3),
    (95, 268.437, 3),
    (100, 282.456, 3),
    (200, 562.752, 3),
    (500, 1405.576, 3),
    (1000, 2819.971, 3),
)
#: [KS69] Table V, the raise potential a at which B should resign, for B's potential b.
#: Column ``decimals`` is the number of printed decimals of ``a``.
TABLE_V_PRINTED = pd.DataFrame(_TABLE_V_ROWS, columns=["b", "a", "decimals"])
_TABLE_V_B = tuple(row[0] for row in _TABLE_V_ROWS)
#: Rows b = 2.3, ..., 2.7 of Table V are missing from the transcription (lost
#: from the seed text); they are not reproduced and not invented.
TABLE_V_MISSING_B = (2.3, 2.4, 2.5, 2.6, 2.7)

# Tables I-IV agree with the exact computation in every cell to half a unit in
# the last printed place. The closest calls are rounding ties or near ties, all
# printed correctly: Table I (2, 1) is exactly 21/32 = .65625, printed .6563
# (round half up); Table III (3, 1) is 1/sqrt(3) = .577350..., printed .5774.

#: Cells of Table I that disagree with the exact value: none.
TABLE_I_DEVIATIONS: dict[tuple[int, int], tuple[float, str]] = {}
#: Cells of Table II that disagree with the exact value: none (signs restored, see above).
TABLE_II_DEVIATIONS: dict[tuple[int, int], tuple[float, str]] = {}
#: Cells of Table III that disagree with the exact value: none.
TABLE_III_DEVIATIONS: dict[tuple[int, int], tuple[float, str]] = {}
#: Cells of Table IV that disagree with the exact value: none (signs restored, see above).
TABLE_IV_DEVIATIONS: dict[tuple[int, int], tuple[float, str]] = {}

_TABLE_V_BIAS = (
    "error in the paper's own computation: every printed a from b = 5.2 on is too large, "
    "by a bias that grows smoothly with b (the exact alpha(printed a, b) falls short of 1/2 "
    "by 5e-7 at b = 5.2, 8e-7 at b = 10, 7e-5 at b = 100 and 9e-4 at b = 1000, where the "
    "printed 2819.971 exceeds the exact 2786.013 by 1.2%); not OCR damage (the digits "
    "are smooth in b) and not rounding (up to 33958 units of the last place); the printed "
    "a/(b e) even turns back up at b = 1000 against the paper's own 'a ~ b e from above'"
)
#: Cells of Table V (keyed by b) whose printed a is not the exact root, rounded.
TABLE_V_DEVIATIONS: dict[float, tuple[float, str]] = {
    b: (printed, _TABLE_V_BIAS)
    for b, printed in (
        (5.2, 15.8494),
        (5.7, 17.2673),
        (7.5, 22.3712),
        (8.0, 23.7885),
        (8.5, 25.2056),
        (9.0, 26.6224),
        (9.5, 28.0389),
        (10.0, 29.4551),
        (10.5, 30.8710),
        (11.0, 32.2867),
        (11.5, 33.7020),
        (12.0, 35.1171),
        (12.5, 36.5319),
        (13.0, 37.9464),
        (13.5, 39.3607),
        (14.0, 40.7746),
        (14.5, 42.1884),
        (15.0, 43.6018),
        (15.5, 45.0150),
        (16.0, 46.4280),
        (16.5, 47.8407),
        (17.0, 49.2533),
        (17.5, 50.6655),
        (18.0, 52.0776),
        (18.5, 53.4895),
        (19.0, 54.9011),
        (19.5, 56.3126),
        (20.0, 57.7238),
        (25, 71.827),
        (30, 85.914),
        (35, 99.990),
        (40, 114.055),
        (45, 128.112),
        (50, 142.163),
        (55, 156.208),
        (60, 170.248),
        (65, 184.283),
        (70, 198.315),
        (75, 212.344),
        (80, 226.371),
        (85, 240.395),
        (90, 254.417),
        (95, 268.437),
        (100, 282.456),
        (200, 562.752),
        (500, 1405.576),
        (1000, 2819.971),
    )
}

#: Statements in the transcribed text that the exact computation contradicts:
#: location -> (as printed, reason).
TEXT_DEVIATIONS: dict[str, tuple[str, str]] = {
    "section 3, proof of Theorem 2, initial conditions": (
        "beta(i,0) = 1",
        "must be beta(i, 0) = 0: with no raises left B never raises, so the game only "
        "ends at 0; Prob[K_a < K_b] = 0 when K_b = 0, and recursion (8) with beta(i-1, 0) = 0 "
        "gives alpha(i, 0) = ((a+1)/(2a))**i, Table I column 0",
    ),
    "section 3, example 'A starts with 10 doubles and B with 3'": (
        ".4938",
        "alpha(10, 3) for a = b = 2 is 111537/524288 = 0.2127; .4938 is Table III "
        "(a = 10, b = 3), the continuous raising point: the example quotes the wrong table. "
        "Its conclusion (A doubles at the start of an even game) holds for both",
    ),
    "section 3, worked example, coin-flip reading": (
        "alpha(2,1) = 3/4*1/4*1/3 + 1/4*1/3*3/4",
        "the first path term 3/4*3/4 (A wins both coin flips) is missing: "
        "9/16 + 1/16 + 1/16 = 11/16, whereas the printed sum is 1/8",
    ),
}


# ---------------------------------------------------------------------------
# Result types
# ---------------------------------------------------------------------------


class RaisingPoints(NamedTuple):
    """A's raising point ``alpha`` and B's raising point ``beta``, both in A's winning probability.

    A raises when ``p`` rises to ``alpha``; B raises when ``p`` falls to ``beta``.
    Fields are floats, or :class:`fractions.Fraction` from :func:`exact_raising_points`.
    """

    alpha: float | Fraction
    beta: float | Fraction


@dataclass(frozen=True)
class RaisingTree:
    """The game tree of section 3 ([KS69] Fig. 1) as two tidy tables.

    Attributes
    ----------
    nodes : pandas.DataFrame
        One row per node: ``node`` (id), ``label`` (``"α(i,j)"``/``"β(i,j)"``),
        ``event`` (``"A raises"``, ``"B raises"``, ``"A wins"``, ``"B wins"``),
        ``raises_a``, ``raises_b``, ``depth``, ``state`` (A's winning probability
        at the node), ``stakes`` (stakes when the node is reached), ``value_to_a``
        (A's expected value there), ``path_probability`` (chance the game passes
        through the node), and ``state_exact``, ``value_exact``,
        ``path_probability_exact`` as strings of exact fractions.
    edges : pandas.DataFrame
        One row per edge: ``parent``, ``child``, ``outcome`` (``"heads"``: the
        raiser reaches his next raising point; ``"upset"``: the opponent reaches
        his), ``probability`` and ``probability_exact``.
    """

    nodes: pd.DataFrame
    edges: pd.DataFrame


class _Race(NamedTuple):
    """``P[X < Y]``, ``P[X = Y]``, ``P[X > Y]`` for A's upsets X and B's upsets Y."""

    less: float | Fraction
    tie: float | Fraction
    more: float | Fraction


# ---------------------------------------------------------------------------
# Private helpers
# ---------------------------------------------------------------------------


def _raise_factor(name: str, value: float) -> float:
    """Validate a raise factor (``>= 1``, finite) and return it as a float."""
    return real_in_range(name, value, 1.0, math.inf)


def _exact_factor(name: str, value: float | Fraction) -> Fraction:
    """Validate a raise factor and return it as an exact rational.

    A float is read as the decimal it prints as (``2.1`` -> 21/10), which is the
    number a user typed, rather than its binary expansion.
    """
    real_in_range(name, value, 1.0, math.inf)
    if isinstance(value, Fraction):
        return value
    if isinstance(value, (int, np.integer)):
        return Fraction(int(value))
    return Fraction(repr(float(value)))


def _upset_probability(factor: _Real) -> _Real:
    """Chance that a raise by ``factor`` is followed by an upset, (f - 1)/(2 f).

    [KS69] eq. (11); after a raise at ``alpha(i, j)`` the opponent reaches his
    raising point before the raiser reaches his next one with this probability.
    Works for floats and for Fractions.
    """
    return (factor - 1) / (2 * factor)


def _pmf_from_log_ratios(log_ratios: NDArray[np.float64], mode: int) -> NDArray[np.float64]:
    """A pmf on ``0..len(log_ratios)`` from ``log(p(k) / p(k-1))``, normalised to sum 1.

    Logs of the weights relative to the mode are accumulated outwards from the
    mode and exponentiated once, then divided by their sum: the terms that
    carry the mass are accurate to a few ulp, no term overflows, and no large
    log-factorial (whose rounding would swamp a small pmf) is ever formed.
    """
    log_weights = np.zeros(log_ratios.size + 1)
    log_weights[mode + 1 :] = np.cumsum(log_ratios[mode:])
    log_weights[:mode] = -np.cumsum(log_ratios[mode - 1 :: -1])[::-1] if mode > 0 else 0.0
    weights = np.exp(log_weights)
    return weights / math.fsum(weights)


def _binomial_pmf_float(trials: int, p: float) -> NDArray[np.float64]:
    """``P[K = k]`` for ``K ~ Binomial(trials, p)``, ``k = 0..trials``, in log space.

    Successive ratios ``p(k) / p(k-1) = (trials - k + 1) / k * p / (1 - p)``.
    """
    if p == 0.0:  # factor 1: a raise that changes nothing is never upset
        pmf = np.zeros(trials + 1)
        pmf[0] = 1.0
        return pmf
    if trials == 0:
        return np.ones(1)
    k = np.arange(1, trials + 1)
    log_ratios = np.log((trials - k + 1) / k) + (math.log(p) - math.log1p(-p))
    return _pmf_from_log_ratios(log_ratios, math.floor((trials + 1) * p))


def _binomial_pmf_exact(trials: int, p: Fraction) -> list[Fraction]:
    """``P[K = k]`` for ``K ~ Binomial(trials, p)`` in exact rationals."""
    q = 1 - p
    return [math.comb(trials, k) * p**k * q ** (trials - k) for k in range(trials + 1)]


def _poisson_pmf(mean: float, count: int) -> NDArray[np.float64]:
    """``P[X = k]`` for ``X ~ Poisson(mean)``, ``k = 0..count-1``, in log space.

    Successive ratios ``p(k) / p(k-1) = mean / k``; the weights are normalised
    over ``0..count-1``, which the caller makes long enough that the omitted
    tail is below 2**-60 (``count > mean + 30``, so the mode ``floor(mean)``
    is inside).
    """
    if mean == 0.0:  # raise potential 1: no upsets at all
        pmf = np.zeros(count)
        pmf[0] = 1.0
        return pmf
    log_ratios = math.log(mean) - np.log(np.arange(1, count))
    return _pmf_from_log_ratios(log_ratios, math.floor(mean))


def _poisson_tail_bound(mean: float, next_term: float, last: int) -> float:
    """Upper bound on ``P[X > last]`` given ``next_term = P[X = last + 1]``.

    For ``n >= last + 1`` the ratio of successive terms is
    ``mean / (n + 1) <= mean / (last + 2) = r < 1``, so the tail is at most the
    geometric series ``next_term / (1 - r)``. Requires ``last + 2 > mean``.
    """
    ratio = mean / (last + 2)
    return next_term / (1.0 - ratio)


def _race_float(pmf_x: NDArray[np.float64], pmf_y: NDArray[np.float64]) -> _Race:
    """Race probabilities of independent counts with the given (equal-length) pmfs.

    Every probability is a sum of non-negative terms (no subtraction), so each
    keeps its relative precision however small it is.
    """
    below_x = np.concatenate(([0.0], np.cumsum(pmf_x)[:-1]))  # P[X < k]
    below_y = np.concatenate(([0.0], np.cumsum(pmf_y)[:-1]))  # P[Y < k]
    return _Race(
        less=math.fsum(pmf_y * below_x),
        tie=math.fsum(pmf_x * pmf_y),
        more=math.fsum(pmf_x * below_y),
    )


def _race_sums(
    pmf_x: list[_Exact], pmf_y: list[_Exact], zero: _Exact
) -> tuple[_Exact, _Exact, _Exact]:
    """``P[X < Y]``, ``P[X = Y]``, ``P[X > Y]`` of independent counts, pmfs of one length.

    In the pmfs' own arithmetic: exact for Fractions, the context's precision for
    Decimals (the tests' 40-digit check of the continuous race).
    """
    less = tie = more = below_x = below_y = zero
    for x, y in zip(pmf_x, pmf_y, strict=True):
        less += y * below_x
        more += x * below_y
        tie += x * y
        below_x += x
        below_y += y
    return less, tie, more


def _race_exact(pmf_x: list[Fraction], pmf_y: list[Fraction]) -> _Race:
    """Exact race probabilities for pmfs given as lists of Fractions."""
    size = max(len(pmf_x), len(pmf_y))
    pmf_x = pmf_x + [Fraction(0)] * (size - len(pmf_x))
    pmf_y = pmf_y + [Fraction(0)] * (size - len(pmf_y))
    return _Race(*_race_sums(pmf_x, pmf_y, Fraction(0)))


def _discrete_race(i: int, j: int, a: float, b: float) -> _Race:
    """Theorem 2: K_a ~ Bin(i, (a-1)/(2a)) against K_b ~ Bin(j, (b-1)/(2b)), in floats."""
    size = max(i, j) + 1
    pmf_a = np.zeros(size)
    pmf_b = np.zeros(size)
    pmf_a[: i + 1] = _binomial_pmf_float(i, _upset_probability(a))
    pmf_b[: j + 1] = _binomial_pmf_float(j, _upset_probability(b))
    return _race_float(pmf_a, pmf_b)


def _continuous_race(half_log_a: float, half_log_b: float) -> _Race:
    """Race of X ~ Poisson(L) against Y ~ Poisson(M), [KS69] eqs. (16)-(18), (22).

    The series are summed over ``k = 0..K`` with ``K`` doubled until the proven
    bound on every omitted part is below ``_TAIL_RELATIVE_TOLERANCE`` times the
    partial sum it belongs to: the omitted part of ``P[X < Y]`` is at most
    ``P[Y > K]``, of ``P[X > Y]`` at most ``P[X > K]``, and of ``P[X = Y]`` at
    most ``P[X > K] P[Y > K]``; each Poisson tail is bounded by
    :func:`_poisson_tail_bound`. No fixed truncation.
    """
    largest = max(half_log_a, half_log_b)
    last = math.ceil(largest + 10.0 * math.sqrt(largest) + 30.0)
    for _ in range(_MAX_SERIES_DOUBLINGS):
        pmf_x = _poisson_pmf(half_log_a, last + 2)
        pmf_y = _poisson_pmf(half_log_b, last + 2)
        race = _race_float(pmf_x[:-1], pmf_y[:-1])
        tail_x = _poisson_tail_bound(half_log_a, pmf_x[-1], last)
        tail_y = _poisson_tail_bound(half_log_b, pmf_y[-1], last)
        if (
            tail_y <= _TAIL_RELATIVE_TOLERANCE * race.less
            and tail_x <= _TAIL_RELATIVE_TOLERANCE * race.more
            and tail_x * tail_y <= _TAIL_RELATIVE_TOLERANCE * race.tie
        ):
            return race
        last *= 2
    raise RuntimeError("Poisson series failed to converge")  # pragma: no cover


def _points(race: _Race) -> RaisingPoints:
    """Raising points from race probabilities: ``alpha = P[X <= Y]``, ``beta = P[X < Y]``.

    Each is taken from whichever of its two exact expressions is the more
    accurate in floating point: ``alpha = less + tie`` or ``1 - more``, and
    ``beta = less`` or ``1 - (tie + more)``, using the direct sum below 1/2
    and the complement above, so that neither leaves [0, 1] by rounding.
    """
    if isinstance(race.tie, Fraction):
        return RaisingPoints(alpha=race.less + race.tie, beta=race.less)
    alpha = race.less + race.tie if race.more >= 0.5 else 1.0 - race.more
    beta = race.less if race.less <= 0.5 else 1.0 - (race.tie + race.more)
    return RaisingPoints(alpha=alpha, beta=beta)


def _even_value(race: _Race) -> float | Fraction:
    """A's value of an even game from race probabilities, [KS69] eq. (19).

    With ``alpha = less + tie`` and ``beta = less``:
    ``(1 - beta - alpha) / (alpha - beta) = (more - less) / tie``, computed in
    the second form so that no probability is recovered by subtraction.
    ``alpha <= 1/2``: A raises at once and B resigns, +1; ``beta >= 1/2``: -1.
    """
    half = Fraction(1, 2) if isinstance(race.tie, Fraction) else 0.5
    if race.less + race.tie <= half:
        return 1 if isinstance(race.tie, Fraction) else 1.0
    if race.less >= half:
        return -1 if isinstance(race.tie, Fraction) else -1.0
    return (race.more - race.less) / race.tie


def _recursion_grid(
    size_i: int, size_j: int, a: _Real, b: _Real
) -> tuple[list[list[_Real]], list[list[_Real]]]:
    """``alpha`` and ``beta`` for ``i < size_i``, ``j < size_j`` by [KS69] eqs. (8)-(9).

    Boundary: ``alpha(0, j) = 1`` (A with no raise left wins only at 1) and
    ``beta(i, 0) = 0`` (B with no raise left loses only at 0). Generic over
    floats and Fractions.
    """
    heads_a = (a + 1) / (2 * a)  # [KS69] eq. (8)
    upset_a = (a - 1) / (2 * a)
    upset_b = (b - 1) / (2 * b)  # [KS69] eq. (9)
    heads_b = (b + 1) / (2 * b)
    one = Fraction(1) if isinstance(a, Fraction) else 1.0
    alpha = [[one] * size_j for _ in range(size_i)]
    beta = [[one - one] * size_j for _ in range(size_i)]
    for i in range(size_i):
        for j in range(size_j):
            if i > 0:
                alpha[i][j] = heads_a * alpha[i - 1][j] + upset_a * beta[i - 1][j]
            if j > 0:
                beta[i][j] = upset_b * alpha[i][j - 1] + heads_b * beta[i][j - 1]
    return alpha, beta


def _fraction_text(value: Fraction) -> str:
    """An exact rational as ``"p/q"`` (or ``"p"`` when whole)."""
    return str(value)


def _half_log(name: str, value: float) -> float:
    """``log(value) / 2`` of a validated raise potential: [KS69] eq. (16)."""
    return 0.5 * math.log(_raise_factor(name, value))


def _potentials(name: str, values: ArrayLike) -> NDArray[np.float64]:
    """Validate a 1-D, non-empty sequence of raise potentials ``>= 1``."""
    array = np.atleast_1d(array_in_range(name, values, 1.0, math.inf))
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"`{name}` must be a non-empty 1-D sequence of numbers >= 1")
    return array


# ---------------------------------------------------------------------------
# Section 2: limited alternating doubles
# ---------------------------------------------------------------------------


def limited_doubling_point(n: int) -> float:
    r"""First doubling point when at most ``n`` doubles may be made in total.

    .. math:: \alpha(n) = \frac{4}{5} + \frac{(-1)^n}{4^n \cdot 5}

    Parameters
    ----------
    n : int
        Total number of (alternating) doubles still allowed,
        ``0 <= n <= MAX_LIMITED_DOUBLES``.

    Returns
    -------
    float
        A's winning probability at which he should make the first double.

    Notes
    -----
    [KS69] section 2, last paragraph. The formula solves the recursion
    ``alpha(n) = 1 - alpha(n - 1) / 4``: when A doubles at ``x`` the taker B
    is indifferent between folding (-K) and playing on for 2K until either A
    wins or B's own doubling point ``1 - alpha(n - 1)`` is reached, where A
    is indifferent and may as well fold; the lemma (2) then gives
    ``x = 1 - alpha(n - 1) / 4``. Degenerate case ``n = 0``: no double is
    allowed and the formula gives 1, i.e. A never doubles before he has won.
    ``n -> inf`` gives 4/5, eq. (5). Computed in exact rationals, then
    rounded once.

    Examples
    --------
    One double in total: B takes up to 25%; many doubles: 80%, eq. (5).

    >>> limited_doubling_point(1), limited_doubling_point(2)
    (0.75, 0.8125)
    >>> limited_doubling_point(40)
    0.8
    """
    count = whole_number("n", n, 0, MAX_LIMITED_DOUBLES)
    return float(Fraction(4, 5) + Fraction((-1) ** count, 5 * 4**count))


def path_cube_actions(
    p_values: ArrayLike, double_point: float = ALTERNATING_DOUBLING_POINT
) -> pd.DataFrame:
    r"""The cube actions along one path of the P-game: A doubles at ``double_point``, B at 80%.

    The cube starts centred with stakes 1. Whenever the player who may double
    (the cube is centred or his) sees his own winning chance reach his doubling
    point, he doubles: A at ``p >= double_point``, B at ``p <= 1 - 0.8``
    ([KS69] section 2, eq. (5)). The doubled player takes iff his own chance
    is at least 20% (the optimal take point; exactly 20% is the indifference of
    eq. (3)) and otherwise drops, ending the game. The game also ends when the
    indicator reaches 1 (A wins) or 0 (B wins), [KS69] section 1.

    Parameters
    ----------
    p_values : array_like
        A's winning chance along the path, each in [0, 1] (e.g. the ``p``
        column of :func:`cubecore.pgame.p_game_path`).
    double_point : float
        A's doubling point, in (0.2, 1] (1: A never doubles).

    Returns
    -------
    pandas.DataFrame
        One row per event, in order: ``step`` (index into ``p_values``),
        ``p``, ``player`` ("A" or "B"), ``action`` ("doubles", "takes",
        "drops", "wins"), ``stakes`` after the event, ``owner`` of the cube
        after it ("centre", "A", "B") and ``points_a`` (A's points when the
        game ends on this event, else NaN). Empty when the path ends before
        any event.

    Notes
    -----
    Degenerate cases: with ``double_point > 0.8`` B drops A's double (his
    chance is below 20%); a chance within 1e-12 of a threshold counts as
    having reached it (lattice paths hit 0.8 and 0.2 exactly).

    Examples
    --------
    A path that climbs from 1/2 to 1: A doubles at 80%, B takes, A wins 2.

    >>> path_cube_actions([0.5, 0.8, 1.0])[["player", "action", "stakes"]].values.tolist()
    [['A', 'doubles', 2.0], ['B', 'takes', 2.0], ['A', 'wins', 2.0]]
    """
    chances = np.atleast_1d(array_in_range("p_values", p_values, 0.0, 1.0))
    if chances.ndim != 1:
        raise ValueError("`p_values` must be a 1-D sequence of chances in [0, 1]")
    double_a = real_in_range("double_point", double_point, 0.0, 1.0)
    if double_a <= 1.0 - ALTERNATING_DOUBLING_POINT + _PATH_TOLERANCE:
        raise ValueError("`double_point` must lie in (0.2, 1]")
    take_chance = 1.0 - ALTERNATING_DOUBLING_POINT  # the optimal take point, 20%
    double_b = 1.0 - ALTERNATING_DOUBLING_POINT  # B doubles when A's chance falls to 20%
    rows: list[tuple[int, float, str, str, float, str, float]] = []
    stakes, owner = 1.0, "centre"
    for step, p in enumerate(chances.tolist()):
        if p >= 1.0 - _PATH_TOLERANCE:
            rows.append((step, p, "A", "wins", stakes, owner, stakes))
            break
        if p <= _PATH_TOLERANCE:
            rows.append((step, p, "B", "wins", stakes, owner, -stakes))
            break
        if owner != "B" and double_a < 1.0 and p >= double_a - _PATH_TOLERANCE:
            doubler, taker, taker_chance, sign = "A", "B", 1.0 - p, 1.0
        elif owner != "A" and p <= double_b + _PATH_TOLERANCE:
            doubler, taker, taker_chance, sign = "B", "A", p, -1.0
        else:
            continue
        rows.append((step, p, doubler, "doubles", 2.0 * stakes, owner, math.nan))
        if taker_chance < take_chance - _PATH_TOLERANCE:
            rows.append((step, p, taker, "drops", stakes, owner, sign * stakes))
            break
        stakes, owner = 2.0 * stakes, taker
        rows.append((step, p, taker, "takes", stakes, owner, math.nan))
    columns = ["step", "p", "player", "action", "stakes", "owner", "points_a"]
    return pd.DataFrame(rows, columns=columns)


def limited_doubling_points(n_max: int = 10) -> pd.DataFrame:
    """Doubling points of :func:`limited_doubling_point` for ``n = 0..n_max``.

    Returns a tidy DataFrame with columns ``n``, ``doubling_point`` and
    ``limit`` (the unlimited point 4/5, [KS69] eq. (5)) for charting against n.

    Examples
    --------
    >>> limited_doubling_points(3)["doubling_point"].tolist()
    [1.0, 0.75, 0.8125, 0.796875]
    """
    top = whole_number("n_max", n_max, 0, 1000)
    counts = range(top + 1)
    return pd.DataFrame(
        {
            "n": list(counts),
            "doubling_point": [limited_doubling_point(n) for n in counts],
            "limit": ALTERNATING_DOUBLING_POINT,
        }
    )


# ---------------------------------------------------------------------------
# Section 3: non-alternating raises
# ---------------------------------------------------------------------------


@_ks_doc
def raising_points(i: int, j: int, a: float = 2.0, b: float = 2.0) -> RaisingPoints:
    r"""Raising points when A holds ``i`` raises of factor ``a`` and B ``j`` of factor ``b``.

    Theorem 2 of [KS69]: with independent upset counts
    ``K_a ~ Binomial(i, (a-1)/(2a))`` and ``K_b ~ Binomial(j, (b-1)/(2b))``
    (eq. (11)),

    .. math:: \alpha(i, j) = P[K_a \le K_b], \qquad \beta(i, j) = P[K_a < K_b].

    This is the solution of the recursion (8)-(9),
    ``alpha(i,j) = (a+1)/(2a) alpha(i-1,j) + (a-1)/(2a) beta(i-1,j)`` and
    ``beta(i,j) = (b-1)/(2b) alpha(i,j-1) + (b+1)/(2b) beta(i,j-1)``, with
    ``alpha(0, j) = 1`` and ``beta(i, 0) = 0``
    (see :func:`raising_points_table` for both paths).

    {raises_parameters}

    Returns
    -------
    RaisingPoints
        ``alpha``: A raises when his winning probability rises to it (B is then
        indifferent between folding and playing on); ``beta``: B raises when
        A's winning probability falls to it.

    Notes
    -----
    The transcription of the proof of Theorem 2 prints the initial condition
    ``beta(i, 0) = 1``; that is an error (listed in ``TEXT_DEVIATIONS``): with
    no raise left B never raises, so his "raising point" is the end of the game
    at 0, and indeed ``P[K_a < K_b] = 0`` when ``K_b = 0``.
    Degenerate cases: ``i = 0`` gives ``alpha = 1``; ``j = 0`` gives
    ``beta = 0``; a factor of 1 is a raise that is never upset
    (probability (1-1)/2 = 0), the same as holding no raise.
    Always ``alpha > beta``: ``alpha - beta = P[K_a = K_b] > 0``. Every
    probability is a sum of non-negative terms in log space.

    Examples
    --------
    [KS69] Table I: one double each, and the worked example (a = 2, b = 3).

    >>> round(raising_points(1, 1).alpha, 4)
    0.8125
    >>> round(raising_points(2, 1, a=2, b=3).alpha, 14)  # 11/16
    0.6875
    """
    raises_a = whole_number("i", i, 0, MAX_RAISES)
    raises_b = whole_number("j", j, 0, MAX_RAISES)
    race = _discrete_race(raises_a, raises_b, _raise_factor("a", a), _raise_factor("b", b))
    return _points(race)


def exact_raising_points(
    i: int,
    j: int,
    a: float | Fraction = 2,
    b: float | Fraction = 2,
    method: RaisingMethod = "closed_form",
) -> RaisingPoints:
    """Raising points of :func:`raising_points` in exact rational arithmetic.

    Parameters
    ----------
    i, j : int
        Raises left to A and to B, ``0 <= i, j <= MAX_EXACT_RAISES``.
    a, b : int, float or Fraction
        Raise factors ``>= 1``; a float is read as the decimal it prints as
        (``2.1`` is 21/10).
    method : {"closed_form", "recursion"}
        Theorem 2 (binomial race) or the recursion (8)-(9) of [KS69].

    Returns
    -------
    RaisingPoints
        ``alpha`` and ``beta`` as :class:`fractions.Fraction`.

    Examples
    --------
    [KS69] section 3, worked example: A has two raises of 2, B one of 3.

    >>> exact_raising_points(2, 1, a=2, b=3)
    RaisingPoints(alpha=Fraction(11, 16), beta=Fraction(3, 16))
    """
    raises_a = whole_number("i", i, 0, MAX_EXACT_RAISES)
    raises_b = whole_number("j", j, 0, MAX_EXACT_RAISES)
    factor_a = _exact_factor("a", a)
    factor_b = _exact_factor("b", b)
    if choice("method", method, _METHODS) == "recursion":
        alpha, beta = _recursion_grid(raises_a + 1, raises_b + 1, factor_a, factor_b)
        return RaisingPoints(alpha[raises_a][raises_b], beta[raises_a][raises_b])
    race = _race_exact(
        _binomial_pmf_exact(raises_a, _upset_probability(factor_a)),
        _binomial_pmf_exact(raises_b, _upset_probability(factor_b)),
    )
    return _points(race)


@_ks_doc
def even_game_value(i: int, j: int, a: float = 2.0, b: float = 2.0) -> float:
    r"""A's expected value of an even game (p = 1/2, stakes 1) with ``i`` and ``j`` raises left.

    [KS69] eq. (19), applied to the raising points of :func:`raising_points`:

    .. math:: E = \frac{(1/2 - \beta) - (\alpha - 1/2)}{\alpha - \beta}
                = \frac{1 - \alpha - \beta}{\alpha - \beta}
                \quad\text{if } \beta < 1/2 < \alpha,

    +1 if ``alpha <= 1/2`` (A raises at once and B resigns) and -1 if
    ``beta >= 1/2`` (B raises at once and A resigns).

    {raises_parameters}

    {value_returns}

    Notes
    -----
    Boundaries: eq. (19) tends to exactly +1 as ``alpha -> 1/2`` and to -1 as
    ``beta -> 1/2``, so the value is continuous and it does not matter to the
    value whether the boundary is put in the dominance branch; we put it there
    (``alpha <= 1/2`` gives +1, ``beta >= 1/2`` gives -1) because at
    ``alpha = 1/2`` A raises at the start and B is indifferent between folding
    and playing on. Both cannot hold since ``alpha - beta = P[K_a = K_b] > 0``.
    In the race form ``E = (P[K_a > K_b] - P[K_a < K_b]) / P[K_a = K_b]``,
    which avoids the cancellation in ``1 - alpha - beta``.

    Examples
    --------
    [KS69] Table II and section 5: A has 3 doubles and B has 2.

    >>> round(even_game_value(3, 2), 3)
    0.43
    >>> even_game_value(3, 0)
    1.0
    """
    raises_a = whole_number("i", i, 0, MAX_RAISES)
    raises_b = whole_number("j", j, 0, MAX_RAISES)
    race = _discrete_race(raises_a, raises_b, _raise_factor("a", a), _raise_factor("b", b))
    return float(_even_value(race))


def _table_shape(size_i: int, size_j: int) -> tuple[int, int]:
    """Validate the sides of a Table I/II style table."""
    return (
        whole_number("size_i", size_i, 1, MAX_TABLE_SIZE),
        whole_number("size_j", size_j, 1, MAX_TABLE_SIZE),
    )


def _ij_frame(cells: ArrayLike, size_i: int, size_j: int) -> pd.DataFrame:
    """A wide table with rows ``i`` (A's raises) and columns ``j`` (B's raises)."""
    return pd.DataFrame(
        np.asarray(cells, dtype=float),
        index=pd.RangeIndex(size_i, name="i"),
        columns=pd.RangeIndex(size_j, name="j"),
    )


def raising_points_table(
    size_i: int = 10,
    size_j: int = 10,
    a: float = 2.0,
    b: float = 2.0,
    *,
    point: RaisingPoint = "alpha",
    method: RaisingMethod = "recursion",
) -> pd.DataFrame:
    """Table I of [KS69] for any factors and size: raising points, ``i < size_i``, ``j < size_j``.

    Parameters
    ----------
    size_i, size_j : int
        Number of rows (A's raises 0..size_i-1) and columns (B's raises
        0..size_j-1), each in ``[1, MAX_TABLE_SIZE]``.
    a, b : float
        Raise factors, finite and ``>= 1``. Table I is ``a = b = 2``.
    point : {"alpha", "beta"}
        A's raising point (Table I) or B's.
    method : {"recursion", "closed_form"}
        The recursion (8)-(9) with ``alpha(0, j) = 1``, ``beta(i, 0) = 0``, or
        Theorem 2's binomial race (eq. (11)). Both give the same numbers to
        rounding.

    Returns
    -------
    pandas.DataFrame
        Wide table, index ``i``, columns ``j``, as printed in the paper
        (``.stack()`` gives the tidy form).

    Examples
    --------
    [KS69] Table I, row 1:

    >>> raising_points_table(2, 4).loc[1].round(4).tolist()
    [0.75, 0.8125, 0.8594, 0.8945]
    """
    rows, cols = _table_shape(size_i, size_j)
    factor_a = _raise_factor("a", a)
    factor_b = _raise_factor("b", b)
    which = choice("point", point, _POINTS)
    if choice("method", method, _METHODS) == "recursion":
        alpha, beta = _recursion_grid(rows, cols, factor_a, factor_b)
        return _ij_frame(alpha if which == "alpha" else beta, rows, cols)
    cells = np.empty((rows, cols))
    for i in range(rows):
        for j in range(cols):
            race = _discrete_race(i, j, factor_a, factor_b)
            cells[i, j] = getattr(_points(race), which)
    return _ij_frame(cells, rows, cols)


def even_game_value_table(
    size_i: int = 10, size_j: int = 10, a: float = 2.0, b: float = 2.0
) -> pd.DataFrame:
    """Table II of [KS69] for any factors and size: A's even-game value, eq. (19).

    See :func:`even_game_value`; rows ``i`` (A's raises), columns ``j`` (B's).

    Examples
    --------
    [KS69] Table II, row 0: -.333, -.778, -1.000.

    >>> even_game_value_table(1, 4).loc[0].round(3).tolist()
    [0.0, -0.333, -0.778, -1.0]
    """
    rows, cols = _table_shape(size_i, size_j)
    factor_a = _raise_factor("a", a)
    factor_b = _raise_factor("b", b)
    cells = [
        [float(_even_value(_discrete_race(i, j, factor_a, factor_b))) for j in range(cols)]
        for i in range(rows)
    ]
    return _ij_frame(cells, rows, cols)


def raising_tree(
    i: int = 2, j: int = 1, a: float | Fraction = 2, b: float | Fraction = 3
) -> RaisingTree:
    """The game tree after the game reaches ``alpha(i, j)``, with exact values ([KS69] Fig. 1).

    At A's raising point ``alpha(i, j)`` reached with stakes K, A raises to aK
    and the P-game then reaches either his next raising point
    ``alpha(i-1, j)`` (probability ``(a+1)/(2a)``, "heads") or B's raising
    point ``beta(i-1, j)`` (probability ``(a-1)/(2a)``, an "upset"); from
    ``beta(i, j)`` B raises to bK and the game reaches ``alpha(i, j-1)`` with
    probability ``(b-1)/(2b)`` or ``beta(i, j-1)`` with ``(b+1)/(2b)``
    (eqs. (8)-(9) and the lemma (2)). ``alpha(0, j) = 1`` is a win for A and
    ``beta(i, 0) = 0`` a win for B. A's value is +K at his raising points (B,
    indifferent, may fold) and -K at B's; each node's value and state are the
    edge-probability averages of its children's.

    Parameters
    ----------
    i, j : int
        Raises left to A and to B, ``i + j <= MAX_TREE_RAISES``.
    a, b : int, float or Fraction
        Raise factors ``>= 1``, handled exactly (a float is read as its decimal).

    Returns
    -------
    RaisingTree
        ``nodes`` and ``edges`` tables; node 0 is the root ``alpha(i, j)``.

    Notes
    -----
    The paths ending in "A wins" add up to the coin-flip reading of Theorem 2
    (see :func:`coin_flip_table`): for the worked example
    ``alpha(2,1) = 3/4*3/4 + 3/4*1/4*1/3 + 1/4*1/3*3/4 = 11/16``.

    Examples
    --------
    [KS69] section 3 worked example (A: two raises of 2, B: one raise of 3):

    >>> tree = raising_tree(2, 1, a=2, b=3)
    >>> tree.nodes.loc[0, ["label", "state_exact"]].tolist()
    ['α(2,1)', '11/16']
    >>> tree.nodes.set_index("label").loc["β(0,1)", ["state_exact", "value_exact"]].tolist()
    ['1/3', '-4']
    """
    raises_a = whole_number("i", i, 0, MAX_TREE_RAISES)
    raises_b = whole_number("j", j, 0, MAX_TREE_RAISES - raises_a)
    factor_a = _exact_factor("a", a)
    factor_b = _exact_factor("b", b)
    alpha, beta = _recursion_grid(raises_a + 1, raises_b + 1, factor_a, factor_b)
    nodes: list[dict[str, object]] = []
    edges: list[dict[str, object]] = []
    # (kind, i, j, stakes, depth, path probability, parent, outcome, edge probability)
    stack: list[
        tuple[str, int, int, Fraction, int, Fraction, int | None, str | None, Fraction | None]
    ] = [("alpha", raises_a, raises_b, Fraction(1), 0, Fraction(1), None, None, None)]
    while stack:
        kind, ii, jj, stakes, depth, reach, parent, outcome, edge_p = stack.pop()
        node_id = len(nodes)
        if kind == "alpha":
            state, value = alpha[ii][jj], stakes
            event = "A raises" if ii > 0 else "A wins"
        else:
            state, value = beta[ii][jj], -stakes
            event = "B raises" if jj > 0 else "B wins"
        symbol = "α" if kind == "alpha" else "β"
        nodes.append(
            {
                "node": node_id,
                "label": f"{symbol}({ii},{jj})",
                "event": event,
                "raises_a": ii,
                "raises_b": jj,
                "depth": depth,
                "state": float(state),
                "stakes": float(stakes),
                "value_to_a": float(value),
                "path_probability": float(reach),
                "state_exact": _fraction_text(state),
                "value_exact": _fraction_text(value),
                "path_probability_exact": _fraction_text(reach),
            }
        )
        if parent is not None and edge_p is not None:  # the root alone has neither
            edges.append(
                {
                    "parent": parent,
                    "child": node_id,
                    "outcome": outcome,
                    "probability": float(edge_p),
                    "probability_exact": _fraction_text(edge_p),
                }
            )
        children = []
        if event == "A raises":
            raised, upset = stakes * factor_a, _upset_probability(factor_a)
            children = [
                ("beta", ii - 1, jj, raised, "upset", upset),
                ("alpha", ii - 1, jj, raised, "heads", 1 - upset),
            ]
        elif event == "B raises":
            raised, upset = stakes * factor_b, _upset_probability(factor_b)
            children = [
                ("alpha", ii, jj - 1, raised, "upset", upset),
                ("beta", ii, jj - 1, raised, "heads", 1 - upset),
            ]
        for c_kind, c_i, c_j, c_stakes, c_outcome, c_p in children:
            stack.append(
                (c_kind, c_i, c_j, c_stakes, depth + 1, reach * c_p, node_id, c_outcome, c_p)
            )
    edge_columns = ["parent", "child", "outcome", "probability", "probability_exact"]
    return RaisingTree(nodes=pd.DataFrame(nodes), edges=pd.DataFrame(edges, columns=edge_columns))


def coin_flip_table(
    i: int = 2, j: int = 1, a: float | Fraction = 2, b: float | Fraction = 3
) -> pd.DataFrame:
    r"""The coin-flip reading of Theorem 2, term by term, in exact rationals.

    A flips ``i`` coins that show an upset with probability ``(a-1)/(2a)``, B
    flips ``j`` coins with ``(b-1)/(2b)``; A's raising point is the chance that
    A throws no more upsets than B ([KS69] section 3, eq. (11)):

    .. math:: \alpha(i, j) = \sum_k P[K_a = k]\, P[K_b \ge k], \qquad
              \beta(i, j) = \sum_k P[K_a = k]\, P[K_b > k].

    Parameters
    ----------
    i, j : int
        Coins of A and B, ``0 <= i, j <= MAX_TABLE_SIZE``.
    a, b : int, float or Fraction
        Raise factors ``>= 1``, handled exactly (a float is read as its decimal).

    Returns
    -------
    pandas.DataFrame
        One row per upset count ``k = 0..max(i, j)``: ``prob_a`` = P[K_a = k],
        ``prob_b`` = P[K_b = k], ``prob_b_at_least`` = P[K_b >= k],
        ``alpha_term`` and ``beta_term`` (the summands above); and the same
        five as exact strings with suffix ``_exact``. The columns
        ``alpha_term`` and ``beta_term`` sum to ``alpha(i, j)`` and ``beta(i, j)``.

    Examples
    --------
    [KS69] worked example: K_1 ~ b(2, 1/4), K_2 ~ b(1, 1/3); 9/16 + 1/8 = 11/16.

    >>> coin_flip_table(2, 1, a=2, b=3)["alpha_term_exact"].tolist()
    ['9/16', '1/8', '0']
    """
    raises_a = whole_number("i", i, 0, MAX_TABLE_SIZE)
    raises_b = whole_number("j", j, 0, MAX_TABLE_SIZE)
    pmf_a = _binomial_pmf_exact(raises_a, _upset_probability(_exact_factor("a", a)))
    pmf_b = _binomial_pmf_exact(raises_b, _upset_probability(_exact_factor("b", b)))
    size = max(raises_a, raises_b) + 1
    pmf_a += [Fraction(0)] * (size - len(pmf_a))
    pmf_b += [Fraction(0)] * (size - len(pmf_b))
    at_least_b = [sum(pmf_b[k:], Fraction(0)) for k in range(size)]
    more_b = [*at_least_b[1:], Fraction(0)]
    columns = {
        "prob_a": pmf_a,
        "prob_b": pmf_b,
        "prob_b_at_least": at_least_b,
        "alpha_term": [p * q for p, q in zip(pmf_a, at_least_b, strict=True)],
        "beta_term": [p * q for p, q in zip(pmf_a, more_b, strict=True)],
    }
    frame = pd.DataFrame({"k": range(size)})
    for name, values in columns.items():
        frame[name] = [float(v) for v in values]
    for name, values in columns.items():
        frame[f"{name}_exact"] = [_fraction_text(v) for v in values]
    return frame


# ---------------------------------------------------------------------------
# Section 4-5: continuous raises
# ---------------------------------------------------------------------------


@_ks_doc
def continuous_raising_points(a: float, b: float) -> RaisingPoints:
    r"""Raising points when A may raise by any factors of product ``<= a`` and B ``<= b``.

    [KS69] eq. (18), the limit of Theorem 2 with n raises of ``a**(1/n)``: with
    ``L = ln(a)/2``, ``M = ln(b)/2`` (eq. (16)) and independent
    ``X ~ Poisson(L)``, ``Y ~ Poisson(M)`` (eq. (22)),

    .. math:: \alpha(a, b) = P[X \le Y]
              = \frac{1}{\sqrt{ab}} \sum_{0 \le i \le j} \frac{L^i M^j}{i!\,j!},
              \qquad \beta(a, b) = P[X < Y].

    {potentials_parameters}

    Returns
    -------
    RaisingPoints
        ``alpha`` (A raises) and ``beta`` (B raises) in A's winning probability.

    Notes
    -----
    ``beta`` is the limit of Theorem 2's ``P[K_a < K_b]`` in the same way; by
    swapping the players ``beta(a, b) = 1 - alpha(b, a)`` ([KS69] section 5).
    Degenerate cases: ``b = 1`` (M = 0, B never raises) gives
    ``alpha = 1/sqrt(a)`` exactly and ``beta = 0`` (the paper's example after
    eq. (18)); ``a = 1`` gives ``alpha = 1`` and ``beta = 1 - 1/sqrt(b)``.
    The series are summed in log space until a proven Poisson tail bound on
    each omitted part is below 2**-60 of its partial sum (no fixed
    truncation), so the result is exact to rounding for any finite potentials
    (tested to 10**6).

    Examples
    --------
    [KS69] Table III, a = 10, b = 3, and the example after eq. (18):

    >>> round(continuous_raising_points(10, 3).alpha, 4)
    0.4938
    >>> continuous_raising_points(4, 1)
    RaisingPoints(alpha=0.5, beta=0.0)
    """
    half_log_a = _half_log("a", a)
    half_log_b = _half_log("b", b)
    if half_log_b == 0.0:  # b = 1: only the term i = j = 0 of eq. (18)
        return RaisingPoints(alpha=1.0 / math.sqrt(float(a)), beta=0.0)
    if half_log_a == 0.0:  # a = 1: X = 0, so alpha = 1 and beta = P[Y > 0]
        return RaisingPoints(alpha=1.0, beta=-math.expm1(-half_log_b))
    race = _continuous_race(half_log_a, half_log_b)
    return _points(race)


@_ks_doc
def continuous_even_game_value(a: float, b: float) -> float:
    r"""A's expected value of an even game with raise potentials ``a`` and ``b``.

    [KS69] eqs. (19)-(20):

    .. math:: E = \frac{1 - \alpha(a,b) - \beta(a,b)}{\alpha(a,b) - \beta(a,b)}
                = \frac{\alpha(b,a) - \alpha(a,b)}{\alpha(a,b) + \alpha(b,a) - 1}

    if ``beta < 1/2 < alpha``; +1 if ``alpha(a, b) <= 1/2``, -1 if
    ``beta(a, b) >= 1/2`` (see :func:`even_game_value` for the boundaries).

    {potentials_parameters}

    {value_returns}

    Notes
    -----
    Computed as ``(P[X > Y] - P[X < Y]) / P[X = Y]``, each probability a sum of
    non-negative terms; ``E(a, b) = -E(b, a)`` and ``E(a, a) = 0``. For large
    potentials E grows like ``log(a / b)`` (eq. (26), see
    :func:`asymptotic_even_game_value`).

    Examples
    --------
    [KS69] section 5: raise factor 8 against 4 is worth +.581 (Table IV).

    >>> round(continuous_even_game_value(8, 4), 3)
    0.581
    >>> continuous_even_game_value(4, 1)
    1.0
    """
    half_log_a = _half_log("a", a)
    half_log_b = _half_log("b", b)
    if half_log_b == 0.0:  # b = 1: alpha = 1/sqrt(a), beta = 0, eq. (19) directly
        alpha = 1.0 / math.sqrt(float(a))
        return 1.0 if alpha <= 0.5 else (1.0 - alpha) / alpha
    return float(_even_value(_continuous_race(half_log_a, half_log_b)))


def _ab_frame(
    function: Callable[[float, float], float], a_values: ArrayLike, b_values: ArrayLike
) -> pd.DataFrame:
    """A wide table of ``function(a, b)``: rows ``a``, columns ``b``."""
    rows = _potentials("a_values", a_values)
    cols = _potentials("b_values", b_values)
    if rows.size * cols.size > MAX_SWEEP_POINTS:
        raise ValueError(
            f"`a_values` x `b_values` must be at most {MAX_SWEEP_POINTS} cells"
            f" (got {rows.size} x {cols.size})"
        )
    cells = [[function(a, b) for b in cols] for a in rows]
    return pd.DataFrame(cells, index=pd.Index(rows, name="a"), columns=pd.Index(cols, name="b"))


def continuous_raising_points_table(
    a_values: ArrayLike = range(1, 11),
    b_values: ArrayLike = range(1, 11),
    *,
    point: RaisingPoint = "alpha",
) -> pd.DataFrame:
    """Table III of [KS69] over any potentials: rows ``a``, columns ``b``.

    Parameters
    ----------
    a_values, b_values : array_like
        Raise potentials (finite, ``>= 1``) of A (rows) and B (columns).
        Table III is ``a, b = 1(1)10``.
    point : {"alpha", "beta"}
        A's raising point (Table III) or B's; see :func:`continuous_raising_points`.

    Returns
    -------
    pandas.DataFrame
        Wide table, index ``a``, columns ``b``.

    Examples
    --------
    [KS69] Table III, row a = 2:

    >>> continuous_raising_points_table([2], [1, 2, 3]).loc[2].round(4).tolist()
    [0.7071, 0.7809, 0.8153]
    """
    which = choice("point", point, _POINTS)
    return _ab_frame(
        lambda a, b: getattr(continuous_raising_points(a, b), which), a_values, b_values
    )


def continuous_even_game_value_table(
    a_values: ArrayLike = range(1, 11), b_values: ArrayLike = range(1, 11)
) -> pd.DataFrame:
    """Table IV of [KS69] over any potentials: A's even-game value, rows ``a``, columns ``b``.

    See :func:`continuous_even_game_value`.

    Examples
    --------
    [KS69] Table IV, row a = 2:

    >>> continuous_even_game_value_table([2], [1, 2, 3]).loc[2].round(3).tolist()
    [0.414, 0.0, -0.287]
    """
    return _ab_frame(continuous_even_game_value, a_values, b_values)


def resignation_potential(b: float) -> float:
    r"""The raise potential ``a`` at which B should resign an even game: Table V of [KS69].

    For B's potential ``b``, the ``a`` with :func:`continuous_even_game_value`
    ``= +1``. Since eq. (19) is below 1 exactly when ``alpha(a, b) > 1/2``
    (``1 - alpha - beta < alpha - beta``), this is the root of

    .. math:: \alpha(a, b) = 1/2,

    A's raising point reaching the even game. ``alpha(a, b)`` decreases
    strictly in ``a`` (X ~ Poisson(ln(a)/2) grows stochastically), so the root
    is unique.

    Parameters
    ----------
    b : float
        B's raise potential, in ``[1, MAX_RESIGNATION_B]``.

    Returns
    -------
    float
        The potential ``a``; ``a ~ b e`` from above as ``b`` grows ([KS69] section 5).

    Notes
    -----
    Degenerate case ``b = 1``: ``alpha = 1/sqrt(a)``, so ``a = 4`` exactly.
    Otherwise the root is bracketed by ``a = b`` (where
    ``alpha = (1 + P[X = Y]) / 2 > 1/2``) and ``a = 4 b`` (doubled while
    ``alpha >= 1/2``), then bisected in ``a`` until the bracket holds no
    double in between (tolerance: one unit in the last place of ``a``). The
    result is then limited only by the rounding of ``alpha`` itself (a few
    1e-16), amplified by ``1 / |d alpha / d ln a|``: measured relative error
    against a 40-digit reference at most 1e-15 for ``1 <= b <= 10**6``. Table V's printed
    values drift above the exact root from b = 5.2 on: see
    ``TABLE_V_DEVIATIONS``.

    Examples
    --------
    [KS69] Table V:

    >>> resignation_potential(1.0)
    4.0
    >>> round(resignation_potential(2.0), 4)
    6.7952
    """
    factor_b = real_in_range("b", b, 1.0, MAX_RESIGNATION_B)
    if factor_b == 1.0:  # alpha(a, 1) = 1/sqrt(a) = 1/2
        return 4.0
    half_log_b = 0.5 * math.log(factor_b)

    def excess(a: float) -> float:
        race = _continuous_race(0.5 * math.log(a), half_log_b)
        return race.less + race.tie - 0.5

    low, high = factor_b, 4.0 * factor_b
    while excess(high) >= 0.0:
        low, high = high, 2.0 * high  # only by rounding: a/b < 4 for all b > 1
    while True:
        middle = 0.5 * (low + high)
        if not low < middle < high:
            return middle
        if excess(middle) > 0.0:
            low = middle
        else:
            high = middle


def resignation_potential_table(
    b_values: ArrayLike = _TABLE_V_B, *, time_budget: float = TABLE_V_SECONDS
) -> pd.DataFrame:
    """Table V and Fig. 3 of [KS69]: the resignation potential for each ``b``.

    Returns a tidy DataFrame with columns ``b``, ``a``
    (:func:`resignation_potential`) and ``a_over_b_e`` (``a / (b e)``, which
    tends to 1 from above, section 5).

    ``b_values`` has at most :data:`MAX_TABLE_V_ENTRIES` entries, each in ``[1,
    MAX_RESIGNATION_B]``; past ``time_budget`` seconds of wall time (default
    :data:`TABLE_V_SECONDS`, at most :data:`MAX_TABLE_V_SECONDS`) the table stops with a
    ``ValueError``, never a partial result.

    Examples
    --------
    >>> resignation_potential_table([1.0, 2.0]).round(4)["a"].tolist()
    [4.0, 6.7952]
    """
    seconds = real_in_range("time_budget", time_budget, 0.0, MAX_TABLE_V_SECONDS, low_open=True)
    deadline = time.monotonic() + seconds
    values = _potentials("b_values", b_values)
    if values.size > MAX_TABLE_V_ENTRIES:
        raise ValueError(
            f"`b_values` must have at most {MAX_TABLE_V_ENTRIES:,} entries (got {values.size:,})"
        )
    if np.any(values > MAX_RESIGNATION_B):
        raise ValueError(f"`b_values` must be at most {MAX_RESIGNATION_B:g}")
    potentials: list[float] = []
    for b in values:
        if time.monotonic() > deadline:
            raise ValueError(
                f"the table ran past its `time_budget` of {seconds:g} s with "
                f"{values.size - len(potentials):,} of {values.size:,} `b_values` left"
            )
        potentials.append(resignation_potential(b))
    return pd.DataFrame(
        {
            "b": values,
            "a": potentials,
            "a_over_b_e": [a / (b * math.e) for a, b in zip(potentials, values, strict=True)],
        }
    )


@_ks_doc
def normal_raising_point(a: float, b: float) -> float:
    r"""Normal approximation (23) of [KS69] to the continuous raising point ``alpha(a, b)``.

    .. math:: \alpha(a, b) \approx \Phi\!\left(\frac{1/2 - (L - M)}{\sqrt{L + M}}\right),
              \quad L = \tfrac12 \ln a,\ M = \tfrac12 \ln b,

    X - Y approximated by a normal of mean L - M and variance L + M, with a
    continuity correction of 1/2.

    {potentials_parameters}

    Returns
    -------
    float
        The approximation to ``alpha(a, b)``.

    Notes
    -----
    Degenerate case ``a = b = 1`` (L + M = 0): X - Y = 0, so the approximation
    is P[0 < 1/2] = 1, the exact value, which is also the limit of the formula.
    The approximation is meant for L, M >> 0 (section 5).

    Examples
    --------
    Against [KS69] Table III's .6418 at a = b = 10, and with ``alpha(a, a) ~
    1/2 + 1/(2 sqrt(log a))`` slowly approaching 1/2 (section 5):

    >>> round(normal_raising_point(10, 10), 4)
    0.6291
    """
    half_log_a = _half_log("a", a)
    half_log_b = _half_log("b", b)
    spread = half_log_a + half_log_b
    if spread == 0.0:
        return 1.0
    score = (0.5 - (half_log_a - half_log_b)) / math.sqrt(spread)
    return normal_cdf(score)


@_ks_doc
def asymptotic_even_game_value(a: float, b: float) -> float:
    r"""A's asymptotic even-game value ``log(a / b)`` for large potentials, [KS69] eq. (26)-(27).

    ``E(a, b) = log(a/b) + o(1)`` as ``a, b -> inf`` with ``log(a/b)`` fixed
    (natural logarithm; ``2t`` with ``L = M + t``, eq. (24)).

    {potentials_parameters}

    Returns
    -------
    float
        ``ln(a) - ln(b)``; not clipped to [-1, 1] (the appendix assumes both
        raising points lie on different sides of 1/2).

    Examples
    --------
    Section 5: ``a = b e`` gives an asymptotic value of 1.

    >>> round(asymptotic_even_game_value(100 * math.e, 100), 12)
    1.0
    """
    return math.log(_raise_factor("a", a)) - math.log(_raise_factor("b", b))


def continuous_sweep(b: float, a_values: ArrayLike) -> pd.DataFrame:
    """A's raising point and even-game value against his potential ``a``, B's fixed.

    For each ``a``: the exact ``alpha(a, b)`` (eq. (18)) beside its normal
    approximation (23), and the exact even-game value ``E(a, b)`` (eq. (19)) beside
    its asymptote ``log(a / b)`` (eq. (26)): the curves of [KS69] section 4.

    Parameters
    ----------
    b : float
        B's raise potential, finite and ``>= 1``.
    a_values : array_like
        A's potentials, finite and ``>= 1``; at most :data:`MAX_SWEEP_POINTS`.

    Returns
    -------
    pandas.DataFrame
        Columns ``a``, ``alpha``, ``normal``, ``value``, ``asymptotic``.

    Raises
    ------
    ValueError
        If ``b`` or an ``a`` is below 1 or not finite, or there are too many ``a``.

    Examples
    --------
    [KS69] Table III, a = 2, b = 1: ``alpha = 1/sqrt(2)``:

    >>> continuous_sweep(1.0, [2.0])["alpha"].round(4).tolist()
    [0.7071]
    """
    b = real_in_range("b", b, 1.0)
    potentials = _potentials("a_values", a_values)
    if potentials.size > MAX_SWEEP_POINTS:
        raise ValueError(
            f"`a_values` must hold at most {MAX_SWEEP_POINTS} potentials (got {potentials.size})"
        )
    rows = []
    for a in potentials:
        points = continuous_raising_points(a, b)
        rows.append(
            {
                "a": float(a),
                "alpha": points.alpha,
                "normal": normal_raising_point(a, b),
                "value": continuous_even_game_value(a, b),
                "asymptotic": asymptotic_even_game_value(a, b),
            }
        )
    return pd.DataFrame(rows, columns=["a", "alpha", "normal", "value", "asymptotic"])


#: The printed tables :func:`printed_comparison` knows, with their printed decimals.
PRINTED_TABLES = {"I": 4, "II": 3, "III": 4, "IV": 3, "V": None}


def printed_comparison(table: str) -> pd.DataFrame:
    """One of [KS69] Tables I-V, each printed cell beside the exact value.

    Tables I (``alpha``) and II (``E``) are the discrete game with ``a = b = 2`` and
    ``i, j = 0..10`` (eqs. (8)-(9), (19)); Tables III (``alpha``) and IV (``E``) the
    continuous raises for ``a, b = 1(1)10`` (eqs. (18)-(19)); Table V the potential
    ``a`` at which B resigns, for each printed ``b`` (``alpha(a, b) = 1/2``), with as
    many decimals as printed. The comparison is :func:`cubecore.printed.compare_printed`
    with the deviations listed in ``TABLE_*_DEVIATIONS``.

    Parameters
    ----------
    table : {"I", "II", "III", "IV", "V"}
        The printed table.

    Returns
    -------
    pandas.DataFrame
        The tidy comparison: key columns (``i``, ``j`` for Tables I-II, ``a``, ``b``
        for III-IV, ``b`` for V), ``printed``, ``exact``, ``difference``,
        ``within_printed_digits``, ``reason``.

    Raises
    ------
    ValueError
        If ``table`` is not one of the five.

    References
    ----------
    .. [KS69] E. Keeler, J. Spencer, "Proper Raising Points in a Generalization of
       Backgammon", RAND Corporation paper P-4078, 1969, Tables I-V.
       https://www.rand.org/pubs/papers/P4078.html

    Examples
    --------
    >>> frame = printed_comparison("I")
    >>> len(frame), bool(frame["within_printed_digits"].all())
    (100, True)
    """
    choice("table", table, PRINTED_TABLES)
    if table == "V":
        printed_v = TABLE_V_PRINTED.set_index("b")
        exact_v = resignation_potential_table(TABLE_V_PRINTED["b"]).set_index("b")["a"]
        return compare_printed(printed_v["a"], exact_v, printed_v["decimals"], TABLE_V_DEVIATIONS)
    digits = PRINTED_TABLES[table]
    assert digits is not None
    if table in ("I", "II"):
        printed: pd.Series | pd.DataFrame = TABLE_I_PRINTED if table == "I" else TABLE_II_PRINTED
        exact = (
            raising_points_table(10, 10, 2.0, 2.0, point="alpha")
            if table == "I"
            else even_game_value_table(10, 10, 2.0, 2.0)
        )
        deviations = TABLE_I_DEVIATIONS if table == "I" else TABLE_II_DEVIATIONS
    else:
        grid = tuple(float(k) for k in range(1, 11))
        printed = TABLE_III_PRINTED if table == "III" else TABLE_IV_PRINTED
        exact = (
            continuous_raising_points_table(grid, grid, point="alpha")
            if table == "III"
            else continuous_even_game_value_table(grid, grid)
        )
        deviations = TABLE_III_DEVIATIONS if table == "III" else TABLE_IV_DEVIATIONS
    return compare_printed(printed, exact, digits, deviations)
