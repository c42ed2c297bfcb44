"""Tests for :mod:`cubecore.keeler_spencer` against [KS69] (Keeler & Spencer, RAND 1969).

Expected values come from the paper (tables, text) or from exact rationals
(``fractions.Fraction``) and a 40-digit ``decimal`` reference computed here,
independently of the module's code.
"""

from __future__ import annotations

import itertools
import math
import statistics
from decimal import Decimal, localcontext
from fractions import Fraction

import hypothesis.strategies as hst
import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings

from cubecore import keeler_spencer as ks
from cubecore.printed import UNEXPLAINED, compare_printed

FEW = settings(max_examples=60, deadline=None)

# Rational raise factors >= 1 with small denominators, for exact arithmetic.
rational_factors = hst.builds(
    lambda whole, num, den: Fraction(whole) + Fraction(num, den),
    hst.integers(1, 6),
    hst.integers(0, 3),
    hst.integers(1, 4),
)
counts = hst.integers(0, 8)
potentials = hst.floats(1.0, 1e6, allow_nan=False, allow_infinity=False)


# ---------------------------------------------------------------------------
# Independent references
# ---------------------------------------------------------------------------


def _exact_recursion(i: int, j: int, a: Fraction, b: Fraction) -> tuple[Fraction, Fraction]:
    """[KS69] eqs. (8)-(9) with alpha(0, j) = 1, beta(i, 0) = 0, memoised, in rationals."""
    memo: dict[tuple[int, int], tuple[Fraction, Fraction]] = {}

    def points(ii: int, jj: int) -> tuple[Fraction, Fraction]:
        if (ii, jj) not in memo:
            alpha = (
                Fraction(1)
                if ii == 0
                else (a + 1) / (2 * a) * points(ii - 1, jj)[0]
                + (a - 1) / (2 * a) * points(ii - 1, jj)[1]
            )
            beta = (
                Fraction(0)
                if jj == 0
                else (b - 1) / (2 * b) * points(ii, jj - 1)[0]
                + (b + 1) / (2 * b) * points(ii, jj - 1)[1]
            )
            memo[ii, jj] = (alpha, beta)
        return memo[ii, jj]

    return points(i, j)


def _exact_theorem_2(i: int, j: int, a: Fraction, b: Fraction) -> tuple[Fraction, Fraction]:
    """[KS69] Theorem 2 by brute force over all (K_a, K_b): P[K_a <= K_b], P[K_a < K_b]."""
    pa, pb = (a - 1) / (2 * a), (b - 1) / (2 * b)
    alpha = beta = Fraction(0)
    for ka in range(i + 1):
        for kb in range(j + 1):
            weight = (
                math.comb(i, ka)
                * pa**ka
                * (1 - pa) ** (i - ka)
                * math.comb(j, kb)
                * pb**kb
                * (1 - pb) ** (j - kb)
            )
            alpha += weight if ka <= kb else 0
            beta += weight if ka < kb else 0
    return alpha, beta


def _exact_even_value(alpha: Fraction, beta: Fraction) -> Fraction:
    """[KS69] eq. (19) with the dominance rule, in rationals."""
    if alpha <= Fraction(1, 2):
        return Fraction(1)
    if beta >= Fraction(1, 2):
        return Fraction(-1)
    return (1 - alpha - beta) / (alpha - beta)


def _decimal_race(a: float, b: float) -> tuple[Decimal, Decimal, Decimal]:
    """P[X<Y], P[X=Y], P[X>Y] for X ~ Poisson(ln(a)/2), Y ~ Poisson(ln(b)/2), 40 digits.

    200 terms: for means below 8 the omitted tail is below 8**200/200! < 1e-190.
    """
    with localcontext() as context:
        context.prec = 40

        def pmf(potential: float) -> list[Decimal]:
            mean = Decimal(potential).ln() / 2
            term, out = (-mean).exp(), []
            for k in range(200):
                out.append(term)
                term = term * mean / (k + 1)
            return out

        less, tie, more = ks._race_sums(pmf(a), pmf(b), Decimal(0))
        return +less, +tie, +more


def _decimal_alpha(a: Decimal, b: float) -> Decimal:
    less, tie, _ = _decimal_race(a, b)
    return less + tie


def _decimal_resignation_potential(b: float) -> Decimal:
    """Bisection in 40-digit decimals for alpha(a, b) = 1/2."""
    with localcontext() as context:
        context.prec = 40
        low, high = Decimal(b), Decimal(b) * 4 + 4
        for _ in range(110):
            middle = (low + high) / 2
            if _decimal_alpha(middle, b) > Decimal("0.5"):
                low = middle
            else:
                high = middle
        return (low + high) / 2


