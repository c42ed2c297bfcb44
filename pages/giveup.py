"""Woolsey's give-up points: the doubling cube as a game that ends at a give-up point."""

import streamlit as st

from ui import widgets
from ui.cached import giveup as cached
from ui.router import ensure_navigation
from ui.settings import giveup as settings
from ui.views import giveup as views

ensure_navigation()

st.title("Woolsey: give-up points")
st.caption(f"Source: {views.SOURCE}. Money play without gammons; equities per unit of a one-cube.")
present = widgets.presenter_mode()
widgets.preset_buttons(settings.PRESETS)

tabs = widgets.section_tabs(settings.SECTION)
layout = views.make_layout(tabs, tuple(row.key for row in settings.ROWS))
v = widgets.page_controls(__file__, settings.CONTROLS, placement=layout.placement)

g = cached.give_up_point(v["from"], v["T"], v["wg"])
g_c = round(v["wgc"], 10)
rows = tuple(round(v[row.key], 10) for row in settings.ROWS)
cube, equity, volatility = v["act"], round(v["eq"], 10), round(v["sd"], 10)

# Bound tabs are lazy: only the open section is computed and rendered.
if tabs[0].open:
    with tabs[0]:
        views.transform_section(v["from"], v["T"], g, g_c, present=present)
if tabs[1].open:
    with tabs[1]:
        views.table_section(rows, g, g_c, present=present)
if tabs[2].open:
    with layout.gain:
        views.gain_panel(cube, equity, volatility, g, g_c, present=present)
    with layout.volatility:
        views.volatility_section(cube, equity, volatility, g, g_c, present=present)
    with layout.race:
        views.race_section(v["pr"], v["po"], cube, g, g_c, present=present)
if tabs[3].open:
    with tabs[3]:
        views.equivalence_section(g, g_c, present=present)
