"""Controls and presets of the cube-rules page: walkthrough, money rules in theory, simulation.

Keys name one concept app-wide (``x``, ``W``, ``L``, ``P``, ``beavers``, ``seed``); the
page's links from before the skeleton used ``view``, ``life``, ``win``, ``loss``, ``p``
and ``rseed``, which stay as aliases (:data:`OLD_KEYS`).
"""

from typing import Any

from ui import concepts
from ui.controls import Control
from ui.rules.walkthroughs import WALKTHROUGHS

#: Link names renamed to the app-wide names: old key -> today's key.
OLD_KEYS = {
    "view": "sec",
    "life": "x",
    "win": "W",
    "loss": "L",
    "p": "P",
    "rseed": "seed",
}
#: Values of the old section select box (``?view=...``) -> today's section id.
OLD_SECTIONS = {"walkthrough": "walkthrough", "theory": "theory", "simulation": "simulation"}

# ------------------------------------------------------------------ walkthrough
WALK = Control(
    "walk",
    "Walkthrough",
    "select",
    "beaver_raccoon",
    options=tuple(WALKTHROUGHS),
    option_labels=tuple((key, walk.title) for key, walk in WALKTHROUGHS.items()),
    help="A game (or match) from the rules text, as a sequence of cube events.",
)
STEP = Control(
    "step",
    "Step",
    "int",
    0,
    0,
    max(len(walk.actions) for walk in WALKTHROUGHS.values()),
    1,
    help="How many events have happened (0 = the start). Past the last event the last is shown.",
)

# ----------------------------------------------------------------------- theory
X = concepts.cube_life(0.7, "Janowski's cube life index: 0 = dead cube, 1 = perfectly live cube.")
W = concepts.win_value(
    1.25, "1 + gammon and backgammon bonus per win. The Jacoby rule matters only above 1."
)
L = concepts.loss_value(1.2)
P = concepts.win_probability(
    "Doubler's winning probability P",
    0.85,
    "Where the decision with and without the Jacoby rule is shown.",
)

# ------------------------------------------------------------------- simulation
BEAVERS = concepts.beavers("Money play only.")
RACCOONS = Control(
    "raccoons",
    "Raccoons allowed",
    "bool",
    False,
    help="A raccoon answers a beaver: needs beavers.",
    requires=("beavers", True),
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
    requires=("murphy", True),
)


def _doubling_at(key: str, label: str, help_text: str) -> Control:
    """A player's doubling threshold: his own chance, 0.21 to 1 (never), optimal 0.8."""
    return Control(key, label, "float", 0.8, 0.21, 1.0, 0.01, help=help_text)


DOUBLE_A = _doubling_at(
    "ad",
    "A doubles a centred cube at",
    "A's own winning chance at which he offers the first double; 1 = never. "
    "Optimal: 0.8 (Keeler-Spencer).",
)
REDOUBLE_A = _doubling_at(
    "ar",
    "A redoubles at",
    "A's own winning chance at which he redoubles a cube he owns; 1 = never.",
)
DOUBLE_B = _doubling_at(
    "bd", "B doubles and redoubles at", "B's own winning chance at which he doubles; 1 = never."
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
    requires=("beavers", True),
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
    requires=("raccoons", True),
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
SEED = concepts.seed("Same seed, same games: a link reproduces them.")
MODEL = Control(
    "model",
    "Simulation",
    "select",
    "chain",
    options=("chain", "walk"),
    option_labels=(("chain", "exact chain of threshold hits"), ("walk", "random walk, step 0.05")),
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
#: One-click presets of each section.
WALKTHROUGH_PRESETS: dict[str, dict[str, Any]] = {
    "Source: beaver, raccoon": {"walk": "beaver_raccoon", "step": 4},
    "Murphy ties, cap 2": {"walk": "murphy_cap", "step": 3},
    "Crawford, then Holland": {"walk": "crawford_holland", "step": 11},
}
THEORY_PRESETS: dict[str, dict[str, Any]] = {
    "Jacoby: favourite cashes": {"x": 0.7, "W": 1.25, "L": 1.2, "P": 0.85},
    "No gammons": {"W": 1.0, "L": 1.0, "P": 0.75},
}
SIMULATION_PRESETS: dict[str, dict[str, Any]] = {
    "Optimal, no beavers": {
        "beavers": False,
        "raccoons": False,
        "murphy": False,
        "ad": 0.8,
        "ar": 0.8,
        "bd": 0.8,
        "take": 0.2,
    },
    "Early double vs beavers": {
        "beavers": True,
        "raccoons": False,
        "murphy": False,
        "ad": 0.5,
        "ar": 0.8,
        "bd": 0.8,
        "take": 0.2,
        "beaver": 0.4,
    },
    "Murphy, cap 2": {"murphy": True, "cap": 2, "beavers": False},
}
