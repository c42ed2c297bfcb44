"""One chart style for the whole app: plotly figures built as plain dicts.

Figures are dicts (cheap to build and to serialise; ``st.plotly_chart`` takes
them). Colours come from the Streamlit theme when ``theme="streamlit"``; here we
only fix what must be the same on every chart: the palette for cube positions and
decision points, fonts, margins, and the presenter-mode sizes.
"""

from __future__ import annotations

import functools
import math
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from plotly.colors import get_colorscale, sample_colorscale

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
        "name": MARKER_LABEL,
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


#: The height of the chart on presenter mode's first screen (px): what a 1280x720
#: projector leaves under the page's frame (title, presets and strip, tabs), measured
#: in Chromium (tests/test_browser_pages.py checks that it fits on every section).
SLIDE_CHART_HEIGHT = 400
#: The type size of a slide chart's legend and marker labels (px).
_SLIDE_LEGEND_SIZE = 16
#: The longest title (characters) a slide chart shows on one line: about its width
#: (855 px at 1280 px) at the slide's title size.
_SLIDE_TITLE_CHARS = 60


def slide_figure(figure: Figure) -> Figure:
    """A presenter figure (:func:`presenter_figure`) cut to the slide: the first chart of
    a section beside its headline numbers, :data:`SLIDE_CHART_HEIGHT` px high; its
    legend in one row above the plot and its marker labels in smaller type (the legend
    names the curves, the numbers are beside the chart; under so short a plot a legend
    would meet the axis title, and long labels would not fit along their lines), and
    its title in the slide's type, on two lines when long (plotly does not wrap it)."""
    layout = dict(figure.get("layout", {}))
    layout["height"] = SLIDE_CHART_HEIGHT
    if "legend" in layout:
        legend = layout["legend"]
        layout["legend"] = {
            **legend,
            "orientation": "h",
            "x": 0.0,
            "xanchor": "left",
            "y": 1.0,
            "yanchor": "bottom",
            "font": {**legend.get("font", {}), "size": _SLIDE_LEGEND_SIZE},
        }
    if "annotations" in layout:  # marker labels in the legend's type: they fit the short plot
        layout["annotations"] = [
            {**note, "font": {**note.get("font", {}), "size": _SLIDE_LEGEND_SIZE}}
            if note.get("name") == MARKER_LABEL
            else note
            for note in layout["annotations"]
        ]
    top = 90.0 if "legend" in layout else 60.0
    if isinstance(layout.get("title"), dict):
        title = layout["title"]
        text = _two_lines(str(title.get("text", "")), _SLIDE_TITLE_CHARS)
        top += _LINE_EM * _FONT_SIZE[True] * text.count("<br>")
        font = {**title.get("font", {}), "size": _FONT_SIZE[True]}
        layout["title"] = {**title, "text": text, "font": font}
    margin = {**_PLOTLY_MARGIN, **layout.get("margin", {})}
    layout["margin"] = {**margin, "t": round(top), "b": 70}
    return {**figure, "layout": layout}


def _two_lines(text: str, limit: int) -> str:
    """``text`` broken once before ``limit`` characters (plotly does not wrap a title: a
    long one runs off the chart's edge): after the last separator (", ", "; ", ": ",
    " · ") there, so that "b = 3.1" stays whole, else at the last space; unchanged if
    short or already broken."""
    if len(text) <= limit or "<br>" in text:
        return text
    found = [(text.rfind(sep, 0, limit), sep) for sep in (", ", "; ", ": ", " · ")]
    cut = max((at + len(sep) - 1 for at, sep in found if at > 0), default=-1)
    if cut <= 0:
        cut = text.rfind(" ", 0, limit)
    return text if cut <= 0 else f"{text[:cut]}<br>{text[cut + 1 :]}"


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
#: The most decimals a table column shows (issue #37: no number a player reads in a table
#: has more than 4); a column shows as many as its most precise value needs, up to this,
#: and every value of the column with that many.
MAX_DECIMALS = 4
#: The columns that compare a computed value with a printed one (a paper's, an essay's):
#: they show up to :data:`MAX_EXACT_DECIMALS`, so that the reader sees where a printed
#: value's rounding went (printed .390, exact .39083). Declared here, by column name.
EXACT_COMPARISON = frozenset({"exact", "a_exact"})
#: The most decimals an exact-comparison column (:data:`EXACT_COMPARISON`) shows.
MAX_EXACT_DECIMALS = 6

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


def decimals(values: ArrayLike, most: int = MAX_DECIMALS) -> int:
    """The decimals a column of floats shows: those its most precise value needs (at most
    ``most``, :data:`MAX_DECIMALS` unless the column is an exact comparison); noise
    (below :data:`NOISE`) and non-finite values need none.

    >>> decimals([0.5, 0.7812, float("nan"), 2e-16])
    4
    >>> decimals([0.390833333], most=MAX_EXACT_DECIMALS)
    6
    """
    numbers = np.asarray(values, dtype=float)
    numbers = numbers[np.isfinite(numbers) & (np.abs(numbers) >= NOISE)]
    tolerance = 1e-9 * np.maximum(1.0, np.abs(numbers))
    for places in range(most + 1):
        if np.all(np.abs(numbers - np.round(numbers, places)) <= tolerance):
            return places
    return most


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
        most = MAX_EXACT_DECIMALS if name in EXACT_COMPARISON else MAX_DECIMALS
        if column.dtype == bool:
            continue
        missing = column.isna()
        numeric = pd.api.types.is_numeric_dtype(column.dtype)
        if missing.any():
            if numeric:
                column_places = decimals(column, most) if column.dtype.kind == "f" else 0
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
            places[name] = decimals(column, most)
    headers = {name: column_label(name, labels) for name in shown.columns}
    return TableDisplay(shown, headers, places)


