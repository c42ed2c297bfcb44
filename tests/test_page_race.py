"""AppTests of the race page (Zadeh & Kobliska 1977).

Expected numbers come from :mod:`cubecore.race` (itself checked against an
independent recursion in tests/test_race.py) or, for formulas (5) and (6), from
their defining conditions solved here afresh.
"""

import pytest

from cubecore import race, race_heuristics
from tests import reading
from tests.reading import chart_specs, metric
from ui.race import controls as settings

PAGE = "pages/race.py"


def pct(value):
    return f"{100.0 * float(value):.2f}%"


@pytest.mark.parametrize(
    "link",
    [
        {"sec": "Exact strategy", "pips": "70", "opips": "77", "cube": "owned"},
        # a link from before the page skeleton: old names, old section value
        {"rsec": "exact-strategy", "rx": "70", "ry": "77", "rcube": "owned"},
    ],
)
def test_link_seeds_the_controls_and_the_numbers(open_page, link):
    at = open_page(PAGE, **link)
    assert not at.exception and not at.warning
    assert at.slider(key="pips").value == 70
    assert at.slider(key="opips").value == 77
    assert at.selectbox(key="cube").value == "owned"
    assert at.slider(key="pips").proto.query_param_key == "pips"
    e = race.race_cube_equities(70, 77, "owned")
    assert metric(at, "No double") == f"{e.no_double:+.4f}"
    assert metric(at, "Double/take") == f"{e.double_take:+.4f}"
    assert metric(at, "Double/pass") == "+1.0000"
    assert metric(at, "Action") == e.action
    t = race.race_thresholds(70)
    assert metric(at, "Last take") == f"{t.last_take:+d}"
    assert metric(at, "First redouble") == f"{t.first_redouble:+d}"
    assert metric(at, "First double") == f"{t.first_double:+d}"


def test_win_chance_matches_the_papers_example(open_page):
    at = open_page(PAGE, pips="70", opips="80")
    shown = metric(at, "Win chance on roll (70 v 80)")
    assert shown == pct(race.race_win_probability(70, 80))
    assert shown.startswith("77.9")  # [ZK77] text: count 70, 10 pips ahead, 77.9%


def test_table_1_deviations_are_shown_with_their_reasons(open_page):
    at = open_page(PAGE)
    assert metric(at, "Deviations (each explained below)") == str(len(race.TABLE_1_DEVIATIONS))
    frames = [df.value for df in at.dataframe]
    deviations = next(f for f in frames if "reason" in f.columns and len(f) < 10)
    shown = {(int(r.offset), int(r.your_count)): r.reason for r in deviations.itertuples()}
    assert shown == {key: reason for key, (_, reason) in race.TABLE_1_DEVIATIONS.items()}
    printed = next(f for f in frames if "offset" in f.columns and "110" in f.columns)
    assert float(printed.set_index("offset").loc[10, "70"]) == 77.9


def test_extended_table_1_follows_its_range(open_page):
    at = open_page(PAGE, rc0="100", rcs="50", rcn="3", ro0="0", ros="10", ron="2")
    assert not at.exception and not at.warning
    table = next(df.value for df in at.dataframe if list(df.value.columns[:2]) == ["offset", "100"])
    assert list(table.columns) == ["offset", "100", "150", "200"]
    expected = 100 * race.race_win_probability(150, 160)
    assert float(table.set_index("offset").loc[10, "150"]) == round(float(expected), 2)


@pytest.mark.parametrize("label", list(settings.PRESETS))
def test_presets_show_their_numbers(open_page, label):
    at = open_page(PAGE)
    at.button(key=f"preset:{label}").click().run()
    assert not at.exception
    preset = settings.PRESETS[label]
    if "pips" in preset:
        e = race.race_cube_equities(preset["pips"], preset["opips"], "owned")
        assert metric(at, "No double") == f"{e.no_double:+.4f}"
    else:  # the continuous game: (4), (5) and (6) all give 0.8
        for label in ("Minimum take point M, (4)", "Redouble point, (5)"):
            assert metric(at, label) == "0.8000"
        assert metric(at, "Initial double point, (6)") == "0.8000"


