"""How far each input may move before the best cube action changes.

:func:`decision_margins` gives, for the decision of a :class:`~cubecore.cube_anatomy.CubeSetting`,
the margins of the best action (doubles, the taker passes) in the winning chance, exact
on the piecewise-linear equities between their corners (the live take and cash points),
and in each gammon rate, by a bounded scan and bisection (:class:`DecisionMargins`).
The winning-chance corners and margins are shared with :mod:`cubecore.market_window`
and :mod:`cubecore.score_matrix`.

References
----------
.. [RJ93] R. Janowski, "Take-Points in Money Games", 1993;
   http://www.bkgm.com/articles/Janowski/cubeformulae.pdf
.. [JT] J. Thyssen, the generalisation of Janowski's formulae to match play in
   GNU Backgammon (``Cl2CfMatch*`` in ``eval.c``, ``GetPoints`` in ``matchequity.c``,
   whose comments refer to his notes; no separate publication was found). The
   formulas here are reimplemented from the definitions stated in
   :mod:`cubecore.cube_decision`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cubecore.cube_anatomy import CubeSetting, _check_setting, _not_available
from cubecore.cube_decision import (
    _OPTIONAL,
    CubeDecision,
    CubelessProbabilities,
    _as_probabilities,
    _live_cash_points,
    _Score,
)
from cubecore.met import MatchEquityTable

__all__ = [
    "DecisionMargins",
    "decision_margins",
]

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
