"""AppTests of the Keeler-Spencer page: expected numbers come from cubecore, never from the page."""

import math

import numpy as np
import pytest

from cubecore import keeler_spencer as ks
from cubecore import pgame
from tests.reading import chart_specs, metric
from ui.keeler_spencer import PAGE as DECLARED
from ui.keeler_spencer import controls
from ui.skeleton import SECTION_KEY

PAGE = "pages/keeler_spencer.py"
LABELS = {section.id: section.title for section in DECLARED.sections}
TAB_KEY = SECTION_KEY


def chart_titled(at, prefix):
    return next(s for s in chart_specs(at) if s["layout"]["title"]["text"].startswith(prefix))


def open_section(open_page, section, **params):
    return open_page(PAGE, **{TAB_KEY: LABELS[section], **params})


def test_page_loads_on_the_continuous_game(open_page):
    at = open_page(PAGE)
    assert not at.exception
    assert at.title[0].value == "Keeler-Spencer: proper raising points"
    assert not at.warning
    assert at.session_state[TAB_KEY] == LABELS["game"]
    check = pgame.take_check(0.8, 200_000, 1)
    assert metric(at, "Drop (−K)") == "-1.0000"
    assert metric(at, "Take, exact (3 − 5d)") == "-1.0000"
    assert metric(at, "Take, Monte Carlo") == f"{check.take_estimate.mean:+.4f}"
    # the path chart draws A's doubling point and B's (A's 20%)
    path = chart_titled(at, "A seeded path")
    thresholds = sorted(shape["y0"] for shape in path["layout"]["shapes"])
    assert thresholds == [0.2, 0.8]
    # no developer timings on the page (the throughput benchmark is in bench/)
    assert not any("per second" in m.label or "took" in m.label for m in at.metric)


def test_link_seeds_section_3_and_the_worked_example(open_page):
    at = open_section(open_page, "raises", i="2", j="1", a="2", b="3")
    assert not at.exception and not at.warning
    assert at.session_state[TAB_KEY] == LABELS["raises"]  # the link opens its section
    assert at.slider(key="b").value == 3.0
    assert at.slider(key="i").proto.query_param_key == "i"
    exact = ks.exact_raising_points(2, 1, 2, 3)
    assert exact.alpha == pytest.approx(11 / 16)
    assert metric(at, "α(2,1): A raises at") == "0.6875"
    assert metric(at, "β(2,1): B raises at") == f"{float(exact.beta):.4f}"
    assert metric(at, "E(2,1): A's even-game value") == f"{ks.even_game_value(2, 1, 2, 3):+.3f}"
    assert any("α(2,1) = 11/16" in c.value for c in at.caption)
    tree = chart_titled(at, "Game tree")
    texts = tree["data"][1]["text"]
    assert texts[0].startswith("α(2,1)<br>p = 11/16")  # [KS69] section 3
    assert any(
        t.startswith("β(0,1)<br>p = 1/3<br>value -4") for t in texts
    )  # -4 = 1/3(12) + 2/3(-12)


def test_link_seeds_section_4(open_page):
    at = open_section(open_page, "continuous", pa="10", pb="3")
    assert not at.exception
    assert at.session_state[TAB_KEY] == LABELS["continuous"]
    points = ks.continuous_raising_points(10, 3)
    assert metric(at, "α(10, 3)") == f"{points.alpha:.4f}" == "0.4938"  # [KS69] Table III
    assert metric(at, "E: A's even-game value") == "+1.000"
    assert metric(at, "Asymptotic gain log(a/b)") == f"{math.log(10 / 3):+.3f}"


def test_old_links_open_the_same_view(open_page):
    # links from before the page skeleton: old section titles, beav for beavers
    at = open_page(PAGE, sec="1 · The continuous game", beav="true")
    assert not at.exception and not at.warning
    assert at.session_state[TAB_KEY] == LABELS["game"]
    assert at.toggle(key="beavers").value is True
    price = pgame.doubling_price(0.8, beavers=True, n_games=200_000, seed=1)
    assert metric(at, "Loss, exact") == f"{price.loss_exact:.4f}"
    at = open_page(PAGE, sec="4 · Continuous raises", pa="5", pb="1")
    assert at.session_state[TAB_KEY] == LABELS["continuous"]
    assert metric(at, "α(5, 1)") == f"{1 / math.sqrt(5):.4f}"


def test_moving_the_doubling_point_changes_charts_and_numbers(open_page):
    at = open_page(PAGE)
    before = chart_titled(at, "Taker's value")
    at.slider(key="d").set_value(0.7).run()
    after = chart_titled(at, "Taker's value")
    assert before["data"][2]["x"] == [0.8] and after["data"][2]["x"] == [0.7]
    assert metric(at, "Take, exact (3 − 5d)") == f"{3 - 5 * 0.7:+.4f}" == "-0.5000"
    curve = pgame.doubling_price_curve([0.7])
    loss = float(curve.loc[~curve["beavers"], "loss"].iloc[0])
    assert metric(at, "Loss, exact") == f"{loss:.4f}" == "0.1000"
    path = chart_titled(at, "A seeded path")
    assert 0.7 in [shape["y0"] for shape in path["layout"]["shapes"]]


def test_step_control_shortens_the_path(open_page):
    at = open_page(PAGE, prog="100")
    full = chart_titled(at, "A seeded path")["data"][0]["x"]
    at.slider(key="prog").set_value(10).run()
    part = chart_titled(at, "A seeded path")["data"][0]["x"]
    path = pgame.p_game_path(0.5, 200_000, 0.01, 1)
    assert len(full) == len(path)
    assert len(part) == math.ceil(len(path) * 0.1)


