"""Tests of ui.board: the board's colours survive both themes, its numbers and cube."""

import pytest

from cubecore.position import position_from_id
from ui import board
from ui.style import GRAPHIC_CONTRAST, TEXT_CONTRAST, contrast_ratio, themed_figure

POSITION = position_from_id("2u42AAC2uxcAAA")  # issue #37: 68 v 79


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_two_sides_keep_their_colours_in_both_themes(theme):
    """The defect of issue #37 item 2: theming turned the light checkers into the theme's
    ink, so both sides were dark. The colours are readable as they are: kept."""
    shown = themed_figure(board.board_figure(POSITION), theme)
    colours = [trace["marker"]["color"] for trace in shown["data"][:2]]
    assert colours == [board.ON_ROLL, board.OPPONENT]
    assert [trace["name"] for trace in shown["data"][:2]] == ["player on roll", "opponent"]


def test_the_colours_are_apart_and_stand_out_of_the_frame():
    assert contrast_ratio(board.ON_ROLL, board.OPPONENT) >= board.CHECKER_CONTRAST
    for colour in (board.ON_ROLL, board.OPPONENT):
        assert contrast_ratio(colour, board.FRAME) >= GRAPHIC_CONTRAST
    assert contrast_ratio("#000000", board.FRAME) >= TEXT_CONTRAST  # the numbers, the notes


def _notes(figure):
    return {note["text"]: note for note in figure["layout"]["annotations"]}


def test_point_numbers_pips_and_who_is_on_roll():
    figure = board.board_figure(POSITION)
    notes = _notes(figure)
    assert all(str(p) in notes for p in range(1, 25))
    assert notes["1"]["x"] > notes["12"]["x"] and notes["1"]["y"] < 0  # bottom right
    assert notes["24"]["x"] > notes["13"]["x"] and notes["24"]["y"] > 11  # top right
    assert notes["68 pips"]["y"] < notes["79 pips"]["y"]  # each on his side
    assert notes["<b>on roll</b>"]["y"] < notes["opponent"]["y"]


@pytest.mark.parametrize(
    ("value", "owner", "face", "side"),
    [(1, "center", "64", 0), (2, "player", "2", -1), (8, "opponent", "8", 1)],
)
def test_the_cube_sits_on_its_owners_side(value, owner, face, side):
    figure = board.board_figure(POSITION, cube_value=value, cube_owner=owner)
    (cube,) = [n for n in figure["layout"]["annotations"] if n.get("name") == "cube"]
    assert cube["text"] == f"<b>{face}</b>"
    assert (cube["y"] > 5.5) - (cube["y"] < 5.5) == side


@pytest.mark.parametrize(
    ("value", "owner", "named"),
    [(3, "center", "cube_value"), (2, "middle", "cube_owner"), (1, "player", "cube_owner")],
)
def test_a_bad_cube_is_named(value, owner, named):
    with pytest.raises(ValueError, match=named):
        board.board_figure(POSITION, cube_value=value, cube_owner=owner)
