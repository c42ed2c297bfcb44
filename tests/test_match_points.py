"""Tests for cubecore.match_points against GNU Backgammon 1.07 (tests/data/gnubg_*.json).

The fixtures come from ``scripts/gnubg/market_window.py`` (see their ``_meta``): gnubg's
``show marketwindow`` and ``show gammonvalues`` on its default table, Kazaross-XG2, whose
arrays (``gnubg.met(25)``) are stored beside the printed numbers.
"""

import json
import math
from pathlib import Path

import hypothesis.strategies as hst
import numpy as np
import pytest
from hypothesis import given, settings

from cubecore import match_points as mp
from cubecore.match import match_equity_table, post_crawford_equity
from cubecore.met import MatchEquityTable

DATA = Path(__file__).resolve().parent / "data"
MARKET = json.loads((DATA / "gnubg_market_window.json").read_text())
GAMMONS = json.loads((DATA / "gnubg_gammon_values.json").read_text())
KXG2 = MatchEquityTable("kxg2", "Kazaross-XG2", MARKET["met"]["pre"], MARKET["met"]["post"])
OWNERS = {-1: "center", 0: "player", 1: "opponent"}

# gnubg prints percentages with 2 decimals (+-5e-5) from float32 arithmetic (~1e-6).
MARKET_TOL = 5e-5 + 2e-6
# gnubg prints gammon values with 5 decimals (+-5e-6), float32 (~3e-7 here).
GAMMON_TOL = 5e-6 + 1e-6


def _points(case):
    rates = case["rates"]
    return mp.cube_points(
        mp.MatchScore(
            KXG2,
            case["away"],
            case["opp_away"],
            phase=case["phase"],
            cube_value=case["cube_value"],
            cube_owner=OWNERS[case["cube_owner"]],
        ),
        mp.GammonRates(
            gammon_rate=rates["g0"],
            backgammon_rate=rates["b0"],
            opp_gammon_rate=rates["g1"],
            opp_backgammon_rate=rates["b1"],
        ),
    )


def _as_printed(window):
    """Our numbers arranged as gnubg prints them: line -> [double point, cash point]."""
    lines = {"dead": [window.double_point, window.cash_point]}
    if window.auto_redouble:
        lines["dead_redoubled"] = [window.double_point_redoubled, window.cash_point_redoubled]
    return lines


def test_fixtures_cover_the_acceptance_grid():
    # >= 20 scores x 3 cube levels x 2 gammon-rate settings with every number finite
    full = {}
    for case in MARKET["cases"]:
        numbers = [x for w in case["windows"].values() for pair in w.values() for x in pair]
        if all(x is not None for x in numbers):
            key = (case["away"], case["opp_away"], case["phase"])
            full.setdefault(key, set()).add((case["cube_value"], tuple(case["rates"].values())))
    complete = [k for k, combos in full.items() if len(combos) >= 3 * 2]
    assert len(complete) >= 20
    assert len({(c["away"], c["opp_away"], c["phase"]) for c in GAMMONS["cases"]}) >= 20
    assert MARKET["_meta"]["gnubg_version"].startswith("GNU Backgammon 1.07")


def _case_id(case):
    rates = case.get("rates")
    tail = "-" + "/".join(f"{r:g}" for r in rates.values()) if rates else ""
    return f"{case['away']}-{case['opp_away']}-{case['phase']}-cube{case['cube_value']}{tail}"


@pytest.mark.parametrize("case", MARKET["cases"], ids=_case_id)
def test_market_window_equals_gnubg(case):
    points = _points(case)
    for key, window in (("player0", points.player_doubles), ("player1", points.opponent_doubles)):
        printed = case["windows"][key]
        ours = _as_printed(window)
        if "live" in printed:
            ours["live"] = [window.double_point, window.cash_point_live]
        assert set(ours) == set(printed)
        for line, pair in printed.items():
            for expected, got in zip(pair, ours[line], strict=True):
                if expected is None:  # gnubg printed "-nan%": no risk and no gain
                    assert math.isnan(got)
                else:
                    assert got == pytest.approx(expected, abs=MARKET_TOL), line


