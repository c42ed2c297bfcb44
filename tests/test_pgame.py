"""Tests of :mod:`cubecore.pgame`, the continuous game of [KS69] sections 1-2.

Statistical tests run at fixed seeds and accept a deviation of at most
``_Z_TOLERANCE = 4`` standard errors (a two-sided false alarm rate of 6e-5 per
comparison, were the seed random); every expected value is exact, from the lemma.
"""

from __future__ import annotations

import math
from fractions import Fraction

import hypothesis.strategies as hst
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings

from cubecore import pgame
from cubecore.pgame import (
    GAME_COLUMNS,
    MAX_MURPHY_CAPS,
    OPTIMAL,
    OPTIMAL_BEAVER_POINT,
    GameBatch,
    PointsEstimate,
    Thresholds,
    compare_cube_distribution,
    cube_value_distribution,
    doubling_price,
    doubling_price_curve,
    doubling_price_table,
    exact_equity,
    mean_points,
    murphy_cap_table,
    murphy_mean_stake,
    murphy_stake_distribution,
    p_game_path,
    simulate_games,
    simulate_games_fine,
    take_check,
    theoretical_cube_distribution,
)
from cubecore.rules import Rules

_Z_TOLERANCE = 4.0

# Profiles for the simulation checks: (thresholds, rules, start).
_PROFILES = {
    "optimal": (OPTIMAL, Rules(), 0.5),
    "asymmetric_drops": (
        Thresholds(double_a=0.7, double_b=0.9, take_a=0.25, take_b=0.3),
        Rules(),
        0.5,
    ),
    "redouble_points": (
        Thresholds(
            double_a=0.65, redouble_a=0.85, double_b=0.75, redouble_b=0.9, take_a=0.12, take_b=0.12
        ),
        Rules(),
        0.4,
    ),
    "beaver_raccoon": (
        Thresholds(double_a=0.6, redouble_a=0.8, beaver_b=0.35, raccoon_a=0.55),
        Rules(beavers=True, raccoons=True),
        0.5,
    ),
    "murphy_cap": (OPTIMAL, Rules(murphy=True, murphy_cap=2), 0.5),
    "immediate_double": (Thresholds(double_a=0.55, take_b=0.2), Rules(), 0.6),
}


def _assert_within(estimate: float, expected: float, std_error: float) -> None:
    if std_error == 0:  # a certain event: must match exactly
        assert estimate == expected
        return
    assert abs(estimate - expected) <= _Z_TOLERANCE * std_error, (estimate, expected, std_error)


# ---------------------------------------------------------------------- p_game_path


def test_p_game_path():
    path = p_game_path(0.5, steps=200_000, step_size=0.02, seed=7)
    assert list(path.columns) == ["step", "time", "p"]
    steps = np.diff(path["p"].to_numpy())
    np.testing.assert_allclose(np.abs(steps), 0.02, rtol=1e-12)
    p = path["p"].to_numpy()
    assert p[-1] in (0.0, 1.0) and np.all((p[:-1] > 0) & (p[:-1] < 1))
    pd.testing.assert_frame_equal(path, p_game_path(0.5, steps=200_000, step_size=0.02, seed=7))
    assert not p_game_path(0.5, steps=50, step_size=0.02, seed=8).equals(path)
    assert len(p_game_path(0.5, steps=10, step_size=0.01)) == 11  # not absorbed in 10
    assert len(p_game_path(1.0, steps=10, step_size=0.1)) == 1  # already absorbed


def test_p_game_path_hitting_probability():
    # [KS69] eq. (2): from 0.3 the walk reaches 1 before 0 with probability 0.3.
    ends = [p_game_path(0.3, 20_000, 0.1, seed)["p"].iloc[-1] for seed in range(400)]
    share = float(np.mean(np.array(ends) == 1.0))
    _assert_within(share, 0.3, np.sqrt(0.3 * 0.7 / 400))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"step_size": 0.03}, "`step_size` must be 1/n"),
        ({"step_size": 0.0}, "step_size"),
        ({"start": 0.55, "step_size": 0.1}, "`start` must be a multiple of step_size"),
        ({"start": 1.5}, "start"),
        ({"steps": 0}, "steps"),
        ({"seed": -1}, "seed"),
    ],
)
def test_p_game_path_rejects(kwargs, message):
    with pytest.raises(ValueError, match=message):
        p_game_path(**kwargs)


