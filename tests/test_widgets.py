"""Shared widgets (``ui.widgets``): the proper-action block, headlines, prepared tables."""

import math

import pandas as pd
import pytest

from cubecore import cubeful
from ui import widgets


def test_proper_action_table_marks_the_best_and_prints_fixed_decimals():
    action = cubeful.proper_cube_action(0.512, 0.556, 1.0)
    lines = widgets.proper_action_markdown(action).splitlines()
    assert lines[0] == "| Action | Equity | Cost against the proper action |"
    assert lines[2:] == [
        "| No double | +0.5120 | -0.0440 |",
        "| **Double, take** (proper) | **+0.5560** | 0.0000 |",
        "| Double, pass | +1.0000 | +0.4440 |",
    ]


def test_no_negative_zero_and_percent_for_match_winning_chances():
    # a cost of -1e-9 rounds to zero: printed unsigned, never "-0.0000"
    action = cubeful.proper_cube_action(0.5, 0.5 - 1e-9, 1.0, money=False)
    text = widgets.proper_action_markdown(action, percent=True)
    assert "-0.00%" not in text and "-0.0000" not in text
    assert "| **No double** (proper) | **50.00%** | 0.00% |" in text
    assert "| Double, pass | 100.00% | +50.00% |" in text


def test_market_window_cells():
    window = {
        widgets.DOUBLER: {"Take point": 0.2, "Double point": 0.68, "Cash point": 0.8},
        widgets.TAKER: {"Take point": 0.2, "Double point": math.nan, "Too good point": 1.0},
    }
    lines = widgets.market_window_markdown(window).splitlines()
    assert lines[2] == "| Player on roll (doubler) | 20.0% | 68.0% | 80.0% | — |"
    assert lines[3] == "| Opponent (taker) | 20.0% | — | — | never |"


@pytest.mark.parametrize("count", [0, 5])
def test_a_headline_has_one_to_four_numbers(count):
    with pytest.raises(ValueError, match="one to four"):
        widgets.headline([("label", "1")] * count)


# --- what is prepared once per process: tables and charts, keyed by their content -------


def _frame(value: float) -> pd.DataFrame:
    return pd.DataFrame({"take_point": [0.2, value], "note": ["a", None]})


def test_a_content_key_names_the_content_not_the_object():
    assert widgets._content_key(_frame(0.25)) == widgets._content_key(_frame(0.25))
    assert widgets._content_key(_frame(0.25)) != widgets._content_key(_frame(0.2500001))
    # the same numbers under other labels are another table
    assert widgets._content_key(_frame(0.25), None) != widgets._content_key(
        _frame(0.25), (("take_point", "Take"),)
    )


def test_a_prepared_table_is_the_display_rule_in_arrow_form():
    import pyarrow as pa

    from ui.style import table_display

    frame = _frame(0.25)
    shown, data = widgets._prepared_table(frame, None)
    expected = table_display(frame)
    assert isinstance(data, pa.Table)
    assert data.to_pandas().equals(expected.frame)
    assert shown.labels == expected.labels and shown.places == expected.places


@pytest.mark.parametrize("present", [False, True])
@pytest.mark.parametrize("on_slide", [False, True])
@pytest.mark.parametrize("theme", [None, "light", "dark"])
def test_showing_a_chart_leaves_the_figure_it_was_given_unchanged(present, on_slide, theme):
    """The pages' prepared views (``st.cache_resource``) hand every session the same figure:
    the styling steps of :func:`ui.widgets.chart` must build new figures, never change it."""
    import pickle

    from ui.match import charts as match_charts

    grid = pd.DataFrame([[0.5, 0.6], [0.4, 0.5]], index=[2, 3], columns=[2, 3])
    figures = [
        match_charts.heatmap_figure(grid, "Equity", "MWC", (2, 3)),  # cells with ink
        match_charts.market_window_figure(0.68, 0.78),  # bars, shapes and annotations
    ]
    for figure in figures:
        before = pickle.dumps(figure)
        finished, summary = widgets._finished_chart(
            figure=figure, present=present, on_slide=on_slide, note="n", theme=theme
        )
        assert summary and finished is not figure
        assert pickle.dumps(figure) == before


def _shows_the_four_recorded_kinds():
    """An AppTest script (run by source): a chart, a table, a metric row and a formula."""
    import pandas as pd

    from ui import widgets

    figure = {"data": [{"type": "scatter", "x": [0, 1], "y": [1, 2]}], "layout": {}}
    widgets.chart(figure, "probe")
    widgets.table(pd.DataFrame({"take_point": [0.25, 0.5]}))
    widgets.metric_row([("Take point", "0.2500"), ("Cash point", "0.7500")])
    widgets.formula(r"x = \frac{1}{4}", "A source, eq. 1")


def test_a_warm_rerun_sends_the_recorded_elements_without_building_them(monkeypatch):
    """A chart, a table, a metric row and a formula shown again are Streamlit's recorded
    elements (the replay of a cached function's elements): a chart's styling steps and a
    table's display rule do not run again, and the page shows the same four elements."""
    from streamlit.testing.v1 import AppTest

    built = {"chart": 0, "table": 0}

    def counted(name, function):
        def call(*args, **kwargs):
            built[name] += 1
            return function(*args, **kwargs)

        return call

    monkeypatch.setattr(widgets, "_finished_chart", counted("chart", widgets._finished_chart))
    monkeypatch.setattr(widgets, "_prepared_table", counted("table", widgets._prepared_table))
    at = AppTest.from_function(_shows_the_four_recorded_kinds, default_timeout=60)

    def shown():
        chart = at.get("plotly_chart")[0].proto
        return (
            (chart.spec, chart.config, chart.alt),
            at.dataframe[0].value.to_dict("list"),
            [(m.label, m.value) for m in at.metric],
            [(element.value, element.proto.body) for element in (*at.latex, *at.caption)],
        )

    at.run()
    first = shown()
    assert built == {"chart": 1, "table": 1} and not at.exception
    at.run()
    assert built == {"chart": 1, "table": 1} and not at.exception
    assert shown() == first
    assert len(at.columns) == 2 and first[2] == [("Take point", "0.2500"), ("Cash point", "0.7500")]
