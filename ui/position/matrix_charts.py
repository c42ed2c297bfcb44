"""Charts of the position's score matrix and its verdict across levels, as plotly dicts
(pure: no streamlit)."""

from __future__ import annotations

import math

import pandas as pd

from ui.cube import charts
from ui.style import COLORS, Figure, base_layout

#: What marks a score where the engine and the app's reading take different actions:
#: beside the cell's action code, and as the cell's dashed outline.
DIFFERS = "≠"
#: The colour of that outline (the page's alert colour, distinct from the current
#: score's outline).
DIFFERS_COLOR = "#c0392b"
#: The shown levels' names (:data:`cubecore.engine.LEVELS`).
LEVEL_NAMES = {
    "1-ply": "1-ply",
    "2-ply": "2-ply",
    "3-ply": "3-ply",
    "4-ply": "4-ply",
    "rollout": "rollout",
}


def as_score_matrix(cells: pd.DataFrame, reader: str) -> pd.DataFrame:
    """One reader's actions (``"engine"`` or ``"app"``) of :func:`position_matrix`'s cells
    in the columns of :func:`cubecore.cubeful.score_matrix` that
    :func:`ui.cube.charts.matrix_figure` reads; cells not evaluated are left out."""
    if reader not in ("engine", "app"):
        raise ValueError(f"reader must be 'engine' or 'app', got {reader!r}")
    done = cells[cells["evaluated"]]
    return pd.DataFrame(
        {
            "state": done["state"],
            "away": done["away"],
            "opp_away": done["opp_away"],
            "action": done[f"{reader}_action"],
            "no_double": done[f"{reader}_no_double"],
            "double_take": done[f"{reader}_double_take"],
        }
    )


def matrix_figure(
    cells: pd.DataFrame,
    n: int,
    reader: str,
    title: str,
    current: tuple[int, int] | None = None,
) -> Figure:
    """One reader's action at every score (the cube calculator's grid,
    :func:`ui.cube.charts.matrix_figure`), each score where the two readers differ
    marked :data:`DIFFERS` and outlined dashed; ``current`` outlined as there.

    Row and column 1 hold the Crawford game; a cell not evaluated (a grid stopped
    early) is blank.
    """
    figure = charts.matrix_figure(as_score_matrix(cells, reader), n, current)
    figure["layout"]["title"]["text"] = title
    trace = figure["data"][0]
    shapes = list(figure["layout"].get("shapes", []))
    grid = cells[cells["state"].isin(("pre-crawford", "crawford")) & cells["disagree"]]
    for row in grid.to_dict("records"):
        a, b = int(row["away"]), int(row["opp_away"])
        if max(a, b) > n:
            continue
        trace["text"][a - 1][b - 1] = f"{trace['text'][a - 1][b - 1]} {DIFFERS}"
        trace["customdata"][a - 1][b - 1] += " (the other reading differs)"
        shapes.append(
            {
                "type": "rect",
                "x0": b - 0.42,
                "x1": b + 0.42,
                "y0": a - 0.42,
                "y1": a + 0.42,
                "name": "readings differ",
                "line": {"color": DIFFERS_COLOR, "width": 2, "dash": "dash"},
                "fillcolor": "rgba(0,0,0,0)",
            }
        )
    figure["layout"]["shapes"] = shapes
    return figure


def levels_figure(levels: pd.DataFrame, engine_x: float) -> Figure:
    """The implied cube life at each level evaluated (markers, a flip of the action in
    the alert colour), beside the engine's own 1-ply cube life (a dashed line)."""
    done = levels[levels["evaluated"]]
    names = [LEVEL_NAMES[str(level)] for level in done["level"]]
    x_values = [None if math.isnan(float(v)) else float(v) for v in done["cube_life"]]
    colors = [DIFFERS_COLOR if flip else COLORS["double"] for flip in done["flips"]]
    hover = [
        f"{action}; implied cube life {'undefined' if v is None else f'{v:.3f}'}"
        for action, v in zip(done["action"], x_values, strict=True)
    ]
    traces = [
        {
            "type": "scatter",
            "mode": "lines+markers",
            "x": names,
            "y": x_values,
            "name": "implied cube life",
            "marker": {"color": colors, "size": 12},
            "line": {"color": COLORS["double"]},
            "customdata": hover,
            "hovertemplate": "%{x}: %{customdata}<extra></extra>",
        },
        {
            "type": "scatter",
            "mode": "lines",
            "x": names,
            "y": [engine_x] * len(names),
            "name": f"the engine's 1-ply cube life, {engine_x:.2f}",
            "line": {"color": COLORS["marker"], "dash": "dash"},
            "hoverinfo": "skip",
        },
    ]
    layout = base_layout("Implied cube life at each level", "level", "cube life x")
    layout["hovermode"] = "closest"
    return {"data": traces, "layout": layout}
