"""Browser test of the Keeler-Spencer page: a shared link, a slider move, the address bar."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest

from cubecore import keeler_spencer as ks
from tests.browser import ARTIFACTS, metric_value

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def test_shared_link_opens_the_worked_example_and_a_slider_updates_it(server, page):
    from playwright.sync_api import expect

    # a link from before the page skeleton: its old section title opens today's tab
    section = quote("3 · Non-alternating raises")
    page.goto(f"{server}/keeler_spencer?sec={section}&i=2&j=1&b=3")
    alpha = metric_value(page, "α(2,1): A raises at")
    expect(alpha).to_have_text("0.6875")  # [KS69] section 3: 11/16
    expect(page.get_by_role("tab", name=re.compile("Non-alternating"))).to_have_attribute(
        "aria-selected", "true"
    )

    def table_i_title(b):
        # a title longer than a phone's chart holds is drawn on two lines, whose texts
        # the title's element holds one after the other (ui.style.fitting_title)
        pattern = re.compile(rf"α \(Table I\): raising points,\s?a = 2,\s?b = {re.escape(b)}$")
        return page.locator('[data-testid="stPlotlyChart"] .gtitle', has_text=pattern).first

    expect(table_i_title("3")).to_be_visible()
    expect(page.locator('[data-testid="stPlotlyChart"]', has_text="Game tree")).to_be_visible()

    slider = page.get_by_role("slider", name=re.compile("B's raise factor b"))
    slider.focus()
    page.keyboard.press("ArrowRight")
    expected = ks.raising_points(2, 1, 2.0, 3.1).alpha
    expect(alpha).to_have_text(f"{expected:.4f}")
    expect(page).to_have_url(re.compile(r"b=3\.1\b"))
    assert "i=2" in page.url and "j=1" in page.url
    expect(table_i_title("3.1")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "keeler_spencer.png"))


def test_continuous_game_section_from_a_link(server, page):
    from playwright.sync_api import expect

    page.goto(f"{server}/keeler_spencer?d=0.7")
    expect(metric_value(page, "Take, exact (3 − 5d)")).to_have_text("-0.5000")
    path = page.locator('[data-testid="stPlotlyChart"]', has_text="A seeded path")
    expect(path.locator(".annotation-text", has_text="A doubles 0.70")).to_have_count(1)
    slider = page.get_by_role("slider", name=re.compile("A's doubling point"))
    slider.focus()
    page.keyboard.press("ArrowRight")
    expect(metric_value(page, "Take, exact (3 − 5d)")).to_have_text(f"{3 - 5 * 0.71:+.4f}")
    expect(page).to_have_url(re.compile(r"d=0\.71\b"))
    expect(path.locator(".annotation-text", has_text="A doubles 0.71")).to_have_count(1)
    page.screenshot(path=str(ARTIFACTS / "keeler_spencer_game.png"))
