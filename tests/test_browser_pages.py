"""The link is exact and quiet, on every page, in a real browser (issue #19 item 9).

For every page on the skeleton, as a study group would use it (Playwright driving
Debian's Chromium against a real ``streamlit run``, 1280x720):

- two presets clicked in a row raise no notice;
- after each preset, after a page round-trip and after a keyboard move of a slider to
  its minimum (a section's own slider, which reruns that section alone), the address
  bar opened in a fresh browser context shows the same view: every metric and every
  chart's data are equal;
- a bad link's notice is inside the first screen;
- in presenter mode the sidebar stays as the presenter set it, and every section shows
  its headline numbers and its first chart on the first screen, with no text cut
  (issue #20 item 1).

Presenter mode is one test a page: every section by its tab, then the sidebar (a fresh
load costs the machine 2.5-6 core-seconds, a tab or a preset 0.4-1.0: ``make
suitefloor``, issue #17).

Every wait is on a condition (the app's script state, the address bar, an element),
never a fixed time.
"""

from __future__ import annotations

import pytest

from bench import browser as browser_runs
from tests.browser import ARTIFACTS, PATIENCE_MS, patient_context, settled
from ui import widgets
from ui.pages import PAGES

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

ON_SKELETON = [spec for spec in PAGES if spec.page is not None]
VIEWPORT = {"width": 1280, "height": 720}


def new_context(browser):
    """A fresh browser context at 1280x720 whose waits allow a loaded machine."""
    context = patient_context(browser, viewport=VIEWPORT)
    context.on("page", browser_runs.keep_stream)  # before the page opens its websocket
    return context


#: Everything the view shows that a student compares: metrics and the charts' data.
READ_VIEW = """() => {
  const metrics = [...document.querySelectorAll('[data-testid="stMetric"]')]
    .map(m => m.innerText.trim());
  const charts = [...document.querySelectorAll('.js-plotly-plot')]
    .map(el => (el.data || []).map(t => JSON.stringify([t.name, t.x, t.y, t.z])));
  return {metrics, charts};
}"""


def read_view(page) -> dict:
    settled(page)
    return page.evaluate(READ_VIEW)


def same_view_in_a_fresh_context(browser, page, name: str) -> None:
    """Open the address bar's URL in a new context: the view must be the same."""
    original = read_view(page)
    context = new_context(browser)
    try:
        fresh = context.new_page()
        fresh.goto(page.url)
        again = read_view(fresh)
        if again != original:
            fresh.screenshot(path=str(ARTIFACTS / f"link-{name}-fresh.png"))
            page.screenshot(path=str(ARTIFACTS / f"link-{name}-original.png"))
        assert again == original, f"{name}: {page.url} opens another view"
        assert not fresh.locator('[data-testid="stAlert"]', has_text="ignored").count()
    finally:
        context.close()


def no_notice(page) -> None:
    alerts = page.locator('[data-testid="stAlert"]', has_text="Link parameter")
    assert alerts.count() == 0, alerts.all_text_contents()


def open_page(page, server, spec, query: str = "") -> None:
    browser_runs.keep_stream(page)
    page.goto(f"{server}/{spec.link_path}{query}")
    settled(page)


#: How a run ended, as :func:`after_a_run` returns it: the page ran, or a fragment alone.
PAGE_RUN = browser_runs.PAGE_RUN
FRAGMENT_RUN = browser_runs.FRAGMENT_RUN


def after_a_run(page, action) -> int:
    """Do ``action`` (a click, a key), then wait until the run it started has finished
    (:func:`bench.browser.after_a_run`, each wait up to :data:`tests.browser.PATIENCE_MS`);
    how it finished (:data:`PAGE_RUN` or :data:`FRAGMENT_RUN`)."""
    return browser_runs.after_a_run(page, action, PATIENCE_MS)


def open_tab(page, section) -> None:
    """Open ``section`` (not the open one) by its tab, as a reader does; wait until the
    run the click started has finished. A page of the app is loaded once and its
    sections opened by tab: a tab's run takes 0.3-1.4 s, loading the page anew with
    ``?sec=`` 3.4 s (issue #17)."""
    ran = after_a_run(page, page.get_by_role("tab", name=section.title, exact=True).click)
    assert ran == PAGE_RUN, (section.title, ran)


