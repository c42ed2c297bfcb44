"""Link fuzzing: any query string on any registered page is safe and never silently dropped.

For every page of ``ui.pages.PAGES`` (its controls from its declaration)
hypothesis builds hostile links: random and hostile strings, unicode, huge and tiny
numbers, NaN/inf, repeated keys, unknown keys and hundreds of parameters. Each
link is opened the way a shared link arrives (``AppTest`` on ``app.py``, then
``switch_page``), and three properties must hold:

1. the page never raises (``not at.exception``);
2. every ignored value is reported: each control key whose value is invalid for
   its :class:`~ui.controls.Control` or was not taken by the widget is named in a
   notice, and unknown keys get the "unknown parameter" notice;
3. nothing from the URL is rendered as HTML: no element carries an unescaped
   ``<tag`` from the link, and ``st.html`` or markdown with ``unsafe_allow_html``
   never carries link text at all.

What the page sees is what Streamlit hands it after the router's first run (some
values are consumed on the way), so expectations are computed from that.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as hst
from streamlit.testing.v1 import AppTest

from tests.conftest import APP
from ui import student
from ui.controls import APP_CONTROLS, Control
from ui.links import MAX_LINK_BYTES, THEME_VALUES, theme_script
from ui.pages import PAGES

#: The theme's reload scripts (ui.links.theme_script): fixed texts, one per theme.
_THEME_SCRIPTS = frozenset(theme_script(name) for name in THEME_VALUES)

_RESERVED = {"embed", "embed_options"}
#: Values a browser or an attacker may put in a link.
_HOSTILE = (
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    '"><svg onload=alert(1)>',
    "</div><b>zq</b>",
    "<!-- zq -->",
    "[link](javascript:alert(1))",
    "**bold** _it_ `code` $x^2$ :material/home: :red[zq]",
    "&lt;b&gt;zq&amp;",
    "\u202ereversed",
    "\x00\x07\x1b[31m",
    "\n\n# heading\n---",
    "../../etc/passwd",
    "%3Cscript%3E",
    "{{7*7}}${7*7}",
    "\\",
    "",
    " ",
    "🎲" * 50,
    "x" * 5000,
)
_NUMBERS = (
    "nan", "NaN", "-nan", "inf", "-inf", "Infinity", "1e309", "-1e309", "1e-320", "4.9e-324",
    "1e308", "0x10", "1_000", "+", "-", ".", "1e", "0.5.5", "٣", "１", "1,5", " 0.5 ", "+0.5",
    "-0", "0e0", ".5", "5.", "9" * 400, "0." + "0" * 300 + "1",
)  # fmt: skip
_BOOLS = ("true", "false", "True", "FALSE", "1", "0", "yes", "on", "")


def _controls(page) -> tuple[Control, ...]:
    return page.controls


def _aliases(page) -> Mapping[str, Mapping[str, str]]:
    return page.page.value_aliases if page.page is not None else {}


def _valid_values(control: Control) -> hst.SearchStrategy[str]:
    if control.kind == "bool":
        return hst.sampled_from(("true", "false"))
    if control.kind == "select":  # as the link spells it today, or an option itself (older links)
        return hst.sampled_from(
            tuple(dict.fromkeys((*map(control.format, control.options), *control.options)))
        )
    low, high = control.low, control.high
    edges = [low, high, low - control.step, high + control.step, control.default]
    numbers = hst.floats(low, high, allow_nan=False) if math.isfinite(high - low) else hst.floats()
    if control.kind == "int":
        numbers = numbers.map(round)
    return hst.one_of(hst.sampled_from(edges), numbers).map(control.format)


def _value(controls: tuple[Control, ...]) -> hst.SearchStrategy[str]:
    parts = [
        hst.sampled_from(_HOSTILE),
        hst.sampled_from(_NUMBERS),
        hst.sampled_from(_BOOLS),
        hst.text(max_size=40),
        hst.floats().map(repr),
        hst.integers(-(10**40), 10**40).map(str),
    ]
    parts += [_valid_values(control) for control in controls]
    return hst.one_of(parts)


def _key(controls: tuple[Control, ...]) -> hst.SearchStrategy[str]:
    known = [c.key for c in (*controls, *APP_CONTROLS)]
    return hst.one_of(
        hst.sampled_from(known),
        hst.sampled_from([k.upper() for k in known] + [k + " " for k in known]),
        hst.text(min_size=1, max_size=12),
        hst.sampled_from(_HOSTILE[:6]),
    ).filter(lambda key: key.strip().lower() not in _RESERVED)


@hst.composite
def links(draw, controls: tuple[Control, ...]) -> dict[str, list[str]]:
    """A query as key -> values (a list: keys may repeat)."""
    pairs = draw(hst.lists(hst.tuples(_key(controls), _value(controls)), max_size=8))
    if draw(hst.integers(0, 9)) == 0:  # sometimes hundreds of parameters
        pairs += [(f"p{i}", str(i)) for i in range(draw(hst.integers(100, 400)))]
    query: dict[str, list[str]] = {}
    for key, value in pairs:
        query.setdefault(key, []).append(value)
    return query


def _walk(node):
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _walk(child)


def _strings(message):
    for field, value in message.ListFields():
        values = value if field.is_repeated else [value]
        for item in values:
            if isinstance(item, str):
                yield item
            elif hasattr(item, "ListFields"):
                yield from _strings(item)


def _tag_fragments(text: str) -> set[str]:
    """Pieces of ``text`` that could open an HTML tag: ``<`` + the next 3 characters."""
    return {
        text[i : i + 4]
        for i in range(len(text) - 3)
        if text[i] == "<" and (text[i + 1].isalpha() or text[i + 1] in "/!?")
    }


def _unescaped(fragment: str, text: str) -> bool:
    return any(
        start == 0 or text[start - 1] != "\\"
        for start in (m.start() for m in re.finditer(re.escape(fragment), text))
    )


def _widget_value(at: AppTest, control: Control):
    finder = {"bool": at.toggle, "select": at.selectbox}.get(control.kind, at.slider)
    try:
        return True, finder(key=control.key).value
    except KeyError:
        return False, None


def _check(
    at: AppTest,
    received: dict[str, list[str]],
    controls: tuple[Control, ...],
    aliases: Mapping[str, Mapping[str, str]],
) -> None:
    """``aliases``: the page's renamed values by key (taken silently, as today's)."""
    assert not at.exception, [e.message for e in at.exception]
    notices = [w.value for w in at.warning]
    known = {c.key: c for c in (*controls, *APP_CONTROLS)}

    # 2. every ignored value is reported; a link above the size limit as a whole
    size = len(urlencode([(key, value) for key, values in received.items() for value in values]))
    if size > MAX_LINK_BYTES:
        assert any("Ignored the whole link" in n for n in notices), (size, notices)
    elif controls:
        for key, values in received.items():
            control = known.get(key)
            if control is None:
                if key.lower() not in _RESERVED:
                    assert any("unknown link parameter" in n for n in notices), (key, notices)
                continue
            parsed, reason = control.parse(aliases.get(key, {}).get(values[-1], values[-1]))
            found, actual = _widget_value(at, control)
            named = any(f"**{key}**" in n for n in notices)
            if reason is not None or len(values) > 1 or (found and actual != parsed):
                assert named, (key, values, reason, actual, notices)
            elif found:
                assert not named, (key, values, notices)  # a taken value is not reported

    # 3. nothing from the URL is rendered as HTML
    inputs = [text for key, values in received.items() for text in (key, *values)]
    fragments = set().union(*(_tag_fragments(text) for text in inputs))
    telling = [t for t in inputs if len(t) >= 6 and re.search(r"[<>\"'&]", t)]
    for node in _walk(at._tree):
        proto = getattr(node, "proto", None)
        if proto is None or not hasattr(proto, "ListFields"):
            continue
        if type(proto).__name__ == "Html" and student.COOKIE_WRITER.fullmatch(proto.body):
            continue  # the visitor's identity cookie: its one variable part is 32 hex digits
        if type(proto).__name__ == "Html" and proto.body in _THEME_SCRIPTS:
            continue  # the theme's reload script: one of two fixed texts, nothing from the link
        texts = list(_strings(proto))
        for text in texts:
            for fragment in fragments:
                assert not _unescaped(fragment, text), (fragment, type(proto).__name__, text)
        raw_html = type(proto).__name__ == "Html" or getattr(proto, "allow_html", False)
        if raw_html:
            for text in texts:
                assert not any(t in text for t in telling), (type(proto).__name__, text)


def _open(page: str, query: dict[str, list[str]]) -> tuple[AppTest, dict[str, list[str]]]:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({key: list(values) for key, values in query.items()})
    received = {
        key: list(value) if isinstance(value, list) else [value]
        for key, value in at.query_params.items()
    }
    at.switch_page(page).run()  # the link opens the page itself, as in a browser
    assert at._finished_page_script_hash == at._page_hash, f"landed elsewhere than {page}"
    return at, received


@pytest.mark.parametrize("page", PAGES, ids=[page.url_path for page in PAGES])
def test_any_link_is_safe_and_reported(page):
    controls = _controls(page)

    @settings(
        max_examples=6,
        deadline=None,
        derandomize=True,
        phases=(Phase.explicit, Phase.generate),  # no shrinking: one example costs ~0.3 s
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(query=links(controls))
    def check(query):
        at, received = _open(page.file, query)
        _check(at, received, controls, _aliases(page))

    check()


@pytest.mark.parametrize("page", PAGES, ids=[page.url_path for page in PAGES])
def test_hostile_link_on_every_control(page):
    """Every control at once with a hostile value, plus unknown keys: one notice each."""
    controls = _controls(page)
    query = {c.key: ["<img src=x onerror=alert(1)>"] for c in (*controls, *APP_CONTROLS)}
    query["<script>zq</script>"] = ["1"]
    query.update({f"p{i}": [str(i)] for i in range(300)})
    at, received = _open(page.file, query)
    _check(at, received, controls, _aliases(page))
    if controls:
        for control in controls:
            assert any(f"**{control.key}**" in w.value for w in at.warning), control.key
