"""The free drop, priced: the leader's selective drop of the trailer's first double.

Post-Crawford the leader is 1-away and the trailer ``n``-away doubles at once: the
leader's cube is dead, the trailer loses the match with any loss. Without gammons a
drop at an even score costs the leader nothing (``T(2k) = T(2k - 1)`` in the model
of :mod:`cubecore.match`: the "free drop"), so the leader can drop *selectively*:
take when the game has gone his way, drop when it has not. A table that has the
trailer below ``T(2k - 1)`` at ``2k``-away (Kazaross-XG2: 0.488 at 2-away, not 0.5)
prices that option. This module states a model of it.

The model (stated assumptions, not a published one)
---------------------------------------------------
1. The trailer doubles at his first turn, always, and the leader decides then.
2. At that moment the leader's game winning chance ``p`` is spread around 1/2 by
   the opening exchange: ``p ~ Beta(alpha, alpha)``, mean 1/2, standard deviation
   ``spread``, so ``alpha = (1 / (4 spread^2) - 1) / 2`` (``spread`` in [0, 0.25];
   0 is the point mass at 1/2, i.e. the double before any roll; so is any spread
   below 1e-6, where the Beta's parameter would overflow).
3. After a take the cube (2) is dead for the leader and the trailer does not own
   it: the game is played out. The trailer wins a gammon with probability ``G``
   (``gammon_rate``) of his wins, independent of ``p``; the leader's gammons do
   not matter (any win is the match).

With ``T`` the trailer's post-Crawford MWC (``T(1) = 1/2``, ``T(m <= 0) = 1``) and
``T_g(m) = (1 - G) T(m) + G T(m - 2)``, the leader's MWC after a take at ``p`` is
``A + (1 - A) p`` with ``A = 1 - T_g(n - 2)``, after a drop ``D = 1 - T(n - 1)``, and

.. math:: 1 - T(n) = E[\\max(A + (1 - A) p,\\; D)]
          = D + (1 - A)\\, E[(p - p^*)^+], \\qquad p^* = \\frac{D - A}{1 - A},

with ``E[(p - k)^+] = \\tfrac12 (1 - I_k(\\alpha + 1, \\alpha)) - k (1 - I_k(\\alpha,
\\alpha))`` (``I`` the regularised incomplete beta function). The recursion runs at
every score (at odd scores the drop is rarely worth it and the max says so).

Where the model stops: it knows nothing of the trailer delaying his double
(assumption 1; the Holland rule, or a trailer who keeps the cube in bad positions),
of the leader's take point moving during the game (the cube is dead), of gammon
rates that depend on ``p``; and it prices only post-Crawford scores
``2..max_away``.

References
----------
.. [KS69] E. Keeler and J. Spencer, "Proper Raising Points in a Generalization of
   Backgammon", RAND Corporation P-4078, 1969,
   https://www.rand.org/pubs/papers/P4078.html (the continuous game behind the
   spread of ``p``).
.. [Z77] N. Zadeh, "On Doubling in Tournament Backgammon", Management Science
   23(9), May 1977, pp. 986-993,
   https://bkgm.com/articles/Zadeh/OnDoublingInTournamentBackgammon/index.html
   ("it is to B's advantage to double immediately whenever possible when A needs
   only 1 point": the post-Crawford recursion).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd
from scipy.optimize import brentq
from scipy.special import betainc

from cubecore._validate import real_in_range, whole_number
from cubecore.met import MatchEquityTable

__all__ = [
    "DEFAULT_SPREAD",
    "DEFAULT_TRAILER_GAMMON_RATE",
    "MAX_FREE_DROP_AWAY",
    "MAX_SPREAD",
    "FreeDropPrice",
    "free_drop_price",
    "implied_spread",
    "selective_drop_value",
]

#: Spread (standard deviation) of the leader's winning chance when the trailer
#: first doubles: a stated modelling choice, not fitted to any table (for scale:
#: the per-roll volatility of p in cubecore.match's Holland model is 0.07);
#: :func:`implied_spread` gives the spread a table implies (Kazaross-XG2: 0.030).
DEFAULT_SPREAD = 0.05
#: The trailer's gammon rate (share of his wins that are gammons).
DEFAULT_TRAILER_GAMMON_RATE = 0.26
#: Largest spread accepted: Beta(1.5, 1.5).
MAX_SPREAD = 0.25
#: Spreads below this are the point mass at 1/2 (the Beta's alpha would overflow);
#: the option's value then differs by less than 0.4 times it.
_POINT_MASS = 1e-6
#: Largest trailer's away score priced.
MAX_FREE_DROP_AWAY = 25


@dataclass(frozen=True, eq=False)
class FreeDropPrice:
    """The selective drop priced by the model, beside a table's implied price.

    What :func:`free_drop_price` returns: the model's parameters and, per trailer's
    away score, the model's price beside the table's.

    Attributes
    ----------
    table_name : str
    gammon_rate, spread : float
        The model's parameters.
    frame : pandas.DataFrame
        One row per trailer's away score ``n = 2..max_away``: ``trailer_away``,
        ``even``; the model's trailer MWC without selection (``spread = 0``)
        ``model_plain``, with it ``model_selective``, and the option's value to the
        leader ``model_value_pp`` (their difference, percentage points); the table's
        trailer MWC ``table``, the same recursion on the table's own lower entries
        without selection ``table_plain`` and with it ``table_selective``; the
        table's implied value ``table_implied_pp = 100 (table_plain - table)`` and
        the model's value on the table's lower entries ``model_on_table_pp = 100
        (table_plain - table_selective)``; and the plain difference of neighbours
        ``neighbour_gap_pp = 100 (T(n - 1) - T(n))`` of the table.
    """

    table_name: str
    gammon_rate: float
    spread: float
    frame: pd.DataFrame


def _alpha(spread: float) -> float:
    return (1.0 / (4.0 * spread * spread) - 1.0) / 2.0


def _excess(k: float, spread: float) -> float:
    """``E[(p - k)^+]`` for ``p ~ Beta(alpha, alpha)`` of standard deviation ``spread``."""
    if spread < _POINT_MASS:  # point mass at 1/2 (to within 0.4 * _POINT_MASS)
        return max(0.5 - k, 0.0)
    if k <= 0.0:
        return 0.5 - k
    if k >= 1.0:
        return 0.0
    a = _alpha(spread)
    return 0.5 * (1.0 - float(betainc(a + 1.0, a, k))) - k * (1.0 - float(betainc(a, a, k)))


def _leader_mwc(drop_trailer: float, win_trailer: float, spread: float) -> float:
    """Leader's MWC: drop leaves the trailer ``drop_trailer``, a take he wins ``win_trailer``."""
    a = 1.0 - win_trailer  # leader's MWC when the trailer wins the doubled game
    d = 1.0 - drop_trailer
    if a >= 1.0:  # degenerate: the trailer gains nothing by winning, a take is worth 1
        return max(1.0, d)
    k = (d - a) / (1.0 - a)
    return d + (1.0 - a) * _excess(k, spread)