def _assert_table(
    exact: pd.DataFrame,
    printed: pd.DataFrame,
    decimals: int,
    deviations: dict,
) -> None:
    """Every printed cell within half a printed unit, except the listed ones, which deviate."""
    assert exact.shape == printed.shape
    frame = compare_printed(printed, exact, decimals, deviations)
    listed = frame["reason"] != ""
    assert frame.loc[~listed, "within_printed_digits"].all(), frame[~frame.within_printed_digits]
    assert not frame.loc[listed, "within_printed_digits"].any()
    assert (frame["reason"] != UNEXPLAINED).all()


def test_continuous_sweep():
    a = np.geomspace(1.0, 1000.0, 13)
    sweep = ks.continuous_sweep(4.0, a)
    assert list(sweep.columns) == ["a", "alpha", "normal", "value", "asymptotic"]
    np.testing.assert_allclose(sweep["a"], a)
    # [KS69] eq. (18) and (19) at each a; (23) and (26) beside them
    for row in sweep.itertuples():
        assert row.alpha == ks.continuous_raising_points(row.a, 4.0).alpha
        assert row.value == ks.continuous_even_game_value(row.a, 4.0)
        assert row.normal == ks.normal_raising_point(row.a, 4.0)
        assert row.asymptotic == pytest.approx(math.log(row.a / 4.0))
    # [KS69] Table III, a = 10, b = 3: .4938
    assert round(ks.continuous_sweep(3.0, [10.0]).loc[0, "alpha"], 4) == 0.4938
    with pytest.raises(ValueError, match="`b` must lie in"):
        ks.continuous_sweep(0.5, [2.0])
    with pytest.raises(ValueError, match="a_values"):
        ks.continuous_sweep(2.0, [0.5])
    with pytest.raises(ValueError, match="`a_values` must hold at most"):
        ks.continuous_sweep(2.0, np.ones(ks.MAX_SWEEP_POINTS + 1))


def test_printed_comparison():
    # [KS69] Tables I-IV: every cell agrees; Table V: the 47 listed cells do not.
    for table, cells in (("I", 100), ("II", 100), ("III", 100), ("IV", 100)):
        frame = ks.printed_comparison(table)
        assert len(frame) == cells and frame["within_printed_digits"].all()
        assert (frame["reason"] == "").all()
    frame = ks.printed_comparison("V")
    assert len(frame) == len(ks.TABLE_V_PRINTED)
    off = frame[~frame["within_printed_digits"]]
    assert sorted(off["b"]) == sorted(ks.TABLE_V_DEVIATIONS)
    assert (off["difference"] < 0).all()  # every listed printed a is too large
    assert (frame["reason"] != UNEXPLAINED).all()
    with pytest.raises(ValueError, match="`table` must be one of"):
        ks.printed_comparison("VI")


# ---------------------------------------------------------------------------
# Section 2
# ---------------------------------------------------------------------------


def test_limited_doubling_point():
    # Derivation: A doubles at x with n doubles left; B, now holding the cube
    # with n - 1 left, redoubles at 1 - d(n-1) where A is indifferent and may
    # fold. By the lemma (2), A wins before that with P = (x - 1 + d) / d, and B
    # is indifferent: -K = 2K (1 - P) - 2K P, so P = 3/4; no doubles: d(0) = 1.
    point = Fraction(1)
    for n in range(31):
        if n > 0:
            previous = point
            three_quarters = Fraction(3, 4)
            point = 1 - previous + three_quarters * previous  # solves (x-1+d)/d = 3/4
        assert ks.limited_doubling_point(n) == float(point)
        assert point == Fraction(4, 5) + Fraction((-1) ** n, 4**n * 5)  # [KS69] section 2
    assert ks.limited_doubling_point(1) == 0.75  # one double: B takes up to 25%
    assert ks.limited_doubling_point(60) == 0.8  # [KS69] eq. (5): 80%
    assert ks.limited_doubling_point(0) == 1.0
    for bad in (-1, 1.5, True, float("nan"), "2"):
        with pytest.raises(ValueError, match="n"):
            ks.limited_doubling_point(bad)


def test_limited_doubling_points():
    frame = ks.limited_doubling_points(4)
    assert list(frame.columns) == ["n", "doubling_point", "limit"]
    assert frame["n"].tolist() == [0, 1, 2, 3, 4]
    # alternate around 4/5 with shrinking distance
    gaps = (frame["doubling_point"] - 0.8).to_numpy()
    assert np.all(np.sign(gaps) == [1, -1, 1, -1, 1])
    assert np.all(np.abs(gaps[1:]) < np.abs(gaps[:-1]))
    with pytest.raises(ValueError, match="n_max"):
        ks.limited_doubling_points(-1)


# ---------------------------------------------------------------------------
# Section 3
# ---------------------------------------------------------------------------


