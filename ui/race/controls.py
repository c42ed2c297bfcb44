"""Controls of the race page (Zadeh & Kobliska 1977: the race model, exact cube strategy)."""

from ui import concepts
from ui.controls import Control

#: Largest count the page offers (the cube tables are precomputed up to it).
MAX_PAGE_COUNT = 300

#: Old values of the section key ``rsec`` (links made before the page skeleton) ->
#: today's section id.
OLD_SECTIONS = {
    "race-model": "model",
    "doubling-points": "points",
    "exact-strategy": "exact",
    "measured-points": "measured",
    "rules-of-thumb": "rules",
}
#: Old link names -> today's (one URL name per concept, app-wide).
OLD_KEYS = {
    "rsec": "sec",
    "rx": "pips",
    "ry": "opips",
    "rcube": "cube",
    "rspan": "span",
    "rlead": "lead",
    "rda": "da",
    "rdb": "db",
}

YOUR_COUNT = concepts.pips(
    "Your count (on roll)",
    40,
    MAX_PAGE_COUNT,
    "Pip count of the player about to roll (player A in the paper).",
)
OPPONENT_COUNT = concepts.opponent_pips(
    "Opponent's count", 43, MAX_PAGE_COUNT, "Pip count of the other player (player B)."
)
CUBE = concepts.cube_position(
    "Seen from the player on roll: centred, owned by him, or owned by his opponent."
)
SPAN = Control(
    "span",
    "Maps: largest count",
    "int",
    120,
    20,
    MAX_PAGE_COUNT,
    5,
    help="Counts 1..span on the heatmaps and along the pip-count sweeps.",
)
LEAD = Control(
    "lead",
    "Sweep: opponent's count - yours",
    "int",
    0,
    -30,
    30,
    1,
    help="Offset kept fixed along the cube-life sweep of 'Measured points' (0 = even race).",
)
DA = concepts.doubler_point(
    "DA: A's effective doubling point",
    0.88,
    "A wins when his chance reaches DA (0.8 in a continuous game, 1 for a dead cube).",
)
DB = concepts.taker_point(
    "DB: B's effective doubling point",
    0.12,
    "B wins when A's chance falls to DB (0.2 in a continuous game, 0 for a dead cube).",
)
TABLE_FIRST_COUNT = Control("rc0", "First count (column)", "int", 10, 1, MAX_PAGE_COUNT, 1)
TABLE_COUNT_STEP = Control("rcs", "Count step", "int", 10, 1, 50, 1)
TABLE_COLUMNS = Control("rcn", "Columns", "int", 11, 1, 30, 1)
TABLE_FIRST_OFFSET = Control(
    "ro0",
    "Lowest offset (row)",
    "int",
    -20,
    -100,
    100,
    1,
    help="Opponent's count - your count; +10 means you lead by 10 pips.",
)
TABLE_OFFSET_STEP = Control("ros", "Offset step", "int", 5, 1, 25, 1)
TABLE_ROWS = Control("ron", "Rows", "int", 11, 1, 41, 1)

#: Controls of the Table 1 range (only "Race model" uses them).
TABLE_CONTROLS = (
    TABLE_FIRST_COUNT,
    TABLE_COUNT_STEP,
    TABLE_COLUMNS,
    TABLE_FIRST_OFFSET,
    TABLE_OFFSET_STEP,
    TABLE_ROWS,
)

#: Read by every section: the position and the span of the maps and sweeps.
PAGE_CONTROLS = (YOUR_COUNT, OPPONENT_COUNT, CUBE, SPAN)
#: Only "Doubling points" uses these.
POINTS_CONTROLS = (DA, DB)
#: Only "Measured points" uses this.
MEASURED_CONTROLS = (LEAD,)

#: One-click presets: the paper's Table 2 positions and the continuous game.
PRESETS = {
    f"{x} v {y}": {"pips": x, "opips": y, "cube": "owned", "sec": "Exact strategy"}
    for x, y in ((20, 20), (40, 43), (70, 77), (110, 121))
} | {"Continuous game": {"da": 0.8, "db": 0.2, "sec": "Doubling points"}}
