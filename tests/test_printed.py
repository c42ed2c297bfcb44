"""Tests of cubecore.printed: one printed-vs-exact comparison."""

from __future__ import annotations

import hypothesis.strategies as hst
import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings

from cubecore.printed import MAX_DIGITS, SLACK, UNEXPLAINED, compare_printed


def test_compare_printed_table():
    # [KS69] Table I (2, 1) is the tie 21/32 = .65625, printed .6563 (half up): it agrees.
    printed = pd.DataFrame({1: [0.6563, 0.25], 2: [0.5, np.nan]}, index=pd.Index([2, 3], name="i"))
    printed.columns.name = "j"
    exact = pd.DataFrame({1: [21 / 32, 0.2500], 2: [0.49, 0.3], 9: [0.0, 0.0]}, index=[2, 3])
    frame = compare_printed(printed, exact, 4, {(2, 2): (0.5, "a misprint")})
    assert list(frame.columns) == [
        "i",
        "j",
        "printed",
        "exact",
        "difference",
        "within_printed_digits",
        "reason",
    ]
    # read row by row; the NaN cell (not printed) is left out
    assert frame[["i", "j"]].values.tolist() == [[2, 1], [2, 2], [3, 1]]
    assert frame["within_printed_digits"].tolist() == [True, False, True]
    assert frame["reason"].tolist() == ["", "a misprint", ""]
    np.testing.assert_allclose(frame["difference"], [21 / 32 - 0.6563, -0.01, 0.0], atol=1e-15)


def test_compare_printed_series_with_digits_per_cell():
    printed = pd.Series([4.0, 15.8494, 2819.971], index=pd.Index([1.0, 5.2, 1000.0], name="b"))
    exact = pd.Series([4.0, 15.84938, 2786.0125], index=printed.index)
    digits = pd.Series([1, 4, 3], index=printed.index)
    frame = compare_printed(printed, exact, digits, {5.2: (15.8494, "too large")})
    assert list(frame["b"]) == [1.0, 5.2, 1000.0]
    # 5.2 agrees to 4 places but is listed: it keeps its reason
    assert frame["within_printed_digits"].tolist() == [True, True, False]
    assert frame["reason"].tolist() == ["", "too large", UNEXPLAINED]


def test_compare_printed_unnamed_keys():
    frame = compare_printed(pd.Series([0.5]), pd.Series([0.5]), 2)
    assert list(frame.columns[:1]) == ["key"]
    frame = compare_printed(pd.DataFrame([[0.5]]), pd.DataFrame([[0.5]]), 2)
    assert list(frame.columns[:2]) == ["row", "column"]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"printed": [0.5]}, "`printed` must be a pandas Series or DataFrame"),
        ({"exact": pd.Series([0.5], index=[7])}, "`exact` must have every printed label"),
        ({"digits": -1}, "`digits` must be a whole number"),
        ({"digits": MAX_DIGITS + 1}, "`digits` must be a whole number"),
        ({"digits": 2.5}, "`digits` must be a whole number"),
        ({"digits": pd.Series([1.5])}, r"`digits` must be whole numbers in \[0, 15\]"),
        ({"digits": pd.Series([2], index=[9])}, "`digits` must give the decimals"),
        ({"deviations": {3: (0.5, "x")}}, "deviations names 3"),
        ({"deviations": {0: (0.4, "x")}}, "deviations gives 0 as printed 0.4"),
        ({"slack": -1.0}, r"`slack` must lie in \[0, 1\)"),
        ({"slack": True}, r"`slack` must lie in \[0, 1\)"),
    ],
)
def test_compare_printed_rejects(kwargs, message):
    arguments = {"printed": pd.Series([0.5]), "exact": pd.Series([0.5]), "digits": 2}
    arguments.update(kwargs)
    with pytest.raises(ValueError, match=message):
        compare_printed(**arguments)


@given(
    exact=hst.floats(-1e3, 1e3, allow_nan=False),
    digits=hst.integers(0, 6),
)
@settings(deadline=None)  # the first call builds pandas frames: slow once, not flaky in result
@example(exact=0.5, digits=0)  # a tie: printed 0 (Python rounds half to even), 1 agrees too
def test_exact_rounded_to_the_printed_digits_always_agrees(exact, digits):
    printed = round(exact, digits)
    frame = compare_printed(pd.Series([printed]), pd.Series([exact]), digits)
    assert frame["within_printed_digits"].all()
    assert frame.loc[0, "difference"] == exact - printed
    one_up = printed + 10.0**-digits
    off = compare_printed(pd.Series([one_up]), pd.Series([exact]), digits)
    # a tie (0.5 printed 0 or 1) lies within half a unit of both neighbours
    tie = abs(exact - one_up) <= 0.5 * 10.0**-digits + SLACK
    assert bool(off["within_printed_digits"].iloc[0]) == tie
    assert (off.loc[0, "reason"] == UNEXPLAINED) == (not tie)
