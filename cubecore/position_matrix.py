"""One position's cube action at every score, and across the engine's levels.

Two questions players ask of one position, answered from the engine
(:mod:`cubecore.engine`, bgsage [SAGE]_) and read with the app's own theory:

- :func:`position_matrix`, **the score matrix for a position**: the proper cube action
  (cube centred on 1) at every score of an ``n x n`` grid of away scores (a Crawford
  and a post-Crawford game where one side is 1-away) and for money, twice: once from
  the engine's own match evaluation at the chosen level, and once the app's reading,
  Janowski's cube life model extended to match play ([RJ93]_, [JT]_,
  :func:`cubecore.cubeful.match_cube_decision`) on *the engine's* cubeless
  probabilities of that cell and on any match equity table. Cells where the two
  actions differ are marked.
- :func:`verdict_across_levels`, **the verdict across levels**: the engine's action,
  equities and implied cube life (:func:`cubecore.engine.implied_cube_life`) at
  1-ply .. 4-ply (and a rollout), with the levels where the action flips marked.

What to expect of the comparison. At 1-ply bgsage's match cube decision *is*
Janowski's model on its fixed table, Kazaross-XG2 (:data:`cubecore.engine.ENGINE_TABLE`),
with its 1-ply cube life (:func:`cubecore.engine.engine_cube_life`) (module note 6 of
:mod:`cubecore.engine`): on that table and with that ``x`` (the default here) the two
readings are nearly one model. Measured on bgsage 2.0.20260907 (``tests/test_position_matrix.py``):
the actions agreed in 3407 of 3408 cells (24 positions x 142); the one disagreement and
every difference in equity at 2-away/2-away come from the cube there, which gnubg's
model (the app's) counts dead and bgsage keeps alive; and in 16 of 192 race and crashed
positions bgsage's equities are up to 7.5e-4 from the model (the same actions).
Deeper levels look ahead and the two readings part: the disagreements measure what
the model's single cube life misses at each score; on another table they measure the
table.

Cost: every cell is one engine evaluation (``n**2 + 2(n - 1) + 1`` cells, 142 at
``n = 11``). Measured on 2 shared cores (``python -m bench position``): about 0.03 s a
cell at 1-ply, 0.05 s at 2-ply, 0.3 s at 3-ply. A grid has a time budget
(:data:`MATRIX_BUDGETS`), a progress callback and a cancellation hook; a stopped grid
comes back with the cells it has, flagged incomplete.

References
----------
.. [SAGE] M. Higgins, "Open Sage backgammon bot engine" (bgsage), version 2.0.20260907,
   2026, https://github.com/markbgsage/bgsage .
.. [RJ93] R. Janowski, "Take-Points in Money Games", 1993;
   http://www.bkgm.com/articles/Janowski/cubeformulae.pdf
.. [JT] J. Thyssen, the generalisation of Janowski's formulae to match play in
   GNU Backgammon 1.07 (``Cl2CfMatch*`` in ``eval.c``), reimplemented in
   :mod:`cubecore.cube_decision`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import pandas as pd

from cubecore import engine
from cubecore._validate import choice, flag, real_in_range, whole_number
from cubecore.cube_decision import CubeDecision, match_cube_decision, money_cube_decision
from cubecore.match_points import CubeOwner
from cubecore.met import MatchEquityTable, load_table
from cubecore.position import Position

__all__ = [
    "ACTIONS",
    "GRID_RANGE",
    "MATRIX_BUDGETS",
    "MATRIX_LEVELS",
    "VERDICT_BUDGETS",
    "Evaluator",
    "LevelVerdict",
    "PositionMatrix",
    "action_category",
    "matrix_cells",
    "position_matrix",
    "verdict_across_levels",
]

#: The proper cube action in five categories, as players sort them (the score matrix's
#: cells and the flips across levels compare these, not the wording: "Optional double,
#: take" is a "Double, take").
ACTIONS = ("No double", "Double, take", "Double, pass", "Too good", "No cube action")
#: Smallest and largest side of the score grid (2-away .. 11-away each side).
GRID_RANGE = (2, 11)
#: The levels a score matrix is evaluated at (a rollout per cell would take hours).
MATRIX_LEVELS = ("1-ply", "2-ply", "3-ply", "4-ply")
#: Default time budget of a whole score matrix, seconds, per level.
MATRIX_BUDGETS = {"1-ply": 60.0, "2-ply": 300.0, "3-ply": 600.0, "4-ply": 3600.0}
#: Default time budget of a whole verdict across levels, seconds.
VERDICT_BUDGETS = {"levels": 600.0, "rollout": 1800.0}
#: Largest budget accepted, seconds (two hours).
MAX_BUDGET = 7200.0
#: The cell columns of a :class:`PositionMatrix`.
_PROBABILITY_COLUMNS = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
_EQUITY_COLUMNS = ("no_double", "double_take", "double_pass", "optimal")


class Evaluator(Protocol):
    """What evaluates one position at one cube and score: :func:`cubecore.engine.evaluate`
    (the default) or a caching wrapper of it with the same keywords."""

    def __call__(
        self,
        position: Position,
        *,
        level: str = ...,
        cube: int = ...,
        owner: CubeOwner = ...,
        away: int | None = ...,
        opp_away: int | None = ...,
        crawford: bool = ...,
        jacoby: bool = ...,
        beavers: bool = ...,
        budget: float | None = ...,
        trials: int = ...,
    ) -> engine.EngineCubeDecision: ...


Progress = Callable[[int, int], None]
Cancel = Callable[[], bool]


def action_category(action: str, cube_available: bool = True) -> str:
    """The category (:data:`ACTIONS`) of an action in GNU Backgammon's words.

    "Too good to double, pass" and "Too good to double, take" are "Too good"; any
    "No (re)double, ..." is "No double"; a double or redouble is "Double, pass" when
    the taker should pass, else "Double, take" (a beaver is a take); where the player
    on roll cannot double, "No cube action".

    Examples
    --------
    >>> action_category("Optional redouble, take")
    'Double, take'
    >>> action_category("Never double, take (dead cube)", cube_available=False)
    'No cube action'
    """
    if not isinstance(action, str):
        raise ValueError(f"`action` must be a text, got {type(action).__name__}")
    available = flag("cube_available", cube_available)
    text = action.lower()
    if not available:
        return ACTIONS[4]
    if text.startswith("too good"):
        return ACTIONS[3]
    if text.startswith(("no double", "no redouble")):
        return ACTIONS[0]
    if "pass" in text:
        return ACTIONS[2]
    if "take" in text or "beaver" in text:
        return ACTIONS[1]
    raise ValueError(f"`action`: not a cube action in gnubg's words: {action!r}")


# --------------------------------------------------------------------------- checks


def _budget(budget: float | None, default: float) -> float:
    if budget is None:
        return default
    return real_in_range("budget", budget, 0.0, MAX_BUDGET, low_open=True)


def _callback(name: str, value: object) -> Any:
    if value is not None and not callable(value):
        raise ValueError(f"`{name}` must be a function or None, got {type(value).__name__}")
    return value


def _table(table: MatchEquityTable | str | None) -> MatchEquityTable:
    if table is None:
        return load_table(engine.ENGINE_TABLE)
    if isinstance(table, str):
        return load_table(table)
    if not isinstance(table, MatchEquityTable):
        raise ValueError(
            f"`table` must be a MatchEquityTable or a table key, got {type(table).__name__}"
        )
    return table


def _position(position: object) -> Position:
    if not isinstance(position, Position):
        raise ValueError(
            f"`position` must be a Position (cubecore.position), got {type(position).__name__}"
        )
    return position


def matrix_cells(n: int) -> list[tuple[str, int, int, bool]]:
    """The cells of an ``n x n`` score matrix: ``(state, away, opp_away, crawford)``.

    First money (``state`` "money", 0, 0); then, player's points to go ``away`` down
    and the opponent's ``opp_away`` across, 1..n each: both 2-away or more is
    "pre-crawford"; one side 1-away gives two cells, "crawford" (the Crawford game)
    and "post-crawford"; 1-away/1-away is "post-crawford" only. The cells of
    :func:`cubecore.score_matrix.score_matrix`, in its order.

    Examples
    --------
    >>> len(matrix_cells(11)), matrix_cells(2)[:3]
    (142, [('money', 0, 0, False), ('post-crawford', 1, 1, False), ('crawford', 1, 2, True)])
    """
    n = whole_number("n", n, GRID_RANGE[0], GRID_RANGE[1])
    cells: list[tuple[str, int, int, bool]] = [("money", 0, 0, False)]
    for a in range(1, n + 1):
        for b in range(1, n + 1):
            if a == 1 and b == 1:
                cells.append(("post-crawford", a, b, False))
            elif a == 1 or b == 1:
                cells.append(("crawford", a, b, True))
                cells.append(("post-crawford", a, b, False))
            else:
                cells.append(("pre-crawford", a, b, False))
    return cells


def _none_to_nan(value: float | None) -> float:
    return math.nan if value is None else float(value)


# --------------------------------------------------------------------------- matrix


@dataclass(frozen=True)
class PositionMatrix:
    """The score matrix of one position: the engine's action and the app's reading.

    Attributes
    ----------
    cells : pandas.DataFrame
        One row per cell of :func:`matrix_cells` (the order kept): ``state``, ``away``,
        ``opp_away`` (0 for money), ``crawford``; ``evaluated`` (False for a cell the
        grid stopped before); the engine's cubeless probabilities of that cell
        (``win`` .. ``lose_backgammon``); the engine's ``engine_action`` (its words),
        ``engine_category`` (:data:`ACTIONS`) and ``engine_no_double``,
        ``engine_double_take``, ``engine_double_pass``, ``engine_optimal``; the same
        ``app_*`` columns of the app's reading; ``disagree`` (the two categories
        differ); ``optimal_difference`` (engine minus app, the proper action's equity).
        Equities are per unit of the cube, centred on 1: money equity in the money
        row, EMG at a score; NaN where the cube is not available or not evaluated.
    level : str
        The engine's level.
    table : str
        The name of the app's match equity table.
    n : int
        The side of the grid.
    x : float
        The cube life of the app's reading.
    jacoby, beavers : bool
        The money row's rules.
    stopped : str
        Empty when every cell was evaluated, else why the grid stopped.
    seconds : float
        Wall-clock time of the evaluations.
    """

    cells: pd.DataFrame = field(compare=False)
    level: str
    table: str
    n: int
    x: float
    jacoby: bool
    beavers: bool
    stopped: str
    seconds: float = field(compare=False)

    @property
    def complete(self) -> bool:
        """Every cell was evaluated."""
        return not self.stopped

    @property
    def disagreements(self) -> pd.DataFrame:
        """The cells where the engine and the app's reading take different actions."""
        return self.cells[self.cells["disagree"]]


def _row(
    state: str,
    a: int,
    b: int,
    crawford: bool,
    mine: engine.EngineCubeDecision | None,
    app: CubeDecision | None,
) -> dict[str, object]:
    row: dict[str, object] = {
        "state": state,
        "away": a,
        "opp_away": b,
        "crawford": crawford,
        "evaluated": mine is not None,
    }
    p = mine.probabilities if mine is not None else None
    for name in _PROBABILITY_COLUMNS:
        row[name] = math.nan if p is None else float(getattr(p, name))
    for prefix, d in (("engine", mine), ("app", app)):
        if d is None:
            row[f"{prefix}_action"] = ""
            row[f"{prefix}_category"] = ""
            for name in _EQUITY_COLUMNS:
                row[f"{prefix}_{name}"] = math.nan
            continue
        row[f"{prefix}_action"] = d.action
        row[f"{prefix}_category"] = action_category(d.action, d.cube_available)
        row[f"{prefix}_no_double"] = float(d.no_double)
        row[f"{prefix}_double_take"] = _none_to_nan(d.double_take)
        row[f"{prefix}_double_pass"] = _none_to_nan(d.double_pass)
        row[f"{prefix}_optimal"] = float(d.optimal)
    row["disagree"] = mine is not None and row["engine_category"] != row["app_category"]
    row["optimal_difference"] = (
        math.nan if mine is None or app is None else float(mine.optimal - app.optimal)
    )
    return row


def position_matrix(
    position: Position,
    *,
    level: str = "2-ply",
    n: int = 7,
    table: MatchEquityTable | str | None = None,
    x: float | None = None,
    jacoby: bool = False,
    beavers: bool = False,
    budget: float | None = None,
    progress: Progress | None = None,
    cancel: Cancel | None = None,
    evaluate: Evaluator | None = None,
) -> PositionMatrix:
    """The proper cube action at every score, from the engine and from the app's model.

    For each cell of :func:`matrix_cells` (cube centred on 1) the engine evaluates the
    position at that score (:func:`cubecore.engine.evaluate` at ``level``: its own
    match evaluation on its fixed table, Kazaross-XG2), and the app reads the
    engine's cubeless probabilities *of that cell* with Janowski's model,

    .. math::

        E = (1 - x)\\, E_{dead} + x\\, E_{live}

    for money ([RJ93]_, :func:`cubecore.cubeful.money_cube_decision`) and its
    generalisation to match winning chances at a score ([JT]_,
    :func:`cubecore.cubeful.match_cube_decision`) on ``table``. A cell disagrees
    where the two actions fall in different categories (:func:`action_category`).

    Parameters
    ----------
    position : Position
        Checkers, from the player on roll's view (before his roll).
    level : {"1-ply", "2-ply", "3-ply", "4-ply"}
        The engine's level (:data:`MATRIX_LEVELS`; no rollout: one per cell).
    n : int
        Side of the grid, 2..11 (:data:`GRID_RANGE`), at most ``table.length``.
    table : MatchEquityTable or str, optional
        The app's table (a bundled key of :data:`cubecore.met.TABLES`, or any table:
        uploaded, modelled). Default the engine's own, Kazaross-XG2.
    x : float, optional
        The app's cube life in [0, 1]; default the engine's 1-ply one for this
        position (:func:`cubecore.engine.engine_cube_life`).
    jacoby, beavers : bool
        The money row's rules.
    budget : float, optional
        Seconds the whole grid may take (default :data:`MATRIX_BUDGETS` of the level,
        at most 7200). Each cell's evaluation gets what is left of it.
    progress : callable, optional
        ``progress(done, total)``, called before the first cell and after each one.
    cancel : callable, optional
        ``cancel()`` is asked before each cell; True stops the grid.
    evaluate : callable, optional
        The evaluator (:class:`Evaluator`), default :func:`cubecore.engine.evaluate`;
        a caching wrapper lets a stopped grid resume where it stopped.

    Returns
    -------
    PositionMatrix
        With ``stopped`` empty when every cell was evaluated; else the cells done so
        far (``evaluated`` False for the rest) and why it stopped (cancelled, or the
        budget ran out).

    Raises
    ------
    ValueError
        Naming the parameter: not a Position, a finished game, a level outside
        :data:`MATRIX_LEVELS`, ``n`` outside 2..11 or beyond the table, ``x``
        outside [0, 1], a budget outside (0, 7200], a callback that is not callable.
        Checked before anything is evaluated.

    Examples
    --------
    >>> start = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2,)
    >>> m = position_matrix(Position(start, start), level="1-ply", n=2)
    >>> m.complete, len(m.cells), int(m.cells["disagree"].sum())
    (True, 7, 0)
    """
    position = _position(position)
    level = choice("level", level, MATRIX_LEVELS)
    met = _table(table)
    n = whole_number("n", n, GRID_RANGE[0], GRID_RANGE[1])
    if n > met.length:
        raise ValueError(f"`n` must be at most the table's length, {met.length} (got {n})")
    jacoby = flag("jacoby", jacoby)
    beavers = flag("beavers", beavers)
    seconds = _budget(budget, MATRIX_BUDGETS[level])
    progress = _callback("progress", progress)
    cancel = _callback("cancel", cancel)
    evaluate = _callback("evaluate", evaluate) or engine.evaluate
    if x is None:
        x = engine.engine_cube_life(position)
    x = real_in_range("x", x, 0.0, 1.0)
    cells = matrix_cells(n)
    start = time.monotonic()
    deadline = start + seconds
    rows: list[dict[str, object]] = []
    stopped = ""
    if progress is not None:
        progress(0, len(cells))
    for state, a, b, crawford in cells:
        mine: engine.EngineCubeDecision | None = None
        app: CubeDecision | None = None
        if not stopped and cancel is not None and cancel():
            stopped = "cancelled"
        left = deadline - time.monotonic()
        if not stopped and left <= 0.0:
            stopped = f"the budget of {seconds:g} s ran out"
        if not stopped:
            money = state == "money"
            try:
                mine = evaluate(
                    position, level=level, away=None if money else a,
                    opp_away=None if money else b, crawford=crawford, jacoby=jacoby,
                    beavers=beavers, budget=min(left, engine.MAX_BUDGET),
                )  # fmt: skip
            except TimeoutError:
                stopped = f"the budget of {seconds:g} s ran out"
        if mine is not None:
            if state == "money":
                app = money_cube_decision(mine.probabilities, x, jacoby=jacoby, beavers=beavers)
            else:
                app = match_cube_decision(
                    mine.probabilities, x, met, away=a, opp_away=b, crawford=crawford
                )
        rows.append(_row(state, a, b, crawford, mine, app))
        if progress is not None and mine is not None:
            progress(len(rows), len(cells))
    return PositionMatrix(
        cells=pd.DataFrame(rows),
        level=level,
        table=met.name,
        n=n,
        x=x,
        jacoby=jacoby,
        beavers=beavers,
        stopped=stopped,
        seconds=time.monotonic() - start,
    )


# --------------------------------------------------------------------------- levels


@dataclass(frozen=True)
class LevelVerdict:
    """The engine's verdict on one position at each level.

    Attributes
    ----------
    levels : pandas.DataFrame
        One row per level asked, in order: ``level``; ``evaluated``; ``action`` (the
        engine's, gnubg's words) and ``category`` (:data:`ACTIONS`); ``flips`` (the
        category differs from the previous evaluated level's); the five cubeless
        probabilities; ``cubeless_equity``, ``no_double``, ``double_take``,
        ``double_pass``, ``optimal`` (per cube: money equity or EMG; NaN where the
        cube is not available); ``cube_life``, the implied cube life of ``no_double``
        (:func:`cubecore.engine.implied_cube_life`; NaN where undefined) and
        ``cube_life_note`` (why it is undefined, else empty); the standard errors of
        a rollout ``se_cubeless``, ``se_no_double``, ``se_double_take`` (NaN at the
        plies); ``seconds``.
    cube, owner, away, opp_away, crawford, jacoby, beavers
        The cube and score evaluated (``away = opp_away = 0`` for money).
    stopped : str
        Empty when every level was evaluated, else why it stopped.
    """

    levels: pd.DataFrame = field(compare=False)
    cube: int
    owner: CubeOwner
    away: int
    opp_away: int
    crawford: bool
    jacoby: bool
    beavers: bool
    stopped: str

    @property
    def complete(self) -> bool:
        """Every level asked was evaluated."""
        return not self.stopped

    @property
    def flips(self) -> tuple[str, ...]:
        """The levels whose action differs from the level before."""
        return tuple(self.levels.loc[self.levels["flips"], "level"])

    @property
    def deepest(self) -> pd.Series | None:
        """The row of the deepest level evaluated (None if none was)."""
        done = self.levels[self.levels["evaluated"]]
        return None if done.empty else done.iloc[-1]


def _level_row(level: str, d: engine.EngineCubeDecision | None) -> dict[str, object]:
    row: dict[str, object] = {"level": level, "evaluated": d is not None}
    if d is None:
        row.update({"action": "", "category": ""})
        for name in (*_PROBABILITY_COLUMNS, "cubeless_equity", *_EQUITY_COLUMNS, "cube_life"):
            row[name] = math.nan
        row["cube_life_note"] = ""
        for name in ("se_cubeless", "se_no_double", "se_double_take", "seconds"):
            row[name] = math.nan
        return row
    row["action"] = d.action
    row["category"] = action_category(d.action, d.cube_available)
    for name in _PROBABILITY_COLUMNS:
        row[name] = float(getattr(d.probabilities, name))
    row["cubeless_equity"] = float(d.cubeless_equity)
    row["no_double"] = float(d.no_double)
    row["double_take"] = _none_to_nan(d.double_take)
    row["double_pass"] = _none_to_nan(d.double_pass)
    row["optimal"] = float(d.optimal)
    implied = d.implied_cube_life()
    row["cube_life"] = _none_to_nan(implied.x)
    row["cube_life_note"] = implied.reason
    errors = d.standard_errors or (None, None, None)
    row["se_cubeless"], row["se_no_double"], row["se_double_take"] = map(_none_to_nan, errors)
    row["seconds"] = float(d.seconds)
    return row


def verdict_across_levels(
    position: Position,
    *,
    levels: Sequence[str] = MATRIX_LEVELS,
    cube: int = 1,
    owner: CubeOwner = "center",
    away: int | None = None,
    opp_away: int | None = None,
    crawford: bool = False,
    jacoby: bool = False,
    beavers: bool = False,
    trials: int = engine.DEFAULT_ROLLOUT_TRIALS,
    budget: float | None = None,
    progress: Progress | None = None,
    cancel: Cancel | None = None,
    evaluate: Evaluator | None = None,
) -> LevelVerdict:
    """The engine's action, equities and implied cube life at each level, and the flips.

    Each level is one :func:`cubecore.engine.evaluate` of the same position, cube and
    score. The implied cube life is the ``x`` for which Janowski's model, on the
    level's own probabilities, gives the level's No double equity
    (:func:`cubecore.engine.implied_cube_life`):

    .. math::

        x^{*} = \\frac{E_{ND} - E_{dead}}{E_{live} - E_{dead}}

    ([RJ93]_). A level *flips* where its action's category (:data:`ACTIONS`) differs
    from that of the level before it: the deeper look changes the answer.

    Parameters
    ----------
    position : Position
    levels : sequence of str
        Distinct levels of :data:`cubecore.engine.LEVELS`, shallow first (default
        1-ply .. 4-ply; add "rollout" for a rollout with its standard errors).
    cube, owner, away, opp_away, crawford, jacoby, beavers, trials
        As in :func:`cubecore.engine.evaluate`.
    budget : float, optional
        Seconds for all the levels (default :data:`VERDICT_BUDGETS`: 600 s, 1800 s
        with a rollout; at most 7200).
    progress, cancel, evaluate
        As in :func:`position_matrix` (``progress(done, total)`` counts levels).

    Returns
    -------
    LevelVerdict

    Raises
    ------
    ValueError
        Naming the parameter: an unknown, repeated or out-of-order level, an empty
        ``levels``, a budget outside (0, 7200], and whatever
        :func:`cubecore.engine.evaluate` refuses (checked by a 1-ply evaluation through
        ``evaluate`` before the deeper levels).

    Examples
    --------
    >>> start = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2,)
    >>> v = verdict_across_levels(Position(start, start), levels=("1-ply",))
    >>> v.levels.loc[0, "category"], v.flips
    ('No double', ())
    """
    position = _position(position)
    if isinstance(levels, str) or not isinstance(levels, Sequence):
        raise ValueError(f"`levels` must be a sequence of levels, got {levels!r}")
    asked = [choice("levels", level, engine.LEVELS) for level in levels]
    if not asked:
        raise ValueError("`levels` must name at least one level")
    order = [engine.LEVELS.index(level) for level in asked]
    if order != sorted(set(order)):
        raise ValueError(f"`levels` must be distinct and shallow first, got {list(levels)!r}")
    default = VERDICT_BUDGETS["rollout" if "rollout" in asked else "levels"]
    seconds = _budget(budget, default)
    progress = _callback("progress", progress)
    cancel = _callback("cancel", cancel)
    evaluate = _callback("evaluate", evaluate) or engine.evaluate
    settings: dict[str, Any] = {
        "cube": cube, "owner": owner, "away": away, "opp_away": opp_away,
        "crawford": crawford, "jacoby": jacoby, "beavers": beavers, "trials": trials,
    }  # fmt: skip
    # every argument is checked (by the engine's own checks, at its cheapest level,
    # through ``evaluate``: a cached evaluator answers it again below) before any deep
    # level runs
    first = evaluate(position, level="1-ply", budget=engine.DEFAULT_BUDGETS["1-ply"], **settings)
    start = time.monotonic()
    deadline = start + seconds
    rows: list[dict[str, object]] = []
    stopped = ""
    previous = ""
    if progress is not None:
        progress(0, len(asked))
    for level in asked:
        d: engine.EngineCubeDecision | None = None
        if not stopped and cancel is not None and cancel():
            stopped = "cancelled"
        left = deadline - time.monotonic()
        if not stopped and left <= 0.0:
            stopped = f"the budget of {seconds:g} s ran out"
        if not stopped:
            try:
                d = evaluate(position, level=level, budget=min(left, engine.MAX_BUDGET), **settings)
            except TimeoutError:
                stopped = f"the budget of {seconds:g} s ran out at {level}"
        row = _level_row(level, d)
        row["flips"] = bool(d is not None and previous and row["category"] != previous)
        if d is not None:
            previous = str(row["category"])
            if progress is not None:
                progress(len(rows) + 1, len(asked))
        rows.append(row)
    return LevelVerdict(
        levels=pd.DataFrame(rows),
        cube=first.cube,
        owner=first.owner,
        away=first.away,
        opp_away=first.opp_away,
        crawford=first.crawford,
        jacoby=first.jacoby,
        beavers=first.beavers,
        stopped=stopped,
    )
