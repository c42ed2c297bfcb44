"""Read a position pasted as GNU Backgammon's or eXtreme Gammon's text.

Players copy positions out of their engine as text. Two forms are read, each with its
board drawn in ASCII:

1. **GNU Backgammon** ([GNU]_; 1.07's ``show board``, its "Copy position as ASCII" and
   its ``export position text``)::

        GNU Backgammon  Position ID: 4HPwATDgc/ABMA
                        Match ID   : cAkAAAAAAAAA
        +13-14-15-16-17-18------19-20-21-22-23-24-+     O: gnubg
        | X           O    |   | O              X |     0 points
        ...
       v|                  |BAR|                  |     (Cube: 1)
        ...
        +12-11-10--9--8--7-------6--5--4--3--2--1-+     X: root

   X's home is the bottom right. The point numbers are those of the player on roll (X
   when the top row reads 13..24, O when it reads 12..1). A point shows up to five
   checkers; a sixth and more turn the fifth into the count (``6``-``9``, ``A``-``F``
   for 10-15). O's bar is the top half of the ``BAR`` column, X's the bottom half; the
   three columns right of the board are the trays (borne-off checkers, one letter
   each). The text right of the board names the players, the cube (``(Cube: 2)`` on its
   owner's line, in the middle when centred), the scores, the match length,
   ``(Crawford game)`` and the dice. The Position ID is written from the view of the
   player on roll; the Match ID holds cube, score, Crawford flag, who is on roll and
   the dice (:func:`match_id_info`). Lines ``Position ID: ...`` and ``Match ID: ...``
   without the board are read too.

2. **eXtreme Gammon** ([XG]_; the text of XG's "Copy position", as players post it)::

       XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:1:21:3:6:0:7:10

       X:Player 1   O:Player 2
       Score is X:3 O:6 7 pt.(s) match.
        +13-14-15-16-17-18------19-20-21-22-23-24-+
        |    X           X |   | X  O  O  O  O  O | +---+
        ...
        +12-11-10--9--8--7-------6--5--4--3--2--1-+
       Pip count  X: 111  O: 52 X-O: 3-6/7
       Cube: 2, O own cube
       X to play 21

   X (the XGID's upper case, bottom player) has the bottom right home board; the
   board is drawn the same way as gnubg's, without trays (X's bar checkers drawn in
   the top half of the ``BAR`` column), the cube in a box right of the owner's half.
   The XGID is read with :func:`cubecore.position.xgid_info`; the ``Score is``,
   ``Cube:`` and ``to play`` / ``on roll`` lines are read when there is no XGID and
   checked against it when there is.

When the paste holds an ID (Position ID, XGID) the position is the ID's and the drawn
board must agree with it, point by point; a drawn board and an ID that disagree are
refused with both counts named. Without an ID the drawn board is read.

Every problem raises ``ValueError`` naming the line (1-based) and what is wrong; the
paste is limited to :data:`MAX_TEXT_LENGTH` characters and :data:`MAX_LINES` lines, so
the work is bounded.

References
----------
.. [GNU] GNU Backgammon manual, section 11.7 "A technical description of the Match ID",
   https://www.gnu.org/software/gnubg/manual/html_node/
   A-technical-description-of-the-Match-ID.html ;
   the board text as GNU Backgammon 1.07.001 prints it (``tests/data/gnubg_position_text.json``,
   made by ``scripts/gnubg/position_text_samples.py``).
.. [XG] X. Dufaure de Citres, "XG file format" (GameSite 2000 Ltd), the ``XGID`` string,
   https://www.extremegammon.com/xgformat.aspx ; XG 2.10 "Copy position" texts kept by
   K. Unger, ``xgparser``, ``test/2025-11-04/*_EN.txt`` (2025),
   https://github.com/kevung/xgparser
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from typing import Literal

from cubecore.match_points import CubeOwner
from cubecore.position import (
    CHECKERS,
    POINTS,
    Position,
    XgidInfo,
    position_from_id,
    xgid_info,
)

__all__ = [
    "MAX_LINES",
    "MAX_TEXT_LENGTH",
    "MatchIdInfo",
    "PastedPosition",
    "match_id_info",
    "parse_position_text",
    "players_words",
]

#: The names this package's messages about a position give its parameters and fields
#: (in backticks, for programmers), and what a player calls them. Longer names first:
#: ``on_roll`` is part of ``on_roll_bar``.
_PLAYERS_WORDS = (
    ("`on_roll_bar`", "the roller's bar"),
    ("`opponent_bar`", "the opponent's bar"),
    ("`position_id`", "the Position ID"),
    ("position_id", "the Position ID"),
    ("`match_id`", "the Match ID"),
    ("match_id", "the Match ID"),
    ("`text`: ", ""),
    ("`on_roll`", "the player on roll"),
    ("`opponent`", "the opponent"),
    ("on_roll's", "the roller's"),
    ("on_roll", "the player on roll"),
    ("opponent's point", "the opponent's point"),
    ("XGID field ", "the XGID's field "),
    ("XGID board", "the XGID's board"),
    ("`", ""),
)


def players_words(message: str) -> str:
    """A message of this package about a position, in a player's words.

    The messages of :func:`~cubecore.position.position_from_id`,
    :func:`~cubecore.position.xgid_info`, :func:`match_id_info` and :class:`Position`
    name the parameter that is wrong in backticks, for programmers; a page or the store
    shows them to players with the names a player uses.

    Parameters
    ----------
    message : str
        The message (``str(error)`` of the ``ValueError``).

    Returns
    -------
    str
        The message with every parameter and field name replaced.

    Examples
    --------
    >>> players_words("position_id is not valid Base64: Incorrect padding")
    'the Position ID is not valid Base64: Incorrect padding'
    >>> players_words("`on_roll_bar`: the count on the bar is negative (-1)")
    "the roller's bar: the count on the bar is negative (-1)"
    """
    for name, words in _PLAYERS_WORDS:
        message = message.replace(name, words)
    return message


#: Longest paste accepted (characters): a board with its analysis is a few thousand.
MAX_TEXT_LENGTH = 20_000
#: Most lines accepted in a paste.
MAX_LINES = 400

Source = Literal["GNU Backgammon", "eXtreme Gammon"]
Side = Literal["X", "O"]

#: gnubg's players 0 and 1 as its board draws them.
_PLAYERS: dict[int | None, Side] = {0: "O", 1: "X"}
_MATCH_ID_LENGTH = 12
_MATCH_KEY_BITS = 72
_BASE64 = re.compile(r"^[A-Za-z0-9+/]*$")
_POSITION_ID_LINE = re.compile(r"Position\s*ID\s*:\s*(\S*)", re.IGNORECASE)
_MATCH_ID_LINE = re.compile(r"Match\s*ID\s*:\s*(\S*)", re.IGNORECASE)
_XGID_LINE = re.compile(r"XGID=(\S*)", re.IGNORECASE)
#: A row of point numbers: ``+13-14-...-24-+`` (any orientation).
_NUMBERS = re.compile(r"\+(?:-*\d{1,2}){12}-*\+")
_BOARD_ROWS = 11  # five rows a half and the middle (BAR) line
_HALF = 5
_TRAY = 3  # gnubg's trays: three columns of five right of the board
_HEX = "6789ABCDEF"  # gnubg's counts 6..15 on the fifth checker
_XG_SCORE = re.compile(
    r"Score\s+is\s+X\s*:\s*(\d+)\s+O\s*:\s*(\d+)\s*(?:\.?\s*(\d+)\s*pt|\.\s*Unlimited)",
    re.IGNORECASE,
)
_XG_CUBE = re.compile(r"^\s*Cube\s*:\s*(\d+)(?:\s*,\s*([XO])\s+own)?", re.IGNORECASE)
_XG_PIPS = re.compile(r"Pip\s+count\s+X\s*:\s*(\d+)\s+O\s*:\s*(\d+)", re.IGNORECASE)
_XG_TURN = re.compile(r"^\s*([XO])\s+(?:to\s+play|on\s+roll)", re.IGNORECASE)


@dataclass(frozen=True)
class MatchIdInfo:
    """The fields of a GNU Backgammon Match ID ([GNU]_ section 11.7).

    Attributes
    ----------
    cube_value : int
        ``2 ** (bits 1-4)``.
    cube_owner : int or None
        gnubg's player 0 or 1 (bits 5-6), None when centred.
    player_on_roll : int
        The player on roll or who rolled (bit 7): 0 or 1 (gnubg's "X" is player 1).
    crawford : bool
        This is the Crawford game (bit 8).
    game_state : int
        Bits 9-11: 0 no game, 1 playing, 2 over, 3 resigned, 4 ended by a drop.
    turn : int
        The player to make a decision (bit 12).
    double_offered : bool
        Bit 13.
    resignation : int
        Bits 14-15: 0 none, 1 single, 2 gammon, 3 backgammon.
    dice : tuple of int or None
        Bits 16-18 and 19-21; None when not rolled.
    match_length : int
        Bits 22-36; 0 is money play.
    score : tuple of int
        Points of players 0 and 1 (bits 37-51, 52-66).
    """

    cube_value: int
    cube_owner: int | None
    player_on_roll: int
    crawford: bool
    game_state: int
    turn: int
    double_offered: bool
    resignation: int
    dice: tuple[int, int] | None
    match_length: int
    score: tuple[int, int]


def match_id_info(match_id: str) -> MatchIdInfo:
    """Read a GNU Backgammon Match ID.

    The match key is 66 bits (``[GNU]_`` section 11.7), bit ``k`` of the string being
    bit ``k mod 8`` of byte ``k div 8`` (as the Position ID), written as the 12
    characters of its Base64 encoding: cube (4 bits, log2), cube owner (2: 0, 1, or 3
    centred), player on roll (1), Crawford (1), game state (3), turn (1), doubled (1),
    resignation (2), two dice (3 each), match length (15), the two scores (15 each).

    Parameters
    ----------
    match_id : str
        12 Base64 characters; surrounding blanks are ignored.

    Returns
    -------
    MatchIdInfo

    Raises
    ------
    ValueError
        Naming the problem: wrong length, a character outside Base64, a cube owner
        of ``10``, a die above 6 or a single die, a score not below the match length.

    Examples
    --------
    A 7-point match at 3 points (player 0) to 5 (player 1), player 0 holding a
    2-cube, player 1 on roll (``tests/data/gnubg_position_text.json``):

    >>> info = match_id_info("QQngADAAKAAE")
    >>> info.cube_value, info.cube_owner, info.player_on_roll, info.match_length, info.score
    (2, 0, 1, 7, (3, 5))
    """
    if not isinstance(match_id, str):
        raise ValueError(f"`match_id` must be a string, got {type(match_id).__name__}")
    text = match_id.strip()
    if len(text) != _MATCH_ID_LENGTH:
        raise ValueError(
            f"`match_id` must have {_MATCH_ID_LENGTH} characters, got {len(text)} ({text[:40]!r})"
        )
    if not _BASE64.match(text):
        bad = sorted({c for c in text if not _BASE64.match(c)})
        raise ValueError(
            f"match_id has characters outside Base64 (A-Z a-z 0-9 + /): {''.join(bad)!r}"
        )
    key = base64.b64decode(text, validate=True)
    bits = [(key[k // 8] >> (k % 8)) & 1 for k in range(_MATCH_KEY_BITS)]

    def field(first: int, width: int) -> int:  # [GNU] 11.7: bit numbers from 1
        return sum(bits[first - 1 + i] << i for i in range(width))

    owner_bits = field(5, 2)
    if owner_bits == 2:
        raise ValueError("match_id's cube owner bits are 10 (only 00, 01 or 11 are used)")
    die1, die2 = field(16, 3), field(19, 3)
    if die1 > 6 or die2 > 6 or (die1 == 0) != (die2 == 0):
        raise ValueError(f"match_id's dice are not a roll: {die1} and {die2}")
    length = field(22, 15)
    score = (field(37, 15), field(52, 15))
    if length and max(score) >= length:
        raise ValueError(
            f"match_id's score {score[0]}-{score[1]} is not below the match length {length}"
            " (the match is over)"
        )
    state = field(9, 3)
    if state > 4:
        raise ValueError(f"match_id's game state is {state}; 0 to 4 are defined")
    return MatchIdInfo(
        cube_value=2 ** field(1, 4),
        cube_owner=None if owner_bits == 3 else owner_bits,
        player_on_roll=field(7, 1),
        crawford=bool(field(8, 1)),
        game_state=state,
        turn=field(12, 1),
        double_offered=bool(field(13, 1)),
        resignation=field(14, 2),
        dice=(die1, die2) if die1 else None,
        match_length=length,
        score=score,
    )


@dataclass(frozen=True)
class PastedPosition:
    """A position read from a paste, with what the paste says about cube and score.

    Attributes
    ----------
    position : Position
        The checkers, from the view of the player on roll.
    source : {"GNU Backgammon", "eXtreme Gammon"}
    on_roll : {"X", "O"} or None
        Which of the paste's two sides is on roll (None when a bare Position ID does
        not say).
    cube_value : int
    cube_owner : {"center", "player", "opponent"}
        Seen from the player on roll (as :mod:`cubecore.match_points`).
    match_length : int
        0 for money play.
    away, opp_away : int or None
        Points the player on roll and the opponent still need; None for money.
    crawford : bool
        The Crawford game.
    dice : tuple of int or None
        The rolled dice, None before the roll (a cube decision).
    cube_offered : bool
        A double is on offer (XG's ``D``/``B``/``R`` dice, gnubg's doubled flag).
    jacoby, beavers : bool or None
        Money rules the paste states (XG); None when it says nothing.
    read_from : str
        How the position was read, e.g. ``"Position ID (the board drawn agrees)"``.
    """

    position: Position
    source: Source
    on_roll: Side | None
    cube_value: int
    cube_owner: CubeOwner
    match_length: int
    away: int | None
    opp_away: int | None
    crawford: bool
    dice: tuple[int, int] | None
    cube_offered: bool
    jacoby: bool | None
    beavers: bool | None
    read_from: str

    @property
    def is_money(self) -> bool:
        """True for money play (no match length)."""
        return self.match_length == 0


@dataclass(frozen=True)
class _Board:
    """A drawn board: each side's counts on its own points 1..24 and its bar."""

    x: tuple[int, ...]
    o: tuple[int, ...]
    x_bar: int
    o_bar: int
    x_off: int | None  # the trays (gnubg), None when not drawn
    o_off: int | None
    numbered_for: Side  # whose point numbers the board shows
    top_line: int  # 0-based index of the top number row
    side_text: tuple[str, ...]  # the text right of each of the 13 lines


