"""Charts of the give-up-point page, built as plotly dicts (pure: no streamlit).

One chart per builder; :func:`ui.widgets.chart` restyles it for presenter mode, which
leaves out the traces marked ``detail`` (raw formulas, the table's rows).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pandas as pd

from cubecore.giveup import GiveUpPoints
from cubecore.janowski import DoublingCube
from ui.style import (
    COLORS,
    DETAIL,
    Figure,
    Shape,
    Trace,
    base_layout,
    figure,
    line,
    staggered_markers,
    with_reference,
)

#: Cube positions in the essay's words and symbols, seen from the player.
CUBE_NAMES = {
    "center": "e0: cube centred",
    "opponent": "e1: opponent owns",
    "owned": "e2: player owns",
}
_REGION_COLORS = {"too weak": "#d62728", "window": "#2ca02c", "market lost": "#ff7f0e"}
#: The x axis of the gain charts, and their y axis.
_NEXT_EQUITY = "cubeless equity after the next exchange"
_GAIN = "gain (negative: cost)"


def _points(
    x: Iterable[float],
    y: Iterable[float],
    name: str,
    color: str,
    *,
    size: float | Sequence[float] | None = None,
    symbol: str = "circle",
) -> Trace:
    """A marker-only trace."""
    return {
        "type": "scatter",
        "mode": "markers",
        "name": name,
        "x": list(map(float, x)),
        "y": list(map(float, y)),
        "marker": {"color": color, "size": size or 9, "symbol": symbol},
    }


def _window_markers(points: dict[str, float], cube: DoublingCube) -> list[tuple[float, str, str]]:
    """Markers at the doubling point of ``cube`` and the market-losing equity."""
    doubling = points["initial_double"] if cube == "center" else points["redouble"]
    name = "double" if cube == "center" else "redouble"
    return [
        (doubling, name, COLORS["double" if cube == "center" else "redouble"]),
        (points["market_losing"], "market lost", COLORS["take"]),
    ]


def transform_figure(curves: pd.DataFrame, give_ups: GiveUpPoints) -> Figure:
    """Modified winning chance p against cubeless winning chance w, with the concessions.

    Solid lines are the model (conceded beyond a give-up point); dotted lines the raw
    linear formulas, which leave [0, 1] there (details: presenter mode leaves them out).
    """
    traces = []
    for cube, name in CUBE_NAMES.items():
        label = name.split(": ")[1]
        traces += with_reference(
            curves["w"],
            curves[f"p_{cube}"],
            curves[f"raw_{cube}"],
            label,
            f"{label}, raw formula",
            COLORS[cube],
        )
    layout = base_layout(
        "Modified winning chance in the give-up game",
        "cubeless winning chance w = (e + 1)/2",
        "modified winning chance p",
    )
    g, g_c = give_ups.own_give_up, give_ups.center_give_up
    shapes, notes = staggered_markers(
        [
            (1.0 - g, "1 - g", COLORS["opponent"]),
            (g, "g", COLORS["owned"]),
            (1.0 - g_c, "1 - g_c", COLORS["center"]),
            (g_c, "g_c", COLORS["center"]),
        ],
    )
    layout.update(shapes=shapes, annotations=notes)
    layout["yaxis"]["range"] = [-0.6, 1.6]
    return {"data": traces, "layout": layout}


def table_figure(curves: pd.DataFrame, rows: pd.DataFrame, points: dict[str, float]) -> Figure:
    """e0, e1, e2 against e with the criteria e0/2, e2/2 and the table rows as points."""
    traces = [
        line(curves["e"], curves[f"E_{cube}"], name, COLORS[cube])
        for cube, name in CUBE_NAMES.items()
    ]
    traces.append(
        line(
            curves["e"],
            curves["E_center"] / 2.0,
            "e0/2: double when e1 is above",
            COLORS["double"],
            dash="dash",
        )
    )
    traces.append(
        line(
            curves["e"],
            curves["E_owned"] / 2.0,
            "e2/2: redouble when e1 is above",
            COLORS["redouble"],
            dash="dash",
        )
    )
    for column, cube in (("e0", "center"), ("e1", "opponent"), ("e2", "owned")):
        row_points = _points(rows["e"], rows[column], f"table rows: {column}", COLORS[cube])
        traces.append({**row_points, "meta": DETAIL})
    layout = base_layout(
        "Modified equities e0, e1, e2 (one-cube units)",
        "cubeless equity e",
        "modified equity",
    )
    shapes, notes = staggered_markers(
        [
            (points["initial_double"], "double", COLORS["double"]),
            (points["redouble"], "redouble", COLORS["redouble"]),
            (points["market_losing"], "market lost", COLORS["take"]),
        ],
    )
    layout.update(shapes=shapes, annotations=notes)
    return {"data": traces, "layout": layout}


def _window_figure(
    traces: list[Trace],
    title: str,
    y_title: str,
    points: dict[str, float],
    cube: DoublingCube,
    *more: tuple[float, str, str],
    x_title: str = _NEXT_EQUITY,
    **layout: Any,
) -> Figure:
    """A chart over the equity: the regions of ``cube`` shaded, its window marked.

    ``more`` are further ``(x, label, colour)`` points to mark; ``layout`` sets further
    entries of the layout (a second axis).
    """
    shapes, notes = staggered_markers([*_window_markers(points, cube), *more])
    regions = _region_shapes(points, cube)
    return figure(
        traces, title, x_title, y_title, shapes=regions + shapes, annotations=notes, **layout
    )


def _region_shapes(points: dict[str, float], cube: DoublingCube) -> list[Shape]:
    """Shaded bands: too weak (below the doubling point), window, market lost."""
    doubling = points["initial_double"] if cube == "center" else points["redouble"]
    bands = [
        (-1.0, doubling, "too weak"),
        (doubling, points["market_losing"], "window"),
        (points["market_losing"], 1.0, "market lost"),
    ]
    return [
        {
            "type": "rect",
            "x0": low,
            "x1": high,
            "y0": 0,
            "y1": 1,
            "yref": "paper",
            "fillcolor": _REGION_COLORS[name],
            "opacity": 0.08,
            "line": {"width": 0},
            "layer": "below",
        }
        for low, high, name in bands
        if high > low
    ]


def gain_figure(
    gain: pd.DataFrame,
    density: pd.DataFrame | None,
    points: dict[str, float],
    cube: DoublingCube,
    equity: float,
) -> Figure:
    """The gain of having doubled against the next-exchange equity, with its three regions.

    The volatility model's density of the next-exchange equity is drawn on a second
    axis (omitted when ``density`` is None or empty: no spread).
    """
    traces = [line(gain["e"], gain["gain"], "gain of doubling now", COLORS["center"])]
    if density is not None and len(density):
        density_trace = line(
            density["e"],
            density["density"],
            "density of the next equity",
            COLORS["dead"],
            dash="dot",
        )
        density_trace["yaxis"] = "y2"
        traces.append(density_trace)
    top = float(density["density"].max()) if density is not None and len(density) else 1.0
    density_axis = {
        "overlaying": "y",
        "side": "right",
        "showgrid": False,
        "zeroline": False,
        "range": [0.0, 1.1 * top],
        "showticklabels": False,
        "title": {"text": "density of e' (dotted)"},
    }
    return _window_figure(
        traces,
        "Gain of doubling now: too weak | double/take window | market lost",
        _GAIN,
        points,
        cube,
        (equity, "today", COLORS["marker"]),
        yaxis2=density_axis,
    )


def volatility_figure(
    curve: pd.DataFrame,
    points: dict[str, float],
    cube: DoublingCube,
    equity: float,
    net_gain: float | None,
    volatility: float,
) -> Figure:
    """Net gain of doubling now against today's equity, for one volatility."""
    traces = [
        line(
            curve["e"],
            curve["net_gain"],
            f"net gain, volatility {volatility:.3f}",
            COLORS["center"],
        )
    ]
    if net_gain is not None:
        traces.append(
            _points(
                [equity],
                [net_gain],
                f"today: e = {equity:.3f}",
                COLORS["marker"],
                symbol="x",
            )
        )
    return _window_figure(
        traces,
        "Volatility model: net gain of doubling now",
        "net gain (positive: double)",
        points,
        cube,
        x_title="today's cubeless equity",
    )


