"""Cube decisions from an engine's five cubeless probabilities (money and match).

An engine (GNU Backgammon, eXtreme Gammon) evaluates a position as five cubeless
probabilities of the player on roll: win, win gammon, win backgammon, lose gammon,
lose backgammon, cumulative (gammons include backgammons). This module turns them
into the cubeful equities of No double (ND), Double/take (DT) and Double/pass (DP)
the way GNU Backgammon 1.07 does at 0-ply ([GNUBG]_; checked against the 1.07
binary by the fixtures in ``tests/data/gnubg_cube_*.json``):

- money play: Janowski's interpolation between the dead and the live cube
  ([RJ93]_, [JR12]_), :math:`E = (1 - x) E_{dead} + x E_{live}`, with the live-cube
  equity piecewise linear through the take point :math:`TP = (L - 1/2)/(W + L + 1/2)`
  and the cash point :math:`CP = (L + 1)/(W + L + 1/2)`, where
  :math:`W = 1 + (P_{wg} + P_{wbg})/P_w` and :math:`L = 1 + (P_{lg} + P_{lbg})/(1 - P_w)`
  (:mod:`cubecore.janowski`);
- match play: Joern Thyssen's generalisation ([JT]_): the same interpolation in
  match winning chance (MWC), the dead cube being the cubeless MWC and the live
  cube linear between the live cash points of the two players, found recursively
  from the highest cube level at which the cube is still alive down to the current
  one.

``x`` is the cube life index (cube efficiency): gnubg's defaults are 0.68 for
contact and crashed positions, 0.6 for the one-sided bear-off and
``0.55 + 0.00125 * pips`` clamped to [0.6, 0.7] in a race (:func:`cube_life`).

Equities are given per unit of the current cube ("normalised"): for money this is
the money equity divided by the cube value; at a match score it is gnubg's EMG
(normalised money-equivalent equity, gnubg's ``mwc2eq``), the MWC mapped linearly
so that losing the current cube value is -1 and winning it is +1.

References
----------
.. [RJ93] R. Janowski, "Take-Points in Money Games", 1993;
   http://www.bkgm.com/articles/Janowski/cubeformulae.pdf
.. [JR12] "Janowski model revisited", 28 March 2012 (the model as
   :mod:`cubecore.janowski` implements it).
.. [JT] J. Thyssen, the generalisation of Janowski's formulae to match play in
   GNU Backgammon (``Cl2CfMatch*`` in ``eval.c``, ``GetPoints`` in ``matchequity.c``,
   whose comments refer to his notes; no separate publication was found). The
   formulas here are reimplemented from the definitions stated in this module.
.. [GNUBG] GNU Backgammon 1.07 (2023), https://www.gnu.org/software/gnubg/ :
   0-ply cube decisions, ``show marketwindow``, ``show cubeefficiency``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

from cubecore._validate import choice, flag, real_in_range, whole_number
from cubecore.janowski import CubePosition, cube_points, cubeful_equity
from cubecore.match_points import CubeOwner
from cubecore.met import MatchEquityTable

__all__ = [
    "ALTERNATIVES",
    "BEAROFF_CUBE_LIFE",
    "CONTACT_CUBE_LIFE",
    "CRASHED_CUBE_LIFE",
    "MAX_EQUITY",
    "MAX_SCORE_GRID",
    "POSITION_CLASSES",
    "CubeDecision",
    "CubeSetting",
    "CubelessProbabilities",
    "DecisionAnatomy",
    "DecisionMargins",
    "ProperCubeAction",
    "cube_life",
    "decision_anatomy",
    "decision_margins",
    "market_window",
    "match_cube_decision",
    "money_cube_decision",
    "proper_cube_action",
    "score_matrix",
]

#: gnubg 1.07's default cube life for contact positions (``show cubeefficiency``).
CONTACT_CUBE_LIFE = 0.68
#: gnubg 1.07's default cube life for crashed positions.
CRASHED_CUBE_LIFE = 0.68
#: gnubg 1.07's default cube life for the one-sided bear-off database.
BEAROFF_CUBE_LIFE = 0.6
#: gnubg 1.07's race cube life: ``intercept + slope * pips`` clamped to [low, high].
RACE_CUBE_LIFE = {"intercept": 0.55, "slope": 0.00125, "low": 0.6, "high": 0.7}
#: Position classes :func:`cube_life` knows.
POSITION_CLASSES = ("contact", "crashed", "bearoff", "race")
#: Largest pip count of a side (15 checkers on the bar).
MAX_PIPS = 375
#: Largest side of the score grid of :func:`score_matrix`.
MAX_SCORE_GRID = 15
#: Largest cube value accepted (2**12).
MAX_CUBE = 4096

#: gnubg's threshold below which (or above one minus which) W or L is undefined and
#: the cubeless equity is used (``Cl2CfMoney``): "basically a dead cube".
_DEGENERATE = 1e-7
#: gnubg's tolerance for an optional double (``isOptional``): ND and DP/DT equal.
_OPTIONAL = 1e-5

CUBE_OWNERS: tuple[CubeOwner, ...] = ("center", "player", "opponent")


# --------------------------------------------------------------------------- inputs


@dataclass(frozen=True)
class CubelessProbabilities:
    """The five cubeless probabilities of the player on roll, cumulative.

    Attributes
    ----------
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon : float
        ``P(win)``, ``P(win a gammon or backgammon)``, ``P(win a backgammon)``,
        ``P(lose a gammon or backgammon)``, ``P(lose a backgammon)``: as gnubg and XG
        print them (gammons include backgammons).

    Raises
    ------
    ValueError
        If the five numbers cannot belong to one game: any outside [0, 1], a gammon
        rate above its wins (``win_gammon > win``, ``lose_gammon > 1 - win``) or a
        backgammon rate above its gammons. The message names the rule broken.

    Examples
    --------
    >>> p = CubelessProbabilities(0.7431, 0.2606, 0.0096, 0.0512, 0.0021)
    >>> round(p.money_equity, 4)
    0.7031
    """

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float

    def __post_init__(self) -> None:
        names = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
        for name in names:
            object.__setattr__(self, name, real_in_range(name, getattr(self, name), 0.0, 1.0))
        slack = 1e-9  # engines print float32 probabilities: allow their rounding
        if self.win_gammon > self.win + slack:
            raise ValueError(
                f"win_gammon ({self.win_gammon:g}) exceeds win ({self.win:g}):"
                " gammons are counted within wins"
            )
        if self.win_backgammon > self.win_gammon + slack:
            raise ValueError(
                f"win_backgammon ({self.win_backgammon:g}) exceeds win_gammon"
                f" ({self.win_gammon:g}): backgammons are counted within gammons"
            )
        if self.lose_gammon > 1.0 - self.win + slack:
            raise ValueError(
                f"lose_gammon ({self.lose_gammon:g}) exceeds the chance of losing,"
                f" 1 - win = {1.0 - self.win:g}: gammons are counted within losses"
            )
        if self.lose_backgammon > self.lose_gammon + slack:
            raise ValueError(
                f"lose_backgammon ({self.lose_backgammon:g}) exceeds lose_gammon"
                f" ({self.lose_gammon:g}): backgammons are counted within gammons"
            )

    @property
    def lose(self) -> float:
        """``1 - win``."""
        return 1.0 - self.win

    @property
    def money_equity(self) -> float:
        """Cubeless money equity ``2 P_w - 1 + (P_wg - P_lg) + (P_wbg - P_lbg)``."""
        return (
            2.0 * self.win
            - 1.0
            + (self.win_gammon - self.lose_gammon)
            + (self.win_backgammon - self.lose_backgammon)
        )

    @property
    def win_value(self) -> float:
        """Janowski's ``W = 1 + (P_wg + P_wbg) / P_w`` (1 when ``P_w = 0``)."""
        if self.win <= 0.0:
            return 1.0
        return 1.0 + (self.win_gammon + self.win_backgammon) / self.win

    @property
    def loss_value(self) -> float:
        """Janowski's ``L = 1 + (P_lg + P_lbg) / (1 - P_w)`` (1 when ``P_w = 1``)."""
        if self.win >= 1.0:
            return 1.0
        return 1.0 + (self.lose_gammon + self.lose_backgammon) / (1.0 - self.win)

    def rates(self) -> tuple[float, float, float, float]:
        """Conditional rates: gammon-only and backgammon share of wins, then of losses."""
        p = self.win
        gw = (self.win_gammon - self.win_backgammon) / p if p > 0.0 else 0.0
        bw = self.win_backgammon / p if p > 0.0 else 0.0
        gl = (self.lose_gammon - self.lose_backgammon) / (1.0 - p) if p < 1.0 else 0.0
        bl = self.lose_backgammon / (1.0 - p) if p < 1.0 else 0.0
        return gw, bw, gl, bl

    def with_rates(
        self, win: float, rates: tuple[float, float, float, float]
    ) -> CubelessProbabilities:
        """The probabilities with winning chance ``win`` and the given conditional rates."""
        gw, bw, gl, bl = rates
        lose = 1.0 - win
        return CubelessProbabilities(win, win * (gw + bw), win * bw, lose * (gl + bl), lose * bl)


