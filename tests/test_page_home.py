"""AppTests of the home page: overview links with presets, the atlas and its alignment."""

from urllib.parse import urlencode

import pytest

from cubecore import atlas, giveup
from tests.plotly_spec import plotly_spec
from ui.pages import PAGES
from ui.views.home import GLOSSARY, OVERVIEW

PAGE = "pages/home.py"
SPEC_BY_FILE = {spec.file: spec for spec in PAGES}


def open_atlas(at):
    """Open the atlas tab (bound tabs run only the open section)."""
    at.session_state["hsec"] = "Atlas"
    return at.run()


def metric(at, label):
    return next(m.value for m in at.metric if m.label.startswith(label))


def controls_of(page_file):
    return SPEC_BY_FILE[page_file].controls


def test_home_loads_with_the_mappings(open_page):
    at = open_atlas(open_page(PAGE))
    assert not at.exception
    assert metric(at, "x from g (cube turned)") == f"{28 / 43:.4f}"
    assert metric(at, "x from g_c (centred)") == f"{99 / 134:.4f}"
    points = at.dataframe[0].value
    assert list(points["model"]) == [atlas.MODEL_TITLES[m] for m in atlas.MODELS]


def test_link_seeds_the_atlas_and_bad_values_are_reported(open_page):
    at = open_atlas(open_page(PAGE, ag="0.9", acube="owned"))
    assert at.slider(key="ag").value == 0.9
    assert metric(at, "x from g (cube turned)") == f"{4 * (1 / 0.9 - 1):.4f}"
    at = open_page(PAGE, ag="abc", agc="7", apips="1e309")
    notices = " ".join(w.value for w in at.warning)
    for key in ("ag", "agc", "apips"):
        assert f"**{key}**" in notices
    assert not at.exception


def test_alignment_moves_every_model(open_page):
    at = open_atlas(open_page(PAGE, ag="0.9"))
    at.button[[b.label for b in at.button].index("Align all to g")].click().run()
    expected = atlas.equivalent_settings("give_up", 0.9)
    assert at.slider(key="ax").value == pytest.approx(expected.x, abs=1e-4)
    assert at.slider(key="ada").value == pytest.approx(0.9)
    assert at.slider(key="adb").value == pytest.approx(0.1)
    assert at.slider(key="agc").value == pytest.approx(expected.center_give_up, abs=1e-4)
    # aligned: the give-up and Janowski rows of the side-by-side table coincide
    table = at.dataframe[0].value.set_index("model")
    assert table.loc[atlas.MODEL_TITLES["give_up"]].tolist() == pytest.approx(
        table.loc[atlas.MODEL_TITLES["janowski"]].tolist(), abs=1e-4
    )


def test_cube_position_changes_the_atlas_chart(open_page):
    at = open_atlas(open_page(PAGE))
    before = plotly_spec(at.get("plotly_chart")[0])
    at.selectbox(key="acube").set_value("owned").run()
    after = plotly_spec(at.get("plotly_chart")[0])
    assert before["data"][0]["y"] != after["data"][0]["y"]
    assert giveup.cube_life_from_give_up(0.86) == pytest.approx(28 / 43)


@pytest.mark.parametrize("card", OVERVIEW, ids=lambda card: card["page"])
def test_overview_link_opens_its_page_in_the_preset_state(open_page, card):
    home = open_page(PAGE)
    spec = SPEC_BY_FILE[card["page"]]
    link = next(el.proto for el in home.get("page_link") if el.proto.label == card["link"])
    assert link.page == spec.url_path
    assert link.query_string == urlencode(card["query"])
    controls = {c.key: c for c in controls_of(card["page"])}
    assert card["query"], "every overview link carries the preset that shows its headline"
    at = open_page(card["page"], **card["query"])
    assert not at.exception
    assert not at.warning, [w.value for w in at.warning]
    for key, raw in card["query"].items():
        expected, reason = controls[key].parse(raw)
        assert reason is None
        assert at.session_state[key] == expected


def test_glossary_links_point_at_registered_pages():
    assert {page for _, _, page in GLOSSARY} <= set(SPEC_BY_FILE)
    assert len(GLOSSARY) >= 12
