"""Drills page: one question at a time, or the whole quiz as one form.

The quiz comes from the link (topic, level, n, seed); the answers are never in the link:
they are kept in the store by the student's identity token (:mod:`ui.student`) and the
quiz, so a reload (on any app process) keeps the attempt and its score.
"""

from __future__ import annotations

from types import ModuleType

import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from cubecore import drills
from cubecore.position_drills import POSITION_TOPICS
from cubecore.references import source
from ui import student, widgets
from ui.drills import data, positions
from ui.drills.controls import REVIEW
from ui.links import escape_text
from ui.pages import PAGES, link_query
from ui.skeleton import SECTION_KEY, View
from ui.style import NOT_APPLICABLE
from ui.warmup import WARM_UP

_ATTEMPTS = "_drill_attempts"
#: What the store keeps for a question the student gave up on (never a graded answer).
_GAVE_UP = "gave up"
_FILES = {spec.url_path: spec for spec in PAGES}


class Attempt(positions.Shown):
    """One quiz's attempt in Session State: grades and messages by question, the questions
    given up on (their answer shown, no longer graded), the one shown."""

    answers: dict[int, drills.Grade]
    errors: dict[int, str]
    gave_up: list[int]


def _quiz(v: View) -> tuple[str, tuple[drills.Question, ...]]:
    topic, level, count, seed = v.text("topic"), v.whole("level"), v.whole("n"), v.whole("seed")
    signature = f"{topic}-L{level}-n{count}-s{seed}"
    if topic == "race":  # its bear-off questions read the two-sided database
        WARM_UP.need("bearoff-two")
    return signature, data.quiz(topic, seed, level, count)


def _attempt(signature: str, questions: tuple[drills.Question, ...]) -> Attempt:
    """This quiz's answers and the question shown: the session's, or on the session's
    first view of the quiz the student's answers kept in the store, graded again."""
    attempts: dict[str, Attempt] = st.session_state.setdefault(_ATTEMPTS, {})
    if signature not in attempts:
        kept = data.answers_store().drill_answers(student.token(), signature)
        graded, gave_up = {}, []
        for index, given in kept.items():
            if given == _GAVE_UP:
                gave_up.append(index)
            elif 0 <= index < len(questions):
                try:
                    graded[index] = drills.grade(questions[index], given)
                except ValueError:
                    continue  # no longer an answer to this question: left open
        attempts[signature] = {"answers": graded, "errors": {}, "current": 0, "gave_up": gave_up}
    return attempts[signature]


def _grade(
    question: drills.Question, raw: str | float | None, attempt: Attempt, index: int
) -> drills.Grade | None:
    """Grade one answer and keep it; a bad answer's message is kept instead."""
    attempt["errors"].pop(index, None)
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        attempt["errors"][index] = f"Question {index + 1}: no answer given."
        return None
    try:
        result = attempt["answers"][index] = drills.grade(question, raw)
    except ValueError as error:
        attempt["errors"][index] = f"Question {index + 1} not graded: {error}"
        return None
    return result


def _check(
    questions: tuple[drills.Question, ...],
    keys: dict[int, str],
    attempt: Attempt,
    signature: str,
) -> None:
    """Form callback: grade the answers in the form's widgets (by their keys) and keep
    the graded ones in the store under the student's token."""
    store = data.answers_store()
    for index, key in keys.items():
        if index in attempt["gave_up"]:
            continue  # its answer was shown: no longer graded
        raw = st.session_state.get(key)
        if len(keys) > 1 and (raw is None or (isinstance(raw, str) and not raw.strip())):
            attempt["errors"].pop(index, None)
            continue  # "All at once": a question left open is not an error
        result = _grade(questions[index], raw, attempt, index)
        if result is not None:
            # the answer as read (a number, a choice; at most 24 characters): graded the
            # same way again when the student comes back
            store.keep_drill_answer(student.token(), signature, index, str(result.given))


def _give_up(attempt: Attempt, index: int, signature: str) -> None:
    """Button callback: show this question's answer; it is no longer graded."""
    if index not in attempt["answers"] and index not in attempt["gave_up"]:
        attempt["gave_up"].append(index)
        data.answers_store().keep_drill_answer(student.token(), signature, index, _GAVE_UP)


def _errors(attempt: Attempt, indexes: range) -> None:
    for index in indexes:
        message = attempt["errors"].get(index)
        if message is not None:
            (st.warning if message.endswith("no answer given.") else st.error)(
                escape_text(message, 200)
            )


def _answer_widget(
    question: drills.Question, key: str, where: DeltaGenerator | ModuleType = st
) -> object:
    if question.kind == "choice":
        return where.radio("Your answer", question.choices, index=None, key=key)
    unit = " (percent)" if question.unit == "percent" else ""
    return where.text_input(f"Your answer{unit}", key=key, max_chars=40)


def page_query(question: drills.Question) -> dict[str, str]:
    """The query of the page view that explains ``question``: its values and its tab.

    Handed over as ``~key`` with the tab's title (:func:`ui.pages.link_query`): a link
    leaving this page would otherwise lose the keys this page binds (``sec``).
    """
    spec = _FILES[question.page]
    return link_query(spec.file, {**question.query, SECTION_KEY: question.section})


def _result(question: drills.Question, result: drills.Grade) -> None:
    """The verdict, the formula, the source and the link to the page that explains it."""
    (st.success if result.correct else st.error)(result.message)
    _explained(question)


