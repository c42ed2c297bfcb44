"""Tests for cubecore.met: the table type, the library, the model table, checks, comparisons.

The oracle is GNU Backgammon 1.07: ``tests/data/gnubg_met_tables.json`` was written by
``scripts/gnubg/met_tables.py`` (``set matchequitytable FILE`` + ``gnubg.met(25)`` for
every table of gnubg-data; see its ``_meta`` header). CI does not need gnubg.
"""

from __future__ import annotations

import json
from pathlib import Path

import hypothesis.strategies as hst
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from numpy.testing import assert_allclose

from cubecore.match import crawford_equity, match_equity_table, post_crawford_equity
from cubecore.met import (
    DEFAULT_TABLE,
    DEFAULT_TOLERANCE,
    TABLES,
    MatchEquityTable,
    bundled_tables,
    check_table,
    compare_tables,
    load_table,
    model_table,
)

DATA = Path(__file__).resolve().parent / "data" / "gnubg_met_tables.json"
BUNDLED = Path(__file__).resolve().parents[1] / "cubecore" / "data" / "met"

#: gnubg prints ``show matchequitytable`` as percent with 4 decimals (1e-6 in MWC):
#: agreement "to the printed digits" is within half a unit of that last digit.
PRINTED = 5e-7
#: Slack for comparing with gnubg's float32 values (spacing near 1: 6e-8) and for
#: float arithmetic on the printed percent (x / 100).
SLACK = {"printed": 1e-12, "float32": 6e-8}

#: The gnubg-data file behind each key.
FILES = {
    "kxg2": "Kazaross-XG2.xml",
    "rk": "Rockwell-Kazaross.xml",
    "g11": "g11.xml",
    "jt": "jacobs.xml",
    "jt50": "jac050.xml",
    "jt100": "jac100.xml",
    "snowie": "snowie.xml",
    "woolsey": "woolsey.xml",
    "ortega": "ortega.xml",
    "mec26": "mec26.xml",
    "mec": "mec.xml",
    "zadeh": "zadeh.xml",
}

#: Deviations from gnubg, each with its reason. gnubg 1.07 keeps only the first
#: ``n - 1`` post-Crawford entries of an explicit n-away file and computes the
#: ``n``-away entry with its own post-Crawford formula (matchequity.c: the first
#: legal post-Crawford score of an n-point match is (n-1)-away). The library keeps
#: the file's number. Listed: key -> the post-Crawford away-score where the file and
#: gnubg differ (tables whose file has only n - 1 entries, or whose n-th entry
#: equals gnubg's formula to the printed digits, are absent).
POST_REPLACED_BY_GNUBG = {
    "kxg2": 25,
    "rk": 25,
    "jt50": 25,
    "jt100": 25,
    "snowie": 15,
    "woolsey": 15,
    "ortega": 15,
}


@pytest.fixture(scope="module")
def oracle() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8"))


# ----------------------------------------------------------------------------------
# MatchEquityTable
# ----------------------------------------------------------------------------------
def test_mwc_reads_gnubg_semantics():
    t = MatchEquityTable("t", "t", [[0.5, 0.7], [0.3, 0.5]], [0.5, 0.48])
    assert t.mwc(1, 2) == 0.7  # Crawford game, the player leads
    assert t.mwc(2, 1, post_crawford=True) == 0.48  # the player trails post-Crawford
    assert t.mwc(1, 2, post_crawford=True) == pytest.approx(0.52)  # the leader's side
    assert t.mwc(0, 2) == 1.0
    assert t.mwc(2, -1) == 0.0


def test_mwc_uses_the_opponents_post_crawford_column():
    # Jacobs & Trice +50 Elo: gnubg's player-1 column (player 0 leading) differs.
    t = load_table("jt50")
    assert t.post_opponent is not None
    assert t.mwc(3, 1, post_crawford=True) == 0.323  # player 0 trails: jac050.xml player 0
    assert t.mwc(1, 3, post_crawford=True) == pytest.approx(1 - 0.298)  # player 1 trails


