"""Tests for cubecore.giveup against [KW] (shared/seeds/doubling_theory_give_up_points.txt).

Expected values are computed exactly with fractions.Fraction from the essay's formulas;
printed numbers are compared with half a unit in their last printed place.
"""

import itertools
from fractions import Fraction as F

import hypothesis.strategies as hst
import numpy as np
import pytest
from hypothesis import example, given, settings
from numpy.testing import assert_allclose
from scipy import integrate, optimize, stats

from cubecore import giveup as gu
from cubecore import janowski, race
from tests.strategies import cube_positions

G = F(86, 100)  # [KW] give-up point after the double
GC = F(835, 1000)  # [KW] give-up point with the cube in the centre
HALF_UNIT_3 = 0.0005 + 1e-12  # half a unit in the third printed decimal, plus float slack

give_ups = hst.floats(0.501, 1.0, allow_nan=False)
equities = hst.floats(-1.0, 1.0, allow_nan=False)


def exact_p(e, cube, g=G, g_c=GC, concede=True):
    """[KW] transforms in exact rational arithmetic."""
    w = (F(e) + 1) / 2
    if cube == "opponent":
        p = (w - (1 - g)) / g
    elif cube == "owned":
        p = w / g
    else:
        p = (w - (1 - g_c)) / (2 * g_c - 1)
    return min(max(p, F(0)), F(1)) if concede else p


def exact_e(e, cube, g=G, g_c=GC):
    return 2 * exact_p(e, cube, g, g_c) - 1


def exact_gain(e, cube, e_d, e_m, g=G, g_c=GC):
    e1 = exact_e(e, "opponent", g, g_c)
    if e > e_m:
        return 2 * e1 - 1
    if e >= e_d:
        return F(0)
    return 2 * e1 - exact_e(e, cube, g, g_c)


def rounds_to(exact, printed, digits=3):
    """True if ``exact`` lies within half a unit of the last printed digit of ``printed``."""
    return abs(F(exact) - F(str(printed))) <= F(1, 2 * 10**digits)


# --------------------------------------------------------------------- modified_equity


def test_modified_equity_essay_table():
    # [KW] table (rows .40, .39, .42) and worked example e = .200 (row 4)
    printed = np.array(gu.ESSAY_TABLE_PRINTED)
    got = np.column_stack(
        [printed[:, 0]]
        + [gu.modified_equity(printed[:, 0], c) for c in ("center", "opponent", "owned")]
    )
    assert_allclose(got, printed, rtol=0, atol=HALF_UNIT_3)
    assert dict(gu.ESSAY_TABLE_DEVIATIONS) == {}  # every printed cell is the exact value rounded
    for row, (e, *cells) in enumerate(gu.ESSAY_TABLE_PRINTED):
        for col, (cube, cell) in enumerate(
            zip(("center", "opponent", "owned"), cells, strict=True), start=1
        ):
            exact = exact_e(F(str(e)), cube)
            assert rounds_to(exact, cell), (row, col)
            assert got[row, col] == pytest.approx(float(exact), abs=1e-14)


def test_modified_equity_market_check():
    # [KW] "a cubeless equity of .570 turns into a modified equity of .500"
    assert exact_e(F(57, 100), "opponent") == F(1, 2)
    assert gu.modified_equity(0.570, "opponent") == pytest.approx(0.5, abs=1e-14)


def test_modified_equity_concedes_past_give_up_points():
    # beyond a give-up point the game is over: -1 or +1 exactly
    assert gu.modified_equity(-0.8, "opponent") == -1.0  # w = .1 < 1 - g = .14
    assert gu.modified_equity(0.8, "owned") == 1.0  # w = .9 > g = .86
    assert gu.modified_equity(0.7, "center") == 1.0  # w = .85 > g_c = .835
    assert gu.modified_equity(-0.7, "center") == -1.0
    # inside the linear region nothing is conceded
    assert gu.modified_equity(0.7, "owned") == pytest.approx(float(exact_e(F(7, 10), "owned")))


def test_modified_equity_vectorized():
    e = np.linspace(-1, 1, 12).reshape(3, 4)
    out = gu.modified_equity(e, "center")
    assert out.shape == (3, 4)
    assert isinstance(gu.modified_equity(0.1, "center"), float)


@settings(max_examples=150, deadline=None)
@given(cube=cube_positions, g=give_ups, g_c=give_ups)
def test_modified_equity_monotone_and_bounded(cube, g, g_c):
    e = np.linspace(-1.0, 1.0, 401)
    values = gu.modified_equity(e, cube, gu.GiveUpPoints(g, g_c))
    assert np.all(np.diff(values) >= 0.0)
    assert np.all((values >= -1.0) & (values <= 1.0))


@settings(max_examples=100, deadline=None)
@given(e=equities, cube=cube_positions)
def test_modified_equity_matches_exact(e, cube):
    assert gu.modified_equity(e, cube) == pytest.approx(float(exact_e(F(e), cube)), abs=1e-13)


def test_modified_equity_dead_cube():
    # g = g_c = 1: no give-up point, modified equity = cubeless equity
    e = np.linspace(-1, 1, 9)
    for cube in gu.CUBE_POSITIONS:
        assert_allclose(gu.modified_equity(e, cube, gu.GiveUpPoints(1.0, 1.0)), e, atol=1e-15)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"e": 1.2, "cube": "center"}, "e"),
        ({"e": np.nan, "cube": "center"}, "e"),
        ({"e": 0.1, "cube": "middle"}, "cube"),
        ({"e": 0.1, "cube": "center", "give_ups": (0.5, 0.835)}, "own_give_up"),
        ({"e": 0.1, "cube": "center", "give_ups": (1.01, 0.835)}, "own_give_up"),
        ({"e": 0.1, "cube": "center", "give_ups": (0.86, 0.5)}, "center_give_up"),
    ],
)
def test_modified_equity_rejects(kwargs, name):
    with pytest.raises(ValueError, match=name):
        if "give_ups" in kwargs:
            kwargs = {**kwargs, "give_ups": gu.GiveUpPoints(*kwargs["give_ups"])}
        gu.modified_equity(**kwargs)