def _plain(error: ValueError) -> str:
    """An ID decoder's message in a player's words: no parameter names in backticks."""
    text = str(error)
    for code, words in (
        ("`position_id` must", "it must"),
        ("`match_id` must", "it must"),
        ("`text`: an XGID must", "it must"),
        ("position_id ", "it "),
        ("match_id's ", "its "),
        ("match_id ", "it "),
        ("XGID ", ""),
    ):
        text = text.replace(code, words)
    return text.replace("`", "")


def _where(line: int) -> str:
    return f"line {line + 1}"


def _read_numbers(lines: list[str], row: int) -> tuple[int, dict[int, int]]:
    """The anchor ('+') column of a number row and {offset from it: point number}."""
    line = lines[row]
    found = _NUMBERS.search(line)
    if found is None:  # pragma: no cover - rows are found with the same pattern
        raise ValueError(f"{_where(row)}: expected a row of point numbers")
    anchor = found.start()
    numbers: dict[int, int] = {}
    for number in re.finditer(r"\d{1,2}", found.group(0)):
        numbers[number.end() - 1] = int(number.group(0))
    if len(numbers) != 12:  # pragma: no cover - the pattern holds twelve
        raise ValueError(f"{_where(row)}: expected 12 point numbers, got {len(numbers)}")
    return anchor, numbers


