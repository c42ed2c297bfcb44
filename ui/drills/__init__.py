"""Drills: seeded quizzes a teacher can send as a link, graded against the exact values."""

from ui.drills import controls, sections
from ui.skeleton import Page, Section, wiring

PAGE = Page(
    title="Drills: take points, cube actions, real positions",
    intro="Seeded quizzes from the app's own functions: the same link gives a whole class "
    "the same questions. Each answer is graded against the exact value with the stated "
    "tolerance, then shown with its formula, its source and the page that explains it. "
    "Real positions from the library are graded against the engine's verdict, and the ones "
    "you get wrong come back in your review, spaced out in time.",
    sources=("GNUBG", "JR12", "J93", "KS69", "Kei"),
    sections=(
        Section("one", "One by one", sections.render_one),
        Section("all", "All at once", sections.render_all),
    ),
    **wiring(controls),
)
