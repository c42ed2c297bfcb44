"""Tests for cubecore.janowski against [JR12] (shared/seeds/janowski_model_revisited.txt)."""

import dataclasses

import hypothesis.strategies as hst
import numpy as np
import pytest
from hypothesis import given, settings
from numpy.testing import assert_allclose

from cubecore import janowski as jm
from tests.strategies import cube_lives, cube_positions, gammon_values, probabilities

GRID_X = np.linspace(0.0, 1.0, 11)
GRID_WL = [(1.0, 1.0), (1.25, 1.2), (1.5, 1.1), (2.0, 3.0), (3.0, 1.0)]


# --- closed forms, derived by hand from the piecewise-linear equities (see cube_points Notes)
def closed_take(x, W, L):
    return (L - 0.5) / (W + L + x / 2)


def closed_cash(x, W, L):
    return 1 - closed_take(x, L, W)


def closed_beaver(x, W, L):
    return L / (W + L + x / 2)


def closed_raccoon(x, W, L):
    return (L + x / 2) / (W + L + x / 2)


def closed_redouble(x, W, L):
    return (L + x) / (W + L + x / 2)


def closed_initial_double(x, W, L):
    # 2 E_opponent = E_center between TP and CP (s = W + L + 1/2)
    s = W + L + 0.5
    return (x * (1 + 2 / 3 * (L - 0.5)) + (1 - x) * L) / (x * 2 / 3 * s + (1 - x) * (W + L))


def closed_too_good(x, W, L):
    # E_center = 1 above CP: x (1 + (W-1)(P-CP)/(1-CP)) + (1-x)((W+L)P - L) = 1
    cp = (L + 1) / (W + L + 0.5)
    slope = x * (W - 1) / (1 - cp) + (1 - x) * (W + L)
    intercept = x * (1 - (W - 1) * cp / (1 - cp)) - (1 - x) * L
    return (1 - intercept) / slope


def test_live_points_published():
    # [JR12]: TP = (L-1/2)/(W+L+1/2), CP = (L+1)/(W+L+1/2); the 20/80 of the continuous game
    assert jm.live_take_point() == pytest.approx(0.2, abs=1e-15)
    assert jm.live_cash_point() == pytest.approx(0.8, abs=1e-15)


def test_cube_points_live_and_dead_anchors():
    live = jm.cube_points(1.0)
    assert live.take_point == pytest.approx(0.2, abs=1e-12)
    assert live.cash_point == pytest.approx(0.8, abs=1e-12)
    assert live.initial_double_point == pytest.approx(0.8, abs=1e-12)
    assert live.redouble_point == pytest.approx(0.8, abs=1e-12)
    dead = jm.cube_points(0.0)
    assert dead.take_point == pytest.approx(0.25, abs=1e-12)
    assert dead.cash_point == pytest.approx(0.75, abs=1e-12)
    assert dead.initial_double_point == pytest.approx(0.5, abs=1e-12)
    # no gammons: playing on never beats cashing, reported as 1.0
    assert dead.too_good_center == 1.0
    assert live.too_good_owned == 1.0


@pytest.mark.parametrize(("W", "L"), GRID_WL)
def test_cube_points_equal_closed_forms(W, L):
    for x in GRID_X:
        pts = jm.cube_points(x, W, L)
        assert pts.take_point == pytest.approx(closed_take(x, W, L), abs=1e-12)
        assert pts.cash_point == pytest.approx(closed_cash(x, W, L), abs=1e-12)
        assert pts.beaver_point == pytest.approx(closed_beaver(x, W, L), abs=1e-12)
        assert pts.raccoon_point == pytest.approx(closed_raccoon(x, W, L), abs=1e-12)
        assert pts.redouble_point == pytest.approx(closed_redouble(x, W, L), abs=1e-12)
        assert pts.initial_double_point == pytest.approx(closed_initial_double(x, W, L), abs=1e-12)
        expected_too_good = closed_too_good(x, W, L) if W > 1 else 1.0
        if expected_too_good > 1:
            expected_too_good = 1.0
        assert pts.too_good_center == pytest.approx(expected_too_good, abs=1e-12)
        # above the cash point the owned and centred live curves coincide
        assert pts.too_good_owned == pytest.approx(pts.too_good_center, abs=1e-12)


