"""Every chart on every page and section is a valid plotly figure.

``ui.widgets.chart`` skips plotly's validation at run time (it costs ~20 ms per
chart per rerun), so this test validates what each page actually sends: each section's shared run
(:mod:`tests.views`, opened by the section's link), which the table, chart and export
checks read too.
"""

import json

import plotly.graph_objects as go
import pytest

from tests.views import View, open_view, param
from ui.pages import PAGES
from ui.skeleton import SECTION_KEY

# reads pages as a visitor would, never patches: on the caches earlier such tests left
pytestmark = pytest.mark.shared_caches

#: The control that chooses a page's section (pages without one render everything).
SECTION_KEYS = {
    "home": "sec",
    "janowski": "jsec",
    "keeler_spencer": "sec",
    "giveup": "wsec",
    "race": "rsec",
    "rules": "view",
    "match": "sec",
}


def sections(spec):
    """(key, value) of every section of the page: the key its section tabs bind to."""
    tabs = next(c for c in spec.controls if c.kind == "tabs" or c.key in SECTION_KEYS.values())
    return [(tabs.key, option) for option in tabs.options]


#: Sections that are text only.
#: The classroom draws its histogram only once a room has answers
#: (tests/test_page_classroom.py validates it there).
CHARTLESS = {
    ("sec", "Start here"),
    ("sec", "Models"),
    ("sec", "Glossary"),
    ("sec", "About and sources"),
}
#: The classroom shows its histogram only once answers come in (its page tests check it).
CHARTLESS |= {("sec", "Join"), ("sec", "Present")}

CASES = [(spec, section) for spec in PAGES for section in sections(spec)]
#: The drills page asks questions: text and answer boxes, no chart.
CHARTLESS |= {("sec", "One by one"), ("sec", "All at once")}


@pytest.mark.parametrize(
    ("spec", "section"),
    [param(View(s.file, sec[1]), s, sec, id=f"{s.url_path}-{sec[1]}") for s, sec in CASES],
)
def test_every_chart_is_a_valid_plotly_figure(spec, section):
    key, title = section
    assert key == SECTION_KEY  # every page's sections are tabs on the skeleton's key
    at = open_view(View(spec.file, title))
    assert not at.exception
    charts = at.get("plotly_chart")
    assert charts or section in CHARTLESS, "every other section shows at least one chart"
    for element in charts:
        go.Figure(json.loads(element.proto.spec))  # raises on any invalid property
