"""Tests of the board editor (ui.position.editor) and the clickable board (ui.board).

The click -> place -> position mapping is tested as pure functions; the editor itself
runs on the position page, in its section "Set up a position" (AppTest), where a click is
the selection event the browser sends: the plotly chart's widget state (a JSON string of
the selected points, the value Streamlit's ``PlotlyChartSelectionSerde`` reads). AppTest
has no accessor for it, so the test adds that state to the widget states of the rerun
(``AppTest._run``, the call ``run()`` makes). Every edit must become the page's position
(the link's ``pos``, a Position ID), and the engine's verdict must follow it.
"""

import json

import hypothesis.strategies as hst
import pytest
from hypothesis import given, settings

from cubecore.position import Position, position_id
from tests.strategies import positions
from tests.views import TIMEOUT_S
from ui import board
from ui.position import controls
from ui.position.editor import EMPTY, START, apply_click, describe

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


def test_the_description_says_where_every_checker_stands():
    assert describe(START) == (
        "Player on roll: 5 on the 6-point, 3 on the 8-point, 5 on the 13-point, 2 on the "
        "24-point. Opponent: 2 on the 1-point, 5 on the 12-point, 3 on the 17-point, 5 on "
        "the 19-point."
    )
    on_bar = apply_click(apply_click(EMPTY, ("bar", 0), "opponent", True), ("point", 3),
                         "player", True)  # fmt: skip
    assert describe(on_bar) == (
        "Player on roll: 1 on the 3-point, 14 off. Opponent: 1 on the bar, 14 off."
    )


# --- the editor on the page, in AppTest ---------------------------------------------------

PAGE_FILE = "pages/position.py"
SECTION = "Set up a position"
#: The opening position's Position ID (the editor's "Starting position").
OPENING = position_id(START)


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
    at._run(states, timeout=TIMEOUT_S)
    assert not at.exception, [e.message for e in at.exception]
    return at


def _pos(at) -> str:
    """The page's position: the link's Position ID."""
    return at.session_state[controls.POSITION.key]


def _click(at, x, y):
    """The selection event of a click at (x, y)."""
    point = {"x": x, "y": y, "curve_number": 4, "point_number": 0, "point_index": 0}
    selection = {"points": [point], "point_indices": [0], "box": [], "lasso": []}
    return _run(at, json.dumps({"selection": selection}))


def _x(point: int) -> float:
    """x of a point's column: where the board writes its number."""
    (note,) = [
        n for n in board.board_figure(START)["layout"]["annotations"] if n["text"] == str(point)
    ]
    return float(note["x"])


def _verdict(at) -> tuple[str, ...]:
    """The engine's verdict as the section shows it: its proper action and numbers."""
    actions = [h.value for h in at.main.subheader if h.value.startswith("Proper cube action")]
    return (*actions, *(f"{m.label}={m.value}" for m in at.main.metric))


@pytest.fixture
def editor(open_page):
    """The page at the opening position, 1-ply, on its section "Set up a position"."""
    at = open_page(PAGE_FILE, sec=SECTION, depth="1-ply", pos=OPENING)
    assert not at.exception, [e.message for e in at.exception]
    assert _pos(at) == OPENING
    return at


def test_the_section_draws_the_page_position_on_a_clickable_board_with_a_verdict(editor):
    (chart,) = editor.get("plotly_chart")
    spec = json.loads(chart.proto.spec)
    assert spec["data"][-1]["name"] == board.CLICK_TARGETS
    assert spec["data"][0]["x"] == board.board_figure(START)["data"][0]["x"]
    title = spec["layout"]["title"]["text"].replace("<br>", " ")
    assert chart.proto.alt.startswith(title)  # its text alternative names the board
    assert "click targets" not in chart.proto.alt
    assert chart.proto.alt.endswith(f". {describe(START)}")  # and where the checkers stand
    verdict = _verdict(editor)
    assert verdict[0].startswith("Proper cube action: ") and len(verdict) == 4, verdict
    assert not editor.error


def test_clicks_edit_the_page_position(editor):
    """Two clicks on the same point: each is a new event (the chart takes a new key), and
    each edit is the page's position, the link's Position ID; the verdict follows it."""
    before = _verdict(editor)
    editor.segmented_control(key="pos-editor.mode").set_value("remove")
    _run(editor)
    _click(editor, _x(6), 0.5)
    one = apply_click(START, ("point", 6), "player", False)
    assert _pos(editor) == position_id(one)
    _click(editor, _x(6), 0.5)  # the same spot again
    two = apply_click(one, ("point", 6), "player", False)
    assert _pos(editor) == position_id(two)
    (chart,) = editor.get("plotly_chart")
    assert json.loads(chart.proto.spec)["data"][0]["x"] == board.board_figure(two)["data"][0]["x"]
    after = _verdict(editor)
    assert after != before and after[0].startswith("Proper cube action: "), (before, after)


