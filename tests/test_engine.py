"""Tests of cubecore.engine: bgsage's conventions, one test each, and the oracle comparison.

The oracle fixture ``tests/data/engine_gnubg_0ply.json`` is written by
``scripts/gnubg/engine_fixtures.py`` driving GNU Backgammon 1.07 (see its ``_meta``):
48 positions of each class (contact, crashed, race, two-sided bear-off), consecutive
cases ``2k``, ``2k+1`` being one board with each side on roll. bgsage and gnubg have
different nets: the comparison is one of agreement (figures in the assertion messages,
:func:`agreement_report`), never of equality.
"""

import json
import math
import re
from pathlib import Path

import hypothesis.strategies as hst
import numpy as np
import pytest
from hypothesis import given, settings

from cubecore import engine
from cubecore.bearoff import two_sided
from cubecore.cubeful import CubelessProbabilities, money_cube_decision, proper_cube_action
from cubecore.position import Position, position_from_id, position_from_xgid

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = json.loads((ROOT / "tests" / "data" / "engine_gnubg_0ply.json").read_text())
CASES = FIXTURE["cases"]
CLASSES = ("contact", "crashed", "race", "bearoff")
PROBABILITY_NAMES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
START = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2,)
#: The acceptance bounds of issue #39: a mean |P(win) difference| above 0.02 is a
#: convention bug; cube actions agree in at least 85% of positions.
MEAN_WIN_BOUND = 0.02
ACTION_AGREEMENT = 0.85
#: bgsage computes in float32: its outputs carry about 1e-7 relative rounding, and its
#: one-sided bear-off database (the source of its bear-off probabilities) is float32.
FLOAT32 = 1e-5


def _vector(p: CubelessProbabilities) -> np.ndarray:
    return np.array([getattr(p, name) for name in PROBABILITY_NAMES])


def _position(case):
    return position_from_id(case["position_id"])


# --------------------------------------------------------------------------- version


def test_installed_version_is_the_pinned_one():
    # the fixtures and figures below were made with this version; results change with it
    assert engine.installed_version() == engine.ENGINE_VERSION
    lock = (ROOT / "requirements.lock").read_text()
    assert re.search(rf"^bgsage=={re.escape(engine.ENGINE_VERSION)} \\$", lock, re.M)
    assert re.search(r"^bgsage>=1\.7\b", (ROOT / "requirements.txt").read_text(), re.M)


