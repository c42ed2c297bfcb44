"""Controls of the Keeler-Spencer page (raising points), grouped by section."""

from typing import Any

from ui.settings import Control

#: Section tab labels by section id, in order.
SECTION_LABELS = {
    "game": "1 · The continuous game",
    "alternating": "2 · Limited doubles",
    "raises": "3 · Non-alternating raises",
    "continuous": "4 · Continuous raises",
}
#: The page's sections, as tabs bound to the URL (only the open one is computed).
SECTION = Control(
    "sec",
    "Section",
    "tabs",
    SECTION_LABELS["game"],
    options=tuple(SECTION_LABELS.values()),
)

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
SEED = Control("seed", "Seed", "int", 1, 0, 999, 1, help="Same seed, same path and games.")
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
BEAVERS = Control(
    "beav",
    "Beavers allowed",
    "bool",
    False,
    help="B may beaver (take and redouble at once) when his chance is at least 40%.",
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
FACTOR_A = Control(
    "a", "A's raise factor a", "float", 2.0, 1.0, 10.0, 0.1, help="2 is the doubling cube."
)
FACTOR_B = Control(
    "b", "B's raise factor b", "float", 2.0, 1.0, 10.0, 0.1, help="2 is the doubling cube."
)
RAISES_A = Control("i", "A's raises left i", "int", 3, 0, 30, 1)
RAISES_B = Control("j", "B's raises left j", "int", 2, 0, 30, 1)
POINT = Control(
    "pt",
    "Heatmap of",
    "select",
    "alpha",
    options=("alpha", "beta"),
    help="alpha: A's raising point (Table I); beta: B's raising point.",
)

# --- Section 4: continuous raises ---------------------------------------------------------
RANGE = Control(
    "range",
    "Heatmap range of a and b",
    "select",
    "1-10",
    options=("1-10", "1-100", "1-1000", "1-10^6"),
    help="1-10: the paper's integer grid (Tables III, IV); larger: 30 log-spaced values.",
)
POTENTIAL_A = Control(
    "pa", "A's raise potential a", "float", 8.0, 1.0, 1000.0, 0.1, help="Product of A's raises."
)
POTENTIAL_B = Control(
    "pb", "B's raise potential b", "float", 4.0, 1.0, 1000.0, 0.1, help="Product of B's raises."
)
B_MAX = Control(
    "bmax",
    "Table V: b up to",
    "select",
    "20",
    options=("20", "100", "1000", "10^6"),
    help="Range of B's potential for the Fig. 3 curve.",
)

#: Each section's controls, in the order they are laid out.
SECTION_CONTROLS = {
    "game": (DOUBLE_POINT, START, SEED, PROGRESS, GAMES, BEAVERS),
    "alternating": (N_MAX,),
    "raises": (FACTOR_A, FACTOR_B, RAISES_A, RAISES_B, ROWS, COLS, POINT),
    "continuous": (POTENTIAL_A, POTENTIAL_B, RANGE, B_MAX),
}
CONTROLS = (SECTION, *(spec for specs in SECTION_CONTROLS.values() for spec in specs))

_RAISES, _CONTINUOUS = SECTION_LABELS["raises"], SECTION_LABELS["continuous"]
#: One-click presets: (label, values); each opens its section. "Paper" resets every control.
PRESETS: dict[str, dict[str, Any]] = {
    "Paper's tables": {**{spec.key: spec.default for spec in CONTROLS}, "sec": _RAISES},
    "Worked example: α(2,1) = 11/16": {"sec": _RAISES, "i": 2, "j": 1, "a": 2.0, "b": 3.0},
    "A has 10 doubles, B has 3": {
        "sec": _RAISES,
        "i": 10,
        "j": 3,
        "a": 2.0,
        "b": 2.0,
        "rows": 11,
        "cols": 10,
        "pa": 10.0,
        "pb": 3.0,
    },
    "a > 4 against b = 1": {"sec": _CONTINUOUS, "pa": 5.0, "pb": 1.0},
}
