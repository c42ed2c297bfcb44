"""The hostile visitor's links of issue #18, each a test: no crash, no stall, numbers shown.

1. a strategy that almost never ends a game (the stall: ~6.5 min of CPU, then an error);
2. beavers with both doubling points near 1/2 (the crash: ``OverflowError`` in the
   figure, a probability of 2.108, ``nan`` and a 190-digit mean);
3. a half-megabyte link (memory kept in each session);
4. Markdown in a link value: ``www.example.org``, ``https://...``, an e-mail address
   and a ``:material/...:`` icon rendered as links and an icon in the notices;
5. a value between slider steps, a repeated key on tabs, a choice and a toggle,
   ``0.7_5``, Unicode digits (``0.٣``, ``0.５``) and a bad app-wide flag
   (``present=abc``): each named in a notice;
6. notices below the tab content on four pages: on every page they come first.

Each link is opened as a shared link arrives (``open_page``: ``app.py``, then the page).
"""

from __future__ import annotations

import re
import sys

import pytest

from tests.links import the_one_notice
from ui.links import MAX_LINK_BYTES, escape_text
from ui.pages import PAGES
from ui.style import NOT_APPLICABLE

#: Text a page must never show as a number (metrics: also ``None``; a caption may
#: explain what an empty cell, "None", means).
NOT_A_NUMBER = re.compile(r"(?<![\w.])(nan|NaN|-?inf|Infinity)(?!\w)")
NO_VALUE = re.compile(r"(?<![\w.])None(?!\w)")
RULES = "pages/rules.py"


def shown_numbers(at) -> list[str]:
    """Every metric value of the page."""
    return [str(metric.value) for metric in at.metric]


def assert_finite_page(at) -> None:
    """No exception, and no metric, caption or text that shows nan, inf or None."""
    assert not at.exception, [e.message for e in at.exception]
    for value in shown_numbers(at):
        assert not NOT_A_NUMBER.search(value) and not NO_VALUE.search(value), value
    for element in (*at.markdown, *at.caption):
        assert not NOT_A_NUMBER.search(str(element.value)), element.value


def metric(at, label: str) -> str:
    """The value of the metric with this label."""
    return next(str(m.value) for m in at.metric if m.label == label)


# ------------------------------------------------------------------ 1. the stall


def test_a_strategy_that_never_ends_is_refused_before_it_runs(open_page):
    at = open_page(RULES, view="simulation", ad="0.5001", ar="0.5001", bd="0.5", take="0", n="1000")
    assert_finite_page(at)
    notices = [read_as_markdown(w.value) for w in at.warning]
    for key in ("ad", "ar"):
        assert any(f"**{key}**" in n and "between the slider's steps" in n for n in notices)
    errors = [e.value for e in at.error]
    assert any("double_a + double_b must exceed 1" in e for e in errors), errors


def test_a_simulation_past_its_time_budget_is_stopped_and_explained(open_page, monkeypatch):
    # the time budget while a simulation runs (the work budget keeps it near 2 s; a
    # server slowed far beyond that stops the run and frees the slot)
    from ui.rules import data

    monkeypatch.setattr(data, "SIMULATION_SECONDS", 1e-9)
    at = open_page(RULES, view="simulation")
    assert_finite_page(at)
    errors = [e.value for e in at.error]
    assert any("ran past its `time_budget`" in e and "simulate fewer games" in e for e in errors)
    # no number from a stopped run: the headline says "—" (not applicable) in each place
    assert at.metric and all(metric.value == NOT_APPLICABLE for metric in at.metric)


def test_the_price_of_doubling_early_has_the_time_budget_too(open_page, monkeypatch):
    from cubecore import pgame
    from ui.rules import data

    budgets = []

    def past_budget(*args, time_budget=None, **kwargs):
        budgets.append(time_budget)
        raise ValueError("the simulation ran past its `time_budget` of 30 s")

    monkeypatch.setattr(pgame, "doubling_price_table", past_budget)
    at = open_page(RULES, view="simulation")
    assert_finite_page(at)
    assert budgets == [data.SIMULATION_SECONDS]
    errors = [e.value for e in at.error]
    assert any(e.startswith("The price of doubling early stopped") for e in errors), errors


