"""The page skeleton: a page is declared, and this module builds it.

A page declares a :class:`Page`: its title, introduction and sources, its sections
(each a :class:`Section`: a stable id, a tab title, its own controls and a render
function), its page-wide controls, its presets and the old names its links may still
use. :func:`run_page` does everything else, the same way on every page:

1. leaves Streamlit's legacy ``pages/`` mode on a fresh process (:mod:`ui.router`);
2. rewrites old link names to today's (:func:`ui.links.apply_aliases`), so that a
   study group's link from before a rename opens the same view;
3. shows the title, the sources and, at the top, a plain-text notice for each value
   from outside (the link as it arrived on the page) that it could not use, with the
   value used instead;
4. offers the presets and places the controls: page-wide ones first in the sidebar,
   then each closed section's in its own folded panel there, and the open section's
   own ones in a panel above it (in presenter mode its main control,
   :func:`main_control`, stands on the page in a strip beside the presets, and the
   others are folded under the slide); it disables a control whose
   :attr:`~ui.controls.Control.requires` does not hold and keeps it at its default, so
   out of the link;
5. shows the sections as tabs bound to the URL under the one key :data:`SECTION_KEY`,
   and runs only the open one (bound tabs are lazy), once the expensive tables it
   reads are built (:attr:`Section.tables`, :mod:`ui.warmup`: a progress bar meanwhile);
   the open section's own controls, the section and its "Share this view" link are one
   fragment (``st.fragment``): moving one of the section's own controls reruns that
   part alone, and any other control the whole page (issue #17 item 1);
6. names at the top, once the values are known, what of the link it could not use.

A section's render function receives a :class:`View`: the controls' values and the
presenter flag, one object.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar, cast

import streamlit as st
from streamlit.delta_generator import DeltaGenerator
from streamlit.runtime.scriptrunner import get_script_run_ctx

from cubecore.references import REFERENCES
from ui import links, widgets
from ui.controls import SECTION_KEY, Control
from ui.pages import link_path
from ui.router import ensure_navigation
from ui.style import ExportContext
from ui.warmup import WARM_UP

if TYPE_CHECKING:
    # What float() and int() accept (typeshed's names, for type checking only).
    from _typeshed import ConvertibleToFloat, ConvertibleToInt

__all__ = [
    "LAYOUT_CSS",
    "PRESENTER_CSS",
    "PRESENTER_STRIP",
    "PRESET_BAR",
    "SECTION_KEY",
    "Page",
    "Section",
    "View",
    "Wiring",
    "main_control",
    "run_page",
    "wiring",
]

#: The value of a choice, as precisely as its options are typed.
_Option = TypeVar("_Option", bound=str)

#: The key of the container holding the presets (Streamlit gives it the class
#: ``st-key-preset-bar``, which :data:`LAYOUT_CSS` styles).
PRESET_BAR = "preset-bar"
#: The key of presenter mode's strip beside the presets: the open section's main control.
PRESENTER_STRIP = "presenter-strip"
#: The app's own layout rules, on every page (``app.py``): a metric's label and value, a
#: link to a page and a button's label wrap instead of being cut with "..." (issue #37),
#: a formula wider than the screen scrolls instead of being cut at its edge, and on a
#: phone the title is smaller
#: and the presets are a few rows of small buttons, not a column of full-width ones.
_WRAPPING_PRESETS = (
    f".st-key-{PRESET_BAR} [data-testid='stHorizontalBlock']"
    "{flex-direction:row;flex-wrap:wrap;gap:0.375rem}"
    f".st-key-{PRESET_BAR} [data-testid='stColumn']"
    "{width:auto !important;flex:0 0 auto !important;min-width:0 !important}"
)
LAYOUT_CSS = (
    "<style>"
    ".katex-display{overflow-x:auto;overflow-y:hidden}"
    "[data-testid='stMetricLabel'],[data-testid='stMetricLabel'] *,"
    "[data-testid='stMetricValue'],[data-testid='stMetricValue'] *,"
    "[data-testid='stPageLink-NavLink'] span,[data-testid='stButton'] button *"
    "{white-space:normal !important;text-overflow:clip !important;overflow:visible !important}"
    "[data-testid='stPageLink-NavLink'],[data-testid='stButton'] button{height:auto}"
    "@media (max-width:640px){"
    "h1{font-size:2rem !important}"
    f"{_WRAPPING_PRESETS}"
    f".st-key-{PRESET_BAR} button{{min-height:2rem;padding:0.125rem 0.625rem}}"
    "}</style>"
)
#: Presenter mode's rules (``?present=true``, ``app.py``): large type everywhere, and
#: the first screen of a projector spent on the view, not on the page's frame: a
#: smaller title under a lower header, half the gaps, the presets (one row of buttons
#: as wide as their labels, never cut with "...", scrolling sideways where there are
#: more than the row holds) and the strip at three quarters of the type (they are the
#: teacher's, not the class's), and the slide's numbers
#: (:func:`ui.widgets.slide`) a little smaller than other metrics.
PRESENTER_CSS = (
    "<style>html{font-size:24px !important}"
    "[data-testid='stMetricValue']{font-size:2rem}"
    "[data-testid='stHeader']{height:60px;min-height:60px}"
    "[data-testid='stMainBlockContainer']{padding:64px 2rem 6rem}"
    "[data-testid='stMainBlockContainer'] [data-testid='stVerticalBlock']{gap:0.5rem}"
    "h1{font-size:1.6rem !important;padding-top:0 !important;padding-bottom:0.25rem !important}"
    f".st-key-{PRESET_BAR},.st-key-{PRESENTER_STRIP}{{zoom:0.75}}"
    f".st-key-{PRESET_BAR} [data-testid='stHorizontalBlock']"
    "{flex-wrap:nowrap !important;overflow-x:auto}"
    f".st-key-{widgets.SLIDE_NUMBERS}{{gap:0.5rem}}"
    f".st-key-{widgets.SLIDE_NUMBERS} h3{{font-size:1.25rem}}"
    f".st-key-{widgets.SLIDE_NUMBERS} [data-testid='stMetricValue']{{font-size:1.75rem}}"
    f".st-key-{widgets.SLIDE_NUMBERS} [data-testid='stMetricValue'] *"
    "{word-break:normal !important;overflow-wrap:break-word !important}"
    f"{_WRAPPING_PRESETS}"
    "</style>"
)
_PAGE_KEY = "_skeleton_page"
_SNAP_KEY = "_skeleton_snap"
_RENAMED_KEY = "_skeleton_renamed"
_RESPELT_KEY = "_skeleton_respelt"


@dataclass(frozen=True)
class View:
    """What a section renders from: every control's value and the presenter flag."""

    values: Mapping[str, object]
    present: bool

    def __getitem__(self, key: str) -> object:
        return self.values[key]

    def number(self, key: str) -> float:
        """A numeric control's value as a float."""
        return float(cast("ConvertibleToFloat", self.values[key]))

    def whole(self, key: str) -> int:
        """An integer control's value."""
        return int(cast("ConvertibleToInt", self.values[key]))

    def flag(self, key: str) -> bool:
        """A toggle's value."""
        return bool(self.values[key])

    def text(self, key: str) -> str:
        """A choice's value."""
        return str(self.values[key])

    def choice(self, key: str, options: tuple[_Option, ...]) -> _Option:
        """A choice's value as one of ``options``, typed as they are (a ``Literal`` of modes).

        Raises ``ValueError`` for a value outside ``options`` (a control accepts only its own).
        """
        value = self.values[key]
        for option in options:
            if option == value:
                return option
        raise ValueError(f"{key} must be one of {', '.join(options)} (got {value!r})")


