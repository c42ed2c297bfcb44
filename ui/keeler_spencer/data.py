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
from ui.keeler_spencer import charts as figures
from ui.simulation import SIMULATION_SECONDS, on_worker, within_budget
from ui.style import Figure


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
    return {  # ~0.1 s together: on the worker
        "alpha": on_worker(ks.continuous_raising_points_table, grid, grid, point="alpha"),
        "beta": on_worker(ks.continuous_raising_points_table, grid, grid, point="beta"),
        "value": on_worker(ks.continuous_even_game_value_table, grid, grid),
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
    """[KS69] Table I, II, III, IV or V cell by cell: printed, exact, difference, reason
    (Table V 0.18 s: on the worker)."""
    return on_worker(ks.printed_comparison, table)


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
    return on_worker(ks.resignation_potential_table, grid)


# --------------------------------------------------------------------------- prepared views
# What a section shows, derived once per process from the cached results above: a warm
# rerun (values seen before) then redoes no pandas work and builds no figure. These are
# ``st.cache_resource``: every session gets the same object, so nothing here is changed
# after it is made (``ui.widgets.table`` and ``ui.widgets.chart`` copy before they
# restyle). Arguments with a leading underscore are results already in hand, not hashed:
# the view is keyed by the parameters that made them.


@dataclasses.dataclass(frozen=True)
class PathView:
    """:func:`path_view`: the path chart, the actions drawn so far, and the headline."""

    figure: Figure
    shown: pd.DataFrame
    outcome: str
    doubles: int


@st.cache_resource(max_entries=64, show_spinner=False)
def path_view(start: float, seed: int, double_point: float, progress: int) -> PathView:
    """The seeded path (:func:`path_and_actions`) drawn to ``progress`` percent."""
    path, actions = path_and_actions(start, seed, double_point)
    drawn = actions[actions["step"] < max(1, int(len(path) * progress / 100 + 0.999))]
    last = actions.iloc[-1] if len(actions) else None
    return PathView(
        figure=figures.path_figure(path, actions, double_point, progress),
        shown=drawn[["step", "p", "player", "action", "stakes"]],
        outcome="not finished" if last is None else f"{last['points_a']:+g}",
        doubles=int((actions["action"] == "doubles").sum()),
    )


@st.cache_resource(max_entries=64, show_spinner=False)
def take_check_chart(
    double_point: float, n_games: int, seed: int, _check: dict[str, Any]
) -> Figure:
    """The take check's chart; ``_check`` is :func:`take_check` of the same arguments."""
    return figures.take_check_figure(_check)


@st.cache_resource(max_entries=64, show_spinner=False)
def price_chart(
    double_point: float, beavers: bool, n_games: int, seed: int, _price: dict[str, Any]
) -> Figure:
    """The price curve with the estimate; ``_price`` is :func:`doubling_price` of the same
    arguments."""
    return figures.price_figure(price_curve(), _price)


@st.cache_resource(max_entries=8, show_spinner=False)
def limited_view(n_max: int) -> tuple[pd.DataFrame, Figure]:
    """:func:`limited_points` and its chart."""
    points = limited_points(n_max)
    return points, figures.limited_figure(points)


def _wide_csv(table: pd.DataFrame) -> pd.DataFrame:
    """A wide table with its row labels as the first column and string column names."""
    frame = table.round(6)
    frame.columns = [f"{frame.columns.name}={c}" for c in frame.columns]
    return frame.reset_index()


@dataclasses.dataclass(frozen=True)
class RaisesView:
    """:func:`raises_view`: what the raises section shows for one setting."""

    cell: RaisingCell
    #: Largest |recursion (8)-(9) - closed form (11)| over the tables.
    gap: float
    point_map: Figure
    value_map: Figure
    point_csv: pd.DataFrame
    value_csv: pd.DataFrame
    #: The game tree after alpha(i, j); ``None`` past ``MAX_TREE_RAISES``.
    tree: Figure | None
    flips: pd.DataFrame
    flips_total: float


@st.cache_resource(max_entries=64, show_spinner=False)
def raises_view(i: int, j: int, a: float, b: float, rows: int, cols: int, point: str) -> RaisesView:
    """The cell (i, j), Tables I-II of ``rows`` x ``cols`` (the ``point`` table and E) as
    heatmaps with the cell outlined and as CSV, the tree and the coin flips."""
    tables = raising_tables(rows, cols, a, b)
    alpha_gap = (tables["alpha"] - tables["alpha_closed"]).abs()
    beta_gap = (tables["beta"] - tables["beta_closed"]).abs()
    name = "α (Table I)" if point == "alpha" else "β"
    flips, total = _coin_flips_shown(i, j, a, b)
    return RaisesView(
        cell=raising_cell(i, j, a, b),
        gap=max(float(alpha_gap.to_numpy().max()), float(beta_gap.to_numpy().max())),
        point_map=figures.probability_map(
            tables[point], f"{name}: raising points, a = {a:g}, b = {b:g}", (i, j)
        ),
        value_map=figures.value_map(
            tables["value"], f"E (Table II): A's even-game value, a = {a:g}, b = {b:g}", (i, j)
        ),
        point_csv=_wide_csv(tables[point]),
        value_csv=_wide_csv(tables["value"]),
        tree=None if i + j > ks.MAX_TREE_RAISES else _tree_chart(i, j, a, b),
        flips=flips,
        flips_total=total,
    )


def _tree_chart(i: int, j: int, a: float, b: float) -> Figure:
    """The game tree after alpha(i, j) (:func:`tree`) as a chart."""
    shown = tree(i, j, a, b)
    return figures.tree_figure(shown["nodes"], shown["edges"])


def _coin_flips_shown(i: int, j: int, a: float, b: float) -> tuple[pd.DataFrame, float]:
    """:func:`coin_flips` as shown (named terms) and the sum of its terms."""
    flips = coin_flips(i, j, a, b)
    shown = flips[["k", "prob_a_exact", "prob_b_at_least_exact", "alpha_term_exact", "alpha_term"]]
    renamed = shown.rename(
        columns={
            "prob_a_exact": "P[K_a = k]",
            "prob_b_at_least_exact": "P[K_b ≥ k]",
            "alpha_term_exact": "term (exact)",
            "alpha_term": "term",
        }
    )
    return renamed, float(flips["alpha_term"].sum())


@dataclasses.dataclass(frozen=True)
class PrintedView:
    """:func:`printed_view`: a printed table beside the exact one, and what disagrees."""

    digits: int
    rounded: pd.DataFrame
    largest: float
    agrees: bool
    disagreements: tuple[str, ...]


def _paper_table(table: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """[KS69] Table I, II, III or IV as printed, and the exact table it is compared with."""
    if table in ("I", "II"):
        paper = raising_tables(10, 10, 2.0, 2.0)
        if table == "I":
            return ks.TABLE_I_PRINTED, paper["alpha"]
        return ks.TABLE_II_PRINTED, paper["value"]
    grid = continuous_tables("1-10")
    if table == "III":
        return ks.TABLE_III_PRINTED, grid["alpha"]
    return ks.TABLE_IV_PRINTED, grid["value"]


@st.cache_resource(max_entries=len(ks.PRINTED_TABLES), show_spinner=False)
def printed_view(table: str) -> PrintedView:
    """Table I, II, III or IV: the exact table rounded as printed, the largest difference,
    and a line per cell outside the printed digits (:func:`printed_vs_exact`)."""
    digits = int(ks.PRINTED_TABLES[table] or 0)  # Tables I-IV: one precision each
    printed, exact = _paper_table(table)
    comparison = printed_vs_exact(table)
    off = comparison[~comparison["within_printed_digits"]]
    row, column = comparison.columns[:2]
    return PrintedView(
        digits=digits,
        rounded=exact.loc[printed.index, printed.columns].round(digits),
        largest=float(comparison["difference"].abs().max()),
        agrees=off.empty and bool((comparison["reason"] == "").all()),
        disagreements=tuple(
            f"Table {table} cell ({getattr(cell, row):g}, {getattr(cell, column):g}): printed "
            f"{cell.printed:.{digits}f}, exact {cell.exact:.{digits + 3}f}. "
            f"Reason: {cell.reason}"
            for cell in off.itertuples(index=False)
        ),
    )


@dataclasses.dataclass(frozen=True)
class ContinuousView:
    """:func:`continuous_view`: what the continuous-raises section shows for one setting."""

    cell: ContinuousCell
    alpha_map: Figure
    value_map: Figure
    normal: Figure
    value: Figure


@st.cache_resource(max_entries=64, show_spinner=False)
def continuous_view(a: float, b: float, choice: str) -> ContinuousView:
    """The cell (a, b), Tables III-IV over a range as heatmaps ((a, b) outlined on the
    paper's grid), and alpha and E against A's potential with a marked."""
    tables = continuous_tables(choice)
    mark = (a, b) if choice == "1-10" else None
    a_top = min(max(100.0, 10.0 * a, 20.0 * b), 1e6)
    sweep = sweep_in_a(b, a_top)
    return ContinuousView(
        cell=continuous_cell(a, b),
        alpha_map=figures.probability_map(tables["alpha"], "α(a, b) (Table III)", mark),
        value_map=figures.value_map(tables["value"], "E(a, b) (Table IV)", mark),
        normal=figures.normal_figure(sweep, a, b),
        value=figures.value_figure(sweep, a, b),
    )


@dataclasses.dataclass(frozen=True)
class TableVView:
    """:func:`table_v_view`: Fig. 3, the printed values' errors, and Table V as listed."""

    curve: Figure
    errors: Figure
    #: A reason or "agrees" per printed row.
    shown: pd.DataFrame
    #: Printed values that are not the exact root, of ``rows``.
    wrong: int
    rows: int


@st.cache_resource(max_entries=len(_B_MAX), show_spinner=False)
def table_v_view(choice: str) -> TableVView:
    """Table V with Fig. 3 up to the chosen b (:func:`table_v_curve`)."""
    printed = table_v_exact()
    shown = printed[["b", "a_printed", "a_exact_rounded", "a_exact", "reason"]].copy()
    shown["reason"] = np.where(
        shown["reason"] != "", "paper's computing error (see above)", "agrees"
    )
    return TableVView(
        curve=figures.table_v_figure(table_v_curve(choice), printed),
        errors=figures.table_v_error_figure(printed),
        shown=shown,
        wrong=int((printed["reason"] != "").sum()),
        rows=len(printed),
    )
