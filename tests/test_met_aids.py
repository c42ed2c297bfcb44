"""Tests for cubecore.met_aids: the memory aids' published examples and their errors.

Sources: S. Turner, rec.games.backgammon, 22 June 1994 (bkgm.com rgb view+803);
K. Woolsey, rec.games.backgammon, 9 October 1994 (bkgm.com rgb view+171); P. Bray,
"Remembering Match Equities" (bkgm.com articles). Kazaross-XG2 from the gnubg fixture.
"""

import json
import math
from pathlib import Path

import hypothesis.strategies as hst
import numpy as np
import pytest
from hypothesis import given

from cubecore import met_aids as ma
from cubecore.met import MatchEquityTable

DATA = Path(__file__).resolve().parent / "data"
MET = json.loads((DATA / "gnubg_market_window.json").read_text())["met"]
KXG2 = MatchEquityTable("kxg2", "Kazaross-XG2", MET["pre"], MET["post"])


def test_published_examples():
    # Turner 1994: 3-away/8-away, Janowski "80% to the nearest %", Turner exactly 80
    assert round(100 * ma.janowski_match_equity(3, 8)) == 80
    assert ma.janowski_match_equity(3, 8) == pytest.approx(0.5 + 4.25 / 14)
    assert ma.turner_match_equity(3, 8) == pytest.approx(0.80)
    # Woolsey 1994: ahead 3-0 in a 7-point match, 6 1/2 a point: "about 69 1/2%"
    assert ma.neils_numbers_match_equity(4, 7) == pytest.approx(0.695)
    # "8 is 6, 11 is 5, 15 is 4"
    assert [ma.neils_number(t) for t in (8, 11, 15)] == [6, 5, 4]


def test_trailer_and_equal_scores():
    assert ma.turner_match_equity(8, 3) == pytest.approx(0.20)
    assert ma.janowski_match_equity(6, 6) == 0.5
    assert ma.neils_numbers_match_equity(9, 9) == 0.5
    # Janowski's Crawford form (Bray): 50 + 55 D / (T + 2); 1-away/5-away: 50 + 220/7
    assert ma.janowski_match_equity(1, 5, crawford=True) == pytest.approx(0.5 + 2.2 / 7)


def test_neils_numbers_interpolate_linearly():
    assert ma.neils_number(7) == 6.5
    assert ma.neils_number(9) == pytest.approx(6 - 1 / 3)
    assert ma.neils_number(13) == 4.5


def test_memory_aid_table_marks_what_the_aid_does_not_cover():
    turner = ma.memory_aid_table("turner", 5)
    assert turner.loc[1].isna().all() and turner[1].isna().all()
    neil = ma.memory_aid_table("neil", 17)
    assert math.isnan(neil.loc[3, 16]) and not math.isnan(neil.loc[3, 15])
    janowski = ma.memory_aid_table("janowski", 5)
    assert not janowski.isna().to_numpy().any()


def test_kazaross_xg2_errors_on_11x11():
    # MWC errors in percentage points; measured here, recorded for the lead's report
    results = {aid: ma.compare_memory_aid(aid, KXG2, 11) for aid in ma.MEMORY_AIDS}
    assert results["neil"].mean_abs_error_pp == pytest.approx(0.428, abs=1e-3)
    assert results["turner"].mean_abs_error_pp == pytest.approx(0.613, abs=1e-3)
    assert results["janowski"].mean_abs_error_pp == pytest.approx(0.977, abs=1e-3)
    for comparison in results.values():
        frame = comparison.frame
        assert frame.shape == (121, 9)
        assert comparison.max_abs_error_pp >= comparison.mean_abs_error_pp
        pre = frame[(frame.away >= 2) & (frame.opp_away >= 2)]
        assert pre.take_point_table.notna().all()


