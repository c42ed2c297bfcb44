"""Cached compute for the race page.

The exact cube tables of the whole page range (counts 1..300 per side, three cube
positions) are built once per process (:func:`race_tables`, ``st.cache_resource``);
the ``st.cache_data`` wrappers below slice them into small, figure-ready pieces
keyed by scalar arguments, so a control move only re-reads the tables.

The ``*_view`` and ``*_chart`` functions (``st.cache_resource``) hold what a section
shows, built once per process for its arguments: figures, shown frames and headline
numbers. A warm rerun then reads them as they are, without copies (``st.cache_data``
unpickles its value on every read) and without rebuilding a figure. They are shared by
every session, so the sections never change them.
The sections call them with keyword arguments: Streamlit looks up the name of each
positional argument with ``inspect.signature`` on every call.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any, TypedDict, cast

import numpy as np
import pandas as pd
import streamlit as st

from cubecore import race, race_heuristics
from cubecore.janowski import CubePosition
from ui.race import charts as figures
from ui.race.controls import MAX_PAGE_COUNT
from ui.style import Figure

#: At most this many cells per heatmap axis (larger spans are thinned evenly).
MAP_CELLS = 150
#: Leads (opponent's count - yours) on the win-probability heatmap.
MAP_LEADS = np.arange(-30, 31)
#: Leads (opponent's count - yours) on the rules-of-thumb maps: where cubes turn.
RULE_LEADS = np.arange(-10, 41)
#: Categories of the action map: the exact actions, then "full point anyway".
MAP_ACTIONS = (*race.ACTIONS, "wins the full point anyway")
#: Categories of the rules-of-thumb comparison, in code order.
RULE_CATEGORIES = race_heuristics.RULE_COMPARISONS
_P_GRID = np.linspace(0.0, 1.0, 401)


class WinMap(TypedDict):
    """:func:`win_map`: win chance in percent, ``z[lead][count]`` (NaN off the page range)."""

    counts: list[int]
    leads: list[int]
    z: list[list[float]]


class ActionMap(TypedDict):
    """:func:`action_map`: codes into :data:`MAP_ACTIONS`, ``z[opponent][you]``."""

    counts: list[int]
    z: list[list[int]]


class RulesMap(TypedDict):
    """:func:`rules_map`: the maps over (count, lead) and the summary over every position."""

    counts: list[int]
    leads: list[int]
    code: list[list[float]]
    kleinman_error: list[list[float]]
    shares: pd.DataFrame
    contested_agreement: float
    kleinman_max_error: float
    kleinman_max_error_10: float


@dataclass(frozen=True)
class RaceTables:
    """Exact race tables for counts 1..300 per side, read-only (index = count - 1).

    Attributes
    ----------
    win : numpy.ndarray
        Cubeless win chance of the roller, ``win[x - 1, y - 1]``.
    action, no_double, double_take, optimal : dict of str -> numpy.ndarray
        Per cube position: action code (index into ``race.ACTIONS``) and equities.
    thresholds : pandas.DataFrame
        ``race.table_3`` for every count 1..300 (exact offsets, printed columns).
    doubling_points : pandas.DataFrame
        ``race.implied_doubling_points`` for counts 1..300.
    """

    win: np.ndarray
    action: dict[CubePosition, np.ndarray]
    no_double: dict[CubePosition, np.ndarray]
    double_take: dict[CubePosition, np.ndarray]
    optimal: dict[CubePosition, np.ndarray]
    thresholds: pd.DataFrame
    doubling_points: pd.DataFrame


def _frozen(array: np.ndarray) -> np.ndarray:
    array = np.ascontiguousarray(array)
    array.flags.writeable = False
    return array


@st.cache_resource(show_spinner=False)
def race_tables() -> RaceTables:
    """Build every exact table of the page once per process (shared, never mutated)."""
    n = MAX_PAGE_COUNT
    action, no_double, double_take, optimal = {}, {}, {}, {}
    win = None
    for cube in race.CUBE_POSITIONS:
        frame = race.cube_action_map(cube, n)
        action[cube] = _frozen(frame["action"].cat.codes.to_numpy().reshape(n, n))
        no_double[cube] = _frozen(frame["no_double"].to_numpy().reshape(n, n))
        double_take[cube] = _frozen(frame["double_take"].to_numpy().reshape(n, n))
        optimal[cube] = _frozen(frame["optimal"].to_numpy().reshape(n, n))
        win = _frozen(frame["cubeless_win"].to_numpy().reshape(n, n))
    return RaceTables(
        win=cast(np.ndarray, win),  # set by the loop over the three cube positions
        action=action,
        no_double=no_double,
        double_take=double_take,
        optimal=optimal,
        thresholds=race.table_3(np.arange(1, n + 1)),
        doubling_points=race.implied_doubling_points(n),
    )


def _map_counts(span: int) -> np.ndarray:
    """Counts 1..span, thinned to at most :data:`MAP_CELLS` per axis."""
    stride = math.ceil(span / MAP_CELLS)
    return np.arange(1, span + 1, stride)


# ----------------------------------------------------------------------------- section 1


@st.cache_data(max_entries=1, show_spinner=False)
def roll_totals() -> pd.DataFrame:
    """One-roll total distribution."""
    return race.roll_total_distribution()


@st.cache_data(max_entries=256, show_spinner=False)
def bearoff_distributions(x: int, y: int) -> pd.DataFrame:
    """Rolls to bear off for both counts: ``rolls``, ``you``, ``opponent``."""
    mine = race.bearoff_distribution(x).set_index("rolls")["probability"]
    theirs = race.bearoff_distribution(y).set_index("rolls")["probability"]
    frame = pd.concat({"you": mine, "opponent": theirs}, axis=1).fillna(0.0)
    return frame.rename_axis("rolls").reset_index()


@st.cache_resource(max_entries=1, show_spinner=False)
def table_1_shown() -> dict[str, pd.DataFrame]:
    """Table 1's frames as the page shows them, built once: they depend on nothing.

    ``printed`` and ``exact`` (rounded to the printed 0.01) with the offset as the
    first column and the counts as string column names, ``deviations`` (the cells
    that disagree, with their reasons) and the cell-by-cell ``comparison``.
    """
    comparison = race.table_1_comparison()
    printed = race.TABLE_1_PRINTED.copy()
    printed.columns = [str(c) for c in printed.columns]
    exact = comparison.pivot(index="offset", columns="your_count", values="exact")
    exact.columns = [str(c) for c in exact.columns]
    return {
        "printed": printed.reset_index(),
        "exact": exact.round(2).reset_index(),
        "deviations": comparison[~comparison["agrees"]].drop(columns="agrees"),
        "comparison": comparison,
    }


@st.cache_resource(max_entries=64, show_spinner=False)
def table_1_range(
    first_count: int, count_step: int, columns: int, first_offset: int, offset_step: int, rows: int
) -> pd.DataFrame:
    """Table 1 for any range (percent); counts above 300 are dropped, cells whose
    opponent's count is outside 1..300 are blank (below 1 he has already borne off)."""
    counts = np.arange(columns) * count_step + first_count
    counts = counts[counts <= MAX_PAGE_COUNT]
    offsets = np.arange(rows) * offset_step + first_offset
    opponent = counts[None, :] + offsets[:, None]
    valid = (opponent >= 1) & (opponent <= MAX_PAGE_COUNT)
    win = race_tables().win
    safe = np.clip(opponent, 1, MAX_PAGE_COUNT) - 1
    values = np.where(valid, 100.0 * win[counts[None, :] - 1, safe], np.nan)
    frame = pd.DataFrame(values.round(2), columns=[str(c) for c in counts])
    frame.insert(0, "offset", offsets)
    return frame


