"""Charts of the race page, built as plotly dicts (pure: no streamlit).

One chart per builder; :func:`ui.widgets.chart` restyles it for presenter mode, which
leaves out the traces marked ``detail`` (reference lines and contours).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import pandas as pd

from cubecore.janowski import CubePosition
from ui.charts import Chart, ViewMarker, gapped_line
from ui.style import (
    COLORS,
    DETAIL,
    LABEL_BOX,
    Curve,
    Figure,
    Layout,
    Trace,
    bar,
    base_layout,
    figure,
    line,
    staggered_markers,
    vertical_marker,
    with_markers,
)

if TYPE_CHECKING:  # the cached data's shapes; no streamlit import at run time
    from ui.race.data import ActionMap, RulesMap, WinMap

#: Colours of the exact cube actions (index = action code).
ACTION_COLORS = ("#d9d9d9", COLORS["double"], COLORS["cash"], "#b7e4b0")
#: Colours of the rules-of-thumb comparison categories (index = code).
RULE_COLORS = ("#d9d9d9", "#ff7f0e", "#1f77b4", "#d62728", "#9467bd")
_CUBE_NAMES = {
    "center": "cube centred",
    "owned": "roller owns the cube",
    "opponent": "opponent owns the cube",
}
#: The marker at the view's pip count.
COUNT = ViewMarker("count", "count {}")


def _layout(title: str, x_title: str, y_title: str) -> Layout:
    """The house layout."""
    return base_layout(title, x_title, y_title)


def _discrete_colorscale(colors: tuple[str, ...]) -> list[list[float | str]]:
    """A stepwise colorscale: code ``k`` (0..n-1) gets ``colors[k]``."""
    n = len(colors)
    scale: list[list[float | str]] = []
    for k, color in enumerate(colors):
        scale += [[k / n, color], [(k + 1) / n, color]]
    return scale


def _category_heatmap(
    counts: Sequence[int],
    z: Sequence[Sequence[float]],
    labels: Sequence[str],
    colors: tuple[str, ...],
) -> Trace:
    """Heatmap trace of integer codes with a labelled, stepwise colour bar."""
    n = len(colors)
    return {
        "type": "heatmap",
        "x": counts,
        "y": counts,
        "z": z,
        "zmin": -0.5,
        "zmax": n - 0.5,
        "colorscale": _discrete_colorscale(colors),
        "colorbar": {
            "tickvals": list(range(n)),
            "ticktext": list(labels),
            "len": 0.9,
            "thickness": 12,
        },
        "hovertemplate": "your count %{x}<br>opponent's count %{y}<extra></extra>",
    }


def _position_marker(x: int, y: int) -> Trace:
    return {
        "type": "scatter",
        "mode": "markers",
        "name": f"{x} v {y}",
        "x": [x],
        "y": [y],
        # an open ring: a contour's label that lands on the position stays readable
        # on the map's own colour inside it (a filled cross hid it under black)
        "marker": {
            "color": COLORS["marker"],
            "size": 14,
            "symbol": "circle-open",
            "line": {"color": COLORS["marker"], "width": 2},
        },
    }


#: The lead maps' colour scale: blue (low) through white to red (high), the middle of
#: ColorBrewer's RdBu (Harrower & Brewer, "ColorBrewer.org", The Cartographic Journal 40,
#: 2003, https://colorbrewer2.org), whose darkest stops would hide the black contour
#: labels: every colour here has at least 5.6:1 contrast with black.
_LEAD_SCALE = [
    [0.0, "rgb(67, 147, 195)"],
    [1 / 6, "rgb(146, 197, 222)"],
    [2 / 6, "rgb(209, 229, 240)"],
    [3 / 6, "rgb(247, 247, 247)"],
    [4 / 6, "rgb(253, 219, 199)"],
    [5 / 6, "rgb(244, 165, 130)"],
    [1.0, "rgb(214, 96, 77)"],
]


def _lead_heatmap(
    data: Mapping[str, object],
    column: str,
    high: float,
    unit: str,
    value_hover: str,
    *,
    low: float = 0,
) -> Trace:
    """A blue-red heatmap of ``data[column]`` over (your count, lead), from low to high."""
    return {
        "type": "heatmap",
        "x": data["counts"],
        "y": data["leads"],
        "z": data[column],
        "zmin": low,
        "zmax": high,
        "colorscale": _LEAD_SCALE,
        "colorbar": {"title": {"text": unit}},
        "hovertemplate": f"your count %{{x}}<br>lead %{{y}}<br>{value_hover}<extra></extra>",
    }


def _square_map_layout(title: str) -> Layout:
    layout = _layout(title, "your count (on roll)", "opponent's count")
    layout["yaxis"]["scaleanchor"] = "x"
    layout["xaxis"]["constrain"] = "domain"
    layout["yaxis"]["constrain"] = "domain"
    layout["height"] = 540
    layout["hovermode"] = "closest"
    layout["legend"] = {"orientation": "h", "y": -0.18}
    return layout


# ----------------------------------------------------------------------------- section 1


def roll_totals_figure(totals: pd.DataFrame) -> Figure:
    """Bar chart of the one-roll total distribution (out of 36)."""
    trace = bar(
        [str(t) for t in totals["total"]],
        totals["ways"].astype(int).tolist(),
        "ways out of 36",
        COLORS["center"],
        "total %{x}: %{y} of 36<extra></extra>",
    )
    return figure(
        [trace],
        "One roll: dice total (doubles count four times)",
        "total pips",
        "ways out of 36",
        xaxis={"type": "category"},
    )


def bearoff_figure(frame: pd.DataFrame, x: int, y: int) -> Figure:
    """Chance of bearing off in exactly n rolls, for both counts."""
    traces = [
        {
            "type": "bar",
            "x": frame["rolls"].tolist(),
            "y": frame[column].tolist(),
            "name": f"{label} ({count} pips)",
            "marker": {"color": color},
        }
        for column, label, count, color in (
            ("you", "you", x, COLORS["owned"]),
            ("opponent", "opponent", y, COLORS["opponent"]),
        )
    ]
    layout = _layout("P(x, n): off in exactly n rolls", "rolls n", "probability")
    layout["barmode"] = "group"
    return {"data": traces, "layout": layout}


def _contour_labels(data: WinMap) -> list[dict[str, object]]:
    """The 10% contours' labels, each where its line meets the map's right edge (the
    largest count), in a box of the page's colour: plotly's own labels on the lines can
    land under the position's marker."""
    column = [row[-1] for row in data["z"]]
    leads = data["leads"]
    labels: list[dict[str, object]] = []
    for level in range(10, 100, 10):
        for i in range(len(column) - 1):
            low, high = column[i], column[i + 1]
            if math.isnan(low) or math.isnan(high) or low == high:
                continue
            if min(low, high) <= level < max(low, high):
                share = (level - low) / (high - low)
                labels.append(
                    {
                        "x": data["counts"][-1],
                        "y": leads[i] + share * (leads[i + 1] - leads[i]),
                        "text": f"{level}%",
                        "xanchor": "right",
                        "showarrow": False,
                        "font": {"size": 11},
                        "bgcolor": LABEL_BOX,
                    }
                )
                break
    return labels


