"""The position library: real positions with the engine's verdicts, by theme and score."""

from ui.library import controls, sections
from ui.skeleton import Page, Section, wiring

PAGE = Page(
    title="Position library: real cube decisions",
    intro="Real positions of every classic theme, each with the Open Sage engine's verdict "
    "(bgsage 2.0, 3-ply) at money and at five match scores, and one link that opens it on "
    "the position page. The explanations are about money play.",
    sources=("T04", "GNUBG"),
    sections=(
        Section("positions", "Positions", sections.positions_section),
        Section("table", "Table", sections.table_section),
    ),
    **wiring(controls),
)
