"""The classroom's two views: a student joins and answers; the presenter asks and reveals.

Everything a person typed (nicknames, answers, prompts, options) is shown as escaped
plain text (:func:`ui.links.escape_text`), never as HTML or a Markdown link. A
student's screen never shows the presenter's controls, the presenter key or another
student's nickname: the class's answers are shown only as counts, after the reveal.
The presenter key lives in the presenter's session only; no link carries it.

Who is who comes from the visitor's identity token (:mod:`ui.student`) and the store: a
student who reloads (on any app process) is still in the room, as the same student; the
presenter who reloads is back in the room they opened.
"""

from __future__ import annotations

import functools
from datetime import UTC, datetime

import streamlit as st

from cubecore import drills
from cubecore.references import source
from store import (
    Classroom,
    Question,
    RoomInfo,
    Tally,
    clean_code,
    clean_nickname,
)
from store.schema import (
    ANSWER_CHARS,
    EXPLANATION_CHARS,
    NICKNAME_CHARS,
    OPTION_CHARS,
    PROMPT_CHARS,
)
from ui import student, widgets
from ui.classroom import charts, data, positions
from ui.classroom.controls import PRESENTER_REFRESH, ROOM, STUDENT_REFRESH
from ui.links import escape_text
from ui.skeleton import View

#: Session State: the presenter's room, credential and key (the key only as long as it
#: may be shown); the student's room, id and nickname; the room a student left in this
#: session (not joined again by itself); messages from the last button callback; why the
#: last ask failed (kept until an ask succeeds: the ask forms are redrawn every refresh).
PRESENTER = "_classroom_presenter"
STUDENT = "_classroom_student"
LEFT = "_classroom_left"
FLASH = "_classroom_flash"
ASK_ERROR = "_classroom_ask_error"

_JOIN_CODE = "classroom_join_code"
_JOIN_NICKNAME = "classroom_join_nickname"
_RESUME_CODE = "classroom_resume_code"
_RESUME_KEY = "classroom_resume_key"
_KEY_SHOWN = "_classroom_key_shown"  # the presenter key, shown in the session that made it
_KINDS = {"Multiple choice": "choice", "Number": "numeric"}


def _say(message: object, *, error: bool = True) -> None:
    """Show a message (a store's ValueError text) as escaped plain text."""
    text = escape_text(str(message), 400)
    if error:
        st.error(text, icon=":material/error:")
    else:
        st.success(text, icon=":material/check_circle:")


def _flash(where: str, message: object, *, error: bool = True) -> None:
    st.session_state.setdefault(FLASH, []).append((where, str(message), error))


def _show_flash(where: str) -> None:
    kept = []
    for place, message, error in st.session_state.pop(FLASH, []):
        if place == where:
            _say(message, error=error)
        else:
            kept.append((place, message, error))
    if kept:
        st.session_state[FLASH] = kept


def _now() -> datetime:
    return datetime.now(UTC)


def _origin() -> str:
    url = str(getattr(st.context, "url", "") or "")
    parts = url.split("/")
    return "/".join(parts[:3]) if url.startswith(("http://", "https://")) else ""


# student -------------------------------------------------------------------------------
def _join() -> None:
    """Join callback: the code and the nickname, as this visitor (the store limits it)."""
    me = student.token()
    try:
        code = clean_code(st.session_state.get(_JOIN_CODE, ""))
        nickname = clean_nickname(st.session_state.get(_JOIN_NICKNAME, ""))
        data.classroom().join(code, me, nickname, client=student.client_address())
    except ValueError as error:
        _flash("join", error)
        return
    st.session_state.pop(LEFT, None)
    st.session_state[STUDENT] = {"code": code, "id": me, "nickname": nickname}
    st.session_state[ROOM.key] = code  # the link now names the room


def _leave() -> None:
    left = st.session_state.pop(STUDENT, None)
    if left is not None:
        st.session_state[LEFT] = left["code"]


