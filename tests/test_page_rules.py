"""AppTests of the cube-rules page: walkthrough, money rules in theory, simulation."""

import pytest

from cubecore import janowski, pgame
from cubecore import rules as cube_rules
from tests.reading import chart_specs, metric, share_link
from ui.rules import PAGE as DECLARED
from ui.rules import controls
from ui.rules.walkthroughs import WALKTHROUGHS, action_words

PAGE = "pages/rules.py"
TITLES = {section.id: section.title for section in DECLARED.sections}


def test_page_loads_on_the_walkthrough(open_page):
    at = open_page(PAGE)
    assert not at.exception
    assert not at.warning
    assert at.session_state["sec"] == TITLES["walkthrough"]
    assert metric(at, "Stakes") == "1"
    assert metric(at, "Cube face") == "64"  # [RULES]: centred on 1, 64 showing
    assert metric(at, "Cube owner") == "centred"
    assert chart_specs(at)


def test_link_seeds_the_walkthrough(open_page):
    at = open_page(PAGE, walk="beaver_raccoon", step="4")
    assert not at.exception
    assert at.selectbox(key="walk").value == "beaver_raccoon"
    assert at.slider(key="step").value == 4
    assert at.slider(key="step").proto.query_param_key == "step"
    state = WALKTHROUGHS["beaver_raccoon"].states()[4]
    assert (state.value, state.owner) == (8, "B")  # the source: raccooned to 8, Black keeps it
    assert metric(at, "Stakes") == str(state.value)
    assert metric(at, "Cube face") == str(cube_rules.cube_face(state.value))
    assert metric(at, "Cube owner") == "B (Black)"
    assert any("raccoon" in info.value for info in at.info)
    legal = cube_rules.legal_actions(state, WALKTHROUGHS["beaver_raccoon"].rules)
    assert any(", ".join(map(action_words, legal)) in md.value for md in at.markdown)


def test_walkthrough_shows_what_forbids_a_double(open_page):
    at = open_page(PAGE, walk="crawford_holland", step="11")
    preset = WALKTHROUGHS["crawford_holland"]
    state = preset.states()[11]
    reason = cube_rules.illegal_reasons(state, preset.rules)["double"]
    assert reason.startswith("Holland rule")
    table = at.dataframe[0].value
    assert table.set_index("action").loc["double", "forbidden by"] == reason
    assert metric(at, "Score A-B") == f"{state.score_a}-{state.score_b}"
    at = open_page(PAGE, walk="crawford_holland", step="5")
    table = at.dataframe[0].value
    assert table.set_index("action").loc["double", "forbidden by"].startswith("Crawford rule")


def test_step_past_the_end_shows_the_last_event(open_page):
    at = open_page(PAGE, walk="beaver_raccoon", step="15")
    assert not at.exception
    last = WALKTHROUGHS["beaver_raccoon"].states()[-1]
    assert any("showing the last" in info.value for info in at.info)
    assert metric(at, "Won so far A-B") == f"{last.score_a}-{last.score_b}" == "0-8"


def test_next_event_changes_the_chart_and_numbers(open_page):
    at = open_page(PAGE, walk="beaver_raccoon", step="2")
    before = chart_specs(at)[0]
    assert metric(at, "Stakes") == "1"
    at.button(key="walk:next").click().run()
    assert at.slider(key="step").value == 3
    assert not at.warning  # a click is not a link: no notice
    states = WALKTHROUGHS["beaver_raccoon"].states()
    assert metric(at, "Stakes") == str(states[3].value) == "4"  # beavered
    after = chart_specs(at)[0]
    assert before["layout"]["shapes"][0]["x0"] == 2
    assert after["layout"]["shapes"][0]["x0"] == 3
    at.button(key="walk:back").click().run()
    assert at.slider(key="step").value == 2
    for _ in range(len(states) - 1 - 2):  # step to the end, one click at a time
        at.button(key="walk:next").click().run()
    assert at.slider(key="step").value == len(states) - 1
    assert not at.warning and not at.exception