Render = Callable[[View], None]


@dataclass(frozen=True)
class Section:
    """One tab of a page.

    Attributes
    ----------
    id : str
        Stable name in code and in links from other pages (cards, glossary).
    title : str
        Tab label; it is also the section's value in the link (``?sec=...``).
    render : callable
        ``render(view)`` draws the section.
    controls : tuple of Control
        Controls that only this section uses: in a panel above the section while it is
        open (moving one reruns the section alone), in a folded sidebar panel otherwise.
    presets : mapping
        Button label -> the control values it sets, offered while the section is open.
    slide : bool
        Whether presenter mode opens the section's first screen (:func:`ui.widgets.slide`:
        its :func:`~ui.widgets.headline` numbers beside its first chart). False for a
        section that shows no numbers (a list of sources), none until a student acts (a
        form), or whose numbers and chart a fragment redraws: a fragment writes only
        inside itself, so it opens its own slide.
    tables : tuple of str
        Keys of the expensive tables (:data:`ui.warmup.WARM_UP`) the section reads: it
        waits for them with a progress bar while they are built (a fresh server).
    """

    id: str
    title: str
    render: Render
    controls: tuple[Control, ...] = ()
    presets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    slide: bool = True
    tables: tuple[str, ...] = ()


@dataclass(frozen=True)
class Page:
    """A page's declaration: what it shows; :func:`run_page` does the rest.

    Attributes
    ----------
    title : str
        The page heading.
    intro : str
        One or two sentences under the heading (Markdown of the app's own text).
    sources : tuple of str
        Keys of :data:`cubecore.references.REFERENCES` the page computes from.
    sections : tuple of Section
        The tabs, in order; the first opens by default.
    controls : tuple of Control
        Page-wide controls (every section reads them).
    presets : mapping
        Button label -> the control values it sets.
    lead : callable, optional
        ``lead(view)`` draws page-wide notes above the tabs. Its view holds every value
        but the open section's own controls' (they rerun the section alone, not the
        notes).
    old_keys : mapping
        Link names that were renamed: old key -> today's key.
    old_values : mapping
        Values that were renamed: key -> {old value: today's value} (old option
        spellings).
    old_sections : mapping
        Old values of the section key (old tab titles, old select-box values) ->
        today's section id.
    read_link : callable, optional
        ``read_link(link)`` (the link's last value of each key) -> the values of the
        controls a link's value implies, as a link arrives, before any widget: an XGID in
        the position box gives its Position ID, cube and score. The address bar is
        rewritten to them.
    """

    title: str
    intro: str
    sources: tuple[str, ...]
    sections: tuple[Section, ...]
    controls: tuple[Control, ...] = ()
    presets: Mapping[str, Mapping[str, object]] = field(default_factory=dict)
    lead: Render | None = None
    old_keys: Mapping[str, str] = field(default_factory=dict)
    old_values: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    old_sections: Mapping[str, str] = field(default_factory=dict)
    read_link: Callable[[Mapping[str, str]], Mapping[str, object]] | None = None

    @property
    def value_aliases(self) -> dict[str, Mapping[str, str]]:
        """Every renamed value by key, as the link spells it today: old values
        (:attr:`old_values`, through today's option to its label), a labelled select's
        options (:attr:`ui.controls.Control.value_aliases`), old section values."""
        aliases: dict[str, Mapping[str, str]] = {}
        by_key = {control.key: control for control in self.all_controls}
        for key in {*self.old_values, *(c.key for c in self.all_controls if c.value_aliases)}:
            control = by_key.get(key)
            spelt = control.format if control is not None else str
            renamed = {old: spelt(new) for old, new in self.old_values.get(key, {}).items()}
            aliases[key] = {**(control.value_aliases if control else {}), **renamed}
        sections = {old: self.section(new).title for old, new in self.old_sections.items()}
        return {**aliases, SECTION_KEY: sections} if sections else aliases

    @property
    def section_control(self) -> Control:
        """The section tabs as a control (key :data:`SECTION_KEY`)."""
        titles = tuple(section.title for section in self.sections)
        return Control(SECTION_KEY, "Section", "tabs", titles[0], options=titles)

    @property
    def all_presets(self) -> dict[str, Mapping[str, object]]:
        """Page-wide presets and every section's."""
        merged = dict(self.presets)
        for section in self.sections:
            merged.update(section.presets)
        return merged

    @property
    def cited(self) -> str:
        """The page's sources as a reader cites them (under the title, on every export)."""
        return "; ".join(REFERENCES[key].short for key in self.sources)

    @property
    def all_controls(self) -> tuple[Control, ...]:
        """Every control of the page: the section tabs, page-wide, then per section."""
        per_section = tuple(c for section in self.sections for c in section.controls)
        return (self.section_control, *self.controls, *per_section)

    def section(self, section_id: str) -> Section:
        """The section with this id."""
        for section in self.sections:
            if section.id == section_id:
                return section
        raise ValueError(f"no section {section_id!r}; sections: {[s.id for s in self.sections]}")


