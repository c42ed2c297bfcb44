"""Browser tests of the match-play page (Playwright, Debian's Chromium; fixtures in conftest)."""

from __future__ import annotations

import re

import pytest

from cubecore import match, match_points, met
from tests.browser import ARTIFACTS, metric_value, settled

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def _take_point(away: int, opp_away: int) -> float:
    """The headline: Kazaross-XG2, your gammons at G = 0.2, the doubler's at 0.26, the
    contact cube life of gnubg (0.68)."""
    score = match_points.MatchScore(met.load_table("kxg2"), away, opp_away)
    rates = match_points.GammonRates(gammon_rate=0.2, opp_gammon_rate=0.26)
    return match_points.cube_life_take_point(score, rates, 0.68)


def test_match_shared_link_slider_and_screenshot(server, page):
    from playwright.sync_api import expect

    page.goto(f"{server}/match?sec=Take+points&away=4&oaway=2&G=0.2")
    expect(metric_value(page, "Your take point")).to_have_text(f"{_take_point(4, 2):.2%}")
    title = page.locator('[data-testid="stPlotlyChart"] .gtitle', has_text="Your take point")
    expect(title).to_have_text(re.compile("4-away"))

    slider = page.get_by_role("slider", name=re.compile("You: points to go"))
    slider.focus()
    for _ in range(2):
        page.keyboard.press("ArrowRight")
    expect(metric_value(page, "Your take point")).to_have_text(f"{_take_point(6, 2):.2%}")
    expect(page).to_have_url(re.compile(r"away=6\b"))
    assert "G=0.2" in page.url and re.search(r"sec=Take(%20|\+)points", page.url)
    settled(page)  # the 4-away chart of the run before may still be on the page, stale
    expect(title).to_have_text(re.compile("6-away"))
    page.screenshot(path=str(ARTIFACTS / "match.png"))


def test_match_heatmaps_and_rules_render(server, page):
    from playwright.sync_api import expect

    page.goto(f"{server}/match?sec=Heatmaps&away=1&oaway=5")
    charts = page.locator('[data-testid="stPlotlyChart"]')
    expect(charts).to_have_count(2)
    expect(charts.first.locator(".gtitle")).to_have_text(re.compile("Match equity"))
    expect(charts.nth(1).locator(".gtitle")).to_have_text(re.compile("take point"))
    page.screenshot(path=str(ARTIFACTS / "match-heatmaps.png"))

    page.goto(f"{server}/match?part=rules&away=1&opp=4")  # a link from before the tabs
    crawford = match.crawford_equity(4)
    expect(metric_value(page, "Leader in the Crawford game")).to_have_text(f"{crawford:.2%}")
    expect(metric_value(page, "Leader's answer to the double")).to_have_text("drop")
    page.screenshot(path=str(ARTIFACTS / "match-rules.png"))