def win_map_figure(data: WinMap, x: int, lead: int) -> Figure:
    """Heatmap of the roller's win chance over (your count, lead)."""
    trace = _lead_heatmap(data, "z", 100, "win %", "win %{z:.1f}%")
    contour = {
        "type": "contour",
        "x": data["counts"],
        "y": data["leads"],
        "z": data["z"],
        "contours": {"coloring": "none", "showlabels": False, "start": 10, "end": 90, "size": 10},
        "line": {"color": "black", "width": 1},
        "showscale": False,
        "hoverinfo": "skip",
        "name": "10% steps",
        "meta": DETAIL,
    }
    layout = _layout("Win chance of the player on roll", "your count", "lead (opponent - you)")
    layout["hovermode"] = "closest"
    layout["annotations"] = _contour_labels(data)
    traces = [trace, contour]
    marker = _position_marker(x, lead)
    marker["name"] = f"you: {x}, lead {lead:+d}"
    return {"data": [*traces, marker], "layout": layout}


# ----------------------------------------------------------------------------- section 2


def cube_win_figure(curves: pd.DataFrame, points: dict[str, float], da: float, db: float) -> Figure:
    """A's winning chance in the three cube states, formulas (1)-(3), against p."""
    traces = [  # domains end where a player is doubled out: gaps beyond
        gapped_line(curves["p"], curves[cube], label, COLORS[cube])
        for cube, label in (
            ("owned", "p(t, A): A owns the cube, (1)"),
            ("center", "p(t, M): cube centred, (3)"),
            ("opponent", "p(t, B): B owns the cube, (2)"),
        )
    ]
    traces.append(line(curves["p"], curves["p"], "p (no cube)", COLORS["dead"], dash="dash"))
    shapes, notes = staggered_markers(
        [
            (points["minimum_take_point"], "take M", COLORS["take"]),
            (points["initial_double_point"], "double (6)", COLORS["double"]),
            (points["redouble_point"], "redouble (5)", COLORS["redouble"]),
        ]
    )
    layout = _layout(
        f"Winning chances with the cube, DA = {da:.3f}, DB = {db:.3f}",
        "A's cubeless winning chance p",
        "A's winning chance",
    )
    layout.update(shapes=shapes, annotations=notes)
    layout["yaxis"]["range"] = [0, 1.02]
    return {"data": traces, "layout": layout}


