"""The position page's score matrix and verdict across levels (issue #39).

:func:`render_matrix` and :func:`render_levels` read the page's link keys through the
section's :class:`~ui.skeleton.View` (``pos``, ``mode``, ``cv``, ``cube``, ``jacoby``,
``beavers``, ``away``, ``oaway``, ``crawford``, ``met``, ``level``, ``n``). Each engine
evaluation is cached per (position, cube, score, level) for every session of the
process (:func:`evaluation`), so a grid that was stopped, or a level asked again,
continues from what is known. A grid or a level list that takes time shows its
progress and a button that stops it.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable
from typing import Any

import pandas as pd
import streamlit as st

from cubecore import engine, met
from cubecore import position_matrix as pm
from cubecore.janowski import CUBE_POSITIONS
from cubecore.match_points import CubeOwner
from cubecore.position import Position, position_id
from cubecore.references import source
from ui import widgets
from ui.position import data, matrix_charts
from ui.position.controls import read_position
from ui.skeleton import View

__all__ = [
    "MATRIX_FALLBACK_LEVEL",
    "Inputs",
    "inputs",
    "levels_table",
    "matrix_table",
    "render_levels",
    "render_matrix",
]

#: The level of the score matrix when the page's level is a rollout (one rollout per
#: score would take hours; 3-ply took about 0.3 s a score on 2 shared cores).
MATRIX_FALLBACK_LEVEL = "3-ply"
#: The matrix's score grid in words (:func:`cubecore.position_matrix.matrix_cells`' states).
GAMES = {
    "money": "money",
    "pre-crawford": "before Crawford",
    "crawford": "Crawford game",
    "post-crawford": "after Crawford",
}
#: The mark of the current score in the tables.
CURRENT = " (current score)"
#: Equities to 4 decimals, as engines print them.
EQUITY_DECIMALS = 4
#: Session keys: the run the user stopped, and how far the last run of each got.
_STOPPED = "_position_stopped"
_DONE = "_position_done"


@dataclasses.dataclass(frozen=True)
class Inputs:
    """What the two sections read from the link, checked (hashable)."""

    position_id: str
    position: Position
    level: str
    n: int
    table: str
    match: bool
    cube: int
    owner: CubeOwner
    away: int
    opp_away: int
    crawford: bool
    jacoby: bool
    beavers: bool

    @property
    def score(self) -> dict[str, Any]:
        """The score keywords of :func:`cubecore.engine.evaluate` (none for money)."""
        if not self.match:
            return {}
        return {"away": self.away, "opp_away": self.opp_away, "crawford": self.crawford}

    @property
    def score_words(self) -> str:
        """The current score as players say it."""
        if not self.match:
            return "money"
        game = " (Crawford game)" if self.crawford else ""
        return f"{self.away}-away/{self.opp_away}-away{game}"


def inputs(v: View) -> Inputs | None:
    """The checked inputs, or None after saying in words what is wrong."""
    text = v.text("pos")
    try:
        position = read_position(text)
    except ValueError as error:
        st.error(f"{text!r} is not a position the app can read: {error}. Nothing is evaluated.")
        return None
    if position.on_roll_borne_off == 15 or position.opponent_borne_off == 15:
        st.error("One side has borne off all its checkers: the game is over, nothing to evaluate.")
        return None
    match = v.text("mode") == "match"
    cube = int(v.text("cv"))
    where = v.choice("cube", CUBE_POSITIONS)
    owner: CubeOwner = "player" if where == "owned" else where
    if owner == "center" and cube != 1:
        st.error(
            f"A centred cube is on 1 (a cube on {cube} has been turned, so one side owns it): "
            "set the cube value to 1, or the cube to owned or opponent. Nothing is evaluated."
        )
        return None
    away, opp_away = v.whole("away"), v.whole("oaway")
    return Inputs(
        position_id=position_id(position),
        position=position,
        level=v.choice("depth", engine.LEVELS),
        n=v.whole("n"),
        table=v.text("met"),
        match=match,
        cube=cube,
        owner=owner,
        away=away,
        opp_away=opp_away,
        crawford=v.flag("crawford") and match and 1 in (away, opp_away) and away != opp_away,
        jacoby=v.flag("jacoby") and not match,
        beavers=v.flag("beavers") and not match,
    )


def _cached(position: Position) -> pm.Evaluator:
    """The page's cached evaluation (:func:`ui.position.data.evaluation`) with
    :func:`cubecore.engine.evaluate`'s keywords."""
    text = position_id(position)

    def evaluate(
        position: Position,
        *,
        level: str = "1-ply",
        cube: int = 1,
        owner: CubeOwner = "center",
        away: int | None = None,
        opp_away: int | None = None,
        crawford: bool = False,
        jacoby: bool = False,
        beavers: bool = False,
        budget: float | None = None,
        trials: int = engine.DEFAULT_ROLLOUT_TRIALS,
    ) -> engine.EngineCubeDecision:
        # the page's one cache of evaluations (ui.position.data): a cell of the grid at
        # the page's own score is the answer the first tab shows; each call keeps the
        # engine's budget of its level, the grid's budget is checked between cells
        del budget, trials
        return data.evaluation(
            data.Request(
                text, level, cube, owner, away or 0, opp_away or 0, crawford, jacoby, beavers
            )
        )

    return evaluate


