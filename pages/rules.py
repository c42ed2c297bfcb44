"""The rules of the doubling cube: stepped through, priced in theory, and simulated."""

import streamlit as st

from ui import widgets
from ui.router import ensure_navigation
from ui.settings import rules as settings
from ui.views import rules as views

ensure_navigation()

st.title("The cube rules: played out and priced")
st.caption(
    "Beavers, raccoons, the Murphy, Jacoby, Crawford and Holland rules: what each one allows, "
    "what it does to the theory, and what it does to the stakes."
)
present = widgets.presenter_mode()

section = views.current_section()
selector_column, presets_column = st.columns([1, 3], vertical_alignment="bottom")
placement = {settings.VIEW.key: selector_column, **views.section_placement(section)}
values = widgets.page_controls(__file__, settings.CONTROLS, placement=placement)
section = values[settings.VIEW.key]
widgets.preset_buttons(views.section_presets(section), where=presets_column)

if section == "walkthrough":
    views.render_walkthrough(values, present)
elif section == "theory":
    views.render_theory(values, present)
else:
    views.render_simulation(values, present)