def test_live_cube_with_gammons_ties_at_the_cash_point():
    # x = 1: doubling, cashing and playing on all tie at CP (the curves meet at +1 there)
    pts = jm.cube_points(1.0, 1.25, 1.2)
    cp = jm.live_cash_point(1.25, 1.2)
    assert pts.initial_double_point == pytest.approx(cp, abs=1e-12)
    assert pts.too_good_center == pytest.approx(cp, abs=1e-12)


def test_cubeful_equity_is_interpolation():
    p = np.linspace(0, 1, 101)
    for cube in jm.CUBE_POSITIONS:
        live = jm.live_cube_equity(p, cube, 1.3, 1.1)
        dead = jm.dead_cube_equity(p, 1.3, 1.1)
        assert_allclose(jm.cubeful_equity(p, 0.0, cube, 1.3, 1.1), dead, atol=1e-15)
        assert_allclose(jm.cubeful_equity(p, 1.0, cube, 1.3, 1.1), live, atol=1e-15)
        assert_allclose(
            jm.cubeful_equity(p, 0.4, cube, 1.3, 1.1), 0.4 * live + 0.6 * dead, atol=1e-15
        )


def test_live_cube_corners():
    # [JR12] cases 1-3: the equities at 0, TP, CP and 1
    W, L = 1.5, 1.25
    tp, cp = jm.live_take_point(W, L), jm.live_cash_point(W, L)
    assert_allclose(jm.live_cube_equity([0, tp, cp, 1], "center", W, L), [-L, -1, 1, W])
    assert_allclose(jm.live_cube_equity([0, cp, 1], "owned", W, L), [-L, 1, W])
    assert_allclose(jm.live_cube_equity([0, tp, 1], "opponent", W, L), [-L, -1, W])


def test_janowski_1993_formula_agrees_only_at_ends():
    p = np.linspace(0.3, 0.7, 9)  # inside the take/cash window for these W, L
    for x in (0.0, 1.0):
        assert_allclose(
            jm.janowski_1993_center_equity(p, x, 1.2, 1.1),
            jm.cubeful_equity(p, x, "center", 1.2, 1.1),
            atol=1e-12,
        )
    gap = jm.janowski_1993_center_equity(p, 0.5, 1.2, 1.1) - jm.cubeful_equity(
        p, 0.5, "center", 1.2, 1.1
    )
    assert np.max(np.abs(gap)) > 1e-3


def test_jacoby_moves_initial_double_and_too_good():
    plain = jm.cube_points(0.68, 1.25, 1.2)
    jacoby = jm.cube_points(0.68, 1.25, 1.2, jacoby=True)
    # holding a centred cube is worth less without gammons: double earlier, never too good
    assert jacoby.initial_double_point < plain.initial_double_point
    assert plain.too_good_center < 1.0
    assert jacoby.too_good_center == 1.0
    # points about a turned cube do not change
    assert jacoby.take_point == plain.take_point
    assert jacoby.redouble_point == plain.redouble_point
    assert jacoby.too_good_owned == plain.too_good_owned


def closed_jacoby_beaver_initial_double(x, W, L):
    # [cube_points Notes] E_c = 4 E_op inside the window, below the raccoon point:
    # x (-1 + 2 (P - TP)/(CP - TP)) + (1 - x)(2P - 1)
    #   = 4 [x (-1 + (W + 1)(P - TP)/(1 - TP)) + (1 - x)(P (W + L) - L)]
    tp, cp = (L - 0.5) / (W + L + 0.5), (L + 1) / (W + L + 0.5)
    a1, b1 = x * 2 / (cp - tp) + (1 - x) * 2, x * (-1 - 2 * tp / (cp - tp)) - (1 - x)
    slope = (W + 1) / (1 - tp)
    a2, b2 = 4 * (x * slope + (1 - x) * (W + L)), 4 * (x * (-1 - slope * tp) - (1 - x) * L)
    return (b2 - b1) / (a1 - a2)


