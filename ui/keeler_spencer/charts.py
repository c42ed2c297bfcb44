"""Figures of the Keeler-Spencer page, built as plotly dicts (no streamlit here)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any, cast

import numpy as np
import pandas as pd

from cubecore.keeler_spencer import ALTERNATING_DOUBLING_POINT as POINT
from ui.charts import Chart, ViewMarker
from ui.style import (
    COLORS,
    LABEL_BOX,
    MARKER_LABEL,
    Curve,
    Figure,
    Shape,
    Trace,
    base_layout,
    line,
    line_width,
    lines_by,
    vertical_marker,
    with_markers,
)

#: B's doubling point in A's chance (1 - 0.8), as a clean decimal for the chart.
B_POINT = round(1.0 - POINT, 12)
_EVENT_SYMBOLS = {"doubles": "triangle-up", "takes": "circle", "drops": "x", "wins": "star"}
_PLAYER_COLORS = {"A": COLORS["center"], "B": COLORS["opponent"]}
#: Heatmaps larger than this (cells per side) show no numbers in the cells.
_MAX_LABELLED_SIDE = 12
#: Trees with more nodes than this show only node names, not values.
_MAX_LABELLED_NODES = 31


def _event_text(player: str, action: str, stakes: float) -> str:
    """Short label of a cube action on the path (takes are implied by the next double)."""
    if action == "doubles":
        return f"{player} doubles to {stakes:g}"
    if action == "takes":
        return ""
    return f"{player} {action}" + (f" {stakes:g}" if action == "wins" else "")


def _horizontal_marker(y: float, label: str, color: str, *, outside: bool = False) -> list[Shape]:
    """A labelled horizontal line: a shape plus its label, at the left edge or outside right."""
    shape = {
        "type": "line",
        "xref": "paper",
        "x0": 0,
        "x1": 1,
        "y0": y,
        "y1": y,
        "line": {"color": color, "width": 1.5, "dash": "dash"},
    }
    note = {
        "xref": "paper",
        "x": 1.0 if outside else 0.0,
        "y": y,
        "text": label,
        "name": MARKER_LABEL,
        "showarrow": False,
        "xanchor": "left",
        "yanchor": "middle" if outside else "bottom",
        "font": {"size": 11, "color": color},
    }
    return [shape, note]


def path_figure(
    path: pd.DataFrame,
    actions: pd.DataFrame,
    double_point: float,
    progress: int,
) -> Figure:
    """The P-game indicator over time with the doubling and folding thresholds and cube actions.

    ``progress`` (percent) is how much of the path is drawn: a step control.
    """
    shown = max(1, math.ceil(len(path) * progress / 100))
    part = path.iloc[:shown]
    traces = [line(part["time"], part["p"], "A's winning chance p(t)", COLORS["center"])]
    events = actions[(actions["step"] < shown) & (actions["action"] != "takes")]
    for player, group in events.groupby("player", sort=False):
        traces.append(
            {
                "type": "scatter",
                "mode": "markers+text",
                "name": f"{player}'s cube actions",
                "x": [float(path["time"].iloc[s]) for s in group["step"]],
                "y": group["p"].astype(float).tolist(),
                "text": [
                    _event_text(cast(str, player), act, s)
                    for act, s in zip(group["action"], group["stakes"], strict=True)
                ],
                "textposition": "top center" if player == "A" else "bottom center",
                "marker": {
                    "color": _PLAYER_COLORS[cast(str, player)],
                    "size": 10,
                    "symbol": [_EVENT_SYMBOLS[a] for a in group["action"]],
                },
            }
        )
    markers = [
        _horizontal_marker(
            double_point,
            f"A doubles {double_point:.2f}",
            COLORS["double"],
            outside=True,
        ),
        _horizontal_marker(B_POINT, f"B doubles {B_POINT:.2f}", COLORS["take"], outside=True),
    ]
    if abs(double_point - POINT) > 1e-9:
        markers.append(
            _horizontal_marker(POINT, f"B drops > {POINT:.2f}", COLORS["cash"], outside=True)
        )
    layout = base_layout(
        "A seeded path of the P-game", "time t (step × h²)", "A's winning chance p"
    )
    layout["yaxis"].update(range=[-0.02, 1.02])
    layout["xaxis"]["range"] = [0.0, float(path["time"].iloc[-1]) or 1.0]
    layout["hovermode"] = "closest"
    layout["margin"] = {**layout["margin"], "r": 110}
    return {"data": traces, "layout": with_markers(layout, *markers)}


def _estimate_point(name: str, games: int, x: float, interval: tuple[float, float, float]) -> Trace:
    """A Monte Carlo estimate at ``x`` with its 95% interval ``(low, mean, high)`` as error bars."""
    low, mean, high = interval
    return {
        "type": "scatter",
        "mode": "markers",
        "name": f"{name}, Monte Carlo ({games:,} games, 95% CI)",
        "x": [x],
        "y": [mean],
        "error_y": {
            "type": "data",
            "symmetric": False,
            "array": [high - mean],
            "arrayminus": [mean - low],
            "thickness": line_width(False),
        },
        "marker": {"color": COLORS["marker"], "size": 8},
    }


def take_check_figure(check: Mapping[str, Any]) -> Figure:
    """Taker's value of taking (3 - 5d, exact) and dropping (-1) against the doubling point d,
    with the Monte Carlo estimate and its 95% interval at the chosen d."""
    d = np.linspace(0.21, 0.99, 79)
    estimate = check["take_estimate"]
    traces = [
        line(d, 3 - 5 * d, "take, exact (3 − 5d)", COLORS["take"]),
        line(d, np.full_like(d, -1.0), "drop (−K)", COLORS["dead"], dash="dash"),
        _estimate_point(
            "take",
            estimate["n_games"],
            check["double_point"],
            (estimate["low"], estimate["mean"], estimate["high"]),
        ),
    ]
    layout = base_layout(
        "Taker's value when doubled at d (units of K)",
        "doubling point d (A's chance)",
        "taker's value",
    )
    return {
        "data": traces,
        "layout": with_markers(layout, vertical_marker(POINT, f"{POINT:.0%}", COLORS["cash"])),
    }


def price_figure(curve: pd.DataFrame, price: Mapping[str, Any]) -> Figure:
    """Exact loss of doubling at d instead of 80% (from an even game), with the MC estimate at d."""
    groups = [
        (False, "loss, exact, no beavers", COLORS["center"]),
        (True, "loss, exact, beavers", COLORS["beaver"]),
    ]
    traces = lines_by(curve, "beavers", "double_point", "loss", groups)
    estimate = price["estimate"]
    optimal = price["equity_optimal"]
    loss = optimal - estimate["mean"]
    # a loss is the optimal equity minus the estimate: the interval turns round
    interval = (optimal - estimate["high"], loss, optimal - estimate["low"])
    traces.append(_estimate_point("loss", estimate["n_games"], price["double_point"], interval))
    layout = base_layout(
        "What A loses by doubling at d instead of 80% (from p = 1/2)",
        "A's doubling point d",
        "loss (units of K)",
    )
    markers = [vertical_marker(price["double_point"], "d", COLORS["marker"])]
    return {"data": traces, "layout": with_markers(layout, *markers)}


def limited_figure(points: pd.DataFrame) -> Figure:
    """First doubling point against the total number of doubles n, with the limit 4/5."""
    trace = line(
        points["n"],
        points["doubling_point"],
        "α(n) = 4/5 + (−1)ⁿ/(4ⁿ·5)",
        COLORS["double"],
    )
    trace["mode"] = "lines+markers"
    layout = base_layout(
        "First doubling point with at most n doubles in total",
        "n (doubles allowed in total)",
        "A's winning chance",
    )
    marker = _horizontal_marker(POINT, f"unlimited: {POINT:g}", COLORS["cash"])
    return {"data": [trace], "layout": with_markers(layout, marker)}


def _axis_labels(values: Iterable[float | str]) -> list[str]:
    # float labels at run time; pandas-stubs types a frame's labels as str
    return [f"{float(v):.3g}" for v in values]


def heatmap_figure(
    table: pd.DataFrame,
    title: str,
    *,
    value_range: tuple[float, float],
    colorscale: str,
    digits: int,
    mark: tuple[object, object] | None = None,
) -> Figure:
    """A table as a heatmap: rows down (A), columns across (B), numbers in small tables.

    ``mark`` outlines one cell given by its row and column labels when they are in the table.
    """
    x = (
        _axis_labels(table.columns)
        if table.columns.dtype.kind == "f"
        else [str(c) for c in table.columns]
    )
    y = (
        _axis_labels(table.index)
        if table.index.dtype.kind == "f"
        else [str(r) for r in table.index]
    )
    trace = {
        "type": "heatmap",
        "x": x,
        "y": y,
        "z": table.to_numpy(dtype=float).round(6).tolist(),
        "zmin": value_range[0],
        "zmax": value_range[1],
        "colorscale": colorscale,
        "hovertemplate": (
            f"{table.index.name}=%{{y}}, {table.columns.name}=%{{x}}: "
            f"%{{z:.{digits}f}}<extra></extra>"
        ),
        "colorbar": {"thickness": 12},
    }
    if max(table.shape) <= _MAX_LABELLED_SIDE:
        trace["texttemplate"] = f"%{{z:.{digits}f}}"
        trace["textfont"] = {"size": 10}
    layout = base_layout(title, f"{table.columns.name} (B)", f"{table.index.name} (A)")
    layout["xaxis"].update(type="category")
    layout["yaxis"].update(type="category", autorange="reversed")
    layout["margin"] = {"l": 60, "r": 20, "t": 60, "b": 50}
    layout["hovermode"] = "closest"
    if mark is not None and mark[0] in table.index and mark[1] in table.columns:
        row = cast(int, table.index.get_loc(mark[0]))  # unique labels: one position
        col = cast(int, table.columns.get_loc(mark[1]))
        layout["shapes"] = [
            {
                "type": "rect",
                "x0": col - 0.5,
                "x1": col + 0.5,
                "y0": row - 0.5,
                "y1": row + 0.5,
                "line": {"color": COLORS["marker"], "width": 3},
            }
        ]
    return {"data": [trace], "layout": layout}


def probability_map(table: pd.DataFrame, title: str, mark: tuple[object, object] | None) -> Figure:
    """A table of A's winning chances (raising points) as a heatmap, 0 to 1."""
    return heatmap_figure(
        table, title, value_range=(0.0, 1.0), colorscale="Viridis", digits=4, mark=mark
    )


