"""Controls and presets of the Keeler-Spencer page (raising points), grouped by section."""

from typing import Any

from ui import concepts
from ui.controls import Control

#: Section titles of the links made before the page skeleton -> today's section id.
OLD_SECTIONS = {
    "1 · The continuous game": "game",
    "2 · Limited doubles": "alternating",
    "3 · Non-alternating raises": "raises",
    "4 · Continuous raises": "continuous",
}
#: Link names renamed to the app-wide names: old key -> today's key. The section key
#: kept its name ``sec`` but not its values: mapping it to itself makes
#: :func:`ui.links.apply_aliases` rewrite its old values too (it rewrites values only
#: under renamed keys).
OLD_KEYS = {"beav": "beavers", "sec": "sec"}

# --- Section 1: the continuous game -------------------------------------------------
DOUBLE_POINT = Control(
    "d",
    "A's doubling point",
    "float",
    0.8,
    0.21,
    0.99,
    0.01,
    help="A's winning chance at which he doubles. B plays optimally (takes at 20%).",
)
START = Control(
    "x0",
    "Starting chance of A",
    "float",
    0.5,
    0.01,
    0.99,
    0.01,
    help="Where the simulated path starts.",
)
SEED = concepts.seed("Same seed, same path and games.", high=999)
PROGRESS = Control(
    "prog",
    "Path shown (%)",
    "int",
    100,
    1,
    100,
    1,
    help="Step through the game: how much of the path is drawn.",
)
GAMES = Control(
    "games",
    "Monte Carlo games",
    "select",
    "200000",
    options=("20000", "200000", "1000000"),
    help="Games per Monte Carlo estimate (seeded, reproducible).",
)
BEAVERS = concepts.beavers(
    "B may beaver (take and redouble at once) when his chance is at least 40%."
)

# --- Section 2: limited alternating doubles -------------------------------------------
N_MAX = Control(
    "nmax",
    "Largest total number of doubles n",
    "int",
    10,
    1,
    30,
    1,
    help="Doubles allowed in total, both players together.",
)

# --- Section 3: non-alternating raises --------------------------------------------------
ROWS = Control("rows", "Table rows (A's raises 0..)", "int", 10, 1, 30, 1, help="Table I/II rows.")
COLS = Control(
    "cols", "Table columns (B's raises 0..)", "int", 10, 1, 30, 1, help="Table I/II columns."
)


def _choice(key: str, label: str, options: tuple[str, ...], help_text: str) -> Control:
    """A choice among ``options``, the first by default."""
    return Control(key, label, "select", options[0], options=options, help=help_text)


def _raise_factor(key: str, player: str) -> Control:
    """A player's raise factor, 1 to 10 (2: the doubling cube)."""
    label = f"{player}'s raise factor {key}"
    return Control(key, label, "float", 2.0, 1.0, 10.0, 0.1, help="2 is the doubling cube.")


def _raise_potential(key: str, player: str, default: float) -> Control:
    """The product of a player's raises, 1 to 1000."""
    label, help_text = f"{player}'s raise potential {key[1]}", f"Product of {player}'s raises."
    return Control(key, label, "float", default, 1.0, 1000.0, 0.1, help=help_text)


FACTOR_A = _raise_factor("a", "A")
FACTOR_B = _raise_factor("b", "B")
RAISES_A = Control("i", "A's raises left i", "int", 3, 0, 30, 1)
RAISES_B = Control("j", "B's raises left j", "int", 2, 0, 30, 1)
POINT = _choice(
    "pt",
    "Heatmap of",
    ("alpha", "beta"),
    "alpha: A's raising point (Table I); beta: B's raising point.",
)

# --- Section 4: continuous raises ---------------------------------------------------------
RANGE = _choice(
    "range",
    "Heatmap range of a and b",
    ("1-10", "1-100", "1-1000", "1-10^6"),
    "1-10: the paper's integer grid (Tables III, IV); larger: 30 log-spaced values.",
)
POTENTIAL_A = _raise_potential("pa", "A", 8.0)
POTENTIAL_B = _raise_potential("pb", "B", 4.0)
B_MAX = _choice(
    "bmax",
    "Table V: b up to",
    ("20", "100", "1000", "10^6"),
    "Range of B's potential for the Fig. 3 curve.",
)

#: Each section's controls, in the order they are laid out.
GAME_CONTROLS = (DOUBLE_POINT, START, SEED, PROGRESS, GAMES, BEAVERS)
ALTERNATING_CONTROLS = (N_MAX,)
RAISES_CONTROLS = (FACTOR_A, FACTOR_B, RAISES_A, RAISES_B, ROWS, COLS, POINT)
CONTINUOUS_CONTROLS = (POTENTIAL_A, POTENTIAL_B, RANGE, B_MAX)

_ALL = (*GAME_CONTROLS, *ALTERNATING_CONTROLS, *RAISES_CONTROLS, *CONTINUOUS_CONTROLS)
#: One-click presets of the raises section. "Paper's tables" resets every control.
RAISES_PRESETS: dict[str, dict[str, Any]] = {
    "Paper's tables": {spec.key: spec.default for spec in _ALL},
    "Worked example: α(2,1) = 11/16": {"i": 2, "j": 1, "a": 2.0, "b": 3.0},
    "A has 10 doubles, B has 3": {
        "i": 10,
        "j": 3,
        "a": 2.0,
        "b": 2.0,
        "rows": 11,
        "cols": 10,
        "pa": 10.0,
        "pb": 3.0,
    },
}
#: One-click presets of the continuous-raises section.
CONTINUOUS_PRESETS: dict[str, dict[str, Any]] = {"a > 4 against b = 1": {"pa": 5.0, "pb": 1.0}}
