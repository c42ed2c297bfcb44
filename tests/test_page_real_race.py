"""AppTests of the real-race page: what is its own (common behaviour: test_pages_common.py)."""

from cubecore import bearoff, match_points, race, race_counts, race_match
from cubecore.met import load_table
from cubecore.position import position_from_id, position_id, xgid
from tests import reading
from tests.reading import chart_specs, metric

PAGE = "pages/real_race.py"


def test_the_board_and_the_race_formulas(open_page):
    at = open_page(PAGE)
    assert not at.exception
    board = chart_specs(at)[0]
    position = position_from_id("2D03BADs7sYAAA")
    drawn = [len(trace["x"]) for trace in board["data"][:2]]  # the two sides' checkers
    assert drawn == [
        min(15, sum(min(c, 5) for c in side)) for side in (position.on_roll, position.opponent)
    ]
    shown = at.dataframe[0].value
    assert shown["Rule"].tolist() == race_counts.race_counts(position)["method"].tolist()


def test_the_verdict_for_the_position_comes_first(open_page):
    """Issue #37 item 9: 68 v 79 gets the race model's money verdict as the headline, and
    the match verdict at the match tab's score below it; the rules of thumb are variants."""
    at = open_page(PAGE, pos="2u42AAC2uxcAAA", away=3, oaway=5, met="kxg2")
    assert not at.exception
    model = race.race_cube_equities(68, 79, "center")
    assert metric(at, "Money verdict") == model.action.replace("/", ", ")
    assert metric(at, "Equity, best play") == f"{model.optimal:+.4f}"
    assert metric(at, "Cubeless winning chance") == f"{race.race_win_probability(68, 79):.2%}"
    score = match_points.MatchScore(load_table("kxg2"), 3, 5)
    at_score = race_match.race_match_equities(score, 68, 79)
    assert metric(at, "Match verdict at 3-away/5-away") == at_score.action.replace("/", ", ")
    assert metric(at, "Match winning chance, best play") == f"{at_score.optimal:.2%}"
    maps = [s for s in chart_specs(at) if s["data"][0]["type"] == "heatmap"]
    marked = maps[0]["data"][-1]
    assert (marked["x"], marked["y"]) == ([79], [68])  # the position on the strategy map
    rules = at.dataframe[0].value
    assert not rules["Says"].str.contains("redouble").any()  # the cube is centred


def test_a_small_bear_off_verdict_is_exact(open_page):
    at = open_page(PAGE, pos="BQAAsAAAAAAAAA", cv="2", cube="owned")
    assert not at.exception
    position = position_from_id("BQAAsAAAAAAAAA")
    exact = bearoff.two_sided(position.on_roll[:6], position.opponent[:6])
    said = {"no double": "no redouble"}.get(exact.action_owned, exact.action_owned)
    assert metric(at, "Money verdict") == said
    assert metric(at, "Equity, best play") == f"{exact.owned:+.4f}"
    assert any("two-sided bear-off database" in c.value for c in at.caption)


def test_the_rules_of_thumb_read_as_a_player_reads_them(open_page):
    """Issue #37 item 11: one unit a column, chances in percent, verdicts by cube."""
    at = open_page(PAGE, pos="2u42AAC2uxcAAA", cv="2", cube="owned")
    assert not at.exception
    rules = at.dataframe[0].value.set_index("Rule")
    position = position_from_id("2u42AAC2uxcAAA")
    table = race_counts.race_counts(position, "owned").set_index("method")
    assert rules["Says"].tolist() == table["verdict"].tolist()
    assert not rules["Says"].str.startswith("double").any()  # owned: redoubles only
    kleinman = float(rules.loc["Kleinman", "Winning chance (%)"])
    assert kleinman == round(100 * table.loc["Kleinman", "win"], 2)
    assert rules.loc["8-9-12", "What it compares"].endswith("% of the roller's pips")