def test_a_table_is_at_most_64_away():
    with pytest.raises(ValueError, match=r"`pre` must cover 1\.\.64 away at most \(got 65\)"):
        MatchEquityTable("t", "t", np.full((65, 65), 0.5), [0.5])
    with pytest.raises(ValueError, match=r"`post` must be a one-dimensional array of 1\.\.64"):
        MatchEquityTable("t", "t", [[0.5]], np.full(65, 0.5))


def test_post_opponent_must_match_post():
    with pytest.raises(ValueError, match=r"`post_opponent` must have the shape of post"):
        MatchEquityTable("t", "t", [[0.5]], [0.5], post_opponent=[0.5, 0.4])


def test_mwc_outside_the_table_says_so():
    t = load_table("woolsey")
    with pytest.raises(ValueError, match=r"Kit Woolsey covers scores up to 15-away"):
        t.mwc(16, 3)
    with pytest.raises(ValueError, match=r"covers 1\.\.24 away"):
        load_table("g11").mwc(25, 1, post_crawford=True)


# ----------------------------------------------------------------------------------
# The library
# ----------------------------------------------------------------------------------
def test_tables_match_the_bundled_files():
    assert set(TABLES) == {path.stem for path in BUNDLED.glob("*.json")}
    assert set(TABLES) == set(FILES)
    assert next(iter(TABLES)) == DEFAULT_TABLE == "kxg2"
    for key, name in TABLES.items():
        table = load_table(key)
        assert (table.key, table.name) == (key, name)


@pytest.mark.parametrize("key", list(TABLES))
def test_each_table_keeps_its_notice_and_states_its_length(key):
    table = load_table(key)
    assert "Copyright" in table.notice
    assert "Copying and distribution of this file" in table.notice
    assert "all-permissive" in table.meta["licence"]
    assert table.meta["length"] == str(table.length)
    assert f"{table.length}" in table.meta["beyond"]
    assert table.post_length in (table.length - 1, table.length)


def test_bundled_tables_overview():
    frame = bundled_tables()
    assert frame["key"].tolist() == list(TABLES)
    assert (frame["length"] >= frame["post_length"]).all()
    assert set(frame.loc[frame["key"].isin(["mec", "zadeh"]), "numbers"]) == {
        "generated by gnubg 1.07, as show matchequitytable 25 prints them"
    }


def test_gnubg_reads_the_same_names(oracle):
    # gnubg's own header line: "Match equity table: <name>"
    for key, file in FILES.items():
        assert oracle["tables"][file]["header"][0] == f"Match equity table: {TABLES[key]}"


def test_lengths_are_what_the_files_cover():
    lengths = {key: load_table(key).length for key in TABLES}
    assert lengths == {
        **dict.fromkeys(["kxg2", "rk", "g11", "jt", "jt50", "jt100", "mec26"], 25),
        **dict.fromkeys(["snowie", "woolsey", "ortega"], 15),
        **dict.fromkeys(["mec", "zadeh"], 25),  # generated by gnubg; stored to 25
    }


def test_load_table_unknown_key_lists_the_known_ones():
    with pytest.raises(ValueError, match=r"`key` must be one of kxg2, rk, .*zadeh \(got 'xg'\)"):
        load_table("xg")
    with pytest.raises(ValueError, match=r"`key` must be one of"):
        load_table(3)  # type: ignore[arg-type]


def test_load_table_is_cached_and_read_only():
    t = load_table("kxg2")
    assert load_table("kxg2") is t
    with pytest.raises(ValueError):
        t.pre[0, 0] = 0.4


def _gnubg_numbers(oracle: dict, key: str, kind: str) -> dict[str, np.ndarray]:
    """gnubg's table for ``key``: as printed (percent -> MWC) or its float32 values."""
    gnubg = oracle["tables"][FILES[key]]
    source = gnubg["printed"] if kind == "printed" else gnubg
    scale = 100.0 if kind == "printed" else 1.0
    return {part: np.array(source[part]) / scale for part in ("pre", "post0", "post1")}


