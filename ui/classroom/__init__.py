"""The live classroom: a presenter asks, students answer from their phones, all see the result.

Rooms, questions and answers live in the app's store (:mod:`store`): SQLite in the data
directory, or PostgreSQL when the app runs as several processes.
"""

from ui.classroom import controls, sections
from ui.skeleton import Page, Section, wiring

PAGE = Page(
    title="Classroom",
    intro="A live poll for a class: the presenter opens a room and asks; students join "
    "with the room code and a nickname and answer from their phones; the presenter's "
    "screen shows the answers as they arrive and reveals the exact answer. A question "
    "can be a position: the class sees the board and votes no double, double/take or "
    "double/pass, then the presenter reveals the verdict with the engine's numbers.",
    sources=(),
    sections=(
        # A live room: the question, its answers and their histogram are redrawn by a
        # fragment, which opens its own slide (sections._presenter_live).
        Section("join", "Join", sections.render_join, slide=False),
        Section("present", "Present", sections.render_present, slide=False),
    ),
    **wiring(controls),
)
