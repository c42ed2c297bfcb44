"""Every number every page shows is unchanged (issue #19): a fresh capture equals the snapshot.

The snapshot ``tests/data/page_snapshot.json`` is written by ``python -m tests.snapshot``
(see its ``_meta``); this test never writes it. A view is one page, one section, at its
defaults or after one preset; the comparison is exact on the rounded data.

The snapshot was written through the links of its day (:data:`tests.snapshot.OLD_LINKS`);
the test reads each view from its shared run (:mod:`tests.views`: today's link, the one
the table, chart and export checks read too). That each old section link still names
the same section is checked on the pages' alias tables below, and that an old link is
taken through them by ``test_pages_common`` (one old section link per page, in AppTest).
"""

import json

import pytest

from tests.snapshot import OLD_LINKS, SNAPSHOT, read_view
from tests.views import View, open_view, param
from ui.pages import PAGES
from ui.skeleton import SECTION_KEY

# reads pages as a visitor would, never patches: on the caches earlier such tests left
pytestmark = pytest.mark.shared_caches

VIEWS = json.loads(SNAPSHOT.read_text(encoding="utf-8"))["views"]
BY_FILE = {spec.file: spec.page for spec in PAGES if spec.page is not None}


def today_title(page_file: str, section_index: int) -> str:
    """Today's title of the section the ``section_index``-th old section link opened."""
    old = OLD_LINKS[page_file][1][section_index]
    return BY_FILE[page_file].value_aliases.get(SECTION_KEY, {}).get(old, old)


def _view(stored: dict) -> View:
    return View(stored["page"], today_title(stored["page"], stored["section"]), stored["preset"])


def first_difference(stored: object, now: object, path: str = "") -> str | None:
    """Where ``now`` first differs from ``stored`` (a readable path and both values)."""
    if isinstance(stored, dict) and isinstance(now, dict):
        for key in sorted(set(stored) | set(now)):
            if key not in now or key not in stored:
                old, new = stored.get(key, "<missing>"), now.get(key, "<missing>")
                return f"{path}.{key}: stored {old!r}, now {new!r}"
            found = first_difference(stored[key], now[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(stored, list) and isinstance(now, list):
        for index, (old, new) in enumerate(zip(stored, now, strict=False)):
            found = first_difference(old, new, f"{path}[{index}]")
            if found:
                return found
        if len(stored) != len(now):
            return f"{path}: stored {len(stored)} entries, now {len(now)}"
        return None
    if stored != now or type(stored) is not type(now):
        return f"{path}: stored {stored!r}, now {now!r}"
    return None


def _element(view: dict, difference: str) -> str:
    """The element a difference is in, by name: a metric's label or a chart's title."""
    kind, _, rest = difference.lstrip(".").partition("[")
    index = rest.partition("]")[0]
    if not index.isdigit() or kind not in ("metrics", "charts", "dataframes", "json"):
        return kind
    entry = view[kind][int(index)]
    if kind == "metrics":
        return f"metric {entry[0]!r}"
    if kind == "charts":
        return f"chart {int(index)} titled {entry['title']!r}"
    return f"{kind[:-1] if kind != 'json' else 'json'} {index}"


def test_first_difference_names_the_entry():
    stored = {"metrics": [["Cash", "0.7500", None]], "charts": [{"title": "t", "y": [1.0, 2.0]}]}
    assert first_difference(stored, stored) is None
    now = {"metrics": [["Cash", "0.7500", None]], "charts": [{"title": "t", "y": [1.0, 2.5]}]}
    found = first_difference(stored, now)
    assert found == ".charts[0].y[1]: stored 2.0, now 2.5"
    assert _element(stored, found) == "chart 0 titled 't'"
    assert first_difference([1, 2], [1]) == ": stored 2 entries, now 1"
    assert first_difference({"a": 1}, {"a": 1.0}) == ".a: stored 1, now 1.0"


@pytest.mark.parametrize("page_file", list(OLD_LINKS))
def test_every_old_section_link_names_a_section_of_today(page_file):
    old_key, old_values, _ = OLD_LINKS[page_file]
    page = BY_FILE[page_file]
    assert page.old_keys.get(old_key, old_key) == SECTION_KEY, (page_file, old_key)
    titles = [today_title(page_file, index) for index in range(len(old_values))]
    today = [section.title for section in page.sections]
    assert [title for title in titles if title not in today] == [], (page_file, today)
    assert len(set(titles)) == len(titles), (page_file, titles)  # one section for each


@pytest.mark.parametrize(
    "key", [param(_view(stored), key, id=key) for key, stored in VIEWS.items()]
)
def test_page_shows_the_same_numbers(key):
    stored = VIEWS[key]
    now = read_view(open_view(_view(stored)))
    assert not now["exceptions"], f"{key}: {now['exceptions']}"
    difference = first_difference(stored["view"], now)
    assert difference is None, (
        f"page {stored['page']}, section {stored['section']} ({stored['section_title']}), "
        f"preset {stored['preset'] or '(defaults)'}: {_element(stored['view'], difference)} "
        f"differs at {difference}"
    )
