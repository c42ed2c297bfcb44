"""Tests of the board editor (ui.position.editor) and the clickable board (ui.board).

The click -> place -> position mapping is tested as pure functions; the editor itself
runs in AppTest, where a click is the selection event the browser sends: the plotly
chart's widget state (a JSON string of the selected points, the value Streamlit's
``PlotlyChartSelectionSerde`` reads). AppTest has no accessor for it, so the test adds
that state to the widget states of the rerun (``AppTest._run``, the call ``run()`` makes).
"""

import json

import hypothesis.strategies as hst
import pytest
from hypothesis import given, settings
from streamlit.testing.v1 import AppTest

from cubecore.position import Position, position_id
from tests.strategies import positions
from ui import board
from ui.position.editor import EMPTY, START, apply_click

# --- the click targets and place_at --------------------------------------------------------


def _targets(figure):
    (trace,) = [t for t in figure["data"] if t.get("name") == board.CLICK_TARGETS]
    return list(zip(trace["x"], trace["y"], strict=True))


def test_a_clickable_board_keeps_its_drawing_and_adds_targets_last():
    plain = board.board_figure(START)
    clickable = board.board_figure(START, clickable=True)
    kept = [{k: v for k, v in t.items() if k not in ("selected", "unselected")}
            for t in clickable["data"][:-1]]  # fmt: skip
    assert kept == plain["data"]  # the checkers first, drawn as before
    for trace in clickable["data"]:  # a selection neither dims a checker nor shows a target
        opacity = trace["marker"].get("opacity", 1)
        assert trace["selected"] == trace["unselected"] == {"marker": {"opacity": opacity}}
    assert clickable["data"][-1]["marker"]["opacity"] == 0
    assert clickable["data"][-1]["name"] == board.CLICK_TARGETS
    assert clickable["layout"]["clickmode"] == "event+select"
    assert not any(t.get("name") == board.CLICK_TARGETS for t in plain["data"])


def test_every_target_is_a_place_and_every_place_has_targets():
    places = [board.place_at(x, y) for x, y in _targets(board.board_figure(START, clickable=True))]
    assert None not in places
    assert set(places) == {("point", p) for p in range(1, 25)} | {("bar", 0), ("off", 0)}


def test_the_points_are_where_the_board_numbers_them():
    """A click on a drawn point number's column, on its half, is that point."""
    figure = board.board_figure(START)
    for note in figure["layout"]["annotations"]:
        if note["text"].isdigit():
            point = int(note["text"])
            y = 1.0 if point <= 12 else 10.0
            assert board.place_at(note["x"], y) == ("point", point)
            assert board.place_at(note["x"] + 0.45, y) == ("point", point)


@pytest.mark.parametrize(("x", "y"), [(6.5 + 0.05, 20.0), (-0.5, 3.0), (13.25, 3.0), (3.0, -5)])
def test_off_the_board_is_no_place(x, y):
    assert board.place_at(x, y) is None


# --- apply_click -------------------------------------------------------------------------------


def test_adding_and_removing_on_points_for_either_side():
    base = apply_click(START, ("point", 24), "player", False)  # one borne off
    after = apply_click(base, ("point", 5), "player", True)
    assert after.on_roll[4] == 1 and after.opponent == START.opponent
    assert apply_click(after, ("point", 5), "player", False) == base
    # the board's 19- and 20-points (the player on roll's numbers) are the opponent's 6 and 5
    removed = apply_click(START, ("point", 19), "opponent", False)
    assert removed.opponent[5] == 4 and removed.opponent_borne_off == 1
    moved = apply_click(removed, ("point", 20), "opponent", True)
    assert moved.opponent[4] == 1 and moved.opponent_borne_off == 0


def test_bar_and_tray():
    position = apply_click(START, ("point", 24), "player", False)  # one checker borne off
    on_bar = apply_click(position, ("bar", 0), "player", True)
    assert on_bar.on_roll_bar == 1 and on_bar.on_roll_borne_off == 0
    assert apply_click(on_bar, ("bar", 0), "player", False) == position
    beared = apply_click(START, ("off", 0), "opponent", True)
    assert beared.opponent[5] == 4 and beared.opponent_borne_off == 1  # its lowest point, 6


BAD_EDITS = [
    (START, ("point", 5), "player", True, "already has all 15 checkers in play"),
    (START, ("bar", 0), "opponent", True, "already has all 15 checkers in play"),
    (EMPTY, ("point", 3), "player", False, "The player on roll has no checker on point 3."),
    (EMPTY, ("bar", 0), "opponent", False, "The opponent has no checker on the bar to remove."),
    (EMPTY, ("off", 0), "player", True, "no checker on the points to bear off"),
    (
        apply_click(START, ("point", 24), "player", False),
        ("point", 1),
        "player",
        True,
        "Point 1 is held by the opponent: remove those checkers first.",
    ),
    (EMPTY, ("point", 25), "player", True, "must be a point 1..24"),
    (EMPTY, ("point", 3), "nobody", True, "`side` must be one of"),
]


@pytest.mark.parametrize(("position", "place", "side", "add", "message"), BAD_EDITS)
def test_an_illegal_edit_is_named(position, place, side, add, message):
    with pytest.raises(ValueError, match=message.replace(".", r"\.")):
        apply_click(position, place, side, add)


_PLACES = hst.one_of(
    hst.tuples(hst.just("point"), hst.integers(1, 24)),
    hst.tuples(hst.sampled_from(["bar", "off"]), hst.just(0)),
)