@pytest.mark.parametrize("kind", ["printed", "float32"])
@pytest.mark.parametrize("key", list(TABLES))
def test_every_bundled_table_equals_gnubg(key, kind, oracle):
    """gnubg 1.07's numbers, to its printed digits, at every entry up to the table's length.

    ``printed``: the numbers of ``show matchequitytable 25`` (percent, 4 decimals);
    ``float32``: ``gnubg.met(25)``, the values gnubg prints from.
    """
    gnubg = _gnubg_numbers(oracle, key, kind)
    table = load_table(key)
    n = table.length
    assert_allclose(table.pre, gnubg["pre"][:n, :n], rtol=0, atol=PRINTED + SLACK[kind])
    m = table.post_length
    post0, post1 = gnubg["post0"][:m], gnubg["post1"][:m]
    mine1 = table.post if table.post_opponent is None else table.post_opponent
    same = np.ones(m, dtype=bool)
    if key in POST_REPLACED_BY_GNUBG:
        t = POST_REPLACED_BY_GNUBG[key]
        same[t - 1] = False
        # the listed deviation is real: gnubg's own extension replaced the file's entry
        assert abs(table.post[t - 1] - post0[t - 1]) > PRINTED
    assert_allclose(table.post[same], post0[same], rtol=0, atol=PRINTED + SLACK[kind])
    assert_allclose(mine1[same], post1[same], rtol=0, atol=PRINTED + SLACK[kind])


def test_gnubg_fixture_has_a_header(oracle):
    meta = oracle["_meta"]
    assert meta["gnubg"].startswith("GNU Backgammon 1.07")
    assert meta["made_by"] == "scripts/gnubg/met_tables.py"
    assert set(oracle["tables"]) == set(FILES.values())
    for table in oracle["tables"].values():
        assert np.array(table["printed"]["pre"]).shape == (25, 25)
        assert len(table["printed"]["post0"]) == len(table["printed"]["post1"]) == 25


def test_kazaross_xg2_anchor_cells():
    # Kazaross-XG2.xml, rows 2 and 5 and the post-Crawford row, as printed there.
    t = load_table("kxg2")
    assert t.mwc(2, 4) == 0.66870
    assert t.mwc(5, 3) == 0.35205
    assert t.mwc(2, 1, post_crawford=True) == 0.48803
    assert t.mwc(1, 3) == 0.75076  # Crawford game, leader's side


# ----------------------------------------------------------------------------------
# model_table
# ----------------------------------------------------------------------------------
def test_model_table_wraps_cubecore_match():
    t = model_table(0.2, 0.7, 8)
    assert t.key == "model" and t.length == 8 and t.post_length == 8
    assert_allclose(t.pre, match_equity_table(8, 0.2, 0.7).to_numpy(), rtol=0, atol=0)
    expected = [1.0 - post_crawford_equity(k, 0.2) for k in range(1, 9)]
    assert_allclose(t.post, expected, rtol=0, atol=0)
    # gnubg semantics: pre[1][b] is the Crawford game, post the games after it
    assert t.mwc(1, 1) == 0.5 and t.mwc(1, 1, post_crawford=True) == 0.5


def test_model_table_first_row_is_the_crawford_game():
    # gnubg's pre[1][b] is the Crawford game: the model's C(b), leader's side
    t = model_table(0.3, 0.9, 6)
    for b in range(2, 7):
        assert t.mwc(1, b) == crawford_equity(b, 0.3)
        assert t.mwc(b, 1) == pytest.approx(1.0 - crawford_equity(b, 0.3), abs=1e-15)
        assert t.mwc(1, b, post_crawford=True) == pytest.approx(post_crawford_equity(b, 0.3))


