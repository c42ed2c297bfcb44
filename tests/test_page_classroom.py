"""AppTests of the classroom page: a presenter and students in separate sessions.

Each session is its own AppTest on one store (a SQLite file in a temp data directory),
as phones and the projector are separate sessions of one server.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import plotly.graph_objects as go
import pytest

from store import CLIENT_CODE_MISSES, Classroom, database_url
from ui.classroom.sections import PRESENTER

PAGE = "pages/classroom.py"
HTML_NICK = "<b>x</b>[a](http://e)"
EXPLANATION = "TP = (L - 1/2)/(W + L) = 22% < your 25% [x](http://e)"


#: every test on a fresh data directory of its own (tests/databases.py)
pytestmark = pytest.mark.usefixtures("data_dir")


@pytest.fixture
def store(data_dir):
    classroom = Classroom(database_url())
    yield classroom
    classroom.dispose()


def shown_text(at) -> str:
    """Everything a session's screen shows as text."""
    parts = []
    for kind in ("markdown", "caption", "code", "error", "success", "info", "warning"):
        parts += [str(element.value) for element in getattr(at, kind)]
    parts += [f"{m.label} {m.value}" for m in at.metric]
    parts += [str(t.value) for t in at.text_input]
    return "\n".join(parts)


def button(at, label: str):
    return next(b for b in at.button if b.label == label)


