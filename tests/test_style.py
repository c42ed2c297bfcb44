"""The shared chart pieces of ui/style.py: decision markers, grouped lines, reference curves."""

import pandas as pd
from hypothesis import given
from hypothesis import strategies as hst

from ui import style

POINTS = [(0.3, "take", "#111"), (1.0, "never", "#222"), (0.7, "cash", "#333"), (0.9, "x", "#444")]


def test_staggered_markers_draw_every_point_on_three_levels():
    shapes, notes = style.staggered_markers(POINTS)
    assert [shape["x0"] for shape in shapes] == [0.3, 1.0, 0.7, 0.9]
    # levels 0, 1, 2, 0: each level 0.22 of the height lower
    assert [round(note["y"], 2) for note in notes] == [1.0, 0.78, 0.56, 1.0]
    assert notes[0]["text"] == "take 0.300"


def test_staggered_markers_inside_the_unit_interval_keep_their_levels():
    shapes, notes = style.staggered_markers(POINTS, inside_unit=True)
    assert [shape["x0"] for shape in shapes] == [0.3, 0.7, 0.9]  # 1.0 means "never"
    assert [round(note["y"], 2) for note in notes] == [1.0, 0.56, 1.0]


@given(hst.lists(hst.floats(-1.0, 2.0), max_size=8))
def test_staggered_markers_pair_each_shape_with_its_note(xs):
    points = [(x, "p", "#000") for x in xs]
    shapes, notes = style.staggered_markers(points, inside_unit=True)
    assert [s["x0"] for s in shapes] == [n["x"] for n in notes] == [x for x in xs if 0 < x < 1]


def test_lines_by_draws_one_line_per_group():
    frame = pd.DataFrame({"g": [True, False, True], "x": [1.0, 2.0, 3.0], "y": [4.0, 5.0, 6.0]})
    traces = style.lines_by(frame, "g", "x", "y", [(False, "off", "#1"), (True, "on", "#2")])
    assert [t["name"] for t in traces] == ["off", "on"]
    assert traces[1]["x"].tolist() == [1.0, 3.0] and traces[1]["y"].tolist() == [4.0, 6.0]
    assert traces[0]["line"]["color"] == "#1"


def test_with_reference_dots_the_reference_as_a_detail():
    model, reference = style.with_reference([0, 1], [0, 1], [0, 2], "model", "raw", "#abc")
    assert "meta" not in model and reference["meta"] == style.DETAIL
    assert reference["line"] == {"color": "#abc", "width": 2, "dash": "dot"}
    assert reference["y"].tolist() == [0.0, 2.0]
