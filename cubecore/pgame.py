"""The continuous game of Keeler and Spencer (the P-game), simulated with the cube.

In a continuous game the winning chance ``p`` of player A moves like Brownian motion
on [0, 1], absorbed at 0 (B wins) and 1 (A wins) [KS69] section 1. Cube decisions
under threshold strategies happen only when ``p`` reaches a threshold, and by the
[KS69] lemma the walk started at ``x`` between ``lo < x < hi`` reaches ``hi`` first
with probability ``(x - lo) / (hi - lo)`` (eq. (2)). So a whole game is the
embedded chain of threshold hits, simulated exactly and vectorized over games by
:func:`simulate_games`; :func:`simulate_games_fine` walks the indicator step by step
(slow; a check). :func:`exact_equity` and :func:`theoretical_cube_distribution` give
the same quantities in closed form.

All values are in points for an initial stake of 1 (``K = 1``); winning chances are
the deciding player's own.

References
----------
.. [KS69] E. Keeler and J. Spencer, "Proper raising points in a generalization of
   backgammon", RAND Corporation paper P-4078, May 1969; section 1 (the lemma, eqs.
   (1)-(2)) and section 2 (the 80% point, eqs. (3)-(5)).
   https://www.rand.org/pubs/papers/P4078.html
.. [RULES] "Doubling cube", Wikipedia, the free encyclopedia.
   https://en.wikipedia.org/wiki/Doubling_cube
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any, cast

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from cubecore._docs import fill_doc
from cubecore._validate import array_in_range, flag, real_in_range, whole_number
from cubecore.rules import MAX_MURPHY_CAP, OPENING_TIE_PROBABILITY, Rules

__all__ = [
    "DOUBLING_POINT",
    "GAME_COLUMNS",
    "MAX_FINE_LATTICE_SIZE",
    "MAX_GAMES",
    "MAX_LATTICE_SIZE",
    "MAX_MURPHY_CAPS",
    "MAX_PATH_STEPS",
    "MAX_PRICE_POINTS",
    "MAX_TIME_BUDGET",
    "OPTIMAL",
    "OPTIMAL_BEAVER_POINT",
    "TAKE_POINT",
    "DoublingPrice",
    "GameBatch",
    "GamesSummary",
    "PointsEstimate",
    "TakeCheck",
    "Thresholds",
    "compare_cube_distribution",
    "cube_value_distribution",
    "doubling_price",
    "doubling_price_curve",
    "doubling_price_table",
    "exact_equity",
    "expected_stops",
    "mean_points",
    "murphy_cap_table",
    "murphy_mean_stake",
    "murphy_stake_distribution",
    "p_game_path",
    "simulate_games",
    "simulate_games_fine",
    "summarize_games",
    "summarize_games_fine",
    "take_check",
    "theoretical_cube_distribution",
]

DOUBLING_POINT = 0.8
"""Optimal doubling point of the continuous game, [KS69] eq. (5)."""

TAKE_POINT = 1 - DOUBLING_POINT
"""Optimal take point (take iff own chance >= 20%), [KS69] section 2."""

OPTIMAL_BEAVER_POINT = 0.4
"""Taker's chance above which a beaver gains, continuous game with optimal play.

