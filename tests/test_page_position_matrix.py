"""The position page's score matrix and verdict across levels, rendered (ui.position.matrix).

The page itself (``ui/position``'s skeleton wiring) is built elsewhere: each test runs a
tiny script that calls one render function with a :class:`ui.skeleton.View` of the
page's link keys (AppTest.from_function), against the real engine.
"""

import json
import re

import pytest
from streamlit.testing.v1 import AppTest

from cubecore import engine
from cubecore.met import load_table
from cubecore.position import position_from_id
from ui.position import matrix, matrix_charts

#: The link keys of the page (POSITION_CONTRACT.md) at their defaults but a small grid
#: at 1-ply (fast): a gammonish contact position of the engine's fixture, money.
VALUES = {
    "pos": "yLfBASjYzsIBAw",
    "mode": "money",
    "cv": "1",
    "cube": "center",
    "jacoby": False,
    "beavers": False,
    "away": 3,
    "oaway": 5,
    "crawford": False,
    "met": "kxg2",
    "depth": "1-ply",
    "n": 3,
}
TIMEOUT_S = 300


def _script(values, present, which):
    from ui.position import matrix
    from ui.skeleton import View

    getattr(matrix, f"render_{which}")(View(values, present))


def _open(which="matrix", present=False, session=None, **changes):
    at = AppTest.from_function(
        _script, args=({**VALUES, **changes}, present, which), default_timeout=TIMEOUT_S
    )
    for key, value in (session or {}).items():
        at.session_state[key] = value
    return at.run()


def _charts(at):
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def _headline(at):
    return [(m.label, m.value) for m in at.metric]


def _shown_text(at):
    parts = [m.label for m in at.metric] + [m.value for m in at.metric]
    parts += [e.value for e in (*at.caption, *at.info, *at.warning, *at.error)]
    return " ".join(str(p) for p in parts)


def test_matrix_at_a_match_score():
    at = _open(mode="match", away=3, oaway=2, n=4)
    assert not at.exception and not at.error
    p = position_from_id(VALUES["pos"])
    d = engine.evaluate(p, away=3, opp_away=2)
    (label, action), (differ_label, differ) = _headline(at)
    assert label == "At 3-away/2-away, cube centred: the engine at 1-ply"
    assert action == d.action
    assert differ_label == "Scores where the app's reading on Kazaross XG2 25 point MET differs"
    # the one listed disagreement of this position at 1-ply is 2-away/2-away
    # (tests/test_position_matrix.py); 4 x 4 grid: 1 + 9 + 2 * 6 + 1 cells
    assert differ == "1 of 23"
    engine_chart, app_chart = _charts(at)
    for chart in (engine_chart, app_chart):
        current = [s for s in chart["layout"]["shapes"] if s.get("name") == "current score"]
        assert [(s["x0"], s["y0"]) for s in current] == [(1.5, 2.5)]
        differs = [s for s in chart["layout"]["shapes"] if s.get("name") == "readings differ"]
        assert [(s["x0"] + 0.42, s["y0"] + 0.42) for s in differs] == [(2, 2)]
        text = chart["data"][0]["text"]
        assert text[1][1].endswith(matrix_charts.DIFFERS)
        assert sum(cell.endswith(matrix_charts.DIFFERS) for row in text for cell in row) == 1
    # the engine's cell is the engine's action, the app's the model's
    assert engine_chart["data"][0]["text"][1][1].startswith("TG")
    assert app_chart["data"][0]["text"][1][1].startswith("D/P")
    assert engine_chart["layout"]["title"]["text"] == "The engine, 1-ply"
    table = at.dataframe[0].value
    assert len(table) == 23
    row = table[table["Score"] == "2-away/2-away"].iloc[0]
    assert (row["Engine (1-ply)"], row["App's reading"], row["Readings differ"]) == (
        "Too good to double, pass",
        "Double, pass",
        "yes",
    )
    assert list(table["Score"]).count("3-away/2-away (current score)") == 1
    assert list(table["Readings differ"]).count("yes") == 1
    assert list(table["Readings differ"]).count("no") == 22
    assert at.get("download_button"), "the table's CSV"
    # a player's words: no code names, no internal keys
    shown = _shown_text(at)
    assert "`" not in shown and not re.search(r"\b[a-z]+_[a-z_]+\b", shown), shown


