"""The board editor of the position page: set up a position by clicking the board.

:func:`edit_position` draws the board (:func:`ui.board.board_figure` with its click
targets) and a few controls: whose checkers a click places, whether it adds or removes
one, and buttons for an empty board, the starting position and swapping who is on roll.
A click on a point adds or removes a checker there, on the bar one on the bar, on a tray
bears one off (from the side's lowest point). The cube and the score belong to the page.

A click comes back as Streamlit's plotly selection event (``on_select``). Its callback
applies the edit (:func:`apply_click`, pure) and gives the chart a new key, so that the
next click, even on the same point, is a new event. An illegal edit (a sixteenth
checker, a point the other side holds, a checker that is not there) changes nothing and
shows a message saying why.
"""

from __future__ import annotations

from functools import partial

import streamlit as st

from cubecore.position import CHECKERS, POINTS, Position
from ui.board import Place, board_figure, place_at
from ui.style import themed_figure

__all__ = ["EMPTY", "SIDES", "START", "apply_click", "edit_position"]

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


def _keys(key: str) -> dict[str, str]:
    names = ("position", "origin", "clicks", "message", "side", "mode")
    return {name: f"{key}.{name}" for name in names}


def _chart_key(key: str, clicks: int) -> str:
    return f"{key}.board.{clicks}"


def _on_click(key: str, chart_key: str) -> None:
    """The selection callback: apply the clicked edit, then retire this chart's key."""
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
    side = state.get(keys["side"]) or "player"
    add = (state.get(keys["mode"]) or "add") == "add"
    try:
        state[keys["position"]] = apply_click(state[keys["position"]], place, side, add)
        state[keys["message"]] = None
    except ValueError as error:
        state[keys["message"]] = str(error)


def _set(key: str, position: Position) -> None:
    keys = _keys(key)
    st.session_state[keys["position"]] = position
    st.session_state[keys["message"]] = None


def _swap(key: str) -> None:
    _set(key, st.session_state[_keys(key)["position"]].swapped())


def edit_position(position: Position, key: str) -> Position | None:
    """Draw the board editor; return the edited position when the user changed it.

    Parameters
    ----------
    position : Position
        The position to start from (the page's current position). When it changes
        between runs (a new link, a paste), the editor starts over from it.
    key : str
        Prefix of the editor's widget keys and its state (one editor per key).

    Returns
    -------
    Position or None
        The edited position while it differs from ``position``; None otherwise. The
        cube and the score are not the editor's: the page keeps them.
    """
    if not isinstance(position, Position):
        raise ValueError(f"`position` must be a Position, got {type(position).__name__}")
    keys = _keys(key)
    state = st.session_state
    if state.get(keys["origin"]) != position:
        state[keys["origin"]] = position
        _set(key, position)
    with st.container(horizontal=True, gap="medium"):
        st.segmented_control(
            "A click places checkers of",
            SIDES,
            format_func=_SIDE_LABELS.__getitem__,
            default="player",
            key=keys["side"],
        )
        st.segmented_control(
            "A click on a point or the bar",
            _MODES,
            format_func=_MODE_LABELS.__getitem__,
            default="add",
            key=keys["mode"],
        )
    with st.container(horizontal=True, gap="small"):
        st.button("Clear the board", key=f"{key}.clear", on_click=_set, args=(key, EMPTY))
        st.button("Starting position", key=f"{key}.start", on_click=_set, args=(key, START))
        st.button("Swap who is on roll", key=f"{key}.swap", on_click=_swap, args=(key,))
    chart_key = _chart_key(key, state.get(keys["clicks"], 0))
    figure = board_figure(state[keys["position"]], clickable=True)
    st.plotly_chart(
        themed_figure(figure, st.context.theme.type),
        on_select=partial(_on_click, key, chart_key),
        selection_mode="points",
        key=chart_key,
        config={"displayModeBar": False},
    )
    st.caption(
        "Click a point to add or remove a checker there, the bar for a checker on the "
        "bar, a tray to bear one off. Checkers not on the board are borne off."
    )
    if state.get(keys["message"]):
        st.error(state[keys["message"]])
    edited: Position = state[keys["position"]]
    return None if edited == position else edited
