"""Cached compute for the Janowski page, and its sections' prepared views (the
``*_view`` functions, :mod:`ui`).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import streamlit as st

from cubecore import cubeful, janowski
from ui.janowski import charts as figures
from ui.simulation import on_worker
from ui.style import Figure

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
    return on_worker(janowski.cube_points_sweep, _X_GRID, W, L, jacoby=jacoby)


@st.cache_data(max_entries=128, show_spinner=False)
def two_index_sweep(x_doubler: float, W: float, L: float) -> pd.DataFrame:
    """Two-index points for the doubler's x against every taker's x."""
    return on_worker(janowski.two_index_sweep, x_doubler, _X_GRID, W, L)


#: The decision points as the page names them: field -> label (metrics, table, headline).
POINT_LABELS = {
    "take_point": "Take (taker's P)",
    "cash_point": "Cash",
    "beaver_point": "Beaver (taker's P)",
    "raccoon_point": "Raccoon",
    "initial_double_point": "Initial double",
    "redouble_point": "Redouble",
    "too_good_center": "Too good, centred",
    "too_good_owned": "Too good, owned",
}


@dataclasses.dataclass(frozen=True)
class DecisionView:
    """The decisions section at one set of inputs.

    Attributes
    ----------
    points : dict
        The doubler's decision points (:func:`cube_points`), by field.
    figure : Figure
        :func:`ui.janowski.charts.equity_figure` of :func:`equity_curves` for the chosen
        cube position (or all of them), P marked.
    table : pandas.DataFrame
        The points as the table and its CSV show them, labelled by :data:`POINT_LABELS`.
    opponent_equity : float or None
        The cubeful equity with the opponent owning the cube, at the P of
        :func:`equity_curves` nearest P, where he owns it; else None.
    decision : cubecore.janowski.CubeDecision or None
        :func:`cubecore.janowski.cube_decision` at P where the opponent does not own the
        cube (with ``"all"``, the centred cube's), else None.
    action : cubecore.cubeful.ProperCubeAction or None
        The proper action of ``decision`` and each alternative's cost, else None.
    theirs : dict or None
        The taker's own decision points (W and L swapped, his cube life, no Jacoby)
        alongside ``decision``, else None.
    """

    points: dict[str, float]
    figure: Figure
    table: pd.DataFrame
    opponent_equity: float | None = None
    decision: janowski.CubeDecision | None = None
    action: cubeful.ProperCubeAction | None = None
    theirs: dict[str, float] | None = None


@st.cache_resource(max_entries=16, show_spinner=False)
def decision_view(
    x: float,
    W: float,
    L: float,
    P: float,
    x_taker: float,
    jacoby: bool,
    cube: str,
    original: bool,
) -> DecisionView:
    """The decisions section's :class:`DecisionView` for ``cube`` (a cube position, or
    ``"all"``): ``opponent_equity`` where the opponent owns the cube, else the
    ``decision`` at P, its ``action`` and the taker's points (``theirs``)."""
    points = cube_points(x, W, L, jacoby)
    curves = equity_curves(x, W, L, jacoby)
    cubes = janowski.CUBE_POSITIONS if cube == "all" else (cube,)
    figure = figures.equity_figure(curves, cubes, points, P, show_original=original)
    table = pd.DataFrame(
        {"point": list(POINT_LABELS.values()), "P": [points[f] for f in POINT_LABELS]}
    )
    if cube == "opponent":
        return DecisionView(
            points=points,
            figure=figure,
            table=table,
            opponent_equity=float(curves.iloc[(curves["p"] - P).abs().argmin()]["opponent"]),
        )
    position: janowski.DoublingCube = "owned" if cube == "owned" else "center"
    d = janowski.cube_decision(P, x, position, W, L, x_taker=x_taker, jacoby=jacoby)
    return DecisionView(
        points=points,
        figure=figure,
        table=table,
        decision=d,
        action=cubeful.proper_cube_action(
            d.no_double,
            d.double_take,
            d.double_pass,
            centred=position == "center",
            can_gammon=W > 1.0,
            jacoby=jacoby,
        ),
        theirs=cube_points(x_taker, L, W, False),
    )


@dataclasses.dataclass(frozen=True)
class LifeView:
    """The cube-life section at one set of inputs.

    Attributes
    ----------
    points : dict
        The decision points at x (:func:`cube_points`), by field.
    figure : Figure
        :func:`ui.janowski.charts.points_vs_x_figure` of :func:`points_sweep`, x marked.
    table : pandas.DataFrame
        :func:`points_sweep` as shown: labelled by :data:`POINT_LABELS`, rounded to 6
        decimals.
    """

    points: dict[str, float]
    figure: Figure
    table: pd.DataFrame


@st.cache_resource(max_entries=16, show_spinner=False)
def life_view(x: float, W: float, L: float, jacoby: bool) -> LifeView:
    """The cube-life section's :class:`LifeView`."""
    sweep = points_sweep(W, L, jacoby)
    return LifeView(
        points=cube_points(x, W, L, jacoby),
        figure=figures.points_vs_x_figure(sweep, x),
        table=sweep.rename(columns=POINT_LABELS).round(6),
    )


@dataclasses.dataclass(frozen=True)
class TwoIndexView:
    """The two-index section at one set of inputs.

    Attributes
    ----------
    points : cubecore.janowski.TwoIndexPoints
        :func:`cubecore.janowski.two_index_points` for the doubler's and the taker's x.
    fields : pandas.DataFrame
        ``points`` as a table: each point in words and its winning chance.
    figure : Figure
        :func:`ui.janowski.charts.two_index_figure` of :func:`two_index_sweep`, the
        taker's x marked.
    """

    points: janowski.TwoIndexPoints
    fields: pd.DataFrame
    figure: Figure


#: The two-index points in words, by field of :class:`cubecore.janowski.TwoIndexPoints`.
TWO_INDEX_NAMES = {
    "initial_double_point": "Initial double point (doubler's x)",
    "redouble_point": "Redouble point (doubler's x)",
    "perceived_cash_point": "Perceived cash point (doubler's x)",
    "actual_cash_point": "Actual pass point (taker's x)",
    "too_good_center": "Too good, cube centred",
    "too_good_owned": "Too good, cube owned",
    "take_point": "Taker's take point (taker's x)",
}


@st.cache_resource(max_entries=16, show_spinner=False)
def two_view(x: float, x_taker: float, W: float, L: float) -> TwoIndexView:
    """The two-index section's :class:`TwoIndexView`."""
    points = janowski.two_index_points(x, x_taker, W, L)
    return TwoIndexView(
        points=points,
        fields=pd.DataFrame(
            {
                "point": [TWO_INDEX_NAMES.get(name, name) for name in dataclasses.asdict(points)],
                "winning chance": list(dataclasses.asdict(points).values()),
            }
        ),
        figure=figures.two_index_figure(two_index_sweep(x, W, L), x_taker),
    )
