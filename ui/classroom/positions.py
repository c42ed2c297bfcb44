"""The class votes on a position: the board, three answers, the verdict on one slide.

A position question (:meth:`store.Classroom.ask_position`) shows every student the
board and three buttons (no double, double/take, double/pass) with an optional
estimate of the winning chance; the presenter sees the votes arrive as a histogram,
then reveals the verdict: the engine's (or the library's stored) cube action, the
equities, the implied cube life and the anatomy of the decision, with the board and the
class's votes, on one screen (``classroom-position-slide``). The verdict was computed
once, when the position was asked; nothing here runs the engine.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from cubecore import library
from store import POSITION_CHOICES, Classroom, PositionAsked, PositionVerdict, Question, Tally
from store.schema import PROMPT_CHARS
from ui import widgets
from ui.board import board_figure
from ui.classroom import charts
from ui.cube import data as cube_data
from ui.links import escape_text
from ui.position.data import anatomy_cube_life
from ui.style import Figure

#: The three votes in players' words (the buttons' labels).
VOTE_WORDS = {"ND": "No double", "DT": "Double, take", "DP": "Double, pass"}
#: The verdicts in players' words.
VERDICT_WORDS = {
    **VOTE_WORDS,
    "TG": "Too good to double: play on for the gammon",
    "NA": "No cube decision",
}
#: Height of the slide's three charts (px): the verdict, its numbers and a row of board,
#: votes and anatomy fit a 1280x720 screen in presenter mode, each chart's caption
#: included (measured in Chromium, tests/test_browser_classroom_positions.py).
SLIDE_CHART_HEIGHT = 360
#: Widget keys of the ask form.
PICK = "classroom_position_pick"
PASTE = "classroom_position_paste"
PROMPT = "classroom_position_prompt"
#: The container of the reveal slide (its CSS class is ``st-key-`` and this).
SLIDE_KEY = "classroom-position-slide"


def _titles() -> dict[str, str]:
    return {item.id: f"{item.title} ({item.theme})" for item in library.library()}


def ask_form(on_ask: Callable[[], None]) -> None:
    """The presenter's form: a library position, or a pasted position or link (folded,
    as the drill's form is: the question form is the one open at first)."""
    titles = _titles()
    with (
        st.expander("Pose a position: the class votes on the cube"),
        st.form("classroom_position"),
    ):
        st.selectbox(
            "A position from the library",
            ["", *titles],
            format_func=lambda key: titles.get(key, "(choose one)"),
            key=PICK,
        )
        st.text_input(
            "Or paste a Position ID, an XGID or a link to a position",
            max_chars=2000,
            key=PASTE,
            placeholder="XGID=... or 4HPwATDgc/ABMA",
        )
        st.text_input(
            "Your wording (optional)",
            max_chars=PROMPT_CHARS,
            key=PROMPT,
            placeholder="Money play: no double, double/take or double/pass?",
        )
        st.form_submit_button("Pose this position", type="primary", on_click=on_ask)
        st.caption(
            "Money play. A library position gets the verdict stored with it (3-ply); a "
            "pasted one is judged by the engine at 1-ply when you ask it."
        )


def asked_source() -> str:
    """What the ask form names: the pasted text, else the library pick ('' for none)."""
    pasted = str(st.session_state.get(PASTE, "") or "").strip()
    return pasted or str(st.session_state.get(PICK, "") or "")


def board(asked: PositionAsked, key: str, *, height: int | None = None) -> None:
    """The position as a board (the player on roll's view); ``height`` px if given."""
    figure = board_figure(asked.position, cube_value=asked.cube, cube_owner=asked.owner)
    if height is not None:  # the slide's narrow column: the pips on two lines
        on_roll, opponent = asked.position.pips
        figure = _two_line_title(
            _high(figure, height),
            f"On roll (light): {on_roll} pips<br>opponent (dark): {opponent} pips",
        )
    widgets.chart(figure, "classroom-position", key=key)


def _high(figure: Figure, height: int) -> Figure:
    return {**figure, "layout": {**figure.get("layout", {}), "height": height}}


def _two_line_title(figure: Figure, text: str) -> Figure:
    """``figure`` with a title on two lines (``<br>``) and a top margin for both."""
    layout = figure["layout"]
    layout["title"] = {"text": text}
    layout["margin"] = {**layout.get("margin", {}), "t": 100}
    return figure


