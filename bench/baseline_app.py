"""Baseline page for the benchmarks: one URL-bound slider and one plotly chart.

Every page's script time is reported as a ratio to this page, measured in the
same run, so that the figures survive a noisy shared machine. The figure is a
plain dict (the house chart style), 401 points.
"""

import math

import streamlit as st

_GRID = [i / 400 for i in range(401)]

frequency = st.slider("Frequency", 0.5, 5.0, 1.0, 0.05, key="f", bind="query-params")
st.plotly_chart(
    {
        "data": [
            {
                "type": "scatter",
                "mode": "lines",
                "x": _GRID,
                "y": [math.sin(2 * math.pi * frequency * t) for t in _GRID],
            }
        ],
        "layout": {"title": {"text": f"f = {frequency:.2f}"}},
    },
    theme="streamlit",
)