def click_preset(page, label: str) -> None:
    after_a_run(page, page.get_by_role("button", name=label, exact=True).click)


def go_to(page, spec) -> None:
    """Follow the sidebar's link to ``spec``'s page and wait until its view has settled
    (:func:`bench.browser.go_to`, each wait up to :data:`tests.browser.PATIENCE_MS`)."""
    browser_runs.go_to(page, spec, PATIENCE_MS)


@pytest.mark.parametrize("spec", ON_SKELETON, ids=lambda s: s.url_path)
def test_presets_in_a_row_are_quiet_and_the_link_is_the_view(server, browser, spec):
    context = new_context(browser)
    page = context.new_page()
    try:
        declared = spec.page
        # page-wide presets on the first section, a section's own presets on that section
        offering = [declared.sections[0], *(s for s in declared.sections[1:] if s.presets)]
        for section in offering:
            labels = list({**declared.presets, **section.presets})
            if not labels:
                continue
            open_page(page, server, spec, f"?sec={section.title}")
            for label in labels[:2]:
                click_preset(page, label)
                no_notice(page)
                same_view_in_a_fresh_context(browser, page, f"{spec.url_path}-{label[:12]}")
    finally:
        context.close()


@pytest.mark.parametrize("spec", ON_SKELETON, ids=lambda s: s.url_path)
def test_a_page_round_trip_keeps_the_link_exact(server, browser, spec):
    context = new_context(browser)
    page = context.new_page()
    try:
        declared = spec.page
        # the last page-wide preset (shown on every section), else the first section's own
        owner = None if declared.presets else next(s for s in declared.sections if s.presets)
        label = list(declared.presets)[-1] if owner is None else next(iter(owner.presets))
        open_page(page, server, spec, f"?sec={owner.title}" if owner else "")
        click_preset(page, label)
        other = next(s for s in PAGES if s is not spec)
        go_to(page, other)
        go_to(page, spec)
        no_notice(page)
        same_view_in_a_fresh_context(browser, page, f"{spec.url_path}-round-trip")
    finally:
        context.close()


#: Pages with a slider (the classroom has none: its one control is the room code).
WITH_SLIDERS = [s for s in ON_SKELETON if any(c.is_slider for c in s.controls)]


def own_slider(section) -> bool:
    """Whether ``section`` has a slider of its own (placed with it, rerunning it alone)."""
    return any(c.is_slider for c in section.controls)


def settings_panel(page, section):
    """The open section's own panel of settings, in the page (not the sidebar)."""
    main = page.locator('[data-testid="stMain"]')
    return main.get_by_test_id("stExpander").filter(has_text=f"{section.title}: settings")


@pytest.mark.parametrize("spec", WITH_SLIDERS, ids=lambda s: s.url_path)
def test_a_slider_moved_to_its_minimum_by_keyboard_stays_in_the_link(server, browser, spec):
    """A section's own slider (else a page-wide one) moved by keyboard: a section's reruns
    that section alone (a fragment), a page-wide one the page, and the address bar is the
    view either way (issue #17 item 1: the URL binding works inside a fragment)."""
    context = new_context(browser)
    page = context.new_page()
    try:
        declared = spec.page
        # a section with a slider of its own, else the first (with no section's own
        # slider, every slider is page-wide: in the sidebar on every section)
        own = next((s for s in declared.sections if own_slider(s)), None)
        shown = own or declared.sections[0]
        open_page(page, server, spec, f"?sec={shown.title}")
        where = settings_panel(page, own) if own else page.get_by_test_id("stSidebar")
        sliders = where.get_by_role("slider")
        if sliders.count() == 0:
            pytest.fail(f"{spec.url_path}: no slider to move in {shown.title!r}")
        slider = sliders.first
        slider.focus()
        at_minimum = slider.evaluate(
            "el => (el.value ?? el.getAttribute('aria-valuenow'))"
            " === (el.min ?? el.getAttribute('aria-valuemin'))"
        )
        if at_minimum:  # already there: move it up first, so that Home is a real move
            after_a_run(page, lambda: page.keyboard.press("End"))
            slider.focus()
        ran = after_a_run(page, lambda: page.keyboard.press("Home"))
        assert ran == (FRAGMENT_RUN if own else PAGE_RUN), (shown.title, ran)
        same_view_in_a_fresh_context(browser, page, f"{spec.url_path}-minimum")
    finally:
        context.close()


