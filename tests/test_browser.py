"""Browser tests of the app shell and the Janowski page.

Playwright drives Debian's Chromium against a real `streamlit run` (fixtures in conftest).

A missing browser fails these tests (in CI and locally): they never skip silently.
Screenshots are kept in test-artifacts/.
"""

from __future__ import annotations

import re

import pytest

from cubecore import janowski
from tests.browser import ARTIFACTS, metric_value, settled

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def test_janowski_shared_link_slider_and_navigation(server, page):
    from playwright.sync_api import expect

    page.goto(f"{server}/janowski?x=0.68&W=1.25")
    take = janowski.cube_points(0.68, 1.25, 1.0).take_point
    expect(metric_value(page, "Take (taker's P)")).to_have_text(f"{take:.4f}")
    chart = page.locator('[data-testid="stPlotlyChart"]').first
    expect(chart).to_be_visible()
    expect(chart.locator(".annotation-text", has_text="take")).to_have_count(1)
    before = chart.locator(".annotation-text").all_text_contents()

    slider = page.get_by_role("slider", name=re.compile("Cube life x \\(doubler\\)"))
    slider.focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    take_after = janowski.cube_points(0.71, 1.25, 1.0).take_point
    expect(metric_value(page, "Take (taker's P)")).to_have_text(f"{take_after:.4f}")
    expect(page).to_have_url(re.compile(r"x=0\.71\b"))
    assert "W=1.25" in page.url
    after = chart.locator(".annotation-text").all_text_contents()
    assert after != before
    page.screenshot(path=str(ARTIFACTS / "janowski.png"))

    page.get_by_role("link", name=re.compile("Home")).click()
    # the default page is served at /; the cube life x goes with the reader (one name, app-wide)
    expect(page).to_have_url(re.compile(r":\d+/(\?x=0\.71)?$"))
    page.get_by_role("link", name=re.compile("Janowski: cube life")).first.click()
    expect(metric_value(page, "Take (taker's P)")).to_have_text(f"{take_after:.4f}")
    expect(page).to_have_url(re.compile(r"x=0\.71\b"))


def test_bad_link_notice_and_presenter_mode(server, page):
    from playwright.sync_api import expect

    page.goto(f"{server}/janowski?x=abc&present=true")
    notice = page.locator('[data-testid="stAlert"]', has_text="ignored")
    expect(notice).to_contain_text("abc")
    expect(notice).to_contain_text("using 0.7")
    page.wait_for_function("getComputedStyle(document.documentElement).fontSize === '24px'")
    # a projector starts with the sidebar folded (set once per run, then left alone)
    expect(page.locator('[data-testid="stSidebar"]')).to_have_attribute("data-collapsed", "true")
    page.screenshot(path=str(ARTIFACTS / "janowski-presenter.png"))


def test_table_csv_download_is_the_table_shown(server, page):
    """The deferred CSV download (written on click) holds the decision points shown."""
    import pandas as pd
    from playwright.sync_api import expect

    page.goto(f"{server}/janowski?x=0.68&W=1.25")
    button = page.get_by_role("button", name=re.compile("Download CSV"))
    expect(button).to_be_visible()
    settled(page)  # the run has ended: a click during it can be lost with the button it hit
    with page.expect_download() as download_info:
        button.click()
    download = download_info.value
    # the name carries every parameter of the view (issue #20 item 5), in the page's order
    assert download.suggested_filename == (
        "janowski_points_x0.68_W1.25_L1-jacoby-off-two-off-P0.7-cube-center-j93-off.csv"
    )
    table = pd.read_csv(download.path(), encoding="utf-8", dtype=str)
    expected = janowski.cube_points(0.68, 1.25, 1.0)
    assert list(table.columns) == ["point", "P"]
    take = table.loc[table["point"].str.startswith("Take"), "P"]
    assert take.size == 1
    # the CSV holds the text shown: the column's fixed decimals (ui.style.table_display)
    shown = take.iloc[0]
    places = len(shown.partition(".")[2])
    assert places >= 4
    assert shown == f"{expected.take_point:.{places}f}"


def test_janowski_section_tab_is_in_the_link(server, page):
    """Clicking a section tab runs that section and writes it into the address bar."""
    from playwright.sync_api import expect

    page.goto(f"{server}/janowski?x=0.5")
    expect(metric_value(page, "Take (taker's P)")).to_be_visible()
    page.get_by_role("tab", name=re.compile("Points against cube life")).click()
    cash = janowski.cube_points(0.5).cash_point
    expect(metric_value(page, "Cash at x = 0.5")).to_have_text(f"{cash:.4f}")
    expect(page).to_have_url(re.compile(r"sec=Points"))
    assert "x=0.5" in page.url
    page.reload()  # the link reproduces the view
    expect(metric_value(page, "Cash at x = 0.5")).to_have_text(f"{cash:.4f}")
