"""The visitor's identity token: one per browser, kept across reloads and app processes.

A token is 32 hexadecimal digits (:func:`store.new_student_id`), drawn on a visitor's
first visit and kept in a cookie (:data:`COOKIE`, one year, the whole site), so a reload
or another app process behind the same address reads it back
(``st.context.cookies``). It names the visitor to the store, which is the truth about
them: the classroom keeps a student per token and room and resumes the room of the
presenter who opened it; the drills keep a quiz's answers by it. It is not a password:
it only ties a browser to what it did. It never appears in a link; the drills' review
shows it, folded, as the student's key to paste on another device (issue #40).

Streamlit cannot set a cookie from Python; :func:`remember` writes it from the page
(a small script). Until the cookie has come back (the next page load), the token lives
in the session.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import streamlit as st

from store import new_student_id
from ui import clients

__all__ = ["COOKIE", "COOKIE_WRITER", "SESSION_KEY", "client_address", "remember", "token"]

#: The cookie that carries the token.
COOKIE = "cubelab_student"
#: How long the browser keeps it: a school year.
_KEEP_SECONDS = 365 * 24 * 3600
#: Where the session keeps the token (a test sets it to play a returning visitor).
SESSION_KEY = "_student_token"
_FORM = re.compile(r"[0-9a-f]{32}")
_WRITER = (
    "<script>document.cookie = '{cookie}={value}; path=/; max-age={seconds}; SameSite=Lax';"
    "</script>"
)
#: Exactly what :func:`remember` draws (a script whose one variable part is the token's
#: 32 hexadecimal digits): the link checks tell it from markup that came from a link.
COOKIE_WRITER = re.compile(
    re.escape(_WRITER.format(cookie=COOKIE, value="TOKEN", seconds=_KEEP_SECONDS)).replace(
        "TOKEN", "[0-9a-f]{32}"
    )
)


def token() -> str:
    """This visitor's identity token: the cookie's, the session's, or a fresh one."""
    state = st.session_state
    known = state.get(SESSION_KEY)
    if isinstance(known, str):
        return known
    kept = _cookie()
    state[SESSION_KEY] = kept if kept is not None else new_student_id()
    return str(state[SESSION_KEY])


def _cookie() -> str | None:
    try:
        value = st.context.cookies.get(COOKIE)
    except Exception:  # no browser behind this run (a test's script run)
        return None
    return value if isinstance(value, str) and _FORM.fullmatch(value) else None


def remember() -> None:
    """Make sure the browser keeps the token: write the cookie unless it came with the page."""
    value = token()
    if _cookie() == value:
        return
    st.html(
        _WRITER.format(cookie=COOKIE, value=value, seconds=_KEEP_SECONDS),
        unsafe_allow_javascript=True,
        width="content",
    )


def client_address() -> str:
    """The address the visitor's requests come from, for the per-client limits
    (:func:`ui.clients.client_address`: behind the app's nginx, the proxy's header).
    Streamlit gives no address for a peer on this host: that is a loopback peer."""
    context = st.context
    peer = getattr(context, "ip_address", None) or "127.0.0.1"
    headers: Mapping[str, str]
    try:
        headers = context.headers
    except Exception:  # outside a browser session (a script run without a connection)
        headers = {}
    return clients.client_address(str(peer), headers)
