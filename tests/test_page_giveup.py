"""AppTests of the give-up-point page (Woolsey, "Doubling Theory")."""

import numpy as np
import pytest

from cubecore import giveup, race
from tests import reading
from tests.reading import chart_specs, metric, share_link
from ui.giveup import PAGE as GIVEUP
from ui.style import NOT_APPLICABLE

PAGE = "pages/giveup.py"
ESSAY = giveup.ESSAY_GIVE_UPS


def test_the_page_itself_is_tested(open_page):
    assert open_page(PAGE).title[0].value == "Woolsey: give-up points"


SECTIONS = tuple(section.title for section in GIVEUP.sections)


def in_section(at, number):
    """Open section ``number`` (1-4): bound tabs run only the open section."""
    at.session_state["sec"] = SECTIONS[number - 1]
    return at.run()


def chart(at, title_start):
    """The plotly spec whose title starts with ``title_start``."""
    return next(s for s in chart_specs(at) if s["layout"]["title"]["text"].startswith(title_start))


def infos(at):
    return " ".join(i.value for i in at.info)


def test_essay_defaults_reproduce_the_essay(open_page):
    at = open_page(PAGE)
    assert not at.exception
    assert not at.warning
    assert metric(at, "Give-up point g (cube turned)") == "0.8600"  # [KW] .215 -> .86
    in_section(at, 3)
    assert metric(at, "Cost at e' = .200 (doubled too early)") == "0.15897"
    in_section(at, 2)
    assert metric(at, "Initial double point") == "0.39083"  # exactly 469/1200
    assert metric(at, "Redouble point") == "0.42000"
    assert metric(at, "Market-losing equity") == "0.57000"
    table = at.dataframe[0].value
    printed = np.array([row[1:] for row in giveup.ESSAY_TABLE_PRINTED])
    shown = table[["printed e0", "printed e1", "printed e2"]].to_numpy(dtype=float)
    np.testing.assert_array_equal(shown, printed)
    exact = table[["e0", "e1", "e2"]].to_numpy(dtype=float)
    np.testing.assert_allclose(exact, printed, atol=5e-4)  # three printed decimals
    assert (table["check"] == "every printed cell is the exact value rounded").all()
    # every quoted deviation is on the page with its reason, named in words
    for name, (printed_value, reason) in giveup.ESSAY_QUOTED_DEVIATIONS.items():
        assert name not in infos(at)
        words = name.replace("_", " ").capitalize()
        assert words in infos(at) and f"{printed_value:.3f}" in infos(at)
        assert reason[:40] in infos(at)
    quoted = at.dataframe[1].value.set_index("number")
    assert quoted.loc["Redouble cost", "exact"] == pytest.approx(22 / 86, abs=1e-5)
    assert not quoted.loc["Initial double point", "agrees"]


LINK = {"from": "g", "g": "0.9", "gc": "0.85", "r1": "0.5", "cube": "owned", "eq": "0.3"}
LINK |= {"sd": "0.25", "pips": "60", "opips": "70"}
#: The same view as a link from before the page skeleton (old names).
OLD_LINK = {"from": "g", "wg": "0.9", "wgc": "0.85", "r1": "0.5", "act": "owned", "eq": "0.3"}
OLD_LINK |= {"sd": "0.25", "pr": "60", "po": "70"}


@pytest.mark.parametrize("link", [LINK, OLD_LINK], ids=["today", "old names"])
def test_link_seeds_the_controls_and_numbers_match_cubecore(open_page, link):
    at = open_page(PAGE, **link)
    assert not at.exception
    assert not at.warning
    assert at.selectbox(key="from").value == "g"
    assert at.slider(key="g").value == 0.9
    assert at.slider(key="g").proto.query_param_key == "g"
    assert at.slider(key="pips").value == 60
    assert metric(at, "Give-up point g (cube turned)") == "0.9000"
    shared = share_link(at)
    assert "g=0.9" in shared and "from=g" in shared and "pips=60" in shared
    in_section(at, 2)
    chosen = giveup.GiveUpPoints(0.9, 0.85)
    assert metric(at, "Initial double point") == f"{giveup.initial_double_point(chosen):.5f}"
    assert metric(at, "Redouble point") == f"{giveup.redouble_point(0.9):.5f}"
    row = at.dataframe[0].value.iloc[0]
    assert row["e0"] == pytest.approx(giveup.modified_equity(0.5, "center", chosen), abs=1e-5)
    assert row["printed e0"] == NOT_APPLICABLE
    assert row["check"] == "not a row of the essay"
    # an essay row under another g: the print does not apply
    assert at.dataframe[0].value.iloc[1]["check"].startswith("printed for the essay's g")
    in_section(at, 3)
    net = giveup.volatility_doubling_gain(0.3, 0.25, "owned", chosen)
    assert metric(at, "Net gain of doubling now") == f"{net:+.5f}"
    verdict = giveup.race_doubling_verdict(60, 70, "owned", chosen)
    assert metric(at, "Net gain (1296 sequences)") == f"{verdict.net_gain:+.5f}"
    assert metric(at, "Give-up model says") == verdict.action
    assert metric(at, "Exact race strategy says") == race.race_cube_equities(60, 70, "owned").action
    in_section(at, 4)
    assert metric(at, "Janowski x from g") == f"{giveup.cube_life_from_give_up(0.9):.4f}"


