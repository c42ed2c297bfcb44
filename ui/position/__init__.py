"""Position analysis: a real engine evaluates any position, and the theory explains its
cube decision."""

from ui.position import controls, editor, matrix, sections
from ui.skeleton import Page, Section, wiring

PAGE = Page(
    title="Position analysis: the engine's cube decision, and why",
    intro="Paste an XGID or a gnubg Position ID, or set the position up on the board: the "
    "Open Sage engine evaluates the position at the level you choose, and the app reads its "
    "answer with the theory: the implied cube life, the market window, the anatomy of the "
    "decision.",
    sources=("J93", "JR12", "GNUBG"),
    sections=(
        Section("answer", "Engine and theory", sections.render_answer),
        Section("edit", "Set up a position", editor.render_editor, slide=False),
        Section("levels", "Verdict by level", matrix.render_levels),
        Section("matrix", "Score matrix", matrix.render_matrix, controls.MATRIX_CONTROLS),
        Section("race", "Exact race values", sections.render_race),
    ),
    lead=sections.render_lead,
    read_link=sections.read_link,
    **wiring(controls),
)
