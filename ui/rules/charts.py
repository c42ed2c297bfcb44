"""Figures of the cube-rules page, built as plotly dicts."""

from __future__ import annotations

import math

import pandas as pd

from ui.style import (
    COLORS,
    Curve,
    Figure,
    base_layout,
    curves,
    figure,
    line,
    line_width,
    lines_by,
    staggered_markers,
    vertical_marker,
    with_markers,
)

#: Colour of the cube owner in the walkthrough.
OWNER_COLORS = {"center": COLORS["center"], "A": COLORS["owned"], "B": COLORS["opponent"]}


def stakes_figure(events: pd.DataFrame, step: int) -> Figure:
    """Stakes after each event of the walkthrough (log scale), coloured by the cube owner."""
    trace = {
        "type": "scatter",
        "mode": "lines+markers+text",
        "x": events["step"].tolist(),
        "y": [float(v) for v in events["stakes"]],
        "text": [str(action).replace("_", " ") for action in events["action"]],  # in words
        "textposition": "top center",
        "textfont": {"size": 10},
        "name": "stakes",
        "line": {"shape": "hv", "color": COLORS["dead"], "width": line_width(False)},
        "marker": {
            "size": 10,
            "color": [OWNER_COLORS[o] for o in events["owner"]],
            "opacity": [1.0 if s <= step else 0.3 for s in events["step"]],
        },
        "customdata": [[o, f] for o, f in zip(events["owner"], events["cube face"], strict=True)],
        "hovertemplate": "step %{x}: %{text}<br>stakes %{y}<br>owner %{customdata[0]}, "
        "face %{customdata[1]}<extra></extra>",
    }
    layout = base_layout(
        "Stakes after each event (blue: centred, green: A owns, red: B owns; faded: to come)",
        "step",
        "stakes (points)",
    )
    top = max(float(events["stakes"].max()), 2.0)
    layout["yaxis"].update(type="log", dtick=math.log10(2), range=[-0.3, math.log10(top) + 0.5])
    layout["showlegend"] = False
    layout["hovermode"] = "closest"
    with_markers(layout, vertical_marker(step, "now", COLORS["marker"], text=f"step {step}"))
    return {"data": [trace], "layout": layout}


def jacoby_figure(
    sweep: pd.DataFrame,
    plain: dict[str, float],
    jacoby: dict[str, float],
    p_now: float,
) -> Figure:
    """Holding a centred cube with and without the Jacoby rule, against doubling."""
    traces = curves(
        sweep,
        "p",
        Curve("hold", "hold, gammons count", COLORS["center"]),
        Curve("hold_jacoby", "hold, Jacoby rule", COLORS["center"], "dash"),
        Curve("double", "double (min of double/take, +1)", COLORS["double"]),
    )
    shapes, notes = staggered_markers(
        [
            (plain["initial_double_point"], "double", COLORS["double"]),
            (jacoby["initial_double_point"], "Jacoby", COLORS["redouble"]),
            (plain["too_good_center"], "too good", COLORS["too_good"]),
        ],
        inside_unit=True,
    )
    shape, note = vertical_marker(p_now, "P", COLORS["marker"], level=0)
    return figure(
        traces,
        "Jacoby rule: the centred cube, per unit of the cube",
        "doubler's winning probability P",
        "equity",
        xaxis={"range": [0.4, 1.0]},
        yaxis={"range": [-0.6, 1.8]},
        shapes=[*shapes, shape],
        annotations=[*notes, note],
    )


def beaver_figure(curves: pd.DataFrame, points: dict[str, float]) -> Figure:
    """The taker's three answers to a double, per unit of the cube before it."""
    q = curves["p"]
    traces = [
        line(q, curves["drop"], "drop: -1", COLORS["take"], dash="dot"),
        line(q, curves["take"], "take: 2 E_owned", COLORS["owned"]),
        line(q, curves["beaver"], "beaver: 4 E_owned", COLORS["beaver"]),
    ]
    shapes, notes = staggered_markers(
        [
            (points["take_point"], "take", COLORS["take"]),
            (points["beaver_point"], "beaver", COLORS["beaver"]),
        ],
        inside_unit=True,
    )
    layout = base_layout("Taker: drop, take or beaver", "taker's winning probability", "equity")
    layout["xaxis"]["range"] = [0.0, 0.7]
    layout["yaxis"]["range"] = [-2.5, 2.5]
    layout.update(shapes=shapes, annotations=notes)
    return {"data": traces, "layout": layout}