def _as_probabilities(probabilities: object) -> CubelessProbabilities:
    if isinstance(probabilities, CubelessProbabilities):
        return probabilities
    if not isinstance(probabilities, Iterable) or isinstance(probabilities, (str, bytes)):
        raise ValueError(
            "`probabilities` must be a CubelessProbabilities or five numbers"
            " (win, win gammon, win backgammon, lose gammon, lose backgammon)"
        )
    try:
        values: tuple[Any, ...] = tuple(probabilities)
    except TypeError:
        raise ValueError(
            "`probabilities` must be a CubelessProbabilities or five numbers"
            " (win, win gammon, win backgammon, lose gammon, lose backgammon)"
        ) from None
    if len(values) != 5:
        raise ValueError(
            "`probabilities` must have five entries (win, win gammon, win backgammon,"
            f" lose gammon, lose backgammon); got {len(values)}"
        )
    return CubelessProbabilities(*values)


def cube_life(position_class: str, pips: int | None = None) -> float:
    """gnubg 1.07's default cube life index ``x`` for a position class.

    contact and crashed: 0.68; one-sided bear-off (``"bearoff"``): 0.6; race:
    ``x = 0.55 + 0.00125 * pips`` clamped to [0.6, 0.7], ``pips`` being the pip count
    of the player on roll ([GNUBG]_, ``show cubeefficiency``).

    Parameters
    ----------
    position_class : {"contact", "crashed", "bearoff", "race"}
    pips : int, optional
        Pip count of the player on roll, 1..375; needed for ``"race"`` only.

    Examples
    --------
    >>> cube_life("race", 100), cube_life("contact")
    (0.675, 0.68)
    """
    position_class = choice("position_class", position_class, POSITION_CLASSES)
    if position_class == "race":
        if pips is None:
            raise ValueError("pips is needed for a race (the pip count of the player on roll)")
        count = whole_number("pips", pips, 1, MAX_PIPS)
        raw = RACE_CUBE_LIFE["intercept"] + RACE_CUBE_LIFE["slope"] * count
        return min(max(raw, RACE_CUBE_LIFE["low"]), RACE_CUBE_LIFE["high"])
    if pips is not None:
        whole_number("pips", pips, 1, MAX_PIPS)
    return {"contact": CONTACT_CUBE_LIFE, "crashed": CRASHED_CUBE_LIFE}.get(
        position_class, BEAROFF_CUBE_LIFE
    )


def _check_cube(cube: int) -> int:
    value = whole_number("cube", cube, 1, MAX_CUBE)
    if value & (value - 1):
        raise ValueError(f"`cube` must be a power of two in [1, {MAX_CUBE}] (got {value})")
    return value


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class CubeDecision:
    """A 0-ply cube decision of the player on roll.

    Equities (``no_double``, ``double_take``, ``double_pass``, ``cubeless_equity``,
    ``optimal``) are per unit of the current cube: money equity for money play,
    gnubg's EMG (normalised money-equivalent equity) at a match score. The ``*_mwc``
    fields are the match winning chances (``None`` for money).

    Attributes
    ----------
    x : float
        Cube life index used.
    cube : int
        Current cube value.
    owner : str
        "center", "player" (the player on roll) or "opponent".
    match : bool
        True at a match score, False for money.
    cube_available : bool
        Whether the player on roll may double; if not, only ND is given.
    cube_alive : bool
        False where gnubg treats the cube as dead (Crawford game, both players
        within the cube of winning, 2-away/2-away): ND is then the cubeless value.
    cubeless_equity, cubeless_mwc : float
    no_double, double_take, double_pass, optimal : float
    no_double_mwc, double_take_mwc, double_pass_mwc, optimal_mwc : float or None
    action : str
        gnubg's recommendation text, e.g. "Double, take", "Too good to redouble, pass".
    doubles : bool
        Whether the best action turns the cube.
    taker_passes : bool
        Whether the opponent should pass a double (DT above DP).
    taker_beavers : bool
        Money with beavers: the opponent should beaver (DT <= 0).
    error_no_double, error_double : float
        Cost (in the units above) of not doubling and of doubling, against the best.
    error_take, error_pass : float
        The opponent's cost of taking and of passing, against his best.
    """

    x: float
    cube: int
    owner: CubeOwner
    match: bool
    cube_available: bool
    cube_alive: bool
    cubeless_equity: float
    cubeless_mwc: float | None
    no_double: float
    double_take: float | None
    double_pass: float | None
    optimal: float
    no_double_mwc: float | None
    double_take_mwc: float | None
    double_pass_mwc: float | None
    optimal_mwc: float | None
    action: str
    doubles: bool
    taker_passes: bool
    taker_beavers: bool
    error_no_double: float
    error_double: float
    error_take: float
    error_pass: float


def _no_decision(
    x: float,
    cube: int,
    owner: CubeOwner,
    *,
    match: bool,
    alive: bool,
    cubeless: float,
    cubeless_mwc: float | None,
    nd: float,
    nd_mwc: float | None,
    action: str,
) -> CubeDecision:
    """The result where the player on roll cannot double: ND only, no errors."""
    return CubeDecision(
        x=x, cube=cube, owner=owner, match=match, cube_available=False, cube_alive=alive,
        cubeless_equity=cubeless, cubeless_mwc=cubeless_mwc, no_double=nd, double_take=None,
        double_pass=None, optimal=nd, no_double_mwc=nd_mwc, double_take_mwc=None,
        double_pass_mwc=None, optimal_mwc=nd_mwc, action=action, doubles=False,
        taker_passes=False, taker_beavers=False, error_no_double=0.0, error_double=0.0,
        error_take=0.0, error_pass=0.0,
    )  # fmt: skip


# --------------------------------------------------------------------------- money


def _money_cubeful(
    probs: CubelessProbabilities, x: float, holder: CubePosition, jacoby: bool
) -> float:
    """Janowski's money equity per cube for the holder of the cube ([RJ93]_, [JR12]_).

    ``holder`` is "center", "owned" (player on roll) or "opponent". With the
    Jacoby rule and a centred cube the dead part is ``2 P_w - 1`` (gnubg's gammon
    price 0) and the live part is flat at -1 and +1 outside the window.
    """
    p = probs.win
    dead = 2.0 * p - 1.0 if jacoby and holder == "center" else probs.money_equity
    if p <= _DEGENERATE or p >= 1.0 - _DEGENERATE:
        return dead  # W or L undefined: gnubg uses the cubeless equity
    W, L = probs.win_value, probs.loss_value
    live = float(cubeful_equity(p, 1.0, holder, W, L, jacoby=jacoby))
    return (1.0 - x) * dead + x * live


