"""The classroom's one chart: the answers so far, as counts (no names)."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

from ui.style import COLORS, Figure, base_layout

_BAR = "#4c78a8"


def choice_histogram(counts: Mapping[str, int], key: str | None) -> Figure:
    """Answers per option; the right option coloured once revealed (``key``).

    Options are the presenter's text: plotly reads tags (``<a href>``) in labels, so
    they are HTML-escaped.
    """
    labels = [html.escape(label) for label in counts]
    key = None if key is None else html.escape(key)
    colors = [COLORS["cash"] if label == key else _BAR for label in labels]
    layout = base_layout("Answers per option", "option", "answers")
    layout["yaxis"]["rangemode"] = "tozero"
    layout["yaxis"]["dtick"] = 1 if max(counts.values(), default=0) <= 10 else None
    layout["xaxis"]["type"] = "category"
    layout["hovermode"] = "closest"
    trace = {
        "type": "bar",
        "x": labels,
        "y": list(counts.values()),
        "marker": {"color": colors},
        "name": "answers",
        "text": [str(count) for count in counts.values()],
        "textposition": "auto",
    }
    return {"data": [trace], "layout": layout}


def number_histogram(values: Sequence[float], key: float | None) -> Figure:
    """Numeric answers binned; a vertical line at the exact answer once revealed."""
    layout = base_layout("Answers", "answer", "answers")
    layout["yaxis"]["rangemode"] = "tozero"
    layout["hovermode"] = "closest"
    trace = {"type": "histogram", "x": list(values), "name": "answers", "marker": {"color": _BAR}}
    if key is not None:
        layout["shapes"] = [
            {
                "type": "line",
                "x0": key,
                "x1": key,
                "yref": "paper",
                "y0": 0,
                "y1": 1,
                "line": {"color": COLORS["cash"], "width": 3},
            }
        ]
    return {"data": [trace], "layout": layout}


def anatomy_bars(terms: Mapping[str, float]) -> Figure:
    """DT - ND as a waterfall of its named terms, lying down (the slide's short chart:
    the terms' names read across on the left, the total at the bottom)."""
    names = list(terms)
    values = [terms[name] for name in names]
    layout = base_layout("Why double: DT - ND, term by term", "equity", "")
    layout["yaxis"]["autorange"] = "reversed"
    layout["yaxis"]["type"] = "category"
    layout["hovermode"] = "closest"
    trace = {
        "type": "waterfall",
        "orientation": "h",
        "y": [*names, "DT - ND"],
        "x": [*values, sum(values)],
        "measure": ["relative"] * len(values) + ["total"],
        "name": "DT - ND",
        "texttemplate": "%{x:+.4f}",
        "textposition": "auto",
    }
    return {"data": [trace], "layout": layout}
