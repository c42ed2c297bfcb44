"""Figures of the match-play page, built as plotly dicts (no streamlit import)."""

from __future__ import annotations

import math
from typing import Any, cast

import pandas as pd

from ui.charts import Chart, ViewMarker
from ui.style import (
    COLORS,
    DETAIL,
    LABEL_BOX,
    Curve,
    Figure,
    bar,
    base_layout,
    curves,
    figure,
    line,
    line_width,
    vertical_marker,
    with_markers,
)

#: Take-point kinds on the charts: field -> (label, colour, dash).
TAKE_SERIES = {
    "model": ("model", COLORS["take"], "solid"),
    "live": ("live recursion", COLORS["live"], "dash"),
    "dead": ("dead cube", COLORS["dead"], "dot"),
    "dead_gammon": ("dead cube, gammons", COLORS["double"], "dashdot"),
}
#: The take points presenter mode keeps on the take-point chart.
_PRESENTED_TAKES = ("model", "dead")
#: The marker at the trailer's score.
TRAILER = ViewMarker("trailer", "{}-away")
_REGIONS = (
    ("no double", COLORS["dead"]),
    ("double / take", COLORS["double"]),
    ("double / pass", COLORS["cash"]),
)


#: An axis of match winning chances (0 to 1) read in percent: ticks 0% to 100%, hover
#: values to two decimals (35.20%).
PERCENT_AXIS = {"tickformat": ".0%", "hoverformat": ".2%"}


def _score_marker(x: float, y: float, name: str) -> dict[str, Any]:
    return {
        "type": "scatter",
        "mode": "markers",
        "name": name,
        "x": [x],
        "y": [y],
        "marker": {"color": COLORS["marker"], "size": 11, "symbol": "x"},
    }


def row_figure(
    table: pd.DataFrame,
    dead_table: pd.DataFrame,
    away: int,
    opp_away: int,
    chosen: tuple[str, pd.Series] | None = None,
) -> Figure:
    """Your match winning chance against every opponent's score, your score fixed.

    ``chosen`` (the chosen table's name, plain text for a chart, and your row of it,
    indexed by the opponent's away) is drawn first; then the model's ``table``;
    ``dead_table`` (the model at cube efficiency 0) is drawn for comparison (a detail:
    presenter mode leaves it out).
    """
    columns = [int(c) for c in table.columns]
    first = []
    if chosen is not None:
        name, row = chosen
        first = [line(list(map(int, row.index)), row, f"{name}", COLORS["take"])]
    traces = [
        *first,
        line(columns, table.loc[away], f"you {away}-away, model", COLORS["center"]),
        line(
            columns,
            dead_table.loc[away],
            f"you {away}-away, dead cube (x = 0)",
            COLORS["dead"],
            dash="dash",
            detail=True,
        ),
        _score_marker(
            opp_away, float(cast(float, table.loc[away, opp_away])), f"{away}/{opp_away}"
        ),
    ]
    layout = base_layout(
        f"Your match winning chance, {away}-away, against the opponent's score",
        "opponent's points to go",
        "match winning chance",
    )
    layout["yaxis"].update(range=[0, 1], **PERCENT_AXIS)
    return {"data": traces, "layout": layout}


def take_points_row_figure(frame: pd.DataFrame, opp_away: int) -> Figure:
    """Your take points (dead, gammon, live, model) against the doubler's score.

    Presenter mode keeps the model and the dead cube (the others are details).
    """
    traces = [
        line(
            frame["opp_away"],
            frame[kind],
            TAKE_SERIES[kind][0],
            TAKE_SERIES[kind][1],
            dash=TAKE_SERIES[kind][2],
            detail=kind not in _PRESENTED_TAKES,
        )
        for kind in TAKE_SERIES
    ]
    away = int(frame["away"].iloc[0])
    layout = base_layout(
        f"Your take point, {away}-away, against the doubler's score",
        "doubler's points to go",
        "your minimum game winning chance to take",
    )
    with_markers(
        layout, vertical_marker(opp_away, "doubler", COLORS["marker"], text=f"{opp_away}-away")
    )
    layout["yaxis"].update(PERCENT_AXIS)
    return {"data": traces, "layout": layout}