def test_effective_points_meet_their_defining_conditions(open_page):
    da, db = 0.9, 0.1
    at = open_page(PAGE, sec="Doubling points", da=str(da), db=str(db))
    # redouble: 2p/DA - 1 = 2 (2 (p - DB)/(1 - DB) - 1), linear in p
    redouble = (1 + 4 * db / (1 - db)) / (4 / (1 - db) - 2 / da)
    # initial double: 2 (p - DB)/(DA - DB) - 1 = 2 (2 (p - DB)/(1 - DB) - 1)
    double = db - 1 / (2 / (da - db) - 4 / (1 - db))
    assert metric(at, "Redouble point, (5)") == f"{redouble:.4f}"
    assert metric(at, "Initial double point, (6)") == f"{double:.4f}"
    assert metric(at, "Minimum take point M, (4)") == f"{1 - (1 - db) / 4:.4f}"
    names = " ".join(i.value for i in at.info)
    assert "redouble point" in names and "initial double point" in names


def test_moving_controls_changes_the_chart_and_the_numbers(open_page):
    at = open_page(PAGE, sec="Doubling points")
    before = chart_specs(at)[0]
    redouble_before = metric(at, "Redouble point, (5)")
    at.slider(key="da").set_value(0.8).run()
    at.slider(key="db").set_value(0.2).run()
    after = chart_specs(at)[0]
    assert after["data"][0]["y"] != before["data"][0]["y"]
    assert after["layout"]["annotations"] != before["layout"]["annotations"]
    assert metric(at, "Redouble point, (5)") != redouble_before
    assert metric(at, "Redouble point, (5)") == "0.8000"

    at = open_page(PAGE, sec="Exact strategy")
    marker_before = chart_specs(at)[0]["data"][-1]
    at.slider(key="pips").set_value(110).run()
    at.slider(key="opips").set_value(121).run()
    marker_after = chart_specs(at)[0]["data"][-1]
    assert (marker_before["x"], marker_after["x"]) == ([40], [110])
    e = race.race_cube_equities(110, 121, "center")
    assert metric(at, "No double") == f"{e.no_double:+.4f}"


def test_action_map_matches_the_exact_strategy(open_page):
    at = open_page(PAGE, sec="Exact strategy", cube="center", span="50")
    heatmap = chart_specs(at)[0]["data"][0]
    counts = heatmap["x"]
    assert counts == list(range(1, 51))
    for x, y in ((20, 20), (20, 18), (40, 43), (30, 40), (10, 30), (5, 50)):
        code = heatmap["z"][counts.index(y)][counts.index(x)]
        e = race.race_cube_equities(x, y, "center")
        if e.no_double == 1.0:  # the full point without doubling: its own colour
            assert code == 3
        else:
            assert race.ACTIONS[code] == e.action


def test_tables_2_and_3_beside_the_printed_values(open_page):
    at = open_page(PAGE, sec="Exact strategy")
    frames = [df.value for df in at.dataframe]
    table_2 = next(f for f in frames if "exact_doubling" in f.columns)
    assert len(table_2) == len(race.TABLE_2_PRINTED)
    assert table_2["doubling"].tolist() == race.TABLE_2_PRINTED["doubling"].tolist()
    exact = race.race_cube_equities(20, 20, "owned")
    assert table_2.loc[0, "exact_not_doubling"] == pytest.approx(exact.no_double, abs=1e-15)
    table_3 = next(f for f in frames if "exact_minus_printed" in f.columns)
    row = table_3[(table_3.your_count == 20) & (table_3.threshold == "last take")].iloc[0]
    assert (row.printed, row.exact) == (2.0, race.race_thresholds(20).last_take)
    assert any("simulated" in i.value for i in at.info)


def test_measured_points_and_cube_life(open_page):
    at = open_page(PAGE, sec="Measured points", pips="40", cube="center", lead="0")
    d = race.implied_doubling_points(40).set_index("count").loc[40]
    assert metric(at, "Implied DA at 40 v 40") == f"{d['da']:.3f}"
    assert metric(at, "Implied DB at 40 v 40") == f"{d['db']:.3f}"
    life = race.implied_cube_life("center", 0, 120).set_index("on_roll").loc[40]
    assert metric(at, "Cube life at 40 v 40") == f"{life['cube_life']:.3f}"
    assert metric(at, "GNU BG rule at 40 pips") == f"{float(race.gnubg_race_cube_life(40)):.3f}"


