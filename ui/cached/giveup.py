"""Cached compute for the give-up-point page: thin wrappers of :mod:`cubecore.giveup`.

Arguments are scalars or tuples rounded by the page, so equal views share entries.
"""

from __future__ import annotations

import dataclasses
from typing import Any, cast

import numpy as np
import pandas as pd
import streamlit as st
from scipy import stats

from cubecore import giveup, janowski, race

#: Base grid of the cubeless winning chance w. The model's curves are piecewise
#: linear, so :func:`_w_grid` adds their kinks and the lines are drawn exactly.
_W_BASE = np.linspace(0.0, 1.0, 41)
#: Today's equity for the volatility curve (open interval: |e| = 1 admits no spread).
_TODAY_GRID = np.linspace(-0.99, 0.99, 199)
#: Points of the density grid: half over [-1, 1], half within 5 sd of the mean.
_DENSITY_POINTS = 151


def _w_grid(g: float, g_c: float) -> np.ndarray:
    """The base w grid plus every kink of the give-up model for ``g``, ``g_c``."""
    points = giveup.doubling_points(g, g_c)
    kinks = [1.0 - g, g, 1.0 - g_c, g_c, 0.2, 0.8]  # .2/.8: Janowski's live-cube kinks
    kinks += [(1.0 + e) / 2.0 for e in (points.initial_double, points.redouble)]
    kinks.append((1.0 + points.market_losing) / 2.0)
    return np.union1d(_W_BASE, np.clip(kinks, 0.0, 1.0))


def give_up_point(source: str, min_take: float, own_give_up: float) -> float:
    """The give-up point in use: ``g = 4 T`` ([KW] ".75 + x * .25 = .785") or ``g`` itself.

    Parameters
    ----------
    source : {"T", "g"}
        Which control sets ``g``.
    min_take, own_give_up : float
        The two controls.

    Returns
    -------
    float
        ``g`` rounded to 10 digits (a stable cache key).
    """
    if source == "T":
        return round(giveup.give_up_from_min_take(min_take), 10)
    return round(own_give_up, 10)


@st.cache_data(max_entries=128, show_spinner=False)
def transform_curves(g: float, g_c: float) -> pd.DataFrame:
    """Modified winning chances (conceded and raw) and modified equities on a w grid."""
    w = _w_grid(g, g_c)
    e = 2.0 * w - 1.0
    frame: dict[str, Any] = {"w": w, "e": e}
    for cube in giveup.CUBE_POSITIONS:
        frame[f"p_{cube}"] = giveup.modified_win_probability(e, cube, g, g_c)
        frame[f"raw_{cube}"] = giveup.modified_win_probability(e, cube, g, g_c, concede=False)
        frame[f"E_{cube}"] = giveup.modified_equity(e, cube, g, g_c)
    return pd.DataFrame(frame)


@st.cache_data(max_entries=256, show_spinner=False)
def doubling_points(g: float, g_c: float) -> dict[str, float]:
    """Initial double, redouble and market-losing equities as a plain dict."""
    return dataclasses.asdict(giveup.doubling_points(g, g_c))


@st.cache_data(max_entries=256, show_spinner=False)
def essay_rows(equities: tuple[float, ...], g: float, g_c: float) -> pd.DataFrame:
    """The essay's table (e, e0, e1, e2, criteria, costs) for the chosen equities."""
    return giveup.essay_table(equities, g, g_c)


@st.cache_data(max_entries=16, show_spinner=False)
def essay_quoted() -> pd.DataFrame:
    """Each number the essay quotes: printed, exact (essay's g, g_c), and the reason it differs.

    Returns
    -------
    pandas.DataFrame
        Columns ``number``, ``printed``, ``exact``, ``exact_rounded``, ``agrees``, ``reason``.
    """
    min_take, g_c = giveup.ESSAY_MIN_TAKE, giveup.ESSAY_CENTER_GIVE_UP
    g = giveup.give_up_from_min_take(min_take)
    exact = {
        "own_give_up": g,
        "market_losing_equity": giveup.market_losing_equity(g),
        "initial_double_point": giveup.initial_double_point(g, g_c),
        "redouble_point": giveup.redouble_point(g),
        "initial_double_cost": -giveup.doubling_gain(0.200, "center", g, g_c),
        "redouble_cost": -giveup.doubling_gain(0.200, "owned", g, g_c),
    }
    rows = []
    for name, printed in giveup.ESSAY_QUOTED_PRINTED.items():
        digits = 2 if name == "own_give_up" else 3
        deviation = giveup.ESSAY_QUOTED_DEVIATIONS.get(name)
        rows.append(
            {
                "number": name,
                "printed": printed,
                "exact": exact[name],
                "exact_rounded": round(cast(float, exact[name]), digits),
                "agrees": deviation is None,
                "reason": deviation[1] if deviation else "the exact value rounds to the print",
            }
        )
    return pd.DataFrame(rows)


