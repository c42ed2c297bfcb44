"""Browser tests of the position page (issue #39): paste an XGID, see the board, the
verdict and the implied cube life; the address bar reopens the same view; a deep level
shows progress and can be stopped.

Playwright drives Debian's Chromium against a real ``streamlit run`` (fixtures in
conftest). The board's colours are read from the rendered SVG, the numbers from the page.
"""

from __future__ import annotations

import re

import pytest

from cubecore import engine
from cubecore.position import position_from_id
from tests.browser import ARTIFACTS, metric_value
from tests.test_browser_chart_contrast import contrast, rgba
from tests.test_browser_pages import (
    after_a_run,
    new_context,
    open_page,
    read_view,
    same_view_in_a_fresh_context,
)
from tests.test_browser_real_race import SIDES_APART, _board
from ui.pages import PAGES
from ui.position import PAGE

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

SPEC = next(spec for spec in PAGES if spec.page is PAGE)
#: A middle game as XG writes it (the player on roll at the bottom), 4-away/2-away of a
#: 7-point match (3-5), the opponent (top) owning a 2-cube; every value differs from the
#: page's defaults, so that the address bar carries each.
XGID = "XGID=-b---CD-C---dD---c-db---A-:1:-1:1:00:3:5:0:7:10"
POSITION_ID = "sOfgATBwz8EDIA"
#: The opening after 31 played 8/5 6/5, the opponent on roll: evaluated deeper than 1-ply
#: by no other test (the Stop test needs a 4-ply that is not in the server's cache yet).
STOPPED_POSITION_ID = "sGfwATDgc/ABMA"


def test_a_pasted_xgid_gives_the_board_the_verdict_and_the_cube_life(browser, server):
    from playwright.sync_api import expect

    context = new_context(browser)
    try:
        page = context.new_page()
        open_page(page, server, SPEC, "?depth=1-ply")
        box = page.get_by_label(re.compile("^Paste a Position ID, an XGID"))
        box.fill(XGID)
        after_a_run(page, page.get_by_role("button", name="Analyse").click)
        page.wait_for_url("**mode=match**")  # the XGID's score, in the address bar
        expect(page.get_by_text("Read the XGID: 4-away/2-away")).to_be_visible()
        position = position_from_id(POSITION_ID)
        d = engine.evaluate(position, cube=2, owner="opponent", away=4, opp_away=2)
        expect(page.get_by_text(f"Proper cube action: {d.action}").first).to_be_visible()
        expect(metric_value(page, "No double")).to_have_text(f"{d.no_double:+.4f}")
        implied = d.implied_cube_life()
        shown = "undefined" if implied.x is None else f"{implied.x:.3f}"
        expect(metric_value(page, "Implied cube life x")).to_have_text(shown)
        board = _board(page)
        on_roll, opponent = (rgba(color) for color in board["traces"][:2])
        assert contrast(on_roll, opponent) >= SIDES_APART, board["traces"][:2]
        page.screenshot(path=str(ARTIFACTS / "position-xgid.png"))
        url = page.url
        assert f"pos={POSITION_ID}" in url, url
        for part in ("away=4", "oaway=2", "cv=2", "cube=opponent", "depth=1-ply"):
            assert part in url, (part, url)
        read_view(page)
        same_view_in_a_fresh_context(browser, page, "position-xgid")
    finally:
        context.close()


def test_an_xgid_in_the_link_is_written_as_its_position_id(browser, server):
    from urllib.parse import quote

    from playwright.sync_api import expect

    context = new_context(browser)
    try:
        page = context.new_page()
        open_page(page, server, SPEC, f"?depth=1-ply&pos={quote(XGID, safe='')}")
        expect(page.get_by_text("Read the XGID: 4-away/2-away")).to_be_visible()
        expect(page).to_have_url(re.compile(f"pos={POSITION_ID}"), timeout=30_000)
        for part in ("mode=match", "away=4", "oaway=2", "cv=2", "cube=opponent"):
            assert part in page.url, (part, page.url)
        assert "XGID" not in page.url
        same_view_in_a_fresh_context(browser, page, "position-xgid-link")
    finally:
        context.close()


def test_a_deep_evaluation_shows_progress_and_can_be_stopped(browser, server):
    from playwright.sync_api import expect

    context = new_context(browser)
    try:
        page = context.new_page()
        # 4-ply of a contact position takes minutes: progress, then Stop. The position is
        # this test's own: the server's cache is shared by the browser tests of its worker,
        # and another test's "Verdict by level" of the page's default position evaluates it
        # at 4-ply (then served at once, with no progress to stop)
        page.goto(f"{server}/{SPEC.link_path}?pos={STOPPED_POSITION_ID}&depth=4-ply")
        stop = page.get_by_role("button", name="Stop the evaluation")
        expect(stop).to_be_visible()
        expect(page.get_by_text("The engine evaluates at 4-ply")).to_be_visible()
        stop.click()
        expect(page.get_by_text("You stopped the 4-ply evaluation")).to_be_visible()
        # another level evaluates at once: the engine is free again
        page.goto(f"{server}/{SPEC.link_path}?pos={STOPPED_POSITION_ID}&depth=2-ply")
        expect(metric_value(page, "Implied cube life x")).to_be_visible()
    finally:
        context.close()


def test_the_score_matrix_of_a_linked_position_reopens_from_the_address_bar(browser, server):
    """Issue #39's browser check of the score matrix: the position's matrix at the link's
    score, its answer there the engine's own, the address bar reopening the same tab."""
    from playwright.sync_api import expect

    context = new_context(browser)
    try:
        page = context.new_page()
        open_page(page, server, SPEC, f"?depth=1-ply&pos={POSITION_ID}&mode=match&away=4&oaway=2")
        after_a_run(page, page.get_by_role("tab", name="Score matrix", exact=True).click)
        here = engine.evaluate(position_from_id(POSITION_ID), away=4, opp_away=2)
        label = "At 4-away/2-away, cube centred: the engine at 1-ply"
        expect(metric_value(page, label)).to_have_text(here.action)
        expect(page.get_by_text("Scores where the app's reading on")).to_be_visible()
        assert re.search(r"[?&]sec=", page.url), f"the tab is not in the address bar: {page.url}"
        page.screenshot(path=str(ARTIFACTS / "position-matrix.png"))
        same_view_in_a_fresh_context(browser, page, "position-matrix")
    finally:
        context.close()
