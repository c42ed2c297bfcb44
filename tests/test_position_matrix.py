"""Tests of cubecore.position_matrix: the score matrix of a position, the verdict across levels.

The positions are those of the engine's oracle fixture (``tests/data/engine_gnubg_0ply.json``,
made by ``scripts/gnubg/engine_fixtures.py``), evaluated by the real engine.

Two deviations of the engine from the app's model are listed, not loosened away. At
2-away/2-away the app's match model (gnubg 1.07's, :mod:`cubecore.cube_decision`) counts
the centred cube as dead (No double = the cubeless equity); bgsage's 1-ply keeps it alive,
so its No double equity differs there in every position (by 0.0 to 0.4 EMG in the
fixture's positions), and in 1 cell of 3408 (24 positions x 142 cells, measured
2026-11-28) its action does too: ``yLfBASjYzsIBAw`` "Too good to double, pass" (engine)
against "Double, pass" (app). In 16 race and crashed positions (:data:`MONEY_DEVIATIONS`)
bgsage's 1-ply equities are up to 7.5e-4 from the model at its own cube life; the actions
agree.
"""

import itertools
import json
import math
from pathlib import Path

import hypothesis.strategies as hst
import pandas as pd
import pytest
from hypothesis import given, settings

from cubecore import engine
from cubecore import position_matrix as pm
from cubecore.cubeful import match_cube_decision
from cubecore.met import load_table
from cubecore.position import Position, position_from_id

ROOT = Path(__file__).resolve().parents[1]
CASES = json.loads((ROOT / "tests" / "data" / "engine_gnubg_0ply.json").read_text())["cases"]
START = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2,)
#: bgsage computes in float32 (as ``tests/test_engine.py``): its equities carry about
#: 1e-7 relative rounding; its 1-ply match model is the app's within this.
FLOAT32 = 1e-5
#: The one score where the engine's model and the app's differ at 1-ply (module docstring).
DEAD_IN_APP = (2, 2)
#: The fixture position whose action differs there.
TOO_GOOD_AT_2_2 = "yLfBASjYzsIBAw"
#: The second listed deviation: in these 16 fixture positions (races and crashed
#: positions, most without gammons; 18 of the 192 cases, two boards twice) bgsage's
#: 1-ply money No double is 2.7e-4 .. 7.5e-4 from Janowski's model at the engine's own
#: cube life (implied x 0.683 instead of 0.680, 0.656 instead of 0.653, ...); the
#: actions agree. Measured 2026-11-28 on bgsage 2.0.20260907 over all 192 cases; the
#: cause inside bgsage was not found (its cube_efficiency gives the same x with the
#: position's own probabilities). The property below checks equities only where the
#: money 1-ply is the model, and fails on any deviating position not listed here.
MONEY_DEVIATIONS = frozenset(
    {
        "/yUAAIxtWwVgAA", "tm0TCgD/IwAADA", "tt1NAAD/IwAADA", "trsbAAD/IwAADA",
        "tncPAAD/IwAADA", "1u6ZAAC63YkIAA", "ut2JCADW7pkAAA", "1b1HAAC6ewcAAA",
        "dPcLEABc7w8AAA", "23J2AADbtkkQAA", "bncHgABtvwsAAA", "6t4VBAB6t6UAAA",
        "erelAADq3hUEAA", "4r0NBgBqu80AAA", "1O4NCgB0fs4AAA", "NnuIBwCWu1sAAA",
    }
)  # fmt: skip


class Cached:
    """The real engine, each answer kept: a stopped grid resumes, a test runs it once."""

    def __init__(self):
        self.calls = 0
        self.known = {}

    def __call__(self, position, **keywords):
        keywords.pop("budget", None)  # what is left of a grid's budget: not part of the answer
        key = (position, tuple(sorted(keywords.items())))
        if key not in self.known:
            self.calls += 1
            self.known[key] = engine.evaluate(position, **keywords)
        return self.known[key]


ENGINE = Cached()


# --------------------------------------------------------------------------- cells


def test_matrix_cells():
    # the cells of cubecore.score_matrix, in its order: money, then 1..n by 1..n with a
    # Crawford and a post-Crawford game where one side is 1-away
    cells = pm.matrix_cells(11)
    assert len(cells) == 1 + 100 + 2 * 20 + 1 == 142
    assert cells[0] == ("money", 0, 0, False)
    assert ("crawford", 1, 5, True) in cells and ("post-crawford", 1, 5, False) in cells
    assert ("crawford", 1, 1, True) not in cells
    assert all(s == "pre-crawford" for s, a, b, _ in cells if a > 1 and b > 1)
    for bad in (1, 12, 2.5, True, "7"):
        with pytest.raises(ValueError, match="`n`"):
            pm.matrix_cells(bad)