def _rejoin(code: str) -> None:
    """A student back after a reload: the store knows this visitor in the link's room."""
    if not code or st.session_state.get(LEFT) == code:
        return
    try:
        code = clean_code(code)
    except ValueError:
        return
    me = student.token()
    nickname = data.classroom().joined(code, me)
    if nickname is not None:
        st.session_state[STUDENT] = {"code": code, "id": me, "nickname": nickname}


def _send(code: str, number: int, student_id: str, nickname: str, field: str) -> None:
    """Answer callback: store the form's value (a re-send replaces it)."""
    value = st.session_state.get(field)
    try:
        if value is None:
            raise ValueError("Choose one of the options first.")
        data.classroom().submit(
            code, number, student_id, nickname, value, client=student.client_address()
        )
    except ValueError as error:
        _flash("answer", error)


def _vote(code: str, number: int, student_id: str, nickname: str, field: str, choice: str) -> None:
    """Vote callback (a position question): the button's vote and the estimate typed."""
    try:
        data.classroom().submit(
            code,
            number,
            student_id,
            nickname,
            choice,
            estimate=str(st.session_state.get(field, "") or ""),
            client=student.client_address(),
        )
    except ValueError as error:
        _flash("answer", error)


def render_join(view: View) -> None:
    """A student's view: the join form, then the room's current question."""
    student.remember()
    if STUDENT not in st.session_state:
        _rejoin(view.text(ROOM.key))
    me = st.session_state.get(STUDENT)
    if me is None:
        _show_flash("join")
        if _JOIN_CODE not in st.session_state:
            st.session_state[_JOIN_CODE] = view.text(ROOM.key)
        with st.form("classroom_join", border=True):
            st.text_input("Room code", max_chars=24, key=_JOIN_CODE, placeholder="ABCD23456")
            st.text_input("Nickname", max_chars=NICKNAME_CHARS, key=_JOIN_NICKNAME)
            st.form_submit_button("Join the room", on_click=_join, type="primary")
        st.caption(
            "Your nickname is shown to nobody but the presenter's answer file; the class "
            "sees only how many chose each answer."
        )
        return
    top = st.columns([3, 1], vertical_alignment="center")
    top[0].markdown(
        f"Room **{me['code']}** · you are **{escape_text(me['nickname'], NICKNAME_CHARS)}**"
    )
    top[1].button("Leave", on_click=_leave, key="classroom_leave")
    _student_live(me["code"], me["id"], me["nickname"])


@st.fragment(run_every=STUDENT_REFRESH)
def _student_live(code: str, student_id: str, nickname: str) -> None:
    """The room's newest question: the answer form, then the result once revealed."""
    store = data.classroom()
    try:
        question = store.latest(code)
    except ValueError as error:
        _say(error)
        return
    if store.joined(code, student_id) is None:
        _say(f"The presenter has removed you from room {code}.")
        return
    if question is None:
        st.info("Waiting for the presenter's first question.", icon=":material/hourglass:")
        return
    st.subheader(f"Question {question.number}")
    st.markdown(f"**{escape_text(question.prompt, PROMPT_CHARS)}**")
    if question.kind == "position":
        _student_position(store, code, question, student_id, nickname)
        return
    if question.revealed:
        _student_result(store, code, question.number, student_id)
        return
    field = f"classroom_answer_{code}_{question.number}"
    with st.form(f"classroom_answer_form_{code}_{question.number}"):
        if question.kind == "choice":
            st.radio(
                "Your answer",
                question.options,
                index=None,
                format_func=lambda option: escape_text(option, OPTION_CHARS),
                key=field,
            )
        else:
            st.text_input("Your answer (a number)", max_chars=ANSWER_CHARS, key=field)
        st.form_submit_button(
            "Send my answer",
            type="primary",
            on_click=_send,
            args=(code, question.number, student_id, nickname, field),
        )
    _show_flash("answer")
    mine = store.my_answer(code, question.number, student_id)
    if mine is not None:
        st.success(
            f"Your answer: {escape_text(mine, OPTION_CHARS)}. You may change it until the "
            "presenter reveals the answer.",
            icon=":material/check_circle:",
        )