def test_only_the_adapter_imports_bgsage():
    importers = []
    for folder in ("cubecore", "ui", "pages", "store", "bench", "scripts"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            text = path.read_text()
            if re.search(r"^\s*(import|from)\s+(bgsage|bgbot_cpp)\b", text, re.M):
                importers.append(str(path.relative_to(ROOT)))
    app = (ROOT / "app.py").read_text()
    assert not re.search(r"^\s*(import|from)\s+bgsage", app, re.M)
    assert importers == ["cubecore/engine.py"]


# --------------------------------------------------------------------------- conventions


def test_board_array_convention():
    # module note 1: bgsage's STARTING_BOARD, written out in the docstring
    documented = [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0]
    assert engine.board(Position(START, START)) == documented
    # bars: index 25 the player on roll's, index 0 the opponent's
    p = Position((0,) + (1,) * 14 + (0,) * 9, (0,) * 23 + (14,), on_roll_bar=1, opponent_bar=1)
    array = engine.board(p)
    assert (array[0], array[25], array[24], array[1]) == (1, 1, 0, -14)


def test_engine_reads_our_pips():
    # bgsage's own pip count of the array equals ours for every fixture position
    for case in CASES:
        p = _position(case)
        assert engine.engine_pips(p) == p.pips == (case["pips_on_roll"], case["pips_opponent"])


def test_perspective_is_the_player_on_roll():
    # both sides on roll (cases 2k, 2k+1): each agrees with gnubg's value for *its* side;
    # read from the wrong side, the same numbers disagree grossly (the test can fail)
    right, wrong = [], []
    for case, other in zip(CASES[::2], CASES[1::2], strict=True):
        mine = engine.cubeless_probabilities(_position(case)).win
        theirs = engine.cubeless_probabilities(_position(other)).win
        right += [mine - case["probabilities"][0], theirs - other["probabilities"][0]]
        wrong += [(1 - mine) - case["probabilities"][0], (1 - theirs) - other["probabilities"][0]]
    assert np.mean(np.abs(right)) < MEAN_WIN_BOUND < np.mean(np.abs(wrong))


def test_swapping_sides_gives_complementary_probabilities():
    # module note 2: the mover's view of the same state is the complement
    for case in CASES[::6]:
        p = _position(case)
        on_roll = _vector(engine.cubeless_probabilities(p))
        moved = _vector(engine.probabilities_after_move(p))
        complement = np.array([1 - moved[0], moved[3], moved[4], moved[1], moved[2]])
        np.testing.assert_allclose(on_roll, complement, atol=FLOAT32, err_msg=case["position_id"])


def test_ply_numbering_one_ply_is_the_raw_net():
    # module note 3: "1-ply" is the raw network (gnubg's 0-ply, see the agreement test);
    # "2-ply" looks one roll ahead: its numbers differ, the complement holds at both
    assert engine.LEVELS[:4] == ("1-ply", "2-ply", "3-ply", "4-ply")
    p = _position(CASES[0])
    one = engine.evaluate(p, level="1-ply")
    two = engine.evaluate(p, level="2-ply")
    assert (one.level, two.level) == ("1-ply", "2-ply")
    assert abs(one.probabilities.win - two.probabilities.win) > 1e-4
    moved = engine.probabilities_after_move(p, level="2-ply")
    assert two.probabilities.win == pytest.approx(1 - moved.win, abs=FLOAT32)


def test_jacoby_and_beavers_are_off_unless_asked():
    # module note 4: bgsage's defaults are on; ours are off and always passed
    gammonish = max(
        CASES[:96], key=lambda c: c["probabilities"][1] + c["probabilities"][3]
    )  # contact/crashed case with the most gammons
    p = _position(gammonish)
    plain = engine.evaluate(p)
    assert plain == engine.evaluate(p, jacoby=False, beavers=False)
    assert not (plain.jacoby or plain.beavers)
    jacoby = engine.evaluate(p, jacoby=True)
    # our Janowski (money_cube_decision) at bgsage's contact x, with and without Jacoby
    for decision, rule in ((plain, False), (jacoby, True)):
        model = money_cube_decision(decision.probabilities, 0.68, jacoby=rule)
        assert decision.no_double == pytest.approx(model.no_double, abs=FLOAT32)
    assert abs(jacoby.no_double - plain.no_double) > 1e-3
    # beavers: a take worth at least 0 to the taker (DT <= 0) is beavered only if allowed
    weak = next(
        _position(c) for c in CASES if c["class"] == "contact" and c["probabilities"][0] < 0.45
    )
    without, beavered = engine.evaluate(weak), engine.evaluate(weak, beavers=True)
    assert without.double_take is not None and without.double_take <= 0.0
    assert not without.taker_beavers and "beaver" not in without.action
    assert beavered.taker_beavers and "beaver" in beavered.action
    # DT is reported unbeavered (bgsage itself reports 2 DT when its taker beavers)
    assert beavered.double_take == pytest.approx(without.double_take, abs=FLOAT32)
    assert "Beaver" in beavered.engine_action or beavered.engine_action == "No Double"
    # match play: both rules are off whatever is asked (bgsage and gnubg agree)
    at_score = engine.evaluate(p, away=5, opp_away=5, jacoby=True, beavers=True)
    assert not (at_score.jacoby or at_score.beavers)
    assert at_score == engine.evaluate(p, away=5, opp_away=5)


def test_cube_owner_and_per_cube_equities():
    # module note 5: ND with the opponent owning a 2-cube is half DT with it centred
    for case in CASES[::8]:
        p = _position(case)
        centred = engine.evaluate(p)
        owned_by_them = engine.evaluate(p, cube=2, owner="opponent")
        assert not owned_by_them.cube_available
        assert owned_by_them.double_take is None and not owned_by_them.doubles
        assert 2 * owned_by_them.no_double == pytest.approx(centred.double_take, abs=FLOAT32)
        mine = engine.evaluate(p, cube=2, owner="player")
        assert mine.cube_available and mine.action.startswith(("Redouble", "No redouble", "Too"))


def test_match_length_limit_and_score_order():
    # module note 6: 1..25 away; order (player on roll, opponent)
    p = _position(CASES[0])
    engine.evaluate(p, away=25, opp_away=25)
    for kwargs, name in (
        ({"away": 26, "opp_away": 5}, "away"),
        ({"away": 5, "opp_away": 26}, "opp_away"),
        ({"away": 0, "opp_away": 5}, "away"),
        ({"away": 5}, "away"),
        ({"away": 5, "opp_away": 5, "crawford": True}, "crawford"),
        ({"crawford": True}, "crawford"),
    ):
        with pytest.raises(ValueError, match=name):
            engine.evaluate(p, **kwargs)
    # the leader's and the trailer's equities differ in the right direction
    leader = engine.evaluate(p, away=2, opp_away=7).no_double
    trailer = engine.evaluate(p, away=7, opp_away=2).no_double
    assert leader != trailer
    crawford = engine.evaluate(p, away=1, opp_away=5, crawford=True)
    assert not crawford.cube_available and not crawford.doubles


def test_match_table_is_kazaross_xg2():
    # module note 6: the engine's 1-ply ND at any score is gnubg's match model
    # (cubecore.cubeful) at x = 0.68 on Kazaross-XG2 within float32; another table is not
    from cubecore.cubeful import match_cube_decision
    from cubecore.met import load_table

    assert engine.ENGINE_TABLE == "kxg2"
    kxg2, woolsey = load_table("kxg2"), load_table("woolsey")
    off = []
    for case in [c for c in CASES if c["class"] == "contact"][::4]:
        p = _position(case)
        for away, opp_away, cube, owner in ((7, 7, 1, "center"), (5, 3, 1, "center"),
                                            (3, 5, 2, "player"), (25, 25, 1, "center"),
                                            (11, 9, 1, "center")):  # fmt: skip
            d = engine.evaluate(p, away=away, opp_away=opp_away, cube=cube, owner=owner)
            score = {"away": away, "opp_away": opp_away, "cube": cube, "owner": owner}
            model = match_cube_decision(d.probabilities, 0.68, kxg2, **score)
            assert d.no_double == pytest.approx(model.no_double, abs=FLOAT32), case["position_id"]
            assert d.double_take == pytest.approx(model.double_take, abs=FLOAT32)
            if max(away, opp_away) <= woolsey.length:
                other = match_cube_decision(d.probabilities, 0.68, woolsey, **score)
                off.append(abs(other.no_double - d.no_double))
    assert max(off) > 1e-3  # the test tells the tables apart


def test_one_ply_cube_life_is_the_documented_one():
    # module note 8: at 1-ply the engine's ND is Janowski with x = 0.68 in contact
    # (implied x within float32); races use the average of both sides' pips
    for case in CASES:
        p = _position(case)
        if case["class"] == "contact":
            d = engine.evaluate(p)
            implied = engine.implied_cube_life(d.probabilities, d.no_double)
            assert implied.x == pytest.approx(0.68, abs=1e-4), case["position_id"]
            assert engine.engine_cube_life(p) == pytest.approx(0.68, abs=1e-6)
        if case["class"] == "race":
            mine, theirs = p.pips
            expected = min(max(0.55 + 0.00125 * (mine + theirs) / 2, 0.6), 0.7)
            assert engine.engine_cube_life(p) == pytest.approx(expected, abs=1e-6)


# --------------------------------------------------------------------------- oracle


def _gnubg_category(nd, dt, dp, centred, can_gammon, money):
    proper = proper_cube_action(nd, dt, dp, centred=centred, can_gammon=can_gammon, money=money)
    return proper.doubles, proper.taker_passes, proper.action


def agreement_report():
    """Probability differences per class and cube-action agreement, as text and numbers."""
    lines = [
        f"bgsage {engine.ENGINE_VERSION} 1-ply against gnubg 1.07 0-ply "
        f"({FIXTURE['_meta']['generated']}); |difference| per probability:",
        f"{'class':8} {'n':>3}  " + "  ".join(f"{n:>17}" for n in PROBABILITY_NAMES),
    ]
    diffs = {}
    actions = {"money": [0, 0, []], "match": [0, 0, []]}
    for case in CASES:
        p = _position(case)
        mine = engine.evaluate(p)
        diffs.setdefault(case["class"], []).append(
            _vector(mine.probabilities) - np.array(case["probabilities"])
        )
        for kind in ("money", "match"):
            for g in case[kind]:
                if g["owner"] == "opponent":
                    continue
                score = (
                    {}
                    if kind == "money"
                    else {"away": g["away"], "opp_away": g["opp_away"], "crawford": g["crawford"]}
                )
                d = engine.evaluate(p, cube=g["cube"], owner=g["owner"], **score)
                if not d.cube_available:
                    continue
                assert d.double_take is not None and d.double_pass is not None
                theirs = _gnubg_category(
                    g["no_double"], g["double_take"], g["double_pass"],
                    g["owner"] == "center", case["probabilities"][1] > 0, kind == "money",
                )  # fmt: skip
                ours = (d.doubles, d.taker_passes)
                tally = actions[kind]
                tally[0] += 1
                if ours == theirs[:2]:
                    tally[1] += 1
                else:
                    where = "money" if kind == "money" else f"{g['away']}/{g['opp_away']}-away"
                    tally[2].append(
                        f"  {case['position_id']} {case['class']:8} {where:11} cube {g['cube']} "
                        f"{g['owner']:6} gnubg {theirs[2]!r} ND {g['no_double']:+.4f} "
                        f"DT {g['double_take']:+.4f} DP {g['double_pass']:+.4f} | bgsage "
                        f"{d.action!r} ND {d.no_double:+.4f} DT {d.double_take:+.4f} "
                        f"DP {d.double_pass:+.4f}"
                    )
    summary = {}
    for cls in CLASSES:
        a = np.abs(np.array(diffs[cls]))
        summary[cls] = {"mean": a.mean(axis=0), "max": a.max(axis=0), "n": len(a)}
        cells = "  ".join(
            f"{m:.4f} (max {x:.4f})" for m, x in zip(a.mean(0), a.max(0), strict=True)
        )
        lines.append(f"{cls:8} {len(a):>3}  {cells}")
    for kind, (n, agree, listed) in actions.items():
        lines.append(f"{kind} cube actions: {agree}/{n} agree ({agree / n:.1%}); disagreements:")
        lines += listed
    return "\n".join(lines), summary, {k: v[1] / v[0] for k, v in actions.items()}


@pytest.fixture(scope="module")
def report():
    return agreement_report()


def test_fixture_covers_every_class_both_sides():
    counts = {cls: sum(c["class"] == cls for c in CASES) for cls in CLASSES}
    assert all(n >= 40 for n in counts.values()), counts
    for case, other in zip(CASES[::2], CASES[1::2], strict=True):
        assert _position(case).swapped() == _position(other)


def test_one_ply_probabilities_agree_with_gnubg_zero_ply(report):
    text, summary, _ = report
    for cls in CLASSES:
        assert summary[cls]["n"] >= 40
        assert summary[cls]["mean"][0] <= MEAN_WIN_BOUND, text
        # gammon chances agree as closely (measured 2026-11-28: every mean below 0.008)
        assert np.all(summary[cls]["mean"] <= MEAN_WIN_BOUND), text


def test_cube_actions_agree_with_gnubg(report):
    text, _, shares = report
    assert shares["money"] >= ACTION_AGREEMENT, text
    assert shares["match"] >= ACTION_AGREEMENT, text


def test_two_sided_bearoff_matches_the_exact_database():
    # the app's exact database (cubecore.bearoff) against the engine's bear-off win
    # chance: within the engine's error (module note 7: a one-sided approximation)
    errors = []
    for case in CASES:
        if case["class"] != "bearoff":
            continue
        p = _position(case)
        exact = two_sided(*p.home_boards())
        assert exact.win == pytest.approx(case["probabilities"][0], abs=2e-4)  # gnubg's db
        mine = engine.cubeless_probabilities(p)
        errors.append(abs(mine.win - exact.win))
        assert mine.win_gammon == mine.lose_gammon == 0.0
    assert len(errors) >= 40
    assert max(errors) <= engine.BEAROFF_WIN_ERROR, max(errors)
    # one checker a side: no bear-off choice to make, the one-sided approach is exact
    p = Position.from_home((0, 0, 0, 0, 0, 1), (1, 0, 0, 0, 0, 0))
    assert engine.cubeless_probabilities(p).win == pytest.approx(0.75, abs=FLOAT32)


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("make", "pattern"),
    [
        (lambda: Position((16,) + (0,) * 23, START), "at most 15"),
        (lambda: Position(START, START, on_roll_bar=1), "at most 15"),
        (lambda: Position((1,) + (0,) * 23, (1,) + (0,) * 22 + (1,)), "both sides"),
        (lambda: position_from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00"), "fields"),
        (lambda: position_from_xgid("XGID=-b----E-C---eE---c-e----Bz:0:0:1:00:0:0:0:0:10"), "XGID"),
        (lambda: position_from_id("4HPwATDgc/ABM"), "14 characters"),
        (lambda: position_from_id("4HPwATDgc/AB!A"), "Base64"),
        (lambda: "4HPwATDgc/ABMA", "Position"),
    ],
)
def test_bad_positions_are_refused_before_evaluation(make, pattern):
    with pytest.raises(ValueError, match=pattern):
        engine.evaluate(make())


def test_finished_game_is_refused():
    with pytest.raises(ValueError, match="borne off all 15"):
        engine.evaluate(Position((0,) * 24, START))


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"level": "5-ply"}, "level"),
        ({"level": "2ply"}, "level"),
        ({"budget": 0}, "budget"),
        ({"budget": -1.0}, "budget"),
        ({"budget": math.nan}, "budget"),
        ({"budget": 1e9}, "budget"),
        ({"budget": "fast"}, "budget"),
        ({"budget": True}, "budget"),
        ({"cube": 3}, "cube"),
        ({"cube": 2}, "cube"),
        ({"owner": "me"}, "owner"),
        ({"jacoby": "yes"}, "jacoby"),
        ({"trials": 10}, "trials"),
    ],
)
def test_bad_arguments_name_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=name):
        engine.evaluate(Position(START, START), **kwargs)


