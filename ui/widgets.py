"""Shared widgets: URL-bound controls from specs, presets, charts, tables, formulas."""

from __future__ import annotations

import functools
import hashlib
import pickle
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from contextvars import ContextVar
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Literal, TypedDict, cast

import pandas as pd
import pyarrow as pa
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from cubecore.cubeful import ProperCubeAction
from ui.controls import PRESENT, Control
from ui.internals import PrevalidatedFigure
from ui.style import (
    NOT_APPLICABLE,
    ExportContext,
    Figure,
    TableDisplay,
    chart_summary,
    fitting_title,
    place_marker_labels,
    plotly_config,
    presenter_figure,
    readable_cells,
    slide_figure,
    table_display,
    themed_figure,
    with_export_note,
)

#: The open view's parameters and sources, set by the page skeleton around the open
#: section (:func:`exporting`); every chart and CSV download names them. A context
#: variable, not a module global: each session's script run has its own.
_EXPORT: ContextVar[ExportContext | None] = ContextVar("export", default=None)


#: The keys of presenter mode's first screen (:func:`slide`): the section's headline
#: numbers and, beside them, its first chart (styled by key in ``ui.skeleton``).
SLIDE_NUMBERS, SLIDE_CHART = "slide-numbers", "slide-chart"
#: Widths of the slide's two columns: the numbers, the chart.
_SLIDE_COLUMNS = (1.0, 2.6)
#: The longest value (characters) that shares a row of the slide with another one
#: ("0.2128", "84.36%"); a longer one ("+0.02489", "too good") has the row to itself.
_SHORT = 7


@dataclass
class _Slide:
    """Presenter mode's first screen while a section renders: where its headline
    numbers go, where its first chart goes, and whether that chart has been drawn."""

    numbers: DeltaGenerator
    chart: DeltaGenerator
    chart_drawn: bool = False


#: The open section's slide in presenter mode (:func:`slide`), else None.
_SLIDE: ContextVar[_Slide | None] = ContextVar("slide", default=None)


class _Binding(TypedDict):
    """The keyword arguments that bind a widget to the URL under its control's key."""

    key: str
    bind: Literal["query-params"]
    help: str | None


def presenter_mode() -> bool:
    """Whether the app-wide presenter flag (``?present=true``) is on."""
    return bool(st.session_state.get(PRESENT.key, PRESENT.default))


def control(
    spec: Control, where: DeltaGenerator = st.sidebar, *, disabled: bool = False
) -> str | bool | int | float | None:
    """Create the widget for ``spec``, bound to the URL under its key."""
    common: _Binding = {"key": spec.key, "bind": "query-params", "help": spec.help or None}
    if spec.key in st.session_state and not spec.accepts(st.session_state[spec.key]):
        # another page's control of the same concept left a value this one cannot show
        del st.session_state[spec.key]
    # The default is always given, also when Session State holds the value (a preset, a
    # link alias): the browser drops a value equal to the widget's default from the
    # address bar, and without it a slider's default is its minimum, so a preset that
    # set x = 0 left no x in the link. (Streamlit's log warning about a default beside a
    # Session State value is off in .streamlit/config.toml.) The casts name the type a
    # default of each kind has (Control checks that a select's default is an option).
    if spec.kind == "text" and spec.lines > 1:  # a list, one item a line
        return where.text_area(
            spec.label,
            cast(str, spec.default),
            height=max(68, 24 * spec.lines),
            max_chars=spec.max_chars,
            disabled=disabled,
            **common,
        )
    if spec.kind == "text":
        return where.text_input(
            spec.label,
            cast(str, spec.default),
            disabled=disabled,
            max_chars=spec.max_chars,
            **common,
        )
    if spec.kind == "bool":
        return where.toggle(spec.label, cast(bool, spec.default), disabled=disabled, **common)
    if spec.kind == "select":
        index = spec.options.index(str(spec.default))
        # The box shows each option's label, and the link carries it: a bound select
        # box writes the formatted label to the link and reads it back (Streamlit 1.67,
        # SelectboxSerde.serialize); Control.parse and Control.format spell it so.
        return where.selectbox(
            spec.label,
            spec.options,
            index,
            format_func=spec.option_label,
            disabled=disabled,
            **common,
        )
    if spec.kind == "number":  # a float typed in a box, shown with its step's decimals
        return where.number_input(
            spec.label,
            float(spec.low),
            float(spec.high),
            float(cast(float, spec.default)),
            step=float(spec.step),
            format=f"%.{spec.step_decimals}f",
            disabled=disabled,
            **common,
        )
    # an int slider gets ints (Streamlit's default format); a float slider floats, shown
    # with as many decimals as its step has
    number: type[float] = int if spec.kind == "int" else float
    number_format = None if spec.kind == "int" else f"%.{spec.step_decimals}f"
    return where.slider(
        spec.label,
        number(spec.low),
        number(spec.high),
        number(cast(float, spec.default)),
        step=number(spec.step),
        format=number_format,
        disabled=disabled,
        **common,
    )