def market_window_figure(
    doubling_point: float,
    cash_point: float,
    title: str = "The model's market window",
) -> Figure:
    """The doubler's market window as one horizontal bar on his game winning chance.

    ``doubling_point`` is ``nan`` where the doubler never doubles: the whole bar
    up to the cash point is then "no double".
    """
    start = cash_point if math.isnan(doubling_point) else min(doubling_point, cash_point)
    widths = (start, cash_point - start, 1.0 - cash_point)
    traces = []
    labels: list[dict[str, Any]] = []
    left = 0.0
    for (name, color), width in zip(_REGIONS, widths, strict=True):
        traces.append(
            {
                "type": "bar",
                "orientation": "h",
                "name": name,
                "x": [width],
                "y": ["doubler"],
                "base": [left],
                "marker": {"color": color},
                "hovertemplate": f"{name}: {left:.2%} to {left + width:.2%}<extra></extra>",
            }
        )
        if width > 0.04:  # a region's name and range in a box of the page's colour
            labels.append(
                {
                    "x": left + width / 2,
                    "y": "doubler",
                    "text": f"{name}<br>{left:.2%}-{left + width:.2%}",
                    "showarrow": False,
                    "font": {"size": 12},
                    "bgcolor": LABEL_BOX,
                }
            )
        left += width
    layout = base_layout(
        title,
        "doubler's game winning chance",
        "",
    )
    layout.update(
        barmode="stack",
        height=240,
        hovermode="closest",
        showlegend=False,
    )
    layout["xaxis"].update(range=[0, 1], **PERCENT_AXIS)
    layout["yaxis"].update(showticklabels=False, zeroline=False)
    layout["margin"] = {"l": 20, "r": 20, "t": 70, "b": 50}  # room for a two-line title
    layout["annotations"] = [*layout.get("annotations", []), *labels]
    return {"data": traces, "layout": layout}


#: The leader's match winning chance with and without the Crawford rule.
CRAWFORD = Chart(
    "How the Crawford rule protects the leader (leader 1-away)",
    curves=(
        Curve("crawford", "Crawford game (no cube)", COLORS["owned"]),
        Curve(
            "no_crawford_rule",
            "without the rule (trailer doubles at once)",
            COLORS["opponent"],
            "dash",
        ),
    ),
    x="opp_away",
    x_title="trailer's points to go",
    y_title="leader's match winning chance",
    marker=TRAILER,
)
#: What the Holland rule costs the trailer (bars: no curves).
HOLLAND = Chart(
    "The Holland rule: change in the trailer's match winning chance",
    curves=(),
    x="opp_away",
    x_title="trailer's points to go (leader 1-away, post-Crawford)",
    y_title="percentage points",
    marker=TRAILER,
)


def crawford_figure(frame: pd.DataFrame, trailer: int) -> Figure:
    """Leader's MWC in the Crawford game and in the same game without the rule.

    The protection (their difference) is drawn as bars, a detail presenter mode
    leaves out.
    """
    protection = {
        "type": "bar",
        "name": "protection (difference)",
        "x": list(map(int, frame["opp_away"])),
        "y": list(map(float, frame["protection"])),
        "marker": {"color": COLORS["too_good"]},
        "opacity": 0.6,
        "meta": DETAIL,
    }
    drawn = CRAWFORD.draw(frame, trailer, more=[protection])
    drawn["layout"]["yaxis"].update(PERCENT_AXIS)
    return drawn


def holland_figure(sweep: pd.DataFrame, trailer: int) -> Figure:
    """What the Holland rule costs the post-Crawford trailer, in percentage points."""
    change = [100.0 * float(v) for v in sweep["trailer_change"]]
    trace = bar(
        list(map(int, sweep["opp_away"])),
        change,
        "trailer's MWC change",
        COLORS["opponent"],
        "trailer %{x}-away: %{y:.3f} points<extra></extra>",
    )
    return HOLLAND.draw(sweep, trailer, more=[trace], hovermode="closest")


