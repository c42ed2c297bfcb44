"""The baseline page plus 60 one-word captions: Streamlit's per-element floor.

Not a target, a yardstick: a page of this app sends 60-100 elements per run (the
``elements`` column of ``python -m bench pages``), each with a fixed cost in
Streamlit (a protobuf delta, its hash, its queueing). This page has the
baseline's slider and chart and as many elements as a typical page, and nothing
else, so its ratio to the baseline is what any page of that size costs before
doing any work of its own.
"""

import runpy
from pathlib import Path

runpy.run_path(str(Path(__file__).with_name("baseline_app.py")))

import streamlit as st  # noqa: E402

for index in range(60):
    st.caption(f"element {index}")