def _apply_preset(values: Mapping[str, Any]) -> None:
    for key, value in values.items():
        st.session_state[key] = value


def preset_buttons(
    presets: Mapping[str, Mapping[str, Any]], where: DeltaGenerator | ModuleType = st
) -> None:
    """One button per preset; a click sets the controls (and so the link)."""
    columns = where.columns(len(presets))
    for column, (label, values) in zip(columns, presets.items(), strict=True):
        column.button(
            label,
            key=f"preset:{label}",
            on_click=_apply_preset,
            args=(dict(values),),
            width="stretch",
        )


@contextmanager
def exporting(context: ExportContext) -> Iterator[None]:
    """Within the block, every chart and CSV download carries ``context`` (the skeleton's)."""
    token = _EXPORT.set(context)
    try:
        yield
    finally:
        _EXPORT.reset(token)


@contextmanager
def slide(present: bool) -> Iterator[None]:
    """In presenter mode, open the section's first screen: two columns at its top, the
    section's :func:`headline` numbers on the left and its first :func:`chart` on the
    right (:func:`ui.style.slide_figure`), so that both fit a 1280x720 projector under
    the page's frame. Everything else the section draws follows below, in its order.
    Outside presenter mode nothing changes: the numbers and the chart stay where the
    section draws them. Set by the page skeleton around the open section.
    """
    if not present:
        yield
        return
    numbers, chart_column = st.columns(_SLIDE_COLUMNS, gap="medium")
    token = _SLIDE.set(
        _Slide(numbers.container(key=SLIDE_NUMBERS), chart_column.container(key=SLIDE_CHART))
    )
    try:
        yield
    finally:
        _SLIDE.reset(token)


def headline(metrics: Sequence[tuple[str, str]]) -> None:
    """The section's headline numbers, ``(label, value)`` each: what a teacher points at.

    A row of metrics where the section draws it (:func:`metric_row`); in presenter mode
    on the first screen, beside the first chart (:func:`slide`), two short numbers to a
    row and a longer value on a row of its own.
    A section has one headline of one to four numbers.
    """
    if not 1 <= len(metrics) <= 4:
        raise ValueError(f"metrics: a headline has one to four numbers, got {len(metrics)}")
    shown = _SLIDE.get()
    if shown is None:
        metric_row(metrics)
        return
    rows: list[list[tuple[str, str]]] = []
    for metric in metrics:  # two short numbers to a row: four fit beside the chart
        if rows and len(rows[-1]) == 1 and max(len(rows[-1][0][1]), len(metric[1])) <= _SHORT:
            rows[-1].append(metric)
        else:
            rows.append([metric])
    for row in rows:
        places = shown.numbers.columns(2) if len(row) == 2 else [shown.numbers]
        for place, (label, value) in zip(places, row, strict=True):
            place.metric(label, value)


def export_context() -> ExportContext:
    """The open view's parameters and sources (empty outside :func:`exporting`)."""
    return _EXPORT.get() or ExportContext()


def _content_key(*parts: object) -> str:
    """What identifies a shown table or chart: a digest of its parts' pickle (equal
    pickles are equal contents; 0.03 ms for a 30 x 10 frame)."""
    return hashlib.sha256(pickle.dumps(parts, protocol=5)).hexdigest()


def _finished_chart(
    *, figure: Figure, present: bool, on_slide: bool, note: str, theme: str | None
) -> tuple[Figure, str]:
    """A figure as :func:`chart` shows it and its text alternative: new figures, the one
    given is never changed (the pages' prepared views hand every session the same one)."""
    figure = presenter_figure(figure) if present else fitting_title(figure)
    if on_slide:
        figure = slide_figure(figure)
    figure = with_export_note(figure, note)
    figure = themed_figure(place_marker_labels(readable_cells(figure)), theme)
    return figure, chart_summary(figure)


