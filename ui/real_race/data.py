"""Cached compute of the real-race page: the bear-off databases once per process."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from cubecore import bearoff, race_counts
from cubecore.position import Position, position_from_id


@st.cache_resource(show_spinner=False)
def one_sided_database() -> bearoff.OneSidedDatabase:
    """The one-sided database: built (or read from the disk cache) once per process.

    ``st.cache_resource`` gives every session the same object and lets concurrent
    sessions wait for one build; cubecore's lock does the same inside the process.
    """
    return bearoff.one_sided_database()


@st.cache_resource(show_spinner=False)
def two_sided_database() -> bearoff.TwoSidedDatabase:
    """The two-sided 6 x 6 database, once per process (see :func:`one_sided_database`)."""
    return bearoff.two_sided_database()


@st.cache_data(max_entries=256, show_spinner=False)
def position(position_id: str) -> Position:
    """The position of a Position ID (``ValueError`` naming what is wrong)."""
    return position_from_id(position_id)


@st.cache_data(max_entries=256, show_spinner=False)
def counts(position_id: str) -> pd.DataFrame:
    """Every race formula on the position."""
    return race_counts.race_counts(position_from_id(position_id))


@st.cache_data(max_entries=256, show_spinner=False)
def one_sided(points: tuple[int, ...]) -> bearoff.OneSided:
    one_sided_database()
    return bearoff.one_sided(points)


@st.cache_data(max_entries=256, show_spinner=False)
def one_sided_win(on_roll: tuple[int, ...], opponent: tuple[int, ...]) -> float:
    one_sided_database()
    return bearoff.one_sided_win_probability(on_roll, opponent)


@st.cache_data(max_entries=256, show_spinner=False)
def two_sided(on_roll: tuple[int, ...], opponent: tuple[int, ...]) -> bearoff.TwoSided:
    two_sided_database()
    return bearoff.two_sided(on_roll, opponent)


@st.cache_data(max_entries=4, show_spinner=False)
def pip_model_errors(by: str) -> pd.DataFrame:
    two_sided_database()
    return bearoff.pip_model_errors(by=by)
