"""What ``app.py`` does for the process before routing: navigation mode and the heap.

:func:`ensure_navigation` keeps Streamlit in st.navigation mode even on a process's
very first run. Streamlit 1.67 treats an app whose entry point has a sibling
``pages/`` folder as a legacy (v1) multipage app until some session calls
``st.navigation``: the very first run of a fresh server process that lands on
``/janowski`` executes ``pages/janowski.py`` directly, without ``app.py`` (no
sections, no presenter toggle); on ``/`` it runs ``app.py`` nested inside a
generated v1 navigation, and widgets created in that run do not match those of
later runs (a preset clicked next has no effect). ``st.navigation`` itself switches
the process to v2 for good. ``app.py`` and every page call it before rendering
anything: in that one v1 run it switches the process to v2 the same way
``st.navigation`` does and reruns, so ``app.py`` routes every run.

:func:`navigation_pages` makes the navigation's ``st.Page`` objects once per session.

:func:`freeze_long_lived_heap` keeps garbage collection cheap under load.
"""

from __future__ import annotations

import gc
import math
import threading
import time
from typing import cast

import streamlit as st

from ui.internals import guard_back_messages, leave_legacy_pages_mode
from ui.pages import PAGES

#: Session State key of the session's navigation pages (:func:`navigation_pages`).
PAGES_KEY = "_router_pages"


def ensure_navigation() -> None:
    """Rerun through ``app.py`` if this page was started by the legacy v1 runner.

    Also, once per process in effect (it is idempotent), check the clients' back messages
    (:func:`ui.internals.guard_back_messages`: no cache clearing outside development
    mode, no oversized widget states, no unknown widget ids)."""
    guard_back_messages()
    leave_legacy_pages_mode()


def navigation_pages() -> dict[str, list[st.Page]]:
    """The registry (:data:`ui.pages.PAGES`) as ``st.Page`` objects by sidebar section,
    made on the session's first run and kept in its Session State.

    ``st.Page`` resolves its file's path on the disk (a ``realpath`` and a ``stat``, a
    dozen system calls) each time it is made; with eleven pages on every run, a loaded
    server spent ~5% of its samples there, each call giving up the GIL and waiting to get
    it back. The objects are a session's own: ``st.navigation`` marks the one it runs on
    it, so sessions do not share them.
    """
    pages = st.session_state.get(PAGES_KEY)
    if pages is None:
        pages = {}
        for spec in PAGES:
            pages.setdefault(spec.section, []).append(
                st.Page(
                    spec.file,
                    title=spec.title,
                    url_path=spec.url_path,
                    icon=spec.icon,
                    default=spec.default,
                )
            )
        st.session_state[PAGES_KEY] = pages
    return cast(dict[str, list[st.Page]], pages)


_heap_lock = threading.Lock()
#: Seconds between two rounds (unfreeze, collect everything, freeze what survives).
REFREEZE_SECONDS = 60.0
_frozen_at = -math.inf


def freeze_long_lived_heap() -> None:
    """Keep garbage collection cheap: freeze what lives long, collect it once a minute.

    With numpy, pandas, scipy and plotly loaded the heap holds ~155,000 long-lived
    objects, and a full collection walks them all: ~100 ms. Streamlit's default
    ran one after every script run (``runner.postScriptGC``, off in this app's
    config): most of the server's CPU under load. Instead, once every
    :data:`REFREEZE_SECONDS` this unfreezes, collects everything and
    ``gc.freeze()``-s what survives, so Python's own generational collections
    skip the long-lived objects, and anything frozen while alive (a session's
    state, a cache entry) is collected within a round of becoming garbage. The
    first run of a process does the first round. Called by ``app.py`` on every run.
    """
    global _frozen_at
    if not _heap_due():
        return
    with _heap_lock:
        if _heap_due():
            gc.unfreeze()
            gc.collect(2)
            gc.freeze()
            _frozen_at = time.monotonic()


def _heap_due() -> bool:
    return time.monotonic() - _frozen_at >= REFREEZE_SECONDS
