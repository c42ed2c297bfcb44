"""Controls of the home page (the model atlas), under the app-wide names of their concepts.

The atlas puts four models on one scale, so its controls are the concepts every model
page names the same way: cube position ``cube``, cube life ``x``, give-up points ``g``
and ``gc``, effective doubling points ``da`` and ``db``, pip count ``pips``.
"""

from ui import concepts

#: Old section values (the ``hsec`` tabs before the page skeleton) -> today's section id.
OLD_SECTIONS = {
    "Overview": "overview",
    "Atlas": "atlas",
    "Glossary": "glossary",
    "About": "about",
}
#: Old link names (before one name per concept app-wide) -> today's.
OLD_KEYS = {
    "hsec": "sec",
    "acube": "cube",
    "ax": "x",
    "ag": "g",
    "agc": "gc",
    "ada": "da",
    "adb": "db",
    "apips": "pips",
}

CUBE = concepts.cube_position("Seen from the player whose winning chance is on the x axis.")
X = concepts.cube_life(0.65, label="Janowski cube life x")
GIVE_UP = concepts.give_up(
    "Give-up point g (cube turned)",
    0.8,
    "Woolsey's give-up point after the cube is turned (essay: .86).",
)
CENTER_GIVE_UP = concepts.center_give_up(
    "Give-up point g_c (cube centred)",
    0.75,
    "Woolsey's give-up point with the cube centred (.835).",
)
DA = concepts.doubler_point(
    "Effective doubling point DA",
    0.86,
    "Zadeh-Kobliska: the doubler 'wins' at DA (0.8 in the continuous game).",
)
DB = concepts.taker_point(
    "Effective doubling point DB",
    0.14,
    "Zadeh-Kobliska: the opponent 'wins' at DB (0.2 in the continuous game).",
)
PIPS = concepts.pips(
    "Race pip count (even race)",
    40,
    300,
    "For the cube life x implied by the exact race model.",
    low=4,
)

#: The atlas section's controls (the other sections are text).
ATLAS_CONTROLS = (CUBE, X, GIVE_UP, CENTER_GIVE_UP, DA, DB, PIPS)

#: The atlas section's presets.
ATLAS_PRESETS = {
    "Essay defaults (g .86, g_c .835)": {
        "g": 0.86,
        "gc": 0.835,
        "da": 0.86,
        "db": 0.14,
        "x": 0.65,
    },
    "Continuous game (all at 80/20)": {"g": 0.8, "gc": 0.8, "da": 0.8, "db": 0.2, "x": 1.0},
}