def test_keeler_spencer_simulations_past_their_time_budget_are_explained(open_page, monkeypatch):
    from ui.keeler_spencer import data

    monkeypatch.setattr(data, "SIMULATION_SECONDS", 1e-9)
    at = open_page("pages/keeler_spencer.py")
    assert_finite_page(at)
    errors = [e.value for e in at.error]
    assert any(e.startswith("The take check stopped") and "`time_budget`" in e for e in errors)


def test_the_longest_games_on_the_grid_are_explained_and_capped(open_page):
    # A doubles at 51%, B at 50%: a game has 51.5 cube decisions on average
    at = open_page(RULES, view="simulation", ad="0.51", ar="0.51", bd="0.5", take="0", n="1000")
    assert_finite_page(at)
    assert any("almost never ends" in i.value for i in at.info)
    capped = [w.value for w in at.warning if w.value.startswith("Games (thousands), n:")]
    assert capped and "1,000 thousand" in capped[0]
    assert int(metric(at, "Games simulated").replace(",", "")) < 1_000_000


# --------------------------------------------------------------- 2. the overflow


@pytest.mark.parametrize(
    "link",
    [
        {"beavers": "true", "ad": "0.51", "ar": "0.51", "bd": "0.5"},
        {"beavers": "true", "ad": "0.51", "ar": "0.51", "bd": "0.5", "take": "0"},
        {"beavers": "true", "raccoons": "true", "raccoon": "0.4", "ad": "0.51", "bd": "0.5"},
        {"beavers": "true", "ad": "0.5", "ar": "0.51", "bd": "0.51", "beaver": "0"},
        {"murphy": "true", "beavers": "true", "ad": "0.52", "ar": "0.52", "bd": "0.5"},
    ],
)
def test_stakes_beyond_float_range_are_shown_as_powers_of_two(open_page, link):
    at = open_page(RULES, view="simulation", **link)
    assert_finite_page(at)
    for label in ("P(stake > 4), simulated", "P(stake > 4), theory"):
        assert 0.0 <= float(metric(at, label)) <= 1.0
    table = next(frame.value for frame in at.dataframe if "cube_value" in frame.value.columns)
    assert table["simulated"].sum() == pytest.approx(1.0)
    assert table["theory"].sum() <= 1.0 + 1e-9
    assert not table["cube_value"].astype(str).str.contains("inf").any()


# ------------------------------------------------------------ 3. the long link


def test_a_link_above_the_size_limit_is_refused_and_not_kept(open_page):
    huge = "9" * (100 * 1024)  # (Streamlit itself drops a query string above 512 KiB)
    at = open_page("pages/janowski.py", x=huge, W="1.5")
    assert not at.exception
    notices = [w.value for w in at.warning]
    assert len(notices) == 1 and "Ignored the whole link" in notices[0], notices
    assert f"{MAX_LINK_BYTES:,}" in notices[0].replace("\\", "")
    assert at.slider(key="W").value != 1.5  # the page opens at its defaults
    kept = sum(sys.getsizeof(repr(at.session_state[key])) for key in at.session_state)
    assert kept < 64 * 1024, kept


def test_a_link_at_the_size_limit_is_read(open_page):
    padding = "z" * (MAX_LINK_BYTES - len("W=1.5&pad="))  # exactly the limit
    at = open_page("pages/janowski.py", W="1.5", pad=padding)
    notices = [w.value for w in at.warning]
    assert len(notices) == 1 and "unknown link parameter" in notices[0], notices
    assert at.slider(key="W").value == 1.5


# -------------------------------------------------------- 4. Markdown payloads


