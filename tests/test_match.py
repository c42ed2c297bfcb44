"""Tests for cubecore.match: the generated match equity table, take points, the rules.

No published match equity table is reproduced (none was read from a stored source);
the anchors are exact values derived by hand from the stated model, in comments.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import hypothesis.strategies as hst
import numpy as np
import pytest
from hypothesis import given, settings
from numpy.testing import assert_allclose

from cubecore import match
from cubecore.match import (
    crawford_equity,
    crawford_table,
    holland_effect,
    match_equity,
    match_equity_table,
    post_crawford_equity,
    take_point,
)

FLOAT = 1e-12  # float slack on O(1) equities

rates = hst.floats(0.0, 1.0)
efficiencies = hst.floats(0.0, 1.0)


def _post_no_gammons(k: int) -> Fraction:
    """Leader's post-Crawford MWC without gammons: 1 - 2**-ceil(k/2) (derived below)."""
    return Fraction(0) if k <= 0 else 1 - Fraction(1, 2 ** math.ceil(k / 2))


# ----------------------------------------------------------------------------------
# match_equity_table
# ----------------------------------------------------------------------------------
def test_match_equity_table_layout():
    table = match_equity_table(6)
    assert table.shape == (6, 6)
    assert table.index.name == "away"
    assert table.columns.name == "opp_away"
    assert list(table.index) == list(range(1, 7))
    assert table.loc[1, 1] == 0.5  # double match point
    assert table.loc[3, 3] == 0.5  # symmetric score


def test_match_equity_table_prefix_is_consistent():
    # The recursion is bottom-up: a smaller table is the corner of the larger one.
    assert_allclose(
        match_equity_table(7).to_numpy(), match_equity_table().iloc[:7, :7].to_numpy(), atol=0
    )


@settings(max_examples=25, deadline=None)
@given(g=rates, x=efficiencies)
def test_match_equity_table_invariants(g, x):
    m = match_equity_table(10, gammon_rate=g, cube_efficiency=x).to_numpy()
    assert np.all((m >= 0) & (m <= 1))
    assert_allclose(m + m.T, 1.0, atol=1e-12)  # M(a, b) + M(b, a) = 1
    assert m[0, 0] == 0.5
    # Direction: more points to go is worse. Down a column (player's away grows)
    # the MWC decreases; along a row (opponent's away grows) it increases.
    assert np.all(np.diff(m, axis=0) <= FLOAT)
    assert np.all(np.diff(m, axis=1) >= -FLOAT)


def test_match_equity_table_default_invariants():
    m = match_equity_table().to_numpy()
    assert_allclose(m + m.T, 1.0, atol=1e-12)
    assert np.all(np.diff(m, axis=0) < 0) and np.all(np.diff(m, axis=1) > 0)


def test_match_equity_table_anchor_2away_3away():
    # Hand solution, G = 0, x = 1 (continuous game). Player 2-away (A), opponent 3-away.
    # Next-game MWCs: N(1,3) = C(3) = 1/2 + 1/2 P(2) = 3/4, N(2,2) = 1/2, N(2,1) = 1/4.
    # A owns 2 (B doubled): A needs 2, his cube is dead: 1/4 + 3p/4.
    # B owns 2 (A doubled): B redoubles to 4 where A drops (p = 1/4): max(p, 1/4).
    # Centred cube: string from (0, 1/2) to (1, 3/4) between
    #   U = min(max(p, 1/4), 3/4) and Lo = max(1/4 + 3p/4, 1/2):
    # it runs flat along Lo to (1/3, 1/2), then straight over U's corner (3/4, 3/4):
    # V(1/2) = 1/2 + (1/4)/(5/12) * (1/6) = 3/5.
    assert match_equity(2, 3, gammon_rate=0.0) == pytest.approx(float(Fraction(3, 5)), abs=FLOAT)


