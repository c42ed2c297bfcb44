"""Shareable links: check the incoming query parameters, report what was ignored.

Streamlit binds each control to the URL (``bind="query-params"``) and silently
drops a value it cannot use. The app must not be silent: before the widgets are
created, :func:`check_link` validates every query parameter of the page against
the same :class:`~ui.controls.Control` specs the widgets are built from, and
:func:`show_notices` then says which value was ignored and which value is used
instead. Values from a URL are only ever shown as escaped, truncated plain text.
"""

from __future__ import annotations

import contextlib
import html
import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import quote, urlencode

import streamlit as st
from streamlit.errors import StreamlitAPIException

from ui.controls import APP_CONTROLS, Control

#: Prefix of a parameter handed from one page to another (see :func:`apply_aliases`).
HANDOVER = "~"
#: Query parameters Streamlit reserves for itself.
_RESERVED = frozenset({"embed", "embed_options"})
_SHOWN_CHARACTERS = 40
#: A problem keeps no more of the link's value than a notice can show (a link may carry
#: half a megabyte; the session must not keep it).
_KEPT_CHARACTERS = 160
_SHOWN_UNKNOWN = 5
#: Longest query string a link may carry, in bytes as sent (percent-encoded): the
#: longest link the app writes is about 1.5 KiB (20 library positions as XGIDs for the
#: Rollouts page's box; a full box of 2,000 characters is at most 6 KiB percent-encoded).
#: A longer link is refused as a whole,
#: with a notice, and the page opens at its defaults (README, "Links").
MAX_LINK_BYTES = 8 * 1024
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:&=\"'])")
#: Where Markdown could still find a link or an icon once the escapes are read:
#: GitHub's autolinks (``scheme://``, ``www.``, ``name@host``) and Streamlit's
#: ``:material/...:`` icons, ``:red[...]`` directives and ``:emoji:`` shortcodes. A
#: word joiner (invisible, zero width) goes there: after the ``:`` of ``://``, of
#: ``:name/``, ``:name[`` and ``:name:``, after an ``@`` before a name, and between
#: ``www`` and its dot. Elsewhere the text is unchanged (``1/2``, ``MET: you``).
_LINK_BREAK = re.compile(
    r"(?<=:)(?=(\\?/){2})"
    r"|(?<=:)(?=(\\?[\w+-])+(\\?[/\[]|\\:))"
    r"|(?<=@)(?=\w)"
    r"|(?i:(?<=www)(?=\\\.))"
)
_WORD_JOINER = "\N{WORD JOINER}"
#: Session State flag: this run's link was refused (:func:`refuse_long_link`).
REFUSED = "_link_refused"


@dataclass(frozen=True)
class LinkProblem:
    """One ignored query parameter (its value cut to what a notice shows)."""

    key: str
    raw: str
    reason: str

    def __post_init__(self) -> None:
        if len(self.raw) > _KEPT_CHARACTERS:
            object.__setattr__(self, "raw", self.raw[:_KEPT_CHARACTERS])


def escape_text(raw: str, limit: int = _SHOWN_CHARACTERS) -> str:
    """Render an untrusted string as inert markdown text: truncated, every special escaped."""
    printable = "".join(ch if ch.isprintable() else "\N{REPLACEMENT CHARACTER}" for ch in raw)
    if len(printable) > limit:
        printable = printable[:limit] + "\N{HORIZONTAL ELLIPSIS}"
    return _LINK_BREAK.sub(_WORD_JOINER, _MARKDOWN_SPECIAL.sub(r"\\\1", printable))


def read_link() -> dict[str, list[str]]:
    """Every query parameter with all its values, as the link gave them."""
    return {key: st.query_params.get_all(key) for key in st.query_params}


#: Digits a number in a link may be written with: Python (and Streamlit) read any
#: Unicode decimal digit, so ``٣`` and ``５`` would silently be 3 and 5.
_ASCII_DIGITS = frozenset("0123456789")


def _parse(control: Control, raw: str) -> tuple[object, str | None]:
    """``control.parse(raw)``, refusing a number written with digits other than 0-9."""
    parsed, reason = control.parse(raw)
    foreign = any(ch.isdigit() and ch not in _ASCII_DIGITS for ch in raw)
    if reason is None and control.kind in ("float", "int") and foreign:
        return None, "written with digits other than 0 to 9"
    return parsed, reason


