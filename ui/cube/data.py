"""Cached compute of the cube calculator: scalar arguments, bounded caches, and the
sections' prepared views (the ``*_view`` functions, :mod:`ui`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pandas as pd
import streamlit as st

from cubecore import cubeful, met
from cubecore.match_points import CubeOwner
from ui import widgets
from ui.cube import charts
from ui.style import Figure

Probabilities = tuple[float, float, float, float, float]


@dataclasses.dataclass(frozen=True)
class Setting:
    """Everything a decision depends on besides the probabilities (hashable)."""

    x: float
    cube: int
    owner: CubeOwner
    match: bool
    jacoby: bool
    beavers: bool
    table: str
    away: int
    opp_away: int
    crawford: bool

    def keywords(self) -> dict[str, Any]:
        """Keyword arguments of cubeful's money or match functions."""
        if not self.match:
            return {"jacoby": self.jacoby, "beavers": self.beavers}
        return {
            "table": met.load_table(self.table),
            "away": self.away,
            "opp_away": self.opp_away,
            "crawford": self.crawford,
        }


@st.cache_data(max_entries=512, show_spinner=False)
def decision(p: Probabilities, s: Setting) -> cubeful.CubeDecision:
    """The 0-ply cube decision."""
    if s.match:
        return cubeful.match_cube_decision(
            p,
            s.x,
            met.load_table(s.table),
            away=s.away,
            opp_away=s.opp_away,
            cube=s.cube,
            owner=s.owner,
            crawford=s.crawford,
        )
    return cubeful.money_cube_decision(
        p, s.x, cube=s.cube, owner=s.owner, jacoby=s.jacoby, beavers=s.beavers
    )


@st.cache_data(max_entries=256, show_spinner=False)
def anatomy(p: Probabilities, s: Setting) -> cubeful.DecisionAnatomy:
    """DT - ND split into its named terms."""
    return cubeful.decision_anatomy(
        p, cubeful.CubeSetting(s.x, cube=s.cube, owner=s.owner, **s.keywords())
    )


@st.cache_data(max_entries=256, show_spinner=False)
def margins(p: Probabilities, s: Setting) -> cubeful.DecisionMargins:
    """How far each input may move before the best action changes."""
    return cubeful.decision_margins(
        p, cubeful.CubeSetting(s.x, cube=s.cube, owner=s.owner, **s.keywords())
    )


@st.cache_data(max_entries=256, show_spinner=False)
def window(p: Probabilities, s: Setting) -> pd.DataFrame:
    """The market window for the dead, live and chosen cube life."""
    return cubeful.market_window(p, s.x, cube=s.cube, **s.keywords())


def proper(p: Probabilities, s: Setting, d: cubeful.CubeDecision) -> cubeful.ProperCubeAction:
    """The proper action of an available cube and each alternative's cost (no cache: cheap)."""
    if d.double_take is None or d.double_pass is None:
        raise ValueError("the player on roll cannot double here: there is no cube action")
    return cubeful.proper_cube_action(
        d.no_double,
        d.double_take,
        d.double_pass,
        centred=s.owner == "center",
        can_gammon=p[1] > 0.0,
        money=not s.match,
        jacoby=s.jacoby,
        beavers=s.beavers,
    )


@st.cache_data(max_entries=256, show_spinner=False)
def both_windows(p: Probabilities, s: Setting) -> dict[str, dict[str, float | None]]:
    """Both players' market windows at the chosen cube life, each in his own chance.

    The opponent's is the same model seen from his side: the probabilities swapped
    (his wins are the roller's losses) and, at a match score, the score swapped. For
    money a player who owns the cube (the roller when he redoubles, the taker after he
    takes) has his redouble point as his double point; at a match score the double
    point is the one at the current cube value for both.
    """
    swapped_p: Probabilities = (1.0 - p[0], p[3], p[4], p[1], p[2])
    swapped_s = dataclasses.replace(s, away=s.opp_away, opp_away=s.away)
    names = {
        "take_point": "Take point",
        "double_point": "Double point",
        "cash_point": "Cash point",
        "too_good_point": "Too good point",
    }
    windows: dict[str, dict[str, float | None]] = {}
    for player, (probs, setting), owns in (
        (widgets.DOUBLER, (p, s), s.owner == "player"),
        (widgets.TAKER, (swapped_p, swapped_s), True),
    ):
        chosen = window(probs, setting).iloc[-1]
        windows[player] = {shown: float(chosen[column]) for column, shown in names.items()}
        if owns and not s.match:
            windows[player]["Double point"] = float(chosen["redouble_point"])
    return windows