@st.cache_data(max_entries=32, show_spinner=False)
def win_map(span: int) -> WinMap:
    """Win chance (percent) over (your count, lead); blank where the opponent's count
    would leave 1..300."""
    counts = _map_counts(span)
    opponent = counts[None, :] + MAP_LEADS[:, None]
    valid = (opponent >= 1) & (opponent <= MAX_PAGE_COUNT)
    safe = np.clip(opponent, 1, MAX_PAGE_COUNT) - 1
    z = np.where(valid, 100.0 * race_tables().win[counts[None, :] - 1, safe], np.nan)
    # two decimals of a percent are all a heatmap shows; short numbers keep the JSON small
    return {"counts": counts.tolist(), "leads": MAP_LEADS.tolist(), "z": z.round(2).tolist()}


# ----------------------------------------------------------------------------- section 2


@st.cache_data(max_entries=512, show_spinner=False)
def effective_points(da: float, db: float) -> dict[str, float]:
    """Formulas (4)-(6) as a plain dict."""
    return dataclasses.asdict(race.effective_points(da, db))


@st.cache_data(max_entries=256, show_spinner=False)
def cube_win_curves(da: float, db: float) -> pd.DataFrame:
    """Formulas (1)-(3) on a p grid, blank outside each cube state's domain."""
    frame = {"p": _P_GRID}
    domains: dict[CubePosition, tuple[float, float]] = {
        "owned": (0.0, da),
        "center": (db, da),
        "opponent": (db, 1.0),
    }
    for cube, (low, high) in domains.items():
        inside = (_P_GRID >= low) & (_P_GRID <= high)
        values = np.full(_P_GRID.shape, np.nan)
        values[inside] = race.cube_win_probability(_P_GRID[inside], da, db, cube)
        frame[cube] = values
    return pd.DataFrame(frame)


