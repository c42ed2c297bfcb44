"""``python -m bench.screenshots`` (``make screenshots``): every page of the registry as a
player sees it, in four views, as PNGs in ``test-artifacts/screenshots/``.

The views (issue #37): ``light`` at 1280x800, ``presenter`` (``?present=true``) at
1280x720, ``dark`` (``?theme=dark``) at 1280x800, and ``phone`` at 390x844 (a touch
screen). Each page opens on its first section (``--sections``: every section, each by its
link), and the shot is the first screen, what a visitor sees before scrolling (Streamlit
scrolls an inner container, so a "full page" shot is the first screen anyway). An
``index.html`` beside the shots shows them all on one page, a row per page.

``--readme`` instead takes the README's three pictures (:data:`README_SHOTS`) into
``docs/images/``.

One app server (:mod:`bench.server`, started as a deployment starts it) and one Debian
Chromium (:mod:`bench.browser`); every wait is on the page's own condition
(:data:`bench.browser.SETTLED`), never a fixed time. About two minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import html
import shutil
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from bench.browser import CHROMIUM_ARGS, SETTLED, chromium_path
from bench.server import ARTIFACTS, streamlit_servers

#: Where the shots go (a fresh folder each run; not in git).
SHOTS = ARTIFACTS / "screenshots"
#: Where the README's pictures live (in git).
README_IMAGES = Path(__file__).resolve().parents[1] / "docs" / "images"
#: The README's pictures: (file, link, viewport): what a visitor sees first, a decision,
#: a class's projector.
README_SHOTS = (
    ("home.png", "/", (1280, 800)),
    ("cube.png", "/cube", (1280, 900)),
    ("janowski-presenter.png", "/janowski?present=true", (1280, 720)),
)
#: How long one page may take to settle (ms) before the run stops with an error.
PATIENCE_MS = 120_000


@dataclass(frozen=True)
class ShotView:
    """One way of looking at the app: a name, the browser's screen and the link's flags."""

    name: str
    width: int
    height: int
    query: tuple[tuple[str, str], ...] = ()
    phone: bool = False


#: The four views of issue #37's acceptance. The dark view's link carries Streamlit's own
#: theme option beside ``theme=dark``, as the app's theme switch writes it
#: (:func:`ui.links.theme_script`), so that the page opens dark without reloading.
VIEWS = (
    ShotView("light", 1280, 800),
    ShotView("presenter", 1280, 720, (("present", "true"),)),
    ShotView("dark", 1280, 800, (("theme", "dark"), ("embed_options", "dark_theme"))),
    ShotView("phone", 390, 844, phone=True),
)


@dataclass(frozen=True)
class Shot:
    """One screenshot: the page's order in the registry, its path, section and view."""

    order: int
    url_path: str
    link_path: str
    title: str
    section: str | None
    view: ShotView

    @property
    def file(self) -> Path:
        section = f"-{self.section}" if self.section else ""
        return SHOTS / self.view.name / f"{self.order:02d}-{self.url_path}{section}.png"

    def url(self, base: str, section_title: str | None) -> str:
        query = [*self.view.query]
        if section_title is not None:
            query.insert(0, ("sec", section_title))
        return f"{base}/{self.link_path}" + (f"?{urlencode(query)}" if query else "")


def shots(every_section: bool) -> Iterator[tuple[Shot, str | None]]:
    """Every (shot, section title to link to) of the registry, view by view."""
    from ui.pages import PAGES

    for view in VIEWS:
        for order, spec in enumerate(PAGES, start=1):
            page = spec.page
            sections = page.sections if (every_section and page is not None) else ()
            if not sections:
                yield Shot(order, spec.url_path, spec.link_path, spec.title, None, view), None
                continue
            for index, section in enumerate(sections):
                title = None if index == 0 else section.title
                shot = Shot(order, spec.url_path, spec.link_path, spec.title, section.id, view)
                yield shot, title


