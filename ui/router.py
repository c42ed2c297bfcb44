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

:func:`freeze_long_lived_heap` keeps garbage collection cheap under load.
"""

from __future__ import annotations

import gc
import math
import sys
import threading
import time

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager


def ensure_navigation() -> None:
    """Rerun through ``app.py`` if this page was started by the legacy v1 runner."""
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


_heap_lock = threading.Lock()
#: Seconds between two re-freezes (a full collection of everything, then freeze).
REFREEZE_SECONDS = 60.0
_modules_when_frozen = 0
_frozen_at = -math.inf


def freeze_long_lived_heap() -> None:
    """Keep the full garbage collection after every run down to the recent objects.

    Streamlit runs ``gc.collect(2)`` after each script run (``runner.postScriptGC``)
    so that a session's garbage does not pile up. With numpy, pandas, scipy and
    plotly loaded, that pass walks ~155,000 long-lived objects: ~100 ms of CPU per
    rerun, most of the server's time under load. Whenever new modules have been
    imported (a page's first visit in this process), and otherwise every
    :data:`REFREEZE_SECONDS`, this collects everything once and ``gc.freeze()``-s
    what survives; the pass after each run then walks only the objects made since
    (well under a millisecond to a few). The periodic round also unfreezes first,
    so anything frozen while alive (a session's state, cache entries) is collected
    within a minute of becoming garbage. Called by ``app.py`` at the top of every run.
    """
    global _modules_when_frozen, _frozen_at
    if not _heap_due():
        return
    with _heap_lock:
        if _heap_due():
            gc.unfreeze()
            gc.collect(2)
            gc.freeze()
            _modules_when_frozen = len(sys.modules)
            _frozen_at = time.monotonic()


def _heap_due() -> bool:
    return (
        len(sys.modules) != _modules_when_frozen
        or time.monotonic() - _frozen_at >= REFREEZE_SECONDS
    )
