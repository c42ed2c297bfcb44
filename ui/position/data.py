"""Cached compute of the position page: the engine's evaluations, shared by every session.

An evaluation is cached per position, cube, score and level for every session of the
process (``st.cache_data``, bounded). At the rollout level a rollout of the shared
queue (the Rollouts page's, :meth:`store.rollout_queue.RolloutQueue.shared`: done, or
running with games in) is read instead of rolling the position out again
(:func:`stored_rollout`); it is never cached here, so a running one is read as it grows.
Levels above 1-ply run on a thread of
:data:`_EVALUATIONS` while the section shows progress and a Stop button
(:func:`ui.position.sections`); a stopped evaluation (:class:`cubecore.engine.
EvaluationStopped`) is not cached.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from cubecore import cubeful, engine
from cubecore import rollout as ro
from cubecore.engine import EngineCubeDecision
from cubecore.match_points import CubeOwner
from cubecore.met import load_table
from cubecore.position import Position
from cubecore.rollout import RolloutResult
from store.rollout_queue import RolloutJob
from ui.position.controls import read_position

#: Levels evaluated together with the chosen one (the implied cube life by level): each
#: level below it, but not 3-ply and 4-ply below a rollout (minutes, and the rollout's
#: own moves are chosen at 2-ply).
LADDER = {
    "1-ply": ("1-ply",),
    "2-ply": ("1-ply", "2-ply"),
    "3-ply": ("1-ply", "2-ply", "3-ply"),
    "4-ply": ("1-ply", "2-ply", "3-ply", "4-ply"),
    "rollout": ("1-ply", "2-ply", "rollout"),
}
#: Threads that run evaluations above 1-ply for the sections (the engine runs one at a
#: time; the others wait in it, each with its own Stop).
_EVALUATIONS = ThreadPoolExecutor(max_workers=8, thread_name_prefix="position-evaluation")


@dataclass(frozen=True)
class Request:
    """One evaluation's inputs, hashable: the position's text, the cube, the score
    (``away = opp_away = 0`` for money) and the level."""

    pos: str
    level: str
    cube: int
    owner: CubeOwner
    away: int
    opp_away: int
    crawford: bool
    jacoby: bool
    beavers: bool

    @property
    def money(self) -> bool:
        return self.away == 0


@dataclass(frozen=True)
class StoredRollout:
    """A rollout of the shared queue for a request: its job, its games so far (combined)
    and the engine adapter's answer made of them."""

    job: RolloutJob
    result: RolloutResult
    decision: EngineCubeDecision


def stored_rollout(request: Request) -> StoredRollout | None:
    """The shared queue's rollout of ``request`` (its position, cube and score, played to
    the end at 1-ply as the page's own rollout): done with the most games, else running
    with games in; None if there is none, or at a level other than a rollout."""
    if request.level != "rollout":
        return None
    from ui.rollouts import data as rollouts

    try:
        queue = rollouts.queue()
        job = queue.shared(
            read_position(request.pos),
            cube=request.cube,
            owner=request.owner,
            away=request.away,
            opp_away=request.opp_away,
            crawford=request.crawford,
            jacoby=request.jacoby,
            beavers=request.beavers,
        )
        result = None if job is None else queue.result(job)
    except SQLAlchemyError:  # the store out of reach: the page rolls out as without it
        return None
    if job is None or result is None:
        return None
    return StoredRollout(job, result, ro.decision(result, job.settings))


def evaluation(request: Request, _stop: threading.Event | None = None) -> EngineCubeDecision:
    """The engine's answer at ``request``: a rollout of the shared queue where there is
    one (:func:`stored_rollout`), else the engine's own (:func:`engine_evaluation`)."""
    stored = stored_rollout(request)
    if stored is not None:
        return stored.decision
    return engine_evaluation(request, _stop)


@st.cache_data(max_entries=1024, show_spinner=False)
def engine_evaluation(request: Request, _stop: threading.Event | None = None) -> EngineCubeDecision:
    """The engine's answer at ``request`` (cached for every session; a stopped or failed
    evaluation is not)."""
    score = {} if request.money else {"away": request.away, "opp_away": request.opp_away}
    return engine.evaluate(
        read_position(request.pos),
        level=request.level,
        cube=request.cube,
        owner=request.owner,
        crawford=request.crawford,
        jacoby=request.jacoby,
        beavers=request.beavers,
        stop=_stop,
        **score,
    )


def ladder(request: Request, stop: threading.Event | None = None) -> dict[str, EngineCubeDecision]:
    """The engine's answer at each level of :data:`LADDER` up to the request's."""
    from dataclasses import replace

    return {
        level: evaluation(replace(request, level=level), stop) for level in LADDER[request.level]
    }


def start(request: Request, stop: threading.Event) -> Future[dict[str, EngineCubeDecision]]:
    """:func:`ladder` on a thread of :data:`_EVALUATIONS`."""
    return _EVALUATIONS.submit(ladder, request, stop)


def match_winning_chance(equity: float, request: Request) -> float:
    """An EMG of the engine (per unit of the current cube) as match winning chance on the
    engine's table, Kazaross-XG2: the line through losing (-1) and winning (+1) the cube's
    points at the score (gnubg's ``eq2mwc``)."""
    table = load_table(engine.ENGINE_TABLE)
    post = request.crawford or 1 in (request.away, request.opp_away)

    def after(mine: int, theirs: int) -> float:
        if mine <= 0 or theirs <= 0:
            return table.mwc(mine, theirs)
        return table.mwc(mine, theirs, post_crawford=post and 1 in (mine, theirs))

    win = after(request.away - request.cube, request.opp_away)
    lose = after(request.away, request.opp_away - request.cube)
    return lose + (equity + 1.0) / 2.0 * (win - lose)


def class_cube_life(position: Position) -> tuple[str, float]:
    """gnubg's position class of ``position`` in words and its default cube life x (the
    anatomy's x on the position page and in the position drills)."""
    try:
        position.home_boards()
        in_home = True
    except ValueError:
        in_home = False
    if position.is_race and not in_home:
        return "race", cubeful.cube_life("race", position.pips[0])
    if in_home:
        return "bear-off", cubeful.cube_life("bearoff")
    return "contact", cubeful.cube_life("contact")


def anatomy_cube_life(implied: float | None, position: Position) -> tuple[float, str]:
    """The cube life x of the anatomy and market window beside an engine's decision, and
    how it was chosen, in words: the implied cube life of the engine's ND equity where it
    lies in 0..1, else gnubg's x for the position's class (:func:`class_cube_life`). One
    rule for the position page, the position drills and the class's reveal slide."""
    if implied is not None and 0.0 <= implied <= 1.0:
        return round(implied, 6), f"the implied cube life x = {implied:.3f}"
    kind, x = class_cube_life(position)
    return x, f"gnubg's x for a {kind} position, {x:.3f} (the implied x is not in 0 to 1)"
