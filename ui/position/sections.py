"""The position page's sections: the engine's answer with the theory's reading, and the
exact race and bear-off values beside it.

Section functions (``render(view)``) and what other parts of the page may call:
:func:`render_answer` (section ``answer``), :func:`render_race` (section ``race``),
:func:`checked_request` (the page's position, cube and score as an engine request, or
None after saying what is wrong) and :func:`evaluated` (the engine's answers up to the
chosen level, with progress and a Stop button).
"""

from __future__ import annotations

import dataclasses
import math
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout

import pandas as pd
import streamlit as st

from cubecore import cubeful, engine
from cubecore.engine import EngineCubeDecision, EvaluationStopped, ImpliedCubeLife
from cubecore.janowski import CUBE_POSITIONS
from cubecore.match_points import CubeOwner
from cubecore.met import load_table
from cubecore.position import Position, position_id
from cubecore.references import source
from ui import widgets
from ui.board import board_figure
from ui.cube import data as cube_data
from ui.pages import link_query
from ui.position import controls, data
from ui.real_race import data as race_data
from ui.rollouts import controls as rollout_controls
from ui.skeleton import View

__all__ = [
    "checked_request",
    "evaluated",
    "read_link",
    "render_answer",
    "render_lead",
    "render_race",
]

#: Session State: the evaluation running for this session (:class:`_Job`).
_JOB = "_position_job"
#: Session State: the request whose evaluation the reader stopped (not started again
#: until he asks, or the request changes).
_STOPPED = "_position_stopped"
#: An evaluation that answers within this many seconds shows no progress (2-ply once
#: the engine's process runs: 0.03-0.2 s).
_QUIET_SECONDS = 0.5
#: How often the progress bar moves while an evaluation runs, seconds.
_TICK_SECONDS = 0.25
_OPEN_CUBE_PAGE = "pages/cube.py"
_ROLLOUTS_PAGE = "pages/rollouts.py"
_THIS_PAGE = "pages/position.py"
_PERCENT = 2


@dataclasses.dataclass(frozen=True)
class _Job:
    request: data.Request
    future: Future[dict[str, EngineCubeDecision]]
    stop: threading.Event
    started: float


def _owner(v: View) -> CubeOwner:
    where = v.choice("cube", CUBE_POSITIONS)
    return "player" if where == "owned" else where


def checked_request(v: View) -> tuple[Position, data.Request] | None:
    """The page's position and its engine request, or None after an error naming what is
    wrong (nothing is evaluated from a position or a setting that is not one)."""
    text = v.text("pos")
    try:
        position = controls.read_position(text)
    except ValueError as error:
        st.error(f"The position is not read: {error}. Nothing is evaluated.")
        return None
    if position.on_roll_borne_off == 15 or position.opponent_borne_off == 15:
        who = "the player on roll" if position.on_roll_borne_off == 15 else "the opponent"
        st.error(f"The game is over: {who} has borne off all 15 checkers. Nothing is evaluated.")
        return None
    cube, owner = int(v.text("cv")), _owner(v)
    match = v.text("mode") == "match"
    if owner == "center" and cube != 1:
        st.error(
            f"A centred cube is on 1 (a cube on {cube} has been turned, so one side owns "
            f"it): set {controls.CUBE_VALUE.label} to 1, or {controls.CUBE.label} to owned or "
            "opponent. Nothing is evaluated."
        )
        return None
    if cube == 1 and owner != "center":
        st.info("A cube on 1 has not been turned: it is read as centred.")
        owner = "center"
    away, opp_away = (v.whole("away"), v.whole("oaway")) if match else (0, 0)
    crawford = match and v.flag("crawford") and 1 in (away, opp_away) and away != opp_away
    request = data.Request(
        pos=position_id(position),
        level=v.text(controls.LEVEL.key),
        cube=cube,
        owner=owner,
        away=away,
        opp_away=opp_away,
        crawford=crawford,
        jacoby=not match and v.flag("jacoby"),
        beavers=not match and v.flag("beavers"),
    )
    return position, request


#: Session State: (Position ID, what was read): the note stands while that position is shown.
_READ_NOTE = "_position_read"


