"""Controls of the drills page: the quiz (topic, level, number, seed) is the link."""

from cubecore import drills
from ui import concepts
from ui.controls import Control

TOPIC = Control(
    "topic",
    "Topic",
    "select",
    "take_point",
    options=tuple(drills.TOPICS),
    option_labels=tuple((key, topic.title) for key, topic in drills.TOPICS.items()),
    help="Each topic drills one idea; the link keeps the topic, so a class gets the same quiz.",
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

PAGE_CONTROLS = (TOPIC, LEVEL, COUNT, SEED)

PRESETS = {
    "Warm-up: match equities": {"topic": "match_equity", "level": 1, "n": 10},
    "Take points at a score": {"topic": "take_point", "level": 2, "n": 10},
    "Close cube actions": {"topic": "cube_action", "level": 3, "n": 10},
}