def test_an_illegal_click_says_why_and_changes_nothing(editor):
    verdict = _verdict(editor)
    _click(editor, _x(6), 0.5)  # adding a sixteenth checker
    assert _pos(editor) == OPENING
    assert [e.value for e in editor.error] == [
        "The player on roll already has all 15 checkers in play: remove one first."
    ]
    assert _verdict(editor) == verdict  # the engine saw nothing new
    # The same spot again in the other mode: the board has not changed, the click must
    # still count (the chart takes a new key after every click).
    editor.segmented_control(key="pos-editor.mode").set_value("remove")
    _run(editor)
    _click(editor, _x(6), 0.5)
    assert _pos(editor) == position_id(apply_click(START, ("point", 6), "player", False))
    assert not editor.error


def test_the_opponent_side_and_the_buttons(editor):
    editor.button(key="pos-editor.clear").click()
    _run(editor)
    assert _pos(editor) == position_id(EMPTY)
    assert _verdict(editor) == ()  # a game that is over is not evaluated, and says so
    assert any("The game is over" in e.value for e in editor.error)
    editor.segmented_control(key="pos-editor.side").set_value("opponent")
    _run(editor)
    _click(editor, board.OFF_TRAY, 3.0)  # nothing to bear off: a message
    assert "no checker on the points to bear off" in editor.error[0].value
    _click(editor, _x(1), 0.5)  # the player on roll's 1-point is the opponent's 24-point
    one = Position((0,) * 24, (0,) * 23 + (1,))
    assert _pos(editor) == position_id(one)
    editor.button(key="pos-editor.swap").click()
    _run(editor)
    assert _pos(editor) == position_id(one.swapped())
    editor.button(key="pos-editor.start").click()
    _run(editor)
    assert _pos(editor) == OPENING
    assert not editor.error


def test_the_board_shows_the_page_cube_and_a_cube_the_page_does_not_read_is_named(open_page):
    at = open_page(PAGE_FILE, sec=SECTION, depth="1-ply", cv="4", cube="opponent")
    (chart,) = at.get("plotly_chart")
    (cube,) = [a for a in json.loads(chart.proto.spec)["layout"]["annotations"]
               if a.get("name") == "cube"]  # fmt: skip
    assert cube["text"] == "<b>4</b>" and cube["y"] > 5.5  # on the opponent's side
    bad = open_page(PAGE_FILE, sec=SECTION, depth="1-ply", cv="4", cube="center")
    assert len(bad.get("plotly_chart")) == 1  # the board is still there to edit
    assert any("A centred cube is on 1" in e.value for e in bad.error)
    assert _verdict(bad) == ()


def test_presenter_mode_shows_no_editor(open_page):
    at = open_page(PAGE_FILE, sec=SECTION, present="true")
    assert not at.exception
    assert not at.get("plotly_chart")
    assert any("not shown in presenter mode" in i.value for i in at.info)


def test_the_place_picker_edits_as_a_click_does(editor):
    """On a touch screen or from the keyboard: a place chosen in the box, then the button
    (its label says what it does), is the same edit as a click on that place."""
    editor.segmented_control(key="pos-editor.mode").set_value("remove")
    _run(editor)
    assert editor.button(key="pos-editor.pick").label == "Remove a checker there"
    editor.selectbox(key="pos-editor.place").set_value("13")
    editor.button(key="pos-editor.pick").click()
    _run(editor)
    one = apply_click(START, ("point", 13), "player", False)
    assert _pos(editor) == position_id(one)
    editor.segmented_control(key="pos-editor.mode").set_value("add")
    editor.selectbox(key="pos-editor.place").set_value("bar")
    _run(editor)
    assert editor.button(key="pos-editor.pick").label == "Add a checker there"
    editor.button(key="pos-editor.pick").click()
    _run(editor)
    assert _pos(editor) == position_id(apply_click(one, ("bar", 0), "player", True))
    editor.selectbox(key="pos-editor.place").set_value("1")
    editor.button(key="pos-editor.pick").click()
    _run(editor)  # a sixteenth checker: refused, with the reason
    assert [e.value for e in editor.error] == [
        "The player on roll already has all 15 checkers in play: remove one first."
    ]
