"""Tests for cubecore.race_heuristics: the 8-9-12 rule and Kleinman's formula.

Expected values come from the rules' definitions computed here afresh (integer
percent leads, ``math.erf``) and from :mod:`cubecore.race`'s exact model, itself
checked against an independent recursion in tests/test_race.py.
"""

import math

import hypothesis.strategies as hst
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from numpy.testing import assert_allclose, assert_array_equal

from cubecore import race, race_heuristics

counts = hst.integers(1, race.MAX_COUNT)


def test_kleinman_win_probability():
    # [K80] in its erf form, 1/2 [1 + erf((D + 4) / (2 sqrt(S - 4)))]
    h = race_heuristics
    assert_allclose(h.kleinman_win_probability(100, 100), 0.5 * (1 + math.erf(4 / 28)), rtol=1e-14)
    assert_allclose(
        h.kleinman_win_probability(70, 80),
        0.5 * (1 + math.erf(14 / (2 * math.sqrt(146)))),
        rtol=1e-14,
    )
    with pytest.raises(ValueError, match="exceed 4"):
        h.kleinman_win_probability(2, 2)
    # within 2 points of the exact chance from 60 to 150 pips, even to +-15
    x, y = np.meshgrid(np.arange(60, 151), np.arange(60, 151), indexing="ij")
    near = np.abs(x - y) <= 15
    err = h.kleinman_win_probability(x, y) - race.race_win_probability(x, y)
    assert np.max(np.abs(err[near])) < 0.02


@settings(max_examples=80, deadline=None)
@given(counts, counts)
def test_kleinman_is_a_probability_and_favours_the_shorter_count(x, y):
    if x + y <= 4:
        return
    p = float(race_heuristics.kleinman_win_probability(x, y))
    assert 0.0 <= p <= 1.0
    if y + 1 <= race.MAX_COUNT:  # a longer opponent count never lowers the chance
        assert float(race_heuristics.kleinman_win_probability(x, y + 1)) >= p


def test_rule_8_9_12():
    rule = race_heuristics.rule_8_9_12
    # lead = 100 (y - x) / x, thresholds 8 (double), 9 (redouble), 12 (last take)
    assert rule(100, 108, "center") == "double/take"
    assert rule(100, 107, "center") == "no double"
    assert rule(100, 108, "owned") == "no double"
    assert rule(100, 109, "owned") == "double/take"
    assert rule(100, 112, "center") == "double/take"
    assert rule(100, 113, "center") == "double/pass"
    assert rule(75, 81, "center") == "double/take"  # exactly 8%: no rounding
    assert rule(76, 82, "center") == "no double"  # 7.89%
    assert np.all(rule([50, 100], 200, "opponent") == "no double")


def test_rules_of_thumb_map():
    m = race_heuristics.rules_of_thumb_map("center", 120, 60)
    assert {"rule_8_9_12", "rule_agrees", "comparison", "kleinman_win", "kleinman_error"} <= set(
        m.columns
    )
    tie = m["full_point"] & (m["rule_8_9_12"] == "double/pass")
    assert_array_equal(m["rule_agrees"], (m["rule_8_9_12"] == m["action"].astype(str)) | tie)
    # counts 60..200, offsets within 40: the rule errs only within 3 points of its thresholds
    for cube, threshold in (("center", 8), ("owned", 9)):
        m = race_heuristics.rules_of_thumb_map(cube, 200, 60)
        m = m[m.offset.abs() <= 40]
        lead = 100 * m.offset / m.on_roll
        wrong = ~m["rule_agrees"]
        assert m["rule_agrees"].mean() > 0.97
        assert np.all((lead[wrong] >= threshold - 3) & (lead[wrong] <= 12 + 3))
    small = race_heuristics.rules_of_thumb_map("owned", 3)
    assert small.loc[(small.on_roll == 2) & (small.opponent == 2), "kleinman_win"].isna().all()


def test_comparison_names_each_disagreement():
    m = race_heuristics.rules_of_thumb_map("center", 150, 20)
    rule, exact = m["rule_8_9_12"], m["action"].astype(str)
    expected = np.select(
        [
            m["rule_agrees"],
            (rule != "no double") & (exact == "no double"),
            (rule == "no double") & (exact != "no double"),
            (rule == "double/take") & (exact == "double/pass"),
            (rule == "double/pass") & (exact == "double/take"),
        ],
        list(race_heuristics.RULE_COMPARISONS),
        default="none",
    )
    assert_array_equal(m["comparison"].astype(str), expected)
    assert set(m["comparison"].astype(str)) > {"agrees"}  # the rule does err somewhere


def test_rules_of_thumb_summary():
    m = race_heuristics.rules_of_thumb_map("owned", 80)
    s = race_heuristics.rules_of_thumb_summary(m)
    assert s.shares["comparison"].tolist() == list(race_heuristics.RULE_COMPARISONS)
    assert s.shares["positions"].sum() == 80 * 80
    assert_allclose(s.shares["share"].sum(), 1.0)
    assert s.shares.loc[0, "positions"] == int((m["comparison"] == "agrees").sum())
    contested = (m["rule_8_9_12"] != "no double") | (m["action"].astype(str) != "no double")
    assert s.contested_agreement == pytest.approx(m.loc[contested, "rule_agrees"].mean())
    assert s.kleinman_max_error == pytest.approx(np.nanmax(np.abs(m["kleinman_error"])))
    ten = m[(m.on_roll >= 10) & (m.opponent >= 10)]
    assert s.kleinman_max_error_10 == pytest.approx(np.max(np.abs(ten["kleinman_error"])))
    assert s.kleinman_max_error_10 <= s.kleinman_max_error
    nobody = race_heuristics.rules_of_thumb_summary(
        race_heuristics.rules_of_thumb_map("opponent", 5)
    )
    assert nobody.contested_agreement == 1.0  # nobody doubles: nothing contested
    assert np.isnan(nobody.kleinman_max_error_10)  # no counts of 10 or more


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: race_heuristics.rule_8_9_12(10, 10, "nowhere"), "cube"),
        (lambda: race_heuristics.rule_8_9_12(0, 10, "center"), "on_roll"),
        (lambda: race_heuristics.kleinman_win_probability(10, 376), "opponent"),
        (lambda: race_heuristics.kleinman_win_probability(10.5, 10), "on_roll"),
        (lambda: race_heuristics.rules_of_thumb_map("center", 376), "max_count"),
        (lambda: race_heuristics.rules_of_thumb_summary(pd.DataFrame({"a": [1]})), "frame"),
    ],
)
def test_invalid_arguments(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_empty_frame_is_refused():
    empty = race_heuristics.rules_of_thumb_map("center", 5).iloc[:0]
    with pytest.raises(ValueError, match="frame"):
        race_heuristics.rules_of_thumb_summary(empty)


@pytest.mark.parametrize(
    "function", [race_heuristics.kleinman_win_probability, race_heuristics.rule_8_9_12]
)
def test_counts_that_do_not_broadcast_are_named(function):
    # found by the fuzz test: numpy's own message named neither parameter
    extra = ("center",) if function is race_heuristics.rule_8_9_12 else ()
    with pytest.raises(ValueError, match=r"on_roll.*opponent.*broadcast.*\(6,\), \(0,\)"):
        function([2, 86, 141, 130, 102, 58], np.array([], dtype=int), *extra)
