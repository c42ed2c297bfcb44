"""What every page does, tested once over the page registry (issue #19).

A page on the skeleton (:mod:`ui.skeleton`) is covered here by its registry entry
alone: every section opens from a link, every control's bad value is named in a
notice, presets apply without a notice (also two in a row), the share link
reproduces the view, presenter mode loads, dependent controls are disabled and out
of the link, and every link of the app as it was before the rebuild
(``tests/data/links_before_rebuild.json``, one per control) still opens its view.
A page's own test file checks only what is its own.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from urllib.parse import parse_qsl, quote, urlsplit

import pytest

from tests.links import the_one_notice
from tests.reading import share_link
from tests.snapshot import read_view
from tests.views import View, group, open_view, param
from tests.words import developer_words, table_decimals, visible_texts
from ui.controls import Control
from ui.links import escape_text
from ui.pages import PAGES
from ui.skeleton import SECTION_KEY, main_control, wiring
from ui.style import EXACT_COMPARISON, MAX_DECIMALS, column_label

# reads pages as a visitor would, never patches: on the caches earlier such tests left
pytestmark = pytest.mark.shared_caches

ON_SKELETON = [spec for spec in PAGES if spec.page is not None]
BEFORE = json.loads(
    (Path(__file__).parent / "data" / "links_before_rebuild.json").read_text(encoding="utf-8")
)["links"]


def _id(value: object) -> str:
    return getattr(value, "url_path", None) or str(value)


def widget(at, control: Control):
    """The AppTest element of ``control`` (by key)."""
    if control.kind == "bool":
        return at.toggle(key=control.key)
    if control.kind == "select":
        return at.selectbox(key=control.key)
    if control.kind == "text":
        boxes = at.text_area if control.lines > 1 else at.text_input
        return boxes(key=control.key)
    if control.kind == "number":
        return at.number_input(key=control.key)
    return at.slider(key=control.key)


def bad_value(control: Control) -> str:
    """A value the control cannot take (a free text, a search, takes "abc": markup then)."""
    if control.kind == "text" and control.parse("abc")[1] is None:
        return "<b>zq</b>"
    return {"bool": "maybe", "select": "<b>zq</b>", "tabs": "no such section"}.get(
        control.kind, "abc"
    )


def shown_value(at, control: Control) -> object:
    """The value the page uses for ``control``."""
    if control.kind == "tabs":
        return at.session_state[control.key]
    return widget(at, control).value


def _preset_view(spec, label: str) -> View:
    """The view of a preset: clicked on the section that shows its button."""
    owner = next((s for s in spec.page.sections if label in s.presets), spec.page.sections[0])
    return View(spec.file, owner.title, label)


SECTIONS = [
    param(View(spec.file, section.title), spec, section, id=f"{spec.url_path}-{section.id}")
    for spec in ON_SKELETON
    for section in spec.page.sections
]
PRESENTED = [
    param(View(spec.file, s.title, present=True), spec, s, id=f"{spec.url_path}-{s.id}")
    for spec in ON_SKELETON
    for s in spec.page.sections
]
CONTROLS = [(spec, c) for spec in ON_SKELETON for c in spec.controls]
PRESETS = [
    param(_preset_view(spec, label), spec, label, id=f"{spec.url_path}-{label}")
    for spec in ON_SKELETON
    for label in spec.presets
]


def _words_view(view: View, spec, id: str):
    """A view of the developer-words scan, run on its view's worker."""
    return pytest.param(view, spec, marks=[group(view)], id=id)


WORD_VIEWS = [
    _words_view(View(spec.file, section.title), spec, f"{spec.url_path}-{section.id}")
    for spec in ON_SKELETON
    for section in spec.page.sections
] + [
    _words_view(_preset_view(spec, label), spec, f"{spec.url_path}-{label}")
    for spec in ON_SKELETON
    for label in spec.presets
]