def test_jacoby_with_beavers_initial_double_point_is_gnubgs():
    # gnubg 1.07 `show marketwindow`, Jacoby on, 3 beavers: dead-cube IDP
    # (L - 1/4)/(L + W - 1/2) = 0.475 for W = 1.3, L = 1.2; without beavers 0.4667
    beavers = jm.cube_points(0.0, 1.3, 1.2, jacoby=True, beavers=True)
    assert beavers.initial_double_point == pytest.approx(0.475, abs=1e-12)
    plain = jm.cube_points(0.0, 1.3, 1.2, jacoby=True)
    assert plain.initial_double_point == pytest.approx(0.7 / 1.5, abs=1e-12)
    # the live cube: the cash point with or without beavers
    live = jm.cube_points(1.0, 1.3, 1.2, jacoby=True, beavers=True)
    assert live.initial_double_point == pytest.approx((1.2 + 1) / (1.3 + 1.2 + 0.5), abs=1e-12)


@pytest.mark.parametrize("x", [0.0, 0.05, 0.1, 0.15])
@pytest.mark.parametrize(("W", "L"), [(1.3, 1.2), (1.0, 1.0), (1.6, 1.4)])
def test_jacoby_beaver_general_x_solves_the_documented_equation(x, W, L):
    point = jm.cube_points(x, W, L, jacoby=True, beavers=True).initial_double_point
    raccoon = closed_raccoon(x, W, L)
    expected = closed_jacoby_beaver_initial_double(x, W, L)
    if expected <= raccoon:  # the beaver applies: the documented linear solution
        assert point == pytest.approx(expected, abs=1e-9)
    else:  # above the raccoon point the taker takes: the point without beavers
        assert point == pytest.approx(
            jm.cube_points(x, W, L, jacoby=True).initial_double_point, abs=1e-9
        )


@settings(max_examples=60, deadline=None)
@given(cube_lives, gammon_values, gammon_values)
def test_beavers_move_only_the_jacoby_initial_double_point(x, W, L):
    for jacoby in (False, True):
        plain = jm.cube_points(x, W, L, jacoby=jacoby)
        beavers = jm.cube_points(x, W, L, jacoby=jacoby, beavers=True)
        for name in ("take_point", "cash_point", "redouble_point", "too_good_owned"):
            assert getattr(beavers, name) == pytest.approx(getattr(plain, name), abs=1e-12)
        if jacoby:  # a beaver makes doubling worse for the doubler: he waits longer
            assert beavers.initial_double_point >= plain.initial_double_point - 1e-12
        else:
            assert beavers.initial_double_point == pytest.approx(
                plain.initial_double_point, abs=1e-12
            )


def test_cube_decision_with_beavers_values_the_beavered_double():
    # dead cube, Jacoby, W = 1.3, L = 1.2: the double point moves from 0.4667 to 0.475
    p = 0.47
    plain = jm.cube_decision(p, 0.0, W=1.3, L=1.2, jacoby=True)
    beavered = jm.cube_decision(p, 0.0, W=1.3, L=1.2, jacoby=True, beavers=True)
    assert plain.doubler_action == "double/take"
    assert beavered.doubler_action == "no double"
    assert beavered.taker_action == "beaver"
    assert jm.cube_decision(0.48, 0.0, W=1.3, L=1.2, jacoby=True, beavers=True).doubler_action == (
        "double/take"
    )
    with pytest.raises(ValueError, match="beavers"):
        jm.cube_points(0.5, beavers=1)
    with pytest.raises(ValueError, match="beavers"):
        jm.cube_decision(0.5, 0.5, beavers="yes")