def find_problems(
    link: dict[str, list[str]],
    controls: tuple[Control, ...],
    used: dict[str, object],
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
        parsed, reason = _parse(control, raw)
        if reason is None and len(values) > 1:
            # Streamlit takes the last value of a toggle, a choice or the tabs and drops
            # a slider's: either way the link said two things, and the page says so
            reason = "given more than once"
        if reason is None and key in used and used[key] != parsed:
            if control.requires is not None and not control.active(used):
                needed_key, needed_value = control.requires
                shown_value = (
                    known[needed_key].format(needed_value) if needed_key in known else needed_value
                )
                reason = f"used only with {needed_key}={shown_value}"
            else:
                reason = "not accepted by the control"
        if reason is not None:
            problems.append(LinkProblem(key, shown, reason))
    if unknown:
        shown = ", ".join(unknown[:_SHOWN_UNKNOWN])
        more = f" and {len(unknown) - _SHOWN_UNKNOWN} more" if len(unknown) > _SHOWN_UNKNOWN else ""
        problems.append(LinkProblem("", shown + more, "unknown parameter"))
    return problems


def notice_text(problem: LinkProblem, used: str | None) -> str:
    """The plain-text notice for one problem (markdown-escaped)."""
    if not problem.key and not problem.raw:
        return f"Ignored the whole link ({escape_text(problem.reason, 80)}); using the defaults."
    if not problem.key:
        return f"Ignored unknown link parameter(s): {escape_text(problem.raw, 120)}."
    return (
        f"Link parameter **{problem.key}**: ignored {escape_text(problem.raw)} "
        f"({escape_text(problem.reason, 80)}); using {escape_text(used) if used else 'none'}."
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


def apply_aliases(
    controls: tuple[Control, ...],
    old_keys: Mapping[str, str],
    old_values: Mapping[str, Mapping[str, str]],
) -> tuple[list[LinkProblem], list[str]]:
    """Rewrite renamed link parameters to today's names, before any widget exists.

    A parameter under an old key (``jsec``, ``eff``) moves to today's key (``sec``,
    ``x``), an old value (an old section title, an option written before its label)
    to today's value; the control then takes it from Session State and the address
    bar gets today's names. Returns the problems to report (an old name whose value
    the control cannot use, or an old name given beside today's) and the keys whose
    value was respelt under the same name. A bound widget seeds itself from the link
    as the run's request carried it, and drops a value it does not know from the
    address bar: the skeleton reruns before any widget exists when a value was
    respelt, so that the widgets read today's spelling.

    Every control also answers to its key with :data:`HANDOVER` in front (``~sec``,
    ``~x``): the name links from one page to another use (:func:`handover`).
    Streamlit drops a link's parameter on the way to another page when the page being
    left binds a control of the same name (every page binds ``sec``), so a card on the
    home page that opened ``/match?sec=Take+points`` arrived without its section.
    """
    by_key = {control.key: control for control in controls}
    problems: list[LinkProblem] = []
    respelt: list[str] = []
    handed = {HANDOVER + control.key: control.key for control in controls}
    renamed = {**old_keys, **handed}
    # a key that kept its name but whose value was renamed (an old section title)
    renamed.update({key: key for key in old_values if key in by_key})
    for old, new in renamed.items():
        if old not in st.query_params:
            continue
        raws = st.query_params.get_all(old)
        raw = raws[-1] if raws else ""
        if old == new and raw not in old_values.get(new, {}):
            continue  # today's name with today's value: nothing to rewrite
        if old != new:
            del st.query_params[old]
            if new in st.query_params:
                problems.append(LinkProblem(new, raw, f"old name {old} given beside {new}"))
                continue
        raw = old_values.get(new, {}).get(raw, raw)
        parsed, reason = by_key[new].parse(raw)
        if reason is None and len(raws) > 1:
            reason = f"given more than once (old name {old})"
        if reason is not None:
            problems.append(LinkProblem(new, raw, reason))
            continue
        if old == new:
            respelt.append(new)
        st.session_state[new] = parsed
        write_link(new, by_key[new].format(parsed))
    return problems, respelt


def write_link(key: str, value: str) -> None:
    """Put today's name and value in the address bar (the widget then binds to it).

    Without this the view was right but the address bar lacked the rewritten value
    until the reader moved that control, so a copied link opened another view. A key
    that Streamlit already binds to a widget of this session cannot be written: its
    widget writes the address bar itself.
    """
    with contextlib.suppress(StreamlitAPIException):
        st.query_params[key] = value


def corrections(controls: tuple[Control, ...]) -> dict[str, tuple[LinkProblem, object]]:
    """Link values a widget takes as they are but the page cannot: key -> (problem, value).

    A slider takes a value between its steps as it is: without this a link's
    ``x=0.123`` was shown as 0.12 and computed with 0.123; it moves to the nearest
    step. A slider's value the check refuses goes to the default (Streamlit read
    ``0.7_5`` as 0.75 while the notice said it was ignored). A text box takes any
    text: a value that does not pass the control's check (a position ID of 52
    checkers) falls back to the default. A dependent control whose
    requirement the link does not meet keeps its default. The skeleton sets the value
    for the next run (:func:`ui.skeleton.run_page`) and the notice says so.
    """
    found: dict[str, tuple[LinkProblem, object]] = {}
    by_key = {control.key: control for control in controls}

    def arriving(key: str) -> object:
        """The value a control will take on this run: the link's if valid, else its own."""
        control = by_key[key]
        if key in st.query_params:
            parsed, reason = _parse(control, st.query_params.get_all(key)[-1])
            if reason is None:
                return parsed
        return st.session_state.get(key, control.default)

    for control in controls:
        if control.key not in st.query_params:
            continue
        raw = st.query_params.get_all(control.key)[-1]
        parsed, reason = _parse(control, raw)
        needed = control.requires
        if reason is None and needed is not None and arriving(needed[0]) != needed[1]:
            # a dependent control is kept at its default while it does nothing
            shown = by_key[needed[0]].format(needed[1]) if needed[0] in by_key else needed[1]
            problem = LinkProblem(control.key, raw, f"used only with {needed[0]}={shown}")
            found[control.key] = (problem, control.default)
            continue
        if control.kind not in ("float", "int", "number", "text"):
            continue
        if control.kind == "text":
            if reason is not None:
                found[control.key] = (LinkProblem(control.key, raw, reason), control.default)
            continue
        if reason is not None:
            # Streamlit reads some values this check refuses (``0.7_5`` as 0.75, ``٣`` as
            # 3): the control is set to its default, as the notice says
            found[control.key] = (LinkProblem(control.key, raw, reason), control.default)
            continue
        if not isinstance(parsed, (int, float)):
            continue
        snapped = control.snap(float(parsed))
        if abs(snapped - parsed) > 1e-9 * max(1.0, abs(parsed)):
            where = "slider" if control.is_slider else "box"
            reason = f"between the {where}'s steps of {control.format(control.step)}"
            found[control.key] = (LinkProblem(control.key, raw, reason), snapped)
    return found


def link_bytes() -> int:
    """Size of the link's query string as sent (percent-encoded), in bytes."""
    pairs = [(key, value) for key in st.query_params for value in st.query_params.get_all(key)]
    return len(urlencode(pairs))


def refuse_long_link() -> None:
    """Drop a link above :data:`MAX_LINK_BYTES` as a whole, before any control reads it.

    The page opens at its defaults and names the refusal at the top (with the app-wide
    flags' problems, :func:`check_app_flags`); nothing of the link is kept.
    """
    size = link_bytes()
    if size <= MAX_LINK_BYTES:
        return
    st.query_params.clear()
    reason = f"its query string has {size:,} bytes, above the limit of {MAX_LINK_BYTES:,}"
    st.session_state["_app_link_problems"] = [LinkProblem("", "", reason)]
    for control in APP_CONTROLS:
        st.session_state[control.key] = control.default
    # Streamlit seeds the page's bound widgets from the link as it arrived: the page
    # sets them to their defaults for the next run (ui.skeleton.run_page)
    st.session_state[REFUSED] = True


def check_app_flags() -> None:
    """Check the app-wide flags of a link as it arrives, before ``app.py`` binds them.

    Streamlit drops a value it cannot use for a bound control without a word
    (``?present=yes``); the problem is kept here and named by the page's notices.
    """
    if "_app_link_problems" in st.session_state:
        return
    flags = {control.key: st.query_params.get_all(control.key) for control in APP_CONTROLS}
    st.session_state["_app_link_problems"] = find_problems(
        {key: values for key, values in flags.items() if values}, (), {}
    )


def handover(values: Mapping[str, object]) -> dict[str, str]:
    """Query parameters for a link to another page that sets ``values`` there.

    Each key gets :data:`HANDOVER` in front: see :func:`apply_aliases`. Values are
    written as a link writes them (``True`` as ``true``).
    """

    def text(value: object) -> str:
        return ("true" if value else "false") if isinstance(value, bool) else str(value)

    return {HANDOVER + key: text(value) for key, value in values.items()}


_NOTICES = "_link_notices"
#: Session State: the page whose notices the last full run showed, and their keys.
_SHOWN_NOTICES = "_link_notices_shown"


def report(
    page_path: str,
    controls: tuple[Control, ...],
    arrived: dict[str, list[str]],
    values: Mapping[str, object],
    *,
    entering: bool,
    renamed: list[LinkProblem],
) -> None:
    """Name every value from outside that the page could not use, at the top of the page.

    A link is checked once, as it arrives on the page (``entering``): after that the
    browser writes the address bar from the controls, so clicks (presets, tabs, a
    walkthrough step) never raise a notice. A notice stays until its control is moved.
    Unknown parameters are named and removed from the address bar.
    """
    store = st.session_state.setdefault(_NOTICES, {})
    if entering:
        used = _used(values)
        problems = renamed + st.session_state.pop("_app_link_problems", [])
        named = {problem.key for problem in problems}
        problems += [p for p in find_problems(arrived, controls, used) if p.key not in named]
        known = {control.key for control in (*controls, *APP_CONTROLS)}
        for key in arrived:
            if key not in known and key.lower() not in _RESERVED:
                del st.query_params[key]
        store[page_path] = (problems, used)
    standing = _standing(page_path, controls, values)
    st.session_state[_SHOWN_NOTICES] = (page_path, [p.key for p in standing])
    show_notices(standing, controls)


def notices_changed(
    page_path: str, controls: tuple[Control, ...], values: Mapping[str, object]
) -> bool:
    """Whether the notices standing at ``values`` differ from those the page shows (a
    part of the page that reruns alone, a fragment, moved a noticed control: the page
    must run again to take the notice away)."""
    shown: tuple[str, list[str]] | None = st.session_state.get(_SHOWN_NOTICES)
    if shown is None or shown[0] != page_path:
        return False
    return [p.key for p in _standing(page_path, controls, values)] != shown[1]


def _used(values: Mapping[str, object]) -> dict[str, object]:
    """The run's values with the app-wide controls' (presenter mode)."""
    return {**values, **{c.key: st.session_state.get(c.key, c.default) for c in APP_CONTROLS}}


def _standing(
    page_path: str, controls: tuple[Control, ...], values: Mapping[str, object]
) -> list[LinkProblem]:
    """The page's link problems whose control nobody has moved since the link arrived."""
    problems, at_arrival = st.session_state.get(_NOTICES, {}).get(page_path, ([], {}))
    used = _used(values)
    by_key = {control.key: control for control in controls}

    def resting(key: str) -> bool:
        """Whether the reader has not moved ``key`` since the link arrived."""
        control = by_key.get(key)
        needed = control.requires if control is not None else None
        if needed is not None and used.get(needed[0]) != needed[1]:
            return True  # disabled while its requirement is unmet: nobody moved it
        return bool(used.get(key) == at_arrival.get(key))

    return [p for p in problems if not p.key or resting(p.key)]


def share_query(controls: tuple[Control, ...], values: dict[str, object]) -> str:
    """Query string of the current view: every value that differs from its default."""
    parts = []
    for control in (*controls, *APP_CONTROLS):
        value = values.get(control.key, st.session_state.get(control.key, control.default))
        if value != control.default:
            parts.append(f"{control.key}={quote(control.format(value), safe='')}")
    return "&".join(parts)


#: Streamlit's own link option that opens the app in one of its themes
#: (``?embed_options=light_theme`` or ``dark_theme``; Streamlit 1.67's frontend reads it
#: whether or not the app is embedded, takes the theme from ``[theme.light]`` or
#: ``[theme.dark]`` of the config, and leaves it out of ``st.query_params``).
THEME_OPTION = "embed_options"
#: The themes a reader can switch to, and their values of :data:`THEME_OPTION`.
THEME_VALUES = {"Light": "light_theme", "Dark": "dark_theme"}


def theme_query(theme: str) -> str:
    """The link parameters that open a page in ``theme`` (a key of :data:`THEME_VALUES`):
    the app's own control (``theme=dark``; light is its default and is left out) and
    Streamlit's option, so that the page opens in it without reloading
    (:func:`theme_script`)."""
    option = f"{THEME_OPTION}={THEME_VALUES[theme]}"
    return option if theme == "Light" else f"theme={theme.lower()}&{option}"


def theme_link(link: str, theme: str) -> str:
    """``link`` opened in ``theme`` (a key of :data:`THEME_VALUES`), whatever theme it
    named before."""
    path, _, query = link.partition("?")
    kept = [
        part
        for part in query.split("&")
        if part and part.partition("=")[0] not in ("theme", THEME_OPTION)
    ]
    return f"{path}?{'&'.join([*kept, theme_query(theme)])}"


#: Session Storage key of the last theme the page reloaded into (:func:`theme_script`).
_THEME_RELOADED = "cubelab-theme-reloaded"


def theme_script(theme: str) -> str:
    """HTML: a script that opens the page in ``theme`` ("light" or "dark", the app-wide
    control ``theme``) when the browser shows the other one.

    Streamlit 1.67 takes a link's theme from :data:`THEME_OPTION` as the page loads, and
    a running app cannot change it: the script reloads the page once, with the option
    that matches the control (the address bar keeps ``theme``). Light, the app's own
    theme, needs a reload only away from a dark option. A reload is done at most once
    per address (Session Storage), so a browser that kept another theme is never caught
    in a loop of reloads.

    A link that opens the page naming no theme but carrying Streamlit's dark option (a
    link shared before the app had its own control, or written by hand) stays dark: the
    page reloads once with ``theme=dark`` added, so that the control and the address bar
    say what is shown. Only as the page loads: a reader who then chooses light (the
    control's default, which leaves the link) is taken to light.
    """
    wanted = THEME_VALUES[theme.capitalize()]
    dark = THEME_VALUES["Dark"]
    return (
        "<script>(() => {"
        f"const wanted = {wanted!r}; const key = {_THEME_RELOADED!r};"
        "const url = new URL(window.location.href);"
        f"const shown = url.searchParams.get({THEME_OPTION!r});"
        "const loaded = window.cubeLabThemeLoaded === true; window.cubeLabThemeLoaded = true;"
        "if (shown === wanted || (wanted === 'light_theme' && shown === null)) return;"
        f"if (!loaded && shown === {dark!r} && !url.searchParams.has('theme')) "
        "url.searchParams.set('theme', 'dark');"
        f"else url.searchParams.set({THEME_OPTION!r}, wanted);"
        "if (window.sessionStorage.getItem(key) === url.href) return;"
        "window.sessionStorage.setItem(key, url.href);"
        "window.location.replace(url.href);"
        "})();</script>"
    )


def theme_switch(link: str) -> str:
    """HTML: a link per theme to this view (``link``), opened in the same tab."""
    anchors = [
        f'<a href="{html.escape(theme_link(link, theme))}" target="_self">{theme}</a>'
        for theme in THEME_VALUES
    ]
    return "Theme: " + " · ".join(anchors)


def share_link(page_path: str, controls: tuple[Control, ...], values: dict[str, object]) -> str:
    """Absolute link to the current view when the server URL is known, else a relative one."""
    query = share_query(controls, values)
    base = ""
    url = getattr(st.context, "url", None)
    if url:
        origin = re.match(r"^(https?://[^/?#]+)", str(url))
        base = origin.group(1) if origin else ""
    return f"{base}/{page_path}" + (f"?{query}" if query else "")