def test_min_take_sets_the_give_up_point(open_page):
    at = open_page(PAGE, T="0.2")
    assert metric(at, "Give-up point g (cube turned)") == "0.8000"
    assert any("g = 4T = **0.8000**" in m.value for m in at.markdown)
    in_section(at, 2)
    assert metric(at, "Redouble point") == "0.60000"  # 3 - 3g at the Keeler-Spencer limit
    # the direct slider is ignored while g is set from T
    at = open_page(PAGE, T="0.2", g="0.95")
    assert metric(at, "Give-up point g (cube turned)") == "0.8000"


def test_presets_set_the_controls(open_page):
    at = in_section(open_page(PAGE, gc="0.9", r2="0.1"), 2)
    at.button(key="preset:Keeler-Spencer limit: g = g_c = .8").click().run()
    assert at.selectbox(key="from").value == "g"
    assert at.slider(key="g").value == 0.8 and at.slider(key="gc").value == 0.8
    for label in ("Initial double point", "Redouble point", "Market-losing equity"):
        assert metric(at, label) == "0.60000"  # the continuous 80 % point, e = .6
    in_section(at, 4)
    assert metric(at, "Janowski x from g") == "1.0000"
    assert metric(at, "Janowski x from g_c") == "1.0000"
    at.button(key="preset:Dead cube: g = g_c = 1").click().run()
    assert metric(at, "Janowski x from g") == "0.0000"
    in_section(at, 2)
    assert metric(at, "Initial double point") == "0.00000"
    assert metric(at, "Market-losing equity") == "0.50000"  # dead-cube take point .25
    at.button(key="preset:Essay: T = 21.5 %, g_c = .835").click().run()
    assert at.selectbox(key="from").value == "T"
    assert at.slider(key="gc").value == ESSAY.center_give_up and at.slider(key="r2").value == 0.39
    in_section(at, 2)
    assert metric(at, "Initial double point") == "0.39083"
    assert not at.exception


def test_moving_controls_changes_charts_and_numbers(open_page):
    at = in_section(open_page(PAGE), 3)
    before = chart(at, "Volatility model")
    gain_before = chart(at, "Gain of doubling now")
    at.slider(key="sd").set_value(0.3).run()
    after = chart(at, "Volatility model")
    assert before["data"][0]["y"] != after["data"][0]["y"]
    net = giveup.volatility_doubling_gain(0.45, 0.3, "center", ESSAY)
    assert metric(at, "Net gain of doubling now") == f"{net:+.5f}"
    assert metric(at, "Verdict (volatility model)") == ("double/take" if net > 0 else "no double")
    at.slider(key="gc").set_value(0.8).run()
    assert chart(at, "Gain of doubling now")["data"][0]["y"] != gain_before["data"][0]["y"]
    in_section(at, 2)
    moved = giveup.GiveUpPoints(ESSAY.own_give_up, 0.8)
    assert metric(at, "Initial double point") == f"{giveup.initial_double_point(moved):.5f}"


def test_impossible_spread_is_an_error_message(open_page):
    at = in_section(open_page(PAGE, eq="0.9", sd="0.5"), 3)
    assert not at.exception
    assert len(at.error) == 1 and "volatility" in at.error[0].value


def test_verdicts_that_differ_are_explained(open_page):
    at = in_section(open_page(PAGE, pips="10", opips="32"), 3)
    verdict = giveup.race_doubling_verdict(10, 32)
    assert metric(at, "Give-up model says") == verdict.action == "double/pass"
    assert metric(at, "Exact race strategy says") == verdict.optimal_action == "no double"
    assert metric(at, "Same verdict") == "no"
    assert "cannot lose" in infos(at)


def test_mapping_breaks_below_the_live_cube(open_page):
    at = in_section(open_page(PAGE, **{"from": "g", "g": "0.7"}), 4)
    assert not at.exception
    assert metric(at, "Janowski x from g") == f"{giveup.cube_life_from_give_up(0.7):.4f}"
    assert metric(at, "g_c with the same x as g") == "none"
    assert "implies x > 1" in infos(at)
    assert "No Janowski comparison" in infos(at)


def test_the_race_section_shows_the_exact_proper_action(open_page):
    at = in_section(open_page(PAGE, **LINK), 3)
    assert not at.exception
    exact = race.race_cube_equities(60, 70, "owned")
    action, rows, proper = reading.proper_action(at)
    assert exact.action == "double/pass"
    assert (action, proper) == ("Redouble, pass", "Redouble, pass")
    assert rows["No redouble"] == (f"{exact.no_double:+.4f}", f"{exact.no_double - 1.0:+.4f}")
    assert rows["Redouble, take"] == (
        f"{exact.double_take:+.4f}",
        f"{exact.double_take - 1.0:+.4f}",
    )


def test_a_certain_win_has_both_actions_proper(open_page):
    at = in_section(open_page(PAGE, pips="10", opips="32"), 3)
    assert reading.proper_action(at)[0] == "Double, pass"
    assert any("both are proper" in c.value for c in at.caption)
