"""AppTests of the drills page: what is its own (common behaviour: test_pages_common.py)."""

from __future__ import annotations

import io

import pandas as pd
from streamlit.testing.v1 import AppTest

from cubecore import drills
from store import new_student_id
from tests.conftest import APP
from ui import student
from ui.drills import sections

PAGE = "pages/drills.py"
LINK = {"topic": "match_equity", "level": "2", "n": "5", "seed": "77"}


def shown_prompts(at) -> list[str]:
    """The question prompts of the "All at once" form, in order."""
    return [m.value.split("** ", 1)[1] for m in at.markdown if m.value.startswith("**Question ")]


def plain(text: str) -> str:
    """Markdown-escaped text back to plain text."""
    out, escaped = [], False
    for char in text:
        if char == "\\" and not escaped:
            escaped = True
            continue
        out.append(char)
        escaped = False
    return "".join(out)


def test_the_same_link_gives_the_same_quiz_in_two_fresh_sessions(open_page):
    first = open_page(PAGE, sec="All at once", **LINK)
    second = open_page(PAGE, sec="All at once", **LINK)
    assert not first.exception and not second.exception
    expected = [q.prompt for q in drills.quiz("match_equity", 77, 2, 5)]
    assert [plain(p) for p in shown_prompts(first)] == expected
    assert shown_prompts(first) == shown_prompts(second)
    other = open_page(PAGE, sec="All at once", **{**LINK, "seed": "78"})
    assert shown_prompts(other) != shown_prompts(first)


def test_one_by_one_shows_the_links_first_question(open_page):
    at = open_page(PAGE, **LINK)
    assert not at.exception
    question = drills.quiz("match_equity", 77, 2, 5)[0]
    assert any(m.value == question.prompt for m in at.markdown)
    assert at.subheader[0].value == "Question 1 of 5"


def submit(at):
    """Click the form's submit button."""
    for button in at.button:
        if button.label in ("Check", "Grade my answers"):
            return button.click().run()
    raise AssertionError(f"no submit button: {[b.label for b in at.button]}")


def test_a_right_answer_is_graded_with_formula_source_and_link(open_page):
    at = open_page(PAGE, **LINK)
    question = drills.quiz("match_equity", 77, 2, 5)[0]
    box = next(t for t in at.text_input if t.key.startswith("drill-one-answer"))
    box.input(f"{question.answer + 0.4:.2f}")
    submit(at)
    assert not at.exception
    assert at.success and at.success[0].value.startswith("Correct")
    assert question.formula in at.latex[0].value
    links = at.get("page_link")
    assert links and links[0].proto.page.endswith("cube")
    # the link is the quiz, never the answer; the topic in today's spelling, its label
    today = {**LINK, "topic": drills.TOPICS["match_equity"].title}
    assert {key: at.query_params[key] for key in at.query_params} == today
    assert [m.value for m in at.metric if m.label == "Score"] == ["1 / 1"]


def test_a_wrong_answer_and_the_next_question(open_page):
    at = open_page(PAGE, **LINK)
    question = drills.quiz("match_equity", 77, 2, 5)[0]
    box = next(t for t in at.text_input if t.key.startswith("drill-one-answer"))
    box.input(f"{question.answer + 5:.2f}%")
    submit(at)
    assert at.error and at.error[0].value.startswith("Not quite")
    assert [m.value for m in at.metric if m.label == "Score"] == ["0 / 1"]
    at.button(key="drill-next").click().run()
    assert at.subheader[0].value == "Question 2 of 5"
    assert [m.value for m in at.metric if m.label == "Answered"] == ["1 of 5"]


def test_a_bad_answer_is_named_and_not_counted(open_page):
    at = open_page(PAGE, **LINK)
    box = next(t for t in at.text_input if t.key.startswith("drill-one-answer"))
    box.input("[click](http://x.test)")
    submit(at)
    assert not at.exception
    assert at.error and "not graded: `answer` must be a number" in plain(at.error[0].value)
    # the pasted text is shown escaped: no Markdown link
    assert "](" not in at.error[0].value
    assert [m.value for m in at.metric if m.label == "Answered"] == ["0 of 5"]


def test_a_choice_question(open_page):
    at = open_page(PAGE, topic="janowski", level="1", n="3", seed="5")
    question = drills.quiz("janowski", 5, 1, 3)[0]
    at.radio[0].set_value(question.answer)
    submit(at)
    assert at.success and question.answer in at.success[0].value