# --------------------------------------------------------------------------- running


def _stop(key: tuple[object, ...]) -> None:
    st.session_state[_STOPPED] = key


def _resume() -> None:
    st.session_state.pop(_STOPPED, None)


#: Seconds a computation runs before its progress bar and Stop button appear.
_QUIET_SECONDS = 0.5


def _run(
    key: tuple[object, ...],
    what: str,
    compute: Callable[[pm.Progress | None, pm.Cancel | None], Any],
) -> Any:
    """Run ``compute(progress, cancel)`` with a progress bar and a Stop button; after a
    stop, only what the last run finished (its cells are cached) and a button to go on.

    The Stop button's click reruns the page: Streamlit ends the running computation at
    its next progress update, and this run sees the stop."""
    if st.session_state.get(_STOPPED) == key:
        done = int(st.session_state.get(_DONE, {}).get(key, 0))
        counted = [0]

        def finished() -> bool:
            counted[0] += 1
            return counted[0] > done

        result = compute(None, finished)
        if result.complete:  # the stop came as the last one finished
            _resume()
        else:
            st.button(f"Finish the {what}", key=f"resume:{what}", on_click=_resume)
        return result
    # the progress bar and its Stop button appear only once the work proves slow: a grid
    # whose cells are cached draws nothing transient (nothing to send, nothing to flash)
    started = time.monotonic()
    shown: dict[str, Any] = {}

    def progress(done: int, total: int) -> None:
        st.session_state[_DONE] = {key: done}  # the running one only
        if "bar" not in shown:
            if time.monotonic() - started < _QUIET_SECONDS:
                return
            shown["box"] = st.empty()
            with shown["box"].container():
                st.button("Stop", key=f"stop:{what}", on_click=_stop, args=(key,))
                shown["bar"] = st.progress(0.0, text=f"Evaluating the {what}…")
        shown["bar"].progress(done / total, text=f"Evaluating the {what}: {done} of {total}")

    result = compute(progress, None)
    if "box" in shown:
        shown["box"].empty()
    return result


def _stopped_note(reason: str, done: int, total: int, unit: str) -> None:
    why = "you stopped it" if reason == "cancelled" else "it ran out of time"
    st.warning(
        f"Stopped after {done} of {total} {unit} because {why}; the rest is blank. "
        "What was evaluated is kept: finish it to fill the rest."
    )


# --------------------------------------------------------------------------- matrix


def _score_text(state: str, a: int, b: int) -> str:
    return "money" if state == "money" else f"{a}-away/{b}-away"


def _current(i: Inputs) -> tuple[str, int, int]:
    """The matrix row of the current score."""
    if not i.match:
        return "money", 0, 0
    if i.away == i.opp_away == 1:
        return "post-crawford", 1, 1
    if 1 in (i.away, i.opp_away):
        return ("crawford" if i.crawford else "post-crawford"), i.away, i.opp_away
    return "pre-crawford", i.away, i.opp_away


