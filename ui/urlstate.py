"""Shareable links: check the incoming query parameters, report what was ignored.

Streamlit binds each control to the URL (``bind="query-params"``) and silently
drops a value it cannot use. The app must not be silent: before the widgets are
created, :func:`check_link` validates every query parameter of the page against
the same :class:`~ui.settings.Control` specs the widgets are built from, and
:func:`show_notices` then says which value was ignored and which value is used
instead. Values from a URL are only ever shown as escaped, truncated plain text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import streamlit as st

from ui.settings import APP_CONTROLS, Control

#: Query parameters Streamlit reserves for itself.
_RESERVED = frozenset({"embed", "embed_options"})
_SHOWN_CHARACTERS = 40
_SHOWN_UNKNOWN = 5
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:&=\"'])")


@dataclass(frozen=True)
class LinkProblem:
    """One ignored query parameter."""

    key: str
    raw: str
    reason: str


def escape_text(raw: str, limit: int = _SHOWN_CHARACTERS) -> str:
    """Render an untrusted string as inert markdown text: truncated, every special escaped."""
    printable = "".join(ch if ch.isprintable() else "\N{REPLACEMENT CHARACTER}" for ch in raw)
    if len(printable) > limit:
        printable = printable[:limit] + "\N{HORIZONTAL ELLIPSIS}"
    return _MARKDOWN_SPECIAL.sub(r"\\\1", printable)


def read_link() -> dict[str, list[str]]:
    """Every query parameter with all its values, as the link gave them."""
    return {key: st.query_params.get_all(key) for key in st.query_params}


def find_problems(
    link: dict[str, list[str]],
    controls: tuple[Control, ...],
    used: dict[str, Any],
) -> list[LinkProblem]:
    """Compare the link with the values the controls actually took.

    A parameter is reported when its value is invalid for the control's spec, or
    when the control did not take it (Streamlit drops some values silently, e.g. a
    repeated key): the report never depends on guessing Streamlit's parser alone.
    """
    known = {control.key: control for control in (*controls, *APP_CONTROLS)}
    problems: list[LinkProblem] = []
    unknown: list[str] = []
    for key, values in link.items():
        if key.lower() in _RESERVED:
            continue
        control = known.get(key)
        if control is None:
            unknown.append(key)
            continue
        raw = values[-1] if values else ""
        shown = " / ".join(values) if len(values) > 1 else raw
        parsed, reason = control.parse(raw)
        if reason is None and key in used and used[key] != parsed:
            reason = "given more than once" if len(values) > 1 else "not accepted by the control"
        if reason is not None:
            problems.append(LinkProblem(key, shown, reason))
    if unknown:
        shown = ", ".join(unknown[:_SHOWN_UNKNOWN])
        more = f" and {len(unknown) - _SHOWN_UNKNOWN} more" if len(unknown) > _SHOWN_UNKNOWN else ""
        problems.append(LinkProblem("", shown + more, "unknown parameter"))
    return problems


def notice_text(problem: LinkProblem, used: str | None) -> str:
    """The plain-text notice for one problem (markdown-escaped)."""
    if not problem.key:
        return f"Ignored unknown link parameter(s): {escape_text(problem.raw, 120)}."
    return (
        f"Link parameter **{problem.key}**: ignored {escape_text(problem.raw)} "
        f"({escape_text(problem.reason, 80)}); using {escape_text(used or '')}."
    )


def show_notices(problems: list[LinkProblem], controls: tuple[Control, ...]) -> None:
    """Show one warning per ignored parameter, with the value used instead."""
    by_key = {control.key: control for control in (*controls, *APP_CONTROLS)}
    for problem in problems:
        control = by_key.get(problem.key)
        used = None
        if control is not None:
            used = control.format(st.session_state.get(control.key, control.default))
        st.warning(notice_text(problem, used), icon=":material/link_off:")


def share_query(controls: tuple[Control, ...], values: dict[str, Any]) -> str:
    """Query string of the current view: every value that differs from its default."""
    parts = []
    for control in (*controls, *APP_CONTROLS):
        value = values.get(control.key, st.session_state.get(control.key, control.default))
        if value != control.default:
            parts.append(f"{control.key}={quote(control.format(value), safe='')}")
    return "&".join(parts)


def share_link(page_path: str, controls: tuple[Control, ...], values: dict[str, Any]) -> str:
    """Absolute link to the current view when the server URL is known, else a relative one."""
    query = share_query(controls, values)
    base = ""
    url = getattr(st.context, "url", None)
    if url:
        origin = re.match(r"^(https?://[^/?#]+)", str(url))
        base = origin.group(1) if origin else ""
    return f"{base}/{page_path}" + (f"?{query}" if query else "")
