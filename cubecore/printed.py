"""Printed beside exact: one comparison of a published table with its exact computation.

Every model here is checked against the tables its source printed ([KS69]_ Tables
I-V, [ZK77]_ Table 1, the numbers of [W-DT]_). A printed number carries ``d``
decimals, so it agrees with the exact value when they differ by at most half a unit
of the last printed place, ``0.5 * 10**-d``. A printed cell that does not is never
loosened away: the model module lists it with its reason (a ``*_DEVIATIONS``
mapping, ``key -> (printed value, reason)``), and :func:`compare_printed` puts the
reason beside the cell. Tests, caches and pages all use this one function.

References
----------
.. [KS69] E. Keeler, J. Spencer, "Proper Raising Points in a Generalization of
   Backgammon", RAND Corporation paper P-4078, 1969.
   https://www.rand.org/pubs/papers/P4078.html
.. [ZK77] N. Zadeh, G. Kobliska, "On Optimal Doubling in Backgammon", Management
   Science 23(8), 853-858, 1977. https://doi.org/10.1287/mnsc.23.8.853
.. [W-DT] K. Woolsey, "Doubling Theory", essay.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, cast

import numpy as np
import pandas as pd

from cubecore._validate import whole_number

__all__ = ["MAX_CELLS", "MAX_DIGITS", "SLACK", "UNEXPLAINED", "compare_printed"]

#: Largest table compared (cells): the comparison is linear in the cells.
MAX_CELLS = 1_000_000
#: Most printed decimals accepted (beyond, a float cannot carry the half unit).
MAX_DIGITS = 15
#: Added to the half unit: a float computation of an exact rounding tie (21/32 printed
#: .6563) is still within the printed digits.
SLACK = 1e-9
#: Reason given to a cell outside its printed digits that no deviation list explains.
UNEXPLAINED = "not explained: please report"

_COLUMNS = ("printed", "exact", "difference", "within_printed_digits", "reason")


def _cells(table: pd.Series | pd.DataFrame, name: str) -> pd.Series:
    """A table as one value per cell: a Series as it is, a DataFrame stacked by rows."""
    if isinstance(table, pd.DataFrame):
        stacked: pd.Series = table.stack(future_stack=True)  # type: ignore[assignment]
        return stacked
    if isinstance(table, pd.Series):
        return table
    raise ValueError(f"`{name}` must be a pandas Series or DataFrame (got {type(table).__name__})")


def _key_names(cells: pd.Series, printed: pd.Series | pd.DataFrame) -> list[str]:
    """Column names of the cell keys: the index names, else ``key`` or ``row``/``column``."""
    if isinstance(printed, pd.DataFrame):
        row = str(printed.index.name) if printed.index.name is not None else "row"
        column = str(printed.columns.name) if printed.columns.name is not None else "column"
        return [row, column if column != row else f"{column}_column"]
    names = list(cells.index.names)
    if len(names) == 1:
        return [str(names[0]) if names[0] is not None else "key"]
    return [str(name) if name is not None else f"key_{i}" for i, name in enumerate(names)]


def compare_printed(
    printed: pd.Series | pd.DataFrame,
    exact: pd.Series | pd.DataFrame,
    digits: int | pd.Series | pd.DataFrame,
    deviations: Mapping[Any, tuple[object, str]] | None = None,
    *,
    slack: float = SLACK,
) -> pd.DataFrame:
    """Each printed cell beside its exact value, whether it agrees, and why not.

    A printed value :math:`p` with :math:`d` decimals agrees with the exact value
    :math:`e` when

    .. math:: |e - p| \\le \\tfrac12\\,10^{-d} + \\text{slack},

    half a unit of the last printed place. A cell that does not agree gets the reason
    its model module lists for it (``deviations``), else :data:`UNEXPLAINED`; a listed
    cell keeps its reason even when it agrees.

    Parameters
    ----------
    printed : pandas.Series or pandas.DataFrame
        The table as printed. A DataFrame's cells are keyed ``(row, column)`` and read
        row by row; a Series' cells by its index. Cells that are NaN (not printed) are
        left out.
    exact : pandas.Series or pandas.DataFrame
        Exact values, with at least the labels of ``printed`` (it may be larger).
    digits : int or pandas.Series or pandas.DataFrame
        Printed decimals: one for the whole table, or one per cell (same labels as
        ``printed``), each in ``[0, MAX_DIGITS]``.
    deviations : mapping, optional
        Cell key -> ``(printed value, reason)``, as the ``*_DEVIATIONS`` mappings of the
        model modules; every key must be a printed cell whose value is the one listed.
    slack : float, optional
        Added to the half unit (default :data:`SLACK`), at least 0.

    Returns
    -------
    pandas.DataFrame
        One row per printed cell, in the printed order: the key column(s) (the index
        names, else ``key`` or ``row`` and ``column``), ``printed``, ``exact``,
        ``difference`` (exact - printed), ``within_printed_digits`` (bool) and
        ``reason`` ("" for an agreeing cell that is not listed).

    Raises
    ------
    ValueError
        If a table is not a Series or DataFrame, has more than :data:`MAX_CELLS` cells,
        ``exact`` lacks a printed label, ``digits`` or ``slack`` is out of range, or a
        deviation names a cell that is not printed or another printed value.

    Notes
    -----
    The comparison never rounds the exact value first: rounding twice can turn a
    value just inside the half unit into a disagreement (or the reverse).

    Examples
    --------
    [KS69]_ Table I, cell (2, 1), is the tie 21/32 = .65625, printed .6563; a second,
    made-up cell is printed .5 for an exact .49 and listed with its reason:

    >>> printed = pd.DataFrame({1: [0.6563], 2: [0.5]}, index=[2])
    >>> exact = pd.DataFrame({1: [21 / 32], 2: [0.49]}, index=[2])
    >>> frame = compare_printed(printed, exact, 4, {(2, 2): (0.5, "a misprint")})
    >>> frame[["row", "column", "within_printed_digits", "reason"]].values.tolist()
    [[2, 1, True, ''], [2, 2, False, 'a misprint']]
    """
    cells = _cells(printed, "printed")
    exact_cells = _cells(exact, "exact")
    if len(cells) > MAX_CELLS or len(exact_cells) > MAX_CELLS:
        raise ValueError(f"printed and exact must have at most {MAX_CELLS} cells")
    if isinstance(slack, bool) or not (isinstance(slack, int | float) and 0 <= slack < 1):
        raise ValueError(f"`slack` must lie in [0, 1) (got {slack!r})")
    cells = cells[cells.notna()]
    missing = cells.index.difference(exact_cells.index)
    if len(missing):
        raise ValueError(f"`exact` must have every printed label; missing {list(missing[:5])}")
    values = exact_cells.loc[cells.index].to_numpy(dtype=float)
    if isinstance(digits, pd.Series | pd.DataFrame):
        per_cell = _cells(digits, "digits").reindex(cells.index)
        if per_cell.isna().any():
            raise ValueError("`digits` must give the decimals of every printed cell")
        places = per_cell.to_numpy(dtype=float)
        if np.any(places != np.round(places)) or np.any((places < 0) | (places > MAX_DIGITS)):
            raise ValueError(f"`digits` must be whole numbers in [0, {MAX_DIGITS}]")
    else:
        places = np.full(len(cells), whole_number("digits", digits, 0, MAX_DIGITS), dtype=float)
    shown = cells.to_numpy(dtype=float)
    difference = values - shown
    within = np.abs(difference) <= 0.5 * 10.0**-places + slack
    if deviations is not None and not isinstance(deviations, Mapping):
        raise ValueError(
            f"`deviations` must be a mapping or None (got {type(deviations).__name__})"
        )
    listed: dict[Any, Any] = dict(deviations or {})
    for key, entry in listed.items():
        if key not in cells.index:
            raise ValueError(f"deviations names {key!r}, which is not a printed cell")
        if float(entry[0]) != float(cells.loc[key]):
            raise ValueError(
                f"deviations gives {key!r} as printed {entry[0]!r}, the table prints "
                f"{cells.loc[key]!r}"
            )
    reasons = [
        listed[key][1] if key in listed else ("" if ok else UNEXPLAINED)
        for key, ok in zip(cells.index, within, strict=True)
    ]
    names = _key_names(cells, printed)
    keys = cells.index.to_frame(
        index=False,
        name=cast(Hashable, names if len(names) > 1 else names[0]),  # a list for a MultiIndex
    )
    frame = keys.assign(
        printed=shown,
        exact=values,
        difference=difference,
        within_printed_digits=within,
        reason=reasons,
    )
    return frame[[*names, *_COLUMNS]]