# --------------------------------------------------------------------------- held network

#: Cube and score states of the held network's check: (cube, owner, away, opp_away,
#: crawford, jacoby, beavers); money with each rule, owned cubes, match scores, the
#: Crawford game, post-Crawford and a cube that covers the score.
_ONE_PLY_STATES = (
    (1, "center", 0, 0, False, False, False),
    (1, "center", 0, 0, False, True, True),
    (1, "center", 0, 0, False, False, True),
    (2, "player", 0, 0, False, False, True),
    (2, "opponent", 0, 0, False, False, False),
    (1, "center", 3, 5, False, False, False),
    (2, "opponent", 4, 2, False, False, False),
    (1, "center", 1, 4, True, False, False),
    (1, "center", 2, 1, False, False, False),
    (4, "player", 7, 7, False, False, False),
    (2, "player", 2, 9, False, False, False),
)


def test_held_network_one_ply_equals_bgsages_own_cube_action():
    # the adapter evaluates 1-ply on a network loaded once per process; bgsage's own
    # analyzer loads the weights at every call. Every field must be equal, not close:
    # every third board of the fixture (8 of each class: contact, crashed, race,
    # bear-off; the fixture's cases 2k, 2k+1 are one board) in every state
    import bgsage

    analyzer = bgsage.BgBotAnalyzer(eval_level="1ply", bearoff_db=True, parallel_threads=0)
    owners = {"center": "centered", "player": "player", "opponent": "opponent"}
    labels, beavered = set(), 0
    for case in CASES[::6]:
        array = engine.board(_position(case))
        for cube, owner, away, opp_away, crawford, jacoby, beavers in _ONE_PLY_STATES:
            request = {
                "board": array, "level": "1-ply", "trials": 0, "cube": cube, "owner": owner,
                "away": away, "opp_away": opp_away, "crawford": crawford,
                "jacoby": jacoby, "beavers": beavers,
            }  # fmt: skip
            r = analyzer.cube_action(
                array, cube, owners[owner], away1=away, away2=opp_away,
                is_crawford=crawford, jacoby=jacoby, beaver=beavers,
            )  # fmt: skip
            expected = {
                "probs": r.probs.to_list(),
                "cubeless_equity": r.cubeless_equity,
                "nd": r.equity_nd,
                "dt": r.equity_dt,
                "dp": r.equity_dp,
                "is_beaver": r.is_beaver,
                "action": r.optimal_action,
            }
            got = engine._raw(request)
            where = f"{case['position_id']} {request}"
            assert {key: got[key] for key in expected} == expected, where
            assert got["se"] is None and isinstance(got["available"], bool)
            labels.add(r.optimal_action)
            beavered += r.is_beaver
    # the sample reaches each action and bgsage's beaver rule (DT reported doubled)
    assert labels >= {"No Double", "Double/Take", "Double/Pass"}
    assert beavered > 0


