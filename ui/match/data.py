"""Cached compute for the match-play page: scalar arguments in, tables and dicts out."""

from __future__ import annotations

import dataclasses
import hashlib

import pandas as pd
import streamlit as st

from cubecore import free_drop, match, match_points, met, met_aids, met_fit, met_io


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
    cube_owner: match.TakeCube,
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
def take_point_table(
    max_away: int,
    cube_value: int,
    cube_owner: match.TakeCube,
    gammon_rate: float,
    opp_gammon_rate: float,
    cube_efficiency: float,
    away: int | None = None,
) -> pd.DataFrame:
    """:func:`cubecore.match.take_point_table` at every score ``1..max_away`` each (the
    heavy one: one game per score); with ``away``, your score fixed.
    """
    return match.take_point_table(
        max_away, cube_value, cube_owner, gammon_rate, opp_gammon_rate, cube_efficiency, away
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


# ----------------------------------------------------------------------------------
# Match equity tables: bundled, the model's, uploaded. Each cached function takes the
# table's cache key (``kxg2``, ``model:G:x``, ``upload:<sha256>``) and the table itself
# as ``_table`` (left out of the hash: the key names the numbers).
# ----------------------------------------------------------------------------------
@st.cache_data(max_entries=64, show_spinner=False)
def model_table(gammon_rate: float, cube_efficiency: float) -> met.MatchEquityTable:
    """:func:`cubecore.met.model_table` at 25-away."""
    return met.model_table(gammon_rate, cube_efficiency)


@st.cache_data(max_entries=8, show_spinner=False)
def uploaded_table(content: bytes, file_name: str) -> met.MatchEquityTable:
    """:func:`cubecore.met_io.read_table` (cached by the file's content)."""
    return met_io.read_table(content, file_name)


def content_key(content: bytes) -> str:
    """The cache key of an uploaded table: its content's SHA-256."""
    return "upload:" + hashlib.sha256(content).hexdigest()


@st.cache_data(max_entries=64, show_spinner=False)
def table_faults(key: str, _table: met.MatchEquityTable, complement: bool) -> pd.DataFrame:
    """:func:`cubecore.met.check_table`."""
    return met.check_table(_table, complement=complement)


@st.cache_data(max_entries=256, show_spinner=False)
def market_windows(
    key: str,
    _table: met.MatchEquityTable,
    away: int,
    opp_away: int,
    phase: match_points.MatchPhase,
    rates: tuple[float, float, float, float],
) -> pd.DataFrame:
    """:func:`cubecore.match_points.cube_points_table` (rates: yours, then the opponent's)."""
    return match_points.cube_points_table(
        match_points.MatchScore(_table, away, opp_away, phase=phase),
        match_points.GammonRates(*rates),
    )


@st.cache_data(max_entries=64, show_spinner=False)
def gammon_value_grid(
    key: str, _table: met.MatchEquityTable, max_away: int, cube_value: int
) -> pd.DataFrame:
    """:func:`cubecore.match_points.gammon_value_table`."""
    return match_points.gammon_value_table(_table, max_away=max_away, cube_value=cube_value)


@st.cache_data(max_entries=64, show_spinner=False)
def comparison(
    key: str, _table: met.MatchEquityTable, other_key: str, _other: met.MatchEquityTable
) -> met.TableComparison:
    """:func:`cubecore.met.compare_tables` (the first minus the second)."""
    return met.compare_tables(_table, _other)


@st.cache_data(max_entries=32, show_spinner=False)
def table_fit(key: str, _table: met.MatchEquityTable, max_away: int) -> met_fit.TableFit:
    """:func:`cubecore.met_fit.fit_table`: at most 56 model tables, cached per table."""
    return met_fit.fit_table(_table, max_away)


@st.cache_data(max_entries=64, show_spinner=False)
def drop_price(
    key: str, _table: met.MatchEquityTable, max_away: int, gammon_rate: float, spread: float
) -> free_drop.FreeDropPrice:
    """:func:`cubecore.free_drop.free_drop_price`."""
    return free_drop.free_drop_price(
        _table, max_away=max_away, gammon_rate=gammon_rate, spread=spread
    )


@st.cache_data(max_entries=64, show_spinner=False)
def aid_comparison(
    aid: str, key: str, _table: met.MatchEquityTable, max_away: int
) -> met_aids.MemoryAidComparison:
    """:func:`cubecore.met_aids.compare_memory_aid`."""
    return met_aids.compare_memory_aid(aid, _table, max_away)


@st.cache_data(max_entries=64, show_spinner=False)
def take_point_grid_on_table(key: str, _table: met.MatchEquityTable, max_away: int) -> pd.DataFrame:
    """The player's gammonless dead take point of the opponent's initial double.

    At every pre-Crawford score ``2..max_away`` each (:func:`cubecore.match_points.cube_points`,
    ``opponent_doubles.take_point_gammonless``); at most 24 x 24 scores.
    """
    rows = [
        {
            "away": a,
            "opp_away": b,
            "take_point": match_points.cube_points(
                match_points.MatchScore(_table, a, b)
            ).opponent_doubles.take_point_gammonless,
        }
        for a in range(2, max_away + 1)
        for b in range(2, max_away + 1)
    ]
    return pd.DataFrame(rows)
