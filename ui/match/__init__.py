"""The match-play page: a generated match equity table, take points, the rules in numbers."""

from ui.match import controls, sections
from ui.skeleton import Page, Section

PAGE = Page(
    title="Match play: match equity, take points, Crawford and Holland",
    intro="Match winning chances (MWC) generated from a stated model: the continuous game "
    "with gammons and cube efficiency, recursively over the scores up to 25-away each.",
    sources=("Z77", "KS69", "ZK77", "JR12", "RULES"),
    sections=(
        Section("table", "Equity table", sections.render_table),
        Section("takes", "Take points", sections.render_takes, controls.TAKE_CONTROLS),
        Section("rules", "Crawford and Holland", sections.render_rules, controls.HOLLAND_CONTROLS),
        Section("heatmaps", "Heatmaps", sections.render_heatmaps, controls.HEATMAP_CONTROLS),
    ),
    controls=controls.PAGE_CONTROLS,
    presets=controls.PRESETS,
    lead=sections.render_model_notes,
    old_keys=controls.OLD_KEYS,
    old_sections=controls.OLD_SECTIONS,
)
