"""A snapshot of every number every page shows: metrics, tables, JSON blocks, chart data.

Issue #19 rebuilds the UI; its acceptance asks that no number a page shows changes.
:func:`capture` opens one view (a page, one of its sections, optionally one preset
clicked) in an AppTest and reads back what it shows; ``python -m tests.snapshot``
writes every view to ``tests/data/page_snapshot.json`` and
``tests/test_page_snapshot.py`` compares it with each view's run of today, the one run
per view that the other page checks share (:mod:`tests.views`, opened by today's
link); that test also checks that every old section link of :data:`OLD_LINKS` names a
section of today.

Everything that knows how today's UI opens a section, clicks a preset and lists its
pages is in :func:`adapter`; after the rebuild only that function changes.

Left out because they change from run to run: the wall-clock metrics, "Games per
second" (rules page), "Simulated paths (games) per second" and "This check and price
took (s)" (Keeler-Spencer page), and captions (not read at all; one on the rules page
states a run time). Seeded Monte Carlo results are kept: the same seed gives the same games.
Floats are rounded to 10 significant digits, so a change in the last bits of a sum
(another summation order) does not count as a change of a shown number. The line
on every chart that names the view's parameters and sources (issue #20, item 5;
:data:`ui.style.EXPORT_NOTE`) is not read: it states the controls, not a result. A
heatmap's cell numbers (:data:`ui.style.CELL_TEXT`) are its ``z``, recorded once.
"""

from __future__ import annotations

import hashlib
import json
import math
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import streamlit as st
from streamlit.testing.v1 import AppTest

from tests.plotly_spec import plotly_spec
from ui.style import CELL_TEXT, EXPORT_NOTE

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")
SNAPSHOT = ROOT / "tests" / "data" / "page_snapshot.json"

#: Arrays with more entries than this are stored as a summary (length, sha256, first,
#: last, sum), which keeps the JSON small; shorter ones are stored in full.
FULL_ARRAY_MAX = 64
#: Metrics left out: a label containing one of these is a timing, not a model number.
VOLATILE_METRICS = ("per second", "took (s)")


@dataclass(frozen=True)
class PageShape:
    """What the snapshot needs to know of one page.

    ``sections`` are the section titles, in order (stored for the reader; cases are
    keyed by index). ``presets`` maps each preset's label to the index of the section
    the preset opens itself, or ``None`` when it keeps the open one (then the preset is
    captured in every section).
    """

    file: str
    sections: tuple[str, ...]
    presets: dict[str, int | None]


@dataclass(frozen=True)
class Adapter:
    """How to reach every view of the UI: its pages, and how to open one view."""

    pages: tuple[PageShape, ...]
    open_view: Callable[[PageShape, int, str | None], AppTest]


#: How each page's sections were reached by links on the day of the snapshot (before the
#: rebuild of issue #19): the section's URL key and its values in order, and for each
#: preset the section it opens (``None``: it keeps the open one). The rebuilt pages take
#: these old links through their aliases, so the snapshot also checks that old links
#: open the same views.
OLD_LINKS: dict[str, tuple[str, tuple[str, ...], dict[str, int | None]]] = {
    "pages/home.py": (
        "hsec",
        ("Overview", "Atlas", "Glossary", "About"),
        {"Essay defaults (g .86, g_c .835)": 1, "Continuous game (all at 80/20)": 1},
    ),
    "pages/janowski.py": (
        "jsec",
        (
            "1 · Equities and decisions",
            "2 · Points against cube life",
            "3 · Two cube-life indexes",
        ),
        {"Dead cube": None, "Live cube (20/80)": None, "Typical: x=0.68, gammons": None},
    ),
    "pages/keeler_spencer.py": (
        "sec",
        (
            "1 · The continuous game",
            "2 · Limited doubles",
            "3 · Non-alternating raises",
            "4 · Continuous raises",
        ),
        {
            "Paper's tables": 2,
            "Worked example: α(2,1) = 11/16": 2,
            "A has 10 doubles, B has 3": 2,
            "a > 4 against b = 1": 3,
        },
    ),
    "pages/race.py": (
        "rsec",
        ("race-model", "doubling-points", "exact-strategy", "measured-points", "rules-of-thumb"),
        {"20 v 20": 2, "40 v 43": 2, "70 v 77": 2, "110 v 121": 2, "Continuous game": 1},
    ),
    "pages/giveup.py": (
        "wsec",
        (
            "1 · The transform",
            "2 · The essay's table",
            "3 · The cost of doubling",
            "4 · Equivalences",
        ),
        {
            "Essay: T = 21.5 %, g_c = .835": None,
            "Keeler-Spencer limit: g = g_c = .8": None,
            "Dead cube: g = g_c = 1": None,
        },
    ),
    "pages/rules.py": (
        "view",
        ("walkthrough", "theory", "simulation"),
        {
            "Source: beaver, raccoon": 0,
            "Murphy ties, cap 2": 0,
            "Crawford, then Holland": 0,
            "Jacoby: favourite cashes": 1,
            "No gammons": 1,
            "Optimal, no beavers": 2,
            "Early double vs beavers": 2,
            "Murphy, cap 2": 2,
        },
    ),
    "pages/match.py": (
        "part",
        ("table", "takes", "rules", "heatmaps"),
        {
            "2-away/2-away": None,
            "4-away/2-away": None,
            "Crawford, 5-away": None,  # "Crawford 1-away/5-away" until issue #37
            "Post-Crawford, 2-away": None,  # "Post-Crawford 1-away/2-away" until issue #37
        },
    ),
}


