"""Browser tests of the cube-rules page (Playwright + Debian's Chromium, fixtures in conftest)."""

from __future__ import annotations

import re

import pytest

from cubecore import janowski, pgame
from tests.browser import ARTIFACTS, metric_value
from ui.rules.walkthroughs import WALKTHROUGHS

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

# Every wait allows a loaded machine (tests.browser.PATIENCE_MS): a cold first render of a
# page with several charts took 25 s at load 12.


def test_walkthrough_link_and_next_event(server, page):
    from playwright.sync_api import expect

    page.goto(f"{server}/rules?step=3")
    states = WALKTHROUGHS["beaver_raccoon"].states()
    expect(metric_value(page, "Stakes")).to_have_text(str(states[3].value))
    chart = page.locator('[data-testid="stPlotlyChart"]').first
    expect(chart.locator(".annotation-text", has_text="step 3")).to_have_count(1)

    page.get_by_role("button", name=re.compile("Next event")).click()
    expect(metric_value(page, "Stakes")).to_have_text(str(states[4].value))
    expect(metric_value(page, "Cube owner")).to_have_text("B (Black)")
    expect(page).to_have_url(re.compile(r"step=4\b"))
    assert "walk=" not in page.url  # the default walkthrough stays out of the link
    expect(chart.locator(".annotation-text", has_text="step 4")).to_have_count(1)
    page.screenshot(path=str(ARTIFACTS / "rules.png"))


def test_theory_slider_moves_the_points(server, page):
    from playwright.sync_api import expect

    page.goto(f"{server}/rules?sec=Theory&x=0.68")
    points = janowski.cube_points(0.68, 1.25, 1.2)
    expect(metric_value(page, "Beaver point")).to_have_text(f"{points.beaver_point:.4f}")
    chart = page.locator('[data-testid="stPlotlyChart"]').nth(1)  # taker: drop, take, beaver
    beaver_label = chart.locator(".annotation-text", has_text="beaver")
    expect(beaver_label).to_have_text(f"beaver {points.beaver_point:.3f}")

    slider = page.get_by_role("slider", name=re.compile("Cube life x"))
    slider.focus()
    for _ in range(2):
        page.keyboard.press("ArrowRight")
    after_points = janowski.cube_points(0.7, 1.25, 1.2)
    expect(metric_value(page, "Beaver point")).to_have_text(f"{after_points.beaver_point:.4f}")
    expect(page).to_have_url(re.compile(r"sec=Theory"))
    expect(page).not_to_have_url(re.compile(r"[?&]x="))  # 0.7: default
    expect(beaver_label).to_have_text(f"beaver {after_points.beaver_point:.3f}")
    page.screenshot(path=str(ARTIFACTS / "rules-theory.png"))


def test_simulation_link_reproduces_the_numbers(server, page):
    from playwright.sync_api import expect

    page.goto(f"{server}/rules?sec=Simulation&n=50&seed=3")
    games = pgame.simulate_games(pgame.GameBatch(50_000, pgame.OPTIMAL, seed=3))
    above = float((games["cube_value"] > 4).mean())
    expect(metric_value(page, "P(stake > 4), simulated")).to_have_text(f"{above:.4f}")
    expect(metric_value(page, "Games per second")).to_have_text(re.compile(r"^[\d,]+$"))
    page.get_by_text("Beavers allowed", exact=True).click()
    expect(page).to_have_url(re.compile(r"beavers=true"))
    expect(metric_value(page, "Loss doubling at 0.80, beavers")).to_have_text("0.0000")
    page.screenshot(path=str(ARTIFACTS / "rules-simulation.png"))
