"""Browser tests of the home page: where to start is on the first screen, one click from each
page; each model card's link opens its section in its preset state."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest

from tests.browser import ARTIFACTS
from ui.home import PAGE as HOME
from ui.home.content import OVERVIEW, START
from ui.pages import PAGES

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

TITLES = {
    "pages/janowski.py": "Janowski: the cube life index",
    "pages/keeler_spencer.py": "Keeler-Spencer: proper raising points",
    "pages/race.py": "Zadeh-Kobliska: the race",
    "pages/giveup.py": "Woolsey: give-up points",
    "pages/rules.py": "The cube rules: played out and priced",
    "pages/match.py": "Match play: match equity, take points, Crawford and Holland",
}


#: The card links whose pages are on the page skeleton (all of them once issue 19 is done).
LINKS = [
    link
    for card in OVERVIEW
    for link in card.links
    if next(s for s in PAGES if s.file == link.page).page is not None
]


def non_default_params(link) -> dict[str, str]:
    """The link's parameters the browser keeps in the address bar (not the defaults)."""
    spec = next(s for s in PAGES if s.file == link.page)
    controls = {c.key: c for c in spec.controls}
    query = dict(link.query)
    if "sec" in query and spec.page is not None:  # links name a section by id, the URL by title
        query["sec"] = spec.page.section(query["sec"]).title
    return {
        key: raw
        for key, raw in query.items()
        if controls[key].parse(raw)[0] != controls[key].default
    }


def test_each_overview_link_opens_its_page_in_the_preset_state(server, page):
    from playwright.sync_api import expect

    models = f"{server}/?sec={quote(HOME.section('overview').title)}"
    page.goto(models)
    expect(page.get_by_role("heading", name="Cube Theory Lab")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "home.png"))
    assert LINKS
    for card_link in LINKS:
        page.goto(models)
        link = page.get_by_role("link", name=card_link.label)
        expect(link).to_be_visible()
        link.click()
        spec = next(s for s in PAGES if s.file == card_link.page)
        expect(page).to_have_url(re.compile(rf"/{spec.url_path}(\?|$)"))
        heading = page.get_by_role("heading", name=TITLES[card_link.page])
        expect(heading).to_be_visible()
        for key, raw in non_default_params(card_link).items():
            parts = quote(raw, safe="").split("%20")  # a space may come back as "+"
            encoded = "(%20|\\+)".join(re.escape(part) for part in parts)
            expect(page).to_have_url(re.compile(rf"[?&]{re.escape(key)}={encoded}(&|$)"))
        # the link state took: no notice about an ignored value
        expect(page.locator('[data-testid="stAlert"]', has_text="ignored")).to_have_count(0)
        page.screenshot(path=str(ARTIFACTS / f"home-link-{spec.url_path}.png"))


def test_a_visitor_cannot_tell_where_to_go(server, browser):
    """Issue #37 item 19: at 1280x800 the home page's first screen names what a visitor
    brings, each with its link; each link opens its page with one click; the sidebar lists
    the cube calculator right after the home page."""
    from playwright.sync_api import expect

    from tests.browser import patient_context, settled

    context = patient_context(browser, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        for start in START:
            page.goto(server)
            settled(page)
            heading = page.get_by_role("heading", name=start.brings, exact=True)
            link = page.get_by_role("link", name=start.link.label)
            for element in (heading, link):
                box = element.bounding_box()
                assert box is not None and box["y"] + box["height"] <= 800, (start.brings, box)
            navigation = page.get_by_test_id("stSidebarNav").get_by_role("link")
            assert "Cube calculator" in navigation.nth(1).inner_text()
            link.click()
            spec = next(s for s in PAGES if s.file == start.link.page)
            expect(page).to_have_url(re.compile(rf"/{spec.url_path}(\?|$)"))
            expect(page.get_by_role("heading", name=spec.page.title)).to_be_visible()
            section = spec.page.section(start.link.query["sec"])
            expect(page.get_by_role("tab", name=section.title, exact=True)).to_have_attribute(
                "aria-selected", "true"
            )
    finally:
        context.close()