def test_raising_points():
    # [KS69] Table I, whole, a = b = 2.
    exact = pd.DataFrame(
        [[ks.raising_points(i, j).alpha for j in range(10)] for i in range(10)],
        index=ks.TABLE_I_PRINTED.index,
        columns=ks.TABLE_I_PRINTED.columns,
    )
    _assert_table(exact, ks.TABLE_I_PRINTED, 4, ks.TABLE_I_DEVIATIONS)
    # Table I (2, 1) is a rounding tie: 21/32 = .65625, printed .6563 (half up).
    assert _exact_recursion(2, 1, Fraction(2), Fraction(2))[0] == Fraction(21, 32)
    # [KS69] section 3 worked example, a = 2, b = 3.
    assert ks.raising_points(2, 1, a=2, b=3).alpha == pytest.approx(11 / 16, rel=1e-15)
    # Degenerate cases: no raise left.
    assert ks.raising_points(0, 7, 3.0, 5.0).alpha == 1.0
    assert ks.raising_points(7, 0, 3.0, 5.0).beta == 0.0
    assert ks.raising_points(0, 0) == (1.0, 0.0)
    # Factor 1 is never upset: the same as holding no raise.
    assert ks.raising_points(5, 2, a=1.0) == pytest.approx(ks.raising_points(0, 2))
    # Large counts stay in [0, 1] and finite.
    far = ks.raising_points(5000, 4000, a=1e6, b=1.5)
    assert 0.0 <= far.beta <= far.alpha <= 1.0
    for kwargs, name in (
        ({"i": -1, "j": 0}, "i"),
        ({"i": 0, "j": 1.5}, "j"),
        ({"i": 1, "j": 1, "a": 0.5}, "a"),
        ({"i": 1, "j": 1, "b": float("nan")}, "b"),
        ({"i": 1, "j": 1, "a": math.inf}, "a"),
        ({"i": ks.MAX_RAISES + 1, "j": 1}, "i"),
    ):
        with pytest.raises(ValueError, match=name):
            ks.raising_points(**kwargs)


@FEW
@given(counts, counts, rational_factors, rational_factors)
def test_raising_points_exact_agreement(i, j, a, b):
    # recursion (8)-(9) == Theorem 2, exactly; the float path to rounding.
    reference = _exact_theorem_2(i, j, a, b)
    assert _exact_recursion(i, j, a, b) == reference
    assert ks.exact_raising_points(i, j, a, b, method="recursion") == reference
    assert ks.exact_raising_points(i, j, a, b, method="closed_form") == reference
    floats = ks.raising_points(i, j, float(a), float(b))
    np.testing.assert_allclose(floats, [float(x) for x in reference], rtol=1e-13, atol=1e-15)


@FEW
@given(counts, counts, rational_factors, rational_factors)
def test_raising_points_properties(i, j, a, b):
    alpha, beta = _exact_recursion(i, j, a, b)
    # Swapping the players: beta(i, j; a, b) = 1 - alpha(j, i; b, a).
    assert beta == 1 - _exact_recursion(j, i, b, a)[0]
    assert 0 <= beta < alpha <= 1  # alpha - beta = P[K_a = K_b] > 0
    # Monotone: alpha and beta decrease in i and a, increase in j and b (strictly
    # when the extra raise can be upset, i.e. the factor exceeds 1).
    more_i = _exact_recursion(i + 1, j, a, b)
    more_j = _exact_recursion(i, j + 1, a, b)
    bigger_a = _exact_recursion(i, j, a + 1, b)
    bigger_b = _exact_recursion(i, j, a, b + 1)
    assert more_i[0] <= alpha and more_i[1] <= beta
    assert more_j[0] >= alpha and more_j[1] >= beta
    assert bigger_a[0] <= alpha and bigger_a[1] <= beta
    assert bigger_b[0] >= alpha and bigger_b[1] >= beta
    if a > 1:
        assert more_i[0] < alpha
    if b > 1:
        assert more_j[1] > beta
    if i > 0:
        assert bigger_a[0] < alpha
        # [KS69] section 3 lemma: beta(i-1, j) < alpha(i, j) <= alpha(i-1, j).
        before = _exact_recursion(i - 1, j, a, b)
        assert before[1] < alpha <= before[0]
    if j > 0:
        assert bigger_b[1] > beta


def test_raising_points_boundary_typo():
    # TEXT_DEVIATIONS: the transcription's beta(i, 0) = 1 contradicts Table I.
    printed, reason = ks.TEXT_DEVIATIONS["section 3, proof of Theorem 2, initial conditions"]
    assert printed == "beta(i,0) = 1" and "beta(i, 0) = 0" in reason
    # With a = 2, eq. (8) gives alpha(1, 0) = 3/4 alpha(0, 0) + 1/4 beta(0, 0):
    # 1 under the printed boundary, 3/4 (Table I) under beta(0, 0) = 0.
    heads, upset = Fraction(3, 4), Fraction(1, 4)
    printed_column_0 = ks.TABLE_I_PRINTED[0].to_numpy()
    assert heads + upset * 1 != printed_column_0[1]
    assert ks.raising_points_table(10, 1)[0].round(4).tolist() == printed_column_0.tolist()
    # Text example "10 doubles against 3: double at .4938" quotes Table III.
    printed, _ = ks.TEXT_DEVIATIONS["section 3, example 'A starts with 10 doubles and B with 3'"]
    alpha_10_3 = _exact_recursion(10, 3, Fraction(2), Fraction(2))[0]
    assert alpha_10_3 == Fraction(111537, 524288)
    assert abs(float(alpha_10_3) - float(printed)) > 0.2
    assert round(ks.continuous_raising_points(10, 3).alpha, 4) == float(printed)
    assert alpha_10_3 < Fraction(1, 2)  # the example's conclusion still holds