def _column(
    lines: list[str], rows: list[int], offset: int, what: str
) -> tuple[Side | None, int, str]:
    """Read one point (or bar half) drawn down ``rows`` (edge first) at ``offset``
    from each row's first '|'. Returns (side, count, the characters read)."""
    chars: list[str] = []
    for row in rows:
        line = lines[row]
        anchor = line.find("|")
        if anchor < 0:
            raise ValueError(f"{_where(row)}: expected a board row starting with '|'")
        k = anchor + offset
        c = line[k] if k < len(line) else " "
        if c.isdigit() and k + 1 < len(line) and line[k + 1].isdigit():
            c = line[k : k + 2]  # a two-digit count
        elif c.isdigit() and k >= 1 and line[k - 1].isdigit():
            c = line[k - 1 : k + 1]
        chars.append(c)
    letters = [c for c in chars if c in ("X", "O")]
    sides = set(letters)
    if len(sides) > 1:
        raise ValueError(
            f"{_where(rows[0])}: {what} shows checkers of both X and O ({''.join(chars)!r})"
        )
    side: Side | None = "X" if "X" in sides else ("O" if "O" in sides else None)
    counts = [c for c in chars if c not in ("X", "O", " ")]
    if not counts:
        return side, len(letters), "".join(chars)
    if len(counts) > 1 or side is None:
        raise ValueError(
            f"{_where(rows[0])}: {what} has characters that are not checkers "
            f"({''.join(chars)!r}; expected X, O, or a count 6-15 over four checkers)"
        )
    token = counts[0]
    if token.isdigit():
        count = int(token)
    elif len(token) == 1 and token in _HEX:
        count = 6 + _HEX.index(token)
    else:
        raise ValueError(f"{_where(rows[0])}: {what} has an unexpected character {token!r}")
    if not 6 <= count <= CHECKERS or len(letters) != _HALF - 1:
        raise ValueError(
            f"{_where(rows[0])}: {what} shows the count {token!r} over {len(letters)} "
            f"checkers (a count of 6 to 15 is written over four)"
        )
    return side, count, "".join(chars)


