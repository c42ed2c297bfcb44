"""Chart text readable in both themes, and marker labels apart, as rendered (issue #20).

In a real browser (Playwright, Debian's Chromium, 1280x720), for every page of the
registry in the light and the dark theme (the app's own switch, ``?theme=dark`` with
Streamlit's ``?embed_options=``):
every section that shows a chart in dark, the first such section of each page in light
(the app's base theme, which the chart-level tests in ``test_charts_common.py`` cover at
every view). For every chart drawn, the colours are read from the rendered SVG, not from
the figure the server sent:

- every text (title, ticks, axis titles, legend, annotations, cell numbers, the export
  note) has a contrast of at least 4.5:1 (WCAG 2.2 success criterion 1.4.3) against what
  it sits on, with the text's own opacity: outside the plot area, the paper (or the
  text's own box) over the page background; inside it, what the screen shows there
  (lines, a colour scale's cells, a label's box), read from the chart's screenshot as the
  most common colour of the pixels in the text's box (Pillow, which Streamlit requires);
- no two marker labels' rendered boxes overlap.

The export note overlaps no other text. A screenshot of each view is kept in
``test-artifacts/``. A page is loaded once per theme and its other sections opened by
their tabs, as a reader does. Every wait is on a condition (``settled``, a run seen to
finish), never a time.
"""

from __future__ import annotations

import io
from urllib.parse import quote

import pytest
from PIL import Image

from tests.browser import ARTIFACTS
from tests.test_browser_pages import ON_SKELETON, new_context, open_page, open_tab
from ui.links import theme_query

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

THEMES = ("light", "dark")
#: Pages that draw no chart in any section at their defaults (their views are text,
#: tables and forms); the test checks that they still draw none.
WITHOUT_CHARTS = {"classroom", "drills"}
#: WCAG 2.2 success criterion 1.4.3 (AA), https://www.w3.org/TR/WCAG22/#contrast-minimum.
TEXT_CONTRAST = 4.5

#: Every chart on the page, as drawn: the page background, the paper colour,
#: each text with its fill, its opacity (its own and its ancestors' inside the chart),
#: the box it sits on (an annotation's background) and whether its centre lies in the
#: plot area; the marker labels' boxes.
READ_CHARTS = """() => {
  const app = getComputedStyle(document.querySelector('[data-testid="stApp"]')).backgroundColor;
  const rect = (el, frame) => {
    const b = el.getBoundingClientRect();
    return [b.left - frame.left, b.top - frame.top, b.right - frame.left, b.bottom - frame.top];
  };
  return [...document.querySelectorAll('.js-plotly-plot')].map((chart, index) => {
    const layout = chart._fullLayout;
    const frame = chart.getBoundingClientRect();
    const size = layout._size;
    const notes = [...chart.querySelectorAll('.annotation')];
    const nameOf = g => (layout.annotations[notes.indexOf(g)] || {}).name;
    const opacity = el => {
      let alpha = parseFloat(getComputedStyle(el).fillOpacity);
      for (let node = el; node && node !== chart; node = node.parentElement) {
        alpha *= parseFloat(getComputedStyle(node).opacity);
      }
      return alpha;
    };
    const texts = [...chart.querySelectorAll('text')]
      .filter(t => t.textContent.trim() && t.getBBox().width > 0)
      .map(t => {
        const at = rect(t, frame);
        const x = (at[0] + at[2]) / 2, y = (at[1] + at[3]) / 2;
        const note = t.closest('.annotation');
        const bg = note && note.querySelector('rect.bg');
        return {
          text: t.textContent.slice(0, 60),
          fill: getComputedStyle(t).fill,
          alpha: opacity(t),
          box: bg ? getComputedStyle(bg).fill : null,
          boxAlpha: bg ? opacity(bg) : 0,
          inPlot: x >= size.l && x <= size.l + size.w && y >= size.t && y <= size.t + size.h,
          at,
          exportNote: !!note && nameOf(note) === 'export-note',
        };
      });
    const labels = notes.filter(g => nameOf(g) === 'marker label').map(g => ({
      text: g.textContent, box: rect(g.querySelector('.annotation-text-g'), frame)}));
    const title = chart.querySelector('.gtitle');
    return {index, title: title ? title.textContent : '', app, paper: layout.paper_bgcolor,
            texts, labels};
  });
}"""


def rgba(color: str) -> tuple[float, float, float, float]:
    """A CSS colour as the browser reports it (``rgb(...)``/``rgba(...)``/``#rrggbb``)."""
    color = color.strip()
    if color.startswith("#"):
        digits = color[1:]
        if len(digits) == 3:
            digits = "".join(c * 2 for c in digits)
        alpha = int(digits[6:8], 16) / 255 if len(digits) == 8 else 1.0
        return (*(int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4)), alpha)  # type: ignore[return-value]
    if color in ("transparent", "none", ""):
        return (0.0, 0.0, 0.0, 0.0)
    inside = color[color.index("(") + 1 : color.rindex(")")].replace("/", ",")
    parts = [float(p) for p in inside.replace(",", " ").split()]
    alpha = parts[3] if len(parts) == 4 else 1.0
    return (parts[0] / 255, parts[1] / 255, parts[2] / 255, alpha)


