"""Tests for cubecore.race_match: the exact race cube strategy at a match score.

The DP is checked against an independent plain-Python recursion written here from
the rules (memoised over both counts, every cube state, table values read through
``MatchEquityTable.mwc``), and against known properties of match play.
"""

from functools import cache

import hypothesis.strategies as hst
import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings
from numpy.testing import assert_allclose

from cubecore import bearoff, race, race_match
from cubecore.match_points import MatchScore
from cubecore.met import TABLES, MatchEquityTable, load_table, model_table
from cubecore.race_match import (
    MATCH_ACTIONS,
    MAX_MATCH_COUNT,
    cube_cap,
    race_match_action_map,
    race_match_cube_life,
    race_match_cube_life_by_score,
    race_match_equities,
    race_match_window,
)

KXG2 = load_table("kxg2")
EXACT = 1e-12  # sums of at most a few hundred table values
DOUBLES = ("double/take", "double/pass")


# --- independent model, from the rules only ----------------------------------------------
def dice_totals() -> dict[int, int]:
    ways: dict[int, int] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            total = 4 * a if a == b else a + b
            ways[total] = ways.get(total, 0) + 1
    return ways


TOTALS = dice_totals()


def reference_solver(table: MatchEquityTable, a: int, b: int, phase: str):
    """Player P (a-away) against O (b-away); returns P's MWC with P (or O) on roll."""
    post = phase != "pre-Crawford"
    crawford = phase == "Crawford"

    def end(p_points: int, o_points: int) -> float:  # MatchEquityTable.mwc: a won match 1
        a2, b2 = a - p_points, b - o_points
        return table.mwc(a2, b2, post_crawford=post and min(a2, b2) == 1)

    @cache
    def no_double(p_on_roll: bool, x: int, y: int, cube: int, owner: str) -> float:
        total = 0.0
        for t, w in TOTALS.items():
            if p_on_roll:
                v = end(cube, 0) if x - t <= 0 else value(False, x - t, y, cube, owner)
            else:
                v = end(0, cube) if y - t <= 0 else value(True, x, y - t, cube, owner)
            total += w * v
        return total / 36

    @cache
    def value(p_on_roll: bool, x: int, y: int, cube: int, owner: str) -> float:
        nd = no_double(p_on_roll, x, y, cube, owner)
        them = "O" if p_on_roll else "P"
        away = a if p_on_roll else b
        if crawford or owner == them or cube >= away:
            return nd
        take = no_double(p_on_roll, x, y, 2 * cube, them)
        if p_on_roll:
            doubling = min(take, end(cube, 0))
            return doubling if doubling > nd + EXACT else nd
        doubling = max(take, end(0, cube))
        return doubling if doubling < nd - EXACT else nd

    return value, no_double


# --- the independent recursion ------------------------------------------------------------
@pytest.mark.parametrize(
    ("key", "a", "b", "phase"),
    [
        ("kxg2", 2, 2, "pre-Crawford"),
        ("kxg2", 3, 5, "pre-Crawford"),
        ("woolsey", 4, 2, "pre-Crawford"),
        ("kxg2", 1, 4, "Crawford"),
        ("kxg2", 3, 1, "post-Crawford"),
        ("kxg2", 1, 2, "post-Crawford"),
    ],
)
def test_dp_equals_independent_recursion(key, a, b, phase):
    table = load_table(key)
    value, no_double = reference_solver(table, a, b, phase)
    m = race_match_action_map(MatchScore(table, a, b, phase=phase), max_count=16)
    expected = [
        value(True, int(x), int(y), 1, "C") for x, y in zip(m.on_roll, m.opponent, strict=True)
    ]
    assert_allclose(m["optimal"], expected, atol=1e-12)
    expected_nd = [
        no_double(True, int(x), int(y), 1, "C") for x, y in zip(m.on_roll, m.opponent, strict=True)
    ]
    assert_allclose(m["no_double"], expected_nd, atol=1e-12)