@st.cache_resource(max_entries=64, show_spinner=False)
def _drawn_chart(
    *,
    key: str,
    _figure: Figure,
    present: bool,
    on_slide: bool,
    note: str,
    theme: str | None,
    filename: str,
    chart_key: str | None,
) -> None:
    """Draw a chart as :func:`chart` shows it, once per process for ``key``
    (:func:`_content_key` of the figure) and the other arguments (hashed by Streamlit).

    Streamlit records the elements a cached function draws and, when a later call hits
    the cache, sends the recorded ones again without running the function ("Static
    elements" in Streamlit's caching guide,
    https://docs.streamlit.io/develop/concepts/architecture/caching): a warm rerun that
    draws the same chart again skips the styling steps, the figure's JSON and the
    element's id. Called by keyword (see :func:`_drawn_table`). Shared by every session.
    """
    figure, summary = _finished_chart(
        figure=_figure, present=present, on_slide=on_slide, note=note, theme=theme
    )
    st.plotly_chart(
        PrevalidatedFigure(figure),
        config=plotly_config(filename),
        theme="streamlit",
        key=chart_key,
        alt=summary,
    )
    if present:
        st.caption(summary)


def chart(figure: Figure, filename: str, *, key: str | None = None) -> None:
    """Render a plotly figure dict with the house toolbar (PNG download).

    In presenter mode the chart is restyled for a projector
    (:func:`ui.style.presenter_figure`). The view's parameters and sources
    (:func:`export_context`) are added to the PNG's file name and, as a small line at
    the figure's top edge, to the image (in presenter mode the line names the app and the source
    only). Heatmaps get explicit colour scales and their cell numbers an ink per cell
    (:func:`ui.style.readable_cells`). Then, at the final font sizes, its marker labels
    are moved apart (:func:`ui.style.place_marker_labels`), and it takes the colours of
    the browser's theme (:func:`ui.style.themed_figure`; before the browser has said
    which, the app's base theme). Figure builders do none of this.

    Its text alternative (:func:`ui.style.chart_summary`: title, axes, key values) is
    the chart's accessible name, and in presenter mode also its caption.
    """
    context = export_context()
    present = presenter_mode()
    shown = _SLIDE.get()
    on_slide = shown if shown is not None and not shown.chart_drawn else None  # the first
    if on_slide is not None:
        on_slide.chart_drawn = True
    where: AbstractContextManager[object] = nullcontext() if on_slide is None else on_slide.chart
    with where:
        _drawn_chart(  # by keyword: Streamlit then reads no signature
            key=_content_key(figure),
            _figure=figure,
            present=present,
            on_slide=on_slide is not None,
            note=context.note(short=present),
            theme=st.context.theme.type,
            filename=context.filename(filename),
            chart_key=key,
        )


def chart_columns(present: bool) -> Sequence[Any]:
    """A wide chart column and a narrower one beside it (formulas, notes).

    In presenter mode the chart takes the width and the side column is a sliver: what
    goes there is for the reader at a screen, not for a projector.
    """
    return st.columns([3, 2] if not present else [1, 0.001])


def side_by_side(present: bool) -> Sequence[Any]:
    """Two columns side by side; in presenter mode two full-width containers, stacked."""
    return (st.container(), st.container()) if present else st.columns(2)


def metric_row(metrics: Sequence[tuple[str, str]]) -> None:
    """A row of metrics, ``(label, value)`` each, one column each."""
    _drawn_metric_row(metrics=tuple((label, value) for label, value in metrics))


@st.cache_resource(max_entries=256, show_spinner=False)
def _drawn_metric_row(*, metrics: tuple[tuple[str, str], ...]) -> None:
    """Draw :func:`metric_row`'s row; a row drawn before is sent again as Streamlit
    recorded it (see :func:`_drawn_chart`), without laying out its columns anew."""
    for column, (label, value) in zip(st.columns(len(metrics)), metrics, strict=True):
        column.metric(label, value)


def two_charts(
    first: tuple[Figure, str],
    second: tuple[Figure, str],
    *,
    present: bool,
    formulas: Sequence[tuple[str, str]] = (),
) -> None:
    """Two charts, ``(figure, filename)`` each, side by side (:func:`side_by_side`).

    ``formulas`` (``(latex, source)`` pairs, see :func:`formula`) go underneath, except
    in presenter mode.
    """
    for column, (figure, filename) in zip(side_by_side(present), (first, second), strict=True):
        with column:
            chart(figure, filename)
    if not present:
        for latex, source in formulas:
            formula(latex, source)


def chart_with_formulas(
    figure: Figure,
    filename: str,
    formulas: Sequence[tuple[str, str]],
    *,
    present: bool,
    more: Sequence[tuple[Figure, str]] = (),
) -> None:
    """A chart with its formulas beside it (``(latex, source)`` pairs, see :func:`formula`).

    ``more`` are further charts, ``(figure, filename)`` each, under the first. In
    presenter mode the charts alone (:func:`chart_columns`).
    """
    chart_column, formula_column = chart_columns(present)
    with chart_column:
        for shown, name in ((figure, filename), *more):
            chart(shown, name)
    if not present:
        with formula_column:
            for latex, source in formulas:
                formula(latex, source)