@pytest.mark.parametrize(("view", "spec"), WORD_VIEWS)
def test_developer_words_shown_to_users(view, spec):
    """Issue #37 item 15: no text a player can see on any section, at its defaults or after
    a preset, holds a code identifier, a backtick, an internal key (an option's code name
    beside its label), a developer's remark or an issue number (:mod:`tests.words`)."""
    at = open_view(view)
    internal = {o for c in spec.controls for o, label in c.option_labels if o != label}
    found = [
        f"{where}: {words} in {text[:120]!r}"
        for where, text in visible_texts(at)
        if (words := developer_words(text, internal))
    ]
    assert found == [], "\n".join(found)


def test_developer_words_are_found():
    """The scan finds what the issue quoted (it must be able to fail)."""
    for text in (
        "`answer` must be a number (got 'abc')",
        "the raw formulas (cubecore's concede=False)",
        "equal to GNU Backgammon's show commands (tests)",
        "initial_double_point: printed 0.390",
        "fixed in issue #37",
        "drawn by numpy.random with its seed",
    ):
        assert developer_words(text), text
    assert developer_words("the table choice's 'upload'", {"upload"})
    for text in (
        "Give-up point g_c (cube centred)",
        "Take point at 4-away/2-away: 0.2128 (21.28%)",
        "Why 80% cashes and 20% takes",
        "NumPy Enhancement Proposal 19, 2019, https://numpy.org/neps/nep-0019-rng-policy.html",
    ):
        assert developer_words(text) == [], text


TABLE_VIEWS = [
    param(view, view, spec, id=f"{spec.url_path}-{section.id}")
    for spec in ON_SKELETON
    for section in spec.page.sections
    if (view := View(spec.file, section.title))
] + [
    param(view, view, spec, id=f"{spec.url_path}-{label}")
    for spec in ON_SKELETON
    for label in spec.presets
    if (view := _preset_view(spec, label))
]
#: The headers of the exact-comparison columns (:data:`ui.style.EXACT_COMPARISON`).
EXACT_HEADERS = {column_label(name) for name in EXACT_COMPARISON}


@pytest.mark.parametrize(("view", "spec"), TABLE_VIEWS)
def test_no_table_shows_more_than_4_decimals(view, spec):
    """Issue #37: no number in a table a player reads has more than 4 decimals, on every
    section at its defaults and after every preset, unless its column is declared an
    exact-comparison column (:data:`ui.style.EXACT_COMPARISON`)."""
    assert MAX_DECIMALS == 4
    at = open_view(view)
    long = [
        f"{where}: {header!r} shows {places} decimals"
        for where, header, places in table_decimals(at)
        if places > MAX_DECIMALS and header not in EXACT_HEADERS
    ]
    assert long == [], "\n".join(long)


@pytest.mark.parametrize(("spec", "section"), SECTIONS)
def test_every_section_opens_from_a_link(spec, section):
    at = open_view(View(spec.file, section.title))
    assert not at.exception
    assert not at.warning, [w.value for w in at.warning]
    assert at.session_state[SECTION_KEY] == section.title
    link = share_link(at)
    assert (f"{SECTION_KEY}=" in link) == (section is not spec.page.sections[0])


@pytest.mark.parametrize(("spec", "control"), CONTROLS, ids=lambda v: getattr(v, "key", _id(v)))
def test_a_bad_value_of_every_control_is_named_and_the_default_used(open_page, spec, control):
    at = open_page(spec.file, **{control.key: bad_value(control)})
    notice = the_one_notice(at, control.key)
    assert escape_text(control.format(control.default)) in notice
    assert shown_value(at, control) == control.default


@pytest.mark.parametrize("spec", ON_SKELETON, ids=_id)
def test_unknown_parameters_are_named(open_page, spec):
    at = open_page(spec.file, zzq="1")
    assert not at.exception
    notices = [w.value for w in at.warning]
    assert len(notices) == 1 and "zzq" in notices[0] and "unknown" in notices[0]


