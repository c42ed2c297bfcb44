"""Controls of the real-race page: a position as a gnubg Position ID in the link."""

from cubecore.position import position_from_id
from ui.controls import Control

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

PAGE_CONTROLS = (POSITION,)

PRESETS = {
    "Race, 85 v 102 pips": {"pos": DEFAULT_POSITION_ID},
    "Bear-off, 15 checkers each": {"pos": "u7sNAAB3tw0AAA"},
    "Bear-off, 3 v 2 checkers": {"pos": "BQAAsAAAAAAAAA"},
}
