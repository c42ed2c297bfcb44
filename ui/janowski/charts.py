"""Charts of the Janowski page, built as plotly dicts (pure: no streamlit)."""

from __future__ import annotations

import pandas as pd

from ui.style import (
    COLORS,
    CUBE_NAMES,
    Curve,
    Figure,
    curves,
    figure,
    line,
    staggered_markers,
    vertical_marker,
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


def points_vs_x_figure(sweep: pd.DataFrame, x_now: float) -> Figure:
    """How each decision point moves as the cube comes alive (x from 0 to 1)."""
    traces = curves(
        sweep,
        "x",
        Curve("take_point", "take (taker's P)", COLORS["take"]),
        Curve("beaver_point", "beaver (taker's P)", COLORS["beaver"]),
        Curve("raccoon_point", "raccoon", COLORS["raccoon"]),
        Curve("initial_double_point", "initial double", COLORS["double"]),
        Curve("redouble_point", "redouble", COLORS["redouble"]),
        Curve("cash_point", "cash", COLORS["cash"]),
    )
    return figure(
        traces,
        "Decision points against cube life x",
        "cube life x",
        "winning probability",
        markers=[vertical_marker(x_now, "x", COLORS["marker"])],
    )


def two_index_figure(frame: pd.DataFrame, x_taker: float) -> Figure:
    """Perceived and actual cash points against the taker's cube life."""
    traces = curves(
        frame,
        "x_taker",
        Curve("perceived_cash_point", "doubler's perceived cash point", COLORS["double"], "dash"),
        Curve("actual_cash_point", "taker's actual pass point", COLORS["cash"]),
        Curve("initial_double_point", "initial double point", COLORS["redouble"], "dot"),
    )
    return figure(
        traces,
        "Two cube-life indexes: where the cash points part",
        "taker's cube life x",
        "doubler's winning probability",
        markers=[vertical_marker(x_taker, "taker's x", COLORS["marker"])],
    )
