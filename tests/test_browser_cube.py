"""The cube calculator in a real browser: what a player reads is right (issue #37).

One test per defect, named after it: the market window's ticks stand where their labels
say (at money, at a match score and in presenter mode), the formula renders, the
probabilities can be typed, one cost table in the engines' convention, the score matrix
in a player's words with the current score marked, nothing overlaps on a phone, the
presets speak a player's words, and the score matrix's own slider keeps the address bar
the view.

Every wait is on a condition (the app's script state, the address bar, an element),
never a fixed time.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from bench import browser as browser_runs
from cubecore import cubeful, met
from tests.browser import PATIENCE_MS, patient_context, settled

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

#: The page's default probabilities, as fractions (an engine's evaluation).
DEFAULT = (0.7431, 0.2606, 0.0096, 0.0512, 0.0021)
#: The page's default cube life (contact, gnubg's default).
X = 0.68
PHONE = {"width": 390, "height": 844}

#: Each tick of the market window by the point its label names, in the doubler's own
#: winning chance. The opponent passes beyond the doubler's cash point: the opponent's
#: pass point is the doubler's cash point (the opponent's take point is one minus it).
NAMED_POINTS = {
    "double point": "double_point",
    "cash point (opponent passes)": "cash_point",
    "opponent's pass point": "cash_point",
    "too good point": "too_good_point",
    "too good": "too_good_point",
}

#: The plotly figure whose title starts with the given text: traces, shapes, labels.
READ_FIGURE = """(title) => {
  const plots = [...document.querySelectorAll('.js-plotly-plot')];
  const named = p => { const t = p.layout && p.layout.title;
                       const text = typeof t === 'string' ? t : (t && t.text) || '';
                       return text.replace(/<[^>]*>/g, ''); };
  const gd = plots.find(p => named(p).startsWith(title));
  if (!gd) return null;
  const list = v => v === undefined || v === null ? null : Array.from(v);
  return {
    data: gd.data.map(t => ({name: t.name, type: t.type, x: list(t.x), y: list(t.y),
                             base: list(t.base), text: list(t.text)})),
    shapes: (gd.layout.shapes || []).map(s => ({type: s.type, x0: s.x0, x1: s.x1,
                                                 y0: s.y0, y1: s.y1, name: s.name || '',
                                                 dash: s.line && s.line.dash})),
    annotations: (gd.layout.annotations || []).map(a => ({text: a.text, x: a.x})),
  };
}"""


def open_cube(page, server: str, query: str = "") -> None:
    browser_runs.keep_stream(page)
    page.goto(f"{server}/cube{query}")
    settled(page)


def figure(page, title: str) -> dict:
    """The chart titled ``title...`` once it is drawn."""
    page.wait_for_function(f"() => ({READ_FIGURE})({title!r}) !== null")
    shown = page.evaluate(READ_FIGURE, title)
    assert shown is not None, title
    return shown


def _close(shown: float | None, expected: float) -> bool:
    if math.isnan(expected):
        return shown is None
    return shown is not None and abs(shown - expected) <= 1e-9


def ticks_against_the_model(shown: dict, window) -> set[str]:
    """Assert every tick of the market window at the point its label names and each
    bar from the double point to the cash point; the points checked."""
    rows = {"dead": 0, "live": 1, "chosen": 2}
    checked = set()
    for trace in shown["data"]:
        if trace["type"] == "bar":
            for row, (base, width) in enumerate(zip(trace["base"], trace["x"], strict=True)):
                expected = window.iloc[row]
                assert _close(base, float(expected["double_point"])), (row, base)
                assert _close(base + width, float(expected["cash_point"])), (row, base + width)
            continue
        if all(v is None for v in trace["x"]):
            continue  # a legend entry only (the shaded band's), no tick
        assert trace["name"] in NAMED_POINTS, f"a tick whose label names no point: {trace}"
        column = NAMED_POINTS[trace["name"]]
        for life, row in rows.items():
            expected = float(window.iloc[row][column])
            assert _close(trace["x"][row], expected), (trace["name"], life, trace["x"][row])
        checked.add(column)
    return checked


@pytest.mark.parametrize(
    ("query", "score"),
    [("", None), ("?mode=match&away=5&oaway=3", (5, 3))],
    ids=["money", "5-away-3-away"],
)
def test_market_window_ticks_stand_at_the_points_their_labels_name(server, page, query, score):
    """Issue #37 item 5: the "opponent's pass point" tick stood at one minus the doubler's
    own take point (0.761 where the cash point is 0.687 at 5-away/3-away)."""
    open_cube(page, server, query)
    if score is None:
        window = cubeful.market_window(DEFAULT, X)
    else:
        table = met.load_table(met.DEFAULT_TABLE)
        window = cubeful.market_window(DEFAULT, X, table=table, away=score[0], opp_away=score[1])
    checked = ticks_against_the_model(figure(page, "Market window"), window)
    assert {"cash_point", "too_good_point"} <= checked, checked


def test_presenter_mode_p_stands_on_the_verdicts_side_of_the_cash_point(server, browser):
    """Issue #37 item 5: in presenter mode P = 0.743 stood left of the pass tick while the
    verdict said "Double, pass"."""
    context = patient_context(browser, viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        open_cube(page, server, "?present=true")
        shown = figure(page, "Market window")
        decision = cubeful.money_cube_decision(DEFAULT, X)
        verdict = page.get_by_role("heading", name=re.compile("Proper cube action"))
        assert decision.action in verdict.first.inner_text()
        window = cubeful.market_window(DEFAULT, X)
        ticks_against_the_model(shown, window)
        markers = [s for s in shown["shapes"] if s["type"] == "line" and s["dash"] == "dot"]
        assert len(markers) == 1, shown["shapes"]
        p = markers[0]["x0"]
        assert p == pytest.approx(DEFAULT[0])
        cash = next(
            t["x"][2]
            for t in shown["data"]
            if t["type"] == "scatter" and NAMED_POINTS.get(t["name"]) == "cash_point"
        )
        assert (p > cash) == decision.taker_passes, (p, cash, decision.action)
    finally:
        context.close()


#: KaTeX's rendering of what it could not parse: red text (``color: #cc0000``).
KATEX_ERRORS = """() => [...document.querySelectorAll('.katex-html [style]')]
  .filter(el => /cc0000|204, 0, 0/.test(el.getAttribute('style')))
  .map(el => el.textContent)"""


def test_the_formula_renders_without_a_red_error(server, page):
    """Issue #37 item 10: the decision's formula showed a red ``\\quadTP``."""
    open_cube(page, server)
    for title in ("Decision", "Anatomy and margins"):
        if title != "Decision":
            browser_runs.after_a_run(
                page, page.get_by_role("tab", name=title, exact=True).click, PATIENCE_MS
            )
        page.locator('[data-testid="stMain"] .katex-display').first.wait_for()
        assert page.evaluate(KATEX_ERRORS) == [], title


