"""The match page tells a player one thing per question, in a player's words, uncut
(issue #37, items 7, 8, 14, 15 and 17; Playwright, Debian's Chromium, 1280 px wide).

Each test is named after the defect it guards against and failed on the main branch of
2026-11-28 (the numbers it expects come straight from ``cubecore``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cubecore import match, match_points, met
from tests.browser import ARTIFACTS, metric_value, patient_context, select_options, settled
from ui.match.controls import TABLE_LABELS

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

VIEWPORT = {"width": 1280, "height": 720}
KXG2 = met.load_table("kxg2")

#: Every element of the main area whose text is cut with "...", and every chart title
#: wider than its chart (plotly clips it at the chart's edge).
CUT = """() => {
  const cut = [...document.querySelectorAll('[data-testid="stMain"] *')]
    .filter(el => getComputedStyle(el).textOverflow === 'ellipsis'
                  && el.scrollWidth > el.clientWidth + 1 && el.innerText.trim())
    .map(el => el.innerText.trim().slice(0, 60));
  const titles = [...document.querySelectorAll('.js-plotly-plot')].flatMap(plot => {
    const box = plot.getBoundingClientRect();
    return [...plot.querySelectorAll('.gtitle, .xtitle, .ytitle')]
      .filter(t => { const r = t.getBoundingClientRect();
                     return r.left < box.left - 1 || r.right > box.right + 1
                            || r.top < box.top - 1 || r.bottom > box.bottom + 1; })
      .map(t => t.textContent.slice(0, 60));
  });
  return cut.concat(titles);
}"""

#: Each tab's label and whether it lies inside the window, seen without scrolling.
TABS = """() => [...document.querySelectorAll('[data-testid="stMain"] [role="tab"]')]
  .map(t => { const r = t.getBoundingClientRect();
              return [t.innerText.trim(), r.left >= 0 && r.right <= window.innerWidth]; })"""


@pytest.fixture
def wide(browser):
    """A page 1280 px wide (a laptop; the presenter's projector is 1280x720 too)."""
    context = patient_context(browser, viewport=VIEWPORT)
    page = context.new_page()
    yield page
    context.close()


def metric_labels(page) -> list[str]:
    settled(page)
    return [
        label.strip()
        for label in page.locator(
            '[data-testid="stMain"] [data-testid="stMetric"] [data-testid="stMetricLabel"]'
        ).all_inner_texts()
    ]


def test_two_match_winning_chances_on_the_first_screen(server, wide):
    from playwright.sync_api import expect

    page = wide
    table, model = KXG2.mwc(5, 3), match.match_equity(5, 3)  # 0.3520 and 0.3540
    for link in ("", "?present=true"):
        page.goto(f"{server}/match{link}")
        expect(metric_value(page, "Your MWC, 5-away/3-away")).to_have_text(f"{table:.2%}")
        expect(metric_value(page, "The model's MWC")).to_have_text(f"{model:.2%}")
        labels = metric_labels(page)
        mine = labels.index("Your MWC, 5-away/3-away")
        assert mine < next(i for i, label in enumerate(labels) if "model's" in label), labels
        page.screenshot(path=str(ARTIFACTS / f"match-first-screen{link and '-present'}.png"))


def test_four_take_points_and_no_answer(server, wide):
    from playwright.sync_api import expect

    page = wide
    page.goto(f"{server}/match?sec=Take+points&away=4&oaway=7")
    score = match_points.MatchScore(KXG2, 4, 7)
    rates = match_points.GammonRates(gammon_rate=0.26, opp_gammon_rate=0.26)
    headline = match_points.cube_life_take_point(score, rates, 0.68)  # contact, gnubg
    expect(metric_value(page, "Your take point")).to_have_text(f"{headline:.2%}")
    takes = [label for label in metric_labels(page) if "take point" in label.lower()]
    assert takes == ["Your take point"], takes  # one answer; the variants in a table below
    expect(page.get_by_text("cube life x = 0.68", exact=False).first).to_be_visible()
    window = page.locator(".js-plotly-plot", has_text="market window").first
    regions = window.evaluate("el => el.data.map(t => [t.name, t.x[0]])")
    assert dict(regions)["double / take"] > 0, regions  # a window with a double/take zone
    page.screenshot(path=str(ARTIFACTS / "match-take-points.png"))


def test_compare_tables_shows_internal_keys_and_fractions(server, wide):
    from playwright.sync_api import expect

    page = wide
    page.goto(f"{server}/match?sec=Compare&met2=woolsey")
    title = page.locator('[data-testid="stPlotlyChart"] .gtitle').first
    expect(title).to_have_text(re.compile(f"^{re.escape(KXG2.name)} minus Kit Woolsey"))
    assert "difference (pp)" in page.locator('[data-testid="stMain"]').inner_text().lower()
    assert "kxg2" not in page.locator('[data-testid="stMain"]').inner_text()
    options = select_options(page, "Compare with")
    assert options and not [o for o in options if "player 0" in o], options
    assert len(set(options)) == len(options)
    assert "mec" not in options, options  # beside "mec (match equity calculator)"
    assert not [o for o in options if o.startswith("The table uploaded")], options


def test_developer_words_on_the_match_page(server, wide):
    from playwright.sync_api import expect

    page = wide
    page.goto(f"{server}/match?sec=Tables&met=upload")
    notice = page.locator('[data-testid="stAlert"]', has_text="uploaded").first
    expect(notice).to_be_visible()
    text = page.locator('[data-testid="stMain"]').inner_text()
    for words in ("met=upload", "'upload'", "(met)", "(tests)", "`"):
        assert words not in text, words
    page.screenshot(path=str(ARTIFACTS / "match-developer-words.png"))


def test_cut_labels_and_hidden_tabs_at_1280_px(server, wide):
    page = wide
    page.goto(f"{server}/match")
    settled(page)
    tabs = page.evaluate(TABS)
    page.screenshot(path=str(ARTIFACTS / "match-1280.png"))
    assert len(tabs) == 10 and [t for t, inside in tabs if not inside] == [], tabs
    for section, _ in tabs:
        page.get_by_role("tab", name=section).click()
        settled(page)
        cut = page.evaluate(CUT)
        if cut:
            page.screenshot(path=str(ARTIFACTS / f"match-cut-{section}.png"))
        assert cut == [], f"{section}: {cut}"
    page.goto(f"{server}/match?present=true")  # the projector: large type, the presets
    settled(page)
    assert page.evaluate(CUT) == []


def test_match_winning_chances_shown_as_fractions(server, wide):
    # issue #37: "percentages are percentages everywhere on a page"; the page showed its
    # match winning chances as fractions (0.3520) beside differences in percentage points
    from playwright.sync_api import expect

    page = wide
    table, model = KXG2.mwc(5, 3), match.match_equity(5, 3)  # 0.3520 and 0.3540
    for link in ("", "?present=true"):
        page.goto(f"{server}/match{link}")
        expect(metric_value(page, "Your MWC, 5-away/3-away")).to_have_text(f"{table:.2%}")
        expect(metric_value(page, "Opponent's MWC")).to_have_text(f"{1 - table:.2%}")
        expect(metric_value(page, "The model's MWC")).to_have_text(f"{model:.2%}")
        row = page.locator(".js-plotly-plot", has_text="Your match winning chance").first
        axis = row.evaluate("el => [el.layout.yaxis.tickformat, el.layout.yaxis.hoverformat]")
        assert axis == [".0%", ".2%"], axis  # ticks 0% to 100%, hovers 35.20%
    page.goto(f"{server}/match?sec=Crawford%2C+Holland")
    crawford = match.crawford_equity(5, match.DEFAULT_GAMMON_RATE)  # trailer 5-away
    expect(metric_value(page, "Leader in the Crawford game")).to_have_text(f"{crawford:.2%}")
    page.goto(f"{server}/match?sec=Heatmaps")
    expect(metric_value(page, "The model's match equity")).to_have_text(f"{model:.2%}")
    heatmap = page.locator(".js-plotly-plot", has_text="Match equity (row 1").first
    bar = heatmap.evaluate("el => [el.data[0].colorbar.tickformat, el.data[0].hovertemplate]")
    assert bar[0] == ".0%" and "%{z:.2%}" in bar[1], bar
    page.goto(f"{server}/match?sec=Tables")
    expect(metric_value(page, "Your MWC on the table, 5-away/3-away")).to_have_text(f"{table:.2%}")
    page.screenshot(path=str(ARTIFACTS / "match-percent.png"))


def test_upload_entry_offered_when_nothing_was_uploaded(server, wide):
    # issue #37, item 14: the table list offered "Your own table" in a session that had
    # uploaded nothing
    from playwright.sync_api import expect

    page = wide
    own = "Your own table (upload it under Tables)"
    page.goto(f"{server}/match?sec=Tables")
    # the section has run (its headline is there) before its select box is opened
    expect(metric_value(page, "Your MWC on the table, 5-away/3-away")).to_be_visible()
    options = select_options(page, "Match equity table")
    assert dict(TABLE_LABELS)["kxg2"] in options and own not in options, options
    # a link naming the uploaded table, in a session that uploaded nothing
    page.goto(f"{server}/match?sec=Tables&met=upload")
    notice = page.locator('[data-testid="stAlert"]', has_text="stays in the session").first
    expect(notice).to_be_visible()
    expect(metric_value(page, "Your MWC on the table, 5-away/3-away")).to_have_text(
        f"{KXG2.mwc(5, 3):.2%}"
    )
    box = page.get_by_role("combobox", name=re.compile("Match equity table"))
    expect(box).to_have_value(dict(TABLE_LABELS)["kxg2"])  # the select box: the table used
    page.screenshot(path=str(ARTIFACTS / "match-upload-offered.png"))
    # once a table is uploaded, the entry is there (and chosen)
    sample = Path(__file__).resolve().parents[1] / "samples" / "met" / "woolsey.met"
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(sample))
    expect(page.get_by_text("Uploaded in this session: woolsey.met")).to_be_visible()
    # the select box holds it: a value it can only hold when it offers it
    expect(page.get_by_role("combobox", name=re.compile("Match equity table"))).to_have_value(own)


