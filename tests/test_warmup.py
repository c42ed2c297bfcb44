"""The warm server (issue #17, item 2): tables built once per process, in the background.

- :class:`ui.warmup.WarmUp` in-process: a page that needs a table another thread is
  building waits for that build (never a second one), within its budget, and says so when
  the budget runs out; with no warm-up running the page builds the table itself; a build
  that fails is told, not a traceback, and is tried again on the next run.
- Real servers: the launcher (``python -m ui.serve``, as ``make run``, the systemd unit and
  the benches start the app) builds the tables before any visitor, and its first visitors
  of the match and race pages read them from the cache (the server's own
  ``/_stcore/metrics`` counts every cache lookup, hit or miss); a plain ``streamlit run
  app.py`` starts the same warm-up with its first visitor.
"""

from __future__ import annotations

import asyncio
import functools
import threading
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from bench.server import streamlit_servers
from tests.threads import off_loop
from tests.warm import (
    MATCH_TABLES,
    RACE_TABLES,
    WARM_DEADLINE_SECONDS,
    await_warm,
    lookups,
    visit,
)
from ui.pages import PAGES
from ui.router import PAGES_KEY
from ui.warmup import WARM_UP, Table, WarmUp

pytestmark = pytest.mark.timeout(600)

ROOT = Path(__file__).resolve().parents[1]


class Gate:
    """A table's build that holds until released, counting how often it ran."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()
        self.builds = 0

    def build(self, progress) -> int:
        self.builds += 1
        self.entered.set()
        progress(0.5)
        if not self.release.wait(WARM_DEADLINE_SECONDS):
            raise RuntimeError("never released")
        return self.builds


def _script(warm_up, key):  # AppTest runs its source alone: no names from here
    import streamlit as st

    warm_up.need(key)
    st.markdown(f"read {key}")


def _page(warm_up: WarmUp, key: str) -> AppTest:
    return AppTest.from_function(_script, args=(warm_up, key), default_timeout=60)


def test_a_page_waits_for_the_warm_up_within_its_budget_then_reads_the_one_build():
    gate = Gate()
    warm_up = WarmUp((Table("slow", "the slow table", gate.build),), wait_seconds=0.5)
    assert warm_up.start(wait_for_runtime=False)
    assert not warm_up.start(wait_for_runtime=False), "a second start must not start again"
    assert gate.entered.wait(WARM_DEADLINE_SECONDS)
    page = _page(warm_up, "slow").run()
    assert not page.exception
    (warning,) = page.warning
    assert "The slow table is still being prepared after 0.5 s" in warning.value
    assert not page.markdown, "the run stops where the table is missing"
    gate.release.set()
    warm_up.join(WARM_DEADLINE_SECONDS)
    assert not warm_up.running and warm_up.ready("slow")
    page.run()
    assert not page.exception and not page.warning
    assert [m.value for m in page.markdown] == ["read slow"]
    assert gate.builds == 1, "the page read the warm-up's build instead of making its own"
    assert warm_up.seconds("slow") is not None


def test_with_no_warm_up_the_first_page_builds_the_table_once():
    told: list[float] = []

    def build(progress) -> None:
        told.append(0.25)
        progress(0.25)

    warm_up = WarmUp((Table("quick", "the quick table", build),))
    assert not warm_up.ready("quick")
    page = _page(warm_up, "quick").run()
    assert not page.exception and [m.value for m in page.markdown] == ["read quick"]
    assert not page.get("progress"), "the bar is gone once the table is there"
    page.run()
    assert told == [0.25] and warm_up.ready("quick")


def test_a_failing_build_is_told_and_tried_again_on_the_next_run():
    attempts: list[int] = []

    def build(progress) -> None:
        attempts.append(1)
        if len(attempts) == 1:
            raise OSError("disk full")

    warm_up = WarmUp((Table("fragile", "the fragile table", build),))
    page = _page(warm_up, "fragile").run()
    assert not page.exception
    (error,) = page.error
    assert error.value == "Could not prepare the fragile table: OSError: disk full"
    page.run()
    assert not page.error and [m.value for m in page.markdown] == ["read fragile"]
    assert len(attempts) == 2


def test_the_launcher_solves_ahead_in_order_within_its_budget():
    solved: list[str] = []
    tables = tuple(
        Table(key, f"table {key}", lambda progress: None, functools.partial(solved.append, key))
        for key in ("a", "b")
    )
    no_solve = Table("c", "table c", lambda progress: None)
    assert WarmUp((*tables, no_solve)).solve_ahead(60) == ["a", "b"]
    assert solved == ["a", "b"]
    with pytest.raises(ValueError, match="budget_seconds must be in"):
        WarmUp(tables).solve_ahead(0)


def test_a_session_makes_its_navigation_pages_once():
    page = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    made = page.session_state[PAGES_KEY]
    page.run()
    assert page.session_state[PAGES_KEY] is made, "the pages were made again on a rerun"
    assert [p.title for pages in made.values() for p in pages] == [spec.title for spec in PAGES]


def test_bad_declarations_and_keys_name_the_parameter():
    table = Table("t", "a table", lambda progress: None)
    with pytest.raises(ValueError, match="keys must be unique"):
        WarmUp((table, table))
    with pytest.raises(ValueError, match="wait_seconds must be in"):
        WarmUp((table,), wait_seconds=0)
    with pytest.raises(ValueError, match="key must be one of"):
        WARM_UP.ready("no such table")


def test_every_section_table_is_a_warm_up_table():
    declared = {
        table
        for spec in PAGES
        if spec.page is not None
        for section in spec.page.sections
        for table in section.tables
    }
    assert declared == {"race", "match"}
    assert declared <= set(WARM_UP.tables)


# --------------------------------------------------------------------- real servers


#: The tables the launcher's first visitors of the match and race pages read.
_MATCH_AND_RACE = {MATCH_TABLES: 2, RACE_TABLES: 1}


def test_the_launcher_builds_the_tables_before_the_first_visitor_reads_them():
    with streamlit_servers(1) as servers:
        base = servers[0][0]
        off_loop(asyncio.run, await_warm(base, _MATCH_AND_RACE))
        off_loop(asyncio.run, visit(base, "match", "race"))
        counts = lookups(base)
    assert counts[(MATCH_TABLES, "miss")] == 2, "the match page built its tables again"
    assert counts[(MATCH_TABLES, "hit")] >= 2, counts
    assert counts[(RACE_TABLES, "miss")] == 1 and counts[(RACE_TABLES, "hit")] >= 1, counts


def test_a_plain_streamlit_run_starts_the_warm_up_with_its_first_visitor():
    with streamlit_servers(1, plain=True) as servers:
        base = servers[0][0]
        assert lookups(base).get((MATCH_TABLES, "miss"), 0) == 0, "nothing before a visitor"
        # its first poll is the first visitor
        counts = off_loop(asyncio.run, await_warm(base, _MATCH_AND_RACE))
    assert counts.get((MATCH_TABLES, "hit"), 0) == 0, "the warm-up alone built the match tables"


def test_the_launcher_caps_glibcs_malloc_arenas():
    """Debian's glibc takes the cap (a soak's RSS stays flat with it: ui.heap)."""
    from ui.heap import MALLOC_ARENAS, limit_malloc_arenas

    assert MALLOC_ARENAS == 2 and limit_malloc_arenas() is True