def _metric(page, label: str) -> str:
    metric = page.locator('[data-testid="stMetric"]', has_text=label).first
    return metric.locator('[data-testid="stMetricValue"]').inner_text().strip()


def test_a_probability_can_be_typed_and_old_links_still_open(server, page):
    """Issue #37 item 12: the probabilities were 0-100 sliders in 0.01 steps, so 68.3%
    could not be typed."""
    open_cube(page, server)
    box = page.locator('.st-key-pw input[type="number"]')
    assert box.count() == 1, "no box to type the winning chance into"
    box.fill("68.3")
    box.press("Enter")
    expect_url = re.compile(r"[?&]pw=68\.3(&|$)")
    page.wait_for_url(expect_url)
    typed = cubeful.money_cube_decision((0.683, *DEFAULT[1:]), X)
    page.wait_for_function(
        """(want) => [...document.querySelectorAll('[data-testid="stMetric"]')]
             .some(m => m.innerText.includes('No double') && m.innerText.includes(want))""",
        arg=f"{typed.no_double:+.4f}",
    )
    settled(page)
    assert _metric(page, "No double") == f"{typed.no_double:+.4f}"

    # a link written when these were sliders opens the same view
    open_cube(page, server, "?pw=60&pwg=15&pwb=1&plg=10&plb=0.5")
    assert page.locator(".st-key-pw input").input_value() == "60.00"
    assert page.locator(".st-key-plg input").input_value() == "10.00"
    old = cubeful.money_cube_decision((0.6, 0.15, 0.01, 0.1, 0.005), X)
    assert _metric(page, "No double") == f"{old.no_double:+.4f}"