def _best_action(
    nd: float,
    dt: float,
    dp: float,
    *,
    centred: bool,
    can_gammon: bool,
    money: bool,
    jacoby: bool,
    beavers: bool,
) -> tuple[str, bool]:
    """gnubg's recommendation from ND, DT, DP ([GNUBG]_ ``FindBestCubeDecision``).

    Returns the recommendation text and whether the cube is turned.
    """
    re = "" if centred else "re"
    Re = "D" if centred else "Red"
    beaver = money and beavers and -2.0 <= dt <= 0.0
    if dt >= nd and dp >= nd:
        if dp > dt:  # double, take
            optional = abs(dt - nd) <= _OPTIONAL
            if beaver:
                if 2.0 * dt < nd:
                    return "No double, beaver", False
                return ("Optional double, beaver" if optional else "Double, beaver"), True
            if optional:
                return f"Optional {re}double, take", True
            return f"{Re}ouble, take", True
        optional = (
            abs(nd - dp) <= _OPTIONAL and can_gammon and (not money or not centred or not jacoby)
        )
        if optional:
            return f"Optional {re}double, pass", True
        return f"{Re}ouble, pass", True
    if nd > dt:
        if dt > dp:
            if can_gammon:
                return f"Too good to {re}double, pass", False
            return f"{Re}ouble, pass", True
        if nd > dp:
            if can_gammon:
                return f"Too good to {re}double, take", False
            return ("No double, take" if centred else "No redouble, take"), False
        if beaver:
            return ("No double, beaver" if centred else "No redouble, beaver"), False
        return ("No double, take" if centred else "No redouble, take"), False
    if can_gammon:  # DT >= ND > DP
        return f"Too good to {re}double, pass", False
    return f"{Re}ouble, pass", True


def _errors(nd: float, dt: float, dp: float, beaver: bool) -> tuple[float, float, float, float]:
    """Sizes of the doubler's and the taker's errors against their best choices.

    The doubler's best is ``max(ND, min(DT*, DP))`` with ``DT* = 2 DT`` when the
    taker beavers (``beaver``), else ``DT``: the taker answers a double with his
    best of take (or beaver) and pass, which minimises the doubler's equity.
    """
    doubling = min(2.0 * dt if beaver else dt, dp)
    optimal = max(nd, doubling)
    error_no_double = optimal - nd
    error_double = optimal - doubling
    error_take = max(dt - dp, 0.0)
    error_pass = max(dp - dt, 0.0)
    return error_no_double, error_double, error_take, error_pass


#: The three rows of a cube decision, in the order engines list them.
ALTERNATIVES = ("no_double", "double_take", "double_pass")
#: Largest equity magnitude accepted by :func:`proper_cube_action` (per unit of the
#: cube; a doubled backgammon is worth 6, EMG at a match score stays far below).
MAX_EQUITY = 1e6


@dataclass(frozen=True)
class ProperCubeAction:
    """The proper cube action and what each alternative costs against it.

    Equities are the doubler's, per unit of the current cube (money equity or EMG).

    Attributes
    ----------
    action : str
        gnubg's recommendation text, e.g. "Double, take", "No redouble, take",
        "Too good to double, pass", "Optional double, pass", "No double, beaver".
    doubles : bool
        Whether the proper action turns the cube.
    taker_passes : bool
        Whether the opponent should pass a double (``DT > DP``).
    proper : {"no_double", "double_take", "double_pass"}
        The row whose equity is the proper one: "no_double" when the cube is held
        (also when too good), else the taker's proper answer to the double.
    no_double, double_take, double_pass, optimal : float
        The three cubeful equities and the equity of the proper action.
    no_double_cost, double_take_cost, double_pass_cost : float
        Each row's equity minus ``optimal`` (the bracketed figure engines print
        beside each alternative): 0 for the proper row; ``no_double_cost`` and the
        cost of the taker's proper answer are <= 0 (the doubler's errors); the
        taker's wrong answer has a cost >= 0 (his error, the doubler's gain).
    labels : tuple of str
        Human labels of the three rows: "No double", "Double, take", "Double, pass"
        ("No redouble", "Redouble, take", "Redouble, pass" for an owned cube).
    """

    action: str
    doubles: bool
    taker_passes: bool
    proper: str
    no_double: float
    double_take: float
    double_pass: float
    optimal: float
    no_double_cost: float
    double_take_cost: float
    double_pass_cost: float
    labels: tuple[str, str, str]

    def rows(self) -> tuple[tuple[str, float, float, bool], ...]:
        """(label, equity, cost, is proper) for the three rows, in engine order."""
        equities = (self.no_double, self.double_take, self.double_pass)
        costs = (self.no_double_cost, self.double_take_cost, self.double_pass_cost)
        return tuple(
            (label, equity, cost, name == self.proper)
            for label, equity, cost, name in zip(
                self.labels, equities, costs, ALTERNATIVES, strict=True
            )
        )


def proper_cube_action(
    no_double: float,
    double_take: float,
    double_pass: float,
    *,
    centred: bool = True,
    can_gammon: bool = True,
    money: bool = True,
    jacoby: bool = False,
    beavers: bool = False,
) -> ProperCubeAction:
    """The proper cube action from the three cubeful equities, with each one's cost.

    The decision rule of GNU Backgammon ([GNUBG]_ ``FindBestCubeDecision``, the
    standard one of cube theory): with ``ND``, ``DT``, ``DP`` the doubler's equities of
    no double, double/take and double/pass,

    .. math::

        \\text{double} \\iff DT \\ge ND \\text{ and } DP \\ge ND,\\qquad
        \\text{pass} \\iff DT \\ge DP,\\qquad
        E^{*} = \\max\\bigl(ND, \\min(DT, DP)\\bigr),

    "too good" (to double) when ``ND`` beats both and a gammon is possible
    (``can_gammon``; without gammons such a position is a double/pass), "optional"
    when doubling and not doubling are equal within 1e-5. With ``beavers`` (money) a
    taker for whom taking is worth at least 0 (``-2 <= DT <= 0``) beavers. The cost
    of each row is its equity minus the proper equity :math:`E^{*}` ([GNUBG]_ ``hint``,
    "Cube analysis"; eXtreme Gammon prints the same figures).

    Parameters
    ----------
    no_double, double_take, double_pass : float
        The doubler's cubeful equities per unit of the current cube, finite, at most
        :data:`MAX_EQUITY` in size. All three are given: ``double_pass`` is +1 in
        money play, not in a match's units (MWC, or EMG with gammons).
    centred : bool
        The cube is in the centre (else the doubler owns it: "redouble").
    can_gammon : bool
        The doubler can win a gammon (the position can be too good to double).
    money, jacoby, beavers : bool
        Money play and its Jacoby and beaver rules (``jacoby`` and ``beavers`` only
        matter for money).

    Returns
    -------
    ProperCubeAction

    Notes
    -----
    gnubg's convention is kept where the taker beavers: ``optimal`` is ``DT``
    unbeavered. One deviation: where gnubg says "No double, beaver" with
    ``ND <= DT`` it reports DT as the optimum, this function ND (the action it names).

    Examples
    --------
    The example of the "Cube analysis" panel of gnubg: ND +0.512, DT +0.556, DP +1.

    >>> a = proper_cube_action(0.512, 0.556, 1.0)
    >>> a.action, round(a.no_double_cost, 3), round(a.double_pass_cost, 3)
    ('Double, take', -0.044, 0.444)
    """
    nd = real_in_range("no_double", no_double, -MAX_EQUITY, MAX_EQUITY)
    dt = real_in_range("double_take", double_take, -MAX_EQUITY, MAX_EQUITY)
    dp = real_in_range("double_pass", double_pass, -MAX_EQUITY, MAX_EQUITY)
    centred = flag("centred", centred)
    can_gammon = flag("can_gammon", can_gammon)
    money = flag("money", money)
    jacoby = flag("jacoby", jacoby)
    beavers = flag("beavers", beavers)
    action, doubles = _best_action(
        nd, dt, dp, centred=centred, can_gammon=can_gammon, money=money, jacoby=jacoby,
        beavers=beavers,
    )  # fmt: skip
    # the taker answers a double with his best: pass where DT >= DP
    proper = ("double_pass" if dt >= dp else "double_take") if doubles else "no_double"
    optimal = {"no_double": nd, "double_take": dt, "double_pass": dp}[proper]
    re = "" if centred else "re"
    Re = "D" if centred else "Red"
    return ProperCubeAction(
        action=action, doubles=doubles, taker_passes=dt > dp, proper=proper, no_double=nd,
        double_take=dt, double_pass=dp, optimal=optimal, no_double_cost=nd - optimal,
        double_take_cost=dt - optimal, double_pass_cost=dp - optimal,
        labels=(f"No {re}double", f"{Re}ouble, take", f"{Re}ouble, pass"),
    )  # fmt: skip


