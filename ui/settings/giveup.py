"""Controls of the give-up-point page (Woolsey, "Doubling Theory").

Keys are unique across the app's pages (``wg``, ``wgc``, ``act``, ``sd`` rather than
``g``, ``gc``, ``cube``, ``vol``): Streamlit keeps widget keys in one session state
for all pages, and a key already set by another page's widget came back as that
slider's minimum here.
"""

from typing import Any

from cubecore import giveup
from ui.settings import Control

#: How the give-up point g is set: from the minimum take point T (g = 4T) or directly.
G_FROM_TAKE, G_DIRECT = "T", "g"

G_SOURCE = Control(
    "from",
    "Set the give-up point g from",
    "select",
    G_FROM_TAKE,
    options=(G_FROM_TAKE, G_DIRECT),
    help="T: the minimum take point, g = 4T by the essay's argument. g: the give-up point itself.",
)
MIN_TAKE = Control(
    "T",
    "Minimum take point T (used when g is set from T)",
    "float",
    giveup.ESSAY_MIN_TAKE,
    0.2,
    0.25,
    0.0025,
    help="The taker's lowest cubeless winning chance. .25: no recube vig; .20: a perfect "
    "recube. The essay: about .215.",
)
OWN_GIVE_UP = Control(
    "wg",
    "Give-up point g, cube turned (used when g is set directly)",
    "float",
    giveup.ESSAY_OWN_GIVE_UP,
    0.55,
    1.0,
    0.005,
    help="The cube holder wins automatically when his cubeless chance reaches g. Essay: .86.",
)
CENTER_GIVE_UP = Control(
    "wgc",
    "Give-up point g_c, cube centred",
    "float",
    giveup.ESSAY_CENTER_GIVE_UP,
    0.55,
    1.0,
    0.005,
    help="The player who first reaches g_c wins, with both players having cube access. "
    "Essay: .835.",
)
ROWS = tuple(
    Control(
        f"r{index + 1}",
        f"Row {index + 1}: cubeless equity e",
        "float",
        equity,
        -1.0,
        1.0,
        0.005,
        help="A row of the table (the essay's rows are .40, .39, .42 and .200).",
    )
    for index, equity in enumerate(giveup.ESSAY_TABLE_EQUITIES)
)
CUBE = Control(
    "act",
    "Cube action",
    "select",
    "center",
    options=giveup.DOUBLING_CUBES,
    help="center: an initial double (cost e0 - 2 e1); owned: a redouble (cost e2 - 2 e1).",
)
EQUITY = Control(
    "eq",
    "Today's cubeless equity",
    "float",
    0.45,
    -0.95,
    0.95,
    0.005,
    help="Mean of the next-exchange equity (equities are martingales).",
)
VOLATILITY = Control(
    "sd",
    "Volatility: sd of the next-exchange equity",
    "float",
    0.2,
    0.0,
    0.9,
    0.005,
    help="0 is no spread (the gain function itself). It must satisfy vol² < 1 - e².",
)
ON_ROLL = Control(
    "pr",
    "Race: pip count of the roller",
    "int",
    100,
    1,
    200,
    1,
    help="The player who considers doubling.",
)
OPPONENT = Control("po", "Race: pip count of the opponent", "int", 110, 1, 200, 1)

#: The page's sections, as tabs bound to the URL (only the open one is computed).
SECTION = Control(
    "wsec",
    "Section",
    "tabs",
    "1 · The transform",
    options=(
        "1 · The transform",
        "2 · The essay's table",
        "3 · The cost of doubling",
        "4 · Equivalences",
    ),
)

CONTROLS = (
    SECTION,
    G_SOURCE,
    MIN_TAKE,
    OWN_GIVE_UP,
    CENTER_GIVE_UP,
    *ROWS,
    CUBE,
    EQUITY,
    VOLATILITY,
    ON_ROLL,
    OPPONENT,
)

_ESSAY_ROWS = {row.key: row.default for row in ROWS}

#: One-click presets: (label, values).
PRESETS: dict[str, dict[str, Any]] = {
    "Essay: T = 21.5 %, g_c = .835": {
        "from": G_FROM_TAKE,
        "T": giveup.ESSAY_MIN_TAKE,
        "wgc": giveup.ESSAY_CENTER_GIVE_UP,
        **_ESSAY_ROWS,
    },
    "Keeler-Spencer limit: g = g_c = .8": {"from": G_DIRECT, "wg": 0.8, "wgc": 0.8},
    "Dead cube: g = g_c = 1": {"from": G_DIRECT, "wg": 1.0, "wgc": 1.0},
}
