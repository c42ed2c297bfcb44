"""The board editor of the position page: set up a position by clicking the board.

:func:`edit_position` draws the board (:func:`ui.board.board_figure` with its click
targets) and a few controls: whose checkers a click places, whether it adds or removes
one, and buttons for an empty board, the starting position and swapping who is on roll.
A click on a point adds or removes a checker there, on the bar one on the bar, on a tray
bears one off (from the side's lowest point). Each edit is handed to the caller
(``on_edit``), who keeps the position: on the page, the link's Position ID
(:func:`render_editor`), so that the address bar follows every edit. The cube and the
score belong to the page.

A click comes back as Streamlit's plotly selection event (``on_select``). Its callback
applies the edit (:func:`apply_click`, pure) and gives the chart a new key, so that the
next click, even on the same point, is a new event. An illegal edit (a sixteenth
checker, a point the other side holds, a checker that is not there) changes nothing and
shows a message saying why: an illegal position never leaves the editor.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import streamlit as st

from cubecore.position import CHECKERS, POINTS, Position, position_id
from ui import widgets
from ui.board import CLICK_TARGETS, CubeOwner, Place, board_figure, place_at
from ui.internals import PrevalidatedFigure
from ui.position import controls, sections
from ui.skeleton import View
from ui.style import (
    Figure,
    chart_summary,
    fitting_title,
    plotly_config,
    themed_figure,
    with_export_note,
)

__all__ = [
    "EMPTY",
    "SIDES",
    "START",
    "apply_click",
    "describe",
    "edit_position",
    "render_editor",
]

_START_POINTS = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2,)
#: The starting position.
START = Position(_START_POINTS, _START_POINTS)
#: A board with every checker borne off, to set a position up from nothing.
EMPTY = Position((0,) * POINTS, (0,) * POINTS)
#: Whose checkers a click places: the player on roll (drawn light, at the bottom) or his
#: opponent.
SIDES = ("player", "opponent")
_SIDE_NAMES = {"player": "the player on roll", "opponent": "the opponent"}
_SIDE_LABELS = {"player": "Player on roll (light)", "opponent": "Opponent (dark)"}
_MODES = ("add", "remove")
_MODE_LABELS = {"add": "Adds a checker", "remove": "Removes a checker"}
#: The stem of the board's PNG file name (the view's parameters follow it).
_FILENAME = "position_setup"


def apply_click(position: Position, place: Place, side: str, add: bool) -> Position:
    """The position after a click on ``place`` for ``side`` (``"player"``: the player on
    roll, ``"opponent"``), adding a checker or removing one.

    Points are numbered as the board shows them (the player on roll's numbers). A click
    on the tray bears off one of the side's checkers from its lowest point.

    Raises ``ValueError`` with a sentence for the player when the edit is illegal: a
    sixteenth checker in play, a point the other side holds, nothing to remove or to
    bear off.

    Examples
    --------
    >>> apply_click(EMPTY, ("point", 5), "player", True).on_roll[:6]
    (0, 0, 0, 0, 1, 0)
    """
    if side not in SIDES:
        raise ValueError(f"`side` must be one of {SIDES}, got {side!r}")
    kind, number = place
    player = side == "player"
    mine = list(position.on_roll if player else position.opponent)
    theirs = position.opponent if player else position.on_roll
    bar = position.on_roll_bar if player else position.opponent_bar
    who = _SIDE_NAMES[side]
    other = _SIDE_NAMES["opponent" if player else "player"]
    full = sum(mine) + bar >= CHECKERS
    if kind == "off":
        occupied = [p for p in range(1, POINTS + 1) if mine[p - 1]]
        if not occupied:
            raise ValueError(f"{who.capitalize()} has no checker on the points to bear off.")
        mine[occupied[0] - 1] -= 1
    elif kind == "bar":
        if add and full:
            raise ValueError(
                f"{who.capitalize()} already has all {CHECKERS} checkers in play: remove one first."
            )
        if not add and not bar:
            raise ValueError(f"{who.capitalize()} has no checker on the bar to remove.")
        bar += 1 if add else -1
    elif kind == "point" and 1 <= number <= POINTS:
        own = number if player else POINTS + 1 - number  # the side's own point
        if add:
            if full:
                raise ValueError(
                    f"{who.capitalize()} already has all {CHECKERS} checkers in play: "
                    "remove one first."
                )
            if theirs[POINTS - own]:
                raise ValueError(f"Point {number} is held by {other}: remove those checkers first.")
            mine[own - 1] += 1
        else:
            if not mine[own - 1]:
                raise ValueError(f"{who.capitalize()} has no checker on point {number}.")
            mine[own - 1] -= 1
    else:
        raise ValueError(f"`place` must be a point 1..24, the bar or the tray, got {place!r}")
    if player:
        return Position(tuple(mine), position.opponent, bar, position.opponent_bar)
    return Position(position.on_roll, tuple(mine), position.on_roll_bar, bar)


Edit = Callable[[Position], None]


def _keys(key: str) -> dict[str, str]:
    names = ("clicks", "message", "side", "mode", "place")
    return {name: f"{key}.{name}" for name in names}


#: The places of the picker beside the board, as its options: the points, the bar, the tray.
_PLACES = (*(str(point) for point in range(1, POINTS + 1)), "bar", "off")
_PLACE_LABELS = {"bar": "The bar", "off": "The tray (bear one off)"}


def _place_label(option: str) -> str:
    return _PLACE_LABELS.get(option, f"Point {option}")


def _edit(key: str, position: Position, place: Place, on_edit: Edit) -> None:
    """Apply an edit at ``place`` with the editor's side and mode; hand it on, or keep
    why not (shown once, in the run the edit starts)."""
    keys = _keys(key)
    state = st.session_state
    side = state.get(keys["side"]) or "player"
    add = (state.get(keys["mode"]) or "add") == "add"
    try:
        edited = apply_click(position, place, side, add)
    except ValueError as error:
        state[keys["message"]] = str(error)
        return
    on_edit(edited)


def _on_pick(key: str, position: Position, on_edit: Edit) -> None:
    """The picker's button: the same edit as a click on the chosen place."""
    option = str(st.session_state.get(_keys(key)["place"]) or _PLACES[0])
    place: Place = (
        ("point", int(option)) if option.isdigit() else ("bar" if option == "bar" else "off", 0)
    )
    _edit(key, position, place, on_edit)


def _on_click(key: str, chart_key: str, position: Position, on_edit: Edit) -> None:
    """The selection callback: apply the clicked edit to the position the board showed,
    hand it on (or keep why not), then retire this chart's key."""
    keys = _keys(key)
    state = st.session_state
    event = state.get(chart_key) or {}
    points = (event.get("selection") or {}).get("points") or []
    state[keys["clicks"]] = state.get(keys["clicks"], 0) + 1
    if not points:
        return
    x, y = points[0].get("x"), points[0].get("y")
    if not isinstance(x, (int, float)) or not isinstance(y, (int, float)):
        return
    place = place_at(float(x), float(y))
    if place is None:
        return
    _edit(key, position, place, on_edit)


def describe(position: Position) -> str:
    """Where each side's checkers stand, in the board's point numbers (the player on
    roll's), for a reader who cannot see the board.

    >>> describe(apply_click(EMPTY, ("point", 6), "player", True))
    'Player on roll: 1 on the 6-point, 14 off. Opponent: 15 off.'
    """
    sides = (
        ("Player on roll", position.on_roll, position.on_roll_bar, False),
        ("Opponent", position.opponent, position.opponent_bar, True),
    )
    said = []
    for name, counts, bar, turned in sides:  # the opponent's own point p is the board's 25 - p
        placed = sorted(
            (POINTS + 1 - own if turned else own, n) for own, n in enumerate(counts, start=1) if n
        )
        parts = [f"{n} on the {point}-point" for point, n in placed]
        if bar:
            parts.append(f"{bar} on the bar")
        off = CHECKERS - sum(counts) - bar
        if off:
            parts.append(f"{off} off")
        said.append(f"{name}: {', '.join(parts)}.")
    return " ".join(said)


def _board(figure: Figure, position: Position) -> tuple[Figure, str, dict[str, object]]:
    """The board as :func:`ui.widgets.chart` finishes a chart outside presenter mode (a
    title a phone holds, the export note, the browser theme's colours), its text
    alternative and its toolbar (PNG download under the view's name).

    The chart is drawn here, not by :func:`ui.widgets.chart`, because it takes clicks
    (a selection callback is a widget's, which a cached drawing cannot replay). Its text
    alternative is the chart's summary (the click targets left out: they are not part of
    the picture) and where the checkers stand (:func:`describe`)."""
    context = widgets.export_context()
    finished = themed_figure(
        with_export_note(fitting_title(figure), context.note()), st.context.theme.type
    )
    drawn = [t for t in finished["data"] if t.get("name") != CLICK_TARGETS]
    summary = f"{chart_summary({**finished, 'data': drawn})} {describe(position)}"
    return finished, summary, plotly_config(context.filename(_FILENAME))


def edit_position(
    position: Position,
    key: str,
    on_edit: Edit,
    *,
    cube_value: int = 1,
    cube_owner: CubeOwner = "center",
) -> None:
    """Draw the board editor of ``position``; each legal edit is handed to ``on_edit``.

    Parameters
    ----------
    position : Position
        The position shown (the page's): every edit starts from it.
    key : str
        Prefix of the editor's widget keys and its state (one editor per key).
    on_edit : callable
        ``on_edit(edited)``, called in the click's or the button's callback (before the
        rerun it starts) with the edited position; the caller keeps it and passes it as
        ``position`` next time. An illegal edit does not call it: a message says why.
    cube_value, cube_owner
        The cube drawn on the board (the page's: the editor does not change it).
    """
    if not isinstance(position, Position):
        raise ValueError(f"`position` must be a Position, got {type(position).__name__}")
    keys = _keys(key)
    state = st.session_state
    with st.container(horizontal=True, gap="medium"):
        st.segmented_control(
            "A click places checkers of",
            SIDES,
            format_func=_SIDE_LABELS.__getitem__,
            default="player",
            key=keys["side"],
        )
        mode = st.segmented_control(
            "What a click does",
            _MODES,
            format_func=_MODE_LABELS.__getitem__,
            default="add",
            key=keys["mode"],
        )
    with st.container(horizontal=True, gap="small"):
        st.button("Clear the board", key=f"{key}.clear", on_click=on_edit, args=(EMPTY,))
        st.button("Starting position", key=f"{key}.start", on_click=on_edit, args=(START,))
        st.button(
            "Swap who is on roll",
            key=f"{key}.swap",
            on_click=on_edit,
            args=(position.swapped(),),
        )
    chart_key = f"{key}.board.{state.get(keys['clicks'], 0)}"
    figure, summary, config = _board(
        board_figure(position, cube_value=cube_value, cube_owner=cube_owner, clickable=True),
        position,
    )
    st.plotly_chart(
        PrevalidatedFigure(figure),
        on_select=partial(_on_click, key, chart_key, position, on_edit),
        selection_mode="points",
        key=chart_key,
        config=config,
        theme="streamlit",
        alt=summary,
    )
    st.caption(
        "Click a point to add or remove a checker there, the bar for a checker on the "
        "bar, a tray to bear one off. Checkers not on the board are borne off. On a "
        "touch screen or from the keyboard, choose the place below."
    )
    with st.container(horizontal=True, gap="small", vertical_alignment="bottom"):
        st.selectbox("Place", _PLACES, format_func=_place_label, key=keys["place"])
        st.button(
            "Remove a checker there" if mode == "remove" else "Add a checker there",
            key=f"{key}.pick",
            on_click=_on_pick,
            args=(key, position, on_edit),
        )
    message = state.pop(keys["message"], None)  # shown once, after the click it names
    if message:
        st.error(message)


#: The editor's key on the page.
_KEY = "pos-editor"
#: The page's cube control's values -> who owns the cube on the board (else centred).
_OWNERS: dict[str, CubeOwner] = {"owned": "player", "opponent": "opponent"}


def _to_link(position: Position) -> None:
    """An edit becomes the page's position: the link's Position ID (the address bar)."""
    st.session_state[controls.POSITION.key] = position_id(position)


def _drawn_cube(v: View) -> tuple[int, CubeOwner]:
    """The page's cube as the board draws it; a cube the page does not evaluate (a
    centred cube above 1, which its answer names) is drawn centred."""
    value, where = int(v.text(controls.CUBE_VALUE.key)), v.text(controls.CUBE.key)
    owner = _OWNERS.get(where, "center")
    if value == 1 or owner == "center":
        return 1, "center"
    return value, owner


def render_editor(v: View) -> None:
    """The section "Set up a position": the board editor of the page's position, and the
    engine's verdict on it at the page's level, cube and score.

    Not in presenter mode: a projector shows a view, not a tool (as the paste box, the
    editor is the teacher's, on his own screen; the class sees the link he brings)."""
    if v.present:
        st.info(
            "The board editor is not shown in presenter mode: set the position up on "
            "your own screen, then bring its link (Share this view) to the projector.",
            icon=":material/edit_off:",
        )
        return
    try:
        position = controls.read_position(v.text(controls.POSITION.key))
    except ValueError as error:
        st.error(f"The position is not read: {error}. Choose a preset or paste a position.")
        return
    cube_value, cube_owner = _drawn_cube(v)
    edit_position(position, _KEY, _to_link, cube_value=cube_value, cube_owner=cube_owner)
    _verdict(v)


def _verdict(v: View) -> None:
    """The engine's proper action and headline numbers on the position shown (nothing
    evaluated from a game that is over or a cube the page does not read)."""
    checked = sections.checked_request(v)
    if checked is None:
        return
    _, request = checked
    answers = sections.evaluated(request)
    if answers is None:
        return
    d = answers[request.level]
    widgets.proper_action_line(d.action)
    widgets.headline(
        [
            ("Cubeless winning chance", f"{100.0 * d.probabilities.win:.2f}%"),
            ("No double", _equity(d.no_double)),
            ("Double, take", _equity(d.double_take)),
        ]
    )
    st.caption(
        f"The engine at {request.level} on the position above, with the page's cube and "
        "score; its full answer and the theory's reading are in the tab Engine and theory."
    )


def _equity(value: float | None) -> str:
    if value is None:
        return "—"
    rounded = round(value, 4) + 0.0
    return f"{rounded:+.4f}" if rounded else "0.0000"