class Wiring(TypedDict, total=False):
    """The :class:`Page` fields a page's ``controls`` module declares (:func:`wiring`)."""

    controls: tuple[Control, ...]
    presets: Mapping[str, Mapping[str, object]]
    old_keys: Mapping[str, str]
    old_values: Mapping[str, Mapping[str, str]]
    old_sections: Mapping[str, str]


#: A page's ``controls`` module's name -> the :class:`Page` field it fills.
_WIRING_NAMES = {
    "PAGE_CONTROLS": "controls",
    "PRESETS": "presets",
    "OLD_KEYS": "old_keys",
    "OLD_VALUES": "old_values",
    "OLD_SECTIONS": "old_sections",
}


def wiring(controls: ModuleType) -> Wiring:
    """The page-wide fields a page's ``controls`` module declares, for ``Page(..., **wiring(c))``.

    By name: ``PAGE_CONTROLS`` (page-wide controls), ``PRESETS``, ``OLD_KEYS``,
    ``OLD_VALUES`` and ``OLD_SECTIONS`` (old link names); a name the module does not
    define keeps the field's default. Any other ``OLD_`` name is a ``ValueError`` (a
    misspelt one would silently drop old links).
    """
    names = {name for name in vars(controls) if name.startswith("OLD_")}
    unknown = sorted(names - set(_WIRING_NAMES))
    if unknown:
        raise ValueError(f"{controls.__name__}: unknown names {unknown}; use {list(_WIRING_NAMES)}")
    declared = {key: getattr(controls, name, None) for name, key in _WIRING_NAMES.items()}
    return cast(Wiring, {key: value for key, value in declared.items() if value is not None})


