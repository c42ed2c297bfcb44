"""The race formulas players use at the board, computed from a checker position.

Each method adjusts the pip counts of the two sides for wastage (stacked low points,
gaps, extra checkers, crossovers) and compares them with a threshold to give a cube
action for the player on roll (the "leader" in gnubg's words; he need not be ahead).
Every method is reimplemented from its published definition:

* **Keith count** ([Kei]_): pips + 2 per checker beyond 1 on the 1-point + 1 per
  checker beyond 1 on the 2-point + 1 per checker beyond 3 on the 3-point + 1 per empty
  4-, 5-, 6-point; the roller's count is raised by one seventh. With ``d`` = roller's
  raised count - opponent's count: pass if ``d < 2``, redouble if ``d <= 3``, double if
  ``d <= 4``.
* **Thorp count** ([Tho]_): pips + 2 per checker on the board + 1 per checker on the
  1-point - 1 per occupied home point; the roller's count is raised by 10 % when it
  exceeds 30. With ``L`` the raised roller's count and ``T`` the opponent's: double if
  ``L <= T + 2``, redouble if ``L <= T + 1``, pass if ``L <= T - 2``.
* **8-9-12** ([Tri04]_): the roller's lead in percent of his pip count; double from 8 %,
  redouble from 9 %, the opponent passes beyond 12 %.
* **Kleinman** ([Kle]_, [Joh01]_): with pip counts, ``D = T - L``, ``S = T + L``,
  ``K = (D + 4) / (2 sqrt(S - 4))`` and cubeless P(win) = ``(1 + erf K) / 2``; double
  when ``4 K^2 >= 0.5``, redouble from 0.7, pass above 1.2.
* **Isight** ([Isi]_): pips + 1 per checker more on the board than the opponent + 2 per
  checker beyond 2 on the 1-point + 1 per checker beyond 2 on the 2-point + 1 per
  checker beyond 3 on the 3-point + 1 per empty 4-, 5-, 6-point where the opponent has
  a checker on his same point + 1 per crossover more than the opponent; then
  ``P = 80 - L/3 + 2 (T - L)``: no double below 68, double 68-70, redouble 70-76, pass
  above 76.
* **Trice** ([Tri04]_): the opponent's point of last take is a lead of
  ``L/10 + 2`` pips for ``L >= 62`` and ``(L - 5)/7`` below (on pip counts, ``L`` the
  roller's); the roller doubles within 3 pips of it and redoubles within 2.

Each method has three tests, as gnubg prints them: the opponent passes; the roller
redoubles (doubles at any cube); the roller doubles from the centre only. A method's
``action`` is the strongest test that holds, in the words of :data:`RACE_ACTIONS`:
``"no double"``; ``"double, take"`` (an initial double, not a redouble); ``"redouble,
take"`` (double at any cube, take); ``"double, pass"``. What it says at a cube
(:func:`verdict_at`, :data:`CUBE_VERDICTS`) is read from that: with the cube centred
"redouble, take" is a double ("double, take"), with the cube owned "double, take" is no
redouble, and with the opponent owning the cube the roller cannot double.

Every threshold is compared in exact arithmetic (integers or :class:`fractions.Fraction`):
a count of 110 raised by 10 % is 121, not ``110 * 1.1 = 121.00000000000001``, so Thorp's
``L <= T + 1`` holds at equality as the rule says.

GNU Backgammon 1.07 prints the first five for a position (``show keith|thorp|8912|
kleinman|isight``); the tests reproduce its numbers on gnubg-generated fixtures. Two
of its choices differ from the publications and are options here: it raises the
Keith count by exactly 8/7 where [Kei]_ rounds down (``keith_count(...,
round_down=False)`` gives gnubg's), and its 8-9-12 verdicts use strict ``>`` at 8, 9
and 12 % and print "Redouble, Take" for a lead in (8, 9] and "Double, Take" for
(9, 12], the two labels swapped against the rule (documented in the tests).

References
----------
.. [Kei] T. Keith, "Keith Count" (bgonline.org), http://bgonline.org/keith.html
.. [Tho] E. O. Thorp, "Backgammon: The Optimal Strategy for the Pure Running Game",
   Second Annual Conference on Gambling, South Lake Tahoe, Nevada, June 1975,
   https://docslib.org/doc/7081238/backgammon-the-optimal-strategy-for-the-pure-running-game ;
   the count as written up in B. Robertie, *Advanced Backgammon* (1991). Robertie's
   write-up raises a count of "30 or greater"; gnubg, and this module, one above 30.
.. [Tri04] W. Trice, *Backgammon Boot Camp*, Fortuitous Press, 2004 (the 8-9-12 rule;
   the point of last take "10 % + 2" and "(L - 5)/7").
.. [Kle] D. Kleinman's race formula, as given in the GNU Backgammon manual ("show
   kleinman") and in [Joh01]_.
.. [Joh01] Ø. Johansen, "Re: Kleinman Count", rec.games.backgammon, 22 February 2001
   (archived at https://bkgm.com/rgb/): ``K = (D + 4)^2 / (S - 4)``; key values 0.5
   (double), 0.7 (redouble), 1.0 (take), 1.2 (borderline take/pass).
.. [Isi] "Isight" (pseudonym), *The Isight method*, race formula, summarised by
   M. Petch ("Taper_Mike"), bgonline.org, 10 Dec 2014,
   https://www.bgonline.org/forums/webbbs_config.pl?noframes;read=170193
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import pandas as pd

from cubecore._docs import fill_doc
from cubecore._validate import choice, flag
from cubecore.janowski import CubePosition
from cubecore.position import Position

__all__ = [
    "CUBE_VERDICTS",
    "RACE_ACTIONS",
    "RaceCount",
    "isight_count",
    "keith_count",
    "kleinman_count",
    "race_counts",
    "rule_8_9_12",
    "thorp_count",
    "trice_rule",
    "verdict_at",
]

RACE_ACTIONS = ("no double", "double, take", "redouble, take", "double, pass")
"""Cube actions: none; initial double only; double or redouble; double, opponent passes."""

CUBE_VERDICTS = {
    "center": ("no double", "double, take", "double, pass"),
    "owned": ("no redouble", "redouble, take", "redouble, pass"),
    "opponent": ("no double (the opponent owns the cube)",),
}
"""The words of a verdict at each cube position (seen from the player on roll)."""


@dataclass(frozen=True)
class RaceCount:
    """One race method applied to a position (player on roll = "leader").

    Attributes
    ----------
    method : str
        The method's name, as :func:`race_counts` lists it (``"Keith"``, ``"8-9-12"``).
    on_roll : float
        The roller's count (pips, or the method's adjusted pips).
    on_roll_adjusted : float
        The roller's count after the method's raise (Keith's 1/7, Thorp's 10 %), else
        ``on_roll``.
    opponent : float
        The opponent's count.
    measure : float
        What the thresholds are applied to (``measure_name``).
    measure_name : str
    action : str
        One of :data:`RACE_ACTIONS`.
    win : float or None
        The method's cubeless winning chance when it gives one (Kleinman, Isight).
    """

    method: str
    on_roll: float
    on_roll_adjusted: float
    opponent: float
    measure: float
    measure_name: str
    action: str
    win: float | None = None

    def verdict(self, cube: CubePosition) -> str:
        """What the method says at a cube position (:func:`verdict_at`)."""
        return verdict_at(self.action, cube)


def verdict_at(action: str, cube: CubePosition) -> str:
    """A method's action read at a cube position, in the words of :data:`CUBE_VERDICTS`.

    Parameters
    ----------
    action : str
        One of :data:`RACE_ACTIONS` (the strongest of the method's tests that holds).
    cube : {"center", "owned", "opponent"}
        The cube, seen from the player on roll.

    Returns
    -------
    str
        Centred: a double where the method doubles or redoubles ("double, take"), and
        "double, pass" where the opponent passes. Owned: a redouble only where the method
        redoubles; "no redouble" where it would only double from the centre. The opponent
        owning the cube: the roller cannot double.

    Examples
    --------
    >>> verdict_at("redouble, take", "center"), verdict_at("double, take", "owned")
    ('double, take', 'no redouble')
    """
    action = choice("action", action, RACE_ACTIONS)
    cube = choice("cube", cube, tuple(CUBE_VERDICTS))
    words = CUBE_VERDICTS[cube]
    if cube == "opponent":
        return words[0]
    strength = RACE_ACTIONS.index(action)  # 0 none, 1 double, 2 redouble, 3 pass
    if strength == 3:
        return words[2]
    if strength == 2 or (strength == 1 and cube == "center"):
        return words[1]
    return words[0]


_race_doc = fill_doc(
    race_parameters="""
    Parameters
    ----------
    position : Position
        A race.
    """,
    race_count_returns="""
    Returns
    -------
    RaceCount
    """,
)


def _race(position: Position) -> Position:
    if not isinstance(position, Position):
        raise TypeError(f"`position` must be a Position, got {type(position).__name__}")
    position.require_race()
    if not any(position.on_roll) or not any(position.opponent):
        raise ValueError("not a race: a side has borne off all its checkers (game over)")
    return position


def _sides(position: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return position.on_roll, position.opponent


def _keith(points: tuple[int, ...]) -> int:
    pips = sum(n * p for p, n in enumerate(points, start=1))
    count = pips + 2 * max(points[0] - 1, 0) + max(points[1] - 1, 0) + max(points[2] - 3, 0)
    return count + sum(1 for p in (3, 4, 5) if points[p] == 0)


def _action(passes: bool, redoubles: bool, doubles: bool) -> str:
    """The first of :data:`RACE_ACTIONS`, strongest first, whose threshold test holds.

    Each method states its own three tests (its comparisons and their direction differ);
    this only reads them in order: pass, then redouble, then double, else no double.
    """
    if passes:
        return "double, pass"
    if redoubles:
        return "redouble, take"
    if doubles:
        return "double, take"
    return "no double"


def keith_count(position: Position, *, round_down: bool = True) -> RaceCount:
    """Keith count of a race and its cube action ([Kei]_).

    Parameters
    ----------
    position : Position
        A race (no contact, no checker on the bar).
    round_down : bool, keyword-only
        Raise the roller's count by ``floor(count / 7)`` as published (default), or by
        exactly ``count / 7`` as GNU Backgammon 1.07's ``show keith`` does.

    Returns
    -------
    RaceCount
        ``measure`` = raised roller's count - opponent's count ``d``: pass if ``d < 2``,
        redouble if ``d <= 3``, double if ``d <= 4``.

    Examples
    --------
    Three checkers on the ace against one on the 6-point: counts 3 + 4 + 3 = 10 and
    6 + 2 = 8; raised 10 + 1 = 11, ``d = 3``: redouble, take.

    >>> p = Position.from_home((3, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 1))
    >>> r = keith_count(p)
    >>> r.on_roll, r.on_roll_adjusted, r.opponent, r.action
    (10, 11, 8, 'redouble, take')
    """
    _race(position)
    round_down = flag("round_down", round_down)
    mine, theirs = (_keith(side) for side in _sides(position))
    raised = Fraction(mine + mine // 7) if round_down else Fraction(8 * mine, 7)
    lead_over = raised - theirs  # exact: compared with the thresholds without rounding
    action = _action(lead_over < 2, lead_over <= 3, lead_over <= 4)
    shown = int(raised) if round_down else float(raised)
    return RaceCount("Keith", mine, shown, theirs, float(lead_over), "L' - T", action)


def _thorp(points: tuple[int, ...]) -> int:
    pips = sum(n * p for p, n in enumerate(points, start=1))
    return pips + 2 * sum(points) + points[0] - sum(1 for n in points[:6] if n)


@_race_doc
def thorp_count(position: Position) -> RaceCount:
    """Thorp count of a race and its cube action ([Tho]_).

    {race_parameters}

    {race_count_returns}
        ``measure`` = ``L - T`` (roller's raised count minus the opponent's): double if
        ``<= 2``, redouble if ``<= 1``, pass if ``<= -2``.

    Examples
    --------
    >>> p = Position.from_home((3, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 1))
    >>> r = thorp_count(p)  # 3 + 6 + 3 - 1 = 11 against 6 + 2 - 1 = 7
    >>> r.on_roll, r.opponent, r.action
    (11, 7, 'no double')
    """
    _race(position)
    mine, theirs = (_thorp(side) for side in _sides(position))
    raised = Fraction(11 * mine, 10) if mine > 30 else Fraction(mine)  # 110 -> 121 exactly
    lead_over = raised - theirs
    action = _action(lead_over <= -2, lead_over <= 1, lead_over <= 2)
    return RaceCount("Thorp", mine, float(raised), theirs, float(lead_over), "L - T", action)


@_race_doc
def rule_8_9_12(position: Position) -> RaceCount:
    """The 8-9-12 rule on pip counts ([Tri04]_).

    {race_parameters}

    {race_count_returns}
        ``measure`` = the roller's lead ``100 (T - L) / L`` percent: double from 8,
        redouble from 9, pass above 12.

    Examples
    --------
    >>> p = Position.from_home((0, 0, 0, 0, 0, 10), (0, 0, 0, 0, 0, 11))
    >>> r = rule_8_9_12(p)  # 60 against 66 pips: 10 % ahead
    >>> round(r.measure, 6), r.action
    (10.0, 'redouble, take')
    """
    _race(position)
    mine, theirs = position.pips
    ahead = 100.0 * (theirs - mine) / mine
    lead_100 = 100 * (theirs - mine)  # compared as integers: no rounding at 8, 9, 12
    action = _action(lead_100 > 12 * mine, lead_100 >= 9 * mine, lead_100 >= 8 * mine)
    return RaceCount("8-9-12", mine, mine, theirs, ahead, "lead %", action)


@_race_doc
def kleinman_count(position: Position) -> RaceCount:
    """Kleinman's cubeless winning chance and cube action from pip counts ([Kle]_).

    {race_parameters}

    {race_count_returns}
        ``measure`` = ``K = (D + 4) / (2 sqrt(S - 4))`` (as gnubg prints it) and
        ``win = (1 + erf K) / 2``, with ``D = T - L``, ``S = T + L`` in pips. The action
        uses the equivalent ratio ``K2 = (D + 4)^2 / (S - 4) = 4 K^2`` (for ``D + 4 > 0``)
        and its published key values ([Joh01]_): double from 0.5, redouble from 0.7,
        take up to 1.2 (the borderline), pass above.

    Notes
    -----
    ``S <= 4`` (both sides a few pips from home) makes ``S - 4`` no variance; the
    formula's limit ``K -> +inf`` (``D + 4 > 0`` always holds there) gives ``win = 1``
    and a pass. gnubg 1.07 prints a win of 0 there (its degenerate branch); no fixture
    has it.

    Examples
    --------
    >>> p = Position.from_home((3, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 1))
    >>> r = kleinman_count(p)  # D = 3, S = 9
    >>> round(r.measure, 4), round(r.win, 4), r.action
    (1.5652, 0.9866, 'double, pass')
    """
    _race(position)
    mine, theirs = position.pips
    diff, total = theirs - mine, theirs + mine
    if total <= 4:  # the formula's limit: K -> +inf
        k, win = math.inf, 1.0
        action = _action(True, True, True)
    else:
        k = (diff + 4) / (2.0 * math.sqrt(total - 4))
        win = 0.5 * (1.0 + math.erf(k))
        ratio = Fraction((diff + 4) ** 2, total - 4) if diff + 4 > 0 else Fraction(0)
        keys = (Fraction(12, 10), Fraction(7, 10), Fraction(5, 10))  # exact key values
        action = _action(ratio > keys[0], ratio >= keys[1], ratio >= keys[2])
    return RaceCount("Kleinman", mine, mine, theirs, k, "K", action, win)


def _isight(mine: tuple[int, ...], theirs: tuple[int, ...]) -> int:
    pips = sum(n * p for p, n in enumerate(mine, start=1))
    count = pips + max(sum(mine) - sum(theirs), 0)
    count += 2 * max(mine[0] - 2, 0) + max(mine[1] - 2, 0) + max(mine[2] - 3, 0)
    count += sum(1 for p in (3, 4, 5) if mine[p] == 0 and theirs[p] > 0)
    crossovers = sum(n * ((p - 1) // 6) for p, n in enumerate(mine, start=1))
    other = sum(n * ((p - 1) // 6) for p, n in enumerate(theirs, start=1))
    return count + max(crossovers - other, 0)


@_race_doc
def isight_count(position: Position) -> RaceCount:
    """Isight count of a race, its winning estimate and cube action ([Isi]_).

    {race_parameters}

    {race_count_returns}
        ``measure`` = ``P = 80 - L/3 + 2 (T - L)`` (percent), ``win = P / 100``;
        no double if ``P < 68``, double if ``68 <= P < 70``, redouble if ``70 <= P <= 76``,
        pass if ``P > 76``.

    Examples
    --------
    >>> p = Position.from_home((3, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 1))
    >>> r = isight_count(p)  # 3 + 2 (more checkers) + 2 (1-pt) + 1 (gap at 6) = 8; 6
    >>> r.on_roll, r.opponent, round(r.measure, 1), r.action
    (8, 6, 73.3, 'redouble, take')
    """
    _race(position)
    mine_points, their_points = _sides(position)
    mine = _isight(mine_points, their_points)
    theirs = _isight(their_points, mine_points)
    p = 80 - Fraction(mine, 3) + 2 * (theirs - mine)  # exact: thirds compared exactly
    action = _action(p > 76, p >= 70, p >= 68)
    return RaceCount("Isight", mine, mine, theirs, float(p), "P %", action, float(p) / 100.0)


@_race_doc
def trice_rule(position: Position) -> RaceCount:
    """Trice's point of last take and doubling points on pip counts ([Tri04]_).

    {race_parameters}

    {race_count_returns}
        ``measure`` = the point of last take as a lead ``d`` (pips):
        ``L/10 + 2`` for ``L >= 62``, ``(L - 5)/7`` below. With the roller's lead
        ``T - L``: pass if ``T - L > d``, redouble if ``T - L >= d - 2``, double if
        ``T - L >= d - 3``. Leads are whole pips, so the fractions act as rounded down.

    Examples
    --------
    70 pips: last take 70 + 9 = 79; double from 76, redouble from 77 ([Tri04]_).

    >>> p = Position.from_home((0, 0, 0, 0, 2, 10), (0, 0, 0, 0, 1, 12))  # 70 vs 77
    >>> r = trice_rule(p)
    >>> r.measure, r.action
    (9.0, 'redouble, take')
    """
    _race(position)
    mine, theirs = position.pips
    last_take = Fraction(mine, 10) + 2 if mine >= 62 else Fraction(mine - 5, 7)
    lead = theirs - mine
    action = _action(lead > last_take, lead >= last_take - 2, lead >= last_take - 3)
    return RaceCount("Trice", mine, mine, theirs, float(last_take), "last take lead", action)


@_race_doc
def race_counts(position: Position, cube: CubePosition = "center") -> pd.DataFrame:
    """Every race method on one position, as a tidy table.

    {race_parameters}
    cube : {{"center", "owned", "opponent"}}
        The cube, seen from the player on roll (default centred).

    Returns
    -------
    pandas.DataFrame
        One row per method (Keith, Thorp, 8-9-12, Kleinman, Isight, Trice) with the
        columns of :class:`RaceCount` and ``verdict``, the action at ``cube``
        (:func:`verdict_at`).

    Examples
    --------
    >>> p = Position.from_home((3, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 1))
    >>> race_counts(p)["method"].tolist()
    ['Keith', 'Thorp', '8-9-12', 'Kleinman', 'Isight', 'Trice']
    >>> race_counts(p, "owned")["verdict"].tolist()[:2]
    ['redouble, take', 'no redouble']
    """
    cube = choice("cube", cube, tuple(CUBE_VERDICTS))
    rows = [
        keith_count(position),
        thorp_count(position),
        rule_8_9_12(position),
        kleinman_count(position),
        isight_count(position),
        trice_rule(position),
    ]
    return pd.DataFrame([{**r.__dict__, "verdict": r.verdict(cube)} for r in rows])
