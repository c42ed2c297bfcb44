"""AppTests of the drills page's real positions and review (the rest of the page:
test_page_drills.py): a seeded quiz shows the same positions in two sessions, an
answer is graded against the stored verdict and kept under the student's token, the
review brings back exactly the wrongly answered positions in Leitner's order, and a
bad library id in a link is named with nothing stored."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from streamlit.testing.v1 import AppTest

from cubecore import review
from cubecore.position_drills import grade_position, position_quiz
from store import new_student_id
from store.position_answers import PositionAnswers
from store.schema import position_answers
from tests.conftest import APP
from tests.links import the_one_notice
from ui import student

PAGE = "pages/drills.py"
LINK = {"topic": "take", "level": "2", "n": "4", "seed": "314"}
POSITION_ID = "gnubg Position ID "


#: the page's store is a fresh SQLite file of each test (tests/databases.py)
pytestmark = pytest.mark.usefixtures("data_dir")


def opened(token: str, **params: str) -> AppTest:
    """The drills page with ``params``, as the student with ``token``."""
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in params.items():
        at.query_params[key] = value
    at.session_state[student.SESSION_KEY] = token
    at.switch_page(PAGE).run()
    assert not at.exception
    return at


def shown_positions(at: AppTest) -> list[str]:
    """The Position IDs under the boards, in order."""
    return [
        c.value.removeprefix(POSITION_ID) for c in at.caption if c.value.startswith(POSITION_ID)
    ]


def grade_all(at: AppTest, answers: list[str]) -> AppTest:
    for radio, answer in zip(
        (r for r in at.radio if r.key.startswith("drill-pos-all")), answers, strict=True
    ):
        radio.set_value(answer)
    next(b for b in at.button if b.label == "Grade my answers").click().run()
    assert not at.exception
    return at


def kept_rows(token: str) -> int:
    book = PositionAnswers()
    try:
        with book.engine.connect() as db:
            return db.execute(
                sa.select(sa.func.count())
                .select_from(position_answers)
                .where(position_answers.c.token == token)
            ).scalar_one()
    finally:
        book.dispose()


def test_a_seeded_position_quiz_is_the_same_in_two_sessions():
    quiz = position_quiz("take", 314, 2, 4)
    first = opened(new_student_id(), sec="All at once", **LINK)
    second = opened(new_student_id(), sec="All at once", **LINK)
    expected = [q.position.position_id for q in quiz]
    assert shown_positions(first) == expected == shown_positions(second)
    prompts = [m.value for m in first.markdown if m.value.startswith("**Question ")]
    assert len(prompts) == 4 and "should his opponent take or pass" in prompts[0]
    other = opened(new_student_id(), sec="All at once", **{**LINK, "seed": "315"})
    assert shown_positions(other) != expected


def test_an_answer_is_graded_against_the_stored_verdict_and_kept():
    token = new_student_id()
    question = position_quiz("take", 314, 2, 4)[0]
    wrong = next(c for c in question.choices if c != question.answer)
    at = opened(token, **LINK)
    assert shown_positions(at) == [question.position.position_id]
    at.radio[0].set_value(wrong)
    next(b for b in at.button if b.label == "Check").click().run()
    assert not at.exception
    expected = grade_position(question, wrong)
    assert [e.value for e in at.error] == [expected.message]
    assert f"it says {question.answer}" in expected.message
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Your error"] == f"{expected.millipoints:.0f} millipoints"
    assert metrics["The engine's answer"] == question.answer
    assert metrics["Score"] == "0 / 1"
    link = at.get("page_link")[0].proto
    assert link.page.endswith("position")
    assert kept_rows(token) == 1
    # a reload (a new session of the same student) keeps the graded answer
    again = opened(token, **LINK)
    assert [e.value for e in again.error] == [expected.message]


def test_the_review_brings_back_exactly_the_wrong_positions_in_the_boxes_order():
    token = new_student_id()
    link = {"topic": "double", "level": "2", "n": "6", "seed": "8"}
    quiz = position_quiz("double", 8, 2, 6)
    answers = [
        q.answer if index % 3 == 1 else next(c for c in q.choices if c not in q.accepted)
        for index, q in enumerate(quiz)
    ]
    grade_all(opened(token, sec="All at once", **link), answers)
    wrong = [q.card for q, given in zip(quiz, answers, strict=True) if given not in q.accepted]
    assert len(wrong) == 4
    book = PositionAnswers()
    try:
        due = review.due_cards(review.cards(book.review_answers(token)), book.now())
    finally:
        book.dispose()
    assert [card.key for card in due] == wrong  # box 1 each, the first missed first
    at = opened(token, sec="All at once", topic="review", n="10")
    by_card = {q.card: q.position.position_id for q in quiz}
    assert shown_positions(at) == [by_card[card] for card in wrong]
    rates = {m.label: m.value for m in at.metric}
    assert rates["Due now"] == "4"
    # another student has nothing to review
    other = opened(new_student_id(), topic="review")
    assert shown_positions(other) == []
    assert any("Nothing to review now" in i.value for i in other.info)


def test_an_unknown_library_id_in_a_link_is_named_and_nothing_is_stored():
    token = new_student_id()
    at = opened(token, topic="score", lib="no-such-position", n="3", seed="1")
    notice = the_one_notice(at, "lib").replace("\\", "")
    assert "no position in the library is called no-such-position" in notice
    assert kept_rows(token) == 0


def test_one_library_position_at_each_score():
    at = opened(
        new_student_id(), sec="All at once", topic="score", lib="early-start", n="10", seed="1"
    )
    quiz = position_quiz("score", 1, 1, 10, "early-start")
    assert shown_positions(at) == [q.position.position_id for q in quiz]
    assert len(quiz) == 6


def test_presenter_mode_shows_the_board_and_the_verdict():
    token = new_student_id()
    at = opened(token, present="true", **LINK)
    assert shown_positions(at)
    at.radio[0].set_value(at.radio[0].options[0])
    next(b for b in at.button if b.label == "Check").click().run()
    assert not at.exception
    assert at.success or at.error
    assert kept_rows(token) == 1
    shown = opened(token, present="true", topic="review")
    assert shown.metric and (shown_positions(shown) or shown.info)
    # the key is the visitor's identity (a class's too): never on a projector
    assert token not in [c.value for c in shown.code]
    assert not [t for t in shown.text_input if t.key == "drill-token"]


def test_a_student_takes_their_review_to_another_device_with_their_key():
    token = new_student_id()
    quiz = position_quiz("take", 314, 2, 4)
    wrong = next(c for c in quiz[0].choices if c != quiz[0].answer)
    at = opened(token, **LINK)
    at.radio[0].set_value(wrong)
    next(b for b in at.button if b.label == "Check").click().run()
    assert kept_rows(token) == 1
    # the first device shows the key; the second pastes it and sees the same review
    first = opened(token, topic="review")
    assert token in [c.value for c in first.code]
    own = new_student_id()
    device = opened(own, topic="review")
    assert shown_positions(device) == []
    box = next(t for t in device.text_input if t.key == "drill-token")
    box.input("not a key").run()
    next(b for b in device.button if b.label == "Use this key").click().run()
    assert any("not a review key" in e.value for e in device.error)
    assert shown_positions(device) == []
    next(t for t in device.text_input if t.key == "drill-token").input(token).run()
    next(b for b in device.button if b.label == "Use this key").click().run()
    assert not device.exception
    assert shown_positions(device) == [quiz[0].position.position_id]
    codes = [c.value for c in device.code]
    assert token in codes and own not in codes


def test_the_verdicts_and_the_review_read_in_players_words():
    """No code name, backtick or internal key in the texts of an answered position quiz
    (every topic) and of the review (tests.words, as the common page tests scan)."""
    from tests.words import developer_words, table_decimals, visible_texts
    from ui.drills.controls import TOPIC

    internal = {o for o, label in TOPIC.option_labels if o != label}
    token = new_student_id()
    views = []
    for topic in ("double", "take", "score"):
        quiz = position_quiz(topic, 5, 2, 2)
        at = opened(token, sec="All at once", topic=topic, level="2", n="2", seed="5")
        views.append(grade_all(at, [q.choices[-1] for q in quiz]))
    views.append(opened(token, sec="All at once", topic="review", n="10"))
    found = [
        f"{where}: {words} in {text[:120]!r}"
        for at in views
        for where, text in visible_texts(at)
        if (words := developer_words(text, internal))
    ]
    assert found == [], "\n".join(found)
    assert all(decimals <= 4 for at in views for *_, decimals in table_decimals(at))


def test_the_review_takes_in_answers_given_since_it_was_opened():
    token = new_student_id()
    at = opened(token, **LINK)
    topic = at.selectbox(key="topic")
    topic.set_value("Review: the positions you got wrong").run()
    assert shown_positions(at) == []
    # the same session goes back to the quiz, misses its first position, comes back
    at.selectbox(key="topic").set_value("Take or pass?").run()
    quiz = position_quiz("take", 314, 2, 4)
    assert shown_positions(at) == [quiz[0].position.position_id]
    at.radio[0].set_value(next(c for c in quiz[0].choices if c != quiz[0].answer))
    next(b for b in at.button if b.label == "Check").click().run()
    at.selectbox(key="topic").set_value("Review: the positions you got wrong").run()
    assert not at.exception
    assert shown_positions(at) == [quiz[0].position.position_id]


def test_a_library_position_with_a_formula_topic_says_it_is_not_used():
    token = new_student_id()
    at = opened(token, topic="take_point", lib="holding-18pt")
    assert not at.exception
    assert any("asked only by the real-position topics" in c.value for c in at.caption)
    plain = opened(token, topic="take_point")
    assert not any("asked only by the real-position topics" in c.value for c in plain.caption)