def test_give_ups_must_be_the_record():
    # the two points travel as one checked GiveUpPoints, never as a loose pair
    with pytest.raises(TypeError, match="give_ups"):
        gu.modified_equity(0.1, "center", (0.86, 0.835))
    with pytest.raises(TypeError, match="give_ups"):
        gu.doubling_points(0.86)
    assert gu.ESSAY_GIVE_UPS == gu.GiveUpPoints(0.86, 0.835)


# ------------------------------------------------------------- modified_win_probability


def test_modified_win_probability_essay_check():
    # [KW] "p = (.785 - .14) / .86 = .75"
    assert exact_p(F(57, 100), "opponent") == F(3, 4)
    assert gu.modified_win_probability(0.570, "opponent") == pytest.approx(0.75, abs=1e-14)


@settings(max_examples=100, deadline=None)
@given(e=equities, cube=cube_positions, g=give_ups, g_c=give_ups)
def test_modified_win_probability_raw_and_conceded(e, cube, g, g_c):
    raw = gu.modified_win_probability(e, cube, gu.GiveUpPoints(g, g_c), concede=False)
    kept = gu.modified_win_probability(e, cube, gu.GiveUpPoints(g, g_c))
    assert raw == pytest.approx(float(exact_p(F(e), cube, F(g), F(g_c), concede=False)), abs=1e-9)
    assert kept == min(max(raw, 0.0), 1.0)
    assert 0.0 <= kept <= 1.0


def test_modified_win_probability_raw_leaves_unit_interval():
    # the page shows how values outside [0, 1] are treated: here they exist raw
    assert gu.modified_win_probability(0.9, "owned", concede=False) > 1.0
    assert gu.modified_win_probability(-0.9, "opponent", concede=False) < 0.0


# ------------------------------------------------------------------ give_up_from_min_take


def test_give_up_from_min_take():
    # [KW] ".75 + x * .25 = .785 ... x = .14", g = 1 - x = .86
    assert gu.give_up_from_min_take(0.215) == pytest.approx(0.86, abs=1e-15)
    assert gu.give_up_from_min_take(gu.ESSAY_MIN_TAKE) == pytest.approx(
        gu.ESSAY_GIVE_UPS.own_give_up
    )
    # T = .25: no recube vig, dead cube; T = .20: perfectly efficient recube [KW], g = .8
    assert gu.give_up_from_min_take(0.25) == 1.0
    assert gu.give_up_from_min_take(0.20) == pytest.approx(0.8, abs=1e-15)
    # the essay's equation, solved for x, holds for the returned g
    for t in (0.2, 0.215, 0.23, 0.25):
        x = 1 - gu.give_up_from_min_take(t)
        assert 0.75 + x * 0.25 == pytest.approx(1 - t, abs=1e-15)
        assert gu.min_take_from_give_up(gu.give_up_from_min_take(t)) == pytest.approx(t)


def test_give_up_from_min_take_market_consistency():
    # the taker at the minimum take point has modified chance 1/4 with g = 4 T
    for t in (F(1, 5), F(43, 200), F(1, 4)):
        e = 1 - 2 * t
        assert 1 - exact_p(e, "opponent", g=4 * t) == F(1, 4)


@pytest.mark.parametrize("t", [0.125, 0.1, 0.26, np.nan, "x"])
def test_give_up_from_min_take_rejects(t):
    with pytest.raises(ValueError, match="min_take"):
        gu.give_up_from_min_take(t)


def test_essay_quoted_numbers():
    # every number quoted in [KW]'s text: the exact value rounds to it, except the deviations
    e = F(2, 10)
    exact = {
        "own_give_up": 4 * F(215, 1000),  # [KW] ".75 + x * .25 = .785"
        "market_losing_equity": 1 - G / 2,  # [KW] ".570"
        "initial_double_point": 1 - G * (4 * GC - 3) / (4 * GC - 2 - G),  # [KW] ".390"
        "redouble_point": 3 - 3 * G,  # [KW] ".420"
        "initial_double_cost": exact_e(e, "center") - 2 * exact_e(e, "opponent"),  # ".159"
        "redouble_cost": exact_e(e, "owned") - 2 * exact_e(e, "opponent"),  # ".255"
    }
    digits = {"own_give_up": 2}
    assert set(exact) == set(gu.ESSAY_QUOTED_PRINTED)
    for name, printed in gu.ESSAY_QUOTED_PRINTED.items():
        matches = rounds_to(exact[name], printed, digits.get(name, 3))
        assert matches == (name not in gu.ESSAY_QUOTED_DEVIATIONS), name
    for name, (printed, reason) in gu.ESSAY_QUOTED_DEVIATIONS.items():
        assert printed == gu.ESSAY_QUOTED_PRINTED[name]
        assert reason
    # and the module computes each exact value
    computed = {
        "own_give_up": gu.give_up_from_min_take(0.215),
        "market_losing_equity": gu.market_losing_equity(),
        "initial_double_point": gu.initial_double_point(),
        "redouble_point": gu.redouble_point(),
        "initial_double_cost": -gu.doubling_gain(0.2, "center"),
        "redouble_cost": -gu.doubling_gain(0.2, "owned"),
    }
    for name, value in computed.items():
        assert value == pytest.approx(float(exact[name]), abs=1e-14), name


# ------------------------------------------------------------------ market_losing_equity


def test_market_losing_equity():
    # [KW] "the minimum take occurs when the doubler has an equity of .570"
    exact = 1 - G / 2
    assert exact == F(57, 100)
    assert rounds_to(exact, gu.ESSAY_QUOTED_PRINTED["market_losing_equity"])
    assert gu.market_losing_equity(0.86) == pytest.approx(0.570, abs=HALF_UNIT_3)
    assert gu.market_losing_equity(0.86) == pytest.approx(float(exact), abs=1e-15)


@settings(max_examples=100, deadline=None)
@given(g=give_ups)
def test_market_losing_equity_take_point(g):
    # at e_m the taker's modified winning chance is the dead-cube take point 1/4
    e_m = gu.market_losing_equity(g)
    taker = 1 - gu.modified_win_probability(e_m, "opponent", gu.GiveUpPoints(g, 0.835))
    assert taker == pytest.approx(gu.DEAD_CUBE_TAKE_POINT, abs=1e-12)


