"""The five places where the app relies on a third-party internal, guarded.

Each is here because no supported way does the same job (checked on Streamlit 1.67.0
and plotly 7.1.0; ``tests/test_internals.py`` fails loudly when an upgrade changes
either, and requirements pin both to the versions they were checked on):

1. :func:`leave_legacy_pages_mode`. Streamlit treats an entry point with a sibling
   ``pages/`` folder (which this project keeps) as a legacy multipage app until a
   session calls ``st.navigation``: the very first run of a fresh process that lands
   on ``/janowski`` runs ``pages/janowski.py`` without ``app.py``. ``st.navigation``
   itself sets the class flag ``PagesManager.uses_pages_directory`` to ``False``;
   the first page run does the same and reruns, so ``app.py`` routes every run.
   Supported alternatives tried: none keeps ``pages/`` beside ``app.py`` (the flag is
   read from the folder's existence when the first session starts).
2. :class:`PrevalidatedFigure`. ``st.plotly_chart`` validates a figure dict by
   building a ``go.Figure`` (two deep copies, 1-15 ms a chart on every rerun), but takes
   any ``plotly.basedatatypes.BaseFigure`` as validated and reads it back with
   ``to_dict()``. This subclass hands over the dict itself without running
   ``BaseFigure.__init__``. The figure builders' output is validated in the tests
   instead (``tests/test_figures_valid.py``).
3. :func:`refuse_cache_clearing`. Any websocket client can send Streamlit's
   ``clear_cache`` back message (the "Clear cache" menu item of development mode):
   every cache of every user goes, and two such messages a second tripled other
   users' p95 (issue #18). Streamlit handles it in
   ``AppSession._handle_clear_cache_request`` with no option to turn it off; outside
   development mode (``global.developmentMode``) the app replaces that handler with
   one that logs the request and clears nothing. Supported alternatives tried: none
   (``client.toolbarMode = "viewer"`` only hides the menu item).
4. :func:`guard_back_messages` (which installs 3 too). Streamlit 1.67 takes a rerun's
   widget states from any client as sent: a text value far past its box's
   ``max_chars`` (the browser's limit, not the server's) is kept in the session (a
   15 MB value: ~30 MB held per session, issue #38), and a widget id that is not one of
   Streamlit's ids (``$$ID-...``) is read as a Session State key that has no value:
   the run raises ``KeyError`` in Streamlit's own widget code and logs a traceback.
   ``AppSession.handle_backmsg`` is the one place every back message passes; the app
   wraps it: a rerun whose widget states exceed :data:`MAX_WIDGET_STATE_BYTES` is
   ignored (no browser sends one: its boxes stop at their ``max_chars``), and a state
   whose id is not a Streamlit widget id is dropped from the rerun; each logged once
   per session. A rerun then waits for its client address's budget of page runs
   (:mod:`ui.throttle`). Supported alternatives tried: the hidden
   option ``server.maxWidgetStateSize`` counts whole megabytes (1 MB at the least,
   eight times the app's largest) and does nothing about unknown ids.
5. :func:`not_cached_output`. An element a ``st.cache_data`` function draws is kept
   with its result and drawn again on every hit. A reader waiting inside one for the
   simulation slot is shown their place in the queue (``ui.simulation.queued``), which
   must not be replayed: Streamlit records only while its context variable
   ``in_cached_function`` is set, and the app clears it around that message.
   Supported alternatives tried: waiting outside the cached call would make cache hits
   wait for the slot too.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import streamlit as st
from plotly.basedatatypes import BaseFigure
from streamlit import config
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.runtime.app_session import AppSession
from streamlit.runtime.caching.cached_message_replay import in_cached_function
from streamlit.runtime.pages_manager import PagesManager
from streamlit.runtime.state.common import GENERATED_ELEMENT_ID_PREFIX

from ui import throttle

__all__ = [
    "CHECKED_VERSIONS",
    "MAX_WIDGET_STATE_BYTES",
    "PrevalidatedFigure",
    "guard_back_messages",
    "leave_legacy_pages_mode",
    "not_cached_output",
    "refuse_cache_clearing",
]

_log = logging.getLogger(__name__)

#: The versions these internals were checked on (and pinned to in requirements).
CHECKED_VERSIONS = {"streamlit": "1.67", "plotly": "7.1"}


def leave_legacy_pages_mode() -> None:
    """Rerun through ``app.py`` if this run was started by the legacy pages runner."""
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


# plotly ships neither type stubs nor a py.typed marker, so mypy sees BaseFigure as Any and
# (strict: disallow_subclassing_any) refuses a subclass of it: a third-party gap.
class PrevalidatedFigure(BaseFigure):  # type: ignore[misc]
    """A figure dict that ``st.plotly_chart`` takes as validated, without copies."""

    _spec: dict[str, Any]  # set in __init__ past BaseFigure's __setattr__

    def __init__(self, spec: dict[str, Any]) -> None:  # BaseFigure's set-up is what we skip
        object.__setattr__(self, "_spec", spec)

    def to_dict(self) -> dict[str, Any]:
        return self._spec


_streamlit_clear_cache = AppSession._handle_clear_cache_request


def _clear_cache_in_development_only(session: AppSession) -> None:
    """Streamlit's handler in development mode; elsewhere, log the request and refuse it."""
    if config.get_option("global.developmentMode"):
        _streamlit_clear_cache(session)
        return
    _log.warning("refused a clear_cache message from session %s", getattr(session, "id", "?"))