def money_cube_decision(
    probabilities: CubelessProbabilities | tuple[float, ...],
    x: float,
    *,
    cube: int = 1,
    owner: CubeOwner = "center",
    jacoby: bool = False,
    beavers: bool = False,
) -> CubeDecision:
    """gnubg 1.07's 0-ply money cube decision from the five cubeless probabilities.

    .. math::

        ND = (1 - x) E_{dead} + x E_{live}(P_w),\\quad
        DT = 2 \\left[(1 - x) E_{dead} + x E^{opp}_{live}(P_w)\\right],\\quad DP = 1

    per unit of the current cube ([RJ93]_, [JR12]_; :func:`cubecore.janowski.cubeful_equity`
    gives :math:`E_{live}`), with :math:`E_{dead}` the cubeless equity. Double iff
    ``DT >= ND`` and ``DP >= ND``; pass iff ``DT >= DP``; "too good" when ND beats
    both and a gammon is possible. With beavers, a taker whose take is worth at least
    0 to him (``-2 <= DT <= 0``) beavers: the double is then worth ``2 DT`` to the
    doubler, and gnubg reports "No double, beaver" where ``2 DT < ND``
    ([GNUBG]_ ``FindBestCubeDecision``; DT itself is reported unbeavered, as gnubg does).
    ``optimal`` follows gnubg's convention: the equity of the best action with DT
    unbeavered (after "Double, beaver" it is DT, not the ``2 DT`` the doubler gets);
    one deviation: where gnubg says "No double, beaver" with ``ND <= DT`` it reports
    DT, this module ND (the action it names).

    Parameters
    ----------
    probabilities : CubelessProbabilities or 5 numbers
        Of the player on roll.
    x : float
        Cube life index in [0, 1] (:func:`cube_life` gives gnubg's defaults).
    cube : int
        Cube value, a power of two (1 .. 4096); the equities are per cube.
    owner : {"center", "player", "opponent"}
        "center" needs ``cube == 1``; "opponent": the player cannot double.
    jacoby, beavers : bool
        Money-session rules.

    Notes
    -----
    Degenerate cases, as gnubg: for ``P_w <= 1e-7`` or ``P_w >= 1 - 1e-7`` W or L is
    undefined and the cube is dead (ND is the cubeless equity).

    Examples
    --------
    >>> d = money_cube_decision((0.7431, 0.2606, 0.0096, 0.0512, 0.0021), 0.68)
    >>> d.action, round(d.no_double, 4), round(d.double_take, 4)
    ('Double, pass', 0.9264, 1.2315)
    """
    probs = _as_probabilities(probabilities)
    x = real_in_range("x", x, 0.0, 1.0)
    cube = _check_cube(cube)
    owner = choice("owner", owner, CUBE_OWNERS)
    jacoby = flag("jacoby", jacoby)
    beavers = flag("beavers", beavers)
    if owner == "center" and cube != 1:
        raise ValueError(f"a centred cube is on 1 in money play (got cube={cube})")
    holders: dict[str, CubePosition] = {
        "center": "center",
        "player": "owned",
        "opponent": "opponent",
    }
    holder = holders[owner]
    nd = _money_cubeful(probs, x, holder, jacoby)
    cubeless = probs.money_equity
    if owner == "opponent":
        return _no_decision(
            x, cube, owner, match=False, alive=True, cubeless=cubeless, cubeless_mwc=None,
            nd=nd, nd_mwc=None, action="No double (the opponent owns the cube)",
        )  # fmt: skip
    dt = 2.0 * _money_cubeful(probs, x, "opponent", False)
    dp = 1.0
    proper = proper_cube_action(
        nd, dt, dp, centred=owner == "center", can_gammon=probs.win_gammon > 0.0,
        money=True, jacoby=jacoby, beavers=beavers,
    )  # fmt: skip
    action, doubles, optimal = proper.action, proper.doubles, proper.optimal
    errors = _errors(nd, dt, dp, beavers and -2.0 <= dt <= 0.0)
    return CubeDecision(
        x=x, cube=cube, owner=owner, match=False, cube_available=True, cube_alive=True,
        cubeless_equity=cubeless, cubeless_mwc=None, no_double=nd, double_take=dt,
        double_pass=dp, optimal=optimal, no_double_mwc=None, double_take_mwc=None,
        double_pass_mwc=None, optimal_mwc=None, action=action, doubles=doubles,
        taker_passes=dt > dp, taker_beavers=beavers and -2.0 <= dt <= 0.0,
        error_no_double=errors[0], error_double=errors[1], error_take=errors[2],
        error_pass=errors[3],
    )  # fmt: skip


# --------------------------------------------------------------------------- match


@dataclass(frozen=True)
class _Score:
    """A match score seen from the player on roll (index 0) and his opponent (1)."""

    table: MatchEquityTable
    away: tuple[int, int]
    crawford: bool

    @property
    def post(self) -> bool:
        """Whether a game result lands in the post-Crawford table (this game is the
        Crawford game or a post-Crawford game)."""
        return self.crawford or 1 in self.away

    def mwc(self, k: int, points: int, k_wins: bool) -> float:
        """MWC of player ``k`` after ``k`` wins (or loses) ``points`` this game."""
        mine, theirs = self.away[k], self.away[1 - k]
        if k_wins:
            mine -= points
        else:
            theirs -= points
        if mine <= 0:
            return 1.0
        if theirs <= 0:
            return 0.0
        # MatchEquityTable.mwc without its argument checks (this runs in inner loops;
        # the scores were checked by _check_score and stay inside the table)
        if self.post:
            if mine == 1:
                return 1.0 - float(self.table.post[theirs - 1])
            return float(self.table.post[mine - 1])
        return float(self.table.pre[mine - 1, theirs - 1])

    def outcome(self, k: int, cube: int, k_wins: bool, gammon: float, backgammon: float) -> float:
        """Expected MWC of player ``k`` when the game ends (won or lost by ``k``) with
        the cube at ``cube`` and conditional gammon-only/backgammon rates given."""
        return (
            (1.0 - gammon - backgammon) * self.mwc(k, cube, k_wins)
            + gammon * self.mwc(k, 2 * cube, k_wins)
            + backgammon * self.mwc(k, 3 * cube, k_wins)
        )

    def cube_alive(self, cube: int) -> bool:
        """gnubg's ``fDoCubeful``: the cube is dead in the Crawford game, when both
        players win the match with a single game at this cube, or at 2-away/2-away."""
        if self.crawford:
            return False
        if self.away[0] <= cube and self.away[1] <= cube:
            return False
        return self.away != (2, 2)


