"""Memory aids for match equity: Neil's numbers, the Turner formula, Janowski's formula.

Each aid gives the leader's match winning chance (MWC) in percent from the trailer's
away score ``T`` and the difference ``D = T - L`` (``L`` the leader's away score),
exactly as published:

- **Janowski's formula** ([T94]_, quoting R. Janowski; [B]_):
  ``50 + 85 D / (T + 6)``; in the Crawford game ``50 + 55 D / (T + 2)`` ([B]_).
- **Turner formula** ([T94]_): ``50 + (24 / T + 3) D``.
- **Neil's numbers** ([W94]_, after N. Kazaross): ``50 + N(T) D`` with ``N(3) = 10,
  N(4) = 9, N(5) = 8, N(6) = 7, N(8) = 6, N(11) = 5, N(15) = 4`` and linear
  interpolation between them ("if there isn't a whole number there, interpolate");
  defined for ``3 <= T <= 15`` only.

The player's MWC is the leader's value when he leads, one minus it when he trails,
1/2 at equal scores. Turner's and Neil's aids cover pre-Crawford scores; their
users are told to memorise the Crawford-game equities ([W94]_; Cattanach [C03]_),
so :func:`compare_memory_aid` takes the 1-away row and column from the reference
table for those two aids (flagged ``from_table``), and Janowski's Crawford formula
for his. An aid's value is not clipped: a formula that gives more than 100% at a
lopsided score shows as its error.

References
----------
.. [T94] S. Turner, "Turner formula, or Equities Easily", rec.games.backgammon,
   22 June 1994, https://www.bkgm.com/rgb/rgb.cgi?view+803 (Janowski's formula and
   the Turner formula, with the worked example 3-away/8-away = 80%).
.. [W94] K. Woolsey, "Re: Equity/Action Table" (Neil's numbers),
   rec.games.backgammon, 9 October 1994, https://bkgm.com/rgb/rgb.cgi?view+171
   (worked example: leading 3-0 in a 7-point match, about 69.5%).
.. [B] P. Bray, "Remembering Match Equities", bkgm.com articles,
   https://www.bkgm.com/articles/Bray/RememberingMatchEquities/index.html
   (Janowski's formula and its Crawford-game form).
.. [C03] G. Cattanach, "Re: What is the doubling window at 4 away 2 away?",
   rec.games.backgammon, 24 February 2003, https://bkgm.com/rgb/rgb.cgi?view+1063.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from cubecore._validate import choice, flag, whole_number
from cubecore.match_points import MatchScore, cube_points
from cubecore.met import MatchEquityTable

__all__ = [
    "MAX_AID_AWAY",
    "MEMORY_AIDS",
    "NEILS_NUMBERS",
    "MemoryAidComparison",
    "compare_memory_aid",
    "janowski_match_equity",
    "memory_aid_table",
    "neils_number",
    "neils_numbers_match_equity",
    "turner_match_equity",
]

#: The aids by key: key -> (name, source).
MEMORY_AIDS: dict[str, tuple[str, str]] = {
    "janowski": ("Janowski's formula", "S. Turner, rec.games.backgammon, 1994 [T94]"),
    "turner": ("Turner formula", "S. Turner, rec.games.backgammon, 1994 [T94]"),
    "neil": ("Neil's numbers", "K. Woolsey, rec.games.backgammon, 1994 [W94]"),
}
#: Neil's numbers as published: trailer's away score -> percent per point of lead.
NEILS_NUMBERS: dict[int, float] = {3: 10, 4: 9, 5: 8, 6: 7, 8: 6, 11: 5, 15: 4}
#: Largest away score the aids are tabulated for here (the formulas go on; the
#: tables they were fitted to stop at 15).
MAX_AID_AWAY = 25


def _check_score(away: int, opp_away: int, low: int = 1) -> tuple[int, int]:
    a = whole_number("away", away, low, MAX_AID_AWAY)
    b = whole_number("opp_away", opp_away, low, MAX_AID_AWAY)
    return a, b


def _player_view(a: int, b: int, leader_percent: float) -> float:
    """Player's MWC (0..1) from the leader's percent; 1/2 at equal scores."""
    if a == b:
        return 0.5
    leader = leader_percent / 100.0
    return leader if a < b else 1.0 - leader


def janowski_match_equity(away: int, opp_away: int, *, crawford: bool = False) -> float:
    """Player's MWC by Janowski's formula ([T94]_, [B]_).

    .. math:: E_{leader} = 50 + \\frac{85 D}{T + 6} \\;\\%, \\qquad
              E_{leader}^{Crawford} = 50 + \\frac{55 D}{T + 2} \\;\\%,

    ``T`` the trailer's away score, ``D`` the trailer's minus the leader's.

    Parameters
    ----------
    away, opp_away : int
        1..25; a 1-away score needs ``crawford=True`` (the formula for the Crawford
        game), and ``crawford=True`` needs one side 1-away.
    crawford : bool
        The Crawford game's form.

    Examples
    --------
    3-away/8-away: 50 + 425/14 = 80.4%, "80% to the nearest %" ([T94]_):

    >>> round(janowski_match_equity(3, 8), 4)
    0.8036
    """
    a, b = _check_score(away, opp_away)
    crawford = flag("crawford", crawford)
    if crawford != (min(a, b) == 1):
        raise ValueError(
            f"crawford=True goes with a 1-away score and only with it (got {a}-away/{b}-away,"
            f" crawford={crawford})"
        )
    t, d = max(a, b), abs(a - b)
    leader = 50 + 55 * d / (t + 2) if crawford else 50 + 85 * d / (t + 6)
    return _player_view(a, b, leader)


def turner_match_equity(away: int, opp_away: int) -> float:
    """Player's MWC by the Turner formula ([T94]_): ``50 + (24 / T + 3) D`` percent.

    Parameters
    ----------
    away, opp_away : int
        2..25 (pre-Crawford scores).

    Examples
    --------
    3-away/8-away: 24/8 + 3 = 6 per point, 5 points: 80% ([T94]_):

    >>> turner_match_equity(3, 8)
    0.8
    """
    a, b = _check_score(away, opp_away, low=2)
    t, d = max(a, b), abs(a - b)
    return _player_view(a, b, 50 + (24 / t + 3) * d)


def neils_number(trailer_away: int) -> float:
    """Neil's number: percent of MWC per point of lead with the trailer ``T``-away ([W94]_).

    The published values :data:`NEILS_NUMBERS` at ``T = 3, 4, 5, 6, 8, 11, 15`` and
    linear interpolation between them; ``T`` in 3..15.

    Examples
    --------
    >>> neils_number(7), neils_number(8), neils_number(13)
    (6.5, 6.0, 4.5)
    """
    t = whole_number("trailer_away", trailer_away, 3, 15)
    keys = sorted(NEILS_NUMBERS)
    return float(np.interp(t, keys, [NEILS_NUMBERS[k] for k in keys]))


def neils_numbers_match_equity(away: int, opp_away: int) -> float:
    """Player's MWC by Neil's numbers ([W94]_): ``50 + N(T) D`` percent.

    Parameters
    ----------
    away, opp_away : int
        2..15, the trailer at least 3-away when the scores differ (the numbers
        start at 3).

    Examples
    --------
    Leading 3-0 in a 7-point match (4-away/7-away): 6.5 a point, 69.5% ([W94]_):

    >>> round(neils_numbers_match_equity(4, 7), 4)
    0.695
    """
    a = whole_number("away", away, 2, 15)
    b = whole_number("opp_away", opp_away, 2, 15)
    if a == b:
        return 0.5
    t, d = max(a, b), abs(a - b)
    return _player_view(a, b, 50 + neils_number(t) * d)


def _aid_value(aid: str, a: int, b: int) -> float:
    """The aid at one score, ``nan`` where it is not defined."""
    if aid == "janowski":
        return janowski_match_equity(a, b, crawford=min(a, b) == 1)
    if min(a, b) == 1:
        return math.nan
    if aid == "turner":
        return turner_match_equity(a, b)
    if max(a, b) > 15 or (a != b and max(a, b) < 3):
        return math.nan
    return neils_numbers_match_equity(a, b)


def memory_aid_table(aid: str, max_away: int = 15) -> pd.DataFrame:
    """An aid's whole table: the player's MWC at every score ``1..max_away`` each.

    Parameters
    ----------
    aid : {"janowski", "turner", "neil"}
    max_away : int
        1..25.

    Returns
    -------
    pandas.DataFrame
        Index ``away``, columns ``opp_away``; ``nan`` where the aid is not defined
        (1-away scores for Turner and Neil; Neil beyond 15-away).

    Examples
    --------
    2-away/3-away by Turner: 24/3 + 3 = 11 points for the one point of lead:

    >>> float(memory_aid_table("turner", 3).loc[2, 3])
    0.61
    """
    key = choice("aid", aid, MEMORY_AIDS)
    n = whole_number("max_away", max_away, 1, MAX_AID_AWAY)
    values = [[_aid_value(key, a, b) for b in range(1, n + 1)] for a in range(1, n + 1)]
    labels = pd.RangeIndex(1, n + 1)
    return pd.DataFrame(
        values,
        index=pd.Index(labels, name="away"),
        columns=pd.Index(labels, name="opp_away"),
    )


@dataclass(frozen=True, eq=False)
class MemoryAidComparison:
    """An aid against a table: MWC errors and the take-point errors they cause.

    Attributes
    ----------
    aid, aid_name, source, table_name : str
    max_away : int
    frame : pandas.DataFrame
        One row per score ``1..max_away`` each: ``away, opp_away, aid, table,
        error_pp`` (aid minus table, percentage points), ``from_table`` (the aid
        has no value there and the table's is used), ``take_point_aid,
        take_point_table, take_point_error_pp``: the player's gammonless dead take
        point of the opponent's initial double (pre-Crawford scores; ``nan`` else)
        computed from the aid's table and from the reference table; ``nan`` where
        the aid's take point would read a cell the aid leaves undefined or a value
        outside [0, 1] (e.g. Janowski's formula gives 102.6% at 2-away/15-away), and
        where the aid's table is not monotone around the score, so that its "take
        point" falls outside [0, 1] (Janowski at 3-away/15-away: 3.61).
    mean_abs_error_pp, max_abs_error_pp : float
        Over the cells the aid defines.
    mean_abs_take_point_error_pp, max_abs_take_point_error_pp : float
        Over the scores where both take points exist.
    """

    aid: str
    aid_name: str
    source: str
    table_name: str
    max_away: int
    frame: pd.DataFrame
    mean_abs_error_pp: float
    max_abs_error_pp: float
    mean_abs_take_point_error_pp: float
    max_abs_take_point_error_pp: float


def compare_memory_aid(
    aid: str, table: MatchEquityTable, max_away: int = 11
) -> MemoryAidComparison:
    """Compare a memory aid with a table: MWC error and take-point error by score.

    The aid's table (:func:`memory_aid_table`, with the reference table's Crawford
    entries where the aid has none, see the module docstring) and the reference
    table give, at every pre-Crawford score, the player's dead take point of the
    opponent's initial double without gammons, ``(D - L) / (W - L)`` with ``D``,
    ``W``, ``L`` the MWC after dropping, taking and winning, taking and losing
    (:func:`cubecore.match_points.cube_points`); the error is the aid's minus the
    table's.

    Parameters
    ----------
    aid : {"janowski", "turner", "neil"}
    table : MatchEquityTable
        The reference (its post-Crawford column is used for both).
    max_away : int
        2..``min(25, table.length, table.post_length)``: at most 625 scores.

    Returns
    -------
    MemoryAidComparison

    Examples
    --------
    The Turner formula against a table that is the Turner formula (Crawford entries
    at 0.3) has no error:

    >>> n = 4
    >>> pre = [[0.5 if a == b else (0.7 if a < b else 0.3) if min(a, b) == 1 else
    ...         turner_match_equity(a, b) for b in range(1, n + 1)] for a in range(1, n + 1)]
    >>> t = MatchEquityTable("t", "Turner", pre, [0.5, 0.49, 0.3, 0.29])
    >>> compare_memory_aid("turner", t, 4).max_abs_take_point_error_pp
    0.0
    """
    key = choice("aid", aid, MEMORY_AIDS)
    if not isinstance(table, MatchEquityTable):
        raise TypeError(f"`table` must be a cubecore.met.MatchEquityTable (got {type(table)})")
    high = min(MAX_AID_AWAY, table.length, table.post_length)
    n = whole_number("max_away", max_away, 2, high)
    reference = np.asarray(table.pre)[:n, :n]
    aid_values = memory_aid_table(key, n).to_numpy()
    from_table = np.isnan(aid_values) & (
        np.minimum.outer(np.arange(1, n + 1), np.arange(1, n + 1)) == 1
    )
    undefined = np.isnan(aid_values) & ~from_table
    # the aid's table must be complete to be a table: cells it leaves undefined take
    # the reference's value, and a take point that reads one of them is nan
    filled = np.where(np.isnan(aid_values), reference, aid_values)
    aid_met = MatchEquityTable(f"{key}-aid", MEMORY_AIDS[key][0], filled, table.post)
    ref_met = MatchEquityTable(table.key, table.name, reference, table.post)

    # an aid's value outside [0, 1] is no MWC: a take point read from it is nan too
    unusable = undefined | (filled < 0.0) | (filled > 1.0)

    def reads_undefined(a: int, b: int) -> bool:
        # drop: (a, b - 1); take and win: (a - 2, b); take and lose: (a, b - 2)
        cells = [(a, b - 1), (a - 2, b), (a, b - 2)]
        return any(x >= 1 and y >= 1 and unusable[x - 1, y - 1] for x, y in cells)

    rows = []
    for a in range(1, n + 1):
        for b in range(1, n + 1):
            tp_aid = tp_ref = math.nan
            if min(a, b) >= 2:
                tp_ref = cube_points(
                    MatchScore(ref_met, a, b)
                ).opponent_doubles.take_point_gammonless
                if not reads_undefined(a, b):
                    tp_aid = cube_points(
                        MatchScore(aid_met, a, b)
                    ).opponent_doubles.take_point_gammonless
                    if not 0.0 <= tp_aid <= 1.0:  # not monotone here: no take point
                        tp_aid = math.nan
            rows.append(
                {
                    "away": a,
                    "opp_away": b,
                    "aid": aid_values[a - 1, b - 1],
                    "table": reference[a - 1, b - 1],
                    "error_pp": 100.0 * (aid_values[a - 1, b - 1] - reference[a - 1, b - 1]),
                    "from_table": bool(from_table[a - 1, b - 1]),
                    "take_point_aid": tp_aid,
                    "take_point_table": tp_ref,
                    "take_point_error_pp": 100.0 * (tp_aid - tp_ref),
                }
            )
    frame = pd.DataFrame(rows)
    errors = frame.error_pp.abs().dropna()
    tp_errors = frame.take_point_error_pp.abs().dropna()
    return MemoryAidComparison(
        aid=key,
        aid_name=MEMORY_AIDS[key][0],
        source=MEMORY_AIDS[key][1],
        table_name=table.name,
        max_away=n,
        frame=frame,
        mean_abs_error_pp=float(errors.mean()),
        max_abs_error_pp=float(errors.max()),
        mean_abs_take_point_error_pp=float(tp_errors.mean()) if len(tp_errors) else math.nan,
        max_abs_take_point_error_pp=float(tp_errors.max()) if len(tp_errors) else math.nan,
    )
