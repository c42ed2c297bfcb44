"""Match equity tables as published: one type for bundled, uploaded and generated tables.

A :class:`MatchEquityTable` holds the two arrays every published table has, with GNU
Backgammon's indexing semantics ([GNUBG]_, ``matchequity.c``, as documented there):

- ``pre[a - 1, b - 1]``: the match winning chance (MWC) at the start of a game of the
  player who needs ``a`` points against an opponent who needs ``b``, the game not
  post-Crawford. When ``a == 1`` or ``b == 1`` that game is the Crawford game.
- ``post[t - 1]``: the MWC of the trailer who needs ``t`` points against a leader at
  1-away, after the Crawford game (``post[0]`` is double match point, 1/2).
- ``post_opponent[t - 1]``: the same for the opponent trailing ``t``-away, when the
  table gives the two players different post-Crawford columns (gnubg's
  ``player="1"``; a table with a favourite, e.g. Jacobs & Trice +50 Elo). ``None``
  (the usual case) means the same column as ``post``.

"The player" is gnubg's player 0: in a table with a favourite he is the favourite,
and ``M(a, b) + M(b, a) = 1`` does not hold by design.

The table library
-----------------
:data:`TABLES` lists the bundled tables (key -> name), :func:`load_table` returns
one. They are the twelve tables of Debian's ``gnubg-data`` ([GNUBG]_,
``/usr/share/gnubg/met/*.xml``, all-permissive licence: "Copying and distribution
of this file, with or without modification, are permitted in any medium without
royalty provided the copyright notice and this notice are preserved"), converted
by ``scripts/gnubg/convert_met.py`` into ``cubecore/data/met/<key>.json`` with each
file's copyright notice beside the numbers. Explicit tables hold the file's
numbers, up to the length the file covers (15 for Woolsey, Snowie, Ortega &
Kleinman; 25 for the others). Two files (``zadeh.xml``, ``mec.xml``) hold only a
formula's parameters; for them the library stores the table gnubg 1.07 generates
(as its ``show matchequitytable 25`` prints them: 6 decimals), because the library
must hold the numbers gnubg uses and Zadeh's and Tornberg's generating programs
are not reimplemented here. :func:`model_table` wraps the project's own generated
table (:mod:`cubecore.match`) in the same type.

:func:`check_table` names the cells of a table that break its invariants and
:func:`compare_tables` measures two tables against each other.

References
----------
.. [GNUBG] GNU Backgammon 1.07, match equity tables and their XML format,
   https://www.gnu.org/software/gnubg/ (``met.dtd`` and ``met/*.xml`` in the
   ``gnubg-data`` package; the tables' own authors are named in each notice).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from cubecore._validate import _real_array, _shown, flag, real_in_range, whole_number
from cubecore.match import (
    DEFAULT_CUBE_EFFICIENCY,
    DEFAULT_GAMMON_RATE,
    MAX_AWAY,
    match_equity_table,
    post_crawford_equity,
)

__all__ = [
    "DEFAULT_TABLE",
    "DEFAULT_TOLERANCE",
    "MAX_TABLE_LENGTH",
    "TABLES",
    "MatchEquityTable",
    "TableComparison",
    "bundled_tables",
    "check_table",
    "compare_tables",
    "load_table",
    "model_table",
]


#: Largest away-score a table may cover: gnubg's own limit (``MAXSCORE`` = 64). It
#: bounds every computation on a table (:func:`check_table`, :func:`compare_tables`).
MAX_TABLE_LENGTH = 64


@dataclass(frozen=True, eq=False)
class MatchEquityTable:
    """A match equity table: pre-Crawford square and post-Crawford column.

    Attributes
    ----------
    key : str
        Short stable name, as in a link (``"kxg2"``).
    name : str
        The table's name as its authors give it.
    pre : numpy.ndarray
        ``(n, n)`` array, ``1 <= n <= MAX_TABLE_LENGTH`` (64); ``pre[a - 1, b - 1]``
        is ``M(a, b)`` (see the module docstring).
    post : numpy.ndarray
        ``(n,)`` array; ``post[t - 1]`` is the trailer's post-Crawford MWC at ``t``-away.
    description : str
        One line on where the numbers come from.
    notice : str
        The copyright and licence notice that travels with the numbers.
    meta : dict
        Provenance as text: ``source``, ``length`` and, for bundled tables,
        ``licence``, ``made_by``, ``beyond`` (what gnubg does past the length).
    post_opponent : numpy.ndarray or None
        The opponent's post-Crawford column when it differs from ``post``.
    """

    key: str
    name: str
    pre: NDArray[np.float64]
    post: NDArray[np.float64]
    description: str = ""
    notice: str = ""
    meta: dict[str, str] = field(default_factory=dict)
    post_opponent: NDArray[np.float64] | None = None

    def __post_init__(self) -> None:
        for name in ("key", "name", "description", "notice"):
            if not isinstance(getattr(self, name), str):
                raise ValueError(f"`{name}` must be a string (got {_shown(getattr(self, name))})")
        if not isinstance(self.meta, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in self.meta.items()
        ):
            raise ValueError(
                f"`meta` must be a mapping of strings to strings (got {_shown(self.meta)})"
            )
        pre = np.array(_real_array("pre", self.pre), dtype=float)
        post = np.array(_real_array("post", self.post), dtype=float)
        if pre.ndim != 2 or pre.shape[0] != pre.shape[1] or pre.shape[0] < 1:
            raise ValueError(f"`pre` must be a square n x n array (got shape {pre.shape})")
        if pre.shape[0] > MAX_TABLE_LENGTH:
            raise ValueError(
                f"`pre` must cover 1..{MAX_TABLE_LENGTH} away at most (got {pre.shape[0]})"
            )
        if post.ndim != 1 or not 1 <= post.shape[0] <= MAX_TABLE_LENGTH:
            raise ValueError(
                f"`post` must be a one-dimensional array of 1..{MAX_TABLE_LENGTH} entries"
                f" (got shape {post.shape})"
            )
        if not (np.all(np.isfinite(pre)) and np.all(np.isfinite(post))):
            raise ValueError("pre and post must be finite")
        pre.setflags(write=False)
        post.setflags(write=False)
        object.__setattr__(self, "pre", pre)
        object.__setattr__(self, "post", post)
        if self.post_opponent is not None:
            other = np.array(_real_array("post_opponent", self.post_opponent), dtype=float)
            if other.shape != post.shape:
                raise ValueError(
                    f"`post_opponent` must have the shape of post {post.shape} (got {other.shape})"
                )
            if not np.all(np.isfinite(other)):
                raise ValueError("`post_opponent` must be finite")
            other.setflags(write=False)
            object.__setattr__(self, "post_opponent", other)

    @property
    def length(self) -> int:
        """Largest away-score the pre-Crawford table covers."""
        return int(self.pre.shape[0])

    @property
    def post_length(self) -> int:
        """Largest trailer's away-score the post-Crawford column covers."""
        return int(self.post.shape[0])

    def mwc(self, away: int, opp_away: int, *, post_crawford: bool = False) -> float:
        """Match winning chance of the player ``away`` points from victory.

        ``away <= 0`` is a won match (1) and ``opp_away <= 0`` a lost one (0).
        ``post_crawford`` reads the post-Crawford column; one side must then be
        1-away (the leader).

        Examples
        --------
        >>> t = MatchEquityTable("t", "t", [[0.5, 0.3], [0.7, 0.5]], [0.5, 0.48])
        >>> t.mwc(2, 1), t.mwc(1, 2, post_crawford=True), t.mwc(0, 3)
        (0.7, 0.52, 1.0)
        """
        a = whole_number("away", away, -(2**20))
        b = whole_number("opp_away", opp_away, -(2**20))
        post_crawford = flag("post_crawford", post_crawford)
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        if post_crawford:
            if a != 1 and b != 1:
                raise ValueError(f"post_crawford needs away or opp_away to be 1 (got {a} and {b})")
            trailer = b if a == 1 else a
            if trailer > self.post_length:
                raise ValueError(
                    f"the post-Crawford column of {self.name} covers 1..{self.post_length} away"
                    f" (got {trailer})"
                )
            if a != 1 or b == 1:
                return float(self.post[trailer - 1])
            column = self.post if self.post_opponent is None else self.post_opponent
            return 1.0 - float(column[trailer - 1])
        if max(a, b) > self.length:
            raise ValueError(
                f"{self.name} covers scores up to {self.length}-away (got {a}-away/{b}-away)"
            )
        return float(self.pre[a - 1, b - 1])