def test_match_equity_table_anchor_2away_4away():
    # Same model. N(1,4) = C(4) = 1/2 + 1/2 P(3) = 7/8, N(2,3) = 3/5 (above).
    # A owns 2: dead, 1/2 + p/2. B owns 2: he redoubles where A drops: max(p, 1/2).
    # Centred: from (0, 3/5) along Lo = 3/5 to (1/5, 3/5), then straight over U's
    # corner (7/8, 7/8): V(1/2) = 3/5 + (11/40)/(27/40) * (3/10) = 13/18.
    assert match_equity(2, 4, gammon_rate=0.0) == pytest.approx(float(Fraction(13, 18)), abs=FLOAT)


def test_match_equity_table_2away_2away_is_even():
    # The first double decides the match; symmetric score: exactly 1/2 for any G, x.
    for g, x in [(0.0, 1.0), (0.26, 1.0), (0.5, 0.3)]:
        assert match_equity(2, 2, gammon_rate=g, cube_efficiency=x) == pytest.approx(0.5)


@pytest.mark.parametrize("g", [0.0, 0.26, 0.6])
def test_match_equity_table_dead_cube_recursion(g):
    # x = 0: the equity at p is the dead-cube value at p, kept between what the two
    # sides can force by doubling now, so at p = 1/2 everything is pointwise:
    #   V(c) = (W_c + L_c)/2 clamped to [min(V_opp(2c), cash_player), max(V_own(2c), cash_opp)]
    # with W_c, L_c from the produced table (row/column 1: Crawford game; <= 0: match over).
    # Assert that recursion on the produced table.
    n = 12
    m = match_equity_table(n, gammon_rate=g, cube_efficiency=0.0)

    def nxt(a, b):
        return 1.0 if a <= 0 else 0.0 if b <= 0 else m.loc[a, b]

    def value(a, b, c, owner):
        win = (1 - g) * nxt(a - c, b) + g * nxt(a - 2 * c, b)
        loss = (1 - g) * nxt(a, b - c) + g * nxt(a, b - 2 * c)
        v = 0.5 * (win + loss)
        if c >= max(a, b):
            return v
        if owner in ("center", "player"):
            v = max(v, min(value(a, b, 2 * c, "opponent"), nxt(a - c, b)))
        if owner in ("center", "opponent"):
            v = min(v, max(value(a, b, 2 * c, "player"), nxt(a, b - c)))
        return v

    expected = [[value(a, b, 1, "center") for b in range(2, n + 1)] for a in range(2, n + 1)]
    assert_allclose(m.loc[2:, 2:].to_numpy(), expected, atol=1e-14)
    # Without gammons the trailer's immediate double makes a difference at 3-away/5-away:
    # the dead-cube game alone would give 1/2 (11/16) + 1/2 (3/4) = 23/32.
    if g == 0.0:
        assert m.loc[3, 5] != pytest.approx(23 / 32)


@pytest.mark.parametrize("g", [0.0, 0.26, 1.0])
def test_match_equity_table_crawford_row_recursion(g):
    # Row 1 is the Crawford game: M(1, b) = 1/2 + 1/2 [(1-G) P(b-1) + G P(b-2)].
    m = match_equity_table(gammon_rate=g)
    post = [0.0] + [post_crawford_equity(k, gammon_rate=g) for k in range(1, 26)]
    expected = [0.5 + 0.5 * ((1 - g) * post[b - 1] + g * post[max(b - 2, 0)]) for b in range(2, 26)]
    assert_allclose(m.loc[1, 2:].to_numpy(), expected, atol=1e-15)
    assert_allclose(m.loc[2:, 1].to_numpy(), 1 - np.array(expected), atol=1e-15)


def test_match_equity_table_crawford_row_no_gammons_closed_form():
    # G = 0: C(b) = 1/2 + 1/2 (1 - 2**-ceil((b-1)/2)), exact rationals.
    m = match_equity_table(gammon_rate=0.0)
    expected = [float(Fraction(1, 2) + _post_no_gammons(b - 1) / 2) for b in range(2, 26)]
    assert_allclose(m.loc[1, 2:].to_numpy(), expected, atol=1e-15)


