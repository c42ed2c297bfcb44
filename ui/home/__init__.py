"""The home page: where to start from what a visitor brings; the models, the atlas of all of
them, the glossary and the sources one tab further."""

from ui.home import controls, sections
from ui.skeleton import Page, Section, wiring

PAGE = Page(
    title="Cube Theory Lab",
    intro="The mathematics of the doubling cube, computed from its sources. Start from what "
    "you bring; the models, side by side, are in the tabs beside it.",
    sources=("KS69", "ZK77", "W-DT", "JR12"),
    sections=(
        # Start here, Models, Glossary and About are links, sources and terms: no numbers,
        # no chart, no slide
        Section("start", "Start here", sections.render_start, slide=False),
        Section("overview", "Models", sections.render_overview, slide=False),
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