# --- exports: the view's parameters and source in every file name and image ----------------

#: The app's name on every exported image.
APP_NAME = "Cube Theory Lab"
#: ``name`` of the annotation that carries a chart's parameters and source.
EXPORT_NOTE = "export-note"
#: Height (px) of the strip at a chart's top edge that holds :data:`EXPORT_NOTE`.
_NOTE_STRIP = 22
#: Height (px) of the band above it, left to the chart toolbar (plotly's mode bar, drawn
#: at the chart's top right corner): on a phone the note runs the chart's whole width,
#: and the toolbar covered it.
_TOOLBAR_STRIP = 30
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
            joined = f"{key}{value}" if _reads_as_number(value) else f"{key}-{value}"
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
        """The line at an exported chart's top: app, parameters, source (``short``: no
        parameters, for a projector)."""
        parts = [APP_NAME]
        if self.parameters and not short:
            parts.append(", ".join(f"{key}={shown}" for key, _, shown in self.parameters))
        if self.sources:
            parts.append(f"Source: {self.sources}")
        return " · ".join(parts)


def _reads_as_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


#: The longest line of an export note (characters): at its 10 px type it fits a chart on
#: a 390 px phone, where plotly would cut a longer line at the chart's edge (issue #37).
_NOTE_CHARS = 48
#: Height (px) of each further line of an export note.
_NOTE_LINE = 13
#: The longest line of a chart's title (characters) outside presenter mode: it fits a
#: chart on a 390 px phone; a longer title is broken once (plotly does not wrap).
_TITLE_CHARS = 42


def _note_lines(text: str, limit: int = _NOTE_CHARS) -> list[str]:
    """``text`` in lines of at most ``limit`` characters, broken only after a separator
    (" · " between its parts, ", " between parameters, "; " between sources), so that a
    value stays whole; a piece longer than a line has a line of its own. The lines read
    as the text again joined by spaces."""
    pieces = re.split(r"(?<=, )|(?<=· )|(?<=; )", text)
    lines: list[str] = []
    for piece in pieces:
        if lines and len(lines[-1]) + len(piece.rstrip()) <= limit:
            lines[-1] += piece
        else:
            lines.append(piece)
    return [line.rstrip() for line in lines if line.strip()]


def fitting_title(figure: Figure) -> Figure:
    """``figure`` with a title longer than a phone's chart holds broken once, and the top
    margin grown by the second line (a new figure; a short title leaves it as it is)."""
    layout = figure.get("layout", {})
    title = layout.get("title")
    if not isinstance(title, dict):
        return figure
    text = str(title.get("text", ""))
    wrapped = _two_lines(text, _TITLE_CHARS)
    if wrapped == text:
        return figure
    size = float(title.get("font", {}).get("size", _FONT_SIZE[False] + 3))
    margin = dict(layout.get("margin", {}))
    top = int(margin.get("t", _PLOTLY_MARGIN["t"]))
    margin["t"] = top + round(_LINE_EM * size)
    new_layout = {**layout, "title": {**title, "text": wrapped}, "margin": margin}
    return {**figure, "layout": new_layout}


def with_export_note(figure: Figure, text: str) -> Figure:
    """``figure`` with ``text`` in small lines at its top edge (:data:`EXPORT_NOTE`).

    The top margin grows by the lines' strip and the toolbar's band above it; the note
    takes that strip, above the title and under the toolbar: under the plot, plotly
    moves the tick labels, the axis title and the legend as they need (their room
    depends on the width the browser gives), so a line placed there lands on one of
    them; the top strip is the figure's own, and inside the image a PNG export saves.
    A long note is broken into lines a phone's chart holds (:func:`_note_lines`).
    A figure of plotly's default height grows by the toolbar's band (its plot keeps its
    height); the title stays centred between the note and the plot (plotly would centre
    it in the whole margin, on the note).
    """
    lines = _note_lines(text)
    layout = dict(figure.get("layout", {}))
    margin = dict(layout.get("margin", {}))
    top = int(margin.get("t", _PLOTLY_MARGIN["t"]))
    strip = _NOTE_STRIP + _NOTE_LINE * (len(lines) - 1)
    margin["t"] = top + strip + _TOOLBAR_STRIP
    height = int(layout.get("height", _PLOTLY_HEIGHT + _TOOLBAR_STRIP))
    layout["height"] = height
    title = layout.get("title")
    if isinstance(title, dict) and "y" not in title:
        below = _TOOLBAR_STRIP + strip + top / 2  # px from the figure's top
        layout["title"] = {**title, "yref": "container", "y": 1.0 - below / height}
        layout["title"]["yanchor"] = "middle"
    note = {
        "name": EXPORT_NOTE,
        "text": "<br>".join(lines),
        "align": "left",
        "xref": "paper",
        "yref": "paper",
        "x": 0,
        "y": 1,
        "xanchor": "left",
        "yanchor": "bottom",
        "yshift": top,
        "showarrow": False,
        "font": {"size": 10},
        "opacity": 0.8,
    }
    layout["margin"] = margin
    layout["annotations"] = [*layout.get("annotations", []), note]
    return {**figure, "layout": layout}


# --- colours for the active theme (issue #20 item 2) --------------------------------------