@st.cache_data(max_entries=64, show_spinner=False)
def matrix(p: Probabilities, s: Setting, n: int) -> pd.DataFrame:
    """The best action at every score of an n x n grid, with a money row."""
    money = cubeful.CubeSetting(s.x, jacoby=s.jacoby, beavers=s.beavers)
    return cubeful.score_matrix(p, money, met.load_table(s.table), n)


#: The score matrix's games (:func:`cubecore.cubeful.score_matrix`'s ``state``) in words.
GAMES = {
    "money": "money",
    "pre-crawford": "before Crawford",
    "crawford": "Crawford game",
    "post-crawford": "after Crawford",
}
#: The score matrix table's equity columns and their headers (equity: EMG, money for
#: the money row).
MATRIX_EQUITIES = {
    "no_double": "No double",
    "double_take": "Double, take",
    "double_pass": "Double, pass",
    "optimal": "Best",
}
#: Its match-winning-chance columns (percent) and their headers.
MATRIX_CHANCES = {
    "no_double_mwc": "No double, MWC %",
    "double_take_mwc": "Double, take, MWC %",
    "double_pass_mwc": "Double, pass, MWC %",
}
#: Its margins (percentage points of winning chance) and their headers.
MATRIX_MARGINS = {
    "win_down": "Win % may fall by (pp)",
    "win_up": "Win % may rise by (pp)",
}
#: The mark of the current score in the table's score column.
CURRENT = " (current score)"


def current_score(s: Setting) -> tuple[str, int, int]:
    """The matrix row of the current score: (game, player's, opponent's points to go);
    money is ("money", 0, 0)."""
    if not s.match:
        return "money", 0, 0
    if 1 in (s.away, s.opp_away) and s.away != s.opp_away:
        game = "crawford" if s.crawford else "post-crawford"
    elif s.away == s.opp_away == 1:
        game = "post-crawford"
    else:
        game = "pre-crawford"
    return game, s.away, s.opp_away


def matrix_table(grid: pd.DataFrame, current: tuple[str, int, int]) -> pd.DataFrame:
    """The score matrix as a player reads it: the score and the game in words, the best
    action, equities to 4 decimals, match winning chances in percent and the margins in
    percentage points to 2; the current score marked."""
    score = [
        "money" if state == "money" else f"{a}-away/{b}-away"
        for state, a, b in zip(grid["state"], grid["away"], grid["opp_away"], strict=True)
    ]
    here = [
        (state, int(a), int(b)) == current
        for state, a, b in zip(grid["state"], grid["away"], grid["opp_away"], strict=True)
    ]
    table = pd.DataFrame(
        {
            "Score": [
                f"{text}{CURRENT if mark else ''}" for text, mark in zip(score, here, strict=True)
            ],
            "Game": grid["state"].map(GAMES),
            "Best action": grid["action"],
        }
    )
    for column, header in MATRIX_EQUITIES.items():
        table[header] = grid[column].round(EQUITY_DECIMALS)
    for column, header in MATRIX_CHANCES.items():
        table[header] = (100.0 * grid[column]).round(2)
    for column, header in MATRIX_MARGINS.items():
        table[header] = (100.0 * grid[column]).round(2)
    return table