def _live_cash_points(
    score: _Score, cube: int, rates: tuple[float, float, float, float]
) -> tuple[float, float]:
    """Live-cube cash points of the player on roll and of his opponent ([JT]_).

    ``rates`` are the conditional (gammon-only, backgammon) rates of the player's
    wins, then of his losses (his opponent's wins). From
    the highest cube level ``c`` at which doubling to ``2c`` would let a player win
    the match with a single game (the doubled cube is dead), the cash point of
    player ``k`` is the opponent's dead-cube take point,
    ``CP_k = (DTL - DP) / (DTL - DTW)`` (an opponent who could then win the match
    with the doubled cube but is not at risk redoubles at once: the stake is then
    ``4c``). Below it, the doubled cube is alive and the opponent's take point is
    interpolated on his own live cash point at the next level:
    ``CP_k(c) = 1 - CP_opp(2c) (DP - DTW) / (RDP - DTW)``, with ``RDP`` the MWC of
    losing ``2c`` (the opponent cashes).
    """
    g = ((rates[0], rates[1]), (rates[2], rates[3]))
    a = score.away
    top = cube
    while a[0] > 2 * top and a[1] > 2 * top:
        top *= 2
    cash: dict[int, tuple[float, float]] = {}
    level = top
    while level >= cube:
        points = []
        for k in (0, 1):
            dp = score.mwc(k, level, True)
            if level == top:  # doubled cube dead: gnubg's GetCubePrimeValue
                auto = a[k] <= 2 * level and a[1 - k] > 2 * level
                stake = 4 * level if auto else 2 * level
                dtw = score.outcome(k, stake, True, *g[k])
                dtl = score.outcome(k, stake, False, *g[1 - k])
                points.append((dtl - dp) / (dtl - dtw))
            else:
                rdp = score.mwc(k, 2 * level, False)
                dtw = score.outcome(k, 2 * level, True, *g[k])
                points.append(1.0 - cash[2 * level][1 - k] * (dp - dtw) / (rdp - dtw))
        cash[level] = (points[0], points[1])
        level //= 2
    return cash[cube]


def _match_cubeful(
    probs: CubelessProbabilities, x: float, score: _Score, cube: int, holder: CubePosition
) -> tuple[float, float, float]:
    """MWC of the player on roll: (cubeful, dead, live) for the cube held by ``holder``.

    Dead: the cubeless MWC (each outcome's MWC weighted by its probability). Live:
    piecewise linear in ``P_w`` ([JT]_) between ``(0, MWC if he loses)``, the
    opponent's cash point ``(1 - CP_opp, MWC of losing the cube)``, his own cash point
    ``(CP, MWC of winning the cube)`` and ``(1, MWC if he wins)``; owning the cube
    drops the opponent's corner, an unavailable cube drops his own.
    """
    gw, bw, gl, bl = probs.rates()
    p = probs.win
    win = score.outcome(0, cube, True, gw, bw)
    lose = score.outcome(0, cube, False, gl, bl)
    dead = p * win + (1.0 - p) * lose
    if not score.cube_alive(cube):
        return dead, dead, dead
    cp_me, cp_opp = _live_cash_points(score, cube, (gw, bw, gl, bl))
    cash, opp_cash = score.mwc(0, cube, True), score.mwc(0, cube, False)
    opp_tg, tg = 1.0 - cp_opp, cp_me
    xs: list[float] = [0.0]
    ys: list[float] = [lose]
    if holder in ("center", "opponent"):
        xs.append(opp_tg)
        ys.append(opp_cash)
    if holder in ("center", "owned"):
        xs.append(tg)
        ys.append(cash)
    xs.append(1.0)
    ys.append(win)
    live = _interpolate(p, xs, ys)
    return (1.0 - x) * dead + x * live, dead, live


def _interpolate(p: float, xs: list[float], ys: list[float]) -> float:
    """Linear interpolation through corners (degenerate corners at 0 or 1 allowed)."""
    for i in range(1, len(xs)):
        if p <= xs[i] or i == len(xs) - 1:
            x0, x1 = xs[i - 1], xs[i]
            if x1 <= x0:
                return ys[i]
            return ys[i - 1] + (ys[i] - ys[i - 1]) * (p - x0) / (x1 - x0)
    return ys[-1]  # pragma: no cover - the loop always returns


def _check_score(table: MatchEquityTable, away: int, opp_away: int, crawford: bool) -> _Score:
    if not isinstance(table, MatchEquityTable):
        raise ValueError(f"`table` must be a MatchEquityTable (got {type(table).__name__})")
    a = whole_number("away", away, 1, table.length)
    b = whole_number("opp_away", opp_away, 1, table.length)
    crawford = flag("crawford", crawford)
    if crawford and 1 not in (a, b):
        raise ValueError(f"crawford needs away or opp_away to be 1 (got {a} and {b})")
    if (a == 1 or b == 1) and max(a, b) > table.post_length:
        raise ValueError(
            f"the post-Crawford column of {table.name} covers 1..{table.post_length} away"
        )
    return _Score(table, (a, b), crawford)


def match_cube_decision(
    probabilities: CubelessProbabilities | tuple[float, ...],
    x: float,
    table: MatchEquityTable,
    *,
    away: int,
    opp_away: int,
    cube: int = 1,
    owner: CubeOwner = "center",
    crawford: bool = False,
) -> CubeDecision:
    """gnubg 1.07's 0-ply cube decision at a match score.

    .. math::

        MWC = (1 - x)\\, MWC_{dead} + x\\, MWC_{live}(P_w)

    ([JT]_): ND with the cube as it is, DT with the cube at ``2 * cube`` owned by the
    opponent, DP = the MWC of winning ``cube`` points. The equities are then given in
    EMG, ``(2 MWC - (M_w + M_l)) / (M_w - M_l)`` with ``M_w``/``M_l`` the MWC of
    winning/losing ``cube`` points (gnubg's ``mwc2eq``), and the decision is taken on
    them as in :func:`money_cube_decision` (no beavers, no Jacoby rule).

    Parameters
    ----------
    probabilities : CubelessProbabilities or 5 numbers
        Of the player on roll.
    x : float
        Cube life index in [0, 1].
    table : MatchEquityTable
    away, opp_away : int
        Points the player on roll and his opponent need (1 .. ``table.length``).
        When one of them is 1 the game is post-Crawford unless ``crawford``.
    cube : int
        Cube value (power of two).
    owner : {"center", "player", "opponent"}
    crawford : bool
        This is the Crawford game (the cube is dead).

    Notes
    -----
    The cube is available to the player on roll unless this is the Crawford game,
    the opponent owns it, or he needs no more than ``cube`` points (doubling gains
    nothing: the 1-away leader post-Crawford). The cube is dead (ND = cubeless MWC)
    in the Crawford game, when both players need no more than ``cube`` points, and
    at 2-away/2-away ([GNUBG]_).

    Examples
    --------
    >>> t = MatchEquityTable("t", "t", [[0.5, 0.68], [0.32, 0.5]], [0.5, 0.49])
    >>> d = match_cube_decision((0.7, 0.0, 0.0, 0.0, 0.0), 0.68, t, away=2, opp_away=2)
    >>> d.action
    'Double, pass'
    """
    probs = _as_probabilities(probabilities)
    x = real_in_range("x", x, 0.0, 1.0)
    cube = _check_cube(cube)
    owner = choice("owner", owner, CUBE_OWNERS)
    score = _check_score(table, away, opp_away, crawford)
    holders: dict[str, CubePosition] = {
        "center": "center",
        "player": "owned",
        "opponent": "opponent",
    }
    holder = holders[owner]
    m_win, m_lose = score.mwc(0, cube, True), score.mwc(0, cube, False)

    def emg(mwc: float) -> float:
        return (2.0 * mwc - (m_win + m_lose)) / (m_win - m_lose)

    nd_mwc, dead_mwc, _ = _match_cubeful(probs, x, score, cube, holder)
    available = not score.crawford and score.away[0] > cube and owner in ("center", "player")
    alive = score.cube_alive(cube)
    if not available:
        action = (
            "No double (the opponent owns the cube)"
            if owner == "opponent"
            else "Never double, take (dead cube)"
        )
        return _no_decision(
            x, cube, owner, match=True, alive=alive, cubeless=emg(dead_mwc),
            cubeless_mwc=dead_mwc, nd=emg(nd_mwc), nd_mwc=nd_mwc, action=action,
        )  # fmt: skip
    dt_mwc = _match_cubeful(probs, x, score, 2 * cube, "opponent")[0]
    dp_mwc = m_win
    nd, dt, dp = emg(nd_mwc), emg(dt_mwc), emg(dp_mwc)
    proper = proper_cube_action(
        nd, dt, dp, centred=owner == "center", can_gammon=probs.win_gammon > 0.0,
        money=False,
    )  # fmt: skip
    action, doubles, optimal = proper.action, proper.doubles, proper.optimal
    optimal_mwc = {"no_double": nd_mwc, "double_take": dt_mwc, "double_pass": dp_mwc}[proper.proper]
    errors = _errors(nd, dt, dp, False)
    return CubeDecision(
        x=x, cube=cube, owner=owner, match=True, cube_available=True, cube_alive=alive,
        cubeless_equity=emg(dead_mwc), cubeless_mwc=dead_mwc, no_double=nd,
        double_take=dt, double_pass=dp, optimal=optimal, no_double_mwc=nd_mwc,
        double_take_mwc=dt_mwc, double_pass_mwc=dp_mwc, optimal_mwc=optimal_mwc,
        action=action, doubles=doubles, taker_passes=dt > dp, taker_beavers=False,
        error_no_double=errors[0], error_double=errors[1], error_take=errors[2],
        error_pass=errors[3],
    )  # fmt: skip


