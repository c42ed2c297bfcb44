"""The cube-rules page: the rules stepped through, priced in theory, and simulated."""

from ui.rules import controls, sections
from ui.skeleton import Page, Section, wiring

PAGE = Page(
    title="The cube rules: played out and priced",
    intro="Beavers, raccoons, the Murphy, Jacoby, Crawford and Holland rules: what each one "
    "allows, what it does to the theory, and what it does to the stakes.",
    sources=("RULES", "JR12", "KS69"),
    sections=(
        Section(
            "walkthrough",
            "Walkthrough",
            sections.render_walkthrough,
            controls.WALKTHROUGH_CONTROLS,
            controls.WALKTHROUGH_PRESETS,
        ),
        Section(
            "theory",
            "Theory",
            sections.render_theory,
            controls.THEORY_CONTROLS,
            controls.THEORY_PRESETS,
        ),
        Section(
            "simulation",
            "Simulation",
            sections.render_simulation,
            controls.SIMULATION_CONTROLS,
            controls.SIMULATION_PRESETS,
        ),
    ),
    **wiring(controls),
)
