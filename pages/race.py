"""Zadeh & Kobliska (1977): the race model and its exact optimal cube strategy."""

import streamlit as st

from ui import widgets
from ui.cached import race as cached
from ui.router import ensure_navigation
from ui.settings import race as settings
from ui.views import race as views

ensure_navigation()

st.title("Zadeh-Kobliska: the race")
st.caption(
    f"Source: {views.SOURCE}. A race of pip counts, no gammons, money play. The paper "
    "simulated its cube strategy; here the race model is also solved exactly."
)
present = widgets.presenter_mode()
widgets.preset_buttons(settings.PRESETS)

section_slot = st.container()
position_box = st.sidebar.container(border=True)
position_box.caption("Position (all sections)")
maps_box = st.sidebar.container(border=True)
maps_box.caption("Maps and sweeps (sections 1, 3, 4, 5)")
points_box = st.sidebar.container(border=True)
points_box.caption("Effective doubling points (section 2)")
table_box = st.sidebar.expander("Table 1 range (section 1)")

boxes = {"sec": section_slot, "x": position_box, "y": position_box, "cube": position_box}
boxes |= {"span": maps_box, "lead": maps_box, "da": points_box, "db": points_box}
placement = {settings.NAMED[name].key: box for name, box in boxes.items()}
placement |= {control.key: table_box for control in settings.TABLE_CONTROLS}
values = widgets.page_controls(__file__, settings.CONTROLS, placement=placement)
v = values | {name: values[control.key] for name, control in settings.NAMED.items()}

cached.race_tables()  # the exact cube tables: built once per process, then shared
st.header(settings.SECTIONS[v["sec"]])
views.SECTION_VIEWS[v["sec"]](v, present)