# ----------------------------------------------------------------------------------
# The bundled library
# ----------------------------------------------------------------------------------
_DATA = Path(__file__).resolve().parent / "data" / "met"

#: Key of the default table: Kazaross-XG2, what players and engines use.
DEFAULT_TABLE = "kxg2"


#: The bundled tables, key -> name (the file's ``<name>``), in display order; each is
#: ``cubecore/data/met/<key>.json``, written by ``scripts/gnubg/convert_met.py``.
TABLES: Mapping[str, str] = MappingProxyType(
    {
        "kxg2": "Kazaross XG2 25 point MET",
        "rk": "Rockwell/Kazaross 25 point MET",
        "g11": "GNUbg 11 point MET",
        "jt": "Jacobs & Trice",
        "jt50": "Jacobs & Trice with player 0 a 50 Elo favorite",
        "jt100": "Jacobs & Trice with player 0 a 100 Elo favorite",
        "snowie": "Snowie 2.1",
        "woolsey": "Kit Woolsey",
        "ortega": "Ortega & Kleinman",
        "mec26": "mec",
        "mec": "mec (match equity calculator)",
        "zadeh": "N. Zadeh",
    }
)


@lru_cache(maxsize=len(TABLES))
def _load(key: str) -> MatchEquityTable:
    record = json.loads((_DATA / f"{key}.json").read_text(encoding="utf-8"))
    meta = {
        name: str(record[name])
        for name in ("source", "licence", "made_by", "beyond", "length", "numbers")
        if name in record
    }
    return MatchEquityTable(
        record["key"],
        record["name"],
        np.array(record["pre"], dtype=float),
        np.array(record["post"], dtype=float),
        description=record["description"],
        notice=record["notice"],
        meta=meta,
        post_opponent=(
            np.array(record["post_opponent"], dtype=float) if "post_opponent" in record else None
        ),
    )


