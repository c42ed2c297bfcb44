"""Tests for cubecore.position: Position ID and XGID against GNU Backgammon 1.07.

Reference data: tests/data/gnubg_race_counts.json (scripts/gnubg/race_fixtures.py): for
each position gnubg's own ``positionid`` of the board, and two XGIDs (player on roll as
the bottom and as the top player) with the Position ID gnubg gave each after
``set xgid``.

Deviation from the manual: section 11.6 of the gnubg manual says the bit string starts
with the player on roll; gnubg 1.07 (``positionid``, ``show`` and ``bearoffdump``, which
call the second side "leader"/"Player") starts with the opponent. We follow the program.
"""

import json
from pathlib import Path

import hypothesis.strategies as hst
import pytest
from hypothesis import given

from cubecore.position import (
    Position,
    position_from_id,
    position_from_xgid,
    position_id,
    xgid,
    xgid_info,
)

FIXTURE = json.loads((Path(__file__).parent / "data" / "gnubg_race_counts.json").read_text())
RECORDS = FIXTURE["positions"]
IDS = [r["position_id"] for r in RECORDS]
START = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2,)


def position(record) -> Position:
    return Position(
        tuple(record["on_roll"]),
        tuple(record["opponent"]),
        record["on_roll_bar"],
        record["opponent_bar"],
    )


@pytest.mark.parametrize("record", RECORDS, ids=IDS)
def test_position_id_equals_gnubg(record):
    p = position(record)
    assert position_id(p) == record["position_id"]
    assert position_from_id(record["position_id"]) == p


@pytest.mark.parametrize("record", RECORDS, ids=IDS)
def test_xgid_equals_gnubg_reading(record):
    p = position(record)
    bottom, top = record["xgids"]
    assert xgid(p) == bottom["xgid"]
    assert xgid(p, bottom_on_roll=False) == top["xgid"]
    for entry in (bottom, top):
        read = position_from_xgid(entry["xgid"])
        assert read == p
        assert position_id(read) == entry["gnubg_position_id"]


def test_starting_position():
    p = Position(START, START)
    assert position_id(p) == "4HPwATDgc/ABMA"  # gnubg manual, section 11.6
    assert xgid(p) == "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
    assert p.pips == (167, 167)
    assert not p.is_race


def side_strategy():
    return hst.lists(hst.integers(0, 24), min_size=0, max_size=15).map(
        lambda places: tuple(places.count(k) for k in range(25))
    )


@given(side_strategy(), side_strategy())
def test_round_trips(a, b):
    clash = any(a[p - 1] and b[24 - p] for p in range(1, 25))
    if clash:
        with pytest.raises(ValueError, match="both sides have checkers"):
            Position(a[:24], b[:24], a[24], b[24])
        return
    p = Position(a[:24], b[:24], a[24], b[24])
    assert position_from_id(position_id(p)) == p
    assert position_from_xgid(xgid(p)) == p
    assert position_from_xgid(xgid(p, bottom_on_roll=False)) == p
    assert p.swapped().swapped() == p
    assert p.on_roll_borne_off + sum(p.on_roll) + p.on_roll_bar == 15


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4HPwATDgc/ABM", "must have 14 characters, got 13"),
        ("4HPwATDgc/ABMAA", "must have 14 characters, got 15"),
        ("4HPwATDgc/AB*A", "outside Base64"),
        ("4HPwATDgc/AB=A", "outside Base64"),
        ("//////////////", "too many checkers"),
        ("/////wAAAAAAAA", "gives the opponent side 32 checkers"),
        ("4HPwATDgc/ABMB", "beyond the 80-bit key"),
        ("AAAAAAAAAAAAAQ", "set bits after the last place"),
        ("", "must have 14 characters, got 0"),
        ("AACABAAAAAAAAA", "impossible position: on_roll.s point 1 is opponent.s point 24"),
    ],
)
def test_malformed_position_ids(text, message):
    with pytest.raises(ValueError, match=message):
        position_from_id(text)