#: Session State: why the pasted text was not read (shown once, in the paste box).
_NOT_READ = "_position_not_read"


def _read_pasted() -> None:
    """The paste box's button: a Position ID or an XGID into the controls (an XGID's cube
    and score too), or a message naming what is wrong (the page keeps its position)."""
    text = str(st.session_state.get(PASTE_KEY, "")).strip()
    try:
        one_line = "\n" not in text and (text.upper().startswith("XGID=") or ":" not in text)
        read = controls.canonical(text) if one_line else controls.pasted_values(text)
    except ValueError as error:
        st.session_state[_NOT_READ] = f"Not read: {error}. The position shown is unchanged."
        return
    if read is None:
        found = position_id(controls.read_position(text))
        st.session_state[controls.POSITION.key] = found
        st.session_state[_READ_NOTE] = (found, "Read the Position ID.")
        return
    values, said = read
    for key, value in values.items():
        st.session_state[key] = value
    st.session_state[_READ_NOTE] = (values[controls.POSITION.key], said)


#: The paste box's key and its button's.
PASTE_KEY, READ_KEY = "pos-paste", "pos-read"


def render_lead(v: View) -> None:
    """Above the tabs: a box to paste a Position ID or an XGID (read by a button), what
    was read (a pasted XGID, or one in the link: :func:`read_link`)."""
    if not v.present:  # a projector's first screen is the view: the teacher brings a link
        _paste_box()
    read = st.session_state.get(_READ_NOTE)
    if read is not None and read[0] == v.text(controls.POSITION.key):
        st.info(read[1], icon=":material/input:")  # while the position read is shown


def read_link(link: Mapping[str, str]) -> Mapping[str, object]:
    """An XGID in the link's position: its Position ID, cube and score, as the link
    arrives (:attr:`ui.skeleton.Page.read_link`), with a note at the top; nothing for
    anything else (a bad one is named by the link's notice)."""
    text = link.get(controls.POSITION.key, "")
    if not text.strip().upper().startswith("XGID="):
        return {}
    try:
        read = controls.canonical(text)
    except ValueError:
        return {}
    if read is None:
        return {}
    values, said = read
    st.session_state[_READ_NOTE] = (values[controls.POSITION.key], said)
    return values


def _paste_box() -> None:
    with st.form("pos-paste-form", border=False, enter_to_submit=True):
        box, button = st.columns([5, 1], vertical_alignment="bottom")
        box.text_area(
            "Paste a Position ID, an XGID, or the position as gnubg or XG copies it",
            key=PASTE_KEY,
            max_chars=controls.MAX_PASTE_CHARACTERS,
            height=68,
            placeholder="XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
        )
        button.form_submit_button("Analyse", key=READ_KEY, on_click=_read_pasted)
    problem = st.session_state.pop(_NOT_READ, None)
    if problem:
        st.error(problem)


def _stop_job() -> None:
    """The Stop button's callback: stop this session's evaluation, and keep it stopped."""
    job: _Job | None = st.session_state.get(_JOB)
    if job is not None:
        job.stop.set()
        st.session_state[_STOPPED] = job.request


def _evaluate_again() -> None:
    st.session_state.pop(_STOPPED, None)


def evaluated(
    request: data.Request, shared: data.StoredRollout | None = None
) -> dict[str, EngineCubeDecision] | None:
    """The engine's answers at each level up to the request's (:data:`ui.position.data.
    LADDER`), or None after saying why not (stopped, over its time budget, failed).

    1-ply answers at once; a deeper level runs on a thread while, after
    :data:`_QUIET_SECONDS`, a progress bar shows the time spent against the level's
    budget beside a Stop button. A new request stops this session's previous one.

    At the rollout level, a rollout of the shared queue (``shared``, else the one
    :func:`ui.position.data.stored_rollout` finds) is the answer: nothing is rolled out
    again, and a running one is followed live (:func:`_shared_note`).
    """
    if request.level == "rollout":
        shared = shared or data.stored_rollout(request)
        if shared is not None:
            below = evaluated(dataclasses.replace(request, level="2-ply"))
            if below is None:
                return None
            _shared_note(shared)
            return {**below, "rollout": shared.decision}
    if request.level == "1-ply":
        return _answer(lambda: data.ladder(request), request)
    job: _Job | None = st.session_state.get(_JOB)
    if job is not None and job.request != request and not job.future.done():
        job.stop.set()  # the reader moved on: the old evaluation frees the engine
    if st.session_state.get(_STOPPED) == request:
        st.info(
            f"You stopped the {request.level} evaluation. Choose another level, or evaluate again.",
            icon=":material/stop_circle:",
        )
        st.button("Evaluate again", key="pos-again", on_click=_evaluate_again)
        return None
    st.session_state.pop(_STOPPED, None)
    if job is None or job.request != request or (job.future.done() and _failed(job)):
        stop = threading.Event()
        job = _Job(request, data.start(request, stop), stop, time.monotonic())
        st.session_state[_JOB] = job
    return _answer(lambda: _waited(job), request)