@pytest.mark.parametrize("spec", ON_SKELETON, ids=lambda s: s.url_path)
def test_a_bad_link_notice_is_on_the_first_screen(server, browser, spec):
    context = new_context(browser)
    page = context.new_page()
    try:
        last = spec.page.sections[-1]
        open_page(page, server, spec, f"?sec={last.title}&{spec.controls[1].key}=zzq")
        notice = page.locator('[data-testid="stAlert"]', has_text="zzq").first
        notice.wait_for()
        box = notice.bounding_box()
        assert box is not None and box["y"] + box["height"] <= VIEWPORT["height"], box
    finally:
        context.close()


#: Every element of the page whose text is cut with "..." (an ellipsis that hides text).
CUT_TEXTS = """() => [...document.querySelectorAll('[data-testid="stMain"] *')]
  .filter(el => getComputedStyle(el).textOverflow === 'ellipsis'
                && el.scrollWidth > el.clientWidth + 1 && el.innerText.trim())
  .map(el => el.innerText.trim().slice(0, 60))"""

#: Presenter mode's first screen: the headline numbers (label, value, top, bottom) and
#: the section's first chart (whether it is on the slide, top, bottom), the viewport's
#: height.
FIRST_SCREEN = f"""() => {{
  const edges = el => {{ const r = el.getBoundingClientRect(); return [r.top, r.bottom]; }};
  const numbers = [...document.querySelectorAll(
      '.st-key-{widgets.SLIDE_NUMBERS} [data-testid="stMetric"]')]
    .map(el => [el.innerText.replace(/\\s+/g, ' ').trim(), ...edges(el)]);
  const chart = document.querySelector('[data-testid="stMain"] [data-testid="stPlotlyChart"]');
  const first = chart === null ? null
    : [chart.closest('.st-key-{widgets.SLIDE_CHART}') !== null, ...edges(chart)];
  return {{numbers, chart: first, height: window.innerHeight}};
}}"""


def sidebar_stays_as_the_presenter_set_it(page, spec, shown) -> None:
    """Opened by the presenter, the sidebar stays open through 5 presets (on the first
    section offering presets, opened by its tab unless it is ``shown``, the open one)."""
    declared = spec.page
    owner = next((s for s in declared.sections if s.presets), declared.sections[0])
    labels = list({**declared.presets, **owner.presets})
    if owner is not shown:
        open_tab(page, owner)
    sidebar = page.locator('[data-testid="stSidebar"]')
    page.locator('[data-testid="stExpandSidebarButton"]').click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"stSidebar\"]')"
        ".getAttribute('data-collapsed') === 'false'"
    )
    for click in range(5):
        click_preset(page, labels[click % len(labels)])
        assert sidebar.get_attribute("data-collapsed") == "false", f"after click {click + 1}"


