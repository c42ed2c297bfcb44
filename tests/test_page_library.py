"""AppTests of the position library page: filter, search, score, focus, links, table."""

from urllib.parse import parse_qs, parse_qsl, urlsplit

from cubecore import library
from cubecore.position import position_from_id
from tests.links import the_one_notice
from ui.library import controls
from ui.library import data as cached
from ui.position import controls as position_controls

PAGE = "pages/library.py"


def markdown(at) -> str:
    return "\n".join(m.value for m in at.markdown)


def warnings(at) -> str:
    return " ".join(w.value for w in at.warning)


def page_links(at):
    """The links that open a position on the position page."""
    return [e for e in at.get("page_link") if e.proto.label == "Open on the position page"]


def test_the_page_itself_is_tested(open_page):
    at = open_page(PAGE)
    assert not at.exception
    assert at.title[0].value == "Position library: real cube decisions"


def test_every_theme_and_score_has_words():
    assert set(controls.THEME_LABELS) == {controls.ALL, *library.THEMES}
    assert set(controls.SCORE_LABELS) == set(library.SCORES)


def test_money_by_default_every_position_a_card_with_its_verdict(open_page):
    at = open_page(PAGE)
    text = markdown(at)
    for item in library.library():
        assert f"**{item.title}**" in text
        stored = library.evaluation(item.id, "money")
        assert f"Money play: **{stored.action}**" in text
    assert len(page_links(at)) == len(library.library())


def test_theme_filter_and_search_from_the_link(open_page):
    at = open_page(PAGE, kind="Races", q="100")
    assert not at.exception and not warnings(at)
    text = markdown(at)
    races = [i for i in library.library() if i.theme == "race" and "100" in i.title + i.id]
    assert races
    for item in library.library():
        shown = f"**{item.title}**" in text
        assert shown == (item in races or (item.theme == "race" and "100" in item.explanation))


def test_search_with_no_match_says_so(open_page):
    at = open_page(PAGE, q="zebra crossing")
    assert "No position of the library matches" in at.info[0].value


def test_score_changes_the_verdicts(open_page):
    at = open_page(PAGE, score="2-away/4-away", kind="Races")
    text = markdown(at)
    stored = library.evaluation("race-72-80", "2-4")
    assert f"2-away/4-away: **{stored.action}**" in text


def test_the_link_opens_the_position_page_with_its_cube_and_score():
    values = cached.position_values("race-redouble-100-110", "3-1")
    assert values == {
        "pos": library.library_position("race-redouble-100-110").position_id,
        "cv": "2",
        "cube": "owned",
        "depth": "3-ply",
        "mode": "match",
        "away": 3,
        "oaway": 1,
        "crawford": False,
    }
    # every value is one the position page's own controls accept
    by_key = {c.key: c for c in position_controls.PAGE_CONTROLS}
    for key, value in values.items():
        assert by_key[key].accepts(value), key
    link = urlsplit(cached.position_link("race-redouble-100-110", "3-1"))
    query = {key: value[0] for key, value in parse_qs(link.query).items()}
    assert link.path == "position"
    assert (
        position_from_id(query["pos"]) == library.library_position("race-redouble-100-110").position
    )
    assert query["crawford"] == "false" and query["depth"] == "3-ply"


def test_opened_link_shows_the_library_position_on_the_position_page(open_page):
    values = cached.position_values("bearoff-two-vs-two", "money")
    at = open_page("pages/position.py", **{k: str(v) for k, v in values.items()})
    assert not at.exception
    assert not at.warning
    assert at.text_input(key="pos").value == values["pos"]


def test_a_library_position_in_focus(open_page):
    at = open_page(PAGE, lib="holding-18pt")
    assert not at.exception and not warnings(at)
    assert at.subheader[0].value == library.library_position("holding-18pt").title
    focus = at.dataframe[0].value
    assert len(focus) == len(library.SCORES)
    assert list(focus["score"]) == list(controls.SCORE_LABELS.values())


def test_an_unknown_library_id_is_named(open_page):
    at = open_page(PAGE, lib="race-1-2")
    notice = the_one_notice(at, "lib").replace("\\", "")
    assert "ignored race-1-2 (no position in the library is called race-1-2); using none" in notice
    assert not at.subheader  # no position in focus


def test_an_unknown_theme_is_named(open_page):
    at = open_page(PAGE, kind="endgame")
    notice = the_one_notice(at, "kind")
    assert "ignored endgame (not one of All themes, Opening" in notice
    assert "using All themes" in notice


def test_the_table_lists_the_filter_with_a_csv(open_page):
    at = open_page(PAGE, sec="Table", kind="Bear-offs")
    assert not at.exception
    frame = at.dataframe[0].value
    bearoffs = [i for i in library.library() if i.theme == "bear-off"]
    assert list(frame["id"]) == [i.id for i in bearoffs]
    assert at.get("download_button")


def test_a_disputed_decision_shows_its_rollout(open_page):
    at = open_page(PAGE, kind="Blitzes")
    rollout = library.stored_rollout("blitz-anchored", "money")
    assert rollout is not None
    text = markdown(at)
    assert "one ply deeper (4-ply) the engine says" in text
    assert f"A rollout of {rollout.trials} games says **{rollout.action}**" in text


def test_a_position_in_focus_links_to_its_drill_at_each_score(open_page):
    item = library.library_position("holding-18pt")
    at = open_page(PAGE, lib=item.id)
    links = [e for e in at.get("page_link") if e.proto.label.startswith("Drill this position")]
    assert len(links) == 1
    query = dict(parse_qsl(links[0].proto.query_string))
    drills = open_page("pages/drills.py", **query)
    assert not drills.exception and not warnings(drills)
    assert drills.session_state["lib"] == item.id
    # the quiz asks this position, and only it, at its scores
    ids = [c.value for c in drills.caption if "Position ID" in c.value]
    assert ids and all(item.position_id in text for text in ids), ids
