"""Controls of the match-play page (match equity, take points, Crawford, Holland, tables)."""

import dataclasses

from cubecore import free_drop, match, met
from cubecore.cubeful import MAX_PIPS, POSITION_CLASSES
from cubecore.met_aids import MEMORY_AIDS
from ui import concepts
from ui.controls import Control
from ui.cube.controls import TABLE as _CUBE_TABLE

#: Old values of the section key (the ``part`` select box before the page skeleton)
#: -> today's section id.
OLD_SECTIONS = {
    "table": "table",
    "takes": "takes",
    "rules": "rules",
    "heatmaps": "heatmaps",
    # the tab titles of before issue #37 (ten tabs did not fit a 1280 px window)
    "Equity table": "table",
    "Crawford and Holland": "rules",
    "Compare tables": "compare",
    "Explain this table": "explain",
    "Memory aids": "aids",
}
#: Old link names (before one name per concept app-wide) -> today's.
OLD_KEYS = {"part": "sec", "opp": "oaway", "eff": "x", "own": "cube", "hvol": "sd"}

#: The position classes whose cube life the headline take point uses (gnubg's
#: ``show cubeefficiency``, :func:`cubecore.cubeful.cube_life`).
CUBE_LIFE_CLASSES = POSITION_CLASSES
#: Cube values a link may ask for (doubled to twice the value).
CUBE_VALUES = ("1", "2", "4", "8", "16", "32")
#: Take-point kinds a heatmap can show: field of ``TakePoint`` -> label.
TAKE_KINDS = {
    "model": "model (live cube, gammons, efficiency)",
    "dead": "dead cube",
    "dead_gammon": "dead cube with gammons",
    "live": "live recursion",
}
#: The classic scores, one preset each: name -> (player's away, opponent's away, phase).
CLASSIC_SCORES: dict[str, tuple[int, int, str]] = {
    "2-away/2-away": (2, 2, "pre-Crawford"),
    "4-away/2-away": (4, 2, "pre-Crawford"),
    "Crawford, 5-away": (1, 5, "Crawford game"),  # the leader is 1-away
    "Post-Crawford, 2-away": (1, 2, "post-Crawford"),
}

AWAY = Control(
    "away",
    "You: points to go",
    "int",
    5,
    1,
    match.MAX_AWAY,
    1,
    help="Your away-score. In the take-point section you are the one being doubled.",
)
OPP_AWAY = Control(
    "oaway",
    "Opponent: points to go",
    "int",
    3,
    1,
    match.MAX_AWAY,
    1,
    help="The opponent's away-score. In the take-point section the opponent doubles.",
)
POST_CRAWFORD = Control(
    "post",
    "Post-Crawford",
    "bool",
    False,
    help="Matters only when a side is 1-away: off = the Crawford game (no cube), "
    "on = the games after it (the trailer doubles at once).",
)
GAMMON_RATE = Control(
    "G",
    "Gammon rate G",
    "float",
    match.DEFAULT_GAMMON_RATE,
    0.0,
    0.6,
    0.01,
    help="Fraction of won games that are gammons (both sides, the whole table).",
)
EFFICIENCY = Control(
    "x",
    "Cube efficiency x",
    "float",
    match.DEFAULT_CUBE_EFFICIENCY,
    0.0,
    1.0,
    0.05,
    help="Janowski's cube life: 1 = the continuous game (perfectly live cube), 0 = dead cube.",
)
CUBE = Control(
    "cv",
    "Cube value before the double",
    "select",
    "1",
    options=CUBE_VALUES,
    help="The opponent doubles the cube from this value to twice it.",
)
OWNER = Control(
    "cube",
    "Cube before the double",
    "select",
    "center",
    options=match.CUBE_OWNERS,
    help="center (only at cube 1) or opponent (the doubler owns it: a redouble).",
)
OPP_GAMMON_RATE = Control(
    "Gd",
    "Doubler's gammon rate (this game)",
    "float",
    match.DEFAULT_GAMMON_RATE,
    0.0,
    0.6,
    0.01,
    help="The gammon-adjusted take point counts the doubler's gammons at this rate and yours at G.",
)
DELAY = Control(
    "delay",
    "Holland delay (rolls)",
    "int",
    match.DEFAULT_DELAY_ROLLS,
    0,
    12,
    1,
    help="Rolls played before the trailer may double: 4 = two rolls each (the Holland rule).",
)
VOLATILITY = Control(
    "sd",
    "Volatility per roll",
    "float",
    match.DEFAULT_VOLATILITY,
    0.01,
    0.2,
    0.01,
    help="Standard deviation of the game winning chance per roll (0.07: about 51 rolls a game).",
)
TAKE_KIND = Control(
    "tk",
    "Take point shown",
    "select",
    "model",
    options=tuple(TAKE_KINDS),
    option_labels=tuple(TAKE_KINDS.items()),
    help="The model, the dead cube, the dead cube with gammons or the live recursion (see "
    "the take-point section).",
)
HEATMAP_SIZE = Control(
    "size",
    "Take-point heatmap up to (away)",
    "int",
    15,
    3,
    match.MAX_AWAY,
    1,
    help="The take-point heatmap solves one game per score: 25 takes a second or two.",
)