# --------------------------------------------------------------------------- levels


def test_levels_up_to_three_ply_and_rollout_run():
    p = Position(START, START)
    three = engine.evaluate(p, level="3-ply", budget=engine.DEFAULT_BUDGETS["3-ply"])
    assert three.level == "3-ply" and three.standard_errors is None
    rollout = engine.evaluate(p, level="rollout", trials=36)
    assert rollout.level == "rollout"
    assert rollout.standard_errors is not None and rollout.standard_errors[0] > 0
    assert abs(rollout.probabilities.win - 0.5) < 0.1
    # 4-ply on a small bear-off (a few seconds): the database's cubeless numbers at every
    # level, the cubeful ND from the 4-ply search instead of 1-ply's Janowski estimate
    small = Position.from_home((0, 1, 0, 1, 0, 1), (1, 0, 1, 0, 0, 1))
    one, four = engine.evaluate(small), engine.evaluate(small, level="4-ply")
    assert four.level == "4-ply"
    assert four.probabilities == one.probabilities
    assert abs(four.no_double - one.no_double) > 1e-3


def test_budget_stops_the_evaluation():
    # a 4-ply contact evaluation takes far longer than a tenth of a second: it is stopped
    with pytest.raises(TimeoutError, match="budget"):
        engine.evaluate(_position(CASES[0]), level="4-ply", budget=0.1)
    # and the next call works (a new child)
    assert engine.evaluate(_position(CASES[0]), level="2-ply").level == "2-ply"