#: What a Markdown renderer could turn into a link or an icon once escapes are read.
ACTIVE = re.compile(r"(?i)(www\.|[a-z]+://|[\w.+-]@[\w-]|:material/|:[a-z]+\[|:[\w+-]+:)")
PAYLOADS = (
    "www.example.org",
    "WWW.EXAMPLE.ORG/path",
    "https://evil.example/x?y=1",
    "http://a.b",
    "a@b.org",
    "mailto:a@b.org",
    ":material/home:",
    ":red[zq]",
    ":smile: and :+1:",
    "[zq](https://evil.example)",
)


def read_as_markdown(text: str) -> str:
    """``text`` with Markdown's backslash escapes read (what a renderer's text node holds)."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_escape_text_leaves_no_link_or_icon(payload):
    shown = escape_text(payload, 200)
    assert not ACTIVE.search(read_as_markdown(shown)), shown
    assert shown.replace("\N{WORD JOINER}", "").replace("\\", "") == payload


@pytest.mark.parametrize("payload", PAYLOADS)
def test_a_markdown_payload_in_a_link_is_named_as_plain_text(open_page, payload):
    at = open_page("pages/janowski.py", x=payload, **{payload: "1"})
    assert not at.exception
    notices = [w.value for w in at.warning]
    assert len(notices) == 2, notices  # the bad value, the unknown key
    for notice in notices:
        assert not ACTIVE.search(read_as_markdown(notice)), notice


# ------------------------------------------ 5. between steps, repeats, bad flags


def test_a_value_between_slider_steps_is_snapped_and_named(open_page):
    at = open_page("pages/janowski.py", x="0.123")
    notice = the_one_notice(at, "x")
    assert "between the slider's steps" in read_as_markdown(notice)
    assert at.slider(key="x").value == pytest.approx(0.12)


@pytest.mark.parametrize(
    ("link", "key"),
    [
        ({"view": ["simulation", "theory"]}, "sec"),
        ({"sec": ["Theory", "Simulation"]}, "sec"),
        ({"walk": ["murphy_cap", "beaver_raccoon"]}, "walk"),
        ({"sec": "Simulation", "beavers": ["true", "false"]}, "beavers"),
        ({"sec": "Simulation", "model": ["walk", "chain"]}, "model"),
        ({"present": ["true", "false"]}, "present"),
        ({"present": ["false", "false"]}, "present"),
    ],
)
def test_a_repeated_key_is_named(open_page, link, key):
    at = open_page(RULES, **link)
    notice = the_one_notice(at, key)
    assert "given more than once" in notice


@pytest.mark.parametrize(
    ("link", "key", "reason"),
    [
        ({"x": "0.7_5"}, "x", "not a number"),
        # issue #38: Python reads any Unicode digit (Arabic-Indic, fullwidth)
        ({"x": "0.\u0663"}, "x", "digits other than 0 to 9"),
        ({"x": "0.\uff15"}, "x", "digits other than 0 to 9"),
        ({"present": "abc"}, "present", "not true or false"),
        ({"present": "yes"}, "present", "not true or false"),
    ],
)
def test_a_bad_value_is_named_and_not_used(open_page, link, key, reason):
    at = open_page("pages/janowski.py", **link)
    notice = the_one_notice(at, key)
    assert reason in notice
    if key == "x":
        assert at.slider(key="x").value == 0.7
    else:
        assert at.session_state["present"] is False


# --------------------------------------------------- 6. notices at the top


def _order(node, found: list[str]) -> list[str]:
    """The page's elements in order: ``notice`` for a link notice, ``tabs`` for the tabs."""
    kind = getattr(node, "type", "")
    if kind == "tab_container":
        found.append("tabs")
        return found
    if kind == "warning" and "Link parameter" in str(getattr(node, "value", "")):
        found.append("notice")
    for child in getattr(node, "children", {}).values():
        _order(child, found)
    return found


@pytest.mark.parametrize("spec", PAGES, ids=[spec.url_path for spec in PAGES])
def test_link_notices_come_before_the_tabs_on_every_page(open_page, spec):
    at = open_page(spec.file, present="abc")
    order = _order(at._tree.main, [])
    assert "notice" in order, order
    if "tabs" in order:
        assert order.index("notice") < order.index("tabs"), order