def test_a_bear_off_gets_its_exact_values(open_page):
    at = open_page(PAGE, pos="BQAAsAAAAAAAAA")
    position = position_from_id("BQAAsAAAAAAAAA")
    exact = bearoff.two_sided(position.on_roll[:6], position.opponent[:6])
    assert metric(at, "Exact winning chance (two-sided)") == f"{exact.win:.2%}"
    assert metric(at, "Exact cube action, centred") == exact.action_centred


def test_a_pasted_xgid_sets_the_position(open_page):
    at = open_page(PAGE)
    target = position_from_id("u7sNAAB3tw0AAA")
    at.text_input(key="race-paste").input(xgid(target)).run()
    at.button(key="race-read").click().run()
    assert not at.exception
    assert at.text_input(key="pos").value == position_id(target)
    assert at.success


def test_a_pasted_xgid_sets_the_cube_seen_from_the_player_on_roll(open_page):
    """XG's cube owner is the bottom (1) or top (-1) player; the page's is seen from the
    player on roll: the top player on roll owning the 4-cube owns it."""
    at = open_page(PAGE)
    target = position_from_id("2u42AAC2uxcAAA")
    text = xgid(target, bottom_on_roll=False).split(":")
    text[1], text[2] = "2", "-1"  # a 4-cube, the top player's
    at.text_input(key="race-paste").input(":".join(text)).run()
    at.button(key="race-read").click().run()
    assert not at.exception
    assert (at.selectbox(key="cube").value, at.selectbox(key="cv").value) == ("owned", "4")
    assert metric(at, "Money verdict").startswith(("redouble", "no redouble"))
    board = chart_specs(at)[0]
    (cube,) = [n for n in board["layout"]["annotations"] if n.get("name") == "cube"]
    assert cube["text"] == "<b>4</b>" and cube["y"] < 5.5


def test_the_15_checker_bear_off_gets_the_race_models_verdict(open_page):
    """Issue #37 item 9's second position, 48 v 51: beyond the two-sided database (6
    checkers a side), the race model's verdict on the pip counts heads the section."""
    at = open_page(PAGE, pos="u7sNAAB3tw0AAA")
    assert not at.exception
    model = race.race_cube_equities(48, 51, "center")
    assert metric(at, "Money verdict") == model.action.replace("/", ", ")
    assert at.metric[0].label == "Money verdict"
    assert any("race model solved exactly on the pip counts" in c.value for c in at.caption)


def test_a_bad_paste_is_named_and_changes_nothing(open_page):
    at = open_page(PAGE)
    at.text_input(key="race-paste").input("XGID=not-a-position").run()
    at.button(key="race-read").click().run()
    assert not at.exception
    assert at.error and "Not read" in at.error[0].value
    assert at.text_input(key="pos").value == "2D03BADs7sYAAA"


def test_a_contact_position_says_the_formulas_need_a_race(open_page):
    at = open_page(PAGE, pos="4HPwATDgc/ABMA")  # the opening position
    assert not at.exception
    assert any("not a race" in w.value for w in at.warning)


def test_the_race_at_a_match_score(open_page):
    """The match section: the page's position's action equals cubecore's, maps drawn."""
    at = open_page(PAGE, sec="At a match score", away=3, oaway=5, met="kxg2", rpips=40)
    assert not at.exception
    position = position_from_id("2D03BADs7sYAAA")
    on_roll, opponent = position.pips
    expected = race_match.race_match_equities(
        match_points.MatchScore(load_table("kxg2"), 3, 5), on_roll, opponent
    )
    assert metric(at, f"Action, {on_roll} v {opponent} pips") == expected.action
    assert metric(at, "Match winning chance") == f"{expected.optimal:.2%}"
    assert metric(at, "Cubeless, pip model") == f"{expected.cubeless_win:.2%}"
    specs = chart_specs(at)
    actions = next(s for s in specs if s["data"][0]["type"] == "heatmap")
    assert len(actions["data"][0]["z"]) == 40


