"""Cached compute of the real-race page: the bear-off databases once per process.

A section reads a database after ``ui.warmup.WARM_UP.need("bearoff-one")`` (or
``"bearoff-two"``): the warm-up builds them at server start, and a page arriving first
shows a progress bar instead of waiting on cubecore's lock.
"""

from __future__ import annotations

import dataclasses

import pandas as pd
import streamlit as st

from cubecore import bearoff, met, race, race_counts, race_match
from cubecore.janowski import CubePosition
from cubecore.match_points import CubeOwner, MatchPhase, MatchScore
from cubecore.position import Position, position_from_id
from ui.real_race import charts
from ui.simulation import on_worker
from ui.style import Figure


@st.cache_resource(show_spinner=False)
def one_sided_database() -> bearoff.OneSidedDatabase:
    """The one-sided database: built (or read from the disk cache) once per process.

    ``st.cache_resource`` gives every session the same object and lets concurrent
    sessions wait for one build; cubecore's lock does the same inside the process.
    """
    return bearoff.one_sided_database()


@st.cache_resource(show_spinner=False)
def two_sided_database() -> bearoff.TwoSidedDatabase:
    """The two-sided 6 x 6 database, once per process (see :func:`one_sided_database`)."""
    return bearoff.two_sided_database()


@st.cache_data(max_entries=256, show_spinner=False)
def position(position_id: str) -> Position:
    """The position of a Position ID (``ValueError`` naming what is wrong)."""
    return position_from_id(position_id)


@st.cache_data(max_entries=256, show_spinner=False)
def counts(position_id: str, cube: CubePosition) -> pd.DataFrame:
    """Every race formula on the position, with its verdict at the cube position."""
    return race_counts.race_counts(position_from_id(position_id), cube)


@dataclasses.dataclass(frozen=True)
class MoneyVerdict:
    """The money verdict of a race position at its cube (per unit of the cube).

    Attributes
    ----------
    action : str
        In players' words at the cube ("double, take", "redouble, pass", "no double").
    no_double, double_take, double_pass, optimal : float
        Equities of the player on roll; the doubling ones NaN when the opponent owns
        the cube.
    cubeless_win : float
        His cubeless winning chance.
    exact : bool
        Whether the two-sided bear-off database gave it (else the pip-count race model).
    """

    action: str
    no_double: float
    double_take: float
    double_pass: float
    optimal: float
    cubeless_win: float
    exact: bool


def _said(action: str, cube: CubePosition) -> str:
    """The race model's action ("double/take") in the words at the cube."""
    if cube == "opponent":
        return "no double (the opponent owns the cube)"
    words = action.replace("/", ", ")
    return words.replace("double", "redouble") if cube == "owned" else words


@st.cache_data(max_entries=256, show_spinner=False)
def money_verdict(position_id: str, cube: CubePosition) -> MoneyVerdict:
    """The money verdict of a race: exact from the two-sided bear-off database where both
    sides have at most 6 checkers, all at home; else the exact solution of the race model
    on the two pip counts (:func:`cubecore.race.race_cube_equities`)."""
    position = position_from_id(position_id)
    try:
        mine, theirs = position.home_boards()
    except ValueError:  # checkers outside the home boards: the race model
        mine = theirs = (bearoff.TWO_SIDED_CHECKERS + 1,)
    if max(sum(mine), sum(theirs)) <= bearoff.TWO_SIDED_CHECKERS:
        two_sided_database()
        e = bearoff.two_sided(mine, theirs)
        nan = float("nan")
        if cube == "opponent":
            return MoneyVerdict(
                _said("no double", cube), e.opponent_owns, nan, nan, e.opponent_owns, e.win, True
            )
        owned = cube == "owned"
        action = e.action_owned if owned else e.action_centred
        return MoneyVerdict(
            "no redouble" if owned and action == "no double" else action,
            e.owned_no_double if owned else e.centred_no_double,
            e.double_take,
            1.0,
            e.owned if owned else e.centred,
            e.win,
            True,
        )
    on_roll, opponent = position.pips
    r = race.race_cube_equities(on_roll, opponent, cube)
    win = float(race.race_win_probability(on_roll, opponent))
    return MoneyVerdict(
        _said(r.action, cube), r.no_double, r.double_take, r.double_pass, r.optimal, win, False
    )


@st.cache_data(max_entries=32, show_spinner=False)
def money_map(cube: CubePosition, low: int, high: int) -> pd.DataFrame:
    """The exact money action of the race model for both counts in ``low..high``."""
    return race.cube_action_map(cube, high, low)


@st.cache_data(max_entries=256, show_spinner=False)
def one_sided(points: tuple[int, ...]) -> bearoff.OneSided:
    one_sided_database()
    return bearoff.one_sided(points)


@st.cache_data(max_entries=256, show_spinner=False)
def one_sided_win(on_roll: tuple[int, ...], opponent: tuple[int, ...]) -> float:
    one_sided_database()
    return bearoff.one_sided_win_probability(on_roll, opponent)