#: The app's config, where the light and dark themes are defined (``[theme.light]``,
#: ``[theme.dark]``): the chart colours are read from there, never repeated here.
_CONFIG = Path(__file__).resolve().parents[1] / ".streamlit" / "config.toml"
#: Minimum contrast of text against its background: WCAG 2.2 success criterion 1.4.3
#: (AA), https://www.w3.org/TR/WCAG22/#contrast-minimum.
TEXT_CONTRAST = 4.5
#: Minimum contrast of lines and marker symbols against the background: WCAG 2.2
#: success criterion 1.4.11 (non-text contrast), https://www.w3.org/TR/WCAG22/#non-text-contrast.
GRAPHIC_CONTRAST = 3.0
#: The box behind a label that must stay legible over lines and shaded regions (a tree's
#: edge labels; every marker label gets one): the page background; :func:`themed_figure`
#: paints it in the active theme's background.
LABEL_BOX = "#ffffff"
#: CSS colour names the chart builders use (plotly takes any CSS colour).
_NAMED = {"white": "#ffffff", "black": "#000000"}


@dataclass(frozen=True)
class Theme:
    """One of the app's themes: its type, page background and body text colour."""

    type: str
    background: str
    text: str


def _read_themes(path: Path = _CONFIG) -> dict[str, Theme]:
    """The ``[theme.light]`` and ``[theme.dark]`` sections of the app's config."""
    sections = tomllib.loads(path.read_text(encoding="utf-8"))["theme"]
    return {
        kind: Theme(kind, sections[kind]["backgroundColor"], sections[kind]["textColor"])
        for kind in ("light", "dark")
    }


#: The app's two themes, from ``.streamlit/config.toml``.
THEMES = _read_themes()


def rgba(color: str) -> tuple[float, float, float, float]:
    """A CSS colour (``#rgb``, ``#rrggbb``, ``rgb()``, ``rgba()``, white, black) as 0-255 RGB
    and alpha in [0, 1].

    >>> rgba("#fff"), rgba("rgba(255, 0, 0, 0.5)")
    ((255.0, 255.0, 255.0, 1.0), (255.0, 0.0, 0.0, 0.5))
    """
    text = _NAMED.get(color.strip().lower(), color.strip().lower())
    if text.startswith("#") and len(text) in (4, 7):
        digits = text[1:] if len(text) == 7 else "".join(2 * c for c in text[1:])
        red, green, blue = (float(int(digits[i : i + 2], 16)) for i in (0, 2, 4))
        return red, green, blue, 1.0
    if text.startswith(("rgb(", "rgba(")) and text.endswith(")"):
        parts = [float(p) for p in text[text.index("(") + 1 : -1].split(",")]
        if len(parts) in (3, 4):
            return parts[0], parts[1], parts[2], parts[3] if len(parts) == 4 else 1.0
    raise ValueError(f"color must be #rgb, #rrggbb, rgb(), rgba(), white or black, not {color!r}")


def _hex(red: float, green: float, blue: float) -> str:
    return "#" + "".join(f"{round(min(255.0, max(0.0, c))):02x}" for c in (red, green, blue))


def over(color: str, background: str) -> str:
    """``color`` painted over the opaque ``background`` (its alpha composited), as hex."""
    red, green, blue, alpha = rgba(color)
    back = rgba(background)
    return _hex(
        *(alpha * c + (1.0 - alpha) * b for c, b in zip((red, green, blue), back[:3], strict=True))
    )


def _luminance(color: str) -> float:
    """WCAG relative luminance of an opaque colour."""
    channels = []
    for value in rgba(color)[:3]:
        c = value / 255.0
        channels.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    red, green, blue = channels
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast_ratio(foreground: str, background: str) -> float:
    """WCAG contrast ratio of ``foreground`` over the opaque ``background``, 1 to 21.

    ``(L1 + 0.05) / (L2 + 0.05)`` with ``L1`` the larger relative luminance (each sRGB
    channel linearised); a translucent foreground is composited over the background
    first. WCAG 2.2, definitions "contrast ratio" and "relative luminance",
    https://www.w3.org/TR/WCAG22/#dfn-contrast-ratio.

    >>> round(contrast_ratio("#000000", "#ffffff"), 1), round(contrast_ratio("#777", "#fff"), 2)
    (21.0, 4.48)
    """
    lighter, darker = sorted(
        (_luminance(over(foreground, background)), _luminance(background)), reverse=True
    )
    return (lighter + 0.05) / (darker + 0.05)


@functools.lru_cache(maxsize=1024)
def readable(
    color: str, background: str, minimum: float = TEXT_CONTRAST, *, ink: str | None = None
) -> str:
    """``color``, or the least change of it toward black or white (keeping its hue's
    direction) that has at least ``minimum`` contrast over the opaque ``background``.

    A grey (black, "#111111") that is not readable is taken as ink and becomes ``ink``
    (the theme's text colour) where that is given and readable.

    >>> readable("#111111", "#ffffff"), readable("#111111", "#0e1117", ink="#e8eaed")
    ('#111111', '#e8eaed')
    """
    solid = over(color, background)
    if contrast_ratio(solid, background) >= minimum:
        return color
    red, green, blue, _ = rgba(solid)
    grey = max(red, green, blue) - min(red, green, blue) < 16
    if grey and ink is not None and contrast_ratio(ink, background) >= minimum:
        return ink
    toward = "#ffffff" if _luminance(background) < 0.18 else "#000000"
    low, high = 0.0, 1.0  # share of ``toward`` mixed in: ``high`` is always enough
    for _ in range(30):
        middle = (low + high) / 2
        if contrast_ratio(_mix(solid, toward, middle), background) >= minimum:
            high = middle
        else:
            low = middle
    return _mix(solid, toward, high)