def test_match_equity_table_rejects_bad_input():
    with pytest.raises(ValueError, match="max_away"):
        match_equity_table(26)
    with pytest.raises(ValueError, match="max_away"):
        match_equity_table(0)
    with pytest.raises(ValueError, match="gammon_rate"):
        match_equity_table(5, gammon_rate=1.2)
    with pytest.raises(ValueError, match="cube_efficiency"):
        match_equity_table(5, cube_efficiency=-0.1)
    with pytest.raises(ValueError, match="away"):
        match_equity(0, 3)


# ----------------------------------------------------------------------------------
# post_crawford_equity
# ----------------------------------------------------------------------------------
@settings(max_examples=50, deadline=None)
@given(g=rates)
def test_post_crawford_equity_recursion(g):
    # P(b) = max(1/2 + 1/2 [(1-G) P(b-2) + G P(b-4)], P(b-1)), P(1) = 1/2.
    post = [0.0] + [post_crawford_equity(k, gammon_rate=g) for k in range(1, 26)]

    def at(k):
        return 0.0 if k <= 0 else post[k]

    assert post[1] == 0.5
    for b in range(2, 26):
        take = 0.5 + 0.5 * ((1 - g) * at(b - 2) + g * at(b - 4))
        assert post[b] == pytest.approx(max(take, at(b - 1)), abs=1e-15)


@settings(max_examples=50, deadline=None)
@given(g=rates)
def test_post_crawford_equity_closed_forms(g):
    # Trailer 2-away: doubled game decides the match, a drop leaves DMP: 1/2 either way.
    assert 1 - post_crawford_equity(2, gammon_rate=g) == pytest.approx(0.5)
    # Trailer 3-away: the leader takes (dropping leaves 2-away, 1/2): the trailer wins
    # the doubled game (-> DMP, 1/2) or its gammon (match): trailer MWC (1 + G)/4.
    assert 1 - post_crawford_equity(3, gammon_rate=g) == pytest.approx((1 + g) / 4, abs=1e-15)


def test_post_crawford_equity_no_gammons():
    # G = 0: P(b) = 1 - 2**-ceil(b/2); free drop: P(2k) = P(2k - 1).
    got = [post_crawford_equity(b, gammon_rate=0.0) for b in range(1, 26)]
    assert_allclose(got, [float(_post_no_gammons(b)) for b in range(1, 26)], atol=1e-15)
    with pytest.raises(ValueError, match="opp_away"):
        post_crawford_equity(0)


# ----------------------------------------------------------------------------------
# crawford_equity / crawford_table
# ----------------------------------------------------------------------------------
def test_crawford_equity():
    # Trailer 2-away, G: he must win the Crawford game (a gammon wins the match, else
    # DMP): trailer (1 + G)/4 ... leader 1 - (G/2 + (1 - G)/4) = (3 - G)/4.
    for g in (0.0, 0.26, 1.0):
        assert crawford_equity(2, gammon_rate=g) == pytest.approx((3 - g) / 4, abs=1e-15)
    assert crawford_equity(1) == 0.5
    assert crawford_equity(5) == match_equity(1, 5)  # the table's row 1


def test_crawford_table_free_drop_and_protection():
    t = crawford_table(25, gammon_rate=0.26)
    even = t["opp_away"] % 2 == 0
    assert t.loc[even, "leader_drops"].all()  # the free drop, used at even scores
    assert not t.loc[~even, "leader_drops"].any()  # at odd scores the leader takes
    assert (t["protection"] > 0).all()  # with gammons the rule always helps the leader
    assert_allclose(t["protection"], t["crawford"] - t["no_crawford_rule"], atol=0)
    # G = 0: protection 1/4, 0, 1/8, 0, ...: odd trailer scores gain nothing.
    t0 = crawford_table(9, gammon_rate=0.0)
    expected = [
        float(Fraction(1, 2) + _post_no_gammons(b - 1) / 2 - _post_no_gammons(b))
        for b in range(2, 10)
    ]
    assert_allclose(t0["protection"], expected, atol=1e-15)
    with pytest.raises(ValueError, match="max_away"):
        crawford_table(1)