def race_figure(
    sequences: pd.DataFrame,
    gain: pd.DataFrame,
    points: dict[str, float],
    cube: DoublingCube,
) -> Figure:
    """The gain function with the race's next-exchange equities (marker area ~ chance)."""
    largest = float(sequences["weight"].max())
    sizes = [4.0 + 16.0 * (w / largest) ** 0.5 for w in sequences["weight"]]
    traces = [
        line(gain["e"], gain["gain"], "gain of doubling now", COLORS["center"]),
        _points(
            sequences["equity"],
            sequences["gain"],
            "two-roll sequences (area ~ chance)",
            COLORS["double"],
            size=sizes,
        ),
    ]
    return _window_figure(traces, "The 1296 two-roll sequences of the race", _GAIN, points, cube)


def janowski_figure(comparison: pd.DataFrame) -> Figure:
    """Give-up-model equities (solid) beside Janowski's with the implied x (dashed)."""
    traces = []
    for cube, name in CUBE_NAMES.items():
        traces.append(
            line(
                comparison["w"],
                comparison[f"giveup_{cube}"],
                f"give-up, {name}",
                COLORS[cube],
            )
        )
        traces.append(
            line(
                comparison["w"],
                comparison[f"janowski_{cube}"],
                f"Janowski, {name}",
                COLORS[cube],
                dash="dash",
            )
        )
    layout = base_layout(
        "Give-up model vs Janowski with the implied cube life",
        "cubeless winning chance w",
        "equity (one-cube units)",
    )
    shapes, notes = staggered_markers(
        [(0.2, "live take .2", COLORS["take"]), (0.8, "live cash .8", COLORS["cash"])],
    )
    layout.update(shapes=shapes, annotations=notes)
    return {"data": traces, "layout": layout}


def cube_life_figure(curves: pd.DataFrame, give_ups: GiveUpPoints) -> Figure:
    """Janowski x implied by a give-up point, before and after the double; x > 1 breaks."""
    traces = [
        line(
            curves["give_up"],
            curves["x_own"],
            "x from g (cube turned)",
            COLORS["owned"],
        ),
        line(
            curves["give_up"],
            curves["x_center"],
            "x from g_c (cube centred)",
            COLORS["center"],
        ),
    ]
    layout = base_layout(
        "Implied Janowski cube life: valid only for x in [0, 1]",
        "give-up point",
        "cube life x",
    )
    band = {
        "type": "rect",
        "x0": 0,
        "x1": 1,
        "xref": "paper",
        "y0": 1,
        "y1": 3,
        "yref": "y",
        "fillcolor": COLORS["take"],
        "opacity": 0.08,
        "line": {"width": 0},
        "layer": "below",
    }
    g, g_c = give_ups.own_give_up, give_ups.center_give_up
    shapes, notes = staggered_markers([(g, "g", COLORS["owned"]), (g_c, "g_c", COLORS["center"])])
    layout.update(shapes=[band, *shapes], annotations=notes)
    layout["yaxis"]["range"] = [0.0, 3.0]
    return {"data": traces, "layout": layout}
