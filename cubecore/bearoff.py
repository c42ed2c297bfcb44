"""Exact bear-off databases: one-sided roll distributions and two-sided cubeful equities.

A bear-off position of one side is its checker counts on points 1..6 (all other
checkers borne off). Two databases are built here by the project's own code:

* **One-sided** (:func:`one_sided_database`): every position of up to
  :data:`ONE_SIDED_CHECKERS` (15) checkers, :data:`ONE_SIDED_POSITIONS` (54,264) in all,
  with the probability distribution of the number of rolls needed to bear off when
  every roll is played to **minimise the expected number of rolls** (the criterion of
  GNU Backgammon's one-sided database [GNU]_). From it: expected rolls, the effective
  pip count EPC = expected rolls x 49/6 ([Tom]_), wastage = EPC - pips, and the
  cubeless winning chance of two one-sided positions by convolving their
  distributions (the player on roll first): P(on roll wins) = sum_n P(A = n) P(B >= n).
* **Two-sided** (:func:`two_sided_database`): every pair of positions of up to
  :data:`TWO_SIDED_CHECKERS` (6) checkers each (924 x 924 pairs), with the exact
  cubeless winning chance of the player on roll and the exact cubeful money equities
  for the three cube positions (centred, owned by the player on roll, owned by the
  opponent), by backward induction over the total pip count, with optimal checker play
  and optimal cube play for each quantity separately. There are no gammons: with at
  most six checkers on the board each side has borne off nine.

Both are built once and kept on disk in a cache directory (:func:`cache_directory`):
``$CUBE_LAB_DATA`` if set, else ``data/cache`` under the project root, created on
demand. Each file starts with a one-line header (format name, version, array shapes,
SHA-256 of the payload); a file whose header, size or checksum does not match is
rebuilt, never read. Writes go to a temporary file renamed into place (atomic on
POSIX), and a lock makes concurrent callers in one process wait for a single build.

Recursions (player on roll ``i``, opponent ``j``, rolls ``r`` with weight ``w_r/36``;
``m`` ranges over the legal plays of ``r``; an empty side has won):

.. math::

    E(i) &= 1 + \\sum_r \\tfrac{w_r}{36} \\min_m E(m(i)),\\qquad E(\\varnothing) = 0 \\\\
    P(i, j) &= \\sum_r \\tfrac{w_r}{36} \\max_m \\bigl(1 - P(j, m(i))\\bigr) \\\\
    U(i, j) &= \\sum_r \\tfrac{w_r}{36} \\max_m \\bigl(-O(j, m(i))\\bigr)
        \\quad\\text{(opponent owns the cube)} \\\\
    O(i, j) &= \\max\\Bigl(\\sum_r \\tfrac{w_r}{36}\\max_m\\bigl(-U(j, m(i))\\bigr),
        \\min\\bigl(2U(i, j), 1\\bigr)\\Bigr)\\quad\\text{(owned)} \\\\
    C(i, j) &= \\max\\Bigl(\\sum_r \\tfrac{w_r}{36}\\max_m\\bigl(-C(j, m(i))\\bigr),
        \\min\\bigl(2U(i, j), 1\\bigr)\\Bigr)\\quad\\text{(centred)}

with value +1 (P = 1) when ``m(i)`` is empty: a double is taken when ``2U <= 1`` and
passed otherwise (Keeler and Spencer's money doubling rule [KS75]_). The database keeps,
as gnubg's does, the no-double values of ``C`` and ``O`` (the first sum of each line)
and ``U``; :func:`two_sided` adds the cube action at the position itself.

References
----------
.. [GNU] GNU Backgammon 1.07, ``makebearoff`` and its one- and two-sided databases
   ``gnubg_os0.bd`` / ``gnubg_ts0.bd``, https://www.gnu.org/software/gnubg/
.. [Tom] W. Trice's effective pip count, EPC = 49/6 x average rolls to bear off, as
   defined in "An Introduction to the Effective Pip Count", bgonline.org,
   http://www.bgonline.org/epc.html (see also W. Trice, *Backgammon Boot Camp*, 2004)
.. [KS75] E. Keeler and J. Spencer, "Optimal Doubling in Backgammon", Operations
   Research 23(6), 1975, https://doi.org/10.1287/opre.23.6.1063
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import tempfile
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from cubecore._docs import fill_doc
from cubecore._validate import choice, whole_number

__all__ = [
    "EPC_PER_ROLL",
    "MAX_ROLLS",
    "ONE_SIDED_CHECKERS",
    "ONE_SIDED_POSITIONS",
    "TWO_SIDED_CHECKERS",
    "TWO_SIDED_POSITIONS",
    "OneSided",
    "OneSidedDatabase",
    "Progress",
    "TwoSided",
    "TwoSidedDatabase",
    "bearoff_positions",
    "build_one_sided",
    "build_two_sided",
    "cache_directory",
    "one_sided",
    "one_sided_database",
    "one_sided_table",
    "one_sided_win_probability",
    "pip_model_comparison",
    "pip_model_errors",
    "two_sided",
    "two_sided_database",
]

ONE_SIDED_CHECKERS = 15
"""Checkers of the one-sided database (all of a side's checkers)."""
ONE_SIDED_POSITIONS = 54_264
"""C(21, 6): positions of up to 15 checkers on 6 points."""
TWO_SIDED_CHECKERS = 6
"""Checkers per side of the two-sided database (gnubg's ``makebearoff -t 6x6``)."""
TWO_SIDED_POSITIONS = 924
"""C(12, 6): positions of up to 6 checkers on 6 points."""
MAX_ROLLS = 32
"""Length of a roll distribution: P(rolls = 0..31); 15 checkers never need more than 30."""
EPC_PER_ROLL = 49 / 6
"""Average pips of a roll (8 1/6): EPC = expected rolls x 49/6 [Tom]_."""

_Arrays = dict[str, NDArray[Any]]
#: Told the share of a build done so far, from 0 to 1 (a page's progress bar).
Progress = Callable[[float], None]
_Expected = Mapping[str, tuple[str, tuple[int, ...]]]
_FORMAT = "cubelab-bearoff"
_VERSION = 1
_LOCK = threading.Lock()  # guards _LOCKS
_LOCKS: dict[str, threading.Lock] = {}  # one per cache file: one build at a time each
_LOADED: dict[str, _Arrays] = {}

# the 21 distinct rolls and their weights out of 36
_ROLLS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(1, 7) for b in range(a, 7))
_WEIGHTS = np.array([1.0 if a == b else 2.0 for a, b in _ROLLS]) / 36.0