def test_exact_raising_points():
    # [KS69] section 3 worked example: beta(0,1) = 1/3, alpha(1,1) = 5/6,
    # alpha(1,0) = 3/4, beta(1,1) = 1/4, alpha(2,1) = 11/16.
    assert ks.exact_raising_points(0, 1, 2, 3).beta == Fraction(1, 3)
    assert ks.exact_raising_points(1, 1, 2, 3) == (Fraction(5, 6), Fraction(1, 4))
    assert ks.exact_raising_points(1, 0, 2, 3).alpha == Fraction(3, 4)
    assert ks.exact_raising_points(2, 1, 2, 3).alpha == Fraction(11, 16)
    # Floats are read as their decimal: 2.5 == 5/2, 2.1 == 21/10.
    assert ks.exact_raising_points(2, 1, 2.5, 2.1) == _exact_theorem_2(
        2, 1, Fraction(5, 2), Fraction(21, 10)
    )
    with pytest.raises(ValueError, match="method"):
        ks.exact_raising_points(1, 1, method="table")
    with pytest.raises(ValueError, match="i"):
        ks.exact_raising_points(ks.MAX_EXACT_RAISES + 1, 1)


def test_even_game_value():
    # [KS69] Table II, whole, a = b = 2.
    exact = pd.DataFrame(
        [[ks.even_game_value(i, j) for j in range(10)] for i in range(10)],
        index=ks.TABLE_II_PRINTED.index,
        columns=ks.TABLE_II_PRINTED.columns,
    )
    _assert_table(exact, ks.TABLE_II_PRINTED, 3, ks.TABLE_II_DEVIATIONS)
    assert round(ks.even_game_value(3, 2), 3) == 0.430  # [KS69] section 5 text
    assert ks.even_game_value(1, 0) == pytest.approx(1 / 3)  # alpha = 3/4: (1/4)/(3/4)
    assert ks.even_game_value(3, 0) == 1.0  # alpha = 27/64 <= 1/2: B resigns
    assert ks.even_game_value(0, 3) == -1.0
    with pytest.raises(ValueError, match="b"):
        ks.even_game_value(1, 1, b=-2.0)


@FEW
@given(counts, counts, rational_factors, rational_factors)
def test_even_game_value_properties(i, j, a, b):
    value = ks.even_game_value(i, j, float(a), float(b))
    expected = _exact_even_value(*_exact_recursion(i, j, a, b))
    assert value == pytest.approx(float(expected), rel=1e-12, abs=1e-14)
    assert -1.0 <= value <= 1.0
    # Swapping players negates the value: E(i, j; a, b) = -E(j, i; b, a).
    assert _exact_even_value(*_exact_recursion(j, i, b, a)) == -expected


def test_raising_points_table():
    table = ks.raising_points_table()
    assert table.index.name == "i" and table.columns.name == "j"
    _assert_table(table, ks.TABLE_I_PRINTED, 4, ks.TABLE_I_DEVIATIONS)
    for a, b in ((2.0, 2.0), (3.0, 1.5), (1.0, 7.0), (1e6, 1e6)):
        for point in ("alpha", "beta"):
            recursion = ks.raising_points_table(30, 30, a, b, point=point)
            closed = ks.raising_points_table(30, 30, a, b, point=point, method="closed_form")
            assert recursion.shape == (30, 30)
            np.testing.assert_allclose(recursion, closed, rtol=1e-12, atol=1e-15)
    beta = ks.raising_points_table(4, 3, 2, 3, point="beta")
    assert beta.loc[1, 1] == pytest.approx(1 / 4)  # [KS69] worked example
    assert (beta[0] == 0.0).all()
    for kwargs, name in (
        ({"size_i": 31}, "size_i"),
        ({"size_j": 0}, "size_j"),
        ({"method": "fast"}, "method"),
        ({"point": "gamma"}, "point"),
    ):
        with pytest.raises(ValueError, match=name):
            ks.raising_points_table(**kwargs)


def test_even_game_value_table():
    table = ks.even_game_value_table()
    _assert_table(table, ks.TABLE_II_PRINTED, 3, ks.TABLE_II_DEVIATIONS)
    big = ks.even_game_value_table(30, 30, 2.5, 2.5)
    np.testing.assert_allclose(big.to_numpy(), -big.to_numpy().T, atol=1e-14)
    with pytest.raises(ValueError, match="size_i"):
        ks.even_game_value_table(31, 2)