# ----------------------------------------------------------------------------------
# take_point
# ----------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(g=rates, x=efficiencies)
def test_take_point_2away_2away(g, x):
    # Cube 1 -> 2 at 2-away/2-away decides the match (gammons irrelevant, the taker's
    # redouble is dead). Dropping leaves the taker trailing the Crawford game:
    # 1 - C(2) = (1 + G)/4; take and win = 1, take and lose = 0, so every take point
    # is (1 + G)/4 (1/4 without gammons).
    tp = take_point(2, 2, gammon_rate=g, cube_efficiency=x)
    expected = (1 + g) / 4
    for value in (tp.dead, tp.dead_gammon, tp.live, tp.model, tp.drop_mwc):
        assert value == pytest.approx(expected, abs=1e-12)
    assert (tp.take_win_mwc, tp.take_lose_mwc) == (1.0, 0.0)


def test_take_point_double_match_point():
    # 1-away/1-away: dropping loses the match, so take anything: take point 0.
    tp = take_point(1, 1)
    assert tp.dead == tp.live == tp.model == 0.0
    assert tp.risk == 0.0 and tp.gain == 1.0


def test_take_point_2away_3away_hand_solution():
    # G = 0, x = 1: the 3-away side doubles the 2-away side. Drop -> 2a/2a (1/2),
    # take and lose -> 2a/1a Crawford (1/4), take and win -> match (1): TP = 1/3, and
    # the taker's cube is dead (2-away), so live = model = 1/3. The string of
    # test_match_equity_table_anchor_2away_3away is flat (the doubler doubles) up to
    # p = 1/3: doubling point = cash point = 2/3.
    tp = take_point(2, 3, gammon_rate=0.0)
    for value in (tp.dead, tp.live, tp.model):
        assert value == pytest.approx(1 / 3, abs=1e-12)
    assert tp.doubling_point == pytest.approx(2 / 3, abs=1e-12)
    assert tp.cash_point == pytest.approx(2 / 3, abs=1e-12)


def test_take_point_live_recursion():
    # TP_live(n) = TP_dead(n) (1 - TP_live^opp(2n)); base: TP_live = TP_dead if away <= 2n.
    for a, b, c in [(5, 5, 1), (7, 4, 1), (9, 11, 2), (13, 6, 2), (25, 25, 4)]:
        owner = "center" if c == 1 else "opponent"
        tp = take_point(a, b, c, owner)
        assert a > 2 * c
        up = take_point(b, a, 2 * c, "opponent")
        assert tp.live == pytest.approx(tp.dead * (1 - up.live), abs=1e-14)
    tp = take_point(4, 9, 2, "opponent")
    assert tp.live == tp.dead  # base case: 4-away taker owning 4 needs no redouble


def test_take_point_model_equals_recursion_without_gammons():
    # With G = 0 and x = 1 the full model (taut strings) and the recursion are two
    # independent computations of the same continuous game: they must agree.
    for a, b in itertools.product(range(1, 14), repeat=2):
        for c in (1, 2, 4):
            tp = take_point(a, b, c, "center" if c == 1 else "opponent", gammon_rate=0.0)
            assert tp.model == pytest.approx(tp.live, abs=1e-12), (a, b, c)


def test_take_point_money_limit():
    # Far from the end of a long match the cube behaves as in money play: the
    # continuous-game take point tends to 20% ([KS69] section 2, eq. (5): 80%).
    tp = take_point(25, 25, gammon_rate=0.0)
    assert tp.live == pytest.approx(0.2, abs=0.005)
    assert tp.dead == pytest.approx(0.25, abs=0.01)  # dead cube: risk 1, gain 3