def test_owned_cube_equals_independent_recursion():
    value, _ = reference_solver(KXG2, 5, 4, "pre-Crawford")
    for owner, name in (("P", "player"), ("O", "opponent")):
        m = race_match_action_map(
            MatchScore(KXG2, 5, 4, cube_value=2, cube_owner=name), max_count=14
        )
        expected = [
            value(True, int(x), int(y), 2, owner)
            for x, y in zip(m.on_roll, m.opponent, strict=True)
        ]
        assert_allclose(m["optimal"], expected, atol=1e-12)


# --- known properties of match play -------------------------------------------------------
def test_double_match_point_is_the_cubeless_race():
    """1-away/1-away: no cube, so the MWC is the cubeless winning chance."""
    m = race_match_action_map(MatchScore(KXG2, 1, 1, phase="post-Crawford"), max_count=60)
    assert_allclose(m["optimal"], m["cubeless_win"], atol=EXACT)
    assert (m["action"] == "no double").all() and not m["may_double"].any()


def test_crawford_game_has_no_cube():
    m = race_match_action_map(MatchScore(KXG2, 1, 3, phase="Crawford"), max_count=40)
    assert not m["may_double"].any()
    # the game is cubeless: MWC = p win(1) + (1 - p) lose(1)
    win, lose = 1.0, KXG2.mwc(1, 2, post_crawford=True)
    assert_allclose(m["optimal"], lose + m["cubeless_win"] * (win - lose), atol=EXACT)


@pytest.mark.parametrize("key", ["kxg2", "woolsey", "rk"])
def test_two_away_two_away(key):
    """2-away/2-away, cube at 1: once doubled the cube is dead.

    Exact properties tested: (i) the doubled-and-taken MWC is the cubeless
    winning chance p; (ii) the taker takes iff p <= M(1-away, 2-away) (the
    Crawford entry), i.e. the pass value; (iii) whenever p > 1/2 the optimal MWC
    is min(p, M(1, 2)): doubling is right (or, at a certain cash, ties) whenever
    the roller is the favourite. The converse, "hold whenever p <= 1/2", is NOT
    true in the race model: e.g. 9 v 6 (p = 0.492) the roller doubles, because if
    he holds and misses, the opponent doubles him out next turn (tested below).
    """
    table = load_table(key)
    m = race_match_action_map(MatchScore(table, 2, 2), max_count=MAX_MATCH_COUNT)
    p = m["cubeless_win"].to_numpy()
    cash = table.mwc(1, 2)
    assert_allclose(m["double_take"], p, atol=EXACT)  # (i)
    assert_allclose(m["double_pass"], cash, atol=0)
    assert ((m["opponent_takes"]) == (p <= cash)).all()  # (ii)
    fav = p > 0.5
    assert_allclose(m.loc[fav, "optimal"], np.minimum(p[fav], cash), atol=EXACT)  # (iii)
    held = fav & ~m["action"].isin(DOUBLES).to_numpy()
    assert m.loc[held, "doubling_ties"].all()  # holding a favourite is only ever a tie


def test_two_away_two_away_underdog_double():
    e = race_match_equities(MatchScore(KXG2, 2, 2), 9, 6)
    assert e.cubeless_win < 0.5 and e.action == "double/take"
    assert e.optimal > e.no_double


