"""The Keeler-Spencer page: raising points, from the continuous game to raise potentials."""

from ui.keeler_spencer import controls, sections
from ui.skeleton import Page, Section, wiring

PAGE = Page(
    title="Keeler-Spencer: proper raising points",
    intro="Every probability is A's chance of winning; values are in units of the initial "
    "stakes K.",
    sources=("KS69",),
    sections=(
        Section("game", "Continuous game", sections.render_game, controls.GAME_CONTROLS),
        Section(
            "alternating",
            "Limited doubles",
            sections.render_alternating,
            controls.ALTERNATING_CONTROLS,
        ),
        Section(
            "raises",
            "Non-alternating raises",
            sections.render_raises,
            controls.RAISES_CONTROLS,
            controls.RAISES_PRESETS,
        ),
        Section(
            "continuous",
            "Raise potentials",
            sections.render_continuous,
            controls.CONTINUOUS_CONTROLS,
            controls.CONTINUOUS_PRESETS,
        ),
    ),
    **wiring(controls),
)
