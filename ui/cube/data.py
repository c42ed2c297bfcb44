"""Cached compute of the cube calculator: scalar arguments, bounded caches."""

from __future__ import annotations

import dataclasses
from typing import Any

import pandas as pd
import streamlit as st

from cubecore import cubeful, met
from cubecore.match_points import CubeOwner

Probabilities = tuple[float, float, float, float, float]


@dataclasses.dataclass(frozen=True)
class Setting:
    """Everything a decision depends on besides the probabilities (hashable)."""

    x: float
    cube: int
    owner: CubeOwner
    match: bool
    jacoby: bool
    beavers: bool
    table: str
    away: int
    opp_away: int
    crawford: bool

    def keywords(self) -> dict[str, Any]:
        """Keyword arguments of cubeful's money or match functions."""
        if not self.match:
            return {"jacoby": self.jacoby, "beavers": self.beavers}
        return {
            "table": met.load_table(self.table),
            "away": self.away,
            "opp_away": self.opp_away,
            "crawford": self.crawford,
        }


@st.cache_data(max_entries=512, show_spinner=False)
def decision(p: Probabilities, s: Setting) -> cubeful.CubeDecision:
    """The 0-ply cube decision."""
    if s.match:
        return cubeful.match_cube_decision(
            p,
            s.x,
            met.load_table(s.table),
            away=s.away,
            opp_away=s.opp_away,
            cube=s.cube,
            owner=s.owner,
            crawford=s.crawford,
        )
    return cubeful.money_cube_decision(
        p, s.x, cube=s.cube, owner=s.owner, jacoby=s.jacoby, beavers=s.beavers
    )


@st.cache_data(max_entries=256, show_spinner=False)
def anatomy(p: Probabilities, s: Setting) -> cubeful.DecisionAnatomy:
    """DT - ND split into its named terms."""
    return cubeful.decision_anatomy(
        p, cubeful.CubeSetting(s.x, cube=s.cube, owner=s.owner, **s.keywords())
    )


@st.cache_data(max_entries=256, show_spinner=False)
def margins(p: Probabilities, s: Setting) -> cubeful.DecisionMargins:
    """How far each input may move before the best action changes."""
    return cubeful.decision_margins(
        p, cubeful.CubeSetting(s.x, cube=s.cube, owner=s.owner, **s.keywords())
    )


@st.cache_data(max_entries=256, show_spinner=False)
def window(p: Probabilities, s: Setting) -> pd.DataFrame:
    """The market window for the dead, live and chosen cube life."""
    return cubeful.market_window(p, s.x, cube=s.cube, **s.keywords())


@st.cache_data(max_entries=64, show_spinner=False)
def matrix(p: Probabilities, s: Setting, n: int) -> pd.DataFrame:
    """The best action at every score of an n x n grid, with a money row."""
    return cubeful.score_matrix(
        p, s.x, met.load_table(s.table), n, jacoby=s.jacoby, beavers=s.beavers
    )