def test_mwc_post_crawford_is_bool_only():
    with pytest.raises(ValueError, match=r"`post_crawford` must be True or False \(got 1\)"):
        load_table("kxg2").mwc(2, 1, post_crawford=1)  # type: ignore[arg-type]


def test_model_table_rejects_bad_parameters():
    with pytest.raises(ValueError, match=r"`gammon_rate` must lie in \[0, 1\]"):
        model_table(1.5)
    with pytest.raises(ValueError, match=r"`cube_efficiency` must lie in \[0, 1\]"):
        model_table(0.2, -0.1)
    with pytest.raises(ValueError, match=r"`length` must be a whole number in \[1, 25\]"):
        model_table(0.2, 1.0, 26)


def test_model_against_kazaross_xg2_as_the_issue_measured():
    # Issue 13: the generated table (G = 0.26, x = 1) is "0.39 pp off Kazaross-XG2 on
    # average and 0.78 pp at worst over 11x11". The worst cell reproduces to the
    # printed 0.01 pp. The mean over all 121 cells is 0.385 pp (0.404 over 2..11,
    # 0.423 off the diagonal): the issue does not state its region, so the mean is
    # held to the issue's figure within 0.01 pp only (a deviation listed, not tuned).
    c = compare_tables(model_table(0.26, 1.0, 11), load_table("kxg2"))
    assert c.length == 11
    assert 100 * c.max_abs == pytest.approx(0.78, abs=0.005)
    assert 100 * c.mean_abs == pytest.approx(0.39, abs=0.01)


# ----------------------------------------------------------------------------------
# check_table
# ----------------------------------------------------------------------------------
def _valid(n: int = 4) -> np.ndarray:
    return match_equity_table(n, 0.25, 0.8).to_numpy().copy()


def test_check_table_passes_the_published_tables():
    for key in ("kxg2", "rk", "g11", "jt", "snowie", "woolsey", "mec26", "zadeh"):
        frame = check_table(load_table(key))
        assert frame.empty, (key, frame["message"].tolist())


def test_check_table_names_the_published_violations():
    # Ortega & Kleinman: two pairs printed 0.001 and 0.002 off complementary.
    # Only the second is off by more than the default tolerance (0.001).
    ortega = load_table("ortega")
    assert check_table(ortega)["message"].tolist() == ["M(7, 8) + M(8, 7) = 0.998, off by 0.002"]
    assert check_table(ortega, 0.0005)["message"].tolist() == [
        "M(1, 9) + M(9, 1) = 0.999, off by 0.001",
        "M(7, 8) + M(8, 7) = 0.998, off by 0.002",
    ]
    # gnubg's mec generation: the 4-away trailer post-Crawford beats the 3-away one
    mec = check_table(load_table("mec"))
    assert set(mec["check"]) == {"post_monotone"}
    assert mec["message"].iloc[0] == "post: P(4) = 0.319 exceeds P(3): trailing by more helps"
    # Jacobs & Trice +50: player 0 is the favourite, complement fails by design
    jt50 = load_table("jt50")
    assert set(check_table(jt50)["check"]) == {"complement"}
    assert check_table(jt50, complement=False).empty


def test_check_table_each_kind_names_its_cell():
    pre = _valid()
    pre[2, 1] = 1.2  # M(3, 2) out of range; also breaks complement and monotonicity
    t = MatchEquityTable("t", "t", pre, [0.5, 0.49, 0.5, 0.3])
    frame = check_table(t)
    assert list(frame.columns) == [
        "check", "part", "away", "opp_away", "value", "excess", "message"
    ]  # fmt: skip
    rows = {(r.check, r.away, r.opp_away): r.message for r in frame.itertuples()}
    assert rows[("range", 3, 2)] == "M(3, 2) = 1.2 is outside [0, 1]"
    assert ("complement", 2, 3) in rows
    assert rows[("monotone_away", 3, 2)].startswith("M(3, 2) = 1.2 exceeds M(2, 2)")
    assert rows[("monotone_opp_away", 3, 3)].startswith("M(3, 3) = 0.5 is below M(3, 2)")
    assert rows[("post_monotone", 3, 1)] == (
        "post: P(3) = 0.5 exceeds P(2): trailing by more helps"
    )
    assert (frame["excess"] > 0).all()
    assert frame.loc[frame["check"] == "range", "excess"].iloc[0] == pytest.approx(
        0.2 - DEFAULT_TOLERANCE
    )


