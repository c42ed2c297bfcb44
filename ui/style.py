"""One chart style for the whole app: plotly figures built as plain dicts.

Figures are dicts (cheap to build and to serialise; ``st.plotly_chart`` takes
them). Colours come from the Streamlit theme when ``theme="streamlit"``; here we
only fix what must be the same on every chart: the palette for cube positions and
decision points, fonts, margins, and the presenter-mode sizes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

#: A plotly figure as its JSON dict (``data``, ``layout``). Plotly ships no type stubs,
#: and in its schema a value's type depends on its key (numbers, strings, arrays, nested
#: objects), so the parts of a figure are typed as JSON objects with ``Any`` values.
Figure = dict[str, Any]
#: A figure's layout, or a nested layout object (an axis, the legend, the title).
Layout = dict[str, Any]
#: One trace of a figure's ``data``.
Trace = dict[str, Any]
#: One layout shape or annotation (a :func:`vertical_marker` is a pair of them).
Shape = dict[str, Any]

#: One colour per meaning, used on every page.
COLORS = {
    "center": "#1f77b4",
    "owned": "#2ca02c",
    "opponent": "#d62728",
    "dead": "#7f7f7f",
    "live": "#9467bd",
    "take": "#d62728",
    "cash": "#2ca02c",
    "double": "#ff7f0e",
    "redouble": "#8c564b",
    "beaver": "#e377c2",
    "raccoon": "#17becf",
    "too_good": "#bcbd22",
    "marker": "#111111",
}

#: Where the cube is, in chart titles and legends.
CUBE_NAMES = {"center": "cube centred", "owned": "cube owned", "opponent": "opponent owns"}

#: ``meta`` of a trace that presenter mode leaves out (a reference curve).
DETAIL = "detail"

_FONT_SIZE = {False: 13, True: 22}
_LINE_WIDTH = {False: 2, True: 4}


def line_width(present: bool) -> int:
    """Trace line width: thicker in presenter mode."""
    return _LINE_WIDTH[present]


def base_layout(title: str, x_title: str, y_title: str, *, present: bool = False) -> Layout:
    """The layout every chart starts from."""
    size = _FONT_SIZE[present]
    return {
        "title": {"text": title, "font": {"size": size + 3}},
        "font": {"size": size},
        "xaxis": {"title": {"text": x_title}, "zeroline": False, "showgrid": not present},
        "yaxis": {"title": {"text": y_title}, "zeroline": True, "showgrid": not present},
        "legend": {"orientation": "h", "y": -0.32 if present else -0.2, "font": {"size": size}},
        "margin": {"l": 60, "r": 20, "t": 60, "b": 90 if present else 40},
        "hovermode": "x unified" if not present else "closest",
    }


def line(
    x: ArrayLike,
    y: ArrayLike,
    name: str,
    color: str,
    *,
    present: bool = False,
    dash: str = "solid",
    detail: bool = False,
) -> Trace:
    """A line trace with the house colours.

    ``detail`` marks a reference curve that presenter mode leaves out (uncluttered
    charts; :func:`presenter_figure`). ``present`` is accepted during the move to the
    page skeleton and ignored: presenter styling is applied to the finished figure.
    """
    trace: Trace = {
        "type": "scatter",
        "mode": "lines",
        "x": np.asarray(x, dtype=float),
        "y": np.asarray(y, dtype=float),
        "name": name,
        "line": {"color": color, "width": _LINE_WIDTH[False], "dash": dash},
    }
    if detail:
        trace["meta"] = DETAIL
    return trace


def with_reference(
    x: ArrayLike, y: ArrayLike, reference: ArrayLike, name: str, reference_name: str, color: str
) -> list[Trace]:
    """A :func:`line` and, dotted in its colour, a reference curve presenter mode leaves out."""
    return [
        line(x, y, name, color),
        line(x, reference, reference_name, color, dash="dot", detail=True),
    ]


def lines_by(
    frame: pd.DataFrame, by: str, x: str, y: str, groups: Sequence[tuple[object, str, str]]
) -> list[Trace]:
    """One :func:`line` per group of ``frame``: ``(value of column by, name, colour)``."""
    traces = []
    for value, name, color in groups:
        part = frame[frame[by] == value]
        traces.append(line(part[x], part[y], name, color))
    return traces


@dataclass(frozen=True)
class Curve:
    """One column of a frame drawn as a :func:`line`: its name, colour and dash style.

    ``detail`` marks a reference curve that presenter mode leaves out.
    """

    column: str
    name: str
    color: str
    dash: str = "solid"
    detail: bool = False


def curves(frame: pd.DataFrame, x: str, *series: Curve) -> list[dict[str, Any]]:
    """One :func:`line` per :class:`Curve`: its column of ``frame`` against the column ``x``."""
    return [
        line(frame[x], frame[c.column], c.name, c.color, dash=c.dash, detail=c.detail)
        for c in series
    ]


def bar(x: Sequence[Any], y: Sequence[Any], name: str, color: str, hover: str) -> dict[str, Any]:
    """A bar trace in one colour; ``hover`` is its plotly hover template."""
    return {
        "type": "bar",
        "name": name,
        "x": x,
        "y": y,
        "marker": {"color": color},
        "hovertemplate": hover,
    }


def figure(
    data: list[dict[str, Any]],
    title: str,
    x_title: str,
    y_title: str,
    *,
    markers: Sequence[list[dict[str, Any]]] = (),
    xaxis: Mapping[str, object] | None = None,
    yaxis: Mapping[str, object] | None = None,
    **layout: object,
) -> Figure:
    """A chart: ``data`` on :func:`base_layout` with these titles.

    ``markers`` are :func:`vertical_marker` lines and labels (:func:`with_markers`);
    ``xaxis`` and ``yaxis`` update the axes, and any other keyword sets that entry
    of the layout.
    """
    built = base_layout(title, x_title, y_title)
    built["xaxis"].update(xaxis or {})
    built["yaxis"].update(yaxis or {})
    if markers:
        with_markers(built, *markers)
    built.update(layout)
    return {"data": data, "layout": built}


def vertical_marker(
    x: float,
    label: str,
    color: str,
    *,
    present: bool = False,
    level: int = 0,
    text: str | None = None,
) -> list[Shape]:
    """A labelled vertical line: a shape plus its annotation (for decision points).

    The annotation reads ``"{label} {x:.3f}"`` unless ``text`` says otherwise (a count,
    a score, the original value on a log axis). ``level`` staggers the labels of
    nearby markers (0 at the top, 1 lower, ...).
    """
    size = _FONT_SIZE[present] - 2
    shape = {
        "type": "line",
        "x0": x,
        "x1": x,
        "y0": 0,
        "y1": 1,
        "yref": "paper",
        "line": {"color": color, "width": 1.5, "dash": "dot"},
    }
    note = {
        "x": x,
        "y": 1.0 - 0.22 * level,
        "yref": "paper",
        "text": f"{label} {x:.3f}" if text is None else text,
        "showarrow": False,
        "textangle": -90,
        "xanchor": "right",
        "yanchor": "top",
        "font": {"size": size, "color": color},
    }
    return [shape, note]


def staggered_markers(
    points: list[tuple[float, str, str]], *, inside_unit: bool = False
) -> tuple[list[Shape], list[Shape]]:
    """:func:`vertical_marker` shapes and notes for ``(x, label, colour)`` decision points.

    The labels of successive points are staggered over three levels. With
    ``inside_unit`` only the points strictly inside (0, 1) are drawn (a point at a
    bound means "never"); the levels still count every point, so a label keeps its
    level whichever points are left out.
    """
    shapes: list[Shape] = []
    notes: list[Shape] = []
    for level, (x, label, color) in enumerate(points):
        if not inside_unit or 0.0 < x < 1.0:
            shape, note = vertical_marker(x, label, color, level=level % 3)
            shapes.append(shape)
            notes.append(note)
    return shapes, notes


def with_markers(layout: Layout, *markers: list[Shape]) -> Layout:
    """``layout`` with these :func:`vertical_marker` lines and labels (replacing any)."""
    layout.update(shapes=[m[0] for m in markers], annotations=[m[1] for m in markers])
    return layout


def presenter_figure(figure: Figure) -> Figure:
    """The same chart for a projector: large type, thick lines, no grid, closest hover.

    Applied by :func:`ui.widgets.chart` to every chart in presenter mode, so figure
    builders draw one chart and never take a presenter argument. The data are the
    same object (not copied); only the layout and the line styles are new.
    """
    scale = _FONT_SIZE[True] / _FONT_SIZE[False]
    layout = dict(figure.get("layout", {}))
    layout["font"] = {**layout.get("font", {}), "size": _FONT_SIZE[True]}
    if isinstance(layout.get("title"), dict):
        title_font = layout["title"].get("font", {})
        size = title_font.get("size", _FONT_SIZE[False] + 3)
        layout["title"] = {**layout["title"], "font": {**title_font, "size": round(size * scale)}}
    for axis in [name for name in layout if name.startswith(("xaxis", "yaxis"))]:
        layout[axis] = {**layout[axis], "showgrid": False}
    if "legend" in layout:
        layout["legend"] = {**layout["legend"], "y": -0.32, "font": {"size": _FONT_SIZE[True]}}
    if "margin" in layout:
        layout["margin"] = {**layout["margin"], "b": 90}
    layout["hovermode"] = "closest"
    if "annotations" in layout:
        layout["annotations"] = [
            {**note, "font": {**note.get("font", {}), "size": _FONT_SIZE[True] - 2}}
            if "font" in note
            else note
            for note in layout["annotations"]
        ]
    data = [_presenter_trace(trace) for trace in figure.get("data", [])]
    return {**figure, "layout": layout, "data": [t for t in data if t.get("meta") != DETAIL]}


def _presenter_trace(trace: Trace) -> Trace:
    """A trace with projector line widths and marker sizes."""
    if isinstance(trace.get("line"), dict) and trace["line"].get("width") == _LINE_WIDTH[False]:
        trace = {**trace, "line": {**trace["line"], "width": _LINE_WIDTH[True]}}
    marker = trace.get("marker")
    if isinstance(marker, dict) and isinstance(marker.get("size"), int | float):
        trace = {**trace, "marker": {**marker, "size": round(marker["size"] * 1.5)}}
    return trace


def plotly_config(filename: str) -> dict[str, object]:
    """Chart toolbar: PNG download at presentation resolution, no plotly logo."""
    return {
        "displaylogo": False,
        "toImageButtonOptions": {"format": "png", "filename": filename, "scale": 2},
        "modeBarButtonsToRemove": ["lasso2d", "select2d"],
    }