Owning the cube at chance ``c`` is worth ``c / 0.8 - (1 - c / 0.8) = 2.5 c - 1`` per
unit (the lemma with the owner's redouble at 80% worth +1); a beaver doubles that
stake, so it pays iff ``2.5 c - 1 > 0``, i.e. ``c > 0.4``. By the same value the
doubler gains by a raccoon iff ``c < 0.4``, so against an optimal beaver a raccoon
never pays.
"""

GAME_COLUMNS: tuple[str, ...] = (
    "game",
    "automatic_doubles",
    "doubles",
    "beavers",
    "raccoons",
    "cube_value",
    "winner",
    "ending",
    "points_a",
)
"""Columns of the per-game DataFrame of :func:`simulate_games`."""

_CENTER, _OWNER_A, _OWNER_B = 0, 1, 2
_TAKE, _DROP, _BEAVER, _RACCOON = 0, 1, 2, 3
_TAIL_TOLERANCE = 1e-15
_DIVERGENCE_TOLERANCE = 1e-9  # 1 - m_A m_B q_A q_B below this: no expectation
_DECISION_TOLERANCE = 1e-12  # a chance within 1e-12 of a threshold has reached it
_MAX_CHAIN_EVENTS = 20_000
#: Most games one simulation plays (the app offers 1 million; each game is a row of
#: a few numbers, so 2 million stay near 100 MB).
MAX_GAMES = 2_000_000
#: Most doubling points of one :func:`doubling_price_curve` (each is a chain solve;
#: the app draws 80).
MAX_PRICE_POINTS = 1_000
#: Finest lattice of the walks: ``step_size >= 1/MAX_LATTICE_SIZE`` (a game on the
#: lattice takes about ``n**2 / 4`` steps).
MAX_LATTICE_SIZE = 1_000
#: Finest lattice of :func:`simulate_games_fine` (``step_size >= 1/MAX_FINE_LATTICE_SIZE``):
#: its cost grows as ``n**2`` (the longest game sets the number of steps): 2,000 games took
#: 2.0 s at ``n = 100``, 4.8 s at 200, 8.7 s at 250 and 47.7 s at 1,000 (2026-11-28,
#: 2 cores AMD EPYC). The app walks at ``n = 20``.
MAX_FINE_LATTICE_SIZE = 100
#: Longest wall-time budget a simulation accepts, in seconds (``time_budget``).
MAX_TIME_BUDGET = 3600.0
#: Most steps of one :func:`p_game_path` (the app draws 200 thousand).
MAX_PATH_STEPS = 1_000_000
#: Games per slice of one chain step (bounds the step's temporaries to a few MB).
_SLICE = 1 << 17


@dataclass(frozen=True)
class Thresholds:
    """Threshold strategies of both players in the continuous game.

    Every threshold is the deciding player's own winning chance.

    Parameters
    ----------
    double_a, double_b : float
        A (B) offers the initial double (cube centred) as soon as his chance reaches
        this value; 1 means never. Must satisfy ``double_a + double_b > 1`` (else both
        would double at once).
    redouble_a, redouble_b : float or None
        A (B) redoubles, owning the cube, as soon as his chance reaches this value;
        None: the same as his doubling point. Must satisfy
        ``redouble_a + redouble_b > 1`` (else redoubles would never stop).
    take_a, take_b : float
        Takes a double iff his chance >= this value (0 always takes).
    beaver_a, beaver_b : float or None
        Beavers (takes and redoubles at once) iff his chance >= this value and the
        rules allow beavers; None never beavers. A beaver is a take.
    raccoon_a, raccoon_b : float or None
        After a beaver, the doubler raccoons iff his chance >= this value and the
        rules allow raccoons; None never.
    """

    double_a: float = DOUBLING_POINT
    double_b: float = DOUBLING_POINT
    redouble_a: float | None = None
    redouble_b: float | None = None
    take_a: float = TAKE_POINT
    take_b: float = TAKE_POINT
    beaver_a: float | None = None
    beaver_b: float | None = None
    raccoon_a: float | None = None
    raccoon_b: float | None = None

    def __post_init__(self) -> None:
        for name in ("double_a", "double_b"):
            real_in_range(name, getattr(self, name), 0.0, 1.0, low_open=True)
        for name in ("redouble_a", "redouble_b"):
            if getattr(self, name) is None:
                object.__setattr__(self, name, getattr(self, name.removeprefix("re")))
            real_in_range(name, getattr(self, name), 0.0, 1.0, low_open=True)
        for name in ("take_a", "take_b"):
            real_in_range(name, getattr(self, name), 0.0, 1.0)
        for name in ("beaver_a", "beaver_b", "raccoon_a", "raccoon_b"):
            if getattr(self, name) is not None:
                real_in_range(name, getattr(self, name), 0.0, 1.0)
        if self.double_a + self.double_b <= 1:
            raise ValueError("double_a + double_b must exceed 1 (else both double at once)")
        # Both redouble points are floats from here on (None took the double point).
        if cast(float, self.redouble_a) + cast(float, self.redouble_b) <= 1:
            raise ValueError("redouble_a + redouble_b must exceed 1 (else redoubles never stop)")


OPTIMAL = Thresholds()
"""Optimal play without beavers: double at 80%, take at 20%, [KS69] section 2."""

#: The parameters of the exact chain computations (:func:`exact_equity` and the two after it).
_chain_doc = fill_doc(
    chain_parameters="""
    Parameters
    ----------
    thresholds : Thresholds
        Both players' strategies.
    rules : Rules, optional
        Money-play rules (beavers, raccoons, Murphy). Default ``Rules()``.
    start : float
        A's winning chance at the start, in (0, 1).
    """
)


@dataclass(frozen=True)
class GameBatch:
    """Which games to simulate: how many, both strategies, the rules, the start, the seed.

    The one argument of :func:`simulate_games`, :func:`summarize_games` and
    :func:`simulate_games_fine`, checked once when it is made.

    Parameters
    ----------
    n_games : int
        Number of games, ``1 <= n_games <= MAX_GAMES``.
    thresholds : Thresholds
        Both players' strategies.
    rules : Rules, optional
        Money-play rules: beavers, raccoons and the Murphy rule (with its cap) act;
        Jacoby does not (the continuous game has no gammons). Default (None) ``Rules()``.
    start : float
        A's winning chance at the start, in (0, 1).
    seed : int
        Seed of the numpy Generator: same seed, same games.

    Examples
    --------
    >>> GameBatch(1_000, seed=7).rules == Rules()
    True
    """

    n_games: int
    thresholds: Thresholds = OPTIMAL
    rules: Rules = field(default_factory=Rules)
    start: float = 0.5
    seed: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "n_games", whole_number("n_games", self.n_games, 1, MAX_GAMES))
        if not isinstance(self.thresholds, Thresholds):
            raise ValueError("`thresholds` must be a Thresholds instance")
        rules = Rules() if self.rules is None else self.rules  # None: the default, as documented
        object.__setattr__(self, "rules", _check_rules(rules))
        start = real_in_range("start", self.start, 0.0, 1.0, low_open=True, high_open=True)
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "seed", whole_number("seed", self.seed))

    def generator(self) -> np.random.Generator:
        """A fresh numpy Generator seeded with :attr:`seed`."""
        return np.random.default_rng(self.seed)


@dataclass(frozen=True)
class PointsEstimate:
    """A Monte Carlo mean with its normal-approximation confidence interval."""

    mean: float
    std_error: float
    low: float
    high: float
    n_games: int
    confidence: float


@dataclass(frozen=True)
class TakeCheck:
    """Taker's value of taking vs dropping a double at ``double_point`` (K = 1)."""

    double_point: float
    drop_value: float
    take_value_exact: float
    take_estimate: PointsEstimate


@dataclass(frozen=True)
class DoublingPrice:
    """What A's doubling point costs against an optimal opponent (K = 1)."""

    double_point: float
    beavers: bool
    equity_exact: float
    equity_optimal: float
    loss_exact: float
    estimate: PointsEstimate


# --------------------------------------------------------------------------- paths


def _lattice_index(name: str, value: float, n: int) -> int:
    """``value * n`` as an int, or raise if ``value`` is off the lattice of step 1/n."""
    index = round(value * n)
    if abs(value * n - index) > 1e-9 * max(1, n):
        raise ValueError(f"`{name}` must be a multiple of step_size (1/{n})")
    return index


def _lattice_size(step_size: float, finest: int = MAX_LATTICE_SIZE) -> int:
    step_size = real_in_range("step_size", step_size, 1.0 / finest, 0.5)
    n = round(1 / step_size)
    if abs(n * step_size - 1) > 1e-9:
        raise ValueError(
            f"`step_size` must be 1/n for a whole number 2 <= n <= {finest} (got {step_size!r})"
        )
    return n


def p_game_path(
    start: float = 0.5, steps: int = 10_000, step_size: float = 0.01, seed: int = 0
) -> pd.DataFrame:
    """A random walk of the P-game indicator, absorbed at 0 and 1, for display.

    A simple symmetric walk of step ``h = step_size`` on the lattice ``{0, h, ..., 1}``:
    its hitting probabilities are exactly those of the [KS69] lemma eq. (2), and with
    time ``t = k h^2`` it converges to the Brownian motion of [KS69] section 1.

    Parameters
    ----------
    start : float
        Starting winning chance of A, a multiple of ``step_size`` in [0, 1].
    steps : int
        Maximum number of steps (the path stops earlier when absorbed),
        ``1 <= steps <= MAX_PATH_STEPS``.
    step_size : float
        ``1/n`` for a whole number ``2 <= n <= MAX_LATTICE_SIZE``.
    seed : int
        Seed of the numpy Generator.

    Returns
    -------
    pandas.DataFrame
        Columns ``step``, ``time`` (``step * h**2``) and ``p``.

    Notes
    -----
    ``start`` equal to 0 or 1 is already absorbed: the path has one row.

    Examples
    --------
    From 1/2 the expected absorption time is ``x (1 - x) = 1/4``:

    >>> path = p_game_path(0.5, steps=100_000, step_size=0.05, seed=1)
    >>> float(path["p"].iloc[-1]) in (0.0, 1.0)
    True
    """
    n = _lattice_size(step_size)
    start = real_in_range("start", start, 0.0, 1.0)
    steps = whole_number("steps", steps, 1, MAX_PATH_STEPS)
    position = _lattice_index("start", start, n)
    rng = np.random.default_rng(whole_number("seed", seed))
    walk = position + np.concatenate(([0], np.cumsum(rng.choice((-1, 1), size=steps))))
    absorbed = np.flatnonzero((walk <= 0) | (walk >= n))
    stop = int(absorbed[0]) if absorbed.size else steps
    walk = walk[: stop + 1]
    step = np.arange(walk.size)
    return pd.DataFrame({"step": step, "time": step * step_size**2, "p": walk / n})


# ------------------------------------------------------------------ decision rules


def _check_rules(rules: Rules) -> Rules:
    if not isinstance(rules, Rules):
        raise ValueError("`rules` must be a Rules instance")
    if not rules.money_play:
        raise ValueError("rules: the continuous-game simulation is money play (match_length None)")
    return rules


def _response(
    taker_chance: NDArray[np.float64] | float,
    take: float,
    beaver: float | None,
    raccoon: float | None,
    rules: Rules,
) -> NDArray[np.int64]:
    """Response code to a double: drop, take, beaver, or beaver answered by a raccoon.

    ``taker_chance`` is the taker's chance at the double; the doubler has the rest.
    """
    chance = np.asarray(taker_chance, dtype=float)
    code = np.where(chance >= take - _DECISION_TOLERANCE, _TAKE, _DROP)
    if rules.beavers and beaver is not None:
        beavered = chance >= beaver - _DECISION_TOLERANCE
        code = np.where(beavered, _BEAVER, code)
        if rules.raccoons and raccoon is not None:
            doubler_races = 1 - chance >= raccoon - _DECISION_TOLERANCE
            code = np.where(beavered & doubler_races, _RACCOON, code)
    return code


_EXTRA_DOUBLINGS = np.array([1, 0, 2, 3])  # log2 of the stake factor per response code


def _murphy_exponents(rules: Rules, rng: np.random.Generator, n: int) -> NDArray[np.int64]:
    """Automatic doubles per game: opening ties, each with chance 1/6, up to the cap."""
    if not rules.murphy:
        return np.zeros(n, dtype=np.int64)
    ties = rng.geometric(1 - OPENING_TIE_PROBABILITY, size=n) - 1
    if rules.murphy_cap is not None:
        ties = np.minimum(ties, rules.murphy_cap)
    return ties.astype(np.int64)


def _murphy_distribution(rules: Rules) -> dict[int, float]:
    """P(k automatic doubles): (1/6)^k (5/6), the cap taking the tail mass."""
    if not rules.murphy:
        return {0: 1.0}
    q = OPENING_TIE_PROBABILITY
    cap = rules.murphy_cap
    probabilities: dict[int, float] = {}
    k = 0
    while True:
        if cap is not None and k == cap:
            probabilities[k] = q**k
            return probabilities
        probabilities[k] = q**k * (1 - q)
        if q ** (k + 1) < _TAIL_TOLERANCE:
            return probabilities
        k += 1


class _Tally:
    """Per-game arrays shared by the chain and the fine-walk simulators."""

    # Narrow integer types: a million games hold 20 MB here instead of 57 MB. The
    # counts stay far inside them (a game has a few dozen cube events at most).
    def __init__(self, n: int, rules: Rules, rng: np.random.Generator) -> None:
        self.automatic = _murphy_exponents(rules, rng, n).astype(np.int16)
        # int32: a game of many thousand beavered redoubles must not wrap around
        self.exponent = self.automatic.astype(np.int32)
        self.doubles = np.zeros(n, dtype=np.int32)
        self.beavers = np.zeros(n, dtype=np.int32)
        self.raccoons = np.zeros(n, dtype=np.int32)
        self.owner = np.full(n, _CENTER, dtype=np.int8)
        self.winner = np.zeros(n, dtype=np.int8)  # +1 A, -1 B, 0 undecided
        self.dropped = np.zeros(n, dtype=bool)

    def double(self, games: NDArray[np.int64], doubler_a: bool, code: NDArray[np.int64]) -> None:
        """Apply the responses ``code`` to doubles by A (or B) in ``games``."""
        self.doubles[games] += 1
        drop = code == _DROP
        self.winner[games[drop]] = 1 if doubler_a else -1
        self.dropped[games[drop]] = True
        kept = games[~drop]
        kept_code = code[~drop]
        self.exponent[kept] += _EXTRA_DOUBLINGS[kept_code]
        self.beavers[kept] += kept_code >= _BEAVER
        self.raccoons[kept] += kept_code == _RACCOON
        self.owner[kept] = _OWNER_B if doubler_a else _OWNER_A

    def cube_values(self) -> NDArray[np.float64]:
        """The final stake of each game, ``2 ** exponent`` (``inf`` beyond 2^1023)."""
        with np.errstate(over="ignore"):
            return np.ldexp(1.0, self.exponent)

    def points(self) -> NDArray[np.float64]:
        """A's signed points per game."""
        return self.winner * self.cube_values()

    def frame(self) -> pd.DataFrame:
        n = self.winner.size
        value = self.cube_values()
        # The text columns go through two-category codes (1 byte per game), not
        # fixed-width numpy strings (40 MB for a million games).
        winner = pd.Categorical.from_codes((self.winner > 0).astype(np.int8), pd.Index(["B", "A"]))
        ending = pd.Categorical.from_codes(
            self.dropped.astype(np.int8), pd.Index(["played_out", "drop"])
        )
        return pd.DataFrame(
            {
                "game": np.arange(n),
                "automatic_doubles": self.automatic.astype(np.int64),
                "doubles": self.doubles.astype(np.int64),
                "beavers": self.beavers.astype(np.int64),
                "raccoons": self.raccoons.astype(np.int64),
                "cube_value": value,
                "winner": winner.astype("str"),
                "ending": ending.astype("str"),
                "points_a": self.winner * value,
            },
            copy=False,
        )


def _stopping_points(thresholds: Thresholds, scale: float = 1.0) -> tuple[float, ...]:
    """A's and B's stopping points in A's chance: (up_centre, lo_centre, up_own, lo_own).

    ``up`` is where A doubles (``scale`` = A wins if he never does), ``lo`` where B
    doubles (0 = B wins if he never does); ``scale`` is 1, or ``n`` on a lattice.
    """
    t = thresholds
    return (
        t.double_a * scale,
        (1 - t.double_b) * scale,
        cast(float, t.redouble_a) * scale,  # never None after Thresholds.__post_init__
        (1 - cast(float, t.redouble_b)) * scale,
    )


def _bounds(
    owner: NDArray[np.integer[Any]], points: tuple[float, ...], top: float = 1.0
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Next upper and lower stopping points of each game given the cube owner.

    A can double when the cube is centred or his, B likewise; ``top`` is A's win.
    """
    up_centre, lo_centre, up_own, lo_own = points
    upper = np.where(owner == _OWNER_B, top, np.where(owner == _OWNER_A, up_own, up_centre))
    lower = np.where(owner == _OWNER_A, 0, np.where(owner == _OWNER_B, lo_own, lo_centre))
    return upper, lower


@dataclass(frozen=True)
class _TimeBudget:
    """A simulation's wall-time budget: its seconds and the clock reading that ends it."""

    seconds: float | None
    deadline: float | None

    @classmethod
    def start(cls, time_budget: float | None) -> _TimeBudget:
        """The budget checked, its clock started now (no deadline when None)."""
        if time_budget is None:
            return cls(None, None)
        seconds = real_in_range("time_budget", time_budget, 0.0, MAX_TIME_BUDGET, low_open=True)
        return cls(seconds, time.monotonic() + seconds)

    def check(self, left: int, n: int) -> None:
        """Stop a simulation that has run past its budget (never a partial result)."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise ValueError(
                f"the simulation ran past its `time_budget` of {self.seconds:g} s with "
                f"{left:,} of {n:,} games unfinished; simulate fewer games"
            )


def _decide(
    tally: _Tally,
    games: NDArray[np.int64],
    p: NDArray[np.float64],
    at_upper: NDArray[np.bool_],
    thresholds: Thresholds,
    rules: Rules,
) -> None:
    """Settle games whose walk stopped at ``p`` (upper or lower stopping point)."""
    win_a = at_upper & (p >= 1)
    win_b = ~at_upper & (p <= 0)
    tally.winner[games[win_a]] = 1
    tally.winner[games[win_b]] = -1
    double_a = at_upper & ~win_a
    double_b = ~at_upper & ~win_b
    if np.any(double_a):
        t = thresholds
        code = _response(1 - p[double_a], t.take_b, t.beaver_b, t.raccoon_a, rules)
        tally.double(games[double_a], True, code)
    if np.any(double_b):
        t = thresholds
        code = _response(p[double_b], t.take_a, t.beaver_a, t.raccoon_b, rules)
        tally.double(games[double_b], False, code)


def simulate_games(batch: GameBatch, *, time_budget: float | None = None) -> pd.DataFrame:
    """Whole continuous games with the cube under threshold strategies.

    Simulates the embedded chain of threshold hits, exact for Brownian motion by the
    [KS69] lemma eq. (2): from ``x`` with the next stopping points ``lo < x < hi``
    the walk stops at ``hi`` with probability ``(x - lo) / (hi - lo)``. Vectorized
    over games; one uniform draw per game per cube event.

    Parameters
    ----------
    batch : GameBatch
        How many games, both players' strategies, the rules, the start and the seed
        (same seed, identical DataFrame).
    time_budget : float, optional
        Wall time allowed, in (0, ``MAX_TIME_BUDGET``] seconds; past it the simulation
        stops with a ``ValueError`` (never a partial result, so whatever returns
        depends only on the arguments). Default None: no budget.

    Returns
    -------
    pandas.DataFrame
        One row per game, columns :data:`GAME_COLUMNS`: automatic doubles, doubles
        offered, beavers, raccoons, final ``cube_value`` (the stake settled, also for
        a dropped double), ``winner`` (``"A"``/``"B"``), ``ending`` (``"drop"`` or
        ``"played_out"``) and ``points_a`` (A's signed result).

    Notes
    -----
    If ``start`` is at or beyond a player's doubling point he doubles at once, at
    ``start``; afterwards doubles happen exactly at the doubling points. The
    Murphy rule doubles the initial stake once per opening tie (chance 1/6 each),
    up to ``murphy_cap``. Decisions at a double use the taker's chance there.

    Examples
    --------
    Optimal play (double at 80%, take at 20%) is fair from 1/2:

    >>> games = simulate_games(GameBatch(200_000, seed=1))
    >>> abs(mean_points(games).mean) < 0.02
    True
    """
    return _play_batch(batch, time_budget).frame()


def _play_batch(batch: GameBatch, time_budget: float | None) -> _Tally:
    """:func:`_play_chain` on a batch's games, from the cube in the centre."""
    if not isinstance(batch, GameBatch):
        raise ValueError("`batch` must be a GameBatch instance")
    return _play_chain(
        batch.n_games,
        batch.thresholds,
        batch.rules,
        batch.start,
        batch.generator(),
        time_budget=time_budget,
    )


def _play_chain(
    n: int,
    thresholds: Thresholds,
    rules: Rules,
    start: float,
    rng: np.random.Generator,
    owner: int = _CENTER,
    *,
    time_budget: float | None = None,
) -> _Tally:
    """The embedded chain of :func:`simulate_games`, played to the end of every game.

    ``owner`` is the cube's position at the start. Each step handles the unfinished
    games in slices of :data:`_SLICE` (the uniforms drawn slice after slice are the
    same stream as one draw for all), so the step's temporary arrays stay small
    however many games there are.
    """
    budget = _TimeBudget.start(time_budget)
    points = _stopping_points(thresholds)
    tally = _Tally(n, rules, rng)
    tally.owner[:] = owner
    p = np.full(n, start)
    active = np.arange(n)
    for _ in range(_MAX_CHAIN_EVENTS):
        if active.size == 0:
            break
        budget.check(active.size, n)
        for first in range(0, active.size, _SLICE):
            games = active[first : first + _SLICE]
            x = p[games]
            upper, lower = _bounds(tally.owner[games], points)
            inside = (x < upper) & (x > lower)
            gap = np.where(inside, upper - lower, 1.0)
            uniform = rng.random(games.size)
            at_upper = np.where(inside, uniform * gap < x - lower, x >= upper)  # [KS69] eq. (2)
            stop = np.where(inside, np.where(at_upper, upper, lower), x)
            p[games] = stop
            _decide(tally, games, stop, at_upper, thresholds, rules)
        active = active[tally.winner[active] == 0]
    else:  # pragma: no cover - probability below 1e-300 for any valid thresholds
        raise RuntimeError("simulation did not finish")
    return tally


@dataclass(frozen=True, eq=False)  # holds a DataFrame: compare the fields
class GamesSummary:
    """Simulated games summarised: what the cube-value table and the mean need.

    Attributes
    ----------
    n_games : int
        Number of games.
    cube_values : pandas.DataFrame
        As :func:`cube_value_distribution`: ``cube_value``, ``games``, ``fraction``,
        ``std_error``.
    points : PointsEstimate
        As :func:`mean_points` (95% interval).
    beavers, raccoons, drops : int
        Beavers and raccoons seen, and games that ended in a dropped double.
    """

    n_games: int
    cube_values: pd.DataFrame
    points: PointsEstimate
    beavers: int
    raccoons: int
    drops: int

    @classmethod
    def of(cls, games: pd.DataFrame) -> GamesSummary:
        """The summary of a table of games (:func:`simulate_games` or the fine walk)."""
        _check_games(games)
        return cls(
            n_games=len(games),
            cube_values=cube_value_distribution(games),
            points=mean_points(games),
            beavers=int(games["beavers"].sum()),
            raccoons=int(games["raccoons"].sum()),
            drops=int((games["ending"] == "drop").sum()),
        )


def summarize_games(batch: GameBatch, *, time_budget: float | None = None) -> GamesSummary:
    """:func:`simulate_games`, summarised without building its table of games.

    The same games (same arguments, same seed) and the same numbers as
    ``cube_value_distribution``, ``mean_points`` and the column sums of
    :func:`simulate_games`' table, in a fraction of the memory: a million games
    need about 50 MB here and 140 MB for the table. ``time_budget`` as there.

    Examples
    --------
    >>> summary = summarize_games(GameBatch(20_000, seed=3))
    >>> games = simulate_games(GameBatch(20_000, seed=3))
    >>> summary.points == mean_points(games)
    True
    >>> of_table = GamesSummary.of(games)
    >>> summary.cube_values.equals(of_table.cube_values)
    True
    >>> (summary.beavers, summary.drops) == (of_table.beavers, of_table.drops)
    True
    """
    tally = _play_batch(batch, time_budget)
    return GamesSummary(
        n_games=batch.n_games,
        cube_values=_distribution(tally.exponent),
        points=_estimate(tally.points()),
        beavers=int(tally.beavers.sum()),
        raccoons=int(tally.raccoons.sum()),
        drops=int(tally.dropped.sum()),
    )


def summarize_games_fine(
    batch: GameBatch, step_size: float = 0.05, *, time_budget: float | None = None
) -> GamesSummary:
    """:func:`simulate_games_fine`, summarised (:meth:`GamesSummary.of`): the fine walk's
    games as one small result, for a caller that wants the summary alone (one call
    whose result crosses a process boundary, ``ui.simulation``). Arguments as there.

    Examples
    --------
    >>> batch = GameBatch(500, seed=3)
    >>> summary = summarize_games_fine(batch, 0.1)
    >>> of_table = GamesSummary.of(simulate_games_fine(batch, 0.1))
    >>> summary.points == of_table.points and summary.cube_values.equals(of_table.cube_values)
    True
    """
    return GamesSummary.of(simulate_games_fine(batch, step_size, time_budget=time_budget))


def simulate_games_fine(
    batch: GameBatch, step_size: float = 0.05, *, time_budget: float | None = None
) -> pd.DataFrame:
    """The same games as :func:`simulate_games`, walking the indicator step by step.

    A simple symmetric walk of step ``h`` on the lattice ``{0, h, ..., 1}``; all
    thresholds and ``start`` must lie on the lattice (a discrete harmonic function
    is linear, so the hitting probabilities are exactly the [KS69] lemma's and the
    two simulators agree in distribution). Slow: about ``x(1-x)/h^2`` steps per
    game; for checking the chain.

    Parameters
    ----------
    batch, time_budget
        As for :func:`simulate_games`.
    step_size : float
        ``1/n`` for a whole number ``2 <= n <= MAX_FINE_LATTICE_SIZE`` (its cost there).

    Returns
    -------
    pandas.DataFrame
        As :func:`simulate_games`.

    Examples
    --------
    B drops A's doubles at 80% when he takes only at 30% or more:

    >>> games = simulate_games_fine(GameBatch(2_000, Thresholds(take_b=0.3), seed=3), 0.05)
    >>> sorted(set(games["ending"]))
    ['drop', 'played_out']
    """
    if not isinstance(batch, GameBatch):
        raise ValueError("`batch` must be a GameBatch instance")
    n_games, thresholds, rules, rng = (
        batch.n_games,
        batch.thresholds,
        batch.rules,
        batch.generator(),
    )
    n = _lattice_size(step_size, MAX_FINE_LATTICE_SIZE)
    for name in ("double_a", "double_b", "redouble_a", "redouble_b"):
        _lattice_index(name, getattr(thresholds, name), n)
    points = tuple(round(point) for point in _stopping_points(thresholds, n))
    position = np.full(n_games, _lattice_index("start", batch.start, n), dtype=np.int64)
    budget = _TimeBudget.start(time_budget)
    tally = _Tally(n_games, rules, rng)
    active = np.arange(n_games)
    while active.size:
        budget.check(active.size, n_games)
        x = position[active]
        upper, lower = _bounds(tally.owner[active], points, top=n)
        hit = (x >= upper) | (x <= lower)
        if np.any(hit):
            games = active[hit]
            _decide(tally, games, x[hit] / n, x[hit] >= upper[hit], thresholds, rules)
            still = tally.winner[active] == 0
            active, x, hit = active[still], x[still], hit[still]
        moving = active[~hit]
        position[moving] += rng.choice((-1, 1), size=moving.size)
    return tally.frame()


# ------------------------------------------------------------------------ summaries


def cube_value_distribution(games: pd.DataFrame) -> pd.DataFrame:
    """Distribution of the final cube value in simulated games.

    Returns
    -------
    pandas.DataFrame
        Columns ``cube_value``, ``exponent`` (``log2`` of the cube value, exact also
        where the value is beyond float range and ``cube_value`` is ``inf``), ``games``,
        ``fraction`` and ``std_error`` (binomial ``sqrt(f (1 - f) / n)``), sorted by
        value.

    Examples
    --------
    >>> games = simulate_games(GameBatch(1_000, seed=0))
    >>> float(cube_value_distribution(games)["fraction"].sum())
    1.0
    """
    _check_games(games)
    # each taken double adds one doubling, a beaver one more, a raccoon one more; only
    # a game's last double can be dropped
    taken = games["doubles"].to_numpy(dtype=np.int64) - (games["ending"] == "drop").to_numpy()
    exponent = (
        games["automatic_doubles"].to_numpy(dtype=np.int64)
        + taken
        + games["beavers"].to_numpy(dtype=np.int64)
        + games["raccoons"].to_numpy(dtype=np.int64)
    )
    return _distribution(exponent)


def _stakes(exponents: NDArray[np.integer[Any]]) -> NDArray[np.float64]:
    """``2 ** exponents`` as floats, ``inf`` beyond float range (without a warning)."""
    with np.errstate(over="ignore"):
        return np.ldexp(1.0, np.asarray(exponents, dtype=np.int64))


def _distribution(exponents: NDArray[np.integer[Any]]) -> pd.DataFrame:
    values, counts = np.unique(exponents, return_counts=True)
    n = exponents.size
    fraction = counts / n
    return pd.DataFrame(
        {
            "cube_value": _stakes(values),
            "exponent": values.astype(np.int64),
            "games": counts.astype(np.int64),
            "fraction": fraction,
            "std_error": np.sqrt(fraction * (1 - fraction) / n),
        }
    )


def compare_cube_distribution(
    games: pd.DataFrame | GamesSummary, theory: pd.DataFrame
) -> pd.DataFrame:
    """Simulated final cube values beside the theoretical distribution.

    Parameters
    ----------
    games : pandas.DataFrame or GamesSummary
        Per-game results from :func:`simulate_games` (or the fine walk), or their
        summary from :func:`summarize_games`.
    theory : pandas.DataFrame
        From :func:`theoretical_cube_distribution` for the same strategies.

    Returns
    -------
    pandas.DataFrame
        One row per cube value seen in either: ``cube_value``, ``exponent``
        (``log2`` of the cube value; rows are matched on it, so values beyond float
        range stay apart), ``games``, ``fraction``, ``probability``, ``std_error``
        (binomial, under the theory: ``sqrt(p (1 - p) / n)``) and ``z``
        (``(fraction - probability) / std_error``, NaN where the theory gives 0 or 1).

    Examples
    --------
    >>> games = simulate_games(GameBatch(20_000, seed=0))
    >>> table = compare_cube_distribution(games, theoretical_cube_distribution())
    >>> bool(table["z"].abs().max() < 4)
    True
    """
    if isinstance(games, GamesSummary):
        n, simulated = games.n_games, games.cube_values
    else:
        _check_games(games)
        n, simulated = len(games), cube_value_distribution(games)
    if not isinstance(theory, pd.DataFrame) or not {
        "cube_value",
        "exponent",
        "probability",
    } <= set(theory.columns):
        raise ValueError("`theory` must be a DataFrame from theoretical_cube_distribution")
    simulated = simulated[["exponent", "games", "fraction"]]
    table = simulated.merge(theory[["exponent", "probability"]], on="exponent", how="outer")
    table = table.fillna({"games": 0, "fraction": 0.0, "probability": 0.0})
    table["games"] = table["games"].astype(np.int64)
    table.insert(0, "cube_value", _stakes(table["exponent"].to_numpy()))
    p = table["probability"].to_numpy()
    std_error = np.sqrt(p * (1 - p) / n)
    table["std_error"] = std_error
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (table["fraction"].to_numpy() - p) / std_error
    table["z"] = np.where(std_error > 0, z, np.nan)
    return table.sort_values("exponent", ignore_index=True)


def _check_games(games: pd.DataFrame) -> None:
    if not isinstance(games, pd.DataFrame) or not set(GAME_COLUMNS) <= set(games.columns):
        raise ValueError("`games` must be a DataFrame from simulate_games")
    if len(games) == 0:
        raise ValueError("`games` must hold at least one game")


def mean_points(games: pd.DataFrame, confidence: float = 0.95) -> PointsEstimate:
    r"""A's mean points per game with a normal-approximation confidence interval.

    :math:`\bar{x} \pm z_{(1+c)/2}\, s / \sqrt{n}`.

    Notes
    -----
    At 80%/20% play the stake has tail :math:`P(V \ge 2^k) \propto 4^{-k}`, so the
    points have infinite variance; the mean is finite and the self-normalized
    mean is still asymptotically normal (the stake is in the domain of attraction
    of the normal law), so the interval holds asymptotically but converges slowly.
    With beavers and raccoons the mean itself can fail to exist; then see
    :func:`exact_equity` (NaN). One game gives a zero-width interval.

    Examples
    --------
    >>> estimate = mean_points(simulate_games(GameBatch(100_000, seed=2)))
    >>> estimate.low < 0 < estimate.high
    True
    """
    _check_games(games)
    confidence = real_in_range("confidence", confidence, 0.0, 1.0, low_open=True, high_open=True)
    if (1 + confidence) / 2 >= 1.0:  # within half an ulp of 1: the quantile is infinite
        raise ValueError(
            f"`confidence` must be below 1 - 2**-53 for a finite interval (got {confidence!r})"
        )
    return _estimate(games["points_a"].to_numpy(dtype=float), confidence)


def _estimate(values: NDArray[np.float64], confidence: float = 0.95) -> PointsEstimate:
    n = values.size
    with np.errstate(over="ignore", invalid="ignore"):  # stakes beyond float range: inf, NaN
        mean = float(values.mean())
        std_error = float(values.std(ddof=1) / math.sqrt(n)) if n > 1 else 0.0
    z = NormalDist().inv_cdf((1 + confidence) / 2)
    return PointsEstimate(
        mean, std_error, mean - z * std_error, mean + z * std_error, n, confidence
    )


# -------------------------------------------------------------------------- theory


class _Profile:
    """Deterministic cube decisions and the values of a threshold profile (theory).

    Values are A's equity per unit of stake. ``g_a``/``g_b`` are the values as A
    (B) redoubles at his redoubling point, solved from two linear equations.
    """

    def __init__(self, thresholds: Thresholds, rules: Rules) -> None:
        if not isinstance(thresholds, Thresholds):
            raise ValueError("`thresholds` must be a Thresholds instance")
        self.thresholds = thresholds
        self.rules = _check_rules(rules)
        self.up_centre, self.lo_centre, self.up_own, self.lo_own = _stopping_points(thresholds)
        self.g_a, self.g_b = self._redouble_values()

    def response_to_a(self, p: float) -> int:
        """B's response when A doubles at A's chance ``p``."""
        t = self.thresholds
        return int(_response(1 - p, t.take_b, t.beaver_b, t.raccoon_a, self.rules))

    def response_to_b(self, p: float) -> int:
        """A's response when B doubles at A's chance ``p``."""
        t = self.thresholds
        return int(_response(p, t.take_a, t.beaver_a, t.raccoon_b, self.rules))

    def _redouble_values(self) -> tuple[float, float]:
        up, lo = self.up_own, self.lo_own
        a_fixed = up >= 1 or self.response_to_a(up) == _DROP  # A wins (or B drops) at u: +1
        b_fixed = lo <= 0 or self.response_to_b(lo) == _DROP  # B wins (or A drops) at l: -1
        m_a = 0 if a_fixed else _stake_factor(self.response_to_a(up))
        m_b = 0 if b_fixed else _stake_factor(self.response_to_b(lo))
        q_b, q_a = (1 - up) / (1 - lo), lo / up  # chances of the next redouble, [KS69] (2)
        # g_A = m_A [(1 - q_B) + q_B g_B];  g_B = m_B [q_A g_A - (1 - q_A)]
        if a_fixed and b_fixed:
            return 1.0, -1.0
        if a_fixed:
            return 1.0, m_b * (q_a - (1 - q_a))
        if b_fixed:
            return m_a * ((1 - q_b) - q_b), -1.0
        det = 1 - m_a * m_b * q_b * q_a
        if det <= _DIVERGENCE_TOLERANCE:  # the stake grows faster than games end
            return math.nan, math.nan
        g_a = (m_a * (1 - q_b) - m_a * m_b * q_b * (1 - q_a)) / det
        return g_a, m_b * (q_a * g_a - (1 - q_a))

    def owned_by_a(self, x: float) -> float:
        """Value with the cube on A's side at ``x`` (A redoubles at ``up_own``)."""
        if x >= self.up_own:  # immediate redouble
            return self.a_doubles_at(x)
        return x / self.up_own * self.g_a - (1 - x / self.up_own)

    def owned_by_b(self, x: float) -> float:
        """Value with the cube on B's side at ``x`` (B redoubles at ``lo_own``)."""
        if x <= self.lo_own:  # immediate redouble
            return self.b_doubles_at(x)
        lo = self.lo_own
        return (x - lo) / (1 - lo) + (1 - x) / (1 - lo) * self.g_b

    def a_doubles_at(self, x: float) -> float:
        """Value as A doubles at ``x`` (A wins if ``x >= 1``)."""
        if x >= 1:
            return 1.0
        code = self.response_to_a(x)
        return 1.0 if code == _DROP else _stake_factor(code) * self.owned_by_b(x)

    def b_doubles_at(self, x: float) -> float:
        """Value as B doubles at ``x`` (B wins if ``x <= 0``)."""
        if x <= 0:
            return -1.0
        code = self.response_to_b(x)
        return -1.0 if code == _DROP else _stake_factor(code) * self.owned_by_a(x)

    def centred(self, x: float) -> float:
        """Value with the cube centred at ``x``."""
        up, lo = self.up_centre, self.lo_centre
        if x >= up:
            return self.a_doubles_at(x)
        if x <= lo:
            return self.b_doubles_at(x)
        to_up = (x - lo) / (up - lo)  # [KS69] eq. (2)
        return to_up * self.a_doubles_at(up) + (1 - to_up) * self.b_doubles_at(lo)


def _stake_factor(code: int) -> int:
    return int(2 ** int(_EXTRA_DOUBLINGS[code]))  # int ** int is typed Any


def _murphy_mean_stake(rules: Rules) -> float:
    """E[2^k] over the automatic doubles k (5/4 uncapped)."""
    if not rules.murphy:
        return 1.0
    q = OPENING_TIE_PROBABILITY
    if rules.murphy_cap is None:
        return (1 - q) / (1 - 2 * q)
    cap = rules.murphy_cap
    return sum((2 * q) ** k * (1 - q) for k in range(cap)) + (2 * q) ** cap


def murphy_stake_distribution(rules: Rules | None = None) -> pd.DataFrame:
    """Distribution of the stake at the start of play under the Murphy rule.

    Each opening tie (chance 1/6) doubles the centred cube, up to the agreed cap
    [RULES]: ``P(k) = (1/6)^k (5/6)`` for ``k`` below the cap, and the cap takes the
    remaining ``(1/6)^cap``.

    Parameters
    ----------
    rules : Rules, optional
        The rule set; without the Murphy rule the stake is 1 for sure.

    Returns
    -------
    pandas.DataFrame
        Columns ``automatic_doubles``, ``stake`` (``2**k``) and ``probability``; an
        uncapped rule is followed until the tail is below 1e-15.

    Examples
    --------
    >>> dist = murphy_stake_distribution(Rules(murphy=True, murphy_cap=1))
    >>> dist["probability"].round(6).tolist()
    [0.833333, 0.166667]
    """
    rules = _check_rules(Rules() if rules is None else rules)
    probabilities = _murphy_distribution(rules)
    k = np.array(sorted(probabilities), dtype=np.int64)
    return pd.DataFrame(
        {
            "automatic_doubles": k,
            "stake": np.ldexp(1.0, k),
            "probability": [probabilities[int(i)] for i in k],
        }
    )


def murphy_mean_stake(rules: Rules | None = None) -> float:
    """Expected starting stake ``E[2^k]`` under the Murphy rule (5/4 uncapped).

    Every cube decision scales with the stake, so the Murphy rule multiplies the
    expected result of any strategy by this factor and changes no decision.

    Notes
    -----
    Uncapped, ``E[2^k] = sum (2/6)^k (5/6) = (5/6) / (1 - 2/6) = 5/4``; with cap
    ``c``, ``sum_{k<c} (2/6)^k (5/6) + (2/6)^c``.

    Examples
    --------
    >>> murphy_mean_stake(Rules(murphy=True))
    1.25
    >>> murphy_mean_stake(Rules())
    1.0
    """
    rules = _check_rules(Rules() if rules is None else rules)
    return float(round(_murphy_mean_stake(rules), 15))


#: Most Murphy caps :func:`murphy_cap_table` tabulates at once.
MAX_MURPHY_CAPS = 64


def murphy_cap_table(caps: Sequence[int | None]) -> pd.DataFrame:
    """The starting stake under the Murphy rule for each cap: its mean and its tail.

    For each cap (``None``: no cap) the rule set ``Rules(murphy=True, murphy_cap=cap)``
    gives the distribution of the starting stake (:func:`murphy_stake_distribution`,
    [RULES]); this tabulates its mean (:func:`murphy_mean_stake`), the chance that play
    starts above 1 (at least one opening tie) and at 4 or more (two ties).

    Parameters
    ----------
    caps : sequence of int or None
        Caps of at least 1, or None, at most :data:`MAX_MURPHY_CAPS` of them.

    Returns
    -------
    pandas.DataFrame
        Columns ``cap`` (int, or None for no cap), ``mean_stake``, ``p_above_1``,
        ``p_at_least_4``.

    Raises
    ------
    ValueError
        If there are too many caps or a cap is not a whole number of at least 1.

    Examples
    --------
    >>> table = murphy_cap_table([1, None])
    >>> table["mean_stake"].round(6).tolist(), table["p_above_1"].round(6).tolist()
    ([1.166667, 1.25], [0.166667, 0.166667])
    """
    if isinstance(caps, (str, bytes)) or not isinstance(caps, Iterable):
        raise ValueError(f"`caps` must be a sequence of whole numbers or None (got {caps!r})")
    caps = list(caps)
    if len(caps) > MAX_MURPHY_CAPS:
        raise ValueError(f"`caps` must hold at most {MAX_MURPHY_CAPS} caps (got {len(caps)})")
    rows = []
    for cap in caps:
        rules = Rules(
            murphy=True,
            murphy_cap=None if cap is None else whole_number("caps", cap, 1, MAX_MURPHY_CAP),
        )
        dist = murphy_stake_distribution(rules)
        rows.append(
            {
                "cap": cap,
                "mean_stake": murphy_mean_stake(rules),
                "p_above_1": float(dist.loc[dist["stake"] > 1, "probability"].sum()),
                "p_at_least_4": float(dist.loc[dist["stake"] >= 4, "probability"].sum()),
            }
        )
    frame = pd.DataFrame(rows, columns=["cap", "mean_stake", "p_above_1", "p_at_least_4"])
    frame["cap"] = pd.Series(caps, dtype=object)  # whole numbers and None, not floats and NaN
    return frame


@_chain_doc
def exact_equity(
    thresholds: Thresholds = OPTIMAL, rules: Rules | None = None, start: float = 0.5
) -> float:
    r"""A's exact expected points per game under threshold strategies (initial stake 1).

    With ``u`` = A's redoubling point and ``l`` = 1 - B's, the [KS69] lemma gives, per
    unit of stake, ``E_A(x) = (x/u) g_A - (1 - x/u)`` with the cube on A's side,
    ``E_B(x) = (x - l)/(1 - l) + (1 - x)/(1 - l) g_B`` on B's side, and with the
    cube centred ``(x - l')/(u' - l') G_A(u') + (u' - x)/(u' - l') G_B(l')`` with
    the initial doubling points ``u', l'``. A double is worth ``+1`` if dropped and
    ``m E_B`` (``m E_A``) if taken, ``m`` = 2, 4 after a beaver, 8 after a raccoon;
    at the redoubling points this gives two linear equations in ``g_A, g_B``
    ([KS69] eqs. (1)-(3) generalized).

    {chain_parameters}

    Returns
    -------
    float
        A's expected points; NaN when the expectation does not exist.

    Notes
    -----
    If both sides take redoubles, the stake grows by ``m_A m_B`` per round trip,
    which happens with probability ``q_A q_B`` (``q_B = (1-u)/(1-l)``,
    ``q_A = l/u``); when ``m_A m_B q_A q_B >= 1`` (within 1e-9, so that decimal
    thresholds such as 1 - 0.8 are not misread) the series diverges and NaN is
    returned: e.g. A redoubling at 50% against B's 80% (``4 q_A q_B = 1``), or any
    beavered redouble at or below 60%. A chance at or beyond a doubling point means
    an immediate double there. The Murphy rule multiplies by
    ``E[2^k] = (5/6) / (1 - 2/6) = 5/4`` uncapped.

    Examples
    --------
    [KS69] section 2: at 80% the taker is indifferent, so a double at 80% is worth
    exactly what a drop is, +1:

    >>> round(exact_equity(start=0.8), 12)
    1.0
    """
    rules = Rules() if rules is None else rules
    start = real_in_range("start", start, 0.0, 1.0, low_open=True, high_open=True)
    return _Profile(thresholds, rules).centred(start) * _murphy_mean_stake(rules)


@_chain_doc
def theoretical_cube_distribution(
    thresholds: Thresholds = OPTIMAL, rules: Rules | None = None, start: float = 0.5
) -> pd.DataFrame:
    """Exact distribution of the final cube value under threshold strategies.

    By the [KS69] lemma the first cube event is A's double with probability
    ``(x - l)/(u - l)``; after an accepted double by A at ``p`` (``u`` or the
    start) B redoubles before the game ends with probability ``(1 - p)/(1 - l)``,
    and after B's at ``l`` A redoubles with probability ``l/u``. At 80%/20% both are
    1/4: the stake passes 4 with probability 1/16 of the games whose first double
    is taken, which is why "the game is rarely redoubled beyond four times the
    original stake" [RULES].

    {chain_parameters}

    Returns
    -------
    pandas.DataFrame
        Columns ``cube_value``, ``exponent`` (``log2`` of the cube value: exact
        where the value is beyond float range and ``cube_value`` is ``inf``) and
        ``probability``. The chain is followed until less than 1e-15 of the
        probability is still in play; that mass is left out and reported in
        ``attrs["tail_probability"]``.

    Notes
    -----
    A dropped double settles at the undoubled stake. Decisions at a threshold are
    deterministic, so the only randomness is the order of threshold hits (and the
    Murphy ties, each with probability 1/6).

    Examples
    --------
    Optimal play from 1/2: the first double (at 80% or 20%) always comes and is
    taken, and it is redoubled with probability 1/4 [KS69] section 2, so the cube
    ends at 2 with probability 3/4:

    >>> dist = theoretical_cube_distribution()
    >>> round(float(dist.loc[dist.cube_value == 2, "probability"].iloc[0]), 12)
    0.75
    """
    rules = Rules() if rules is None else rules
    start = real_in_range("start", start, 0.0, 1.0, low_open=True, high_open=True)
    final, tail, _ = _follow_chain(_Profile(thresholds, rules), rules, start)
    exponents = sorted(final)
    frame = pd.DataFrame(
        {
            "cube_value": _stakes(np.array(exponents, dtype=np.int64)),
            "exponent": np.array(exponents, dtype=np.int64),
            "probability": [final[k] for k in exponents],
        }
    )
    frame.attrs["tail_probability"] = tail
    return frame


@_chain_doc
def expected_stops(
    thresholds: Thresholds = OPTIMAL, rules: Rules | None = None, start: float = 0.5
) -> float:
    r"""Expected number of threshold hits in a game: cube decisions and the game's end.

    The embedded chain of :func:`simulate_games` moves every game from one stopping
    point to the next ([KS69] lemma, eq. (2)); this is the expected number of its
    steps per game, so ``n_games * expected_stops`` is the simulation's work. With
    the redoubling points ``u`` (A) and ``l`` (B) a taken redouble comes back with
    probability ``q_A q_B = (l / u) ((1 - u) / (1 - l))`` per round trip: as ``u``
    and ``l`` close in on each other the games almost never end, and the count grows
    like ``2 / (1 - q_A q_B)``.

    {chain_parameters}

    Returns
    -------
    float
        Expected stops per game (at least 1), the chain followed as in
        :func:`theoretical_cube_distribution`.

    References
    ----------
    [KS69] E. Keeler and J. Spencer, "Proper raising points in a generalization of
    backgammon", RAND Corporation paper P-4078, 1969, section 1 (the lemma, eq. (2)).
    https://www.rand.org/pubs/papers/P4078.html

    Examples
    --------
    Optimal play from 1/2: the first double always comes, the game then ends or is
    redoubled with probability 1/4 each time, so ``1 + 1 / (1 - 1/4) = 7/3`` stops:

    >>> round(expected_stops(), 12)
    2.333333333333
    """
    rules = Rules() if rules is None else rules
    start = real_in_range("start", start, 0.0, 1.0, low_open=True, high_open=True)
    return _follow_chain(_Profile(thresholds, rules), rules, start)[2]


def _follow_chain(d: _Profile, rules: Rules, start: float) -> tuple[dict[int, float], float, float]:
    """The chain's final stakes by exponent, the mass left in play, the expected stops."""
    final: dict[int, float] = {}
    # pending[(side, exponent)] = probability that ``side`` ("A"/"B") is about to
    # double at his point (or the game ends there if he never doubles).
    pending: dict[tuple[str, int, float], float] = {}
    for k, weight in _murphy_distribution(rules).items():
        for side, point, prob in _first_events(d, start):
            key = (side, k, point)
            pending[key] = pending.get(key, 0.0) + weight * prob
    stops = 0.0
    for _ in range(_MAX_CHAIN_EVENTS):
        if not pending:
            break
        stops += sum(pending.values())
        following: dict[tuple[str, int, float], float] = {}
        for (side, k, point), mass in pending.items():
            for next_key, prob in _transition(d, side, k, point, final, mass):
                following[next_key] = following.get(next_key, 0.0) + mass * prob
        pending = following
        if sum(pending.values()) < _TAIL_TOLERANCE:
            break
    else:  # pragma: no cover - each event ends the game with chance >= 1 - q > 0
        raise RuntimeError("distribution did not converge")
    return final, sum(pending.values()), stops


def _first_events(d: _Profile, x: float) -> list[tuple[str, float, float]]:
    """(side, point, probability) of the first stop from the centred cube at ``x``."""
    up, lo = d.up_centre, d.lo_centre
    if x >= up:
        return [("A", x, 1.0)]
    if x <= lo:
        return [("B", x, 1.0)]
    to_up = (x - lo) / (up - lo)  # [KS69] eq. (2)
    return [("A", up, to_up), ("B", lo, 1 - to_up)]


def _transition(
    d: _Profile, side: str, k: int, point: float, final: dict[int, float], mass: float
) -> list[tuple[tuple[str, int, float], float]]:
    """Settle a stop of ``side`` at ``point``; return the next stops with probabilities.

    A stop of A at 1 (of B at 0) is a win; otherwise it is a double.
    """
    game_ends = point >= 1 if side == "A" else point <= 0
    if game_ends:
        final[k] = final.get(k, 0.0) + mass
        return []
    code = d.response_to_a(point) if side == "A" else d.response_to_b(point)
    if code == _DROP:
        final[k] = final.get(k, 0.0) + mass
        return []
    k += int(_EXTRA_DOUBLINGS[code])
    if side == "A":  # B owns at ``point``: B redoubles at l before A wins at 1
        lo = d.lo_own
        if point <= lo:
            return [(("B", k, point), 1.0)]
        redouble = (1 - point) / (1 - lo)  # [KS69] eq. (2)
        return [(("B", k, lo), redouble), (("A", k, 1.0), 1 - redouble)]
    up = d.up_own  # A owns at ``point``: A redoubles at u before B wins at 0
    if point >= up:
        return [(("A", k, point), 1.0)]
    redouble = point / up  # [KS69] eq. (2)
    return [(("A", k, up), redouble), (("B", k, 0.0), 1 - redouble)]


# ---------------------------------------------------------------- KS69 section 1


def take_check(
    double_point: float = DOUBLING_POINT,
    n_games: int = 200_000,
    seed: int = 0,
    *,
    time_budget: float | None = None,
) -> TakeCheck:
    """The taker's value of taking vs dropping a double at ``double_point``, K = 1.

    B is doubled when A's chance is ``d``; dropping is worth -1. Taking, with both
    sides optimal afterwards (B redoubles at his 80%, A takes at 20%), is worth
    ``-2 E_B(d) = 3 - 5 d`` by the [KS69] lemma: B redoubles (worth +1 to him,
    A being indifferent there) with probability ``(1 - d)/0.8`` and loses 2 otherwise
    ([KS69] eq. (3) with ``alpha = d``). Equal to -1 exactly at ``d = 0.8`` (eq. (5)).

    Parameters
    ----------
    double_point : float
        A's chance when he doubles, in [0.2, 1) (B can take and own the cube).
    n_games : int
        Monte Carlo games for the estimate, ``2 <= n_games <= MAX_GAMES``.
    seed : int
        Seed.
    time_budget : float, optional
        As for :func:`simulate_games`.

    Returns
    -------
    TakeCheck
        ``drop_value`` (-1), ``take_value_exact`` and the Monte Carlo estimate.

    Notes
    -----
    ``d <= 0.2`` is excluded: B would redouble at once. The Monte Carlo plays out the
    game from ``d`` with the cube at 2 on B's side (A takes B's redoubles at 20%,
    the indifference point, so the estimate includes their variance).

    Examples
    --------
    [KS69] eq. (5): at 80% taking is worth -K, like dropping.

    >>> check = take_check(0.8, n_games=20_000, seed=0)
    >>> check.take_value_exact, check.drop_value
    (-1.0, -1.0)
    """
    d = _double_point(double_point, high_open=True)
    n_games = whole_number("n_games", n_games, 2, MAX_GAMES)
    exact = 3 - 5 * d
    games = _play_from_owned_b(d, n_games, whole_number("seed", seed), time_budget)
    estimate = _estimate(-2 * games, 0.95)
    return TakeCheck(d, -1.0, float(round(exact, 15)), estimate)


def _double_point(value: float, *, high_open: bool) -> float:
    """``value`` checked to lie above the take point 0.2 (and below or at 1)."""
    d = real_in_range("double_point", value, 0.0, 1.0, high_open=high_open)
    if d <= TAKE_POINT + _DECISION_TOLERANCE:  # B would redouble at once
        right = ")" if high_open else "]"
        raise ValueError(f"`double_point` must lie in (0.2, 1{right}")
    return d


def _play_from_owned_b(
    x: float, n: int, seed: int, time_budget: float | None = None
) -> NDArray[np.float64]:
    """A's points per unit from ``x`` with the cube on B's side, both optimal."""
    rng = np.random.default_rng(seed)
    chain = _play_chain(n, OPTIMAL, Rules(), x, rng, owner=_OWNER_B, time_budget=time_budget)
    return chain.points()


def doubling_price(
    double_point: float,
    *,
    beavers: bool = False,
    start: float = 0.5,
    n_games: int = 200_000,
    seed: int = 0,
    time_budget: float | None = None,
) -> DoublingPrice:
    """What A loses by offering his initial double at ``double_point`` instead of 80%.

    A doubles the centred cube at ``double_point`` (at once if ``start`` is already
    there) and plays optimally afterwards (redoubles at 80%); B plays optimally:
    doubles at 80%, takes at 20% and, when ``beavers`` is allowed, beavers iff his
    chance is at least 40% (:data:`OPTIMAL_BEAVER_POINT`). The loss is A's equity
    with optimal play (0 from 1/2) minus his equity with this initial double, both
    exact by :func:`exact_equity`; the Monte Carlo estimates the latter.

    Parameters
    ----------
    double_point : float
        A's initial doubling point, in (0.2, 1] (1: never doubles).
    beavers : bool
        Whether beavers are allowed.
    start : float
        A's chance at the start.
    n_games, seed
        Monte Carlo size and seed.
    time_budget : float, optional
        As for :func:`simulate_games`.

    Returns
    -------
    DoublingPrice
        ``equity_exact``, ``equity_optimal``, ``loss_exact`` and the estimate.

    Notes
    -----
    Taken at ``d``, the double leaves B owning a cube worth ``2.5 (1 - d) - 1`` per
    unit to him; doubling at ``d`` instead of holding therefore costs A, measured
    when his chance is ``d``, ``(0.8 - d)/0.6`` per unit when B takes and
    ``(2.6 - 4 d)/0.6`` when B beavers (``d <= 0.6``), e.g. 0.5 and 1 at 50%. Only the initial
    double deviates: if A redoubled early too, the stake could grow faster than
    games end and the expectation would not exist (see :func:`exact_equity`).
    Above 80% B drops; waiting costs A the games that fall back to B's 20% first.

    Examples
    --------
    Doubling at 80% from 1/2 is optimal, so it costs nothing:

    >>> price = doubling_price(0.8, n_games=1_000)
    >>> round(price.loss_exact, 12)
    0.0
    """
    d = _double_point(double_point, high_open=False)
    beavers = flag("beavers", beavers)
    rules = Rules(beavers=beavers)
    thresholds = _price_thresholds(d, beavers)
    equity = exact_equity(thresholds, rules, start)
    equity_optimal = exact_equity(_price_thresholds(DOUBLING_POINT, beavers), rules, start)
    estimate = _estimate(
        _play_batch(GameBatch(n_games, thresholds, rules, start, seed), time_budget).points()
    )
    return DoublingPrice(d, beavers, equity, equity_optimal, equity_optimal - equity, estimate)


def doubling_price_table(
    double_point: float,
    *,
    start: float = 0.5,
    n_games: int = 200_000,
    seed: int = 0,
    time_budget: float | None = None,
) -> pd.DataFrame:
    """:func:`doubling_price` without and with beavers, one row each.

    Both rows are simulated with the same ``seed``.

    Parameters
    ----------
    double_point, start, n_games, seed
        As for :func:`doubling_price`.
    time_budget : float, optional
        As for :func:`simulate_games`, for each of the two rows.

    Returns
    -------
    pandas.DataFrame
        Columns ``beavers`` (False, True), ``equity_exact``, ``equity_simulated``,
        ``ci_low``, ``ci_high`` (the 95% interval of the simulated equity) and
        ``loss_exact`` (against doubling at 80%).

    Examples
    --------
    Doubling at 50% costs A half a point per unit without beavers and a whole one
    with them, measured at 50% ([KS69] lemma; see :func:`doubling_price`):

    >>> doubling_price_table(0.5, n_games=1_000)["loss_exact"].round(12).tolist()
    [0.5, 1.0]
    """
    rows = []
    for beavers in (False, True):
        price = doubling_price(
            double_point,
            beavers=beavers,
            start=start,
            n_games=n_games,
            seed=seed,
            time_budget=time_budget,
        )
        rows.append(
            {
                "beavers": beavers,
                "equity_exact": price.equity_exact,
                "equity_simulated": price.estimate.mean,
                "ci_low": price.estimate.low,
                "ci_high": price.estimate.high,
                "loss_exact": price.loss_exact,
            }
        )
    return pd.DataFrame(rows)


def _price_thresholds(double_point: float, beavers: bool) -> Thresholds:
    beaver = OPTIMAL_BEAVER_POINT if beavers else None
    return Thresholds(double_a=double_point, redouble_a=DOUBLING_POINT, beaver_b=beaver)


def doubling_price_curve(double_points: ArrayLike, start: float = 0.5) -> pd.DataFrame:
    """Exact price of A's initial doubling point, with and without beavers.

    The exact part of :func:`doubling_price` over many doubling points (no
    simulation).

    Returns
    -------
    pandas.DataFrame
        Columns ``double_point``, ``beavers``, ``equity`` and ``loss`` (vs 80%).

    Examples
    --------
    Doubling at 50% from 1/2: B takes and owns a cube worth ``2.5 * 0.5 - 1 = 0.25``
    per unit to him, so A's equity is ``-2 * 0.25 = -0.5``; with beavers B beavers
    (his chance 50% >= 40%) and A's equity is ``-4 * 0.25 = -1``:

    >>> curve = doubling_price_curve([0.5])
    >>> curve["equity"].round(12).tolist()
    [-0.5, -1.0]
    """
    points = array_in_range(
        "double_points", double_points, 0.0, 1.0, max_size=MAX_PRICE_POINTS
    ).ravel()
    if np.any(points <= TAKE_POINT + _DECISION_TOLERANCE):
        raise ValueError("`double_points` must lie in (0.2, 1]")
    start = real_in_range("start", start, 0.0, 1.0, low_open=True, high_open=True)
    rows = []
    for beavers in (False, True):
        rules = Rules(beavers=beavers)
        base = exact_equity(_price_thresholds(DOUBLING_POINT, beavers), rules, start)
        for d in points:
            equity = exact_equity(_price_thresholds(float(d), beavers), rules, start)
            rows.append((float(d), beavers, equity, base - equity))
    return pd.DataFrame(rows, columns=["double_point", "beavers", "equity", "loss"])
