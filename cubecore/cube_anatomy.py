"""The anatomy of a cube decision: ``DT - ND`` split into named terms.

:class:`CubeSetting` names the cube and the game of a decision (money play with its
rules, or a match score on a table); :func:`decision_anatomy` splits the gain of
doubling, ``DT - ND`` of :mod:`cubecore.cube_decision`, into the dead cube's gain, the
gammons, the opponent's recube vig, the market losers given up and the Jacoby and
beaver adjustments, whose sum is ``DT - ND`` exactly (:class:`DecisionAnatomy`). The
margins (:mod:`cubecore.cube_margins`) and the score matrix
(:mod:`cubecore.score_matrix`) take the same :class:`CubeSetting`.

References
----------
.. [RJ93] R. Janowski, "Take-Points in Money Games", 1993;
   http://www.bkgm.com/articles/Janowski/cubeformulae.pdf
.. [JR12] "Janowski model revisited", 28 March 2012 (the model as
   :mod:`cubecore.janowski` implements it).
.. [JT] J. Thyssen, the generalisation of Janowski's formulae to match play in
   GNU Backgammon (``Cl2CfMatch*`` in ``eval.c``, ``GetPoints`` in ``matchequity.c``,
   whose comments refer to his notes; no separate publication was found). The
   formulas here are reimplemented from the definitions stated in
   :mod:`cubecore.cube_decision`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from cubecore._validate import choice, flag, real_in_range, whole_number
from cubecore.cube_decision import (
    _DEGENERATE,
    CUBE_OWNERS,
    CubeDecision,
    CubelessProbabilities,
    _as_probabilities,
    _check_cube,
    _check_score,
    _match_cubeful,
    _money_cubeful,
    _Score,
    match_cube_decision,
    money_cube_decision,
)
from cubecore.janowski import CubePosition, cubeful_equity
from cubecore.match_points import CubeOwner
from cubecore.met import MatchEquityTable

__all__ = [
    "CubeSetting",
    "DecisionAnatomy",
    "decision_anatomy",
]


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
        for name in ("away", "opp_away"):  # checked in money play too, where they are unused
            if getattr(self, name) is not None:
                object.__setattr__(self, name, whole_number(name, getattr(self, name), 1))
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