def _find_board(lines: list[str]) -> _Board | None:
    """The drawn board of the paste, or None when it has none."""
    number_rows = [k for k, line in enumerate(lines) if _NUMBERS.search(line)]
    if not number_rows:
        return None
    if len(number_rows) != 2:
        raise ValueError(
            f"{_where(number_rows[0])}: expected one board (two rows of point numbers), "
            f"found {len(number_rows)} rows of point numbers (paste one position)"
        )
    top, bottom = number_rows
    if bottom - top != _BOARD_ROWS + 1:
        raise ValueError(
            f"{_where(top)}: expected {_BOARD_ROWS} lines between the two rows of point "
            f"numbers (lines {top + 1} and {bottom + 1}), found {bottom - top - 1}"
        )
    top_anchor, top_numbers = _read_numbers(lines, top)
    bottom_anchor, bottom_numbers = _read_numbers(lines, bottom)
    if set(top_numbers.values()) not in (set(range(13, 25)), set(range(1, 13))):
        raise ValueError(
            f"{_where(top)}: the top row of point numbers must read 13 to 24 or 12 to 1"
        )
    top_shifted = {k + top_anchor: v for k, v in top_numbers.items()}
    bottom_shifted = {k + bottom_anchor: v for k, v in bottom_numbers.items()}
    if set(top_shifted) != set(bottom_shifted) or any(
        top_shifted[k] + bottom_shifted[k] != POINTS + 1 for k in top_shifted
    ):
        raise ValueError(
            f"{_where(bottom)}: the bottom row of point numbers does not match the top row "
            f"(line {top + 1}): each point must face the point 25 minus its number"
        )
    numbered_for: Side = "X" if min(top_numbers.values()) == 13 else "O"

    def x_point(label: int) -> int:  # the column's point in X's numbering
        return label if numbered_for == "X" else POINTS + 1 - label

    top_rows = list(range(top + 1, top + 1 + _HALF))
    middle = top + 1 + _HALF
    bottom_rows = list(range(bottom - 1, bottom - 1 - _HALF, -1))  # edge first
    x, o = [0] * POINTS, [0] * POINTS
    for rows, numbers in ((top_rows, top_numbers), (bottom_rows, bottom_numbers)):
        for offset, label in numbers.items():
            point = x_point(label)
            side, count, _ = _column(lines, rows, offset, f"point {label}")
            if side == "X":
                x[point - 1] = count
            elif side == "O":
                o[POINTS - point] = count
    bar_at = lines[middle].find("BAR")
    middle_anchor = lines[middle].find("|")
    if bar_at < 0 or middle_anchor < 0 or bar_at < middle_anchor:
        raise ValueError(f"{_where(middle)}: expected the middle line of the board, with '|BAR|'")
    bar_offset = bar_at + 1 - middle_anchor
    bars = {"X": 0, "O": 0}
    for rows in (top_rows, bottom_rows):
        side, count, _ = _column(lines, rows[::-1], bar_offset, "the bar")
        if side is not None:
            bars[side] += count
    right_edge = max(top_numbers) + 2  # the closing '+', from the anchor
    side_text = tuple(
        line[line.find("|") + right_edge + 1 :] if "|" in line else ""
        for line in lines[top + 1 : bottom]
    )
    x_off, o_off = _trays(lines, top_rows, bottom_rows, right_edge)
    for side, counts, bar in (("X", x, bars["X"]), ("O", o, bars["O"])):
        if sum(counts) + bar > CHECKERS:
            raise ValueError(
                f"{_where(top)}: the board shows {sum(counts) + bar} checkers of {side}; "
                f"at most {CHECKERS} allowed"
            )
    for point in range(POINTS):
        if x[point] and o[POINTS - 1 - point]:  # pragma: no cover - one column a point
            raise ValueError(f"{_where(top)}: X and O on one point")
    return _Board(
        tuple(x),
        tuple(o),
        bars["X"],
        bars["O"],
        x_off,
        o_off,
        numbered_for,
        top,
        (lines[top][top_anchor + right_edge + 1 :], *side_text,
         lines[bottom][bottom_anchor + right_edge + 1 :]),
    )  # fmt: skip