def matrix_table(matrix: pm.PositionMatrix, current: tuple[str, int, int]) -> pd.DataFrame:
    """The score matrix as a player reads it: the score and the game in words, both
    actions and whether they differ, the equities to 4 decimals; the current score marked."""
    cells = matrix.cells
    rows = []
    for r in cells.to_dict("records"):
        here = (r["state"], int(r["away"]), int(r["opp_away"])) == current
        rows.append(
            {
                "Score": _score_text(r["state"], r["away"], r["opp_away"])
                + (CURRENT if here else ""),
                "Game": GAMES[r["state"]],
                f"Engine ({matrix.level})": r["engine_action"] or "not evaluated",
                "App's reading": r["app_action"] or "not evaluated",
                "Readings differ": ("yes" if r["disagree"] else "no") if r["evaluated"] else "",
                "Engine: No double": r["engine_no_double"],
                "Engine: Double, take": r["engine_double_take"],
                "Engine: Double, pass": r["engine_double_pass"],
                "App: No double": r["app_no_double"],
                "App: Double, take": r["app_double_take"],
                "App: Double, pass": r["app_double_pass"],
                "Best equity, engine minus app": r["optimal_difference"],
                "Win %": 100.0 * r["win"],
            }
        )
    table = pd.DataFrame(rows)
    numbers = [c for c in table.columns if table[c].dtype.kind == "f" and c != "Win %"]
    table[numbers] = table[numbers].round(EQUITY_DECIMALS)
    table["Win %"] = table["Win %"].round(2)
    return table


def render_matrix(v: View) -> None:
    """The position's cube action at every score: the engine's beside the app's reading
    on the chosen table, where they differ marked; the current score outlined."""
    i = inputs(v)
    if i is None:
        return
    level = i.level
    if level not in pm.MATRIX_LEVELS:
        level = MATRIX_FALLBACK_LEVEL
        st.info(
            f"A rollout at every score would take hours: the score matrix is evaluated at {level}."
        )
    table = met.load_table(i.table)
    n = min(i.n, table.length)
    if n < i.n:
        st.info(f"{table.name} covers scores up to {table.length}-away: the grid is {n} x {n}.")
    x = engine.engine_cube_life(i.position)
    key = ("matrix", i.position_id, level, n, i.table, i.jacoby, i.beavers)

    def compute(progress: pm.Progress | None, cancel: pm.Cancel | None) -> pm.PositionMatrix:
        return pm.position_matrix(
            i.position, level=level, n=n, table=table, x=x, jacoby=i.jacoby,
            beavers=i.beavers, progress=progress, cancel=cancel,
            evaluate=_cached(i.position),
        )  # fmt: skip

    try:
        matrix: pm.PositionMatrix = _run(key, "score matrix", compute)
    except RuntimeError as error:
        st.error(f"The engine could not evaluate this position: {error}.")
        return
    cells = matrix.cells
    done = cells[cells["evaluated"]]
    current = _current(i)
    here = cells[
        (cells["state"] == current[0])
        & (cells["away"] == current[1])
        & (cells["opp_away"] == current[2])
    ]
    differ = int(done["disagree"].sum())
    where = f"At {i.score_words}" if i.match else "Money"
    label = f"{where}, cube centred: the engine at {level}"
    if here.empty:
        action = f"outside the {n} x {n} grid"
    else:
        action = str(here["engine_action"].iloc[0]) or "not evaluated"
    widgets.headline(
        [
            (label, action),
            (f"Scores where the app's reading on {table.name} differs", f"{differ} of {len(done)}"),
        ]
    )
    if not matrix.complete:
        _stopped_note(matrix.stopped, len(done), len(cells), "scores")
    outlined = (i.away, i.opp_away) if i.match else None
    widgets.two_charts(
        (
            matrix_charts.matrix_figure(cells, n, "engine", f"The engine, {level}", outlined),
            f"position_matrix_engine_{level}_{n}",
        ),
        (
            matrix_charts.matrix_figure(
                cells, n, "app", f"The app's reading, x = {x:.2f}", outlined
            ),
            f"position_matrix_app_{i.table}_{n}",
        ),
        present=v.present,
        formulas=(
            (
                r"E = (1 - x)\,E_{\mathrm{dead}} + x\,E_{\mathrm{live}}",
                source("J93") + "; " + source("GNUBG", "match cube decisions"),
            ),
        ),
    )
    if not v.present:
        st.caption(
            f"Cube centred at every score. Left: the engine's own match evaluation at "
            f"{level} (its match table is Kazaross XG2). Right: the app's reading of the "
            f"engine's winning chances at that score with Janowski's cube life "
            f"x = {x:.2f} (the engine's own at its 1-ply) on {table.name}. Each cell: "
            f"ND no double, D/T double/take, D/P double/pass, TG too good, – no cube "
            f"action (row and column 1: the Crawford game); "
            f"{matrix_charts.DIFFERS} and a dashed outline: the two differ. The "
            "current score is outlined. Scores after Crawford and money are in the table."
        )
        widgets.table_with_download(
            matrix_table(matrix, current), f"position_matrix_{level}_{i.table}_{n}.csv"
        )


