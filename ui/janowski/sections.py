"""Janowski page: the three sections (equities and decisions, cube life, two indexes).

Each function renders one section from the :class:`~ui.skeleton.View`; the skeleton
runs only the open one.
"""

from __future__ import annotations

import streamlit as st

from cubecore import janowski
from cubecore.references import source
from ui import widgets
from ui.janowski import data as cached
from ui.skeleton import View

SOURCE = source("JR12")


def _point(value: float) -> str:
    """A decision point as shown: four decimals, "never" at 1."""
    return "never" if value >= 1.0 else f"{value:.4f}"


def _model(v: View) -> tuple[float, float, float, float, float]:
    """x, W, L, P and the taker's x (his own only with two indexes on)."""
    x, W, L, P = v.number("x"), v.number("W"), v.number("L"), v.number("P")
    return x, W, L, P, v.number("xt") if v.flag("two") else x


def render_decision(v: View) -> None:
    """Section 1: the equity chart, the formulas, the decision points, the decision at P."""
    x, W, L, P, x_taker = _model(v)
    view = cached.decision_view(
        x=x,
        W=W,
        L=L,
        P=P,
        x_taker=x_taker,
        jacoby=v.flag("jacoby"),
        cube=v.text("cube"),
        original=v.flag("j93"),
    )
    points = view.points

    formulas = [
        (r"E_{\mathrm{dead}}(P) = P\,(W+L) - L", f"{SOURCE}: dead-cube equity"),
        (
            r"TP = \frac{L - \tfrac12}{W + L + \tfrac12},\qquad CP = \frac{L+1}{W+L+\tfrac12}",
            f"{SOURCE}: live-cube take and cash points",
        ),
        (
            r"E = x\,E_{\mathrm{live}}(P) + (1-x)\,E_{\mathrm{dead}}(P)",
            f"{SOURCE}: the model equity",
        ),
        (r"\text{take iff } 2E_{\mathrm{owned}} > -1", f"{SOURCE}: the take decision"),
        (
            r"\text{double iff } \min(2E_{\mathrm{opp}},\, 1) > E_{\mathrm{cube}}",
            f"{SOURCE}: the double decision compares cubeful equities",
        ),
    ]
    if v.flag("j93"):
        formulas.append(
            (
                r"E_{1993} = \frac{4}{4-x}"
                r"\left[P\left(W+L+\tfrac{x}{2}\right) - L - \tfrac{x}{4}\right]",
                "Janowski (1993), centred cube: agrees with the interpolation only at x=0, 1",
            )
        )
    widgets.chart_with_formulas(
        view.figure,
        "janowski_equity",
        formulas,
        present=v.present,
    )

    st.subheader("Decision points")
    columns = st.columns(4)
    for index, (field, label) in enumerate(cached.POINT_LABELS.items()):
        columns[index % 4].metric(label, _point(points[field]))
    if v.flag("jacoby"):
        st.info(
            "Jacoby rule: with the cube centred gammons do not count, so holding a centred cube "
            "is worth less; the initial double point falls and a centred cube is never too good."
        )

    st.subheader(f"Decision at P = {P:.3f}")
    if v.text("cube") == "opponent":
        equity = view.opponent_equity
        assert equity is not None  # the view of the opponent's cube has it
        st.write("The opponent owns the cube: this player has no cube action.")
        widgets.headline([(f"Equity at P = {P:.3f}, opponent's cube", f"{equity:+.4f}")])
    else:
        cube: janowski.DoublingCube = "owned" if v.text("cube") == "owned" else "center"
        d = view.decision
        assert d is not None  # the view of a cube this player may double has it
        widgets.headline(
            [
                ("No double", f"{d.no_double:+.4f}"),
                ("Double/take", f"{d.double_take:+.4f}"),
                ("Double/pass", f"{d.double_pass:+.4f}"),
            ]
        )
        _proper_action(view, cube, x_taker)

    if not v.present:
        widgets.table_with_download(view.table, f"janowski_points_x{x:g}_W{W:g}_L{L:g}.csv")


def _proper_action(view: cached.DecisionView, cube: janowski.DoublingCube, x_taker: float) -> None:
    """The engines' block for the doubler's model, and both players' market windows.

    The doubler's window is his points (:func:`cubecore.janowski.cube_points`); the
    taker's is the same model from his side (W and L swapped, his own cube life), with
    his redouble point: after taking he owns the cube.
    """
    d, action = view.decision, view.action
    mine, theirs = view.points, view.theirs
    assert d is not None and action is not None and theirs is not None  # not the opponent's cube
    centred = cube == "center"
    window = {
        widgets.DOUBLER: {
            "Take point": mine["take_point"],
            "Double point": mine["initial_double_point" if centred else "redouble_point"],
            "Cash point": mine["cash_point"],
            "Too good point": mine["too_good_center" if centred else "too_good_owned"],
        },
        widgets.TAKER: {
            "Take point": theirs["take_point"],
            "Double point": theirs["redouble_point"],
            "Cash point": theirs["cash_point"],
            "Too good point": theirs["too_good_owned"],
        },
    }
    widgets.proper_action(action, unit="money per unit of the cube", window=window)
    passes = d.taker_action == "pass"
    if passes != action.taker_passes:
        st.info(
            f"The taker's own model (cube life {x_taker:g}) says {d.taker_action}: the table "
            "above is the doubler's model, in which the taker would "
            f"{'pass' if action.taker_passes else 'take'}."
        )


def render_life(v: View) -> None:
    """Section 2: every decision point against the cube life index x."""
    x, W, L, _, _ = _model(v)
    st.subheader("How the points move with cube life")
    view = cached.life_view(x=x, W=W, L=L, jacoby=v.flag("jacoby"))
    points = view.points
    widgets.headline(
        [
            (f"{cached.POINT_LABELS[field]} at x = {x:g}", _point(points[field]))
            for field in ("take_point", "initial_double_point", "redouble_point", "cash_point")
        ]
    )
    widgets.chart(view.figure, "janowski_points_vs_x")
    if not v.present:
        st.caption(
            "The window between the initial double point and the cash point narrows as the "
            "cube comes alive: with a dead cube (x = 0) double as soon as you are the favourite "
            "(50% without gammons), with a live one (x = 1) wait for the cash point. A point "
            "of 1 in the table means never."
        )
        with st.expander("The points for x = 0, 0.01, ..., 1, as numbers"):
            widgets.table_with_download(view.table, f"janowski_points_vs_x_W{W:g}_L{L:g}.csv")


def render_two(v: View) -> None:
    """Section 3: the doubler's and the taker's own cube life."""
    x, W, L, _, x_taker = _model(v)
    st.subheader("Two cube-life indexes")
    if not v.flag("two"):
        st.info("Turn on 'Taker has his own x' in the sidebar to give the taker his own cube life.")
    view = cached.two_view(x=x, x_taker=x_taker, W=W, L=L)
    pts2 = view.points
    widgets.headline(
        [
            ("Perceived cash point (doubler's x)", f"{pts2.perceived_cash_point:.4f}"),
            ("Actual pass point (taker's x)", f"{pts2.actual_cash_point:.4f}"),
            ("Taker's take point", f"{pts2.take_point:.4f}"),
        ]
    )
    widgets.chart(view.figure, "janowski_two_index")
    if not v.present:
        with st.expander("All two-index points"):
            widgets.table(view.fields)