def test_limited_doubles(open_page):
    at = open_page(PAGE, sec="2 · Limited doubles", nmax="3")  # an old link
    assert not at.exception
    assert metric(at, "α(3)") == f"{ks.limited_doubling_point(3):.6f}" == "0.796875"
    spec = chart_titled(at, "First doubling point")
    assert spec["data"][0]["y"] == [1.0, 0.75, 0.8125, 0.796875]  # 4/5 + (-1)^n/(4^n 5)


def test_paper_tables_reproduced_and_compared(open_page):
    at = open_section(open_page, "raises")
    table_i = np.array(chart_titled(at, "α (Table I)")["data"][0]["z"])
    np.testing.assert_allclose(table_i, ks.TABLE_I_PRINTED.to_numpy(), atol=5e-5 + 1e-9)
    table_ii = np.array(chart_titled(at, "E (Table II)")["data"][0]["z"])
    np.testing.assert_allclose(table_ii, ks.TABLE_II_PRINTED.to_numpy(), atol=5e-4 + 1e-9)
    # both tables agree cell by cell (no deviations in the module): the page says so
    assert not ks.TABLE_I_DEVIATIONS and not ks.TABLE_II_DEVIATIONS
    shown = [s.value for s in at.success]
    assert any("Table I: every printed cell agrees" in s for s in shown)
    assert any("Table II: every printed cell agrees" in s for s in shown)
    assert metric(at, "Recursion (8)-(9) = Theorem 2") == "yes, exactly"


def test_any_size_and_factor(open_page):
    at = open_section(open_page, "raises", rows="30", cols="25", a="3", b="1.5", pt="beta")
    assert not at.exception
    z = np.array(chart_titled(at, "β: raising points")["data"][0]["z"])
    assert z.shape == (30, 25)
    expected = ks.raising_points_table(30, 25, 3.0, 1.5, point="beta", method="closed_form")
    np.testing.assert_allclose(z, expected.to_numpy(), atol=1e-6)


def test_table_v_deviations_are_named_on_the_page(open_page):
    at = open_section(open_page, "continuous")
    assert not at.exception
    assert not at.warning  # link notices only
    # the paper's error, not the reader's: a caption, not a notice (issue #37 item 15)
    assert not [i.value for i in at.info if "Table V" in i.value]
    notice = next(c.value for c in at.caption if "printed values of Table V" in c.value)
    assert f"{len(ks.TABLE_V_DEVIATIONS)} of {len(ks.TABLE_V_PRINTED)}" in notice
    assert "2.3, 2.4, 2.5, 2.6, 2.7" in notice  # rows missing from the transcription
    table = next(d.value for d in at.dataframe if "a_printed" in d.value.columns)
    flagged = set(table.loc[table["reason"] != "agrees", "b"])
    assert flagged == set(ks.TABLE_V_DEVIATIONS)  # b = 5.2, 5.7, 7.5, ..., 1000
    assert 5.2 in flagged and 5.1 not in flagged and 1000 in flagged
    row = table.set_index("b").loc[2.0]
    assert row["a_printed"] == row["a_exact_rounded"] == 6.7952


def test_normal_approximation_and_asymptote_overlaid(open_page):
    at = open_section(open_page, "continuous")
    normal = chart_titled(at, "A's raising point against a")
    names = [trace["name"] for trace in normal["data"]]
    assert names == ["α(a, b), exact (18)", "normal approximation (23)"]
    a = normal["data"][1]["x"][60]
    assert normal["data"][1]["y"][60] == pytest.approx(ks.normal_raising_point(a, 4.0))
    assert normal["data"][0]["y"][60] == pytest.approx(ks.continuous_raising_points(a, 4.0).alpha)
    value = chart_titled(at, "A's value of an even game")
    assert value["data"][1]["y"][60] == pytest.approx(math.log(a / 4.0))


def test_presets_of_each_section(open_page):
    at = open_section(open_page, "raises")
    at.button(key="preset:Worked example: α(2,1) = 11/16").click().run()
    assert (at.slider(key="i").value, at.slider(key="j").value) == (2, 1)
    assert at.slider(key="b").value == 3.0
    assert metric(at, "α(2,1): A raises at") == "0.6875"

    at.button(key="preset:A has 10 doubles, B has 3").click().run()
    alpha = ks.raising_points(10, 3).alpha
    assert metric(at, "α(10,3): A raises at") == f"{alpha:.4f}" == "0.2127"
    info = " ".join(i.value for i in at.info)
    assert ".4938" in info and "111537/524288" in info  # TEXT_DEVIATIONS
    assert not at.warning  # two presets in a row raise no notice

    at.button(key="preset:Paper's tables").click().run()
    for spec in DECLARED.all_controls:
        if spec.key != TAB_KEY:
            assert at.session_state[spec.key] == spec.default
    assert at.session_state[TAB_KEY] == LABELS["raises"]

    at = open_section(open_page, "continuous")
    assert "preset:Paper's tables" not in [b.key for b in at.button]  # raises' own presets
    at.button(key="preset:a > 4 against b = 1").click().run()
    assert metric(at, "α(5, 1)") == f"{1 / math.sqrt(5):.4f}"
    assert any("B resigns" in s.value for s in at.success)
    assert not at.exception and not at.warning
    assert set(controls.CONTINUOUS_PRESETS) == {"a > 4 against b = 1"}