def test_raising_tree():
    tree = ks.raising_tree(2, 1, a=2, b=3)
    nodes, edges = tree.nodes, tree.edges
    assert len(nodes) == 11 and len(edges) == 10
    by_label = nodes.drop_duplicates("label").set_index("label")
    # [KS69] section 3 worked example, Fig. 1-2.
    assert by_label.loc["α(2,1)", "state_exact"] == "11/16"
    assert by_label.loc["α(1,1)", "state_exact"] == "5/6"
    assert by_label.loc["β(1,1)", "state_exact"] == "1/4"
    assert by_label.loc["α(1,0)", "state_exact"] == "3/4"
    assert by_label.loc["β(0,1)", ["state_exact", "value_exact"]].tolist() == ["1/3", "-4"]
    # "-4 = 1/3 (12) + 2/3 (-12)": beta(0,1) and its two children.
    beta01 = nodes.index[nodes["label"] == "β(0,1)"][0]
    out = edges[edges["parent"] == beta01].merge(nodes, left_on="child", right_on="node")
    assert sorted(zip(out["probability_exact"], out["value_exact"], strict=True)) == [
        ("1/3", "12"),
        ("2/3", "-12"),
    ]
    # Every inner node is the edge-probability average of its children, in value
    # (martingale of stakes) and in state (the lemma (2)).
    for parent, group in edges.groupby("parent"):
        children = nodes.set_index("node").loc[group["child"]]
        weights = group["probability"].to_numpy()
        assert weights.sum() == pytest.approx(1.0)
        assert weights @ children["value_to_a"].to_numpy() == pytest.approx(
            nodes.loc[parent, "value_to_a"]
        )
        assert weights @ children["state"].to_numpy() == pytest.approx(nodes.loc[parent, "state"])
    # The coin-flip reading: the paths that end with A winning add up to alpha.
    wins = nodes[nodes["event"] == "A wins"]["path_probability_exact"].map(Fraction)
    assert sorted(wins) == [Fraction(1, 16), Fraction(1, 16), Fraction(9, 16)]
    assert sum(wins) == Fraction(11, 16)
    # A bigger tree stays consistent with the recursion.
    other = ks.raising_tree(3, 2, a=2.5, b=1.5).nodes
    assert other.loc[0, "state_exact"] == str(
        _exact_recursion(3, 2, Fraction(5, 2), Fraction(3, 2))[0]
    )

    def size(kind: str, i: int, j: int) -> int:  # alpha(0, j) and beta(i, 0) are leaves
        if (kind == "alpha" and i == 0) or (kind == "beta" and j == 0):
            return 1
        if kind == "alpha":
            return 1 + size("alpha", i - 1, j) + size("beta", i - 1, j)
        return 1 + size("alpha", i, j - 1) + size("beta", i, j - 1)

    assert len(other) == size("alpha", 3, 2)
    assert size("alpha", 2, 1) == 11
    with pytest.raises(ValueError, match="j"):
        ks.raising_tree(5, 4)


def test_coin_flip_table():
    table = ks.coin_flip_table(2, 1, a=2, b=3)
    # [KS69] worked example: P(K_1) = b(2, 1/4, K_1), P(K_2) = b(1, 1/3, K_2).
    assert table["prob_a_exact"].tolist() == ["9/16", "3/8", "1/16"]
    assert table["prob_b_exact"].tolist() == ["2/3", "1/3", "0"]
    assert sum(map(Fraction, table["alpha_term_exact"])) == Fraction(11, 16)
    assert sum(map(Fraction, table["beta_term_exact"])) == Fraction(3, 16)
    # TEXT_DEVIATIONS: the printed path sum lacks the term 3/4 * 3/4.
    printed_sum = Fraction(3, 4) * Fraction(1, 4) * Fraction(1, 3) * 2
    assert printed_sum == Fraction(1, 8) != Fraction(11, 16)
    assert printed_sum + Fraction(3, 4) ** 2 == Fraction(11, 16)
    for i, j, a, b in ((5, 3, 2, 2), (0, 4, 3, 2), (6, 0, 1.5, 4)):
        frame = ks.coin_flip_table(i, j, a, b)
        alpha, beta = _exact_theorem_2(i, j, Fraction(str(a)), Fraction(str(b)))
        assert sum(map(Fraction, frame["alpha_term_exact"])) == alpha
        assert sum(map(Fraction, frame["beta_term_exact"])) == beta
        assert frame["alpha_term"].sum() == pytest.approx(float(alpha))
    with pytest.raises(ValueError, match="a"):
        ks.coin_flip_table(1, 1, a=0.9)


# ---------------------------------------------------------------------------
# Section 4-5
# ---------------------------------------------------------------------------