# ------------------------------------------------------------------ initial_double_point


def test_initial_double_point_essay():
    # exact root of e1 = e0/2 at g = .86, g_c = .835 (closed form in the docstring)
    exact = 1 - G * (4 * GC - 3) / (4 * GC - 2 - G)
    assert exact == F(469, 1200)
    assert exact_e(exact, "opponent") == exact_e(exact, "center") / 2
    assert gu.initial_double_point(gu.GiveUpPoints(0.86, 0.835)) == pytest.approx(
        float(exact), abs=1e-15
    )
    # [KW] ".390" is a documented deviation: exact .39083 rounds to .391
    printed, reason = gu.ESSAY_QUOTED_DEVIATIONS["initial_double_point"]
    assert printed == gu.ESSAY_QUOTED_PRINTED["initial_double_point"] == 0.390
    assert not rounds_to(exact, printed)
    assert rounds_to(exact, 0.391)
    assert "tie" in reason
    # the essay's reading: at e = .39 the rounded table ties, the exact values do not
    e1, e0 = exact_e(F(39, 100), "opponent"), exact_e(F(39, 100), "center")
    assert round(float(e1), 3) == round(float(e0), 3) / 2 == 0.291
    assert e1 < e0 / 2


def assert_first_crossing(criterion, e_d, e_m):
    """``criterion`` < 0 below ``e_d``, > 0 above it; ``brentq`` finds the same root."""
    grid = np.linspace(0.0, 1.0, 2001)
    values = criterion(grid)  # vectorized
    assert np.all(values[grid < e_d - 1e-9] < 0)
    assert np.all(values[grid > e_d + 1e-9] > 0)
    root = optimize.brentq(criterion, 0.0, min(1.0, e_m + 0.05), xtol=1e-15)
    assert root == pytest.approx(e_d, abs=1e-9)


@settings(max_examples=100, deadline=None)
@given(g=hst.floats(0.55, 0.999), g_c=give_ups)
def test_initial_double_point_root_finder(g, g_c):
    e_d = gu.initial_double_point(gu.GiveUpPoints(g, g_c))
    e_m = gu.market_losing_equity(g)
    assert 0.0 < e_d <= e_m + 1e-15
    if g_c <= 1 - g / 4:  # empty window: nothing below e_m doubles
        assert e_d == e_m

    def criterion(e):
        model = gu.GiveUpPoints(g, g_c)
        return gu.modified_equity(e, "opponent", model) - gu.modified_equity(e, "center", model) / 2

    assert_first_crossing(criterion, e_d, e_m)


def test_initial_double_point_branches():
    # Keeler-Spencer continuous model: g = g_c = .8 doubles at 80 %, e = .6
    assert gu.initial_double_point(gu.GiveUpPoints(0.8, 0.8)) == pytest.approx(0.6, abs=1e-15)
    # dead cube after the double: double at any advantage
    assert gu.initial_double_point(gu.GiveUpPoints(1.0, 0.9)) == pytest.approx(0.0, abs=1e-15)
    # g_c below 1 - g/4: the window is empty, the double point is the market-losing point
    assert gu.initial_double_point(gu.GiveUpPoints(0.86, 0.7)) == gu.market_losing_equity(0.86)
    # both branches agree on the boundary g_c = 1 - g/4
    g = 0.9
    g_c = 1 - g / 4
    linear = 1 - g * (4 * g_c - 3) / (4 * g_c - 2 - g)
    assert linear == pytest.approx(gu.market_losing_equity(g), abs=1e-12)


def test_initial_double_point_rejects():
    with pytest.raises(ValueError, match="center_give_up"):
        gu.initial_double_point(gu.GiveUpPoints(0.86, 0.5))
    with pytest.raises(ValueError, match="own_give_up"):
        gu.initial_double_point(gu.GiveUpPoints(0.4, 0.835))


# ------------------------------------------------------------------------ redouble_point


def test_redouble_point_essay():
    # [KW] "to redouble with an equity of .420": exact 3 - 3 g = 21/50
    exact = 3 - 3 * G
    assert exact == F(42, 100)
    assert exact_e(exact, "opponent") == exact_e(exact, "owned") / 2
    assert rounds_to(exact, gu.ESSAY_QUOTED_PRINTED["redouble_point"])
    assert gu.redouble_point(0.86) == pytest.approx(0.420, abs=HALF_UNIT_3)
    assert gu.redouble_point(0.86) == pytest.approx(float(exact), abs=1e-14)


@settings(max_examples=100, deadline=None)
@given(g=hst.floats(0.55, 0.999))
def test_redouble_point_root_finder(g):
    e_r = gu.redouble_point(g)
    e_m = gu.market_losing_equity(g)
    assert e_r <= e_m + 1e-15

    def criterion(e):
        model = gu.GiveUpPoints(g, 0.835)
        return gu.modified_equity(e, "opponent", model) - gu.modified_equity(e, "owned", model) / 2

    assert_first_crossing(criterion, e_r, e_m)


def test_redouble_point_branches():
    # Keeler-Spencer: redouble at 80 %, e = .6 = market-losing point
    assert gu.redouble_point(0.8) == pytest.approx(0.6, abs=1e-15)
    assert gu.market_losing_equity(0.8) == pytest.approx(0.6, abs=1e-15)
    assert gu.redouble_point(1.0) == 0.0
    # g < .8: the window is empty
    assert gu.redouble_point(0.7) == gu.market_losing_equity(0.7)
    assert gu.market_losing_equity(0.7) < 3 - 3 * 0.7  # the linear root would be past e_m


def test_keeler_spencer_limit():
    # continuous model [KW] "p = .80 would be the proper value": take at 20 %, double at 80 %
    assert gu.give_up_from_min_take(0.2) == pytest.approx(0.8)
    points = gu.doubling_points(gu.GiveUpPoints(0.8, 0.8))
    assert_allclose(
        [points.initial_double, points.redouble, points.market_losing], [0.6, 0.6, 0.6], atol=1e-15
    )
    taker = 1 - gu.modified_win_probability(0.6, "opponent", gu.GiveUpPoints(0.8, 0.835))
    assert taker == pytest.approx(0.25)


