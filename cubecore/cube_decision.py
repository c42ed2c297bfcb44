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

The anatomy of a decision (:mod:`cubecore.cube_anatomy`), its margins
(:mod:`cubecore.cube_margins`), the market window (:mod:`cubecore.market_window`) and
the decision at every score (:mod:`cubecore.score_matrix`) build on these decisions;
:mod:`cubecore.cubeful` gathers all five.

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

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from cubecore._validate import choice, flag, real_in_range, whole_number
from cubecore.janowski import CubePosition, cubeful_equity
from cubecore.match_points import CubeOwner
from cubecore.met import MatchEquityTable

__all__ = [
    "ALTERNATIVES",
    "BEAROFF_CUBE_LIFE",
    "CONTACT_CUBE_LIFE",
    "CRASHED_CUBE_LIFE",
    "CUBE_OWNERS",
    "MAX_CUBE",
    "MAX_EQUITY",
    "MAX_PIPS",
    "POSITION_CLASSES",
    "RACE_CUBE_LIFE",
    "CubeDecision",
    "CubelessProbabilities",
    "ProperCubeAction",
    "cube_life",
    "match_cube_decision",
    "money_cube_decision",
    "proper_cube_action",
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

    @classmethod
    def nearest(
        cls,
        win: float,
        win_gammon: float,
        win_backgammon: float,
        lose_gammon: float,
        lose_backgammon: float,
    ) -> CubelessProbabilities:
        """The probabilities one game can have nearest an estimate of them.

        A rollout's estimates use variance reduction, which can stray a hair outside
        what one game allows (a backgammon rate of nearly 0 estimated at -4e-6). Each is
        clipped into its range, in order: ``win`` into [0, 1], ``win_gammon`` into
        [0, win], ``win_backgammon`` into [0, win_gammon], ``lose_gammon`` into
        [0, 1 - win], ``lose_backgammon`` into [0, lose_gammon]. Numbers that are not
        finite are refused as by the constructor.

        Examples
        --------
        >>> CubelessProbabilities.nearest(0.87, 0.3, 0.01, 0.02, -4e-6).lose_backgammon
        0.0
        """
        w, wg, wbg, lg, lbg = (
            real_in_range(name, value)
            for name, value in (
                ("win", win),
                ("win_gammon", win_gammon),
                ("win_backgammon", win_backgammon),
                ("lose_gammon", lose_gammon),
                ("lose_backgammon", lose_backgammon),
            )
        )
        w = min(max(w, 0.0), 1.0)
        wg = min(max(wg, 0.0), w)
        lg = min(max(lg, 0.0), 1.0 - w)
        return cls(w, wg, min(max(wbg, 0.0), wg), lg, min(max(lbg, 0.0), lg))

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