# --- positions and their index -------------------------------------------------------------
def bearoff_positions(max_checkers: int) -> NDArray[np.int8]:
    """Every bear-off position of up to ``max_checkers`` checkers, in database order.

    Order: by pip count, then by the counts on points 6, 5, ..., 1 (ascending). Row
    ``k`` holds the counts on points 1..6 of position ``k``; row 0 is the empty side.

    Parameters
    ----------
    max_checkers : int
        0..15.

    Returns
    -------
    ndarray of int8, shape (C(max_checkers + 6, 6), 6)

    Examples
    --------
    >>> bearoff_positions(15).shape, bearoff_positions(6).shape
    ((54264, 6), (924, 6))
    >>> bearoff_positions(1)[:3].tolist()
    [[0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0]]
    """
    n = whole_number("max_checkers", max_checkers, 0, ONE_SIDED_CHECKERS)
    array = np.zeros((1, 0), dtype=np.int8)
    for _ in range(6):  # add one point at a time, every count that keeps the total <= n
        room = n - array.sum(axis=1, dtype=np.int64)
        reps = room + 1
        base = np.repeat(array, reps, axis=0)
        extra = np.concatenate([np.arange(r) for r in reps]).astype(np.int8)
        array = np.concatenate([base, extra[:, None]], axis=1)
    pips = array.astype(np.int64) @ np.arange(1, 7)
    key = _keys(array)
    order = np.lexsort((key, pips))
    return np.ascontiguousarray(array[order])


def _keys(positions: NDArray[np.integer[Any]]) -> NDArray[np.int64]:
    """A number for each position: counts on points 1..6 as base-16 digits (6-pt first)."""
    return positions.astype(np.int64) @ (16 ** np.arange(6, dtype=np.int64))


class _Index:
    """Look up database rows of positions given as counts (vectorised)."""

    def __init__(self, positions: NDArray[np.int8]) -> None:
        keys = _keys(positions)
        self.order = np.argsort(keys)
        self.sorted_keys = keys[self.order]

    def __call__(self, positions: NDArray[np.integer[Any]]) -> NDArray[np.int64]:
        keys = _keys(positions)
        slots = np.searchsorted(self.sorted_keys, keys)
        return self.order[slots]


def _check_points(name: str, points: Sequence[int], max_checkers: int) -> NDArray[np.int8]:
    if isinstance(points, (str, bytes)) or not hasattr(points, "__len__"):
        raise ValueError(f"`{name}` must be 6 checker counts (points 1..6)")
    values = list(points)
    if len(values) != 6:
        raise ValueError(f"`{name}` must have 6 checker counts (points 1..6), got {len(values)}")
    for p, v in enumerate(values, start=1):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise ValueError(f"{name}: the count on point {p} must be a whole number, got {v!r}")
        if v < 0:
            raise ValueError(f"{name}: the count on point {p} is negative ({int(v)})")
    if sum(values) > max_checkers:
        raise ValueError(
            f"{name} has {sum(values)} checkers; this database holds up to {max_checkers}"
        )
    return np.array(values, dtype=np.int8)


# --- single-die moves, vectorised -----------------------------------------------------------
def _die_successors(positions: NDArray[np.int8], die: int) -> NDArray[np.int8]:
    """All results of playing one die on each position: shape (N, 6 sources, 6).

    Source point ``s`` (1..6) moves one checker to ``s - die`` if that is a point,
    bears it off if ``s == die``, or if ``s < die`` and no checker stands above ``s``.
    An illegal source repeats a legal result (the first legal source), so a max or a
    min over sources is unaffected. An empty position stays empty.
    """
    n = len(positions)
    out = np.repeat(positions[:, None, :], 6, axis=1).copy()
    legal = np.zeros((n, 6), dtype=bool)
    higher = np.zeros(n, dtype=bool)  # a checker above the source point
    has = positions > 0
    # any checker on points s+1..6
    above = np.zeros((n, 6), dtype=bool)
    for s in range(5, -1, -1):
        above[:, s] = higher
        higher = higher | has[:, s]
    for s in range(6):
        point = s + 1
        # exact or from above; below the die only from the highest occupied point
        ok = has[:, s] if point >= die else has[:, s] & ~above[:, s]
        legal[:, s] = ok
        out[ok, s, s] -= 1
        if point > die:
            out[ok, s, s - die] += 1
    empty = ~legal.any(axis=1)
    first = np.argmax(legal, axis=1)
    fill = out[np.arange(n), first]
    out[~legal] = np.repeat(fill[:, None, :], 6, axis=1)[~legal]
    out[empty] = positions[empty][:, None, :]
    return out


_CACHE_DIR_DOC = """
cache_dir : path, optional
    Directory of the disk cache (files ``one_sided.bin`` and ``two_sided.bin``);
    default :func:`cache_directory`.
"""
_PROGRESS_DOC = """
progress : callable, optional
    Told the share done (0 to 1) while the database is built; not called when it
    is loaded or read from the disk cache. Concurrent callers wait for one build.
"""
_bearoff_doc = fill_doc(
    cache_dir=_CACHE_DIR_DOC,
    database_parameters="Parameters\n----------" + _CACHE_DIR_DOC + _PROGRESS_DOC.lstrip("\n"),
)