def _shown(question: drills.Question) -> None:
    """A question given up on: its exact value, the formula, the source and the link."""
    st.info(f"You gave up on this one: the exact value is {question.shown_answer}.")
    _explained(question)


def _explained(question: drills.Question) -> None:
    st.latex(question.formula)
    st.caption(f"{question.explanation} Source: {source(question.source, question.where)}.")
    spec = _FILES[question.page]
    st.page_link(
        spec.file,
        label=f"See it on: {spec.title}",
        icon=":material/arrow_forward:",
        query_params=page_query(question),
    )


def _score(questions: tuple[drills.Question, ...], attempt: Attempt) -> None:
    answers = attempt["answers"]
    right = sum(result.correct for result in answers.values())
    widgets.headline(
        [
            ("Score", f"{right} / {len(answers)}"),
            ("Answered", f"{len(answers)} of {len(questions)}"),
            ("Correct", f"{right / len(answers):.0%}" if answers else NOT_APPLICABLE),
        ]
    )


def attempt_table(questions: tuple[drills.Question, ...], attempt: Attempt) -> pd.DataFrame:
    """One row per question: the prompt, the answer given, the exact answer, the grade.

    A question's exact answer is in its row only once it has been answered or given up
    on: the table of a quiz under way never gives away the questions still to come.
    """
    rows = []
    gave_up = attempt.get("gave_up", [])
    for index, question in enumerate(questions):
        result = attempt["answers"].get(index)
        shown = result is not None or index in gave_up
        given = _GAVE_UP if index in gave_up else ""
        rows.append(
            {
                "question": index + 1,
                "prompt": question.prompt,
                "your answer": given if result is None else str(result.given),
                "exact answer": question.shown_answer if shown else "",
                "correct": None if result is None else result.correct,
                "grading": question.grading,
                "source": source(question.source, question.where),
            }
        )
    return pd.DataFrame(rows)


def _attempt_download(v: View, questions: tuple[drills.Question, ...], attempt: Attempt) -> None:
    if not attempt["answers"] and not attempt["gave_up"]:
        return
    st.subheader("Your attempt")
    name = f"drill_{v.text('topic')}_level{v.whole('level')}_seed{v.whole('seed')}.csv"
    widgets.table_with_download(attempt_table(questions, attempt), name)


_NO_REVIEW = (
    "Nothing to review now: the positions you get wrong in the position topics come "
    "back here, spaced out in time."
)


def _positions(v: View, render: positions.Render) -> bool:
    """Render a position topic or the review with ``render``; False for another topic."""
    topic = v.text("topic")
    if topic == REVIEW:
        signature, questions = positions.review_quiz(v)
        render(v, signature, questions, _NO_REVIEW)
        positions.review_summary(v)
        return True
    if topic in POSITION_TOPICS:
        signature, questions = positions.link_quiz(v)
        render(v, signature, questions, "No position to ask.")
        return True
    if v.text("lib"):
        st.caption(
            "The library position chosen in the side panel is asked only by the real-"
            "position topics; this topic draws its own questions."
        )
    return False


def render_one(v: View) -> None:
    """One question at a time: answer, check, see the exact value, go on."""
    student.remember()
    if _positions(v, positions.one_by_one):
        return
    signature, questions = _quiz(v)
    attempt = _attempt(signature, questions)
    score = st.container()
    index = min(attempt["current"], len(questions) - 1)
    question = questions[index]
    st.subheader(f"Question {index + 1} of {len(questions)}")
    st.write(question.prompt)
    st.caption(f"Graded {question.grading}.")
    key = f"drill-one-answer-{signature}-{index}"
    given_up = index in attempt["gave_up"]
    with st.form(key=f"drill-one-{signature}-{index}"):
        _answer_widget(question, key)
        st.form_submit_button(
            "Check",
            on_click=_check,
            args=(questions, {index: key}, attempt, signature),
            disabled=given_up,
        )
    _errors(attempt, range(index, index + 1))
    if index in attempt["answers"]:
        _result(question, attempt["answers"][index])
    elif given_up:
        _shown(question)
    else:
        st.button(
            "Show me the answer",
            key="drill-give-up",
            on_click=_give_up,
            args=(attempt, index, signature),
            help="The exact value, its formula and source; this question is then not graded.",
        )
    positions.step_buttons(attempt, index, len(questions))
    with score:
        _score(questions, attempt)
    _attempt_download(v, questions, attempt)


def render_all(v: View) -> None:
    """The whole quiz as one form: answer what you can, grade it all at once."""
    student.remember()
    if _positions(v, positions.all_at_once):
        return
    signature, questions = _quiz(v)
    attempt = _attempt(signature, questions)
    score = st.container()
    keys = {index: f"drill-all-answer-{signature}-{index}" for index in range(len(questions))}
    with st.form(key=f"drill-all-{signature}"):
        for index, question in enumerate(questions):
            st.markdown(f"**Question {index + 1}.** {escape_text(question.prompt, 2000)}")
            _answer_widget(question, keys[index])
        st.form_submit_button(
            "Grade my answers", on_click=_check, args=(questions, keys, attempt, signature)
        )
    _errors(attempt, range(len(questions)))
    for index, question in enumerate(questions):
        result = attempt["answers"].get(index)
        if result is None:
            continue
        mark = "right" if result.correct else "wrong"
        with st.expander(f"Question {index + 1}: {mark}", expanded=not result.correct):
            _result(question, result)
    with score:
        _score(questions, attempt)
    _attempt_download(v, questions, attempt)