@pytest.mark.parametrize("spec", ON_SKELETON, ids=lambda s: s.url_path)
def test_presenter_mode_shows_each_section_on_one_screen(server, browser, spec):
    """On a projector (1280x720, large type), the sidebar starts folded, and for every
    section (the first opened by its link, the others by their tabs): its headline
    numbers (one to four) and its first chart are inside the first screen, beside each
    other; no label, number or preset ends in "...". Then the sidebar, opened by the
    presenter, stays open through 5 presets. (A live classroom's slide is checked with a
    room open, in tests/test_browser_classroom.py.)"""
    context = new_context(browser)
    page = context.new_page()
    try:
        first = spec.page.sections[0]
        for section in spec.page.sections:
            if section is first:
                open_page(page, server, spec, f"?present=true&sec={section.title}")
                sidebar = page.locator('[data-testid="stSidebar"]')
                assert sidebar.get_attribute("data-collapsed") == "true"
            else:
                open_tab(page, section)
            where = f"{spec.url_path}, {section.title}"
            cut = page.evaluate(CUT_TEXTS)
            screen = page.evaluate(FIRST_SCREEN)
            numbers, chart, height = screen["numbers"], screen["chart"], screen["height"]
            outside = [text for text, top, bottom in numbers if top < 0 or bottom > height]
            if chart is not None and (chart[1] < 0 or chart[2] > height):
                outside.append(f"the first chart ({chart[1]:.0f}-{chart[2]:.0f} px)")
            if cut or outside or (section.slide and not numbers):
                page.screenshot(path=str(ARTIFACTS / f"present-{spec.url_path}-{section.id}.png"))
            assert cut == [], f"{where}: cut {cut}"
            if section.slide:  # a live room shows its numbers once a question is asked
                assert 1 <= len(numbers) <= 4, f"{where}: headline {[n[0] for n in numbers]}"
            assert chart is None or chart[0], f"{where}: the first chart is not on the slide"
            assert outside == [], f"{where}: below {height} px: {outside}"
        sidebar_stays_as_the_presenter_set_it(page, spec, shown=spec.page.sections[-1])
    finally:
        context.close()


#: Pages with a section that owns a slider and is not the first one: it is opened by
#: its tab, and its slider's copy in the sidebar's folded panel gives way to its own.
TAB_OWNED_SLIDERS = [
    (spec, section)
    for spec in ON_SKELETON
    for section in spec.page.sections[1:]
    if own_slider(section)
]


def slider_value(slider) -> float:
    """A slider's value as the page shows it (its range input's, else its ARIA value)."""
    return float(slider.evaluate("el => el.value ?? el.getAttribute('aria-valuenow')"))


@pytest.mark.parametrize(
    ("spec", "section"),
    TAB_OWNED_SLIDERS,
    ids=lambda item: getattr(item, "url_path", getattr(item, "id", "")),
)
def test_address_bar_goes_stale_after_a_tab_owned_slider_moves(server, browser, spec, section):
    """Issue #37 item 6: open a section by clicking its tab, move that section's own slider
    (by keyboard, one step up from where it stands): the address bar carries the new value
    at once, and reopened in a fresh context it shows the same view. The section's slider
    stood in the sidebar's folded panel while the section was closed; that stale copy had
    the same widget id and took the new slider's URL binding with it when it went."""
    context = new_context(browser)
    page = context.new_page()
    try:
        open_page(page, server, spec)
        open_tab(page, section)
        control = next(c for c in section.controls if c.is_slider and c.requires is None)
        boxes = settings_panel(page, section).get_by_test_id("stSlider")
        slider = boxes.filter(has_text=control.label).get_by_role("slider").first
        slider.focus()
        before = slider_value(slider)
        key = "End" if before < float(control.high) else "Home"
        after_a_run(page, lambda: page.keyboard.press(key))
        moved = slider_value(slider)
        assert moved != before, (before, moved)
        # the browser writes the address bar as the slider moves, before the run it starts
        assert f"{control.key}={control.format(moved)}" in page.url.split("?", 1)[-1].split("&"), (
            page.url
        )
        same_view_in_a_fresh_context(browser, page, f"{spec.url_path}-{section.id}-tab-slider")
    finally:
        context.close()


#: The app's background as the browser paints it.
BACKGROUND = """() => getComputedStyle(document.querySelector('[data-testid="stApp"]'))
  .backgroundColor"""