@st.cache_data(max_entries=256, show_spinner=False)
def two_sided(on_roll: tuple[int, ...], opponent: tuple[int, ...]) -> bearoff.TwoSided:
    two_sided_database()
    return bearoff.two_sided(on_roll, opponent)


@st.cache_data(max_entries=4, show_spinner=False)
def pip_model_errors(by: str) -> pd.DataFrame:
    two_sided_database()
    return bearoff.pip_model_errors(by=by)


#: An entry is up to 1.7 MiB (both maps to 160 pips, as Streamlit keeps it, pickled): 16 of
#: them stay under 30 MiB. With 64 a 5-minute soak of 30 sessions moving random scores
#: still filled it in its last minute (46 MiB, 2026-11-24), so the server's memory kept
#: growing while a class's few scores need far fewer entries.
@st.cache_data(max_entries=16, show_spinner=False)
def match_sweeps(score: MatchScore, pips: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """At a score, over pip counts 1..pips: the exact race cube action on both counts
    (:func:`cubecore.race_match.race_match_action_map`) and the doubling window by the
    roller's count (:func:`cubecore.race_match.race_match_window`).
    """
    action_map = on_worker(race_match.race_match_action_map, score, max_count=pips)
    window = on_worker(race_match.race_match_window, score, max_count=pips)
    return action_map, window


@st.cache_data(max_entries=64, show_spinner=False)
def match_decision(
    *,
    key: str,
    away: int,
    opp_away: int,
    phase: MatchPhase,
    cube_value: int,
    cube_owner: CubeOwner,
    pips: tuple[int, int],
    points: tuple[tuple[int, ...], tuple[int, ...]] | None = None,
) -> race_match.RaceMatchEquities:
    """One race position's exact cube decision at a score on the table ``key``: by its pip
    counts, or, with ``points`` (checkers on each home point), as a small bear-off on
    real checkers.

    Keyed by the score's numbers, not by a :class:`MatchScore`: Streamlit would hash
    a score's table, a deep copy of it, on every call.
    """
    score = MatchScore(met.load_table(key), away, opp_away, phase, cube_value, cube_owner)
    if points is None:
        return race_match.race_match_equities(score, *pips)
    return race_match.bearoff_match_equities(score, *points)


@st.cache_data(max_entries=32, show_spinner=False)
def match_cube_life(key: str, pips: tuple[int, int], max_away: int) -> pd.DataFrame:
    """Implied cube life of one race position, centred cube, at scores 2..max_away."""
    return on_worker(
        race_match.race_match_cube_life_by_score,
        met.load_table(key),
        pips[0],
        pips[1],
        max_away=max_away,
    )


@st.cache_data(max_entries=16, show_spinner=False)
def money_thresholds(pips: int) -> pd.DataFrame:
    """Money play's exact take, redouble and double offsets every 5 pips up to ``pips``."""
    return race.table_3(list(range(5, pips + 1, 5)))


@dataclasses.dataclass(frozen=True)
class MatchView:
    """What the match section draws of :func:`match_sweeps` at a score.

    Shared by every session (``st.cache_resource``), so never changed after it is made:
    ``ui.widgets.chart`` and ``ui.widgets.table`` do not change what they get.

    Attributes
    ----------
    score : MatchScore
        The score on the chosen table.
    actions, window : Figure
        :func:`ui.real_race.charts.match_action_figure` and
        :func:`ui.real_race.charts.match_window_figure` (money play's thresholds beside
        the window unless the opponent owns the cube).
    window_shown : pandas.DataFrame
        The window with readable headers, rounded to 4 decimals.
    """

    score: MatchScore
    actions: Figure
    window: Figure
    window_shown: pd.DataFrame


@st.cache_resource(max_entries=16, show_spinner=False)
def match_view(
    *,
    key: str,
    away: int,
    opp_away: int,
    phase: MatchPhase,
    cube_value: int,
    cube_owner: CubeOwner,
    pips: int,
    title: str,
) -> MatchView:
    """The match section's :class:`MatchView` on the table ``key``; ``title`` the action
    map's. Keyword arguments only: Streamlit looks up a cached function's signature once
    per positional argument on every call.

    Raises ``ValueError`` where there is no race strategy at the score.
    """
    score = MatchScore(met.load_table(key), away, opp_away, phase, cube_value, cube_owner)
    actions, window = match_sweeps(score, pips)
    money = None
    if cube_owner != "opponent":
        thresholds = money_thresholds(pips)
        column = "first_double" if cube_owner == "center" else "first_redouble"
        money = thresholds.rename(columns={column: "doubling"})[
            ["your_count", "doubling", "last_take"]
        ].rename(columns={"doubling": "first_double"})
    shown = window.rename(columns=lambda name: name.replace("_", " ").capitalize())
    return MatchView(
        score,
        charts.match_action_figure(actions, title),
        charts.match_window_figure(window, money),
        shown.round(4),
    )


@st.cache_resource(max_entries=32, show_spinner=False)
def match_cube_life_figure(*, key: str, pips: tuple[int, int], max_away: int) -> Figure:
    """:func:`ui.real_race.charts.match_cube_life_figure` of :func:`match_cube_life`."""
    return charts.match_cube_life_figure(match_cube_life(key, pips, max_away))
