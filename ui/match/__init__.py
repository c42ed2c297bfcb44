"""The match-play page: match equity tables (published, uploaded, generated), take points,
the market window and gammon values, the rules in numbers."""

from dataclasses import replace

from ui.controls import Control
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


def _without_upload(declared: tuple[Control, ...]) -> tuple[Control, ...]:
    """``declared`` with each table choice's variant without the upload entry."""
    swap = (
        (controls.MET, controls.MET_WITHOUT_UPLOAD),
        (controls.MET_OTHER, controls.MET_OTHER_WITHOUT_UPLOAD),
    )
    return tuple(
        next((other for full, other in swap if control is full), control) for control in declared
    )


#: :data:`PAGE` in a session that has uploaded no table.
PAGE_WITHOUT_UPLOAD = replace(
    PAGE,
    controls=_without_upload(PAGE.controls),
    sections=tuple(replace(s, controls=_without_upload(s.controls)) for s in PAGE.sections),
)


def session_page() -> Page:
    """The page for this session: its table choices offer the uploaded table only once
    the session has uploaded one; before, a link naming it falls back to the default
    table with a notice (:func:`ui.match.tables.take_link_upload`)."""
    if tables.has_upload():
        return PAGE
    tables.take_link_upload()
    return PAGE_WITHOUT_UPLOAD
