"""Tests for cubecore.free_drop: the selective drop's model, checked independently.

The option's closed form (incomplete beta) is checked against numerical integration
of the Beta density; the model without spread is cubecore.match's post-Crawford
recursion; Kazaross-XG2's post-Crawford column comes from the gnubg fixture.
"""

import json
import math
from pathlib import Path

import hypothesis.strategies as hst
import pytest
from hypothesis import given, settings
from scipy import integrate, stats

from cubecore import free_drop as fd
from cubecore.match import post_crawford_equity
from cubecore.met import MatchEquityTable

DATA = Path(__file__).resolve().parent / "data"
MET = json.loads((DATA / "gnubg_market_window.json").read_text())["met"]
KXG2 = MatchEquityTable("kxg2", "Kazaross-XG2", MET["pre"], MET["post"])


def _beta(spread):
    a = (1 / (4 * spread**2) - 1) / 2
    return stats.beta(a, a)


@pytest.mark.parametrize("spread", [0.02, 0.05, 0.1, 0.25])
def test_two_away_value_is_the_expected_excess_over_one_half(spread):
    dist = _beta(spread)
    assert dist.std() == pytest.approx(spread)
    excess, _ = integrate.quad(lambda p: (p - 0.5) * dist.pdf(p), 0.5, 1)
    assert fd.selective_drop_value(2, spread=spread) == pytest.approx(excess, rel=1e-9)


@pytest.mark.parametrize("k", [0.2, 0.43, 0.5, 0.61, 0.9])
def test_excess_closed_form_against_quadrature(k):
    dist = _beta(0.08)
    expected, _ = integrate.quad(lambda p: (p - k) * dist.pdf(p), k, 1)
    assert fd._excess(k, 0.08) == pytest.approx(expected, rel=1e-8, abs=1e-14)


@pytest.mark.parametrize("g", [0.0, 0.26, 0.4])
def test_without_spread_the_model_is_the_post_crawford_recursion_of_match(g):
    frame = fd.free_drop_price(KXG2, max_away=12, gammon_rate=g, spread=0.0).frame
    expected = [1 - post_crawford_equity(n, g) for n in range(2, 13)]
    assert list(frame.model_plain) == pytest.approx(expected, abs=1e-12)
    assert (frame.model_value_pp == 0).all()


def test_kazaross_xg2_two_away_implied_value():
    # post[1] = 0.48803 (float32 0.48802998...): 1/2 - 0.48803 = 1.197 pp
    row = fd.free_drop_price(KXG2, max_away=4).frame.iloc[0]
    assert row.table == pytest.approx(0.48803, abs=1e-7)
    assert row.table_plain == 0.5
    assert row.table_implied_pp == pytest.approx(1.197, abs=1e-3)
    assert row.neighbour_gap_pp == pytest.approx(row.table_implied_pp)


def test_the_option_lives_at_even_scores():
    frame = fd.free_drop_price(KXG2, max_away=12, gammon_rate=0.26, spread=0.05).frame
    even, odd = frame[frame.even], frame[~frame.even]
    assert (even.model_value_pp > 0.3).all()
    assert (odd.model_value_pp.abs() < 0.01).all()
    # the option shrinks as the trailer has further to go
    assert list(even.model_value_pp) == sorted(even.model_value_pp, reverse=True)


@settings(max_examples=40, deadline=None)
@given(
    n=hst.integers(2, 25),
    g=hst.floats(0, 0.6),
    s1=hst.floats(0, 0.25),
    s2=hst.floats(0, 0.25),
)
def test_more_spread_is_worth_more_to_the_leader(n, g, s1, s2):
    low, high = sorted((s1, s2))
    v_low = fd.selective_drop_value(n, g, low)
    v_high = fd.selective_drop_value(n, g, high)
    assert v_high >= v_low - 1e-12
    assert v_low >= -1e-12
    assert math.isfinite(v_high)


def test_implied_spread_reproduces_the_table():
    spread = fd.implied_spread(KXG2, 2)
    assert spread == pytest.approx(0.03, abs=0.002)
    row = fd.free_drop_price(KXG2, max_away=2, spread=spread).frame.iloc[0]
    assert row.table_selective == pytest.approx(row.table, abs=1e-10)
    # an odd score, where the table sits above the plain recursion: no spread does it
    assert math.isnan(fd.implied_spread(KXG2, 3))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: fd.selective_drop_value(1),
            "`trailer_away` must be a whole number in \\[2, 25\\]",
        ),
        (lambda: fd.selective_drop_value(4, spread=0.3), "`spread` must lie in \\[0, 0.25\\]"),
        (lambda: fd.selective_drop_value(4, gammon_rate=-1), "`gammon_rate` must lie in"),
        (lambda: fd.free_drop_price(KXG2, max_away=30), "`max_away` must be a whole number"),
        (lambda: fd.free_drop_price(KXG2, spread=math.nan), "`spread` must be a real number"),
        (lambda: fd.implied_spread(KXG2, 26), "`trailer_away` must be a whole number"),
    ],
)
def test_bad_arguments(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_bad_table():
    with pytest.raises(TypeError, match="MatchEquityTable"):
        fd.free_drop_price([0.5, 0.48])
