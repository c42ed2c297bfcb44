"""Controls of the cube-rules page: walkthrough, money rules in theory, simulation.

Widget keys live in one session-wide namespace shared by all pages, so these keys
differ from every other page's (another page's ``x`` or ``seed`` has another range).
"""

from cubecore.rules import WALKTHROUGH_PRESETS
from ui.controls import Control

#: The page's sections, in order; the ``view`` control picks one.
SECTIONS = ("walkthrough", "theory", "simulation")

VIEW = Control(
    "view",
    "Section",
    "select",
    "walkthrough",
    options=SECTIONS,
    help="walkthrough: step through a game's cube events; theory: what each money rule does "
    "in the Janowski model; simulation: Monte Carlo of the continuous game.",
)

# ------------------------------------------------------------------ walkthrough
WALK = Control(
    "walk",
    "Walkthrough",
    "select",
    "beaver_raccoon",
    options=tuple(WALKTHROUGH_PRESETS),
    help="A game (or match) from the rules text, as a sequence of cube events.",
)
STEP = Control(
    "step",
    "Step",
    "int",
    0,
    0,
    max(len(preset.actions) for preset in WALKTHROUGH_PRESETS.values()),
    1,
    help="How many events have happened (0 = the start). Past the last event the last is shown.",
)

# ----------------------------------------------------------------------- theory
X = Control(
    "life",
    "Cube life x",
    "float",
    0.7,
    0.0,
    1.0,
    0.01,
    help="Janowski's cube life index: 0 = dead cube, 1 = perfectly live cube.",
)
W = Control(
    "win",
    "W: average value of a win",
    "float",
    1.25,
    1.0,
    3.0,
    0.01,
    help="1 + gammon and backgammon bonus per win. The Jacoby rule matters only above 1.",
)
L = Control(
    "loss",
    "L: average value of a loss",
    "float",
    1.2,
    1.0,
    3.0,
    0.01,
    help="1 + gammon and backgammon bonus per loss.",
)
P = Control(
    "p",
    "Doubler's winning probability P",
    "float",
    0.85,
    0.0,
    1.0,
    0.005,
    help="Where the decision with and without the Jacoby rule is shown.",
)

# ------------------------------------------------------------------- simulation
BEAVERS = Control("beavers", "Beavers allowed", "bool", False, help="Money play only.")
RACCOONS = Control(
    "raccoons", "Raccoons allowed", "bool", False, help="A raccoon answers a beaver: needs beavers."
)
MURPHY = Control(
    "murphy", "Murphy rule (automatic doubles)", "bool", False, help="Each opening tie doubles."
)
CAP = Control(
    "cap",
    "Murphy cap (0 = no cap)",
    "int",
    0,
    0,
    6,
    1,
    help="Maximum number of automatic doubles per game.",
)
DOUBLE_A = Control(
    "ad",
    "A doubles a centred cube at",
    "float",
    0.8,
    0.21,
    1.0,
    0.01,
    help="A's own winning chance at which he offers the first double; 1 = never. "
    "Optimal: 0.8 (Keeler-Spencer).",
)
REDOUBLE_A = Control(
    "ar",
    "A redoubles at",
    "float",
    0.8,
    0.21,
    1.0,
    0.01,
    help="A's own winning chance at which he redoubles a cube he owns; 1 = never.",
)
DOUBLE_B = Control(
    "bd",
    "B doubles and redoubles at",
    "float",
    0.8,
    0.21,
    1.0,
    0.01,
    help="B's own winning chance at which he doubles; 1 = never.",
)
TAKE = Control(
    "take",
    "Both take from",
    "float",
    0.2,
    0.0,
    0.5,
    0.01,
    help="A player takes a double iff his chance is at least this. Optimal: 0.2.",
)
BEAVER = Control(
    "beaver",
    "Both beaver from",
    "float",
    0.4,
    0.0,
    1.0,
    0.01,
    help="With beavers allowed, a taker beavers iff his chance is at least this. Optimal: 0.4.",
)
RACCOON = Control(
    "raccoon",
    "Both raccoon from",
    "float",
    1.0,
    0.0,
    1.0,
    0.01,
    help="With raccoons allowed, a beavered doubler raccoons iff his chance is at least this "
    "(1 = never, optimal against an optimal beaver).",
)
START = Control(
    "start", "A's chance at the start", "float", 0.5, 0.05, 0.95, 0.05, help="Usually 1/2."
)
GAMES = Control(
    "n",
    "Games (thousands)",
    "int",
    200,
    10,
    1000,
    10,
    help="Monte Carlo sample size. The fine walk is limited to 100 thousand games.",
)
SEED = Control(
    "rseed", "Seed", "int", 1, 0, 9999, 1, help="Same seed, same games: a link reproduces them."
)
MODEL = Control(
    "model",
    "Simulation",
    "select",
    "chain",
    options=("chain", "walk"),
    help="chain: the exact chain of threshold hits (Keeler-Spencer lemma); walk: the indicator "
    "as a random walk of step 0.05 (thresholds must be multiples of 0.05).",
)

WALKTHROUGH_CONTROLS = (WALK, STEP)
THEORY_CONTROLS = (X, W, L, P)
SIMULATION_CONTROLS = (
    MODEL,
    BEAVERS,
    RACCOONS,
    MURPHY,
    CAP,
    DOUBLE_A,
    REDOUBLE_A,
    DOUBLE_B,
    TAKE,
    BEAVER,
    RACCOON,
    START,
    GAMES,
    SEED,
)
#: Each section's own controls, by section name.
SECTION_CONTROLS = {
    "walkthrough": WALKTHROUGH_CONTROLS,
    "theory": THEORY_CONTROLS,
    "simulation": SIMULATION_CONTROLS,
}
CONTROLS = (VIEW, *WALKTHROUGH_CONTROLS, *THEORY_CONTROLS, *SIMULATION_CONTROLS)

#: One-click presets; each names its section in ``view``.
PRESETS = {
    "Source: beaver, raccoon": {
        "view": "walkthrough",
        "walk": "beaver_raccoon",
        "step": 4,
    },
    "Murphy ties, cap 2": {"view": "walkthrough", "walk": "murphy_cap", "step": 3},
    "Crawford, then Holland": {
        "view": "walkthrough",
        "walk": "crawford_holland",
        "step": 11,
    },
    "Jacoby: favourite cashes": {
        "view": "theory",
        "life": 0.7,
        "win": 1.25,
        "loss": 1.2,
        "p": 0.85,
    },
    "No gammons": {"view": "theory", "win": 1.0, "loss": 1.0, "p": 0.75},
    "Optimal, no beavers": {
        "view": "simulation",
        "beavers": False,
        "raccoons": False,
        "murphy": False,
        "ad": 0.8,
        "ar": 0.8,
        "bd": 0.8,
        "take": 0.2,
    },
    "Early double vs beavers": {
        "view": "simulation",
        "beavers": True,
        "raccoons": False,
        "murphy": False,
        "ad": 0.5,
        "ar": 0.8,
        "bd": 0.8,
        "take": 0.2,
        "beaver": 0.4,
    },
    "Murphy, cap 2": {"view": "simulation", "murphy": True, "cap": 2, "beavers": False},
}