#: Every HTML table of the open section: its header and its rows, as text.
READ_TABLES = """() => [...document.querySelectorAll('[data-testid="stMain"] table')].map(t => ({
  head: [...t.querySelectorAll('thead th')].map(c => c.innerText.trim()),
  rows: [...t.querySelectorAll('tbody tr')].map(r =>
           [...r.querySelectorAll('td, th')].map(c => c.innerText.trim())),
}))"""
_NUMBER = re.compile(r"[-+−]?\d+\.\d+")


def test_one_cost_table_in_the_engines_convention(server, page):
    """Issue #37 item 12: two cost tables disagreed in sign (-0.0736 in one, 0.0736 in
    the other)."""
    open_cube(page, server)
    tables = page.evaluate(READ_TABLES)
    costs = [t for t in tables if any(re.search("cost|error", h, re.I) for h in t["head"])]
    assert len(costs) == 1, [t["head"] for t in costs]
    (shown,) = costs
    column = next(i for i, h in enumerate(shown["head"]) if re.search("cost|error", h, re.I))
    values = [_NUMBER.search(row[column]) for row in shown["rows"]]
    numbers = [float(v.group().replace("−", "-")) for v in values if v is not None]
    d = cubeful.money_cube_decision(DEFAULT, X)
    expected = [d.error_no_double, d.error_double, d.error_take, d.error_pass]
    assert numbers == [float(f"{e:.4f}") for e in expected], shown
    assert all(n >= 0 for n in numbers), shown
    text = page.locator('[data-testid="stMain"]').inner_text()
    assert "positive" in text and "gnubg" in text.lower(), "the convention is not said"


def test_score_matrix_in_a_players_words_with_the_current_score_marked(server, page):
    """Issue #37 item 12: the score matrix had raw headers ("state", "optimal"),
    6 decimals, the title "Money (centred cube)" at a match score, no current score."""
    open_cube(page, server, "?sec=Score+matrix&mode=match&away=3&oaway=5")
    labels = page.locator('[data-testid="stMetricLabel"]').all_inner_texts()
    assert not [label for label in labels if "Money" in label], labels
    table = met.load_table(met.DEFAULT_TABLE)
    d = cubeful.match_cube_decision(DEFAULT, X, table, away=3, opp_away=5)
    assert any("3-away" in label and "5-away" in label for label in labels), labels
    assert _metric(page, "3-away") == d.action

    shown = figure(page, "Best action at every score")
    marks = [s for s in shown["shapes"] if s["type"] == "rect"]
    assert len(marks) == 1, shown["shapes"]
    (mark,) = marks
    # columns: the opponent's points to go; rows: the player's
    assert (mark["x0"] + mark["x1"]) / 2 == pytest.approx(5)
    assert (mark["y0"] + mark["y1"]) / 2 == pytest.approx(3)

    with page.expect_download() as download:
        page.get_by_role("button", name=re.compile("Download CSV")).first.click()
    csv = Path(download.value.path()).read_text(encoding="utf-8").splitlines()
    header = csv[0].split(",")
    assert not {"state", "optimal", "away", "opp_away", "no_double"} & set(header), header
    assert all(not re.search(r"[a-z]_[a-z]", h) for h in header), header
    decimals = [len(n) - n.index(".") - 1 for n in re.findall(r"\d+\.\d+", "\n".join(csv[1:]))]
    assert decimals and max(decimals) <= 4, max(decimals)
    assert sum("current score" in line.lower() for line in csv[1:]) == 1, csv[:3]


#: Two labels' boxes on the screen and whether they overlap.
def _overlap(a: dict | None, b: dict | None) -> bool:
    if a is None or b is None:
        return False
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


#: The boxes of the chart's texts: axis tick labels, annotations, heatmap cell texts,
#: and the toolbar's.
READ_BOXES = """(title) => {
  const plots = [...document.querySelectorAll('.js-plotly-plot')];
  const named = p => { const t = p.layout && p.layout.title;
                       const text = typeof t === 'string' ? t : (t && t.text) || '';
                       return text.replace(/<[^>]*>/g, ''); };
  const gd = plots.find(p => named(p).startsWith(title));
  const box = el => { const r = el.getBoundingClientRect();
                      return {x: r.x, y: r.y, width: r.width, height: r.height,
                              text: el.textContent}; };
  const bar = gd.querySelector('.modebar');
  return {
    ticks: [...gd.querySelectorAll('.xtick text, .ytick text')].map(box),
    notes: [...gd.querySelectorAll('.annotation')].map(box),
    cells: [...gd.querySelectorAll('.heatmaplayer text, .textpoint text, g.hm text')]
           .map(box).filter(b => b.text.trim()),
    toolbar: bar ? box(bar) : null,
  };
}"""


