"""Tests of cubecore.position_text: positions pasted as gnubg's or XG's text.

gnubg's texts are GNU Backgammon 1.07's own output (``tests/data/gnubg_position_text.json``,
made by ``scripts/gnubg/position_text_samples.py``). XG's texts are eXtreme Gammon 2.10's
"Copy position" output as kept by K. Unger in ``kevung/xgparser`` (2025),
https://github.com/kevung/xgparser : ``test/2025-11-04/01_checkerPosition_EN.txt``,
``02_NDT_EN.txt``, ``05_NRT_EN.txt`` and the 13-point paste of
``xgparser/xgtext_test.go`` (``testPastePosition``); the analysis under the position is
shortened where it is not read.
"""

import json
from pathlib import Path

import hypothesis.strategies as hst
import pytest
from hypothesis import given, settings

from cubecore.position import Position, position_from_id, position_id, xgid, xgid_info
from cubecore.position_text import (
    MAX_LINES,
    MAX_TEXT_LENGTH,
    match_id_info,
    parse_position_text,
    players_words,
)
from tests.strategies import positions

DATA = json.loads(
    (Path(__file__).parent / "data" / "gnubg_position_text.json").read_text(encoding="utf-8")
)
CASES = DATA["cases"]
NAMED = [c for c in CASES if not c["name"].startswith("random")]


def _expected(case):
    """What gnubg was told, as the parser reports it (from the player on roll's view)."""
    side = "X" if case["x_on_roll"] else "O"
    owner = case["cube_owner"]
    length = case["match_length"]
    mine, theirs = (
        (case["score_x"], case["score_o"]) if side == "X" else (case["score_o"], case["score_x"])
    )
    return {
        "position": position_from_id(case["position_id"]),
        "on_roll": side,
        "cube_value": case["cube_value"],
        "cube_owner": (
            "center" if owner is None else ("player" if owner.upper() == side else "opponent")
        ),
        "match_length": length,
        "away": length - mine if length else None,
        "opp_away": length - theirs if length else None,
        "crawford": case["crawford"],
        "dice": tuple(case["dice"]) if case["dice"] else None,
    }


def _read(pasted):
    return {key: getattr(pasted, key) for key in _expected(CASES[0])}