def test_live_cash_point_is_the_dead_one_where_gnubg_prints_no_live_line():
    # gnubg omits "Live cube" where the doubled cube is dead or the redouble automatic
    checked = 0
    for case in MARKET["cases"]:
        points = _points(case)
        for key, w in (("player0", points.player_doubles), ("player1", points.opponent_doubles)):
            if "live" not in case["windows"][key]:
                effective = w.cash_point_redoubled if w.auto_redouble else w.cash_point
                assert w.cash_point_live == pytest.approx(effective, nan_ok=True)
                checked += 1
    assert checked > 50


@pytest.mark.parametrize("case", GAMMONS["cases"], ids=_case_id)
def test_gammon_values_equal_gnubg(case):
    cube = case["cube_value"]
    values = mp.gammon_values(
        mp.MatchScore(
            KXG2,
            case["away"],
            case["opp_away"],
            phase=case["phase"],
            cube_value=cube,
            cube_owner="center" if cube == 1 else "player",
        )
    )
    printed = case["values"]
    ours = {
        "player0": {"gammon": values.gammon_value, "backgammon": values.backgammon_value},
        "player1": {"gammon": values.opp_gammon_value, "backgammon": values.opp_backgammon_value},
    }
    for player, kinds in printed.items():
        for kind, expected in kinds.items():
            got = ours[player][kind]
            # gnubg prints 0 where a single game moves nothing (0/0); we give nan
            got = 0.0 if math.isnan(got) else got
            assert got == pytest.approx(expected, abs=GAMMON_TOL), (player, kind)


def test_take_point_is_one_minus_the_doublers_cash_point():
    p = mp.cube_points(
        mp.MatchScore(KXG2, 5, 3),
        mp.GammonRates(gammon_rate=0.2, opp_gammon_rate=0.15, opp_backgammon_rate=0.02),
    )
    assert p.opponent_doubles.take_point == pytest.approx(1 - p.opponent_doubles.cash_point)
    assert p.player_doubles.take_point_live == pytest.approx(1 - p.player_doubles.cash_point_live)


def test_gammonless_dead_take_point_from_the_table():
    # 5-away/3-away on Kazaross-XG2, the 3-away side doubles to 2: the 5-away taker's
    # take point is (D - L) / (W - L): drop D = M(5, 2), take and win W = M(3, 3),
    # take and lose L = M(5, 1) (the doubler then plays the Crawford game as leader).
    m = KXG2.mwc
    drop, win, lose = m(5, 2), m(3, 3), m(5, 1)
    p = mp.cube_points(mp.MatchScore(KXG2, 5, 3))
    assert p.opponent_doubles.take_point_gammonless == pytest.approx((drop - lose) / (win - lose))
    assert p.opponent_doubles.take_point == pytest.approx((drop - lose) / (win - lose))


def test_rates_move_points_the_right_way():
    base = mp.cube_points(mp.MatchScore(KXG2, 7, 7))
    gammony = mp.cube_points(mp.MatchScore(KXG2, 7, 7), mp.GammonRates(gammon_rate=0.3))
    # the player's own gammons: the taker of his double drops sooner (cash point falls),
    # and he takes the opponent's double with less (a won doubled game pays more)
    assert gammony.player_doubles.cash_point < base.player_doubles.cash_point
    assert gammony.opponent_doubles.take_point < base.opponent_doubles.take_point


def test_backgammon_rate_is_not_folded_into_the_gammon_rate():
    both = mp.cube_points(
        mp.MatchScore(KXG2, 9, 5), mp.GammonRates(gammon_rate=0.2, backgammon_rate=0.05)
    )
    folded = mp.cube_points(mp.MatchScore(KXG2, 9, 5), mp.GammonRates(gammon_rate=0.25))
    assert both.player_doubles.cash_point != pytest.approx(folded.player_doubles.cash_point)


def test_too_good_point_is_where_cashing_equals_playing_on():
    a, b, c = 6, 4, 2
    g, og = 0.3, 0.2
    p = mp.cube_points(
        mp.MatchScore(KXG2, a, b, cube_value=c, cube_owner="player"),
        mp.GammonRates(gammon_rate=g, opp_gammon_rate=og),
    )
    tg = p.player_doubles.too_good_point
    m = KXG2.mwc
    play_on = tg * ((1 - g) * m(a - c, b) + g * m(a - 2 * c, b)) + (1 - tg) * (
        (1 - og) * m(a, b - c) + og * m(a, b - 2 * c)
    )
    assert play_on == pytest.approx(m(a - c, b) if a - c > 0 else 1.0)


