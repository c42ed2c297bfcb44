"""ui/charts.py: a declared chart draws the figure its builder used to assemble by hand."""

import math

import numpy as np
import pandas as pd

from ui.charts import Chart, ViewMarker, gapped_line
from ui.style import COLORS, Curve, figure, line, vertical_marker

FRAME = pd.DataFrame(
    {"n": [1.0, 10.0, 100.0], "u": [0.1, np.nan, 0.3], "v": [0.4, 0.5, 0.6]},
)
CURVES = (Curve("u", "u", COLORS["take"]), Curve("v", "v", COLORS["cash"], "dash", detail=True))


def test_draw_is_the_house_figure_with_the_view_marker():
    chart = Chart("t", CURVES, "n", "x", "y", ViewMarker("n"))
    bar = {"type": "bar", "x": [1], "y": [2]}
    drawn = chart.draw(FRAME, 10.0, more=[bar], hovermode="closest")
    by_hand = figure(
        [
            line(FRAME["n"], FRAME["u"], "u", COLORS["take"]),
            line(FRAME["n"], FRAME["v"], "v", COLORS["cash"], dash="dash", detail=True),
            bar,
        ],
        "t",
        "x",
        "y",
        markers=[vertical_marker(10.0, "n", COLORS["marker"])],
        hovermode="closest",
    )
    assert drawn["layout"] == by_hand["layout"]
    assert [t.get("name") for t in drawn["data"]] == ["u", "v", None]
    for mine, theirs in zip(drawn["data"][:2], by_hand["data"][:2], strict=True):
        np.testing.assert_array_equal(mine["y"], theirs["y"])
        assert mine["line"] == theirs["line"]
    assert drawn["data"][1]["meta"] == "detail"
    assert drawn["layout"]["annotations"][0]["text"] == "n 10.000"


def test_marker_text_title_words_log_axis_and_range():
    chart = Chart(
        "b = {b:g}",
        CURVES,
        "n",
        "x",
        "y",
        ViewMarker("a =", "a = {:g}"),
        log_x=True,
        y_range=(0, 1.5),
    )
    horizontal = vertical_marker(0.5, "h", COLORS["dead"])
    layout = chart.draw(FRAME, 100.0, marks=[horizontal], words={"b": 2.0})["layout"]
    assert layout["title"]["text"] == "b = 2"
    assert layout["xaxis"]["type"] == "log"
    assert layout["yaxis"]["range"] == [0, 1.5]
    # the extra mark first, the view's marker at log10 of its value, labelled with the value
    assert [s["x0"] for s in layout["shapes"]] == [0.5, math.log10(100.0)]
    assert layout["annotations"][1]["text"] == "a = 100"
    assert ViewMarker("count", "count {}").at(17)[1]["text"] == "count 17"


def test_gaps_are_json_nulls():
    chart = Chart("t", CURVES[:1], "n", "x", "y", ViewMarker("n"), gaps=True)
    trace = chart.draw(FRAME, 1.0)["data"][0]
    assert trace["y"] == [0.1, None, 0.3]
    by_hand = gapped_line(FRAME["n"], FRAME["u"], "u", COLORS["take"])
    assert trace["y"] == by_hand["y"]
    assert trace["line"] == by_hand["line"]
    assert Chart("t", CURVES[:1], "n", "x", "y", ViewMarker("n")).draw(FRAME, 1.0)["data"][0][
        "y"
    ].dtype == np.dtype(float)