def test_take_point_cube_that_kills_the_match():
    # 3-away taker, 5-away doubler, cube 4 -> 8: 8 points end the match either way.
    # Drop -> 3-away/1-away Crawford (1 - C(3)), win -> 1, lose -> 0.
    tp = take_point(3, 5, 4, "opponent")
    expected = 1 - crawford_equity(3)
    assert tp.dead == pytest.approx(expected, abs=1e-15)
    assert tp.dead_gammon == pytest.approx(expected, abs=1e-15)
    assert tp.model == pytest.approx(expected, abs=1e-12)


def test_take_point_post_crawford():
    # Leader 1-away doubled by the 2-away trailer: drop -> DMP 1/2, take: game decides.
    tp = take_point(1, 2)
    assert tp.dead == pytest.approx(0.5) and tp.model == pytest.approx(0.5)
    assert tp.doubling_point == 0.0  # the trailer doubles at any game winning chance


@settings(max_examples=30, deadline=None)
@given(
    a=hst.integers(2, 12),
    b=hst.integers(2, 12),
    g=hst.floats(0.0, 0.5),
    x=hst.floats(0.3, 1.0),
)
def test_take_point_market_window(a, b, g, x):
    tp = take_point(a, b, gammon_rate=g, cube_efficiency=x)
    for value in (tp.dead, tp.dead_gammon, tp.live, tp.model):
        assert 0.0 <= value <= 1.0
    assert tp.cash_point == pytest.approx(1 - tp.model)
    if not math.isnan(tp.doubling_point):
        assert tp.doubling_point <= tp.cash_point + 1e-12
    # Gammons for the doubler make the take harder; for the taker easier.
    harder = take_point(a, b, gammon_rate=g, opp_gammon_rate=min(1.0, g + 0.2), cube_efficiency=x)
    assert harder.dead_gammon >= tp.dead_gammon - FLOAT


def test_take_point_window_collapses_in_continuous_game():
    # x = 1, [KS69] Theorem 1: doubling point = drop point where the doubler's cube lives.
    for a, b in [(4, 4), (7, 5), (11, 9)]:
        tp = take_point(a, b, cube_efficiency=1.0)
        assert tp.doubling_point == pytest.approx(tp.cash_point, abs=1e-12)
    tp = take_point(5, 5, cube_efficiency=0.68)
    assert tp.doubling_point < tp.cash_point - 0.01  # a real window with a lossy cube


def test_take_point_rejects_bad_input():
    with pytest.raises(ValueError, match="away"):
        take_point(0, 3)
    with pytest.raises(ValueError, match="opp_away"):
        take_point(3, 26)
    with pytest.raises(ValueError, match="cube_value"):
        take_point(3, 3, cube_value=3, cube_owner="opponent")
    with pytest.raises(ValueError, match="cube_owner"):
        take_point(3, 3, cube_owner="player")
    with pytest.raises(ValueError, match="cube_owner"):
        take_point(3, 3, cube_value=2, cube_owner="center")
    with pytest.raises(ValueError, match="opp_gammon_rate"):
        take_point(3, 3, opp_gammon_rate=-0.5)