# ------------------------------------------------------------------------ doubling_points


def test_doubling_points():
    points = gu.doubling_points()
    assert points == gu.DoublingPoints(
        gu.initial_double_point(), gu.redouble_point(), gu.market_losing_equity()
    )
    with pytest.raises(AttributeError):
        points.redouble = 0.5  # frozen


# --------------------------------------------------------------------------- essay_table


def test_essay_table():
    table = gu.essay_table()
    assert list(table.columns) == [
        "e",
        "e0",
        "e1",
        "e2",
        "double",
        "redouble",
        "double_cost",
        "redouble_cost",
    ]
    assert_allclose(table[["e", "e0", "e1", "e2"]], gu.ESSAY_TABLE_PRINTED, atol=HALF_UNIT_3)
    # [KW] double from .390 on (rounded), so .40 and .42 double, .39 and .200 do not
    assert table["double"].tolist() == [True, False, True, False]
    assert not table["redouble"].iloc[[0, 1, 3]].any()  # row .42 is the exact tie


def test_essay_table_costs():
    # [KW] "the cost of doubling is .299 - 2 * .070 = .159"
    e = F(2, 10)
    double_cost = exact_e(e, "center") - 2 * exact_e(e, "opponent")
    redouble_cost = exact_e(e, "owned") - 2 * exact_e(e, "opponent")
    table = gu.essay_table([0.2])
    assert table["double_cost"].iloc[0] == pytest.approx(float(double_cost), abs=1e-14)
    assert table["redouble_cost"].iloc[0] == pytest.approx(float(redouble_cost), abs=1e-14)
    assert rounds_to(double_cost, gu.ESSAY_QUOTED_PRINTED["initial_double_cost"])
    # [KW] "The cost of redoubling is .395 - 2 * .070 = .255": from rounded values
    printed, reason = gu.ESSAY_QUOTED_DEVIATIONS["redouble_cost"]
    assert printed == gu.ESSAY_QUOTED_PRINTED["redouble_cost"] == 0.255
    assert redouble_cost == F(22, 86)
    assert not rounds_to(redouble_cost, printed)
    assert rounds_to(redouble_cost, 0.256)
    assert F("0.395") - 2 * F("0.070") == F("0.255")  # the essay's arithmetic on rounded values
    assert "rounded" in reason
    # the quoted numbers without a deviation are the exact values rounded
    assert set(gu.ESSAY_QUOTED_DEVIATIONS) == {"initial_double_point", "redouble_cost"}


def test_essay_table_rejects():
    with pytest.raises(ValueError, match="equities"):
        gu.essay_table([0.2, 1.5])


# ------------------------------------------------------------------------- doubling_gain


def test_doubling_gain_essay_costs():
    # [KW] costs .159 (double) and .255/.256 (redouble) at e = .200: too weak region
    assert -gu.doubling_gain(0.2, "center") == pytest.approx(0.159, abs=HALF_UNIT_3)
    assert -gu.doubling_gain(0.2, "owned") == pytest.approx(float(F(22, 86)), abs=1e-14)


def test_doubling_gain_regions():
    e_d, e_r, e_m = F(469, 1200), F(42, 100), F(57, 100)
    grid = [F(k, 200) for k in range(-200, 201)]
    for cube, edge in (("center", e_d), ("owned", e_r)):
        expected = [float(exact_gain(e, cube, edge, e_m)) for e in grid]
        got = gu.doubling_gain(np.array([float(e) for e in grid]), cube)
        assert_allclose(got, expected, atol=1e-13)
    # [KW] market lost: cost 2 E - 1; at e = .8 E = 2 (.9 - .14) / .86 - 1
    assert gu.doubling_gain(0.8) == pytest.approx(float(2 * exact_e(F(8, 10), "opponent") - 1))
    # inside the window: zero
    assert gu.doubling_gain(0.5, "center") == 0.0
    assert gu.doubling_gain(0.5, "owned") == 0.0


def test_doubling_gain_continuous_exact():
    # the branches meet exactly at the exact edges (essay values, rational arithmetic)
    e_d, e_r, e_m = F(469, 1200), F(42, 100), F(57, 100)
    assert 2 * exact_e(e_d, "opponent") - exact_e(e_d, "center") == 0
    assert 2 * exact_e(e_r, "opponent") - exact_e(e_r, "owned") == 0
    assert 2 * exact_e(e_m, "opponent") - 1 == 0
    # with the essay's rounded .390 as the edge the too-weak branch would jump there
    e = F(39, 100)
    assert abs(2 * exact_e(e, "opponent") - exact_e(e, "center")) > F(1, 2000)


@settings(max_examples=150, deadline=None)
@given(cube=hst.sampled_from(gu.DOUBLING_CUBES), g=give_ups, g_c=give_ups)
def test_doubling_gain_continuous_at_edges(cube, g, g_c):
    model = gu.GiveUpPoints(g, g_c)
    points = gu.doubling_points(model)
    e_d = points.initial_double if cube == "center" else points.redouble
    e_m = points.market_losing
    lipschitz = 2 / g + 1 / (2 * g_c - 1) + 1  # bound on |dG/de| on every branch
    eps = 1e-9
    for edge in (e_d, e_m):
        left, right = gu.doubling_gain(np.array([edge - eps, edge + eps]), cube, model)
        assert abs(left) <= lipschitz * eps + 1e-12
        assert abs(right) <= lipschitz * eps + 1e-12
    # signs: doubling too early costs, losing the market costs not doubling
    assert gu.doubling_gain(e_m + 0.01, cube, model) > 0  # e_m <= 3/4, so e_m + .01 is valid
    if e_d > 0.01:
        assert gu.doubling_gain(e_d - 0.01, cube, model) < 0


def test_doubling_gain_rejects():
    with pytest.raises(ValueError, match="cube"):
        gu.doubling_gain(0.2, "opponent")
    with pytest.raises(ValueError, match="next_equity"):
        gu.doubling_gain([0.2, -1.1])


# --------------------------------------------------------------------- net_doubling_gain


