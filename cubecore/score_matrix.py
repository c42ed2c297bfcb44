"""The cube decision for the same probabilities at every score of a match.

:func:`score_matrix` gives, on an n x n grid of scores (and the money row), the
decision of :func:`~cubecore.cube_decision.match_cube_decision` with its no double,
double/take and double/pass equities, the action in GNU Backgammon's words, and with
``margins`` the winning-chance margins of :mod:`cubecore.cube_margins`.

References
----------
.. [JT] J. Thyssen, the generalisation of Janowski's formulae to match play in
   GNU Backgammon (``Cl2CfMatch*`` in ``eval.c``, ``GetPoints`` in ``matchequity.c``,
   whose comments refer to his notes; no separate publication was found). The
   formulas here are reimplemented from the definitions stated in
   :mod:`cubecore.cube_decision`.
.. [GNUBG] GNU Backgammon 1.07 (2023), https://www.gnu.org/software/gnubg/ :
   0-ply cube decisions, ``show marketwindow``, ``show cubeefficiency``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial

import pandas as pd

from cubecore._validate import flag, whole_number
from cubecore.cube_anatomy import CubeSetting, _check_setting
from cubecore.cube_decision import (
    CubeDecision,
    CubelessProbabilities,
    _as_probabilities,
    _check_score,
    match_cube_decision,
    money_cube_decision,
)
from cubecore.cube_margins import _win_kinks, _win_margins
from cubecore.met import MatchEquityTable

__all__ = [
    "MAX_SCORE_GRID",
    "score_matrix",
]

#: Largest side of the score grid of :func:`score_matrix`.
MAX_SCORE_GRID = 15


def score_matrix(
    probabilities: CubelessProbabilities | tuple[float, ...],
    setting: CubeSetting,
    table: MatchEquityTable,
    n: int = 11,
    *,
    margins: bool = True,
) -> pd.DataFrame:
    """The cube decision for the same probabilities at every score of an n x n grid.

    One row per cell (centred cube on 1): ``state`` is "money" (one row: the
    decision of ``setting``, with its ``jacoby``/``beavers`` rules), "pre-crawford"
    (both players 2..n away), "crawford" and "post-crawford" (one player 1-away; at
    1-away/1-away only "post-crawford"), each with the cube life ``setting.x``;
    ``away``/``opp_away`` (0 for money); ``no_double``, ``double_take``,
    ``double_pass`` and ``optimal`` in EMG (money equity for the money row) and
    ``*_mwc`` in MWC; ``action`` (gnubg's wording), ``doubles``, ``taker_passes``;
    with ``margins`` the winning-chance margins ``win_down`` and ``win_up`` of
    :func:`decision_margins` (NaN where the cube is not available or no change
    occurs).

    Parameters
    ----------
    probabilities : CubelessProbabilities or tuple of 5 floats
        The position's cubeless probabilities, the same in every cell.
    setting : CubeSetting
        Money play (``table`` None) with the cube centred on 1: the money row, and
        the cube life of every cell.
    table : MatchEquityTable
        The table of the match cells.
    n : int
        Side of the grid, 1..``min(15, table.length)``.
    margins : bool
        Add the columns ``win_down`` and ``win_up``.

    Raises
    ------
    ValueError
        A ``setting`` of match play or with a turned cube, ``n`` out of range.

    Notes
    -----
    Cost: ``n <= 15`` (:data:`MAX_SCORE_GRID`); about ``n**2 + 2n`` decisions, times
    at most 224 with margins.

    Examples
    --------
    >>> t = MatchEquityTable("t", "t", [[0.5, 0.68], [0.32, 0.5]], [0.5, 0.49])
    >>> probs = (0.7, 0.2, 0.01, 0.05, 0.0)
    >>> grid = score_matrix(probs, CubeSetting(0.68), t, 2, margins=False)
    >>> grid["state"].value_counts().to_dict()
    {'post-crawford': 3, 'crawford': 2, 'money': 1, 'pre-crawford': 1}
    """
    probs = _as_probabilities(probabilities)
    setting = _check_setting(setting)
    if setting.table is not None:
        raise ValueError("`setting` must be money play (table None): the match cells use `table`")
    if setting.cube != 1 or setting.owner != "center":
        raise ValueError(
            "`setting` must have the cube centred on 1"
            f" (got cube={setting.cube}, owner={setting.owner!r})"
        )
    x, jacoby, beavers = setting.x, setting.jacoby, setting.beavers
    if not isinstance(table, MatchEquityTable):
        raise ValueError(f"`table` must be a MatchEquityTable (got {type(table).__name__})")
    n = whole_number("n", n, 1, min(MAX_SCORE_GRID, table.length))
    margins = flag("margins", margins)
    cells: list[tuple[str, int, int, bool]] = [("money", 0, 0, False)]
    for a in range(1, n + 1):
        for b in range(1, n + 1):
            if a == 1 and b == 1:
                cells.append(("post-crawford", a, b, False))
            elif a == 1 or b == 1:
                cells.append(("crawford", a, b, True))
                cells.append(("post-crawford", a, b, False))
            else:
                cells.append(("pre-crawford", a, b, False))
    rows = []
    for state, a, b, crawford in cells:
        decide: Callable[[CubelessProbabilities], CubeDecision]
        if state == "money":
            decide = partial(money_cube_decision, x=x, jacoby=jacoby, beavers=beavers)
        else:
            decide = partial(
                match_cube_decision, x=x, table=table, away=a, opp_away=b, crawford=crawford
            )

        d = decide(probs)
        row: dict[str, object] = {
            "state": state,
            "away": a,
            "opp_away": b,
            "no_double": d.no_double,
            "double_take": math.nan if d.double_take is None else d.double_take,
            "double_pass": math.nan if d.double_pass is None else d.double_pass,
            "optimal": d.optimal,
            "no_double_mwc": math.nan if d.no_double_mwc is None else d.no_double_mwc,
            "double_take_mwc": math.nan if d.double_take_mwc is None else d.double_take_mwc,
            "double_pass_mwc": math.nan if d.double_pass_mwc is None else d.double_pass_mwc,
            "action": d.action,
            "doubles": d.doubles,
            "taker_passes": d.taker_passes,
        }
        if margins:
            if d.cube_available:
                score = None if state == "money" else _check_score(table, a, b, crawford)
                kinks = _win_kinks(probs, None if score is None else table, score, 1)
                down, up = _win_margins(decide, probs, kinks)
            else:
                down, up = None, None
            row["win_down"] = math.nan if down is None else down
            row["win_up"] = math.nan if up is None else up
        rows.append(row)
    return pd.DataFrame(rows)