# ----------------------------------------------------------------------------------
# holland_effect
# ----------------------------------------------------------------------------------
def _holland_by_sine_series(b: int, g: float, spread: float) -> float:
    """Independent check: eigenfunction expansion of the absorbed heat equation.

    u(1/2) = l(1/2) + sum_n c_n sin(n pi/2) exp(-n^2 pi^2 s^2 / 2), with
    c_n = 2 int_0^1 (H - l)(y) sin(n pi y) dy integrated piece by piece in closed form.
    """
    post = [0.0] + [post_crawford_equity(k, gammon_rate=g) for k in range(1, b + 1)]

    def at(k):
        return 0.0 if k <= 0 else post[k]

    tail = (1 - g) * at(b - 2) + g * at(b - 4)
    h0, h1 = 1.0, (1 - g) * at(b - 1) + g * at(b - 2)
    kink = (1 - at(b - 1)) / (1 - tail)
    xs = [0.0, kink, 1.0] if 0 < kink < 1 else [0.0, 1.0]
    k = np.arange(1, 301) * np.pi
    coeff = np.zeros(k.size)
    for x0, x1 in itertools.pairwise(xs):  # psi = alpha + beta y on [x0, x1]
        y0 = max(1 - x0 * (1 - tail), at(b - 1)) - (h0 + x0 * (h1 - h0))
        y1 = max(1 - x1 * (1 - tail), at(b - 1)) - (h0 + x1 * (h1 - h0))
        beta = (y1 - y0) / (x1 - x0)
        alpha = y0 - beta * x0

        def antiderivative(y, alpha=alpha, beta=beta):
            # d/dy [-(alpha + beta y) cos(ky)/k + beta sin(ky)/k^2] = (alpha + beta y) sin(ky)
            return -(alpha + beta * y) * np.cos(k * y) / k + beta * np.sin(k * y) / k**2

        coeff += 2 * (antiderivative(x1) - antiderivative(x0))
    decay = np.exp(-((k * spread) ** 2) / 2)
    return float(h0 + 0.5 * (h1 - h0) + np.sum(coeff * np.sin(k / 2) * decay))


@pytest.mark.parametrize(
    ("b", "g", "rolls", "sigma"),
    [(2, 0.0, 4, 0.07), (4, 0.26, 4, 0.07), (5, 0.26, 9, 0.1), (3, 0.5, 4, 0.2)],
)
def test_holland_effect_matches_series(b, g, rolls, sigma):
    e = holland_effect(b, gammon_rate=g, delay_rolls=rolls, volatility=sigma)
    assert e.spread == pytest.approx(sigma * math.sqrt(rolls))
    assert e.leader_with == pytest.approx(_holland_by_sine_series(b, g, e.spread), abs=1e-12)


def test_holland_effect_small_spread_closed_form():
    # Trailer 2-away, G = 0: H(q) = max(1 - q, 1/2). With s = 0.05 absorption is
    # negligible (< 1e-20), so E H = 1/2 + E (1/2 - q)^+ = 1/2 + s / sqrt(2 pi).
    e = holland_effect(2, gammon_rate=0.0, delay_rolls=1, volatility=0.05)
    assert e.leader_with == pytest.approx(0.5 + 0.05 / math.sqrt(2 * math.pi), abs=1e-14)


def test_holland_effect_degenerate_and_direction():
    for kwargs in ({"volatility": 0.0}, {"delay_rolls": 0}):
        e = holland_effect(4, **kwargs)
        assert e.trailer_change == 0.0
        assert e.leader_without == post_crawford_equity(4)
    # H is convex in q: a longer delay never helps the trailer.
    changes = [holland_effect(4, volatility=s).trailer_change for s in (0.02, 0.05, 0.1, 0.2)]
    assert all(c < 0 for c in changes)
    assert all(np.diff(changes) < 0)
    with pytest.raises(ValueError, match="opp_away"):
        holland_effect(1)
    with pytest.raises(ValueError, match="volatility"):
        holland_effect(3, volatility=-0.1)
    with pytest.raises(ValueError, match="delay_rolls"):
        holland_effect(3, delay_rolls=-1)


# ----------------------------------------------------------------------------------
# match_phase, match_winning_chance, take_points_by_cube, holland_table
# ----------------------------------------------------------------------------------
def test_match_phase_names_every_phase():
    assert match.match_phase(1, 1) == "double match point"
    assert match.match_phase(1, 1, post_crawford=True) == "double match point"
    assert match.match_phase(1, 5) == match.match_phase(5, 1) == "Crawford game"
    assert match.match_phase(5, 1, post_crawford=True) == "post-Crawford"
    assert match.match_phase(2, 2, post_crawford=True) == "pre-Crawford"
    assert set(match.PHASES) == {
        match.match_phase(a, b, post) for a in (1, 2) for b in (1, 3) for post in (False, True)
    }
    with pytest.raises(ValueError, match="`post_crawford` must be True or False"):
        match.match_phase(1, 2, post_crawford=1)
    with pytest.raises(ValueError, match="opp_away"):
        match.match_phase(1, 26)