def test_net_doubling_gain():
    e = np.array([0.2, 0.5, 0.8])
    gains = gu.doubling_gain(e)
    assert gu.net_doubling_gain(e) == pytest.approx(gains.mean())
    weights = np.array([1.0, 2.0, 3.0])
    expected = float(np.dot(weights, gains) / 6.0)
    assert gu.net_doubling_gain(e, weights=weights) == pytest.approx(expected)
    assert gu.net_doubling_gain(e, weights=10 * weights) == pytest.approx(expected)  # normalised
    assert gu.net_doubling_gain(e, "owned", weights=[0, 0, 1]) == pytest.approx(
        gu.doubling_gain(0.8, "owned")
    )
    # [KW] "Add them up, divide by 1296": equal weights over 1296 sequences
    seq = np.resize(e, 1296)
    assert gu.net_doubling_gain(seq, weights=np.ones(1296)) == pytest.approx(
        gu.net_doubling_gain(seq)
    )


@pytest.mark.parametrize(
    ("weights", "message"),
    [
        ([1.0, -1.0], "non-negative"),
        ([0.0, 0.0], "positive sum"),
        ([1.0, 2.0, 3.0], "shape"),
        ([1.0, np.nan], "finite"),
    ],
)
def test_net_doubling_gain_rejects(weights, message):
    with pytest.raises(ValueError, match=message):
        gu.net_doubling_gain([0.1, 0.6], weights=weights)


def test_net_doubling_gain_rejects_empty():
    with pytest.raises(ValueError, match="next_equities"):
        gu.net_doubling_gain([])


# -------------------------------------------------------------------- next_equity_spread


@settings(max_examples=100, deadline=None)
@given(e=hst.floats(-0.95, 0.95), fraction=hst.floats(0.01, 0.99))
def test_next_equity_spread_moments(e, fraction):
    sigma = fraction * np.sqrt(1 - e**2)
    alpha, beta = gu.next_equity_spread(e, sigma)
    law = stats.beta(alpha, beta)
    assert 2 * law.mean() - 1 == pytest.approx(e, abs=1e-12)  # martingale
    assert 2 * law.std() == pytest.approx(sigma, rel=1e-9)


@pytest.mark.parametrize(
    ("e", "sigma"), [(0.0, 1.0), (0.6, 0.8), (0.0, 0.0), (1.0, 0.1), (0, -0.1)]
)
def test_next_equity_spread_rejects(e, sigma):
    with pytest.raises(ValueError, match="volatility"):
        gu.next_equity_spread(e, sigma)


# -------------------------------------------------------------- volatility_doubling_gain


@pytest.mark.parametrize("cube", gu.DOUBLING_CUBES)
@pytest.mark.parametrize(("e", "sigma"), [(0.3, 0.15), (0.45, 0.2), (0.55, 0.1), (0.1, 0.3)])
def test_volatility_doubling_gain_quadrature(cube, e, sigma):
    # independent check: adaptive quadrature of G(2w - 1) times the Beta density
    alpha, beta = gu.next_equity_spread(e, sigma)
    assert alpha > 1 and beta > 1  # bounded density: quad is reliable here
    kinks = [0.14, 0.165, 0.835, 0.86, (1 + gu.initial_double_point()) / 2, 0.71, 0.785]
    value, error = integrate.quad(
        lambda w: gu.doubling_gain(2 * w - 1, cube) * stats.beta.pdf(w, alpha, beta),
        0,
        1,
        points=kinks,
        limit=200,
        epsabs=1e-12,
    )
    assert error < 1e-10
    assert gu.volatility_doubling_gain(e, sigma, cube) == pytest.approx(value, abs=1e-9)


@pytest.mark.parametrize("cube", gu.DOUBLING_CUBES)
def test_volatility_doubling_gain_monte_carlo(cube):
    # Monte Carlo with a fixed seed; tolerance 4 standard errors (two-sided, ~6e-5)
    rng = np.random.default_rng(20240611)
    e, sigma, n = 0.42, 0.35, 400_000
    alpha, beta = gu.next_equity_spread(e, sigma)
    samples = gu.doubling_gain(2 * rng.beta(alpha, beta, n) - 1, cube)
    standard_error = samples.std(ddof=1) / np.sqrt(n)
    exact = gu.volatility_doubling_gain(e, sigma, cube)
    assert abs(samples.mean() - exact) < 4 * standard_error
    assert standard_error < 1e-3  # the check has teeth


@pytest.mark.parametrize("cube", gu.DOUBLING_CUBES)
@pytest.mark.parametrize("e", [-0.5, 0.2, 0.39, gu.initial_double_point(), 0.5, 0.57, 0.8, 1.0])
def test_volatility_doubling_gain_zero_limit(cube, e):
    # sigma = 0 is the point mass; small sigma converges to it (G is Lipschitz, O(sigma))
    exact = gu.doubling_gain(e, cube)
    assert gu.volatility_doubling_gain(e, 0.0, cube) == exact
    if abs(e) < 1:
        for sigma in (1e-3, 1e-5):
            assert gu.volatility_doubling_gain(e, sigma, cube) == pytest.approx(
                exact, abs=5 * sigma
            )


def test_volatility_doubling_gain_far_from_kinks_is_linear():
    # locally linear G and a martingale: E[G(e')] = G(e) when no kink is within reach
    assert gu.volatility_doubling_gain(0.2, 0.01) == pytest.approx(gu.doubling_gain(0.2), abs=1e-12)
    assert gu.volatility_doubling_gain(0.48, 0.01) == pytest.approx(0.0, abs=1e-12)


def test_volatility_doubling_gain_broadcast():
    e = np.array([0.2, 0.4, 0.6])
    sigma = np.array([[0.0], [0.1]])
    out = gu.volatility_doubling_gain(e, sigma)
    assert out.shape == (2, 3)
    assert_allclose(out[0], gu.doubling_gain(e))
    assert out[1, 1] == pytest.approx(gu.volatility_doubling_gain(0.4, 0.1))


def test_volatility_doubling_gain_shapes_that_do_not_broadcast_are_named():
    with pytest.raises(ValueError, match=r"`equity` and `volatility` must broadcast together"):
        gu.volatility_doubling_gain([0.1, 0.2], [0.1, 0.2, 0.3])


