"""The home page: the model atlas, one view of all the models, with its glossary and sources."""

from ui.home import controls, sections
from ui.skeleton import Page, Section, wiring

PAGE = Page(
    title="Cube Theory Lab",
    intro="The doubling cube at four resolutions: the continuous game, effective doubling "
    "points, give-up points and the cube life index, side by side and computed from their "
    "sources.",
    sources=("KS69", "ZK77", "W-DT", "JR12"),
    sections=(
        # Overview, Glossary and About list sources and terms: no numbers, no chart, no slide
        Section("overview", "Overview", sections.render_overview, slide=False),
        Section(
            "atlas",
            "Atlas",
            sections.render_atlas,
            controls.ATLAS_CONTROLS,
            presets=controls.ATLAS_PRESETS,
        ),
        Section("glossary", "Glossary", sections.render_glossary, slide=False),
        Section("about", "About and sources", sections.render_about, slide=False),
    ),
    **wiring(controls),
)
