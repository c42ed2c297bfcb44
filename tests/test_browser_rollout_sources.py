"""Browser test of where rollouts come from: the position page's link opens the Rollouts
page with the position, cube and score in its box (an XGID), not submitted; the box of
several lines is the address bar's ``pos`` (newlines and all) and a fresh browser opening
that address sees the same lines. Only a browser writes a bound box to the address bar.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest

from store import database_url
from store.rollout_queue import RolloutQueue
from tests.test_browser_pages import after_a_run, new_context, no_notice, open_page
from ui.pages import PAGES
from ui.position import PAGE as POSITION_PAGE
from ui.rollouts import PAGE as ROLLOUTS_PAGE
from ui.rollouts import controls

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

POSITION = next(spec for spec in PAGES if spec.page is POSITION_PAGE)
ROLLOUTS = next(spec for spec in PAGES if spec.page is ROLLOUTS_PAGE)
#: The position page's default position (a middle game).
MIDDLE_GAME = "sOfgATBwz8EDCA"


def box(page):
    return page.get_by_label(re.compile("^Positions to roll out"))


def test_the_position_page_fills_the_box_and_the_address_bar_keeps_its_lines(browser, server):
    from playwright.sync_api import expect

    queue = RolloutQueue(database_url())  # the server's (it runs with this environment)
    before = len(queue.jobs())
    context = new_context(browser)
    try:
        page = context.new_page()
        open_page(page, server, POSITION, "?depth=1-ply&mode=match&away=3&oaway=5")
        link = page.get_by_role("link", name=re.compile("^Roll out this position"))
        after_a_run(page, link.click)
        page.wait_for_url(re.compile(r"/rollouts\?"))
        expected = controls.xgid_text(MIDDLE_GAME, away=3, opp_away=5)
        expect(box(page)).to_have_value(expected)
        page.wait_for_url(lambda url: linked_url(url) == expected)
        no_notice(page)
        # a second line typed in: the address bar carries both lines
        lines = f"{expected}\n{MIDDLE_GAME}"
        after_a_run(page, lambda: (box(page).fill(lines), box(page).blur()))
        page.wait_for_url(lambda url: linked_url(url) == lines)
        fresh_context = new_context(browser)
        try:
            fresh = fresh_context.new_page()
            fresh.goto(page.url)
            expect(box(fresh)).to_have_value(lines)
            no_notice(fresh)
        finally:
            fresh_context.close()
    finally:
        context.close()
    assert len(queue.jobs()) == before  # the links and the box submitted nothing
    queue.dispose()


def linked_url(url: str) -> str:
    """The ``pos`` of an address."""
    return parse_qs(urlsplit(url).query).get("pos", [""])[-1]
