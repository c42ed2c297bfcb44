"""Take the README's three screenshots (docs/images/*.png) from a running app.

Usage: start the app (``make run``, or ``PORT=8599 make run``), then
``.venv/bin/python -m docs.screenshots [http://localhost:8501]``. Debian's Chromium,
headless, driven by Playwright as the browser tests drive it (``bench/browser.py``); each
shot is taken once the page has settled (no script running, no stale element).
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from bench.browser import CHROMIUM_ARGS, SETTLED, chromium_path

IMAGES = Path(__file__).resolve().parent / "images"
#: (file, link, viewport): what a visitor sees first, a decision, a class's projector.
SHOTS = (
    ("home.png", "/", (1280, 800)),
    ("cube.png", "/cube", (1280, 900)),
    ("janowski-presenter.png", "/janowski?present=true", (1280, 720)),
)
PATIENCE_MS = 180_000


def main(base: str) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        for name, link, (width, height) in SHOTS:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(base.rstrip("/") + link, timeout=PATIENCE_MS)
            page.wait_for_function(SETTLED, timeout=PATIENCE_MS)
            page.screenshot(path=IMAGES / name)
            page.close()
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://localhost:8501")