def _trays(
    lines: list[str], top_rows: list[int], bottom_rows: list[int], right_edge: int
) -> tuple[int | None, int | None]:
    """gnubg's trays: letters in the three columns right of the board, or None when
    those columns hold anything else (XG's cube box, or no tray)."""
    counts: dict[str, int] = {}
    for side, rows in (("O", top_rows), ("X", bottom_rows)):
        count = 0
        for row in rows:
            line = lines[row]
            start = line.find("|") + right_edge + 2
            cells = line[start : start + _TRAY].ljust(_TRAY)
            if line[start - 1 : start] not in ("", " ") or set(cells) - {side, " "}:
                return None, None
            count += cells.count(side)
        counts[side] = count
    return counts["X"], counts["O"]


def _ids(lines: list[str], pattern: re.Pattern[str], name: str) -> tuple[int, str] | None:
    """The single (line, value) of an ID in the paste, or None."""
    found = [(k, m.group(1)) for k, line in enumerate(lines) if (m := pattern.search(line))]
    if not found:
        return None
    values = {value for _, value in found}
    if len(values) > 1:
        where = ", ".join(str(k + 1) for k, _ in found)
        raise ValueError(
            f"{_where(found[1][0])}: the paste holds {len(values)} different {name}s "
            f"(lines {where}); paste one position"
        )
    return found[0]


def _position_of(board: _Board, on_roll: Side) -> Position:
    if on_roll == "X":
        return Position(board.x, board.o, board.x_bar, board.o_bar)
    return Position(board.o, board.x, board.o_bar, board.x_bar)