# --- the one-sided database -----------------------------------------------------------------
@dataclass(frozen=True)
class OneSidedDatabase:
    """Roll distributions of every one-sided bear-off position."""

    #: Shape (N, 6): counts on points 1..6 of each of the ``N`` positions (order of
    #: :func:`bearoff_positions`).
    positions: NDArray[np.int8]
    #: Shape (54264, MAX_ROLLS): ``distribution[k, n]`` = P(position ``k`` needs
    #: exactly ``n`` rolls).
    distribution: NDArray[np.float64]

    def index(self, points: Sequence[int]) -> int:
        """Row of a position given as its 6 counts."""
        array = _check_points("points", points, ONE_SIDED_CHECKERS)
        return int(_Index(self.positions)(array[None, :])[0])

    @property
    def expected_rolls(self) -> NDArray[np.float64]:
        """Mean number of rolls of every position."""
        return self.distribution @ np.arange(MAX_ROLLS, dtype=float)


def _reporter(progress: Progress | None) -> Progress:
    """``progress`` checked (a callable or None) as a function to call."""
    if progress is None:
        return lambda done: None
    if not callable(progress):
        raise TypeError(f"`progress` must be a callable or None, got {type(progress).__name__}")
    return progress


def _build_parameters(checkers: str, bound: str, items: str, step: str) -> str:
    """A builder's parameters for :func:`fill_doc`: its checkers, size bound and progress unit."""
    return f"""
    Parameters
    ----------
    max_checkers : int
        {checkers} (the input-size bound: {bound}).
    progress : callable, optional
        Called with the share of {items} done (0 to 1) after each {step}.
    """


def _to_build(
    max_checkers: int, most: int, progress: Progress | None
) -> tuple[Progress, NDArray[np.int8], NDArray[np.int64]]:
    """A builder's checked arguments: its progress callback, positions and their pips."""
    n = whole_number("max_checkers", max_checkers, 1, most)
    report = _reporter(progress)
    positions = bearoff_positions(n)
    return report, positions, positions.astype(np.int64) @ np.arange(1, 7)


@fill_doc(
    build_parameters=_build_parameters("1..15", "54,264 positions at 15", "positions", "pip count")
)
def build_one_sided(
    max_checkers: int = ONE_SIDED_CHECKERS, progress: Progress | None = None
) -> OneSidedDatabase:
    """Build the one-sided database in memory (no cache); about a second for 15 checkers.

    {build_parameters}

    Returns
    -------
    OneSidedDatabase

    Notes
    -----
    Positions are processed by pip count, lowest first; every play lowers the pips,
    so the rows a position needs are final before it is reached. For a roll the best
    play minimises the expected rolls of the result; it is found one die at a time:
    ``V_0 = E`` and ``V_k^d(q) = min_s V_{k-1}^d(q after die d from source s)``, so a
    double ``d`` is worth ``V_4^d`` and a roll ``a-b`` the smaller of
    ``min_s V_1^b(after a from s)`` and ``min_s V_1^a(after b from s)``. Each value
    carries the row of the final position it reaches, whose distribution is taken.
    Ties in the expected rolls keep the first play found.

    Examples
    --------
    >>> db = build_one_sided(2)
    >>> db.distribution[db.index((2, 0, 0, 0, 0, 0))].round(4)[:3].tolist()
    [0.0, 1.0, 0.0]
    """
    report, positions, pips = _to_build(max_checkers, ONE_SIDED_CHECKERS, progress)
    count = len(positions)
    lookup = _Index(positions)
    mean = np.zeros(count)
    dist = np.zeros((count, MAX_ROLLS))
    dist[0, 0] = 1.0
    # successor rows of one die from every source: (count, die 1..6, 6 sources)
    succ = np.empty((count, 6, 6), dtype=np.int64)
    for d in range(1, 7):
        succ[:, d - 1, :] = lookup(_die_successors(positions, d).reshape(-1, 6)).reshape(count, 6)
    # V_k^d values and the final row they reach, k = 1..3 (k = 4 only for rolls)
    val = np.zeros((4, 6, count))  # index 0 unused: V_0 is ``mean``
    arg = np.zeros((4, 6, count), dtype=np.int64)
    levels = np.flatnonzero(np.diff(pips, prepend=-1, append=pips[-1] + 1))
    for start, stop in itertools.pairwise(levels):
        if start == 0:
            continue  # the empty position: 0 rolls
        rows = np.arange(start, stop)
        for k in (1, 2, 3):
            for d in range(6):
                s = succ[rows, d, :]
                v = val[k - 1, d][s] if k > 1 else mean[s]
                a = arg[k - 1, d][s] if k > 1 else s
                best = np.argmin(v, axis=1)
                val[k, d, rows] = v[np.arange(len(rows)), best]
                arg[k, d, rows] = a[np.arange(len(rows)), best]
        finals = np.empty((len(rows), len(_ROLLS)), dtype=np.int64)
        values = np.empty((len(rows), len(_ROLLS)))
        pick = np.arange(len(rows))
        for r, (a, b) in enumerate(_ROLLS):
            if a == b:
                s = succ[rows, a - 1, :]
                v, f = val[3, a - 1][s], arg[3, a - 1][s]
            else:
                s1, s2 = succ[rows, a - 1, :], succ[rows, b - 1, :]
                v = np.concatenate([val[1, b - 1][s1], val[1, a - 1][s2]], axis=1)
                f = np.concatenate([arg[1, b - 1][s1], arg[1, a - 1][s2]], axis=1)
            best = np.argmin(v, axis=1)
            values[:, r] = v[pick, best]
            finals[:, r] = f[pick, best]
        mean[rows] = 1.0 + values @ _WEIGHTS
        shifted = np.einsum("r,nrk->nk", _WEIGHTS, dist[finals])
        dist[rows, 1:] = shifted[:, :-1]
        report(stop / count)
    return OneSidedDatabase(positions, dist)


