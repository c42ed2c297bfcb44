"""Every control and app-wide flag, every kind of bad value: named at the top (issue #18).

For each page of the registry and each kind of bad value, one link gives that kind of
value to every control of the page and to every app-wide flag at once. Every key whose
value the control cannot use must be named in its own "Link parameter" notice, and the
notices must stand above the section tabs (the first screen). The kinds are the six
classic bad values (empty, text, NaN, infinity, beyond float range, a huge negative),
a value between a slider's steps, a key given twice, and a Markdown payload.

A kind that is a valid value for some control (a free-text control takes text) is not a
bad value for it: the test asks the control itself (:meth:`ui.controls.Control.parse`)
and expects a notice exactly for the keys it refuses, so nothing is left out silently.
"""

from __future__ import annotations

import re

import pytest

from ui.controls import APP_CONTROLS, Control
from ui.pages import PAGES
from ui.skeleton import SECTION_KEY

# reads pages as a visitor would, never patches: on the caches earlier such tests left
pytestmark = pytest.mark.shared_caches

#: The six classic bad values.
CLASSIC = {
    "empty": "",
    "text": "abc",
    "nan": "nan",
    "infinity": "inf",
    "beyond-float": "1e309",
    "huge-negative": "-1e9",
}
MARKDOWN = "[x](https://example.org) **b** :material/home: a@b.org"
KINDS = (*CLASSIC, "between-steps", "repeated", "markdown")
NOTICE = re.compile(r"Link parameter \*\*(?P<key>[^*]+)\*\*")


def _controls(spec) -> tuple[Control, ...]:
    return (*spec.page.all_controls, *APP_CONTROLS)


def _between_steps(control: Control) -> str | None:
    """A value inside a slider's range but between two of its steps."""
    if not control.is_slider or control.step is None:
        return None
    low = float(control.low if control.low is not None else 0.0)
    value = low + float(control.step) / 3
    return repr(value)


def _two_values(control: Control) -> list[str]:
    """Two different valid values of ``control`` (the key given twice)."""
    first = control.format(control.default)
    if control.options:
        second = next(control.format(o) for o in control.options if o != control.default)
    elif control.kind == "bool":
        second = control.format(not control.default)
    elif control.is_slider:
        other = control.high if control.default != control.high else control.low
        second = control.format(other)
    else:
        second = first
    return [first, second]


def _link(spec, kind: str) -> tuple[dict[str, object], set[str]]:
    """The link of ``kind`` for every control of the page; the keys that must be named."""
    link: dict[str, object] = {}
    refused: set[str] = set()
    for control in _controls(spec):
        if kind == "repeated":
            link[control.key] = _two_values(control)
            refused.add(control.key)
            continue
        value = (
            CLASSIC.get(kind)
            if kind in CLASSIC
            else MARKDOWN
            if kind == "markdown"
            else _between_steps(control)
        )
        if value is None:
            continue
        link[control.key] = value
        # between steps: a slider takes it as it is, the page snaps it and says so
        if kind == "between-steps" or control.parse(value)[1] is not None:
            refused.add(control.key)
    return link, refused


def _order(node, found: list[str]) -> list[str]:
    """The page's elements in order: ``notice`` for a link notice, ``tabs`` for the tabs."""
    if getattr(node, "type", "") == "tab_container":
        found.append("tabs")
        return found
    if getattr(node, "type", "") == "warning" and NOTICE.search(str(node.value)):
        found.append("notice")
    for child in getattr(node, "children", {}).values():
        _order(child, found)
    return found


CASES = [
    (spec, kind)
    for spec in PAGES
    if spec.page is not None
    for kind in KINDS
    if kind != "between-steps" or any(_between_steps(c) for c in _controls(spec))
]


@pytest.mark.parametrize(
    ("spec", "kind"), CASES, ids=[f"{spec.url_path or 'home'}-{kind}" for spec, kind in CASES]
)
def test_every_bad_value_of_every_control_is_named_at_the_top(open_page, spec, kind):
    link, refused = _link(spec, kind)
    assert refused, f"{kind}: no control of {spec.url_path} refuses it"
    section = link.pop(SECTION_KEY, None) if kind != "repeated" else None
    at = open_page(spec.file, **link, **({SECTION_KEY: section} if section is not None else {}))
    assert not at.exception, [e.value for e in at.exception]
    named = {m["key"] for w in at.warning for m in NOTICE.finditer(w.value)}
    assert refused <= named, f"not named: {sorted(refused - named)}"
    order = _order(at._tree.main, [])
    if "tabs" in order:
        assert order.index("tabs") > max(i for i, o in enumerate(order) if o == "notice"), order