# ----------------------------------------------------------------------------- section 3


def action_map_figure(
    data: ActionMap,
    thresholds: pd.DataFrame,
    cube: CubePosition,
    x: int,
    y: int,
    labels: tuple[str, ...],
) -> Figure:
    """Exact cube action over (your count, opponent's count) with the threshold lines."""
    traces = [_category_heatmap(data["counts"], data["z"], labels, ACTION_COLORS)]
    counts = thresholds["your_count"]
    lines = [("last_take", "last take", COLORS["take"])]
    if cube == "owned":
        lines.append(("first_redouble", "first redouble", COLORS["redouble"]))
    elif cube == "center":
        lines.append(("first_double", "first double", COLORS["marker"]))
    if cube != "opponent":
        for column, label, color in lines:
            boundary = counts + thresholds[column]
            traces.append(gapped_line(counts, boundary, label, color, dash="dot", detail=True))
            traces[-1]["line"]["shape"] = "hv"
    traces.append(_position_marker(x, y))
    layout = _square_map_layout(f"Exact cube action, {_CUBE_NAMES[cube]}")
    top = max(data["counts"])
    layout["xaxis"]["range"] = [0.5, top + 0.5]
    layout["yaxis"]["range"] = [0.5, top + 0.5]
    return {"data": traces, "layout": layout}


def thresholds_figure(thresholds: pd.DataFrame, printed: pd.DataFrame, x: int) -> Figure:
    """Exact take/redouble/double offsets against the count, Table 3 printed as markers."""
    series = (
        ("last_take", "minimum_take", "last take", COLORS["take"]),
        ("first_redouble", "redouble", "first redouble", COLORS["redouble"]),
        ("first_double", "double", "first double", COLORS["double"]),
    )
    traces = []
    for exact, shown, label, color in series:
        trace = gapped_line(thresholds["your_count"], thresholds[exact], f"{label} (exact)", color)
        trace["line"]["shape"] = "hv"
        traces.append(trace)
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "x": printed["your_count"].tolist(),
                "y": printed[shown].astype(float).tolist(),
                "name": f"{label} (Table 3, printed)",
                "marker": {"color": color, "size": 9, "symbol": "diamond"},
            }
        )
    layout = _layout(
        "Thresholds as offsets (opponent's count - yours)",
        "your count",
        "offset in pips",
    )
    with_markers(
        layout,
        vertical_marker(x, "your count", COLORS["marker"], text=f"count {x}"),
    )
    return {"data": traces, "layout": layout}


