"""Charts of the cube calculator, built as plotly dicts (pure: no streamlit)."""

from __future__ import annotations

import math

import pandas as pd

from ui.style import COLORS, Figure, Trace, base_layout, vertical_marker, with_markers

#: The market window's ticks: each at the point its label names, in the winning chance of
#: the player on roll (the doubler). Beyond his cash point the opponent passes: it is also
#: the opponent's pass point.
WINDOW_TICKS = {
    "double_point": ("double point", COLORS["double"]),
    "cash_point": ("cash point (opponent passes)", COLORS["cash"]),
    "too_good_point": ("too good point", COLORS["too_good"]),
}
#: The legend's name of the shaded band where the best action stays the same.
SAME_ACTION = "same best action"
_ROW_NAMES = {"dead": "dead cube (x = 0)", "live": "live cube (x = 1)"}
#: The score matrix's actions, coded for the heatmap.
ACTIONS = ("No double", "Double, take", "Double, pass", "Too good", "No cube action")


def window_figure(
    window: pd.DataFrame, win: float, band: tuple[float, float] | None = None
) -> Figure:
    """The market window as one bar per cube life, the position's own chance marked.

    Each bar spans the double point to the cash point (the window); the double, cash and
    too-good points are drawn as ticks, each at the value of the column it names, all in
    the winning chance of the player on roll (the axis in percent). ``band`` shades the
    winning chances within which the best action stays the same (the margins), named in
    the legend.
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
            "hovertemplate": "%{base:.1%} to %{customdata:.1%}<extra></extra>",
            "customdata": high.tolist(),
        }
    ]
    for field, (label, color) in WINDOW_TICKS.items():
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "y": rows,
                "x": [None if math.isnan(v) else float(v) for v in window[field]],
                "name": label,
                "marker": {"color": color, "symbol": "line-ns-open", "size": 22},
                "hovertemplate": f"{label}: %{{x:.1%}}<extra></extra>",
            }
        )
    layout = base_layout("Market window", "winning chance of the player on roll", "")
    layout["xaxis"]["range"] = [0.0, 1.0]
    layout["xaxis"]["tickformat"] = ".0%"
    layout["barmode"] = "overlay"
    with_markers(layout, vertical_marker(win, "P", COLORS["marker"], text=f"P {win:.1%}"))
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
        traces.append(  # the band's legend entry: a label under the axis met its ticks
            {
                "type": "scatter",
                "mode": "markers",
                "x": [None],
                "y": [None],
                "name": SAME_ACTION,
                "marker": {"color": COLORS["marker"], "opacity": 0.2, "symbol": "square"},
                "hoverinfo": "skip",
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


#: The score matrix's short cell text per action code (:data:`ACTIONS`): short enough
#: for seven cells across a phone's screen; the legend and the hover say them in full.
ACTION_CODES = ("ND", "D/T", "D/P", "TG", "–")


def matrix_figure(matrix: pd.DataFrame, n: int, current: tuple[int, int] | None = None) -> Figure:
    """The best action at every score, in each cell its short code (:data:`ACTION_CODES`);
    hovering a cell reads its action and its ND and DT equities.

    Row and column 1 hold the Crawford game (no cube: "No cube action"). ``current``
    (points to go of the player and of the opponent) is outlined.
    """
    grid = matrix[matrix["state"].isin(("pre-crawford", "crawford"))]  # row/column 1: Crawford
    codes: list[list[float | None]] = [[None] * n for _ in range(n)]
    text: list[list[str]] = [[""] * n for _ in range(n)]
    hover: list[list[str]] = [[""] * n for _ in range(n)]
    for row in grid.to_dict("records"):
        a, b = int(row["away"]) - 1, int(row["opp_away"]) - 1
        code = _action_code(str(row["action"]))
        codes[a][b] = float(code)
        text[a][b] = ACTION_CODES[code]
        double_take = float(row["double_take"])
        dt = "" if math.isnan(double_take) else f", DT {double_take:+.3f}"
        hover[a][b] = f"{row['action']}: ND {float(row['no_double']):+.3f}{dt}"
    colors = ["#dbe9f6", "#f6d8b6", "#b9e3b4", "#e6c9e6", "#eeeeee"]
    return _score_grid_figure(
        codes,
        text,
        hover,
        "Best action at every score (cube centred)",
        current,
        zmin=0,
        zmax=len(ACTIONS) - 1,
        colorscale=[[0.25 * i, color] for i, color in enumerate(colors)],
        colorbar={  # under the grid: beside it, it left a phone's cells too narrow
            "tickvals": list(range(len(ACTIONS))),
            "ticktext": list(ACTION_CODES),
            "orientation": "h",
            "y": -0.22,
            "yanchor": "top",
            "thickness": 12,
        },
    )


def margins_figure(matrix: pd.DataFrame, n: int, current: tuple[int, int] | None = None) -> Figure:
    """The winning-chance margin of the best action at every score (the smaller side).

    How far the winning chance may be wrong, down or up, before the best action at that
    score changes; blank where the cube is dead or no change occurs. ``current`` is
    outlined.
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
        [[f"{cell} pp" if cell else "" for cell in row] for row in text],
        "Margin of the best action: winning chance, percentage points",
        current,
        colorscale="Blues",
        reversescale=True,
        colorbar={"title": {"text": "margin, pp"}},
    )


def _score_grid_figure(
    z: list[list[float | None]],
    text: list[list[str]],
    hover: list[list[str]],
    title: str,
    current: tuple[int, int] | None,
    **colors: object,
) -> Figure:
    """A heatmap over the n x n scores (player's points to go down, the opponent's across).

    Each cell shows its ``text`` and, hovered, its ``hover``; ``colors`` are the trace's
    colour settings. The cell of the ``current`` score (player's, opponent's points to
    go), if on the grid, is outlined.
    """
    n = len(z)
    trace = {
        "type": "heatmap",
        "z": z,
        "x": list(range(1, n + 1)),
        "y": list(range(1, n + 1)),
        "text": text,
        "texttemplate": "%{text}",
        "customdata": hover,
        **colors,
        "hovertemplate": "%{y}-away / %{x}-away: %{customdata}<extra></extra>",
    }
    layout = base_layout(title, "opponent: points to go", "player: points to go")
    layout["yaxis"]["autorange"] = "reversed"
    layout["margin"] = {**layout["margin"], "b": 90}
    if current is not None and max(current) <= n:
        away, opp_away = current
        layout["shapes"] = [
            {
                "type": "rect",
                "x0": opp_away - 0.5,
                "x1": opp_away + 0.5,
                "y0": away - 0.5,
                "y1": away + 0.5,
                "name": "current score",
                "line": {"color": COLORS["marker"], "width": 3},
                "fillcolor": "rgba(0,0,0,0)",
            }
        ]
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
