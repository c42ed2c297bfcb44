"""Browser tests of the race page: a shared link, a slider move, every section on screen.

Playwright drives Debian's Chromium against a real `streamlit run` (fixtures in conftest).
Screenshots are kept in test-artifacts/.
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest

from cubecore import race
from tests.browser import ARTIFACTS, metric_value
from tests.test_browser_pages import settled
from ui.race import PAGE

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def test_race_shared_link_and_slider(server, page):
    from playwright.sync_api import expect

    page.goto(f"{server}/race?sec=Exact%20strategy&pips=70&opips=77&cube=owned")
    before = race.race_cube_equities(70, 77, "owned")
    expect(metric_value(page, "No double")).to_have_text(f"{before.no_double:+.4f}")
    expect(metric_value(page, "Action")).to_have_text(before.action)
    action_map = page.locator('[data-testid="stPlotlyChart"]').first
    expect(action_map.locator(".legendtext", has_text="70 v 77")).to_have_count(1)

    slider = page.get_by_role("slider", name=re.compile("Your count"))
    slider.focus()
    page.keyboard.press("ArrowRight")
    after = race.race_cube_equities(71, 77, "owned")
    expect(metric_value(page, "No double")).to_have_text(f"{after.no_double:+.4f}")
    expect(page).to_have_url(re.compile(r"[?&]pips=71\b"))
    assert "opips=77" in page.url and "cube=owned" in page.url
    expect(action_map.locator(".legendtext", has_text="71 v 77")).to_have_count(1)
    settled(page)  # the run finished and drawn, before the screenshot
    page.screenshot(path=str(ARTIFACTS / "race.png"))


def test_race_sections_render(server, page):
    from playwright.sync_api import expect

    for section in PAGE.sections:
        page.goto(f"{server}/race?sec={quote(section.title)}")
        tab = page.get_by_role("tab", name=section.title)
        expect(tab).to_have_attribute("aria-selected", "true")
        charts = page.locator('[data-testid="stPlotlyChart"]')
        expect(charts.first).to_be_visible()
        expect(page.locator('[data-testid="stException"]')).to_have_count(0)
        settled(page)
        page.screenshot(path=str(ARTIFACTS / f"race-{section.id}.png"))


def test_race_link_from_before_the_skeleton(server, page):
    from playwright.sync_api import expect

    # old names (rsec, rx, ry, rcube) and the old section value open the same view
    page.goto(f"{server}/race?rsec=exact-strategy&rx=70&ry=77&rcube=owned")
    expect(page.get_by_role("tab", name="Exact strategy")).to_have_attribute(
        "aria-selected", "true"
    )
    e = race.race_cube_equities(70, 77, "owned")
    expect(metric_value(page, "No double")).to_have_text(f"{e.no_double:+.4f}")
    expect(metric_value(page, "Action")).to_have_text(e.action)
