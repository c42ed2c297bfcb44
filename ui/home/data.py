"""Cached compute for the home page (the model atlas)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from cubecore import atlas, race

#: The race model's cube life is tabulated for even races up to this pip count.
RACE_MAX_PIPS = 300


@st.cache_data(max_entries=256, show_spinner=False)
def atlas_tables(
    x: float, da: float, db: float, g: float, gc: float
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Equity curves (tidy) and the side-by-side decision points of the four models."""
    settings = atlas.AtlasSettings(x=x, da=da, db=db, give_up=g, center_give_up=gc)
    return atlas.atlas_curves(settings), atlas.atlas_points(settings)


@st.cache_resource(max_entries=1, show_spinner=False)
def race_cube_life() -> pd.DataFrame:
    """Cube life x implied by the exact race model for even races (immutable, shared)."""
    frames = {
        cube: race.implied_cube_life(cube=cube, offset=0, max_count=RACE_MAX_PIPS).set_index(
            "on_roll"
        )
        for cube in ("center", "owned", "opponent")
    }
    return pd.DataFrame({cube: frame["cube_life"] for cube, frame in frames.items()})