# --------------------------------------------------------------------------- anatomy


@dataclass(frozen=True)
class DecisionAnatomy:
    """``DT - ND`` split into named terms, in the units of :class:`CubeDecision`.

    With ``S(c)`` the cubeless value of the game counting every win and loss as
    single at cube ``c``, ``G(c)`` the extra value of gammons and backgammons,
    ``D(c) = S(c) + G(c)`` the dead-cube (cubeless) value, ``V_hold`` the live-cube
    value of holding the cube as it is and ``V_opp(2c)`` the live-cube value with
    the doubled cube on the opponent's side (all in money equity per current cube,
    or in MWC for a match score, then mapped to EMG), the terms are

    - ``dead_cube_gain = S(2c) - S(c)``: doubling the stake of the single game
      (``2 P_w - 1`` for money);
    - ``gammon_term = G(2c) - G(c)``: the same for gammons and backgammons
      (``(P_wg - P_lg) + (P_wbg - P_lbg)`` for money);
    - ``recube_vig = x (V_opp(2c) - D(2c))``: the opponent's ownership of the
      doubled cube (his recube vig), weighted by the cube life;
    - ``market_losing_term = -x (V_hold - D(c))``: what holding the cube is worth
      beyond the dead cube (the market losers and the cash the doubler keeps by
      waiting), given up by doubling;
    - ``jacoby_adjustment``: money with the Jacoby rule and a centred cube, where
      undoubled gammons do not count: ND without the rule minus ND with it;
    - ``beaver_adjustment``: money with beavers when the taker beavers
      (``-2 <= DT <= 0``): the double is then worth ``2 DT`` and this term is ``DT``.

    ``total`` is their sum: ``DT - ND`` (with ``DT`` the beavered value ``2 DT``
    when the taker beavers). Sources: [RJ93]_, [JR12]_ for money, [JT]_ for match;
    the split is this module's bookkeeping of the same formulas.
    """

    dead_cube_gain: float
    gammon_term: float
    recube_vig: float
    market_losing_term: float
    jacoby_adjustment: float
    beaver_adjustment: float
    total: float


@dataclass(frozen=True)
class CubeSetting:
    """The cube and the game of a decision: money play, or a match score.

    The arguments of :func:`money_cube_decision` (``table`` None) or of
    :func:`match_cube_decision` but the probabilities, as one record: the second
    argument of :func:`decision_anatomy` and :func:`decision_margins`, which analyse
    that decision. Checked once, when it is made.

    Parameters
    ----------
    x : float
        Cube life index in [0, 1] (:func:`cube_life` gives gnubg's defaults).
    cube : int
        Cube value, a power of two (1 .. 4096); the equities are per cube.
    owner : {"center", "player", "opponent"}
        "center" needs ``cube == 1`` in money play.
    jacoby, beavers : bool
        Money-session rules (not used at a match score).
    table : MatchEquityTable or None
        None for money play; else the match's table, with ``away`` and ``opp_away``.
    away, opp_away : int or None
        Points the player on roll and his opponent need (1 .. ``table.length``).
    crawford : bool
        This is the Crawford game (match play; as in :func:`match_cube_decision`).

    Raises
    ------
    ValueError
        A value out of its range, a non-bool rule, a table without the score or a
        score outside it.

    Examples
    --------
    >>> t = MatchEquityTable("t", "t", [[0.5, 0.68], [0.32, 0.5]], [0.5, 0.49])
    >>> CubeSetting(0.68, table=t, away=2, opp_away=2).opp_away
    2
    """

    x: float
    cube: int = 1
    owner: CubeOwner = "center"
    jacoby: bool = False
    beavers: bool = False
    table: MatchEquityTable | None = None
    away: int | None = None
    opp_away: int | None = None
    crawford: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "x", real_in_range("x", self.x, 0.0, 1.0))
        object.__setattr__(self, "cube", _check_cube(self.cube))
        choice("owner", self.owner, CUBE_OWNERS)
        for name in ("jacoby", "beavers", "crawford"):
            flag(name, getattr(self, name))
        if self.table is not None:
            if self.away is None or self.opp_away is None:
                raise ValueError("away and opp_away are needed with a match equity table")
            score = _check_score(self.table, self.away, self.opp_away, self.crawford)
            object.__setattr__(self, "away", score.away[0])
            object.__setattr__(self, "opp_away", score.away[1])

    def _score(self) -> _Score | None:
        """The match score (None in money play)."""
        if self.table is None or self.away is None or self.opp_away is None:
            return None
        return _Score(self.table, (self.away, self.opp_away), self.crawford)

    def _decide(self, probs: CubelessProbabilities) -> CubeDecision:
        """:func:`money_cube_decision` when ``table`` is None, else :func:`match_cube_decision`."""
        if self.table is None or self.away is None or self.opp_away is None:
            return money_cube_decision(
                probs, self.x, cube=self.cube, owner=self.owner, jacoby=self.jacoby,
                beavers=self.beavers,
            )  # fmt: skip
        return match_cube_decision(
            probs, self.x, self.table, away=self.away, opp_away=self.opp_away, cube=self.cube,
            owner=self.owner, crawford=self.crawford,
        )  # fmt: skip


def _check_setting(setting: CubeSetting) -> CubeSetting:
    if not isinstance(setting, CubeSetting):
        raise TypeError(f"`setting` must be a cubecore.cubeful.CubeSetting (got {type(setting)})")
    return setting


def decision_anatomy(
    probabilities: CubelessProbabilities | tuple[float, ...], setting: CubeSetting
) -> DecisionAnatomy:
    """Split ``DT - ND`` into the terms of :class:`DecisionAnatomy`.

    Money play when ``setting.table`` is None, otherwise the match score
    ``away``/``opp_away`` (the decision of :func:`money_cube_decision` or
    :func:`match_cube_decision`, :class:`CubeSetting`). The cube must be available
    to the player on roll.

    Examples
    --------
    >>> a = decision_anatomy((0.7, 0.2, 0.01, 0.05, 0.0), CubeSetting(0.68))
    >>> round(a.dead_cube_gain, 6), round(a.gammon_term, 6)
    (0.4, 0.16)
    >>> d = money_cube_decision((0.7, 0.2, 0.01, 0.05, 0.0), 0.68)
    >>> abs(a.total - (d.double_take - d.no_double)) < 1e-12
    True
    """
    probs = _as_probabilities(probabilities)
    setting = _check_setting(setting)
    decision = setting._decide(probs)
    score = setting._score()
    if score is None:
        return _money_anatomy(probs, decision, setting.jacoby, setting.beavers)
    return _match_anatomy(probs, decision, score)


def _not_available(decision: CubeDecision) -> None:
    if not decision.cube_available or decision.double_take is None:
        raise ValueError(
            "the cube is not available to the player on roll: there is no DT - ND to split"
        )