# --------------------------------------------------------------------------- cube life


@hst.composite
def _probabilities(draw):
    win = draw(hst.floats(1e-3, 1 - 1e-3))
    wg = draw(hst.floats(0.0, 1.0)) * win
    wbg = draw(hst.floats(0.0, 1.0)) * wg
    lg = draw(hst.floats(0.0, 1.0)) * (1 - win)
    lbg = draw(hst.floats(0.0, 1.0)) * lg
    return CubelessProbabilities(win, wg, wbg, lg, lbg)


_SCORES = hst.one_of(
    hst.just({}),
    hst.tuples(hst.integers(2, 25), hst.integers(2, 25)).map(
        lambda s: {"away": s[0], "opp_away": s[1]}
    ),
)


@settings(max_examples=300, deadline=None)
@given(
    _probabilities(),
    hst.floats(0.0, 1.0),
    hst.sampled_from([(1, "center"), (2, "player"), (2, "opponent")]),
    hst.booleans(),
    _SCORES,
)
def test_implied_cube_life_reproduces_the_equity(probs, x, state, jacoby, score):
    from cubecore.cubeful import match_cube_decision
    from cubecore.met import load_table

    cube, owner = state
    jacoby = jacoby and owner == "center" and not score
    if score:
        nd = match_cube_decision(
            probs, x, load_table(engine.ENGINE_TABLE), cube=cube, owner=owner, **score
        ).no_double
    else:
        nd = money_cube_decision(probs, x, cube=cube, owner=owner, jacoby=jacoby).no_double
    implied = engine.implied_cube_life(probs, nd, cube=cube, owner=owner, jacoby=jacoby, **score)
    if implied.x is None:
        assert implied.live == pytest.approx(implied.dead, abs=1e-11)
        assert "coincide" in implied.reason
        return
    assert implied.equity() == pytest.approx(nd, abs=1e-9)
    assert implied.reason == ""
    if abs(implied.live - implied.dead) > 1e-6:
        assert implied.x == pytest.approx(x, abs=1e-6)