def value_map(table: pd.DataFrame, title: str, mark: tuple[object, object] | None) -> Figure:
    """A table of A's even-game values as a heatmap, -1 to 1."""
    return heatmap_figure(
        table, title, value_range=(-1.0, 1.0), colorscale="RdBu", digits=3, mark=mark
    )


def _tree_positions(nodes: pd.DataFrame, edges: pd.DataFrame) -> dict[int, tuple[float, float]]:
    """x = depth, y = leaves spread evenly and each parent centred over its children."""
    children: dict[int, list[int]] = {}
    for parent, child in zip(edges["parent"], edges["child"], strict=True):
        children.setdefault(int(parent), []).append(int(child))
    y: dict[int, float] = {}
    next_leaf = [0.0]

    def place(node: int) -> float:
        kids = children.get(node, [])
        if not kids:
            y[node] = next_leaf[0]
            next_leaf[0] += 1.0
        else:
            y[node] = sum(place(kid) for kid in kids) / len(kids)
        return y[node]

    place(0)
    depth = dict(zip(nodes["node"].astype(int), nodes["depth"].astype(int), strict=True))
    return {node: (float(depth[node]), -y[node]) for node in y}


def tree_figure(nodes: pd.DataFrame, edges: pd.DataFrame) -> Figure:
    """[KS69] Fig. 1: the game tree after alpha(i, j), node state and value, edge probabilities."""
    where = _tree_positions(nodes, edges)
    labelled = len(nodes) <= _MAX_LABELLED_NODES
    edge_x, edge_y, notes = [], [], []
    for parent, child, prob in zip(
        edges["parent"], edges["child"], edges["probability_exact"], strict=True
    ):
        (x0, y0), (x1, y1) = where[int(parent)], where[int(child)]
        edge_x += [x0, x1, None]
        edge_y += [y0, y1, None]
        if labelled:
            notes.append(
                {
                    "x": (x0 + x1) / 2,
                    "y": (y0 + y1) / 2,
                    "text": prob,
                    "showarrow": False,
                    "font": {"size": 11, "color": COLORS["dead"]},
                    "bgcolor": LABEL_BOX,
                }
            )
    colors = [
        COLORS["center"] if event.startswith("A") else COLORS["opponent"]
        for event in nodes["event"]
    ]
    text = [
        f"{label}<br>p = {state}<br>value {value}" if labelled else label
        for label, state, value in zip(
            nodes["label"], nodes["state_exact"], nodes["value_exact"], strict=True
        )
    ]
    hover = [
        f"{label}: {event}<br>state p = {state}<br>value to A = {value}"
        f"<br>reached with probability {reach}"
        for label, event, state, value, reach in zip(
            nodes["label"],
            nodes["event"],
            nodes["state_exact"],
            nodes["value_exact"],
            nodes["path_probability_exact"],
            strict=True,
        )
    ]
    traces = [
        {
            "type": "scatter",
            "mode": "lines",
            "x": edge_x,
            "y": edge_y,
            "line": {"color": COLORS["dead"], "width": 1},
            "hoverinfo": "skip",
            "showlegend": False,
        },
        {
            "type": "scatter",
            "mode": "markers+text",
            "x": [where[int(n)][0] for n in nodes["node"]],
            "y": [where[int(n)][1] for n in nodes["node"]],
            "text": text,
            "hovertext": hover,
            "hoverinfo": "text",
            "textposition": "middle right",
            "textfont": {"size": 11},
            "marker": {"color": colors, "size": 10},
            "showlegend": False,
        },
    ]
    layout = base_layout("Game tree after α(i, j): state p and value to A at each node", "", "")
    depth = int(nodes["depth"].max())
    layout["xaxis"].update(visible=False, range=[-0.2, depth + 0.9])
    layout["yaxis"].update(visible=False)
    layout["hovermode"] = "closest"
    layout["annotations"] = notes
    return {"data": traces, "layout": layout}