def _mix(color: str, toward: str, share: float) -> str:
    start, end = rgba(color), rgba(toward)
    return _hex(*((1.0 - share) * a + share * b for a, b in zip(start[:3], end[:3], strict=True)))


def themed_figure(figure: Figure, theme: str | None) -> Figure:
    """The chart in the colours of the active theme (``"light"``/``"dark"``; ``None``: the
    app's base theme, light).

    Every text gets an explicit colour with at least :data:`TEXT_CONTRAST` against the
    background it sits on (titles, ticks, legend and axis titles in the theme's text
    colour; annotations and trace text in their own colour made readable, over their own
    ``bgcolor`` if they have one, else the plot's); marker lines, trace lines and marker
    symbols get at least :data:`GRAPHIC_CONTRAST` (a black marker turns light in dark).
    A colour is changed only where it is not readable, and the same colour the same way
    everywhere, so a marker and its label, a line and its legend still match.
    Colour scales (heatmaps) and filled regions are left as they are. The data are the
    same objects; the layout and traces are new.
    """
    chosen = THEMES.get(theme or "light", THEMES["light"])
    layout: Layout = dict(figure.get("layout", {}))
    paper = over(layout.get("paper_bgcolor", chosen.background), chosen.background)
    plot = over(layout.get("plot_bgcolor", paper), paper)
    text = chosen.text

    def font(node: object, background: str = paper) -> dict[str, Any]:
        node = dict(node) if isinstance(node, dict) else {}
        node["color"] = readable(node.get("color", text), background, ink=text)
        return node

    layout["font"] = font(layout.get("font"))
    if isinstance(layout.get("title"), dict):
        layout["title"] = {**layout["title"], "font": font(layout["title"].get("font"))}
    if isinstance(layout.get("legend"), dict) or "legend" not in layout:
        legend = layout.get("legend", {})
        layout["legend"] = {**legend, "font": font(legend.get("font"))}
    for name in [key for key in layout if key.startswith(("xaxis", "yaxis"))]:
        axis = dict(layout[name])
        axis["tickfont"] = font(axis.get("tickfont"))
        title = axis.get("title")
        title = {"text": title} if isinstance(title, str) else dict(title or {})
        axis["title"] = {**title, "font": font(title.get("font"))}
        layout[name] = axis
    if "annotations" in layout:
        layout["annotations"] = [
            _themed_note(note, paper if in_margin(note) else plot, text, chosen.background)
            for note in layout["annotations"]
        ]
    if "shapes" in layout:
        layout["shapes"] = [_themed_shape(shape, plot, text) for shape in layout["shapes"]]
    data = [_themed_trace(trace, plot, text) for trace in figure.get("data", [])]
    return {**figure, "layout": layout, "data": data}


def in_margin(note: Shape) -> bool:
    """Whether an annotation placed in paper coordinates sits wholly outside the plot
    area (in a margin: over the paper, not the plot's background), as the export note."""
    if note.get("xref") != "paper" or note.get("yref") != "paper":
        return False
    x, y = float(note.get("x", 0.5)), float(note.get("y", 0.5))
    return (
        y > 1
        or y < 0
        or (y == 1 and note.get("yanchor") == "bottom" and float(note.get("yshift", 0)) >= 0)
        or (y == 0 and note.get("yanchor") == "top" and float(note.get("yshift", 0)) <= 0)
        or x > 1
        or x < 0
    )


def _themed_note(note: Shape, plot: str, text: str, page: str) -> Shape:
    """An annotation whose text is readable over its own box (``bgcolor``) or what it
    sits on (``plot``: the plot's background, or the paper for a note in a margin).

    A :data:`LABEL_BOX` is painted in the theme's background ``page``, and a marker
    label (:data:`MARKER_LABEL`) without a box of its own gets one: it may sit on a
    shaded region or a line, and its colour is chosen for its box.
    """
    if note.get("name") == MARKER_LABEL and "bgcolor" not in note:
        note = {**note, "bgcolor": LABEL_BOX}
    if note.get("bgcolor") == LABEL_BOX:
        note = {**note, "bgcolor": page}
    background = over(note["bgcolor"], plot) if "bgcolor" in note else plot
    font = dict(note.get("font", {}))
    font["color"] = readable(font.get("color", text), background, ink=text)
    return {**note, "font": font}


def _themed_shape(shape: Shape, plot: str, ink: str) -> Shape:
    """A shape whose outline is visible on the plot (fills are left as they are)."""
    line = shape.get("line")
    if not isinstance(line, dict) or not isinstance(line.get("color"), str):
        return shape
    return {**shape, "line": {**line, "color": _graphic(line["color"], plot, ink)}}


def _graphic(color: object, plot: str, ink: str) -> object:
    """A line or marker colour (or a list of them) made visible on the plot."""
    if isinstance(color, str):
        return readable(color, plot, GRAPHIC_CONTRAST, ink=ink)
    if isinstance(color, list | tuple) and all(isinstance(c, str) for c in color):
        return [readable(c, plot, GRAPHIC_CONTRAST, ink=ink) for c in color]
    return color  # numbers on a colour scale


