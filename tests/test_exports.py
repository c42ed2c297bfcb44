"""Every export names its view (issue #20, item 5): the parameters and the source.

Over the page registry (:data:`ui.pages.PAGES`), every section at its defaults: each
chart's PNG file name (the plotly toolbar's ``toImageButtonOptions``) carries every
active control's value, and the figure itself has a line at its top edge
(:data:`ui.style.EXPORT_NOTE`) naming the app, the same values and the page's
sources. A changed control changes the name and the line. The file-name rule itself
(:meth:`ui.style.ExportContext.filename`, also used for every CSV download) is tested
directly.
"""

from __future__ import annotations

import json

import pytest

from cubecore.references import REFERENCES
from tests.plotly_spec import plotly_spec
from tests.views import View, open_view, param
from ui.controls import Control
from ui.pages import PAGES, PageSpec
from ui.skeleton import Section
from ui.style import APP_NAME, EXPORT_NOTE, ExportContext

# reads pages as a visitor would, never patches: on the caches earlier such tests left
pytestmark = pytest.mark.shared_caches

ON_SKELETON = [spec for spec in PAGES if spec.page is not None]
SECTIONS = [
    param(View(spec.file, section.title), spec, section, id=f"{spec.url_path}-{section.id}")
    for spec in ON_SKELETON
    for section in spec.page.sections
]


def _active(spec: PageSpec, section: Section, at) -> list[tuple[Control, object]]:
    """The controls an export of ``section`` names, with the values the page uses."""
    controls = (*spec.page.controls, *section.controls)
    values = {c.key: at.session_state[c.key] for c in controls}
    return [
        (c, values[c.key])
        for c in controls
        if (c.requires is None or values.get(c.requires[0]) == c.requires[1])
        and c.format(values[c.key]) != ""  # an empty text is left out of the note
    ]


def _empty(spec: PageSpec, section: Section, at) -> list[str]:
    """The keys of the controls whose value is an empty text (no library position)."""
    controls = (*spec.page.controls, *section.controls)
    return [c.key for c in controls if c.format(at.session_state[c.key]) == ""]


def _exports(at) -> list[tuple[str, str]]:
    """(PNG file name, the note at the figure's top) of every chart shown."""
    found = []
    for element in at.get("plotly_chart"):
        config = json.loads(element.proto.config)
        notes = [
            a["text"]
            for a in plotly_spec(element)["layout"].get("annotations", [])
            if a.get("name") == EXPORT_NOTE
        ]
        assert len(notes) == 1, notes
        # a long note is in lines a phone's chart holds: read as one line of text
        found.append((config["toImageButtonOptions"]["filename"], notes[0].replace("<br>", " ")))
    return found


def _expected(controls: list[tuple[Control, object]], sources: tuple[str, ...]):
    parameters = tuple((c.key, c.format(v), c.shown(v)) for c, v in controls)
    return ExportContext(parameters, "; ".join(REFERENCES[k].short for k in sources))


@pytest.mark.parametrize(("spec", "section"), SECTIONS)
def test_every_chart_names_its_parameters_and_source(spec, section):
    at = open_view(View(spec.file, section.title))
    assert not at.exception, [e.message for e in at.exception]
    expected = _expected(_active(spec, section, at), spec.page.sources)
    for filename, note in _exports(at):
        tokens = filename.replace("_", "-").split("-")
        for token in expected.tokens():
            assert token in filename, (filename, token)
        for key, _, shown in expected.parameters:
            assert f"{key}={shown}" in note, (note, key)
        for key in _empty(spec, section, at):
            assert f" {key}=," not in note and not note.endswith(f" {key}="), (note, key)
            assert f"{key}= " not in note, (note, key)
        assert note.startswith(APP_NAME)
        assert f"Source: {expected.sources}" in note, note
        assert tokens[0], filename


def _changed(control: Control) -> str:
    """A value of ``control`` other than its default, as a link spells it."""
    if control.kind == "select":
        return next(o for o in control.options if o != control.default)
    if control.kind == "bool":
        return control.format(not control.default)
    step = control.step if control.default + control.step <= control.high else -control.step
    return control.format(control.snap(float(control.default) + step))  # one step away


#: Pages whose first section shows no chart at its defaults (a quiz), so a changed
#: control has no chart to rename there; their sections' charts are checked above.
NO_FIRST_CHART = {"pages/drills.py"}
CHANGES = [
    (spec, next(c for c in spec.page.controls if c.kind in ("float", "int", "select")))
    for spec in ON_SKELETON
    if any(c.kind in ("float", "int", "select") for c in spec.page.controls)
    and spec.file not in NO_FIRST_CHART
]


@pytest.mark.parametrize(("spec", "control"), CHANGES, ids=lambda v: getattr(v, "key", str(v)))
def test_a_changed_control_changes_the_names_and_the_note(open_page, spec, control):
    before = _exports(open_page(spec.file))
    value = _changed(control)
    at = open_page(spec.file, **{control.key: value})
    assert not at.exception and not at.warning, [w.value for w in at.warning]
    after = _exports(at)
    assert before and len(before) == len(after)
    for (old_name, old_note), (new_name, new_note) in zip(before, after, strict=True):
        assert new_name != old_name and new_note != old_note
        assert f"{control.key}={control.shown(at.session_state[control.key])}" in new_note


def test_the_file_name_rule():
    context = ExportContext(
        (("x", "0.68", "0.68"), ("cube", "center", "center"), ("beavers", "true", "on")),
        "Janowski (1993)",
    )
    assert context.filename("janowski_points") == "janowski_points-x0.68-cube-center-beavers-on"
    # a parameter the stem already names is not repeated
    assert context.filename("points_x0.68", ".csv") == "points_x0.68-cube-center-beavers-on.csv"
    assert (
        context.note()
        == "Cube Theory Lab · x=0.68, cube=center, beavers=on · Source: Janowski (1993)"
    )
    assert context.note(short=True) == "Cube Theory Lab · Source: Janowski (1993)"
    assert ExportContext().filename("atlas", ".csv") == "atlas.csv"
    # text values are made safe for a file name
    spaced = ExportContext((("xfrom", "by hand", "by hand"),))
    assert spaced.filename("cube") == "cube-xfrom-by-hand"


def test_presenter_mode_keeps_a_short_line_and_the_full_file_name(open_page):
    spec = next(s for s in ON_SKELETON if s.file == "pages/janowski.py")
    section = spec.page.sections[0]
    at = open_page(spec.file, present="true")
    expected = _expected(_active(spec, section, at), spec.page.sources)
    exports = _exports(at)
    assert exports
    for filename, note in exports:
        assert note == f"{APP_NAME} · Source: {expected.sources}"  # no parameters on a slide
        assert all(token in filename for token in expected.tokens())


def test_an_empty_text_control_is_left_out_of_the_note(open_page):
    # a position drill draws a board; no library position is chosen (lib is empty)
    at = open_page("pages/drills.py", topic="take", level="2", n="3", seed="7")
    assert not at.exception
    exports = _exports(at)
    assert exports, "the question's board is a chart with a note"
    for filename, note in exports:
        assert "seed=7" in note and "topic=" in note, note
        assert "lib=" not in note, note
        assert "-lib" not in filename, filename