def test_theme_dark_is_an_unknown_link_parameter_and_the_switch_is_hidden(server, browser):
    """Issue #37 item 18: ``?theme=dark`` opens the page dark, without a notice; the theme
    choice stands in the sidebar, and choosing "light" there turns the page light, and
    the choice holds on the next page."""
    context = new_context(browser)
    page = context.new_page()
    try:
        spec = ON_SKELETON[1]
        browser_runs.keep_stream(page)
        page.goto(f"{server}/{spec.link_path}?theme=dark")
        page.wait_for_url(lambda url: "embed_options=dark_theme" in url)
        settled(page)
        assert page.evaluate(BACKGROUND) == "rgb(14, 17, 23)"  # [theme.dark] in config.toml
        assert not page.locator('[data-testid="stAlert"]', has_text="theme").count()
        assert "theme=dark" in page.url
        choice = page.get_by_test_id("stSidebar").get_by_test_id("stButtonGroup")
        choice.get_by_role("radio", name="light", exact=True).click()
        page.wait_for_url(lambda url: "embed_options=light_theme" in url)
        settled(page)
        assert page.evaluate(BACKGROUND) == "rgb(255, 255, 255)"  # [theme.light]
        assert "theme=" not in page.url.split("?", 1)[-1].replace("embed_options", "")
        choice.get_by_role("radio", name="dark", exact=True).click()
        page.wait_for_url(lambda url: "embed_options=dark_theme" in url)
        settled(page)
        go_to(page, ON_SKELETON[2])
        assert page.evaluate(BACKGROUND) == "rgb(14, 17, 23)"
        assert "theme=dark" in page.url
    finally:
        context.close()


def test_an_old_dark_link_was_turned_light(server, browser):
    """A link shared before the app had its own theme control carries only Streamlit's
    option (``?embed_options=dark_theme``); the control's default (light) reloaded it
    light. It opens dark, and the address bar and the control say so."""
    context = new_context(browser)
    page = context.new_page()
    try:
        spec = ON_SKELETON[1]
        browser_runs.keep_stream(page)
        page.goto(f"{server}/{spec.link_path}?embed_options=dark_theme")
        page.wait_for_url(lambda url: "theme=dark" in url.replace("embed_options", ""))
        settled(page)
        assert page.evaluate(BACKGROUND) == "rgb(14, 17, 23)"  # [theme.dark] in config.toml
        assert "embed_options=dark_theme" in page.url
        choice = page.get_by_test_id("stSidebar").get_by_test_id("stButtonGroup")
        from playwright.sync_api import expect

        expect(choice.get_by_role("radio", name="dark", exact=True)).to_be_checked()
    finally:
        context.close()


#: Every chart text (an annotation, the title) that runs past its chart's edge: plotly
#: does not wrap, and the SVG cuts what does not fit.
CLIPPED_CHART_TEXTS = """() =>
  [...document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot')].flatMap(plot => {
    const box = plot.getBoundingClientRect();
    return [...plot.querySelectorAll('.annotation-text, .gtitle')]
      .filter(t => { const r = t.getBoundingClientRect();
                     return r.width > 0 && (r.right > box.right + 1 || r.left < box.left - 1); })
      .map(t => t.textContent.trim().slice(0, 60));
  })"""

#: The screens of issue #37 item 17: a laptop and a phone.
SCREENS = {"1280": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("screen", list(SCREENS))
def test_labels_and_chart_captions_are_cut(server, browser, screen):
    """Issue #37 item 17: on every page (its first section, and the home page's model
    cards), at 1280 px and on a 390x844 phone, no label, link or caption ends in "..."
    over hidden text, and no chart's caption or title runs past the chart's edge."""
    context = patient_context(
        browser, viewport=SCREENS[screen], is_mobile=screen == "phone", has_touch=screen == "phone"
    )
    page = context.new_page()
    cut: list[str] = []
    try:
        home = next(spec for spec in ON_SKELETON if spec.link_path == "")
        models = home.page.section("overview").title
        visits = [(spec, "") for spec in ON_SKELETON] + [(home, f"?sec={models}")]
        for spec, query in visits:
            page.goto(f"{server}/{spec.link_path}{query}")
            settled(page)
            page.wait_for_function(
                "() => [...document.querySelectorAll('[data-testid=\"stPlotlyChart\"]')]"
                ".every(chart => chart.querySelector('.main-svg') !== null)"
            )
            where = f"{spec.url_path}{query}"
            cut += [f"{where}: cut {text!r}" for text in page.evaluate(CUT_TEXTS)]
            cut += [f"{where}: chart text {t!r}" for t in page.evaluate(CLIPPED_CHART_TEXTS)]
            if cut:
                page.screenshot(path=str(ARTIFACTS / f"cut-{screen}-{spec.url_path}.png"))
        assert cut == [], "\n".join(cut)
    finally:
        context.close()