def test_implied_cube_life_of_the_engine_reproduces_its_equity():
    # every fixture position, three money cube states and its two match scores: put
    # back into Janowski's formula, the implied x gives the engine's ND within 1e-9
    from cubecore.cubeful import match_cube_decision
    from cubecore.met import load_table

    table = load_table(engine.ENGINE_TABLE)
    defined = undefined = 0
    for case in CASES:
        p = _position(case)
        states = [{"cube": 1, "owner": "center"}, {"cube": 2, "owner": "player"}]
        states += [{"cube": 2, "owner": "opponent"}]
        states += [
            {"cube": m["cube"], "owner": m["owner"], "away": m["away"],
             "opp_away": m["opp_away"], "crawford": m["crawford"]}
            for m in case["match"]
        ]  # fmt: skip
        for state in states:
            d = engine.evaluate(p, **state)
            implied = d.implied_cube_life()
            if implied.x is None:
                undefined += 1
                assert "coincide" in implied.reason
                continue
            defined += 1
            assert implied.equity() == pytest.approx(d.no_double, abs=1e-9)
            if not 0.0 <= implied.x <= 1.0:
                continue
            if d.money:
                model = money_cube_decision(
                    d.probabilities, implied.x, cube=d.cube, owner=d.owner
                ).no_double
            else:
                model = match_cube_decision(
                    d.probabilities, implied.x, table, away=d.away, opp_away=d.opp_away,
                    cube=d.cube, owner=d.owner, crawford=d.crawford,
                ).no_double  # fmt: skip
            assert model == pytest.approx(d.no_double, abs=1e-9)
    # undefined: decided bear-offs and dead cubes (Crawford game, cube beyond the score)
    assert defined > 10 * undefined, (defined, undefined)


