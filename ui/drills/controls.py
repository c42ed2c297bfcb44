"""Controls of the drills page: the quiz (topic, level, number, seed) is the link.

The topics are the app's own functions' (:data:`cubecore.drills.TOPICS`), the library's
positions (:data:`cubecore.position_drills.POSITION_TOPICS`) and the student's review
(:data:`REVIEW`). ``lib`` (a library position's name, the key every page uses for one)
asks one position only.
"""

from cubecore import drills
from cubecore.position_drills import POSITION_TOPICS
from ui import concepts
from ui.controls import Control
from ui.library.controls import library_id

#: The topic that brings back the positions the student got wrong.
REVIEW = "review"
_TOPIC_TITLES = {
    **{key: topic.title for key, topic in drills.TOPICS.items()},
    **POSITION_TOPICS,
    REVIEW: "Review: the positions you got wrong",
}

TOPIC = Control(
    "topic",
    "Topic",
    "select",
    "take_point",
    options=tuple(_TOPIC_TITLES),
    option_labels=tuple(_TOPIC_TITLES.items()),
    help="Each topic drills one idea; the link keeps the topic, so a class gets the same "
    "quiz. The review brings back the positions you got wrong, spaced out in time.",
)
LEVEL = Control(
    "level",
    "Difficulty",
    "int",
    1,
    1,
    len(drills.DIFFICULTIES),
    1,
    help="1: easy scores, clear decisions; 3: any score and table, close decisions.",
)
COUNT = Control("n", "Questions", "int", 10, 1, drills.MAX_QUESTIONS, 1)
SEED = concepts.seed(
    "The same number gives the same questions: share the link with a class.",
    label="Quiz number (seed)",
)
POSITION = Control(
    "lib",
    "One library position (its name in links)",
    "text",
    "",
    pattern=r"[a-z0-9-]{0,40}",
    validator=library_id,
    help="The position topics ask only this position of the library, at each score. "
    "Leave it empty for positions drawn from the whole library.",
)

PAGE_CONTROLS = (TOPIC, LEVEL, COUNT, SEED, POSITION)

PRESETS = {
    "Warm-up: match equities": {"topic": "match_equity", "level": 1, "n": 10, "lib": ""},
    "Take points at a score": {"topic": "take_point", "level": 2, "n": 10, "lib": ""},
    "Close cube actions": {"topic": "cube_action", "level": 3, "n": 10, "lib": ""},
    "Real positions: double or not?": {"topic": "double", "level": 1, "n": 10, "lib": ""},
    "Real positions: take or pass?": {"topic": "take", "level": 2, "n": 10, "lib": ""},
}
