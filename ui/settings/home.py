"""Controls of the home page (the model atlas). Keys start with "a" (atlas): keys are
unique across the app, because Streamlit shares widget state between pages by key."""

from ui.controls import Control

CUBE = Control(
    "acube",
    "Cube position",
    "select",
    "center",
    options=("center", "owned", "opponent"),
    help="Seen from the player whose winning chance is on the x axis.",
)
X = Control("ax", "Janowski cube life x", "float", 0.65, 0.0, 1.0, 0.01)
GIVE_UP = Control(
    "ag",
    "Give-up point g (cube turned)",
    "float",
    0.86,
    0.8,
    1.0,
    0.005,
    help="Woolsey's give-up point after the cube is turned (essay: .86).",
)
CENTER_GIVE_UP = Control(
    "agc",
    "Give-up point g_c (cube centred)",
    "float",
    0.835,
    0.75,
    1.0,
    0.005,
    help="Woolsey's give-up point with the cube centred (.835).",
)
DA = Control(
    "ada",
    "Effective doubling point DA",
    "float",
    0.86,
    0.8,
    1.0,
    0.005,
    help="Zadeh-Kobliska: the doubler 'wins' at DA (0.8 in the continuous game).",
)
DB = Control(
    "adb",
    "Effective doubling point DB",
    "float",
    0.14,
    0.0,
    0.2,
    0.005,
    help="Zadeh-Kobliska: the opponent 'wins' at DB (0.2 in the continuous game).",
)
PIPS = Control(
    "apips",
    "Race pip count (even race)",
    "int",
    40,
    4,
    300,
    1,
    help="For the cube life x implied by the exact race model.",
)

SECTION = Control(
    "hsec", "Section", "tabs", "Overview", options=("Overview", "Atlas", "Glossary", "About")
)

CONTROLS = (SECTION, CUBE, X, GIVE_UP, CENTER_GIVE_UP, DA, DB, PIPS)

PRESETS = {
    "Essay defaults (g .86, g_c .835)": {
        "ag": 0.86,
        "agc": 0.835,
        "ada": 0.86,
        "adb": 0.14,
        "ax": 0.65,
    },
    "Continuous game (all at 80/20)": {"ag": 0.8, "agc": 0.8, "ada": 0.8, "adb": 0.2, "ax": 1.0},
}
