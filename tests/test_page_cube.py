"""AppTests of the cube calculator: what is its own (common behaviour: test_pages_common.py)."""

import re

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
    assert at.number_input(key="pw").value == 60.0
    assert at.number_input(key="plg").value == 10.0
    assert at.success


def test_unreadable_paste_names_what_was_expected(open_page):
    at = open_page(PAGE)
    at.text_area(key="paste").input("<script>alert(1)</script>").run()
    at.button(key="paste-read").click().run()
    assert not at.exception
    assert at.error and "Not read" in at.error[0].value
    assert at.number_input(key="pw").value == 74.31  # unchanged


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
    assert metric(at, "Money, cube centred") == money.action


def test_the_margins_grid_is_the_score_matrix_margins(open_page):
    import math

    at = open_page(PAGE, sec="Score matrix", n="4")
    margins = next(c for c in chart_specs(at) if c["layout"]["title"]["text"].startswith("Margin"))
    grid = cubeful.score_matrix(ISSUE, cubeful.CubeSetting(0.68), met.load_table("kxg2"), 4)
    cell = grid[(grid["away"] == 3) & (grid["opp_away"] == 4)].iloc[0]
    sides = [v for v in (cell["win_down"], cell["win_up"]) if not math.isnan(v)]
    assert margins["data"][0]["z"][2][3] == 100.0 * min(sides)


def _markdown_table(at, head: str) -> dict[str, list[str]]:
    """The one Markdown table whose header starts with ``head``: first cell -> the rest."""
    tables = [m.value for m in at.markdown if m.value.startswith(head)]
    assert len(tables) == 1, f"not one table headed {head!r}: {len(tables)}"
    rows = {}
    for line in tables[0].splitlines()[2:]:
        first, *cells = (cell.strip() for cell in line.strip("|").split("|"))
        rows[first.removesuffix("(proper)").strip().strip("*")] = [c.strip("*") for c in cells]
    return rows


def test_equities_one_error_table_and_both_windows(open_page):
    at = open_page(PAGE)
    assert not at.exception
    d = cubeful.money_cube_decision(ISSUE, 0.68)
    assert any(s.value == f"Proper cube action: {d.action}" for s in at.subheader)
    actions = _markdown_table(at, "| Action | Equity |")
    assert actions == {
        "No double": [f"{d.no_double:+.4f}"],
        "Double, take": [f"{d.double_take:+.4f}"],
        "Double, pass": ["+1.0000"],
    }
    # the one cost table: each decision's error, positive, as engines report errors
    errors = _markdown_table(at, "| Decision | Who decides | Error |")
    assert errors == {
        "No double": ["Player on roll", f"{d.error_no_double:.4f}"],
        "Double": ["Player on roll", f"{d.error_double:.4f}"],
        "Take": ["Opponent", f"{d.error_take:.4f}"],
        "Pass": ["Opponent", f"{d.error_pass:.4f}"],
    }
    assert d.error_no_double > 0 and d.error_take > 0  # the example has two real errors
    assert not [m for m in at.markdown if "Cost" in m.value]
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


def test_the_market_window_table_is_in_percent(open_page):
    at = open_page(PAGE)
    (shown,) = [f.value for f in at.dataframe if "Cash point, %" in f.value.columns]
    model = cubeful.market_window(ISSUE, 0.68)
    assert shown["Cash point, %"].tolist() == pytest.approx(
        (100 * model["cash_point"]).round(2).tolist()
    )
    assert not [c for c in shown.columns if "_" in c]


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
    assert any(s.value == f"Proper cube action: {d.action}" for s in at.subheader)
    rows = _markdown_table(at, "| Action | Equity |")
    assert list(rows) == ["No redouble", "Redouble, take", "Redouble, pass"]
    assert rows["Redouble, take"] == [f"{d.double_take:+.4f}"]
    errors = _markdown_table(at, "| Decision | Who decides | Error |")
    assert list(errors) == ["No redouble", "Redouble", "Take", "Pass"]
    assert errors["Take"][1] == f"{d.error_take:.4f}"
    assert set(reading.market_windows(at)) == {"Player on roll (doubler)", "Opponent (taker)"}


def test_no_block_table_where_the_cube_is_not_available(open_page):
    at = open_page(PAGE, cv="2", cube="opponent")
    assert not at.exception
    assert any(s.value.startswith("Proper cube action: No double") for s in at.subheader)
    assert not [m for m in at.markdown if m.value.startswith("| Action | Equity |")]


def test_score_matrix_in_a_players_words_at_a_match_score(open_page):
    at = open_page(PAGE, sec="Score matrix", n="5", mode="match", away="3", oaway="5")
    assert not at.exception
    d = cubeful.match_cube_decision(ISSUE, 0.68, met.load_table("kxg2"), away=3, opp_away=5)
    assert metric(at, "At 3-away/5-away, cube centred") == d.action
    assert not [m for m in at.metric if "Money" in m.label]
    (table,) = [f.value for f in at.dataframe]
    assert "state" not in table.columns and "optimal" not in table.columns
    assert not [c for c in table.columns if "_" in c]
    marked = table[table["Score"].str.endswith("(current score)")]
    assert marked["Score"].tolist() == ["3-away/5-away (current score)"]
    assert marked["Best action"].tolist() == [d.action]
    for column in table.columns:  # numbers and the "—" of a blank shown as text
        for cell in table[column].dropna():
            if isinstance(cell, float):
                assert round(cell, 4) == cell, (column, cell)
            else:
                assert not re.search(r"\.\d{5}", str(cell)), (column, cell)
    grid = cubeful.score_matrix(ISSUE, cubeful.CubeSetting(0.68), met.load_table("kxg2"), 5)
    here = grid[(grid["away"] == 3) & (grid["opp_away"] == 5)].iloc[0]
    assert marked["No double"].iloc[0] == round(here["no_double"], 4)
    assert marked["No double, MWC %"].iloc[0] == f"{100 * here['no_double_mwc']:.2f}"


def test_score_matrix_for_money_marks_the_money_row(open_page):
    at = open_page(PAGE, sec="Score matrix", n="3")
    (table,) = [f.value for f in at.dataframe]
    assert table["Score"].tolist()[0] == "money (current score)"
    assert table["Score"].str.contains("current").sum() == 1


def test_a_link_with_the_slider_values_opens_the_same_view(open_page):
    at = open_page(PAGE, pw="60", pwg="15", pwb="1", plg="10", plb="0.5")
    assert not at.exception
    assert at.number_input(key="pw").value == 60.0
    assert at.number_input(key="pw").proto.query_param_key == "pw"
    d = cubeful.money_cube_decision((0.6, 0.15, 0.01, 0.1, 0.005), 0.68)
    assert metric(at, "No double") == f"{d.no_double:+.4f}"


def test_a_typed_probability_is_used_as_typed(open_page):
    at = open_page(PAGE)
    at.number_input(key="pw").set_value(68.3).run()
    d = cubeful.money_cube_decision((0.683, *ISSUE[1:]), 0.68)
    assert metric(at, "No double") == f"{d.no_double:+.4f}"


def test_the_bear_off_class_in_words_and_its_old_link(open_page):
    at = open_page(PAGE, xfrom="bearoff")
    assert not at.exception
    assert at.selectbox(key="xfrom").value == "bearoff"
    assert "x = 0.600" in " ".join(c.value for c in at.caption)