def _compare(board: _Board, position: Position, on_roll: Side, id_line: int, name: str) -> None:
    """Raise naming the first place where the drawn board and the ID differ."""
    drawn = _position_of(board, on_roll)
    if drawn == position:
        return
    other: Side = "O" if on_roll == "X" else "X"
    for who, mine, theirs in (
        (on_roll, drawn.on_roll, position.on_roll),
        (other, drawn.opponent, position.opponent),
    ):
        for point in range(1, POINTS + 1):
            if mine[point - 1] != theirs[point - 1]:
                raise ValueError(
                    f"{_where(board.top_line)}: the board drawn and the {name} "
                    f"({_where(id_line)}) disagree: {who}'s {point}-point has "
                    f"{mine[point - 1]} checkers on the board, {theirs[point - 1]} in the {name}"
                )
    for who, mine_bar, theirs_bar in (
        (on_roll, drawn.on_roll_bar, position.on_roll_bar),
        (other, drawn.opponent_bar, position.opponent_bar),
    ):
        if mine_bar != theirs_bar:
            raise ValueError(
                f"{_where(board.top_line)}: the board drawn and the {name} "
                f"({_where(id_line)}) disagree: {who} has {mine_bar} checkers on the bar "
                f"on the board, {theirs_bar} in the {name}"
            )


def _check_trays(board: _Board) -> None:
    for side, off, counts, bar in (
        ("X", board.x_off, board.x, board.x_bar),
        ("O", board.o_off, board.o, board.o_bar),
    ):
        if off is not None and off != CHECKERS - sum(counts) - bar:
            raise ValueError(
                f"{_where(board.top_line)}: the tray shows {off} checkers of {side} borne "
                f"off, but the board has {sum(counts) + bar} of them in play "
                f"({CHECKERS - sum(counts) - bar} borne off)"
            )


def _owner(owner: Side | None, on_roll: Side) -> CubeOwner:
    if owner is None:
        return "center"
    return "player" if owner == on_roll else "opponent"


def _aways(
    length: int, score_x: int, score_o: int, on_roll: Side, line: int
) -> tuple[int | None, int | None]:
    if not length:
        return None, None
    if max(score_x, score_o) >= length:
        raise ValueError(
            f"{_where(line)}: the score X {score_x}, O {score_o} is not below the match "
            f"length {length} (the match is over)"
        )
    mine, theirs = (score_x, score_o) if on_roll == "X" else (score_o, score_x)
    return length - mine, length - theirs


def _gnubg(lines: list[str], board: _Board | None) -> PastedPosition:
    pid = _ids(lines, _POSITION_ID_LINE, "Position ID")
    mid = _ids(lines, _MATCH_ID_LINE, "Match ID")
    info: MatchIdInfo | None = None
    if mid is not None:
        try:
            info = match_id_info(mid[1])
        except ValueError as error:
            raise ValueError(
                f"{_where(mid[0])}: the Match ID {mid[1][:20]!r}: {_plain(error)}"
            ) from None
    on_roll: Side | None = None
    if board is not None:
        on_roll = board.numbered_for
        _check_trays(board)
    if info is not None:
        by_id = _PLAYERS[info.player_on_roll]
        if on_roll is not None and by_id != on_roll:
            raise ValueError(
                f"{_where(mid[0] if mid else 0)}: the Match ID says {by_id} is on roll, but "
                f"the board is numbered for {on_roll} (the player on roll)"
            )
        on_roll = by_id
    if pid is not None:
        try:
            position = position_from_id(pid[1])
        except ValueError as error:
            raise ValueError(
                f"{_where(pid[0])}: the Position ID {pid[1][:20]!r}: {_plain(error)}"
            ) from None
        if board is not None and on_roll is not None:
            _compare(board, position, on_roll, pid[0], "Position ID")
            read_from = "Position ID (the board drawn agrees)"
        else:
            read_from = "Position ID"
    elif board is not None and on_roll is not None:
        position = _position_of(board, on_roll)
        read_from = "the board drawn"
    else:  # pragma: no cover - the caller only comes here with an ID or a board
        raise ValueError("no GNU Backgammon position found")
    if info is not None:
        assert on_roll is not None
        length = info.match_length
        owner = _PLAYERS.get(info.cube_owner)
        score_x, score_o = info.score[1], info.score[0]
        away, opp_away = _aways(length, score_x, score_o, on_roll, mid[0] if mid else 0)
        return PastedPosition(
            position, "GNU Backgammon", on_roll, info.cube_value, _owner(owner, on_roll),
            length, away, opp_away, info.crawford, info.dice, info.double_offered,
            None, None, read_from,
        )  # fmt: skip
    if board is None or on_roll is None:
        return PastedPosition(
            position, "GNU Backgammon", None, 1, "center", 0, None, None, False, None,
            False, None, None, read_from,
        )  # fmt: skip
    return _gnubg_side_text(position, board, on_roll, read_from)


