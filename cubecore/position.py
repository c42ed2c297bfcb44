"""Backgammon checker positions, and the two text forms players paste: Position ID and XGID.

A :class:`Position` holds the checkers of both sides, each counted on its own points
(point 1 is the side's ace point, 24 its farthest point; 25 is its bar), from the
view of the player on roll. Checkers not on the board are borne off.

Two interchange formats are read and written, each reimplemented from its published
definition:

* GNU Backgammon's **Position ID** ([GNU]_): a bit string of 80 bits, for each side and
  each of its 25 places (points 1..24, then the bar) as many 1s as checkers there and
  then a 0, padded with 0s; packed into 10 bytes (bit ``k`` of the string is bit
  ``k mod 8`` of byte ``k div 8``, least significant first) and written as the 14
  characters of their Base64 encoding without padding. gnubg 1.07 encodes the side
  **not** on roll first and the player on roll second (its ``positionid`` and its
  ``show`` commands, which call the second side the "leader", agree on this); the
  manual's prose names the player on roll first. We follow the program, which is what
  every ID in circulation was made by (listed as a deviation in the tests).
* eXtreme Gammon's **XGID** ([XG]_): ``XGID=`` then ten fields separated by ``:``; the
  first is 26 characters: the top player's bar, points 1..24 from the bottom player's
  view, the bottom player's bar; ``-`` is empty, ``A``..``O`` are 1..15 checkers of
  the bottom player, ``a``..``o`` of the top player. The fourth field is the player
  on roll (``1`` bottom, ``-1`` top). The other fields (cube, dice, score, match) are
  checked for form and kept in :class:`XgidInfo`.

References
----------
.. [GNU] GNU Backgammon manual, section 11.6 "A technical description of the Position
   ID", https://www.gnu.org/software/gnubg/manual/html_node/A-technical-description-of-the-Position-ID.html
.. [XG] X. Dufaure de Citres, "XG file format" (GameSite 2000 Ltd, 2009-2014), the
   ``XGID`` position string, https://www.extremegammon.com/xgformat.aspx
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from cubecore._validate import flag

__all__ = [
    "CHECKERS",
    "POINTS",
    "Position",
    "XgidInfo",
    "position_from_id",
    "position_from_xgid",
    "position_id",
    "xgid",
    "xgid_info",
]

CHECKERS = 15
"""Checkers per side."""
POINTS = 24
"""Points on the board."""

_ID_LENGTH = 14
_KEY_BITS = 80
_BASE64 = re.compile(r"^[A-Za-z0-9+/]*$")
_XG_FIELDS = 10


def _side(name: str, points: object, bar: object) -> tuple[tuple[int, ...], int]:
    """Validate one side's 24 point counts and bar count; return them as ints."""
    if isinstance(points, (str, bytes)) or not hasattr(points, "__len__"):
        raise ValueError(f"`{name}` must be a sequence of {POINTS} checker counts (points 1..24)")
    values = list(points)  # type: ignore[call-overload]
    if len(values) != POINTS:
        raise ValueError(
            f"`{name}` must have {POINTS} checker counts (points 1..24), got {len(values)}"
        )
    counts: list[int] = []
    for point, value in enumerate([*values, bar], start=1):
        where = "the bar" if point == POINTS + 1 else f"point {point}"
        who = f"`{name}_bar`" if point == POINTS + 1 else f"`{name}`"
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise ValueError(f"{who}: the count on {where} must be a whole number, got {value!r}")
        if value < 0:
            raise ValueError(f"{who}: the count on {where} is negative ({int(value)})")
        counts.append(int(value))
    total = sum(counts)
    if total > CHECKERS:
        raise ValueError(f"{name} has {total} checkers on the board; at most {CHECKERS} allowed")
    return tuple(counts[:POINTS]), counts[POINTS]