def test_continuous_raising_points():
    # [KS69] Table III, whole, a, b = 1(1)10.
    exact = ks.continuous_raising_points_table()
    _assert_table(exact, ks.TABLE_III_PRINTED, 4, ks.TABLE_III_DEVIATIONS)
    # [KS69] example after eq. (18): b = 1 gives 1/sqrt(a); a = 4 gives 1/2.
    assert ks.continuous_raising_points(4, 1) == (0.5, 0.0)
    assert ks.continuous_raising_points(1, 9) == pytest.approx((1.0, 2 / 3), rel=1e-15)
    # Against the 40-digit reference, including a, b up to 10**6.
    for a, b in ((10, 3), (1e6, 1e6), (1e6, 1), (1, 1e6), (1e6, 2), (2, 1e6), (1.5, 1.0001)):
        less, tie, _ = _decimal_race(a, b)
        result = ks.continuous_raising_points(a, b)
        assert result.alpha == pytest.approx(float(less + tie), rel=2e-15)
        assert result.beta == pytest.approx(float(less), rel=2e-15, abs=0)
    # Far beyond: stays finite, in [0, 1], tiny values keep relative precision.
    huge = ks.continuous_raising_points(1e300, 1.0 + 1e-7)
    assert huge.alpha == pytest.approx(1e-150, rel=1e-6)
    assert 0 < huge.beta < huge.alpha
    for a, b, name in ((0.5, 2, "a"), (2, float("nan"), "b"), (math.inf, 2, "a"), (2, -3, "b")):
        with pytest.raises(ValueError, match=name):
            ks.continuous_raising_points(a, b)


@FEW
@given(potentials, potentials)
@example(a=1.0000000000000002, b=1.0)  # both alphas within an ulp of 1 (see below)
def test_continuous_raising_points_properties(a, b):
    result = ks.continuous_raising_points(a, b)
    swapped = ks.continuous_raising_points(b, a)
    assert 0.0 <= result.beta < result.alpha <= 1.0
    # [KS69] section 5: beta(a, b) = 1 - alpha(b, a).
    assert result.beta == pytest.approx(1.0 - swapped.alpha, abs=4e-16)
    # b = 1: alpha = 1/sqrt(a) ([KS69] example after eq. (18)).
    assert ks.continuous_raising_points(a, 1.0).alpha == pytest.approx(1 / math.sqrt(a), rel=4e-16)
    # Monotone: alpha and beta decrease in a and increase in b. Near a = 1 every alpha
    # lies within an ulp of 1 and each is good to ~1 ulp (alpha(1 + 2**-52, 1) came out
    # 1.0, alpha(1 + 2**-52, 1.01) 1 - 2**-53): "does not decrease" holds to 2 ulps there.
    larger = 1.01
    ulp = math.ulp(1.0)
    assert ks.continuous_raising_points(a * larger, b).alpha < result.alpha
    assert ks.continuous_raising_points(a, b * larger).alpha >= result.alpha - 2 * ulp
    assert ks.continuous_raising_points(a, b * larger).beta > result.beta


@pytest.mark.parametrize(("a", "b"), [(10.0, 3.0), (5.0, 7.0), (100.0, 20.0)])
def test_continuous_raising_points_limit(a, b):
    # [KS69] eqs. (12)-(15): n raises of a**(1/n) tend to the continuous game.
    # The error is O(1/n): it shrinks tenfold per decade and Richardson
    # extrapolation 2 alpha(2n) - alpha(n) removes it to O(1/n**2).
    target = ks.continuous_raising_points(a, b)

    def discrete(n: int) -> np.ndarray:
        return np.array(ks.raising_points(n, n, a ** (1 / n), b ** (1 / n)))

    errors = [np.abs(discrete(n) - target).max() for n in (100, 1000, 10000)]
    assert errors[2] < errors[1] / 9 < errors[0] / 81
    assert errors[2] < 1e-4
    richardson = 2 * discrete(2000) - discrete(1000)
    np.testing.assert_allclose(richardson, target, atol=1e-6)


def test_continuous_raising_points_table():
    beta = ks.continuous_raising_points_table([2, 5], [3, 7], point="beta")
    assert beta.index.name == "a" and beta.columns.name == "b"
    assert beta.loc[5, 7] == ks.continuous_raising_points(5, 7).beta
    with pytest.raises(ValueError, match="a_values"):
        ks.continuous_raising_points_table([0.5, 2], [2])
    with pytest.raises(ValueError, match="b_values"):
        ks.continuous_raising_points_table([2], [])