def refuse_cache_clearing() -> None:
    """Make a client's ``clear_cache`` message a no-op outside development mode (idempotent)."""
    # Replacing a Streamlit method is the point here (internal 3 above): mypy refuses any
    # assignment to a method (method-assign) and compares the plain function with the method
    # as if bound twice (assignment).
    AppSession._handle_clear_cache_request = _clear_cache_in_development_only  # type: ignore[method-assign,assignment]


#: Largest widget state a client may send with a rerun, in bytes (Streamlit's
#: ``WidgetStates`` protobuf, serialized). The app's largest legitimate one is the cube
#: page's evaluation box full (``max_chars=20_000``; at most 4 bytes a character in
#: UTF-8: 80,000 bytes) beside every other control of a page at its longest (each
#: under 200 bytes; ``tests/test_websocket_limits.py`` measures a full page's at
#: 81 KB); 128 KiB leaves room for that and no more. What a session can hold of its
#: client's bytes follows: this, once as the protobuf and once as the values read
#: from it.
MAX_WIDGET_STATE_BYTES = 128 * 1024
#: Session attribute marking what a session has already logged (one line per kind).
_LOGGED = "_cubelab_logged"
_streamlit_handle_backmsg = AppSession.handle_backmsg


def _log_once(session: AppSession, kind: str, message: str, *args: object) -> None:
    logged: set[str] = session.__dict__.setdefault(_LOGGED, set())
    if kind not in logged:
        logged.add(kind)
        _log.warning(message + " (logged once per session)", *args)


def _guarded_handle_backmsg(session: AppSession, msg: BackMsg) -> None:
    """Streamlit's handler, after the checks of internal 4 (module docstring)."""
    if msg.WhichOneof("type") == "rerun_script":
        states = msg.rerun_script.widget_states
        size = states.ByteSize()
        if size > MAX_WIDGET_STATE_BYTES:
            _log_once(
                session,
                "size",
                "ignored a rerun of session %s: widget states of %d bytes, above %d",
                getattr(session, "id", "?"),
                size,
                MAX_WIDGET_STATE_BYTES,
            )
            return
        unknown = [s.id for s in states.widgets if not s.id.startswith(GENERATED_ELEMENT_ID_PREFIX)]
        if unknown:
            _log_once(
                session,
                "unknown",
                "dropped %d unknown widget ids from a rerun of session %s (first: %.80r)",
                len(unknown),
                getattr(session, "id", "?"),
                unknown[0],
            )
            kept = [s for s in states.widgets if s.id.startswith(GENERATED_ELEMENT_ID_PREFIX)]
            del states.widgets[:]
            states.widgets.extend(kept)
        if not throttle.admit(session, msg, _streamlit_handle_backmsg):
            return  # it waits for its client's budget of page runs (ui.throttle)
    _streamlit_handle_backmsg(session, msg)


def guard_back_messages() -> None:
    """Check every back message before Streamlit handles it (internal 4, idempotent), and
    refuse cache clearing (:func:`refuse_cache_clearing`)."""
    refuse_cache_clearing()
    AppSession.handle_backmsg = _guarded_handle_backmsg  # type: ignore[method-assign,assignment]


@contextmanager
def not_cached_output() -> Iterator[None]:
    """Elements drawn inside are not kept with a cached function's result (internal 5)."""
    token = in_cached_function.set(False)
    try:
        yield
    finally:
        in_cached_function.reset(token)