@pytest.mark.parametrize("spec", ON_SKELETON, ids=_id)
def test_theme_dark_is_reported_as_an_unknown_link_parameter(open_page, spec):
    """Issue #37 item 18: ``?theme=dark`` is the app's own theme choice, on every page: no
    notice, the sidebar's choice shows it, the share link keeps it, and the page loads
    the script that opens the dark theme; a theme the app does not have is named."""
    at = open_page(spec.file, theme="dark")
    assert not at.exception
    assert not at.warning, [w.value for w in at.warning]
    choice = at.sidebar.get("button_group")
    assert [c.proto.query_param_key for c in choice] == ["theme"]
    assert at.session_state["theme"] == "dark"
    assert "theme=dark" in share_link(at)
    scripts = [h.proto.body for h in at.get("html") if "dark_theme" in h.proto.body]
    assert len(scripts) == 1, scripts
    at = open_page(spec.file, theme="purple")
    notice = the_one_notice(at, "theme")
    assert "purple" in notice and "light" in notice
    assert at.session_state["theme"] == "light"


def _click(at, label: str):
    return at.button(key=f"preset:{label}").click().run()


def _open_with_preset(open_page, spec, label):
    """Open the page on the section that shows the preset's button: a run of its own."""
    at = open_page(spec.file, **{SECTION_KEY: _preset_view(spec, label).section})
    return _click(at, label)


@pytest.mark.parametrize(("spec", "label"), PRESETS)
def test_a_preset_sets_its_values_without_a_notice(spec, label):
    at = open_view(_preset_view(spec, label))
    assert not at.exception
    assert not at.warning, [w.value for w in at.warning]
    controls = {c.key: c for c in spec.controls}
    for key, value in spec.presets[label].items():
        shown = shown_value(at, controls[key])
        assert shown == (pytest.approx(value) if isinstance(value, float) else value), key


@pytest.mark.parametrize("spec", [s for s in ON_SKELETON if len(s.presets) > 1], ids=_id)
def test_two_presets_in_a_row_raise_no_notice(open_page, spec):
    first, second = list(spec.presets)[:2]
    at = _open_with_preset(open_page, spec, first)
    if f"preset:{second}" in [b.key for b in at.button]:
        at = _click(at, second)
    assert not at.exception
    assert not at.warning, [w.value for w in at.warning]


@pytest.mark.parametrize(("spec", "label"), PRESETS)
def test_the_share_link_reproduces_the_view(open_page, spec, label):
    at = open_view(_preset_view(spec, label))
    query = dict(parse_qsl(urlsplit(share_link(at)).query))
    again = open_page(spec.file, **query)
    assert not again.warning, [w.value for w in again.warning]
    assert read_view(again) == read_view(at)


@pytest.mark.parametrize(("spec", "section"), PRESENTED)
def test_presenter_mode_loads_every_section(spec, section):
    at = open_view(View(spec.file, section.title, present=True))
    assert not at.exception, section.title
    assert at.session_state["present"] is True
    main = main_control(spec.page, section)
    if main is not None:  # on the page, in the strip: the sidebar can stay shut
        assert widget(at.main, main).key == main.key, (section.title, main.key)
        with pytest.raises(KeyError):
            widget(at.sidebar, main)


@pytest.mark.parametrize(("spec", "section"), SECTIONS)
def test_controls_stand_where_they_act(spec, section):
    """Outside presenter mode: page-wide controls and the closed sections' in the sidebar,
    the open section's own controls in the page, in its panel above the section (they
    rerun that part alone: issue #17 item 1)."""
    at = open_view(View(spec.file, section.title))
    assert not at.exception, section.title
    sidebar = [c for s in spec.page.sections if s is not section for c in s.controls]
    for control in (*spec.page.controls, *sidebar):
        assert widget(at.sidebar, control).key == control.key, (section.title, control.key)
    panels = [p for p in at.main.expander if p.label == f"{section.title}: settings"]
    assert len(panels) == (1 if section.controls else 0), section.title
    for control in section.controls:
        assert widget(panels[0], control).key == control.key, (section.title, control.key)
        with pytest.raises(KeyError):
            widget(at.sidebar, control)