@pytest.mark.parametrize("cube", gu.DOUBLING_CUBES)
def test_volatility_doubling_gain_sign_at_window_edges(cube):
    # a small spread at the lower edge reaches only the costly side, at e_m only the gaining one
    points = gu.doubling_points()
    e_d = points.initial_double if cube == "center" else points.redouble
    for sigma in (0.005, 0.02):
        assert gu.volatility_doubling_gain(e_d, sigma, cube) < 0
        assert gu.volatility_doubling_gain(points.market_losing, sigma, cube) > 0


def test_volatility_doubling_gain_rejects():
    with pytest.raises(ValueError, match="volatility"):
        gu.volatility_doubling_gain(0.6, 0.8)
    with pytest.raises(ValueError, match="volatility"):
        gu.volatility_doubling_gain(1.0, 0.01)
    with pytest.raises(ValueError, match="cube"):
        gu.volatility_doubling_gain(0.3, 0.1, "opponent")


@settings(max_examples=15, deadline=None)
@given(
    cube=hst.sampled_from(gu.DOUBLING_CUBES),
    g=hst.floats(0.6, 1.0),
    g_c=hst.floats(0.6, 1.0),
    e=hst.floats(-0.8, 0.8),
    fraction=hst.floats(0.05, 0.5),
)
@example(cube="center", g=1.0, g_c=0.99999, e=0.75, fraction=0.5)  # kinks at and near w = 1
@example(cube="center", g=1.0, g_c=0.9999999999999999, e=0.5, fraction=0.5)  # 1 ulp below 1
def test_volatility_doubling_gain_quadrature_any_give_up(cube, g, g_c, e, fraction):
    sigma = fraction * np.sqrt(1 - e**2)
    alpha, beta = gu.next_equity_spread(e, sigma)
    model = gu.GiveUpPoints(g, g_c)
    points = gu.doubling_points(model)
    kinks = [1 - g, g, 1 - g_c, g_c, (1 + points.market_losing) / 2]
    kinks.append((1 + (points.initial_double if cube == "center" else points.redouble)) / 2)
    # one quad per piece between the kinks: the integrand is smooth inside each piece, and a
    # kink at or next to an end (g = 1) no longer makes QUADPACK meet the Beta density's
    # infinity at w = 1 (it returned inf when the kinks were given as break points)
    # a kink within 1e-9 of an end is dropped: a piece one ulp wide at w = 1, where the Beta
    # density is infinite, made QUADPACK return inf; its mass is below the tolerance
    edges = sorted({0.0, 1.0, *(kink for kink in kinks if 1e-9 < kink < 1.0 - 1e-9)})
    value = sum(
        integrate.quad(
            lambda w: gu.doubling_gain(2 * w - 1, cube, model) * stats.beta.pdf(w, alpha, beta),
            low,
            high,
            limit=200,
            epsabs=1e-13,
        )[0]
        for low, high in itertools.pairwise(edges)
    )
    assert gu.volatility_doubling_gain(e, sigma, cube, model) == pytest.approx(value, abs=1e-9)


# --------------------------------------------------------- effective_points_from_give_up


@settings(max_examples=100, deadline=None)
@given(p=hst.floats(0.0, 1.0), g=give_ups, g_c=give_ups)
def test_effective_points_from_give_up(p, g, g_c):
    # [ZK77] p(t,A) = p/DA, p(t,B) = (p - DB)/(1 - DB), p(t,M) = (p - DB)/(DA - DB)
    da, db = gu.effective_points_from_give_up(g)
    dca, dcb = gu.effective_points_from_give_up(g_c)
    e = 2 * p - 1

    def raw(cube):
        return gu.modified_win_probability(e, cube, gu.GiveUpPoints(g, g_c), concede=False)

    assert raw("owned") == pytest.approx(p / da, rel=1e-12, abs=1e-12)
    assert raw("opponent") == pytest.approx((p - db) / (1 - db), rel=1e-12, abs=1e-12)
    assert raw("center") == pytest.approx((p - dcb) / (dca - dcb), rel=1e-12, abs=1e-12)


def test_effective_points_from_give_up_essay():
    assert gu.effective_points_from_give_up(0.86) == pytest.approx((0.86, 0.14))  # [KW] .86/.14
    assert gu.effective_points_from_give_up(0.835) == pytest.approx((0.835, 0.165))  # .835/.165
    with pytest.raises(ValueError, match="give_up"):
        gu.effective_points_from_give_up(0.5)


@settings(max_examples=100, deadline=None)
@given(g=hst.floats(0.8, 1.0))
def test_effective_points_from_give_up_zk77_theorem(g):
    # [ZK77] Theorem 1 (cubecore.race.effective_points) with DA = g, DB = 1 - g and one
    # pair for all three transforms, i.e. g_c = g: the same three points, in win chance
    da, db = gu.effective_points_from_give_up(g)
    zk = race.effective_points(da, min(db, 0.2))
    assert zk.minimum_take_point == pytest.approx((1 + gu.market_losing_equity(g)) / 2, abs=1e-12)
    assert zk.redouble_point == pytest.approx((1 + gu.redouble_point(g)) / 2, abs=1e-12)
    assert zk.initial_double_point == pytest.approx(
        (1 + gu.initial_double_point(gu.GiveUpPoints(g, g))) / 2, abs=1e-12
    )


# --------------------------------------------------------------- cube_life_from_give_up


def janowski_equity(p, x, cube):
    """[JR12] W = L = 1: x * live + (1 - x) * dead; live take .2, cash .8."""
    corners = {
        "owned": ([0.0, 0.8, 1.0], [-1.0, 1.0, 1.0]),
        "opponent": ([0.0, 0.2, 1.0], [-1.0, -1.0, 1.0]),
        "center": ([0.0, 0.2, 0.8, 1.0], [-1.0, -1.0, 1.0, 1.0]),
    }[cube]
    return x * np.interp(p, *corners) + (1 - x) * (2 * p - 1)