def adapter() -> Adapter:
    """THE ADAPTER: how to reach every view, through the links of the snapshot's day.

    A section is opened by its old link (:data:`OLD_LINKS`: the rebuilt pages rewrite
    the old key and value to today's), a preset is clicked through its button, keyed
    ``preset:<label>`` (the home page's presets sit in its Atlas section only, the
    rules page's each in the section it opens).
    """
    shapes = tuple(
        PageShape(file, options, presets) for file, (_, options, presets) in OLD_LINKS.items()
    )

    def open_view(page: PageShape, section_index: int, preset: str | None) -> AppTest:
        key, options, _ = OLD_LINKS[page.file]
        at = AppTest.from_file(APP, default_timeout=120)
        at.query_params[key] = options[section_index]
        at.switch_page(page.file).run()  # the link opens the page itself, as in a browser
        if preset is not None:
            at.button(key=f"preset:{preset}").click().run()
        return at

    return Adapter(shapes, open_view)


# --- reading a view back (independent of the UI's layout) -------------------------------


def _number(value: object) -> object:
    """A JSON-safe, rounded scalar: floats to 10 significant digits, non-finite as text."""
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        number = float(value)
        if not math.isfinite(number):
            return str(number)
        return float(f"{number:.10g}")
    if value is None or isinstance(value, str):
        return value
    return str(value)


def _rounded(node: object) -> object:
    if isinstance(node, dict):
        return {str(k): _rounded(v) for k, v in node.items()}
    if isinstance(node, list | tuple | np.ndarray):
        return [_rounded(item) for item in node]
    return _number(node)


def _flat(node: object) -> list[object]:
    if isinstance(node, list):
        return [leaf for item in node for leaf in _flat(item)]
    return [node]


def _array(values: object) -> object:
    """An array, rounded: in full if short, else length, sha256, first, last, sum."""
    if values is None:
        return None
    rounded = _rounded(values)
    if not isinstance(rounded, list):
        return rounded
    flat = _flat(rounded)
    if len(flat) <= FULL_ARRAY_MAX:
        return rounded
    numbers = [v for v in flat if isinstance(v, int | float) and not isinstance(v, bool)]
    text = json.dumps(rounded, separators=(",", ":"))
    return {
        "length": len(flat),
        "sha256": hashlib.sha256(text.encode()).hexdigest(),
        "first": flat[0],
        "last": flat[-1],
        "sum": _number(math.fsum(numbers)) if len(numbers) == len(flat) else None,
    }


def _metrics(at: AppTest) -> list[list[object]]:
    return [
        [m.label, m.value, m.delta]
        for m in at.metric
        if not any(word in m.label for word in VOLATILE_METRICS)
    ]


def _dataframes(at: AppTest) -> list[dict]:
    frames = []
    for element in at.dataframe:
        frame = element.value
        config = json.loads(element.proto.columns or "{}")
        hidden = config.get("_index", {}).get("hidden", False)
        entry = {
            "columns": [str(c) for c in frame.columns],
            "values": _array(frame.to_numpy(dtype=object).tolist()),
        }
        if not hidden:
            entry["index"] = _array([str(i) for i in frame.index])
        frames.append(entry)
    return frames


