"""Home: what each model answers, with a link to its page."""

import streamlit as st

from ui.router import ensure_navigation

ensure_navigation()

st.title("Cube Theory Lab")
st.write(
    "Explore the mathematics of the backgammon doubling cube: every number on these pages "
    "is computed from the source model, next to its formula and the published tables."
)
st.page_link(
    "pages/janowski.py",
    label="Janowski: the cube life index, from the dead cube (x=0) to the live cube (x=1)",
    icon=":material/tune:",
    query_params={"x": "0.68", "W": "1.25", "L": "1.2", "cube": "all"},
)