# ----------------------------------------------------------------------------- section 3


@st.cache_data(max_entries=1024, show_spinner=False)
def cube_equities(x: int, y: int, cube: CubePosition) -> dict[str, Any]:
    """Exact equities of one position, plus its cubeless win chance."""
    values = dataclasses.asdict(race.race_cube_equities(x, y, cube))
    values["cubeless_win"] = float(race_tables().win[x - 1, y - 1])
    return values


@st.cache_data(max_entries=32, show_spinner=False)
def action_map(cube: CubePosition, span: int) -> ActionMap:
    """Action codes over (your count, opponent's count), ``z[opponent][you]``.

    Codes index :data:`MAP_ACTIONS`: the three actions, and a fourth code where not
    doubling already wins the full point (a sure win or a certain cash next turn),
    which the exact strategy files under "no double" because doubling only ties.
    """
    counts = _map_counts(span)
    cells = np.ix_(counts - 1, counts - 1)
    tables = race_tables()
    codes = np.where(tables.no_double[cube][cells] == 1.0, 3, tables.action[cube][cells])
    return {"counts": counts.tolist(), "z": codes.T.tolist()}


@st.cache_data(max_entries=64, show_spinner=False)
def thresholds(span: int) -> pd.DataFrame:
    """Exact Table 3 thresholds (offsets) for counts 1..span, printed beside."""
    return race_tables().thresholds.iloc[:span].reset_index(drop=True)


@st.cache_data(max_entries=1, show_spinner=False)
def table_2() -> pd.DataFrame:
    """Table 2 positions recomputed exactly beside the simulated values, with both verdicts."""
    return race.table_2()


@st.cache_data(max_entries=1, show_spinner=False)
def table_3_printed() -> pd.DataFrame:
    """Table 3: printed half-pip boundaries, their whole-offset reading, the exact offsets."""
    return race.table_3_comparison()


# ----------------------------------------------------------------------------- section 4


@st.cache_resource(max_entries=64, show_spinner=False)
def implied_points(span: int) -> pd.DataFrame:
    """Implied DA, DB along even races 1..span."""
    return race_tables().doubling_points.iloc[:span].reset_index(drop=True)


@st.cache_data(max_entries=256, show_spinner=False)
def cube_life(cube: CubePosition, lead: int, span: int) -> pd.DataFrame:
    """Implied Janowski cube life along races with a fixed lead, beside GNU BG's rule."""
    return race.implied_cube_life(cube, lead, span)