def _csv_bytes(shown: TableDisplay) -> bytes:
    return shown.as_text().to_csv(index=False).encode()


def _prepared_table(
    frame: pd.DataFrame, labels: Mapping[str, str] | None
) -> tuple[TableDisplay, pa.Table | pd.DataFrame]:
    """A table by the display rule and its Arrow form; a frame Arrow cannot take as it
    is goes to ``st.dataframe`` as pandas (Streamlit's own conversion fixes its columns)."""
    shown = table_display(frame, labels)
    try:
        data: pa.Table | pd.DataFrame = pa.Table.from_pandas(shown.frame)
    except (pa.ArrowException, TypeError, ValueError, OverflowError):
        data = shown.frame
    return shown, data


@st.cache_resource(max_entries=64, show_spinner=False)
def _drawn_table(
    *,
    key: str,
    _frame: pd.DataFrame,
    _labels: Mapping[str, str] | None,
    _column_config: Mapping[str, Any] | None,
    hide_index: bool,
    height: int | Literal["auto", "content", "stretch"],
    width: int | Literal["stretch", "content"],
) -> TableDisplay:
    """Draw a table as :func:`table` shows it, once per process for ``key``
    (:func:`_content_key` of the frame, its labels and its column settings) and the
    other arguments; what was shown.

    As :func:`_drawn_chart`: a warm rerun that shows the same table again sends the
    recorded element (its Arrow bytes included) without redoing the display rule, the
    Arrow conversion or its serialization (they were about a quarter of a section's
    rerun). Called by keyword: for each positional argument of a cached call, Streamlit
    1.67 reads the function's signature again (``inspect.signature``) to learn the
    argument's name. Shared by every session, so never changed after it is made.
    """
    shown, data = _prepared_table(_frame, _labels)
    config: dict[str, Any] = {}
    for name, header in shown.labels.items():
        if name in shown.places:
            config[name] = st.column_config.NumberColumn(header, format=f"%.{shown.places[name]}f")
        elif header != name:
            config[name] = st.column_config.Column(header)
    config.update({str(name): value for name, value in (_column_config or {}).items()})
    st.dataframe(data, hide_index=hide_index, column_config=config, height=height, width=width)
    return shown


def table(
    frame: pd.DataFrame,
    *,
    labels: Mapping[str, str] | None = None,
    column_config: Mapping[str, Any] | None = None,
    hide_index: bool = True,
    height: int | Literal["auto", "content", "stretch"] = "auto",
    width: int | Literal["stretch", "content"] = "stretch",
) -> TableDisplay:
    """Show a table by the one display rule (:func:`ui.style.table_display`).

    Human headers (``labels``, then :data:`ui.style.COLUMN_LABELS`), "—" where a
    value does not apply, fixed decimals per float column (noise shows as 0). The
    numbers themselves are not changed. ``column_config`` entries (by column name)
    replace the rule's for their column. Returns what was shown.
    """
    labelled = None if labels is None else tuple(labels.items())
    settings = None if column_config is None else tuple(column_config.items())
    return _drawn_table(
        key=_content_key(frame, labelled, settings),
        _frame=frame,
        _labels=labels,
        _column_config=column_config,
        hide_index=hide_index,
        height=height,
        width=width,
    )


def table_with_download(
    frame: pd.DataFrame,
    filename: str,
    *,
    label: str = "Download CSV",
    labels: Mapping[str, str] | None = None,
    height: int | Literal["auto", "content", "stretch"] = "auto",
) -> None:
    """Show a table (:func:`table`) and a CSV download of exactly what is shown.

    The CSV has the shown headers and the shown text of every cell. It is written
    when the button is clicked (a deferred download), not on every rerun: writing it
    was the largest single cost of a table-heavy rerun.
    """
    shown = table(frame, labels=labels, height=height)
    st.download_button(
        label,
        functools.partial(_csv_bytes, shown),
        file_name=export_context().filename(filename.removesuffix(".csv"), ".csv"),
        mime="text/csv",
        icon=":material/download:",
        key=f"csv:{filename}",
        on_click="ignore",
    )


def formula(latex: str, source: str) -> None:
    """A formula with its source and equation number underneath."""
    _drawn_formula(latex=latex, source=source)


