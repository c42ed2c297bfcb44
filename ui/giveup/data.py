"""Cached compute for the give-up-point page: thin wrappers of :mod:`cubecore.giveup`.

Arguments are scalars, tuples or the give-up points (:class:`cubecore.giveup.GiveUpPoints`,
hashed by its fields) rounded by the sections, so equal views share entries.

The ``*_view`` functions are the sections' prepared views (:mod:`ui`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from cubecore import cubeful, giveup, race
from cubecore.giveup import GiveUpPoints
from cubecore.janowski import DoublingCube
from ui.giveup import charts as figures

#: Base grid of the cubeless winning chance w. The model's curves are piecewise
#: linear, so :func:`_w_grid` adds their kinks and the lines are drawn exactly.
_W_BASE = np.linspace(0.0, 1.0, 41)
#: Today's equity for the volatility curve (open interval: |e| = 1 admits no spread).
_TODAY_GRID = np.linspace(-0.99, 0.99, 199)
#: Points of the density grid: half over [-1, 1], half within 5 sd of the mean.
_DENSITY_POINTS = 151


def _w_grid(give_ups: GiveUpPoints) -> np.ndarray:
    """The base w grid plus every kink of the give-up model for ``g``, ``g_c``."""
    g, g_c = give_ups.own_give_up, give_ups.center_give_up
    points = giveup.doubling_points(give_ups)
    kinks = [1.0 - g, g, 1.0 - g_c, g_c, 0.2, 0.8]  # .2/.8: Janowski's live-cube kinks
    kinks += [(1.0 + e) / 2.0 for e in (points.initial_double, points.redouble)]
    kinks.append((1.0 + points.market_losing) / 2.0)
    return np.union1d(_W_BASE, np.clip(kinks, 0.0, 1.0))


@st.cache_data(max_entries=128, show_spinner=False)
def transform_curves(give_ups: GiveUpPoints) -> pd.DataFrame:
    """Modified winning chances (conceded and raw) and modified equities on a w grid."""
    w = _w_grid(give_ups)
    e = 2.0 * w - 1.0
    frame: dict[str, Any] = {"w": w, "e": e}
    for cube in giveup.CUBE_POSITIONS:
        frame[f"p_{cube}"] = giveup.modified_win_probability(e, cube, give_ups)
        frame[f"raw_{cube}"] = giveup.modified_win_probability(e, cube, give_ups, concede=False)
        frame[f"E_{cube}"] = giveup.modified_equity(e, cube, give_ups)
    return pd.DataFrame(frame)


@st.cache_data(max_entries=256, show_spinner=False)
def doubling_points(give_ups: GiveUpPoints) -> dict[str, float]:
    """Initial double, redouble and market-losing equities as a plain dict."""
    return dataclasses.asdict(giveup.doubling_points(give_ups))


@st.cache_data(max_entries=1, show_spinner=False)
def essay_quoted() -> pd.DataFrame:
    """Each number the essay quotes: printed, exact (essay's g, g_c), and the reason it differs."""
    return giveup.essay_quoted_numbers()


def number_in_words(number: str) -> str:
    """One of the essay's quoted numbers, named as the code names it, in words
    (``initial_double_point`` -> "Initial double point")."""
    return number.replace("_", " ").capitalize()


@st.cache_data(max_entries=128, show_spinner=False)
def gain_curve(cube: DoublingCube, give_ups: GiveUpPoints) -> pd.DataFrame:
    """The gain of having doubled against the next-exchange cubeless equity."""
    e = 2.0 * _w_grid(give_ups) - 1.0
    return pd.DataFrame({"e": e, "gain": giveup.doubling_gain(e, cube, give_ups)})


@st.cache_data(max_entries=256, show_spinner=False)
def volatility_curve(volatility: float, cube: DoublingCube, give_ups: GiveUpPoints) -> pd.DataFrame:
    """Net gain against today's equity for one volatility (NaN where no spread fits)."""
    feasible = giveup.spread_exists(_TODAY_GRID, volatility)
    gain = np.full(_TODAY_GRID.shape, np.nan)
    gain[feasible] = giveup.volatility_doubling_gain(
        _TODAY_GRID[feasible], volatility, cube, give_ups
    )
    return pd.DataFrame({"e": _TODAY_GRID, "net_gain": gain})


@st.cache_data(max_entries=256, show_spinner=False)
def net_gain_today(
    equity: float, volatility: float, cube: DoublingCube, give_ups: GiveUpPoints
) -> float:
    """Net gain at today's equity; raises ``ValueError`` if the spread does not fit."""
    return float(giveup.volatility_doubling_gain(equity, volatility, cube, give_ups))


@st.cache_data(max_entries=256, show_spinner=False)
def spread_density(equity: float, volatility: float) -> pd.DataFrame:
    """Density of the next-exchange equity on [-1, 1], finer within 5 sd of the mean.

    Returns an empty frame for ``volatility = 0`` (a point mass has no density).
    """
    if volatility == 0.0:
        return pd.DataFrame({"e": [], "density": []})
    local = np.linspace(equity - 5.0 * volatility, equity + 5.0 * volatility, _DENSITY_POINTS)
    e = np.union1d(np.linspace(-1.0, 1.0, _DENSITY_POINTS), np.clip(local, -1.0, 1.0))
    return pd.DataFrame({"e": e, "density": giveup.next_equity_density(e, equity, volatility)})


@st.cache_data(max_entries=256, show_spinner=False)
def race_verdict(
    on_roll: int, opponent: int, cube: DoublingCube, give_ups: GiveUpPoints
) -> dict[str, Any]:
    """The give-up verdict and the exact race strategy's equities for one position."""
    verdict = giveup.race_doubling_verdict(on_roll, opponent, cube, give_ups)
    exact = race.race_cube_equities(on_roll, opponent, cube)
    return {
        **dataclasses.asdict(verdict),
        "agrees": verdict.agrees,
        "exact": dataclasses.asdict(exact),
    }


@st.cache_data(max_entries=128, show_spinner=False)
def race_sequences(
    on_roll: int, opponent: int, cube: DoublingCube, give_ups: GiveUpPoints
) -> pd.DataFrame:
    """The 169 dice-total pairs (1296 sequences) with their next equity and doubling gain."""
    return giveup.race_sequence_gains(on_roll, opponent, cube, give_ups)


@st.cache_data(max_entries=128, show_spinner=False)
def equivalences(give_ups: GiveUpPoints) -> dict[str, Any]:
    """:func:`cubecore.giveup.model_equivalences` as a plain dict."""
    return dataclasses.asdict(giveup.model_equivalences(give_ups))


@st.cache_data(max_entries=128, show_spinner=False)
def janowski_comparison(give_ups: GiveUpPoints) -> pd.DataFrame | None:
    """Give-up-model equities beside Janowski's with the implied x (None if x is outside [0, 1])."""
    return giveup.janowski_comparison(_w_grid(give_ups), give_ups)


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


@st.cache_data(max_entries=256, show_spinner=False)
def table_with_printed(equities: tuple[float, ...], give_ups: GiveUpPoints) -> pd.DataFrame:
    """The essay's table for the chosen rows, with the printed cells beside the exact ones."""
    return giveup.essay_table_with_printed(equities, give_ups)


#: Digits of the shown tables (the CSV downloads hold the same).
SHOWN_DIGITS = 5


@st.cache_resource(max_entries=64, show_spinner=False)
def table_view(equities: tuple[float, ...], give_ups: GiveUpPoints) -> dict[str, Any]:
    """What the essay's-table section shows for these rows: the doubling ``points``,
    the ``table`` as shown (rounded), the essay's ``quoted`` numbers by name, its rows
    that disagree (``deviations``), the quoted numbers as shown (``quoted_shown``) and
    the ``figure``."""
    points = doubling_points(give_ups)
    table = table_with_printed(equities, give_ups)
    quoted = essay_quoted().set_index("number")
    return {
        "points": points,
        "table": table.round(SHOWN_DIGITS),
        "quoted": quoted,
        "deviations": list(quoted[~quoted["agrees"]].iterrows()),
        "quoted_shown": quoted.reset_index()
        .assign(number=lambda frame: frame["number"].map(number_in_words))
        .round(SHOWN_DIGITS),
        "figure": figures.table_figure(transform_curves(give_ups), table, points),
    }


@st.cache_resource(max_entries=64, show_spinner=False)
def gain_view(
    cube: DoublingCube, equity: float, volatility: float, give_ups: GiveUpPoints
) -> dict[str, Any]:
    """The gain function's ``figure`` (with the spread of e' where one fits) and the
    ``early_cost`` of doubling at e' = .200."""
    density = (
        spread_density(equity, volatility) if giveup.spread_exists(equity, volatility) else None
    )
    return {
        "figure": figures.gain_figure(
            gain_curve(cube, give_ups), density, doubling_points(give_ups), cube, equity
        ),
        "early_cost": -giveup.doubling_gain(0.2, cube, give_ups),
    }


@st.cache_resource(max_entries=64, show_spinner=False)
def volatility_view(
    cube: DoublingCube, equity: float, volatility: float, give_ups: GiveUpPoints
) -> dict[str, Any]:
    """The volatility model's ``net`` gain today (None where no spread fits, ``error``
    then says why) and its ``figure``."""
    try:
        net: float | None = net_gain_today(equity, volatility, cube, give_ups)
        error = None
    except ValueError as refused:
        net, error = None, str(refused)
    figure = figures.volatility_figure(
        volatility_curve(volatility, cube, give_ups),
        doubling_points(give_ups),
        cube,
        equity,
        net,
        volatility,
    )
    return {"net": net, "error": error, "figure": figure}


@st.cache_resource(max_entries=64, show_spinner=False)
def race_view(
    on_roll: int, opponent: int, cube: DoublingCube, give_ups: GiveUpPoints
) -> dict[str, Any]:
    """The race on real dice: the ``verdict`` (:func:`race_verdict`), the exact strategy's
    proper ``action``, the ``figure`` and the ``sequences`` as shown (rounded)."""
    verdict = race_verdict(on_roll, opponent, cube, give_ups)
    exact = verdict["exact"]
    sequences = race_sequences(on_roll, opponent, cube, give_ups)
    return {
        "verdict": verdict,
        "action": cubeful.proper_cube_action(
            exact["no_double"],
            exact["double_take"],
            1.0,
            centred=cube == "center",
            can_gammon=False,
        ),
        "figure": figures.race_figure(
            sequences, gain_curve(cube, give_ups), doubling_points(give_ups), cube
        ),
        "sequences": sequences.round(SHOWN_DIGITS),
    }