def votes_chart(tally: Tally, key: str) -> None:
    """The votes per answer (the right one coloured once revealed)."""
    counts = tally.choice_counts()
    right = tally.question.answer_key if tally.question.revealed else None
    shown = {VOTE_WORDS[choice]: counts.get(choice, 0) for choice in POSITION_CHOICES}
    figure = charts.choice_histogram(shown, None if right is None else VOTE_WORDS[right])
    figure["layout"]["title"] = {"text": "The class's votes"}
    figure["layout"]["xaxis"]["title"] = {"text": ""}
    widgets.chart(_high(figure, SLIDE_CHART_HEIGHT), "classroom-votes", key=key)


def _equity(value: float | None) -> str:
    if value is None:
        return "—"
    rounded = round(value, 4) + 0.0
    return f"{rounded:+.4f}" if rounded else "0.0000"


def _percent(value: float) -> str:
    return f"{100.0 * value:.1f}%"


def _cube_life(verdict: PositionVerdict) -> str:
    return "undefined" if verdict.cube_life is None else f"{verdict.cube_life:.3f}"


def _evaluated_by(verdict: PositionVerdict) -> str:
    if verdict.source == "library":
        return f"the library's stored evaluation ({verdict.level})"
    return f"the engine at {verdict.level}"


def _anatomy(asked: PositionAsked, verdict: PositionVerdict, key: str) -> str:
    """The anatomy of the decision (DT - ND term by term) on the verdict's chances, at
    the implied cube life (the position class's where it is outside 0 to 1); what x
    was used, in words."""
    x, said = anatomy_cube_life(verdict.cube_life, asked.position)
    setting = cube_data.Setting(
        x=x,
        cube=asked.cube,
        owner=asked.owner,
        match=False,
        jacoby=False,
        beavers=False,
        table="",
        away=1,
        opp_away=1,
        crawford=False,
    )
    p = tuple(round(value, 6) for value in verdict.probabilities)
    anatomy = cube_data.anatomy_view(p=p, s=setting)  # type: ignore[arg-type]
    if anatomy is None:
        st.caption("No anatomy: the player on roll cannot double here.")
        return said
    # money play without the Jacoby rule or beavers: their adjustments are nought
    terms = {
        name: value
        for name, value in anatomy.terms.items()
        if name not in ("Jacoby adjustment", "Beaver adjustment")
    }
    figure = _two_line_title(charts.anatomy_bars(terms), "Why double: DT - ND<br>term by term")
    widgets.chart(_high(figure, SLIDE_CHART_HEIGHT), "classroom-anatomy", key=key)
    return said


def _right_count(tally: Tally) -> int:
    return sum(bool(tally.question.is_correct(value)) for value in tally.values)


def _estimates_words(tally: Tally, verdict: PositionVerdict) -> str:
    guesses = tally.given_estimates()
    engine = f"the verdict's winning chance is {_percent(verdict.win)}"
    if not guesses:
        return f"Nobody estimated the winning chance; {engine}."
    mean = sum(guesses) / len(guesses)
    return (
        f"The class's mean estimate of the winning chance: {mean:.1f}% "
        f"({len(guesses)} of {tally.count} gave one); {engine}."
    )


def reveal_slide(tally: Tally, key: str) -> None:
    """The reveal on one screen, two rows of two: the verdict and its numbers beside
    the board, then the class's votes beside the anatomy of the decision."""
    question = tally.question
    asked, verdict = question.position, question.verdict
    if asked is None or verdict is None:
        return
    with st.container(key=SLIDE_KEY):
        st.subheader(f"Verdict: {VERDICT_WORDS[verdict.verdict]}", anchor=False)
        st.markdown(
            f"**Right:** {_right_count(tally)} of {tally.count} · **winning chance:** "
            f"{_percent(verdict.win)} · **implied cube life:** {_cube_life(verdict)}  \n"
            f"**No double** {_equity(verdict.no_double)} · **Double, take** "
            f"{_equity(verdict.double_take)} · **Double, pass** {_equity(verdict.double_pass)}"
        )
        columns = st.columns([1.4, 0.8, 1.1], gap="small")
        with columns[0]:
            board(asked, f"{key}_board", height=SLIDE_CHART_HEIGHT)
        with columns[1]:
            votes_chart(tally, f"{key}_votes")
        with columns[2]:
            said = _anatomy(asked, verdict, f"{key}_anatomy")
    st.caption(
        f"Money play, {_cube_words(asked)}. The verdict is from {_evaluated_by(verdict)}: "
        f"{escape_text(verdict.action, 80)}. Equities per unit of the cube, for the player "
        f"on roll. The anatomy is Janowski's model on the verdict's chances at {said}. "
        + _estimates_words(tally, verdict)
    )
    if asked.library_id is not None:
        st.markdown(escape_text(library.library_position(asked.library_id).explanation, 1200))


