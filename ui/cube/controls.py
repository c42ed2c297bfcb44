"""Controls of the cube calculator: an engine's five probabilities, the cube, the score."""

from cubecore import cubeful, met
from cubecore.position import position_from_id
from ui import concepts
from ui.controls import Control

#: Money play or a match score.
MODES = ("money", "match")
#: Where the cube life x comes from: set by hand, or gnubg's default for a position class.
X_SOURCES = ("by hand", *cubeful.POSITION_CLASSES)
#: Cube values the calculator offers.
CUBE_VALUES = ("1", "2", "4", "8", "16", "32", "64")


def _percent(key: str, label: str, default: float, help_text: str) -> Control:
    return Control(key, label, "number", default, 0.0, 100.0, 0.01, help=help_text)


# A gammonish position as an engine prints it: "74.31% (G: 26.06% B: 0.96%), opponent
# 25.69% (G: 5.12% B: 0.21%)", cumulative as gnubg and XG print them (gammons include
# backgammons).
WIN = _percent("pw", "Win %", 74.31, "Cubeless chance that the player on roll wins.")
WIN_GAMMON = _percent("pwg", "Win gammon %", 26.06, "Wins that are gammons or backgammons.")
WIN_BACKGAMMON = _percent("pwb", "Win backgammon %", 0.96, "Wins that are backgammons.")
LOSE_GAMMON = _percent("plg", "Lose gammon %", 5.12, "Losses that are gammons or backgammons.")
LOSE_BACKGAMMON = _percent("plb", "Lose backgammon %", 0.21, "Losses that are backgammons.")
PROBABILITIES = (WIN, WIN_GAMMON, WIN_BACKGAMMON, LOSE_GAMMON, LOSE_BACKGAMMON)

MODE = Control("mode", "Play", "select", "money", options=MODES)
CUBE_VALUE = Control("cv", "Cube value", "select", "1", options=CUBE_VALUES)
CUBE = concepts.cube_position("Seen from the player on roll: owned = he holds the cube.")
JACOBY = concepts.jacoby(requires=("mode", "money"))
BEAVERS = concepts.beavers(
    "Money play: the taker may redouble at once, keeping the cube.", requires=("mode", "money")
)
TABLE = Control(
    "met",
    "Match equity table",
    "select",
    met.DEFAULT_TABLE,
    options=tuple(met.TABLES),
    option_labels=tuple(met.TABLES.items()),
    help="The published table the match values come from.",
    requires=("mode", "match"),
)
AWAY = Control(
    "away", "Player on roll: points to go", "int", 3, 1, 15, 1, requires=("mode", "match")
)
OPP_AWAY = Control(
    "oaway", "Opponent: points to go", "int", 5, 1, 15, 1, requires=("mode", "match")
)
CRAWFORD = Control(
    "crawford",
    "Crawford game",
    "bool",
    False,
    help="With a player 1-away: this game is the Crawford game (no cube); off: post-Crawford.",
    requires=("mode", "match"),
)
X_SOURCE = Control(
    "xfrom",
    "Cube life x from",
    "select",
    "contact",
    options=X_SOURCES,
    option_labels=(("bearoff", "bear-off"),),
    help="gnubg's defaults: contact and crashed 0.68, one-sided bear-off 0.6, "
    "race 0.55 + 0.00125 x pips within [0.6, 0.7].",
)
X = concepts.cube_life(
    0.68, "0 = dead cube, 1 = perfectly live cube.", requires=("xfrom", "by hand")
)
PIPS = concepts.pips(
    "Pip count of the player on roll", 100, cubeful.MAX_PIPS, requires=("xfrom", "race")
)
GRID = Control("n", "Score grid: n x n", "int", 7, 2, cubeful.MAX_SCORE_GRID, 1)

#: The position these chances came from, when the position page sent them (its link back).
FROM_POSITION = Control(
    "pos",
    "Position the chances came from (gnubg Position ID)",
    "text",
    "",
    pattern=r"[A-Za-z0-9+/]{14}",
    help="Set by the Position analysis page: a link back to it with this cube and score.",
    validator=position_from_id,
)

PAGE_CONTROLS = (
    *PROBABILITIES,
    MODE,
    CUBE_VALUE,
    CUBE,
    JACOBY,
    BEAVERS,
    TABLE,
    AWAY,
    OPP_AWAY,
    CRAWFORD,
    X_SOURCE,
    X,
    PIPS,
    FROM_POSITION,
)

PRESETS = {
    "Gammonish 74%, money": {
        "pw": 74.31,
        "pwg": 26.06,
        "pwb": 0.96,
        "plg": 5.12,
        "plb": 0.21,
        "mode": "money",
    },
    "Gammonless race, 70%": {
        "pw": 70.0,
        "pwg": 0.0,
        "pwb": 0.0,
        "plg": 0.0,
        "plb": 0.0,
        "xfrom": "race",
        "pips": 80,
    },
    "Same position at 3-away/5-away": {"mode": "match", "away": 3, "oaway": 5, "met": "kxg2"},
}