def test_money_like_limit_gammon_values():
    # far from the end of a long match the table is money-like: GV near 1/2
    v = mp.gammon_values(mp.MatchScore(KXG2, 25, 25))
    assert v.gammon_value == pytest.approx(0.5, abs=0.1)
    assert v.gammon_class == "money-like"


def test_dead_take_point_table_is_the_take_point_read_from_the_table():
    frame = mp.dead_take_point_table(KXG2, max_away=6)
    assert list(frame.columns) == ["away", "opp_away", "take_point"]
    assert list(zip(frame.away, frame.opp_away, strict=True)) == [
        (a, b) for a in range(2, 7) for b in range(2, 7)
    ]
    for row in frame.itertuples():
        one = mp.cube_points(mp.MatchScore(KXG2, row.away, row.opp_away))
        assert row.take_point == one.opponent_doubles.take_point_gammonless
    # 4-away 4-away, straight from the table: the opponent doubles to 2 (no automatic
    # redouble: both sides are more than 2-away); pass, take and win, take and lose
    pass_ = KXG2.mwc(4, 3)
    win, lose = KXG2.mwc(2, 4), KXG2.mwc(4, 2)
    at_4_4 = frame[(frame.away == 4) & (frame.opp_away == 4)].take_point.item()
    assert at_4_4 == pytest.approx((pass_ - lose) / (win - lose), abs=1e-12)


@pytest.mark.parametrize("max_away", [1, 0, 2.5, True, 10_000])
def test_dead_take_point_table_refuses_a_bad_size_naming_it(max_away):
    with pytest.raises(ValueError, match="max_away"):
        mp.dead_take_point_table(KXG2, max_away=max_away)


def test_cube_points_table_covers_every_level_and_owner():
    frame = mp.cube_points_table(
        mp.MatchScore(KXG2, 9, 5), mp.GammonRates(gammon_rate=0.2, opp_gammon_rate=0.2)
    )
    positions = set(zip(frame.cube_value, frame.cube_owner, strict=True))
    assert positions == {
        (1, "center"),
        *((c, o) for c in (2, 4, 8) for o in ("player", "opponent")),
    }
    row = frame[(frame.cube_value == 4) & (frame.cube_owner == "player")]
    kinds = dict(zip(row.doubler, row.double_kind, strict=True))
    assert kinds == {"player": "redouble", "opponent": "no access"}
    one = mp.cube_points(
        mp.MatchScore(KXG2, 9, 5, cube_value=4, cube_owner="player"),
        mp.GammonRates(gammon_rate=0.2, opp_gammon_rate=0.2),
    )
    got = row[row.doubler == "player"].iloc[0]
    assert got.cash_point_live == pytest.approx(one.player_doubles.cash_point_live)
    assert mp.cube_points_table(mp.MatchScore(KXG2, 1, 5, phase="Crawford")).shape[0] == 2


def test_crawford_game_has_no_double():
    p = mp.cube_points(mp.MatchScore(KXG2, 1, 5, phase="Crawford"))
    assert not p.player_doubles.may_double and not p.opponent_doubles.may_double
    assert p.mwc == pytest.approx(KXG2.mwc(1, 5))
    post = mp.cube_points(mp.MatchScore(KXG2, 1, 5, phase="post-Crawford"))
    assert post.opponent_doubles.may_double and not post.player_doubles.may_double
    assert post.mwc == pytest.approx(KXG2.mwc(1, 5, post_crawford=True))


def test_gammon_value_table_and_classes():
    frame = mp.gammon_value_table(KXG2, max_away=7, cube_value=2)
    assert frame.shape == (49, 10)
    assert set(frame.gammon_class) <= set(mp.GAMMON_CLASSES)
    # a side that wins the match with a single game at this cube has a dead gammon
    assert (frame[frame.away <= 2].gammon_class == "dead").all()
    assert mp.classify_gammon_value(0.0) == "dead"
    assert mp.classify_gammon_value(0.05) == "low"
    assert mp.classify_gammon_value(0.65) == "high"
    assert mp.classify_gammon_value(1.0) == "gammon-go"
    assert mp.classify_gammon_value(math.nan) == "dead"