# ----------------------------------------------------------------------------- section 5


@st.cache_data(max_entries=32, show_spinner=False)
def rules_map(cube: CubePosition, span: int) -> RulesMap:
    """8-9-12 rule and Kleinman formula against the exact model over 1..span.

    Over (your count, lead) with :data:`RULE_LEADS` (where the cube decisions are):
    the comparison codes (index into :data:`RULE_CATEGORIES`) and Kleinman's error
    in percentage points as ``z[lead][count]`` (NaN where the opponent's count leaves
    1..span); and :func:`cubecore.race_heuristics.rules_of_thumb_summary` over every
    position with both counts in 1..span (errors in percentage points).
    """
    frame = race_heuristics.rules_of_thumb_map(cube, span)
    summary = race_heuristics.rules_of_thumb_summary(frame)
    code = frame["comparison"].cat.codes.to_numpy()
    error = 100.0 * frame["kleinman_error"].to_numpy()
    # re-index the square grid [x - 1, y - 1] onto (count, lead)
    counts = _map_counts(span)
    opponent = counts[None, :] + RULE_LEADS[:, None]
    valid = (opponent >= 1) & (opponent <= span)
    cells = (counts[None, :] - 1) * span + np.clip(opponent, 1, span) - 1
    on_map = np.where(valid, code[cells], -1).astype(float)
    on_map[~valid] = np.nan
    return {
        "counts": counts.tolist(),
        "leads": RULE_LEADS.tolist(),
        "code": on_map.tolist(),
        "kleinman_error": np.where(valid, error[cells], np.nan).round(3).tolist(),
        "shares": summary.shares,
        "contested_agreement": summary.contested_agreement,
        "kleinman_max_error": 100.0 * summary.kleinman_max_error,
        "kleinman_max_error_10": 100.0 * summary.kleinman_max_error_10,
    }


# ----------------------------------------------------------------------------- shown, per section


@st.cache_resource(max_entries=32, show_spinner=False)
def race_model_view(x: int, y: int, span: int) -> dict[str, Any]:
    """The race model at ``x v y``: the roller's cubeless ``win`` chance, both sides'
    expected rolls to bear off (``rolls_you``, ``rolls_opponent``) and the three figures
    (``roll_totals``, ``bearoff``, ``win_map`` over counts 1..span)."""
    rolls = bearoff_distributions(x, y)
    return {
        "win": cube_equities(x, y, "center")["cubeless_win"],
        "rolls_you": float((rolls["rolls"] * rolls["you"]).sum()),
        "rolls_opponent": float((rolls["rolls"] * rolls["opponent"]).sum()),
        "roll_totals": figures.roll_totals_figure(roll_totals()),
        "bearoff": figures.bearoff_figure(rolls, x, y),
        "win_map": figures.win_map_figure(win_map(span), x, y - x),
    }


@st.cache_resource(max_entries=64, show_spinner=False)
def cube_win_chart(da: float, db: float) -> tuple[dict[str, float], Figure]:
    """Formulas (4)-(6) at ``da``, ``db`` and the chart of formulas (1)-(3) marking them."""
    points = effective_points(da, db)
    return points, figures.cube_win_figure(cube_win_curves(da, db), points, da, db)


@st.cache_resource(max_entries=64, show_spinner=False)
def measured_view(x: int, cube: CubePosition, lead: int, span: int) -> dict[str, Any]:
    """Measured points at count ``x``: the implied points' row at ``x v x`` and the cube
    life's at ``x v x + lead`` (None beyond 1..span), the frame of implied points and the
    two figures."""
    points = implied_points(span)
    life = cube_life(cube, lead, span)
    at_points = points[points["count"] == x]
    at_life = life[life["on_roll"] == x]
    return {
        "points": points,
        "at_points": at_points.iloc[0].to_dict() if len(at_points) else None,
        "at_life": at_life.iloc[0].to_dict() if len(at_life) else None,
        "implied_figure": figures.implied_points_figure(points, x),
        "life_figure": figures.cube_life_figure(life, x, lead, cube),
    }