def test_implied_cube_life_undefined_where_live_equals_dead():
    won = CubelessProbabilities(1.0, 0.0, 0.0, 0.0, 0.0)
    implied = engine.implied_cube_life(won, 1.0)
    assert implied.x is None and "coincide" in implied.reason
    with pytest.raises(ValueError, match="undefined"):
        implied.equity()
    with pytest.raises(ValueError, match="no_double"):
        engine.implied_cube_life(won, math.inf)


def test_committed_agreement_report_is_current(report):
    # docs/engine_agreement.md is written by scripts/engine_agreement.py from this report
    committed = (ROOT / "docs" / "engine_agreement.md").read_text()
    assert report[0] in committed


# --------------------------------------------------------------------------- rollout batches

#: A short race (checkers outside home on both sides): rollout trials end in a few rolls.
SHORT_RACE = Position.from_home((0, 0, 2, 0, 3, 0), (0, 2, 0, 1, 2, 0))


def test_rollout_batch_states_its_seed_on_the_shared_analyzer():
    # evaluate's rollout and the batches share one cached analyzer per trial count: a
    # batch reseeds it, and the next evaluate must still be the fresh seed-42 result
    before = engine.evaluate(SHORT_RACE, level="rollout", trials=36)
    other = engine.rollout_batch(SHORT_RACE, seed=7, trials=36)
    after = engine.evaluate(SHORT_RACE, level="rollout", trials=36)
    engine.stop_child()  # a fresh child: a freshly constructed analyzer of seed 42
    fresh = engine.evaluate(SHORT_RACE, level="rollout", trials=36)
    assert before == after == fresh
    same = engine.rollout_batch(SHORT_RACE, seed=engine.ROLLOUT_SEED, trials=36)
    assert same.no_double / 36 == pytest.approx(fresh.no_double, rel=1e-12)
    assert same.cubeless / 36 == pytest.approx(fresh.cubeless_equity, rel=1e-12)
    assert fresh.standard_errors is not None
    assert math.sqrt(same.no_double_variance) / 36 == pytest.approx(fresh.standard_errors[1])
    assert other.no_double != same.no_double  # another seed, other dice
    assert other.engine_version == engine.ENGINE_VERSION


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"seed": -1, "trials": 36}, "seed"),
        ({"seed": 2**32, "trials": 36}, "seed"),
        ({"seed": 1, "trials": 40}, "trials"),
        ({"seed": 1, "trials": 0}, "trials"),
        ({"seed": 1, "trials": 10**9}, "trials"),
        ({"seed": 1, "trials": 36, "truncation": -1}, "truncation"),
        ({"seed": 1, "trials": 36, "budget": 0}, "budget"),
    ],
)
def test_rollout_batch_refuses_bad_settings_by_name(kwargs, named):
    with pytest.raises(ValueError, match=f"`{named}`"):
        engine.rollout_batch(SHORT_RACE, **kwargs)


