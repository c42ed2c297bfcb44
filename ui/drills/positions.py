"""The drills page's real positions: the library's decisions, and the student's review.

A position question shows the board and asks one decision (double or not, take or pass,
or the whole cube action at a score). The answer is graded by the store against the
engine's stored verdict and kept under the student's identity token
(:mod:`store.position_answers`); then the page shows the verdict, the stored equities,
the error in millipoints, the anatomy of the decision and a link to the position page.

The review replays the student's answers through Leitner's boxes
(:mod:`cubecore.review`) and asks the decisions due now, in the boxes' order; it is one
snapshot per visit (a button takes a new one), so answering does not reshuffle it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import TypedDict

import pandas as pd
import streamlit as st

from cubecore import engine as cube_engine
from cubecore import library, review
from cubecore.position_drills import (
    PositionGrade,
    PositionQuestion,
    grade_position,
    question_of_card,
)
from cubecore.references import source
from ui import student, widgets
from ui.board import board_figure
from ui.cube import data as cube_data
from ui.drills import data
from ui.library.controls import SCORE_LABELS, THEME_LABELS
from ui.library.data import POSITION_PAGE, position_values
from ui.links import escape_text
from ui.pages import link_query
from ui.position.data import anatomy_cube_life
from ui.skeleton import View
from ui.style import NOT_APPLICABLE

_ATTEMPTS = "_drill_position_attempts"
_REVIEW = "_drill_review"
#: The engine's match equity table (the library's evaluations say which).
_MATCH_TABLE = "kxg2"
_TOKEN_FORM = re.compile(r"[0-9a-f]{32}")
_LEITNER = (
    'S. Leitner, "So lernt man lernen", Freiburg: Herder, 1972 (the card box with five '
    "compartments)"
)


class Shown(TypedDict):
    """Which question of a quiz is shown (one at a time)."""

    current: int


class PositionAttempt(Shown):
    """One position quiz's grades and messages by question, and the question shown."""

    grades: dict[int, PositionGrade]
    errors: dict[int, str]


class ReviewSnapshot(TypedDict):
    """The review of one visit: its name in the store, the decisions it asks, and how
    many of the student's answers came from elsewhere when it was taken."""

    signature: str
    cards: list[str]
    elsewhere: int


#: How a section shows a quiz: ``render(view, signature, questions, text when empty)``.
Render = Callable[[View, str, tuple[PositionQuestion, ...], str], None]


def quiz_signature(v: View) -> str:
    """The store's name of the link's position quiz (topic, level, count, seed, position)."""
    topic, level, count, seed = v.text("topic"), v.whole("level"), v.whole("n"), v.whole("seed")
    lib = v.text("lib")
    return f"{topic}-L{level}-n{count}-s{seed}" + (f"-{lib}" if lib else "")


def link_quiz(v: View) -> tuple[str, tuple[PositionQuestion, ...]]:
    """The position quiz of the link, and its store name."""
    questions = data.position_quiz(
        v.text("topic"), v.whole("seed"), v.whole("level"), v.whole("n"), v.text("lib")
    )
    return quiz_signature(v), questions


def _attempt(signature: str, questions: tuple[PositionQuestion, ...]) -> PositionAttempt:
    """This quiz's grades: the session's, or on its first view the student's kept ones."""
    attempts: dict[str, PositionAttempt] = st.session_state.setdefault(_ATTEMPTS, {})
    if signature not in attempts:
        kept = data.position_answers().quiz_answers(student.token(), signature)
        grades: dict[int, PositionGrade] = {}
        for index, answer in kept.items():
            if 0 <= index < len(questions) and answer.card == questions[index].card:
                grades[index] = grade_position(questions[index], answer.given)
        attempts[signature] = {"grades": grades, "errors": {}, "current": 0}
    return attempts[signature]


def _check(
    questions: tuple[PositionQuestion, ...],
    keys: dict[int, str],
    attempt: PositionAttempt,
    signature: str,
) -> None:
    """Form callback: grade and keep the answers in the form's widgets (by their keys)."""
    store = data.position_answers()
    for index, key in keys.items():
        attempt["errors"].pop(index, None)
        if index in attempt["grades"]:
            continue  # the first answer stands
        raw = st.session_state.get(key)
        if raw is None:
            if len(keys) == 1:
                attempt["errors"][index] = f"Question {index + 1}: no answer given."
            continue
        try:
            attempt["grades"][index] = store.keep(
                student.token(),
                signature,
                index,
                questions[index].card,
                str(raw),
                client=student.client_address(),
            )
        except ValueError as error:
            attempt["errors"][index] = f"Question {index + 1} not kept: {error}"