def test_check_table_rejects_bad_arguments():
    t = load_table("woolsey")
    with pytest.raises(ValueError, match=r"`tolerance` must lie in \[0, 0.1\]"):
        check_table(t, 0.5)
    with pytest.raises(ValueError, match=r"`complement` must be True or False"):
        check_table(t, complement=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"`table` must be a MatchEquityTable"):
        check_table(t.pre)  # type: ignore[arg-type]


@settings(max_examples=25, deadline=None)
@given(g=hst.floats(0.0, 0.5), x=hst.floats(0.0, 1.0), n=hst.integers(2, 7))
def test_model_tables_pass_check_table(g, x, n):
    # The generated table is exact: complementary, monotone and in range.
    assert check_table(model_table(g, x, n), 1e-9).empty


@settings(max_examples=25, deadline=None)
@given(
    a=hst.integers(1, 5),
    b=hst.integers(1, 5),
    delta=hst.floats(0.01, 0.4),
)
def test_a_raised_cell_is_always_named(a, b, delta):
    pre = _valid(5)
    pre[a - 1, b - 1] += delta
    frame = check_table(MatchEquityTable("t", "t", pre, [0.5, 0.49, 0.3, 0.3, 0.2]))
    named = frame[frame["check"] == "complement"]
    assert (min(a, b), max(a, b)) in set(zip(named["away"], named["opp_away"], strict=True))


# ----------------------------------------------------------------------------------
# compare_tables
# ----------------------------------------------------------------------------------
def test_compare_tables_layout_and_common_region():
    c = compare_tables(load_table("kxg2"), load_table("woolsey"))
    assert c.length == 15  # the common region
    assert isinstance(c.difference, pd.DataFrame) and c.difference.shape == (15, 15)
    assert c.difference.index.name == "away" and c.difference.columns.name == "opp_away"
    assert c.post_difference.shape == (15,)
    # Kazaross-XG2 M(2, 4) = 0.66870 against Woolsey 0.68
    assert c.difference.loc[2, 4] == pytest.approx(0.66870 - 0.68, abs=1e-12)
    i, j = c.where_max
    assert abs(c.difference.loc[i, j]) == c.max_abs
    with pytest.raises(ValueError, match=r"`length` must be a whole number in \[1, 15\]"):
        compare_tables(load_table("kxg2"), load_table("woolsey"), 16)


def test_compare_tables_rejects_non_tables():
    with pytest.raises(TypeError, match=r"`b` must be a MatchEquityTable"):
        compare_tables(load_table("kxg2"), "woolsey")  # type: ignore[arg-type]


@settings(max_examples=20, deadline=None)
@given(
    first=hst.sampled_from(list(TABLES)),
    second=hst.sampled_from(list(TABLES)),
    n=hst.integers(1, 15),
)
def test_compare_tables_is_antisymmetric_and_zero_on_itself(first, second, n):
    a, b = load_table(first), load_table(second)
    ab, ba = compare_tables(a, b, n), compare_tables(b, a, n)
    assert_allclose(ab.difference.to_numpy(), -ba.difference.to_numpy(), rtol=0, atol=0)
    assert ab.max_abs == ba.max_abs and ab.mean_abs == ba.mean_abs
    assert 0.0 <= ab.mean_abs <= ab.max_abs <= 1.0
    same = compare_tables(a, a, n)
    assert same.max_abs == 0.0 and same.post_max_abs == 0.0