def _money_anatomy(
    probs: CubelessProbabilities, decision: CubeDecision, jacoby: bool, beavers: bool
) -> DecisionAnatomy:
    _not_available(decision)
    assert decision.double_take is not None
    x = decision.x
    holder: CubePosition = "center" if decision.owner == "center" else "owned"
    single = 2.0 * probs.win - 1.0
    gammons = probs.money_equity - single
    dead = probs.money_equity
    degenerate = probs.win <= _DEGENERATE or probs.win >= 1.0 - _DEGENERATE
    if degenerate:
        hold, opp = dead, dead
    else:
        W, L = probs.win_value, probs.loss_value
        hold = float(cubeful_equity(probs.win, 1.0, holder, W, L))
        opp = float(cubeful_equity(probs.win, 1.0, "opponent", W, L))
    nd_plain = _money_cubeful(probs, x, holder, False)
    jacoby_adjustment = nd_plain - decision.no_double
    dt = decision.double_take
    beaver_adjustment = dt if beavers and -2.0 <= dt <= 0.0 else 0.0
    dead_cube_gain = single  # S(2c) - S(c) = 2 S - S
    gammon_term = gammons
    recube_vig = x * (2.0 * opp - 2.0 * dead)
    market_losing_term = -x * (hold - dead)
    if degenerate:
        recube_vig = market_losing_term = 0.0
        # the dead branch: DT - ND = 2 D - D_c; the Jacoby adjustment carries D - D_c
    terms = (
        dead_cube_gain,
        gammon_term,
        recube_vig,
        market_losing_term,
        jacoby_adjustment,
        beaver_adjustment,
    )
    return DecisionAnatomy(*terms, total=math.fsum(terms))


def _match_anatomy(
    probs: CubelessProbabilities, decision: CubeDecision, score: _Score
) -> DecisionAnatomy:
    _not_available(decision)
    x, cube = decision.x, decision.cube
    holder: CubePosition = "center" if decision.owner == "center" else "owned"
    p = probs.win
    m_win, m_lose = score.mwc(0, cube, True), score.mwc(0, cube, False)
    scale = 2.0 / (m_win - m_lose)  # EMG per MWC

    def single(c: int) -> float:
        return p * score.mwc(0, c, True) + (1.0 - p) * score.mwc(0, c, False)

    _, dead1, live1 = _match_cubeful(probs, x, score, cube, holder)
    _, dead2, live2 = _match_cubeful(probs, x, score, 2 * cube, "opponent")
    terms = (
        scale * (single(2 * cube) - single(cube)),
        scale * ((dead2 - single(2 * cube)) - (dead1 - single(cube))),
        scale * x * (live2 - dead2),
        -scale * x * (live1 - dead1),
        0.0,
        0.0,
    )
    return DecisionAnatomy(*terms, total=math.fsum(terms))


# --------------------------------------------------------------------------- margins

#: Steps of the scan and of the bisection in :func:`decision_margins` (its cost bound).
_SCAN_STEPS = 64
_BISECTIONS = 48


@dataclass(frozen=True)
class DecisionMargins:
    """How far each input may move before the best action changes.

    Each pair gives the largest decrease and increase (as positive numbers) of the
    input, the others held (the winning chance moves with the conditional gammon and
    backgammon rates held, i.e. W and L fixed; a gammon rate moves with the winning
    chance and the backgammon share held). ``None``: no change within the input's
    possible range. The best action is the pair (doubles, the taker passes); an
    optional double (ND within 1e-5 of min(DT, DP), gnubg's tolerance) is one action,
    whichever way rounding turns the cube.

    Attributes
    ----------
    win_down, win_up : float or None
        Margins of ``P_w``.
    win_gammon_down, win_gammon_up : float or None
        Margins of the gammon-only rate of the wins (``(P_wg - P_wbg) / P_w``).
    lose_gammon_down, lose_gammon_up : float or None
        Margins of the gammon-only rate of the losses.
    """

    win_down: float | None
    win_up: float | None
    win_gammon_down: float | None
    win_gammon_up: float | None
    lose_gammon_down: float | None
    lose_gammon_up: float | None


#: The best action as :func:`decision_margins` compares it: (doubles, the taker passes).
_ActionKey = tuple[bool | None, bool]


def _key(decision: CubeDecision) -> _ActionKey:
    """The best action as (doubles, the taker passes), ``doubles`` None when optional.

    A double is optional when ND is within ``_OPTIONAL`` of the doubler's equity
    after the reply, min(DT, DP) (gnubg's ``isOptional`` tolerance). It counts as one
    action whichever way rounding turns the cube: where ND and DT are equal in exact
    arithmetic (a trailer at 4-away and at 3-away against 1-away post-Crawford, with
    no gammons, has the same match equity) ``doubles`` flips on rounding alone.
    """
    assert decision.double_take is not None and decision.double_pass is not None
    after = min(decision.double_take, decision.double_pass)
    if abs(after - decision.no_double) <= _OPTIONAL:
        return None, decision.taker_passes
    return decision.doubles, decision.taker_passes


def _first_change(
    key_at: Callable[[float], _ActionKey],
    start: float,
    end: float,
    reference: _ActionKey,
) -> float | None:
    """Distance from ``start`` toward ``end`` to the first change of ``key_at``.

    A scan of ``_SCAN_STEPS`` steps brackets the first change, then
    ``_BISECTIONS`` bisections narrow it: at most 112 decisions.
    """
    if end == start:
        return None
    previous = start
    for i in range(1, _SCAN_STEPS + 1):
        t = start + (end - start) * i / _SCAN_STEPS
        if key_at(t) != reference:
            low, high = previous, t
            for _ in range(_BISECTIONS):
                middle = 0.5 * (low + high)
                if key_at(middle) == reference:
                    low = middle
                else:
                    high = middle
            return abs(high - start)
        previous = t
    return None


def decision_margins(
    probabilities: CubelessProbabilities | tuple[float, ...], setting: CubeSetting
) -> DecisionMargins:
    """Margins of the best action in the winning chance and in each gammon rate.

    The best action is (doubles, the taker passes), from :func:`money_cube_decision`
    (``setting.table`` None) or :func:`match_cube_decision` (:class:`CubeSetting`).
    The winning-chance margins are exact: with the rates held, ND, DT and DP are
    piecewise linear in ``P_w`` with known corners (the live take and cash points),
    so the roots of the gaps that decide the action are solved on each linear piece.
    A gammon rate moves W or L and with them the corners: along it a scan of 64
    steps brackets the first change and 48 bisections narrow it (within ``1e-14`` of
    the boundary). Cost: at most 4 x 112 decisions for the rates and about 20 for the
    winning chance. The winning chance moves within [1e-6, 1 - 1e-6] (W and L
    undefined beyond), a rate within its feasible range.

    Examples
    --------
    >>> m = decision_margins((0.7, 0.2, 0.01, 0.05, 0.0), CubeSetting(0.68))
    >>> round(m.win_down, 4), round(m.win_up, 4)
    (0.0648, 0.015)
    """
    probs = _as_probabilities(probabilities)
    setting = _check_setting(setting)
    decide = setting._decide
    reference_decision = decide(probs)
    _not_available(reference_decision)
    reference = _key(reference_decision)
    gw, bw, gl, bl = probs.rates()
    p = probs.win

    def at_win_gammon(t: float) -> _ActionKey:
        return _key(decide(probs.with_rates(p, (t, bw, gl, bl))))

    def at_lose_gammon(t: float) -> _ActionKey:
        return _key(decide(probs.with_rates(p, (gw, bw, t, bl))))

    score = setting._score()
    win = _win_margins(decide, probs, _win_kinks(probs, setting.table, score, setting.cube))
    wgam = (
        _first_change(at_win_gammon, gw, 0.0, reference) if p > 0 else None,
        _first_change(at_win_gammon, gw, 1.0 - bw, reference) if p > 0 else None,
    )
    lgam = (
        _first_change(at_lose_gammon, gl, 0.0, reference) if p < 1 else None,
        _first_change(at_lose_gammon, gl, 1.0 - bl, reference) if p < 1 else None,
    )
    return DecisionMargins(*win, *wgam, *lgam)