#: The table choice's extra options: the model table at the page's G and x, and the
#: table uploaded in this session (never in another session: see ``sections``).
MODEL_TABLE = "model"
UPLOADED_TABLE = "upload"
TABLE_OPTIONS = (*met.TABLES, MODEL_TABLE, UPLOADED_TABLE)
#: The bundled tables in a player's words where the file's own name is not: two
#: tables of one program, a favourite called "player 0" (on this page, you).
_TABLE_WORDS = {
    "jt50": "Jacobs & Trice, you a 50 Elo favourite",
    "jt100": "Jacobs & Trice, you a 100 Elo favourite",
    "mec26": "mec (C. Tornberg), the printed table",
    "mec": "mec (C. Tornberg), generated by GNU Backgammon",
}
#: Each table choice in words (the select boxes show these, and the link carries them).
TABLE_LABELS = (
    *((key, _TABLE_WORDS.get(key, name)) for key, name in met.TABLES.items()),
    (MODEL_TABLE, "The model table (this page's G and x)"),
    (UPLOADED_TABLE, "Your own table (upload it under Tables)"),
)
#: The labels of before: a link written with one still opens its table ("mec", the
#: printed table's old label, is also the generated table's key and stays that).
_OLD_TABLE_LABELS = {
    **{met.TABLES[key]: key for key in _TABLE_WORDS if met.TABLES[key] not in met.TABLES},
    "The table uploaded in this session": UPLOADED_TABLE,
}
OLD_VALUES = {"met": _OLD_TABLE_LABELS, "met2": _OLD_TABLE_LABELS}
#: The match equity table (``?met=`` its name; ``?met=kxg2`` in older links): the cube
#: calculator's control, the same key, label and default, offered here on every view
#: with the model and an upload (the calculator's depends on its match mode, which this
#: page does not have).
MET = dataclasses.replace(
    _CUBE_TABLE,
    options=TABLE_OPTIONS,
    option_labels=TABLE_LABELS,
    requires=None,
    help="A bundled published table (gnubg-data), the model table (this page's G and x) "
    "or the table uploaded in this session.",
)
MET_OTHER = Control(
    "met2",
    "Compare with",
    "select",
    MODEL_TABLE,
    options=TABLE_OPTIONS,
    option_labels=TABLE_LABELS,
    help="The second table: the chosen table minus this one.",
)


def _rate(key: str, label: str, default: float, what: str) -> Control:
    """A share of this game's wins (gammons, backgammons), 0 to 1 by 0.01."""
    help_text = f"Share of this game's wins that are {what} (gnubg counts them cumulatively)."
    return Control(key, label, "float", default, 0.0, 1.0, 0.01, help=help_text)