#: How often a running shared rollout is looked at, seconds.
_WATCH_SECONDS = 2.0


def _shared_note(shared: data.StoredRollout) -> None:
    """Where the rollout comes from, its games and standard errors; while it runs, its
    progress, looked at every :data:`_WATCH_SECONDS` (the page redraws when games come
    in, and when it is done)."""
    r, job = shared.result, shared.job
    se = ", ".join(
        f"{value:.4f} ({name})"
        for value, name in zip(
            r.standard_errors, ("cubeless equity", "No double", "Double, take"), strict=True
        )
    )
    running = job.state == "running"
    games = f"{r.trials:,} of {job.trials:,} games so far" if running else f"{r.trials:,} games"
    st.info(
        f"The rollout of this position, cube and score from the shared queue (the Rollouts "
        f"page): {games}, checker play at 1-ply, played to the end. Standard errors: {se}. "
        "It is not rolled out again.",
        icon=":material/cloud_done:" if not running else ":material/cloud_sync:",
    )
    if running:
        _watch(job.key, r.trials)


@st.fragment(run_every=_WATCH_SECONDS)
def _watch(key: str, shown: int) -> None:
    """A running shared rollout's progress; the page runs again when games come in."""
    from ui.rollouts import data as rollouts

    queue = rollouts.queue()
    job, progress = queue.job(key), queue.progress(key)
    if job is None or job.state != "running" or progress.trials != shown:
        st.rerun(scope="app")
    else:
        st.progress(
            min(progress.trials / job.trials, 1.0),
            text=f"The cluster has played {progress.trials:,} of {job.trials:,} games; "
            "the numbers here follow as more come in.",
        )


def _failed(job: _Job) -> bool:
    """Whether a finished job was stopped (by a later request of the reader): it runs
    again when he comes back to it. One over its budget or failed stays so (its message
    stands; a new try would spend the budget again)."""
    return isinstance(job.future.exception(), EvaluationStopped)


def _waited(job: _Job) -> dict[str, EngineCubeDecision]:
    """The job's result, with a progress bar and a Stop button while it runs."""
    try:
        return job.future.result(timeout=_QUIET_SECONDS)
    except FutureTimeout:
        pass
    budget = sum(engine.DEFAULT_BUDGETS[level] for level in data.LADDER[job.request.level])
    box = st.empty()
    with box.container():
        bar = st.progress(0.0, text=_progress_text(job, budget))
        st.button("Stop the evaluation", key="pos-stop", on_click=_stop_job, icon=":material/stop:")
    while True:
        try:
            result = job.future.result(timeout=_TICK_SECONDS)
            break
        except FutureTimeout:
            spent = time.monotonic() - job.started
            bar.progress(min(spent / budget, 1.0), text=_progress_text(job, budget))
    box.empty()
    return result


def _progress_text(job: _Job, budget: float) -> str:
    spent = time.monotonic() - job.started
    first = " (the first deeper evaluation also starts the engine's process)" if spent < 5 else ""
    return (
        f"The engine evaluates at {job.request.level}: {spent:.1f} s so far, at most "
        f"{budget:.0f} s{first}."
    )