def raccoon_figure(curves: pd.DataFrame, points: dict[str, float]) -> Figure:
    """The doubler's answer to a beaver: accept the 4-cube or raccoon to 8."""
    p = curves["p"]
    traces = [
        line(p, curves["accept_beaver"], "accept: 4 E_opponent", COLORS["opponent"]),
        line(p, curves["raccoon"], "raccoon: 8 E_opponent", COLORS["raccoon"]),
    ]
    shapes, notes = staggered_markers(
        [(points["raccoon_point"], "raccoon", COLORS["raccoon"])], inside_unit=True
    )
    layout = base_layout("Doubler: answer a beaver", "doubler's winning probability", "equity")
    layout["xaxis"]["range"] = [0.3, 0.9]
    layout["yaxis"]["range"] = [-4.0, 4.0]
    layout.update(shapes=shapes, annotations=notes)
    return {"data": traces, "layout": layout}


def murphy_figure(curves: pd.DataFrame, stakes: tuple[int, ...], double_point: float) -> Figure:
    """Gain from doubling at several starting stakes: in points (left) and per unit (right)."""
    palette = (COLORS["center"], COLORS["double"], COLORS["opponent"])
    traces = []
    for stake, color in zip(stakes, palette, strict=False):
        trace = line(curves["p"], curves[f"gain_stake_{stake}"], f"stake {stake}", color)
        traces.append(trace)
        per_unit = line(curves["p"], curves["gain_per_unit"], f"stake {stake}, per unit", color)
        per_unit.update(xaxis="x2", yaxis="y2", showlegend=False)
        per_unit["line"]["dash"] = ("solid", "dash", "dot")[stakes.index(stake) % 3]
        traces.append(per_unit)
    layout = base_layout(
        "Murphy rule: doubling gains more points at a higher stake, but from the same P",
        "doubler's winning probability P",
        "gain from doubling (points)",
    )
    layout["xaxis"].update(domain=[0.0, 0.46], range=[0.4, 1.0])
    layout["xaxis2"] = {
        "domain": [0.54, 1.0],
        "range": [0.4, 1.0],
        "title": {"text": "P (per unit of the cube: the lines coincide)"},
        "showgrid": True,
    }
    layout["yaxis2"] = {
        "anchor": "x2",
        "title": {"text": "gain per unit of the cube"},
        "showgrid": True,
        "zeroline": True,
    }
    layout["yaxis"]["range"] = [-2.5, 1.5]
    layout["yaxis2"]["range"] = [-0.7, 0.4]
    shape, note = vertical_marker(double_point, "double", COLORS["double"])
    shape2 = {**shape, "xref": "x2"}
    note2 = {**note, "xref": "x2"}
    layout.update(shapes=[shape, shape2], annotations=[note, note2])
    return {"data": traces, "layout": layout}


#: Stakes up to 2^30 are written out; beyond, as a power of 2 (a stake beyond float
#: range, 2^1024 and up, has no float value at all).
_WRITTEN_OUT = 30


def stake_label(exponent: int) -> str:
    """A stake ``2 ** exponent`` as the page writes it: ``1024``, or ``2^1100``."""
    return str(2**exponent) if exponent <= _WRITTEN_OUT else f"2^{exponent}"


def distribution_figure(table: pd.DataFrame) -> Figure:
    """Final cube value: simulated fraction (with error bars) beside the theory, log scale."""
    shown = table[(table["games"] > 0) | (table["probability"] > 1e-7)]
    labels = [stake_label(int(k)) for k in shown["exponent"]]
    traces = [
        {
            "type": "bar",
            "name": "simulated",
            "x": labels,
            "y": [float(v) for v in shown["fraction"]],
            "error_y": {"type": "data", "array": [float(v) * 2 for v in shown["std_error"]]},
            "marker": {"color": COLORS["center"]},
        },
        {
            "type": "bar",
            "name": "theory (Keeler-Spencer lemma)",
            "x": labels,
            "y": [float(v) for v in shown["probability"]],
            "marker": {"color": COLORS["double"]},
        },
    ]
    layout = base_layout(
        "Final cube value: simulation (±2 s.e. under the theory) and theory",
        "final stake (points)",
        "share of games",
    )
    layout["xaxis"]["type"] = "category"
    layout["yaxis"].update(type="log", exponentformat="power")
    layout["barmode"] = "group"
    layout["hovermode"] = "x unified"
    return {"data": traces, "layout": layout}


def price_figure(curve: pd.DataFrame, double_point: float) -> Figure:
    """Exact loss of A's initial doubling point against 80%, with and without beavers."""
    groups = [
        (False, "beavers not allowed", COLORS["center"]),
        (True, "beavers allowed", COLORS["beaver"]),
    ]
    traces = lines_by(curve, "beavers", "double_point", "loss", groups)
    layout = base_layout(
        "The price of doubling too early (or too late), against optimal play",
        "A's initial doubling point",
        "A's loss in points per game",
    )
    marker = vertical_marker(double_point, "A doubles", COLORS["marker"])
    return {"data": traces, "layout": with_markers(layout, marker)}
