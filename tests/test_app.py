"""App-level AppTests: registration, loading, shareable links, presenter mode."""

from pathlib import Path

import pytest

from ui.controls import Control
from ui.links import escape_text
from ui.pages import PAGES

ROOT = Path(__file__).resolve().parents[1]


def test_every_page_file_is_registered():
    files = {str(path.relative_to(ROOT)) for path in (ROOT / "pages").glob("*.py")}
    assert files == {spec.file for spec in PAGES}
    assert len({spec.url_path for spec in PAGES}) == len(PAGES)
    # legacy pages/ mode (a fresh server's first run) knows pages by file name only
    assert all(spec.url_path == Path(spec.file).stem for spec in PAGES)
    assert sum(spec.default for spec in PAGES) == 1


@pytest.mark.parametrize("spec", PAGES, ids=lambda spec: spec.url_path)
def test_every_registered_page_loads(open_page, spec):
    at = open_page(spec.file)
    assert not at.exception
    assert at.title, f"{spec.file} shows no title"
    # the page itself ran, not the home page in its place
    assert (at.title[0].value == "Cube Theory Lab") == (spec.file == "pages/home.py")


@pytest.mark.parametrize("spec", PAGES, ids=lambda spec: spec.url_path)
def test_every_page_loads_in_presenter_mode(open_page, spec):
    at = open_page(spec.file, present="true")
    assert not at.exception
    assert at.session_state["present"] is True


def test_escape_text_makes_markup_inert():
    shown = escape_text("<script>alert(1)</script>[x](javascript:y)")
    assert "<" not in shown.replace("\\<", "")
    assert "[" not in shown.replace("\\[", "")
    assert escape_text("a" * 400).endswith("\N{HORIZONTAL ELLIPSIS}")
    assert len(escape_text("a" * 400)) == 41


def test_control_parse():
    x = Control("x", "x", "float", 0.5, 0.0, 1.0, 0.01)
    assert x.parse("0.25") == (0.25, None)
    assert x.parse(" 1e-1 ") == (0.1, None)
    for bad in ("abc", "nan", "inf", "1e309", "0x1", "1_0", "", "7", "-1"):
        value, reason = x.parse(bad)
        assert value is None and reason, bad
    flag = Control("f", "f", "bool", False)
    assert flag.parse("TRUE") == (True, None)
    assert flag.parse("1")[0] is None
    with pytest.raises(ValueError, match="default"):
        Control("y", "y", "float", 2.0, 0.0, 1.0)


def test_unknown_and_repeated_parameters_are_reported(open_page):
    at = open_page("pages/janowski.py", foo="bar", x=["0.5", "0.6"])
    notices = " ".join(w.value for w in at.warning)
    assert "unknown link parameter" in notices and "foo" in notices
    assert "given more than once" in notices
    assert not at.exception


def test_a_url_key_names_one_concept_across_the_app():
    # One name per concept app-wide: a key used on several pages is the same kind of
    # control everywhere (Streamlit shares widget state by key, and a study group's
    # link means one thing whichever page it opens); no page uses a key twice.
    from ui.controls import APP_CONTROLS

    kinds: dict[str, set[str]] = {c.key: {c.kind} for c in APP_CONTROLS}
    for spec in PAGES:
        keys = [c.key for c in spec.controls]
        assert len(keys) == len(set(keys)), spec.url_path
        for control in spec.controls:
            kinds.setdefault(control.key, set()).add(control.kind)
    assert {key: kind for key, kind in kinds.items() if len(kind) > 1} == {}


@pytest.mark.parametrize("spec", PAGES, ids=lambda s: s.url_path)
def test_presets_only_set_valid_values_of_the_pages_own_controls(spec):
    controls = {control.key: control for control in spec.controls}
    assert spec.presets, "every page offers presets"
    for label, values in spec.presets.items():
        assert set(values) <= set(controls), label
        for key, value in values.items():
            parsed, reason = controls[key].parse(controls[key].format(value))
            assert reason is None, (label, key, reason)
            assert parsed == pytest.approx(value) if isinstance(value, float) else parsed == value
