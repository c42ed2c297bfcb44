"""Cached compute of the Keeler-Spencer page: scalar arguments in, tables and dicts out."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any, TypedDict

import numpy as np
import pandas as pd
import streamlit as st

from cubecore import keeler_spencer as ks
from cubecore import pgame
from ui.simulation import SIMULATION_SECONDS, within_budget


class RaisingCell(TypedDict):
    """:func:`raising_cell`: one (i, j) of Tables I-II, in floats and exact rationals."""

    alpha: float | Fraction
    beta: float | Fraction
    value: float
    alpha_exact: str
    beta_exact: str
    methods_agree: bool


class ContinuousCell(TypedDict):
    """:func:`continuous_cell`: one (a, b) of Tables III-IV with the approximations."""

    alpha: float | Fraction
    beta: float | Fraction
    value: float
    normal: float
    asymptotic: float
    resign_a: float


#: Lattice step of the displayed P-game path (the walk hits every threshold 0.01k exactly).
PATH_STEP = 0.01
PATH_MAX_STEPS = 200_000
#: Grid of A's doubling points for the exact price curve.
PRICE_GRID = tuple(round(0.21 + 0.01 * k, 2) for k in range(80))
#: Heatmap grids of Tables III-IV: the paper's 1(1)10, else 30 log-spaced potentials.
_GRID_TOP = {"1-10": 10.0, "1-100": 100.0, "1-1000": 1000.0, "1-10^6": 1e6}
_B_MAX = {"20": 20.0, "100": 100.0, "1000": 1000.0, "10^6": 1e6}


def potential_grid(choice: str) -> tuple[float, ...]:
    """The potentials of a heatmap range: 1..10 in steps of 1, else 30 log-spaced values."""
    if choice == "1-10":
        return tuple(float(k) for k in range(1, 11))
    return tuple(float(v) for v in np.geomspace(1.0, _GRID_TOP[choice], 30))


@st.cache_data(max_entries=256, show_spinner=False)
def path_and_actions(
    start: float, seed: int, double_point: float
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A seeded P-game path from ``start`` and the cube actions along it."""
    path = pgame.p_game_path(round(start, 2), PATH_MAX_STEPS, PATH_STEP, seed)
    return path, ks.path_cube_actions(path["p"], double_point)


@st.cache_data(max_entries=64, show_spinner=False)
def take_check(double_point: float, n_games: int, seed: int) -> dict[str, Any]:
    """Take vs drop at ``double_point`` (Monte Carlo with a 95% interval)."""
    return dataclasses.asdict(
        within_budget(SIMULATION_SECONDS, pgame.take_check, double_point, n_games, seed)
    )


@st.cache_data(max_entries=64, show_spinner=False)
def doubling_price(double_point: float, beavers: bool, n_games: int, seed: int) -> dict[str, Any]:
    """What A loses by doubling at ``double_point`` from 1/2, exact and simulated."""
    price = within_budget(
        SIMULATION_SECONDS,
        pgame.doubling_price,
        double_point,
        beavers=beavers,
        n_games=n_games,
        seed=seed,
    )
    return dataclasses.asdict(price)


@st.cache_data(max_entries=4, show_spinner=False)
def price_curve() -> pd.DataFrame:
    """Exact loss of A's initial doubling point, with and without beavers."""
    return pgame.doubling_price_curve(PRICE_GRID)


@st.cache_data(max_entries=8, show_spinner=False)
def limited_points(n_max: int) -> pd.DataFrame:
    """First doubling point for n = 0..n_max alternating doubles."""
    return ks.limited_doubling_points(n_max)


@st.cache_data(max_entries=64, show_spinner=False)
def raising_tables(rows: int, cols: int, a: float, b: float) -> dict[str, pd.DataFrame]:
    """Tables I-II for any size and factors: alpha and beta by recursion and closed form, E."""
    return {
        "alpha": ks.raising_points_table(rows, cols, a, b, point="alpha"),
        "beta": ks.raising_points_table(rows, cols, a, b, point="beta"),
        "alpha_closed": ks.raising_points_table(
            rows, cols, a, b, point="alpha", method="closed_form"
        ),
        "beta_closed": ks.raising_points_table(
            rows, cols, a, b, point="beta", method="closed_form"
        ),
        "value": ks.even_game_value_table(rows, cols, a, b),
    }