def test_take_points_shown_as_fractions(server, wide):
    # issue #37: "percentages are percentages everywhere on a page"; the take points, the
    # market window and the dead take point of the model notes were still fractions (0.2160)
    from playwright.sync_api import expect

    page = wide
    page.goto(f"{server}/match")
    page.get_by_text("The model and its assumptions").click()
    dead = match.take_point(2, 2, gammon_rate=match.DEFAULT_GAMMON_RATE).dead
    expect(metric_value(page, "Dead take point, 2-away/2-away")).to_have_text(f"{dead:.2%}")
    page.goto(f"{server}/match?sec=Take+points&away=4&oaway=7")
    score = match_points.MatchScore(KXG2, 4, 7)
    rates = match_points.GammonRates(gammon_rate=0.26, opp_gammon_rate=0.26)
    headline = match_points.cube_life_take_point(score, rates, 0.68)  # contact, gnubg
    expect(metric_value(page, "Your take point")).to_have_text(f"{headline:.2%}")
    window = page.locator(".js-plotly-plot", has_text="market window").first
    expect(window).to_be_visible()
    labels = window.evaluate(
        "el => [...(el.layout.annotations || []).filter(a => a.name !== 'export-note')"
        ".map(a => a.text), ...el.data.map(t => t.hovertemplate)]"
    )  # the regions' boxed labels, then their hovers
    assert len(labels) > len(window.evaluate("el => el.data")), labels
    assert all("%" in label for label in labels), labels  # "double / take<br>61.20%-..."
    assert window.evaluate("el => el.layout.xaxis.tickformat") == ".0%"
    row = page.locator(".js-plotly-plot", has_text="Your take point, 4-away").first
    expect(row).to_be_visible()
    axis = row.evaluate("el => [el.layout.yaxis.tickformat, el.layout.yaxis.hoverformat]")
    assert axis == [".0%", ".2%"], axis
    page.goto(f"{server}/match?sec=Heatmaps")
    heatmap = page.locator(".js-plotly-plot", has_text="Your take point:").first
    expect(heatmap).to_be_visible()
    bar = heatmap.evaluate("el => [el.data[0].colorbar.tickformat, el.data[0].hovertemplate]")
    assert bar[0] == ".0%" and "%{z:.2%}" in bar[1], bar
    page.goto(f"{server}/match?sec=Market+window")
    first = match_points.cube_points(
        match_points.MatchScore(KXG2, 5, 3),
        match_points.GammonRates(gammon_rate=0.26, opp_gammon_rate=0.26),
    ).opponent_doubles
    expect(metric_value(page, "Your take point, dead")).to_have_text(
        f"{first.take_point_gammonless:.2%}"
    )
    page.screenshot(path=str(ARTIFACTS / "match-take-points-percent.png"))