def _recursion(
    n_max: int, g: float, spread: float, lower: list[float] | None = None
) -> list[float]:
    """Trailer's MWC ``T(0..n_max)``; ``lower`` (if given) supplies ``T(m)`` for the inputs."""
    t = [1.0, 0.5] + [math.nan] * (n_max - 1)

    def known(m: int) -> float:
        if m <= 0:
            return 1.0
        return lower[m] if lower is not None else t[m]

    for n in range(2, n_max + 1):
        win = (1.0 - g) * known(n - 2) + g * known(n - 4)
        t[n] = 1.0 - _leader_mwc(known(n - 1), win, spread)
    return t


def selective_drop_value(
    trailer_away: int,
    gammon_rate: float = DEFAULT_TRAILER_GAMMON_RATE,
    spread: float = DEFAULT_SPREAD,
) -> float:
    """Value to the leader (MWC) of dropping selectively, in the model alone.

    The model's trailer MWC without selection minus with it, at ``trailer_away``
    (module docstring, the recursion run from 1-away up on its own values).

    Parameters
    ----------
    trailer_away : int
        2..25.
    gammon_rate : float
        The trailer's gammon rate, in [0, 1].
    spread : float
        Standard deviation of the leader's winning chance, in [0, 0.25].

    Examples
    --------
    At 2-away the option is ``E[(p - 1/2)^+]``: for a spread of 0.05, 0.02 (a normal
    ``p`` would give 0.05 / sqrt(2 pi) = 0.01995):

    >>> round(selective_drop_value(2, spread=0.05), 5)
    0.02
    """
    n, g, s = _check(trailer_away, gammon_rate, spread)
    plain = _recursion(n, g, 0.0)
    selective = _recursion(n, g, s)
    return plain[n] - selective[n]


def _check(n: int, g: float, s: float) -> tuple[int, float, float]:
    return (
        whole_number("trailer_away", n, 2, MAX_FREE_DROP_AWAY),
        real_in_range("gammon_rate", g, 0.0, 1.0),
        real_in_range("spread", s, 0.0, MAX_SPREAD),
    )


