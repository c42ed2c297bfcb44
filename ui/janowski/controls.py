"""Controls of the Janowski page (cube life index)."""

from ui import concepts
from ui.controls import Control

#: Old section titles (links made before the page skeleton) -> today's section id.
OLD_SECTIONS = {
    "1 · Equities and decisions": "decision",
    "2 · Points against cube life": "life",
    "3 · Two cube-life indexes": "two",
}
#: Old link names -> today's: the section key before the page skeleton.
OLD_KEYS = {"jsec": "sec"}

X = concepts.cube_life(
    0.7,
    "0 = dead cube, 1 = perfectly live cube (Janowski's cube life index).",
    label="Cube life x (doubler)",
)
W = concepts.win_value(1.0, "1 + gammon and backgammon bonus per win (1 = no gammons).")
L = concepts.loss_value(1.0)
P = concepts.win_probability(
    "Winning probability P",
    0.7,
    "Cubeless winning chance of the player on roll (the doubler).",
)
CUBE = concepts.cube_position(
    "Seen from the player whose winning chance is P.", options=(*concepts.CUBE_POSITIONS, "all")
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
JACOBY = concepts.jacoby()
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