def _words(text: object) -> object:
    """A chart's text as its words, however plotly's lines break it."""
    return text.replace("<br>", " ") if isinstance(text, str) else text


def _charts(at: AppTest) -> list[dict]:
    charts = []
    for element in at.get("plotly_chart"):
        spec = plotly_spec(element)
        layout = spec.get("layout", {})
        title = layout.get("title", {})
        charts.append(
            {
                # a long title is broken for a phone (ui.style.fitting_title): its words
                "title": _words(title.get("text") if isinstance(title, dict) else title),
                "traces": [
                    {
                        "type": trace.get("type"),
                        "name": trace.get("name"),
                        **{axis: _array(trace.get(axis)) for axis in ("x", "y", "z")},
                    }
                    for trace in spec.get("data", [])
                    if trace.get("meta") != CELL_TEXT  # a heatmap's z as text: recorded as z
                ],
                "annotations": [
                    a.get("text")
                    for a in layout.get("annotations", [])
                    if a.get("name") != EXPORT_NOTE  # the view's parameters, not a number
                ],
                "shapes": [
                    _rounded([s.get(end) for end in ("x0", "x1", "y0", "y1")])
                    for s in layout.get("shapes", [])
                ],
            }
        )
    return charts


def read_view(at: AppTest) -> dict:
    """Every number ``at`` shows: metrics, dataframes, JSON blocks, plotly chart data."""
    return {
        "exceptions": [e.message for e in at.exception],
        "metrics": _metrics(at),
        "dataframes": _dataframes(at),
        "json": [_rounded(json.loads(j.proto.body)) for j in at.json],
        "charts": _charts(at),
    }


def capture(page_file: str, section_index: int, preset_label: str | None) -> dict:
    """Open ``page_file`` at section ``section_index``, click ``preset_label``, read it."""
    ui = adapter()
    page = next(p for p in ui.pages if p.file == page_file)
    st.cache_data.clear()
    st.cache_resource.clear()
    return read_view(ui.open_view(page, section_index, preset_label))


def cases(ui: Adapter | None = None) -> list[tuple[str, int, str | None]]:
    """Every (page, section, preset) view: each section at its defaults, each preset.

    A preset that opens a section of its own is captured there only; one that keeps
    the open section is captured in every section.
    """
    ui = ui or adapter()
    views = []
    for page in ui.pages:
        views += [(page.file, i, None) for i in range(len(page.sections))]
        for label, own in page.presets.items():
            sections = range(len(page.sections)) if own is None else [own]
            views += [(page.file, i, label) for i in sections]
    return views


def case_id(page_file: str, section_index: int, preset: str | None) -> str:
    """The key of a view in the snapshot."""
    return f"{page_file} | section {section_index} | preset {preset or '(defaults)'}"


def main() -> None:
    """Capture every view and write ``tests/data/page_snapshot.json``."""
    ui = adapter()
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "-C", str(ROOT), "status", "--porcelain", "--", "ui", "pages", "cubecore"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    views = {}
    for page_file, section, preset in cases(ui):
        key = case_id(page_file, section, preset)
        print(key, file=sys.stderr)
        views[key] = {
            "page": page_file,
            "section": section,
            "section_title": next(p for p in ui.pages if p.file == page_file).sections[section],
            "preset": preset,
            "view": capture(page_file, section, preset),
        }
    meta = {
        "what": "Every metric, dataframe, JSON block and plotly chart's data of every page "
        "section at its defaults and after each preset (AppTest), floats rounded to 10 "
        "significant digits; arrays longer than "
        f"{FULL_ARRAY_MAX} entries as length, sha256, first, last, sum (issue #19).",
        "made_by": "python -m tests.snapshot",
        "commit": commit + (" (with uncommitted changes in ui/pages/cubecore)" if dirty else ""),
        "when": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "streamlit": st.__version__,
        "cases": len(views),
    }
    SNAPSHOT.parent.mkdir(exist_ok=True)
    text = json.dumps({"_meta": meta, "views": views}, indent=1, ensure_ascii=False)
    SNAPSHOT.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {len(views)} views, {len(text) / 1e6:.2f} MB, to {SNAPSHOT}", file=sys.stderr)


if __name__ == "__main__":
    main()