def _answer(
    run: Callable[[], dict[str, EngineCubeDecision]], request: data.Request
) -> dict[str, EngineCubeDecision] | None:
    """``run()`` with each way it can fail said in words (None then)."""
    try:
        return run()
    except EvaluationStopped:
        st.info(f"The {request.level} evaluation was stopped.", icon=":material/stop_circle:")
    except TimeoutError:
        st.error(
            f"The {request.level} evaluation did not finish within its time budget and was "
            "stopped: choose a lower level."
        )
    except (ValueError, RuntimeError) as error:
        st.error(f"The engine could not evaluate this position: {error}.")
    return None


def _cube_words(request: data.Request) -> str:
    cube = {
        "center": "cube centred",
        "player": f"the player on roll owns the {request.cube}-cube",
        "opponent": f"the opponent owns the {request.cube}-cube",
    }[request.owner]
    if request.money:
        rules = [
            name for name, on in (("Jacoby", request.jacoby), ("beavers", request.beavers)) if on
        ]
        return f"money play, {cube}" + (f", {' and '.join(rules)}" if rules else "")
    game = ", Crawford game" if request.crawford else ""
    return f"{request.away}-away/{request.opp_away}-away{game}, {cube}"


def _percent(value: float) -> str:
    return f"{100.0 * value:.{_PERCENT}f}%"


def _equity(value: float | None) -> str:
    if value is None:
        return "—"
    rounded = round(value, 4) + 0.0
    return f"{rounded:+.4f}" if rounded else "0.0000"


def _proper(d: EngineCubeDecision) -> cubeful.ProperCubeAction | None:
    """The engines' block of the engine's three equities (None where he cannot double)."""
    if d.double_take is None or d.double_pass is None:
        return None
    return cubeful.proper_cube_action(
        d.no_double,
        d.double_take,
        d.double_pass,
        centred=d.owner == "center",
        can_gammon=d.probabilities.win_gammon > 0.0,
        money=d.money,
        jacoby=d.jacoby,
        beavers=d.beavers,
    )


def _board(position: Position, request: data.Request) -> None:
    widgets.chart(
        board_figure(position, cube_value=request.cube, cube_owner=request.owner),
        "position_board",
    )


def render_answer(v: View) -> None:
    """The board, the engine's answer and the theory's reading of it."""
    checked = checked_request(v)
    if checked is None:
        return
    position, request = checked
    shared = data.stored_rollout(request)
    answers = evaluated(request, shared)
    if answers is None:
        _board(position, request)
        _to_rollouts(request)
        return
    d = answers[request.level]
    proper = _proper(d)
    widgets.proper_action_line(d.action)
    implied = d.implied_cube_life()
    unit = "money equity" if request.money else "EMG (normalised match equity)"
    widgets.headline(
        [
            ("Cubeless winning chance", _percent(d.probabilities.win)),
            ("No double", _equity(d.no_double)),
            ("Double, take", _equity(d.double_take)),
            ("Implied cube life x", "undefined" if implied.x is None else f"{implied.x:.3f}"),
        ]
    )
    if not v.present:
        st.caption(
            f"The engine at {request.level}, {_cube_words(request)}; equities per unit of "
            f"the cube, in {unit}. Engine: Open Sage {engine.ENGINE_VERSION} "
            "(https://github.com/markbgsage/bgsage); its 1-ply is gnubg's 0-ply."
        )
    _board(position, request)
    games = engine.DEFAULT_ROLLOUT_TRIALS if shared is None else shared.result.trials
    _engine_numbers(d, proper, request, games)
    _reading(position, answers, request, v)
    _to_cube_calculator(d, request, implied)
    _to_rollouts(request)


def _to_rollouts(request: data.Request) -> None:
    """One link: the Rollouts page with this position, cube and score in its paste box
    (an XGID), not submitted: the reader chooses the trials and presses Roll out."""
    text = rollout_controls.xgid_text(
        request.pos,
        cube=request.cube,
        owner=request.owner,
        away=request.away,
        opp_away=request.opp_away,
        crawford=request.crawford,
        jacoby=request.jacoby,
        beavers=request.beavers,
    )
    st.page_link(
        _ROLLOUTS_PAGE,
        label="Roll out this position on the cluster (choose the trials, then press Roll out)",
        icon=":material/casino:",
        query_params=link_query(_ROLLOUTS_PAGE, {rollout_controls.POSITIONS.key: text}),
    )


