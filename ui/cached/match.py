"""Cached compute for the match-play page: scalar arguments in, tables and dicts out."""

from __future__ import annotations

import dataclasses

import pandas as pd
import streamlit as st

from cubecore import match


@st.cache_data(max_entries=128, show_spinner=False)
def equity_table(gammon_rate: float, cube_efficiency: float) -> pd.DataFrame:
    """The 25 x 25 match equity table (rows: your away, columns: the opponent's)."""
    return match.match_equity_table(match.MAX_AWAY, gammon_rate, cube_efficiency)


@st.cache_data(max_entries=128, show_spinner=False)
def crawford_table(gammon_rate: float) -> pd.DataFrame:
    """Crawford, no-Crawford-rule and post-Crawford MWC for trailers 2..25-away."""
    return match.crawford_table(match.MAX_AWAY, gammon_rate)


@st.cache_data(max_entries=512, show_spinner=False)
def take_point(
    away: int,
    opp_away: int,
    cube_value: int,
    cube_owner: str,
    gammon_rate: float,
    opp_gammon_rate: float,
    cube_efficiency: float,
) -> dict[str, float]:
    """:func:`cubecore.match.take_point` as a plain dict."""
    return dataclasses.asdict(
        match.take_point(
            away, opp_away, cube_value, cube_owner, gammon_rate, opp_gammon_rate, cube_efficiency
        )
    )


@st.cache_data(max_entries=128, show_spinner=False)
def take_points_by_cube(
    away: int, opp_away: int, gammon_rate: float, opp_gammon_rate: float, cube_efficiency: float
) -> pd.DataFrame:
    """Take points at this score for every cube level that still matters.

    Cube 1 is centred, higher cubes are owned by the doubler. The list stops
    before the first cube the doubler already wins the match with (dropping it
    loses the match: take point 0, and doubling it gains him nothing).
    """
    rows = []
    cube = 1
    while True:
        owner = "center" if cube == 1 else "opponent"
        tp = match.take_point(
            away, opp_away, cube, owner, gammon_rate, opp_gammon_rate, cube_efficiency
        )
        rows.append({"cube": f"{cube} -> {2 * cube}", **dataclasses.asdict(tp)})
        cube *= 2
        if cube >= opp_away or cube > 32:
            break
    return pd.DataFrame(rows)


@st.cache_data(max_entries=64, show_spinner=False)
def take_points_along_row(
    away: int,
    cube_value: int,
    cube_owner: str,
    gammon_rate: float,
    opp_gammon_rate: float,
    cube_efficiency: float,
) -> pd.DataFrame:
    """Your take points against every doubler's score 1..25 (your score fixed)."""
    return match.take_point_table(
        match.MAX_AWAY,
        cube_value,
        cube_owner,
        gammon_rate,
        opp_gammon_rate,
        cube_efficiency,
        away=away,
    )


@st.cache_data(max_entries=32, show_spinner=False)
def take_point_grid(
    max_away: int,
    cube_value: int,
    cube_owner: str,
    gammon_rate: float,
    opp_gammon_rate: float,
    cube_efficiency: float,
) -> pd.DataFrame:
    """:func:`cubecore.match.take_point_table` (the heavy one: one game per score)."""
    return match.take_point_table(
        max_away, cube_value, cube_owner, gammon_rate, opp_gammon_rate, cube_efficiency
    )


@st.cache_data(max_entries=256, show_spinner=False)
def holland(opp_away: int, gammon_rate: float, delay_rolls: int, volatility: float) -> dict:
    """:func:`cubecore.match.holland_effect` as a plain dict."""
    return dataclasses.asdict(match.holland_effect(opp_away, gammon_rate, delay_rolls, volatility))


@st.cache_data(max_entries=128, show_spinner=False)
def holland_sweep(gammon_rate: float, delay_rolls: int, volatility: float) -> pd.DataFrame:
    """The Holland rule's effect for every trailer's score 2..25."""
    rows = [
        dataclasses.asdict(match.holland_effect(b, gammon_rate, delay_rolls, volatility))
        for b in range(2, match.MAX_AWAY + 1)
    ]
    return pd.DataFrame(rows)
