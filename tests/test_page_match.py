"""AppTests of the match-play page: expected numbers come straight from cubecore.match.

Sections open by their tab titles (``sec``); a few tests open them through the links of
before the page skeleton (``part``, ``opp``, ``eff``, ``own``, ``hvol``), which must keep
opening the same views.
"""

import pytest

from cubecore import match
from tests.links import the_one_notice
from tests.reading import chart_specs, metric
from ui.match.controls import CLASSIC_SCORES

PAGE = "pages/match.py"
G0 = match.DEFAULT_GAMMON_RATE
X0 = match.DEFAULT_CUBE_EFFICIENCY


def test_page_loads_clean(open_page):
    at = open_page(PAGE)
    assert not at.exception
    assert not at.warning
    assert at.session_state["sec"] == "Equity table"
    assert at.slider(key="away").proto.query_param_key == "away"
    # the default score 5-away/3-away, default model
    assert metric(at, "Your MWC, 5-away/3-away") == f"{match.match_equity(5, 3, G0, X0):.4f}"
    assert chart_specs(at)


@pytest.mark.parametrize(
    "link",
    [
        {"away": "4", "oaway": "2", "G": "0.2", "x": "0.8"},
        {"part": "table", "away": "4", "opp": "2", "G": "0.2", "eff": "0.8"},  # an old link
    ],
)
def test_link_seeds_the_controls_and_the_table(open_page, link):
    at = open_page(PAGE, **link)
    assert not at.exception and not at.warning
    assert at.slider(key="away").value == 4
    assert at.slider(key="oaway").value == 2
    assert at.slider(key="G").value == 0.2
    assert at.slider(key="x").value == 0.8
    expected = match.match_equity(4, 2, 0.2, 0.8)
    assert metric(at, "Your MWC, 4-away/2-away") == f"{expected:.4f}"
    assert metric(at, "Opponent's MWC") == f"{1 - expected:.4f}"
    shown = at.dataframe[0].value
    table = match.match_equity_table(gammon_rate=0.2, cube_efficiency=0.8)
    assert shown.shape == (25, 26)  # the "away" column and 25 opponent's scores
    assert shown.loc[shown["away"] == 7, "12"].iloc[0] == round(table.loc[7, 12], 4)


def test_take_point_section_matches_cubecore(open_page):
    at = open_page(PAGE, sec="Take points", away="5", oaway="3", cv="2", cube="opponent", Gd="0.3")
    assert not at.exception and not at.warning
    tp = match.take_point(5, 3, 2, "opponent", G0, 0.3, X0)
    assert metric(at, "Take point, model") == f"{tp.model:.4f}"
    assert metric(at, "Take point, dead cube") == f"{tp.dead:.4f}"
    assert metric(at, "Take point, dead with gammons") == f"{tp.dead_gammon:.4f}"
    assert metric(at, "Take point, live recursion") == f"{tp.live:.4f}"
    assert metric(at, "Doubler's cash point") == f"{tp.cash_point:.4f}"
    by_cube = at.dataframe[0].value
    assert list(by_cube["cube"]) == ["1 -> 2", "2 -> 4"]  # a cube of 4 wins 3-away the match
    assert by_cube["dead"].iloc[1] == round(tp.dead, 4)


def test_redouble_from_the_centre_is_explained(open_page):
    at = open_page(PAGE, part="takes", cv="4")  # an old link; owner left at its default, center
    assert not at.exception
    assert any("Using owner = opponent" in info.value for info in at.info)
    tp = match.take_point(5, 3, 4, "opponent", G0, G0, X0)
    assert metric(at, "Take point, model") == f"{tp.model:.4f}"


def test_crawford_game_has_no_take_point(open_page):
    at = open_page(PAGE, sec="Take points", away="1", oaway="5")
    assert any("Crawford game is played without the cube" in i.value for i in at.info)
    at = open_page(PAGE, sec="Take points", away="1", oaway="5", post="true")
    assert not at.info
    assert metric(at, "Take point, dead cube") == f"{match.take_point(1, 5).dead:.4f}"


def test_rules_section_matches_cubecore(open_page):
    at = open_page(PAGE, part="rules", away="1", opp="4", delay="6", hvol="0.1")  # old link
    assert at.session_state["sec"] == "Crawford and Holland"
    assert at.session_state["sd"] == 0.1
    assert not at.exception and not at.warning
    crawford, post = match.crawford_equity(4, G0), match.post_crawford_equity(4, G0)
    assert metric(at, "Leader in the Crawford game") == f"{crawford:.4f}"
    assert metric(at, "Same game without the rule") == f"{post:.4f}"
    assert metric(at, "Protection") == f"{crawford - post:+.4f}"
    assert metric(at, "Leader's answer to the double") == "drop"  # free drop at 4-away
    effect = match.holland_effect(4, G0, 6, 0.1)
    assert metric(at, "Trailer, Holland rule") == f"{effect.trailer_with:.4f}"
    assert metric(at, "Change (percentage points)") == f"{100 * effect.trailer_change:+.3f}"
    holland = chart_specs(at)[-1]
    assert holland["data"][0]["y"][2] == pytest.approx(100 * effect.trailer_change)