# --- the two-sided database -----------------------------------------------------------------
@dataclass(frozen=True)
class TwoSidedDatabase:
    """Exact values of every pair of small bear-off positions (player on roll first).

    The value arrays have shape (924, 924); ``centred``, ``owned`` and
    ``opponent_owns`` are per unit of the cube, and later cube actions are optimal.
    """

    #: Shape (N, 6): counts on points 1..6 of each of the ``N`` positions (order of
    #: :func:`bearoff_positions`).
    positions: NDArray[np.int8]
    #: ``win[i, j]``: cubeless chance that the player on roll, at ``i``, wins against ``j``.
    win: NDArray[np.float64]
    #: Cubeful money equity of the player on roll when he does **not** double now,
    #: with the cube centred (gnubg's convention: the cube action at the position
    #: itself is left to the caller, see :class:`TwoSided`).
    centred: NDArray[np.float64]
    #: The same with the cube owned by him.
    owned: NDArray[np.float64]
    #: The same with the cube owned by the opponent (no cube action for the roller).
    opponent_owns: NDArray[np.float64]

    def index(self, points: Sequence[int]) -> int:
        """Row of a position given as its 6 counts."""
        array = _check_points("points", points, TWO_SIDED_CHECKERS)
        return int(_Index(self.positions)(array[None, :])[0])


def _play_results(
    positions: NDArray[np.int8],
) -> list[tuple[NDArray[np.int64], NDArray[np.int64]]]:
    """For each roll, the distinct final rows of every position, compressed by row.

    Position ``k``'s results for roll ``r`` are ``data[indptr[k]:indptr[k + 1]]`` of
    ``results[r] = (data, indptr)`` (every position has at least one).
    """
    count = len(positions)
    lookup = _Index(positions)
    one = np.empty((count, 6, 6), dtype=np.int64)
    for d in range(1, 7):
        one[:, d - 1, :] = lookup(_die_successors(positions, d).reshape(-1, 6)).reshape(count, 6)
    results = []
    for a, b in _ROLLS:
        if a == b:
            rows = one[:, a - 1, :]
            for _ in range(3):
                rows = one[rows.reshape(-1), a - 1, :].reshape(count, -1)
        else:
            first = one[one[:, a - 1, :].reshape(-1), b - 1, :].reshape(count, -1)
            second = one[one[:, b - 1, :].reshape(-1), a - 1, :].reshape(count, -1)
            rows = np.concatenate([first, second], axis=1)
        rows = np.sort(rows, axis=1)
        distinct = np.ones_like(rows, dtype=bool)
        distinct[:, 1:] = rows[:, 1:] != rows[:, :-1]
        indptr = np.concatenate([[0], np.cumsum(distinct.sum(axis=1))])
        results.append((rows[distinct], indptr))
    return results


def _pairs_by_total(
    pips: NDArray[np.int64],
) -> Iterator[tuple[float, NDArray[np.int64], NDArray[np.int64]]]:
    """Pairs ``(i, j)`` of positions by total pip count, lowest total first.

    Yields, for each total, the share of all pairs before it (for a progress report)
    and the index arrays ``i``, ``j`` of its pairs in which neither side has borne off
    (possibly empty). Every play lowers the mover's pips, so a pair needs only pairs
    of a lower total.
    """
    count = len(pips)
    total = pips[:, None] + pips[None, :]
    flat = np.argsort(total, axis=None, kind="stable")
    sorted_total = total.reshape(-1)[flat]
    bounds = np.flatnonzero(np.diff(sorted_total, prepend=-1, append=sorted_total[-1] + 1))
    for start, stop in itertools.pairwise(bounds):
        i, j = np.divmod(flat[start:stop], count)
        keep = (i != 0) & (j != 0)
        yield start / len(flat), i[keep], j[keep]