@settings(max_examples=200, deadline=None)
@given(_probabilities(), hst.floats(0.0, 1.0), hst.booleans(), _SCORES)
def test_implied_cube_life_of_double_take_reproduces_the_equity(probs, x, jacoby, score):
    # the model's DT is linear in x too: its implied x puts DT back within 1e-9
    from cubecore.cubeful import match_cube_decision
    from cubecore.met import load_table

    jacoby = jacoby and not score
    if score:
        d = match_cube_decision(probs, x, load_table(engine.ENGINE_TABLE), **score)
    else:
        d = money_cube_decision(probs, x, jacoby=jacoby)
    assert d.double_take is not None
    implied = engine.implied_cube_life(
        probs, d.double_take, jacoby=jacoby, action="double_take", **score
    )
    if implied.x is None:
        assert "coincide" in implied.reason
        return
    assert implied.equity() == pytest.approx(d.double_take, abs=1e-9)
    if abs(implied.live - implied.dead) > 1e-6:
        assert implied.x == pytest.approx(x, abs=1e-6)


def test_implied_cube_life_of_double_take_is_undefined_without_a_cube_to_turn():
    probs = (0.7, 0.2, 0.01, 0.05, 0.002)
    implied = engine.implied_cube_life(probs, 0.5, cube=2, owner="opponent", action="double_take")
    assert implied.x is None and "cannot double" in implied.reason
    with pytest.raises(ValueError, match="action"):
        engine.implied_cube_life(probs, 0.5, action="pass")


def test_a_stopped_evaluation_ends_at_once_and_the_next_one_works():
    import threading

    stop = threading.Event()
    stop.set()  # set before the answer: the running 4-ply (minutes) is stopped, no timeout
    with pytest.raises(engine.EvaluationStopped, match="stopped"):
        engine.evaluate(_position(CASES[0]), level="4-ply", stop=stop)
    assert engine.evaluate(_position(CASES[0]), level="2-ply").level == "2-ply"
    with pytest.raises(ValueError, match="stop"):
        engine.evaluate(_position(CASES[0]), level="2-ply", stop=True)


def test_a_rollout_estimate_a_hair_below_zero_is_the_nearest_feasible_chance(monkeypatch):
    # the library's ace-point game at 3-away/3-away: bgsage's 360-game rollout (the fixed
    # seed) estimates the backgammon loss at -3.8e-6; the adapter refused it, and the
    # position page would have shown that refusal instead of the rollout
    answers = []

    def run(request, budget, stop=None):  # the engine's own answer, kept as it came
        answers.append(real_run(request, budget, stop))
        return answers[-1]

    real_run = engine._run
    monkeypatch.setattr(engine, "_run", run)
    p = position_from_id("tt0DADBsd60AAA")
    d = engine.evaluate(p, level="rollout", trials=360, away=3, opp_away=3)
    [raw] = answers
    assert raw["probs"][4] < 0.0  # what the engine gives
    assert d.probabilities.lose_backgammon == 0.0
    assert d.probabilities.win == pytest.approx(raw["probs"][0], abs=1e-12)
    assert d.no_double == pytest.approx(raw["nd"], abs=1e-12)  # equities unclipped


@given(hst.lists(hst.floats(-0.01, 1.01), min_size=5, max_size=5))
def test_the_nearest_probabilities_are_a_game_s_and_stay_where_they_are(values):
    nearest = CubelessProbabilities.nearest(*values)  # the constructor's checks passed
    fields = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
    again = CubelessProbabilities.nearest(*(getattr(nearest, name) for name in fields))
    assert again == nearest
    w, wg, wbg, lg, lbg = values
    if 0 <= w <= 1 and 0 <= wbg <= wg <= w and 0 <= lbg <= lg <= 1 - w:
        assert nearest == CubelessProbabilities(*values)  # a game's numbers are kept


def test_the_nearest_probabilities_refuse_what_is_not_a_number():
    with pytest.raises(ValueError, match="lose_gammon"):
        CubelessProbabilities.nearest(0.5, 0.1, 0.0, float("nan"), 0.0)