def _themed_trace(trace: Trace, plot: str, text: str) -> Trace:
    """A trace whose line, markers and text are visible on the plot.

    Heatmaps keep their colour scale, and their cell numbers (:func:`readable_cells`)
    their colour per cell; a trace's own text gets the theme's text colour if it has none.
    """
    if trace.get("type") in ("heatmap", "contour", "histogram2d") or trace.get("meta") == CELL_TEXT:
        return trace  # on a colour scale's cells (readable_cells), not on the plot
    trace = dict(trace)
    if isinstance(trace.get("line"), dict) and "color" in trace["line"]:
        trace["line"] = {**trace["line"], "color": _graphic(trace["line"]["color"], plot, text)}
    if isinstance(trace.get("marker"), dict) and "color" in trace["marker"]:
        trace["marker"] = {
            **trace["marker"],
            "color": _graphic(trace["marker"]["color"], plot, text),
        }
    if trace.get("type") == "bar" and trace.get("textposition") == "inside":
        fill = (trace.get("marker") or {}).get("color")
        if isinstance(fill, str | list):  # text on the bars: an ink per bar, on its colour
            inks = [_ink(over(c, plot)) for c in (fill if isinstance(fill, list) else [fill])]
            font = dict(trace.get("insidetextfont", {}))
            font["color"] = inks if isinstance(fill, list) else inks[0]
            trace["insidetextfont"] = font
    if "text" in trace or "texttemplate" in trace:
        textfont = dict(trace.get("textfont", {}))
        color = textfont.get("color", text)
        if isinstance(color, list):
            textfont["color"] = [readable(c, plot, ink=text) for c in color]
        else:
            textfont["color"] = readable(color, plot, ink=text)
        trace["textfont"] = textfont
    return trace


# --- numbers on a colour scale's cells ------------------------------------------------------

#: ``meta`` of the trace that carries a heatmap's cell numbers (:func:`readable_cells`).
CELL_TEXT = "cell text"
#: The two inks of cell numbers: one of them has at least 4.58:1 contrast with any colour
#: (WCAG relative luminance; the worst cell is the grey whose contrast is equal to both).
_CELL_INKS = ("#000000", "#ffffff")
#: Cell-text templates :func:`readable_cells` can write server-side: the cell's own text,
#: or its value in a d3 fixed-point format (the same in Python's format mini-language).
_Z_TEMPLATE = re.compile(r"^%\{z:([+]?\.\d+f)\}$")


@functools.lru_cache(maxsize=4096)
def _ink(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (at least 4.58:1); remembered
    per colour, as a heatmap's rerun asks again for the same cells' colours."""
    return max(_CELL_INKS, key=lambda ink: contrast_ratio(ink, fill))


def explicit_colorscale(scale: object) -> object:
    """A named colour scale as its list of ``[position, colour]`` stops (plotly's Python
    definitions, :func:`plotly.colors.get_colorscale`); a list is returned as it is.

    The browser's plotly.js knows other scales under some of the same names (its "RdBu"
    runs the other way, its "Blues" is another scale) and not others at all ("PuOr"), so
    a figure sent as a plain dict says its colours explicitly.
    """
    if not isinstance(scale, str):
        return scale
    return [[float(position), color] for position, color in get_colorscale(scale)]


def readable_cells(figure: Figure) -> Figure:
    """Every heatmap or contour with a named colour scale gets its stops
    (:func:`explicit_colorscale`; one without a scale keeps Streamlit's theme scale), and
    every such heatmap that writes numbers in its cells gets them in black or white, per
    cell, whichever has the more contrast with that cell's colour (at least 4.58:1; plotly
    draws them in a dark grey or white that reach only 3.2:1 on mid-tone cells).

    The numbers move to a text-only trace over the heatmap (:data:`CELL_TEXT`), since
    plotly takes one colour for a heatmap's cell text; hovering still reads the heatmap.
    A cell without a value shows no number. A template other than ``%{text}`` or
    ``%{z:.Nf}`` is left to plotly. The same object is returned when nothing changes.
    """
    data = figure.get("data", [])
    if not any(trace.get("type") in ("heatmap", "contour") for trace in data):
        return figure
    out: list[Trace] = []
    for trace in data:
        if trace.get("type") not in ("heatmap", "contour"):
            out.append(trace)
            continue
        if "colorscale" not in trace:
            out.append(trace)
            continue
        trace = {**trace, "colorscale": explicit_colorscale(trace["colorscale"])}
        cells = _cell_numbers(trace) if trace["type"] == "heatmap" else None
        if cells is None:
            out.append(trace)
            continue
        out.append({key: value for key, value in trace.items() if key != "texttemplate"})
        out.append(cells)
    return {**figure, "data": out}


def _cell_numbers(heatmap: Trace) -> Trace | None:
    """The text-only trace of a heatmap's cell numbers, each in its readable ink."""
    template = heatmap.get("texttemplate")
    if not template:
        return None
    z = np.asarray(heatmap["z"], dtype=float)
    if template == "%{text}":
        labels = [[str(v) for v in row] for row in heatmap.get("text", [])]
    elif match := _Z_TEMPLATE.match(str(template)):
        labels = [["" if math.isnan(v) else format(v, match.group(1)) for v in row] for row in z]
    else:
        return None
    rows, columns = z.shape
    xs = list(heatmap.get("x", range(columns)))
    ys = list(heatmap.get("y", range(rows)))
    finite = z[np.isfinite(z)]
    low = float(heatmap.get("zmin", finite.min() if finite.size else 0.0))
    high = float(heatmap.get("zmax", finite.max() if finite.size else 1.0))
    scale = heatmap["colorscale"]
    if heatmap.get("reversescale"):
        scale = [[1.0 - position, color] for position, color in reversed(scale)]
    shown = [
        (row, column)
        for row in range(rows)
        for column in range(columns)
        if not math.isnan(z[row, column]) and labels[row][column]
    ]
    values = np.array([z[row, column] for row, column in shown], dtype=float)
    shares = np.zeros_like(values) if high == low else (values - low) / (high - low)
    cells = sample_colorscale(scale, np.clip(shares, 0.0, 1.0).tolist(), colortype="rgb")
    return {
        "type": "scatter",
        "mode": "text",
        "x": [xs[column] for _, column in shown],
        "y": [ys[row] for row, _ in shown],
        "text": [labels[row][column] for row, column in shown],
        "textfont": {**heatmap.get("textfont", {}), "color": [_ink(cell) for cell in cells]},
        "hoverinfo": "skip",
        "showlegend": False,
        "name": "cell values",
        "meta": CELL_TEXT,
        **{axis: heatmap[axis] for axis in ("xaxis", "yaxis") if axis in heatmap},
    }