def test_position_id_not_a_string():
    with pytest.raises(ValueError, match="must be a string"):
        position_from_id(12345678901234)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0", "10 fields"),
        ("XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10", "26 characters, got 25"),
        ("XGID=-b----E-C---eE---c-e----B*:0:0:1:00:0:0:0:0:10", "other than"),
        ("XGID=-b----E-C---eE---c-e----BP:0:0:1:00:0:0:0:0:10", "other than"),
        ("XGID=-b----O-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "bottom player 25 checkers"),
        ("XGID=-b----E-C---eE---c-e----Ba:0:0:1:00:0:0:0:0:10", "bottom player's bar"),
        ("XGID=Ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "top player's bar"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:0:00:0:0:0:0:10", "turn"),
        ("XGID=-b----E-C---eE---c-e----B-:0:2:1:00:0:0:0:0:10", "cube owner"),
        ("XGID=-b----E-C---eE---c-e----B-:x:0:1:00:0:0:0:0:10", "cube value"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:07:0:0:0:0:10", "dice"),
    ],
)
def test_malformed_xgids(text, message):
    with pytest.raises(ValueError, match=message):
        position_from_xgid(text)


def test_xgid_fields():
    info = xgid_info("XGID=-b----E-C---eE---c-e----B-:2:-1:-1:52:3:1:1:7:10")
    assert (info.cube_value, info.cube_owner, info.bottom_on_roll) == (4, -1, False)
    assert (info.dice, info.score_bottom, info.score_top, info.match_length) == ("52", 3, 1, 7)
    assert info.position == Position(START, START)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"on_roll": (0,) * 23}, "must have 24 checker counts"),
        ({"on_roll": (-1,) + (0,) * 23}, "point 1 is negative"),
        ({"on_roll": (16,) + (0,) * 23}, "16 checkers on the board"),
        ({"on_roll": (1.0,) + (0,) * 23}, "must be a whole number"),
        ({"on_roll": "0" * 24}, "must be a sequence"),
        ({"on_roll_bar": -2}, "the bar is negative"),
        ({"on_roll_bar": True}, "must be a whole number"),
        ({"opponent": (0,) * 23 + (1,), "on_roll": (1,) + (0,) * 23}, "both sides"),
    ],
)
def test_position_validation(kwargs, message):
    arguments = {"on_roll": (0,) * 24, "opponent": (0,) * 24, **kwargs}
    with pytest.raises(ValueError, match=message):
        Position(**arguments)


def test_race_classification():
    race = Position((0,) * 11 + (1,) + (0,) * 12, (0,) * 11 + (1,) + (0,) * 12)
    assert race.is_race and race.require_race() is race  # 12 + 12 = 24: passed
    contact = Position((0,) * 12 + (1,) + (0,) * 11, (0,) * 12 + (1,) + (0,) * 11)
    assert not contact.is_race  # 13 + 13 > 24
    with pytest.raises(ValueError, match="contact"):
        contact.require_race()
    bar = Position((0,) * 24, (1,) + (0,) * 23, on_roll_bar=1)
    with pytest.raises(ValueError, match="on the bar"):
        bar.require_race()


def test_board_layout():
    p = Position(START, START, 0, 0)
    board = p.board()
    assert board.shape == (2, 25)
    assert board[1, 5] == 5 and board[0, 23] == 2


BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


@given(hst.text(alphabet=BASE64, min_size=14, max_size=14))
def test_any_base64_id_reads_or_says_why(text):
    try:
        p = position_from_id(text)
    except ValueError as error:
        assert str(error).startswith("position_id")
    else:
        assert position_id(p) == text  # a key has one position and one ID


@given(hst.text(max_size=60))
def test_any_text_as_xgid_reads_or_says_why(text):
    try:
        position_from_xgid(text)
    except ValueError as error:
        assert "XGID" in str(error) or "xgid" in str(error) or "side" in str(error)


def test_home_boards():
    p = Position.from_home((2, 0, 0, 0, 0, 1), (0, 3, 0, 0, 0, 0))
    assert p.home_boards() == ((2, 0, 0, 0, 0, 1), (0, 3, 0, 0, 0, 0))
    outside = Position((0,) * 7 + (1,) + (0,) * 16, (1,) + (0,) * 23)
    with pytest.raises(
        ValueError, match=r"on_roll has checkers outside the home board \(point 8\)"
    ):
        outside.home_boards()
    with pytest.raises(ValueError, match="opponent has checkers on the bar"):
        Position((1,) + (0,) * 23, (0,) * 24, opponent_bar=1).home_boards()
