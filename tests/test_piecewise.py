"""Tests for cubecore.piecewise: piecewise-linear functions on [0, 1] and the taut string."""

from __future__ import annotations

import math

import hypothesis.strategies as hst
import pytest
from hypothesis import given

from cubecore import piecewise
from cubecore.piecewise import (
    clamp,
    combine,
    first_at_least,
    line,
    piecewise_linear,
    solve_between,
    value_at,
    values_on,
)


def _reference_combine(f, g, pick):
    """The plain definition: corners of both, crossings, values by bisection (value_at)."""
    xs = sorted(set(f[0]) | set(g[0]))
    diff = [value_at(f, x) - value_at(g, x) for x in xs]
    out = [xs[0]]
    for i in range(1, len(xs)):
        if diff[i - 1] * diff[i] < 0:
            t = diff[i - 1] / (diff[i - 1] - diff[i])
            out.append(xs[i - 1] + t * (xs[i] - xs[i - 1]))
        out.append(xs[i])
    return tuple(out), tuple(pick(value_at(f, x), value_at(g, x)) for x in out)


@hst.composite
def _piecewise_linear(draw):
    """A piecewise-linear function on [0, 1] as the module keeps them: (corners, values)."""
    inside = draw(hst.lists(hst.floats(0.001, 0.999), max_size=6, unique=True))
    xs = (0.0, *sorted(inside), 1.0)
    ys = draw(hst.lists(hst.floats(-1.0, 2.0), min_size=len(xs), max_size=len(xs)))
    return xs, tuple(ys)


@given(_piecewise_linear(), _piecewise_linear(), hst.floats(-1.0, 2.0), hst.booleans())
def test_one_pass_combine_and_clamp_match_the_definition_bitwise(f, g, level, use_max):
    pick = max if use_max else min
    assert combine(f, g, pick) == _reference_combine(f, g, pick)
    flat = line(level, level)
    assert clamp(f, level, pick) == _reference_combine(f, flat, pick)


@given(_piecewise_linear(), hst.lists(hst.floats(0.0, 1.0), max_size=12))
def test_values_in_one_pass_are_the_bisected_values(f, points):
    xs = sorted(set(points) | {0.0, 1.0})
    assert values_on(f, xs) == [value_at(f, x) for x in xs]


@given(_piecewise_linear())
def test_constructor_keeps_a_valid_function(f):
    assert piecewise_linear(*f) == f


@pytest.mark.parametrize(
    ("xs", "ys", "message"),
    [
        ([0.0, 1.0], [0.0], "`ys` must have one value per corner"),
        ([0.1, 1.0], [0.0, 1.0], "`xs` must start at 0 and end at 1"),
        ([0.0, 0.5, 0.5, 1.0], [0.0, 1.0, 1.0, 0.0], "strictly increasing"),
        ([0.0, 1.0], [0.0, math.nan], "`ys` must be finite"),
        ([0.0], [0.0], "`xs` must have 2 to"),
        ([0.0, True], [0.0, 1.0], "not a bool"),
        ([0.0, "a"], [0.0, 1.0], "`xs` must be a real number or an array of real numbers"),
        (3.0, [0.0, 1.0], "`xs` must be a sequence of real numbers"),
    ],
)
def test_constructor_names_what_is_wrong(xs, ys, message):
    with pytest.raises(ValueError, match=message):
        piecewise_linear(xs, ys)


@given(_piecewise_linear(), _piecewise_linear(), hst.floats(-1.0, 2.0), hst.floats(-1.0, 2.0))
def test_taut_string_stays_between_its_obstacles(low, high, y0, y1):
    """The solution is pinned at the ends and lies above lower, below upper where they allow."""
    # a feasible pair: the upper obstacle lies above the lower one everywhere
    upper = combine(high, low, max)
    string = solve_between(low, upper, y0, y1)
    assert string[0][0] == 0.0 and string[0][-1] == 1.0
    assert string[1][0] == y0 and string[1][-1] == y1
    xs = sorted(set(low[0]) | set(upper[0]) | set(string[0]))
    inner = [x for x in xs if 0.0 < x < 1.0]
    lows, highs = values_on(low, inner), values_on(upper, inner)
    for s, lo, hi in zip(values_on(string, inner), lows, highs, strict=True):
        assert lo - 1e-9 <= s <= hi + 1e-9


def test_least_concave_majorant_of_a_tent():
    """One lower obstacle: the concave hull pinned at the ends (the owner's stopping value)."""
    tent = piecewise_linear([0.0, 0.25, 0.5, 1.0], [0.0, 0.25, 0.75, 0.0])
    # from (0, 0) the string rises straight to (0.5, 0.75): the corner at 0.25 lies below
    assert solve_between(tent, None, 0.0, 0.0) == ((0.0, 0.5, 1.0), (0.0, 0.75, 0.0))
    # no obstacle at all: the straight line
    assert solve_between(None, None, -1.0, 1.0) == line(-1.0, 1.0)


def test_first_at_least_inverts_a_nondecreasing_function():
    f = piecewise_linear([0.0, 0.5, 1.0], [0.0, 0.2, 1.0])
    assert first_at_least(f, 0.6) == pytest.approx(0.75)
    assert first_at_least(f, -1.0) == 0.0
    assert piecewise.MAX_CORNERS >= 1000
