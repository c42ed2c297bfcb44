"""Controls of the position page: the position as text in the link, the cube, the score,
the engine's level. The cube and score controls are the cube calculator's (same link keys,
ranges and defaults); the position and the level are this page's own."""

from __future__ import annotations

import re
from dataclasses import replace

from cubecore import engine
from cubecore.position import Position, position_from_id, xgid_info
from cubecore.position_text import players_words
from ui.controls import Control
from ui.cube import controls as cube_controls

#: A middle game the engine doubles and takes at 1-ply: the player on roll leads 137 to
#: 158 pips with one checker back against the opponent's two (gnubg's Position ID).
DEFAULT_POSITION_ID = "sOfgATBwz8EDCA"
#: The opening position.
OPENING_POSITION_ID = "4HPwATDgc/ABMA"
#: Longest text the position box takes (an XGID is 50 to 60 characters).
MAX_POSITION_CHARACTERS = 80


def read_position(text: str) -> Position:
    """The checkers of ``text``: a gnubg Position ID (14 characters) or an XGID.

    Raises ``ValueError`` in players' words naming what is wrong (the position box's
    and the link's check: nothing is evaluated from a text that fails it).
    """
    body = text.strip()
    if not body:
        raise ValueError("the position is empty: paste a Position ID or an XGID")
    if len(body) > MAX_POSITION_CHARACTERS:
        raise ValueError(f"longer than {MAX_POSITION_CHARACTERS} characters")
    try:
        if body.upper().startswith("XGID=") or ":" in body:
            if not body.upper().startswith("XGID="):
                raise ValueError(
                    "a Position ID with a match ID is not read here: paste the Position "
                    "ID alone (14 characters) and set the score, or paste an XGID"
                )
            return xgid_info(body).position
        return position_from_id(body)
    except ValueError as error:
        raise ValueError(players_words(str(error))) from None


def link_position(text: str) -> Position:
    """The position box's check: a Position ID (an XGID is read from a link as it arrives,
    or from the paste box); ``ValueError`` naming what is wrong."""
    if text.strip().upper().startswith("XGID="):
        canonical(text)  # names what is wrong with it
        raise ValueError("an XGID goes in the paste box above the tabs (or in a link)")
    return read_position(text)


POSITION = Control(
    "pos",
    "Position (gnubg Position ID or XGID)",
    "text",
    DEFAULT_POSITION_ID,
    pattern=rf"[ -~]{{1,{MAX_POSITION_CHARACTERS}}}",
    help="GNU Backgammon's Position ID (14 characters). Paste an eXtreme Gammon XGID in the "
    "box above the tabs: its cube and score fill the settings below.",
    validator=link_position,
)
#: The engine's level. Its link key is ``depth``: ``level`` is the drills' difficulty
#: (a whole number), and a key names one concept app-wide.
LEVEL = Control(
    "depth",
    "Engine level",
    "select",
    "2-ply",
    options=engine.LEVELS,
    help="How deep the engine looks: 1-ply is its neural network alone (gnubg's 0-ply); "
    "each ply more looks one roll further ahead; a rollout plays the game out "
    f"{engine.DEFAULT_ROLLOUT_TRIALS} times.",
)

MODE = cube_controls.MODE
CUBE_VALUE = cube_controls.CUBE_VALUE
CUBE = cube_controls.CUBE
JACOBY = cube_controls.JACOBY
BEAVERS = cube_controls.BEAVERS
TABLE = replace(
    cube_controls.TABLE,
    help="The table of the app's own reading at a match score (anatomy, margins, market "
    "window); the engine's own table is fixed: Kazaross-XG2.",
)
AWAY = cube_controls.AWAY
OPP_AWAY = cube_controls.OPP_AWAY
CRAWFORD = cube_controls.CRAWFORD
#: The largest score grid of the position's matrix: up to 11-away.
MAX_GRID = 11
#: The score matrix's grid (the matrix section's own control, key ``n``).
GRID = replace(cube_controls.GRID, high=MAX_GRID)
MATRIX_CONTROLS = (GRID,)

PAGE_CONTROLS = (
    POSITION,
    LEVEL,
    MODE,
    CUBE_VALUE,
    CUBE,
    JACOBY,
    BEAVERS,
    TABLE,
    AWAY,
    OPP_AWAY,
    CRAWFORD,
)

PRESETS = {
    "Opening position, 1-ply": {"pos": OPENING_POSITION_ID, "depth": "1-ply", "mode": "money"},
    "Race, 85 v 102 pips": {"pos": "2D03BADs7sYAAA", "mode": "money"},
    "Bear-off, 3 v 2 checkers": {"pos": "BQAAsAAAAAAAAA", "mode": "money"},
}


#: Longest paste the paste box takes: a position's text as gnubg or XG copies it.
MAX_PASTE_CHARACTERS = 20_000


