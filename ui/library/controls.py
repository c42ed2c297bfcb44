"""Controls of the position library: the theme, a search, the score, one position.

URL names: ``kind`` (the theme: ``theme`` is the app's light or dark look), ``q`` (the
search), ``score`` (the score the verdicts are shown at) and ``lib`` (a library
position's id, the name every page uses for one: drills and the classroom link to it).
"""

from typing import Any

from cubecore import library
from ui.controls import Control

#: The theme filter's option for every theme.
ALL = "all"
#: The themes in players' words.
THEME_LABELS = {
    ALL: "All themes",
    "opening": "Opening and early game",
    "race": "Races",
    "bear-off": "Bear-offs",
    "blitz": "Blitzes",
    "prime": "Prime against prime",
    "holding": "Holding games",
    "back-game": "Back games",
    "gammonish": "Gammonish",
    "gammonless": "Gammonless",
    "too-good": "Too good to double",
}
#: The scores in players' words (the player on roll first).
SCORE_LABELS = {
    "money": "Money play",
    "3-3": "3-away/3-away",
    "5-3": "5-away/3-away",
    "3-5": "3-away/5-away",
    "2-4": "2-away/4-away",
    "3-1": "3-away/1-away, post-Crawford",
}
#: Longest search text.
MAX_SEARCH = 60


def library_id(text: str) -> None:
    """Raise ``ValueError`` in players' words when ``text`` is no library position's id."""
    if text and text not in {item.id for item in library.library()}:
        raise ValueError(f"no position in the library is called {text}")


THEME = Control(
    "kind",
    "Kind of position",
    "select",
    ALL,
    options=tuple(THEME_LABELS),
    option_labels=tuple(THEME_LABELS.items()),
    help="The kind of position: races, blitzes, holding games...",
)
SEARCH = Control(
    "q",
    "Search",
    "text",
    "",
    pattern=rf"[A-Za-z0-9 ,.%'/-]{{0,{MAX_SEARCH}}}",
    help="Words to find in the titles and explanations (every word must appear): "
    "letters, digits, spaces and , . % ' / -.",
)
SCORE = Control(
    "score",
    "Score",
    "select",
    "money",
    options=tuple(SCORE_LABELS),
    option_labels=tuple(SCORE_LABELS.items()),
    help="The score the engine's verdicts are shown at, the player on roll first. "
    "The explanations are about money play.",
)
POSITION = Control(
    "lib",
    "Library position (its name in links)",
    "text",
    "",
    pattern=r"[a-z0-9-]{0,40}",
    validator=library_id,
    help="One position of the library, shown first with its board and every score.",
)

PAGE_CONTROLS = (THEME, SEARCH, SCORE, POSITION)

#: One-click presets: (label, values).
PRESETS: dict[str, dict[str, Any]] = {
    "Races at money": {"kind": "race", "score": "money", "q": "", "lib": ""},
    "Too good at 2-away/4-away": {"kind": "too-good", "score": "2-4", "q": "", "lib": ""},
    "Every theme, 3-away/3-away": {"kind": ALL, "score": "3-3", "q": "", "lib": ""},
}