@pytest.mark.parametrize("away", [2, 3, 4, 5, 6, 7])
def test_post_crawford_trailer_doubles_at_once(away):
    """Post-Crawford the trailer doubles at once.

    Exact property: his optimal MWC equals his doubling value min(DT, DP) at every
    position (doubling at once is never wrong), and it is strictly right wherever
    the leader would take and the trailer can bear off with this roll (count <=
    24; a win now is worth more doubled). Elsewhere waiting can tie: he cannot bear
    off this roll, so doubling now or next roll is worth the same (the leader has
    no cube), or the leader would pass and cannot finish before the trailer cashes
    next roll; every such hold is marked ``doubling_ties``.
    """
    m = race_match_action_map(MatchScore(KXG2, away, 1, phase="post-Crawford"), max_count=100)
    doubling = np.minimum(m["double_take"], m["double_pass"])
    assert_allclose(m["optimal"], doubling, atol=EXACT)
    uncertain = m["cubeless_win"] < 1 - 1e-9
    can_finish = m["on_roll"] <= max(race.ROLL_TOTALS)
    strict = uncertain & can_finish & m["opponent_takes"] & (m["cubeless_win"] > 0)
    assert strict.sum() > 100
    assert m.loc[strict, "action"].isin(DOUBLES).all()
    waiting = ~m["action"].isin(DOUBLES)
    assert m.loc[waiting, "doubling_ties"].all()


def test_long_score_approaches_money():
    """On the model table, the centred-cube actions approach the money actions.

    Agreement over counts 1..100 (both sides) with :func:`race.cube_action_map`
    ("too good" read as "no double", as money's full points are), measured:
    5-away 0.9848, 11-away 0.9964, 25-away 0.9983.
    """
    table = model_table()
    money = race.cube_action_map("center", 100)["action"].astype(str).to_numpy()
    agreement = []
    for away in (5, 11, 25):
        m = race_match_action_map(MatchScore(table, away, away), max_count=100)
        action = m["action"].astype(str).replace("too good", "no double").to_numpy()
        agreement.append(float((action == money).mean()))
    assert agreement == sorted(agreement)
    assert agreement[-1] >= 0.998


def test_window_at_long_score_near_money_thresholds():
    """25-away/25-away on the model table: the window within 1 pip of money's."""
    w = race_match_window(MatchScore(model_table(), 25, 25), max_count=110).set_index("on_roll")
    money = race.table_3([20, 40, 70, 100]).set_index("your_count")
    for count in money.index:
        assert abs(w.loc[count, "last_take"] - money.loc[count, "last_take"]) <= 1
        assert abs(w.loc[count, "first_double"] - money.loc[count, "first_double"]) <= 1


def test_window_is_ordered():
    w = race_match_window(MatchScore(KXG2, 4, 6), max_count=100)
    defined = w.dropna(subset=["first_double", "last_take"])
    assert len(defined) > 50
    assert (defined["first_double"] <= defined["last_take"]).all()
    assert (defined["double_point"] <= defined["take_point"] + 1e-12).all()


def test_window_matches_action_map():
    w = race_match_window(MatchScore(KXG2, 3, 3), max_count=60).set_index("on_roll")
    m = race_match_action_map(MatchScore(KXG2, 3, 3), max_count=60)
    row = m[(m.on_roll == 50) & m.action.isin(DOUBLES)]
    assert w.loc[50, "first_double"] == row["offset"].min()


# --- cube life ----------------------------------------------------------------------------
def test_cube_life_two_away_two_away_is_one():
    """2-away/2-away centred, 80 v 80 (p = 0.56): x = 1 exactly.

    The doubled cube is dead, so the live cube runs from M(2, 1) at p = 1 - M(1, 2)
    to M(1, 2) at p = M(1, 2): it is the line MWC = p, and for 1/2 < p <= M(1, 2)
    the exact cubeful MWC is p too (test_two_away_two_away (iii))."""
    d = race_match_cube_life_by_score(KXG2, 80, 80, max_away=2)
    assert_allclose(d["cube_life"], 1.0, atol=1e-9)


def test_cube_life_by_score_shape_and_range():
    d = race_match_cube_life_by_score(KXG2, 90, 90, max_away=5)
    assert len(d) == 16
    symmetric = d[d.away == d.opp_away]
    assert ((symmetric["cube_life"] > 0.5) & (symmetric["cube_life"] <= 1.0 + 1e-9)).all()
    assert ((d[["cubeful", "dead", "live"]] >= 0) & (d[["cubeful", "dead", "live"]] <= 1)).all(
        axis=None
    )