@st.cache_data(max_entries=256, show_spinner=False)
def raising_cell(i: int, j: int, a: float, b: float) -> RaisingCell:
    """alpha, beta and E at one (i, j), in floats and exact rationals (both methods)."""
    points = ks.raising_points(i, j, a, b)
    exact = ks.exact_raising_points(i, j, a, b)
    recursion = ks.exact_raising_points(i, j, a, b, method="recursion")
    return {
        "alpha": points.alpha,
        "beta": points.beta,
        "value": ks.even_game_value(i, j, a, b),
        "alpha_exact": str(exact.alpha),
        "beta_exact": str(exact.beta),
        "methods_agree": exact == recursion,
    }


@st.cache_data(max_entries=64, show_spinner=False)
def tree(i: int, j: int, a: float, b: float) -> dict[str, pd.DataFrame]:
    """The game tree after alpha(i, j) (needs i + j <= MAX_TREE_RAISES)."""
    result = ks.raising_tree(i, j, a, b)
    return {"nodes": result.nodes, "edges": result.edges}


@st.cache_data(max_entries=64, show_spinner=False)
def coin_flips(i: int, j: int, a: float, b: float) -> pd.DataFrame:
    """Theorem 2 term by term."""
    return ks.coin_flip_table(i, j, a, b)


@st.cache_data(max_entries=16, show_spinner=False)
def continuous_tables(choice: str) -> dict[str, pd.DataFrame]:
    """Tables III-IV (alpha, beta, E) over a heatmap range."""
    grid = potential_grid(choice)
    return {
        "alpha": ks.continuous_raising_points_table(grid, grid, point="alpha"),
        "beta": ks.continuous_raising_points_table(grid, grid, point="beta"),
        "value": ks.continuous_even_game_value_table(grid, grid),
    }


@st.cache_data(max_entries=256, show_spinner=False)
def continuous_cell(a: float, b: float) -> ContinuousCell:
    """Continuous raising points, even-game value and the approximations at (a, b)."""
    points = ks.continuous_raising_points(a, b)
    return {
        "alpha": points.alpha,
        "beta": points.beta,
        "value": ks.continuous_even_game_value(a, b),
        "normal": ks.normal_raising_point(a, b),
        "asymptotic": ks.asymptotic_even_game_value(a, b),
        "resign_a": ks.resignation_potential(b),
    }


@st.cache_data(max_entries=64, show_spinner=False)
def sweep_in_a(b: float, a_top: float) -> pd.DataFrame:
    """alpha(a, b), its normal approximation (23), E(a, b) and log(a/b) for a from 1 to a_top."""
    return ks.continuous_sweep(b, np.geomspace(1.0, max(a_top, 2.0), 121))


@st.cache_data(max_entries=len(ks.PRINTED_TABLES), show_spinner=False)
def printed_vs_exact(table: str) -> pd.DataFrame:
    """[KS69] Table I, II, III, IV or V cell by cell: printed, exact, difference, reason."""
    return ks.printed_comparison(table)


@st.cache_data(max_entries=1, show_spinner=False)
def table_v_exact() -> pd.DataFrame:
    """Table V as the page shows it: printed a, exact a and its rounding, the reason."""
    comparison = printed_vs_exact("V")
    decimals = ks.TABLE_V_PRINTED["decimals"].to_numpy()
    return pd.DataFrame(
        {
            "b": comparison["b"],
            "a_printed": comparison["printed"],
            "a_exact": comparison["exact"],
            "a_exact_rounded": [
                round(a, int(d)) for a, d in zip(comparison["exact"], decimals, strict=True)
            ],
            "reason": comparison["reason"],
        }
    )


@st.cache_data(max_entries=8, show_spinner=False)
def table_v_curve(choice: str) -> pd.DataFrame:
    """Fig. 3: the exact resignation potential a(b) on a grid of b up to the chosen end."""
    top = _B_MAX[choice]
    grid = np.geomspace(1.0, top, 80) if top > 20 else np.linspace(1.0, top, 77)
    return ks.resignation_potential_table(grid)