@st.cache_data(max_entries=128, show_spinner=False)
def gain_curve(cube: str, g: float, g_c: float) -> pd.DataFrame:
    """The gain of having doubled against the next-exchange cubeless equity."""
    e = 2.0 * _w_grid(g, g_c) - 1.0
    return pd.DataFrame({"e": e, "gain": giveup.doubling_gain(e, cube, g, g_c)})


@st.cache_data(max_entries=256, show_spinner=False)
def volatility_curve(volatility: float, cube: str, g: float, g_c: float) -> pd.DataFrame:
    """Net gain against today's equity for one volatility (NaN where no spread fits)."""
    feasible = (volatility == 0.0) | (volatility**2 < 1.0 - _TODAY_GRID**2)
    gain = np.full(_TODAY_GRID.shape, np.nan)
    gain[feasible] = giveup.volatility_doubling_gain(
        _TODAY_GRID[feasible], volatility, cube, g, g_c
    )
    return pd.DataFrame({"e": _TODAY_GRID, "net_gain": gain})


@st.cache_data(max_entries=256, show_spinner=False)
def net_gain_today(equity: float, volatility: float, cube: str, g: float, g_c: float) -> float:
    """Net gain at today's equity; raises ``ValueError`` if the spread does not fit."""
    return float(giveup.volatility_doubling_gain(equity, volatility, cube, g, g_c))


@st.cache_data(max_entries=256, show_spinner=False)
def spread_density(equity: float, volatility: float) -> pd.DataFrame:
    """Density of the next-exchange equity ``e' = 2 w' - 1``, ``w'`` Beta (see cubecore).

    Returns an empty frame for ``volatility = 0`` (a point mass has no density).
    """
    if volatility == 0.0:
        return pd.DataFrame({"e": [], "density": []})
    spread = giveup.next_equity_spread(equity, volatility)
    local = np.linspace(equity - 5.0 * volatility, equity + 5.0 * volatility, _DENSITY_POINTS)
    e = np.union1d(np.linspace(-1.0, 1.0, _DENSITY_POINTS), np.clip(local, -1.0, 1.0))
    # change of variables e' = 2 w' - 1: density_e(e') = density_w(w') / 2
    density = stats.beta.pdf((e + 1.0) / 2.0, spread.alpha, spread.beta) / 2.0
    return pd.DataFrame({"e": e, "density": np.where(np.isfinite(density), density, np.nan)})


@st.cache_data(max_entries=256, show_spinner=False)
def race_verdict(on_roll: int, opponent: int, cube: str, g: float, g_c: float) -> dict:
    """The give-up verdict and the exact race strategy's equities for one position."""
    verdict = giveup.race_doubling_verdict(on_roll, opponent, cube, g, g_c)
    exact = race.race_cube_equities(on_roll, opponent, cube)
    return {
        **dataclasses.asdict(verdict),
        "agrees": verdict.agrees,
        "exact": dataclasses.asdict(exact),
    }


@st.cache_data(max_entries=128, show_spinner=False)
def race_sequences(on_roll: int, opponent: int, cube: str, g: float, g_c: float) -> pd.DataFrame:
    """The 169 dice-total pairs (1296 sequences) with their next equity and doubling gain."""
    frame = race.next_exchange_equities(on_roll, opponent)
    frame["gain"] = giveup.doubling_gain(frame["equity"].to_numpy(), cube, g, g_c)
    frame["sequences"] = np.rint(frame["weight"] * 1296).astype(int)
    return frame


@st.cache_data(max_entries=128, show_spinner=False)
def equivalences(g: float, g_c: float) -> dict:
    """DA/DB pairs, implied Janowski cube lives, and where the mappings hold.

    Returns
    -------
    dict
        ``da``/``db`` for ``g`` and ``g_c``; ``x_own`` and ``x_center`` (Janowski ``x``
        from ``g`` and ``g_c``); ``g_c_matching`` (the ``g_c`` that gives ``x_own``, or
        None when ``x_own`` is outside [0, 1]); ``zk77_max_difference``: the largest
        gap between Woolsey's and [ZK77]'s transforms with DA = g, DB = 1 - g on their
        common domain (None when (g, 1 - g) is outside [ZK77]'s DA >= .8).
    """
    own = giveup.effective_points_from_give_up(g)
    center = giveup.effective_points_from_give_up(g_c)
    x_own = giveup.cube_life_from_give_up(g, "owned")
    x_center = giveup.cube_life_from_give_up(g_c, "center")
    matching = giveup.give_up_from_cube_life(x_own, "center") if 0.0 <= x_own <= 1.0 else None
    gap = None
    if own.da >= 0.8:
        gaps = []
        for cube, low, high in (("owned", 0.0, own.da), ("opponent", own.db, 1.0)):
            w = np.linspace(low, high, 201)
            woolsey = giveup.modified_win_probability(2.0 * w - 1.0, cube, g, g_c)
            zk = race.cube_win_probability(w, own.da, own.db, cube)
            gaps.append(float(np.max(np.abs(woolsey - zk))))
        gap = max(gaps)
    return {
        "da": own.da,
        "db": own.db,
        "da_center": center.da,
        "db_center": center.db,
        "x_own": x_own,
        "x_center": x_center,
        "g_c_matching": matching,
        "zk77_max_difference": gap,
    }