def test_two_index_points():
    same = jm.two_index_points(0.6, 0.6, 1.2, 1.1)
    single = jm.cube_points(0.6, 1.2, 1.1)
    assert same.initial_double_point == pytest.approx(single.initial_double_point, abs=1e-14)
    assert same.redouble_point == pytest.approx(single.redouble_point, abs=1e-14)
    assert same.perceived_cash_point == pytest.approx(single.cash_point, abs=1e-14)
    assert same.actual_cash_point == pytest.approx(single.cash_point, abs=1e-14)
    # a taker with a livelier cube takes more: he passes later than the doubler thinks
    parted = jm.two_index_points(0.5, 1.0)
    assert parted.perceived_cash_point == pytest.approx(closed_cash(0.5, 1, 1), abs=1e-12)
    assert parted.actual_cash_point == pytest.approx(0.8, abs=1e-12)
    assert parted.initial_double_point == pytest.approx(closed_initial_double(0.5, 1, 1), abs=1e-12)


def test_cube_decision():
    # x = 1, no gammons: at 70% hold (E_center = 2/3 > 2 E_opponent = 1/2)
    d = jm.cube_decision(0.7, 1.0)
    assert d.doubler_action == "no double"
    assert d.no_double == pytest.approx(2 / 3)
    assert d.double_take == pytest.approx(0.5)
    assert d.taker_action == "take"
    # dead cube at 79%: the taker is below 25%, so double/pass
    assert jm.cube_decision(0.79, 0.0).doubler_action == "double/pass"
    # dead cube at 60%: double/take; the taker's 40% owning the cube is worth -0.2 < 0
    d = jm.cube_decision(0.6, 0.0)
    assert (d.doubler_action, d.taker_action) == ("double/take", "take")
    # live cube: a taker with 42% > the 40% beaver point owns a cube worth +0.05: beaver
    d = jm.cube_decision(0.58, 1.0, beavers=True)
    assert d.taker_action == "beaver"
    assert d.taker_take_equity == pytest.approx(-2 * (-1 + 2.5 * 0.42))
    assert jm.cube_decision(0.58, 1.0).taker_action == "take"  # beavers are off by default
    # gammonish and very strong: playing on beats cashing
    assert jm.cube_decision(0.95, 0.68, "center", 1.5, 1.0).doubler_action == "too good"


def test_cube_points_sweep():
    sweep = jm.cube_points_sweep(np.linspace(0, 1, 5))
    assert list(sweep.columns[:3]) == ["x", "take_point", "cash_point"]
    # the market window (initial double point to cash point) opens as the cube comes alive
    window = sweep["cash_point"] - sweep["initial_double_point"]
    assert np.all(np.diff(window) < 0) or np.all(np.diff(window) <= 1e-12)
    assert window.iloc[0] == pytest.approx(0.25)
    assert window.iloc[-1] == pytest.approx(0.0, abs=1e-12)


def test_two_index_sweep_is_the_points_at_each_takers_index():
    takers = np.linspace(0, 1, 7)
    sweep = jm.two_index_sweep(0.6, takers, 1.2, 1.1)
    assert sweep["x_taker"].tolist() == takers.tolist()
    for row, x_taker in zip(sweep.drop(columns="x_taker").to_dict("records"), takers, strict=True):
        assert row == dataclasses.asdict(jm.two_index_points(0.6, x_taker, 1.2, 1.1))
    # the doubler's own points do not move with the taker's index
    assert sweep["initial_double_point"].nunique() == 1


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: jm.two_index_sweep(0.5, [0.2, 1.1]), "x_takers"),
        (lambda: jm.two_index_sweep(0.5, np.zeros(jm.MAX_SWEEP_POINTS + 1)), "x_takers"),
        (lambda: jm.two_index_sweep(1.5, [0.5]), "x_doubler"),
        (lambda: jm.two_index_sweep(1.5, []), "x_doubler"),
        (lambda: jm.two_index_sweep(0.5, [], W=0.5), "W"),
        (lambda: jm.cube_points_sweep([], W=0.5), "W"),
        (lambda: jm.cubeful_equity(0.5, 1.5, "center"), "x"),
        (lambda: jm.cubeful_equity(0.5, float("nan"), "center"), "x"),
        (lambda: jm.cubeful_equity(1.2, 0.5, "center"), "p"),
        (lambda: jm.cubeful_equity(0.5, 0.5, "middle"), "cube"),
        (lambda: jm.cubeful_equity(0.5, 0.5, "center", W=0.5), "W"),
        (lambda: jm.cube_points(0.5, L=float("inf")), "L"),
        (lambda: jm.two_index_points(0.5, -0.1), "x_taker"),
    ],
)
def test_invalid_arguments_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=rf"^`{name}` "):
        call()