@settings(max_examples=60, deadline=None)
@given(
    a=hst.integers(2, 15),
    b=hst.integers(2, 15),
    g=hst.floats(0, 0.5),
    og=hst.floats(0, 0.5),
    bg=hst.floats(0, 0.1),
    obg=hst.floats(0, 0.1),
)
def test_points_are_probabilities_and_ordered(a, b, g, og, bg, obg):
    p = mp.cube_points(
        mp.MatchScore(KXG2, a, b),
        mp.GammonRates(
            gammon_rate=g, backgammon_rate=bg, opp_gammon_rate=og, opp_backgammon_rate=obg
        ),
    )
    for w in (p.player_doubles, p.opponent_doubles):
        for name in ("cash_point", "cash_point_live", "take_point", "take_point_gammonless"):
            value = getattr(w, name)
            assert -1e-12 <= value <= 1 + 1e-12, name
    # the symmetric definition of the double point: the two sides' points sum to 1
    assert p.player_doubles.double_point + p.opponent_doubles.double_point == pytest.approx(1)


@settings(max_examples=30, deadline=None)
@given(a=hst.integers(2, 11), b=hst.integers(2, 11))
def test_swapping_players_swaps_the_windows(a, b):
    # gnubg's float32 table has M(a, b) + M(b, a) = 1 only to ~1e-7: make it exact
    pre = np.asarray(KXG2.pre)
    table = MatchEquityTable("sym", "sym", (pre + 1 - pre.T) / 2, KXG2.post)
    p = mp.cube_points(
        mp.MatchScore(table, a, b), mp.GammonRates(gammon_rate=0.25, opp_gammon_rate=0.1)
    )
    q = mp.cube_points(
        mp.MatchScore(table, b, a), mp.GammonRates(gammon_rate=0.1, opp_gammon_rate=0.25)
    )
    assert p.player_doubles.cash_point_live == pytest.approx(q.opponent_doubles.cash_point_live)
    assert p.opponent_doubles.take_point == pytest.approx(q.player_doubles.take_point)
    v = mp.gammon_values(mp.MatchScore(table, a, b))
    u = mp.gammon_values(mp.MatchScore(table, b, a))
    assert v.gammon_value == pytest.approx(u.opp_gammon_value)


def test_take_points_on_the_model_table_match_cubecore_match():
    # on the model's own table the live take point of cubecore.match is the same
    # recursion, TP_live(n) = TP_dead(n)(1 - TP_live'(2n)) (no gammons), and its dead
    # take point with gammons the same definition (scores without an automatic redouble)
    from cubecore.match import take_point

    for g in (0.0, 0.25):
        model = match_equity_table(11, gammon_rate=g, cube_efficiency=1.0).to_numpy()
        post = [post_crawford_equity(t, gammon_rate=g) for t in range(1, 12)]
        table = MatchEquityTable("model", "model", model, 1 - np.array(post))
        for a, b in [(5, 3), (7, 4), (9, 9), (11, 6), (4, 8)]:
            theirs = take_point(a, b, gammon_rate=g, opp_gammon_rate=0.1, cube_efficiency=1.0)
            ours = mp.cube_points(
                mp.MatchScore(table, a, b), mp.GammonRates(gammon_rate=g, opp_gammon_rate=0.1)
            )
            assert ours.opponent_doubles.take_point == pytest.approx(theirs.dead_gammon, abs=1e-12)
            assert ours.opponent_doubles.take_point_gammonless == pytest.approx(
                theirs.dead, abs=1e-12
            )
            if g == 0.0:
                plain = mp.cube_points(mp.MatchScore(table, a, b)).opponent_doubles.take_point_live
                assert plain == pytest.approx(theirs.live, abs=1e-12)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"away": 0}, "`away` must be a whole number in \\[1, 25\\]"),
        ({"opp_away": 26}, "`opp_away` must be a whole number in \\[1, 25\\]"),
        ({"away": 1}, "phase 'pre-Crawford' needs away and opp_away >= 2"),
        ({"phase": "Crawford"}, "phase 'Crawford' needs away or opp_away to be 1"),
        ({"phase": "post"}, "`phase` must be one of"),
        ({"cube_value": 3, "cube_owner": "player"}, "power of two"),
        ({"cube_value": 2}, "cube_owner 'center' goes with cube_value 1"),
        ({"cube_owner": "him"}, "`cube_owner` must be one of"),
        ({"gammon_rate": 1.5}, "`gammon_rate` must lie in \\[0, 1\\]"),
        ({"gammon_rate": 0.7, "backgammon_rate": 0.5}, "gammon_rate \\+ backgammon_rate"),
        ({"opp_backgammon_rate": -0.1}, "`opp_backgammon_rate` must lie"),
        ({"gammon_rate": True}, "not a bool"),
    ],
)
def test_bad_arguments_name_the_parameter(kwargs, message):
    args = {"away": 5, "opp_away": 3} | kwargs
    with pytest.raises(ValueError, match=message):
        score_keys = ("away", "opp_away", "phase", "cube_value", "cube_owner")
        score = mp.MatchScore(KXG2, **{key: args.pop(key) for key in score_keys if key in args})
        mp.cube_points(score, mp.GammonRates(**args))