# --------------------------------------------------------------------------- market window

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


# --------------------------------------------------------------------------- score matrix


def _win_kinks(
    probs: CubelessProbabilities, table: MatchEquityTable | None, score: _Score | None, cube: int
) -> list[float]:
    """Winning chances where ND or DT may bend when ``P_w`` moves with the rates held.

    Money: Janowski's live take and cash points (W and L are fixed). Match: the
    opponent's and the player's live cash points at the cube and at the doubled cube
    (they depend on the rates only, [JT]_); the dead parts are linear in ``P_w``.
    """
    if table is None or score is None:
        W, L = probs.win_value, probs.loss_value
        return [(L - 0.5) / (W + L + 0.5), (L + 1.0) / (W + L + 0.5)]
    kinks = []
    for level in (cube, 2 * cube):
        if score.cube_alive(level):
            mine, theirs = _live_cash_points(score, level, probs.rates())
            kinks += [1.0 - theirs, mine]
    return kinks


def _win_margins(
    decide: Callable[[CubelessProbabilities], CubeDecision],
    probs: CubelessProbabilities,
    kinks: list[float],
) -> tuple[float | None, float | None]:
    """Exact winning-chance margins on the piecewise-linear equities.

    Between consecutive kinks ND, DT and DP are linear in ``P_w`` (rates held), so
    every gap that decides the action (DT - ND and DP - ND, each also shifted by
    the optional tolerance both ways, DT - DP, and for beavers 2 DT - ND, DT and
    DT + 2) is linear there: its roots are found exactly from the
    decisions at the two ends. The action is constant between consecutive roots and
    kinks, so the first of them past which it differs is the margin. At most
    ``2 (len(kinks) + 1)`` decisions plus one per candidate.
    """
    reference = _key(decide(probs))
    rates = probs.rates()
    low, high = 1e-6, 1.0 - 1e-6
    p = probs.win
    knots = sorted({low, high, *(k for k in kinks if low < k < high)})

    def values(t: float) -> tuple[float, ...]:
        d = decide(probs.with_rates(t, rates))
        assert d.double_take is not None and d.double_pass is not None
        nd, dt, dp = d.no_double, d.double_take, d.double_pass
        return (
            *(gap + shift for gap in (dt - nd, dp - nd) for shift in (-_OPTIONAL, 0.0, _OPTIONAL)),
            dt - dp,
            2.0 * dt - nd,
            dt,
            dt + 2.0,
        )

    ends = [values(t) for t in knots]
    candidates = set(knots)
    for i in range(len(knots) - 1):
        t0, t1 = knots[i], knots[i + 1]
        for g0, g1 in zip(ends[i], ends[i + 1], strict=True):
            if (g0 < 0.0 < g1) or (g1 < 0.0 < g0) or g0 == 0.0 or g1 == 0.0:
                root = t0 if g0 == g1 else t0 + (t1 - t0) * g0 / (g0 - g1)
                candidates.add(min(max(root, t0), t1))

    def first(direction: int) -> float | None:
        ordered = sorted(
            (c for c in candidates if (c - p) * direction >= 0.0),
            key=lambda c: abs(c - p),
        )
        for c in ordered:
            beyond = c + direction * 1e-9
            if not low <= beyond <= high:
                continue
            if _key(decide(probs.with_rates(beyond, rates))) != reference:
                return abs(c - p)
        return None

    return first(-1) if p > low else None, first(1) if p < high else None


def score_matrix(
    probabilities: CubelessProbabilities | tuple[float, ...],
    setting: CubeSetting,
    table: MatchEquityTable,
    n: int = 11,
    *,
    margins: bool = True,
) -> pd.DataFrame:
    """The cube decision for the same probabilities at every score of an n x n grid.

    One row per cell (centred cube on 1): ``state`` is "money" (one row: the
    decision of ``setting``, with its ``jacoby``/``beavers`` rules), "pre-crawford"
    (both players 2..n away), "crawford" and "post-crawford" (one player 1-away; at
    1-away/1-away only "post-crawford"), each with the cube life ``setting.x``;
    ``away``/``opp_away`` (0 for money); ``no_double``, ``double_take``,
    ``double_pass`` and ``optimal`` in EMG (money equity for the money row) and
    ``*_mwc`` in MWC; ``action`` (gnubg's wording), ``doubles``, ``taker_passes``;
    with ``margins`` the winning-chance margins ``win_down`` and ``win_up`` of
    :func:`decision_margins` (NaN where the cube is not available or no change
    occurs).

    Parameters
    ----------
    probabilities : CubelessProbabilities or tuple of 5 floats
        The position's cubeless probabilities, the same in every cell.
    setting : CubeSetting
        Money play (``table`` None) with the cube centred on 1: the money row, and
        the cube life of every cell.
    table : MatchEquityTable
        The table of the match cells.
    n : int
        Side of the grid, 1..``min(15, table.length)``.
    margins : bool
        Add the columns ``win_down`` and ``win_up``.

    Raises
    ------
    ValueError
        A ``setting`` of match play or with a turned cube, ``n`` out of range.

    Notes
    -----
    Cost: ``n <= 15`` (:data:`MAX_SCORE_GRID`); about ``n**2 + 2n`` decisions, times
    at most 224 with margins.

    Examples
    --------
    >>> t = MatchEquityTable("t", "t", [[0.5, 0.68], [0.32, 0.5]], [0.5, 0.49])
    >>> probs = (0.7, 0.2, 0.01, 0.05, 0.0)
    >>> grid = score_matrix(probs, CubeSetting(0.68), t, 2, margins=False)
    >>> grid["state"].value_counts().to_dict()
    {'post-crawford': 3, 'crawford': 2, 'money': 1, 'pre-crawford': 1}
    """
    probs = _as_probabilities(probabilities)
    setting = _check_setting(setting)
    if setting.table is not None:
        raise ValueError("`setting` must be money play (table None): the match cells use `table`")
    if setting.cube != 1 or setting.owner != "center":
        raise ValueError(
            "`setting` must have the cube centred on 1"
            f" (got cube={setting.cube}, owner={setting.owner!r})"
        )
    x, jacoby, beavers = setting.x, setting.jacoby, setting.beavers
    if not isinstance(table, MatchEquityTable):
        raise ValueError(f"`table` must be a MatchEquityTable (got {type(table).__name__})")
    n = whole_number("n", n, 1, min(MAX_SCORE_GRID, table.length))
    margins = flag("margins", margins)
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
    rows = []
    for state, a, b, crawford in cells:
        decide: Callable[[CubelessProbabilities], CubeDecision]
        if state == "money":
            decide = partial(money_cube_decision, x=x, jacoby=jacoby, beavers=beavers)
        else:
            decide = partial(
                match_cube_decision, x=x, table=table, away=a, opp_away=b, crawford=crawford
            )

        d = decide(probs)
        row: dict[str, object] = {
            "state": state,
            "away": a,
            "opp_away": b,
            "no_double": d.no_double,
            "double_take": math.nan if d.double_take is None else d.double_take,
            "double_pass": math.nan if d.double_pass is None else d.double_pass,
            "optimal": d.optimal,
            "no_double_mwc": math.nan if d.no_double_mwc is None else d.no_double_mwc,
            "double_take_mwc": math.nan if d.double_take_mwc is None else d.double_take_mwc,
            "double_pass_mwc": math.nan if d.double_pass_mwc is None else d.double_pass_mwc,
            "action": d.action,
            "doubles": d.doubles,
            "taker_passes": d.taker_passes,
        }
        if margins:
            if d.cube_available:
                score = None if state == "money" else _check_score(table, a, b, crawford)
                kinks = _win_kinks(probs, None if score is None else table, score, 1)
                down, up = _win_margins(decide, probs, kinks)
            else:
                down, up = None, None
            row["win_down"] = math.nan if down is None else down
            row["win_up"] = math.nan if up is None else up
        rows.append(row)
    return pd.DataFrame(rows)
