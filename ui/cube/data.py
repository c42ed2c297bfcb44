"""Cached compute of the cube calculator: scalar arguments, bounded caches, and the
sections' prepared views (the ``*_view`` functions, :mod:`ui`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pandas as pd
import streamlit as st

from cubecore import cubeful, met
from cubecore.match_points import CubeOwner
from ui import widgets
from ui.cube import charts
from ui.style import Figure

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


def proper(p: Probabilities, s: Setting, d: cubeful.CubeDecision) -> cubeful.ProperCubeAction:
    """The proper action of an available cube and each alternative's cost (no cache: cheap)."""
    if d.double_take is None or d.double_pass is None:
        raise ValueError("the player on roll cannot double here: there is no cube action")
    return cubeful.proper_cube_action(
        d.no_double,
        d.double_take,
        d.double_pass,
        centred=s.owner == "center",
        can_gammon=p[1] > 0.0,
        money=not s.match,
        jacoby=s.jacoby,
        beavers=s.beavers,
    )


@st.cache_data(max_entries=256, show_spinner=False)
def both_windows(p: Probabilities, s: Setting) -> dict[str, dict[str, float | None]]:
    """Both players' market windows at the chosen cube life, each in his own chance.

    The opponent's is the same model seen from his side: the probabilities swapped
    (his wins are the roller's losses) and, at a match score, the score swapped. For
    money a player who owns the cube (the roller when he redoubles, the taker after he
    takes) has his redouble point as his double point; at a match score the double
    point is the one at the current cube value for both.
    """
    swapped_p: Probabilities = (1.0 - p[0], p[3], p[4], p[1], p[2])
    swapped_s = dataclasses.replace(s, away=s.opp_away, opp_away=s.away)
    names = {
        "take_point": "Take point",
        "double_point": "Double point",
        "cash_point": "Cash point",
        "too_good_point": "Too good point",
    }
    windows: dict[str, dict[str, float | None]] = {}
    for player, (probs, setting), owns in (
        (widgets.DOUBLER, (p, s), s.owner == "player"),
        (widgets.TAKER, (swapped_p, swapped_s), True),
    ):
        chosen = window(probs, setting).iloc[-1]
        windows[player] = {shown: float(chosen[column]) for column, shown in names.items()}
        if owns and not s.match:
            windows[player]["Double point"] = float(chosen["redouble_point"])
    return windows


@st.cache_data(max_entries=64, show_spinner=False)
def matrix(p: Probabilities, s: Setting, n: int) -> pd.DataFrame:
    """The best action at every score of an n x n grid, with a money row."""
    money = cubeful.CubeSetting(s.x, jacoby=s.jacoby, beavers=s.beavers)
    return cubeful.score_matrix(p, money, met.load_table(s.table), n)


@dataclasses.dataclass(frozen=True)
class MatrixView:
    """The score-matrix section at one set of inputs.

    Attributes
    ----------
    money_action : str
        The best action for money, centred cube (the grid's money row).
    actions, margins : Figure
        :func:`ui.cube.charts.matrix_figure` and :func:`ui.cube.charts.margins_figure`.
    table : pandas.DataFrame
        :func:`matrix` rounded to 6 decimals, as the table and its CSV show it.
    """

    money_action: str
    actions: Figure
    margins: Figure
    table: pd.DataFrame


@st.cache_resource(max_entries=16, show_spinner=False)
def matrix_view(*, p: Probabilities, s: Setting, n: int) -> MatrixView:
    """The score-matrix section's :class:`MatrixView` on the n x n grid."""
    grid = matrix(p, s, n)
    money = grid[grid["state"] == "money"].iloc[0]
    return MatrixView(
        money_action=str(money["action"]),
        actions=charts.matrix_figure(grid, n),
        margins=charts.margins_figure(grid, n),
        table=grid.round(6),
    )


#: The named terms of DT - ND (:class:`cubecore.cubeful.DecisionAnatomy`), as shown.
TERM_LABELS = {
    "dead_cube_gain": "Dead-cube gain",
    "gammon_term": "Gammon term",
    "recube_vig": "Recube vig",
    "market_losing_term": "Market-losing term",
    "jacoby_adjustment": "Jacoby adjustment",
    "beaver_adjustment": "Beaver adjustment",
}


@dataclasses.dataclass(frozen=True)
class DecisionView:
    """The decision section at one set of inputs.

    Attributes
    ----------
    decision : cubecore.cubeful.CubeDecision
        :func:`decision`.
    proper, windows
        :func:`proper` and :func:`both_windows` where the cube is available, else None.
    errors : pandas.DataFrame or None
        Each alternative's cost, formatted to 4 decimals (None where the cube is not
        available).
    window_figure : Figure
        :func:`ui.cube.charts.window_figure` of :func:`window`, the margins' band shaded.
    window_table : pandas.DataFrame
        :func:`window` with readable headers, rounded to 4 decimals.
    """

    decision: cubeful.CubeDecision
    proper: cubeful.ProperCubeAction | None
    windows: dict[str, dict[str, float | None]] | None
    errors: pd.DataFrame | None
    window_figure: Figure
    window_table: pd.DataFrame


@st.cache_resource(max_entries=16, show_spinner=False)
def decision_view(*, p: Probabilities, s: Setting) -> DecisionView:
    """The decision section's :class:`DecisionView`."""
    d = decision(p, s)
    chosen = None
    windows = None
    errors = None
    band = None
    if d.cube_available:
        chosen = proper(p, s, d)
        windows = both_windows(p, s)
        errors = pd.DataFrame(
            {
                "Alternative": ["No double", "Double", "Take", "Pass"],
                "Cost": [d.error_no_double, d.error_double, d.error_take, d.error_pass],
            }
        )
        errors["Cost"] = errors["Cost"].map(lambda cost: f"{cost:.4f}")
        m = margins(p, s)
        band = (p[0] - (m.win_down or p[0]), p[0] + (m.win_up or 1.0 - p[0]))
    shown = window(p, s)
    return DecisionView(
        decision=d,
        proper=chosen,
        windows=windows,
        errors=errors,
        window_figure=charts.window_figure(shown, p[0], band),
        window_table=shown.rename(columns=lambda name: name.replace("_", " ").capitalize()).round(
            4
        ),
    )


@dataclasses.dataclass(frozen=True)
class AnatomyView:
    """The anatomy section at one set of inputs where the cube is available.

    Attributes
    ----------
    total : float
        DT - ND.
    terms : dict
        Each named term's value by its :data:`TERM_LABELS` label.
    largest : str
        The label of the largest term in magnitude.
    figure : Figure
        :func:`ui.cube.charts.anatomy_figure` of ``terms``.
    margins : cubecore.cubeful.DecisionMargins
        :func:`margins`.
    """

    total: float
    terms: dict[str, float]
    largest: str
    figure: Figure
    margins: cubeful.DecisionMargins


@st.cache_resource(max_entries=16, show_spinner=False)
def anatomy_view(*, p: Probabilities, s: Setting) -> AnatomyView | None:
    """The anatomy section's :class:`AnatomyView`; None where the player on roll cannot
    double (no DT - ND to take apart)."""
    d = decision(p, s)
    if not d.cube_available or d.double_take is None:
        return None
    terms = dataclasses.asdict(anatomy(p, s))
    total = terms.pop("total")
    shown = {TERM_LABELS[name]: value for name, value in terms.items()}
    largest = max(shown, key=lambda name: abs(shown[name]))
    return AnatomyView(
        total=total,
        terms=shown,
        largest=largest,
        figure=charts.anatomy_figure(shown),
        margins=margins(p, s),
    )
