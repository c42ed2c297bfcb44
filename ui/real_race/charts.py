"""Charts of the real-race page: the drawn board, the race at a match score (pure plotly
dicts, no streamlit)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from cubecore import race_match
from cubecore.position import Position
from ui.style import COLORS, Figure, Shape, Trace, base_layout, line

_ON_ROLL = "#f4f1e8"
_OPPONENT = "#2b2b2b"
_POINT_DARK = "#b7895c"
_POINT_LIGHT = "#e9d8b4"
_SHOWN_PER_POINT = 5


def _column(point: int) -> float:
    """x centre of the player on roll's point 1..24 (his home board bottom right)."""
    column = 13 - point if point <= 12 else point - 12
    return column + (0.6 if column > 6 else 0.0)


def board_figure(position: Position) -> Figure:
    """The position as a board: the player on roll moves home to the bottom right.

    Checkers are stacked from the edge (five drawn, more written as a number); the
    bar sits in the middle, checkers borne off at the right.
    """
    shapes: list[dict[str, object]] = []
    for point in range(1, 25):
        x, bottom = _column(point), point <= 12
        base, tip = (0.0, 4.6) if bottom else (11.0, 6.4)
        shapes.append(
            {
                "type": "path",
                "path": f"M {x - 0.48} {base} L {x + 0.48} {base} L {x} {tip} Z",
                "fillcolor": _POINT_DARK if point % 2 else _POINT_LIGHT,
                "line": {"width": 0},
                "layer": "below",
            }
        )
    shapes.append(
        {"type": "rect", "x0": 6.55, "x1": 7.05, "y0": 0, "y1": 11, "fillcolor": "#8a6a48",
         "line": {"width": 0}, "layer": "below"}
    )  # fmt: skip
    traces: list[Trace] = []
    labels: list[Shape] = []
    # (name, checkers on the side's own points 1..24, colour, own point -> board point)
    sides: tuple[tuple[str, tuple[int, ...], str, Callable[[int], int]], ...] = (
        ("player on roll", position.on_roll, _ON_ROLL, lambda p: p),
        ("opponent", position.opponent, _OPPONENT, lambda p: 25 - p),
    )
    for name, counts, color, to_board in sides:
        xs, ys = [], []
        for own_point, count in enumerate(counts, start=1):
            if not count:
                continue
            point = to_board(own_point)
            x, bottom = _column(point), point <= 12
            for k in range(min(count, _SHOWN_PER_POINT)):
                xs.append(x)
                ys.append(0.5 + k * 0.9 if bottom else 10.5 - k * 0.9)
            if count > _SHOWN_PER_POINT:
                labels.append(_count_label(x, ys[-1], count, color))
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "x": xs,
                "y": ys,
                "name": name,
                "marker": {"size": 26, "color": color, "line": {"color": "#555555", "width": 1.5}},
                "hoverinfo": "skip",
            }
        )
    pips_on_roll, pips_opponent = position.pips
    labels += [
        _side_note(1.0, f"off: {position.opponent_borne_off}", "top"),
        _side_note(0.0, f"off: {position.on_roll_borne_off}", "bottom"),
    ]
    if position.on_roll_bar or position.opponent_bar:
        labels.append(
            {"x": 6.8, "y": 5.5, "text": f"bar {position.on_roll_bar} / {position.opponent_bar}",
             "showarrow": False, "font": {"color": COLORS["marker"]}}
        )  # fmt: skip
    layout = {
        "title": {"text": f"Pips: player on roll {pips_on_roll}, opponent {pips_opponent}"},
        "xaxis": {"visible": False, "range": [0.3, 13.9], "fixedrange": True},
        "yaxis": {"visible": False, "range": [-0.3, 11.3], "fixedrange": True},
        "shapes": shapes,
        "annotations": labels,
        "showlegend": True,
        "legend": {"orientation": "h", "y": -0.05},
        "plot_bgcolor": "#d9c3a0",
        "margin": {"l": 10, "r": 10, "t": 50, "b": 30},
        "height": 420,
    }
    return {"data": traces, "layout": layout}


def _count_label(x: float, y: float, count: int, color: str) -> Shape:
    return {
        "x": x,
        "y": y,
        "text": str(count),
        "showarrow": False,
        "font": {"color": "#111111" if color == _ON_ROLL else "#ffffff", "size": 13},
        "bgcolor": color,  # the text sits on its checker, not on the board
    }


def _side_note(y: float, text: str, anchor: str) -> Shape:
    return {
        "x": 13.4,
        "y": y,
        "yref": "paper",
        "yanchor": anchor,
        "text": text,
        "showarrow": False,
    }


#: Colours of the match section's action map, in the order of race_match.MATCH_ACTIONS.
_MATCH_ACTION_COLORS = ("#dbe9f6", "#f6d8b6", "#b9e3b4", "#e6c9e6")


def match_action_figure(actions: pd.DataFrame, title: str) -> Figure:
    """Heatmap of the exact cube action at a score: roller's pips (y) by opponent's (x).

    ``actions`` is :func:`cubecore.race_match.race_match_action_map`'s table.
    """
    counts = np.unique(actions["on_roll"].to_numpy())
    n = len(counts)
    codes = actions["action"].cat.codes.to_numpy(dtype=float).reshape(n, n)
    mwc = actions["optimal"].to_numpy(dtype=float).reshape(n, n)
    k = len(race_match.MATCH_ACTIONS)
    scale = []
    for i, color in enumerate(_MATCH_ACTION_COLORS):
        scale += [[i / k, color], [(i + 1) / k, color]]
    trace = {
        "type": "heatmap",
        "z": codes,
        "x": counts,
        "y": counts,
        "customdata": mwc,
        "zmin": -0.5,
        "zmax": k - 0.5,
        "colorscale": scale,
        "colorbar": {"tickvals": list(range(k)), "ticktext": list(race_match.MATCH_ACTIONS)},
        "hovertemplate": "on roll %{y}, opponent %{x}: MWC %{customdata:.4f}<extra></extra>",
    }
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