# ----------------------------------------------------------------------- Thresholds


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"double_a": 0.4, "double_b": 0.6}, "double_a \\+ double_b must exceed 1"),
        ({"redouble_a": 0.3, "redouble_b": 0.6}, "redouble_a \\+ redouble_b"),
        ({"double_a": 0.0}, "double_a"),
        ({"take_b": 1.2}, "take_b"),
        ({"beaver_a": float("nan")}, "beaver_a"),
    ],
)
def test_thresholds_rejects(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Thresholds(**kwargs)


def test_thresholds_defaults():
    # [KS69] section 2: double at 80%, take at >= 20%.
    assert (OPTIMAL.double_a, OPTIMAL.redouble_b, OPTIMAL.take_a) == (0.8, 0.8, pytest.approx(0.2))


# ------------------------------------------------------------------- simulate_games


def test_simulate_games_shape_and_reproducibility():
    games = simulate_games(GameBatch(5_000, seed=11))
    assert tuple(games.columns) == GAME_COLUMNS
    pd.testing.assert_frame_equal(games, simulate_games(GameBatch(5_000, seed=11)))
    assert not games.equals(simulate_games(GameBatch(5_000, seed=12)))
    accepted = games["doubles"] - (games["ending"] == "drop")
    exponent = games["automatic_doubles"] + accepted + games["beavers"] + games["raccoons"]
    np.testing.assert_array_equal(games["cube_value"], 2.0**exponent)
    sign = np.where(games["winner"] == "A", 1.0, -1.0)
    np.testing.assert_array_equal(games["points_a"], sign * games["cube_value"])


@pytest.mark.parametrize("name", sorted(_PROFILES))
def test_simulate_games_matches_theoretical_distribution(name):
    # The simulated final cube value agrees, cell by cell, with the exact
    # distribution from the [KS69] lemma (cells of expected count < 25 pooled).
    thresholds, rules, start = _PROFILES[name]
    n = 200_000
    games = simulate_games(GameBatch(n, thresholds, rules, start, seed=2024))
    theory = theoretical_cube_distribution(thresholds, rules, start)
    observed = games["cube_value"].value_counts()
    assert set(observed.index) <= set(theory["cube_value"])
    pooled_p = pooled_count = 0.0
    for value, p in zip(theory["cube_value"], theory["probability"], strict=True):
        count = observed.get(value, 0)
        if n * p < 25:
            pooled_p, pooled_count = pooled_p + p, pooled_count + count
            continue
        _assert_within(count / n, p, np.sqrt(p * (1 - p) / n))
    if pooled_p > 0:
        _assert_within(pooled_count / n, pooled_p, np.sqrt(pooled_p * (1 - pooled_p) / n) + 1 / n)


@pytest.mark.parametrize("name", ["optimal", "asymmetric_drops", "redouble_points", "murphy_cap"])
def test_simulate_games_matches_exact_equity(name):
    thresholds, rules, start = _PROFILES[name]
    estimate = mean_points(simulate_games(GameBatch(200_000, thresholds, rules, start, seed=99)))
    _assert_within(estimate.mean, exact_equity(thresholds, rules, start), estimate.std_error)


def test_simulate_games_rare_stakes():
    # [RULES]: "The game is rarely redoubled beyond four times the original stake":
    # at 80%/20% P(stake > 4) = 1/16 exactly ([KS69]: each redouble has chance 1/4).
    theory = theoretical_cube_distribution()
    above_four = theory.loc[theory["cube_value"] > 4, "probability"].sum()
    assert above_four == pytest.approx(1 / 16, abs=1e-14)
    games = simulate_games(GameBatch(200_000, seed=5))
    share = float((games["cube_value"] > 4).mean())
    _assert_within(share, 1 / 16, np.sqrt(1 / 16 * 15 / 16 / 200_000))


def test_simulate_games_rejects():
    with pytest.raises(ValueError, match="money play"):
        simulate_games(GameBatch(10, rules=Rules(match_length=5)))
    with pytest.raises(ValueError, match="n_games"):
        simulate_games(GameBatch(0))
    with pytest.raises(ValueError, match="start"):
        simulate_games(GameBatch(10, start=1.0))
    with pytest.raises(ValueError, match="thresholds"):
        simulate_games(GameBatch(10, thresholds=(0.8, 0.8)))


# -------------------------------------------------------------- simulate_games_fine


@pytest.mark.parametrize(
    "thresholds",
    [OPTIMAL, Thresholds(double_a=0.75, double_b=0.85, take_b=0.3, take_a=0.2)],
)
def test_simulate_games_fine_agrees_with_chain(thresholds):
    # The step-by-step lattice walk and the embedded chain: two-sample z-tests on
    # the share of games ending at stake 2, the share of drops and the mean points.
    n = 20_000
    fine = simulate_games_fine(GameBatch(n, thresholds, seed=1), step_size=0.05)
    chain = simulate_games(GameBatch(n, thresholds, seed=2))
    for column, test_value in (("cube_value", 2.0), ("ending", "drop")):
        a = float((fine[column] == test_value).mean())
        b = float((chain[column] == test_value).mean())
        pooled = (a + b) / 2
        _assert_within(a, b, np.sqrt(2 * pooled * (1 - pooled) / n) + 1 / n)
    fine_mean, chain_mean = mean_points(fine), mean_points(chain)
    _assert_within(
        fine_mean.mean, chain_mean.mean, np.hypot(fine_mean.std_error, chain_mean.std_error)
    )


def test_simulate_games_fine_rejects():
    with pytest.raises(ValueError, match="`double_a` must be a multiple of step_size"):
        simulate_games_fine(GameBatch(10, Thresholds(double_a=0.83)), step_size=0.05)


# --------------------------------------------------------------------- summaries


def test_cube_value_distribution():
    games = simulate_games(GameBatch(1_000, seed=3))
    dist = cube_value_distribution(games)
    assert list(dist.columns) == ["cube_value", "exponent", "games", "fraction", "std_error"]
    assert dist["games"].sum() == 1_000
    assert dist["fraction"].sum() == pytest.approx(1.0)
    with pytest.raises(ValueError, match="games"):
        cube_value_distribution(pd.DataFrame({"x": [1]}))


def test_mean_points():
    games = simulate_games(GameBatch(4, seed=0)).assign(points_a=[1.0, -1.0, 1.0, 1.0])
    estimate = mean_points(games)
    # mean 1/2, sample sd 1, standard error 1/2, z = 1.959963984540054
    assert isinstance(estimate, PointsEstimate)
    assert (estimate.mean, estimate.std_error, estimate.n_games) == (0.5, 0.5, 4)
    assert estimate.low == pytest.approx(0.5 - 0.979981992270027, rel=1e-12)
    assert estimate.high == pytest.approx(0.5 + 0.979981992270027, rel=1e-12)
    assert mean_points(games.iloc[:1]).std_error == 0.0  # one game: zero width
    with pytest.raises(ValueError, match="confidence"):
        mean_points(games, confidence=1.0)


# ------------------------------------------------------------------- exact_equity


def _fraction_equity(up: Fraction, lo: Fraction, x: Fraction) -> Fraction:
    """Both take everything, redouble points up (A) and 1 - lo (B), start at x.

    Independent of the module: solve g_A = 2[(1-q_B) + q_B g_B],
    g_B = 2[q_A g_A - (1-q_A)] exactly ([KS69] lemma eq. (2)).
    """
    q_b, q_a = (1 - up) / (1 - lo), lo / up
    g_a = (2 * (1 - q_b) - 4 * q_b * (1 - q_a)) / (1 - 4 * q_a * q_b)
    g_b = 2 * (q_a * g_a - (1 - q_a))
    return (x - lo) / (up - lo) * g_a + (up - x) / (up - lo) * g_b


def test_exact_equity():
    # [KS69] section 2: at 80% the double is worth the drop, +K; optimal play from
    # x in (0.2, 0.8) is worth (x - 0.2)/0.6 - (0.8 - x)/0.6 = (2x - 1)/0.6.
    assert exact_equity(start=0.8) == pytest.approx(1.0, abs=1e-12)
    for x in (0.21, 0.35, 0.5, 0.62, 0.79):
        assert exact_equity(start=x) == pytest.approx((2 * x - 1) / 0.6, abs=1e-12)
    # No cube: 2x - 1; the Murphy rule multiplies by E[2^k] = 5/4 (uncapped).
    never = Thresholds(double_a=1.0, double_b=1.0)
    assert exact_equity(never, start=0.7) == pytest.approx(0.4, abs=1e-12)
    murphy = Rules(murphy=True)
    assert exact_equity(never, murphy, start=0.7) == pytest.approx(0.5, abs=1e-12)
    # Cap 1: E[2^k] = 5/6 + 2/6 = 7/6.
    capped = Rules(murphy=True, murphy_cap=1)
    assert exact_equity(never, capped, start=0.7) == pytest.approx(0.4 * 7 / 6, abs=1e-12)
    # Exact rationals for a profile where everything is taken.
    profile = Thresholds(double_a=0.7, double_b=0.7, take_a=0.3, take_b=0.3)
    expected = _fraction_equity(Fraction(7, 10), Fraction(3, 10), Fraction(9, 20))
    assert exact_equity(profile, start=0.45) == pytest.approx(float(expected), abs=1e-12)


def test_exact_equity_divergent():
    # Redoubling at 50% against 80%: 4 q_A q_B = 4 (0.5/0.8)(0.2/0.5) = 1, no mean.
    assert np.isnan(exact_equity(Thresholds(double_a=0.5), start=0.5))


@settings(max_examples=100, deadline=None)
@given(
    double_a=hst.floats(0.55, 1.0),
    double_b=hst.floats(0.55, 1.0),
    take_a=hst.floats(0.0, 0.45),
    take_b=hst.floats(0.0, 0.45),
    start=hst.floats(0.01, 0.99),
)
def test_exact_equity_swap_and_bounds(double_a, double_b, take_a, take_b, start):
    # Swapping the players negates A's equity. (Equity need not be monotone in the
    # start under arbitrary thresholds: a doubler at 45% can hand A more than a win.)
    t = Thresholds(double_a=double_a, double_b=double_b, take_a=take_a, take_b=take_b)
    swapped = Thresholds(double_a=double_b, double_b=double_a, take_a=take_b, take_b=take_a)
    value = exact_equity(t, start=start)
    if np.isnan(value):
        assert np.isnan(exact_equity(swapped, start=1 - start))
        return
    assert exact_equity(swapped, start=1 - start) == pytest.approx(-value, abs=1e-9)


# --------------------------------------------------------- theoretical distribution


def test_theoretical_cube_distribution():
    # [KS69]: after a double at 80% taken, a redouble follows with chance 1/4, so
    # P(stake = 2^k) = (3/4)(1/4)^(k-1) from any start inside (0.2, 0.8).
    dist = theoretical_cube_distribution(start=0.3)
    k = np.arange(1, len(dist) + 1)
    np.testing.assert_allclose(dist["cube_value"], 2.0**k)
    np.testing.assert_allclose(dist["probability"], 0.75 * 0.25 ** (k - 1), rtol=1e-12)
    assert dist["probability"].sum() + dist.attrs["tail_probability"] == pytest.approx(1.0)
    # Murphy with cap 2: the automatic doubles k = 0, 1, 2 have 5/6, 5/36, 1/36.
    murphy = theoretical_cube_distribution(rules=Rules(murphy=True, murphy_cap=2))
    p = dict(zip(murphy["cube_value"], murphy["probability"], strict=True))
    assert p[2.0] == pytest.approx(5 / 6 * 3 / 4, rel=1e-12)
    assert p[4.0] == pytest.approx(5 / 6 * 3 / 16 + 5 / 36 * 3 / 4, rel=1e-12)
    # Every double dropped: the stake stays 1.
    drops = theoretical_cube_distribution(Thresholds(take_a=0.3, take_b=0.3))
    assert drops["cube_value"].tolist() == [1.0] and drops["probability"].iloc[0] == 1.0
    # Nobody doubles: the stake stays 1.
    never = theoretical_cube_distribution(Thresholds(double_a=1.0, double_b=1.0))
    assert never["probability"].tolist() == [1.0]


# ----------------------------------------------------------------- KS69 section 1


def test_take_check():
    # [KS69] eqs. (3)-(5): at 80% taking is worth -K, like dropping.
    check = take_check(0.8, n_games=400_000, seed=17)
    assert check.take_value_exact == -1.0 and check.drop_value == -1.0
    _assert_within(check.take_estimate.mean, -1.0, check.take_estimate.std_error)
    assert check.take_estimate.low < -1.0 < check.take_estimate.high
    # Below 80% taking is better than dropping (3 - 5d), above it worse.
    early = take_check(0.7, n_games=200_000, seed=18)
    assert early.take_value_exact == pytest.approx(-0.5)
    _assert_within(early.take_estimate.mean, -0.5, early.take_estimate.std_error)
    assert take_check(0.9, n_games=10).take_value_exact == pytest.approx(-1.5)
    with pytest.raises(ValueError, match="double_point"):
        take_check(0.2)


def test_doubling_price():
    # Doubling at 50% from 1/2: taken, B owns a cube worth 2.5*0.5 - 1 = 1/4 to him
    # per unit: A's equity -1/2; a beaver (B's 50% >= 40%) doubles that to -1.
    plain = doubling_price(0.5, n_games=200_000, seed=21)
    assert plain.loss_exact == pytest.approx(0.5, abs=1e-12)
    _assert_within(plain.estimate.mean, plain.equity_exact, plain.estimate.std_error)
    beaver = doubling_price(0.5, beavers=True, n_games=200_000, seed=22)
    assert beaver.loss_exact == pytest.approx(1.0, abs=1e-12)
    _assert_within(beaver.estimate.mean, beaver.equity_exact, beaver.estimate.std_error)
    # Above 60% B does not beaver: same price either way.
    assert doubling_price(0.7, beavers=True, n_games=10).loss_exact == pytest.approx(
        doubling_price(0.7, n_games=10).loss_exact
    )
    assert OPTIMAL_BEAVER_POINT == 0.4


def test_doubling_price_curve():
    # From 1/2 the game reaches d in (0.5, 0.8) before 20% with chance 0.3/(d - 0.2),
    # where doubling costs (0.8 - d)/0.6 (taken) or (2.6 - 4d)/0.6 (beavered, d <= 0.6).
    d = np.array([0.55, 0.6, 0.7, 0.8])
    curve = doubling_price_curve(d)
    reach = 0.3 / (d - 0.2)
    plain = curve.loc[~curve["beavers"], "loss"].to_numpy()
    np.testing.assert_allclose(plain, reach * (0.8 - d) / 0.6, atol=1e-12)
    beaver = curve.loc[curve["beavers"], "loss"].to_numpy()
    per_unit = np.where(d <= 0.6, (2.6 - 4 * d) / 0.6, (0.8 - d) / 0.6)
    np.testing.assert_allclose(beaver, reach * per_unit, atol=1e-12)
    with pytest.raises(ValueError, match="double_points"):
        doubling_price_curve([0.1])


def test_doubling_price_table():
    table = doubling_price_table(0.6, n_games=2_000, seed=5)
    assert list(table.columns) == [
        "beavers",
        "equity_exact",
        "equity_simulated",
        "ci_low",
        "ci_high",
        "loss_exact",
    ]
    for row in table.itertuples():
        price = doubling_price(0.6, beavers=row.beavers, n_games=2_000, seed=5)
        assert row.loss_exact == price.loss_exact and row.equity_exact == price.equity_exact
        assert (row.ci_low, row.equity_simulated, row.ci_high) == (
            price.estimate.low,
            price.estimate.mean,
            price.estimate.high,
        )
    with pytest.raises(ValueError, match="double_point"):
        doubling_price_table(0.1)


def test_murphy_cap_table():
    # [RULES]: each opening tie (1/6) doubles; cap c: E = sum_{k<c} (2/6)^k (5/6) + (2/6)^c
    table = murphy_cap_table([1, 2, None])
    assert table["cap"].tolist()[:2] == [1, 2] and table["cap"].iloc[2] is None
    expected = [5 / 6 + 2 / 6, 5 / 6 + (2 / 6) * (5 / 6) + (2 / 6) ** 2, 5 / 4]
    np.testing.assert_allclose(table["mean_stake"], expected, rtol=1e-12)
    np.testing.assert_allclose(table["p_above_1"], [1 / 6] * 3, rtol=1e-12)
    np.testing.assert_allclose(table["p_at_least_4"], [0.0, 1 / 36, 1 / 36], atol=1e-15)
    with pytest.raises(ValueError, match="cap"):
        murphy_cap_table([0])
    with pytest.raises(ValueError, match="`caps` must hold at most"):
        murphy_cap_table([1] * (MAX_MURPHY_CAPS + 1))


def test_murphy_stake_distribution():
    # [RULES]: each opening tie (6 of 36 rolls) doubles the centred cube, up to the cap.
    capped = murphy_stake_distribution(Rules(murphy=True, murphy_cap=2))
    assert capped["automatic_doubles"].tolist() == [0, 1, 2]
    assert capped["stake"].tolist() == [1.0, 2.0, 4.0]
    np.testing.assert_allclose(capped["probability"], [5 / 6, 5 / 36, 1 / 36], rtol=1e-15)
    uncapped = murphy_stake_distribution(Rules(murphy=True))
    assert uncapped["probability"].sum() == pytest.approx(1.0, abs=1e-14)
    assert murphy_stake_distribution(Rules())["probability"].tolist() == [1.0]
    with pytest.raises(ValueError, match="money play"):
        murphy_stake_distribution(Rules(match_length=5))


def test_murphy_mean_stake():
    # E[2^k] = (5/6) / (1 - 2/6) = 5/4 uncapped; cap 1: 5/6 + 2/6 = 7/6.
    assert murphy_mean_stake(Rules(murphy=True)) == 1.25
    assert murphy_mean_stake(Rules(murphy=True, murphy_cap=1)) == pytest.approx(7 / 6, rel=1e-15)
    assert murphy_mean_stake() == 1.0
    dist = murphy_stake_distribution(Rules(murphy=True, murphy_cap=3))
    expected = float((dist["stake"] * dist["probability"]).sum())
    assert murphy_mean_stake(Rules(murphy=True, murphy_cap=3)) == pytest.approx(expected, rel=1e-14)


def test_compare_cube_distribution():
    games = simulate_games(GameBatch(50_000, seed=4))
    theory = theoretical_cube_distribution()
    table = compare_cube_distribution(games, theory)
    assert table["games"].sum() == 50_000
    assert set(theory["cube_value"]) <= set(table["cube_value"])
    row = table.loc[table["cube_value"] == 2.0].iloc[0]
    assert row["probability"] == pytest.approx(0.75)
    assert row["std_error"] == pytest.approx(np.sqrt(0.75 * 0.25 / 50_000))
    assert row["z"] == pytest.approx((row["fraction"] - 0.75) / row["std_error"])
    assert np.nanmax(np.abs(table["z"])) < _Z_TOLERANCE
    with pytest.raises(ValueError, match="theory"):
        compare_cube_distribution(games, pd.DataFrame({"x": [1]}))


def _rule_sets():
    return [
        pgame.Rules(),
        pgame.Rules(beavers=True, raccoons=True),
        pgame.Rules(beavers=True, murphy=True, murphy_cap=3),
    ]


@pytest.mark.parametrize("rules", _rule_sets(), ids=["plain", "beaver-raccoon", "murphy"])
def test_chain_slices_draw_the_same_stream_as_one_slice(monkeypatch, rules):
    """Slicing a chain step (memory) changes no game: small slices, same table."""
    thresholds = pgame.Thresholds(beaver_b=0.4, raccoon_a=0.7) if rules.beavers else pgame.OPTIMAL
    whole = pgame.simulate_games(pgame.GameBatch(5_000, thresholds, rules, 0.5, seed=11))
    monkeypatch.setattr(pgame, "_SLICE", 333)
    sliced = pgame.simulate_games(pgame.GameBatch(5_000, thresholds, rules, 0.5, seed=11))
    assert sliced.equals(whole)
    check = pgame.take_check(0.7, 5_000, seed=5)
    monkeypatch.setattr(pgame, "_SLICE", 1 << 17)
    assert check == pgame.take_check(0.7, 5_000, seed=5)


@pytest.mark.parametrize("rules", _rule_sets(), ids=["plain", "beaver-raccoon", "murphy"])
def test_summary_is_the_table_summarised(rules):
    thresholds = pgame.Thresholds(beaver_b=0.4, raccoon_a=0.7) if rules.beavers else pgame.OPTIMAL
    games = pgame.simulate_games(pgame.GameBatch(20_000, thresholds, rules, 0.6, seed=4))
    summary = pgame.summarize_games(pgame.GameBatch(20_000, thresholds, rules, 0.6, seed=4))
    of_table = pgame.GamesSummary.of(games)
    assert summary.n_games == of_table.n_games == 20_000
    assert summary.cube_values.equals(of_table.cube_values)
    assert summary.points == of_table.points == pgame.mean_points(games)
    assert (summary.beavers, summary.raccoons, summary.drops) == (
        of_table.beavers,
        of_table.raccoons,
        of_table.drops,
    )
    assert summary.drops == int((games["ending"] == "drop").sum())
    theory = pgame.theoretical_cube_distribution(thresholds, rules, 0.6)
    assert pgame.compare_cube_distribution(summary, theory).equals(
        pgame.compare_cube_distribution(games, theory)
    )


def test_doubling_price_estimate_is_the_mean_of_the_simulated_games():
    price = pgame.doubling_price(0.7, beavers=True, n_games=20_000, seed=8)
    rules = pgame.Rules(beavers=True)
    thresholds = pgame.Thresholds(double_a=0.7, redouble_a=0.8, beaver_b=0.4)
    games = pgame.simulate_games(pgame.GameBatch(20_000, thresholds, rules, 0.5, seed=8))
    assert price.estimate == pgame.mean_points(games)


# ------------------------------------------------ long games, stakes beyond float range

#: A and B double at nearly the same chance and beaver every double (issue #18): the
#: stake passes 2^1023 in some games of a hundred thousand.
_NEAR_POINTS = Thresholds(
    double_a=0.51,
    redouble_a=0.51,
    double_b=0.5,
    take_a=0.0,
    take_b=0.0,
    beaver_a=0.4,
    beaver_b=0.4,
)


def test_expected_stops_matches_the_simulated_chain():
    for thresholds, rules in ((OPTIMAL, Rules()), (_NEAR_POINTS, Rules(beavers=True))):
        games = simulate_games(GameBatch(20_000, thresholds, rules, seed=4))
        stops = games["doubles"] + (games["ending"] == "played_out")
        expected = pgame.expected_stops(thresholds, rules)
        standard_error = stops.std() / np.sqrt(len(stops))
        assert abs(stops.mean() - expected) < 4 * standard_error, (stops.mean(), expected)


def test_expected_stops_of_a_single_round_trip():
    # u = 0.51, l = 0.5: each stop after the first ends the game with chance 1/51 or 1/50
    q_a, q_b = 0.5 / 0.51, 0.49 / 0.5
    after_a_double = (1 + q_b) / (1 - q_a * q_b)  # stops after A's taken double at u
    after_b_double = (1 + q_a) / (1 - q_a * q_b)
    to_up = (0.5 - 0.5) / (0.51 - 0.5)
    exact = 1 + to_up * after_a_double + (1 - to_up) * after_b_double
    assert pgame.expected_stops(_NEAR_POINTS) == pytest.approx(exact, rel=1e-12)


def test_stakes_beyond_float_range_are_counted_by_exponent():
    with np.errstate(all="raise"):  # no overflow warning on the way
        summary = pgame.summarize_games(
            pgame.GameBatch(100_000, _NEAR_POINTS, Rules(beavers=True), seed=1)
        )
        theory = theoretical_cube_distribution(_NEAR_POINTS, Rules(beavers=True))
        table = compare_cube_distribution(summary, theory)
    assert summary.cube_values["exponent"].max() > 1023
    assert not table["exponent"].duplicated().any()
    assert table["games"].sum() == 100_000
    assert table["fraction"].sum() == pytest.approx(1.0)
    assert 0.0 <= table["probability"].sum() <= 1.0 + 1e-12
    beyond = table["exponent"] > 1023
    assert np.isinf(table.loc[beyond, "cube_value"]).all()
    np.testing.assert_array_equal(
        table.loc[~beyond, "cube_value"], np.ldexp(1.0, table.loc[~beyond, "exponent"])
    )
    games = simulate_games(GameBatch(2_000, _NEAR_POINTS, Rules(beavers=True), seed=1))
    with np.errstate(over="ignore"):
        by_value = np.ldexp(1.0, cube_value_distribution(games)["exponent"])
    np.testing.assert_array_equal(by_value, cube_value_distribution(games)["cube_value"])


@pytest.mark.parametrize(
    "simulate",
    [
        lambda budget: pgame.simulate_games(pgame.GameBatch(20_000, seed=5), time_budget=budget),
        lambda budget: (
            pgame.summarize_games(pgame.GameBatch(20_000, seed=5), time_budget=budget).points
        ),
        lambda budget: pgame.simulate_games_fine(
            pgame.GameBatch(200, seed=5), step_size=0.05, time_budget=budget
        ),
        lambda budget: pgame.take_check(0.7, n_games=20_000, seed=5, time_budget=budget),
        lambda budget: pgame.doubling_price(0.7, n_games=20_000, seed=5, time_budget=budget),
        lambda budget: pgame.doubling_price_table(0.7, n_games=2_000, seed=5, time_budget=budget),
    ],
    ids=[
        "simulate_games",
        "summarize_games",
        "simulate_games_fine",
        "take_check",
        "price",
        "price_table",
    ],
)
def test_a_simulation_past_its_time_budget_stops_with_a_message(simulate):
    # issue #18: a time budget while it runs; the result never depends on it
    with pytest.raises(ValueError, match=r"ran past its `time_budget` of 1e-09 s"):
        simulate(1e-9)
    within = simulate(3600.0)
    unbudgeted = simulate(None)
    if isinstance(within, pd.DataFrame):
        pd.testing.assert_frame_equal(within, unbudgeted)
    else:
        assert within == unbudgeted
    for bad in (0.0, -1.0, math.nan, 1e9):
        with pytest.raises(ValueError, match="`time_budget`"):
            simulate(bad)