def load_table(key: str = DEFAULT_TABLE) -> MatchEquityTable:
    """One bundled match equity table, by its short key.

    The tables are those of GNU Backgammon's ``gnubg-data`` ([GNUBG]_), in this
    project's JSON format under ``cubecore/data/met/`` (see the module docstring);
    ``meta["beyond"]`` says what gnubg does past the table's length.

    Parameters
    ----------
    key : str
        One of :data:`TABLES` (e.g. ``"kxg2"`` for Kazaross-XG2, ``"woolsey"``).

    Returns
    -------
    MatchEquityTable
        Cached: the same object for the same key.

    Raises
    ------
    ValueError
        For an unknown key, listing the known ones.

    Examples
    --------
    Kazaross-XG2 at 2-away/4-away (gnubg 1.07's ``show matchequitytable``: 66.8700):

    >>> t = load_table("kxg2")
    >>> t.length, t.mwc(2, 4)
    (25, 0.6687)
    """
    if not isinstance(key, str) or key not in TABLES:
        known = ", ".join(TABLES)
        raise ValueError(f"`key` must be one of {known} (got {key!r})")
    return _load(key)


def bundled_tables() -> pd.DataFrame:
    """Overview of the library: one row per bundled table, in :data:`TABLES` order.

    Returns
    -------
    pandas.DataFrame
        Columns ``key``, ``name``, ``length`` (largest away-score the table covers),
        ``post_length``, ``description``, ``numbers`` (the file's own, or generated by
        gnubg) and ``beyond`` (what gnubg does past ``length``).

    Examples
    --------
    >>> bundled_tables().set_index("key").loc["woolsey", "length"]
    np.int64(15)
    """
    return pd.DataFrame(
        [
            {
                "key": key,
                "name": table.name,
                "length": table.length,
                "post_length": table.post_length,
                "description": table.description,
                "numbers": table.meta.get("numbers", ""),
                "beyond": table.meta.get("beyond", ""),
            }
            for key in TABLES
            for table in (load_table(key),)
        ]
    )