def test_cube_life_along_a_race():
    d = race_match_cube_life(MatchScore(KXG2, 9, 9), max_count=100)
    assert list(d.columns) == [
        "on_roll",
        "opponent",
        "cubeless_win",
        "cubeful",
        "dead",
        "live",
        "cube_life",
    ]
    long = d[d.on_roll >= 40]
    assert ((long["cube_life"] > 0.5) & (long["cube_life"] < 1.0)).all()


# --- properties ---------------------------------------------------------------------------
keys = hst.sampled_from(sorted(TABLES))
aways = hst.integers(2, 9)


@settings(max_examples=25, deadline=None)
@given(keys, aways, aways, hst.sampled_from([1, 2, 4]), hst.sampled_from(["player", "opponent"]))
def test_mwc_in_unit_interval_and_monotone(key, a, b, cube, owner):
    table = load_table(key)
    cube = min(cube, cube_cap(a, b))
    owner = "center" if cube == 1 else owner
    m = race_match_action_map(
        MatchScore(table, a, b, cube_value=cube, cube_owner=owner), max_count=40
    )
    values = m["optimal"].to_numpy()
    assert ((values >= 0.0) & (values <= 1.0)).all()
    grid = values.reshape(40, 40)  # rows: on_roll, columns: opponent
    assert (np.diff(grid, axis=0) <= 1e-12).all()  # more pips for the roller: worse
    assert (np.diff(grid, axis=1) >= -1e-12).all()  # more pips for the opponent: better
    assert (m["optimal"] >= m["no_double"] - 1e-12).all()


@settings(max_examples=25, deadline=None)
@given(hst.integers(1, 60), hst.integers(1, 60), aways, aways)
def test_owning_the_cube_is_worth_something(x, y, a, b):
    """At cube 2, owning it is never worse than the opponent owning it."""
    mine = race_match_equities(MatchScore(KXG2, a, b, cube_value=2, cube_owner="player"), x, y)
    theirs = race_match_equities(MatchScore(KXG2, a, b, cube_value=2, cube_owner="opponent"), x, y)
    assert mine.optimal >= theirs.optimal - 1e-12


@settings(max_examples=30, deadline=None)
@given(hst.integers(1, 50), hst.integers(1, 50), aways, aways)
def test_equities_agree_with_map(x, y, a, b):
    e = race_match_equities(MatchScore(KXG2, a, b), x, y)
    m = race_match_action_map(MatchScore(KXG2, a, b), max_count=50)
    row = m[(m.on_roll == x) & (m.opponent == y)].iloc[0]
    assert e.action == row["action"] and e.action in MATCH_ACTIONS
    assert_allclose(e.optimal, row["optimal"], atol=0)


# --- validation ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"on_roll": 0}, "`on_roll` must be a whole number in \\[1, 160\\]"),
        ({"opponent": 161}, "`opponent` must be a whole number in \\[1, 160\\]"),
        ({"on_roll": 2.5}, "`on_roll` must be a whole number"),
        ({"away": 30}, "`away` must be a whole number in \\[1, 25\\]"),
        ({"cube_value": 3, "cube_owner": "player"}, "`cube_value` must be a power of two"),
        ({"cube_value": 16, "cube_owner": "player"}, "`cube_value` must be at most 8"),
        ({"cube_owner": "nobody"}, "`cube_owner` must be one of"),
        ({"phase": "Crawford"}, "phase 'Crawford' needs away or opp_away to be 1"),
        ({"away": 1}, "phase 'pre-Crawford' needs away and opp_away >= 2"),
    ],
)
def test_bad_input_names_the_parameter(kwargs, message):
    args = {"away": 3, "opp_away": 5, "on_roll": 50, "opponent": 50} | kwargs
    table = args.pop("table", KXG2)
    score_keys = ("away", "opp_away", "phase", "cube_value", "cube_owner")
    with pytest.raises(ValueError, match=message):
        score = MatchScore(table, **{key: args.pop(key) for key in score_keys if key in args})
        race_match_equities(score, **args)


