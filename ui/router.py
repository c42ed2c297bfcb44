"""Keep Streamlit in st.navigation mode even on a process's very first run.

Streamlit 1.67 treats an app whose entry point has a sibling ``pages/`` folder as
a legacy (v1) multipage app until some session calls ``st.navigation``: the very
first run of a fresh server process that lands on ``/janowski`` executes
``pages/janowski.py`` directly, without ``app.py`` (no sections, no presenter
toggle); on ``/`` it runs ``app.py`` nested inside a generated v1 navigation, and
widgets created in that run do not match those of later runs (a preset clicked
next has no effect). ``st.navigation`` itself switches the process to v2 for
good. ``app.py`` and every page call :func:`ensure_navigation` before rendering
anything: in that one v1 run it switches the process to v2 the same way
``st.navigation`` does and reruns, so ``app.py`` routes every run.
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager


def ensure_navigation() -> None:
    """Rerun through ``app.py`` if this page was started by the legacy v1 runner."""
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()
