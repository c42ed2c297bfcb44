"""Cached compute for the Janowski page."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import streamlit as st

from cubecore import janowski

_P_GRID = np.linspace(0.0, 1.0, 401)
_X_GRID = np.linspace(0.0, 1.0, 101)


@st.cache_data(max_entries=256, show_spinner=False)
def equity_curves(x: float, W: float, L: float, jacoby: bool) -> pd.DataFrame:
    """Model, live and dead equities on a P grid, plus Janowski's 1993 centred formula."""
    frame = {"p": _P_GRID, "dead": janowski.dead_cube_equity(_P_GRID, W, L)}
    for cube in janowski.CUBE_POSITIONS:
        cube_jacoby = jacoby and cube == "center"
        frame[cube] = janowski.cubeful_equity(_P_GRID, x, cube, W, L, jacoby=cube_jacoby)
        frame[f"live_{cube}"] = janowski.live_cube_equity(_P_GRID, cube, W, L, jacoby=cube_jacoby)
    frame["janowski_1993"] = janowski.janowski_1993_center_equity(_P_GRID, x, W, L)
    return pd.DataFrame(frame)


@st.cache_data(max_entries=512, show_spinner=False)
def cube_points(x: float, W: float, L: float, jacoby: bool) -> dict[str, float]:
    """The decision points as a plain dict."""
    return dataclasses.asdict(janowski.cube_points(x, W, L, jacoby=jacoby))


@st.cache_data(max_entries=128, show_spinner=False)
def points_sweep(W: float, L: float, jacoby: bool) -> pd.DataFrame:
    """Decision points for x from 0 to 1."""
    return janowski.cube_points_sweep(_X_GRID, W, L, jacoby=jacoby)


@st.cache_data(max_entries=128, show_spinner=False)
def two_index_sweep(x_doubler: float, W: float, L: float) -> pd.DataFrame:
    """Two-index points for the doubler's x against every taker's x."""
    rows = [
        {"x_taker": float(xt), **dataclasses.asdict(janowski.two_index_points(x_doubler, xt, W, L))}
        for xt in _X_GRID
    ]
    return pd.DataFrame(rows)