@dataclasses.dataclass(frozen=True)
class MatrixView:
    """The score-matrix section at one set of inputs.

    Attributes
    ----------
    headline : tuple of (str, str)
        The best action with the cube centred at the current score (money, or the
        match score), labelled by it.
    actions, margins : Figure
        :func:`ui.cube.charts.matrix_figure` and :func:`ui.cube.charts.margins_figure`,
        the current score outlined.
    table : pandas.DataFrame
        :func:`matrix_table`, as the table and its CSV show it.
    """

    headline: tuple[str, str]
    actions: Figure
    margins: Figure
    table: pd.DataFrame


@st.cache_resource(max_entries=16, show_spinner=False)
def matrix_view(*, p: Probabilities, s: Setting, n: int) -> MatrixView:
    """The score-matrix section's :class:`MatrixView` on the n x n grid."""
    grid = matrix(p, s, n)
    current = current_score(s)
    centred = decision(p, dataclasses.replace(s, cube=1, owner="center"))
    if s.match:
        label = f"At {s.away}-away/{s.opp_away}-away, cube centred"
        outlined: tuple[int, int] | None = (s.away, s.opp_away)
    else:
        label, outlined = "Money, cube centred", None
    return MatrixView(
        headline=(label, centred.action),
        actions=charts.matrix_figure(grid, n, outlined),
        margins=charts.margins_figure(grid, n, outlined),
        table=matrix_table(grid, current),
    )


#: The named terms of DT - ND (:class:`cubecore.cubeful.DecisionAnatomy`), as shown.
TERM_LABELS = {
    "dead_cube_gain": "Dead-cube gain",
    "gammon_term": "Gammon term",
    "recube_vig": "Recube vig",
    "market_losing_term": "Market-losing term",
    "jacoby_adjustment": "Jacoby adjustment",
    "beaver_adjustment": "Beaver adjustment",
}


#: Decimals of an equity and of an error (as engines print them).
EQUITY_DECIMALS = 4


def _equity(value: float) -> str:
    """An equity with its sign; a rounded zero unsigned, never "-0.0000"."""
    rounded = round(value, EQUITY_DECIMALS) + 0.0
    return f"{rounded:+.{EQUITY_DECIMALS}f}" if rounded else f"{0.0:.{EQUITY_DECIMALS}f}"


def actions_markdown(action: cubeful.ProperCubeAction) -> str:
    """The three actions and their equities as a Markdown table, the proper one in bold."""
    lines = ["| Action | Equity |", "|:--|--:|"]
    for label, equity, _, proper in action.rows():
        if proper:
            lines.append(f"| **{label}** (proper) | **{_equity(equity)}** |")
        else:
            lines.append(f"| {label} | {_equity(equity)} |")
    return "\n".join(lines)


def errors_markdown(d: cubeful.CubeDecision, action: cubeful.ProperCubeAction) -> str:
    """Each decision's error as a Markdown table: the equity it gives away against the
    right decision, a positive number (0 for the right one), as GNU Backgammon and
    eXtreme Gammon report errors. The doubler decides to double or not, the taker to
    take or pass (:class:`cubecore.cubeful.CubeDecision`'s four errors)."""
    hold = action.labels[0]
    turn = action.labels[1].split(",")[0]
    rows = (
        (hold, "Player on roll", d.error_no_double),
        (turn, "Player on roll", d.error_double),
        ("Take", "Opponent", d.error_take),
        ("Pass", "Opponent", d.error_pass),
    )
    lines = ["| Decision | Who decides | Error |", "|:--|:--|--:|"]
    for label, who, error in rows:
        shown = abs(round(error, EQUITY_DECIMALS))  # no "-0.0000"
        lines.append(f"| {label} | {who} | {shown:.{EQUITY_DECIMALS}f} |")
    return "\n".join(lines)


