"""Janowski's cube life index: cubeful equity between the dead and the live cube."""

import dataclasses

import pandas as pd
import streamlit as st

from cubecore import janowski
from ui import widgets
from ui.cached import janowski as cached
from ui.figures import janowski as figures
from ui.router import ensure_navigation
from ui.settings import janowski as settings

ensure_navigation()

SOURCE = "Janowski model revisited (2012), shared/seeds/janowski_model_revisited.txt"
POINT_LABELS = {
    "take_point": "Take (taker's P)",
    "cash_point": "Cash",
    "beaver_point": "Beaver (taker's P)",
    "raccoon_point": "Raccoon",
    "initial_double_point": "Initial double",
    "redouble_point": "Redouble",
    "too_good_center": "Too good, centred",
    "too_good_owned": "Too good, owned",
}

st.title("Janowski: the cube life index")
st.caption(f"Source: {SOURCE}. Money play, per unit of the current cube.")
present = widgets.presenter_mode()
widgets.preset_buttons(settings.PRESETS)
v = widgets.page_controls(__file__, settings.CONTROLS)
x, W, L, P = v["x"], v["W"], v["L"], v["P"]
x_taker = v["xt"] if v["two"] else x
cubes = janowski.CUBE_POSITIONS if v["cube"] == "all" else (v["cube"],)

points = cached.cube_points(x, W, L, v["jacoby"])
curves = cached.equity_curves(x, W, L, v["jacoby"])

chart_column, formula_column = st.columns([3, 2] if not present else [1, 0.001])
with chart_column:
    widgets.chart(
        figures.equity_figure(curves, cubes, points, P, show_original=v["j93"], present=present),
        "janowski_equity",
    )
if not present:
    with formula_column:
        widgets.formula(r"E_{\mathrm{dead}}(P) = P\,(W+L) - L", f"{SOURCE}: dead-cube equity")
        widgets.formula(
            r"TP = \frac{L - \tfrac12}{W + L + \tfrac12},\qquad CP = \frac{L+1}{W+L+\tfrac12}",
            f"{SOURCE}: live-cube take and cash points",
        )
        widgets.formula(
            r"E = x\,E_{\mathrm{live}}(P) + (1-x)\,E_{\mathrm{dead}}(P)",
            f"{SOURCE}: the model equity",
        )
        widgets.formula(
            r"\text{take iff } 2E_{\mathrm{owned}} > -1",
            f"{SOURCE}: the take decision",
        )
        widgets.formula(
            r"\text{double iff } \min(2E_{\mathrm{opp}},\, 1) > E_{\mathrm{cube}}",
            f"{SOURCE}: the double decision compares cubeful equities",
        )
        if v["j93"]:
            widgets.formula(
                r"E_{1993} = \frac{4}{4-x}\left[P\left(W+L+\tfrac{x}{2}\right) - L - \tfrac{x}{4}"
                r"\right]",
                "Janowski (1993), centred cube: agrees with the interpolation only at x=0, 1",
            )

st.subheader("Decision points")
columns = st.columns(4)
for index, (field, label) in enumerate(POINT_LABELS.items()):
    value = points[field]
    columns[index % 4].metric(label, "never" if value >= 1.0 else f"{value:.4f}")
if v["jacoby"]:
    st.info(
        "Jacoby rule: with the cube centred gammons do not count, so holding a centred cube "
        "is worth less; the initial double point falls and a centred cube is never too good."
    )

st.subheader(f"Decision at P = {P:.3f}")
if v["cube"] == "opponent":
    st.write(
        "The opponent owns the cube: this player has no cube action. Equity: "
        f"{float(curves.iloc[(curves['p'] - P).abs().argmin()]['opponent']):+.4f}"
    )
else:
    cube = "owned" if v["cube"] == "owned" else "center"
    d = janowski.cube_decision(P, x, cube, W, L, x_taker=x_taker, jacoby=v["jacoby"])
    a, b, c, e = st.columns(4)
    a.metric("No double", f"{d.no_double:+.4f}")
    b.metric("Double/take", f"{d.double_take:+.4f}")
    c.metric("Double/pass", f"{d.double_pass:+.4f}")
    e.metric("Verdict", f"{d.doubler_action}; {d.taker_action}")

if not present:
    table = pd.DataFrame(
        {"point": list(POINT_LABELS.values()), "P": [points[f] for f in POINT_LABELS]}
    )
    widgets.table_with_download(table, f"janowski_points_x{x:g}_W{W:g}_L{L:g}.csv")

st.subheader("How the points move with cube life")
widgets.chart(
    figures.points_vs_x_figure(cached.points_sweep(W, L, v["jacoby"]), x, present=present),
    "janowski_points_vs_x",
)

st.subheader("Two cube-life indexes")
pts2 = janowski.two_index_points(x, x_taker, W, L)
a, b, c = st.columns(3)
a.metric("Perceived cash point (doubler's x)", f"{pts2.perceived_cash_point:.4f}")
b.metric("Actual pass point (taker's x)", f"{pts2.actual_cash_point:.4f}")
c.metric("Taker's take point", f"{pts2.take_point:.4f}")
widgets.chart(
    figures.two_index_figure(cached.two_index_sweep(x, W, L), x_taker, present=present),
    "janowski_two_index",
)
if not present:
    with st.expander("All two-index points"):
        st.json(dataclasses.asdict(pts2))