@settings(max_examples=100, deadline=None)
@given(cube=cube_positions, g=hst.floats(0.8, 1.0))
def test_cube_life_from_give_up_matches_janowski(cube, g):
    x = gu.cube_life_from_give_up(g, cube)
    assert -1e-12 <= x <= 1 + 1e-12
    lo, hi = {"owned": (0.0, min(0.8, g)), "opponent": (max(0.2, 1 - g), 1.0)}.get(
        cube, (max(0.2, 1 - g), min(0.8, g))
    )
    p = np.linspace(lo, hi, 51)
    assert_allclose(
        gu.modified_equity(2 * p - 1, cube, gu.GiveUpPoints(g, g)),
        janowski_equity(p, x, cube),
        atol=1e-12,
    )
    assert gu.give_up_from_cube_life(min(x, 1.0), cube) == pytest.approx(g, abs=1e-12)


def test_cube_life_from_give_up_essay():
    # g = .86 after the double, g_c = .835 before it: two different cube lives
    x_own = gu.cube_life_from_give_up(0.86, "owned")
    x_center = gu.cube_life_from_give_up(0.835, "center")
    assert x_own == pytest.approx(float(4 * (1 / G - 1)))  # 28/43 = .651
    assert x_center == pytest.approx(float(F(3, 2) * (1 / (2 * GC - 1) - 1)))  # 99/134 = .739
    assert x_center - x_own > 0.08
    assert gu.cube_life_from_give_up(0.86, "opponent") == x_own
    # the g_c that would match g's cube life
    assert gu.give_up_from_cube_life(x_own, "center") == pytest.approx(float(F(157, 185)))
    # limits: dead cube and live cube (Keeler-Spencer 80 %)
    for cube in gu.CUBE_POSITIONS:
        assert gu.cube_life_from_give_up(1.0, cube) == 0.0
        assert gu.cube_life_from_give_up(0.8, cube) == pytest.approx(1.0)
    # below .8 the implied x leaves Janowski's range: the mapping breaks
    assert gu.cube_life_from_give_up(0.75, "owned") > 1.0


def test_cube_life_from_give_up_outside_linear_region():
    # past the cash point .8 the models differ (Janowski cashes, give-up stays linear to g)
    g = 0.9
    x = gu.cube_life_from_give_up(g, "owned")
    p = 0.85
    assert gu.modified_equity(2 * p - 1, "owned", gu.GiveUpPoints(g, 0.835)) != pytest.approx(
        janowski_equity(p, x, "owned")
    )


def test_give_up_from_cube_life_rejects():
    with pytest.raises(ValueError, match="cube_life"):
        gu.give_up_from_cube_life(1.5)
    with pytest.raises(ValueError, match="cube"):
        gu.give_up_from_cube_life(0.5, "side")


# ----------------------------------------------------------------- race_doubling_verdict


@pytest.mark.parametrize("cube", gu.DOUBLING_CUBES)
@pytest.mark.parametrize(("on_roll", "opponent"), [(70, 80), (70, 77), (100, 108), (30, 37)])
def test_race_doubling_verdict(cube, on_roll, opponent):
    verdict = gu.race_doubling_verdict(on_roll, opponent, cube)
    sequences = race.next_exchange_equities(on_roll, opponent)
    # the essay's procedure: weighted mean of the gains over the 1296 sequences
    expected = gu.net_doubling_gain(sequences["equity"], cube, sequences["weight"])
    assert verdict.net_gain == pytest.approx(expected, abs=1e-14)
    cubeless = 2 * float(race.race_win_probability(on_roll, opponent)) - 1
    assert verdict.cubeless_equity == pytest.approx(cubeless, abs=1e-12)
    chances = (verdict.market_lost_chance, verdict.window_chance, verdict.too_weak_chance)
    assert sum(chances) == pytest.approx(1.0, abs=1e-12)
    assert verdict.optimal_action == race.race_cube_equities(on_roll, opponent, cube).action
    assert verdict.action in race.ACTIONS
    assert verdict.agrees == (verdict.action == verdict.optimal_action)


def test_race_doubling_verdict_actions():
    # 70 vs 80: both double/take; 70 vs 75: neither doubles; 30 vs 37: past the market
    assert gu.race_doubling_verdict(70, 80).action == "double/take"
    assert gu.race_doubling_verdict(70, 75).action == "no double"
    verdict = gu.race_doubling_verdict(30, 37)
    assert verdict.cubeless_equity > gu.market_losing_equity()
    assert verdict.action == "double/pass"
    # 70 vs 77 redouble: the model's average volatility says redouble, the exact race does not
    disagreement = gu.race_doubling_verdict(70, 77, "owned")
    assert (disagreement.action, disagreement.optimal_action) == ("double/take", "no double")
    assert not disagreement.agrees


def test_race_doubling_verdict_rejects():
    with pytest.raises(ValueError, match="cube"):
        gu.race_doubling_verdict(70, 80, "opponent")
    with pytest.raises(ValueError, match="on_roll"):
        gu.race_doubling_verdict(0, 80)


# ------------------------------------------------------------- printed beside exact
def test_essay_table_with_printed_at_the_essays_setting():
    t = gu.essay_table_with_printed()
    printed = np.array([row[1:] for row in gu.ESSAY_TABLE_PRINTED])
    shown = t[["printed e0", "printed e1", "printed e2"]].to_numpy(dtype=float)
    np.testing.assert_array_equal(shown, printed)
    exact = t[["e0", "e1", "e2"]].to_numpy(dtype=float)
    np.testing.assert_allclose(exact, printed, atol=5e-4)  # three printed decimals
    assert (t["check"] == "every printed cell is the exact value rounded").all()
    plain = gu.essay_table()
    np.testing.assert_array_equal(t["cost e0 - 2 e1"], plain["double_cost"])
    np.testing.assert_array_equal(t["double (e1 > e0/2)"], plain["double"])


def test_essay_table_with_printed_elsewhere():
    t = gu.essay_table_with_printed((0.5, 0.40), gu.GiveUpPoints(0.9, 0.85))
    assert np.isnan(t.loc[0, "printed e0"]) and t.loc[0, "check"] == "not a row of the essay"
    assert t.loc[1, "check"].startswith("printed for the essay's g")  # another g
    assert t.loc[0, "e0"] == pytest.approx(
        gu.modified_equity(0.5, "center", gu.GiveUpPoints(0.9, 0.85))
    )
    with pytest.raises(ValueError, match="own_give_up"):
        gu.essay_table_with_printed((0.4,), gu.GiveUpPoints(0.5, 0.85))


