"""The market window of the player on roll for the dead, live and chosen cube.

:func:`market_window` gives the take, double, cash and too-good points (and for money
the redouble, beaver and raccoon points) in the winning chance of the player on roll:
the dead and live rows are the closed forms GNU Backgammon prints in ``show
marketwindow`` ([GNUBG]_), the chosen row solves the model's own equations at the cube
life ``x`` ([RJ93]_ for money, [JT]_ for match).

References
----------
.. [RJ93] R. Janowski, "Take-Points in Money Games", 1993;
   http://www.bkgm.com/articles/Janowski/cubeformulae.pdf
.. [JT] J. Thyssen, the generalisation of Janowski's formulae to match play in
   GNU Backgammon (``Cl2CfMatch*`` in ``eval.c``, ``GetPoints`` in ``matchequity.c``,
   whose comments refer to his notes; no separate publication was found). The
   formulas here are reimplemented from the definitions stated in
   :mod:`cubecore.cube_decision`.
.. [GNUBG] GNU Backgammon 1.07 (2023), https://www.gnu.org/software/gnubg/ :
   0-ply cube decisions, ``show marketwindow``, ``show cubeefficiency``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pandas as pd

from cubecore._validate import flag, real_in_range
from cubecore.cube_decision import (
    CubeDecision,
    CubelessProbabilities,
    _as_probabilities,
    _check_cube,
    _check_score,
    _live_cash_points,
    _Score,
    match_cube_decision,
)
from cubecore.cube_margins import _win_kinks
from cubecore.janowski import cube_points
from cubecore.met import MatchEquityTable

__all__ = [
    "WINDOW_POINTS",
    "market_window",
]

#: Columns of :func:`market_window`.
WINDOW_POINTS = ("take_point", "double_point", "cash_point", "too_good_point")


def _money_closed_points(
    W: float, L: float, live: bool, jacoby: bool, beavers: bool
) -> dict[str, float]:
    """Janowski's closed-form points for the dead (x = 0) or live (x = 1) cube.

    As [RJ93]_ states them and gnubg prints them (``show marketwindow``): with the
    Jacoby rule the dead-cube initial double point is ``(L - 1/2)/(W + L - 1)``, with
    beavers too ``(L - 1/4)/(W + L - 1/2)``; otherwise ``L/(W + L)``.
    """
    if live:
        total = W + L + 0.5
        return {
            "take_point": (L - 0.5) / total,
            "beaver_point": L / total,
            "raccoon_point": (L + 0.5) / total,
            "initial_double_point": (L + 1.0) / total,
            "redouble_point": (L + 1.0) / total,
            "cash_point": (L + 1.0) / total,
            "too_good_point": (L + 1.0) / total,
        }
    total = W + L
    if jacoby and beavers:
        initial = (L - 0.25) / (L + W - 0.5)
    elif jacoby:
        initial = (L - 0.5) / (L + W - 1.0)
    else:
        initial = L / total
    return {
        "take_point": (L - 0.5) / total,
        "beaver_point": L / total,
        "raccoon_point": L / total,
        "initial_double_point": initial,
        "redouble_point": L / total,
        "cash_point": (L + 0.5) / total,
        "too_good_point": (L + 1.0) / total,
    }


def _ratio(numerator: float, denominator: float) -> float:
    """``numerator / denominator``, NaN where the cube changes nothing (0 / 0).

    Each use is a winning chance where two linear equities meet, in [0, 1] exactly; the
    division can land an ulp outside (1-away/1-away gave 1 + 2**-52), which is put back
    on the bound. A value further out is returned as it is, so a real fault shows.
    """
    if denominator == 0.0:
        return math.nan
    chance = numerator / denominator
    if -1e-12 < chance < 0.0 or 1.0 < chance < 1.0 + 1e-12:
        return min(max(chance, 0.0), 1.0)
    return chance


def _match_closed_points(
    score: _Score, cube: int, rates: tuple[float, float, float, float], live: bool
) -> dict[str, float]:
    """gnubg's match market window of the player on roll ([JT]_, ``show marketwindow``).

    Dead cube: the double point ``(NDL - DTL)/((NDL - DTL) + (DTW - NDW))`` where the
    doubled cube ``2c`` is dead, the cash point ``(DP - DTL)/(DTW - DTL)`` and the
    too-good point ``(NDW - NDL)/((NDW - NDL) + (NDW - DP))``; an opponent who wins
    the match with the doubled cube but is not at risk redoubles at once, so the
    stake is then ``4c``. Live cube: the same double point and the live cash point of
    the recursion in :func:`_live_cash_points`. Each ``*W``/``*L`` is the expected
    MWC of winning/losing with the conditional gammon rates. The take point is one
    minus the opponent's cash point. A point is NaN where doubling changes no
    match winning chance (e.g. 1-away/1-away).
    """
    g = ((rates[0], rates[1]), (rates[2], rates[3]))
    a = score.away

    def points_of(k: int) -> dict[str, float]:
        auto = a[k] <= 2 * cube and a[1 - k] > 2 * cube
        stake = 4 * cube if auto else 2 * cube
        dtw = score.outcome(k, stake, True, *g[k])
        dtl = score.outcome(k, stake, False, *g[1 - k])
        ndw = score.outcome(k, cube, True, *g[k])
        ndl = score.outcome(k, cube, False, *g[1 - k])
        dp = score.mwc(k, cube, True)
        double_point = _ratio(ndl - dtl, (ndl - dtl) + (dtw - ndw))
        cash = _ratio(dp - dtl, dtw - dtl)
        too_good = _ratio(ndw - ndl, (ndw - ndl) + (ndw - dp))
        return {"double_point": double_point, "cash_point": cash, "too_good_point": too_good}

    mine, theirs = points_of(0), points_of(1)
    if live:
        cp_me, cp_opp = _live_cash_points(score, cube, rates)
        mine["cash_point"], theirs["cash_point"] = cp_me, cp_opp
        mine["too_good_point"] = cp_me
    return {
        "take_point": 1.0 - theirs["cash_point"],
        "double_point": mine["double_point"],
        "cash_point": mine["cash_point"],
        "too_good_point": mine["too_good_point"],
    }


def _first_root(
    gap: Callable[[float], float], kinks: list[float], low: float, high: float
) -> float:
    """Smallest ``t`` in [low, high] with ``gap(t) >= 0``; NaN if there is none.

    ``gap`` is linear between consecutive ``kinks`` (the live take and cash points
    at the cube and the doubled cube), so it is evaluated at the kinks only and the
    root is solved exactly on the first piece where it turns non-negative.
    """
    knots = sorted({low, high, *(k for k in kinks if low < k < high)})
    values = [gap(t) for t in knots]
    if values[0] >= 0.0:
        return low
    for i in range(len(knots) - 1):
        if values[i] < 0.0 <= values[i + 1]:
            t0, t1 = knots[i], knots[i + 1]
            return t0 + (t1 - t0) * (-values[i]) / (values[i + 1] - values[i])
    return math.nan


def market_window(
    probabilities: CubelessProbabilities | tuple[float, ...],
    x: float,
    *,
    jacoby: bool = False,
    beavers: bool = False,
    table: MatchEquityTable | None = None,
    away: int | None = None,
    opp_away: int | None = None,
    cube: int = 1,
    crawford: bool = False,
) -> pd.DataFrame:
    """The market window of the player on roll for the dead, live and chosen cube.

        One row per cube life (``cube_life`` "dead" x = 0, "live" x = 1, "chosen" x),
        columns ``x``, ``take_point`` (his own take point when doubled),
        ``double_point`` (initial double point from the centre for money, the double
        point at a match score), ``cash_point``, ``too_good_point``, all in the winning
        chance of the player on roll with his probabilities' gammon rates; money rows add
        ``redouble_point``, ``beaver_point``, ``raccoon_point``.

        The dead and live rows are the closed forms GNU Backgammon prints in ``show
        marketwindow`` ([RJ93]_ for money, [JT]_ for match; see
        :func:`_money_closed_points` and :func:`_match_closed_points`). The chosen row
        solves the model's own equations at ``x``: for money
        :func:`cubecore.janowski.cube_points` (take, beaver, raccoon, initial double and
        redouble, cash, too good from the centre); at a match score the smallest winning
        chance (gammon rates held) where DT reaches ND (double), where DT reaches DP
        (cash), where ND exceeds DP (too good) and one minus the opponent's cash point
        (take); NaN where there is no such point (the cube changes nothing, or it is not
        available). Cost: about 30 decisions at a match score (the gaps are linear between
    the live cash points, so they are solved exactly piece by piece). Deviation: with
        the Jacoby rule gnubg's dead too-good point ignores the
        rule, while the model's centred equity never exceeds +1 under it (its too-good
        point is then 1).

        Examples
        --------
        >>> w = market_window((0.6, 0.15, 0.005, 0.1, 0.004), 0.68)
        >>> w["cube_life"].tolist()
        ['dead', 'live', 'chosen']
    """
    probs = _as_probabilities(probabilities)
    x = real_in_range("x", x, 0.0, 1.0)
    jacoby = flag("jacoby", jacoby)
    beavers = flag("beavers", beavers)
    crawford = flag("crawford", crawford)
    rates = probs.rates()
    if table is None:
        W = 1.0 + rates[0] + 2.0 * rates[1]
        L = 1.0 + rates[2] + 2.0 * rates[3]
        rows = []
        for name, life in (("dead", 0.0), ("live", 1.0)):
            pts = _money_closed_points(W, L, life == 1.0, jacoby, beavers)
            rows.append({"cube_life": name, "x": life, **pts})
        model = cube_points(x, W, L, jacoby=jacoby, beavers=beavers)
        rows.append(
            {
                "cube_life": "chosen",
                "x": x,
                "take_point": model.take_point,
                "beaver_point": model.beaver_point,
                "raccoon_point": model.raccoon_point,
                "initial_double_point": model.initial_double_point,
                "redouble_point": model.redouble_point,
                "cash_point": model.cash_point,
                "too_good_point": model.too_good_center,
            }
        )
        frame = pd.DataFrame(rows).rename(columns={"initial_double_point": "double_point"})
        return frame[
            ["cube_life", "x", *WINDOW_POINTS, "redouble_point", "beaver_point", "raccoon_point"]
        ]
    if away is None or opp_away is None:
        raise ValueError("away and opp_away are needed with a match equity table")
    score = _check_score(table, away, opp_away, crawford)
    cube = _check_cube(cube)
    rows = [
        {"cube_life": "dead", "x": 0.0, **_match_closed_points(score, cube, rates, False)},
        {"cube_life": "live", "x": 1.0, **_match_closed_points(score, cube, rates, True)},
    ]

    def decision_at(t: float, r: tuple[float, float, float, float], sc: _Score) -> CubeDecision:
        return match_cube_decision(
            probs.with_rates(t, r), x, table, away=sc.away[0], opp_away=sc.away[1],
            cube=cube, crawford=sc.crawford,
        )  # fmt: skip

    def gaps(
        sc: _Score, r: tuple[float, float, float, float]
    ) -> tuple[Callable[[float], float], Callable[[float], float]]:
        def dt_nd(t: float) -> float:
            d = decision_at(t, r, sc)
            return -1.0 if d.double_take is None else d.double_take - d.no_double

        def dt_dp(t: float) -> float:
            d = decision_at(t, r, sc)
            if d.double_take is None or d.double_pass is None:
                return -1.0
            return d.double_take - d.double_pass

        return dt_nd, dt_dp

    lo, hi = 1e-6, 1.0 - 1e-6
    swapped = (rates[2], rates[3], rates[0], rates[1])
    opp_score = _Score(table, (score.away[1], score.away[0]), score.crawford)
    dt_nd, dt_dp = gaps(score, rates)
    kinks = _win_kinks(probs, table, score, cube)
    opp_kinks = _win_kinks(probs.with_rates(1.0 - probs.win, swapped), table, opp_score, cube)
    cash = _first_root(dt_dp, kinks, lo, hi)
    opp_cash = _first_root(gaps(opp_score, swapped)[1], opp_kinks, lo, hi)

    def nd_over_dp(t: float) -> float:
        d = decision_at(t, rates, score)
        return -1.0 if d.double_pass is None else d.no_double - d.double_pass

    rows.append(
        {
            "cube_life": "chosen",
            "x": x,
            "take_point": 1.0 - opp_cash,
            "double_point": _first_root(dt_nd, kinks, lo, hi),
            "cash_point": cash,
            "too_good_point": _first_root(nd_over_dp, kinks, cash if cash == cash else lo, hi),
        }
    )
    frame = pd.DataFrame(rows)[["cube_life", "x", *WINDOW_POINTS]]
    points = list(WINDOW_POINTS)
    # winning chances: an ulp past a bound is rounding (1-away/1-away gave 1 + 2**-52)
    values = frame[points].to_numpy(dtype=float)
    rounding = (np.abs(values - np.clip(values, 0.0, 1.0)) < 1e-12) & ~np.isnan(values)
    frame[points] = np.where(rounding, np.clip(values, 0.0, 1.0), values)
    return frame