PLAYER_GAMMONS = _rate("pg", "Your gammon rate", 0.26, "gammons")
PLAYER_BACKGAMMONS = _rate("pb", "Your backgammon rate", 0.0, "backgammons")
OPP_GAMMONS = _rate("og", "Opponent's gammon rate", 0.26, "gammons")
OPP_BACKGAMMONS = _rate("ob", "Opponent's backgammon rate", 0.0, "backgammons")
GV_CUBE = Control(
    "gvc",
    "Cube value of the gammon-value heatmap",
    "select",
    "1",
    options=CUBE_VALUES,
    help="Gammon values depend on the cube's value, not its owner.",
)
DROP_SPREAD = Control(
    "fds",
    "Spread of the leader's winning chance",
    "float",
    free_drop.DEFAULT_SPREAD,
    0.0,
    free_drop.MAX_SPREAD,
    0.005,
    help="Standard deviation of the leader's game winning chance when the trailer doubles: "
    "0 = no selection (the model table's free drop is worth nothing).",
)
DROP_GAMMONS = Control(
    "fdg",
    "Trailer's gammon rate",
    "float",
    free_drop.DEFAULT_TRAILER_GAMMON_RATE,
    0.0,
    0.6,
    0.01,
    help="Share of the trailer's wins that are gammons, post-Crawford.",
)
AID = Control(
    "aid",
    "Memory aid",
    "select",
    "neil",
    options=tuple(MEMORY_AIDS),
    option_labels=tuple((key, name) for key, (name, _) in MEMORY_AIDS.items()),
    help="; ".join(f"{key}: {name}" for key, (name, _) in MEMORY_AIDS.items()),
)

CUBE_LIFE_FROM = Control(
    "xfrom",
    "Position type (sets the cube life x)",
    "select",
    "contact",
    options=CUBE_LIFE_CLASSES,
    option_labels=(("bearoff", "bear-off"),),
    help="The headline take point keeps the cube as live as GNU Backgammon 1.07 assumes "
    "for this kind of position (its cube efficiency): contact and crashed 0.68, "
    "bear-off 0.6, race 0.55 + 0.00125 x the doubler's pips, between 0.6 and 0.7.",
)
CUBE_LIFE_PIPS = concepts.pips(
    "The doubler's pip count (race)",
    100,
    MAX_PIPS,
    "Sets the race's cube life: 0.6 at 40 pips or fewer, 0.7 at 120 or more.",
    requires=("xfrom", "race"),
)

#: Read by every section: the score, the model and the table.
PAGE_CONTROLS = (AWAY, OPP_AWAY, POST_CRAWFORD, GAMMON_RATE, EFFICIENCY, MET)
#: The gammon rates of the market window.
WINDOW_CONTROLS = (PLAYER_GAMMONS, PLAYER_BACKGAMMONS, OPP_GAMMONS, OPP_BACKGAMMONS, GV_CUBE)
#: The second table.
COMPARE_CONTROLS = (MET_OTHER,)
#: The selective drop's model.
DROP_CONTROLS = (DROP_SPREAD, DROP_GAMMONS)
#: Which aid.
AID_CONTROLS = (AID,)
#: The double being taken (the take-point section; the heatmaps read them too).
TAKE_CONTROLS = (CUBE, OWNER, OPP_GAMMON_RATE, CUBE_LIFE_FROM, CUBE_LIFE_PIPS)
#: The Holland rule's model (the Crawford and Holland section).
HOLLAND_CONTROLS = (DELAY, VOLATILITY)
#: What the take-point heatmap shows.
HEATMAP_CONTROLS = (TAKE_KIND, HEATMAP_SIZE)

#: The two table choices of a session that has uploaded no table: no upload entry
#: (``ui.match.session_page``); a link naming it gets a notice (``ui.match.tables``).
MET_WITHOUT_UPLOAD, MET_OTHER_WITHOUT_UPLOAD = (
    dataclasses.replace(
        control,
        options=tuple(o for o in TABLE_OPTIONS if o != UPLOADED_TABLE),
        option_labels=tuple(pair for pair in TABLE_LABELS if pair[0] != UPLOADED_TABLE),
    )
    for control in (MET, MET_OTHER)
)
#: How a link may name the uploaded table: its key, its label, its label of before.
UPLOADED_SPELLINGS = frozenset(
    {UPLOADED_TABLE, dict(TABLE_LABELS)[UPLOADED_TABLE], "The table uploaded in this session"}
)

#: One-click presets: the classic scores; each keeps the open section.
PRESETS = {
    label: {"away": away, "oaway": opp_away, "post": phase == "post-Crawford"}
    for label, (away, opp_away, phase) in CLASSIC_SCORES.items()
}
