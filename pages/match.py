"""Match play: a generated match equity table, take points at every score, the rules in numbers."""

import streamlit as st

from ui import widgets
from ui.router import ensure_navigation
from ui.settings import match as settings
from ui.views import match as views

ensure_navigation()

st.title("Match play: match equity, take points, Crawford and Holland")
st.caption(
    "Match winning chances (MWC) generated from a stated model: the continuous game with "
    "gammons and cube efficiency, recursively over the scores up to 25-away each."
)
present = widgets.presenter_mode()
widgets.preset_buttons(settings.PRESETS)

# Containers first, so that page_controls can place each control where it belongs.
section_column, _ = st.columns([1, 3])
current = st.session_state.get(settings.SECTION.key) or st.query_params.get(
    settings.SECTION.key, settings.SECTION.default
)
model_box = st.sidebar.container()  # the score and the model first, then each section's panel
panels = {
    section: st.sidebar.expander(
        f"{settings.SECTIONS[section]}: controls", expanded=current == section
    )
    for section in settings.SECTION_CONTROLS
}
placement = {
    settings.SECTION.key: section_column,
    **{spec.key: model_box for spec in settings.MODEL_CONTROLS},
    **{
        spec.key: panels[section]
        for section, specs in settings.SECTION_CONTROLS.items()
        for spec in specs
    },
}
v = widgets.page_controls(__file__, settings.CONTROLS, placement=placement)

views.model_notes(v["G"])
st.header(settings.SECTIONS[v[settings.SECTION.key]])
render = {
    "table": views.table_section,
    "takes": views.takes_section,
    "rules": views.rules_section,
    "heatmaps": views.heatmaps_section,
}[v[settings.SECTION.key]]
render(v, present)