@given(hst.integers(1, 8), hst.integers(1, 8), hst.booleans(), rates)
@settings(max_examples=30, deadline=None)
def test_match_winning_chance_is_the_table_or_post_crawford(a, b, post, g):
    mwc = match.match_winning_chance(a, b, post, g, 0.8)
    # the other side's chance: the same phase seen from across the board
    assert mwc + match.match_winning_chance(b, a, post, g, 0.8) == pytest.approx(1.0, abs=FLOAT)
    if match.match_phase(a, b, post) == "post-Crawford":
        leader = post_crawford_equity(max(a, b), g)
        assert mwc == (leader if a == 1 else 1.0 - leader)
    else:
        assert mwc == match_equity(a, b, g, 0.8)


def test_take_points_by_cube_stops_at_the_cube_that_wins_the_match():
    by_cube = match.take_points_by_cube(5, 3, gammon_rate=0.2, opp_gammon_rate=0.3)
    assert list(by_cube["cube"]) == ["1 -> 2", "2 -> 4"]  # a cube of 4 wins 3-away the match
    assert by_cube["dead"].iloc[1] == take_point(5, 3, 2, "opponent", 0.2, 0.3).dead
    assert by_cube["model"].iloc[0] == take_point(5, 3, 1, "center", 0.2, 0.3).model
    # at the longest score: cubes 1 to 16 (a cube of 32 wins 25-away the match)
    longest = match.take_points_by_cube(25, 25, gammon_rate=0.0)
    assert list(longest["cube"]) == ["1 -> 2", "2 -> 4", "4 -> 8", "8 -> 16", "16 -> 32"]
    # at 2-away the first cube already decides: one level
    assert list(match.take_points_by_cube(4, 2)["cube"]) == ["1 -> 2"]


def test_holland_table_is_holland_effect_per_score():
    table = match.holland_table(6, gammon_rate=0.1, delay_rolls=3, volatility=0.06)
    assert list(table["opp_away"]) == [2, 3, 4, 5, 6]
    effect = holland_effect(5, 0.1, 3, 0.06)
    assert table.iloc[3]["trailer_with"] == effect.trailer_with
    assert table.iloc[3]["spread"] == effect.spread
    with pytest.raises(ValueError, match="max_away"):
        match.holland_table(1)


# ----------------------------------------------------------------------------------
# take_point_table
# ----------------------------------------------------------------------------------
def test_take_point_table():
    table = match.take_point_table(6, cube_value=2, cube_owner="opponent", gammon_rate=0.2)
    assert len(table) == 36
    assert list(table.columns[:2]) == ["away", "opp_away"]
    for a, b in [(1, 1), (3, 5), (6, 2), (6, 6)]:
        row = table[(table["away"] == a) & (table["opp_away"] == b)].iloc[0]
        tp = take_point(a, b, 2, "opponent", gammon_rate=0.2)
        for field in ("dead", "dead_gammon", "live", "model", "cash_point"):
            assert row[field] == getattr(tp, field)
    # one taker's row, from the 25-away table: still exactly take_point's values
    row = match.take_point_table(25, gammon_rate=0.3, cube_efficiency=0.6, away=5)
    assert list(row["opp_away"]) == list(range(1, 26)) and set(row["away"]) == {5}
    for b in (1, 2, 9, 25):
        tp = take_point(5, b, gammon_rate=0.3, cube_efficiency=0.6)
        assert row.iloc[b - 1]["model"] == tp.model and row.iloc[b - 1]["live"] == tp.live
    with pytest.raises(ValueError, match="max_away"):
        match.take_point_table(0)
    with pytest.raises(ValueError, match="away"):
        match.take_point_table(4, away=5)
    with pytest.raises(ValueError, match="cube_owner"):
        match.take_point_table(3, cube_value=2, cube_owner="center")