# --- marker labels that never collide (issue #20 item 2) ----------------------------------

#: ``name`` of a marker line's label (:func:`vertical_marker`, horizontal markers):
#: :func:`place_marker_labels` moves these, and only these, apart.
MARKER_LABEL = "marker label"
#: The narrowest a chart is drawn, in px (a chart beside its formulas in the wide layout
#: with the sidebar open at 1280 px: 484 px, measured in Chromium). Labels placed apart
#: at this width stay apart wider: positions along x spread, the boxes keep their size.
CHART_WIDTH = 480
#: Plotly's figure height and margins where a figure gives none (plotly.js defaults).
_PLOTLY_HEIGHT = 450
_PLOTLY_MARGIN = {"l": 80, "r": 80, "t": 100, "b": 80}
#: Text box estimate: an average glyph is at most 0.6 em wide (digits and lower case of
#: the sans-serif fonts Streamlit uses are 0.5-0.55 em), a line 1.3 em high, and plotly's
#: box around an annotation's text adds ``_BOX_PAD`` px a side (its default ``borderpad``
#: and ``borderwidth``, 1 px each: 18 px across a 12 px label, measured in Chromium);
#: labels keep ``_LABEL_GAP`` px between them.
_GLYPH_EM, _LINE_EM, _BOX_PAD, _LABEL_GAP = 0.6, 1.3, 2.0, 2.0
#: How far out (in label widths) a label may be moved along x before giving up on the
#: plot's height; far more than any chart has labels.
_MAX_STEPS = 64


@dataclass(frozen=True)
class Box:
    """A label's estimated text box in px of the plot area (x to the right, y up).

    ``share`` is where the label's anchor sits across the plot's width (0 left, 1
    right): as the chart gets wider the box moves right by ``share`` times the extra
    width, keeping its size and its height above the plot's bottom.
    """

    text: str
    x0: float
    x1: float
    y0: float
    y1: float
    share: float = 0.0

    def overlaps(self, other: Box) -> bool:
        """Whether the two boxes share any area."""
        return (
            self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1
        )

    def collides(self, other: Box) -> bool:
        """Whether the two boxes overlap at this width or at any wider one.

        Side by side at one height, the box on the left must not drift right faster
        than the other (a larger ``share``); one above the other they never meet.
        """
        if not (self.y0 < other.y1 and other.y0 < self.y1):
            return False
        if self.overlaps(other):
            return True
        left, right = (self, other) if self.x1 <= other.x0 else (other, self)
        return left.share > right.share


@dataclass(frozen=True)
class _Frame:
    """The plot area's size in px and how x and y of each axis map onto it."""

    width: float
    height: float
    x_axes: dict[str, tuple[float, float, float, float]]  # ref -> (lo, hi, dom0, dom1)
    y_axes: dict[str, tuple[float, float, float, float]]

    def share(self, value: float, ref: str, axes: dict[str, tuple[float, float, float, float]]
              ) -> float:  # fmt: skip
        """Where ``value`` on the axis ``ref`` (or the paper) sits across the plot, 0 to 1."""
        if ref == "paper":
            return value
        lo, hi, start, end = axes.get(ref.split(" ")[0], (0.0, 1.0, 0.0, 1.0))
        along = 0.5 if hi == lo else (value - lo) / (hi - lo)
        return start + along * (end - start)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float | np.number) and not isinstance(value, bool)


def _extent(figure: Figure, axis: str, ref: str, log: bool) -> tuple[float, float]:
    """The data range plotly's autorange would show on one axis (no padding)."""
    values: list[float] = []
    for trace in figure.get("data", []):
        if trace.get(f"{axis}axis", axis) != ref:
            continue
        raw = trace.get(axis, [])
        try:
            numbers = np.asarray(raw, dtype=float).ravel()
        except (TypeError, ValueError):  # categories, or numbers among them
            numbers = np.array(
                [v for v in np.ravel(np.asarray(raw, dtype=object)) if _is_number(v)], dtype=float
            )
        numbers = numbers[np.isfinite(numbers) & (numbers > 0 if log else True)]
        if numbers.size:
            low, high = float(numbers.min()), float(numbers.max())
            values += [math.log10(low), math.log10(high)] if log else [low, high]
    if axis == "x":
        for note in figure.get("layout", {}).get("annotations", []):
            if note.get("xref", "x") == ref and isinstance(note.get("x"), int | float):
                values.append(float(note["x"]))
    return (min(values), max(values)) if values else (0.0, 1.0)


