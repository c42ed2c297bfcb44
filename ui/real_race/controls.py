"""Controls of the real-race page: a position as a gnubg Position ID in the link."""

from dataclasses import replace

from cubecore import race_match
from cubecore.position import position_from_id
from ui.controls import Control
from ui.cube import controls as cube_controls

#: A short race, the player on roll 85 pips against 102 (no contact).
DEFAULT_POSITION_ID = "2D03BADs7sYAAA"

POSITION = Control(
    "pos",
    "Position ID (gnubg)",
    "text",
    DEFAULT_POSITION_ID,
    pattern=r"[A-Za-z0-9+/]{14}",
    help="GNU Backgammon's 14-character Position ID; paste an XGID in the box on the page.",
    validator=position_from_id,
)

#: The cube, for every section: drawn on the board, read by the verdicts and the rules
#: of thumb (double from the centre, redouble when owned), and the match section's cube.
CUBE = cube_controls.CUBE
CUBE_VALUE = cube_controls.CUBE_VALUE

PAGE_CONTROLS = (POSITION, CUBE, CUBE_VALUE)

PRESETS = {
    "Race, 85 v 102 pips": {"pos": DEFAULT_POSITION_ID},
    "Bear-off, 15 checkers each": {"pos": "u7sNAAB3tw0AAA"},
    "Bear-off, 3 v 2 checkers": {"pos": "BQAAsAAAAAAAAA"},
}

# The "At a match score" section: the cube calculator's own score controls (same link
# keys, ranges and defaults), here always active (that page enables them in match mode).
MATCH_TABLE = replace(cube_controls.TABLE, requires=None)
MATCH_AWAY = replace(cube_controls.AWAY, requires=None)
MATCH_OPP_AWAY = replace(cube_controls.OPP_AWAY, requires=None)
MATCH_CRAWFORD = replace(cube_controls.CRAWFORD, requires=None)
#: Largest pip count of the match section's maps (the DP's budget is 160).
MATCH_PIPS = Control(
    "rpips",
    "Largest pip count shown",
    "int",
    100,
    20,
    race_match.MAX_MATCH_COUNT,
    10,
    help="The maps show both pip counts from 1 to this.",
)
MATCH_CONTROLS = (
    MATCH_TABLE,
    MATCH_AWAY,
    MATCH_OPP_AWAY,
    MATCH_CRAWFORD,
    MATCH_PIPS,
)

MATCH_PRESETS = {
    "2-away/2-away: the cube dies once turned": {"away": 2, "oaway": 2, "cv": "1"},
    "Post-Crawford, 4-away trailer": {"away": 4, "oaway": 1, "crawford": False, "cv": "1"},
    "4-away/2-away, 2-cube owned": {"away": 4, "oaway": 2, "cv": "2", "cube": "owned"},
}