@settings(max_examples=300, deadline=None)
@given(position=positions(), place=_PLACES, side=hst.sampled_from(["player", "opponent"]),
       add=hst.booleans())  # fmt: skip
def test_an_edit_moves_one_checker_of_the_chosen_side(position, place, side, add):
    try:
        after = apply_click(position, place, side, add)
    except ValueError as error:
        assert str(error).endswith(".")
        return
    before_mine, after_mine = (
        (position.on_roll_borne_off, after.on_roll_borne_off)
        if side == "player"
        else (position.opponent_borne_off, after.opponent_borne_off)
    )
    assert after_mine - before_mine == (1 if place[0] == "off" or not add else -1)
    other = (lambda p: (p.opponent, p.opponent_bar)) if side == "player" else (
        lambda p: (p.on_roll, p.on_roll_bar))  # fmt: skip
    assert other(after) == other(position)


# --- the editor in AppTest ------------------------------------------------------------------


def _editor_script():
    import streamlit as st

    from cubecore.position import position_from_id, position_id
    from ui.position.editor import edit_position

    start = position_from_id(st.session_state.get("start_id", "4HPwATDgc/ABMA"))
    edited = edit_position(start, "ed")
    st.text(f"edited: {position_id(edited) if edited is not None else 'none'}")


def _run(at, selection=None):
    """Rerun as the browser does: it sends every widget's state, the chart's selection
    included, which it keeps per chart id (the same click twice is the same value)."""
    states = at._tree.get_widget_states()
    kept = at.__dict__.setdefault("_selections", {})
    charts = at.get("plotly_chart")
    if charts:
        chart_id = charts[0].proto.id
        if selection is not None:
            kept[chart_id] = selection
        if chart_id in kept:
            state = states.widgets.add()
            state.id = chart_id
            state.string_value = kept[chart_id]
    at._run(states, timeout=30)
    assert not at.exception
    return at


def _edited(at):
    return at.text[0].value.removeprefix("edited: ")


def _click(at, x, y):
    """The selection event of a click at (x, y)."""
    point = {"x": x, "y": y, "curve_number": 4, "point_number": 0, "point_index": 0}
    selection = {"points": [point], "point_indices": [0], "box": [], "lasso": []}
    return _run(at, json.dumps({"selection": selection}))


@pytest.fixture
def editor():
    at = AppTest.from_function(_editor_script, default_timeout=30).run()
    assert not at.exception
    return at


def test_the_editor_draws_a_clickable_board_and_reports_no_change(editor):
    (chart,) = editor.get("plotly_chart")
    spec = json.loads(chart.proto.spec)
    assert spec["data"][-1]["name"] == board.CLICK_TARGETS
    assert _edited(editor) == "none"
    assert not editor.error


def test_clicks_edit_the_position(editor):
    """Two clicks on the same point: each is a new event (the chart takes a new key)."""
    editor.segmented_control(key="ed.mode").set_value("remove")
    _run(editor)
    x6 = board.board_figure(START)["layout"]["annotations"][5]["x"]  # the 6-point's number
    _click(editor, x6, 0.5)
    _click(editor, x6, 0.5)  # the same spot again
    expected = apply_click(apply_click(START, ("point", 6), "player", False), ("point", 6),
                           "player", False)  # fmt: skip
    assert _edited(editor) == position_id(expected)


def test_an_illegal_click_says_why_and_changes_nothing(editor):
    x6 = board.board_figure(START)["layout"]["annotations"][5]["x"]
    _click(editor, x6, 0.5)  # adding a sixteenth checker
    assert _edited(editor) == "none"
    assert [e.value for e in editor.error] == [
        "The player on roll already has all 15 checkers in play: remove one first."
    ]
    # The same spot again in the other mode: the board has not changed, the click must
    # still count (the chart takes a new key after every click).
    editor.segmented_control(key="ed.mode").set_value("remove")
    _run(editor)
    _click(editor, x6, 0.5)
    assert _edited(editor) == position_id(apply_click(START, ("point", 6), "player", False))
    assert not editor.error


def test_the_opponent_side_and_the_buttons(editor):
    editor.button(key="ed.clear").click()
    _run(editor)
    assert _edited(editor) == position_id(EMPTY)
    editor.segmented_control(key="ed.side").set_value("opponent")
    _run(editor)
    _click(editor, board.OFF_TRAY, 3.0)  # nothing to bear off: a message
    assert "no checker on the points to bear off" in editor.error[0].value
    x1 = board.board_figure(START)["layout"]["annotations"][0]["x"]
    _click(editor, x1, 0.5)  # the player on roll's 1-point is the opponent's 24-point
    one = Position((0,) * 24, (0,) * 23 + (1,))
    assert _edited(editor) == position_id(one)
    assert not editor.error
    editor.button(key="ed.swap").click()
    _run(editor)
    assert _edited(editor) == position_id(one.swapped())
    editor.button(key="ed.start").click()
    _run(editor)
    assert _edited(editor) == "none"  # back where the page started


def test_a_new_position_from_the_page_starts_the_editor_over(editor):
    editor.button(key="ed.clear").click()
    _run(editor)
    assert _edited(editor) == position_id(EMPTY)
    editor.session_state["start_id"] = position_id(EMPTY)  # the page took the edit
    _run(editor)
    assert _edited(editor) == "none"
