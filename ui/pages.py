"""The page registry: every file in pages/ with its title, URL path and section.

``app.py`` builds ``st.navigation`` from this list, and a test checks that every
file in ``pages/`` is registered here (Streamlit ignores unregistered files).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class PageSpec:
    """One page: its file, title, URL path (without slash), icon and section.

    ``settings`` names the page's module under ``ui.settings`` (its ``CONTROLS``
    tuple and ``PRESETS`` dict), so that tests and benchmarks can reach every
    page's controls.

    ``url_path`` is the file's stem: the very first run of a fresh server is in
    Streamlit's legacy ``pages/`` mode, which knows a page only by its file name;
    with the same name, :func:`ui.router.ensure_navigation` lands on the page the
    link asked for.
    """

    file: str
    title: str
    url_path: str
    icon: str
    section: str
    settings: str | None = None
    default: bool = False


PAGES = (
    PageSpec(
        "pages/home.py",
        "Home: the model atlas",
        "home",
        ":material/home:",
        "Overview",
        settings="home",
        default=True,
    ),
    PageSpec(
        "pages/janowski.py",
        "Janowski: cube life",
        "janowski",
        ":material/tune:",
        "Models",
        settings="janowski",
    ),
    PageSpec(
        "pages/keeler_spencer.py",
        "Keeler-Spencer: raising points",
        "keeler_spencer",
        ":material/trending_up:",
        "Models",
        settings="keeler_spencer",
    ),
    PageSpec(
        "pages/race.py",
        "Zadeh-Kobliska: the race",
        "race",
        ":material/sprint:",
        "Models",
        settings="race",
    ),
    PageSpec(
        "pages/giveup.py",
        "Woolsey: give-up points",
        "giveup",
        ":material/flag:",
        "Models",
        settings="giveup",
    ),
    PageSpec(
        "pages/rules.py",
        "Cube rules",
        "rules",
        ":material/gavel:",
        "Rules & match play",
        settings="rules",
    ),
    PageSpec(
        "pages/match.py",
        "Match play",
        "match",
        ":material/emoji_events:",
        "Rules & match play",
        settings="match",
    ),
)


_ROOT = Path(__file__).resolve().parents[1]


def link_path(page_file: str) -> str:
    """The URL path a page is served at ("" for the default page), from its file.

    Pages pass their ``__file__``, so that the registry stays the one place that
    names URL paths.
    """
    relative = Path(page_file).resolve().relative_to(_ROOT).as_posix()
    spec = next(spec for spec in PAGES if spec.file == relative)
    return "" if spec.default else spec.url_path
