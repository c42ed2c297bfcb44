"""The Janowski page: cubeful equity between the dead and the live cube."""

from ui.janowski import controls, sections
from ui.skeleton import Page, Section, wiring

PAGE = Page(
    title="Janowski: the cube life index",
    intro="Money play, per unit of the current cube: the cubeful equity is the dead-cube "
    "equity and the live-cube equity mixed by the cube life x.",
    sources=("JR12", "J93"),
    sections=(
        Section("decision", "Decisions", sections.render_decision, controls.DECISION_CONTROLS),
        Section("life", "Points against cube life", sections.render_life),
        Section("two", "Two cube-life indexes", sections.render_two),
    ),
    **wiring(controls),
)