def _errors(attempt: PositionAttempt, indexes: range) -> None:
    for index in indexes:
        message = attempt["errors"].get(index)
        if message is not None:
            (st.warning if message.endswith("no answer given.") else st.error)(
                escape_text(message, 300)
            )


def _board(question: PositionQuestion, index: int) -> None:
    item = question.position
    widgets.chart(
        board_figure(item.position, cube_value=item.cube, cube_owner=item.owner),
        f"drill_{item.id}_{question.score}",
        key=f"drill-board-{index}-{item.id}-{question.score}",
    )
    st.caption(f"gnubg Position ID {item.position_id}")


def _equity(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def equities_frame(question: PositionQuestion) -> pd.DataFrame:
    """The stored equities of the decision, the player on roll's view, per cube."""
    e = question.evaluation
    best = {"ND": "No double", "TG": "No double", "DT": "Double, take", "DP": "Double, pass"}
    rows = [
        ("No double", e.no_double),
        ("Double, take", e.double_take),
        ("Double, pass", e.double_pass),
    ]
    return pd.DataFrame(
        [
            {
                "action": action,
                "equity": _equity(value),
                "engine's choice": "yes" if best.get(e.verdict) == action else "",
            }
            for action, value in rows
        ]
    )


def _anatomy(question: PositionQuestion, present: bool) -> None:
    """The anatomy of the decision: Janowski's model on the engine's five chances."""
    e = question.evaluation
    item = question.position
    score = library.SCORES[question.score]
    implied = cube_engine.implied_cube_life(
        (e.win, e.win_gammon, e.win_backgammon, e.lose_gammon, e.lose_backgammon),
        e.no_double,
        cube=item.cube,
        owner=item.owner,
        away=score.away,
        opp_away=score.opp_away,
        crawford=score.crawford,
    )  # the library's rules: no Jacoby rule; Kazaross-XG2 at a score (the default)
    x, said = anatomy_cube_life(implied.x, item.position)
    setting = cube_data.Setting(
        x=x,
        cube=item.cube,
        owner=item.owner,
        match=not score.money,
        jacoby=False,
        beavers=False,
        table=_MATCH_TABLE,
        away=score.away or 1,
        opp_away=score.opp_away or 1,
        crawford=score.crawford,
    )
    probabilities = tuple(
        round(value, 6)
        for value in (e.win, e.win_gammon, e.win_backgammon, e.lose_gammon, e.lose_backgammon)
    )
    assert len(probabilities) == 5
    try:
        anatomy = cube_data.anatomy_view(p=probabilities, s=setting)
    except ValueError:
        anatomy = None
    if anatomy is None:
        return
    st.markdown("**Anatomy of the decision**")
    widgets.metric_row(
        [
            ("Gain from doubling, DT - ND (model)", f"{anatomy.total:+.4f}"),
            (f"Largest term: {anatomy.largest}", f"{anatomy.terms[anatomy.largest]:+.4f}"),
        ]
    )
    widgets.chart(anatomy.figure, f"drill_anatomy_{item.id}_{question.score}")
    if not present:
        st.caption(
            f"Janowski's model on the engine's five chances at {said}: how the gain from "
            "doubling splits into the dead cube's gain, the gammons, the opponent's recube "
            "and the market losers given up. " + source("J93") + "; " + source("JR12")
        )


def verdict(question: PositionQuestion, result: PositionGrade, present: bool) -> None:
    """The engine's verdict, the equities, the error, the anatomy and the link."""
    (st.success if result.correct else st.error)(result.message)
    e = question.evaluation
    widgets.headline(
        [
            ("The engine's answer", question.answer),
            ("Your error", f"{result.millipoints:.0f} millipoints"),
            ("The engine's action", e.action),
        ]
    )
    widgets.table(
        equities_frame(question),
        labels={"action": "Action", "equity": "Equity", "engine's choice": "The engine's choice"},
    )
    unit = (
        "money equity per unit of the cube"
        if library.SCORES[question.score].money
        else "match equity in EMG (the match winning chance as money-like equity)"
    )
    st.caption(
        f"The engine's stored 3-ply evaluation, from the view of the player on roll, in "
        f"{unit}. An error is the equity given up against the engine's answer, in "
        "millipoints (equity x 1000, per unit of the cube)."
    )
    item = question.position
    st.markdown(
        f"**{escape_text(item.title, 200)}** ({THEME_LABELS[item.theme]}, "
        f"{SCORE_LABELS[question.score]})"
    )
    if library.SCORES[question.score].money and not present:
        st.caption(escape_text(item.explanation, 2000))
    _anatomy(question, present)
    st.page_link(
        POSITION_PAGE,
        label="Open this position at this score on the position page",
        icon=":material/arrow_forward:",
        query_params=link_query(POSITION_PAGE, position_values(item.id, question.score)),
    )


def _score(questions: tuple[PositionQuestion, ...], attempt: PositionAttempt) -> None:
    grades = attempt["grades"]
    right = sum(g.correct for g in grades.values())
    total = sum(g.millipoints for g in grades.values())
    widgets.headline(
        [
            ("Score", f"{right} / {len(grades)}"),
            ("Answered", f"{len(grades)} of {len(questions)}"),
            ("Equity given up", f"{total:.0f} millipoints" if grades else NOT_APPLICABLE),
        ]
    )


def _move(attempt: Shown, step: int, count: int) -> None:
    attempt["current"] = min(max(attempt["current"] + step, 0), count - 1)


def step_buttons(attempt: Shown, index: int, count: int) -> None:
    """The previous and next question's buttons of a quiz shown one question at a time."""
    back, forward = st.columns(2)
    back.button(
        "Previous question",
        key="drill-previous",
        on_click=_move,
        args=(attempt, -1, count),
        disabled=index == 0,
        width="stretch",
    )
    forward.button(
        "Next question",
        key="drill-next",
        on_click=_move,
        args=(attempt, 1, count),
        disabled=index == count - 1,
        width="stretch",
    )


def _radio(question: PositionQuestion, key: str) -> None:
    st.radio("Your answer", question.choices, index=None, key=key, horizontal=True)


def one_by_one(
    v: View, signature: str, questions: tuple[PositionQuestion, ...], empty: str
) -> None:
    """One position at a time: the board, the question, the verdict, go on."""
    if not questions:
        st.info(empty)
        return
    attempt = _attempt(signature, questions)
    score = st.container()
    index = min(attempt["current"], len(questions) - 1)
    question = questions[index]
    st.subheader(f"Question {index + 1} of {len(questions)}")
    _board(question, index)
    if index > 0 and questions[index - 1].position_key == question.position_key:
        st.caption("The same position as the last question, at another score.")
    st.write(question.prompt)
    key = f"drill-pos-answer-{signature}-{index}"
    answered = index in attempt["grades"]
    with st.form(key=f"drill-pos-{signature}-{index}"):
        _radio(question, key)
        st.form_submit_button(
            "Check",
            on_click=_check,
            args=(questions, {index: key}, attempt, signature),
            disabled=answered,
        )
    _errors(attempt, range(index, index + 1))
    if answered:
        verdict(question, attempt["grades"][index], v.present)
    step_buttons(attempt, index, len(questions))
    with score:
        _score(questions, attempt)


def all_at_once(
    v: View, signature: str, questions: tuple[PositionQuestion, ...], empty: str
) -> None:
    """Every position of the quiz in one form, graded at once."""
    if not questions:
        st.info(empty)
        return
    attempt = _attempt(signature, questions)
    score = st.container()
    keys = {index: f"drill-pos-all-{signature}-{index}" for index in range(len(questions))}
    with st.form(key=f"drill-pos-all-{signature}"):
        for index, question in enumerate(questions):
            st.markdown(f"**Question {index + 1}.** {escape_text(question.prompt, 2000)}")
            _board(question, index)
            _radio(question, keys[index])
        st.form_submit_button(
            "Grade my answers", on_click=_check, args=(questions, keys, attempt, signature)
        )
    _errors(attempt, range(len(questions)))
    for index, question in enumerate(questions):
        result = attempt["grades"].get(index)
        if result is None:
            continue
        mark = "right" if result.correct else "wrong"
        with st.expander(f"Question {index + 1}: {mark}", expanded=not result.correct):
            verdict(question, result, v.present)
    with score:
        _score(questions, attempt)


# The review ------------------------------------------------------------------------------
def _new_snapshot(count: int) -> ReviewSnapshot:
    store = data.position_answers()
    now = store.now()
    kept = store.answered(student.token())
    answers = [review.Answered(a.card, a.correct, a.answered_at, a.theme) for a in kept]
    due = review.due_cards(review.cards(answers), now)[:count]
    return {
        "signature": f"review-{now:%Y%m%dT%H%M%S.%f}",
        "cards": [card.key for card in due],
        "elsewhere": len(kept),
    }


def _snapshot(count: int) -> ReviewSnapshot:
    """The session's review, taken again when it is empty or when the student has
    answered elsewhere since (a quiz in another tab, another device): then it would
    leave out positions due now."""
    snapshot: ReviewSnapshot | None = st.session_state.get(_REVIEW)
    if snapshot is not None and snapshot["cards"]:
        kept = data.position_answers().answered(student.token())
        elsewhere = sum(a.quiz != snapshot["signature"] for a in kept)
        if elsewhere == snapshot["elsewhere"]:
            return snapshot
    snapshot = st.session_state[_REVIEW] = _new_snapshot(count)
    return snapshot


def _restart(count: int) -> None:
    st.session_state[_REVIEW] = _new_snapshot(count)


def review_quiz(v: View) -> tuple[str, tuple[PositionQuestion, ...]]:
    """This visit's review: the decisions due now, in Leitner's order (at most ``n``)."""
    snapshot = _snapshot(v.whole("n"))
    questions = []
    for card in snapshot["cards"]:
        try:
            questions.append(question_of_card(card))
        except ValueError:
            continue  # a decision the library no longer has
    return snapshot["signature"], tuple(questions)


def _when(due: datetime, now: datetime) -> str:
    days = (due - now).total_seconds() / 86400
    if days < 1:
        return "later today"
    return f"in {days:.0f} day{'s' if round(days) != 1 else ''}"


def review_summary(v: View) -> None:
    """The student's error rate by theme, and what the review asks next."""
    store = data.position_answers()
    answers = store.review_answers(student.token())
    now = store.now()
    cards = review.cards(answers)
    due = review.due_cards(cards, now)
    waiting = review.upcoming_cards(cards, now)
    learned = sum(card.retired for card in cards)
    st.button(
        "Start a new review",
        key="drill-review-restart",
        on_click=_restart,
        args=(v.whole("n"),),
        help="Ask the positions due now again, in the boxes' order.",
    )
    widgets.metric_row(
        [
            ("Due now", str(len(due))),
            ("Waiting", str(len(waiting))),
            ("Learned", str(learned)),
        ]
    )
    if waiting:
        st.caption(
            f"The next waiting position comes back {_when(waiting[0].due, now)} "
            f"(box {waiting[0].box} of {review.BOXES})."
        )
    st.subheader("Your error rate by theme")
    rates = review.error_rates(answers)
    if rates.empty:
        st.info("You have not answered any library position yet.")
    else:
        rates = rates.assign(
            theme=rates["theme"].map(lambda t: THEME_LABELS.get(t, t)),
            error_rate=(100 * rates["error_rate"]).round(1),
        )
        widgets.table_with_download(
            rates,
            "drill_error_rates.csv",
            labels={
                "theme": "Theme",
                "answers": "Answers",
                "wrong": "Wrong",
                "error_rate": "Error rate (%)",
            },
        )
    if not v.present:
        st.caption(
            "Spaced review by Leitner's boxes: a position you get wrong goes to box 1 and "
            "comes back at once; a right answer moves it up a box, and it comes back after "
            "1, 2, 4 and 8 days in boxes 2 to 5; right in box 5, it is learned. The lowest "
            f"box comes first. {_LEITNER}."
        )
        _token_box()  # never on a projector: the key is the visitor's identity


def _use_token(key: str) -> None:
    value = str(st.session_state.get(key) or "").strip().lower()
    if not _TOKEN_FORM.fullmatch(value):
        st.session_state["_drill_token_error"] = (
            "That is not a review key: a key is 32 letters and digits (0-9, a-f)."
        )
        return
    st.session_state.pop("_drill_token_error", None)
    st.session_state[student.SESSION_KEY] = value
    st.session_state.pop(_REVIEW, None)
    st.session_state.pop(_ATTEMPTS, None)


def _token_box() -> None:
    """The student's key, to copy to another device, and where to paste one."""
    with st.expander("Your review on another device"):
        st.caption(
            "Your answers are kept under this key, not under an account. Copy it to your "
            "other device and paste it there. Keep it to yourself: whoever has it is you "
            "in this app (your review, your answers in a class)."
        )
        st.code(student.token(), language=None)
        st.text_input("Paste the key of your other device", key="drill-token", max_chars=40)
        st.button("Use this key", key="drill-token-use", on_click=_use_token, args=("drill-token",))
        message = st.session_state.get("_drill_token_error")
        if message:
            st.error(message)