def test_action_category():
    assert pm.action_category("No redouble, take") == "No double"
    assert pm.action_category("No double, beaver") == "No double"
    assert pm.action_category("Optional double, take") == "Double, take"
    assert pm.action_category("Double, beaver") == "Double, take"
    assert pm.action_category("Redouble, pass") == "Double, pass"
    assert pm.action_category("Too good to double, take") == "Too good"
    assert pm.action_category("Too good to redouble, pass") == "Too good"
    assert pm.action_category("No double", cube_available=False) == "No cube action"
    with pytest.raises(ValueError, match="`action`"):
        pm.action_category("Resign")
    with pytest.raises(ValueError, match="`cube_available`"):
        pm.action_category("Double, take", cube_available="yes")


# --------------------------------------------------------------------------- matrix


def _by_cell(matrix):
    return {(r["state"], r["away"], r["opp_away"]): r for r in matrix.cells.to_dict("records")}


def test_matrix_is_the_engine_and_the_model_cell_by_cell():
    p = position_from_id(CASES[0]["position_id"])
    m = pm.position_matrix(p, level="1-ply", n=3, evaluate=ENGINE)
    assert m.complete and m.stopped == "" and m.n == 3 and m.level == "1-ply"
    assert m.table == load_table("kxg2").name and m.x == engine.engine_cube_life(p)
    assert list(m.cells[["state", "away", "opp_away", "crawford"]].itertuples(False, None)) == [
        tuple(c) for c in pm.matrix_cells(3)
    ]
    cells = _by_cell(m)
    # a cell is the engine's evaluation at that score, and the model on its probabilities
    d = engine.evaluate(p, away=3, opp_away=2)
    row = cells[("pre-crawford", 3, 2)]
    assert row["engine_action"] == d.action and row["engine_no_double"] == d.no_double
    assert row["win"] == d.probabilities.win
    model = match_cube_decision(d.probabilities, m.x, load_table("kxg2"), away=3, opp_away=2)
    assert row["app_action"] == model.action and row["app_double_take"] == model.double_take
    # the Crawford game: no cube for either reading, the equities blank
    crawford = cells[("crawford", 1, 3)]
    assert crawford["engine_category"] == crawford["app_category"] == "No cube action"
    assert math.isnan(crawford["engine_double_take"]) and math.isnan(crawford["app_double_pass"])
    # money: the engine's money evaluation and Janowski's money model
    money = cells[("money", 0, 0)]
    assert money["engine_no_double"] == pytest.approx(money["app_no_double"], abs=FLOAT32)


def test_another_table_changes_the_reading_not_the_engine():
    p = position_from_id(CASES[0]["position_id"])
    kxg2 = pm.position_matrix(p, level="1-ply", n=4, evaluate=ENGINE)
    woolsey = pm.position_matrix(p, level="1-ply", n=4, table="woolsey", evaluate=ENGINE)
    engine_columns = [c for c in kxg2.cells.columns if c.startswith("engine_")]
    pd.testing.assert_frame_equal(kxg2.cells[engine_columns], woolsey.cells[engine_columns])
    differences = (kxg2.cells["app_no_double"] - woolsey.cells["app_no_double"]).abs()
    assert differences.max() > 1e-3
    assert woolsey.table == load_table("woolsey").name


def test_the_listed_disagreement_at_two_away_two_away_is_marked():
    # module docstring: the engine keeps the cube alive at 2-away/2-away, the model not
    p = position_from_id(TOO_GOOD_AT_2_2)
    m = pm.position_matrix(p, level="1-ply", n=2, evaluate=ENGINE)
    row = _by_cell(m)[("pre-crawford", 2, 2)]
    assert row["disagree"]
    assert (row["engine_action"], row["app_action"]) == ("Too good to double, pass", "Double, pass")
    assert row["optimal_difference"] > 0.01
    assert list(m.disagreements["away"]) == [2]


def test_the_engine_keeps_the_cube_alive_at_two_away_two_away():
    # the listed deviation itself: the app's model counts the cube dead there (its No
    # double is the cubeless equity), bgsage's 1-ply does not (its differs from it)
    for case in CASES[::48]:
        p = position_from_id(case["position_id"])
        m = pm.position_matrix(p, level="1-ply", n=2, evaluate=ENGINE)
        row = _by_cell(m)[("pre-crawford", 2, 2)]
        model = match_cube_decision(ENGINE(p, level="1-ply", away=2, opp_away=2).probabilities,
                                    m.x, load_table("kxg2"), away=2, opp_away=2)  # fmt: skip
        assert not model.cube_alive and row["app_no_double"] == model.cubeless_equity
        assert abs(row["engine_no_double"] - row["app_no_double"]) > 1e-3, case["position_id"]


