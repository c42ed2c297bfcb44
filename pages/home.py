"""Home: the model atlas, one view of all the models."""

import streamlit as st

from ui import widgets
from ui.router import ensure_navigation
from ui.settings import home as settings
from ui.views import home as views

ensure_navigation()

st.title("Cube Theory Lab")
st.caption(
    "The doubling cube at four resolutions: the continuous game, effective doubling points, "
    "give-up points and the cube life index, side by side and computed from their sources."
)
present = widgets.presenter_mode()
overview, atlas_tab, glossary_tab, about_tab = widgets.section_tabs(settings.SECTION)
v = widgets.page_controls(__file__, settings.CONTROLS, where=st.sidebar)
if overview.open:
    with overview:
        views.overview_cards(present)
if atlas_tab.open:
    with atlas_tab:
        views.atlas_section(v, present)
if glossary_tab.open:
    with glossary_tab:
        views.glossary()
if about_tab.open:
    with about_tab:
        views.about()