def _engine_numbers(
    d: EngineCubeDecision,
    proper: cubeful.ProperCubeAction | None,
    request: data.Request,
    games: int = engine.DEFAULT_ROLLOUT_TRIALS,
) -> None:
    """The engine's cubeless probabilities, its cubeful equities and the proper action."""
    st.subheader("The engine's answer")
    p = d.probabilities
    rows = {
        "Player on roll": (p.win, p.win_gammon, p.win_backgammon),
        "Opponent": (1.0 - p.win, p.lose_gammon, p.lose_backgammon),
    }
    table = pd.DataFrame(
        [
            {
                "Side": side,
                "Wins, %": round(100.0 * w, _PERCENT),
                "Gammons (with backgammons), %": round(100.0 * g, _PERCENT),
                "Backgammons, %": round(100.0 * b, _PERCENT),
            }
            for side, (w, g, b) in rows.items()
        ]
    )
    widgets.table_with_download(table, f"position_probabilities_{request.level}.csv")
    chance = ""
    if not request.money:
        mwc = data.match_winning_chance(d.cubeless_equity, request)
        chance = f" (match winning chance {_percent(mwc)})"
    st.caption(
        f"Cubeless equity {_equity(d.cubeless_equity)}{chance}. Gammons include "
        "backgammons, as the engines print them."
    )
    if proper is not None:
        unit = (
            "money equity per unit of the cube"
            if request.money
            else "EMG on the engine's table, Kazaross-XG2"
        )
        st.markdown(widgets.proper_action_markdown(proper))
        st.caption(
            f"The engine's three equities of the player on roll, in {unit}; cost: the "
            "action's equity minus the proper one's. The proper action is the app's one "
            "decision rule on them, as gnubg words it."
        )
    else:
        st.info("The player on roll cannot double here: only No double is shown.")
    if not request.money:
        chances = [("No double, MWC", d.no_double)]
        if d.double_take is not None and d.double_pass is not None:
            chances += [("Double/take, MWC", d.double_take), ("Double/pass, MWC", d.double_pass)]
        widgets.metric_row(
            [(label, _percent(data.match_winning_chance(e, request))) for label, e in chances]
        )
    if d.standard_errors is not None:
        se = [f"{value:.4f}" if value is not None else "—" for value in d.standard_errors]
        st.caption(
            f"Rollout of {games:,} games: standard errors {se[0]} "
            f"(cubeless equity), {se[1]} (No double), {se[2]} (Double, take)."
        )


def _x(implied: ImpliedCubeLife) -> str:
    return "undefined" if implied.x is None else f"{implied.x:.3f}"


def _reading(
    position: Position,
    answers: dict[str, EngineCubeDecision],
    request: data.Request,
    v: View,
) -> None:
    """The theory's reading: implied cube life, then anatomy, margins and the market
    window computed on the engine's probabilities."""
    d = answers[request.level]
    st.subheader("The theory's reading of the engine's answer")
    nd, dt = d.implied_cube_life(), d.implied_cube_life("double_take")
    kind, default_x = data.class_cube_life(position)
    widgets.metric_row(
        [
            ("Implied cube life x, No double", _x(nd)),
            ("Implied cube life x, Double/take", _x(dt)),
            (f"gnubg's x for a {kind} position", f"{default_x:.3f}"),
            ("The engine's own x at 1-ply", f"{engine.engine_cube_life(position):.3f}"),
        ]
    )
    for what, implied in (("No double", nd), ("Double/take", dt)):
        if implied.x is None:
            st.caption(f"{what}: the implied cube life is undefined here: {implied.reason}.")
    by_level = pd.DataFrame(
        [
            {
                "Level": level,
                "No double": round(answer.no_double, 4),
                "x, No double": _rounded(answer.implied_cube_life()),
                "x, Double/take": _rounded(answer.implied_cube_life("double_take")),
                "Engine's action": answer.action,
            }
            for level, answer in answers.items()
        ]
    )
    widgets.table_with_download(by_level, f"position_cube_life_{request.level}.csv")
    if not v.present:
        st.caption(
            "The implied cube life is the x that makes Janowski's model give the engine's "
            "own equity from the engine's own cubeless chances: 0 a dead cube, 1 a fully "
            "live one. Above 1 the engine finds the cube worth more than the model's live "
            "cube; below 0 less than a dead one. At 1-ply the engine uses Janowski's "
            "formula itself, so x is its own estimate; the deeper levels look ahead and x "
            "shows how far they move from it."
        )
        widgets.formula(
            r"E(x) = (1 - x)\,E_{\mathrm{dead}} + x\,E_{\mathrm{live}},\quad "
            r"x^{*} = \frac{E_{\mathrm{engine}} - E_{\mathrm{dead}}}"
            r"{E_{\mathrm{live}} - E_{\mathrm{dead}}}",
            source("J93") + "; " + source("GNUBG", "cube efficiency"),
        )
    _anatomy_and_window(d, nd, position, request, v)