@dataclass(frozen=True)
class Position:
    """Checkers of both sides, seen from the player on roll.

    Attributes
    ----------
    on_roll, opponent : tuple of int
        24 counts each: checkers on the side's own points 1 (ace point) .. 24.
    on_roll_bar, opponent_bar : int
        Checkers on the bar.

    The borne-off counts are ``15 - checkers on the board`` (properties). Construction
    raises ``ValueError`` naming the side and place for a wrong length, a negative or
    non-integer count, or more than 15 checkers of a side.

    Examples
    --------
    >>> p = Position.from_home((0, 0, 0, 0, 0, 2), (1, 1, 0, 0, 0, 0))
    >>> p.pips, p.opponent_borne_off
    ((12, 3), 13)
    """

    on_roll: tuple[int, ...]
    opponent: tuple[int, ...]
    on_roll_bar: int = 0
    opponent_bar: int = 0

    def __post_init__(self) -> None:
        points, bar = _side("on_roll", self.on_roll, self.on_roll_bar)
        object.__setattr__(self, "on_roll", points)
        object.__setattr__(self, "on_roll_bar", bar)
        points, bar = _side("opponent", self.opponent, self.opponent_bar)
        object.__setattr__(self, "opponent", points)
        object.__setattr__(self, "opponent_bar", bar)
        for point in range(1, POINTS + 1):
            if self.on_roll[point - 1] and self.opponent[POINTS - point]:
                raise ValueError(
                    f"on_roll's point {point} is opponent's point {POINTS + 1 - point}: "
                    "both sides have checkers on it"
                )

    @classmethod
    def from_home(cls, on_roll: tuple[int, ...], opponent: tuple[int, ...]) -> Position:
        """A bear-off position from the counts on points 1..6 of each side."""
        for name, home in (("on_roll", on_roll), ("opponent", opponent)):
            if isinstance(home, (str, bytes)) or len(home) != 6:
                raise ValueError(f"`{name}` must have 6 checker counts (points 1..6)")
        return cls(tuple(on_roll) + (0,) * 18, tuple(opponent) + (0,) * 18)

    @property
    def on_roll_borne_off(self) -> int:
        """Checkers the player on roll has borne off."""
        return CHECKERS - sum(self.on_roll) - self.on_roll_bar

    @property
    def opponent_borne_off(self) -> int:
        """Checkers the opponent has borne off."""
        return CHECKERS - sum(self.opponent) - self.opponent_bar

    @property
    def pips(self) -> tuple[int, int]:
        """Pip counts ``(on roll, opponent)``: sum of point number x checkers, bar = 25."""
        return _pips(self.on_roll, self.on_roll_bar), _pips(self.opponent, self.opponent_bar)

    @property
    def is_race(self) -> bool:
        """True when no checker can meet an opposing one (no bar, sides have passed).

        The on-roll side's farthest checker on its point ``p`` stands on the opponent's
        point ``25 - p``; the sides have passed when ``p + q <= 24`` for the farthest
        points ``p`` and ``q`` of the two sides (an empty side counts 0).
        """
        if self.on_roll_bar or self.opponent_bar:
            return False
        return _back(self.on_roll) + _back(self.opponent) <= POINTS

    def swapped(self) -> Position:
        """The same checkers with the other side on roll."""
        return Position(self.opponent, self.on_roll, self.opponent_bar, self.on_roll_bar)

    def board(self) -> NDArray[np.int64]:
        """A ``(2, 25)`` array: row 0 the opponent, row 1 on roll; column 24 the bar.

        This is gnubg's board layout (``TanBoard``), for code that reads boards as arrays.
        """
        return np.array(
            [[*self.opponent, self.opponent_bar], [*self.on_roll, self.on_roll_bar]],
            dtype=np.int64,
        )

    def home_boards(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Counts on points 1..6 of ``(on roll, opponent)``, for the bear-off databases.

        Raises ``ValueError`` naming the side and the point when a checker stands
        outside its home board or on the bar (not a bear-off position).

        Examples
        --------
        >>> Position.from_home((2, 0, 0, 0, 0, 1), (0, 3, 0, 0, 0, 0)).home_boards()
        ((2, 0, 0, 0, 0, 1), (0, 3, 0, 0, 0, 0))
        """
        for name, points, bar in (
            ("on_roll", self.on_roll, self.on_roll_bar),
            ("opponent", self.opponent, self.opponent_bar),
        ):
            if bar:
                raise ValueError(f"not a bear-off: {name} has checkers on the bar")
            outside = [p for p, n in enumerate(points, start=1) if n and p > 6]
            if outside:
                raise ValueError(
                    f"not a bear-off: {name} has checkers outside the home board "
                    f"(point {max(outside)})"
                )
        return self.on_roll[:6], self.opponent[:6]

    def require_race(self) -> Position:
        """Return ``self``, or raise ``ValueError`` naming why it is not a race."""
        if self.on_roll_bar or self.opponent_bar:
            who = "on_roll" if self.on_roll_bar else "opponent"
            raise ValueError(f"not a race: {who} has checkers on the bar")
        if not self.is_race:
            a, b = _back(self.on_roll), _back(self.opponent)
            raise ValueError(
                f"not a race: contact (on_roll's farthest checker on its {a}-point and "
                f"opponent's on its {b}-point have not passed: {a} + {b} > 24)"
            )
        return self


def _pips(points: tuple[int, ...], bar: int) -> int:
    return sum(n * p for p, n in enumerate(points, start=1)) + 25 * bar


def _back(points: tuple[int, ...]) -> int:
    occupied = [p for p, n in enumerate(points, start=1) if n]
    return max(occupied, default=0)


def position_id(position: Position) -> str:
    """GNU Backgammon's 14-character Position ID of a position.

    Definition in the module notes ([GNU]_ section 11.6; the side not on roll first).

    Parameters
    ----------
    position : Position

    Returns
    -------
    str
        14 Base64 characters.

    Examples
    --------
    The starting position ([GNU]_ section 11.6):

    >>> start = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2,)
    >>> position_id(Position(start, start))
    '4HPwATDgc/ABMA'
    """
    if not isinstance(position, Position):
        raise TypeError(f"`position` must be a Position, got {type(position).__name__}")
    bits: list[int] = []
    for points, bar in (
        (position.opponent, position.opponent_bar),
        (position.on_roll, position.on_roll_bar),
    ):
        for count in (*points, bar):
            bits.extend([1] * count)
            bits.append(0)
    key = bytearray(_KEY_BITS // 8)
    for k, bit in enumerate(bits):
        key[k // 8] |= bit << (k % 8)
    return base64.b64encode(bytes(key)).decode("ascii")[:_ID_LENGTH]


def position_from_id(position_id: str) -> Position:
    """Read a GNU Backgammon Position ID (the inverse of :func:`position_id`).

    Parameters
    ----------
    position_id : str
        14 Base64 characters (``A-Z a-z 0-9 + /``); surrounding blanks are ignored.

    Returns
    -------
    Position

    Raises
    ------
    ValueError
        Naming the problem: not a string, wrong length, a character outside Base64,
        fewer than the 50 place separators in the 80 bits, more than 15 checkers of
        a side, or set bits after the last place.

    Examples
    --------
    >>> position_from_id("4HPwATDgc/ABMA").pips
    (167, 167)
    """
    if not isinstance(position_id, str):
        raise ValueError(f"`position_id` must be a string, got {type(position_id).__name__}")
    text = position_id.strip()
    if len(text) != _ID_LENGTH:
        raise ValueError(
            f"`position_id` must have {_ID_LENGTH} characters, got {len(text)} ({text!r})"
        )
    if not _BASE64.match(text):
        bad = sorted({c for c in text if not _BASE64.match(c)})
        raise ValueError(
            f"position_id has characters outside Base64 (A-Z a-z 0-9 + /): {''.join(bad)!r}"
        )
    try:
        key = base64.b64decode(text + "==", validate=True)
    except binascii.Error as error:  # pragma: no cover - the pattern above rules it out
        raise ValueError(f"position_id is not valid Base64: {error}") from None
    bits = [(key[k // 8] >> (k % 8)) & 1 for k in range(_KEY_BITS)]
    sides: list[list[int]] = []
    k = 0
    for side in ("opponent", "on_roll"):
        counts: list[int] = []
        for _ in range(POINTS + 1):
            count = 0
            while k < _KEY_BITS and bits[k]:
                count += 1
                k += 1
            if k >= _KEY_BITS:
                raise ValueError(
                    "position_id does not describe a position: its 80 bits end before "
                    f"the {side} side's 25 places are complete (too many checkers)"
                )
            k += 1
            counts.append(count)
        if sum(counts) > CHECKERS:
            raise ValueError(
                f"position_id gives the {side} side {sum(counts)} checkers; at most "
                f"{CHECKERS} allowed"
            )
        sides.append(counts)
    if any(bits[k:]):
        raise ValueError("position_id has set bits after the last place (not a valid key)")
    if _BASE64_VALUES[text[-1]] & 0x0F:
        raise ValueError("position_id's last character carries bits beyond the 80-bit key")
    opponent, on_roll = sides
    try:
        return Position(
            tuple(on_roll[:POINTS]), tuple(opponent[:POINTS]), on_roll[24], opponent[24]
        )
    except ValueError as error:  # both sides on one point
        raise ValueError(f"position_id describes an impossible position: {error}") from None


_BASE64_VALUES = {
    c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
}


@dataclass(frozen=True)
class XgidInfo:
    """The fields of an XGID besides the checkers ([XG]_).

    Attributes
    ----------
    position : Position
        The checkers, from the view of the player on roll.
    bottom_on_roll : bool
        True when the bottom (upper-case) player is on roll (turn field ``1``).
    cube_value : int
        ``2 ** (cube field)``.
    cube_owner : int
        ``1`` bottom player, ``-1`` top player, ``0`` centred (XG's signs).
    dice : str
        ``"00"`` not rolled, ``"D"``/``"B"``/``"R"`` doubled/beavered/raccooned, or two digits.
    score_bottom, score_top, crawford_jacoby, match_length, max_cube : int
    """

    position: Position
    bottom_on_roll: bool
    cube_value: int
    cube_owner: int
    dice: str
    score_bottom: int
    score_top: int
    crawford_jacoby: int
    match_length: int
    max_cube: int


def _xg_char(count: int, upper: bool) -> str:
    if count == 0:
        return "-"
    return chr((ord("A") if upper else ord("a")) + count - 1)


def xgid(position: Position, *, bottom_on_roll: bool = True) -> str:
    """The XGID of a position with a centred 1-cube, no dice, money play.

    The player on roll is drawn as the bottom player (upper case, turn ``1``) unless
    ``bottom_on_roll`` is False.

    Parameters
    ----------
    position : Position
    bottom_on_roll : bool, keyword-only

    Returns
    -------
    str
        ``XGID=`` + 26 board characters + ``:0:0:1:00:0:0:0:0:10`` (turn ``-1`` when
        the top player is on roll). Format in [XG]_.

    Examples
    --------
    >>> start = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2,)
    >>> xgid(Position(start, start))
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10'
    """
    if not isinstance(position, Position):
        raise TypeError(f"`position` must be a Position, got {type(position).__name__}")
    bottom_on_roll = flag("bottom_on_roll", bottom_on_roll)
    bottom, top = (
        (position.on_roll, position.opponent)
        if bottom_on_roll
        else (position.opponent, position.on_roll)
    )
    bottom_bar, top_bar = (
        (position.on_roll_bar, position.opponent_bar)
        if bottom_on_roll
        else (position.opponent_bar, position.on_roll_bar)
    )
    chars = [_xg_char(top_bar, upper=False)]
    for point in range(1, POINTS + 1):
        mine, theirs = bottom[point - 1], top[POINTS - point]
        chars.append(_xg_char(mine, upper=True) if mine else _xg_char(theirs, upper=False))
    chars.append(_xg_char(bottom_bar, upper=True))
    turn = 1 if bottom_on_roll else -1
    return f"XGID={''.join(chars)}:0:0:{turn}:00:0:0:0:0:10"


def _int_field(name: str, text: str, low: int, high: int) -> int:
    if not re.fullmatch(r"-?\d+", text):
        raise ValueError(f"XGID field {name} must be a whole number, got {text!r}")
    value = int(text)
    if not low <= value <= high:
        raise ValueError(f"XGID field {name} must lie in [{low}, {high}], got {value}")
    return value


def xgid_info(text: str) -> XgidInfo:
    """Read every field of an XGID ([XG]_).

    Parameters
    ----------
    text : str
        ``XGID=`` (optional) and ten ``:``-separated fields.

    Returns
    -------
    XgidInfo

    Raises
    ------
    ValueError
        Naming the problem: wrong number of fields, board not 26 characters, a
        character other than ``-``, ``A-O``, ``a-o``, both colours on one point, more
        than 15 checkers of a side, a field out of range.

    Examples
    --------
    >>> info = xgid_info("XGID=-b----E-C---eE---c-e----B-:1:1:-1:00:3:2:0:7:10")
    >>> info.cube_value, info.cube_owner, info.bottom_on_roll, info.match_length
    (2, 1, False, 7)
    """
    if not isinstance(text, str):
        raise ValueError(f"`text` must be a string, got {type(text).__name__}")
    body = text.strip()
    if body.upper().startswith("XGID="):
        body = body[5:]
    fields = body.split(":")
    if len(fields) != _XG_FIELDS:
        raise ValueError(
            f"`text`: an XGID must have {_XG_FIELDS} fields separated by ':', got {len(fields)}"
        )
    board = fields[0]
    if len(board) != POINTS + 2:
        raise ValueError(f"XGID board must have {POINTS + 2} characters, got {len(board)}")
    bad = sorted({c for c in board if not (c == "-" or "A" <= c <= "O" or "a" <= c <= "o")})
    if bad:
        raise ValueError(
            f"XGID board has characters other than '-', 'A'-'O', 'a'-'o': {''.join(bad)!r}"
        )
    bottom = [0] * (POINTS + 2)  # index = XG slot
    top = [0] * (POINTS + 2)
    for slot, c in enumerate(board):
        if "A" <= c <= "O":
            bottom[slot] = ord(c) - ord("A") + 1
        elif "a" <= c <= "o":
            top[slot] = ord(c) - ord("a") + 1
    if top[POINTS + 1]:
        raise ValueError(
            "XGID board: the last character is the bottom player's bar; got a top checker"
        )
    if bottom[0]:
        raise ValueError(
            "XGID board: the first character is the top player's bar; got a bottom checker"
        )
    bottom_points = tuple(bottom[1 : POINTS + 1])
    top_points = tuple(top[POINTS - p + 1] for p in range(1, POINTS + 1))
    for name, pts, bar in (("bottom", bottom_points, bottom[25]), ("top", top_points, top[0])):
        if sum(pts) + bar > CHECKERS:
            raise ValueError(
                f"XGID board gives the {name} player {sum(pts) + bar} checkers; at most "
                f"{CHECKERS} allowed"
            )
    cube_log = _int_field("cube value (2nd)", fields[1], 0, 15)
    owner = _int_field("cube owner (3rd)", fields[2], -1, 1)
    turn = _int_field("turn (4th)", fields[3], -1, 1)
    if turn == 0:
        raise ValueError("XGID field turn (4th) must be 1 (bottom) or -1 (top), got 0")
    dice = fields[4]
    if not re.fullmatch(r"00|[DBR]|[1-6][1-6]", dice):
        raise ValueError(
            f"XGID field dice (5th) must be 00, D, B, R or two digits 1-6, got {dice!r}"
        )
    score_bottom = _int_field("score bottom (6th)", fields[5], 0, 99)
    score_top = _int_field("score top (7th)", fields[6], 0, 99)
    crawjac = _int_field("Crawford/Jacoby (8th)", fields[7], 0, 3)
    length = _int_field("match length (9th)", fields[8], 0, 99)
    max_cube = _int_field("max cube (10th)", fields[9], 0, 15)
    if turn == 1:
        position = Position(bottom_points, top_points, bottom[25], top[0])
    else:
        position = Position(top_points, bottom_points, top[0], bottom[25])
    return XgidInfo(
        position,
        turn == 1,
        2**cube_log,
        owner,
        dice,
        score_bottom,
        score_top,
        crawjac,
        length,
        max_cube,
    )


def position_from_xgid(text: str) -> Position:
    """The checkers of an XGID, seen from the player on roll (see :func:`xgid_info`).

    Parameters
    ----------
    text : str

    Returns
    -------
    Position

    Examples
    --------
    >>> position_from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10").pips
    (167, 167)
    """
    return xgid_info(text).position
