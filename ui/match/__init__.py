"""The match-play page: match equity tables (published, uploaded, generated), take points,
the market window and gammon values, the rules in numbers."""

from dataclasses import replace

from ui.match import controls, sections, tables
from ui.skeleton import Page, Section, wiring

PAGE = Page(
    title="Match play: match equity, take points, Crawford and Holland",
    intro="Match winning chances (MWC) generated from a stated model: the continuous game "
    "with gammons and cube efficiency, recursively over the scores up to 25-away each; and "
    "from the published tables (Kazaross-XG2 by default) or your own.",
    sources=("Z77", "KS69", "ZK77", "JR12", "RULES", "GNUBG"),
    # in presenter mode the model notes follow the open section (sections.noted)
    sections=tuple(
        replace(s, render=sections.noted(s.render))
        for s in (
            Section("table", "Equity", sections.render_table, tables=("match",)),
            Section("takes", "Take points", sections.render_takes, controls.TAKE_CONTROLS),
            Section("rules", "Crawford, Holland", sections.render_rules, controls.HOLLAND_CONTROLS),
            Section(
                "heatmaps",
                "Heatmaps",
                sections.render_heatmaps,
                controls.HEATMAP_CONTROLS,
                tables=("match",),
            ),
            Section("library", "Tables", tables.render_library),
            Section("window", "Market window", tables.render_window, controls.WINDOW_CONTROLS),
            Section("compare", "Compare", tables.render_compare, controls.COMPARE_CONTROLS),
            Section("explain", "Explain", tables.render_explain),
            Section("freedrop", "Free drop", tables.render_free_drop, controls.DROP_CONTROLS),
            Section("aids", "Aids", tables.render_aids, controls.AID_CONTROLS),
        )
    ),
    lead=sections.render_model_notes,
    **wiring(controls),
)