def _student_position(
    store: Classroom, code: str, question: Question, student_id: str, nickname: str
) -> None:
    """A position question: the board and the three votes, then the verdict."""
    if question.revealed:
        positions.student_result(store, code, question.number, student_id)
        return
    field = f"classroom_estimate_{code}_{question.number}"
    positions.vote_form(
        question,
        f"classroom_vote_form_{code}_{question.number}",
        field,
        functools.partial(_vote, code, question.number, student_id, nickname, field),
    )
    _show_flash("answer")
    positions.my_vote_line(store.my_vote(code, question.number, student_id))


def _student_result(store: Classroom, code: str, number: int, student_id: str) -> None:
    tally = store.result(code, number)
    question = tally.question
    st.metric("The answer", question.answer_key or "")  # a metric value is plain text
    if question.kind == "numeric" and question.tolerance:
        st.caption(f"Answers within {question.tolerance:g} of it count as right.")
    _explain(question)
    mine = store.my_answer(code, number, student_id)
    if mine is None:
        st.info("You did not answer this question.")
    elif question.is_correct(mine):
        st.success(f"You answered {escape_text(mine, OPTION_CHARS)}: right.")
    else:
        st.error(f"You answered {escape_text(mine, OPTION_CHARS)}: not this time.")
    _histogram(tally.question, tally, revealed=True)


def _explain(question: Question) -> None:
    """The presenter's explanation of a revealed answer, as plain text."""
    if question.revealed and question.explanation:
        st.markdown(escape_text(question.explanation, EXPLANATION_CHARS))


def _histogram(question: Question, tally: Tally, *, revealed: bool) -> None:
    if tally.count == 0:
        return
    if question.kind == "choice":
        figure = charts.choice_histogram(
            tally.choice_counts(), question.answer_key if revealed else None
        )
    else:
        key = float(question.answer_key) if revealed and question.answer_key else None
        figure = charts.number_histogram(tally.numbers(), key)
    widgets.chart(figure, "classroom-answers", key=f"classroom_chart_{question.number}")


# presenter -----------------------------------------------------------------------------
def _open_room() -> None:
    try:
        opened = data.classroom().open_room(student.token(), client=student.client_address())
    except ValueError as error:
        _flash("present", error)
        return
    st.session_state.pop(ASK_ERROR, None)
    st.session_state[PRESENTER] = {"code": opened.code, "secret": opened.secret}
    st.session_state[_KEY_SHOWN] = opened.secret
    st.session_state[ROOM.key] = opened.code


def _back_as_presenter(code: str) -> None:
    """The presenter back after a reload: this visitor opened the link's room."""
    try:
        code = clean_code(code)
    except ValueError:
        return
    me = student.token()
    if data.classroom().owns(code, me):
        st.session_state[PRESENTER] = {"code": code, "secret": me}


def _new_key(code: str, secret: str) -> None:
    try:
        st.session_state[_KEY_SHOWN] = data.classroom().new_key(code, secret)
    except ValueError as error:
        _flash("present", error)
        return
    if secret != student.token():  # the old key is void: go on as this room's owner or the new key
        st.session_state[PRESENTER] = {"code": code, "secret": st.session_state[_KEY_SHOWN]}


def _remove(code: str, secret: str, number: int) -> None:
    try:
        data.classroom().remove_student(code, secret, number)
    except ValueError as error:
        _flash("present", error)