def composite(top: tuple[float, ...], alpha: float, under: tuple[float, ...]) -> tuple[float, ...]:
    """``top`` painted with ``alpha`` over the opaque ``under``."""
    return tuple(alpha * t + (1 - alpha) * u for t, u in zip(top[:3], under[:3], strict=True))


def luminance(rgb: tuple[float, ...]) -> float:
    """WCAG 2.2 relative luminance of an sRGB colour (channels in [0, 1])."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(first: tuple[float, ...], second: tuple[float, ...]) -> float:
    """WCAG 2.2 contrast ratio of two opaque colours."""
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def overlaps(a: list[float], b: list[float]) -> bool:
    """Two boxes ``[left, top, right, bottom]`` share an area (touching edges do not)."""
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5


def dominant_color(image, box: list[float]) -> tuple[float, ...]:
    """The colour most pixels of ``image`` inside ``box`` have: what the text sits on."""
    left, top, right, bottom = (round(v) for v in box)
    crop = image.convert("RGB").crop((max(left, 0), max(top, 0), right, bottom))
    _, color = max(crop.getcolors(crop.width * crop.height))
    return tuple(c / 255 for c in color)


def problems_of(chart: dict, image) -> list[str]:
    """What is unreadable or colliding in one rendered chart (``image``: its screenshot)."""
    page = rgba(chart["app"])
    paper = composite(rgba(chart["paper"]), rgba(chart["paper"])[3], page)
    found = []
    for text in chart["texts"]:
        if text["inPlot"]:  # on the plot: lines, cells, boxes; as the screen shows them
            under = dominant_color(image, text["at"])
        else:
            under = paper
            if text["box"] is not None:
                box = rgba(text["box"])
                under = composite(box, box[3] * text["boxAlpha"], under)
        fill = rgba(text["fill"])
        shown = composite(fill, fill[3] * text["alpha"], under)
        ratio = contrast(shown, under)
        if ratio < TEXT_CONTRAST:
            found.append(f"text {text['text']!r} {text['fill']}: contrast {ratio:.2f}")
    labels = chart["labels"]
    for i, first in enumerate(labels):
        for second in labels[i + 1 :]:
            if overlaps(first["box"], second["box"]):
                found.append(f"marker labels {first['text']!r} and {second['text']!r} overlap")
    notes = [text for text in chart["texts"] if text["exportNote"]]
    for note in notes:
        for text in chart["texts"]:
            if not text["exportNote"] and overlaps(note["at"], text["at"]):
                found.append(f"the export note overlaps {text['text']!r}")
    return found


def test_contrast_helpers_agree_with_wcag():
    """The test's own arithmetic against WCAG's published anchors."""
    assert contrast(rgba("#ffffff"), rgba("#000000")) == pytest.approx(21.0)
    assert contrast(rgba("rgb(118, 118, 118)"), rgba("#ffffff")) == pytest.approx(4.54, abs=0.01)
    assert composite(rgba("rgba(0, 0, 0, 0.5)"), 0.5, (1.0, 1.0, 1.0)) == (0.5, 0.5, 0.5)
    assert overlaps([0, 0, 10, 10], [5, 5, 15, 15]) and not overlaps(
        [0, 0, 10, 10], [10, 0, 20, 10]
    )


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("spec", ON_SKELETON, ids=lambda spec: spec.url_path or "home")
def test_chart_text_readable_and_labels_apart(browser, server, spec, theme):
    context = new_context(browser)
    try:
        page = context.new_page()
        problems: list[str] = []
        charted = 0
        first = spec.page.sections[0]
        for section in spec.page.sections:
            title = section.title
            if section is first:
                query = f"?sec={quote(title)}&{theme_query(theme.capitalize())}"
                open_page(page, server, spec, query)
            else:
                open_tab(page, section)
            charts = page.evaluate(READ_CHARTS)
            if not charts:
                continue
            charted += 1
            page.screenshot(path=str(ARTIFACTS / f"contrast-{spec.url_path}-{title}-{theme}.png"))
            for chart in charts:
                shot = page.locator(".js-plotly-plot").nth(chart["index"]).screenshot()
                problems += [
                    f"{title} / chart {chart['index']} {chart['title'][:40]!r}: {problem}"
                    for problem in problems_of(chart, Image.open(io.BytesIO(shot)))
                ]
            if theme == "light":
                break
        expected = spec.url_path not in WITHOUT_CHARTS
        assert bool(charted) == expected, f"{spec.url_path}: {charted} sections draw a chart"
        assert not problems, "\n".join(problems)
    finally:
        context.close()
