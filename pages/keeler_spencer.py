"""Keeler & Spencer (1969): raising points, from the continuous game to raise potentials."""

import streamlit as st

from ui import widgets
from ui.router import ensure_navigation
from ui.settings import keeler_spencer as settings
from ui.views import keeler_spencer as views

ensure_navigation()

st.title("Keeler-Spencer: proper raising points")
st.caption(
    f"Source: {views.SOURCE}. Every probability is A's chance of winning; values are in "
    "units of the initial stakes K."
)
present = widgets.presenter_mode()
widgets.preset_buttons(settings.PRESETS)
tabs = dict(zip(settings.SECTION_LABELS, widgets.section_tabs(settings.SECTION), strict=True))
placement = {}
for section, specs in settings.SECTION_CONTROLS.items():
    placement.update(views.control_columns(tabs[section], specs))
v = widgets.page_controls(__file__, settings.CONTROLS, placement=placement)

RENDER = {
    "game": views.render_game,
    "alternating": views.render_alternating,
    "raises": views.render_raises,
    "continuous": views.render_continuous,
}
# Bound tabs are lazy: only the open section is computed and rendered.
for section, render in RENDER.items():
    if tabs[section].open:
        with tabs[section]:
            render(v, present)
