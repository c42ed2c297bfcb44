"""One chart style for the whole app: plotly figures built as plain dicts.

Figures are dicts (cheap to build and to serialise; ``st.plotly_chart`` takes
them). Colours come from the Streamlit theme when ``theme="streamlit"``; here we
only fix what must be the same on every chart: the palette for cube positions and
decision points, fonts, margins, and the presenter-mode sizes.
"""

from __future__ import annotations

import re
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


# --- one display rule for tables ---------------------------------------------------------

#: What a table cell shows where a value does not apply (a blank of a printed table, a
#: point a position never reaches).
NOT_APPLICABLE = "—"
#: A float nearer to zero than this is shown as zero: it is float noise (1 - 0.7 - 0.3),
#: which Streamlit would otherwise print in scientific notation.
NOISE = 1e-12
#: The most decimals a table column shows; a column shows as many as its most precise
#: value needs, up to this, and every value of the column with that many.
MAX_DECIMALS = 6

#: Human labels of the column names the app's tables carry (cubecore's tidy frames name
#: columns in snake_case). A column missing here is labelled by :func:`column_label`'s
#: fallback (underscores to spaces, first letter capital).
COLUMN_LABELS = {
    "a_exact": "a, exact",
    "a_exact_rounded": "a, exact rounded",
    "a_printed": "a, printed",
    "cash_point": "Cash point",
    "cube_owner": "Cube owner",
    "cube_value": "Cube value",
    "cubeless_win": "Cubeless win",
    "da_center": "DA, centred cube",
    "dead_gammon": "Dead cube with gammons",
    "double_kind": "Kind of double",
    "double_pass": "Double, pass",
    "double_point": "Double point",
    "double_take": "Double, take",
    "double_take_mwc": "Double, take (MWC)",
    "doubling_point": "Doubling point",
    "error_pp": "Error (pp)",
    "exact_minus_printed": "Exact minus printed",
    "exact_rounded": "Exact, rounded",
    "first_double": "First double",
    "first_redouble": "First redouble",
    "from_table": "From the table",
    "initial_double_point": "Initial double point",
    "last_take": "Last take",
    "leader_drops": "Leader drops",
    "may_double": "May double",
    "model_plain": "Model, plain",
    "model_selective": "Model, selective",
    "model_value_pp": "Model value (pp)",
    "no_double": "No double",
    "no_double_mwc": "No double (MWC)",
    "opp_away": "Opponent away",
    "opponent_count": "Opponent's count",
    "opponent_total": "Opponent's total",
    "post_crawford": "Post-Crawford",
    "post_length": "Post-Crawford length",
    "printed_as_whole_offset": "Printed as whole offset",
    "redouble_point": "Redouble point",
    "residual_pp": "Residual (pp)",
    "roller_count": "Roller's count",
    "roller_total": "Roller's total",
    "std_error": "Standard error",
    "table_plain": "Table, plain",
    "table_selective": "Table, selective",
    "take_point": "Take point",
    "take_point_aid": "Take point, memory aid",
    "take_point_error_pp": "Take point error (pp)",
    "take_point_table": "Take point, table",
    "too_good_point": "Too good point",
    "trailer_away": "Trailer away",
    "win_center": "Win, centred cube",
    "win_center_predicted": "Win, centred cube, predicted",
    "win_opponent": "Win, opponent owns cube",
    "win_owned": "Win, cube owned",
    "your_count": "Your count",
}


#: A truth value in a text column (one with a not-applicable cell).
_YES_NO = {True: "yes", False: "no"}


def _cell_text(value: object) -> str:
    """A cell of a text column: a truth value as yes/no, a float without noise."""
    if isinstance(value, bool | np.bool_):
        return _YES_NO[bool(value)]
    if isinstance(value, float | np.floating):
        number = float(value)
        return format_number(number, decimals([number]))
    return str(value)


def column_label(name: object, labels: Mapping[str, str] | None = None) -> str:
    """The header a person reads for column ``name``: ``labels``, then :data:`COLUMN_LABELS`.

    A snake_case name that neither gives is written out (``take_point`` -> "Take
    point"); any other name is kept (``"P[K_a = k]"``, ``"10"``, ``"e0"``).
    """
    text = str(name)
    if labels and text in labels:
        return labels[text]
    if text in COLUMN_LABELS:
        return COLUMN_LABELS[text]
    if "_" in text and text.replace("_", "").isalnum():
        words = text.replace("_", " ")
        return words[0].upper() + words[1:]
    return text


def decimals(values: ArrayLike) -> int:
    """The decimals a column of floats shows: those its most precise value needs (at most
    :data:`MAX_DECIMALS`); noise (below :data:`NOISE`) and non-finite values need none.

    >>> decimals([0.5, 0.7812, float("nan"), 2e-16])
    4
    """
    numbers = np.asarray(values, dtype=float)
    numbers = numbers[np.isfinite(numbers) & (np.abs(numbers) >= NOISE)]
    tolerance = 1e-9 * np.maximum(1.0, np.abs(numbers))
    for places in range(MAX_DECIMALS + 1):
        if np.all(np.abs(numbers - np.round(numbers, places)) <= tolerance):
            return places
    return MAX_DECIMALS


def format_number(value: float, places: int) -> str:
    """``value`` with ``places`` decimals; noise is 0, and "-0" is 0."""
    if abs(value) < NOISE:
        value = 0.0
    text = f"{value:.{places}f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text


