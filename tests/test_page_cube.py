"""AppTests of the cube calculator: what is its own (common behaviour: test_pages_common.py)."""

import pytest

from cubecore import cubeful, met
from tests import reading
from tests.reading import chart_specs, metric

PAGE = "pages/cube.py"
ISSUE = (0.7431, 0.2606, 0.0096, 0.0512, 0.0021)  # the issue's engine output, as fractions


def test_money_decision_is_cubeful_money_cube_decision(open_page):
    at = open_page(PAGE)
    assert not at.exception
    d = cubeful.money_cube_decision(ISSUE, 0.68)
    assert metric(at, "No double") == f"{d.no_double:+.4f}"
    assert metric(at, "Double/take") == f"{d.double_take:+.4f}"
    assert any(d.action in s.value for s in at.subheader)


def test_match_decision_on_the_chosen_table(open_page):
    at = open_page(PAGE, mode="match", away="4", oaway="2", met="woolsey", cv="2", cube="opponent")
    assert not at.exception
    d = cubeful.match_cube_decision(
        ISSUE, 0.68, met.load_table("woolsey"), away=4, opp_away=2, cube=2, owner="opponent"
    )
    assert metric(at, "No double, MWC") == f"{d.no_double_mwc:.2%}"
    assert any(d.action in s.value for s in at.subheader)


def test_cube_life_from_the_position_class(open_page):
    at = open_page(PAGE, xfrom="race", pips="20")
    assert at.slider(key="x").disabled  # x comes from the class, not the hand
    assert "x = 0.600" in " ".join(c.value for c in at.caption)


def test_pasted_xg_text_sets_the_probabilities(open_page):
    at = open_page(PAGE)
    at.text_area(key="paste").input(
        "Player Winning Chances:   60.00% (G:15.00% B:1.00%)\n"
        "Opponent Winning Chances: 40.00% (G:10.00% B:0.50%)"
    ).run()
    at.button(key="paste-read").click().run()
    assert not at.exception
    assert at.slider(key="pw").value == 60.0
    assert at.slider(key="plg").value == 10.0
    assert at.success


def test_unreadable_paste_names_what_was_expected(open_page):
    at = open_page(PAGE)
    at.text_area(key="paste").input("<script>alert(1)</script>").run()
    at.button(key="paste-read").click().run()
    assert not at.exception
    assert at.error and "Not read" in at.error[0].value
    assert at.slider(key="pw").value == 74.31  # unchanged


def test_impossible_probabilities_are_explained_not_computed(open_page):
    at = open_page(PAGE, pw="20", pwg="30")
    assert not at.exception
    assert at.error and "cannot belong to one position" in at.error[0].value
    assert not at.metric


@pytest.mark.parametrize("mode", ["money", "match"])
def test_a_turned_cube_in_the_centre_is_explained_not_computed(open_page, mode):
    # issue #18's abuse run: cube 32 in the centre raised cubeful's ValueError on the page
    at = open_page(PAGE, mode=mode, cv="32", cube="center")
    assert not at.exception
    assert at.error and "A centred cube is on 1" in at.error[0].value
    assert "cube on 32" in at.error[0].value
    assert not at.metric


def test_score_matrix_of_fifteen(open_page):
    at = open_page(PAGE, sec="Score matrix", n="15")
    assert not at.exception
    money = cubeful.money_cube_decision(ISSUE, 0.68)
    assert metric(at, "Money (centred cube)") == money.action


def test_the_margins_grid_is_the_score_matrix_margins(open_page):
    import math

    at = open_page(PAGE, sec="Score matrix", n="4")
    margins = next(c for c in chart_specs(at) if c["layout"]["title"]["text"].startswith("Margin"))
    grid = cubeful.score_matrix(ISSUE, cubeful.CubeSetting(0.68), met.load_table("kxg2"), 4)
    cell = grid[(grid["away"] == 3) & (grid["opp_away"] == 4)].iloc[0]
    sides = [v for v in (cell["win_down"], cell["win_up"]) if not math.isnan(v)]
    assert margins["data"][0]["z"][2][3] == 100.0 * min(sides)


def test_proper_action_block_with_costs_and_both_windows(open_page):
    at = open_page(PAGE)
    assert not at.exception
    d = cubeful.money_cube_decision(ISSUE, 0.68)
    action, rows, proper = reading.proper_action(at)
    assert (action, proper) == ("Double, pass", "Double, pass") == (d.action, d.action)
    assert rows["No double"] == (f"{d.no_double:+.4f}", f"{d.no_double - 1.0:+.4f}")
    assert rows["Double, take"] == (f"{d.double_take:+.4f}", f"{d.double_take - 1.0:+.4f}")
    assert rows["Double, pass"] == ("+1.0000", "0.0000")
    windows = reading.market_windows(at)
    assert list(windows) == ["Player on roll (doubler)", "Opponent (taker)"]
    mine = cubeful.market_window(ISSUE, 0.68).iloc[-1]
    swapped = (1.0 - ISSUE[0], ISSUE[3], ISSUE[4], ISSUE[1], ISSUE[2])
    theirs = cubeful.market_window(swapped, 0.68).iloc[-1]
    assert windows["Player on roll (doubler)"][0] == f"{100 * mine['take_point']:.1f}%"
    assert windows["Opponent (taker)"][0] == f"{100 * theirs['take_point']:.1f}%"
    # double points: the roller's from the centre, the taker's a redouble (he will own it)
    assert windows["Player on roll (doubler)"][1] == f"{100 * mine['double_point']:.1f}%"
    assert windows["Opponent (taker)"][1] == f"{100 * theirs['redouble_point']:.1f}%"
    # the taker's take point is one minus the doubler's cash point (same model, same x)
    assert theirs["take_point"] == pytest.approx(1.0 - mine["cash_point"], abs=1e-9)


def test_proper_action_block_at_a_match_score_redouble(open_page):
    at = open_page(PAGE, mode="match", away="5", oaway="3", cv="2", cube="owned", pw="60")
    assert not at.exception
    d = cubeful.match_cube_decision(
        (0.6, 0.2606, 0.0096, 0.0512, 0.0021),
        0.68,
        met.load_table(met.DEFAULT_TABLE),
        away=5,
        opp_away=3,
        cube=2,
        owner="player",
    )
    action, rows, _ = reading.proper_action(at)
    assert action == d.action
    assert list(rows) == ["No redouble", "Redouble, take", "Redouble, pass"]
    assert rows["Redouble, take"][0] == f"{d.double_take:+.4f}"
    assert set(reading.market_windows(at)) == {"Player on roll (doubler)", "Opponent (taker)"}


def test_no_block_table_where_the_cube_is_not_available(open_page):
    at = open_page(PAGE, cv="2", cube="opponent")
    assert not at.exception
    assert any(s.value.startswith("Proper cube action: No double") for s in at.subheader)
    assert not [m for m in at.markdown if m.value.startswith("| Action | Equity |")]