@st.cache_resource(max_entries=256, show_spinner=False)
def _drawn_formula(*, latex: str, source: str) -> None:
    """Draw :func:`formula`'s two elements; a formula drawn before is sent again as
    Streamlit recorded it (see :func:`_drawn_chart`)."""
    st.latex(latex)
    st.caption(source)


#: Decimals of an equity and of its cost in the proper-action block (the app's equities).
EQUITY_DECIMALS = 4
#: Decimals of a match winning chance in percent in the proper-action block.
MWC_DECIMALS = 2
#: Decimals of a market-window point, in percent (as engines print it).
WINDOW_DECIMALS = 1
#: The market-window points of one player, in the order shown.
WINDOW_POINTS = ("Take point", "Double point", "Cash point", "Too good point")
#: Players of the market window, in the order shown.
DOUBLER, TAKER = "Player on roll (doubler)", "Opponent (taker)"


def _signed(value: float, *, percent: bool = False) -> str:
    """An equity with its sign and fixed decimals, or a chance in percent with its cost
    in percentage points (``percent``); a rounded zero is shown unsigned, never "-0"."""
    scale, decimals, suffix = (100.0, MWC_DECIMALS, "%") if percent else (1.0, EQUITY_DECIMALS, "")
    rounded = round(scale * value, decimals) + 0.0  # no "-0.0000"
    if rounded == 0.0:
        return f"{0.0:.{decimals}f}{suffix}"
    return f"{rounded:+.{decimals}f}{suffix}"


def _percent(value: float | None) -> str:
    """A market-window point as a percent; "—" where it does not exist, "never" at 1."""
    if value is None or value != value:  # None or NaN: the cube changes nothing there
        return NOT_APPLICABLE
    if value >= 1.0:
        return "never"
    return f"{100.0 * value:.{WINDOW_DECIMALS}f}%"


def proper_action_markdown(action: ProperCubeAction, *, percent: bool = False) -> str:
    """The three actions as a Markdown table: label, equity, cost; the proper one in bold.

    ``percent``: the equities are match winning chances, shown in percent (and the
    chance itself unsigned).
    """
    head = "| Action | Winning chance |" if percent else "| Action | Equity |"
    lines = [head + " Cost against the proper action |", "|:--|--:|--:|"]
    for label, equity, cost, proper in action.rows():
        value = f"{100.0 * equity:.{MWC_DECIMALS}f}%" if percent else _signed(equity)
        shown_cost = _signed(cost, percent=percent)
        if proper:
            lines.append(f"| **{label}** (proper) | **{value}** | {shown_cost} |")
        else:
            lines.append(f"| {label} | {value} | {shown_cost} |")
    return "\n".join(lines)


def market_window_markdown(window: Mapping[str, Mapping[str, float | None]]) -> str:
    """Each player's market window as a Markdown table, points in his own winning chance."""
    lines = ["| Market window | " + " | ".join(WINDOW_POINTS) + " |"]
    lines.append("|:--|" + "--:|" * len(WINDOW_POINTS))
    for player, points in window.items():
        cells = " | ".join(_percent(points.get(name)) for name in WINDOW_POINTS)
        lines.append(f"| {player} | {cells} |")
    return "\n".join(lines)


def proper_action_line(action: str) -> None:
    """The one large line "Proper cube action: ...", as engines print it; in presenter
    mode on the first screen, above the headline numbers (:func:`slide`)."""
    shown = _SLIDE.get()
    (shown.numbers if shown is not None else st).subheader(
        f"Proper cube action: {action}", anchor=False
    )


def proper_action(
    action: ProperCubeAction,
    *,
    unit: str,
    window: Mapping[str, Mapping[str, float | None]] | None = None,
    percent: bool = False,
    note: str = "",
) -> None:
    """The engines' "Cube analysis" block: one large line "Proper cube action: ...", the
    three actions with their equity and cost against the proper one, and where the view
    has them both players' market windows (:data:`DOUBLER`, :data:`TAKER`: each point in
    that player's own winning chance).

    ``unit`` names the equities' unit (money per cube, EMG); ``percent``: they are match
    winning chances, shown in percent. ``note`` is added to the caption. The block is
    Markdown, so it wraps rather than truncates in presenter mode and on a phone.
    """
    proper_action_line(action.action)
    st.markdown(proper_action_markdown(action, percent=percent))
    caption = (
        f"Equities of the player on roll, {unit}; cost: the action's equity minus the proper one's."
    )
    if window:
        st.markdown(market_window_markdown(window))
        caption += " Market window: each player's points in his own winning chance."
    if action.doubles and action.no_double_cost == 0.0:
        caption += " Not doubling is worth exactly as much: both are proper."
    st.caption(f"{caption} {note}".strip())