def _cube_words(asked: PositionAsked) -> str:
    if asked.owner == "center":
        return "centred cube"
    holder = "the player on roll" if asked.owner == "player" else "the opponent"
    return f"cube on {asked.cube} owned by {holder}"


def presenter_live(tally: Tally, reveal: Callable[[], None] | None, key: str) -> None:
    """The presenter's view of an open position question: the board and the votes so
    far side by side, the count, the reveal; the slide once revealed."""
    question = tally.question
    if question.revealed:
        reveal_slide(tally, key)
        return
    asked = question.position
    top = st.columns([1, 3], vertical_alignment="center")
    top[0].metric("Votes", str(tally.count))
    if reveal is not None:
        top[1].button(
            "Reveal the verdict",
            on_click=reveal,
            type="primary",
            key=f"classroom_reveal_{question.number}",
        )
    columns = st.columns([1.15, 1])
    if asked is not None:
        with columns[0]:
            board(asked, f"{key}_board")
    with columns[1]:
        votes_chart(tally, f"{key}_votes")
    guesses = tally.given_estimates()
    if guesses:
        st.caption(
            f"{len(guesses)} estimated the winning chance; their mean is "
            f"{sum(guesses) / len(guesses):.1f}% (the verdict's comes with the reveal)."
        )


# the student's side ----------------------------------------------------------------------
def vote_form(
    question: Question,
    form: str,
    estimate_field: str,
    on_vote: Callable[[str], None],
) -> None:
    """The board and the three votes, with the optional estimate of the winning chance."""
    if question.position is not None:
        board(question.position, f"{form}_board")
    with st.form(form):
        st.text_input(
            "Your winning chance for the player on roll, in percent (optional)",
            max_chars=8,
            key=estimate_field,
            placeholder="e.g. 65",
        )
        columns = st.columns(3)
        for column, choice in zip(columns, POSITION_CHOICES, strict=True):
            column.form_submit_button(
                VOTE_WORDS[choice],
                type="primary",
                on_click=on_vote,
                args=(choice,),
                use_container_width=True,
            )


def my_vote_line(mine: tuple[str, float | None] | None) -> None:
    """The student's stored vote, as sent."""
    if mine is None:
        return
    vote, guess = mine
    extra = "" if guess is None else f" (your winning chance: {guess:g}%)"
    st.success(
        f"Your vote: {VOTE_WORDS.get(vote, vote)}{extra}. You may change it until the "
        "presenter reveals the verdict.",
        icon=":material/check_circle:",
    )


def student_result(store: Classroom, code: str, number: int, student_id: str) -> None:
    """A revealed position for a student: the verdict, their vote, the class's votes."""
    tally = store.result(code, number)
    question, verdict = tally.question, tally.question.verdict
    if verdict is None:
        return
    st.metric("Verdict", VERDICT_WORDS[verdict.verdict])
    widgets.metric_row(
        [
            ("No double", _equity(verdict.no_double)),
            ("Double, take", _equity(verdict.double_take)),
            ("Double, pass", _equity(verdict.double_pass)),
        ]
    )
    st.caption(
        f"From {_evaluated_by(verdict)}; winning chance {_percent(verdict.win)}, implied "
        f"cube life {_cube_life(verdict)}."
    )
    mine = store.my_vote(code, number, student_id)
    if mine is None:
        st.info("You did not vote on this position.")
    elif question.is_correct(mine[0]):
        st.success(f"You voted {VOTE_WORDS.get(mine[0], mine[0])}: right.")
    else:
        st.error(f"You voted {VOTE_WORDS.get(mine[0], mine[0])}: not this time.")
    if question.position is not None:
        board(question.position, f"classroom_result_board_{number}")
    if tally.count:
        votes_chart(tally, f"classroom_result_votes_{number}")