def test_continuous_even_game_value():
    # [KS69] Table IV, whole.
    exact = ks.continuous_even_game_value_table()
    _assert_table(exact, ks.TABLE_IV_PRINTED, 3, ks.TABLE_IV_DEVIATIONS)
    assert round(ks.continuous_even_game_value(8, 4), 3) == 0.581  # [KS69] section 5 text
    assert ks.continuous_even_game_value(4, 1) == 1.0  # alpha(4, 1) = 1/2: B resigns
    assert ks.continuous_even_game_value(1, 4) == -1.0
    assert ks.continuous_even_game_value(1e6, 1e6) == 0.0
    assert ks.continuous_even_game_value(1e6, 1) == 1.0
    # 40-digit reference at 10**6 against 5 * 10**5 (beta < 1/2 < alpha there).
    less, tie, more = _decimal_race(1e6, 5e5)
    assert less < Decimal("0.5") < less + tie
    assert ks.continuous_even_game_value(1e6, 5e5) == pytest.approx(
        float((more - less) / tie), rel=1e-14
    )
    assert ks.continuous_even_game_value(1e6, 3e5) == 1.0  # a/b > e: B resigns
    with pytest.raises(ValueError, match="a"):
        ks.continuous_even_game_value(float("nan"), 2)


@FEW
@given(potentials, potentials)
def test_continuous_even_game_value_properties(a, b):
    value = ks.continuous_even_game_value(a, b)
    assert -1.0 <= value <= 1.0
    assert value == pytest.approx(-ks.continuous_even_game_value(b, a), abs=1e-12)
    alpha_ab = ks.continuous_raising_points(a, b).alpha
    alpha_ba = ks.continuous_raising_points(b, a).alpha
    if alpha_ab <= 0.5 - 1e-9:
        assert value == 1.0
    elif alpha_ba <= 0.5 - 1e-9:
        assert value == -1.0
    elif alpha_ab > 0.5 + 1e-9 and alpha_ba > 0.5 + 1e-9:
        # [KS69] eq. (20)
        eq_20 = (alpha_ba - alpha_ab) / (alpha_ab + alpha_ba - 1)
        assert value == pytest.approx(eq_20, rel=1e-9, abs=1e-12)


def test_resignation_potential():
    # [KS69] Table V, whole, grouped by printed precision; deviations listed.
    printed = ks.TABLE_V_PRINTED
    exact = ks.resignation_potential_table(printed["b"])["a"].to_numpy()
    listed = printed["b"].isin(list(ks.TABLE_V_DEVIATIONS)).to_numpy()
    for decimals in sorted(printed["decimals"].unique()):
        rows = (printed["decimals"] == decimals).to_numpy() & ~listed
        np.testing.assert_allclose(
            exact[rows], printed["a"].to_numpy()[rows], rtol=0, atol=0.5 * 10.0**-decimals + 1e-9
        )
    assert len(ks.TABLE_V_DEVIATIONS) == 47
    for b, (value, reason) in ks.TABLE_V_DEVIATIONS.items():
        row = printed.index[printed["b"] == b][0]
        assert printed.loc[row, "a"] == value and "paper's own computation" in reason
        half_unit = 0.5 * 10.0 ** -printed.loc[row, "decimals"]
        assert value - exact[row] > half_unit  # every listed printed a is too large
    # [KS69] Table V, b = 1000: printed 2819.971, exact 2786.0125...
    assert exact[printed["b"] == 1000][0] == pytest.approx(2786.0125252, abs=1e-7)
    # Rows b = 2.3 .. 2.7 are missing from the transcription.
    assert not printed["b"].isin(ks.TABLE_V_MISSING_B).any()
    # Full precision against the 40-digit bisection.
    for b in (2.0, 10.0, 1000.0, 1e6):
        assert ks.resignation_potential(b) == pytest.approx(
            float(_decimal_resignation_potential(b)), rel=4e-15
        )
    assert ks.resignation_potential(1) == 4.0  # [KS69] Table V, example after eq. (18)
    with pytest.raises(ValueError, match="b"):
        ks.resignation_potential(0.99)


@FEW
@given(hst.floats(1.0, 1e6))
def test_resignation_potential_properties(b):
    a = ks.resignation_potential(b)
    # The characterisation: A's raising point is 1/2 there, and the even-game
    # value reaches +1 there and not before.
    assert ks.continuous_raising_points(a, b).alpha == pytest.approx(0.5, abs=1e-15)
    assert ks.continuous_even_game_value(a * (1 + 1e-9), b) == 1.0
    assert ks.continuous_even_game_value(a * (1 - 1e-6), b) < 1.0
    # a ~ b e from above ([KS69] section 5), never more than 4 b (to the
    # rounding of the root: near b = 1, da/d(alpha) = -16 amplifies 1e-16).
    assert b * math.e < a <= 4 * b * (1 + 1e-14)


def test_resignation_potential_table():
    table = ks.resignation_potential_table([1, 10, 100, 1000, 1e6])
    assert list(table.columns) == ["b", "a", "a_over_b_e"]
    ratios = table["a_over_b_e"].to_numpy()
    assert np.all(np.diff(ratios) < 0) and np.all(ratios > 1)  # tends to 1 from above
    assert ratios[0] == pytest.approx(4 / math.e)
    with pytest.raises(ValueError, match="b_values"):
        ks.resignation_potential_table([0.0])


