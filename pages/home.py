"""Home: the model atlas, one view of all the models."""

import streamlit as st

from cubecore import atlas, giveup
from ui import widgets
from ui.cached import home as cached
from ui.figures import home as figures
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
overview, atlas_tab, glossary_tab, about_tab = st.tabs(["Overview", "Atlas", "Glossary", "About"])
with overview:
    views.overview_cards(present)

v = widgets.page_controls("", settings.CONTROLS, where=st.sidebar)  # home is served at /
with atlas_tab:
    widgets.preset_buttons(settings.PRESETS)
    views.alignment_buttons(v)
    curves, points = cached.atlas_tables(v["ax"], v["ada"], v["adb"], v["ag"], v["agc"])
    chart_column, map_column = st.columns([3, 2] if not present else [1, 0.001])
    with chart_column:
        widgets.chart(figures.atlas_figure(curves, v["acube"], present=present), "atlas")
    if not present:
        with map_column:
            widgets.formula(
                r"D_A = g,\qquad D_B = 1 - g",
                "give-up g as effective doubling points ([KW] = [ZK77] eqs. 1-3)",
            )
            widgets.formula(
                r"x = 4\left(\frac{1}{g} - 1\right),\qquad "
                r"x_c = \frac{3}{2}\left(\frac{1}{2g_c - 1} - 1\right)",
                "give-up points as Janowski cube life, linear region, W = L = 1",
            )
    x_owned, x_opponent = atlas.cube_life_from_effective_points(v["ada"], v["adb"])
    race_x = cached.race_cube_life().loc[v["apips"]]
    a, b, c, d = st.columns(4)
    a.metric("x from g (cube turned)", f"{giveup.cube_life_from_give_up(v['ag'], 'owned'):.4f}")
    b.metric("x from g_c (centred)", f"{giveup.cube_life_from_give_up(v['agc'], 'center'):.4f}")
    c.metric("x from DA / from DB", f"{x_owned:.3f} / {x_opponent:.3f}")
    d.metric(
        f"x implied by the race at {v['apips']} pips",
        f"{race_x['center']:.4f}",
        help="Exact race model, even race, cube centred: (E - E_dead)/(E_live - E_dead)",
    )
    st.caption(
        "Where the mapping breaks: one give-up pair (g, g_c) implies two cube lives "
        "unless g_c is chosen to match; DA/DB imply one x only when DB = 1 - DA; the "
        "race's own x changes with the pip count and the cube position."
    )
    st.subheader("Decision points, side by side")
    widgets.table_with_download(points.round(4), "atlas_points.csv")
with glossary_tab:
    views.glossary()
with about_tab:
    views.about()
