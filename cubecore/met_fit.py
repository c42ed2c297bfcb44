"""Explain a match equity table: the model's gammon rate and cube efficiency that fit it.

:func:`cubecore.match.match_equity_table` generates a whole table from two numbers:
the gammon rate ``G`` (share of won games that are gammons, both sides) and
Janowski's cube efficiency ``x`` ([JR12]_). :func:`fit_table` finds the ``(G, x)``
whose table is closest to a given one in the least-squares sense,

.. math:: \\min_{0 \\le G \\le 0.6,\\; 0 \\le x \\le 1}
          \\sum_{1 \\le a, b \\le n} \\bigl(M_{G,x}(a, b) - T(a, b)\\bigr)^2,

over the stated region: the ``n x n`` pre-Crawford square (rows and columns
``1..n``; the 1-away row and column are the Crawford game), ``n = 11`` by default.

The search is deterministic: the objective on the stated grid :data:`GRID_G` x
:data:`GRID_X`, then a bounded trust-region refinement
(``scipy.optimize.least_squares``, method ``"trf"``) from the best grid point,
inside the grid cell around it. Each evaluation is one model table of size
``n``; the grid is 16 tables and the refinement at most :data:`MAX_REFINE_EVALUATIONS`.

References
----------
.. [JR12] M. Higgins, "Janowski model revisited", Computational Backgammon (blog),
   28 March 2012, http://compgammon.blogspot.com/2012/03/janowski-model-revisited.html,
   after R. Janowski, "Take-Points in Money Games", Hoosier Backgammon Club
   magazine, 1993, http://www.msoworld.com/mindzine/news/classic/bg/cubeformulae.pdf
   (the cube efficiency ``x``).
.. [KS69] E. Keeler and J. Spencer, "Proper Raising Points in a Generalization of
   Backgammon", RAND Corporation P-4078, 1969,
   https://www.rand.org/pubs/papers/P4078.html (the continuous game of the model).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from scipy.optimize import least_squares

from cubecore._validate import real_in_range, whole_number
from cubecore.match import MAX_AWAY, match_equity_table
from cubecore.met import MatchEquityTable

__all__ = [
    "DEFAULT_FIT_AWAY",
    "GAMMON_RATE_BOUNDS",
    "GRID_G",
    "GRID_X",
    "MAX_REFINE_EVALUATIONS",
    "TableFit",
    "fit_table",
    "model_residuals",
]

#: The default region: the 11 x 11 pre-Crawford square.
DEFAULT_FIT_AWAY = 11
#: Bounds of the gammon rate searched (published tables sit near 0.2-0.35).
GAMMON_RATE_BOUNDS = (0.0, 0.6)
#: The stated grid of the first stage.
GRID_G = (0.1, 0.2, 0.3, 0.4)
GRID_X = (0.4, 0.6, 0.8, 1.0)
#: Budget of model tables for the refinement (each one table of the region's size).
MAX_REFINE_EVALUATIONS = 40


@dataclass(frozen=True, eq=False)
class TableFit:
    """The model parameters that reproduce a table best, and how well they do.

    What :func:`fit_table` returns: the least-squares ``G`` and ``x`` of
    :func:`cubecore.match.match_equity_table` for the table, and the residuals.

    Attributes
    ----------
    table_name : str
    gammon_rate, cube_efficiency : float
        The fitted ``G`` and ``x``.
    max_away : int
        The region: scores ``1..max_away`` each, pre-Crawford square.
    residuals : pandas.DataFrame
        Columns ``away, opp_away, table, model, residual_pp`` (model minus table,
        in percentage points of MWC), one row per cell of the region.
    mean_abs_residual_pp, max_abs_residual_pp : float
        Mean and largest absolute residual, percentage points.
    evaluations : int
        Model tables computed (grid plus refinement).
    reading : str
        One sentence saying what the fit means.
    """

    table_name: str
    gammon_rate: float
    cube_efficiency: float
    max_away: int
    residuals: pd.DataFrame
    mean_abs_residual_pp: float
    max_abs_residual_pp: float
    evaluations: int
    reading: str


def _check(table: MatchEquityTable, max_away: int) -> int:
    if not isinstance(table, MatchEquityTable):
        raise TypeError(f"`table` must be a cubecore.met.MatchEquityTable (got {type(table)})")
    return whole_number("max_away", max_away, 2, min(MAX_AWAY, table.length))


def _model(n: int, g: float, x: float) -> NDArray[np.float64]:
    return np.asarray(match_equity_table(n, float(g), float(x)).to_numpy(), dtype=np.float64)


def _frame(target: NDArray[np.float64], model: NDArray[np.float64]) -> pd.DataFrame:
    n = target.shape[0]
    away, opp = np.meshgrid(np.arange(1, n + 1), np.arange(1, n + 1), indexing="ij")
    return pd.DataFrame(
        {
            "away": away.ravel(),
            "opp_away": opp.ravel(),
            "table": target.ravel(),
            "model": model.ravel(),
            "residual_pp": 100.0 * (model - target).ravel(),
        }
    )


def model_residuals(
    table: MatchEquityTable,
    gammon_rate: float,
    cube_efficiency: float,
    max_away: int = DEFAULT_FIT_AWAY,
) -> pd.DataFrame:
    """Model minus table over the ``max_away x max_away`` pre-Crawford square.

    Parameters
    ----------
    table : MatchEquityTable
    gammon_rate, cube_efficiency : float
        The model's ``G`` and ``x``, each in [0, 1].
    max_away : int
        2..``min(25, table.length)``.

    Returns
    -------
    pandas.DataFrame
        Columns ``away, opp_away, table, model, residual_pp`` (percentage points).

    Examples
    --------
    The model's own table has no residual:

    >>> from cubecore.match import match_equity_table
    >>> m = match_equity_table(3, 0.25, 0.8).to_numpy()
    >>> t = MatchEquityTable("m", "model", m, [0.5, 0.49, 0.3])
    >>> float(model_residuals(t, 0.25, 0.8, max_away=3).residual_pp.abs().max())
    0.0
    """
    n = _check(table, max_away)
    gammon_rate = real_in_range("gammon_rate", gammon_rate, 0.0, 1.0)
    cube_efficiency = real_in_range("cube_efficiency", cube_efficiency, 0.0, 1.0)
    target = np.asarray(table.pre)[:n, :n]
    return _frame(target, _model(n, gammon_rate, cube_efficiency))


def fit_table(table: MatchEquityTable, max_away: int = DEFAULT_FIT_AWAY) -> TableFit:
    """Least-squares gammon rate and cube efficiency of the model for a table.

    Minimises the sum of squared differences between
    :func:`cubecore.match.match_equity_table` ``(n, G, x)`` and the table over the
    ``n x n`` pre-Crawford square (module docstring), ``G`` in [0, 0.6] and ``x``
    in [0, 1]: the stated grid first, then a bounded trust-region refinement.

    Parameters
    ----------
    table : MatchEquityTable
        The table to explain.
    max_away : int
        The region's size ``n``, 2..``min(25, table.length)`` (default 11). Cost:
        at most ``16 + 40`` model tables of size ``n`` (about 0.07 s each at
        ``n = 11`` on one core).

    Returns
    -------
    TableFit

    Examples
    --------
    A table made by the model is explained by its own parameters:

    >>> from cubecore.match import match_equity_table
    >>> m = match_equity_table(4, 0.25, 0.7).to_numpy()
    >>> fit = fit_table(MatchEquityTable("m", "model", m, [0.5, 0.49, 0.3, 0.29]), 4)
    >>> round(fit.gammon_rate, 3), round(fit.cube_efficiency, 3)
    (0.25, 0.7)
    """
    n = _check(table, max_away)
    target = np.asarray(table.pre)[:n, :n]
    evaluations = 0

    def residual(params: NDArray[np.float64]) -> NDArray[np.float64]:
        nonlocal evaluations
        evaluations += 1
        return (_model(n, params[0], params[1]) - target).ravel()

    grid = [(g, x) for g in GRID_G for x in GRID_X]
    costs = [float(np.sum(residual(np.array(point)) ** 2)) for point in grid]
    g0, x0 = grid[int(np.argmin(costs))]
    step_g, step_x = GRID_G[1] - GRID_G[0], GRID_X[1] - GRID_X[0]
    low = (max(GAMMON_RATE_BOUNDS[0], g0 - step_g), max(0.0, x0 - step_x))
    high = (min(GAMMON_RATE_BOUNDS[1], g0 + step_g), min(1.0, x0 + step_x))
    start = np.clip(np.array([g0, x0]), np.array(low) + 1e-9, np.array(high) - 1e-9)
    result = least_squares(
        residual,
        start,
        bounds=(low, high),
        method="trf",
        diff_step=1e-4,
        xtol=1e-8,
        ftol=1e-12,
        max_nfev=MAX_REFINE_EVALUATIONS,
    )
    g, x = float(result.x[0]), float(result.x[1])
    frame = _frame(target, _model(n, g, x))
    mean = float(frame.residual_pp.abs().mean())
    worst = float(frame.residual_pp.abs().max())
    reading = (
        f"On the {n} x {n} pre-Crawford square, {table.name} behaves like a game in which"
        f" {g:.0%} of won games are gammons and the cube is {x:.0%} efficient"
        f" (Janowski's x = {x:.2f}): the model misses it by {mean:.3f} percentage points of match"
        f" winning chance on average and {worst:.2f} at worst."
    )
    return TableFit(
        table_name=table.name,
        gammon_rate=g,
        cube_efficiency=x,
        max_away=n,
        residuals=frame,
        mean_abs_residual_pp=mean,
        max_abs_residual_pp=worst,
        evaluations=evaluations,
        reading=reading,
    )
