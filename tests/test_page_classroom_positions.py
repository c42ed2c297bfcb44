"""AppTests of the class's position votes: the teacher's form, a student's vote, bad input.

Each session is its own AppTest on one store (a SQLite file in a temp data directory).
An illegal XGID or an unknown library id in a link is named on the teacher's screen and
nothing is asked; a student's bad estimate is named and nothing is stored; a vote sent
for a question that is no longer open is refused by the store (tests/
test_classroom_positions.py) and named on the student's screen.
"""

from __future__ import annotations

import pytest

from cubecore import library
from store import Classroom, database_url
from tests.test_page_classroom import button, join, open_room, shown_text
from ui.classroom import positions

PAGE = "pages/classroom.py"
LIBRARY_ID = "early-start"


#: every test on a fresh data directory of its own (tests/databases.py)
pytestmark = pytest.mark.usefixtures("data_dir")


@pytest.fixture
def store(data_dir):
    classroom = Classroom(database_url())
    yield classroom
    classroom.dispose()


def ask_position(at, pick: str = "", paste: str = ""):
    if pick:
        at.selectbox(key=positions.PICK).set_value(pick)
    at.text_input(key=positions.PASTE).input(paste)
    return button(at, "Pose this position").click().run()


def test_the_teacher_asks_a_library_position_and_sees_the_board_and_the_count(open_page, store):
    at, presenter = open_room(open_page)
    ask_position(at, pick=LIBRARY_ID)
    assert not at.exception
    title = library.library_position(LIBRARY_ID).title
    assert f"{title}. Money play" in shown_text(at).replace("\\", "")
    assert next(m.value for m in at.metric if m.label == "Votes") == "0"
    asked = store.presenter_question(presenter["code"], presenter["secret"], 1)
    assert asked.position is not None and asked.position.library_id == LIBRARY_ID


@pytest.mark.parametrize(
    ("paste", "words"),
    [
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1", "an XGID must have 10 fields"),
        ("https://lab.example/library?lib=no-such-position", "The library has no position"),
        ("", "Choose a position from the library or paste one first"),
    ],
)
def test_a_bad_position_is_named_and_nothing_is_asked(open_page, store, paste, words):
    at, presenter = open_room(open_page)
    ask_position(at, paste=paste)
    assert not at.exception
    assert any(words in error.value.replace("\\", "") for error in at.error), [
        e.value for e in at.error
    ]
    assert store.presenter_room(presenter["code"], presenter["secret"]).questions == 0


def test_a_student_sees_the_board_and_votes_with_an_estimate(open_page, store):
    _, presenter = open_room(open_page)
    code, secret = presenter["code"], presenter["secret"]
    store.ask_position(code, secret, LIBRARY_ID)
    ann = join(open_page, code, "Ann")
    assert [b.label for b in ann.button if b.label in positions.VOTE_WORDS.values()] == [
        "No double",
        "Double, take",
        "Double, pass",
    ]
    ann.text_input(key=f"classroom_estimate_{code}_1").input("101")
    button(ann, "Double, take").click().run()
    assert any("from 0 to 100" in e.value for e in ann.error)
    assert store.tally(code, secret, 1).count == 0
    ann.text_input(key=f"classroom_estimate_{code}_1").input("62")
    button(ann, "Double, take").click().run()
    assert "Your vote: Double, take (your winning chance: 62%)" in shown_text(ann)
    assert store.my_vote(code, 1, ann.session_state["_student_token"]) == ("DT", 62.0)
    store.reveal(code, secret, 1)
    ann.run()
    verdict = library.evaluation(LIBRARY_ID).verdict
    assert (
        next(m.value for m in ann.metric if m.label == "Verdict")
        == (positions.VERDICT_WORDS[verdict])
    )


def test_a_vote_sent_after_the_teacher_moved_on_is_named_and_not_stored(open_page, store):
    _, presenter = open_room(open_page)
    code, secret = presenter["code"], presenter["secret"]
    store.ask_position(code, secret, LIBRARY_ID)
    ann = join(open_page, code, "Ann")
    store.ask_position(code, secret, "sOfgATBwz8EDCA")  # the teacher moves on
    button(ann, "No double").click().run()  # the old form's button, still on screen
    assert any("Question 1 is closed" in e.value for e in ann.error), [e.value for e in ann.error]
    assert store.tally(code, secret, 1).count == 0