def _frame(figure: Figure, width: float) -> _Frame:
    layout = figure.get("layout", {})
    margin = {**_PLOTLY_MARGIN, **layout.get("margin", {})}
    plot_width = max(1.0, width - margin["l"] - margin["r"])
    height = layout.get("height", _PLOTLY_HEIGHT)
    plot_height = max(1.0, height - margin["t"] - margin["b"])
    legend = _legend_height(figure, plot_width)
    if legend:  # plotly grows the bottom margin to fit a legend under the plot
        size = float(layout.get("font", {}).get("size", 12))
        axis = 2 * _LINE_EM * size + 10.0  # tick labels and the axis title above it
        offset = abs(float(layout.get("legend", {}).get("y", 0.0)))  # of the plot's height
        plot_height = max(
            1.0, min(plot_height, (height - margin["t"] - axis - legend) / (1 + offset))
        )
    axes: dict[str, dict[str, tuple[float, float, float, float]]] = {"x": {}, "y": {}}
    for name, axis in layout.items():
        if not name.startswith(("xaxis", "yaxis")) or not isinstance(axis, dict):
            continue
        letter, ref = name[0], name[0] + name[5:]
        log = axis.get("type") == "log"
        bounds = axis.get("range") or _extent(figure, letter, ref, log)
        start, end = axis.get("domain", [0.0, 1.0])
        axes[letter][ref] = (float(bounds[0]), float(bounds[1]), float(start), float(end))
    return _Frame(plot_width, plot_height, axes["x"], axes["y"])


def _legend_height(figure: Figure, plot_width: float) -> float:
    """Estimated height (px) of a horizontal legend under the plot, 0 for none: its
    entries (a 40 px symbol and the name) packed into rows as wide as the plot."""
    layout = figure.get("layout", {})
    legend = layout.get("legend", {})
    if layout.get("showlegend") is False or legend.get("orientation") != "h":
        return 0.0
    if float(legend.get("y", 1.0)) >= 0:
        return 0.0
    names = [
        str(trace["name"])
        for trace in figure.get("data", [])
        if trace.get("name")
        and trace.get("showlegend", True) is not False
        and trace.get("type", "scatter") not in ("heatmap", "contour")
    ]
    if len(names) < 2 and layout.get("showlegend") is not True:
        return 0.0
    size = float(legend.get("font", {}).get("size", layout.get("font", {}).get("size", 12)))
    rows, used = 1, 0.0
    for name in names:
        entry = 40.0 + _GLYPH_EM * size * len(name)
        if used and used + entry > plot_width:
            rows, used = rows + 1, 0.0
        used += entry
    return rows * (_LINE_EM * size + 6.0)


def label_box(note: Shape, figure: Figure, *, width: float = CHART_WIDTH) -> Box:
    """The estimated text box of an annotation in px of the plot area, shifts included.

    Width from the text's length (``_GLYPH_EM`` em a character), height one line
    (``_LINE_EM`` em), both swapped for text turned by 90 degrees; anchored as plotly
    anchors it (``xanchor``/``yanchor``, "auto" as the centre) at ``x``, ``y`` on the
    axes (or the paper) the note refers to, at the figure's height and ``width`` px.
    """
    return _label_box(note, figure.get("layout", {}), _frame(figure, width))


def _label_box(note: Shape, layout: Layout, frame: _Frame) -> Box:
    size = float(note.get("font", {}).get("size", layout.get("font", {}).get("size", 12)))
    text = str(note.get("text", ""))
    long_side = _GLYPH_EM * size * max(1, len(text)) + 2 * _BOX_PAD
    short_side = _LINE_EM * size + 2 * _BOX_PAD
    turned = abs(float(note.get("textangle", 0))) % 180 == 90
    box_w, box_h = (short_side, long_side) if turned else (long_side, short_side)
    share = frame.share(float(note.get("x", 0.5)), note.get("xref", "x"), frame.x_axes)
    x = share * frame.width + float(note.get("xshift", 0.0))
    y = frame.share(float(note.get("y", 0.5)), note.get("yref", "y"), frame.y_axes) * frame.height
    y += float(note.get("yshift", 0.0))
    left = {"left": x, "right": x - box_w}.get(note.get("xanchor", "auto"), x - box_w / 2)
    bottom = {"bottom": y, "top": y - box_h}.get(note.get("yanchor", "auto"), y - box_h / 2)
    return Box(text, left, left + box_w, bottom, bottom + box_h, share)


def marker_label_boxes(figure: Figure, *, width: float = CHART_WIDTH) -> list[Box]:
    """The :func:`label_box` of every marker label (:data:`MARKER_LABEL`) of the figure."""
    layout = figure.get("layout", {})
    frame = _frame(figure, width)
    notes = layout.get("annotations", [])
    return [_label_box(n, layout, frame) for n in notes if n.get("name") == MARKER_LABEL]


def place_marker_labels(figure: Figure, *, width: float = CHART_WIDTH) -> Figure:
    """The figure with its marker labels moved (``xshift``/``yshift`` in px) so that no
    two estimated text boxes (:func:`label_box`) overlap at ``width`` px or wider
    (:meth:`Box.collides`).

    The rule: labels are placed one by one, in the figure's order. A label keeps its
    place if its box is free; otherwise it goes to the highest free place in the plot
    (at its top, or just under a label already placed: labels stack in rows from the
    top), trying
    first beside its line, then the other side of its line, then ever further out along
    x; if no place inside the plot's height is free (a label taller than the plot), the
    first free place outside it. Vertical marker labels move down the line, horizontal
    ones along it. Only labels named :data:`MARKER_LABEL` move; other text stays put.
    The same object is returned when nothing moves.
    """
    notes = figure.get("layout", {}).get("annotations", [])
    if sum(1 for n in notes if n.get("name") == MARKER_LABEL) < 2:
        return figure
    frame = _frame(figure, width)
    placed: list[Box] = []
    moved = list(notes)
    for index, note in enumerate(notes):
        if note.get("name") != MARKER_LABEL:
            continue
        box = _label_box(note, figure["layout"], frame)
        shift = _free_shift(box, placed, frame, turned=box.y1 - box.y0 > box.x1 - box.x0)
        for key, step in zip(("xshift", "yshift"), shift, strict=True):
            if step:
                moved[index] = {**moved[index], key: float(note.get(key, 0.0)) + step}
        placed.append(_shifted(box, *shift))
    if moved == notes:
        return figure
    return {**figure, "layout": {**figure["layout"], "annotations": moved}}


