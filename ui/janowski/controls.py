"""Controls of the Janowski page (cube life index)."""

from ui.controls import Control

#: Old section titles (links made before the page skeleton) -> today's section id.
OLD_SECTION_TITLES = {
    "1 · Equities and decisions": "decision",
    "2 · Points against cube life": "life",
    "3 · Two cube-life indexes": "two",
}

X = Control(
    "x",
    "Cube life x (doubler)",
    "float",
    0.7,
    0.0,
    1.0,
    0.01,
    help="0 = dead cube, 1 = perfectly live cube (Janowski's cube life index).",
)
W = Control(
    "W",
    "W: average value of a win",
    "float",
    1.0,
    1.0,
    3.0,
    0.01,
    help="1 + gammon and backgammon bonus per win (1 = no gammons).",
)
L = Control(
    "L",
    "L: average value of a loss",
    "float",
    1.0,
    1.0,
    3.0,
    0.01,
    help="1 + gammon and backgammon bonus per loss.",
)
P = Control(
    "P",
    "Winning probability P",
    "float",
    0.7,
    0.0,
    1.0,
    0.005,
    help="Cubeless winning chance of the player on roll (the doubler).",
)
CUBE = Control(
    "cube",
    "Cube position",
    "select",
    "center",
    options=("center", "owned", "opponent", "all"),
    help="Seen from the player whose winning chance is P.",
)
TWO_INDEX = Control(
    "two",
    "Taker has his own x",
    "bool",
    False,
    help="Each player uses his own cube life for his own decisions.",
)
X_TAKER = Control(
    "xt",
    "Cube life x (taker)",
    "float",
    0.7,
    0.0,
    1.0,
    0.01,
    help="Used only with 'Taker has his own x' on.",
    requires=("two", True),
)
JACOBY = Control(
    "jacoby",
    "Jacoby rule",
    "bool",
    False,
    help="Money play: gammons count only once the cube has been turned.",
)
ORIGINAL = Control("j93", "Show Janowski's 1993 centred formula", "bool", False)

#: Read by every section.
PAGE_CONTROLS = (X, W, L, JACOBY, TWO_INDEX, X_TAKER)
#: Only the "Equities and decisions" section uses these.
DECISION_CONTROLS = (P, CUBE, ORIGINAL)

#: One-click presets: (label, values).
PRESETS = {
    "Dead cube": {"x": 0.0, "W": 1.0, "L": 1.0, "cube": "center", "jacoby": False},
    "Live cube (20/80)": {"x": 1.0, "W": 1.0, "L": 1.0, "cube": "center", "jacoby": False},
    "Typical: x=0.68, gammons": {"x": 0.68, "W": 1.25, "L": 1.2, "cube": "all"},
}