def _resume_room() -> None:
    try:
        code = clean_code(st.session_state.get(_RESUME_CODE, ""))
        secret = str(st.session_state.get(_RESUME_KEY, ""))
        data.classroom().presenter_room(code, secret)
    except ValueError as error:
        _flash("present", error)
        return
    finally:
        st.session_state[_RESUME_KEY] = ""  # never kept in a widget
    st.session_state.pop(ASK_ERROR, None)
    st.session_state[PRESENTER] = {"code": code, "secret": secret}
    st.session_state[_KEY_SHOWN] = secret
    st.session_state[ROOM.key] = code


def _forget_room() -> None:
    st.session_state.pop(PRESENTER, None)
    st.session_state.pop(_KEY_SHOWN, None)
    st.session_state[ROOM.key] = ""  # a reload does not bring it back


def _close_room(code: str, secret: str) -> None:
    try:
        data.classroom().close(code, secret)
    except ValueError as error:
        _flash("present", error)


def _reveal(code: str, secret: str, number: int) -> None:
    try:
        data.classroom().reveal(code, secret, number)
    except ValueError as error:
        _flash("present", error)


def render_present(view: View) -> None:
    """The presenter's view: open or resume a room, ask, watch the answers, reveal."""
    student.remember()
    _show_flash("present")
    if PRESENTER not in st.session_state and view.text(ROOM.key):
        _back_as_presenter(view.text(ROOM.key))
    presenter = st.session_state.get(PRESENTER)
    if presenter is None:
        st.button("Open a new room", on_click=_open_room, type="primary", key="classroom_open")
        st.caption(
            "You get a room code for the students. This browser stays the room's "
            "presenter when you reload; a presenter key (never part of a link) lets "
            "you present it from another device."
        )
        with st.expander("Resume a room (your presenter key)"), st.form("classroom_resume"):
            st.text_input("Room code", max_chars=24, key=_RESUME_CODE)
            st.text_input("Presenter key", type="password", max_chars=100, key=_RESUME_KEY)
            st.form_submit_button("Resume", on_click=_resume_room)
        return
    code, secret = presenter["code"], presenter["secret"]
    store = data.classroom()
    try:
        info = store.presenter_room(code, secret)
    except ValueError as error:
        _say(error)
        st.button("Forget this room", on_click=_forget_room, key="classroom_forget")
        return
    head = st.columns([1, 2], vertical_alignment="center")
    head[0].metric("Room code", code)
    with head[1]:
        st.caption("Students open this link (or type the code on the Join tab):")
        st.code(f"{_origin()}/classroom?{ROOM.key}={code}", language=None)
        state = "closed" if info.closed else "expired" if _expired(info) else "open"
        st.caption(f"The room is {state}; it expires at {info.expires_at:%H:%M} UTC.")
    _presenter_live(code, secret)
    _students(store, code, secret)
    with st.expander("Presenter key: do not show it to the class"):
        key = st.session_state.get(_KEY_SHOWN)
        if key:
            st.caption("To present this room from another device, use Resume a room with it.")
            st.code(key, language=None)
        else:
            st.caption(
                "This browser presents the room without a key. To present it from another "
                "device, make a new key (the old one stops working)."
            )
        st.button(
            "Make a new presenter key",
            on_click=_new_key,
            args=(code, secret),
            key="classroom_new_key",
        )
    footer = st.columns(4)
    footer[0].download_button(
        "Answers (CSV)",
        functools.partial(store.answers_csv, code, secret),
        file_name=f"classroom-{code}.csv",
        mime="text/csv",
        icon=":material/download:",
        key="classroom_csv",
        on_click="ignore",
    )
    footer[1].download_button(
        "Position votes (CSV)",
        functools.partial(store.positions_csv, code, secret),
        file_name=f"classroom-{code}-positions.csv",
        mime="text/csv",
        icon=":material/download:",
        key="classroom_positions_csv",
        on_click="ignore",
    )
    if not info.closed:
        footer[2].button(
            "Close the room", on_click=_close_room, args=(code, secret), key="classroom_close"
        )
    footer[3].button("Forget this room", on_click=_forget_room, key="classroom_forget")