def _rounded(implied: ImpliedCubeLife) -> float | None:
    return None if implied.x is None else round(implied.x, 4)


def _anatomy_and_window(
    d: EngineCubeDecision,
    implied: ImpliedCubeLife,
    position: Position,
    request: data.Request,
    v: View,
) -> None:
    """The cube calculator's market window, anatomy and margins on the engine's chances,
    at the implied x (the class's x where that is undefined or outside 0..1:
    :func:`ui.position.data.anatomy_cube_life`)."""
    x, said = data.anatomy_cube_life(implied.x, position)
    table_key = v.text("met")
    if not request.money:
        table = load_table(table_key)
        if max(request.away, request.opp_away) > table.length:
            st.info(
                f"{table.name} covers scores up to {table.length}-away: no market window "
                "at this score on it."
            )
            return
    p = d.probabilities
    probabilities = (
        round(p.win, 6),
        round(p.win_gammon, 6),
        round(p.win_backgammon, 6),
        round(p.lose_gammon, 6),
        round(p.lose_backgammon, 6),
    )
    setting = cube_data.Setting(
        x=x,
        cube=request.cube,
        owner=request.owner,
        match=not request.money,
        jacoby=request.jacoby,
        beavers=request.beavers,
        table=table_key,
        away=max(request.away, 1),
        opp_away=max(request.opp_away, 1),
        crawford=request.crawford,
    )
    window = cube_data.decision_view(p=probabilities, s=setting)
    st.subheader("Market window at the engine's chances")
    if window.windows is not None:
        st.markdown(widgets.market_window_markdown(window.windows))
    widgets.chart(window.window_figure, "position_market_window")
    table_name = "" if request.money else f", on {load_table(table_key).name}"
    st.caption(
        f"Janowski's model on the engine's five chances at {said}{table_name}: the "
        "position's own winning chance is marked on each window, and the shaded band is "
        "where the best action stays the same."
    )
    anatomy = cube_data.anatomy_view(p=probabilities, s=setting)
    if anatomy is None:
        return
    st.subheader("Anatomy of the decision and its margins")
    widgets.metric_row(
        [
            ("DT - ND (model)", f"{anatomy.total:+.4f}"),
            (f"Largest term: {anatomy.largest}", f"{anatomy.terms[anatomy.largest]:+.4f}"),
        ]
    )
    widgets.chart(anatomy.figure, "position_anatomy")
    m = anatomy.margins
    rows = [
        ("Winning chance", m.win_down, m.win_up),
        ("Gammon rate of the wins", m.win_gammon_down, m.win_gammon_up),
        ("Gammon rate of the losses", m.lose_gammon_down, m.lose_gammon_up),
    ]
    columns = st.columns(3)
    for column, (label, down, up) in zip(columns, rows, strict=True):
        column.metric(f"{label}: down", _margin(down))
        column.metric(f"{label}: up", _margin(up))
    if not v.present:
        st.caption(
            "Margins: how far each of the engine's numbers may move before the model's "
            "best action changes. " + source("J93") + "; " + source("JR12")
        )


def _margin(value: float | None) -> str:
    return "no change" if value is None or math.isnan(value) else f"{value:.2%}"