@settings(max_examples=25, deadline=None)
@given(case=hst.sampled_from(CASES), n=hst.integers(2, 4))
def test_one_ply_on_the_engine_table_agrees_with_the_model(case, n):
    # engine note 6: at 1-ply bgsage's match cube decision is the app's model on
    # Kazaross-XG2 at the engine's cube life: the same action at every score but
    # 2-away/2-away (the first listed deviation), where an action may differ only where
    # two of its equities tie within float32; and where its money No double is the
    # model's (all positions but the second listed deviation), the same equities at
    # every score within float32
    p = position_from_id(case["position_id"])
    m = pm.position_matrix(p, level="1-ply", n=n, evaluate=ENGINE)
    money = m.cells.iloc[0]
    exact = abs(money["engine_no_double"] - money["app_no_double"]) <= FLOAT32
    assert exact or case["position_id"] in MONEY_DEVIATIONS, case["position_id"]
    for row in m.cells.to_dict("records"):
        where = f"{case['position_id']} {row['state']} {row['away']}/{row['opp_away']}"
        if (row["away"], row["opp_away"]) == DEAD_IN_APP:
            continue
        for name in ("no_double", "double_take", "double_pass") if exact else ():
            mine, theirs = row[f"engine_{name}"], row[f"app_{name}"]
            assert math.isnan(mine) == math.isnan(theirs), where
            if not math.isnan(mine):
                assert mine == pytest.approx(theirs, abs=FLOAT32), f"{where} {name}"
        if row["disagree"]:
            equities = [row[f"app_{k}"] for k in ("no_double", "double_take", "double_pass")]
            gaps = [abs(a - b) for i, a in enumerate(equities) for b in equities[i + 1 :]]
            assert min(gaps) <= FLOAT32, f"{where}: {row['engine_action']} / {row['app_action']}"


def test_deeper_levels_move_off_the_model():
    # at 2-ply the engine looks ahead: its equities are no longer the 1-ply model's
    p = position_from_id(CASES[0]["position_id"])
    m = pm.position_matrix(p, level="2-ply", n=2, evaluate=ENGINE)
    assert m.complete and m.level == "2-ply"
    gaps = m.cells["optimal_difference"].abs()
    assert gaps.max() > 1e-3


def test_progress_cancel_and_budget():
    p = Position(START, START)
    seen = []
    pm.position_matrix(p, level="1-ply", n=2, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(i, 7) for i in range(8)]
    # cancel after three cells: those three kept, the rest not evaluated, said why
    asked = []
    stopped = pm.position_matrix(
        p, level="1-ply", n=2, evaluate=ENGINE, cancel=lambda: len(asked.append(1) or asked) > 3
    )
    assert not stopped.complete and stopped.stopped == "cancelled"
    assert list(stopped.cells["evaluated"]) == [True] * 3 + [False] * 4
    assert (stopped.cells["engine_action"].iloc[3:] == "").all()
    assert not stopped.cells["disagree"].iloc[3:].any()
    # a budget smaller than one 1-ply evaluation: stopped by the budget, not an error
    tiny = pm.position_matrix(p, level="1-ply", n=2, budget=1e-9)
    assert "budget" in tiny.stopped and not tiny.cells["evaluated"].any()


def test_a_resumed_grid_evaluates_only_what_is_missing():
    p = Position.from_home((0, 2, 2, 3, 0, 3), (0, 0, 3, 3, 2, 2))
    cached = Cached()
    first = pm.position_matrix(
        p, level="1-ply", n=2, evaluate=cached, cancel=lambda: cached.calls >= 2
    )
    assert first.cells["evaluated"].sum() == 2
    again = pm.position_matrix(p, level="1-ply", n=2, evaluate=cached)
    assert again.complete and cached.calls == 7


