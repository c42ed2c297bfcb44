"""Debian's Chromium driven by Playwright: its flags, and how a page's run is seen to end.

One place for what the browser tests (``tests/browser.py``, ``tests/test_browser_pages.py``)
and the suite's floor (:mod:`bench.suite_floor`) both need: the browser they launch, the
condition that a page has settled, and the wait for the run an action started.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from typing import Any

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

#: Flags the workplace notes require for headless Chromium as root on a closed network.
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    """Debian's Chromium, or None when it is not installed."""
    found = shutil.which("chromium")
    if found:
        return found
    return "/usr/bin/chromium" if os.access("/usr/bin/chromium", os.X_OK) else None


#: The app has finished a run (not merely not started one) and drawn it: its title is
#: on the page, the script state is "notRunning", no element is stale, and no element
#: is still a placeholder while its code loads (Streamlit loads widgets and charts
#: lazily and shows a skeleton meanwhile).
SETTLED = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return app !== null
    && app.getAttribute('data-test-script-state') === 'notRunning'
    && document.querySelector('[data-testid="stMainBlockContainer"] h1') !== null
    && document.querySelector('[data-testid="stSkeleton"]') === null
    && document.querySelector('[data-stale="true"]') === null;
}"""

#: How a run ended, as :func:`after_a_run` returns it: the page ran, or a fragment alone.
PAGE_RUN = ForwardMsg.FINISHED_SUCCESSFULLY
FRAGMENT_RUN = ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY


def run_finished(payload: str | bytes) -> bool:
    """A websocket frame from the server that ends a script run (not one cut short by a rerun)."""
    if isinstance(payload, str):
        return False
    message = ForwardMsg.FromString(payload)
    return message.WhichOneof("type") == "script_finished" and message.script_finished in (
        PAGE_RUN,
        FRAGMENT_RUN,
    )


def keep_stream(page: Any) -> None:
    """Remember ``page``'s Streamlit websocket (``page.cubelab_stream``) when it opens;
    call it before the page opens its websocket (before ``goto``)."""
    if getattr(page, "cubelab_watching", False):
        return
    page.cubelab_watching = True

    def opened(socket: Any) -> None:
        if socket.url.endswith("/_stcore/stream"):
            page.cubelab_stream = socket

    page.on("websocket", opened)


def after_a_run(page: Any, action: Callable[[], object], timeout_ms: float) -> int:
    """Do ``action`` (a click, a key), then wait until the run it started has finished
    and the page has settled; how it finished (:data:`PAGE_RUN` or :data:`FRAGMENT_RUN`).

    The sign is the server's own: the "script finished" message of that run on the app's
    websocket (:func:`keep_stream` must have seen it open). The page's script state alone
    misses a quick run (it can start and end within one frame, never showing "running"),
    and the address bar changes as soon as a bound widget moves, before its run."""
    with page.cubelab_stream.expect_event(
        "framereceived", predicate=run_finished, timeout=timeout_ms
    ) as finished:
        action()
    page.wait_for_function(SETTLED, timeout=timeout_ms)
    return int(ForwardMsg.FromString(finished.value).script_finished)


def go_to(page: Any, spec: Any, timeout_ms: float) -> None:
    """Follow the sidebar's link to ``spec``'s page (a :class:`ui.pages.PageSpec` on the
    skeleton); wait until its own view has settled.

    The condition is the page's title, not a run seen: a quick page change (its data
    cached) can start and end its run within one frame, and then the app's script state
    never shows "running" at all."""
    navigation = page.get_by_test_id("stSidebarNav")
    navigation.get_by_role("link", name=re.compile(re.escape(spec.title))).click()
    page.wait_for_function(
        "title => document.querySelector('[data-testid=\"stMainBlockContainer\"] h1')"
        "?.innerText.trim() === title",
        arg=spec.page.title,
        timeout=timeout_ms,
    )
    page.wait_for_function(SETTLED, timeout=timeout_ms)
