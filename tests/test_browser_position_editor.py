"""The board editor on the position page takes real clicks, in Debian's Chromium (issue
#39 item 1).

The real page (``streamlit run app.py``, the suite's server): opened at a bear-off, its
section "Set up a position" opened by its tab, a click at the screen position of a point
(read from plotly's own axes) adds a checker there: the board, the engine's verdict and
the address bar's ``pos`` (the new Position ID) change, and that address opened in a
fresh browser context shows the same view. An illegal click shows its message and
changes nothing; "Swap who is on roll" swaps the sides. On a phone the editor fits the
screen and its place picker takes taps. Every wait is on a condition.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from cubecore import engine
from cubecore.position import position_from_id, position_id
from tests.browser import ARTIFACTS, metric_value, patient_context, settled
from tests.test_browser_chart_contrast import contrast, rgba
from tests.test_browser_pages import (
    after_a_run,
    new_context,
    open_page,
    open_tab,
    same_view_in_a_fresh_context,
)
from tests.test_browser_position import SPEC
from tests.test_browser_real_race import SIDES_APART, _board
from ui import board
from ui.position import PAGE
from ui.position.editor import apply_click

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

EDITOR = PAGE.section("edit")
#: The page's preset "Bear-off, 3 v 2 checkers": room on the board for one more checker.
BEAR_OFF = "BQAAsAAAAAAAAA"

#: The screen position of board coordinates (x, y), from plotly's axes on the page.
_TO_SCREEN = """([x, y]) => {
  const gd = document.querySelector('.js-plotly-plot');
  const size = gd._fullLayout._size, box = gd.getBoundingClientRect();
  return [box.left + size.l + gd._fullLayout.xaxis.l2p(x),
          box.top + size.t + gd._fullLayout.yaxis.l2p(y)];
}"""
#: The checkers drawn for the player on roll and the opponent: (x, y) of each.
_CHECKERS = """() => document.querySelector('.js-plotly-plot').data.slice(0, 2)
  .map(t => t.x.map((x, i) => [x, t.y[i]]))"""


def _point_x(point: int) -> float:
    (note,) = [
        n
        for n in board.board_figure(position_from_id(BEAR_OFF))["layout"]["annotations"]
        if n["text"] == str(point)
    ]
    return float(note["x"])


def _click(page, x: float, y: float) -> None:
    """A click on the board at (x, y), and the run it starts seen to its end."""
    page.wait_for_function(  # a board drawn (after a click's rerun, drawn again)
        "() => document.querySelector('.js-plotly-plot')?._fullLayout?.xaxis !== undefined"
    )
    page.locator(".js-plotly-plot").scroll_into_view_if_needed()  # below a 720 px screen
    where = page.evaluate(_TO_SCREEN, [x, y])
    after_a_run(page, lambda: page.mouse.click(*where))


def _drawn(position) -> list:
    """The checkers the board draws for ``position``, as the page's plotly holds them."""
    figure = board.board_figure(position)
    return [[[x, y] for x, y in zip(t["x"], t["y"], strict=True)] for t in figure["data"][:2]]


def _shows(page, position) -> None:
    """The page shows ``position``: the address bar's ``pos``, the board's checkers and
    the engine's verdict on it (1-ply, money, cube centred)."""
    expect(page).to_have_url(re.compile(f"pos={re.escape(position_id(position))}(&|$)"))
    settled(page)
    page.wait_for_function(f"() => JSON.stringify(({_CHECKERS})()) === {_json(_drawn(position))!r}")
    d = engine.evaluate(position)
    expect(page.get_by_text(f"Proper cube action: {d.action}").first).to_be_visible()
    expect(metric_value(page, "No double")).to_have_text(f"{d.no_double:+.4f}")
    win = f"{100.0 * d.probabilities.win:.2f}%"
    expect(metric_value(page, "Cubeless winning chance")).to_have_text(win)


def _json(value) -> str:
    import json

    return json.dumps(value, separators=(",", ":"))


def test_a_click_on_the_page_board_adds_a_checker_and_the_link_follows(browser, server):
    context = new_context(browser)
    try:
        page = context.new_page()
        open_page(page, server, SPEC, f"?depth=1-ply&mode=money&pos={BEAR_OFF}")
        open_tab(page, EDITOR)
        start = position_from_id(BEAR_OFF)
        _shows(page, start)
        drawn = _board(page)  # two checker colours, apart, as the other boards draw them
        on_roll, opponent = (rgba(color) for color in drawn["traces"][:2])
        assert contrast(on_roll, opponent) >= SIDES_APART, drawn["traces"][:2]

        _click(page, _point_x(4), 0.5)  # a checker of the player on roll on his 4-point
        added = apply_click(start, ("point", 4), "player", True)
        assert added != start and added.on_roll[3] == start.on_roll[3] + 1
        _shows(page, added)
        page.screenshot(path=str(ARTIFACTS / "position-editor.png"))

        _click(page, _point_x(24), 10.5)  # the opponent's 1-point, which he holds: refused
        expect(page.get_by_text("Point 24 is held by the opponent")).to_be_visible()
        _shows(page, added)

        after_a_run(page, page.get_by_role("button", name="Swap who is on roll").click)
        _shows(page, added.swapped())
        after_a_run(page, page.get_by_role("button", name="Swap who is on roll").click)
        _shows(page, added)
        assert re.search(r"sec=Set(\+|%20)up", page.url), page.url  # the link opens the editor
        same_view_in_a_fresh_context(browser, page, "position-editor")
    finally:
        context.close()


#: On a phone: how wide the page is, and the board's title's and chart's edges.
_PHONE_VIEW = """() => {
  const chart = document.querySelector('.js-plotly-plot');
  const box = chart.getBoundingClientRect();
  const title = chart.querySelector('.gtitle').getBoundingClientRect();
  return {page: document.documentElement.scrollWidth, left: box.left, right: box.right,
          titleLeft: title.left, titleRight: title.right};
}"""


def test_the_editor_fits_a_phone_and_its_picker_takes_taps(browser, server):
    """At 390x844 the editor's tab is no wider than the screen, the board's title is
    whole inside its chart, and the place picker adds a checker by taps (the link
    follows). A tap on the board itself is not enough on a touch screen: plotly selects
    on a tap only where the point was hovered first, which a finger does not do, so the
    first tap of each board only aims (seen in Chromium; the mouse's click selects)."""
    from tests.test_browser_phone import PHONE

    context = patient_context(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        open_page(page, server, SPEC, f"?depth=1-ply&mode=money&pos={BEAR_OFF}")
        open_tab(page, EDITOR)
        start = position_from_id(BEAR_OFF)
        _shows(page, start)
        shown = page.evaluate(_PHONE_VIEW)
        page.screenshot(path=str(ARTIFACTS / "position-editor-phone.png"))
        assert shown["page"] <= PHONE["width"], shown
        assert shown["left"] <= shown["titleLeft"] < shown["titleRight"] <= shown["right"], shown
        page.get_by_role("combobox", name="Place").tap()
        after_a_run(page, page.get_by_role("option", name="Point 5", exact=True).tap)
        after_a_run(page, page.get_by_role("button", name="Add a checker there").tap)
        _shows(page, apply_click(start, ("point", 5), "player", True))
    finally:
        context.close()
