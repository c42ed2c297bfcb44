"""Janowski's cube life index: cubeful equity between the dead and the live cube."""

import streamlit as st

from ui import widgets
from ui.router import ensure_navigation
from ui.settings import janowski as settings
from ui.views import janowski as views

ensure_navigation()

st.title("Janowski: the cube life index")
st.caption(f"Source: {views.SOURCE}. Money play, per unit of the current cube.")
present = widgets.presenter_mode()
widgets.preset_buttons(settings.PRESETS)
tabs = dict(zip(settings.SECTION_LABELS, widgets.section_tabs(settings.SECTION), strict=True))
v = widgets.page_controls(__file__, settings.CONTROLS)

RENDER = {"decision": views.render_decision, "life": views.render_life, "two": views.render_two}
# Bound tabs are lazy: only the open section is computed and rendered.
for section, render in RENDER.items():
    if tabs[section].open:
        with tabs[section]:
            render(v, present)