@dataclasses.dataclass(frozen=True)
class DecisionView:
    """The decision section at one set of inputs.

    Attributes
    ----------
    decision : cubecore.cubeful.CubeDecision
        :func:`decision`.
    proper, windows
        :func:`proper` and :func:`both_windows` where the cube is available, else None.
    actions, errors : str or None
        :func:`actions_markdown` and :func:`errors_markdown` (None where the cube is
        not available).
    window_figure : Figure
        :func:`ui.cube.charts.window_figure` of :func:`window`, the margins' band shaded.
    window_table : pandas.DataFrame
        :func:`window` with readable headers, the points in percent to 2 decimals.
    """

    decision: cubeful.CubeDecision
    proper: cubeful.ProperCubeAction | None
    windows: dict[str, dict[str, float | None]] | None
    actions: str | None
    errors: str | None
    window_figure: Figure
    window_table: pd.DataFrame


#: The market window table's headers (:func:`cubecore.cubeful.market_window`'s columns).
WINDOW_HEADERS = {
    "cube_life": "Cube",
    "x": "Cube life x",
    "take_point": "Own take point, %",
    "double_point": "Double point, %",
    "cash_point": "Cash point, %",
    "too_good_point": "Too good point, %",
    "redouble_point": "Redouble point, %",
    "beaver_point": "Beaver point, %",
    "raccoon_point": "Raccoon point, %",
}
_CUBE_LIVES = {"dead": "dead", "live": "live", "chosen": "chosen"}


def window_table(window: pd.DataFrame) -> pd.DataFrame:
    """The market window as a player reads it: each point in percent (2 decimals), the
    cube life to 2 decimals, headers in words."""
    shown = window.copy()
    points = [column for column in shown.columns if column.endswith("_point")]
    shown[points] = (100.0 * shown[points]).round(2)
    shown["x"] = shown["x"].round(2)
    return shown.rename(columns=WINDOW_HEADERS)


@st.cache_resource(max_entries=16, show_spinner=False)
def decision_view(*, p: Probabilities, s: Setting) -> DecisionView:
    """The decision section's :class:`DecisionView`."""
    d = decision(p, s)
    chosen = None
    windows = None
    actions = None
    errors = None
    band = None
    if d.cube_available:
        chosen = proper(p, s, d)
        windows = both_windows(p, s)
        actions = actions_markdown(chosen)
        errors = errors_markdown(d, chosen)
        m = margins(p, s)
        band = (p[0] - (m.win_down or p[0]), p[0] + (m.win_up or 1.0 - p[0]))
    shown = window(p, s)
    return DecisionView(
        decision=d,
        proper=chosen,
        windows=windows,
        actions=actions,
        errors=errors,
        window_figure=charts.window_figure(shown, p[0], band),
        window_table=window_table(shown),
    )


@dataclasses.dataclass(frozen=True)
class AnatomyView:
    """The anatomy section at one set of inputs where the cube is available.

    Attributes
    ----------
    total : float
        DT - ND.
    terms : dict
        Each named term's value by its :data:`TERM_LABELS` label.
    largest : str
        The label of the largest term in magnitude.
    figure : Figure
        :func:`ui.cube.charts.anatomy_figure` of ``terms``.
    margins : cubecore.cubeful.DecisionMargins
        :func:`margins`.
    """

    total: float
    terms: dict[str, float]
    largest: str
    figure: Figure
    margins: cubeful.DecisionMargins


@st.cache_resource(max_entries=16, show_spinner=False)
def anatomy_view(*, p: Probabilities, s: Setting) -> AnatomyView | None:
    """The anatomy section's :class:`AnatomyView`; None where the player on roll cannot
    double (no DT - ND to take apart)."""
    d = decision(p, s)
    if not d.cube_available or d.double_take is None:
        return None
    terms = dataclasses.asdict(anatomy(p, s))
    total = terms.pop("total")
    shown = {TERM_LABELS[name]: value for name, value in terms.items()}
    largest = max(shown, key=lambda name: abs(shown[name]))
    return AnatomyView(
        total=total,
        terms=shown,
        largest=largest,
        figure=charts.anatomy_figure(shown),
        margins=margins(p, s),
    )
