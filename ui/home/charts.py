"""The home page's chart: the four models on one scale (plotly dicts, no streamlit)."""

from __future__ import annotations

import pandas as pd

from cubecore.atlas import MODELS
from cubecore.janowski import CubePosition
from ui.home.content import MODEL_TITLES
from ui.style import COLORS, CUBE_NAMES, Figure, base_layout, line

_MODEL_STYLE = {
    "keeler_spencer": (COLORS["live"], "dot"),
    "zadeh_kobliska": (COLORS["opponent"], "dash"),
    "give_up": (COLORS["owned"], "dashdot"),
    "janowski": (COLORS["center"], "solid"),
}


def atlas_figure(curves: pd.DataFrame, cube: CubePosition) -> Figure:
    """Cubeful equity against winning chance, one curve per model, for one cube position."""
    traces = []
    for model in MODELS:
        rows = curves[(curves["model"] == model) & (curves["cube"] == cube)]
        color, dash = _MODEL_STYLE[model]
        traces.append(line(rows["p"], rows["equity"], MODEL_TITLES[model], color, dash=dash))
    p = curves["p"].unique()
    traces.append(line(p, 2 * p - 1, "dead cube (cubeless)", COLORS["dead"], dash="longdash"))
    layout = base_layout(
        f"The four models, {CUBE_NAMES[cube]}",
        "winning probability",
        "equity per unit of the cube",
    )
    return {"data": traces, "layout": layout}