def _students(store: Classroom, code: str, secret: str) -> None:
    """Who has joined, with a way to remove a student (their answers go with them)."""
    try:
        joined = store.students(code, secret)
    except ValueError as error:
        _say(error)
        return
    with st.expander(f"Students ({len(joined)})"):
        if not joined:
            st.caption("Nobody has joined yet.")
        for one in joined:
            row = st.columns([3, 1, 1], vertical_alignment="center")
            row[0].text(one.nickname)  # plain text, never Markdown
            row[1].caption(f"{one.answers} answer{'s' if one.answers != 1 else ''}")
            row[2].button(
                "Remove",
                on_click=_remove,
                args=(code, secret, one.number),
                key=f"classroom_remove_{one.number}",
            )


def _ask(code: str, secret: str) -> None:
    """Ask callback: pose the form's question."""
    state = st.session_state
    chosen = _KINDS[state.get("classroom_kind", "Multiple choice")]
    lines = [line for line in str(state.get("classroom_options", "")).splitlines() if line.strip()]
    try:
        data.classroom().ask(
            code,
            secret,
            kind=chosen,
            prompt=state.get("classroom_prompt", ""),
            answer_key=state.get("classroom_key", ""),
            options=lines if chosen == "choice" else (),
            tolerance=float(state.get("classroom_tolerance", 0.0)) if chosen == "numeric" else 0.0,
            explanation=state.get("classroom_explanation", ""),
        )
    except ValueError as error:
        state[ASK_ERROR] = str(error)
    else:
        state.pop(ASK_ERROR, None)


def _ask_drill(code: str, secret: str) -> None:
    """Ask callback: pose a drill question (cubecore.drills), its key computed by the app."""
    state = st.session_state
    topic = str(state.get("classroom_drill_topic", next(iter(drills.TOPICS))))
    level = int(state.get("classroom_drill_level", 1))
    seed = int(state.get("classroom_drill_seed", 1))
    question = drills.quiz(topic, seed, level, 1)[0]
    unit = " (in percent)" if question.unit == "percent" else ""
    why = f"{question.explanation} Source: {source(question.source, question.where)}."
    try:
        data.classroom().ask(
            code,
            secret,
            kind="numeric" if question.kind == "number" else "choice",
            prompt=f"{question.prompt}{unit}"[:PROMPT_CHARS],
            answer_key=question.answer,
            options=question.choices,
            tolerance=question.tolerance,
            explanation=why[:EXPLANATION_CHARS],
        )
    except ValueError as error:
        state[ASK_ERROR] = str(error)
    else:
        state.pop(ASK_ERROR, None)


def _ask_position(code: str, secret: str) -> None:
    """Ask callback: pose the position form's position (the class votes on the cube)."""
    state = st.session_state
    source = positions.asked_source()
    try:
        if not source:
            raise ValueError("Choose a position from the library or paste one first.")
        data.classroom().ask_position(
            code, secret, source, prompt=str(state.get(positions.PROMPT, "") or "")
        )
    except ValueError as error:
        state[ASK_ERROR] = str(error)
    else:
        state.pop(ASK_ERROR, None)
        state[positions.PASTE] = ""


def _drill_form(code: str, secret: str) -> None:
    """Pose one of the drills' questions: the class answers, the app knows the key."""
    with st.expander("Pose a drill question"), st.form("classroom_drill"):
        titles = {topic.id: topic.title for topic in drills.TOPICS.values()}
        st.selectbox(
            "Topic", list(titles), format_func=titles.__getitem__, key="classroom_drill_topic"
        )
        st.slider("Difficulty", 1, 3, 1, key="classroom_drill_level")
        st.number_input(
            "Seed (another seed, another question)", 1, 9999, 1, key="classroom_drill_seed"
        )
        st.form_submit_button("Ask this drill question", on_click=_ask_drill, args=(code, secret))