# --- properties -------------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(cube_lives, gammon_values, gammon_values, cube_positions)
def test_equity_monotone_in_p(x, W, L, cube):
    p = np.linspace(0, 1, 201)
    e = jm.cubeful_equity(p, x, cube, W, L)
    assert np.all(np.diff(e) >= -1e-12)
    assert e[0] == pytest.approx(-L) and e[-1] == pytest.approx(W)


@settings(max_examples=100, deadline=None)
@given(cube_lives, gammon_values, gammon_values)
def test_point_order(x, W, L):
    pts = jm.cube_points(x, W, L)
    assert 0 <= pts.take_point <= pts.beaver_point <= pts.cash_point <= 1
    assert pts.initial_double_point <= pts.cash_point + 1e-12
    assert pts.redouble_point >= pts.initial_double_point - 1e-12


@settings(max_examples=100, deadline=None)
@given(probabilities, cube_lives, gammon_values, gammon_values)
def test_swapping_players_negates_equity(p, x, W, L):
    # the owner's equity is minus the equity of his opponent, whose W and L are swapped
    owned = jm.cubeful_equity(p, x, "owned", W, L)
    opponent = jm.cubeful_equity(1 - p, x, "opponent", L, W)
    centred = jm.cubeful_equity(p, x, "center", W, L)
    assert float(owned) == pytest.approx(-float(opponent), abs=1e-12)
    assert float(centred) == pytest.approx(
        -float(jm.cubeful_equity(1 - p, x, "center", L, W)), abs=1e-12
    )


@settings(max_examples=60, deadline=None)
@given(probabilities, cube_lives, gammon_values, gammon_values)
def test_owned_center_opponent_order(p, x, W, L):
    owned, centred, opponent = (
        float(jm.cubeful_equity(p, x, c, W, L)) for c in ("owned", "center", "opponent")
    )
    assert owned >= centred - 1e-12 >= opponent - 2e-12


@settings(max_examples=60, deadline=None)
@given(hst.floats(0.0, 1.0), hst.floats(0.0, 1.0))
def test_two_index_take_point_is_takers(x_doubler, x_taker):
    pts = jm.two_index_points(x_doubler, x_taker)
    assert pts.take_point == pytest.approx(closed_take(x_taker, 1, 1), abs=1e-12)
    assert pts.actual_cash_point == pytest.approx(closed_cash(x_taker, 1, 1), abs=1e-12)
    assert pts.perceived_cash_point == pytest.approx(closed_cash(x_doubler, 1, 1), abs=1e-12)


@given(
    hst.lists(
        hst.one_of(
            hst.floats(-0.5, 1.5, allow_nan=False),
            hst.integers(0, 4000).map(lambda i: i / 4000),  # on the grid already
        ),
        max_size=5,
    )
)
def test_bracket_grid_with_knots_is_the_sorted_union(knots):
    expected = np.union1d(jm._BRACKET_GRID, np.clip(knots, 0.0, 1.0))
    assert np.array_equal(jm._grid_with(tuple(knots)), expected)