def pasted_values(text: str) -> tuple[dict[str, object], str]:
    """What a paste of gnubg's or XG's position text (or gnubg's Position ID with its
    Match ID) says, as this page's control values, and a note in players' words.

    Raises ``ValueError`` in players' words naming what is wrong (the line and why).
    """
    from cubecore.position import position_id
    from cubecore.position_text import parse_position_text

    body = text.strip()
    if re.fullmatch(r"[A-Za-z0-9+/]{14}:[A-Za-z0-9+/]{12}", body):  # gnubg's "GNUBG ID"
        position, match = body.split(":")
        body = f"Position ID: {position}\nMatch ID: {match}"
    try:
        pasted = parse_position_text(body)
    except ValueError as error:
        raise ValueError(players_words(str(error))) from None
    if str(pasted.cube_value) not in CUBE_VALUE.options:
        raise ValueError(f"the cube of {pasted.cube_value} is beyond 64")
    where = {"center": "center", "player": "owned", "opponent": "opponent"}[pasted.cube_owner]
    values: dict[str, object] = {
        "pos": position_id(pasted.position),
        "cv": str(pasted.cube_value),
        "cube": where,
    }
    if pasted.away is None or pasted.opp_away is None:
        values["mode"] = "money"
        if pasted.jacoby is not None:
            values["jacoby"] = pasted.jacoby
        if pasted.beavers is not None:
            values["beavers"] = pasted.beavers
        score = "money play"
    else:
        if max(pasted.away, pasted.opp_away) > int(AWAY.high):
            raise ValueError(
                f"the score is {pasted.away}-away/{pasted.opp_away}-away; the page covers "
                f"scores up to {int(AWAY.high)}-away"
            )
        values.update(
            mode="match", away=pasted.away, oaway=pasted.opp_away, crawford=pasted.crawford
        )
        score = f"{pasted.away}-away/{pasted.opp_away}-away" + (
            ", Crawford game" if pasted.crawford else ""
        )
    note = (
        f"Read {pasted.source}'s position ({pasted.read_from}): {score}, cube "
        f"{pasted.cube_value}; the position is now written as its Position ID."
    )
    if pasted.dice is not None:
        note += (
            f" The paste has the dice {pasted.dice[0]}-{pasted.dice[1]} rolled: the page "
            "analyses the cube decision before the roll."
        )
    return values, note


def canonical(text: str) -> tuple[dict[str, object], str] | None:
    """What an XGID in the position box says, as this page's control values, and a note.

    Returns None for a Position ID (already the canonical form). For an XGID: the
    Position ID of its checkers (seen from the player on roll) and its cube and score
    (money: the Jacoby and beaver flags; a match: both sides' points to go and the
    Crawford game), and a note in players' words of what was read. Raises ``ValueError``
    (players' words) where the XGID cannot be analysed here: a text that is no position,
    a cube above 64, a match longer than the score controls allow.
    """
    from cubecore.position import position_id

    body = text.strip()
    if not body.upper().startswith("XGID="):
        read_position(body)  # a Position ID: its check only
        return None
    try:
        info = xgid_info(body)
    except ValueError as error:
        raise ValueError(players_words(str(error))) from None
    if str(info.cube_value) not in CUBE_VALUE.options:
        raise ValueError(f"the XGID's cube of {info.cube_value} is beyond 64")
    if info.cube_owner == 0:
        where = "center"
    else:  # XG's owner is the bottom (1) or top (-1) player; ours is seen from the roller
        where = "owned" if (info.cube_owner == 1) == info.bottom_on_roll else "opponent"
    values: dict[str, object] = {
        "pos": position_id(info.position),
        "cv": str(info.cube_value),
        "cube": where,
    }
    if info.match_length == 0:
        values.update(
            mode="money",
            jacoby=bool(info.crawford_jacoby & 1),
            beavers=bool(info.crawford_jacoby & 2),
        )
        score = "money play"
    else:
        mine, theirs = (
            (info.score_bottom, info.score_top)
            if info.bottom_on_roll
            else (info.score_top, info.score_bottom)
        )
        away, opp_away = info.match_length - mine, info.match_length - theirs
        if min(away, opp_away) < 1:
            raise ValueError(
                f"the XGID's score {mine}-{theirs} in a {info.match_length}-point match is "
                "a finished match"
            )
        if max(away, opp_away) > int(AWAY.high):
            raise ValueError(
                f"the XGID's score is {away}-away/{opp_away}-away; the page covers scores up "
                f"to {int(AWAY.high)}-away"
            )
        crawford = bool(info.crawford_jacoby & 1) and 1 in (away, opp_away) and away != opp_away
        values.update(mode="match", away=away, oaway=opp_away, crawford=crawford)
        score = f"{away}-away/{opp_away}-away" + (", Crawford game" if crawford else "")
    cube = (
        "centred"
        if where == "center"
        else f"{info.cube_value}, "
        + ("owned by the player on roll" if where == "owned" else "owned by the opponent")
    )
    note = f"Read the XGID: {score}, cube {cube}; the position is now written as its Position ID."
    if info.dice not in ("00", "D", "B", "R"):
        note += (
            f" The XGID has the dice {info.dice[0]}-{info.dice[1]} rolled: the page analyses "
            "the cube decision before the roll."
        )
    return values, note
