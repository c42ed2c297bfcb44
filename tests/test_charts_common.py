"""What every chart does, tested over every section of every page in both themes (issue #20).

Each section opens at its defaults in the light and the dark theme (``st.context.theme``,
set through ``AppTest.context``); every chart it shows is read back (plotly JSON) and
checked: every text has an explicit colour with WCAG contrast >= 4.5:1 against what it
sits on, no black or near-black line or marker is drawn on the dark background, and no
two marker labels' estimated text boxes overlap (also in presenter mode); every chart has a
text alternative (its accessible name, and its caption in presenter mode) that names its
title and at least one number.
"""

from __future__ import annotations

import html
import re

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from tests.plotly_spec import plotly_spec
from tests.reading import chart_specs, share_link
from tests.views import THEMES, View, open_view, param
from ui import links, style
from ui.pages import PAGES

# reads pages as a visitor would, never patches: on the caches earlier such tests left
pytestmark = pytest.mark.shared_caches

ON_SKELETON = [spec for spec in PAGES if spec.page is not None]
SECTIONS = [(spec.file, section.title) for spec in ON_SKELETON for section in spec.page.sections]


def _run(page: str, section: str, theme: str, present: bool = False) -> AppTest:
    """One section at its defaults in one theme (its shared run: :mod:`tests.views`)."""
    at = open_view(View(page, section, present=present, theme=theme))
    assert not at.exception, [e.message for e in at.exception]
    return at


#: (page, section, theme): every section in both themes.
IN_BOTH_THEMES = [
    param(View(page, section, theme=theme), page, section, theme, id=f"{page}-{section}-{theme}")
    for page, section in SECTIONS
    for theme in THEMES
]
#: (page, section): every section in the dark theme.
IN_DARK = [param(View(page, section, theme="dark"), page, section) for page, section in SECTIONS]
#: (page, section, present): every section in the light theme, outside and in presenter mode.
PRESENTED = [
    param(
        View(page, section, present=present),
        page,
        section,
        present,
        id=f"{page}-{section}-{'presenter' if present else 'default'}",
    )
    for page, section in SECTIONS
    for present in (False, True)
]


def _open(page: str, section: str, theme: str, present: bool = False) -> list[dict]:
    """The charts of one section at its defaults in one theme (plotly JSON)."""
    return chart_specs(_run(page, section, theme, present))


def _title(spec: dict) -> str:
    title = spec.get("layout", {}).get("title", {})
    return str(title.get("text") if isinstance(title, dict) else title)


def texts(spec: dict, theme: str) -> list[tuple[str, str | None, str]]:
    """Every text of a chart: ``(where, explicit colour or None, opaque background)``.

    A text without an explicit colour of its own takes the layout's font colour; a
    chart whose layout has none is drawn in Streamlit's template grey, which is what
    this test rules out.
    """
    layout = spec.get("layout", {})
    base = style.THEMES[theme].background
    paper = style.over(layout.get("paper_bgcolor", base), base)
    plot = style.over(layout.get("plot_bgcolor", paper), paper)
    default = (layout.get("font") or {}).get("color")
    found: list[tuple[str, str | None, str]] = [("layout.font", default, paper)]

    def colour(node: object) -> str | None:
        return ((node or {}).get("font") or {}).get("color", default)  # type: ignore[union-attr]

    if isinstance(layout.get("title"), dict) and layout["title"].get("text"):
        found.append(("title", colour(layout["title"]), paper))
    for name in sorted(k for k in layout if k.startswith(("xaxis", "yaxis"))):
        axis = layout[name]
        if axis.get("visible") is False:
            continue
        found.append(
            (f"{name}.tickfont", (axis.get("tickfont") or {}).get("color", default), paper)
        )
        title = axis.get("title")
        if isinstance(title, dict) and title.get("text"):
            found.append((f"{name}.title", colour(title), paper))
    for index, note in enumerate(layout.get("annotations", [])):
        under = paper if style.in_margin(note) else plot
        behind = style.over(note["bgcolor"], under) if "bgcolor" in note else under
        found.append((f"annotation {index} {note.get('text')!r}", colour(note), behind))
    for index, trace in enumerate(spec.get("data", [])):
        if trace.get("meta") == style.CELL_TEXT or not ("text" in trace or "texttemplate" in trace):
            continue  # cell numbers sit on their cells: test_cell_numbers_read_on_their_cells
        color = (trace.get("textfont") or {}).get("color", default)
        for one in color if isinstance(color, list) else [color]:
            found.append((f"trace {index} {trace.get('name')!r} text", one, plot))
    return found


