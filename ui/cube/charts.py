"""Charts of the cube calculator, built as plotly dicts (pure: no streamlit)."""

from __future__ import annotations

import math

import pandas as pd

from ui.style import COLORS, Figure, Trace, base_layout, vertical_marker, with_markers

#: The market window's points, in the order they are drawn, with their colours.
WINDOW_POINTS = {
    "take_point": ("opponent's take", COLORS["take"]),
    "double_point": ("double", COLORS["double"]),
    "cash_point": ("cash", COLORS["cash"]),
    "too_good_point": ("too good", COLORS["too_good"]),
}
_ROW_NAMES = {"dead": "dead cube (x = 0)", "live": "live cube (x = 1)"}
#: The score matrix's actions, coded for the heatmap.
ACTIONS = ("No double", "Double, take", "Double, pass", "Too good", "No cube action")


def window_figure(
    window: pd.DataFrame, win: float, band: tuple[float, float] | None = None
) -> Figure:
    """The market window as one bar per cube life, the position's own chance marked.

    Each bar spans the double point to the cash point (the window); the take point
    (from the doubler's side: one minus the opponent's take point) and the too-good
    point are drawn as ticks. ``band`` shades the winning chances within which the
    best action stays the same (the margins).
    """
    rows = [
        _ROW_NAMES.get(str(name), f"chosen x = {x:.2f}")
        for name, x in zip(window["cube_life"], window["x"], strict=True)
    ]
    low = window["double_point"].clip(0, 1)
    high = window["cash_point"].clip(0, 1)
    traces: list[Trace] = [
        {
            "type": "bar",
            "orientation": "h",
            "y": rows,
            "x": (high - low).tolist(),
            "base": low.tolist(),
            "name": "doubling window (double to cash)",
            "marker": {"color": COLORS["double"], "opacity": 0.45},
            "hovertemplate": "%{base:.4f} to %{x:.4f}<extra></extra>",
        }
    ]
    for field in ("take_point", "too_good_point"):
        label, color = WINDOW_POINTS[field]
        values = window[field]
        doubler_side = 1.0 - values if field == "take_point" else values
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "y": rows,
                "x": [None if math.isnan(v) else float(v) for v in doubler_side],
                "name": label if field != "take_point" else "opponent's pass point",
                "marker": {"color": color, "symbol": "line-ns-open", "size": 22},
            }
        )
    layout = base_layout("Market window", "winning chance of the player on roll", "")
    layout["xaxis"]["range"] = [0.0, 1.0]
    layout["barmode"] = "overlay"
    with_markers(layout, vertical_marker(win, "P", COLORS["marker"]))
    if band is not None:
        layout["shapes"].append(
            {
                "type": "rect",
                "x0": band[0],
                "x1": band[1],
                "y0": 0,
                "y1": 1,
                "yref": "paper",
                "fillcolor": COLORS["marker"],
                "opacity": 0.08,
                "line": {"width": 0},
            }
        )
        layout["annotations"].append(
            {
                "x": (band[0] + band[1]) / 2,
                "y": -0.02,
                "yref": "paper",
                "yanchor": "top",
                "showarrow": False,
                "text": "same action",
                "font": {"size": 11, "color": COLORS["marker"]},
            }
        )
    return {"data": traces, "layout": layout}


def anatomy_figure(terms: dict[str, float]) -> Figure:
    """DT - ND as a waterfall of its named terms."""
    names = list(terms)
    values = [terms[name] for name in names]
    trace = {
        "type": "waterfall",
        "orientation": "v",
        "x": [*names, "DT - ND"],
        "y": [*values, sum(values)],
        "measure": ["relative"] * len(values) + ["total"],
        "name": "DT - ND",
        "texttemplate": "%{y:+.4f}",
        "textposition": "outside",
    }
    return {
        "data": [trace],
        "layout": base_layout("Why double: DT - ND, term by term", "", "equity"),
    }


def matrix_figure(matrix: pd.DataFrame, n: int) -> Figure:
    """The best action at every score, ND and DT written in each cell.

    Row and column 1 hold the Crawford game (no cube: "No cube action").
    """
    grid = matrix[matrix["state"].isin(("pre-crawford", "crawford"))]  # row/column 1: Crawford
    codes: list[list[float | None]] = [[None] * n for _ in range(n)]
    text: list[list[str]] = [[""] * n for _ in range(n)]
    for row in grid.to_dict("records"):
        a, b = int(row["away"]) - 1, int(row["opp_away"]) - 1
        codes[a][b] = float(_action_code(str(row["action"])))
        double_take = float(row["double_take"])
        dt = "" if math.isnan(double_take) else f"<br>DT {double_take:+.3f}"
        text[a][b] = f"ND {float(row['no_double']):+.3f}{dt}"
    colors = ["#dbe9f6", "#f6d8b6", "#b9e3b4", "#e6c9e6", "#eeeeee"]
    return _score_grid_figure(
        codes,
        text,
        "Best action at every score (cube centred)",
        "",
        zmin=0,
        zmax=len(ACTIONS) - 1,
        colorscale=[[0.25 * i, color] for i, color in enumerate(colors)],
        colorbar={"tickvals": list(range(len(ACTIONS))), "ticktext": list(ACTIONS)},
    )


def margins_figure(matrix: pd.DataFrame, n: int) -> Figure:
    """The winning-chance margin of the best action at every score (the smaller side).

    How far the winning chance may be wrong, down or up, before the best action at that
    score changes; blank where the cube is dead or no change occurs.
    """
    grid = matrix[matrix["state"].isin(("pre-crawford", "crawford"))]
    z: list[list[float | None]] = [[None] * n for _ in range(n)]
    text: list[list[str]] = [[""] * n for _ in range(n)]
    for row in grid.to_dict("records"):
        a, b = int(row["away"]) - 1, int(row["opp_away"]) - 1
        sides = [float(row[k]) for k in ("win_down", "win_up") if not math.isnan(float(row[k]))]
        if sides:
            z[a][b] = 100.0 * min(sides)
            text[a][b] = f"{z[a][b]:.1f}"
    return _score_grid_figure(
        z,
        text,
        "Margin of the best action: winning chance, percentage points",
        " pp",
        colorscale="Blues",
        reversescale=True,
        colorbar={"title": {"text": "margin, pp"}},
    )


def _score_grid_figure(
    z: list[list[float | None]], text: list[list[str]], title: str, unit: str, **colors: object
) -> Figure:
    """A heatmap over the n x n scores (player's points to go down, the opponent's across).

    Each cell shows its ``text``; ``colors`` are the trace's colour settings.
    """
    n = len(z)
    trace = {
        "type": "heatmap",
        "z": z,
        "x": list(range(1, n + 1)),
        "y": list(range(1, n + 1)),
        "text": text,
        "texttemplate": "%{text}",
        **colors,
        "hovertemplate": f"%{{y}}-away / %{{x}}-away: %{{text}}{unit}<extra></extra>",
    }
    layout = base_layout(title, "opponent: points to go", "player: points to go")
    layout["yaxis"]["autorange"] = "reversed"
    return {"data": [trace], "layout": layout}


def _action_code(action: str) -> int:
    """The heatmap's code of gnubg's action text."""
    text = action.lower()
    if "too good" in text:
        return 3
    if text.startswith(("no double", "no redouble")):
        return 0
    if text.startswith("never"):
        return 4
    if "beaver" in text or "take" in text:
        return 1
    if "pass" in text or "drop" in text:
        return 2
    return 4