def run_page(page: Page, page_file: str) -> None:
    """Build ``page``: link check, controls, presets, tabs, the open section, share link.

    ``page_file`` is the page script's ``__file__``: its URL path comes from the
    registry (:mod:`ui.pages`).
    """
    ensure_navigation()
    path = link_path(page_file)
    entering = st.session_state.get(_PAGE_KEY) != path
    for key, value in st.session_state.pop(_SNAP_KEY, {}).items():
        st.session_state[key] = value  # a later run: Session State wins over the link
    renamed: list[links.LinkProblem] = st.session_state.pop(_RENAMED_KEY, [])
    respelt_here = st.session_state.pop(_RESPELT_KEY, None) == path
    if entering:
        problems, respelt = links.apply_aliases(
            page.all_controls, page.old_keys, page.value_aliases
        )
        renamed += [problem for problem in problems if problem not in renamed]
        if respelt and not respelt_here:  # once per arrival: never a loop of reruns
            # an old value under today's key: run again before any widget exists, so
            # that each widget reads today's spelling from the link (ui.links)
            st.session_state[_RENAMED_KEY] = renamed
            st.session_state[_RESPELT_KEY] = path
            st.rerun()
    st.session_state[_PAGE_KEY] = path
    rewritten: dict[str, object] = {}
    if entering and page.read_link is not None:
        given = {key: st.query_params.get_all(key)[-1] for key in st.query_params}
        rewritten = dict(page.read_link(given))
        controls_by_key = {control.key: control for control in page.all_controls}
        for key, value in rewritten.items():  # set for the next run, as the corrections
            links.write_link(key, controls_by_key[key].format(value))
    corrections = links.corrections(page.all_controls) if entering else {}
    refused = st.session_state.pop(links.REFUSED, False)  # a link above the size limit
    by_key = {control.key: control for control in page.all_controls}
    for key, (_, value) in corrections.items():
        links.write_link(key, by_key[key].format(value))  # the address bar says what is used
    arrived = links.read_link()

    st.title(page.title)
    present = widgets.presenter_mode()
    if not present:  # a projector spends its first screen on the view (the teacher speaks)
        cited = page.cited
        st.caption(f"{page.intro} Sources: {cited}." if cited else page.intro)
    notices = st.container()
    # a projector: the open section's main control on the page, beside the presets, so
    # the teacher moves it without opening the sidebar (issue #20 item 1)
    bar, strip = st.columns([3, 2], vertical_alignment="bottom") if present else (st, None)
    presets = bar.container(key=PRESET_BAR)  # styled by key: compact on a phone (app.py)
    if strip is not None:
        strip = strip.container(key=PRESENTER_STRIP)
    lead = st.container()

    tabs = st.tabs(
        list(page.section_control.options),
        key=SECTION_KEY,
        bind="query-params",
        default=str(page.section_control.default),
    )
    open_title = st.session_state.get(SECTION_KEY, page.section_control.default)
    open_section = next(s for s in page.sections if s.title == open_title)
    for section, tab in zip(page.sections, tabs, strict=True):
        if section is not open_section and section.controls:
            tab.empty()  # its panel goes before its sidebar copy comes (_sidebar_slot)
    main = main_control(page, open_section) if strip is not None else None
    local = tuple(c for c in open_section.controls if c is not main)
    values = _create_controls(page, open_section, strip, main)
    values[SECTION_KEY] = open_title
    values.update(rewritten)
    if corrections:
        renamed += [problem for problem, _ in corrections.values()]
        values.update({key: value for key, (_, value) in corrections.items()})
    offered = {**page.presets, **open_section.presets}
    if offered:
        widgets.preset_buttons(offered, where=presets)
    if page.lead is not None:
        with lead:
            page.lead(View(values, present))
    shown = Shown(path, page, open_section, local, present)
    for section, tab in zip(page.sections, tabs, strict=True):
        if tab.open:
            with tab:
                for table in section.tables:
                    WARM_UP.need(table)
                # a section's own control reruns only this part (issue #17 item 1)
                show = _section_fragment if local else _section
                values = show(shown, values)
    with notices:
        links.report(path, page.all_controls, arrived, values, entering=entering, renamed=renamed)
    if corrections or refused or rewritten:
        # The first run of a link takes the URL's value (Streamlit seeds a bound widget
        # from it); the nearest step (and what the page read from the link) is set for
        # the run after this one.
        snap = {**rewritten, **{key: value for key, (_, value) in corrections.items()}}
        if refused:
            snap = {control.key: control.default for control in page.all_controls}
        st.session_state[_SNAP_KEY] = snap
        st.rerun()


