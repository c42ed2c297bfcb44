"""The give-up-point page: Woolsey's doubling cube as a game that ends at a give-up point."""

from ui.giveup import controls, sections
from ui.skeleton import Page, Section, wiring

PAGE = Page(
    title="Woolsey: give-up points",
    intro="Money play without gammons; equities per unit of a one-cube.",
    sources=("W-DT",),
    sections=(
        Section("transform", "Transform", sections.transform_section),
        Section("table", "Essay's table", sections.table_section, controls.TABLE_CONTROLS),
        Section("cost", "Cost of doubling", sections.cost_section, controls.COST_CONTROLS),
        Section("equivalences", "Equivalences", sections.equivalence_section),
    ),
    **wiring(controls),
)