def take(browser: Any, base: str, every_section: bool) -> list[Shot]:
    """Take every shot with one browser context per view; the shots taken."""
    taken: list[Shot] = []
    context = None
    current: ShotView | None = None
    try:
        for shot, section_title in shots(every_section):
            if shot.view is not current:
                if context is not None:
                    context.close()
                current = shot.view
                context = browser.new_context(
                    viewport={"width": current.width, "height": current.height},
                    is_mobile=current.phone,
                    has_touch=current.phone,
                )
                context.set_default_timeout(PATIENCE_MS)
                page = context.new_page()
            page.goto(shot.url(base, section_title))
            page.wait_for_function(SETTLED, timeout=PATIENCE_MS)
            # the charts draw after the run: wait until each one has its plot
            page.wait_for_function(
                "() => [...document.querySelectorAll('[data-testid=\"stPlotlyChart\"]')]"
                ".every(chart => chart.querySelector('.main-svg') !== null)",
                timeout=PATIENCE_MS,
            )
            shot.file.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(shot.file))
            taken.append(shot)
            print(f"{shot.view.name:9} {shot.file.relative_to(ARTIFACTS)}", file=sys.stderr)
    finally:
        if context is not None:
            context.close()
    return taken


def take_readme(browser: Any, base: str) -> list[Path]:
    """Take the README's pictures (:data:`README_SHOTS`); the files written."""
    written = []
    for name, link, (width, height) in README_SHOTS:
        context = browser.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(PATIENCE_MS)
        page = context.new_page()
        page.goto(base + link)
        page.wait_for_function(SETTLED, timeout=PATIENCE_MS)
        page.screenshot(path=str(README_IMAGES / name))
        context.close()
        written.append(README_IMAGES / name)
    return written


def _cell(shot: Shot | None) -> str:
    """A cell of the index: the shot, linked to itself at full size (empty without one)."""
    if shot is None:
        return "<td></td>"
    src = html.escape(shot.file.relative_to(SHOTS).as_posix())
    return f'<td><a href="{src}"><img src="{src}" loading="lazy"></a></td>'


def write_index(taken: list[Shot]) -> Path:
    """``index.html``: every shot on one page, a row per page and section, a column per view."""
    rows: dict[tuple[int, str | None], dict[str, Shot]] = {}
    for shot in taken:
        rows.setdefault((shot.order, shot.section), {})[shot.view.name] = shot
    head = "".join(f"<th>{html.escape(view.name)}</th>" for view in VIEWS)
    body = []
    for (_, section), by_view in sorted(rows.items(), key=lambda item: item[0][0]):
        first = next(iter(by_view.values()))
        name = first.title + (f" ({section})" if section else "")
        cells = "".join(_cell(by_view.get(view.name)) for view in VIEWS)
        body.append(f"<tr><th>{html.escape(name)}</th>{cells}</tr>")
    index = SHOTS / "index.html"
    index.write_text(
        "<!doctype html><meta charset='utf-8'><title>Cube Theory Lab: every page</title>"
        "<style>body{font-family:sans-serif}img{width:320px;border:1px solid #ccc}"
        "td,th{vertical-align:top;padding:4px;text-align:left}</style>"
        f"<table><tr><th>page</th>{head}</tr>{''.join(body)}</table>\n",
        encoding="utf-8",
    )
    return index


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.screenshots", description=__doc__)
    parser.add_argument(
        "--sections", action="store_true", help="every section of every page, not the first"
    )
    parser.add_argument(
        "--readme", action="store_true", help="the README's three pictures, into docs/images/"
    )
    args = parser.parse_args(argv)
    executable = chromium_path()
    if executable is None:
        print("Debian's chromium is not installed: run scripts/ensure-system.sh", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    if args.readme:
        with streamlit_servers(1, log_dir=ARTIFACTS) as servers, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            try:
                written = take_readme(browser, servers[0][0])
            finally:
                browser.close()
        print("\n".join(str(path) for path in written), file=sys.stderr)
        return 0
    if SHOTS.exists():
        shutil.rmtree(SHOTS)  # only this run's shots: a page removed leaves no old picture
    SHOTS.mkdir(parents=True)
    started = time.monotonic()
    with streamlit_servers(1, log_dir=ARTIFACTS) as servers, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            taken = take(browser, servers[0][0], args.sections)
        finally:
            browser.close()
    index = write_index(taken)
    print(
        f"{len(taken)} screenshots in {time.monotonic() - started:.0f} s: {index}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