def test_bad_table_and_counts():
    with pytest.raises(TypeError, match="`table` must be"):
        race_match_action_map(MatchScore("kxg2", 3, 3))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="`max_count` must be a whole number in \\[1, 160\\]"):
        race_match_action_map(MatchScore(KXG2, 3, 3), max_count=161)
    with pytest.raises(ValueError, match="`min_count` must be a whole number in \\[1, 10\\]"):
        race_match_action_map(MatchScore(KXG2, 3, 3), max_count=10, min_count=11)
    with pytest.raises(ValueError, match="`offset` must be a whole number in \\[-100, 100\\]"):
        race_match_cube_life(MatchScore(KXG2, 3, 3), offset=101)
    with pytest.raises(ValueError, match="`max_away` must be a whole number in \\[2, 11\\]"):
        race_match_cube_life_by_score(KXG2, 50, 50, max_away=12)
    with pytest.raises(ValueError, match="`on_roll` must be a whole number"):
        race_match_equities(MatchScore(KXG2, 3, 3), True, 50)  # type: ignore[arg-type]


def test_cube_cap():
    assert [cube_cap(a, a) for a in (1, 2, 3, 4, 5, 8, 9, 25)] == [1, 2, 4, 4, 8, 8, 16, 32]


def test_map_is_tidy():
    m = race_match_action_map(MatchScore(KXG2, 3, 5), min_count=10, max_count=20)
    assert len(m) == 121
    assert isinstance(m["action"].dtype, pd.CategoricalDtype)
    assert list(m["action"].cat.categories) == list(MATCH_ACTIONS)
    assert race_match.MAX_MATCH_COUNT == 160


# --- the two-sided bear-off at a score ----------------------------------------------------
MONEY_4 = bearoff.build_two_sided(race_match.MAX_BEAROFF_CHECKERS)  # 210 positions, 0.2 s
PAIRS = np.array([(i, j) for i in range(1, 210) for j in range(1, 210)])


def _bearoff_codes(table, a, b):
    solution = race_match._solve_bearoff(table, a, b, "pre-Crawford", 4)
    values = race_match._decisions(solution, 0, PAIRS[:, 0], PAIRS[:, 1])
    return solution, values


def test_bearoff_at_double_match_point_is_the_cubeless_bearoff():
    """1-away/1-away: the MWC is the exact cubeless winning chance (bearoff module)."""
    solution = race_match._solve_bearoff(KXG2, 1, 1, "post-Crawford", 4)
    i, j = PAIRS[:, 0], PAIRS[:, 1]
    assert_allclose(solution.optimal[0, i, j], MONEY_4.win[i, j], atol=1e-12)
    assert_allclose(solution.cubeless[i, j], MONEY_4.win[i, j], atol=1e-12)


def test_bearoff_two_away_two_away_dead_cube():
    solution, values = _bearoff_codes(KXG2, 2, 2)
    assert_allclose(values["double_take"], solution.cubeless[PAIRS[:, 0], PAIRS[:, 1]], atol=1e-12)


def test_bearoff_long_score_approaches_money():
    """Model table, centred cube, all 209 x 209 pairs of 1..4 checkers: agreement with
    the money database's actions ("too good" read as "no double"); measured 5-away
    0.9734, 25-away 0.9976."""
    i, j = PAIRS[:, 0], PAIRS[:, 1]
    take = 2.0 * MONEY_4.opponent_owns[i, j]
    money = np.where(
        np.minimum(take, 1.0) > MONEY_4.centred[i, j] + 1e-12, np.where(take > 1.0, 2, 1), 0
    )
    agreement = []
    for away in (5, 25):
        _, values = _bearoff_codes(model_table(), away, away)
        code = np.where(values["code"] == 3, 0, values["code"])
        agreement.append(float((code == money).mean()))
    assert agreement[0] < agreement[1] and agreement[1] >= 0.997


