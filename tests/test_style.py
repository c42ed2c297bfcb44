"""The shared chart pieces of ui/style.py: decision markers, grouped lines, reference curves."""

import pandas as pd
import pytest
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


# --- colours for the active theme --------------------------------------------------------

_HEX = hst.integers(0, 0xFFFFFF).map(lambda n: f"#{n:06x}")


def test_contrast_ratio_reproduces_wcag_values():
    # WCAG 2.2 understanding 1.4.3: black on white is 21:1, #777777 on white just under 4.5:1
    assert style.contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert style.contrast_ratio("#777777", "#ffffff") == pytest.approx(4.478, abs=1e-3)
    assert style.contrast_ratio("#ffffff", "#ffffff") == pytest.approx(1.0)
    assert style.contrast_ratio("rgba(0, 0, 0, 0)", "#ffffff") == pytest.approx(1.0)


@given(_HEX, _HEX)
def test_contrast_ratio_is_symmetric_and_between_1_and_21(a, b):
    ratio = style.contrast_ratio(a, b)
    assert 1.0 <= ratio <= 21.0 + 1e-9
    assert ratio == pytest.approx(style.contrast_ratio(b, a))


@given(_HEX, hst.sampled_from(["light", "dark"]), hst.sampled_from([3.0, 4.5]))
def test_readable_reaches_the_minimum_and_keeps_readable_colours(color, theme, minimum):
    background = style.THEMES[theme].background
    shown = style.readable(color, background, minimum, ink=style.THEMES[theme].text)
    assert style.contrast_ratio(shown, background) >= minimum
    if style.contrast_ratio(color, background) >= minimum:
        assert shown == color


def test_rgba_names_a_colour_it_cannot_read():
    with pytest.raises(ValueError, match=r"not 'teal'"):
        style.rgba("teal")


def test_the_themes_come_from_the_app_config():
    assert style.THEMES["light"].background == "#ffffff"
    assert style.THEMES["dark"].background == "#0e1117"


def _orange_line_with_a_black_marker() -> dict:
    return style.figure(
        [style.line([0, 1], [0, 1], "a", "#ff7f0e")],
        "T",
        "X",
        "Y",
        markers=[style.vertical_marker(0.5, "P", style.COLORS["marker"])],
    )


def test_themed_figure_turns_black_markers_to_the_dark_theme_text():
    built = _orange_line_with_a_black_marker()
    dark, light = style.themed_figure(built, "dark"), style.themed_figure(built, None)
    text = style.THEMES["dark"].text
    assert dark["layout"]["annotations"][0]["font"]["color"] == text
    assert dark["layout"]["shapes"][0]["line"]["color"] == text
    assert dark["layout"]["xaxis"]["tickfont"]["color"] == text
    assert dark["data"][0]["line"]["color"] == "#ff7f0e"  # readable on dark: unchanged
    assert light["layout"]["annotations"][0]["font"]["color"] == style.COLORS["marker"]
    assert light["layout"]["title"]["font"]["color"] == style.THEMES["light"].text
    assert light["data"][0]["line"]["color"] != "#ff7f0e"  # orange on white: darkened
    assert built["layout"]["annotations"][0]["font"]["color"] == style.COLORS["marker"]


def test_no_theme_is_the_light_theme():
    # AppTest reports no theme unless told; the shared views (tests/views.py) open in
    # "light", which is what no theme draws
    built = _orange_line_with_a_black_marker()
    assert style.themed_figure(built, None) == style.themed_figure(built, "light")
    assert style.themed_figure(built, None) != style.themed_figure(built, "dark")


def test_a_label_box_takes_the_theme_background_and_its_text_stays_readable():
    note = {"text": "1/2", "bgcolor": style.LABEL_BOX, "font": {"color": style.COLORS["dead"]}}
    built = {"data": [], "layout": {"annotations": [note]}}
    shown = style.themed_figure(built, "dark")["layout"]["annotations"][0]
    assert shown["bgcolor"] == style.THEMES["dark"].background
    box = style.over(shown["bgcolor"], style.THEMES["dark"].background)
    assert style.contrast_ratio(shown["font"]["color"], box) >= style.TEXT_CONTRAST


# --- marker labels that never collide ----------------------------------------------------


def _overlapping(built, width=style.CHART_WIDTH):
    boxes = style.marker_label_boxes(built, width=width)
    return [(a.text, b.text) for i, a in enumerate(boxes) for b in boxes[i + 1 :] if a.collides(b)]


_MARKERS = hst.lists(
    hst.tuples(hst.floats(0.0, 1.0), hst.text("abcdefgh 0123456789.", min_size=1, max_size=24)),
    max_size=8,
)


@given(
    _MARKERS,
    hst.sampled_from([None, [0.0, 1.0], [0.3, 0.9]]),
    hst.sampled_from([250, 450, 620]),
    hst.sampled_from(["page", "presenter", "slide"]),
)
def test_placed_marker_labels_never_overlap_at_any_width_from_the_narrowest(
    markers, x_range, height, shown
):
    points = [(x, label, "#1f77b4") for x, label in markers]
    shapes, notes = style.staggered_markers(points)
    xaxis = {} if x_range is None else {"range": x_range}
    built = style.figure(
        [style.line([0, 1], [0, 1], "a", "#000")], "T", "X", "Y", xaxis=xaxis, height=height
    )
    built["layout"].update(shapes=shapes, annotations=notes)
    if shown != "page":
        built = style.presenter_figure(built)
    if shown == "slide":
        built = style.slide_figure(built)
    placed = style.place_marker_labels(built)
    assert _overlapping(placed) == []
    assert _overlapping(placed, width=3 * style.CHART_WIDTH) == []
    assert [n["text"] for n in placed["layout"]["annotations"]] == [n["text"] for n in notes]