def graphics(spec: dict, theme: str) -> list[tuple[str, str, str]]:
    """Marker lines, trace lines and marker symbols: ``(where, colour, background)``."""
    layout = spec.get("layout", {})
    base = style.THEMES[theme].background
    plot = style.over(layout.get("plot_bgcolor", layout.get("paper_bgcolor", base)), base)
    found = []
    for index, shape in enumerate(layout.get("shapes", [])):
        color = (shape.get("line") or {}).get("color")
        if isinstance(color, str) and (shape.get("line") or {}).get("width", 1) != 0:
            found.append((f"shape {index}", color, plot))
    for index, trace in enumerate(spec.get("data", [])):
        if trace.get("type") in ("heatmap", "contour"):
            continue
        for part in ("line", "marker"):
            color = (trace.get(part) or {}).get("color")
            for one in color if isinstance(color, list) else [color]:
                if isinstance(one, str):
                    found.append((f"trace {index} {trace.get('name')!r} {part}", one, plot))
    return found


@pytest.mark.parametrize(("page", "section", "theme"), IN_BOTH_THEMES)
def test_every_chart_text_has_contrast_in_both_themes(page, section, theme):
    bad = []
    for spec in _open(page, section, theme):
        for where, color, background in texts(spec, theme):
            if color is None:
                bad.append(f"{_title(spec)!r} {where}: no explicit colour (template grey)")
            elif (ratio := style.contrast_ratio(color, background)) < style.TEXT_CONTRAST:
                bad.append(f"{_title(spec)!r} {where}: {color} on {background} is {ratio:.2f}:1")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(("page", "section"), IN_DARK)
def test_no_chart_draws_black_on_the_dark_background(page, section):
    bad = []
    for spec in _open(page, section, "dark"):
        for where, color, background in graphics(spec, "dark"):
            ratio = style.contrast_ratio(color, background)
            if ratio < style.GRAPHIC_CONTRAST:
                bad.append(f"{_title(spec)!r} {where}: {color} on {background} is {ratio:.2f}:1")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(("page", "section", "present"), PRESENTED)
def test_no_two_marker_labels_overlap(page, section, present):
    bad = []
    for spec in _open(page, section, "light", present):
        boxes = style.marker_label_boxes(spec)
        for i, first in enumerate(boxes):
            for second in boxes[i + 1 :]:
                if first.collides(second):
                    bad.append(f"{_title(spec)!r}: {first.text!r} overlaps {second.text!r}")
    assert not bad, "\n".join(bad)


def _plain_title(spec: dict) -> str:
    return " ".join(re.sub(r"<[^>]*>", " ", _title(spec)).split())


@pytest.mark.parametrize(("page", "section", "present"), PRESENTED)
def test_every_chart_has_a_text_alternative_with_its_title_and_a_number(page, section, present):
    at = _run(page, section, "light", present)
    captions = [c.value for c in at.caption]
    bad = []
    for element in at.get("plotly_chart"):
        spec, alt = plotly_spec(element), element.proto.alt
        if _plain_title(spec) not in alt or not re.search(r"\d", alt):
            bad.append(f"{_title(spec)!r}: alt {alt!r}")
        if present and alt not in captions:
            bad.append(f"{_title(spec)!r}: no caption {alt!r} in presenter mode")
        if not present and alt in captions:
            bad.append(f"{_title(spec)!r}: caption {alt!r} outside presenter mode")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("spec", ON_SKELETON, ids=lambda spec: spec.url_path)
def test_the_theme_switch_opens_this_view_in_each_theme(open_page, spec):
    at = open_page(spec.file, present="true")
    link = share_link(at)
    switches = [m.value for m in at.main.markdown if m.value.startswith("Theme: ")]
    assert switches == [links.theme_switch(link)]
    for theme in links.THEME_VALUES:
        href = html.escape(f"{link}&{links.theme_query(theme)}")
        assert f'href="{href}" target="_self">{theme}</a>' in switches[0]