def _values(control: Control) -> tuple[object, ...]:
    """Valid values of a control (its extremes for a slider)."""
    if control.kind == "bool":
        return (True, False)
    if control.kind in ("select", "tabs"):
        return control.options
    return (control.low, control.high)


DEPENDENT = [(spec, c) for spec, c in CONTROLS if c.requires is not None]


@pytest.mark.parametrize(("spec", "control"), DEPENDENT, ids=lambda v: getattr(v, "key", _id(v)))
def test_a_dependent_control_is_disabled_at_its_default_and_out_of_the_link(
    open_page, spec, control
):
    needed_key, needed_value = control.requires
    needed = next(c for c in spec.controls if c.key == needed_key)
    other = next(value for value in _values(needed) if value != needed_value)
    moved = control.format(next(value for value in _values(control) if value != control.default))
    at = open_page(spec.file, **{needed_key: needed.format(other)})
    assert widget(at, control).disabled
    assert f"{control.key}=" not in share_link(at)
    chain = {}  # the requirement, and what it requires in turn (raccoon <- raccoons <- beavers)
    by_key = {c.key: c for c in spec.controls}
    link: Control | None = control
    while link is not None and link.requires is not None:
        key, value = link.requires
        chain[key] = by_key[key].format(value)
        link = by_key[key]
    at = open_page(spec.file, **chain, **{control.key: moved})
    assert not widget(at, control).disabled
    assert f"{control.key}={quote(moved, safe='')}" in share_link(at)


OLD_LINKS = [(spec, link) for spec in ON_SKELETON for link in BEFORE if link["page"] == spec.file]


@pytest.mark.parametrize(
    ("spec", "link"), OLD_LINKS, ids=lambda v: v["key"] if isinstance(v, dict) else _id(v)
)
def test_a_link_from_before_the_rebuild_opens_the_same_view(open_page, spec, link):
    page = spec.page
    key = page.old_keys.get(link["key"], link["key"])
    raw = page.value_aliases.get(key, {}).get(link["value"], link["value"])
    control = next(c for c in spec.controls if c.key == key)
    at = open_page(spec.file, **{link["key"]: link["value"]})
    assert not at.exception
    expected, reason = control.parse(raw)
    assert reason is None
    needed = control.requires
    if needed is None or at.session_state[needed[0]] == needed[1]:
        assert not at.warning, [w.value for w in at.warning]
        assert shown_value(at, control) == expected
    else:  # the control does nothing in this view: the value is named as unused, not lost
        notice = the_one_notice(at, key)
        assert f"used only with {needed[0]}=" in notice.replace("\\", "")
    assert link["key"] == key or f"{link['key']}=" not in share_link(at)


def test_wiring_fills_the_page_fields_a_controls_module_declares():
    module = ModuleType("ui.example.controls")
    room = Control("room", "Room", "text", "")
    module.PAGE_CONTROLS, module.PRESETS = (room,), {"Mine": {"room": "AB"}}
    module.OLD_KEYS = {"r": "room"}
    module.OTHER = (room,)
    assert wiring(module) == {
        "controls": (room,),
        "presets": {"Mine": {"room": "AB"}},
        "old_keys": {"r": "room"},
    }


def test_wiring_names_a_misspelt_old_name():
    module = ModuleType("ui.example.controls")
    module.OLD_SECTION_TITLES = {"1 · Old": "new"}
    with pytest.raises(ValueError, match=r"ui.example.controls: unknown names \['OLD_SECTION_"):
        wiring(module)