def _printed_points(x: pd.Series, y: pd.Series, deviating: pd.Series) -> list[Trace]:
    """Printed Table V values as markers: those that agree, and the paper's errors."""
    traces = []
    for mask, name, color, symbol in (
        (~deviating, "printed, agrees", COLORS["cash"], "circle-open"),
        (deviating, "printed, paper's computing error", COLORS["take"], "x"),
    ):
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "name": name,
                "x": x[mask].tolist(),
                "y": y[mask].tolist(),
                "marker": {"color": color, "symbol": symbol, "size": 7},
            }
        )
    return traces


def table_v_figure(curve: pd.DataFrame, printed: pd.DataFrame) -> Figure:
    """[KS69] Fig. 3: the resignation potential a against b, exact, printed, and a ~ b e."""
    top = float(curve["b"].max())
    shown = printed[printed["b"] <= top]
    deviating = shown["reason"] != ""
    traces = [
        line(curve["b"], curve["a"], "a(b), exact", COLORS["center"]),
        line(
            curve["b"],
            curve["b"] * math.e,
            "asymptote a = b·e",
            COLORS["dead"],
            dash="dash",
        ),
    ]
    traces += _printed_points(shown["b"], shown["a_printed"], deviating)
    layout = base_layout(
        "Table V / Fig. 3: A's potential a at which B resigns",
        "B's raise potential b",
        "A's raise potential a",
    )
    if top > 20:
        layout["xaxis"]["type"] = "log"
        layout["yaxis"]["type"] = "log"
    return {"data": traces, "layout": layout}