def heatmap_figure(
    grid: pd.DataFrame,
    title: str,
    value_name: str,
    marked: tuple[int, int] | None,
    *,
    colorscale: str = "RdBu",
    percent: bool = False,
) -> Figure:
    """A score-by-score heatmap: rows your points to go, columns the opponent's.

    ``grid`` is indexed by your away-score with the opponent's as columns;
    ``marked`` (your away, opponent's away) is drawn as a cross when inside;
    ``percent``: the values are chances (match winning chances, take points), read in
    percent.
    """
    number = "%{z:.2%}" if percent else "%{z:.4f}"
    rows = [int(cast(int, r)) for r in grid.index]
    columns = [int(cast(int, c)) for c in grid.columns]
    values = grid.to_numpy(dtype=float)
    z = [[None if math.isnan(v) else float(v) for v in line] for line in values]
    traces: list[dict[str, Any]] = [
        {
            "type": "heatmap",
            "x": columns,
            "y": rows,
            "z": z,
            "colorscale": colorscale,
            "colorbar": {"title": {"text": value_name}},
            "hovertemplate": "you %{y}-away, opponent %{x}-away<br>"
            + value_name
            + f" {number}<extra></extra>",
        }
    ]
    if colorscale == "RdBu":  # match winning chances: 1/2 in the middle of the scale
        traces[0].update(zmin=0.0, zmax=1.0)
    if percent:
        traces[0]["colorbar"]["tickformat"] = ".0%"
    if marked is not None and marked[0] in rows and marked[1] in columns:
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "name": f"{marked[0]}/{marked[1]}",
                "x": [marked[1]],
                "y": [marked[0]],
                "marker": {
                    "color": COLORS["marker"],
                    "size": 12,
                    "symbol": "x",
                    "line": {"width": line_width(False)},
                },
                "showlegend": False,
            }
        )
    layout = base_layout(title, "opponent's points to go", "your points to go")
    layout["yaxis"].update(
        range=[max(rows) + 0.5, min(rows) - 0.5], dtick=1 if len(rows) <= 15 else 2
    )
    layout["xaxis"].update(
        range=[min(columns) - 0.5, max(columns) + 0.5], dtick=1 if len(columns) <= 15 else 2
    )
    layout.update(hovermode="closest", height=620)
    return {"data": traces, "layout": layout}


def difference_heatmap_figure(
    grid: pd.DataFrame, title: str, value_name: str, marked: tuple[int, int] | None
) -> Figure:
    """A score-by-score heatmap of a signed difference, 0 in the middle of the scale."""
    figure = heatmap_figure(grid, title, value_name, marked, colorscale="PuOr")
    figure["data"][0]["zmid"] = 0.0
    return figure


def gammon_value_heatmap_figure(
    grid: pd.DataFrame,
    title: str,
    marked: tuple[int, int] | None,
    bounds: tuple[float, ...],
    classes: tuple[str, ...],
) -> Figure:
    """Gammon values by score, the colour stepping at the class bounds.

    ``bounds`` are the upper bounds of every class but the last (``classes`` has one
    more entry); the scale runs from 0 to the last bound plus its last step, and a
    value above it takes the top colour.
    """
    top = bounds[-1] + (bounds[-1] - bounds[-2])
    edges = (0.0, *bounds, top)
    palette = ("#7f7f7f", "#9ecae1", "#2ca02c", "#ff7f0e", "#d62728")
    scale: list[list[float | str]] = []
    for index, color in enumerate(palette[: len(classes)]):
        scale.append([edges[index] / top, color])
        scale.append([edges[index + 1] / top, color])
    figure = heatmap_figure(grid, title, "gammon value", marked, colorscale="Viridis")
    trace = figure["data"][0]
    trace.update(colorscale=scale, zmin=0.0, zmax=top)
    trace["colorbar"].update(
        tickvals=[(edges[i] + edges[i + 1]) / 2 for i in range(len(classes))],
        ticktext=list(classes),
    )
    return figure


def free_drop_figure(frame: pd.DataFrame) -> Figure:
    """The selective drop's value to the leader by the trailer's away score (pp)."""
    traces = curves(
        frame,
        "trailer_away",
        Curve("model_value_pp", "model", COLORS["take"]),
        Curve("table_implied_pp", "the table's implied value", COLORS["center"], "dash"),
        Curve(
            "model_on_table_pp",
            "model on the table's lower entries",
            COLORS["dead"],
            "dot",
            detail=True,
        ),
    )
    for trace in traces:
        trace["mode"] = "lines+markers"
    return figure(
        traces,
        "The leader's selective drop, post-Crawford: its value by the trailer's score",
        "trailer's points to go (leader 1-away)",
        "value to the leader (percentage points of MWC)",
    )