def test_old_link_seeds_the_theory(open_page):
    # a link from before the skeleton: view, life, win, loss and p are today's sec, x, W, L, P
    at = open_page(PAGE, view="theory", life="0.68", win="1.3", loss="1.1", p="0.9")
    assert not at.exception and not at.warning
    assert at.session_state["sec"] == TITLES["theory"]
    assert at.slider(key="x").value == 0.68
    assert (at.slider(key="W").value, at.slider(key="L").value) == (1.3, 1.1)
    plain = janowski.cube_points(0.68, 1.3, 1.1)
    jacoby = janowski.cube_points(0.68, 1.3, 1.1, jacoby=True)
    assert metric(at, "Initial double point") == f"{plain.initial_double_point:.4f}"
    assert metric(at, "Initial double point, Jacoby") == f"{jacoby.initial_double_point:.4f}"
    assert metric(at, "Beaver point (taker's P)") == f"{plain.beaver_point:.4f}"
    assert metric(at, "Raccoon point (doubler's P)") == f"{plain.raccoon_point:.4f}"
    assert metric(at, "Too good, centred") == f"{plain.too_good_center:.4f}"
    assert metric(at, "Too good, centred, Jacoby") == "never"  # never too good under Jacoby
    plain_decision = janowski.cube_decision(0.9, 0.68, "center", 1.3, 1.1)
    decision = janowski.cube_decision(0.9, 0.68, "center", 1.3, 1.1, jacoby=True)
    assert metric(at, "Decision at P = 0.900") == plain_decision.doubler_action == "too good"
    assert metric(at, "Decision at P = 0.900, Jacoby") == decision.doubler_action == "double/pass"


def test_moving_cube_life_changes_the_charts_and_numbers(open_page):
    at = open_page(PAGE, sec=TITLES["theory"])
    before = chart_specs(at)
    at.slider(key="x").set_value(0.3).run()
    after = chart_specs(at)
    assert before[0]["data"][0]["y"] != after[0]["data"][0]["y"]
    assert before[1]["data"][2]["y"] != after[1]["data"][2]["y"]
    points = janowski.cube_points(0.3, controls.W.default, controls.L.default)
    assert metric(at, "Beaver point (taker's P)") == f"{points.beaver_point:.4f}"


def test_murphy_chart_coincides_per_unit(open_page):
    at = open_page(PAGE, sec=TITLES["theory"])
    murphy = chart_specs(at)[3]
    per_unit = [trace["y"] for trace in murphy["data"] if trace.get("xaxis") == "x2"]
    in_points = [trace["y"] for trace in murphy["data"] if trace.get("xaxis") != "x2"]
    assert len(per_unit) == 3 and per_unit[0] == per_unit[1] == per_unit[2]
    assert in_points[1] != in_points[0]
    assert in_points[2][-1] == pytest.approx(4 * in_points[0][-1])


@pytest.mark.parametrize(
    "link",
    [{"sec": "Simulation", "seed": "7"}, {"view": "simulation", "rseed": "7"}],  # today's, old
)
def test_link_reproduces_the_simulation(open_page, link):
    at = open_page(PAGE, n="50", **link)
    assert not at.exception
    games = pgame.simulate_games(pgame.GameBatch(50_000, pgame.OPTIMAL, cube_rules.Rules(), 0.5, 7))
    above = float((games["cube_value"] > 4).mean())
    estimate = pgame.mean_points(games)
    assert metric(at, "P(stake > 4), simulated") == f"{above:.4f}"
    assert metric(at, "P(stake > 4), theory") == "0.0625"  # 1/16, [KS69] lemma at 80%/20%
    assert metric(at, "A's points per game") == f"{estimate.mean:+.4f}"
    assert metric(at, "95% CI low") == f"{estimate.low:+.4f}"
    assert metric(at, "Games simulated") == "50,000"
    assert not at.warning