@dataclass(frozen=True)
class Shown:
    """What the open section's part of the page needs besides the values (:func:`_section`).

    Attributes
    ----------
    path : str
        The page's URL path (its link and its notices).
    page : Page
        The page.
    section : Section
        The open section.
    local : tuple of Control
        The section's own controls placed in its part of the page (all of them but, in
        presenter mode, the one in the strip).
    present : bool
        Presenter mode.
    """

    path: str
    page: Page
    section: Section
    local: tuple[Control, ...]
    present: bool


def _section(shown: Shown, values: Mapping[str, object]) -> dict[str, object]:
    """The open section's part of the page: its own controls, the section, the share link.

    ``values`` are the run's values of every other control (page-wide ones, the closed
    sections' and, with a link's corrections, the nearest steps). Returns them with the
    section's own. Its own controls stand in a panel above the section (in presenter
    mode, folded under the slide: the class sees the view first); the share link and the
    theme switch follow the section, as they depend on every value.

    Run as a fragment (:data:`_section_fragment`), moving one of the section's own
    controls reruns only this part: the page-wide controls, the presets and the other
    sections' panels keep the values of the page's last full run, which are the ones in
    ``values``. A move that clears a link notice at the top of the page reruns the page,
    so that the notice goes (:func:`ui.links.notices_changed`).
    """
    section, present = shown.section, shown.present
    run = dict(values)
    body = st.container() if present else None
    if shown.local:
        title = f"{section.title}: settings"
        panel = st.expander(title, expanded=not present, icon=":material/tune:")
        placed = _place_each([(control, panel) for control in shown.local], values)
        # a value ``values`` already holds for one of them is a link's nearest step, set
        # for this run only (run_page): it wins over the widget's
        run = {**placed, **values}
    if _in_fragment_rerun() and links.notices_changed(shown.path, shown.page.all_controls, run):
        st.rerun()  # the page's notices are outside this part: the page runs again
    with body if body is not None else contextlib.nullcontext():
        exports = _export_context(shown.page, section, run)
        with widgets.exporting(exports), widgets.slide(present and section.slide):
            section.render(View(run, present))
    link = links.share_link(shown.path, shown.page.all_controls, run)
    with st.expander("Share this view", icon=":material/share:"):
        st.code(link, language=None, wrap_lines=True)
        st.markdown(links.theme_switch(link), unsafe_allow_html=True)
    return run