def test_essay_quoted_numbers_table():
    q = gu.essay_quoted_numbers().set_index("number")
    assert list(q.index) == list(gu.ESSAY_QUOTED_PRINTED)
    assert q.loc["own_give_up", "exact"] == pytest.approx(0.86)  # g = 4 T = 4 x .215
    assert q.loc["redouble_cost", "exact"] == pytest.approx(22 / 86, abs=1e-12)  # e2 - 2 e1
    assert q.loc["initial_double_point", "exact"] == pytest.approx(469 / 1200, abs=1e-12)
    for name, row in q.iterrows():
        deviation = gu.ESSAY_QUOTED_DEVIATIONS.get(name)
        assert row["agrees"] == (deviation is None)
        if deviation is None:  # no listed deviation: the exact value rounds to the print
            assert row["exact_rounded"] == row["printed"]
        else:
            assert row["reason"] == deviation[1] and row["printed"] == deviation[0]


@settings(max_examples=40, deadline=None)
@given(g=hst.floats(0.8, 1.0), g_c=hst.floats(0.55, 1.0))
def test_model_equivalences(g, g_c):
    m = gu.model_equivalences(gu.GiveUpPoints(g, g_c))
    assert (m.da, m.db) == pytest.approx((g, 1 - g))
    assert (m.da_center, m.db_center) == pytest.approx((g_c, 1 - g_c))
    assert m.x_own == pytest.approx(4 * (1 / g - 1))
    assert m.x_center == pytest.approx(1.5 * (1 / (2 * g_c - 1) - 1))
    assert m.g_c_matching is not None  # g >= .8: x_own in [0, 1]
    assert gu.cube_life_from_give_up(m.g_c_matching, "center") == pytest.approx(m.x_own)
    assert m.zk77_max_difference is not None and m.zk77_max_difference < 1e-12


def test_model_equivalences_below_the_live_cube():
    m = gu.model_equivalences(gu.GiveUpPoints(0.7, 0.835))
    assert m.x_own > 1 and m.g_c_matching is None  # outside Janowski's range
    assert m.zk77_max_difference is None  # below the range [ZK77] states for DA
    with pytest.raises(ValueError, match="center_give_up"):
        gu.model_equivalences(gu.GiveUpPoints(0.86, 0.5))


# ------------------------------------------------------------- volatility model helpers
@settings(max_examples=80, deadline=None)
@given(e=hst.floats(-1.0, 1.0), sigma=hst.floats(0.0, 2.0))
def test_spread_exists_is_where_the_volatility_model_accepts(e, sigma):
    exists = gu.spread_exists(e, sigma)
    assert isinstance(exists, bool)
    if exists and sigma**2 > 0.0 and abs(e) < 1.0:  # sigma**2 underflowing to 0: see report
        gu.next_equity_spread(e, sigma)  # accepted
    elif not exists:
        with pytest.raises(ValueError, match="volatility"):
            gu.volatility_doubling_gain(e, sigma)


def test_spread_exists_vectorised():
    got = gu.spread_exists(np.array([0.0, 0.9, 0.9]), np.array([0.5, 0.5, 0.0]))
    np.testing.assert_array_equal(got, [True, False, True])


def test_next_equity_density_integrates_to_one_with_the_right_moments():
    e = np.linspace(-1.0, 1.0, 20001)
    density = gu.next_equity_density(e, 0.45, 0.2)
    assert integrate.trapezoid(density, e) == pytest.approx(1.0, abs=1e-6)
    assert integrate.trapezoid(e * density, e) == pytest.approx(0.45, abs=1e-6)  # martingale
    variance = integrate.trapezoid((e - 0.45) ** 2 * density, e)
    assert variance == pytest.approx(0.2**2, abs=1e-6)
    # an infinite end point (alpha < 1) comes back as NaN, never inf
    assert np.isnan(gu.next_equity_density([-1.0], -0.9, 0.4)[0])


def test_race_sequence_gains():
    t = gu.race_sequence_gains(70, 80, "owned", gu.GiveUpPoints(0.9, 0.85))
    assert t["sequences"].sum() == 1296
    np.testing.assert_array_equal(
        t["gain"], gu.doubling_gain(t["equity"].to_numpy(), "owned", gu.GiveUpPoints(0.9, 0.85))
    )
    verdict = gu.race_doubling_verdict(70, 80, "owned", gu.GiveUpPoints(0.9, 0.85))
    net = float(np.dot(t["weight"] / t["weight"].sum(), t["gain"]))
    assert net == pytest.approx(verdict.net_gain, abs=1e-12)  # [KW]: add up, divide by 1296
    with pytest.raises(ValueError, match="cube"):
        gu.race_sequence_gains(70, 80, "opponent")


def test_janowski_comparison():
    w = np.linspace(0.0, 1.0, 41)
    t = gu.janowski_comparison(w, gu.GiveUpPoints(0.86, 0.835))
    x_own, x_center = gu.cube_life_from_give_up(0.86), gu.cube_life_from_give_up(0.835, "center")
    for cube in gu.CUBE_POSITIONS:
        x = x_center if cube == "center" else x_own
        np.testing.assert_array_equal(t[f"giveup_{cube}"], gu.modified_equity(2 * w - 1, cube))
        np.testing.assert_allclose(t[f"janowski_{cube}"], janowski.cubeful_equity(w, x, cube))
    # between Janowski's live take .2 and cash .8 both centred equities are linear with the
    # same slope (x_c matches it) and the same value at w = 1/2: they agree
    inside = (w >= 0.2) & (w <= 0.8)
    np.testing.assert_allclose(
        t.loc[inside, "giveup_center"], t.loc[inside, "janowski_center"], atol=1e-12
    )
    below = gu.GiveUpPoints(0.7, 0.835)
    assert gu.janowski_comparison(w, below) is None  # x > 1: outside Janowski's range
    with pytest.raises(ValueError, match="w"):
        gu.janowski_comparison([1.5])
