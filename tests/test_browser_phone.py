"""A student on a phone (issue #20 item 4), in a real browser at 390x844.

On every page of the registry, at its first load: the sidebar is folded and the page's
content is what the reader sees (its title and its tabs on the first screen); nothing is
wider than the screen (the page never scrolls sideways, and a formula wider than the
screen scrolls inside its own box instead of being cut at the edge); and the presets are
a few rows of small buttons (at most a quarter of the screen), not a column of
full-width ones.

Every wait is on a condition (tests/browser.py's ``settled``), never a time.
"""

from __future__ import annotations

import pytest

from tests.browser import ARTIFACTS, patient_context, settled
from tests.test_browser_pages import ON_SKELETON
from ui.skeleton import PRESET_BAR

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

PHONE = {"width": 390, "height": 844}
#: The presets take at most this share of the first screen's height (five full-width
#: buttons took a third of it, ahead of any content).
MOST_PRESET_SHARE = 0.25

#: What a phone shows at first load: the sidebar's state, where the tabs start, how wide
#: the page is, each formula's box and whether it scrolls, and the preset buttons' rows.
READ_PHONE = """(bar) => {
  const sidebar = document.querySelector('[data-testid="stSidebar"]');
  const tabs = document.querySelector('[data-testid="stMainBlockContainer"] [role="tablist"]');
  const formulas = [...document.querySelectorAll('.katex-display')].map(el => ({
    right: el.getBoundingClientRect().right,
    wide: el.scrollWidth > el.clientWidth + 1,
    scrolls: ['auto', 'scroll'].includes(getComputedStyle(el).overflowX),
    text: el.innerText.slice(0, 40),
  }));
  const box = document.querySelector(`.st-key-${bar}`);
  return {
    collapsed: sidebar && sidebar.getAttribute('data-collapsed'),
    tabsTop: tabs ? tabs.getBoundingClientRect().top : null,
    pageWidth: document.documentElement.scrollWidth,
    formulas,
    presets: box ? box.querySelectorAll('button').length : 0,
    presetHeight: box ? box.getBoundingClientRect().height : 0,
  };
}"""


@pytest.mark.parametrize("spec", ON_SKELETON, ids=lambda s: s.url_path)
def test_a_phone_opens_on_the_content_and_nothing_is_cut(server, browser, spec):
    context = patient_context(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(f"{server}/{spec.link_path}")
        settled(page)
        shown = page.evaluate(READ_PHONE, PRESET_BAR)
        if shown["tabsTop"] is None or shown["tabsTop"] > PHONE["height"]:
            page.screenshot(path=str(ARTIFACTS / f"phone-{spec.url_path}.png"))
        assert shown["collapsed"] == "true", f"{spec.url_path}: the sidebar covers the page"
        assert shown["tabsTop"] is not None, f"{spec.url_path}: no tabs"
        assert shown["tabsTop"] < PHONE["height"], f"{spec.url_path}: tabs below the screen"
        assert shown["pageWidth"] <= PHONE["width"], f"{spec.url_path}: the page scrolls sideways"
        for formula in shown["formulas"]:
            assert formula["right"] <= PHONE["width"], formula
            assert not formula["wide"] or formula["scrolls"], f"cut at the edge: {formula}"
        if shown["presets"]:
            assert shown["presetHeight"] <= MOST_PRESET_SHARE * PHONE["height"], shown
    finally:
        context.close()