def _to_cube_calculator(
    d: EngineCubeDecision, request: data.Request, implied: ImpliedCubeLife
) -> None:
    """One link: the engine's chances, the cube and the score on the cube calculator."""
    p = d.probabilities
    values: dict[str, object] = {
        "pw": round(100.0 * p.win, 2),
        "pwg": round(100.0 * p.win_gammon, 2),
        "pwb": round(100.0 * p.win_backgammon, 2),
        "plg": round(100.0 * p.lose_gammon, 2),
        "plb": round(100.0 * p.lose_backgammon, 2),
        "mode": "money" if request.money else "match",
        "cv": str(request.cube),
        "cube": {"center": "center", "player": "owned", "opponent": "opponent"}[request.owner],
        "pos": request.pos,
    }
    if request.money:
        values.update(jacoby=request.jacoby, beavers=request.beavers)
    else:
        values.update(away=request.away, oaway=request.opp_away, crawford=request.crawford)
    if implied.x is not None and 0.0 <= implied.x <= 1.0:
        values.update(xfrom="by hand", x=round(implied.x, 2))
    st.page_link(
        _OPEN_CUBE_PAGE,
        label="Open these chances in the cube calculator",
        icon=":material/calculate:",
        query_params=link_query(_OPEN_CUBE_PAGE, values),
    )


def render_race(v: View) -> None:
    """Where the app's exact databases and race models apply: their answer beside the
    engine's, with the differences."""
    checked = checked_request(v)
    if checked is None:
        return
    position, request = checked
    if not position.is_race:
        on_roll, opponent = position.pips
        widgets.headline([("Pips, on roll", str(on_roll)), ("Pips, opponent", str(opponent))])
        _board(position, request)
        st.info(
            "This is not a race (the checkers can still meet): the app's race models and "
            "bear-off databases do not apply. The engine's answer is in the first tab."
        )
        return
    if not request.money:
        on_roll, opponent = position.pips
        widgets.headline([("Pips, on roll", str(on_roll)), ("Pips, opponent", str(opponent))])
        _board(position, request)
        st.info(
            "The exact race values here are for money play: switch Play to money, or see "
            "the match values of this race on the Real races page."
        )
        _real_race_link(request)
        return
    where = {"center": "center", "player": "owned", "opponent": "opponent"}[request.owner]
    race = race_data.money_verdict(request.pos, where)  # type: ignore[arg-type]
    answers = evaluated(request)
    if answers is None:
        return
    d = answers[request.level]
    how = (
        "the exact two-sided bear-off database"
        if race.exact
        else "the race model solved exactly on the pip counts"
    )
    nan = float("nan")
    rows = [
        ("Winning chance, %", 100.0 * d.probabilities.win, 100.0 * race.cubeless_win),
        ("No double", d.no_double, race.no_double),
        ("Double, take", d.double_take if d.double_take is not None else nan, race.double_take),
        ("Double, pass", d.double_pass if d.double_pass is not None else nan, race.double_pass),
        ("Best play", d.optimal, race.optimal),
    ]
    table = pd.DataFrame(
        [
            {
                "": label,
                f"Engine, {request.level}": round(engine_value, 4),
                "The app's exact values": round(exact, 4),
                "Difference (engine - exact)": round(engine_value - exact, 4),
            }
            for label, engine_value, exact in rows
        ]
    )
    widgets.headline(
        [
            ("Engine's action", d.action),
            ("Exact action", race.action),
            (
                "Winning chance, engine - exact",
                f"{100.0 * (d.probabilities.win - race.cubeless_win):+.2f} pp",
            ),
        ]
    )
    _board(position, request)
    widgets.table_with_download(table, f"position_race_{request.level}.csv")
    st.caption(
        f"Money play, {_cube_words(request)}; equities per unit of the cube. The app's values "
        f"come from {how}. The engine reads bear-offs from a one-sided database: its "
        f"winning chance may be off by up to {100 * engine.BEAROFF_WIN_ERROR:.1f} percentage "
        "points against the exact two-sided value."
    )
    _real_race_link(request)


def _real_race_link(request: data.Request) -> None:
    st.page_link(
        "pages/real_race.py",
        label="This race on the Real races page",
        icon=":material/directions_run:",
        query_params=link_query("pages/real_race.py", {"pos": request.pos}),
    )
