"""Real races: checker positions, the race formulas players use, exact bear-off values."""

from ui.real_race import controls, sections
from ui.skeleton import Page, Section, wiring

PAGE = Page(
    title="Real races: positions, counts and the bear-off",
    intro="A race as checkers, not pips: the counts players use, each with its verdict, "
    "and the exact values of the bear-off databases.",
    sources=("ZK77", "GNUBG"),
    sections=(
        Section("position", "Position and counts", sections.render_position),
        Section("pip_model", "Pip model against the real game", sections.render_pip_model),
        Section(
            "match",
            "At a match score",
            sections.render_match,
            controls.MATCH_CONTROLS,
            presets=controls.MATCH_PRESETS,
        ),
    ),
    **wiring(controls),
)
