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


def test_curves_draw_each_column_against_x_in_its_style():
    frame = pd.DataFrame({"p": [0.1, 0.2], "a": [1.0, 2.0], "b": [3.0, 4.0]})
    traces = style.curves(
        frame, "p", style.Curve("a", "A", "#1"), style.Curve("b", "B", "#2", "dash", detail=True)
    )
    assert [t["name"] for t in traces] == ["A", "B"]
    assert traces[1]["x"].tolist() == [0.1, 0.2] and traces[1]["y"].tolist() == [3.0, 4.0]
    assert [t["line"]["dash"] for t in traces] == ["solid", "dash"]
    assert "meta" not in traces[0] and traces[1]["meta"] == style.DETAIL


def test_bar_is_one_coloured_bar_trace_with_its_hover():
    trace = style.bar(["3", "4"], [1, 2], "ways", "#1", "%{y}<extra></extra>")
    assert trace["type"] == "bar" and trace["marker"] == {"color": "#1"}
    assert (trace["x"], trace["y"], trace["hovertemplate"]) == (
        ["3", "4"],
        [1, 2],
        "%{y}<extra></extra>",
    )


def test_figure_is_the_base_layout_with_its_axes_markers_and_entries():
    marker = style.vertical_marker(0.5, "x", "#000")
    built = style.figure(
        [{"type": "bar"}], "T", "X", "Y", markers=[marker], yaxis={"range": [0, 1]}, height=300
    )
    expected = style.base_layout("T", "X", "Y")
    expected["yaxis"]["range"] = [0, 1]
    expected.update(shapes=[marker[0]], annotations=[marker[1]], height=300)
    assert built == {"data": [{"type": "bar"}], "layout": expected}
    assert "shapes" not in style.figure([], "T", "X", "Y")["layout"]


# --- the display rule for tables (issue #20, item 3) --------------------------------------


def test_table_display_labels_fills_and_fixes_decimals_without_changing_numbers():
    frame = pd.DataFrame(
        {
            "take_point": [0.5, 0.7812, 2e-16],
            "first_double": [40.0, float("nan"), 12.5],
            "correct": [True, None, False],
            "P[K_a = k]": [0.25, 0.5, 0.25],
        }
    )
    shown = style.table_display(frame, {"correct": "Correct?"})
    assert shown.labels == {
        "take_point": "Take point",
        "first_double": "First double",
        "correct": "Correct?",
        "P[K_a = k]": "P[K_a = k]",  # notation, not code
    }
    assert shown.frame["take_point"].tolist() == [0.5, 0.7812, 2e-16]  # numbers unchanged
    assert shown.places == {"take_point": 4, "P[K_a = k]": 2}
    assert shown.frame["first_double"].tolist() == ["40.0", style.NOT_APPLICABLE, "12.5"]
    assert shown.frame["correct"].tolist() == ["yes", style.NOT_APPLICABLE, "no"]
    text = shown.as_text()  # the CSV: what is shown, under the shown headers
    assert list(text.columns) == ["Take point", "First double", "Correct?", "P[K_a = k]"]
    assert text["Take point"].tolist() == ["0.5000", "0.7812", "0.0000"]


@given(hst.lists(hst.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=20))
def test_a_column_shows_every_value_with_its_decimals_and_no_scientific_notation(values):
    places = style.decimals(values)
    assert 0 <= places <= style.MAX_DECIMALS
    for value in values:
        text = style.format_number(value, places)
        assert "e" not in text and not (text.startswith("-") and float(text) == 0)  # no "-0.00"
        assert abs(float(text) - value) <= 0.5 * 10.0**-places + 1e-9 * max(1.0, abs(value))


def test_column_label_writes_out_snake_case_and_keeps_notation():
    assert style.column_label("opp_away") == "Opponent away"
    assert style.column_label("printed_minimum_take") == "Printed minimum take"
    assert style.column_label("e0") == "e0" and style.column_label(10) == "10"
