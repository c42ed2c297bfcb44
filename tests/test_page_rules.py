"""AppTests of the cube-rules page: walkthrough, money rules in theory, simulation."""

import pytest

from cubecore import janowski, pgame
from cubecore import rules as cube_rules
from tests.links import the_one_notice
from tests.reading import chart_specs, metric
from ui.settings import rules as settings

PAGE = "pages/rules.py"


def test_page_loads_on_the_walkthrough(open_page):
    at = open_page(PAGE)
    assert not at.exception
    assert not at.warning
    assert at.selectbox(key="view").value == "walkthrough"
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
    state = cube_rules.WALKTHROUGH_PRESETS["beaver_raccoon"].states()[4]
    assert (state.value, state.owner) == (8, "B")  # the source: raccooned to 8, Black keeps it
    assert metric(at, "Stakes") == str(state.value)
    assert metric(at, "Cube face") == str(cube_rules.cube_face(state.value))
    assert metric(at, "Cube owner") == "B (Black)"
    assert any("raccoon" in info.value for info in at.info)
    legal = cube_rules.legal_actions(state, cube_rules.WALKTHROUGH_PRESETS["beaver_raccoon"].rules)
    assert any(", ".join(legal) in md.value for md in at.markdown)


def test_walkthrough_shows_what_forbids_a_double(open_page):
    at = open_page(PAGE, walk="crawford_holland", step="11")
    preset = cube_rules.WALKTHROUGH_PRESETS["crawford_holland"]
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
    last = cube_rules.WALKTHROUGH_PRESETS["beaver_raccoon"].states()[-1]
    assert any("showing the last" in info.value for info in at.info)
    assert metric(at, "Won so far A-B") == f"{last.score_a}-{last.score_b}" == "0-8"


def test_next_event_changes_the_chart_and_numbers(open_page):
    at = open_page(PAGE, walk="beaver_raccoon", step="2")
    before = chart_specs(at)[0]
    assert metric(at, "Stakes") == "1"
    at.button(key="walk:next").click().run()
    assert at.slider(key="step").value == 3
    states = cube_rules.WALKTHROUGH_PRESETS["beaver_raccoon"].states()
    assert metric(at, "Stakes") == str(states[3].value) == "4"  # beavered
    after = chart_specs(at)[0]
    assert before["layout"]["shapes"][0]["x0"] == 2
    assert after["layout"]["shapes"][0]["x0"] == 3
    at.button(key="walk:back").click().run()
    assert at.slider(key="step").value == 2


def test_link_seeds_the_theory(open_page):
    at = open_page(PAGE, view="theory", life="0.68", win="1.3", loss="1.1", p="0.9")
    assert not at.exception
    assert at.slider(key="life").value == 0.68
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
    at = open_page(PAGE, view="theory")
    before = chart_specs(at)
    at.slider(key="life").set_value(0.3).run()
    after = chart_specs(at)
    assert before[0]["data"][0]["y"] != after[0]["data"][0]["y"]
    assert before[1]["data"][2]["y"] != after[1]["data"][2]["y"]
    points = janowski.cube_points(0.3, settings.W.default, settings.L.default)
    assert metric(at, "Beaver point (taker's P)") == f"{points.beaver_point:.4f}"


def test_murphy_chart_coincides_per_unit(open_page):
    at = open_page(PAGE, view="theory")
    murphy = chart_specs(at)[3]
    per_unit = [trace["y"] for trace in murphy["data"] if trace.get("xaxis") == "x2"]
    in_points = [trace["y"] for trace in murphy["data"] if trace.get("xaxis") != "x2"]
    assert len(per_unit) == 3 and per_unit[0] == per_unit[1] == per_unit[2]
    assert in_points[1] != in_points[0]
    assert in_points[2][-1] == pytest.approx(4 * in_points[0][-1])


def test_link_reproduces_the_simulation(open_page):
    at = open_page(PAGE, view="simulation", n="50", rseed="7")
    assert not at.exception
    games = pgame.simulate_games(50_000, pgame.OPTIMAL, cube_rules.Rules(), 0.5, 7)
    above = float((games["cube_value"] > 4).mean())
    estimate = pgame.mean_points(games)
    assert metric(at, "P(stake > 4), simulated") == f"{above:.4f}"
    assert metric(at, "P(stake > 4), theory") == "0.0625"  # 1/16, [KS69] lemma at 80%/20%
    assert metric(at, "A's points per game") == f"{estimate.mean:+.4f}"
    assert metric(at, "95% CI low") == f"{estimate.low:+.4f}"
    assert metric(at, "Games simulated") == "50,000"
    rate = float(metric(at, "Games per second").replace(",", ""))
    assert rate > 100_000


def test_beavers_and_early_doubles_change_the_price(open_page):
    at = open_page(PAGE, view="simulation", n="20")
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


def test_impossible_rules_show_an_error_not_an_exception(open_page):
    at = open_page(PAGE, view="simulation", raccoons="true")
    assert not at.exception
    assert "raccoons need beavers" in at.error[0].value


@pytest.mark.parametrize(
    ("key", "raw"),
    [
        ("step", "abc"),
        ("step", "99"),
        ("step", "nan"),
        ("step", "1e309"),
        ("life", "abc"),
        ("life", "7"),
        ("life", "nan"),
        ("life", "1e309"),
        ("walk", "<img src=x onerror=alert(1)>"),
        ("beavers", "1"),
    ],
)
def test_bad_link_shows_one_notice(open_page, key, raw):
    view = "theory" if key == "life" else "simulation" if key == "beavers" else "walkthrough"
    at = open_page(PAGE, view=view, **{key: raw})
    the_one_notice(at, key)
    spec = next(c for c in settings.CONTROLS if c.key == key)
    widget = {"select": at.selectbox, "bool": at.toggle}.get(spec.kind, at.slider)
    assert widget(key=key).value == spec.default


@pytest.mark.parametrize("label", list(settings.PRESETS))
def test_presets_set_the_controls(open_page, label):
    values = settings.PRESETS[label]
    at = open_page(PAGE, view=values["view"])
    at.button(key=f"preset:{label}").click().run()
    assert not at.exception
    assert not at.error
    for key, value in values.items():
        spec = next(c for c in settings.CONTROLS if c.key == key)
        widget = {"select": at.selectbox, "bool": at.toggle}.get(spec.kind, at.slider)
        assert widget(key=key).value == value


def test_beaver_raccoon_preset_reaches_eight(open_page):
    at = open_page(PAGE)
    at.button(key="preset:Source: beaver, raccoon").click().run()
    assert metric(at, "Stakes") == "8"
    assert metric(at, "Cube owner") == "B (Black)"


def test_share_link(open_page):
    at = open_page(PAGE, view="theory", life="0.5")
    link = next(c.value for c in at.sidebar.code if "/rules" in c.value)
    assert link.endswith("/rules?view=theory&life=0.5")


@pytest.mark.parametrize("view", settings.SECTIONS)
def test_presenter_mode_enlarges_chart_fonts(open_page, view):
    normal = chart_specs(open_page(PAGE, view=view))[0]["layout"]["font"]["size"]
    presented = open_page(PAGE, view=view, present="true")
    assert not presented.exception
    assert chart_specs(presented)[0]["layout"]["font"]["size"] > normal