def test_beavers_and_early_doubles_change_the_price(open_page):
    at = open_page(PAGE, sec=TITLES["simulation"], n="20")
    before = chart_specs(at)[0]
    at.toggle(key="beavers").set_value(True).run()
    at.slider(key="ad").set_value(0.5).run()
    assert not at.exception
    after = chart_specs(at)[0]
    assert before["data"][0]["y"] != after["data"][0]["y"]
    curve = pgame.doubling_price_curve([0.5])
    loss = dict(zip(curve["beavers"], curve["loss"], strict=True))
    assert metric(at, "Loss doubling at 0.50, no beavers") == f"{loss[False]:.4f}"
    assert metric(at, "Loss doubling at 0.50, beavers") == f"{loss[True]:.4f}"
    assert loss[True] > loss[False] > 0
    # the simulation plays the same strategies: A doubles at 50%, redoubles at 80%; B beavers
    strategy = pgame.Thresholds(double_a=0.5, redouble_a=0.8, beaver_a=0.4, beaver_b=0.4)
    exact = pgame.exact_equity(strategy, cube_rules.Rules(beavers=True))
    assert metric(at, "Exact expectation") == f"{exact:+.4f}" == "-1.0000"
    low, high = float(metric(at, "95% CI low")), float(metric(at, "95% CI high"))
    assert low < exact < high


def test_controls_that_need_another_are_disabled(open_page):
    # raccoons need beavers, the Murphy cap needs the Murphy rule ([RULES])
    at = open_page(PAGE, sec=TITLES["simulation"], n="10")
    assert at.toggle(key="raccoons").disabled and at.slider(key="cap").disabled
    assert at.slider(key="beaver").disabled and at.slider(key="raccoon").disabled
    at.toggle(key="beavers").set_value(True).run()
    assert not at.toggle(key="raccoons").disabled and not at.slider(key="beaver").disabled
    assert at.slider(key="raccoon").disabled
    at.toggle(key="raccoons").set_value(True).run()
    assert not at.slider(key="raccoon").disabled
    assert not at.exception and not at.error


@pytest.mark.parametrize(
    ("section", "label"),
    [(s.id, label) for s in DECLARED.sections for label in s.presets],
)
def test_presets_set_the_controls(open_page, section, label):
    values = DECLARED.section(section).presets[label]
    at = open_page(PAGE, sec=TITLES[section], n="10")
    at.button(key=f"preset:{label}").click().run()
    assert not at.exception and not at.error and not at.warning
    for key, value in values.items():
        assert at.session_state[key] == value
    assert at.session_state["sec"] == TITLES[section]


def test_beaver_raccoon_preset_reaches_eight(open_page):
    at = open_page(PAGE)
    at.button(key="preset:Source: beaver, raccoon").click().run()
    assert metric(at, "Stakes") == "8"
    assert metric(at, "Cube owner") == "B (Black)"


def test_share_link(open_page):
    at = open_page(PAGE, view="theory", life="0.5")
    link = share_link(at)
    assert link.endswith("/rules?sec=Theory&x=0.5")


def test_walkthroughs_replay_the_source():
    # [RULES]: the beaver/raccoon example, the Murphy cap, Crawford then Holland
    beaver = WALKTHROUGHS["beaver_raccoon"].states()
    assert [s.value for s in beaver] == [1, 1, 1, 4, 8, 8, 8, 8]
    assert beaver[-1].points == 8 and beaver[-1].winner == "B"
    murphy = WALKTHROUGHS["murphy_cap"].states()
    assert [s.value for s in murphy][:7] == [1, 2, 4, 4, 4, 4, 8]
    assert murphy[-1].points == 16
    crawford = WALKTHROUGHS["crawford_holland"].states()
    assert any(s.crawford_game for s in crawford)
    assert crawford[-1].phase == "match_over" and (crawford[-1].score_a, crawford[-1].score_b) == (
        4,
        5,
    )
    rules_used = {event.rule for s in crawford for event in s.history}
    assert {"Crawford rule", "Holland rule"} <= rules_used


def test_theory_shows_the_jacoby_initial_double_point_with_and_without_beavers(open_page):
    # gnubg 1.07's dead-cube initial double point with Jacoby and beavers is 0.475 for
    # W = 1.3, L = 1.2: (L - 1/4) / (L + W - 1/2); without beavers (L - 1/2) / (L + W - 1)
    at = open_page("pages/rules.py", sec="Theory", x="0", W="1.3", L="1.2")
    assert not at.exception
    shown = {m.label: m.value for m in at.metric}
    assert shown["Initial double point, Jacoby with beavers"] == "0.4750"
    assert shown["Initial double point, Jacoby without beavers"] == f"{0.7 / 1.5:.4f}"