def test_all_at_once_grades_the_answers_and_offers_the_csv(open_page):
    at = open_page(PAGE, sec="All at once", **LINK)
    questions = drills.quiz("match_equity", 77, 2, 5)
    boxes = [t for t in at.text_input if t.key.startswith("drill-all-answer")]
    assert len(boxes) == 5
    boxes[0].input(f"{questions[0].answer:.3f}")
    boxes[1].input(f"{questions[1].answer + 3:.3f}")
    submit(at)
    assert not at.exception
    assert [m.value for m in at.metric if m.label == "Score"] == ["1 / 2"]
    shown = at.dataframe[0].value
    assert shown["correct"].tolist()[:3] == ["yes", "no", "—"]  # not answered: not applicable
    # an exact answer only once its question is answered (issue #37 item 1)
    keys = [q.shown_answer for q in questions[:2]]
    assert shown["exact answer"].tolist()[:2] == keys
    assert not any(q.shown_answer in shown.to_csv() for q in questions[2:])
    # the CSV is exactly the table shown
    state = {"answers": {0: drills.grade(questions[0], f"{questions[0].answer:.3f}")}}
    state["answers"][1] = drills.grade(questions[1], f"{questions[1].answer + 3:.3f}")
    frame = sections.attempt_table(questions, state)
    csv = pd.read_csv(io.StringIO(frame.to_csv(index=False)))
    assert csv["prompt"].tolist() == [q.prompt for q in questions]
    assert csv["correct"].tolist()[:2] == [True, False]
    assert any(b.label == "Download CSV" for b in at.get("download_button"))


def test_the_link_to_the_explaining_view_names_its_tab():
    # handed over as ~key: Streamlit drops a key the page left binds (sec)
    question = drills.quiz("janowski", 5, 1, 1)[0]
    query = sections.page_query(question)
    assert query["~sec"] == "Decisions"
    assert {key: query[f"~{key}"] for key in ("P", "x", "W", "L")} == {
        key: question.query[key] for key in ("P", "x", "W", "L")
    }
    race = drills.quiz("race", 5, 1, 1)[0]
    assert sections.page_query(race) == {"~pos": race.query["pos"], "~sec": "Position and counts"}


def _as_student(token: str, **params):
    """A fresh session of the drills page for the visitor with identity ``token``."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state[student.SESSION_KEY] = token  # what a reload reads back from the cookie
    for key, value in params.items():
        at.query_params[key] = value
    return at.switch_page(PAGE).run()


def test_a_reload_keeps_the_drill_score(data_dir):
    """Issue #37 item 16: a new session of the same student and quiz link has the score."""
    me = new_student_id()
    at = _as_student(me, **LINK)
    question = drills.quiz("match_equity", 77, 2, 5)[0]
    next(t for t in at.text_input if t.key.startswith("drill-one-answer")).input(
        f"{question.answer:.2f}"
    )
    submit(at)
    assert [m.value for m in at.metric if m.label == "Score"] == ["1 / 1"]
    again = _as_student(me, **LINK)  # the reload: a new session, the same cookie
    assert not again.exception
    assert [m.value for m in again.metric if m.label == "Score"] == ["1 / 1"]
    assert again.success and again.success[0].value.startswith("Correct")
    other_quiz = _as_student(me, **{**LINK, "seed": "78"})
    assert [m.value for m in other_quiz.metric if m.label == "Answered"] == ["0 of 5"]
    someone_else = _as_student(new_student_id(), **LINK)
    assert [m.value for m in someone_else.metric if m.label == "Answered"] == ["0 of 5"]


def test_a_student_who_gives_up_sees_that_answer_only(data_dir):
    """Issue #37 item 1: an answer is shown once answered or given up on, not before."""
    me = new_student_id()
    questions = drills.quiz("match_equity", 77, 2, 5)
    at = _as_student(me, **LINK)
    at.button(key="drill-give-up").click().run()
    assert not at.exception
    assert at.info[0].value.endswith(f"the exact value is {questions[0].shown_answer}.")
    assert next(b for b in at.button if b.label == "Check").disabled
    shown = at.dataframe[0].value
    assert shown["exact answer"].tolist()[0] == questions[0].shown_answer
    assert not any(q.shown_answer in shown.to_csv() for q in questions[1:])
    assert [m.value for m in at.metric if m.label == "Answered"] == ["0 of 5"]
    again = _as_student(me, **LINK)  # kept across a reload, like an answer
    assert again.info and questions[0].shown_answer in again.info[0].value