def test_money_and_another_table():
    at = _open(met="woolsey", n=3)
    assert not at.exception and not at.error
    (label, action), (differ_label, _) = _headline(at)
    assert label == "Money, cube centred: the engine at 1-ply"
    assert action == engine.evaluate(position_from_id(VALUES["pos"])).action
    assert load_table("woolsey").name in differ_label
    table = at.dataframe[0].value
    assert table["Score"].iloc[0] == "money (current score)"
    assert all("current score" not in s["name"] for c in _charts(at) for s in c["layout"]["shapes"])


def test_current_score_outside_the_grid_is_said():
    at = _open(mode="match", away=7, oaway=5, n=3)
    assert not at.exception
    assert _headline(at)[0][1] == "outside the 3 x 3 grid"


def test_a_stopped_matrix_shows_what_it_has_and_finishes():
    key = ("matrix", VALUES["pos"], "1-ply", 3, "kxg2", False, False)
    at = _open(session={"_position_stopped": key, "_position_done": {key: 4}})
    assert not at.exception
    assert (
        at.warning and "Stopped after 4 of 14 scores because you stopped it" in at.warning[0].value
    )
    table = at.dataframe[0].value
    assert (table["Engine (1-ply)"] == "not evaluated").sum() == 10
    assert list(table["Readings differ"][4:]) == [""] * 10
    at.button(key="resume:score matrix").click().run()
    assert not at.exception and not at.warning
    assert (at.dataframe[0].value["Engine (1-ply)"] != "not evaluated").all()


def test_a_rollout_level_draws_the_matrix_at_three_ply():
    at = _open(depth="rollout", n=2)
    assert not at.exception
    assert at.info and "at 3-ply" in at.info[0].value
    assert _headline(at)[0][0] == "Money, cube centred: the engine at 3-ply"
    assert _charts(at)[0]["layout"]["title"]["text"] == "The engine, 3-ply"


@pytest.mark.parametrize(
    "changes, words",
    [
        ({"pos": "not a position"}, "is not a position the app can read"),
        ({"pos": "XGID=-b----E-C---eE---c-e----B-:0:0:1:00"}, "is not a position the app can read"),
        ({"cv": "2"}, "A centred cube is on 1"),
    ],
)
def test_bad_input_is_named_and_nothing_is_evaluated(changes, words):
    for which in ("matrix", "levels"):
        at = _open(which, **changes)
        assert not at.exception
        assert at.error and words in at.error[0].value
        assert not at.get("plotly_chart") and not at.dataframe


def test_presenter_mode_shows_the_headline_and_charts_only():
    at = _open(present=True, n=2)
    assert not at.exception
    assert len(_headline(at)) == 2 and len(_charts(at)) == 2
    assert not at.dataframe


def test_levels():
    at = _open("levels", mode="match", away=5, oaway=3)
    assert not at.exception and not at.error
    p = position_from_id(VALUES["pos"])
    deepest = engine.evaluate(p, level="4-ply", away=5, opp_away=3)
    (label, action), (flip_label, flips) = _headline(at)
    assert flip_label == "The action changes at"
    assert label == "5-away/3-away: the deepest look (4-ply)" and action == deepest.action
    table = at.dataframe[0].value
    assert list(table["Level"]) == ["1-ply", "2-ply", "3-ply", "4-ply"]
    actions = list(table["Proper action"])
    changed = [
        lvl
        for lvl, a, b in zip(table["Level"][1:], actions, actions[1:], strict=False)
        if matrix.pm.action_category(a) != matrix.pm.action_category(b)
    ]
    assert flips == (", ".join(changed) if changed else "no level")
    assert list(table["Changes"] == "the action changes here") == [
        lvl in changed for lvl in table["Level"]
    ]
    one_ply = engine.evaluate(p, away=5, opp_away=3).implied_cube_life().x
    assert table["Implied cube life"].iloc[0] == round(one_ply, 3)
    (chart,) = _charts(at)
    assert chart["data"][0]["x"] == ["1-ply", "2-ply", "3-ply", "4-ply"]
    assert chart["data"][0]["y"][0] == pytest.approx(one_ply)
    assert at.get("download_button")