def model_table(
    gammon_rate: float = DEFAULT_GAMMON_RATE,
    cube_efficiency: float = DEFAULT_CUBE_EFFICIENCY,
    length: int = MAX_AWAY,
) -> MatchEquityTable:
    """The project's generated match equity table as a :class:`MatchEquityTable`.

    ``pre`` is :func:`cubecore.match.match_equity_table` (row/column 1 the Crawford
    game, as in gnubg's tables) and ``post[t - 1] = 1 - P(t)`` the trailer's side of
    :func:`cubecore.match.post_crawford_equity` (``P(1) = 1/2``, double match point).
    The model and its sources are in :mod:`cubecore.match` ([KS69]_, [JR12]_).

    Parameters
    ----------
    gammon_rate : float
        Fraction of won games that are gammons, both sides, in [0, 1].
    cube_efficiency : float
        Janowski's cube efficiency ``x`` in [0, 1].
    length : int
        Largest away-score, 1..25 (the generated table's bound; 25 takes ~50 ms).

    Returns
    -------
    MatchEquityTable
        Key ``"model"``.

    Examples
    --------
    Without gammons the trailer at 2-away post-Crawford has 1/2 (the leader's
    free drop), and at 3-away/1-away 1/4 (Crawford game, then double match point):

    >>> t = model_table(0.0, 1.0, 3)
    >>> t.mwc(2, 1, post_crawford=True), t.mwc(3, 1)
    (0.5, 0.25)

    References
    ----------
    .. [KS69] E. Keeler and J. Spencer, "Proper Raising Points in a Generalization
       of Backgammon", RAND P-4078, 1969.
    .. [JR12] "Janowski model revisited", 2012.
    """
    g = real_in_range("gammon_rate", gammon_rate, 0.0, 1.0)
    x = real_in_range("cube_efficiency", cube_efficiency, 0.0, 1.0)
    n = whole_number("length", length, 1, MAX_AWAY)
    pre = match_equity_table(n, g, x).to_numpy()
    post = np.array([1.0 - post_crawford_equity(t, g) for t in range(1, n + 1)])
    return MatchEquityTable(
        "model",
        f"Model (gammon rate {g:g}, cube efficiency {x:g})",
        pre,
        post,
        description=(
            "Generated by cubecore.match: the continuous game with gammons and a"
            " Janowski cube efficiency, exact recursion over the scores."
        ),
        notice="",
        meta={"source": "cubecore.match", "length": str(n)},
    )


# ----------------------------------------------------------------------------------
# Checking and comparing tables
# ----------------------------------------------------------------------------------
#: Default slack of :func:`check_table`: 0.001 MWC (0.1 pp). Published tables print
#: 2-6 decimals; two entries rounded to 3 decimals can sum to 1 +- 0.001.
DEFAULT_TOLERANCE = 1e-3

#: Float slack added to the tolerance: 0.25 + 0.749 is not exactly 0.999 in binary.
_ROUNDING = 1e-12

_CHECK_COLUMNS = ["check", "part", "away", "opp_away", "value", "excess", "message"]


def _violations(
    rows: list[dict[str, object]],
    check: str,
    part: str,
    cells: NDArray[np.int_],
    values: ArrayLike,
    excess: ArrayLike,
    message: Callable[[int, int, float], str],
) -> None:
    """Append one row per cell; ``cells`` holds 1-based ``(away, opp_away)``."""
    vals = np.asarray(values, dtype=float).tolist()
    over = np.asarray(excess, dtype=float).tolist()
    for (a, b), value, beyond in zip(cells.tolist(), vals, over, strict=True):
        rows.append(
            {
                "check": check,
                "part": part,
                "away": int(a),
                "opp_away": int(b),
                "value": value,
                "excess": beyond,
                "message": message(int(a), int(b), value),
            }
        )


def _wrong_way(
    rows: list[dict[str, object]],
    check: str,
    step: NDArray[np.float64],
    later: NDArray[np.float64],
    shift: tuple[int, int],
    edge: float,
    tol: float,
    message: Callable[[int, int, float], str],
) -> None:
    """Rows of the pre-Crawford cells where ``step`` between neighbours exceeds ``edge``.

    ``step[i, j]`` compares the cell ``(i, j)`` with its neighbour ``(i, j) + shift``
    (0-based), whose value is ``later[i, j]``; the row names that neighbour.
    """
    bad = np.argwhere(step > edge)
    _violations(
        rows,
        check,
        "pre",
        bad + 1 + np.array(shift),
        later[bad[:, 0], bad[:, 1]],
        step[bad[:, 0], bad[:, 1]] - tol,
        message,
    )


def _in_part(part: str, text: Callable[[int, int, float], str]) -> Callable[[int, int, float], str]:
    """``text`` prefixed with the post-Crawford column's name."""
    return lambda a, b, v: f"{part}: {text(a, b, v)}"


