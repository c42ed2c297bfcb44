"""AppTests of the Janowski page."""

import pytest

from cubecore import janowski
from tests import reading
from tests.links import the_one_notice
from tests.reading import chart_specs, metric, share_link

PAGE = "pages/janowski.py"


def test_link_seeds_the_controls(open_page):
    at = open_page(PAGE, x="0.68", W="1.25", L="1.2", P="0.75", cube="owned")
    assert not at.exception
    assert at.slider(key="x").value == 0.68
    assert at.slider(key="W").value == 1.25
    assert at.selectbox(key="cube").value == "owned"
    assert at.slider(key="x").proto.query_param_key == "x"
    points = janowski.cube_points(0.68, 1.25, 1.2)
    assert metric(at, "Take (taker's P)") == f"{points.take_point:.4f}"
    assert metric(at, "Cash") == f"{points.cash_point:.4f}"
    assert not at.warning


@pytest.mark.parametrize(
    ("key", "raw"),
    [
        ("x", "abc"),
        ("x", "7"),
        ("W", "-1"),
        ("x", "nan"),
        ("x", "1e309"),
        ("x", "9" * 400),
        ("x", "\N{GREEK SMALL LETTER ALPHA}\N{SNOWMAN}"),
        ("cube", "<img src=x onerror=alert(1)>"),
        ("jacoby", "1"),
    ],
)
def test_bad_link_shows_a_notice_and_the_value_used(open_page, key, raw):
    at = open_page(PAGE, **{key: raw})
    the_one_notice(at, key)
    # the control fell back to its default
    defaults = {"x": 0.7, "W": 1.0, "cube": "center", "jacoby": False}
    widget = {"cube": at.selectbox, "jacoby": at.toggle}.get(key, at.slider)
    assert widget(key=key).value == defaults[key]


def test_moving_a_slider_changes_the_chart_and_numbers(open_page):
    at = open_page(PAGE)
    before = chart_specs(at)[0]
    take_before = metric(at, "Take (taker's P)")
    at.slider(key="x").set_value(0.2).run()
    after = chart_specs(at)[0]
    assert before["data"][0]["y"] != after["data"][0]["y"]
    assert metric(at, "Take (taker's P)") != take_before
    assert metric(at, "Take (taker's P)") == f"{janowski.cube_points(0.2).take_point:.4f}"


def test_presets_set_the_controls(open_page):
    at = open_page(PAGE)
    at.button(key="preset:Live cube (20/80)").click().run()
    assert at.slider(key="x").value == 1.0
    assert metric(at, "Take (taker's P)") == "0.2000"
    assert metric(at, "Cash") == "0.8000"
    at.button(key="preset:Dead cube").click().run()
    assert metric(at, "Take (taker's P)") == "0.2500"
    at.button(key="preset:Typical: x=0.68, gammons").click().run()
    assert at.selectbox(key="cube").value == "all"
    assert len(chart_specs(at)[0]["data"]) > 3
    assert not at.exception


def test_decision_at_p(open_page):
    at = open_page(PAGE, x="1", P="0.7")
    assert "Proper cube action: No double, take" in [h.value for h in at.subheader]
    assert metric(at, "No double") == "+0.6667"
    at = open_page(PAGE, x="0", P="0.79")
    assert "Proper cube action: Double, pass" in [h.value for h in at.subheader]


TWO = "3 · Two cube-life indexes"
LIFE = "2 · Points against cube life"


def test_sections_are_lazy_tabs_bound_to_the_link(open_page):
    assert len(chart_specs(open_page(PAGE))) == 1  # only the open section runs
    life = open_page(PAGE, jsec=LIFE, x="0.5")
    assert not life.exception
    assert len(chart_specs(life)) == 1
    assert metric(life, "Cash at x = 0.5") == f"{janowski.cube_points(0.5).cash_point:.4f}"
    sweep = janowski.cube_points_sweep([0.5])
    assert metric(life, "Initial double at x = 0.5") == (
        f"{float(sweep['initial_double_point'].iloc[0]):.4f}"
    )
    link = share_link(life)
    assert "sec=" in link and "x=0.5" in link


def test_two_indexes_and_jacoby(open_page):
    at = open_page(PAGE, jsec=TWO, x="0.5")
    assert at.info  # asks for the taker's own x
    at = open_page(PAGE, jsec=TWO, two="true", x="0.5", xt="1")
    assert not at.info
    assert metric(at, "Actual pass point (taker's x)") == "0.8000"
    expected = janowski.two_index_points(0.5, 1.0).perceived_cash_point
    assert metric(at, "Perceived cash point (doubler's x)") == f"{expected:.4f}"
    at = open_page(PAGE, jacoby="true", W="1.5")
    assert metric(at, "Too good, centred") == "never"
    assert at.info


def test_share_link_and_csv(open_page):
    at = open_page(PAGE, x="0.68", W="1.25")
    link = share_link(at)
    assert link.endswith("/janowski?x=0.68&W=1.25")
    assert at.get("download_button")


def test_presenter_mode_enlarges_chart_fonts(open_page):
    normal = chart_specs(open_page(PAGE))[0]["layout"]["font"]["size"]
    large = chart_specs(open_page(PAGE, present="true"))[0]["layout"]["font"]["size"]
    assert large > normal


@pytest.mark.parametrize(
    ("P", "cube", "action", "proper"),
    [
        ("0.6", "center", "No double, take", "No double"),
        ("0.72", "owned", "Redouble, take", "Redouble, take"),
        ("0.75", "center", "Double, pass", "Double, pass"),
        ("0.85", "center", "Too good to double, pass", "No double"),
    ],
)
def test_proper_action_block_at_p(open_page, P, cube, action, proper):
    at = open_page(PAGE, x="0.68", W="1.25", L="1.2", P=P, cube=cube)
    assert not at.exception
    shown, rows, proper_row = reading.proper_action(at)
    assert (shown, proper_row) == (action, proper)
    d = janowski.cube_decision(float(P), 0.68, cube, 1.25, 1.2)
    first = "No double" if cube == "center" else "No redouble"
    assert rows[first][0] == f"{d.no_double:+.4f}"
    windows = reading.market_windows(at)
    mine = janowski.cube_points(0.68, 1.25, 1.2)
    theirs = janowski.cube_points(0.68, 1.2, 1.25)
    assert windows["Player on roll (doubler)"][2] == f"{100 * mine.cash_point:.1f}%"
    assert windows["Opponent (taker)"][0] == f"{100 * theirs.take_point:.1f}%"


def test_no_proper_action_block_when_the_opponent_owns_the_cube(open_page):
    at = open_page(PAGE, cube="opponent")
    assert not at.exception
    assert not [s for s in at.subheader if s.value.startswith("Proper cube action")]
