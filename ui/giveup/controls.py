"""Controls of the give-up-point page (Woolsey, "Doubling Theory").

URL names are the app-wide ones (``g``, ``gc``, ``cube``, ``pips``, ``opips``); the
page's names before the page skeleton (``wg``, ``wgc``, ``act``, ``pr``, ``po``,
``wsec``) are aliases, so old links open the same view.
"""

from typing import Any

from cubecore import giveup
from ui import concepts
from ui.controls import Control

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
    requires=("from", G_FROM_TAKE),
)
OWN_GIVE_UP = concepts.give_up(
    "Give-up point g, cube turned (used when g is set directly)",
    0.55,
    "The cube holder wins automatically when his cubeless chance reaches g. Essay: .86.",
    requires=("from", G_DIRECT),
)
CENTER_GIVE_UP = concepts.center_give_up(
    "Give-up point g_c, cube centred",
    0.55,
    "The player who first reaches g_c wins, with both players having cube access. Essay: .835.",
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
CUBE = concepts.cube_position(
    "center: an initial double (cost e0 - 2 e1); owned: a redouble (cost e2 - 2 e1).",
    options=giveup.DOUBLING_CUBES,
    label="Cube action",
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
ON_ROLL = concepts.pips(
    "Race: pip count of the roller", 100, 200, "The player who considers doubling."
)
OPPONENT = concepts.opponent_pips("Race: pip count of the opponent", 110, 200)

#: Old values of the section key ``wsec`` (links made before the page skeleton) ->
#: today's section id.
OLD_SECTIONS = {
    "1 · The transform": "transform",
    "2 · The essay's table": "table",
    "3 · The cost of doubling": "cost",
    "4 · Equivalences": "equivalences",
}
#: Old link names -> today's (one URL name per concept, app-wide).
OLD_KEYS = {"wsec": "sec", "wg": "g", "wgc": "gc", "act": "cube", "pr": "pips", "po": "opips"}

#: Read by every section: the give-up points.
PAGE_CONTROLS = (G_SOURCE, MIN_TAKE, OWN_GIVE_UP, CENTER_GIVE_UP)
#: Only "Essay's table" uses these.
TABLE_CONTROLS = ROWS
#: Only "Cost of doubling" uses these.
COST_CONTROLS = (CUBE, EQUITY, VOLATILITY, ON_ROLL, OPPONENT)

_ESSAY_ROWS = {row.key: row.default for row in ROWS}

#: One-click presets: (label, values).
PRESETS: dict[str, dict[str, Any]] = {
    "Essay: T = 21.5 %, g_c = .835": {
        "from": G_FROM_TAKE,
        "T": giveup.ESSAY_MIN_TAKE,
        "gc": giveup.ESSAY_GIVE_UPS.center_give_up,
        **_ESSAY_ROWS,
    },
    "Keeler-Spencer limit: g = g_c = .8": {"from": G_DIRECT, "g": 0.8, "gc": 0.8},
    "Dead cube: g = g_c = 1": {"from": G_DIRECT, "g": 1.0, "gc": 1.0},
}