def metric(at, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def open_room(open_page):
    at = open_page(PAGE, sec="Present")
    at.button(key="classroom_open").click().run()
    assert not at.exception
    return at, at.session_state[PRESENTER]


def ask_choice(at, prompt="Take or pass?", options="Take\nPass", key="Take"):
    at.radio(key="classroom_kind").set_value("Multiple choice")
    at.text_input(key="classroom_prompt").input(prompt)
    at.text_area(key="classroom_options").input(options)
    at.text_input(key="classroom_key").input(key)
    at.text_input(key="classroom_explanation").input(EXPLANATION)
    return button(at, "Ask").click().run()


def join(open_page, code: str, nickname: str, *, via_link: bool = True):
    at = open_page(PAGE, room=code) if via_link else open_page(PAGE)
    if not via_link:
        at.text_input(key="classroom_join_code").input(code)
    at.text_input(key="classroom_join_nickname").input(nickname)
    return button(at, "Join the room").click().run()


def test_a_presenter_opens_a_room_and_the_student_link_has_only_the_code(open_page):
    at, presenter = open_room(open_page)
    assert metric(at, "Room code") == presenter["code"]
    link = next(c.value for c in at.code if "/classroom?" in c.value)
    assert link.endswith(f"/classroom?room={presenter['code']}")
    assert presenter["secret"] not in link
    assert at.query_params.get("room") in (None, [presenter["code"]], presenter["code"])
    assert "Pose a question" in shown_text(at)


def test_a_round_presenter_and_two_students(open_page, store):
    presenter_at, presenter = open_room(open_page)
    presenter_at = ask_choice(presenter_at)
    assert not presenter_at.exception and not presenter_at.error
    code = presenter["code"]
    ann = join(open_page, code, "Ann")
    bo = join(open_page, code, "Bo", via_link=False)
    for student, choice in ((ann, "Take"), (bo, "Pass")):
        assert "Take or pass?" in shown_text(student)
        student.radio(key=f"classroom_answer_{code}_1").set_value(choice)
        button(student, "Send my answer").click().run()
        assert not student.exception and not student.error, shown_text(student)
        assert f"Your answer: {choice}" in shown_text(student)
    presenter_at.run()
    assert metric(presenter_at, "Answers") == "2"
    assert "Ann" not in shown_text(presenter_at)  # the projector shows counts, not names
    button(presenter_at, "Reveal the answer").click().run()
    assert metric(presenter_at, "The answer") == "Take"
    assert metric(presenter_at, "Right") == "1 of 2"
    shown = shown_text(presenter_at)
    assert "\\[x\\]\\(http" in shown and "TP \\= \\(L \\- 1/2\\)" in shown  # escaped: no link
    ann.run()
    bo.run()
    assert metric(ann, "The answer") == "Take" and "You answered Take: right" in shown_text(ann)
    assert "You answered Pass: not this time" in shown_text(bo)
    assert "TP \\= \\(L \\- 1/2\\)" in shown_text(bo)
    assert store.tally(code, presenter["secret"], 1).choice_counts() == {"Take": 1, "Pass": 1}
    for session in (presenter_at, ann):
        (chart,) = session.get("plotly_chart")
        figure = go.Figure(json.loads(chart.proto.spec))  # raises on an invalid property
        assert list(figure.data[0].y) == [1, 1]


def test_a_student_sees_neither_the_presenter_key_nor_other_students(open_page, store):
    _, presenter = open_room(open_page)
    code = presenter["code"]
    store.ask(
        code, presenter["secret"], kind="numeric", prompt="Pips?", answer_key="8", tolerance=1
    )
    ann = join(open_page, code, "Ann")
    bo = join(open_page, code, "Bo")
    for student, value in ((ann, "8"), (bo, "9.5")):
        student.text_input(key=f"classroom_answer_{code}_1").input(value)
        button(student, "Send my answer").click().run()
    store.reveal(code, presenter["secret"], 1)
    ann.run()
    text = shown_text(ann)
    assert presenter["secret"] not in text
    assert "Bo" not in text and "Reveal the answer" not in text
    assert "You answered 8: right" in text
    (chart,) = ann.get("plotly_chart")
    figure = go.Figure(json.loads(chart.proto.spec))
    assert sorted(figure.data[0].x) == [8.0, 9.5]
    assert figure.layout.shapes[0].x0 == 8.0  # the exact answer, drawn after the reveal


def test_a_re_submit_replaces_and_a_double_click_is_one_answer(open_page, store):
    _, presenter = open_room(open_page)
    code = presenter["code"]
    store.ask(code, presenter["secret"], kind="numeric", prompt="?", answer_key="1")
    ann = join(open_page, code, "Ann")
    field = f"classroom_answer_{code}_1"
    for value in ("2", "3", "3"):
        ann.text_input(key=field).input(value)
        button(ann, "Send my answer").click().run()
    assert store.tally(code, presenter["secret"], 1).values == ("3",)


def test_an_unknown_room_code_is_named(open_page):
    at = join(open_page, "ABCDEFGHJ", "Ann")
    assert [e.value for e in at.error] == [
        "There is no room ABCDEFGHJ\\: check the code with your presenter\\."
    ]


def test_a_presenter_key_as_a_student_code_is_refused(open_page):
    _, presenter = open_room(open_page)
    at = join(open_page, presenter["secret"], "Ann", via_link=False)
    assert "That is a presenter key, not a room code" in at.error[0].value
    assert presenter["secret"] not in shown_text(at).replace(
        at.text_input(key="classroom_join_code").value, ""
    )


def test_an_expired_room_is_named(open_page, data_dir):
    old = Classroom(database_url(), clock=lambda: datetime.now(UTC) - timedelta(hours=5))
    room = old.open_room()
    old.dispose()
    at = join(open_page, room.code, "Ann")
    assert at.error[0].value == f"Room {room.code} has expired\\."


@pytest.mark.parametrize(
    ("nickname", "message"),
    [
        ("", "The nickname is empty"),
        ("\u202eevil", "invisible or control characters"),
    ],
)
def test_a_bad_nickname_is_named(open_page, nickname, message):
    _, presenter = open_room(open_page)
    at = join(open_page, presenter["code"], nickname)
    assert message in at.error[0].value


def test_an_option_with_markup_is_escaped_in_the_chart(open_page, store):
    _, presenter = open_room(open_page)
    code = presenter["code"]
    store.ask(
        code,
        presenter["secret"],
        kind="choice",
        prompt="?",
        options=['<a href="http://e">x</a>', "y"],
        answer_key="y",
    )
    ann = join(open_page, code, "Ann")
    ann.radio(key=f"classroom_answer_{code}_1").set_value('<a href="http://e">x</a>')
    button(ann, "Send my answer").click().run()
    store.reveal(code, presenter["secret"], 1)
    ann.run()
    spec = json.loads(ann.get("plotly_chart")[0].proto.spec)
    assert spec["data"][0]["x"] == ["&lt;a href=&quot;http://e&quot;&gt;x&lt;/a&gt;", "y"]


@pytest.mark.parametrize("nickname", [HTML_NICK, "שרה"])
def test_a_nickname_is_shown_as_plain_text(open_page, nickname):
    _, presenter = open_room(open_page)
    at = join(open_page, presenter["code"], nickname)
    assert not at.error
    line = next(m.value for m in at.markdown if "you are" in m.value)
    if nickname == HTML_NICK:
        assert "\\<b\\>" in line and "\\[a\\]\\(http" in line  # escaped: no tag, no link
    else:
        assert nickname in line


def test_a_bad_answer_is_named_and_not_stored(open_page, store):
    _, presenter = open_room(open_page)
    code = presenter["code"]
    store.ask(code, presenter["secret"], kind="numeric", prompt="?", answer_key="1")
    ann = join(open_page, code, "Ann")
    ann.text_input(key=f"classroom_answer_{code}_1").input("<script>alert(1)</script>")
    button(ann, "Send my answer").click().run()
    assert "The answer is not a number" in ann.error[0].value
    assert store.tally(code, presenter["secret"], 1).count == 0


def test_wrong_room_codes_are_limited_per_address_not_per_session(open_page):
    """Issue #38 item 4: a fresh session no longer resets the limit on tried codes."""
    _, presenter = open_room(open_page)
    at = open_page(PAGE)
    for k in range(CLIENT_CODE_MISSES.count):
        at.text_input(key="classroom_join_code").input(f"ABCDEFGH{'23456789A'[k % 9]}")
        at.text_input(key="classroom_join_nickname").input("Ann")
        at = button(at, "Join the room").click().run()
        assert "There is no room" in at.error[0].value
    fresh = join(open_page, presenter["code"], "Ann")  # a new session, the right code
    assert "Too many wrong room codes have been tried from your network" in fresh.error[0].value


def test_a_bad_question_is_named(open_page):
    at, _ = open_room(open_page)
    at = ask_choice(at, options="Take", key="Take")
    assert "A choice question has 2 to 6 options \\(got 1\\)" in at.error[0].value


def test_a_closed_room_refuses_students_and_keeps_its_csv(open_page, store):
    at, presenter = open_room(open_page)
    ask_choice(at)
    code = presenter["code"]
    ann = join(open_page, code, "Ann")
    ann.radio(key=f"classroom_answer_{code}_1").set_value("Take")
    button(ann, "Send my answer").click().run()
    at.run()
    button(at, "Close the room").click().run()
    assert "The room is closed" in shown_text(at)
    assert at.get("download_button"), "the presenter keeps the CSV download"
    late = join(open_page, code, "Bo")
    assert late.error[0].value == f"Room {code} was closed by its presenter\\."
    assert "Ann" in store.answers_csv(code, presenter["secret"])


def test_a_presenter_resumes_a_room_with_the_key_and_not_without(open_page):
    _, presenter = open_room(open_page)
    other = open_page(PAGE, sec="Present")
    other.text_input(key="classroom_resume_code").input(presenter["code"])
    other.text_input(key="classroom_resume_key").input("wrong-key")
    button(other, "Resume").click().run()
    assert "The presenter key does not match room" in other.error[0].value
    other.text_input(key="classroom_resume_code").input(presenter["code"])
    other.text_input(key="classroom_resume_key").input(presenter["secret"])
    button(other, "Resume").click().run()
    assert metric(other, "Room code") == presenter["code"]


def test_a_drill_question_is_posed_with_the_key_the_app_computes(open_page, store):
    from cubecore import drills

    at, presenter = open_room(open_page)
    at.selectbox(key="classroom_drill_topic").set_value("janowski")
    at.slider(key="classroom_drill_level").set_value(2)
    at.number_input(key="classroom_drill_seed").set_value(7)
    button(at, "Ask this drill question").click().run()
    assert not at.exception
    expected = drills.quiz("janowski", 7, 2, 1)[0]
    question = store.presenter_question(presenter["code"], presenter["secret"], 1)
    assert question.prompt.startswith(expected.prompt[:80])
    assert question.answer_key == expected.answer
    assert question.options == expected.choices
    assert question.kind == "choice"


def test_the_presenter_removes_a_student_whose_answer_goes_with_them(open_page, store):
    """Issue #38 item 3: the presenter can remove a student (a stranger in the room)."""
    at, presenter = open_room(open_page)
    ask_choice(at)
    code = presenter["code"]
    bots = []
    for nickname in ("Ann", "bot"):
        student = join(open_page, code, nickname)
        student.radio(key=f"classroom_answer_{code}_1").set_value("Pass")
        button(student, "Send my answer").click().run()
        bots.append(student)
    at.run()
    assert metric(at, "Answers") == "2"
    assert "Students (2)" in [e.label for e in at.expander]
    bot = next(s for s in store.students(code, presenter["secret"]) if s.nickname == "bot")
    at.button(key=f"classroom_remove_{bot.number}").click().run()
    assert not at.exception
    assert metric(at, "Answers") == "1"
    assert "Students (1)" in [e.label for e in at.expander]
    bots[1].run()
    assert f"The presenter has removed you from room {code}" in bots[1].error[0].value
    again = join(open_page, code, "bot2")  # a fresh session is a fresh visitor: limits apply
    assert not again.error


def test_a_student_who_opens_the_room_link_again_is_back_in_the_room(open_page, store):
    """Issue #37 item 3 in AppTest: a new session of the same visitor (the cookie's token)
    with the room link is the same student, with their answer."""
    from streamlit.testing.v1 import AppTest

    from tests.conftest import APP
    from ui import student

    _, presenter = open_room(open_page)
    code = presenter["code"]
    store.ask(code, presenter["secret"], kind="numeric", prompt="Pips?", answer_key="8")
    ann = join(open_page, code, "Ann")
    ann.text_input(key=f"classroom_answer_{code}_1").input("8")
    button(ann, "Send my answer").click().run()
    reload = AppTest.from_file(APP, default_timeout=60)
    reload.session_state[student.SESSION_KEY] = ann.session_state[student.SESSION_KEY]
    reload.query_params["room"] = code
    reload.switch_page(PAGE).run()
    assert not reload.exception
    assert "you are **Ann**" in shown_text(reload)
    assert "Your answer: 8" in shown_text(reload)
    assert not [b for b in reload.button if b.label == "Join the room"]
    assert store.tally(code, presenter["secret"], 1).count == 1