# --------------------------------------------------------------------------- levels


def levels_table(verdict: pm.LevelVerdict) -> pd.DataFrame:
    """The verdict across levels as a player reads it: the action and its flips, the
    winning chances in percent, equities to 4 decimals, the implied cube life to 3."""
    rows = []
    for r in verdict.levels.to_dict("records"):
        undefined = not r["evaluated"] or math.isnan(r["cube_life"])
        rows.append(
            {
                "Level": r["level"],
                "Proper action": r["action"] or "not evaluated",
                "Changes": "the action changes here" if r["flips"] else "",
                "Win %": round(100.0 * r["win"], 2),
                "Win gammon %": round(100.0 * r["win_gammon"], 2),
                "Lose gammon %": round(100.0 * r["lose_gammon"], 2),
                "Cubeless": round(r["cubeless_equity"], EQUITY_DECIMALS),
                "No double": round(r["no_double"], EQUITY_DECIMALS),
                "Double, take": round(r["double_take"], EQUITY_DECIMALS),
                "Double, pass": round(r["double_pass"], EQUITY_DECIMALS),
                "Implied cube life": math.nan if undefined else round(r["cube_life"], 3),
                "Standard error, No double": round(r["se_no_double"], EQUITY_DECIMALS),
                "Seconds": round(r["seconds"], 2),
            }
        )
    return pd.DataFrame(rows)


def render_levels(v: View) -> None:
    """The engine's verdict at 1-ply .. 4-ply (and the rollout when it is the page's
    level): the action, equities and implied cube life, where the action flips marked."""
    i = inputs(v)
    if i is None:
        return
    levels = pm.MATRIX_LEVELS + (("rollout",) if i.level == "rollout" else ())
    key = ("levels", i.position_id, i.cube, i.owner, tuple(sorted(i.score.items())), i.jacoby,
           i.beavers, levels)  # fmt: skip

    def compute(progress: pm.Progress | None, cancel: pm.Cancel | None) -> pm.LevelVerdict:
        return pm.verdict_across_levels(
            i.position, levels=levels, cube=i.cube, owner=i.owner, jacoby=i.jacoby,
            beavers=i.beavers, progress=progress, cancel=cancel,
            evaluate=_cached(i.position), **i.score,
        )  # fmt: skip

    try:
        verdict: pm.LevelVerdict = _run(key, "levels", compute)
    except RuntimeError as error:
        st.error(f"The engine could not evaluate this position: {error}.")
        return
    deepest = verdict.deepest
    flips = verdict.flips
    widgets.headline(
        [
            (
                f"{i.score_words.capitalize()}: the deepest look"
                + ("" if deepest is None else f" ({deepest['level']})"),
                "not evaluated" if deepest is None else str(deepest["action"]),
            ),
            ("The action changes at", ", ".join(flips) if flips else "no level"),
        ]
    )
    if not verdict.complete:
        done = int(verdict.levels["evaluated"].sum())
        _stopped_note(verdict.stopped, done, len(levels), "levels")
    x = engine.engine_cube_life(i.position)
    widgets.chart(matrix_charts.levels_figure(verdict.levels, x), "position_levels")
    if not v.present:
        st.caption(
            "Each level looks one roll further ahead (1-ply is the engine's network alone). "
            "Implied cube life: the x for which Janowski's model, on that level's own "
            "winning chances, gives that level's No double equity; a point in the alert "
            "colour is a level where the proper action changes."
        )
        widgets.table_with_download(levels_table(verdict), "position_levels.csv")
        widgets.formula(
            r"x^{*} = \frac{E_{\mathrm{ND}} - E_{\mathrm{dead}}}"
            r"{E_{\mathrm{live}} - E_{\mathrm{dead}}}",
            source("J93"),
        )
