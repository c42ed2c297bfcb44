"""Controls of the race page (Zadeh & Kobliska 1977: the race model, exact cube strategy)."""

from ui.controls import Control

#: Largest count the page offers (the cube tables are precomputed up to it).
MAX_PAGE_COUNT = 300

#: Sections of the page: URL value -> heading.
SECTIONS = {
    "race-model": "1. The race model",
    "doubling-points": "2. Effective doubling points",
    "exact-strategy": "3. Exact optimal cube strategy",
    "measured-points": "4. Doubling points measured",
    "rules-of-thumb": "5. Rules of thumb",
}

SECTION = Control(
    "rsec",
    "Section",
    "select",
    "race-model",
    options=tuple(SECTIONS),
    help="; ".join(SECTIONS.values()),
)
YOUR_COUNT = Control(
    "rx",
    "Your count (on roll)",
    "int",
    40,
    1,
    MAX_PAGE_COUNT,
    1,
    help="Pip count of the player about to roll (player A in the paper).",
)
OPPONENT_COUNT = Control(
    "ry",
    "Opponent's count",
    "int",
    43,
    1,
    MAX_PAGE_COUNT,
    1,
    help="Pip count of the other player (player B).",
)
CUBE = Control(
    "rcube",
    "Cube position",
    "select",
    "center",
    options=("center", "owned", "opponent"),
    help="Seen from the player on roll: centred, owned by him, or owned by his opponent.",
)
SPAN = Control(
    "rspan",
    "Maps: largest count",
    "int",
    120,
    20,
    MAX_PAGE_COUNT,
    5,
    help="Counts 1..span on the heatmaps and along the pip-count sweeps.",
)
LEAD = Control(
    "rlead",
    "Sweep: opponent's count - yours",
    "int",
    0,
    -30,
    30,
    1,
    help="Offset kept fixed along the cube-life sweep of section 4 (0 = even race).",
)
DA = Control(
    "rda",
    "DA: A's effective doubling point",
    "float",
    0.88,
    0.8,
    1.0,
    0.005,
    help="A wins when his chance reaches DA (0.8 in a continuous game, 1 for a dead cube).",
)
DB = Control(
    "rdb",
    "DB: B's effective doubling point",
    "float",
    0.12,
    0.0,
    0.2,
    0.005,
    help="B wins when A's chance falls to DB (0.2 in a continuous game, 0 for a dead cube).",
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

#: Controls of the Table 1 range (section 1).
TABLE_CONTROLS = (
    TABLE_FIRST_COUNT,
    TABLE_COUNT_STEP,
    TABLE_COLUMNS,
    TABLE_FIRST_OFFSET,
    TABLE_OFFSET_STEP,
    TABLE_ROWS,
)

CONTROLS = (SECTION, YOUR_COUNT, OPPONENT_COUNT, CUBE, SPAN, LEAD, DA, DB, *TABLE_CONTROLS)

#: Short names the page's views use -> the controls. URL keys carry an "r" prefix
#: because widget keys are shared by every page of a session (``x``, ``cube``, ``da``
#: are other pages' controls with other ranges).
NAMED = {
    "sec": SECTION,
    "x": YOUR_COUNT,
    "y": OPPONENT_COUNT,
    "cube": CUBE,
    "span": SPAN,
    "lead": LEAD,
    "da": DA,
    "db": DB,
}

#: One-click presets: the paper's Table 2 positions and the continuous game.
PRESETS = {
    f"{x} v {y}": {"rx": x, "ry": y, "rcube": "owned", "rsec": "exact-strategy"}
    for x, y in ((20, 20), (40, 43), (70, 77), (110, 121))
} | {"Continuous game": {"rda": 0.8, "rdb": 0.2, "rsec": "doubling-points"}}