def _two_markers(first: float, second: float) -> style.Figure:
    built = style.figure([], "T", "X", "Y", xaxis={"range": [0.0, 1.0]})
    marks = [
        style.vertical_marker(first, "double", "#111"),
        style.vertical_marker(second, "J", "#1"),
    ]
    style.with_markers(built["layout"], *marks)
    return built


def test_labels_that_do_not_collide_stay_where_they_are():
    built = _two_markers(0.2, 0.8)
    assert style.place_marker_labels(built) is built


def test_a_label_on_top_of_another_goes_under_it_on_its_line():
    built = _two_markers(0.657, 0.644)  # the rules page's "double" and "Jacoby" markers
    assert _overlapping(built) == [("double 0.657", "J 0.644")]
    placed = style.place_marker_labels(built)
    first, second = style.marker_label_boxes(placed)
    assert second.y1 < first.y0 and second.y0 >= 0  # under the first, inside the plot
    assert "xshift" not in placed["layout"]["annotations"][1]  # still beside its line


def test_a_label_the_figure_put_low_on_its_line_moves_up_into_the_plot():
    # Janowski's equity chart on presenter mode's slide: "redouble" 11 px right of
    # "double", staggered down its line by the figure so far that it ended under the plot
    built = style.figure([], "T", "X", "Y", xaxis={"range": [0.0, 1.0]})
    shapes, notes = style.staggered_markers(
        [(0.698, "double", "#111"), (0.723, "redouble", "#222")]
    )
    notes[1] = {**notes[1], "y": 0.05}
    built["layout"].update(shapes=shapes, annotations=notes)
    built = style.slide_figure(style.presenter_figure(built))
    assert min(box.y0 for box in style.marker_label_boxes(built)) < 0  # under the plot
    placed = style.place_marker_labels(built)
    assert _overlapping(placed) == []
    assert min(box.y0 for box in style.marker_label_boxes(placed)) >= 0


def test_a_slide_chart_is_short_with_its_legend_above_the_plot():
    built = style.presenter_figure(
        style.figure(
            [style.line([0, 1], [0, 1], "a", "#000"), style.line([0, 1], [1, 0], "b", "#111")],
            "A title",
            "X",
            "Y",
        )
    )
    layout = style.slide_figure(built)["layout"]
    assert layout["height"] == style.SLIDE_CHART_HEIGHT
    assert layout["legend"]["y"] >= 1.0 and layout["legend"]["yanchor"] == "bottom"
    assert layout["title"]["font"]["size"] <= built["layout"]["title"]["font"]["size"]
    assert "height" not in built["layout"]  # the figure itself is not changed


def test_horizontal_marker_labels_move_along_their_line():
    built = style.figure([], "T", "X", "Y", yaxis={"range": [0.0, 1.0]})
    notes = [
        {"xref": "paper", "x": 0.0, "y": y, "text": text, "xanchor": "left",
         "yanchor": "bottom", "name": style.MARKER_LABEL, "font": {"size": 11}}
        for y, text in ((0.5, "even game 1/2"), (0.51, "unlimited: 0.8"))
    ]  # fmt: skip
    built["layout"]["annotations"] = notes
    assert _overlapping(built)
    placed = style.place_marker_labels(built)
    assert _overlapping(placed) == []
    assert "yshift" not in placed["layout"]["annotations"][1]


def test_label_box_reads_size_rotation_anchor_and_shift():
    built = style.figure([], "T", "X", "Y", xaxis={"range": [0.0, 1.0]}, height=460)
    note = style.vertical_marker(0.5, "P", "#111")[1]  # "P 0.500", 11 px, turned, top right
    box = style.label_box({**note, "yshift": -10.0}, built, width=580)  # plot 500 x 360 px
    # plotly's box adds 2 px a side (borderpad and borderwidth, 1 px each)
    assert box.x1 == pytest.approx(250.0) and box.x1 - box.x0 == pytest.approx(1.3 * 11 + 4)
    assert box.y1 == pytest.approx(360.0 - 10.0)
    assert box.y1 - box.y0 == pytest.approx(0.6 * 11 * 7 + 4)


# --- a text alternative for every chart --------------------------------------------------


def test_chart_summary_names_title_axes_and_marker_values():
    built = style.figure([], "Cubeful <b>equity</b>", "P", "equity", xaxis={"range": [0, 1]})
    style.with_markers(
        built["layout"],
        style.vertical_marker(0.213, "take", "#1"),
        style.vertical_marker(0.698, "double", "#2"),
    )
    assert style.chart_summary(built) == (
        "Cubeful equity. Horizontal axis: P; vertical axis: equity. "
        "Marked: take 0.213, double 0.698."
    )


def test_chart_summary_without_markers_gives_each_trace_range_and_a_heatmap_range():
    curve = style.line([0, 1, 2], [-0.0, 0.25, 0.5], "hold", "#1")
    cells = {"type": "heatmap", "z": [[0.1, 0.9], [0.5, None]], "name": "MWC"}
    checkers = {"type": "scatter", "y": [1, 2], "hoverinfo": "skip", "name": "board"}
    summary = style.chart_summary({"data": [curve, cells, checkers], "layout": {"title": "T"}})
    assert summary == "T. hold: from 0 to 0.5; MWC: from 0.1 to 0.9."