def free_drop_price(
    table: MatchEquityTable,
    *,
    max_away: int = 11,
    gammon_rate: float = DEFAULT_TRAILER_GAMMON_RATE,
    spread: float = DEFAULT_SPREAD,
) -> FreeDropPrice:
    """The selective drop by away score: the model's value beside the table's implied one.

    For each trailer's away score ``n = 2..max_away`` (module docstring): the model
    run on its own values, with (``spread``) and without (``spread = 0``)
    selection; the same recursion fed with the table's own post-Crawford entries
    at ``n - 1, n - 2, n - 4``; and the table's entry. The table's implied value is
    how far its entry lies below what the recursion without selection gives from
    its own lower entries.

    Parameters
    ----------
    table : MatchEquityTable
        Its post-Crawford column is read (``table.post``).
    max_away : int
        2..``min(25, table.post_length)``.
    gammon_rate : float
        The trailer's gammon rate, in [0, 1].
    spread : float
        Standard deviation of the leader's winning chance when the trailer doubles,
        in [0, 0.25].

    Returns
    -------
    FreeDropPrice

    Examples
    --------
    Kazaross-XG2 has the 2-away trailer at 0.48803 where no selection gives 1/2:
    an implied value of 1.197 percentage points of MWC.

    >>> t = MatchEquityTable("kxg2", "Kazaross-XG2 (corner)",
    ...                      [[0.5, 0.67736], [0.32264, 0.5]], [0.5, 0.48803])
    >>> row = free_drop_price(t, max_away=2).frame.iloc[0]
    >>> round(float(row.table_implied_pp), 3)
    1.197
    """
    if not isinstance(table, MatchEquityTable):
        raise TypeError(f"`table` must be a cubecore.met.MatchEquityTable (got {type(table)})")
    n = whole_number("max_away", max_away, 2, min(MAX_FREE_DROP_AWAY, table.post_length))
    _, g, s = _check(2, gammon_rate, spread)
    lower = [1.0] + [float(v) for v in table.post[:n]]
    plain, selective = _recursion(n, g, 0.0), _recursion(n, g, s)
    table_plain = _recursion(n, g, 0.0, lower)
    table_selective = _recursion(n, g, s, lower)
    rows = [
        {
            "trailer_away": m,
            "even": m % 2 == 0,
            "model_plain": plain[m],
            "model_selective": selective[m],
            "model_value_pp": 100.0 * (plain[m] - selective[m]),
            "table": lower[m],
            "table_plain": table_plain[m],
            "table_selective": table_selective[m],
            "table_implied_pp": 100.0 * (table_plain[m] - lower[m]),
            "model_on_table_pp": 100.0 * (table_plain[m] - table_selective[m]),
            "neighbour_gap_pp": 100.0 * (lower[m - 1] - lower[m]),
        }
        for m in range(2, n + 1)
    ]
    return FreeDropPrice(table_name=table.name, gammon_rate=g, spread=s, frame=pd.DataFrame(rows))


def implied_spread(
    table: MatchEquityTable,
    trailer_away: int = 2,
    gammon_rate: float = DEFAULT_TRAILER_GAMMON_RATE,
) -> float:
    """The spread at which the model, fed with the table's lower entries, gives its entry.

    Solves ``T_selective(n; spread) = T_table(n)`` for ``spread`` in [0, 0.25]
    (Brent's method; the left side falls as the spread grows), the recursion of
    the module docstring run one step on the table's post-Crawford entries at
    ``n - 1``, ``n - 2``, ``n - 4``. It reads how wide a spread of the leader's
    winning chance the table's price of the selective drop corresponds to.

    Parameters
    ----------
    table : MatchEquityTable
    trailer_away : int
        2..``min(25, table.post_length)``; even scores are where the drop is free.
    gammon_rate : float
        The trailer's gammon rate, in [0, 1].

    Returns
    -------
    float
        ``nan`` where no spread in [0, 0.25] gives the table's entry (the entry is
        above what the recursion gives without selection, or below its value at
        the widest spread).

    Examples
    --------
    Kazaross-XG2's 2-away entry 0.48803 is ``1/2 - E[(p - 1/2)^+]`` at a spread of
    about 0.03:

    >>> t = MatchEquityTable("kxg2", "Kazaross-XG2 (corner)",
    ...                      [[0.5, 0.67736], [0.32264, 0.5]], [0.5, 0.48803])
    >>> round(implied_spread(t, 2), 5)
    0.02998
    """
    if not isinstance(table, MatchEquityTable):
        raise TypeError(f"`table` must be a cubecore.met.MatchEquityTable (got {type(table)})")
    high = min(MAX_FREE_DROP_AWAY, table.post_length)
    n = whole_number("trailer_away", trailer_away, 2, high)
    g = real_in_range("gammon_rate", gammon_rate, 0.0, 1.0)
    lower = [1.0] + [float(v) for v in table.post[:n]]
    target = lower[n]

    def gap(spread: float) -> float:
        return _recursion(n, g, spread, lower)[n] - target

    if gap(0.0) < 0.0 or gap(MAX_SPREAD) > 0.0:
        return math.nan
    if gap(0.0) == 0.0:
        return 0.0
    return float(brentq(gap, 0.0, MAX_SPREAD, xtol=1e-12))