def test_theme_link_adds_the_app_s_control_and_streamlit_s_theme_option_to_any_link():
    # both: the control alone would reload the page; Streamlit's option alone (dark) would
    # be turned back to light by the control's default
    assert links.theme_link("/janowski", "Dark") == "/janowski?theme=dark&embed_options=dark_theme"
    assert links.theme_link("/janowski", "Light") == "/janowski?embed_options=light_theme"
    # a link that named a theme is switched, not given two
    assert (
        links.theme_link("/cube?x=1&theme=dark&embed_options=dark_theme", "Light")
        == "/cube?x=1&embed_options=light_theme"
    )
    assert links.theme_link("/race?x=1", "Light") == "/race?x=1&embed_options=light_theme"


def test_export_note_sits_in_the_top_margin_on_the_paper():
    """The export note takes a strip above the title, where nothing else is drawn, under
    a band left to the chart toolbar, and reads over the paper (a board's plot colour is
    not behind it)."""
    figure = {"data": [], "layout": {"margin": {"t": 60, "b": 40}, "plot_bgcolor": "#d9c3a0"}}
    noted = style.with_export_note(figure, "Cube Theory Lab · x=0.7")
    note = noted["layout"]["annotations"][-1]
    assert noted["layout"]["margin"] == {"t": 60 + 22 + 30, "b": 40}  # note, toolbar
    assert (note["y"], note["yanchor"], note["yshift"]) == (1, "bottom", 60)
    assert style.in_margin(note)
    assert not style.in_margin({**note, "y": 0.5, "yanchor": "middle"})
    dark = style.themed_figure(noted, "dark")["layout"]["annotations"][-1]
    paper = style.THEMES["dark"].background
    assert style.contrast_ratio(dark["font"]["color"], paper) >= style.TEXT_CONTRAST


def test_cell_numbers_read_on_their_cells():
    """A heatmap's numbers get, per cell, the ink that reads on that cell's colour as
    the browser paints it (the scale's stops, interpolated linearly in RGB); the scale is
    sent as its stops, and a named scale plotly.js lacks ("PuOr") is sent all the same."""
    z = [[-1.0, -0.5, 0.0], [0.25, 0.75, 1.0]]
    for scale in ("Viridis", "PuOr", "RdBu", [[0.0, "#ffffff"], [1.0, "rgb(0, 0, 90)"]]):
        heatmap = {"type": "heatmap", "z": z, "zmin": -1, "zmax": 1, "colorscale": scale}
        built = {"data": [{**heatmap, "texttemplate": "%{z:+.2f}"}], "layout": {}}
        shown = style.readable_cells(built)
        assert "texttemplate" not in shown["data"][0]
        stops = shown["data"][0]["colorscale"]
        assert isinstance(stops, list) and stops[0][0] == 0.0 and stops[-1][0] == 1.0
        cells = shown["data"][1]
        assert cells["meta"] == style.CELL_TEXT and cells["hoverinfo"] == "skip"
        assert cells["text"] == ["-1.00", "-0.50", "+0.00", "+0.25", "+0.75", "+1.00"]
        for value, ink in zip(np.ravel(z), cells["textfont"]["color"], strict=True):
            share = (value + 1) / 2
            upper = next(i for i, stop in enumerate(stops) if stop[0] >= share)
            lower = max(upper - 1, 0)
            (p0, c0), (p1, c1) = stops[lower], stops[upper]
            weight = 0.0 if p1 == p0 else (share - p0) / (p1 - p0)
            rgb = [
                (1 - weight) * a + weight * b
                for a, b in zip(style.rgba(_css(c0))[:3], style.rgba(_css(c1))[:3], strict=True)
            ]
            cell = "#" + "".join(f"{round(v):02x}" for v in rgb)
            assert style.contrast_ratio(ink, cell) >= style.TEXT_CONTRAST, (scale, value, cell)


def _css(color: str) -> str:
    """plotly's ``rgb(r,g,b)`` stops as ``rgb(r, g, b)`` (both parse; hex passes)."""
    return color.replace(",", ", ").replace(",  ", ", ")


def test_a_heatmap_without_a_colour_scale_keeps_streamlits():
    """No scale named: Streamlit's theme gives one, so nothing is written for it."""
    built = {"data": [{"type": "heatmap", "z": [[1.0]], "texttemplate": "%{z:.1f}"}]}
    assert style.readable_cells(built)["data"] == built["data"]