def test_a_cube_above_the_score_cap_is_named(open_page):
    at = open_page(PAGE, sec="At a match score", away=2, oaway=2, cv="8", cube="owned")
    assert not at.exception
    assert at.error and "`cube_value` must be at most 2" in at.error[0].value


def test_a_small_bear_off_at_a_match_score(open_page):
    """3 v 2 checkers: the exact bear-off at 2-away/4-away beside the pip model."""
    at = open_page(PAGE, sec="At a match score", pos="BQAAsAAAAAAAAA", away=2, oaway=4, rpips=20)
    assert not at.exception
    position = position_from_id("BQAAsAAAAAAAAA")
    expected = race_match.bearoff_match_equities(
        match_points.MatchScore(load_table("kxg2"), 2, 4),
        position.on_roll[:6],
        position.opponent[:6],
    )
    assert metric(at, "Exact bear-off action at the score") == expected.action
    assert metric(at, "Match winning chance, exact bear-off") == f"{expected.optimal:.2%}"


def test_a_bear_off_gets_the_proper_action_block(open_page):
    at = open_page(PAGE, pos="BQAAsAAAAAAAAA")
    assert not at.exception
    position = position_from_id("BQAAsAAAAAAAAA")
    exact = bearoff.two_sided(position.on_roll[:6], position.opponent[:6])
    action, rows, proper = reading.proper_action(at)
    assert (action, proper) == ("No double, take", "No double")
    assert exact.action_centred == "no double"
    assert rows["No double"] == (f"{exact.centred_no_double:+.4f}", "0.0000")
    cost = exact.double_take - exact.centred_no_double
    assert rows["Double, take"] == (f"{exact.double_take:+.4f}", f"{cost:+.4f}")


def test_the_race_at_a_match_score_gets_the_proper_action_in_mwc(open_page):
    at = open_page(PAGE, sec="At a match score", away=3, oaway=5, met="kxg2", rpips=40)
    assert not at.exception
    position = position_from_id("2D03BADs7sYAAA")
    e = race_match.race_match_equities(
        match_points.MatchScore(load_table("kxg2"), 3, 5), *position.pips
    )
    action, rows, proper = reading.proper_action(at)
    assert e.action == "double/pass"
    assert (action, proper) == ("Double, pass", "Double, pass")
    assert rows["No double"] == (
        f"{100 * e.no_double:.2f}%",
        f"{100 * (e.no_double - e.double_pass):+.2f}%",
    )


def test_a_small_bear_off_at_a_match_score_shows_one_block_the_exact_one(open_page):
    at = open_page(PAGE, sec="At a match score", pos="BQAAsAAAAAAAAA", away=2, oaway=4, rpips=20)
    assert not at.exception
    action, rows, _ = reading.proper_action(at)  # one block: the exact bear-off's
    position = position_from_id("BQAAsAAAAAAAAA")
    exact = race_match.bearoff_match_equities(
        match_points.MatchScore(load_table("kxg2"), 2, 4),
        position.on_roll[:6],
        position.opponent[:6],
    )
    assert action == "No double, take"
    assert rows["No double"][0] == f"{100 * exact.no_double:.2f}%"


def test_the_pip_model_table_is_in_percent_as_its_headline(open_page):
    """Issue #37: percentages are percentages everywhere on a page (the table had shares
    as fractions beside a headline in percent)."""
    at = open_page(PAGE, sec="Pip model against the real game")
    assert not at.exception
    table = at.dataframe[0].value
    errors = bearoff.pip_model_errors(by="on_roll_pips")
    share = 100 * (errors["pairs"] * errors["action_disagreement"]).sum() / errors["pairs"].sum()
    assert metric(at, "Pairs with another action") == f"{share:.2f}%"
    shown = table["Pairs with another action (%)"].to_numpy()
    assert abs(shown - 100 * errors["action_disagreement"].to_numpy()).max() <= 0.005 + 1e-9
    win = table["Mean |error| of the winning chance (pp)"].to_numpy()
    assert abs(win - 100 * errors["mean_abs_win_error"].to_numpy()).max() <= 0.005 + 1e-9
