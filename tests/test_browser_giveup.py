"""Browser test of the give-up-point page: shared link, a slider move, screenshots."""

from __future__ import annotations

import re

import pytest

from cubecore import giveup
from tests.browser import ARTIFACTS, metric_value

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def test_giveup_shared_link_slider_and_tabs(server, page):
    from playwright.sync_api import expect

    page.goto(f"{server}/giveup?from=g&g=0.9&gc=0.85&pips=90&opips=100")
    expect(page.get_by_role("heading", name="Woolsey: give-up points")).to_be_visible()
    expect(metric_value(page, "Give-up point g (cube turned)")).to_have_text("0.9000")
    page.get_by_role("tab", name="Essay's table").click()
    double = giveup.initial_double_point(giveup.GiveUpPoints(0.9, 0.85))
    expect(metric_value(page, "Initial double point")).to_have_text(f"{double:.5f}")
    chart = page.locator('[data-testid="stPlotlyChart"]:visible').first
    expect(chart.locator(".annotation-text", has_text=f"double {double:.3f}")).to_have_count(1)

    slider = page.get_by_role("slider", name=re.compile("Give-up point g_c"))
    for expected in ("0.855", "0.86"):  # one step (.005) at a time, each one committed
        slider.focus()
        page.keyboard.press("ArrowRight")
        expect(page).to_have_url(re.compile(rf"[?&]gc={re.escape(expected)}(&|$)"))
    moved = giveup.initial_double_point(giveup.GiveUpPoints(0.9, 0.86))
    expect(metric_value(page, "Initial double point")).to_have_text(f"{moved:.5f}")
    expect(page).to_have_url(re.compile(r"[?&]gc=0\.86\b"))
    assert re.search(r"[?&]g=0\.9\b", page.url) and "pips=90" in page.url
    expect(chart.locator(".annotation-text", has_text=f"double {moved:.3f}")).to_have_count(1)
    page.screenshot(path=str(ARTIFACTS / "giveup.png"))

    page.get_by_role("tab", name="Cost of doubling").click()
    verdict = giveup.race_doubling_verdict(90, 100, "center", giveup.GiveUpPoints(0.9, 0.86))
    expect(metric_value(page, "Give-up model says")).to_have_text(verdict.action)
    page.screenshot(path=str(ARTIFACTS / "giveup-cost.png"))
    page.get_by_role("heading", name=re.compile("Volatility model")).scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "giveup-volatility.png"))
    page.get_by_role("heading", name=re.compile("A race on real dice")).scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "giveup-race.png"))
    page.get_by_role("tab", name="Equivalences").click()
    expect(metric_value(page, "Janowski x from g")).to_have_text(
        f"{giveup.cube_life_from_give_up(0.9):.4f}"
    )
    page.screenshot(path=str(ARTIFACTS / "giveup-equivalences.png"))
    page.get_by_role("tab", name="Transform").click()
    page.screenshot(path=str(ARTIFACTS / "giveup-transform.png"))
