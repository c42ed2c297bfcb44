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


@st.cache_data(max_entries=512, show_spinner=False)
def winning_chance(
    away: int, opp_away: int, post_crawford: bool, gammon_rate: float, cube_efficiency: float
) -> float:
    """:func:`cubecore.match.match_winning_chance`."""
    return match.match_winning_chance(away, opp_away, post_crawford, gammon_rate, cube_efficiency)


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
    """:func:`cubecore.match.take_points_by_cube`: every cube level that still matters."""
    return match.take_points_by_cube(away, opp_away, gammon_rate, opp_gammon_rate, cube_efficiency)


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
def holland(
    opp_away: int, gammon_rate: float, delay_rolls: int, volatility: float
) -> dict[str, float]:
    """:func:`cubecore.match.holland_effect` as a plain dict."""
    return dataclasses.asdict(match.holland_effect(opp_away, gammon_rate, delay_rolls, volatility))


@st.cache_data(max_entries=128, show_spinner=False)
def holland_table(gammon_rate: float, delay_rolls: int, volatility: float) -> pd.DataFrame:
    """:func:`cubecore.match.holland_table`: the Holland rule's effect for trailers 2..25."""
    return match.holland_table(match.MAX_AWAY, gammon_rate, delay_rolls, volatility)


@st.cache_data(max_entries=128, show_spinner=False)
def anchors(gammon_rate: float) -> dict[str, float]:
    """The model notes' anchor values: M(2, 2), the 1-away/2-away trailer, the dead take."""
    return {
        "even": match.match_equity(2, 2, gammon_rate),
        "trailer": 1.0 - match.post_crawford_equity(2, gammon_rate),
        "dead_take": match.take_point(2, 2, gammon_rate=gammon_rate).dead,
    }
