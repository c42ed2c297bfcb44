"""Declared charts: a chart as one frozen record, drawn by one function (no streamlit).

Many charts of the app are the same builder with their own data: columns of one frame
drawn as lines against one of its columns (:class:`ui.style.Curve`), under a title and
two axis titles, with a dotted vertical line at the value the view's controls set (the
cube life, the trailer's score, the count, A's potential). A page's charts module
declares such a chart once, as a :class:`Chart`, and its builder draws it with the
view's frame and value (:meth:`Chart.draw`), adding only what is its own (a bar
trace, the paper's estimates as points, a horizontal line).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ui.style import COLORS, Curve, Figure, Shape, Trace, figure, line, vertical_marker


def gapped_line(
    x: ArrayLike, y: ArrayLike, name: str, color: str, *, dash: str = "solid", detail: bool = False
) -> Trace:
    """A house line trace whose missing values (NaN or NA) are gaps (JSON null)."""
    values = pd.Series(y).astype("Float64").to_numpy(dtype=float, na_value=np.nan)
    trace = line(x, values, name, color, dash=dash, detail=detail)
    trace["y"] = [None if np.isnan(value) else value for value in trace["y"]]
    return trace


@dataclass(frozen=True)
class ViewMarker:
    """The dotted vertical line at the value the view's controls set, in the marker colour.

    ``label`` names it; its annotation reads ``text`` with the value filled in
    (``"count {}"``), or without ``text`` ``"{label} {value:.3f}"``
    (:func:`ui.style.vertical_marker`).
    """

    label: str
    text: str | None = None

    def at(self, value: float, *, log: bool = False) -> list[Shape]:
        """The line and its label at ``value``; on a log axis (``log``) at log10 of it,
        since plotly places shapes and annotations there in log10 coordinates."""
        text = None if self.text is None else self.text.format(value)
        where = math.log10(value) if log else value
        return vertical_marker(where, self.label, COLORS["marker"], text=text)


@dataclass(frozen=True)
class Chart:
    """A declared chart: its ``title``, its ``curves`` (columns of a frame) against the
    frame's column ``x``, its axis titles and the ``marker`` at the view's value.

    ``title`` may name fields that :meth:`draw` fills in (``"lead {lead:+d}"``).
    ``log_x`` draws x on a log axis, ``y_range`` fixes the y axis, and with ``gaps``
    missing values are gaps (:func:`gapped_line`).
    """

    title: str
    curves: tuple[Curve, ...]
    x: str
    x_title: str
    y_title: str
    marker: ViewMarker
    log_x: bool = False
    y_range: tuple[float, float] | None = None
    gaps: bool = False

    def draw(
        self,
        frame: pd.DataFrame,
        at: float,
        *,
        more: Sequence[Trace] = (),
        marks: Sequence[list[Shape]] = (),
        words: Mapping[str, object] | None = None,
        **layout: object,
    ) -> Figure:
        """The chart of ``frame`` with its marker at ``at``.

        ``more`` are further traces after the curves, ``marks`` further markers before
        the view's (:func:`ui.style.with_markers`), ``words`` fill the title's fields,
        and any other keyword sets that entry of the layout (:func:`ui.style.figure`).
        """
        draw_line = gapped_line if self.gaps else line
        traces = [
            draw_line(frame[self.x], frame[c.column], c.name, c.color, dash=c.dash, detail=c.detail)
            for c in self.curves
        ]
        return figure(
            [*traces, *more],
            self.title.format(**(words or {})),
            self.x_title,
            self.y_title,
            markers=[*marks, self.marker.at(at, log=self.log_x)],
            xaxis={"type": "log"} if self.log_x else None,
            yaxis=None if self.y_range is None else {"range": list(self.y_range)},
            **layout,
        )