def _ask_form(code: str, secret: str, *, first: bool) -> None:
    label = "Pose a question" if first else "Pose the next question"
    with st.expander(label, expanded=first), st.form("classroom_ask"):
        st.radio("Kind", list(_KINDS), horizontal=True, key="classroom_kind")
        st.text_input("Question", max_chars=PROMPT_CHARS, key="classroom_prompt")
        st.text_area(
            "Options (multiple choice): one per line",
            max_chars=6 * (OPTION_CHARS + 1),
            key="classroom_options",
        )
        st.text_input(
            "The exact answer (an option, or a number)",
            max_chars=OPTION_CHARS,
            key="classroom_key",
        )
        st.number_input(
            "Tolerance (number questions): answers this close count as right",
            min_value=0.0,
            max_value=1e6,
            value=0.0,
            step=0.01,
            format="%.4f",
            key="classroom_tolerance",
        )
        st.text_input(
            "Explanation, shown with the answer (optional): how it follows, the formula",
            max_chars=EXPLANATION_CHARS,
            key="classroom_explanation",
        )
        st.form_submit_button("Ask", type="primary", on_click=_ask, args=(code, secret))
    positions.ask_form(functools.partial(_ask_position, code, secret))
    _drill_form(code, secret)
    if ASK_ERROR in st.session_state:
        _say(st.session_state[ASK_ERROR])


def _expired(info: RoomInfo) -> bool:
    return datetime.now(UTC).replace(tzinfo=None) >= info.expires_at


@st.fragment(run_every=PRESENTER_REFRESH)
def _presenter_live(code: str, secret: str) -> None:
    """What follows the room's questions: the newest question, then the ask forms.

    Both live in this fragment, which is redrawn every refresh, so the ask form's label
    ("Pose a question", then "Pose the next question") and its error always follow the
    room. Drawn by the page's full run, they could stay stale until the next click: in
    Streamlit 1.67 a timed fragment rerun that reaches the server just as a full run
    has ended can start a new script runner, and the server then drops the messages of
    the old one that it had not yet sent (``AppSession.request_rerun`` and
    ``_handle_scriptrunner_event_on_event_loop``, "Ignoring event from non-current
    ScriptRunner").
    """
    store = data.classroom()
    try:
        info = store.presenter_room(code, secret)
        tally = store.tally(code, secret, info.questions) if info.questions else None
    except ValueError as error:
        _say(error)
        return
    if tally is None:
        st.info("Pose a question: the students see it at once.", icon=":material/campaign:")
    else:
        _live_question(code, secret, tally)
    if not info.closed and not _expired(info):
        _ask_form(code, secret, first=info.questions == 0)


def _live_question(code: str, secret: str, tally: Tally) -> None:
    """The newest question: its prompt, the count and histogram, the reveal."""
    question = tally.question
    st.subheader(f"Question {question.number}")
    st.markdown(f"**{escape_text(question.prompt, PROMPT_CHARS)}**")
    if question.kind == "position":
        reveal = functools.partial(_reveal, code, secret, question.number)
        positions.presenter_live(tally, reveal, f"classroom_position_{question.number}")
        return
    with widgets.slide(widgets.presenter_mode()):  # the answers beside their histogram
        if question.revealed:
            right = sum(bool(question.is_correct(value)) for value in tally.values)
            widgets.headline(
                [
                    ("Answers", str(tally.count)),
                    ("The answer", question.answer_key or ""),  # a metric value is plain text
                    ("Right", f"{right} of {tally.count}"),
                ]
            )
            _explain(question)
        else:
            widgets.headline([("Answers", str(tally.count))])
            st.button(
                "Reveal the answer",
                on_click=_reveal,
                args=(code, secret, question.number),
                type="primary",
                key=f"classroom_reveal_{question.number}",
            )
        _histogram(question, tally, revealed=question.revealed)
