"""The race page: Zadeh & Kobliska's race model and its exact optimal cube strategy."""

from dataclasses import replace

from ui.race import controls, sections
from ui.skeleton import Page, Section, wiring

PAGE = Page(
    title="Zadeh-Kobliska: the race",
    intro="A race of pip counts, no gammons, money play. The paper simulated its cube "
    "strategy; here the race model is also solved exactly.",
    sources=("ZK77",),
    # every section reads the exact race tables (ui.race.data.race_tables)
    sections=tuple(
        replace(s, tables=("race",))
        for s in (
            Section("model", "Race model", sections.race_model, controls.TABLE_CONTROLS),
            Section(
                "points", "Doubling points", sections.doubling_points, controls.POINTS_CONTROLS
            ),
            Section("exact", "Exact strategy", sections.exact_strategy),
            Section(
                "measured", "Measured points", sections.measured_points, controls.MEASURED_CONTROLS
            ),
            Section("rules", "Rules of thumb", sections.rules_of_thumb),
        )
    ),
    **wiring(controls),
)
