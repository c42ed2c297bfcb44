"""AppTests of the home page: card and glossary links land on their sections, the atlas."""

from urllib.parse import urlencode

import pytest

from cubecore import atlas, giveup
from cubecore.references import REFERENCES
from tests.plotly_spec import plotly_spec
from ui.home import PAGE as HOME
from ui.home.content import GLOSSARY, MODEL_TITLES, OVERVIEW, START
from ui.pages import PAGES, link_query

PAGE = "pages/home.py"
SPEC_BY_FILE = {spec.file: spec for spec in PAGES}
CARD_LINKS = [link for card in OVERVIEW for link in card.links]
START_LINKS = [start.link for start in START]
GLOSSARY_LINKS = [link for _, _, link in GLOSSARY]


def metric(at, label):
    return next(m.value for m in at.metric if m.label.startswith(label))


def on_skeleton(link):
    """Whether the link's page is declared on the page skeleton (it then has sec tabs)."""
    return SPEC_BY_FILE[link.page].page is not None


def test_home_loads_with_the_mappings(open_page):
    at = open_page(PAGE, sec="Atlas")
    assert not at.exception
    assert metric(at, "x from g (cube turned)") == f"{28 / 43:.4f}"
    assert metric(at, "x from g_c (centred)") == f"{99 / 134:.4f}"
    points = at.dataframe[0].value
    assert list(points["model"]) == [MODEL_TITLES[m] for m in atlas.MODELS]


def test_old_link_seeds_the_atlas_and_bad_values_are_reported(open_page):
    at = open_page(PAGE, hsec="Atlas", ag="0.9", acube="owned")  # a link from before issue 19
    assert at.session_state["sec"] == "Atlas"
    assert at.slider(key="g").value == 0.9
    assert at.selectbox(key="cube").value == "owned"
    assert metric(at, "x from g (cube turned)") == f"{4 * (1 / 0.9 - 1):.4f}"
    at = open_page(PAGE, sec="Atlas", g="abc", gc="7", apips="1e309")
    notices = " ".join(w.value for w in at.warning)
    for key in ("g", "gc", "pips"):
        assert f"**{key}**" in notices
    assert not at.exception


def test_alignment_moves_every_model(open_page):
    at = open_page(PAGE, sec="Atlas", g="0.9")
    at.button[[b.label for b in at.button].index("Align all to g")].click().run()
    expected = atlas.equivalent_settings("give_up", 0.9)
    assert at.slider(key="x").value == pytest.approx(expected.x, abs=1e-4)
    assert at.slider(key="da").value == pytest.approx(0.9)
    assert at.slider(key="db").value == pytest.approx(0.1)
    assert at.slider(key="gc").value == pytest.approx(expected.center_give_up, abs=1e-4)
    # aligned: the give-up and Janowski rows of the side-by-side table coincide
    table = at.dataframe[0].value.set_index("model")
    assert table.loc[MODEL_TITLES["give_up"]].tolist() == pytest.approx(
        table.loc[MODEL_TITLES["janowski"]].tolist(), abs=1e-4
    )


def test_cube_position_changes_the_atlas_chart(open_page):
    at = open_page(PAGE, sec="Atlas")
    before = plotly_spec(at.get("plotly_chart")[0])
    at.selectbox(key="cube").set_value("owned").run()
    after = plotly_spec(at.get("plotly_chart")[0])
    assert before["data"][0]["y"] != after["data"][0]["y"]
    assert giveup.cube_life_from_give_up(0.86) == pytest.approx(28 / 43)


def test_every_card_and_glossary_link_names_a_registered_page_and_a_section():
    assert {link.page for link in CARD_LINKS + GLOSSARY_LINKS} <= set(SPEC_BY_FILE)
    assert all("sec" in link.query for link in CARD_LINKS + GLOSSARY_LINKS)
    assert len(GLOSSARY) >= 12
    # Zadeh-Kobliska's effective doubling points: one click from home
    race = [link for link in CARD_LINKS if link.page == "pages/race.py"]
    assert any(link.query["sec"] == "points" for link in race)
    for link in CARD_LINKS + GLOSSARY_LINKS:  # every section id names a section of its page
        SPEC_BY_FILE[link.page].page.section(str(link.query["sec"]))


def test_a_visitor_cannot_tell_where_to_go_from_the_home_page(open_page):
    """Issue #37 item 19: the home page opens on what a visitor brings (a position, engine
    numbers, a match score, learning the theory, teaching a class), each with one link to
    its page; the model cards are one tab further; the sidebar lists the cube calculator
    right after the home page."""
    home = open_page(PAGE)
    assert home.session_state["sec"] == "Start here"
    brings = [start.brings.lower() for start in START]
    for words in ("position", "engine numbers", "match score", "learn", "teach"):
        assert any(words in shown for shown in brings), words
    shown = {el.proto.label: el.proto for el in home.get("page_link")}
    assert set(shown) == {link.label for link in START_LINKS}
    for link in START_LINKS:
        assert shown[link.label].page == SPEC_BY_FILE[link.page].url_path
        assert shown[link.label].query_string == urlencode(link_query(link.page, link.query))
    assert START_LINKS[0].page == "pages/real_race.py"  # decodes a position (issue #37)
    assert [spec.file for spec in PAGES[:2]] == ["pages/home.py", "pages/cube.py"]
    models = open_page(PAGE, sec=HOME.section("overview").title)
    assert {el.proto.label for el in models.get("page_link")} >= {card.label for card in CARD_LINKS}


def test_overview_links_are_shown_with_their_queries(open_page):
    home = open_page(PAGE, sec=HOME.section("overview").title)
    shown = {el.proto.label: el.proto for el in home.get("page_link")}
    for link in CARD_LINKS:
        assert shown[link.label].page == SPEC_BY_FILE[link.page].url_path
        assert shown[link.label].query_string == urlencode(link_query(link.page, link.query))


@pytest.mark.parametrize(
    "link",
    [link for link in CARD_LINKS + GLOSSARY_LINKS + START_LINKS if on_skeleton(link)],
    ids=lambda link: f"{link.page}:{urlencode(link.query)}",
)
def test_link_opens_its_section_in_the_preset_state(open_page, link):
    spec = SPEC_BY_FILE[link.page]
    controls = {c.key: c for c in spec.controls}
    at = open_page(link.page, **link_query(link.page, link.query))  # as the link is drawn
    assert not at.exception
    assert not at.warning, [w.value for w in at.warning]
    assert at.session_state["sec"] == spec.page.section(str(link.query["sec"])).title
    for key, raw in link.query.items():
        if key == "sec":
            continue
        expected, reason = controls[key].parse(spec.page.value_aliases.get(key, {}).get(raw, raw))
        assert reason is None
        assert at.session_state[key] == expected


def test_about_lists_every_source_in_full(open_page):
    at = open_page(PAGE, hsec="About")  # the old section value opens "About and sources"
    assert at.session_state["sec"] == "About and sources"
    shown = " ".join(block.value for block in at.markdown)
    for reference in REFERENCES.values():
        assert reference.text() in shown, reference.key
    assert "seeds" not in shown
    assert HOME.section("about").title == "About and sources"
