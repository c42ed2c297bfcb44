"""Cached compute for the home page (the model atlas), and the atlas section's prepared
views (the ``*_view`` functions, :mod:`ui`).
"""

from __future__ import annotations

import dataclasses

import pandas as pd
import streamlit as st

from cubecore import atlas, giveup, race
from cubecore.janowski import CubePosition
from ui.home import charts
from ui.home.content import MODEL_TITLES
from ui.style import Figure

#: The race model's cube life is tabulated for even races up to this pip count.
RACE_MAX_PIPS = 300
#: Decimals of the side-by-side decision points as shown.
SHOWN_DIGITS = 4


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


@dataclasses.dataclass(frozen=True)
class AtlasView:
    """The atlas section at one set of inputs and cube position.

    Attributes
    ----------
    figure : Figure
        :func:`ui.home.charts.atlas_figure` of the equity curves of :func:`atlas_tables`
        for the cube position.
    points : pandas.DataFrame
        The side-by-side decision points of :func:`atlas_tables` as shown: models by
        title (:data:`ui.home.content.MODEL_TITLES`), rounded to :data:`SHOWN_DIGITS`.
    """

    figure: Figure
    points: pd.DataFrame


@st.cache_resource(max_entries=16, show_spinner=False)
def atlas_view(
    x: float, da: float, db: float, g: float, gc: float, cube: CubePosition
) -> AtlasView:
    """The atlas section's :class:`AtlasView` for one cube position."""
    curves, points = atlas_tables(x, da, db, g, gc)
    return AtlasView(
        figure=charts.atlas_figure(curves, cube),
        points=points.assign(model=points["model"].map(MODEL_TITLES)).round(SHOWN_DIGITS),
    )


@st.cache_resource(max_entries=64, show_spinner=False)
def headline_view(
    da: float, db: float, g: float, gc: float, pips: int
) -> tuple[tuple[str, str], ...]:
    """The atlas's headline numbers, ``(label, value)`` each: the cube lives implied by
    g, g_c, DA/DB and by the exact race at ``pips`` pips."""
    x_owned, x_opponent = atlas.cube_life_from_effective_points(da, db)
    race_x = race_cube_life().loc[pips]
    return (
        ("x from g (cube turned)", f"{giveup.cube_life_from_give_up(g, 'owned'):.4f}"),
        ("x from g_c (centred)", f"{giveup.cube_life_from_give_up(gc, 'center'):.4f}"),
        ("x from DA / from DB", f"{x_owned:.3f} / {x_opponent:.3f}"),
        (f"x implied by the race at {pips} pips", f"{race_x['center']:.4f}"),
    )