@st.cache_data(max_entries=128, show_spinner=False)
def janowski_comparison(g: float, g_c: float) -> pd.DataFrame | None:
    """Give-up-model equities beside Janowski's with the implied x (None if x is outside [0, 1]).

    Columns ``w`` and, per cube position, ``giveup_<cube>`` and ``janowski_<cube>``.
    """
    x_own = giveup.cube_life_from_give_up(g, "owned")
    x_center = giveup.cube_life_from_give_up(g_c, "center")
    if not (0.0 <= x_own <= 1.0 and 0.0 <= x_center <= 1.0):
        return None
    w = _w_grid(g, g_c)
    frame: dict[str, Any] = {"w": w}
    for cube in giveup.CUBE_POSITIONS:
        x = x_center if cube == "center" else x_own
        frame[f"giveup_{cube}"] = giveup.modified_equity(2.0 * w - 1.0, cube, g, g_c)
        frame[f"janowski_{cube}"] = janowski.cubeful_equity(w, x, cube)
    return pd.DataFrame(frame)


@st.cache_data(max_entries=4, show_spinner=False)
def cube_life_curves() -> pd.DataFrame:
    """Janowski x implied by a give-up point, after the double (g) and before it (g_c)."""
    give_up = np.linspace(0.55, 1.0, 91)
    return pd.DataFrame(
        {
            "give_up": give_up,
            "x_own": [giveup.cube_life_from_give_up(v, "owned") for v in give_up],
            "x_center": [giveup.cube_life_from_give_up(v, "center") for v in give_up],
        }
    )


def _is_essay_setting(g: float, g_c: float) -> bool:
    """Whether ``g``, ``g_c`` are the essay's .86 and .835 (the printed numbers' setting)."""
    return (
        abs(g - giveup.ESSAY_OWN_GIVE_UP) < 1e-9 and abs(g_c - giveup.ESSAY_CENTER_GIVE_UP) < 1e-9
    )


@st.cache_data(max_entries=256, show_spinner=False)
def table_with_printed(equities: tuple[float, ...], g: float, g_c: float) -> pd.DataFrame:
    """The essay's table for the chosen rows, with the printed cells beside the exact ones.

    A row gets the printed ``e0, e1, e2`` when its equity is one of the essay's rows
    and ``g``, ``g_c`` are the essay's; ``check`` says whether each printed cell is the
    exact value rounded to three decimals, or gives the listed reason when it is not
    (:data:`cubecore.giveup.ESSAY_TABLE_DEVIATIONS`).
    """
    table = giveup.essay_table(equities, g, g_c)
    printed = {row[0]: (index, row[1:]) for index, row in enumerate(giveup.ESSAY_TABLE_PRINTED)}
    columns = ("e0", "e1", "e2")
    shown: dict[str, list] = {f"printed {c}": [] for c in columns}
    checks = []
    for _, row in table.iterrows():
        match = next((key for key in printed if abs(key - row["e"]) < 1e-9), None)
        if match is None or not _is_essay_setting(g, g_c):
            for c in columns:
                shown[f"printed {c}"].append(np.nan)
            checks.append(
                "not a row of the essay"
                if match is None
                else "printed for the essay's g = .86, g_c = .835 only"
            )
            continue
        index, values = printed[match]
        notes = []
        for position, (c, value) in enumerate(zip(columns, values, strict=True), start=1):
            shown[f"printed {c}"].append(value)
            deviation = giveup.ESSAY_TABLE_DEVIATIONS.get((index, position))
            if deviation is not None:
                notes.append(f"{c}: {deviation[1]}")
            elif round(float(row[c]), 3) != value:
                notes.append(f"{c}: differs from the exact {row[c]:.4f}, no listed reason")
        checks.append("; ".join(notes) or "every printed cell is the exact value rounded")
    frame = table[["e", "e0", "e1", "e2"]].copy()
    for c in columns:
        frame[f"printed {c}"] = shown[f"printed {c}"]
    frame["check"] = checks
    frame["double (e1 > e0/2)"] = table["double"]
    frame["redouble (e1 > e2/2)"] = table["redouble"]
    frame["cost e0 - 2 e1"] = table["double_cost"]
    frame["cost e2 - 2 e1"] = table["redouble_cost"]
    return frame