def test_heatmaps_show_the_tables(open_page):
    at = open_page(PAGE, sec="Heatmaps", size="6", tk="live", G="0.1")
    assert not at.exception and not at.warning
    equity, takes = chart_specs(at)
    table = match.match_equity_table(gammon_rate=0.1)
    assert equity["data"][0]["type"] == "heatmap"
    assert equity["data"][0]["z"][3][1] == pytest.approx(table.loc[4, 2], abs=1e-12)
    assert len(takes["data"][0]["z"]) == 6
    assert takes["data"][0]["z"][4][2] == pytest.approx(
        match.take_point(5, 3, gammon_rate=0.1).live, abs=1e-12
    )


@pytest.mark.parametrize(
    ("key", "raw"),
    [
        ("away", "abc"),
        ("away", "30"),
        ("away", "nan"),
        ("away", "1e309"),
        ("away", "2.5"),
        ("G", "abc"),
        ("G", "0.9"),
        ("G", "nan"),
        ("G", "1e309"),
        ("sec", "<img src=x onerror=alert(1)>"),
        ("cv", "3"),
        ("post", "1"),
    ],
)
def test_bad_link_shows_one_notice_and_the_default(open_page, key, raw):
    at = open_page(PAGE, **{key: raw})
    notices = [the_one_notice(at, key)]
    defaults = {"away": 5, "G": G0, "sec": "Equity table", "cv": "1", "post": False}
    if key == "sec":
        assert at.session_state["sec"] == defaults[key]
        return
    widget = {"cv": at.selectbox, "post": at.toggle}.get(key, at.slider)
    if raw == "2.5":  # Streamlit's int slider takes the whole part; the notice says so
        assert widget(key=key).value == 2 and notices[0].endswith("using 2.")
    else:
        assert widget(key=key).value == defaults[key]


@pytest.mark.parametrize("label", list(CLASSIC_SCORES))
def test_presets_set_the_score(open_page, label):
    away, opp_away, phase = CLASSIC_SCORES[label]
    at = open_page(PAGE)
    at.button(key=f"preset:{label}").click().run()
    assert not at.exception
    assert at.slider(key="away").value == away
    assert at.slider(key="oaway").value == opp_away
    assert at.toggle(key="post").value == (phase == "post-Crawford")
    post = phase == "post-Crawford"
    assert metric(at, "Phase") == phase == match.match_phase(away, opp_away, post)
    if phase == "post-Crawford":  # the leader's post-Crawford MWC, not the Crawford game's
        mwc = match.post_crawford_equity(opp_away, G0)
    else:
        mwc = match.match_equity(away, opp_away, G0, X0)
    assert metric(at, f"Your MWC, {away}-away/{opp_away}-away") == f"{mwc:.4f}"


def test_moving_the_gammon_rate_changes_chart_and_numbers(open_page):
    at = open_page(PAGE)
    before = chart_specs(at)[0]
    mwc_before = metric(at, "Your MWC, 5-away/3-away")
    at.slider(key="G").set_value(0.05).run()
    after = chart_specs(at)[0]
    assert before["data"][0]["y"] != after["data"][0]["y"]
    assert after["data"][0]["y"] == pytest.approx(
        list(match.match_equity_table(gammon_rate=0.05).loc[5]), abs=1e-12
    )
    assert metric(at, "Your MWC, 5-away/3-away") != mwc_before
    assert metric(at, "Your MWC, 5-away/3-away") == f"{match.match_equity(5, 3, 0.05):.4f}"


def test_share_link_and_downloads(open_page):
    at = open_page(PAGE, part="takes", away="4", opp="2")  # an old link: today's names back
    link = at.sidebar.expander[-1].code[0].value
    assert link.endswith("/match?sec=Take%20points&away=4&oaway=2")
    assert at.get("download_button")


def test_presenter_mode_enlarges_chart_fonts(open_page):
    normal = chart_specs(open_page(PAGE))[0]
    large = chart_specs(open_page(PAGE, present="true"))[0]
    assert large["layout"]["font"]["size"] > normal["layout"]["font"]["size"]
    assert len(large["data"]) < len(normal["data"])  # no dead-cube comparison line
