"""Tests for cubecore.atlas: the mappings between the four cube models."""

import hypothesis.strategies as hst
import numpy as np
import pytest
from hypothesis import given, settings
from numpy.testing import assert_allclose

from cubecore import atlas, giveup, janowski, race

P = np.linspace(0.0, 1.0, 1001)
give_ups = hst.floats(0.8, 1.0)


@settings(max_examples=60, deadline=None)
@given(give_ups)
def test_give_up_is_effective_points_with_da_g_db_one_minus_g(g):
    # [KW] with g == [ZK77] eqs. (1)-(2) with DA = g, DB = 1 - g, to machine precision
    e = 2 * P - 1
    for cube in ("owned", "opponent"):
        assert_allclose(
            giveup.modified_equity(e, cube, giveup.GiveUpPoints(g, g)),
            atlas.effective_point_equity(P, cube, g, 1 - g),
            atol=1e-14,
        )
    # centred: [ZK77] eq. (3) with the same DA/DB is the give-up model with g_c = g
    assert_allclose(
        giveup.modified_equity(e, "center", giveup.GiveUpPoints(g, g)),
        atlas.effective_point_equity(P, "center", g, 1 - g),
        atol=1e-14,
    )


@settings(max_examples=60, deadline=None)
@given(give_ups)
def test_janowski_x_from_g_reproduces_linear_region(g):
    x = giveup.cube_life_from_give_up(g, "owned")
    e = 2 * P - 1
    # owned cube: linear below the live cash point 0.8 and below the give-up point g
    owned = P < min(0.8, g) - 1e-9
    assert_allclose(
        janowski.cubeful_equity(P[owned], x, "owned"),
        giveup.modified_equity(e[owned], "owned", giveup.GiveUpPoints(g, g)),
        atol=1e-12,
    )
    # opponent owns: linear above the live take point 0.2 and above 1 - g
    opponent = P > max(0.2, 1 - g) + 1e-9
    assert_allclose(
        janowski.cubeful_equity(P[opponent], x, "opponent"),
        giveup.modified_equity(e[opponent], "opponent", giveup.GiveUpPoints(g, g)),
        atol=1e-12,
    )


@settings(max_examples=60, deadline=None)
@given(hst.floats(0.75, 1.0))
def test_janowski_x_from_center_give_up_reproduces_centred_region(gc):
    x = giveup.cube_life_from_give_up(gc, "center")
    if x > 1:
        return  # g_c below 0.8 would need a cube livelier than live
    e = 2 * P - 1
    middle = (P > max(0.2, 1 - gc) + 1e-9) & (P < min(0.8, gc) - 1e-9)
    assert_allclose(
        janowski.cubeful_equity(P[middle], x, "center"),
        giveup.modified_equity(e[middle], "center", giveup.GiveUpPoints(0.9, gc)),
        atol=1e-12,
    )


def test_one_g_pair_implies_two_cube_lives():
    # the essay's defaults: g = .86 gives x = 28/43, g_c = .835 gives x = 99/134
    x_owned = giveup.cube_life_from_give_up(0.86, "owned")
    x_center = giveup.cube_life_from_give_up(0.835, "center")
    assert x_owned == pytest.approx(28 / 43, abs=1e-14)
    assert x_center == pytest.approx(99 / 134, abs=1e-14)
    assert abs(x_owned - x_center) > 0.08


def test_all_models_agree_in_the_continuous_limit():
    # [KS69]: live cube, 20/80; x = 1, DA = .8, DB = .2, g = g_c = .8 are all the same model
    limit = atlas.equivalent_settings("give_up", 0.8)
    curves = atlas.atlas_curves(limit, points=401)
    for cube in janowski.CUBE_POSITIONS:
        per_model = curves[curves["cube"] == cube].pivot(index="p", columns="model")["equity"]
        for model in atlas.MODELS[1:]:
            assert_allclose(per_model[model], per_model["keeler_spencer"], atol=1e-12)
    points = atlas.atlas_points(limit)
    assert_allclose(points["take_point"], 0.2, atol=1e-12)
    assert_allclose(
        points[["cash_point", "initial_double_point", "redouble_point"]], 0.8, atol=1e-12
    )


def test_cube_life_from_effective_points():
    assert atlas.cube_life_from_effective_points(0.86, 0.14) == pytest.approx(
        (28 / 43, 28 / 43), abs=1e-14
    )
    owned, opponent = atlas.cube_life_from_effective_points(0.9, 0.2)
    assert owned == pytest.approx(4 / 9) and opponent == pytest.approx(1.0)


def test_equivalent_settings_round_trip():
    from_x = atlas.equivalent_settings("x", 0.68)
    assert from_x.x == pytest.approx(0.68)
    assert from_x.da == pytest.approx(1 / (1 + 0.68 / 4))
    assert from_x.db == pytest.approx(1 - from_x.da)
    back = atlas.equivalent_settings("give_up", from_x.give_up)
    assert back.x == pytest.approx(0.68) and back.center_give_up == pytest.approx(
        from_x.center_give_up
    )
    # with the matching g_c, Janowski(x) and give-up(g, g_c) share all four points
    points = atlas.atlas_points(from_x).set_index("model")
    assert_allclose(
        points.loc["give_up"],
        points.loc["janowski"],
        atol=1e-12,
    )


def test_atlas_points_use_the_corrected_theorem_1_names():
    s = atlas.equivalent_settings("give_up", 0.86)
    zk = atlas.atlas_points(s).set_index("model").loc["zadeh_kobliska"]
    effective = race.effective_points(0.86, 0.14)
    assert zk["redouble_point"] == pytest.approx(effective.redouble_point)
    assert zk["initial_double_point"] == pytest.approx(effective.initial_double_point)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: atlas.effective_point_equity(0.5, "center", 0.4, 0.1), "da"),
        (lambda: atlas.effective_point_equity(0.5, "center", 0.9, 0.6), "db"),
        (lambda: atlas.equivalent_settings("x", 1.5), "value"),
        (lambda: atlas.equivalent_settings("g", 0.9), "source"),
    ],
)
def test_invalid_arguments(call, name):
    with pytest.raises(ValueError, match=rf"^`{name}` "):
        call()
