"""A section's own controls rerun that section alone, in a real browser (issue #17 item 1).

The open section's own controls, the section and its share link are one fragment
(:mod:`ui.skeleton`). Against the launcher's server, in Debian's Chromium:

- a page-wide slider still reruns the page;
- a link notice about a section's own control goes as soon as that control is moved
  (the fragment asks the page to run again), and stays while another is moved;
- in presenter mode, a section's other controls are folded under its slide; moved,
  they rerun the fragment, the slide stays, and the address bar is the view.

(That a section's own slider reruns its fragment alone, with the address bar the exact
view, is checked on every page by ``test_browser_pages``.) Every wait is on a
condition: the server's "script finished" message, an element, the address bar.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from tests.test_browser_pages import (
    FRAGMENT_RUN,
    PAGE_RUN,
    after_a_run,
    new_context,
    open_page,
    same_view_in_a_fresh_context,
    settings_panel,
)
from ui.pages import PAGES

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

_BY_PATH = {spec.url_path: spec for spec in PAGES}


def _press(page, slider, key: str) -> int:
    """Focus ``slider``, press ``key`` and wait for the run; how it finished."""
    slider.focus()
    return after_a_run(page, lambda: page.keyboard.press(key))


def _link(page) -> dict[str, list[str]]:
    return parse_qs(urlsplit(page.url).query)


def test_a_page_wide_slider_reruns_the_page(server, browser):
    spec = _BY_PATH["janowski"]
    context = new_context(browser)
    page = context.new_page()
    try:
        open_page(page, server, spec, "?sec=Decisions")
        sidebar_slider = page.get_by_test_id("stSidebar").get_by_role("slider").first
        assert _press(page, sidebar_slider, "End") == PAGE_RUN
        own = settings_panel(page, spec.page.section("decision")).get_by_role("slider").first
        assert _press(page, own, "End") == FRAGMENT_RUN
    finally:
        context.close()


def test_a_notice_goes_when_its_section_control_moves_and_not_before(server, browser):
    spec = _BY_PATH["giveup"]
    section = spec.page.section("table")
    first, second = section.controls[0], section.controls[1]
    context = new_context(browser)
    page = context.new_page()
    try:
        open_page(page, server, spec, f"?sec={section.title}&{first.key}=zzq")
        notice = page.get_by_test_id("stAlert").filter(has_text="zzq")
        expect(notice).to_have_count(1)
        sliders = settings_panel(page, section).get_by_role("slider")
        # another of the section's controls: its part reruns alone, the notice stands
        assert _press(page, sliders.nth(1), "End") == FRAGMENT_RUN
        assert second.key in _link(page)
        expect(notice).to_have_count(1)
        # the noticed control: the page runs again, and the notice goes
        _press(page, sliders.nth(0), "End")
        expect(notice).to_have_count(0)
        assert first.key in _link(page)
        same_view_in_a_fresh_context(browser, page, "giveup-notice-moved")
    finally:
        context.close()


def test_presenter_mode_folds_a_section_s_other_controls_under_its_slide(server, browser):
    spec = _BY_PATH["rules"]
    section = spec.page.section("simulation")
    context = new_context(browser)
    page = context.new_page()
    try:
        open_page(page, server, spec, f"?present=true&sec={section.title}")
        numbers = page.locator(".st-key-slide-numbers").get_by_test_id("stMetric")
        expect(numbers.first).to_be_visible()
        panel = settings_panel(page, section)
        slider = panel.get_by_role("slider").first
        expect(slider).to_be_hidden()  # folded: the class sees the slide first
        panel.get_by_text(f"{section.title}: settings").click()
        expect(slider).to_be_visible()
        before = _link(page)
        assert _press(page, slider, "End") == FRAGMENT_RUN
        assert _link(page) != before and _link(page)["present"] == ["true"]
        expect(numbers.first).to_be_visible()  # the slide is redrawn, in presenter mode
        same_view_in_a_fresh_context(browser, page, "rules-present-fragment")
    finally:
        context.close()