#: :func:`_section` as a fragment: a move of the section's own control reruns it alone.
_section_fragment = st.fragment(_section)


def _in_fragment_rerun() -> bool:
    """Whether this run reruns fragments only (a move inside one), not the page."""
    ctx = get_script_run_ctx(suppress_warning=True)
    return bool(ctx is not None and ctx.fragment_ids_this_run)


def _export_context(page: Page, section: Section, values: Mapping[str, object]) -> ExportContext:
    """The open view's parameters (page-wide and the section's active controls, as the
    link spells them) and sources, for every export's file name and image."""
    parameters = tuple(
        (spec.key, spec.format(values[spec.key]), spec.shown(values[spec.key]))
        for spec in (*page.controls, *section.controls)
        if spec.key in values and spec.active(values) and spec.format(values[spec.key]) != ""
    )  # an empty text (no library position chosen) says nothing: "lib=" is noise
    return ExportContext(parameters, page.cited)


def main_control(page: Page, section: Section) -> Control | None:
    """The control a teacher moves most in ``section``: its first own control, else the
    page's first page-wide one (None for a section without controls on a page without).
    A box of several lines (a list of positions) is typed, not moved: it is passed over."""
    movable = [c for c in (*section.controls, *page.controls) if c.lines == 1]
    return movable[0] if movable else None


def _create_controls(
    page: Page, open_section: Section, strip: DeltaGenerator | None, main: Control | None
) -> dict[str, object]:
    """The sidebar's controls (page-wide ones, then each closed section's panel) and, in
    presenter mode, the open section's :func:`main_control` in the ``strip``; their values.

    The open section's other controls are placed with the section (:func:`_section`).
    """
    page_box = st.sidebar.container()
    panels = {
        section.id: panel
        for section in page.sections
        if section.controls and (panel := _sidebar_slot(section, open_section)) is not None
    }
    placed = [(c, page_box) for c in page.controls] + [
        (c, panels[section.id])
        for section in page.sections
        if section is not open_section
        for c in section.controls
    ]
    if strip is not None and main is not None:
        placed = [(c, strip if c is main else box) for c, box in placed]
        if main in open_section.controls:
            placed.append((main, strip))
    return _place_each(placed, {})


def _sidebar_slot(section: Section, open_section: Section) -> DeltaGenerator | None:
    """``section``'s place in the sidebar (a section with controls of its own): its folded
    panel while it is closed; while it is open, an empty element in the panel's place.

    A section's control moves between its sidebar panel and its part of the page when
    the tab changes, and both copies are one widget to the browser (Streamlit 1.67 gives
    a keyed slider the same id wherever it stands). The browser binds the address bar to
    one widget id per key and drops the binding when a widget with that id unmounts: a
    copy that leaves the page after the other copy came takes the binding with it, and
    the next move of the control leaves the address bar behind (issue #37 item 6). So the
    copy that goes is replaced in its place, in the run that opens the other one, before
    that one is placed: the sidebar slot here (before the section's part of the page) and
    a closed section's part of the page by an empty element at the top of its tab
    (:func:`run_page`, before the sidebar)."""
    if section is open_section:
        st.sidebar.empty()
        return None
    return st.sidebar.expander(f"{section.title}: settings", icon=":material/tune:")


def _place_each(
    placed: list[tuple[Control, DeltaGenerator]], values: Mapping[str, object]
) -> dict[str, object]:
    """Each control's widget in its box, a dependent control disabled (and kept at its
    default, so out of the link) while its requirement does not hold; their values.

    Controls that others depend on are placed first, so that a dependent control sees
    their value (also one of ``values``: the page-wide value a section's control needs).
    """
    known = dict(values)
    made: dict[str, object] = {}
    for spec, box in sorted(placed, key=lambda item: item[0].requires is not None):
        active = spec.active(known)
        if not active:
            st.session_state[spec.key] = spec.default
        made[spec.key] = known[spec.key] = widgets.control(spec, box, disabled=not active)
    return made