@dataclass(frozen=True)
class TableDisplay:
    """A table as the app shows it (:func:`table_display`).

    ``frame`` has string column names; a column with a not-applicable cell is text
    (numbers with the column's decimals, :data:`NOT_APPLICABLE` where nothing applies),
    a float column keeps its numbers. ``labels`` maps each column to its header,
    ``places`` each float column to its decimals.
    """

    frame: pd.DataFrame
    labels: Mapping[str, str]
    places: Mapping[str, int]

    def as_text(self) -> pd.DataFrame:
        """What the table shows, as text under its headers (the CSV download)."""
        text = self.frame.copy()
        for name, places in self.places.items():
            text[name] = [format_number(float(v), places) for v in self.frame[name]]
        return text.rename(columns=dict(self.labels))


def table_display(frame: pd.DataFrame, labels: Mapping[str, str] | None = None) -> TableDisplay:
    """The one display rule for tables: human headers, "—" for not applicable, fixed decimals.

    Numbers are not changed: a float column is shown with fixed decimals (its
    :func:`decimals`), noise as 0; only a column with a missing cell (``None``, NaN)
    becomes text, each number written with the column's decimals.
    """
    shown = frame.copy()
    shown.columns = [str(c) for c in frame.columns]
    places: dict[str, int] = {}
    for position, name in enumerate(shown.columns):
        column = shown.iloc[:, position]
        if column.dtype == bool:
            continue
        missing = column.isna()
        numeric = pd.api.types.is_numeric_dtype(column.dtype)
        if missing.any():
            if numeric:
                column_places = decimals(column) if column.dtype.kind == "f" else 0
                shown[name] = [
                    NOT_APPLICABLE if gone else format_number(float(v), column_places)
                    for v, gone in zip(column, missing, strict=True)
                ]
            else:  # text, and every cell text (a mixed column would not reach Arrow as is)
                shown[name] = [
                    NOT_APPLICABLE if gone else _cell_text(v)
                    for v, gone in zip(column, missing, strict=True)
                ]
        elif column.dtype.kind == "f":
            places[name] = decimals(column)
    headers = {name: column_label(name, labels) for name in shown.columns}
    return TableDisplay(shown, headers, places)


# --- exports: the view's parameters and source in every file name and image ----------------

#: The app's name on every exported image.
APP_NAME = "Cube Theory Lab"
#: ``name`` of the annotation that carries a chart's parameters and source.
EXPORT_NOTE = "export-note"
#: Height (px) of the strip under a chart that holds :data:`EXPORT_NOTE`.
_NOTE_STRIP = 22
_UNSAFE = re.compile(r"[^A-Za-z0-9.+-]+")


@dataclass(frozen=True)
class ExportContext:
    """What every export of the open view carries: its parameters and its sources.

    ``parameters`` are ``(key, value, shown)`` triples: the control's URL key, its
    value as the link spells it, and its value in words (an option's label).
    """

    parameters: tuple[tuple[str, str, str], ...] = ()
    sources: str = ""

    def tokens(self) -> list[str]:
        """One file-name token per parameter: ``x0.68``, ``cube-center``, ``beavers-on``."""
        tokens = []
        for key, value, _ in self.parameters:
            value = {"true": "on", "false": "off"}.get(value, value)
            joined = f"{key}{value}" if _is_number(value) else f"{key}-{value}"
            tokens.append(_UNSAFE.sub("-", joined).strip("-"))
        return tokens

    def filename(self, stem: str, suffix: str = "") -> str:
        """``stem`` with every parameter the stem does not already name, then ``suffix``.

        >>> ExportContext((("x", "0.68", "0.68"), ("W", "1", "1"))).filename("points_W1", ".csv")
        'points_W1-x0.68.csv'
        """
        named = set(re.split(r"[_-]", stem))
        extra = [token for token in self.tokens() if token not in named]
        return "-".join([stem, *extra]) + suffix

    def note(self, *, short: bool = False) -> str:
        """The line under an exported chart: app, parameters, source (``short``: no
        parameters, for a projector)."""
        parts = [APP_NAME]
        if self.parameters and not short:
            parts.append(", ".join(f"{key}={shown}" for key, _, shown in self.parameters))
        if self.sources:
            parts.append(f"Source: {self.sources}")
        return " · ".join(parts)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def with_export_note(figure: Figure, text: str) -> Figure:
    """``figure`` with ``text`` in a small line under the plot (:data:`EXPORT_NOTE`).

    The bottom margin grows by the line's strip, so the note sits under the axis
    title and inside the image a PNG export saves.
    """
    layout = dict(figure.get("layout", {}))
    margin = dict(layout.get("margin", {}))
    bottom = int(margin.get("b", 80))
    margin["b"] = bottom + _NOTE_STRIP
    note = {
        "name": EXPORT_NOTE,
        "text": text,
        "xref": "paper",
        "yref": "paper",
        "x": 0,
        "y": 0,
        "xanchor": "left",
        "yanchor": "top",
        "yshift": -bottom,
        "showarrow": False,
        "font": {"size": 10},
        "opacity": 0.8,
    }
    layout["margin"] = margin
    layout["annotations"] = [*layout.get("annotations", []), note]
    return {**figure, "layout": layout}