bearoff_points = hst.lists(hst.integers(0, 2), min_size=6, max_size=6).filter(
    lambda p: 1 <= sum(p) <= race_match.MAX_BEAROFF_CHECKERS
)


@settings(max_examples=30, deadline=None)
@given(bearoff_points, bearoff_points, aways, aways)
# a sure win with the cube on 2 at 2-away/2-away: the 21 rolls' 1/36 and 2/36 summed to
# 1.0000000000000002 before the ways were summed as whole numbers and divided once
@example([0, 0, 1, 0, 0, 0], [0, 0, 0, 0, 0, 1], 2, 2)
def test_bearoff_equities_properties(mine, theirs, a, b):
    owned = race_match.bearoff_match_equities(
        MatchScore(KXG2, a, b, cube_value=2, cube_owner="player"), mine, theirs
    )
    other = race_match.bearoff_match_equities(
        MatchScore(KXG2, a, b, cube_value=2, cube_owner="opponent"), mine, theirs
    )
    centred = race_match.bearoff_match_equities(MatchScore(KXG2, a, b), mine, theirs)
    for e in (owned, other, centred):
        assert 0.0 <= e.optimal <= 1.0 and e.action in MATCH_ACTIONS
        assert e.optimal >= e.no_double - 1e-12
    assert owned.optimal >= other.optimal - 1e-12
    i, j = MONEY_4.index(mine), MONEY_4.index(theirs)
    assert_allclose(centred.cubeless_win, MONEY_4.win[i, j], atol=1e-12)


@pytest.mark.parametrize(
    ("on_roll", "message"),
    [
        ((0, 0, 0, 0, 0), "`on_roll` must be a sequence of 6 checker counts"),
        ((0, 0, 0, 0, 0, 0), "`on_roll` must hold 1..4 checkers \\(got 0\\)"),
        ((2, 2, 1, 0, 0, 0), "`on_roll` must hold 1..4 checkers \\(got 5\\)"),
        ((0, 0, 0, 0, 0, -1), "`on_roll\\[5\\]` must be a whole number in \\[0, 4\\]"),
        ("abcdef", "`on_roll` must be a sequence of 6 checker counts"),
    ],
)
def test_bearoff_bad_positions(on_roll, message):
    with pytest.raises(ValueError, match=message):
        race_match.bearoff_match_equities(MatchScore(KXG2, 3, 3), on_roll, (1, 0, 0, 0, 0, 0))


def test_linear_table_is_money_play():
    """A table linear in the score, M(a, b) = 1/2 + (b - a) d, at 64-away/64-away.

    Each game's MWC is then 1/2 + d x its points, so the match DP is money play
    scaled: MWC = 1/2 + c d E_money up to the cube's cap (dead at 64 here, alive for
    money), which moves the equities by under 1e-3. The actions agree everywhere but
    at the 6 positions where money's take and pass tie exactly (DT = DP = 1, count 6
    against 1..6: the double is worth exactly the cash), which rounding labels either
    way.
    """
    n, d = 64, 1 / 260
    a = np.arange(1, n + 1)
    table = MatchEquityTable("lin", "linear", 0.5 + (a[None, :] - a[:, None]) * d, np.full(n, 0.5))
    for value, owner, cube in ((1, "center", "center"), (2, "player", "owned")):
        m = race_match_action_map(
            MatchScore(table, 64, 64, cube_value=value, cube_owner=owner), max_count=100
        )
        money = race.cube_action_map(cube, 100)
        assert_allclose((m["optimal"] - 0.5) / (value * d), money["optimal"], atol=1e-3)
        differ = (m["action"].astype(str) != money["action"].astype(str)).to_numpy()
        assert (np.abs(money.loc[differ, "double_take"] - 1.0) < 1e-12).all()
        assert differ.sum() <= 6
