"""The cube calculator: an engine's five probabilities to a cube decision, with the reasons."""

from ui.cube import controls, sections
from ui.skeleton import Page, Section, wiring

PAGE = Page(
    title="Cube calculator: from an engine's numbers to a decision",
    intro="Five cubeless probabilities from GNU Backgammon or eXtreme Gammon, the cube and "
    "the score: the cube decision as gnubg computes it at 0-ply, and why.",
    sources=("J93", "JR12", "GNUBG"),
    sections=(
        Section("decision", "Decision", sections.render_decision),
        Section("anatomy", "Anatomy and margins", sections.render_anatomy),
        Section("matrix", "Score matrix", sections.render_matrix, (controls.GRID,)),
    ),
    **wiring(controls),
)