def _gnubg_side_text(
    position: Position, board: _Board, on_roll: Side, read_from: str
) -> PastedPosition:
    """Cube, score and dice from the text gnubg writes right of the board."""
    text = board.side_text
    top_side: Side = "O"
    cube_value, owner = 1, None
    for k, line in enumerate(text):
        found = re.search(r"\(Cube:\s*(\d+)\)", line)
        if found is None:
            continue
        cube_value = int(found.group(1))
        if k == 0:
            owner = top_side
        elif k == len(text) - 1:
            owner = "X"
    if cube_value not in (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096):
        raise ValueError(f"{_where(board.top_line)}: the cube shows {cube_value}, not a power of 2")
    middle = text[1 + _HALF]
    length_found = re.search(r"(\d+)\s+points?\s+match", middle)
    length = int(length_found.group(1)) if length_found else 0
    crawford = "Crawford" in middle
    scores = []
    for line in (text[1], text[-2]):
        found = re.search(r"(\d+)\s+points?\b", line)
        scores.append(int(found.group(1)) if found else 0)
    score_o, score_x = scores
    dice = None
    for line in text:
        rolled = re.search(r"Rolled\s+([1-6])([1-6])", line)
        if rolled:
            dice = (int(rolled.group(1)), int(rolled.group(2)))
    away, opp_away = _aways(length, score_x, score_o, on_roll, board.top_line + 1 + _HALF)
    return PastedPosition(
        position, "GNU Backgammon", on_roll, cube_value, _owner(owner, on_roll), length,
        away, opp_away, crawford, dice, False, None, None,
        read_from + "; cube and score from the text beside it",
    )  # fmt: skip


def _xg(lines: list[str], board: _Board | None) -> PastedPosition:
    xg = _ids(lines, _XGID_LINE, "XGID")
    info: XgidInfo | None = None
    if xg is not None:
        try:
            info = xgid_info(xg[1])
        except ValueError as error:
            raise ValueError(f"{_where(xg[0])}: the XGID: {_plain(error)}") from None
    turn = _first(lines, _XG_TURN)
    score = _first(lines, _XG_SCORE)
    cube = _first(lines, _XG_CUBE)
    stated_turn = _side(turn[1].group(1)) if turn else None
    if info is not None:
        on_roll: Side = "X" if info.bottom_on_roll else "O"
        if stated_turn is not None and stated_turn != on_roll:
            raise ValueError(
                f"{_where(turn[0] if turn else 0)}: the text says {stated_turn} is on roll, "
                f"the XGID ({_where(xg[0] if xg else 0)}) says {on_roll}"
            )
        position = info.position
        read_from = "XGID"
        if board is not None:
            _compare(board, position, on_roll, xg[0] if xg else 0, "XGID")
            read_from = "XGID (the board drawn agrees)"
        length = info.match_length
        score_x, score_o = info.score_bottom, info.score_top
        owner = {1: _side("X"), -1: _side("O")}.get(info.cube_owner)
        cube_value = info.cube_value
        flags = info.crawford_jacoby
        crawford = bool(length) and flags == 1
        jacoby = bool(flags & 1) if not length else None
        beavers = bool(flags & 2) if not length else None
        dice = (
            (int(info.dice[0]), int(info.dice[1]))
            if info.dice.isdigit() and info.dice != "00"
            else None
        )
        offered = info.dice in ("D", "B", "R")
        if score is not None:
            k, found = score
            text_length = int(found.group(3)) if found.group(3) else 0
            stated = (int(found.group(1)), int(found.group(2)), text_length)
            if stated != (score_x, score_o, length):
                raise ValueError(
                    f"{_where(k)}: the score line says X {stated[0]}, O {stated[1]}, "
                    f"{_length_words(stated[2])}; the XGID says X {score_x}, O {score_o}, "
                    f"{_length_words(length)}"
                )
        if cube is not None:
            k, found = cube
            stated_owner = _side(found.group(2)) if found.group(2) else None
            stated_cube = _cube_words(int(found.group(1)), stated_owner)
            if stated_cube != _cube_words(cube_value, owner):
                raise ValueError(
                    f"{_where(k)}: the cube line says {stated_cube}; "
                    f"the XGID says {_cube_words(cube_value, owner)}"
                )
    else:
        if board is None:  # pragma: no cover - the caller checks
            raise ValueError("no eXtreme Gammon position found")
        if stated_turn is None:
            raise ValueError(
                f"{_where(board.top_line)}: the paste has neither an XGID nor a line saying "
                "who is on roll ('X to play 21', 'X on roll, cube action')"
            )
        on_roll = stated_turn
        position = _position_of(board, on_roll)
        read_from = "the board drawn; cube and score from the lines below it"
        length, score_x, score_o = 0, 0, 0
        jacoby = beavers = None
        if score is not None:
            found = score[1]
            score_x, score_o = int(found.group(1)), int(found.group(2))
            length = int(found.group(3)) if found.group(3) else 0
            if not length:
                tail = lines[score[0]]
                jacoby, beavers = "Jacoby" in tail, "Beaver" in tail
        cube_value, owner = 1, None
        if cube is not None:
            cube_value = int(cube[1].group(1))
            owner = _side(cube[1].group(2)) if cube[1].group(2) else None
        crawford = bool(length) and any(
            "Crawford" in line and _XG_PIPS.search(line) for line in lines
        )
        dice = None
        if turn is not None:
            rolled = re.search(r"to\s+play\s+([1-6])([1-6])", lines[turn[0]], re.IGNORECASE)
            if rolled:
                dice = (int(rolled.group(1)), int(rolled.group(2)))
        offered = False
    if cube_value not in (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096):
        raise ValueError(f"the cube shows {cube_value}, not a power of 2")
    if owner is not None and cube_value == 1:
        raise ValueError(f"the cube is owned by {owner} but shows 1 (an owned cube is 2 or more)")
    pips = _first(lines, _XG_PIPS)
    if pips is not None:
        mine, theirs = position.pips
        by_side = {on_roll: mine, ("O" if on_roll == "X" else "X"): theirs}
        stated_pips = (int(pips[1].group(1)), int(pips[1].group(2)))
        if stated_pips != (by_side["X"], by_side["O"]):
            raise ValueError(
                f"{_where(pips[0])}: the pip counts say X {stated_pips[0]}, O "
                f"{stated_pips[1]}; the position has X {by_side['X']}, O {by_side['O']}"
            )
    line = score[0] if score else (xg[0] if xg else 0)
    away, opp_away = _aways(length, score_x, score_o, on_roll, line)
    return PastedPosition(
        position, "eXtreme Gammon", on_roll, cube_value, _owner(owner, on_roll), length,
        away, opp_away, crawford, dice, offered, jacoby, beavers, read_from,
    )  # fmt: skip