# ----------------------------------------------------------------------------- section 4


#: The doubling points the exact race implies along even races.
IMPLIED_POINTS = Chart(
    "Effective doubling points implied by the exact race (even races)",
    curves=(
        Curve("da", "DA from (1), cube owned", COLORS["owned"]),
        Curve("db", "DB from (2), opponent owns", COLORS["opponent"]),
        Curve("da_center", "DA from (3), cube centred", COLORS["center"], "dash", detail=True),
    ),
    x="count",
    x_title="count (both sides)",
    y_title="A's winning chance",
    marker=COUNT,
    gaps=True,
)
#: The Janowski cube life the exact race implies, by the roller's count.
CUBE_LIFE = Chart(
    "Cube life x, {cube}, lead {lead:+d}",
    curves=(Curve("cube_life", "implied by the exact race", COLORS["live"]),),
    x="on_roll",
    x_title="your pip count",
    y_title="cube life x",
    marker=COUNT,
    y_range=(0, 1.05),
    gaps=True,
)


def implied_points_figure(frame: pd.DataFrame, x: int) -> Figure:
    """Implied DA, DB along even races, with the paper's estimates as markers."""
    estimates = {
        "type": "scatter",
        "mode": "markers",
        "x": [20, 40, 20, 40],
        "y": [0.90, 0.88, 0.10, 0.12],
        "name": "paper's estimates (p. 2)",
        "marker": {
            "color": COLORS["marker"],
            "size": 9,
            "symbol": "diamond",
        },
    }
    return IMPLIED_POINTS.draw(frame, x, more=[estimates])


def cube_life_figure(frame: pd.DataFrame, x: int, lead: int, cube: CubePosition) -> Figure:
    """Implied Janowski cube life against the roller's pip count, GNU BG's rule beside."""
    gnubg = line(frame["on_roll"], frame["gnubg"], "GNU BG race rule", COLORS["dead"], dash="dash")
    return CUBE_LIFE.draw(frame, x, more=[gnubg], words={"cube": _CUBE_NAMES[cube], "lead": lead})


def _lead_map_layout(title: str) -> Layout:
    layout = _layout(title, "your count (on roll)", "lead (opponent - you)")
    layout["hovermode"] = "closest"
    layout["height"] = 440
    return layout


def rules_map_figure(
    data: RulesMap, labels: tuple[str, ...], cube: CubePosition, x: int, y: int
) -> Figure:
    """Where the 8-9-12 rule agrees with the exact cube action, over (count, lead)."""
    heatmap = _category_heatmap(data["counts"], data["code"], labels, RULE_COLORS)
    heatmap["y"] = data["leads"]
    heatmap["hovertemplate"] = "your count %{x}<br>lead %{y}<extra></extra>"
    marker = _position_marker(x, y - x)
    layout = _lead_map_layout(f"8-9-12 rule against the exact action, {_CUBE_NAMES[cube]}")
    return {"data": [heatmap, marker], "layout": layout}


def kleinman_figure(data: RulesMap, x: int, y: int) -> Figure:
    """Kleinman's win chance minus the exact one, in percentage points, over (count, lead)."""
    trace = _lead_heatmap(data, "kleinman_error", 3, "points", "Kleinman - exact %{z:+.2f}", low=-3)
    layout = _lead_map_layout("Kleinman's formula minus the exact win chance")
    return {"data": [trace, _position_marker(x, y - x)], "layout": layout}
