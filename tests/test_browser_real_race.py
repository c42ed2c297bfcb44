"""Browser tests of the real races page, one per defect of issue #37 (player trust).

Playwright drives Debian's Chromium against a real ``streamlit run`` (fixtures in
conftest). What is checked is read from the page as drawn: the board's colours from the
rendered SVG (not from the figure the server sent), its texts and where they sit, the
metrics, the address bar. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import re

import pytest

from cubecore import race
from tests.browser import ARTIFACTS, metric_value
from tests.test_browser_chart_contrast import contrast, rgba
from tests.test_browser_pages import (
    FRAGMENT_RUN,
    after_a_run,
    new_context,
    open_page,
    open_tab,
    settings_panel,
)
from ui.links import theme_query
from ui.pages import PAGES
from ui.real_race import PAGE

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

SPEC = next(spec for spec in PAGES if spec.page is PAGE)
#: The issue's position: the player on roll 68 pips, the opponent 79.
POSITION = "2u42AAC2uxcAAA"
#: The two sides' checkers differ at least this much (WCAG contrast ratio): 7:1, what WCAG
#: 2.2 asks of small text (criterion 1.4.6), so they differ in lightness, not in hue
#: alone, for every kind of colour vision; each side stands out of the frame it sits
#: beside by 3:1 (non-text contrast, criterion 1.4.11). The defect measured 1.2:1.
SIDES_APART = 7.0
ON_THE_BOARD = 3.0

#: The board as drawn: each trace's rendered marker fill (the first point of each), the
#: plot's background, and every text with its centre in page pixels and the plot area.
READ_BOARD = """() => {
  const chart = document.querySelector('.js-plotly-plot');
  const fill = el => el ? getComputedStyle(el).fill : null;
  const traces = [...chart.querySelectorAll('.scatterlayer .trace')]
    .map(t => fill(t.querySelector('.point')));
  const bg = chart.querySelector('.bglayer rect.bg');
  const frame = chart.querySelector('.bglayer rect.bg').getBoundingClientRect();
  const notes = chart._fullLayout.annotations;
  const texts = [...chart.querySelectorAll('.annotation')].map((a, i) => {
    const b = a.getBoundingClientRect();
    return {text: a.textContent, name: (notes[i] || {}).name || '',
            x: (b.left + b.right) / 2, y: (b.top + b.bottom) / 2};
  });
  return {traces, plot: fill(bg), texts,
          area: {left: frame.left, right: frame.right, top: frame.top, bottom: frame.bottom}};
}"""


def _board(page) -> dict:
    return page.evaluate(READ_BOARD)


def _where(board: dict, text: str, name: str = "") -> tuple[float, float]:
    """Centre of the annotation reading exactly ``text`` (one of them; ``name``: the
    annotation's name in the figure, as the cube's)."""
    found = [t for t in board["texts"] if t["text"] == text and t["name"] == name]
    assert len(found) == 1, (text, [t["text"] for t in board["texts"]])
    return found[0]["x"], found[0]["y"]


def _in_lower_half(board: dict, text: str, name: str = "") -> bool:
    area = board["area"]
    return _where(board, text, name)[1] > (area["top"] + area["bottom"]) / 2


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_boards_two_sides_are_the_same_colour(browser, server, theme):
    """Issue #37 item 2: both sides' checkers were near-black (grey on black in the dark
    theme). Two clearly different checker colours in both themes, point numbers from the
    player on roll's side, the cube on its owner's side, pips and who is on roll."""
    context = new_context(browser)
    try:
        page = context.new_page()
        open_page(page, server, SPEC, f"?pos={POSITION}&{theme_query(theme.capitalize())}")
        board = _board(page)
        shot = ARTIFACTS / f"real-race-board-{theme}.png"
        page.locator(".js-plotly-plot").first.screenshot(path=str(shot))
        on_roll, opponent = (rgba(color) for color in board["traces"][:2])
        plot = rgba(board["plot"])
        apart = contrast(on_roll, opponent)
        assert apart >= SIDES_APART, (board["traces"][:2], apart)
        for side in (on_roll, opponent):
            assert contrast(side, plot) >= ON_THE_BOARD, (side, board["plot"])
        # point numbers from the player on roll's side: 1 bottom right, 12 bottom left,
        # 13 top left, 24 top right
        one, twelve, thirteen, twenty_four = (_where(board, str(p)) for p in (1, 12, 13, 24))
        assert one[0] > twelve[0] and abs(one[1] - twelve[1]) < 2
        assert twenty_four[0] > thirteen[0] and abs(thirteen[1] - twenty_four[1]) < 2
        assert one[1] > twenty_four[1] and abs(one[0] - twenty_four[0]) < 2
        # pips and who is on roll, each on his side of the board
        assert _in_lower_half(board, "on roll") and _in_lower_half(board, "68 pips")
        assert not _in_lower_half(board, "opponent") and not _in_lower_half(board, "79 pips")
        # the cube: centred it shows 64 at the board's middle height
        area = board["area"]
        middle = (area["top"] + area["bottom"]) / 2
        assert abs(_where(board, "64", "cube")[1] - middle) < 0.1 * (area["bottom"] - area["top"])
        # owned by the player on roll: its value on his side
        open_page(
            page, server, SPEC, f"?pos={POSITION}&cv=4&cube=owned&{theme_query(theme.capitalize())}"
        )
        owned = _board(page)
        assert _in_lower_half(owned, "4", "cube")
        open_page(
            page,
            server,
            SPEC,
            f"?pos={POSITION}&cv=4&cube=opponent&{theme_query(theme.capitalize())}",
        )
        assert not _in_lower_half(_board(page), "4", "cube")
    finally:
        context.close()


def test_no_verdict_for_the_position_entered(browser, server):
    """Issue #37 item 9: the page gave only rules of thumb for 68 v 79. The verdict for
    the position comes first, from the race model (the two-sided bear-off database
    covers at most 6 checkers a side), the position marked on the strategy map."""
    from playwright.sync_api import expect

    context = new_context(browser)
    try:
        page = context.new_page()
        open_page(page, server, SPEC, f"?pos={POSITION}")
        model = race.race_cube_equities(68, 79, "center")
        first = page.locator('[data-testid="stMetric"]').first
        expect(first).to_contain_text("Money verdict")
        expect(metric_value(page, "Money verdict")).to_have_text(model.action.replace("/", ", "))
        expect(metric_value(page, "Equity, best play")).to_have_text(f"{model.optimal:+.4f}")
        expect(metric_value(page, "Match verdict at")).to_be_visible()
        marked = page.evaluate(
            """() => [...document.querySelectorAll('.js-plotly-plot')].flatMap(c =>
                 (c.data || []).filter(t => (t.name || '').startsWith('this position'))
                 .map(t => [t.x[0], t.y[0]]))"""
        )
        assert marked == [[79, 68]]
        page.screenshot(path=str(ARTIFACTS / "real-race-verdict.png"))
    finally:
        context.close()


def test_the_thorp_row_says_redouble_with_the_cube_centred(browser, server):
    """Issue #37 item 11: with the cube centred a rule of thumb said "redouble, take";
    the measures mixed units and winning chances were fractions. The table says
    "double" from the centre, one unit a column, chances in percent."""
    from playwright.sync_api import expect

    context = new_context(browser)
    try:
        page = context.new_page()
        open_page(page, server, SPEC, f"?pos={POSITION}")
        grid = page.locator('[data-testid="stDataFrame"]').first
        expect(grid).to_be_visible()
        text = grid.inner_text()
        csv = _table_csv(page)
        assert "redouble" not in csv, csv
        assert "Winning chance (%)" in csv and "Measure" not in csv
        rows = {line.split(",")[0]: line for line in csv.splitlines()[1:]}
        assert set(rows) == {"Keith", "Thorp", "8-9-12", "Kleinman", "Isight", "Trice"}, text
        for number in re.findall(r"-?\d+\.(\d+)", csv):
            assert len(number) <= 4, csv
    finally:
        context.close()


def _table_csv(page) -> str:
    """The rules-of-thumb table as its download offers it (the table as shown)."""
    with page.expect_download() as download:
        page.get_by_role("button", name="Download CSV", exact=True).first.click()
    return download.value.path().read_text()


def test_the_address_bar_goes_stale_on_the_match_tab(browser, server):
    """Issue #37 item 6, the real races page's case: open "At a match score" by its tab,
    move that tab's own slider: the address bar must show the new value, as the share
    box does. (The skeleton's fix is another engineer's; this fails until it lands.)"""
    from playwright.sync_api import expect

    context = new_context(browser)
    try:
        page = context.new_page()
        open_page(page, server, SPEC, f"?pos={POSITION}")
        section = PAGE.section("match")
        open_tab(page, section)
        slider = settings_panel(page, section).get_by_role(
            "slider", name=re.compile("Player on roll: points to go")
        )
        expect(slider).to_have_value("3")
        slider.focus()
        ran = after_a_run(page, lambda: page.keyboard.press("ArrowRight"))
        assert ran == FRAGMENT_RUN
        moved = slider.input_value()
        share = page.get_by_test_id("stExpander").filter(has_text="Share this view")
        share.click()
        assert moved == "4"
        expect(share.locator("code")).to_contain_text("away=4")
        expect(page).to_have_url(re.compile(r"[?&]away=4\b"))
    finally:
        context.close()