def _side(letter: str) -> Side:
    return "X" if letter.upper() == "X" else "O"


def _length_words(length: int) -> str:
    return f"a {length}-point match" if length else "money play"


def _cube_words(value: int, owner: str | None) -> str:
    return f"cube {value} in the middle" if owner is None else f"cube {value} owned by {owner}"


def _first(lines: list[str], pattern: re.Pattern[str]) -> tuple[int, re.Match[str]] | None:
    for k, line in enumerate(lines):
        found = pattern.search(line)
        if found:
            return k, found
    return None


_EXPECTED = (
    "expected GNU Backgammon's board with its 'Position ID:' line, or eXtreme Gammon's "
    "position text with its 'XGID=' line (or one of those IDs alone)"
)


def parse_position_text(text: str) -> PastedPosition:
    """Read a position from a paste of gnubg's or XG's position text.

    See the module notes for the two formats. The ID in the text (gnubg's Position ID
    and Match ID, or the XGID) gives the position, cube and score; the board drawn
    beside it must agree. Without an ID the drawn board is read, with the cube and
    score from the text around it.

    Parameters
    ----------
    text : str
        The paste: at most :data:`MAX_TEXT_LENGTH` characters and :data:`MAX_LINES`
        lines.

    Returns
    -------
    PastedPosition

    Raises
    ------
    ValueError
        Naming the line and what is wrong: no board and no ID, a malformed ID, a board
        drawn with a missing row or a character that is not a checker, more than 15
        checkers of a side, a board and an ID that disagree, a score past the match
        length, a text too long.

    Examples
    --------
    >>> pasted = parse_position_text(
    ...     "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:3:2:0:7:10"
    ... )
    >>> pasted.cube_value, pasted.cube_owner, pasted.away, pasted.opp_away, pasted.position.pips
    (2, 'player', 4, 5, (167, 167))
    """
    if not isinstance(text, str):
        raise ValueError(f"`text` must be a string, got {type(text).__name__}")
    if len(text) > MAX_TEXT_LENGTH:
        raise ValueError(
            f"the paste is {len(text)} characters long; a position is at most "
            f"{MAX_TEXT_LENGTH} (paste one position)"
        )
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if len(lines) > MAX_LINES:
        raise ValueError(
            f"the paste has {len(lines)} lines; a position is at most {MAX_LINES} "
            "(paste one position)"
        )
    if not text.strip():
        raise ValueError("the paste is empty; " + _EXPECTED)
    board = _find_board(lines)
    has_xgid = any(_XGID_LINE.search(line) for line in lines)
    has_gnubg_id = any(
        _POSITION_ID_LINE.search(line) or _MATCH_ID_LINE.search(line) for line in lines
    )
    if has_xgid and has_gnubg_id:
        raise ValueError(
            "the paste holds both an XGID and a gnubg Position or Match ID; paste one position"
        )
    if has_xgid:
        return _xg(lines, board)
    if has_gnubg_id:
        if not any(_POSITION_ID_LINE.search(line) for line in lines) and board is None:
            raise ValueError(
                "the paste has a Match ID but no Position ID and no board: the checkers are missing"
            )
        return _gnubg(lines, board)
    if board is not None:
        xg_lines = any(
            _XG_TURN.search(line) or _XG_SCORE.search(line) or _XG_PIPS.search(line)
            for line in lines
        )
        return _xg(lines, board) if xg_lines else _gnubg(lines, board)
    raise ValueError("no position found; " + _EXPECTED)