def test_on_a_phone_the_cube_charts_text_does_not_overlap(server, browser):
    """Issue #37 item 13: on a phone the score matrix's cell texts overlapped, the market
    window's "0.5" and "same action" overlapped, and the chart toolbar covered the
    caption."""
    context = patient_context(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        open_cube(page, server)
        figure(page, "Market window")
        chart = page.locator(".js-plotly-plot").first
        chart.scroll_into_view_if_needed()
        chart.hover()  # the toolbar shows
        boxes = page.evaluate(READ_BOXES, "Market window")
        texts = boxes["ticks"] + boxes["notes"]
        for i, a in enumerate(texts):
            for b in texts[i + 1 :]:
                assert not _overlap(a, b), (a, b)
        for note in boxes["notes"]:
            assert not _overlap(boxes["toolbar"], note), (boxes["toolbar"], note)

        open_cube(page, server, "?sec=Score+matrix")
        figure(page, "Best action at every score")
        boxes = page.evaluate(READ_BOXES, "Best action at every score")
        cells = boxes["cells"]
        assert len(cells) >= 7 * 7 - 1, len(cells)  # one text a cell
        for i, a in enumerate(cells):
            for b in cells[i + 1 :]:
                assert not _overlap(a, b), (a, b)
    finally:
        context.close()


#: Words a player does not use: the issue tracker, code names, backticks.
DEVELOPER_WORDS = re.compile(r"\bissue\b|`|\b[a-z]+_[a-z_]+\b", re.I)


def test_the_presets_and_texts_speak_a_players_words(server, page):
    """Issue #37 item 15: the first preset read "The issue's position, money"."""
    open_cube(page, server)
    main = page.locator('[data-testid="stMain"]')
    for title in ("Decision", "Anatomy and margins", "Score matrix"):
        if title != "Decision":
            browser_runs.after_a_run(
                page, page.get_by_role("tab", name=title, exact=True).click, PATIENCE_MS
            )
        text = main.inner_text()
        for icon in main.get_by_test_id("stIconMaterial").all_inner_texts():
            text = text.replace(icon, "", 1)  # an icon's name is drawn as a symbol
        assert not DEVELOPER_WORDS.findall(text), (title, DEVELOPER_WORDS.findall(text))


def test_score_matrix_slider_keeps_the_address_bar_the_view(server, browser, page):
    """Issue #37 item 6: open the Score matrix tab by clicking, move its own slider: the
    address bar kept the old value (reopened: 3, not the moved value) while the share box
    was right. Moved to 6, not to 7: the grid's default leaves the link."""
    open_cube(page, server, "?n=3")
    browser_runs.after_a_run(
        page, page.get_by_role("tab", name="Score matrix", exact=True).click, PATIENCE_MS
    )
    slider = page.get_by_role("slider", name=re.compile("Score grid"))
    for _ in range(3):  # 3 -> 6, one committed step at a time
        slider.focus()
        browser_runs.after_a_run(page, lambda: page.keyboard.press("ArrowRight"), PATIENCE_MS)
    shown = figure(page, "Best action at every score")
    assert len(shown["data"][0]["y"]) == 6  # the grid has moved to 6 x 6
    page.get_by_text("Share this view").click()
    share = page.locator('[data-testid="stCode"]').last.inner_text()
    assert re.search(r"[?&]n=6(&|$)", share), share
    assert re.search(r"[?&]n=6(&|$)", page.url), f"the address bar is stale: {page.url}"
    context = patient_context(browser, viewport={"width": 1400, "height": 1000})
    try:
        again = context.new_page()
        open_cube(again, server, page.url.split("/cube", 1)[1])
        assert figure(again, "Best action at every score")["data"][0]["y"] == shown["data"][0]["y"]
    finally:
        context.close()
