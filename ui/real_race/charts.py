"""Charts of the real-race page: the race at a match score (pure plotly dicts, no
streamlit); the board is :func:`ui.board.board_figure`."""

from __future__ import annotations

import numpy as np
import pandas as pd

from cubecore import race, race_match
from ui.style import COLORS, Figure, Trace, base_layout, line

#: Colours of the match section's action map, in the order of race_match.MATCH_ACTIONS.
_MATCH_ACTION_COLORS = ("#dbe9f6", "#f6d8b6", "#b9e3b4", "#e6c9e6")
#: Colours of the money strategy map, in the order of cubecore.race.ACTIONS.
_MONEY_ACTION_COLORS = _MATCH_ACTION_COLORS[:3]


def position_marker(on_roll: int, opponent: int) -> Trace:
    """The page's position on a strategy map (opponent's pips across, the roller's up)."""
    return {
        "type": "scatter",
        "mode": "markers",
        "name": f"this position, {on_roll} v {opponent}",
        "x": [opponent],
        "y": [on_roll],
        "marker": {
            "color": COLORS["marker"],
            "size": 14,
            "symbol": "x",
            "line": {"color": "#ffffff", "width": 1.5},
        },
        "hovertemplate": f"this position: on roll {on_roll}, opponent {opponent}<extra></extra>",
    }


def with_position(figure: Figure, on_roll: int, opponent: int) -> Figure:
    """A strategy map with the page's position marked (a new figure; ``figure`` unchanged)."""
    layout = {**figure["layout"], "showlegend": True}
    return {**figure, "data": [*figure["data"], position_marker(on_roll, opponent)],
            "layout": layout}  # fmt: skip


def _action_heatmap(
    actions: pd.DataFrame, labels: tuple[str, ...], colors: tuple[str, ...]
) -> tuple[Trace, int]:
    """A heatmap of ``actions["action"]`` (a square of counts: roller's pips (y) by the
    opponent's (x)), one colour band per action; also the square's side."""
    counts = np.unique(actions["on_roll"].to_numpy())
    n = len(counts)
    codes = actions["action"].cat.codes.to_numpy(dtype=float).reshape(n, n)  # [roller][opponent]
    k = len(labels)
    scale: list[list[object]] = []
    for i, color in enumerate(colors):
        scale += [[i / k, color], [(i + 1) / k, color]]
    trace = {
        "type": "heatmap",
        "z": codes,
        "x": counts,
        "y": counts,
        "zmin": -0.5,
        "zmax": k - 0.5,
        "colorscale": scale,
        "colorbar": {"tickvals": list(range(k)), "ticktext": list(labels)},
        "hovertemplate": "on roll %{y}, opponent %{x}<extra></extra>",
    }
    return trace, n


def money_action_figure(actions: pd.DataFrame, title: str) -> Figure:
    """Heatmap of the race model's exact money action: roller's pips (y) by opponent's (x).

    ``actions`` is :func:`cubecore.race.cube_action_map`'s table (a square of counts).
    """
    trace, _ = _action_heatmap(actions, tuple(race.ACTIONS), tuple(_MONEY_ACTION_COLORS))
    layout = base_layout(title, "opponent's pip count", "pip count of the player on roll")
    return {"data": [trace], "layout": layout}


def match_action_figure(actions: pd.DataFrame, title: str) -> Figure:
    """Heatmap of the exact cube action at a score: roller's pips (y) by opponent's (x).

    ``actions`` is :func:`cubecore.race_match.race_match_action_map`'s table.
    """
    trace, n = _action_heatmap(
        actions, tuple(race_match.MATCH_ACTIONS), tuple(_MATCH_ACTION_COLORS)
    )
    trace["customdata"] = 100.0 * actions["optimal"].to_numpy(dtype=float).reshape(n, n)
    trace["hovertemplate"] = (
        "on roll %{y}, opponent %{x}: match winning chance %{customdata:.2f}%<extra></extra>"
    )
    layout = base_layout(title, "opponent's pip count", "pip count of the player on roll")
    return {"data": [trace], "layout": layout}


def match_window_figure(window: pd.DataFrame, money: pd.DataFrame | None = None) -> Figure:
    """The doubling window by the roller's pip count: offsets where he doubles, is taken,
    is too good; money play's thresholds beside them when given (dashed)."""
    x = window["on_roll"]
    traces = [
        line(x, window["first_double"], "first double", COLORS["double"]),
        line(x, window["last_take"], "last take", COLORS["take"]),
    ]
    if window["first_too_good"].notna().any():
        traces.append(line(x, window["first_too_good"], "first too good", COLORS["too_good"]))
    if money is not None:
        traces += [
            line(money["your_count"], money["first_double"], "money: first double",
                 COLORS["double"], dash="dash", detail=True),
            line(money["your_count"], money["last_take"], "money: last take",
                 COLORS["take"], dash="dash", detail=True),
        ]  # fmt: skip
    layout = base_layout(
        "Doubling window: the opponent's lead in pips over the roller's count",
        "pip count of the player on roll",
        "opponent's count minus the roller's",
    )
    return {"data": traces, "layout": layout}


def match_cube_life_figure(life: pd.DataFrame) -> Figure:
    """Heatmap of the implied cube life by score (player's away score down, opponent's across)."""
    grid = life.pivot(index="away", columns="opp_away", values="cube_life")
    z = grid.to_numpy(dtype=float)
    text = [["" if np.isnan(v) else f"{v:.2f}" for v in row] for row in z]
    trace = {
        "type": "heatmap",
        "z": [[None if np.isnan(v) else float(np.clip(v, 0.0, 1.5)) for v in row] for row in z],
        "x": grid.columns.to_numpy(),
        "y": grid.index.to_numpy(),
        "text": text,
        "texttemplate": "%{text}",
        "zmin": 0.0,
        "zmax": 1.5,
        "colorscale": "Viridis",
        "colorbar": {"title": {"text": "x"}},
        "hovertemplate": "%{y}-away / %{x}-away: x = %{text}<extra></extra>",
    }
    layout = base_layout(
        "Implied cube life x of this race by score (cube centred)",
        "opponent: points to go",
        "player on roll: points to go",
    )
    layout["yaxis"]["autorange"] = "reversed"
    return {"data": [trace], "layout": layout}
