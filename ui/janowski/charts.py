"""Charts of the Janowski page, built as plotly dicts (pure: no streamlit)."""

from __future__ import annotations

import pandas as pd

from ui.charts import Chart, ViewMarker
from ui.style import (
    COLORS,
    CUBE_NAMES,
    Curve,
    Figure,
    figure,
    line,
    staggered_markers,
    with_reference,
)

#: Decision points drawn on the equity chart: field -> (label, colour).
POINT_MARKERS = {
    "take_point": ("take", COLORS["take"]),
    "initial_double_point": ("double", COLORS["double"]),
    "redouble_point": ("redouble", COLORS["redouble"]),
    "cash_point": ("cash", COLORS["cash"]),
    "too_good_center": ("too good", COLORS["too_good"]),
}


def equity_figure(
    curves: pd.DataFrame,
    cubes: tuple[str, ...],
    points: dict[str, float],
    p_now: float,
    *,
    show_original: bool = False,
) -> Figure:
    """Cubeful equity against P for the chosen cube positions, dead/live for reference."""
    traces = []
    for cube in cubes:
        name = CUBE_NAMES[cube]
        traces += with_reference(
            curves["p"],
            curves[cube],
            curves[f"live_{cube}"],
            f"model, {name}",
            f"live, {name}",
            COLORS[cube],
        )
    traces.append(line(curves["p"], curves["dead"], "dead cube", COLORS["dead"], dash="dash"))
    if show_original:
        traces.append(
            line(
                curves["p"],
                curves["janowski_1993"],
                "Janowski 1993, centred",
                COLORS["live"],
                dash="dashdot",
            )
        )
    shapes, notes = staggered_markers(
        [(points[field], label, color) for field, (label, color) in POINT_MARKERS.items()],
        inside_unit=True,
    )
    now = curves.iloc[(curves["p"] - p_now).abs().argmin()]
    traces.append(
        {
            "type": "scatter",
            "mode": "markers",
            "name": f"P = {p_now:.3f}",
            "x": [p_now] * len(cubes),
            "y": [float(now[c]) for c in cubes],
            "marker": {"color": COLORS["marker"], "size": 9, "symbol": "x"},
        }
    )
    return figure(
        traces,
        "Cubeful equity (per unit of the current cube)",
        "winning probability P",
        "equity",
        shapes=shapes,
        annotations=notes,
    )


#: How each decision point moves as the cube comes alive.
POINTS_VS_X = Chart(
    "Decision points against cube life x",
    curves=(
        Curve("take_point", "take (taker's P)", COLORS["take"]),
        Curve("beaver_point", "beaver (taker's P)", COLORS["beaver"]),
        Curve("raccoon_point", "raccoon", COLORS["raccoon"]),
        Curve("initial_double_point", "initial double", COLORS["double"]),
        Curve("redouble_point", "redouble", COLORS["redouble"]),
        Curve("cash_point", "cash", COLORS["cash"]),
    ),
    x="x",
    x_title="cube life x",
    y_title="winning probability",
    marker=ViewMarker("x"),
)
#: Where the doubler's perceived cash point and the taker's actual pass point part.
TWO_INDEX = Chart(
    "Two cube-life indexes: where the cash points part",
    curves=(
        Curve("perceived_cash_point", "doubler's perceived cash point", COLORS["double"], "dash"),
        Curve("actual_cash_point", "taker's actual pass point", COLORS["cash"]),
        Curve("initial_double_point", "initial double point", COLORS["redouble"], "dot"),
    ),
    x="x_taker",
    x_title="taker's cube life x",
    y_title="doubler's winning probability",
    marker=ViewMarker("taker's x"),
)


def points_vs_x_figure(sweep: pd.DataFrame, x_now: float) -> Figure:
    """How each decision point moves as the cube comes alive (x from 0 to 1)."""
    return POINTS_VS_X.draw(sweep, x_now)


def two_index_figure(frame: pd.DataFrame, x_taker: float) -> Figure:
    """Perceived and actual cash points against the taker's cube life."""
    return TWO_INDEX.draw(frame, x_taker)