def check_table(
    table: MatchEquityTable, tolerance: float = DEFAULT_TOLERANCE, *, complement: bool = True
) -> pd.DataFrame:
    """Name every cell of a table that breaks a match equity table's invariants.

    With ``M(a, b)`` the pre-Crawford table and ``P(t)`` the post-Crawford column
    (the trailer's MWC at ``t``-away against a 1-away leader), a cell violates

    - ``range``: ``M(a, b)`` or ``P(t)`` outside ``[0, 1]`` by more than ``tolerance``;
    - ``complement``: ``|M(a, b) + M(b, a) - 1| > tolerance`` (each pair once, ``a <= b``;
      skipped with ``complement=False``, e.g. for a table with a favourite such as
      Jacobs & Trice +50 Elo, where player 0 is the stronger side by design);
    - ``monotone_away``: ``M(a + 1, b) > M(a, b) + tolerance`` (needing more points
      must not help);
    - ``monotone_opp_away``: ``M(a, b + 1) < M(a, b) - tolerance``;
    - ``post_monotone``: ``P(t + 1) > P(t) + tolerance`` (the same for
      ``post_opponent`` when the table has one).

    Parameters
    ----------
    table : MatchEquityTable
        The table to check.
    tolerance : float
        Slack in MWC, in [0, 0.1]; default :data:`DEFAULT_TOLERANCE` (0.001).
    complement : bool
        Check ``M(a, b) + M(b, a) = 1``.

    Returns
    -------
    pandas.DataFrame
        One row per violation: ``check``, ``part`` (``pre``, ``post``,
        ``post_opponent``), ``away``, ``opp_away`` (for post-Crawford cells the
        trailer's away and 1), ``value``, ``excess`` (how far beyond the tolerance's
        edge, in MWC) and ``message`` naming the cell. Empty when the table passes.

    Examples
    --------
    >>> t = MatchEquityTable("t", "t", [[0.5, 0.7], [0.35, 0.5]], [0.5, 0.49])
    >>> check_table(t)["message"].tolist()
    ['M(1, 2) + M(2, 1) = 1.05, off by 0.05']
    """
    if not isinstance(table, MatchEquityTable):
        raise TypeError(f"`table` must be a MatchEquityTable (got {type(table).__name__})")
    tol = real_in_range("tolerance", tolerance, 0.0, 0.1)
    complement = flag("complement", complement)
    pre = table.pre
    rows: list[dict[str, object]] = []
    edge = tol + _ROUNDING  # a cell is flagged only beyond this
    low, high = -edge, 1.0 + edge
    posts = [("post", table.post)]
    if table.post_opponent is not None:
        posts.append(("post_opponent", table.post_opponent))

    bad = np.argwhere((pre < low) | (pre > high))
    vals = pre[bad[:, 0], bad[:, 1]]
    _violations(
        rows,
        "range",
        "pre",
        bad + 1,
        vals,
        np.maximum(-tol - vals, vals - 1.0 - tol),
        lambda a, b, v: f"M({a}, {b}) = {v:.6g} is outside [0, 1]",
    )
    for part, column in posts:
        idx = np.flatnonzero((column < low) | (column > high))
        vals = column[idx]
        _violations(
            rows,
            "range",
            part,
            np.column_stack([idx + 1, np.ones_like(idx)]),
            vals,
            np.maximum(-tol - vals, vals - 1.0 - tol),
            _in_part(part, lambda a, b, v: f"P({a}) = {v:.6g} is outside [0, 1]"),
        )

    if complement:
        total = pre + pre.T
        bad = np.argwhere(np.triu(np.abs(total - 1.0) > edge))
        sums = total[bad[:, 0], bad[:, 1]]
        _violations(
            rows,
            "complement",
            "pre",
            bad + 1,
            sums,
            np.abs(sums - 1.0) - tol,
            lambda a, b, v: f"M({a}, {b}) + M({b}, {a}) = {v:.6g}, off by {abs(v - 1.0):.6g}",
        )

    _wrong_way(
        rows,
        "monotone_away",
        pre[1:, :] - pre[:-1, :],  # M(a + 1, b) - M(a, b)
        pre[1:, :],
        (1, 0),
        edge,
        tol,
        lambda a, b, v: f"M({a}, {b}) = {v:.6g} exceeds M({a - 1}, {b}): needing more helps",
    )
    _wrong_way(
        rows,
        "monotone_opp_away",
        pre[:, :-1] - pre[:, 1:],  # M(a, b) - M(a, b + 1)
        pre[:, 1:],
        (0, 1),
        edge,
        tol,
        lambda a, b, v: (
            f"M({a}, {b}) = {v:.6g} is below M({a}, {b - 1}): the opponent needing more hurts"
        ),
    )
    for part, column in posts:
        rise_post = np.diff(column)  # P(t + 1) - P(t)
        idx = np.flatnonzero(rise_post > edge)
        _violations(
            rows,
            "post_monotone",
            part,
            np.column_stack([idx + 2, np.ones_like(idx)]),
            column[idx + 1],
            rise_post[idx] - tol,
            _in_part(
                part,
                lambda a, b, v: f"P({a}) = {v:.6g} exceeds P({a - 1}): trailing by more helps",
            ),
        )
    frame = pd.DataFrame(rows, columns=_CHECK_COLUMNS)
    return frame.astype({"away": "int64", "opp_away": "int64", "value": float, "excess": float})