def _shifted(box: Box, dx: float, dy: float) -> Box:
    return Box(box.text, box.x0 + dx, box.x1 + dx, box.y0 + dy, box.y1 + dy, box.share)


def _free_shift(box: Box, placed: list[Box], frame: _Frame, *, turned: bool) -> tuple[float, float]:
    """The first free ``(dx, dy)`` for ``box`` (the rule of :func:`place_marker_labels`)."""
    thickness = (box.x1 - box.x0 if turned else box.y1 - box.y0) + _LABEL_GAP
    away = [0.0]  # across the line: beside it, the other side, further out
    for k in range(1, _MAX_STEPS):
        away += [k * thickness, -k * thickness]
    if turned:  # along the line: stay, or at the plot's top or just under a placed
        # label, highest first (a label the figure put low on its line may move up)
        top = frame.height - box.y1
        unders = (p.y0 - _LABEL_GAP - box.y1 for p in placed)
        along = [0.0, *sorted({top, *(d for d in unders if d < top)} - {0.0}, reverse=True)]
    else:  # along the line: stay, or just past a placed label, nearest first
        pasts = [p.x0 - _LABEL_GAP - box.x1 for p in placed]
        pasts += [p.x1 + _LABEL_GAP - box.x0 for p in placed]
        along = [0.0, *sorted(pasts, key=abs)]
    for inside in (True, False):
        for step in away:
            for slide in along:
                dx, dy = (step, slide) if turned else (slide, step)
                candidate = _shifted(box, dx, dy)
                if inside and (candidate.y0 < 0 or candidate.y1 > frame.height + 1e-9):
                    continue
                if not any(candidate.collides(p) for p in placed):
                    return (dx, dy)
    # right of and under everything: free at every width
    return (max(p.x1 for p in placed) + _LABEL_GAP - box.x0, min(p.y0 for p in placed) - box.y1)


# --- a text alternative for every chart (issue #20 item 2) --------------------------------

#: Traces a text alternative names at most (the first ones: builders put the model first).
_SUMMARY_TRACES = 4


def _plain(text: object) -> str:
    """Chart text without plotly's HTML tags (``<br>``, ``<sub>``, ...), on one line."""
    return " ".join(re.sub(r"<[^>]*>", " ", str(text or "")).split())


def _title_text(node: object) -> str:
    return _plain(node.get("text") if isinstance(node, dict) else node)


def _number(value: float) -> str:
    return f"{value + 0.0:.4g}"  # no "-0"


def _value_range(trace: Trace) -> str | None:
    """``"from a to b"`` (or ``"b"``) of a trace's values: z of a heatmap, else y (x of a
    horizontal bar, or where y is not numeric)."""
    axes = ("z",) if "z" in trace else ("x", "y") if trace.get("orientation") == "h" else ("y", "x")
    for axis in axes:
        try:
            values = np.asarray(trace.get(axis, []), dtype=float).ravel()
        except (TypeError, ValueError):
            continue
        values = values[np.isfinite(values)]
        if values.size:
            low, high = float(values.min()), float(values.max())
            return _number(low) if low == high else f"from {_number(low)} to {_number(high)}"
    return None


def chart_summary(figure: Figure) -> str:
    """A short text alternative of a chart: its title, axes and key values.

    The key values are its marker labels (:data:`MARKER_LABEL`: "take 0.213"), or where
    it has none the range of each of its first traces' values (traces without hover,
    drawing aids such as a board's checkers, are left out). Used as the chart's
    accessible name and, in presenter mode, as its caption (:func:`ui.widgets.chart`).

    >>> built = figure([line([0, 1], [0.5, 1.0], "equity", "#000")], "E", "P", "equity")
    >>> chart_summary(built)
    'E. Horizontal axis: P; vertical axis: equity. equity: from 0.5 to 1.'
    """
    layout = figure.get("layout", {})
    parts = [f"{_title_text(layout.get('title')) or 'Chart'}."]
    x_title = _title_text((layout.get("xaxis") or {}).get("title"))
    y_title = _title_text((layout.get("yaxis") or {}).get("title"))
    axes = "; ".join(
        f"{side} axis: {title}"
        for side, title in (("horizontal", x_title), ("vertical", y_title))
        if title  # an axis without a title (rows named by their labels) is not named
    )
    if axes:
        parts.append(f"{axes[0].upper()}{axes[1:]}.")
    marks = [
        _plain(note.get("text"))
        for note in layout.get("annotations", [])
        if note.get("name") == MARKER_LABEL
    ]
    if marks:
        parts.append(f"Marked: {', '.join(marks)}.")
    else:
        ranges = []
        shown_traces = [t for t in figure.get("data", []) if t.get("hoverinfo") != "skip"]
        for trace in shown_traces[:_SUMMARY_TRACES]:  # not drawing aids (a board's checkers)
            shown = _value_range(trace)
            if shown is not None:
                name = _plain(trace.get("name")) or "values"
                ranges.append(f"{name}: {shown}")
        if ranges:
            parts.append("; ".join(ranges) + ".")
    return " ".join(parts)