def test_the_fixture_covers_the_classes_the_issue_names():
    """>= 10 positions: contact, race, bear-off, bar, cube either side, match, Crawford."""
    assert len(NAMED) >= 10 and len(CASES) >= 50
    positions_ = [position_from_id(c["position_id"]) for c in CASES]
    assert any(p.on_roll_bar for p in positions_) and any(p.opponent_bar for p in positions_)
    assert any(p.is_race for p in positions_) and any(not p.is_race for p in positions_)
    assert any(max(p.pips) <= 24 for p in positions_)  # bear-off
    assert {c["cube_owner"] for c in CASES} == {None, "x", "o"}
    assert any(c["crawford"] for c in CASES) and any(c["match_length"] == 0 for c in CASES)
    assert {c["x_on_roll"] for c in CASES} == {True, False}
    assert "1.07" in DATA["_meta"]["gnubg_version"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_gnubg_show_board(case):
    pasted = parse_position_text(case["text"])
    assert _read(pasted) == _expected(case)
    assert pasted.source == "GNU Backgammon"
    assert pasted.read_from == "Position ID (the board drawn agrees)"


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_gnubg_board_alone_reads_cube_and_score_from_the_side_text(case):
    """Without the ID lines the drawn board, its trays and the text beside it say it all."""
    text = "\n".join(line for line in case["text"].splitlines() if "ID" not in line)
    pasted = parse_position_text(text)
    assert _read(pasted) == _expected(case)
    assert pasted.read_from.startswith("the board drawn")


@pytest.mark.parametrize("case", CASES[:12], ids=[c["name"] for c in CASES[:12]])
def test_gnubg_ids_alone(case):
    """The two ID lines without the board ('Position ID:' / 'Match ID:')."""
    pid, mid = case["text"].splitlines()[:2]
    pasted = parse_position_text(f"Position ID: {pid.split(':')[1]}\nMatch ID: {mid.split(':')[1]}")
    assert _read(pasted) == _expected(case)
    assert pasted.read_from == "Position ID"


@pytest.mark.parametrize("case", [c for c in CASES if c["export_text"]], ids=lambda c: c["name"])
def test_gnubg_export_position_text(case):
    """gnubg's 'export position text': the board under a match header, pip counts after."""
    assert _read(parse_position_text(case["export_text"])) == _expected(case)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_match_id_fields(case):
    match_id = case["text"].splitlines()[1].split(":")[1].strip()
    info = match_id_info(match_id)
    owner = {None: None, "x": 1, "o": 0}[case["cube_owner"]]
    assert (info.cube_value, info.cube_owner) == (case["cube_value"], owner)
    assert info.player_on_roll == (1 if case["x_on_roll"] else 0)
    assert info.match_length == case["match_length"]
    assert info.score == (case["score_o"], case["score_x"])  # gnubg's player 0 is O
    assert info.crawford == case["crawford"]
    assert info.dice == (tuple(case["dice"]) if case["dice"] else None)


# eXtreme Gammon 2.10's "Copy position" (kevung/xgparser, see the module docstring).
XG_CHECKER_PLAY = """XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:1:21:3:6:0:7:10

X:Player 1   O:Player 2
Score is X:3 O:6 7 pt.(s) match.
 +13-14-15-16-17-18------19-20-21-22-23-24-+
 |    X           X |   | X  O  O  O  O  O | +---+
 |                  |   | X  O  O  O  O  O | | 2 |
 |                  |   |    O           O | +---+
 |                  |   |                O |
 |                  |   |                  |
 |                  |BAR|                  |
 |                  |   |                  |
 |                  |   |                  |
 |                  |   |          X       |
 |                  |   | X  X  X  X     X |
 |       O          |   | X  X  X  X     X |
 +12-11-10--9--8--7-------6--5--4--3--2--1-+
Pip count  X: 111  O: 52 X-O: 3-6/7
Cube: 2, O own cube
X to play 21

    1. 4-ply       19/18 14/12                  eq:-0.491
      Player:   25.45% (G:0.00% B:0.00%)
      Opponent: 74.55% (G:31.09% B:0.09%)

eXtreme Gammon Version: 2.10, MET: Kazaross XG2
"""  # test/2025-11-04/01_checkerPosition_EN.txt

XG_NO_DOUBLE = """XGID=---BBaB-BbA-bC-b--BdAca---:0:0:1:00:0:5:0:9:10

X:Player 1   O:Player 2
Score is X:0 O:5 9 pt.(s) match.
 +13-14-15-16-17-18------19-20-21-22-23-24-+
 | X     O        X |   | O  X  O  O       |
 | X     O        X |   | O     O          |
 | X                |   | O     O          |
 |                  |   | O                |
 |                  |   |                  |
 |                  |BAR|                  |
 |                  |   |                  |
 |                  |   |                  |
 |                  |   |                  |
 | O        O  X    |   | X     X  X       |
 | O     X  O  X    |   | X  O  X  X       |
 +12-11-10--9--8--7-------6--5--4--3--2--1-+
Pip count  X: 147  O: 137 X-O: 0-5/9
Cube: 1
X on roll, cube action

Analyzed in XG Roller++
Player Winning Chances:   54.40% (G:18.22% B:0.53%)
Opponent Winning Chances: 45.60% (G:12.71% B:0.51%)
"""  # test/2025-11-04/02_NDT_EN.txt

XG_REDOUBLE = """XGID=---BADB------------bf---a-:1:1:1:00:4:0:0:7:10

X:Player 1   O:Player 2
Score is X:4 O:0 7 pt.(s) match.
 +13-14-15-16-17-18------19-20-21-22-23-24-+
 |                  |   | O  O           O |
 |                  |   | O  O             |
 |                  |   |    O             |
 |                  |   |    O             |
 |                  |   |    6             |
 |                  |BAR|                  |
 |                  |   |                  |
 |                  |   |    X             |
 |                  |   |    X             | +---+
 |                  |   | X  X     X       | | 2 |
 |                  |   | X  X  X  X       | +---+
 +12-11-10--9--8--7-------6--5--4--3--2--1-+
Pip count  X: 42  O: 43 X-O: 4-0/7
Cube: 2, X own cube
X on roll, cube action
"""  # test/2025-11-04/05_NRT_EN.txt (player names as in the English file's first line)

XG_THIRTEEN = """XGID=---CBbB-B---bC-b-bcbbC----:0:0:1:42:0:0:0:13:10

X:postmanpat   O:nando
Score is X:0 O:0 13 pt.(s) match.
 +13-14-15-16-17-18------19-20-21-22-23-24-+
 | X     O     O  O |   | O  O  X          |
 | X     O     O  O |   | O  O  X          |
 | X              O |   |       X          |
 |                  |   |                  |
 |                  |   |                  |
 |                  |BAR|                  |
 |                  |   |                  |
 |                  |   |                  |
 |                  |   |          X       |
 | O           X    |   | X  O  X  X       |
 | O           X    |   | X  O  X  X       |
 +12-11-10--9--8--7-------6--5--4--3--2--1-+
Pip count  X: 147  O: 145 X-O: 0-0/13
Cube: 1
X to play 42
"""  # xgparser/xgtext_test.go, testPastePosition

XG_SAMPLES = {
    # name: (text, pips X/O as XG printed them, cube, owner, length, away, opp_away, dice)
    "checker play": (XG_CHECKER_PLAY, (111, 52), 2, "opponent", 7, 4, 1, (2, 1)),
    "no double": (XG_NO_DOUBLE, (147, 137), 1, "center", 9, 9, 4, None),
    "redouble": (XG_REDOUBLE, (42, 43), 2, "player", 7, 3, 7, None),
    "13-point paste": (XG_THIRTEEN, (147, 145), 1, "center", 13, 13, 13, (4, 2)),
}


@pytest.mark.parametrize("name", XG_SAMPLES)
@pytest.mark.parametrize("without_xgid", [False, True])
def test_xg_copy_position(name, without_xgid):
    text, pips, cube, owner, length, away, opp_away, dice = XG_SAMPLES[name]
    if without_xgid:
        text = "\n".join(line for line in text.splitlines() if "XGID" not in line)
    pasted = parse_position_text(text)
    assert pasted.source == "eXtreme Gammon" and pasted.on_roll == "X"
    assert pasted.position.pips == pips  # XG's own pip count line, X on roll
    assert (pasted.cube_value, pasted.cube_owner) == (cube, owner)
    assert (pasted.match_length, pasted.away, pasted.opp_away) == (length, away, opp_away)
    assert pasted.dice == dice and not pasted.crawford
    expected = "the board drawn" if without_xgid else "XGID (the board drawn agrees)"
    assert pasted.read_from.startswith(expected)


def test_xg_counts_above_five_are_read():
    """XG writes the sixth checker as the count (O's 6 on X's 20-point in 05_NRT)."""
    pasted = parse_position_text(XG_REDOUBLE)
    assert pasted.position.opponent[4] == 6  # O's own 5-point is X's 20-point
    assert pasted.position.opponent[0] == 1  # and one on its ace point (X's 24-point)


# --- round trips through gnubg's layout -------------------------------------------------

_TOP_X = " +13-14-15-16-17-18------19-20-21-22-23-24-+"
_BOTTOM_X = " +12-11-10--9--8--7-------6--5--4--3--2--1-+"
_FIFTH = "     X6789ABCDEF"


def _cell(mine: int, theirs: int, row: int, me: str, them: str) -> str:
    count, side = (mine, me) if mine else (theirs, them)
    if row < 4:
        return side if count > row else " "
    return _FIFTH[count].replace("X", side)


def gnubg_board(position: Position, x_on_roll: bool, *, xg: bool = False) -> list[str]:
    """The board as gnubg 1.07 draws it (checked against its output below), or in
    XG's layout (no trays, X's bar checkers in the top half of the BAR column)."""
    if x_on_roll:
        x, o, x_bar, o_bar = (
            position.on_roll,
            position.opponent,
            position.on_roll_bar,
            position.opponent_bar,
        )
    else:
        o, x, o_bar, x_bar = (
            position.on_roll,
            position.opponent,
            position.on_roll_bar,
            position.opponent_bar,
        )
    x_off, o_off = 15 - sum(x) - x_bar, 15 - sum(o) - o_bar
    top_bar, top_bar_side, bottom_bar, bottom_bar_side = (
        (x_bar, "X", o_bar, "O") if xg else (o_bar, "O", x_bar, "X")
    )

    def row(points, y, bar, bar_side, off, off_side):
        cells = [" " + _cell(x[p - 1], o[24 - p], y, "X", "O") + " " for p in points]
        bar_cell = _cell(bar, 0, y, bar_side, bar_side)
        tray = "" if xg else " " + "".join(off_side if off > 5 * c + y else " " for c in range(3))
        return f" |{''.join(cells[:6])}| {bar_cell} |{''.join(cells[6:])}|{tray}".rstrip()

    top_points, bottom_points = list(range(13, 25)), list(range(12, 0, -1))
    lines = [_TOP_X if x_on_roll else _BOTTOM_X]
    lines += [row(top_points, y, top_bar, top_bar_side, o_off, "O") for y in range(5)]
    lines.append(("v" if x_on_roll else "^") + "|                  |BAR|                  |")
    lines += [
        row(bottom_points, y, bottom_bar, bottom_bar_side, x_off, "X") for y in range(4, -1, -1)
    ]
    lines.append(_BOTTOM_X if x_on_roll else _TOP_X)
    return [line.rstrip() for line in lines]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_the_test_renderer_draws_what_gnubg_draws(case):
    """The round-trip below writes boards the way gnubg 1.07 does, column for column."""
    printed = case["text"].splitlines()[2:15]
    drawn = gnubg_board(position_from_id(case["position_id"]), case["x_on_roll"])
    assert [line[:48].rstrip() for line in printed] == drawn


@settings(max_examples=150, deadline=None)
@given(position=positions(), x_on_roll=hst.booleans(), with_id=hst.booleans())
def test_round_trip_through_gnubg_text(position, x_on_roll, with_id):
    lines = gnubg_board(position, x_on_roll)
    if with_id:
        lines = [f" GNU Backgammon  Position ID: {position_id(position)}", *lines]
    pasted = parse_position_text("\n".join(lines))
    assert pasted.position == position
    assert pasted.on_roll == ("X" if x_on_roll else "O")


@settings(max_examples=100, deadline=None)
@given(position=positions(), x_on_roll=hst.booleans())
def test_round_trip_through_xg_text(position, x_on_roll):
    drawn = position if x_on_roll else position.swapped()  # XG keeps X at the bottom
    lines = [xgid(position, bottom_on_roll=x_on_roll), "", *gnubg_board(drawn, True, xg=True)]
    pasted = parse_position_text("\n".join(lines))
    assert pasted.position == position
    assert pasted.on_roll == ("X" if x_on_roll else "O")


# --- bad pastes ---------------------------------------------------------------------------

START_TEXT = NAMED[0]["text"]


def _replace_line(text, k, new):
    lines = text.splitlines()
    lines[k] = new
    return "\n".join(lines)


BAD_PASTES = {
    "empty": ("   \n  ", r"the paste is empty; expected GNU Backgammon's board"),
    "prose": ("double? take? what do you think", r"no position found; expected"),
    "too long": ("x" * (MAX_TEXT_LENGTH + 1), r"characters long; a position is at most"),
    "too many lines": ("\n" * MAX_LINES, rf"has {MAX_LINES + 1} lines"),
    "short position id": (
        START_TEXT.replace("4HPwATDgc/ABMA", "4HPwATDgc/ABM"),
        r"line 1: the Position ID '4HPwATDgc/ABM': it must have 14 characters, got 13",
    ),
    "bad match id": (
        START_TEXT.replace("cAkAAAAAAAAA", "cAk*AAAAAAAA"),
        r"line 2: the Match ID 'cAk\*AAAAAAAA': it has characters outside Base64",
    ),
    "board and id disagree": (
        _replace_line(START_TEXT, 13, " | O           X    |   | X           O    |"),
        r"line 3: the board drawn and the Position ID \(line 1\) disagree: O's 23-point has "
        r"1 checkers on the board, 0 in the Position ID",
    ),
    "a missing board row": (
        "\n".join(line for k, line in enumerate(START_TEXT.splitlines()) if k != 5),
        r"line 3: expected 11 lines between the two rows of point numbers "
        r"\(lines 3 and 14\), found 10",
    ),
    "both colours on a point": (
        _replace_line(START_TEXT, 4, " | X           O    |   | O              O |"),
        r"line 4: point 24 shows checkers of both X and O",
    ),
    "junk in a point": (
        _replace_line(START_TEXT, 3, " | X           O    |   | O              Z |"),
        r"line 4: point 24 has an unexpected character 'Z'",
    ),
    "sixteen checkers": (
        _replace_line(START_TEXT, 7, " | X     X          |   | O                |"),
        r"line 3: the board shows 16 checkers of X; at most 15 allowed",
    ),
    "tray disagrees": (
        _replace_line(START_TEXT, 3, " | X           O    |   | O              X | O"),
        r"the tray shows 1 checkers of O borne off, but the board has 15 of them in play",
    ),
    "two positions": (
        START_TEXT + "\n" + NAMED[2]["text"],
        r"expected one board \(two rows of point numbers\), found 4",
    ),
    "bad xgid": (
        XG_CHECKER_PLAY.replace(":1:-1:1:21:", ":1:-1:1:21:9:"),
        r"line 1: the XGID: it must have 10 fields separated by ':', got 11",
    ),
    "xg board and xgid disagree": (
        XG_CHECKER_PLAY.replace("-B-CBBB---a---A", "-B-CBBB--a----A"),
        r"line 5: the board drawn and the XGID \(line 1\) disagree: O's 15-point has 1 "
        r"checkers on the board, 0 in the XGID",
    ),
    "xg cube line disagrees": (
        XG_CHECKER_PLAY.replace("Cube: 2, O own cube", "Cube: 2, X own cube"),
        r"line 19: the cube line says cube 2 owned by X; the XGID says cube 2 owned by O",
    ),
    "xg score past the match": (
        XG_CHECKER_PLAY.replace(":3:6:0:7:10", ":3:7:0:7:10").replace("O:6 7", "O:7 7"),
        r"the score X 3, O 7 is not below the match length 7 \(the match is over\)",
    ),
    "xg board without who is on roll": (
        "\n".join(line for line in XG_CHECKER_PLAY.splitlines()[:18] if "XGID" not in line),
        r"the paste has neither an XGID nor a line saying who is on roll",
    ),
    "ids of both programs": (
        START_TEXT + "\n" + XG_CHECKER_PLAY.splitlines()[0],
        r"both an XGID and a gnubg Position or Match ID",
    ),
    "match id alone": ("Match ID: cAkAAAAAAAAA", r"a Match ID but no Position ID and no board"),
    "not a string": (b"XGID=", r"`text` must be a string, got bytes"),
}


@pytest.mark.parametrize("name", BAD_PASTES)
def test_a_bad_paste_is_named(name):
    text, message = BAD_PASTES[name]
    with pytest.raises(ValueError, match=message) as raised:
        parse_position_text(text)
    assert "`" not in str(raised.value) or name == "not a string"  # a player reads it


@pytest.mark.parametrize("case", NAMED[:6], ids=[c["name"] for c in NAMED[:6]])
def test_a_paste_that_lost_its_indentation_is_read(case):
    """Forums and chats strip leading blanks; the board is read from its own '|' and '+'."""
    text = "\n".join(line.lstrip() for line in case["text"].splitlines())
    assert _read(parse_position_text(text)) == _expected(case)


@pytest.mark.parametrize(
    ("match_id", "message"),
    [
        ("cAkAAAAAAAA", r"must have 12 characters, got 11"),
        ("cAk=AAAAAAAA", r"outside Base64"),
        ("IAAAAAAAAAAA", r"cube owner bits are 10"),
        ("MIABAAAAAAAA", r"dice are not a roll: 3 and 0"),
        ("MIALAAAAAAAA", r"dice are not a roll: 7 and 2"),
        ("MACgAFAAAAAA", r"score 5-0 is not below the match length 5"),
    ],
)
def test_a_bad_match_id_is_named(match_id, message):
    with pytest.raises(ValueError, match=message):
        match_id_info(match_id)


@settings(max_examples=300, deadline=None)
@given(
    case=hst.sampled_from(NAMED + [{"text": t} for t, *_ in XG_SAMPLES.values()]),
    edits=hst.lists(
        hst.tuples(hst.integers(0, 2000), hst.sampled_from(list("XO|+- 0123456789ABFZ\n:"))),
        min_size=1,
        max_size=6,
    ),
    delete=hst.booleans(),
)
def test_damaged_pastes_give_a_value_error_or_a_position(case, edits, delete):
    """Whatever a paste is damaged into, the answer is a position or a ValueError."""
    text = list(case["text"])
    for at, char in edits:
        at %= len(text)
        if delete:
            del text[at]
        else:
            text[at] = char
    try:
        pasted = parse_position_text("".join(text))
    except ValueError as error:
        assert str(error)
    else:
        assert isinstance(pasted.position, Position)


@settings(max_examples=200, deadline=None)
@given(text=hst.text(max_size=400))
def test_any_text_gives_a_value_error_or_a_position(text):
    try:
        parse_position_text(text)
    except ValueError as error:
        assert str(error)


@pytest.mark.parametrize(
    ("flags", "jacoby", "beavers"), [(0, False, False), (1, True, False), (3, True, True)]
)
def test_xg_money_rules(flags, jacoby, beavers):
    """In money play the XGID's 8th field is Jacoby (1) plus beavers (2) ([XG])."""
    pasted = parse_position_text(f"XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:{flags}:0:10")
    assert pasted.is_money and pasted.away is None and pasted.opp_away is None
    assert (pasted.jacoby, pasted.beavers) == (jacoby, beavers)


def test_xg_money_rules_from_the_score_line_without_an_xgid():
    text = XG_NO_DOUBLE.replace("XGID=", "no id: ").replace(
        "Score is X:0 O:5 9 pt.(s) match.", "Score is X:0 O:0. Unlimited Game, Jacoby Beaver"
    )
    text = "\n".join(line for line in text.splitlines() if not line.startswith("no id"))
    pasted = parse_position_text(text)
    assert pasted.is_money and (pasted.jacoby, pasted.beavers) == (True, True)
    assert pasted.position.pips == (147, 137)


@pytest.mark.parametrize(
    "bad",
    [
        lambda: position_from_id(14),
        lambda: position_from_id("not an id!"),
        lambda: position_from_id("4HPwATDgc/ABM"),
        lambda: xgid_info("XGID=-b----E-C---eE---c-e----B-:0:0:1"),
        lambda: xgid_info("XGID=" + "-" * 26 + ":0:0:7:00:0:0:0:0:10"),
        lambda: match_id_info(12),
        lambda: match_id_info("cAkAAAAAAAA"),
        lambda: Position((-1,) + (0,) * 23, (0,) * 24),
        lambda: Position((0,) * 24, (0,) * 24, on_roll_bar=-1),
        lambda: Position((0,) * 24, (0,) * 24, opponent_bar=1.5),
    ],
)
def test_a_position_message_in_players_words_names_no_parameter(bad):
    with pytest.raises(ValueError) as raised:
        bad()
    words = players_words(str(raised.value))
    assert words and "`" not in words
    for name in ("position_id", "match_id", "on_roll", "_bar", "text:"):
        assert name not in words, words