@dataclass(frozen=True, eq=False)
class TableComparison:
    """Two tables over their common region, ``a - b`` in MWC.

    Attributes
    ----------
    length : int
        Away-scores compared, ``1..length`` each.
    difference : pandas.DataFrame
        ``M_a(away, opp_away) - M_b(away, opp_away)``, index ``away``, columns
        ``opp_away`` (pre-Crawford, row/column 1 the Crawford game).
    post_difference : pandas.Series
        ``P_a(t) - P_b(t)`` for the trailer at ``t = 1..`` (common post length).
    max_abs, mean_abs : float
        Largest and mean absolute pre-Crawford difference (MWC; x100 for pp).
    where_max : tuple of int
        ``(away, opp_away)`` of the largest absolute difference (first in row order).
    post_max_abs : float
        Largest absolute post-Crawford difference.
    """

    length: int
    difference: pd.DataFrame
    post_difference: pd.Series
    max_abs: float
    mean_abs: float
    where_max: tuple[int, int]
    post_max_abs: float


def compare_tables(
    a: MatchEquityTable, b: MatchEquityTable, length: int | None = None
) -> TableComparison:
    """Difference of two match equity tables, largest and mean absolute difference.

    .. math:: D(i, j) = M_a(i, j) - M_b(i, j), \\quad 1 \\le i, j \\le n,

    ``max |D|`` and ``mean |D|`` over the ``n x n`` cells (the diagonal and the
    Crawford row and column included), and ``P_a(t) - P_b(t)`` post-Crawford.

    Parameters
    ----------
    a, b : MatchEquityTable
        The tables (``a - b``).
    length : int, optional
        ``n``; default and upper bound: the common length ``min(a.length, b.length)``.

    Returns
    -------
    TableComparison

    Examples
    --------
    >>> x = MatchEquityTable("x", "x", [[0.5, 0.7], [0.3, 0.5]], [0.5, 0.49])
    >>> y = MatchEquityTable("y", "y", [[0.5, 0.66], [0.32, 0.5]], [0.5, 0.48])
    >>> c = compare_tables(x, y)
    >>> round(c.max_abs, 6), round(c.mean_abs, 6), c.where_max
    (0.04, 0.015, (1, 2))
    """
    for name, table in (("a", a), ("b", b)):
        if not isinstance(table, MatchEquityTable):
            raise TypeError(f"`{name}` must be a MatchEquityTable (got {type(table).__name__})")
    common = min(a.length, b.length)
    n = common if length is None else whole_number("length", length, 1, common)
    diff = a.pre[:n, :n] - b.pre[:n, :n]
    absolute = np.abs(diff)
    i, j = np.unravel_index(int(np.argmax(absolute)), absolute.shape)
    labels = pd.RangeIndex(1, n + 1)
    m = min(n, a.post_length, b.post_length)
    post = a.post[:m] - b.post[:m]
    return TableComparison(
        length=n,
        difference=pd.DataFrame(
            diff,
            index=pd.Index(labels, name="away"),
            columns=pd.Index(labels, name="opp_away"),
        ),
        post_difference=pd.Series(post, index=pd.RangeIndex(1, m + 1, name="away"), name="post"),
        max_abs=float(absolute.max()),
        mean_abs=float(absolute.mean()),
        where_max=(int(i) + 1, int(j) + 1),
        post_max_abs=float(np.abs(post).max()),
    )
