"""AppTests of the position page: what is its own (common behaviour: test_pages_common.py).

The engine's numbers are checked against :func:`cubecore.engine.evaluate` at the same
level (its own tests compare it with GNU Backgammon), the theory's reading against
:mod:`cubecore.engine`'s implied cube life and the cube calculator's model.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qsl

import pytest

from cubecore import bearoff, engine
from cubecore.position import position_from_id, position_id, xgid_info
from tests.reading import chart_specs, metric
from ui.position import controls

PAGE = "pages/position.py"
#: A double/take at 1-ply (the page's default position).
DEFAULT = controls.DEFAULT_POSITION_ID
#: 3-away/5-away in a 7-point match (bottom 4, top 2), bottom on roll, the top player
#: owns a 2-cube: the page's default checkers written by XG.
XGID = "XGID=-b---CD-C---dD---c-db-A---:1:-1:1:00:4:2:0:7:10"


def _shown_probabilities(at) -> tuple[float, float, float, float, float]:
    table = at.dataframe[0].value.set_index("Side")
    me, them = table.loc["Player on roll"], table.loc["Opponent"]
    return (
        me["Wins, %"],
        me["Gammons (with backgammons), %"],
        me["Backgammons, %"],
        them["Gammons (with backgammons), %"],
        them["Backgammons, %"],
    )


def test_the_engines_answer_and_the_implied_cube_life(open_page):
    at = open_page(PAGE, depth="1-ply")
    assert not at.exception
    d = engine.evaluate(position_from_id(DEFAULT))
    assert at.subheader[0].value == f"Proper cube action: {d.action}"
    assert metric(at, "Cubeless winning chance") == f"{100 * d.probabilities.win:.2f}%"
    assert metric(at, "No double") == f"{d.no_double:+.4f}"
    assert metric(at, "Double, take") == f"{d.double_take:+.4f}"
    implied = d.implied_cube_life()
    assert metric(at, "Implied cube life x") == f"{implied.x:.3f}"
    # at 1-ply the engine applies Janowski at its own x: the implied x is that x
    assert metric(at, "The engine's own x at 1-ply") == f"{implied.x:.3f}"
    p = d.probabilities
    expected = (p.win, p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon)
    assert _shown_probabilities(at) == tuple(round(100 * value, 2) for value in expected)
    board = chart_specs(at)[0]
    assert {trace["marker"]["color"] for trace in board["data"][:2]} == {"#f5eedc", "#4a1c1c"}


def test_the_implied_cube_life_by_level(open_page):
    at = open_page(PAGE)  # 2-ply, the default
    assert not at.exception
    position = position_from_id(DEFAULT)
    by_level = at.dataframe[1].value.set_index("Level")
    assert by_level.index.tolist() == ["1-ply", "2-ply"]
    for level in ("1-ply", "2-ply"):
        d = engine.evaluate(position, level=level)
        assert by_level.loc[level, "x, No double"] == round(d.implied_cube_life().x, 4)
        assert by_level.loc[level, "x, Double/take"] == round(
            d.implied_cube_life("double_take").x, 4
        )
        assert by_level.loc[level, "Engine's action"] == d.action
    d = engine.evaluate(position, level="2-ply")
    assert metric(at, "Implied cube life x, No double") == f"{d.implied_cube_life().x:.3f}"


def test_an_xgid_fills_the_cube_and_the_score(open_page):
    at = open_page(PAGE, pos=XGID, depth="1-ply")
    assert not at.exception
    info = xgid_info(XGID)
    assert at.text_input(key="pos").value == position_id(info.position) == DEFAULT
    assert at.selectbox(key="mode").value == "match"
    assert at.slider(key="away").value == 3 and at.slider(key="oaway").value == 5
    assert at.selectbox(key="cv").value == "2"
    assert at.selectbox(key="cube").value == "opponent"
    assert any("Read the XGID: 3-away/5-away" in info.value for info in at.info)
    d = engine.evaluate(info.position, cube=2, owner="opponent", away=3, opp_away=5)
    assert metric(at, "No double") == f"{d.no_double:+.4f}"
    assert at.subheader[0].value == f"Proper cube action: {d.action}"


def test_a_match_score_shows_match_winning_chances(open_page):
    at = open_page(PAGE, mode="match", away=3, oaway=5, depth="1-ply")
    assert not at.exception
    d = engine.evaluate(position_from_id(DEFAULT), away=3, opp_away=5)
    from cubecore.cubeful import match_cube_decision
    from cubecore.met import load_table

    # at 1-ply the engine's match ND is gnubg's model on Kazaross-XG2 at its x: its MWC
    # there is the model's
    model = match_cube_decision(
        d.probabilities, engine.engine_cube_life(position_from_id(DEFAULT)),
        load_table("kxg2"), away=3, opp_away=5,
    )  # fmt: skip
    assert metric(at, "No double, MWC") == f"{100 * model.no_double_mwc:.2f}%"
    assert metric(at, "Double/pass, MWC") == f"{100 * model.double_pass_mwc:.2f}%"


#: Bad positions in the position box: each is named, and nothing is evaluated.
BAD_POSITIONS = [
    ("", "empty"),
    ("AAAAAAAAAAAAA", "14 characters"),  # 13
    ("4HPwATDgc/ABM*", "outside Base64"),
    ("////////////AA", "too many checkers"),
    ("4HPwATDgc/ABMB", "beyond the 80-bit key"),
    ("4HPwATDgc/ABMA:cAkAAAAAAAA*", "no position found"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0", "10 fields"),
    ("XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10", "26 characters"),
    ("XGID=-b----E-C---eE---c-e----Z-:0:0:1:00:0:0:0:0:10", "characters other than"),
    ("XGID=-b----E-C---eE---c-e----C-:0:0:1:00:0:0:0:0:10", "16 checkers"),  # 3 on the 24
    ("XGID=-b----E-C---eE---c-e----BA:0:0:1:00:0:0:0:0:10", "16 checkers"),  # 15 + one on the bar
    ("XGID=Ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "top player's bar"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:0:00:0:0:0:0:10", "turn"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:77:0:0:0:0:10", "dice"),
    ("XGID=-b----E-C---eE---c-e----B-:0:2:1:00:0:0:0:0:10", "cube owner"),
    ("XGID=-b----E-C---eE---c-e----B-:7:0:1:00:0:0:0:0:10", "beyond 64"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:7:0:0:7:10", "finished match"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:21:10", "up to 15-away"),
]


def _pasted(open_page, text: str):
    at = open_page(PAGE, depth="1-ply")
    before = metric(at, "No double")
    at.text_area(key="pos-paste").set_value(text)
    at.button(key="pos-read").click().run()
    assert not at.exception
    return at, before


@pytest.mark.parametrize(("text", "named"), BAD_POSITIONS)
def test_a_bad_position_is_named_and_nothing_is_evaluated(open_page, text, named):
    at, before = _pasted(open_page, text)
    said = " ".join(e.value for e in at.error)
    assert named in said, said
    assert "The position shown is unchanged" in said
    # nothing evaluated from the junk: the page still shows the position it had
    assert at.text_input(key="pos").value == DEFAULT
    assert metric(at, "No double") == before


def test_both_sides_on_one_point_is_named(open_page):
    # gnubg's bits: the opponent (first) has one checker on his 24-point, the player on
    # roll one on his 1-point: the same point
    bits = [0] * 23 + [1, 0, 0] + [1, 0] + [0] * 24
    key = bytearray(10)
    for k, bit in enumerate(bits):
        key[k // 8] |= bit << (k % 8)
    import base64

    text = base64.b64encode(bytes(key)).decode()[:14]
    at, _ = _pasted(open_page, text)
    said = " ".join(e.value for e in at.error)
    assert "both sides have checkers on it" in said, said


def test_a_pasted_xgid_is_read(open_page):
    at, _ = _pasted(open_page, XGID)
    assert at.text_input(key="pos").value == DEFAULT
    assert at.selectbox(key="mode").value == "match"
    assert any("Read the XGID: 3-away/5-away" in info.value for info in at.info)


#: gnubg 1.07's show board of a blitz, 7-point match 3-5, X (the player on roll) on 3
#: (tests/data/gnubg_position_text.json, made by scripts/gnubg/position_text_samples.py).
BLITZ = next(
    case
    for case in json.loads(
        (Path(__file__).parent / "data" / "gnubg_position_text.json").read_text()
    )["cases"]
    if case["name"].startswith("blitz")
)


@pytest.mark.parametrize(
    "text", [BLITZ["text"], "4HPwAUHb5gwGAA:cAngAFAAGAAE"], ids=["show board", "GNUBG ID"]
)
def test_gnubg_s_position_text_and_its_id_with_the_match_id_are_read(open_page, text):
    at, _ = _pasted(open_page, text)
    assert not at.error, [e.value for e in at.error]
    assert at.text_input(key="pos").value == BLITZ["position_id"]
    assert at.selectbox(key="mode").value == "match"
    assert (at.slider(key="away").value, at.slider(key="oaway").value) == (4, 2)
    assert any("Read GNU Backgammon's position" in info.value for info in at.info)


def test_a_bad_position_in_the_link_is_named_and_the_default_used(open_page):
    at = open_page(PAGE, pos="XGID=-b----E-C---eE---c-e----BA:0:0:1:00:0:0:0:0:10")
    assert not at.exception
    notices = " ".join(w.value for w in at.warning)
    assert "16 checkers" in notices
    assert at.text_input(key="pos").value == DEFAULT


def test_a_finished_game_is_not_evaluated(open_page):
    at = open_page(PAGE, pos="AAAAAAAAAAAAAA", depth="1-ply")  # all 30 checkers borne off
    assert any("The game is over" in e.value for e in at.error)
    assert not [m for m in at.metric if m.label == "Cubeless winning chance"]


def test_a_centred_cube_above_one_is_refused(open_page):
    at = open_page(PAGE, cv="2", depth="1-ply")
    assert any("A centred cube is on 1" in e.value for e in at.error)
    assert not [m for m in at.metric if m.label == "Cubeless winning chance"]


def test_the_exact_bear_off_stands_beside_the_engine(open_page):
    at = open_page(PAGE, pos="BQAAsAAAAAAAAA", depth="1-ply", sec="Exact race values")
    assert not at.exception
    position = position_from_id("BQAAsAAAAAAAAA")
    exact = bearoff.two_sided(position.on_roll[:6], position.opponent[:6])
    d = engine.evaluate(position)
    table = at.dataframe[0].value.set_index("")
    assert table.loc["Winning chance, %", "The app's exact values"] == round(100 * exact.win, 4)
    assert table.loc["Winning chance, %", "Engine, 1-ply"] == round(100 * d.probabilities.win, 4)
    assert abs(d.probabilities.win - exact.win) <= engine.BEAROFF_WIN_ERROR
    assert metric(at, "Exact action") == exact.action_centred


def test_a_contact_position_has_no_race_values(open_page):
    at = open_page(PAGE, depth="1-ply", sec="Exact race values")
    assert any("not a race" in i.value for i in at.info)


def _link(at, label: str) -> dict[str, str]:
    link = next(e for e in at.get("page_link") if e.proto.label == label)
    return dict(parse_qsl(link.proto.query_string))


def test_the_position_goes_to_the_cube_calculator_and_back(open_page):
    at = open_page(PAGE, depth="1-ply")
    sent = _link(at, "Open these chances in the cube calculator")
    d = engine.evaluate(position_from_id(DEFAULT))
    assert float(sent["~pw"]) == round(100 * d.probabilities.win, 2)
    assert sent["~pos"] == DEFAULT
    cube = open_page("pages/cube.py", **sent)
    assert not cube.exception
    assert not cube.warning  # every value taken, no notice
    assert cube.number_input(key="pw").value == round(100 * d.probabilities.win, 2)
    back = _link(cube, "Back to the position these chances came from")
    assert back["~pos"] == DEFAULT
    again = open_page(PAGE, **back, depth="1-ply")
    assert not again.exception and not again.warning
    assert again.text_input(key="pos").value == DEFAULT


def test_one_rule_chooses_the_anatomy_s_cube_life():
    # the position page, the position drills and the class's reveal slide share it
    from ui.position.data import anatomy_cube_life, class_cube_life

    opening = position_from_id("4HPwATDgc/ABMA")
    assert anatomy_cube_life(0.7312345678, opening) == (
        0.731235,
        "the implied cube life x = 0.731",
    )
    kind, x = class_cube_life(opening)
    assert (kind, x) == ("contact", 0.68)
    for outside in (None, -0.2, 1.3):
        chosen, said = anatomy_cube_life(outside, opening)
        assert chosen == x and "contact position" in said and "not in 0 to 1" in said