def test_crawford_cells_come_from_the_table_for_turner_and_neil():
    frame = ma.compare_memory_aid("turner", KXG2, 6).frame
    crawford = frame[(frame.away == 1) | (frame.opp_away == 1)]
    assert crawford.from_table.all() and crawford.aid.isna().all()
    assert not frame[(frame.away > 1) & (frame.opp_away > 1)].from_table.any()
    assert not ma.compare_memory_aid("janowski", KXG2, 6).frame.from_table.any()


def test_take_point_error_is_aid_minus_table():
    frame = ma.compare_memory_aid("neil", KXG2, 8).frame
    row = frame[(frame.away == 4) & (frame.opp_away == 7)].iloc[0]
    # the 4-away player doubled by the 7-away opponent: drop (4, 6), win (2, 7), lose (4, 5)
    aid = ma.neils_numbers_match_equity
    drop, win, lose = aid(4, 6), aid(2, 7), aid(4, 5)
    assert row.take_point_aid == pytest.approx((drop - lose) / (win - lose))
    assert row.take_point_error_pp == pytest.approx(
        100 * (row.take_point_aid - row.take_point_table)
    )


def test_an_aid_equal_to_the_table_has_no_error():
    n = 6
    pre = np.array(
        [
            [
                KXG2.mwc(a, b) if min(a, b) == 1 else ma.turner_match_equity(a, b)
                for b in range(1, n + 1)
            ]
            for a in range(1, n + 1)
        ]
    )
    table = MatchEquityTable("t", "Turner", pre, KXG2.post[:n])
    comparison = ma.compare_memory_aid("turner", table, n)
    assert comparison.max_abs_error_pp == 0
    assert comparison.max_abs_take_point_error_pp == 0


def test_take_points_outside_the_unit_interval_are_not_given():
    frame = ma.compare_memory_aid("janowski", KXG2, 15).frame
    defined = frame.take_point_aid.dropna()
    assert ((defined >= 0) & (defined <= 1)).all()
    # Janowski's formula exceeds 100% at 2-away/15-away: 50 + 85 * 13 / 21
    assert ma.janowski_match_equity(2, 15) > 1
    row = frame[(frame.away == 2) & (frame.opp_away == 15)].iloc[0]
    assert math.isnan(row.take_point_aid)


@given(a=hst.integers(2, 25), b=hst.integers(2, 25))
def test_aids_are_antisymmetric(a, b):
    assert ma.turner_match_equity(a, b) + ma.turner_match_equity(b, a) == pytest.approx(1)
    assert ma.janowski_match_equity(a, b) + ma.janowski_match_equity(b, a) == pytest.approx(1)
    if max(a, b) <= 15 and (a == b or max(a, b) >= 3):
        total = ma.neils_numbers_match_equity(a, b) + ma.neils_numbers_match_equity(b, a)
        assert total == pytest.approx(1)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: ma.turner_match_equity(1, 4), "`away` must be a whole number in \\[2, 25\\]"),
        (lambda: ma.janowski_match_equity(3, 26), "`opp_away` must be a whole number in"),
        (lambda: ma.janowski_match_equity(1, 4), "crawford=True goes with a 1-away score"),
        (lambda: ma.janowski_match_equity(3, 4, crawford=True), "crawford=True goes with"),
        (lambda: ma.janowski_match_equity(1, 4, crawford=1), "`crawford` must be True or False"),
        (lambda: ma.neils_number(2), "`trailer_away` must be a whole number in \\[3, 15\\]"),
        (lambda: ma.neils_numbers_match_equity(3, 16), "`opp_away` must be a whole number"),
        (lambda: ma.memory_aid_table("kleinman"), "`aid` must be one of"),
        (lambda: ma.memory_aid_table("neil", 26), "`max_away` must be a whole number"),
        (lambda: ma.compare_memory_aid("neil", KXG2, 1), "`max_away` must be a whole number"),
    ],
)
def test_bad_arguments(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_bad_table():
    with pytest.raises(TypeError, match="MatchEquityTable"):
        ma.compare_memory_aid("neil", "kxg2")