def test_rules_of_thumb(open_page):
    at = open_page(PAGE, sec="Rules of thumb", pips="100", opips="109", cube="center")
    assert metric(at, "8-9-12 rule at 100 v 109") == str(
        race_heuristics.rule_8_9_12(100, 109, "center")
    )
    assert metric(at, "Exact action") == race.race_cube_equities(100, 109, "center").action
    assert metric(at, "Kleinman win chance") == pct(
        race_heuristics.kleinman_win_probability(100, 109)
    )
    heatmap = chart_specs(at)[0]["data"][0]
    m = race_heuristics.rules_of_thumb_map("center", 120).set_index(["on_roll", "opponent"])
    for x, y in ((100, 109), (100, 108), (50, 56), (30, 30), (110, 118)):
        code = heatmap["z"][heatmap["y"].index(y - x)][heatmap["x"].index(x)]
        assert (code == 0) == bool(m.loc[(x, y), "rule_agrees"])
    disagreements = m[~m["rule_agrees"]]
    assert (
        metric(at, "8-9-12 agrees, all of 1..120")
        == f"{100 * (1 - len(disagreements) / len(m)):.1f}%"
    )


def test_the_cube_position_is_one_concept_across_pages(open_page):
    at = open_page("pages/janowski.py", x="0.2", cube="owned")
    at.switch_page(PAGE).run()
    assert not at.exception
    assert at.slider(key="pips").value == settings.YOUR_COUNT.default
    assert at.selectbox(key="cube").value == "owned"  # the same concept, kept
    at = open_page("pages/janowski.py", cube="all")
    at.switch_page(PAGE).run()
    assert not at.exception
    assert at.selectbox(key="cube").value == settings.CUBE.default  # not an option here


def test_the_race_tables_are_built_once(open_page, monkeypatch):
    calls = []
    original = race.cube_action_map

    def counting(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(race, "cube_action_map", counting)
    at = open_page(PAGE, sec="Exact strategy")
    at.slider(key="pips").set_value(41).run()
    at.selectbox(key="cube").set_value("owned").run()
    at.run()
    assert len(calls) == len(race.CUBE_POSITIONS)  # one full table per cube position


@pytest.mark.parametrize(
    ("pips", "opips", "cube", "action", "proper"),
    [
        ("40", "43", "center", "Double, take", "Double, take"),
        ("100", "110", "owned", "Redouble, take", "Redouble, take"),
        ("60", "75", "center", "Double, pass", "Double, pass"),
        ("30", "28", "center", "No double, take", "No double"),
    ],
)
def test_exact_strategy_shows_the_proper_action_block(open_page, pips, opips, cube, action, proper):
    at = open_page(PAGE, sec="Exact strategy", pips=pips, opips=opips, cube=cube)
    assert not at.exception
    shown, rows, proper_row = reading.proper_action(at)
    assert (shown, proper_row) == (action, proper)
    e = race.race_cube_equities(int(pips), int(opips), cube)
    assert (
        metric(at, "Action")
        == {
            "Double, take": "double/take",
            "Redouble, take": "double/take",
            "Double, pass": "double/pass",
            "No double, take": "no double",
        }[action]
    )
    take = rows["Double, take" if cube == "center" else "Redouble, take"]
    assert take == (
        f"{e.double_take:+.4f}",
        f"{e.double_take - e.optimal:+.4f}".replace("+0.0000", "0.0000"),
    )


def test_a_certain_win_names_both_proper_actions(open_page):
    at = open_page(PAGE, sec="Exact strategy", pips="3", opips="20", cube="center")
    assert not at.exception
    assert reading.proper_action(at)[0] == "Double, pass"
    assert metric(at, "Action") == "no double"
    assert any("both are proper" in c.value for c in at.caption)
    assert any("files a tie under no double" in c.value for c in at.caption)


def test_no_proper_action_block_when_the_opponent_owns_the_cube(open_page):
    at = open_page(PAGE, sec="Exact strategy", cube="opponent")
    assert not at.exception
    assert not [s for s in at.subheader if s.value.startswith("Proper cube action")]