def test_bad_table_and_crawford_cube():
    with pytest.raises(TypeError, match="MatchEquityTable"):
        mp.cube_points(mp.MatchScore([[0.5]], 2, 2))
    with pytest.raises(ValueError, match="Crawford game has no cube"):
        mp.cube_points(
            mp.MatchScore(KXG2, 1, 4, phase="Crawford", cube_value=2, cube_owner="opponent")
        )
    with pytest.raises(ValueError, match="`max_away` must be a whole number"):
        mp.gammon_value_table(KXG2, max_away=30)
    with pytest.raises(ValueError, match="`value` must be a gammon value >= 0"):
        mp.classify_gammon_value(-0.5)
    with pytest.raises(ValueError, match="`value` must be a real number \\(got 'high'\\)"):
        mp.classify_gammon_value("high")


# ----------------------------------------------------------------------------------
# The take point at a cube life
# ----------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(
    a=hst.integers(2, 25),
    b=hst.integers(2, 25),
    g=hst.floats(0.0, 0.4),
    og=hst.floats(0.0, 0.4),
    x=hst.floats(0.0, 1.0),
)
def test_cube_life_take_point_runs_from_the_dead_to_the_live_take(a, b, g, og, x):
    score = mp.MatchScore(KXG2, a, b)
    rates = mp.GammonRates(gammon_rate=g, opp_gammon_rate=og)
    window = mp.cube_points(score, rates).opponent_doubles
    dead = mp.cube_life_take_point(score, rates, 0.0)
    live = mp.cube_life_take_point(score, rates, 1.0)
    assert dead == pytest.approx(window.take_point, abs=1e-12)
    assert live == pytest.approx(window.take_point_live, abs=1e-12)
    between = mp.cube_life_take_point(score, rates, x)
    low, high = min(dead, live), max(dead, live)
    assert low - 1e-12 <= between <= high + 1e-12  # E_x is a mixture of the two


def test_cube_life_take_point_is_the_dead_one_when_the_doubled_cube_is_dead():
    score = mp.MatchScore(KXG2, 2, 2)  # the doubled cube decides the match
    rates = mp.GammonRates(gammon_rate=0.26, opp_gammon_rate=0.26)
    dead = mp.cube_points(score, rates).opponent_doubles.take_point
    assert {mp.cube_life_take_point(score, rates, x) for x in (0.0, 0.68, 1.0)} == {dead}


def test_cube_life_take_point_checks_its_arguments():
    with pytest.raises(ValueError, match="cube_life"):
        mp.cube_life_take_point(mp.MatchScore(KXG2, 4, 7), cube_life=1.5)
    with pytest.raises(TypeError, match="MatchScore"):
        mp.cube_life_take_point((KXG2, 4, 7))  # type: ignore[arg-type]
