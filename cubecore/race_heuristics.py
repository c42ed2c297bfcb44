"""Race rules of thumb from the two pip counts, beside the exact race model.

Players decide race cubes with short rules on the pip counts; here they are
computed exactly and compared with the race model of [ZK77]_ solved exactly
(:mod:`cubecore.race`):

- the 8-9-12 rule ([T04]_): the roller's lead in percent of his own count; double
  from the centre at 8 %, redouble at 9 %, the opponent takes up to 12 %;
- Kleinman's formula ([K80]_): the roller's winning chance from the difference and
  the sum of the counts through a normal distribution.

Counts are whole numbers in [1, :data:`cubecore.race.MAX_COUNT`]; the cube positions
and action names are :mod:`cubecore.race`'s (seen from the roller).

References
----------
.. [ZK77] N. Zadeh, G. Kobliska, "On Optimal Doubling in Backgammon", Management
   Science 23(8), 853-858, 1977. https://doi.org/10.1287/mnsc.23.8.853
.. [T04] W. Trice, "Backgammon Boot Camp", Fortuitous Press, 2004: the 8-9-12 rule.
.. [K80] D. Kleinman, "Vision Laughs at Counting", self-published, 1980: the
   Kleinman count, win chance ``1/2 [1 + erf((D + 4) / (2 sqrt(S - 4)))]``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from cubecore._normal import normal_cdf
from cubecore._validate import broadcast_together, choice
from cubecore.janowski import CubePosition
from cubecore.race import ACTIONS, CUBE_POSITIONS, _count_array, _race_doc, cube_action_map

__all__ = [
    "RULE_COMPARISONS",
    "RulesOfThumbSummary",
    "kleinman_win_probability",
    "rule_8_9_12",
    "rules_of_thumb_map",
    "rules_of_thumb_summary",
]

#: How the 8-9-12 rule's verdict compares with the exact action, in code order
#: (the ``comparison`` column of :func:`rules_of_thumb_map`).
RULE_COMPARISONS = (
    "agrees",
    "rule doubles, exact waits",
    "rule waits, exact doubles",
    "rule: take, exact: pass",
    "rule: pass, exact: take",
)
#: Both counts at least this large: where Kleinman's formula is meant to be used.
_KLEINMAN_MIN_COUNT = 10


def kleinman_win_probability(on_roll: ArrayLike, opponent: ArrayLike) -> NDArray[np.float64]:
    r"""Kleinman's estimate of the roller's race winning chance ([K80]_).

    .. math:: p \approx \tfrac12\left[1 + \operatorname{erf}\left(
       \frac{D + 4}{2\sqrt{S - 4}}\right)\right]
       = \Phi\left(\frac{D + 4}{\sqrt{2 (S - 4)}}\right),

    ``D = opponent - on_roll``, ``S = on_roll + opponent``, ``Phi`` the standard
    normal distribution function.

    Parameters
    ----------
    on_roll, opponent : array_like of int
        Counts, whole numbers in [1, 375], with ``on_roll + opponent > 4``.

    Returns
    -------
    numpy.ndarray
        The estimated winning chance of the player on roll.

    Raises
    ------
    ValueError
        If a count is not a whole number in [1, 375], or ``on_roll + opponent <= 4``
        (``S - 4`` is a variance).

    Notes
    -----
    The ``+4`` is about half the average roll (8 1/6 pips): the roller's edge.

    Examples
    --------
    >>> round(float(kleinman_win_probability(100, 100)), 4)  # exact model: 0.5763
    0.5801
    """
    x = _count_array("on_roll", on_roll)
    y = _count_array("opponent", opponent)
    x, y = broadcast_together(("on_roll", "opponent"), x, y)
    s = x + y
    if np.any(s <= 4):
        smallest = int(s.min())
        raise ValueError(
            f"on_roll + opponent must exceed 4 for the Kleinman formula (got {smallest})"
        )
    z: NDArray[np.float64] = (y - x + 4) / np.sqrt(2.0 * (s - 4.0))
    return normal_cdf(z)  # [K80]


@_race_doc
def rule_8_9_12(on_roll: ArrayLike, opponent: ArrayLike, cube: CubePosition) -> NDArray[np.str_]:
    """Verdict of the 8-9-12 rule ([T04]_) in the words of :data:`cubecore.race.ACTIONS`.

    Parameters
    ----------
    on_roll, opponent : array_like of int
        Counts, whole numbers in [1, 375].
    {roller_cube}

    Returns
    -------
    numpy.ndarray of str

    Notes
    -----
    Lead ``L = 100 (opponent - on_roll) / on_roll`` percent of the roller's count,
    compared exactly (integer arithmetic, no rounding). Double from the centre
    iff ``L >= 8``, redouble iff ``L >= 9``; the opponent takes iff ``L <= 12``.
    With the opponent owning the cube the verdict is "no double".

    Examples
    --------
    >>> str(rule_8_9_12(100, 109, "center")), str(rule_8_9_12(100, 108, "owned"))
    ('double/take', 'no double')
    """
    x = _count_array("on_roll", on_roll)
    y = _count_array("opponent", opponent)
    cube = choice("cube", cube, CUBE_POSITIONS)
    x, y = broadcast_together(("on_roll", "opponent"), x, y)
    lead_times_100 = 100 * (y - x)  # compare with threshold * x: no rounding
    threshold = {"center": 8, "owned": 9}.get(cube)
    if threshold is None:
        return np.full(x.shape, ACTIONS[0])
    doubles = lead_times_100 >= threshold * x
    takes = lead_times_100 <= 12 * x
    return np.where(doubles, np.where(takes, ACTIONS[1], ACTIONS[2]), ACTIONS[0])


def _comparison_codes(
    rule: NDArray[np.str_], exact: NDArray[np.str_], agrees: NDArray[np.bool_]
) -> NDArray[np.int64]:
    """Index into :data:`RULE_COMPARISONS` for each position."""
    rule_doubles = rule != ACTIONS[0]
    exact_doubles = exact != ACTIONS[0]
    codes: NDArray[np.int64] = np.select(
        [agrees, rule_doubles & ~exact_doubles, ~rule_doubles & exact_doubles, rule == ACTIONS[1]],
        [0, 1, 2, 3],
        default=4,  # the rule says pass where the exact model takes
    )
    return codes


@_race_doc
def rules_of_thumb_map(
    cube: CubePosition, max_count: int = 100, min_count: int = 1
) -> pd.DataFrame:
    """The exact cube map beside the 8-9-12 rule and Kleinman's win chance.

    {roller_cube_parameters}
    max_count, min_count : int
        Counts range, as in :func:`cubecore.race.cube_action_map` (at most 375: the
        map has ``(max_count - min_count + 1)**2`` rows).

    Returns
    -------
    pandas.DataFrame
        :func:`cubecore.race.cube_action_map` plus ``rule_8_9_12`` (verdict),
        ``rule_agrees`` (bool; a "double/pass" verdict also agrees where
        ``full_point`` holds, since doubling out and waiting then both win the
        point), ``comparison`` (categorical over :data:`RULE_COMPARISONS`),
        ``kleinman_win`` (NaN where ``S <= 4``) and ``kleinman_error`` (Kleinman
        minus the exact cubeless win chance).

    Examples
    --------
    >>> m = rules_of_thumb_map("center", 30, 20)
    >>> bool(m["rule_agrees"].mean() > 0.5)
    True
    """
    exact = cube_action_map(cube, max_count, min_count)
    x = exact["on_roll"].to_numpy()
    y = exact["opponent"].to_numpy()
    verdict = rule_8_9_12(x, y, cube)
    exact_action = exact["action"].astype(str).to_numpy()
    # where no_double is exactly +1 (a full point without doubling) "double/pass" ties
    tie = exact["full_point"].to_numpy() & (verdict == ACTIONS[2])
    agrees = (verdict == exact_action) | tie
    codes = _comparison_codes(verdict, exact_action.astype(str), agrees)
    defined = x + y > 4
    kleinman = np.full(x.shape, np.nan)
    if np.any(defined):
        kleinman[defined] = kleinman_win_probability(x[defined], y[defined])
    return exact.assign(
        rule_8_9_12=verdict,
        rule_agrees=agrees,
        comparison=pd.Categorical.from_codes(codes, categories=pd.Index(list(RULE_COMPARISONS))),
        kleinman_win=kleinman,
        kleinman_error=kleinman - exact["cubeless_win"].to_numpy(),
    )


@dataclass(frozen=True)
class RulesOfThumbSummary:
    """How well the rules of thumb do over every position of a square of counts.

    Attributes
    ----------
    shares : pandas.DataFrame
        One row per :data:`RULE_COMPARISONS` entry: ``comparison``, ``positions``
        (count) and ``share`` (of all positions).
    contested_agreement : float
        Share of agreement among the positions where the rule or the exact model
        doubles (1 when there are none).
    kleinman_max_error : float
        Largest ``|kleinman_win - exact|`` (a probability), where defined.
    kleinman_max_error_10 : float
        The same over positions with both counts at least 10 (NaN when there are none).
    """

    shares: pd.DataFrame
    contested_agreement: float
    kleinman_max_error: float
    kleinman_max_error_10: float


def rules_of_thumb_summary(frame: pd.DataFrame) -> RulesOfThumbSummary:
    """Summarise a :func:`rules_of_thumb_map`: shares, contested agreement, Kleinman's errors.

    Parameters
    ----------
    frame : pandas.DataFrame
        The output of :func:`rules_of_thumb_map` (any count range).

    Returns
    -------
    RulesOfThumbSummary

    Raises
    ------
    ValueError
        If ``frame`` lacks a column of :func:`rules_of_thumb_map` or has no rows.

    Examples
    --------
    >>> s = rules_of_thumb_summary(rules_of_thumb_map("opponent", 20))
    >>> float(s.contested_agreement), s.shares["positions"].sum()  # nobody doubles
    (1.0, np.int64(400))
    """
    needed = {"on_roll", "opponent", "action", "rule_8_9_12", "comparison", "kleinman_error"}
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"`frame` must be a rules_of_thumb_map (got {type(frame).__name__})")
    missing = sorted(needed - set(frame.columns))
    if missing:
        raise ValueError(f"`frame` must be a rules_of_thumb_map (missing columns {missing})")
    if frame.empty:
        raise ValueError("`frame` must have at least one row (got 0)")
    codes = frame["comparison"].cat.codes.to_numpy()
    shares = pd.DataFrame(
        {
            "comparison": RULE_COMPARISONS,
            "positions": np.bincount(codes, minlength=len(RULE_COMPARISONS)),
        }
    )
    shares["share"] = shares["positions"] / codes.size
    contested = (frame["rule_8_9_12"].to_numpy() != ACTIONS[0]) | (
        frame["action"].astype(str).to_numpy() != ACTIONS[0]
    )
    error = np.abs(frame["kleinman_error"].to_numpy())
    large = (frame["on_roll"] >= _KLEINMAN_MIN_COUNT) & (frame["opponent"] >= _KLEINMAN_MIN_COUNT)
    large_errors = error[large.to_numpy()]
    return RulesOfThumbSummary(
        shares=shares,
        contested_agreement=float((codes[contested] == 0).mean()) if contested.any() else 1.0,
        kleinman_max_error=float(np.nanmax(error)) if np.any(np.isfinite(error)) else np.nan,
        kleinman_max_error_10=(
            float(np.nanmax(large_errors)) if np.any(np.isfinite(large_errors)) else np.nan
        ),
    )