def _plays_of(
    data: NDArray[np.int64], indptr: NDArray[np.int64], i: NDArray[np.int64]
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """The results of one roll (``data``, ``indptr`` of :func:`_play_results`) for positions ``i``.

    Returns ``after`` (every play's final position, those of ``i[0]`` first), ``lengths``
    (plays per position) and ``starts`` (where each position's plays begin in
    ``after``), ready for ``np.maximum.reduceat(..., starts)``. ``i`` must be non-empty.
    """
    lengths = indptr[i + 1] - indptr[i]
    ends = np.cumsum(lengths)
    starts = ends - lengths
    within = np.arange(ends[-1]) - np.repeat(starts, lengths)
    return data[np.repeat(indptr[i], lengths) + within], lengths, starts


@fill_doc(
    build_parameters=_build_parameters(
        "1..6 per side", "924 x 924 pairs at 6", "pairs", "total pip count"
    )
)
def build_two_sided(
    max_checkers: int = TWO_SIDED_CHECKERS, progress: Progress | None = None
) -> TwoSidedDatabase:
    """Build the two-sided cubeful database in memory (no cache).

    {build_parameters}

    Returns
    -------
    TwoSidedDatabase

    Notes
    -----
    The recursions are in the module notes. All pairs ``(i, j)`` of one total pip count
    are computed together: every play lowers the roller's pips, so each pair needs only
    pairs of a lower total. The plays of each roll are enumerated once per one-sided
    position (distinct final positions), and each of the four quantities takes its own
    best play.

    Examples
    --------
    >>> db = build_two_sided(1)
    >>> i, j = db.index((0, 0, 0, 0, 0, 1)), db.index((1, 0, 0, 0, 0, 0))
    >>> round(float(db.win[i, j]), 12), round(float(db.centred[i, j]), 12)
    (0.75, 0.5)
    """
    report, positions, pips = _to_build(max_checkers, TWO_SIDED_CHECKERS, progress)
    count = len(positions)
    plays = _play_results(positions)
    # ``seen[a, b]``: pair (a on roll, b) as its opponent, who moved there, scores it:
    # (1 - win, -centred, -opponent owns, -owned), since the cube the player on roll
    # owns is the cube the mover's opponent owns. The mover of a play that bears off
    # the last checker (b = 0) has won: +1 in all four.
    seen = np.zeros((count, count, 4))
    seen[:, 0, :] = 1.0
    no_doubles = np.zeros((count, count, 2))  # centred and owned before this cube action
    for done, i, j in _pairs_by_total(pips):
        report(done)
        if len(i) == 0:
            continue
        no_double = np.zeros((len(i), 4))
        for weight, (data, indptr) in zip(_WEIGHTS, plays, strict=True):
            after, lengths, starts = _plays_of(data, indptr, i)
            best = np.maximum.reduceat(seen[np.repeat(j, lengths), after], starts, axis=0)
            no_double += weight * best
        no_doubles[i, j] = no_double[:, 1:3]
        take = np.minimum(2.0 * no_double[:, 3], 1.0)  # [KS75]: the opponent owns a 2-cube
        no_double[:, 1] = np.maximum(no_double[:, 1], take)
        no_double[:, 2] = np.maximum(no_double[:, 2], take)
        seen[i, j] = (np.array([1.0, 0.0, 0.0, 0.0]) - no_double)[:, [0, 1, 3, 2]]
    win = np.clip(1.0 - seen[:, :, 0], 0.0, 1.0)  # sums of 21 terms: rounding of 1e-16
    opp = -seen[:, :, 2]
    cen, own = no_doubles[:, :, 0], no_doubles[:, :, 1]
    win[0, :] = cen[0, :] = own[0, :] = opp[0, :] = 1.0
    win, cen, own, opp = (np.ascontiguousarray(a) for a in (win, cen, own, opp))
    report(1.0)
    return TwoSidedDatabase(positions, win, cen, own, opp)


# --- the disk cache -------------------------------------------------------------------------
def cache_directory() -> Path:
    """Where the databases are kept: ``$CUBE_LAB_DATA`` or ``<project>/data/cache``.

    Returns
    -------
    pathlib.Path
        Not created until a database is written.

    Examples
    --------
    >>> isinstance(cache_directory(), Path)
    True
    """
    env = os.environ.get("CUBE_LAB_DATA")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[1] / "data" / "cache"


def _header(kind: str, arrays: _Arrays, digest: str) -> bytes:
    shapes = {name: [str(a.dtype), list(a.shape)] for name, a in arrays.items()}
    meta = {"format": _FORMAT, "version": _VERSION, "kind": kind, "arrays": shapes}
    meta["sha256"] = digest
    return (json.dumps(meta, sort_keys=True) + "\n").encode("ascii")


def _write(path: Path, kind: str, arrays: _Arrays) -> None:
    payload = b"".join(np.ascontiguousarray(a).tobytes() for a in arrays.values())
    header = _header(kind, arrays, hashlib.sha256(payload).hexdigest())
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(header)
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes it private; the cache is shared data
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _read(path: Path, kind: str, expected: _Expected) -> _Arrays | None:
    """The arrays of a cache file, or None if it is missing, partial or corrupt."""
    try:
        with open(path, "rb") as f:
            line = f.readline(4096)
            payload = f.read()
        meta = json.loads(line.decode("ascii"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    want = {name: [dtype, list(shape)] for name, (dtype, shape) in expected.items()}
    if not isinstance(meta, dict) or meta.get("format") != _FORMAT:
        return None
    if meta.get("version") != _VERSION or meta.get("kind") != kind or meta.get("arrays") != want:
        return None
    if hashlib.sha256(payload).hexdigest() != meta.get("sha256"):
        return None
    arrays = {}
    offset = 0
    for name, (dtype, shape) in expected.items():
        size = int(np.prod(shape)) * np.dtype(dtype).itemsize
        if offset + size > len(payload):
            return None
        chunk = payload[offset : offset + size]
        arrays[name] = np.frombuffer(chunk, dtype=dtype).reshape(shape).copy()
        offset += size
    return arrays if offset == len(payload) else None


def _cached(
    kind: str,
    expected: _Expected,
    build: Callable[[Progress | None], _Arrays],
    cache_dir: Path | None,
    progress: Progress | None = None,
) -> _Arrays:
    _reporter(progress)  # a wrong ``progress`` fails whether or not a build is due
    directory = cache_directory() if cache_dir is None else Path(cache_dir)
    path = directory / f"{kind}.bin"
    key = str(path)
    with _LOCK:
        lock = _LOCKS.setdefault(key, threading.Lock())
    with lock:
        if key in _LOADED:
            return _LOADED[key]
        arrays = _read(path, kind, expected)
        if arrays is None:
            arrays = build(progress)
            _write(path, kind, arrays)
        for array in arrays.values():
            array.flags.writeable = False  # shared by every caller: read-only
        _LOADED[key] = arrays
        return arrays


def _one_sided_arrays(progress: Progress | None) -> _Arrays:
    db = build_one_sided(progress=progress)
    return {"positions": db.positions, "distribution": db.distribution}


def _two_sided_arrays(progress: Progress | None) -> _Arrays:
    db = build_two_sided(progress=progress)
    return {
        "positions": db.positions,
        "win": db.win,
        "centred": db.centred,
        "owned": db.owned,
        "opponent_owns": db.opponent_owns,
    }


@_bearoff_doc
def one_sided_database(
    cache_dir: str | os.PathLike[str] | None = None, progress: Progress | None = None
) -> OneSidedDatabase:
    """The one-sided database, from the disk cache or built and stored on first use.

    {database_parameters}

    Returns
    -------
    OneSidedDatabase

    Examples
    --------
    >>> one_sided_database().distribution.shape
    (54264, 32)
    """
    n = ONE_SIDED_POSITIONS
    expected = {"positions": ("int8", (n, 6)), "distribution": ("float64", (n, MAX_ROLLS))}
    arrays = _cached("one_sided", expected, _one_sided_arrays, _path(cache_dir), progress)
    return OneSidedDatabase(arrays["positions"], arrays["distribution"])


@_bearoff_doc
def two_sided_database(
    cache_dir: str | os.PathLike[str] | None = None, progress: Progress | None = None
) -> TwoSidedDatabase:
    """The two-sided database, from the disk cache or built and stored on first use.

    {database_parameters}

    Returns
    -------
    TwoSidedDatabase

    Examples
    --------
    >>> db = two_sided_database()
    >>> db.positions.shape, db.win.shape
    ((924, 6), (924, 924))
    """
    n = TWO_SIDED_POSITIONS
    expected = {
        "positions": ("int8", (n, 6)),
        **{name: ("float64", (n, n)) for name in ("win", "centred", "owned", "opponent_owns")},
    }
    arrays = _cached("two_sided", expected, _two_sided_arrays, _path(cache_dir), progress)
    return TwoSidedDatabase(
        arrays["positions"],
        arrays["win"],
        arrays["centred"],
        arrays["owned"],
        arrays["opponent_owns"],
    )


def _path(cache_dir: str | os.PathLike[str] | None) -> Path | None:
    if cache_dir is None:
        return None
    if not isinstance(cache_dir, (str, os.PathLike)):
        raise ValueError(f"`cache_dir` must be a path, got {type(cache_dir).__name__}")
    return Path(cache_dir)


# --- answers for one position or a pair -----------------------------------------------------
@dataclass(frozen=True)
class OneSided:
    """One-sided bear-off figures of a position."""

    #: Counts on points 1..6.
    points: tuple[int, ...]
    #: Pip count.
    pips: int
    #: Mean number of rolls to bear off.
    expected_rolls: float
    #: Standard deviation of the number of rolls to bear off.
    std_rolls: float
    #: Effective pip count, ``expected_rolls * 49/6`` [Tom]_.
    epc: float
    #: ``epc - pips``.
    wastage: float
    #: P(exactly n rolls), n = 0..MAX_ROLLS-1.
    distribution: tuple[float, ...]


@_bearoff_doc
def one_sided(points: Sequence[int], cache_dir: str | os.PathLike[str] | None = None) -> OneSided:
    """Expected rolls, EPC and wastage of a one-sided bear-off position.

    Parameters
    ----------
    points : sequence of 6 int
        Checkers on points 1..6 (at most 15 in all).
    {cache_dir}

    Returns
    -------
    OneSided

    Examples
    --------
    Two checkers on the 1-point always take one roll: EPC = 49/6 = 8.17, wastage 6.17.

    >>> r = one_sided((2, 0, 0, 0, 0, 0))
    >>> round(r.expected_rolls, 12), round(r.epc, 2), round(r.wastage, 2)
    (1.0, 8.17, 6.17)

    Fifteen checkers on the ace take "about 7 rolls", EPC about 57 ([Tom]_; gnubg's
    database: 6.980 rolls):

    >>> r = one_sided((15, 0, 0, 0, 0, 0))
    >>> round(r.expected_rolls, 3), round(r.epc, 1)
    (6.98, 57.0)
    """
    array = _check_points("points", points, ONE_SIDED_CHECKERS)
    db = one_sided_database(cache_dir)
    dist = db.distribution[db.index(array.tolist())]
    n = np.arange(MAX_ROLLS)
    mean = float(dist @ n)
    var = float(dist @ (n - mean) ** 2)
    pips = int(array.astype(int) @ np.arange(1, 7))
    epc = mean * EPC_PER_ROLL
    return OneSided(
        tuple(int(v) for v in array), pips, mean, var**0.5, epc, epc - pips, tuple(dist.tolist())
    )


@_bearoff_doc
def one_sided_win_probability(
    on_roll: Sequence[int],
    opponent: Sequence[int],
    cache_dir: str | os.PathLike[str] | None = None,
) -> float:
    """Cubeless winning chance of the player on roll from two one-sided distributions.

    .. math:: P = \\sum_n P(A = n)\\, P(B \\ge n)

    where ``A``, ``B`` are the rolls the player on roll and the opponent need (the
    player on roll bears off first on equal counts). Exact when the sides' best plays
    do not depend on each other (the one-sided approximation of [GNU]_).

    Parameters
    ----------
    on_roll, opponent : sequence of 6 int
        Checkers on points 1..6 of each side.
    {cache_dir}

    Returns
    -------
    float

    Examples
    --------
    A checker on the 6-point against one on the ace: the roller bears off with the 27
    rolls of total 6 or more (2-2 included), else the opponent does: P = 3/4.

    >>> round(one_sided_win_probability((0, 0, 0, 0, 0, 1), (1, 0, 0, 0, 0, 0)), 4)
    0.75
    """
    a = _check_points("on_roll", on_roll, ONE_SIDED_CHECKERS)
    b = _check_points("opponent", opponent, ONE_SIDED_CHECKERS)
    db = one_sided_database(cache_dir)
    pa = db.distribution[db.index(a.tolist())]
    pb = db.distribution[db.index(b.tolist())]
    tail_b = pb[::-1].cumsum()[::-1]  # P(B >= n)
    return float(np.clip(pa @ tail_b, 0.0, 1.0))


@dataclass(frozen=True)
class TwoSided:
    """Exact values of a two-sided bear-off (player on roll's view, per unit cube).

    The cube actions: ``"no double"``, ``"double, take"`` or ``"double, pass"``
    (``"redouble, ..."`` when the player on roll owns the cube); a double is made when
    it does not lower the equity, a pass when ``double_take > 1``.
    """

    #: Cubeless winning chance.
    win: float
    #: Cubeless money equity ``2 win - 1``.
    cubeless: float
    #: Cubeful equity if the player on roll does not double now, cube centred, both
    #: sides playing optimally afterwards; what gnubg's database stores.
    centred_no_double: float
    #: The same with the cube owned by him.
    owned_no_double: float
    #: Cubeful equity with the cube on the opponent's side.
    opponent_owns: float
    #: ``2 x opponent_owns``: the equity after a double that is taken.
    double_take: float
    #: Equity with optimal cube action now, cube centred:
    #: ``max(no double, min(double_take, 1))``.
    centred: float
    #: The same with the cube owned by him.
    owned: float
    #: Cube action with the cube centred.
    action_centred: str
    #: Cube action with the cube owned by him.
    action_owned: str


def _action(no_double: float, double_take: float, word: str) -> str:
    if min(double_take, 1.0) < no_double:
        return "no double"
    return f"{word}, pass" if double_take > 1.0 else f"{word}, take"


@_bearoff_doc
def two_sided(
    on_roll: Sequence[int],
    opponent: Sequence[int],
    cache_dir: str | os.PathLike[str] | None = None,
) -> TwoSided:
    """Exact cubeless and cubeful values of a bear-off of up to 6 checkers each.

    Parameters
    ----------
    on_roll, opponent : sequence of 6 int
        Checkers on points 1..6 (at most 6 each); the player on roll must have one.
    {cache_dir}

    Returns
    -------
    TwoSided

    Examples
    --------
    One checker on the 6-point against one on the ace: the roller misses with 9 of
    36 rolls (totals under 6), so P = 3/4 and with the cube on the other side his
    equity is 1/2; doubled, that is worth exactly 1: a double, and a pass or take
    alike (``2U = 1``).

    >>> r = two_sided((0, 0, 0, 0, 0, 1), (1, 0, 0, 0, 0, 0))
    >>> round(r.win, 4), round(r.opponent_owns, 4), round(r.centred, 4), r.action_centred
    (0.75, 0.5, 1.0, 'double, take')
    """
    a = _check_points("on_roll", on_roll, TWO_SIDED_CHECKERS)
    b = _check_points("opponent", opponent, TWO_SIDED_CHECKERS)
    if not a.any():
        raise ValueError("on_roll has no checkers: the game is over")
    db = two_sided_database(cache_dir)
    i, j = db.index(a.tolist()), db.index(b.tolist())
    w = float(db.win[i, j])
    cen, own, opp = float(db.centred[i, j]), float(db.owned[i, j]), float(db.opponent_owns[i, j])
    dt = 2.0 * opp
    if not b.any():  # the opponent has borne off: cannot arise in play
        raise ValueError("opponent has no checkers: the game is over")
    return TwoSided(
        win=w,
        cubeless=2 * w - 1,
        centred_no_double=cen,
        owned_no_double=own,
        opponent_owns=opp,
        double_take=dt,
        centred=max(cen, min(dt, 1.0)),
        owned=max(own, min(dt, 1.0)),
        action_centred=_action(cen, dt, "double"),
        action_owned=_action(own, dt, "redouble"),
    )


@_bearoff_doc
def one_sided_table(cache_dir: str | os.PathLike[str] | None = None) -> pd.DataFrame:
    """Every one-sided position with its pips, expected rolls, EPC and wastage.

    Parameters
    ----------
    {cache_dir}

    Returns
    -------
    pandas.DataFrame
        Columns ``p1`` .. ``p6``, ``checkers``, ``pips``, ``expected_rolls``, ``epc``,
        ``wastage``; one row per position (54,264).

    Examples
    --------
    >>> one_sided_table().shape
    (54264, 11)
    """
    db = one_sided_database(cache_dir)
    frame = pd.DataFrame(db.positions.astype(int), columns=[f"p{k}" for k in range(1, 7)])
    frame["checkers"] = db.positions.astype(int).sum(axis=1)
    frame["pips"] = db.positions.astype(int) @ np.arange(1, 7)
    frame["expected_rolls"] = db.expected_rolls
    frame["epc"] = frame["expected_rolls"] * EPC_PER_ROLL
    frame["wastage"] = frame["epc"] - frame["pips"]
    return frame


def pip_model_comparison(cache_dir: str | os.PathLike[str] | None = None) -> pd.DataFrame:
    """Zadeh and Kobliska's pip-count race model beside the exact two-sided values.

    For every pair of the two-sided database (both sides with a checker; 851,929 pairs)
    the cubeless winning chance and the centred-cube equity and action of the pip model
    of :mod:`cubecore.race` ([ZK77]_: the counts move by dice totals, no wastage) at the
    two pip counts, and the exact values of :func:`two_sided_database`.

    Parameters
    ----------
    cache_dir : path, optional
        Cache directory of both databases (the one-sided one gives the wastage).

    Returns
    -------
    pandas.DataFrame
        Columns ``on_roll_pips``, ``opponent_pips``, ``on_roll_wastage``,
        ``opponent_wastage`` (EPC - pips, from the one-sided database),
        ``exact_win``, ``pip_model_win``, ``win_error`` (pip model - exact),
        ``exact_centred``, ``pip_model_centred``, ``centred_error`` (optimal equities),
        ``exact_cube_life``, ``pip_model_cube_life`` (Janowski's cube life ``x`` each
        implies for the centred cube, NaN where undefined), ``gnubg_cube_life``
        (gnubg's race rule at the roller's pips: 0.60 here), ``exact_action``,
        ``pip_model_action`` (``"no double"``, ``"double, take"``, ``"double, pass"``,
        categorical). Fixed size: one row per pair.

    Notes
    -----
    Implied cube life, as :func:`cubecore.race.implied_cube_life` defines it:
    ``x = (E - E_dead) / (E_live - E_dead)`` with ``E_dead = 2p - 1`` and ``E_live``
    Janowski's live-cube equity of the centred cube at the same ``p`` (no gammons);
    undefined where ``E_live = E_dead``.

    References
    ----------
    .. [ZK77] N. Zadeh and G. Kobliska, "On Optimal Doubling in Backgammon",
       Management Science 23(8), 1977, https://doi.org/10.1287/mnsc.23.8.853

    Examples
    --------
    >>> table = pip_model_comparison()
    >>> len(table), bool(table["win_error"].abs().max() > 0.3)
    (851929, True)
    """
    from cubecore import race  # the pip model

    two = two_sided_database(cache_dir)
    one = one_sided_database(cache_dir)
    count = len(two.positions)
    i, j = (
        a.reshape(-1) for a in np.meshgrid(np.arange(1, count), np.arange(1, count), indexing="ij")
    )
    pips = two.positions.astype(np.int64) @ np.arange(1, 7)
    rows = _Index(one.positions)(two.positions)
    wastage = one.expected_rolls[rows] * EPC_PER_ROLL - pips
    x, y = pips[i], pips[j]
    # the pip model's centred values for each pair of counts 1..top, one vectorised call
    top = int(pips.max())
    words = ("no double", "double, take", "double, pass")
    model = race.cube_action_map("center", top)
    model_eq = np.full((top + 1, top + 1), np.nan)
    model_act = np.zeros((top + 1, top + 1), dtype=np.int8)
    model_eq[model["on_roll"], model["opponent"]] = model["optimal"]
    model_act[model["on_roll"], model["opponent"]] = model["action"].cat.codes  # same order
    model_p = np.full((top + 1, top + 1), np.nan)
    model_p[model["on_roll"], model["opponent"]] = model["cubeless_win"]
    exact_nd, dt = two.centred[i, j], 2.0 * two.opponent_owns[i, j]
    exact_opt = np.maximum(exact_nd, np.minimum(dt, 1.0))
    doubles = np.minimum(dt, 1.0) > exact_nd  # as cubecore.race: ties are "no double"
    exact_code = np.where(doubles, np.where(dt > 1.0, 2, 1), 0)
    exact_win = two.win[i, j]
    model_win = model_p[x, y]
    frame = pd.DataFrame(
        {
            "on_roll_pips": x,
            "opponent_pips": y,
            "on_roll_wastage": wastage[i],
            "opponent_wastage": wastage[j],
            "exact_win": exact_win,
            "pip_model_win": model_win,
            "win_error": model_win - exact_win,
            "exact_centred": exact_opt,
            "pip_model_centred": model_eq[x, y],
            "centred_error": model_eq[x, y] - exact_opt,
        }
    )
    frame["exact_cube_life"] = _implied_cube_life(exact_win, exact_opt)
    frame["pip_model_cube_life"] = _implied_cube_life(model_win, model_eq[x, y])
    frame["gnubg_cube_life"] = race.gnubg_race_cube_life(x)
    categories = pd.CategoricalDtype(list(words))
    frame["exact_action"] = pd.Categorical.from_codes(exact_code, dtype=categories)
    frame["pip_model_action"] = pd.Categorical.from_codes(model_act[x, y], dtype=categories)
    return frame


def _implied_cube_life(
    win: NDArray[np.float64], cubeful: NDArray[np.float64]
) -> NDArray[np.float64]:
    from cubecore.janowski import _implied_life, dead_cube_equity, live_cube_equity

    p = np.clip(win, 0.0, 1.0)
    dead = dead_cube_equity(p)
    return _implied_life(cubeful, dead, live_cube_equity(p, "center"), tolerance=1e-9)


@_bearoff_doc
def pip_model_errors(
    by: str = "on_roll_pips", cache_dir: str | os.PathLike[str] | None = None
) -> pd.DataFrame:
    """How far the pip model is from the exact bear-off values, grouped.

    Parameters
    ----------
    by : {"on_roll_pips", "pip_sum", "wastage"}
        Group by the roller's pip count, by the sum of both pip counts, or by the
        difference of the two sides' wastage (opponent's - roller's, rounded to whole
        pips: the roller's hidden lead the pip count does not see).
    {cache_dir}

    Returns
    -------
    pandas.DataFrame
        One row per group: ``pairs``, ``mean_win_error``, ``mean_abs_win_error``,
        ``max_abs_win_error``, ``mean_abs_centred_error``, ``action_disagreement``
        (share of pairs whose centred-cube action differs), ``median_exact_cube_life``,
        ``median_pip_model_cube_life`` (over the pairs whose winning chance lies in the
        live-cube window 0.2..0.8, where ``x`` is well conditioned; outside it the
        cubeful equity is a cash or a pass and ``x = 1`` trivially).

    Examples
    --------
    >>> errors = pip_model_errors("wastage")
    >>> bool(errors["mean_win_error"].iloc[0] > errors["mean_win_error"].iloc[-1])
    True
    """
    choice("by", by, ("on_roll_pips", "pip_sum", "wastage"))
    frame = pip_model_comparison(cache_dir)
    if by == "pip_sum":
        key = (frame["on_roll_pips"] + frame["opponent_pips"]).rename("pip_sum")
    elif by == "wastage":
        key = (frame["opponent_wastage"] - frame["on_roll_wastage"]).round().astype(int)
        key = key.rename("wastage_lead")
    else:
        key = frame["on_roll_pips"]
    work = pd.DataFrame(
        {
            "key": key,
            "err": frame["win_error"],
            "abs": frame["win_error"].abs(),
            "cabs": frame["centred_error"].abs(),
            "differs": frame["exact_action"] != frame["pip_model_action"],
            # x only inside the live window (TP, CP) = (0.2, 0.8): outside it both
            # equities are a cash (or a pass) and x = 1 holds trivially
            "x_exact": frame["exact_cube_life"].where(frame["exact_win"].between(0.2, 0.8)),
            "x_model": frame["pip_model_cube_life"].where(frame["pip_model_win"].between(0.2, 0.8)),
        }
    )
    grouped = work.groupby("key")
    result = pd.DataFrame(
        {
            "pairs": grouped.size(),
            "mean_win_error": grouped["err"].mean(),
            "mean_abs_win_error": grouped["abs"].mean(),
            "max_abs_win_error": grouped["abs"].max(),
            "mean_abs_centred_error": grouped["cabs"].mean(),
            "action_disagreement": grouped["differs"].mean(),
            "median_exact_cube_life": grouped["x_exact"].median(),
            "median_pip_model_cube_life": grouped["x_model"].median(),
        }
    )
    result.index.name = key.name
    return result.reset_index()
