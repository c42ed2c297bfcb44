"""The page registry: every file in pages/ with its title, URL path and section.

``app.py`` builds ``st.navigation`` from this list, and a test checks that every
file in ``pages/`` is registered here (Streamlit ignores unregistered files).

The registry is plain data at the bottom of the UI layer: it imports the standard
library and :mod:`ui.controls` (and :func:`link_query` the link writer of :mod:`ui.links`
when called); the skeleton, the router and the warm-up import it, never the other way
(``tests/test_layering.py`` checks that ``ui`` has no import cycle). A page's
declaration is reached by its package's name (:attr:`PageSpec.page`), on demand.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ui.controls import SECTION_KEY

if TYPE_CHECKING:  # for the annotations only: the skeleton imports this registry
    from ui.controls import Control
    from ui.skeleton import Page


@dataclass(frozen=True)
class PageSpec:
    """One page: its file, title, URL path (without slash), icon and section.

    ``package`` is the page's folder under ``ui`` (``ui.janowski``), whose ``PAGE``
    is the page's declaration (:class:`ui.skeleton.Page`): tests and benchmarks reach
    every page's controls, presets and sections through it.

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
    package: str
    default: bool = False

    @property
    def link_path(self) -> str:
        """The URL path the page is served at: "" for the default page (the app's root)."""
        return "" if self.default else self.url_path

    @property
    def page(self) -> Page | None:
        """The page's declaration (``None`` while the page is not yet on the skeleton)."""
        return getattr(importlib.import_module(self.package), "PAGE", None)

    @property
    def controls(self) -> tuple[Control, ...]:
        """Every control of the page, its section tabs included."""
        page = self.page
        if page is not None:
            return page.all_controls
        return tuple(importlib.import_module(self.package).CONTROLS)

    @property
    def presets(self) -> Mapping[str, Mapping[str, object]]:
        """Every preset of the page, its sections' included."""
        page = self.page
        if page is not None:
            return page.all_presets
        presets: Mapping[str, Mapping[str, object]] = importlib.import_module(self.package).PRESETS
        return presets


#: In the sidebar's order: where to start, then the pages a player brings a question to, the
#: classroom's, and the models last.
PAGES = (
    PageSpec(
        "pages/home.py",
        "Home: where to start",
        "home",
        ":material/home:",
        "Start",
        package="ui.home",
        default=True,
    ),
    PageSpec(
        "pages/cube.py",
        "Cube calculator",
        "cube",
        ":material/calculate:",
        "The real game",
        package="ui.cube",
    ),
    PageSpec(
        "pages/position.py",
        "Position analysis",
        "position",
        ":material/search:",
        "The real game",
        package="ui.position",
    ),
    PageSpec(
        "pages/rollouts.py",
        "Rollouts",
        "rollouts",
        ":material/casino:",
        "The real game",
        package="ui.rollouts",
    ),
    PageSpec(
        "pages/real_race.py",
        "Real races",
        "real_race",
        ":material/directions_run:",
        "The real game",
        package="ui.real_race",
    ),
    PageSpec(
        "pages/match.py",
        "Match play",
        "match",
        ":material/emoji_events:",
        "Rules & match play",
        package="ui.match",
    ),
    PageSpec(
        "pages/rules.py",
        "Cube rules",
        "rules",
        ":material/gavel:",
        "Rules & match play",
        package="ui.rules",
    ),
    PageSpec(
        "pages/classroom.py",
        "Classroom",
        "classroom",
        ":material/groups:",
        "Learn",
        package="ui.classroom",
    ),
    PageSpec(
        "pages/drills.py",
        "Drills",
        "drills",
        ":material/school:",
        "Learn",
        package="ui.drills",
    ),
    PageSpec(
        "pages/library.py",
        "Position library",
        "library",
        ":material/library_books:",
        "Learn",
        package="ui.library",
    ),
    PageSpec(
        "pages/janowski.py",
        "Janowski: cube life",
        "janowski",
        ":material/tune:",
        "Models",
        package="ui.janowski",
    ),
    PageSpec(
        "pages/keeler_spencer.py",
        "Keeler-Spencer: raising points",
        "keeler_spencer",
        ":material/trending_up:",
        "Models",
        package="ui.keeler_spencer",
    ),
    PageSpec(
        "pages/race.py",
        "Zadeh-Kobliska: the race",
        "race",
        ":material/sprint:",
        "Models",
        package="ui.race",
    ),
    PageSpec(
        "pages/giveup.py",
        "Woolsey: give-up points",
        "giveup",
        ":material/flag:",
        "Models",
        package="ui.giveup",
    ),
)


_ROOT = Path(__file__).resolve().parents[1]


@functools.cache
def link_path(page_file: str) -> str:
    """The URL path a page is served at ("" for the default page), from its file.

    Pages pass their ``__file__``, so that the registry stays the one place that
    names URL paths. Cached: every run of a page asks, and resolving the file's path
    reads the file system.
    """
    relative = Path(page_file).resolve().relative_to(_ROOT).as_posix()
    return next(spec for spec in PAGES if spec.file == relative).link_path


def link_query(page_file: str, values: Mapping[str, object]) -> dict[str, str]:
    """Query parameters of a link that opens ``page_file`` with ``values`` set.

    ``values["sec"]``, if given, names a section by its id (``"points"``): the link
    carries its tab title, so a renamed tab keeps its cards and glossary links. The
    values are handed over under ``~key`` (:func:`ui.links.handover`): Streamlit drops
    a parameter on the way to another page when the page left binds the same key.
    """
    from ui.links import handover  # streamlit's: the registry itself stays plain data

    spec = next(spec for spec in PAGES if spec.file == page_file)
    page = spec.page
    resolved = dict(values)
    if SECTION_KEY in resolved and page is not None:
        resolved[SECTION_KEY] = page.section(str(resolved[SECTION_KEY])).title
    return handover(resolved)