def table_v_error_figure(printed: pd.DataFrame) -> Figure:
    """Relative error of each printed Table V value against the exact root, by b."""
    deviating = printed["reason"] != ""
    relative = printed["a_printed"] / printed["a_exact"] - 1.0
    traces = _printed_points(printed["b"], relative, deviating)
    layout = base_layout(
        "Printed Table V against exact: printed/exact − 1",
        "B's raise potential b",
        "relative error",
    )
    layout["xaxis"]["type"] = "log"
    layout["yaxis"]["tickformat"] = ".2%"
    return {"data": traces, "layout": layout}


#: The view's marker at A's potential a (on the charts' log axis).
A_NOW = ViewMarker("a =", "a = {:g}")


#: alpha(a, b) against a: exact (18) and the normal approximation (23).
NORMAL = Chart(
    "A's raising point against a (b = {b:g})",
    curves=(
        Curve("alpha", "α(a, b), exact (18)", COLORS["center"]),
        Curve("normal", "normal approximation (23)", COLORS["double"], "dash"),
    ),
    x="a",
    log_x=True,
    x_title="A's raise potential a",
    y_title="A's winning chance",
    marker=A_NOW,
)
#: A's even-game value E(a, b) against a, with the asymptote log(a/b) (eq. (26)): the
#: same axis of a as :data:`NORMAL`.
VALUE = replace(
    NORMAL,
    title="A's value of an even game against a (b = {b:g})",
    curves=(
        Curve("value", "E(a, b), exact (19)", COLORS["center"]),
        Curve("asymptotic", "log(a/b), eq. (26)", COLORS["dead"], "dash"),
    ),
    y_title="A's expected value",
    y_range=(-1.5, 1.5),
)


def normal_figure(sweep: pd.DataFrame, a_now: float, b: float) -> Figure:
    """alpha(a, b) against a, exact (18) and the normal approximation (23)."""
    even = _horizontal_marker(0.5, "even game 1/2", COLORS["dead"])
    return NORMAL.draw(sweep, a_now, marks=[even], words={"b": b})


def value_figure(sweep: pd.DataFrame, a_now: float, b: float) -> Figure:
    """A's even-game value E(a, b) against a, with the asymptote log(a/b) (eq. (26))."""
    return VALUE.draw(sweep, a_now, words={"b": b})