def test_normal_raising_point():
    # [KS69] eq. (23), checked against the standard normal of the stdlib.
    phi = statistics.NormalDist().cdf
    for a, b in ((10, 10), (1e6, 3e5), (2, 50)):
        L, M = math.log(a) / 2, math.log(b) / 2
        assert ks.normal_raising_point(a, b) == pytest.approx(
            phi((0.5 - (L - M)) / math.sqrt(L + M))
        )
    assert ks.normal_raising_point(1, 1) == 1.0  # X - Y = 0 < 1/2
    # The approximation improves as the potentials grow ([KS69] section 5).
    errors = [
        abs(ks.normal_raising_point(a, a / 2) - ks.continuous_raising_points(a, a / 2).alpha)
        for a in (1e2, 1e6, 1e30, 1e300)
    ]
    assert all(later < earlier for earlier, later in itertools.pairwise(errors))
    assert errors[-1] < 1e-3
    with pytest.raises(ValueError, match="b"):
        ks.normal_raising_point(2, 0)


def test_asymptotic_even_game_value():
    assert ks.asymptotic_even_game_value(8, 4) == pytest.approx(math.log(2))
    # [KS69] eqs. (26)-(27): E(a, b) - log(a/b) -> 0 as a, b grow with a/b fixed.
    ratio = math.exp(0.5)
    errors = [
        abs(ks.continuous_even_game_value(b * ratio, b) - 0.5) for b in (1e2, 1e8, 1e32, 1e256)
    ]
    assert all(later < earlier for earlier, later in itertools.pairwise(errors))
    assert errors[-1] < 0.01
    with pytest.raises(ValueError, match="a"):
        ks.asymptotic_even_game_value(-1, 2)


def test_published_tables():
    for table in (ks.TABLE_I_PRINTED, ks.TABLE_II_PRINTED):
        assert table.shape == (10, 10)
    for table in (ks.TABLE_III_PRINTED, ks.TABLE_IV_PRINTED):
        assert table.shape == (10, 10) and table.index[0] == 1
    # Restored minus signs: the printed even-game values are antisymmetric.
    for table in (ks.TABLE_II_PRINTED, ks.TABLE_IV_PRINTED):
        cells = table.to_numpy()
        np.testing.assert_array_equal(cells, -cells.T)
    assert len(ks.TABLE_V_PRINTED) == 93
    assert ks.TABLE_V_PRINTED["b"].is_monotonic_increasing


# ---------------------------------------------------------------------------
# path_cube_actions: the cube along one P-game path (section 2)
# ---------------------------------------------------------------------------


def test_path_cube_actions_example():
    # [KS69] section 2: A doubles at 80%, B (20%) takes, A wins the doubled stakes.
    events = ks.path_cube_actions([0.5, 0.8, 1.0])
    assert events[["player", "action", "stakes"]].values.tolist() == [
        ["A", "doubles", 2.0],
        ["B", "takes", 2.0],
        ["A", "wins", 2.0],
    ]
    assert events["points_a"].iloc[-1] == 2.0


def test_path_cube_actions_drop_and_redouble():
    # Above 80% B's chance is below the 20% take point: he drops.
    dropped = ks.path_cube_actions([0.5, 0.9, 0.95], double_point=0.9)
    assert dropped["action"].tolist() == ["doubles", "drops"]
    assert dropped["points_a"].iloc[-1] == 1.0
    # B redoubles at A's 20% after taking; A takes (20% is his take point).
    events = ks.path_cube_actions([0.5, 0.8, 0.5, 0.2, 0.0])
    assert events["action"].tolist() == ["doubles", "takes", "doubles", "takes", "wins"]
    assert events["stakes"].tolist() == [2.0, 2.0, 4.0, 4.0, 4.0]
    assert events["owner"].iloc[-1] == "A"
    assert events["points_a"].iloc[-1] == -4.0


def test_path_cube_actions_on_seeded_paths():
    from cubecore import pgame

    for seed in range(20):
        path = pgame.p_game_path(0.5, steps=200_000, step_size=0.05, seed=seed)
        events = ks.path_cube_actions(path["p"], double_point=0.8)
        last = events.iloc[-1]
        assert last["action"] == "wins"  # optimal play: every double is taken
        assert last["points_a"] == (last["stakes"] if path["p"].iloc[-1] == 1 else -last["stakes"])
        doublers = events.loc[events["action"] == "doubles", "player"].tolist()
        assert all(x != y for x, y in itertools.pairwise(doublers))  # doubles alternate
        assert set(np.log2(events["stakes"])) <= set(range(64))


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"p_values": [0.5, 1.2]}, "p_values"),
        ({"p_values": [0.5, math.nan]}, "p_values"),
        ({"p_values": [0.5], "double_point": 0.2}, "double_point"),
        ({"p_values": [0.5], "double_point": math.nan}, "double_point"),
    ],
)
def test_path_cube_actions_rejects_bad_arguments(kwargs, name):
    with pytest.raises(ValueError, match=name):
        ks.path_cube_actions(**kwargs)