@pytest.mark.parametrize(
    "keywords, name",
    [
        ({"level": "rollout"}, "`level`"),
        ({"level": "5-ply"}, "`level`"),
        ({"n": 1}, "`n`"),
        ({"n": 12}, "`n`"),
        ({"n": 11, "table": "g11"}, None),
        ({"x": 1.5}, "`x`"),
        ({"x": math.nan}, "`x`"),
        ({"budget": 0}, "`budget`"),
        ({"budget": -1.0}, "`budget`"),
        ({"budget": 1e9}, "`budget`"),
        ({"table": "nosuch"}, "`key`"),
        ({"table": 3}, "`table`"),
        ({"progress": 3}, "`progress`"),
        ({"cancel": "no"}, "`cancel`"),
        ({"jacoby": "yes"}, "`jacoby`"),
    ],
)
def test_bad_arguments_are_named_before_any_evaluation(keywords, name):
    calls = []

    def counted(position, **kw):
        calls.append(kw)
        return engine.evaluate(position, **kw)

    p = Position(START, START)
    if name is None:  # allowed: checked only, the grid not evaluated
        pm.position_matrix(p, level="1-ply", **keywords, cancel=lambda: True, evaluate=counted)
    else:
        with pytest.raises(ValueError, match=name):
            pm.position_matrix(p, **keywords, evaluate=counted)
    assert calls == []


def test_n_beyond_a_short_table_is_refused():
    from cubecore.met import MatchEquityTable

    short = MatchEquityTable("t", "t", [[0.5, 0.68], [0.32, 0.5]], [0.5, 0.49])
    with pytest.raises(ValueError, match="`n` must be at most the table's length, 2"):
        pm.position_matrix(Position(START, START), n=3, table=short)
    with pytest.raises(ValueError, match="`position`"):
        pm.position_matrix("4HPwATDgc/ABMA")


# --------------------------------------------------------------------------- levels


def test_verdict_across_levels():
    p = position_from_id(TOO_GOOD_AT_2_2)
    v = pm.verdict_across_levels(p, levels=("1-ply", "2-ply"), away=5, opp_away=3, evaluate=ENGINE)
    assert v.complete and (v.away, v.opp_away, v.cube, v.owner) == (5, 3, 1, "center")
    rows = v.levels.to_dict("records")
    assert [r["level"] for r in rows] == ["1-ply", "2-ply"]
    for r in rows:
        d = engine.evaluate(p, level=r["level"], away=5, opp_away=3)
        assert (r["action"], r["no_double"], r["win"]) == (
            d.action,
            d.no_double,
            d.probabilities.win,
        )
        implied = d.implied_cube_life()
        assert r["cube_life"] == implied.x and r["cube_life_note"] == ""
        assert math.isnan(r["se_cubeless"])
    # the 1-ply implied cube life is the engine's own x (engine note 8)
    assert rows[0]["cube_life"] == pytest.approx(engine.engine_cube_life(p), abs=1e-4)
    assert v.deepest is not None and v.deepest["level"] == "2-ply"
    assert v.flips == tuple(
        r["level"] for prev, r in itertools.pairwise(rows) if r["category"] != prev["category"]
    )


def test_flips_are_marked_where_the_category_changes():
    # a made-up evaluator (the engine's answers relabelled) to see a flip marked: the
    # real engine's flips depend on the position
    def relabelled(position, **kw):
        d = engine.evaluate(
            position, level="1-ply", **{k: v for k, v in kw.items() if k != "level"}
        )
        import dataclasses

        action = {
            "1-ply": "No double, take",
            "2-ply": "Double, take",
            "3-ply": "Optional double, take",
        }
        return dataclasses.replace(d, action=action[kw["level"]], level=kw["level"])

    v = pm.verdict_across_levels(
        Position(START, START), levels=("1-ply", "2-ply", "3-ply"), evaluate=relabelled
    )
    assert list(v.levels["flips"]) == [False, True, False] and v.flips == ("2-ply",)
    assert list(v.levels["category"]) == ["No double", "Double, take", "Double, take"]


def test_verdict_cancel_and_bad_levels():
    p = Position(START, START)
    v = pm.verdict_across_levels(p, levels=("1-ply", "2-ply"), cancel=lambda: True)
    assert v.stopped == "cancelled" and not v.levels["evaluated"].any() and v.deepest is None
    for levels, pattern in (
        ((), "at least one"),
        (("2-ply", "1-ply"), "shallow first"),
        (("1-ply", "1-ply"), "distinct"),
        (("6-ply",), "`levels`"),
        ("1-ply", "sequence"),
    ):
        with pytest.raises(ValueError, match=pattern):
            pm.verdict_across_levels(p, levels=levels)
    with pytest.raises(ValueError, match="`away`"):
        pm.verdict_across_levels(p, away=30, opp_away=3)
    with pytest.raises(ValueError, match="`budget`"):
        pm.verdict_across_levels(p, budget=0)
