"""Tests for cubecore.bearoff: gnubg's databases, an independent recursion, the disk cache.

Reference data: tests/data/gnubg_bearoff_os.json and gnubg_bearoff_ts.json, written by
scripts/gnubg/bearoff_fixtures.py from GNU Backgammon 1.07's ``bearoffdump``.
"""

import itertools
import json
import threading
from functools import cache
from pathlib import Path

import hypothesis.strategies as hst
import numpy as np
import pytest
from hypothesis import given, settings
from numpy.testing import assert_allclose

from cubecore import bearoff

# One worker runs the whole module (xdist group), so its module fixture (both databases) is
# set up once: -n 2 otherwise split the module and each worker built its own.
pytestmark = pytest.mark.xdist_group("bear-off databases")

DATA = Path(__file__).parent / "data"
OS_FIXTURE = json.loads((DATA / "gnubg_bearoff_os.json").read_text())
TS_FIXTURE = json.loads((DATA / "gnubg_bearoff_ts.json").read_text())

# gnubg stores a one-sided probability as a 16-bit integer, truncated (r * 65535), and
# builds each position from its successors' stored values, so its numbers carry
# accumulated quantisation; bearoffdump prints percentages to 3 decimals and means to 3.
OS_PROBABILITY_TOL = 2e-4  # observed max 1.0e-4 (0.010 percentage points)
OS_MEAN_TOL = 1e-3  # printed 3 decimals (5e-4) + stored-distribution error; observed 5.1e-4
# two-sided equities: stored as us / 32767.5 - 1 (step 3.1e-5), printed to 4 decimals;
# observed max difference 1.1e-4 over the fixture
TS_EQUITY_TOL = 2e-4


@pytest.fixture(scope="module")
def one_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("databases")


@pytest.fixture(scope="module")
def one_db(one_dir):
    return bearoff.one_sided_database(one_dir)


@pytest.fixture(scope="module")
def two_dir(one_dir):
    return one_dir  # both databases in one cache directory, as in the app


@pytest.fixture(scope="module")
def two_db(two_dir):
    return bearoff.two_sided_database(two_dir)


# --- an independent model from the rules of bearing off ------------------------------------
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def play_die(pos: tuple, die: int) -> set:
    """Every position after one die (the rules: exact bear-off, or from the highest)."""
    out = set()
    top = max((p for p in range(6) if pos[p]), default=-1)
    if top < 0:
        return {pos}
    for p in range(6):
        if not pos[p]:
            continue
        point = p + 1
        if point > die or point == die or (point < die and p == top):
            new = list(pos)
            new[p] -= 1
            if point > die:
                new[p - die] += 1
            out.add(tuple(new))
    return out


def plays(pos: tuple, roll: tuple) -> set:
    a, b = roll
    orders = [(a, a, a, a)] if a == b else [(a, b), (b, a)]
    finals = set()
    for order in orders:
        frontier = {pos}
        for die in order:
            frontier = {q for p in frontier for q in play_die(p, die)}
        finals |= frontier
    return finals


def weight(roll: tuple) -> float:
    return (1 if roll[0] == roll[1] else 2) / 36


@cache
def rolls_needed(pos: tuple) -> float:
    if not any(pos):
        return 0.0
    return 1 + sum(weight(r) * min(rolls_needed(q) for q in plays(pos, r)) for r in ROLLS)


@cache
def exact(i: tuple, j: tuple) -> tuple:
    """(win, centred, owned, opponent owns) after optimal cube action, player on roll i."""
    nd = np.zeros(4)
    for r in ROLLS:
        best = np.full(4, -np.inf)
        for q in plays(i, r):
            if not any(q):
                value = np.ones(4)
            else:
                w, c, o, u = exact(j, q)
                value = np.array([1 - w, -c, -u, -o])
            best = np.maximum(best, value)
        nd += weight(r) * best
    take = min(2 * nd[3], 1.0)
    return nd[0], max(nd[1], take), max(nd[2], take), nd[3]


def small_positions(n: int) -> list:
    return [tuple(int(v) for v in p) for p in bearoff.bearoff_positions(n)]


# --- one-sided --------------------------------------------------------------------------------
def test_bearoff_positions_counts_and_order():
    positions = bearoff.bearoff_positions(15)
    assert positions.shape == (bearoff.ONE_SIDED_POSITIONS, 6)
    assert bearoff.bearoff_positions(6).shape == (bearoff.TWO_SIDED_POSITIONS, 6)
    assert len({tuple(p) for p in positions.tolist()}) == len(positions)
    pips = positions.astype(int) @ np.arange(1, 7)
    assert np.all(np.diff(pips) >= 0)
    assert positions.sum(axis=1).max() == 15


def test_one_sided_expected_rolls_match_gnubg(one_db):
    records = OS_FIXTURE["positions"]
    assert len(records) >= 30
    got = [one_db.expected_rolls[one_db.index(r["points"])] for r in records]
    assert_allclose(got, [r["mean_rolls"] for r in records], rtol=0, atol=OS_MEAN_TOL)


def test_one_sided_distribution_matches_gnubg(one_db):
    for record in OS_FIXTURE["positions"]:
        dist = one_db.distribution[one_db.index(record["points"])]
        printed = np.zeros(bearoff.MAX_ROLLS)
        for n, percent in record["percent_by_rolls"].items():
            printed[int(n)] = percent / 100
        assert_allclose(dist, printed, rtol=0, atol=OS_PROBABILITY_TOL, err_msg=str(record))


def test_every_distribution_sums_to_one(one_db):
    dist = one_db.distribution
    assert dist.shape == (bearoff.ONE_SIDED_POSITIONS, bearoff.MAX_ROLLS)
    assert np.all(dist >= 0)
    assert_allclose(dist.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert dist[:, -2:].max() < 1e-20  # nothing near the end of the array


def test_one_sided_equals_independent_recursion(one_db):
    for pos in small_positions(3):
        assert one_db.expected_rolls[one_db.index(pos)] == pytest.approx(
            rolls_needed(pos), abs=1e-12
        ), pos


def test_one_sided_build_of_fewer_checkers_agrees(one_db):
    small = bearoff.build_one_sided(5)
    rows = [one_db.index(tuple(p)) for p in small.positions.tolist()]
    assert_allclose(small.distribution, one_db.distribution[rows], atol=1e-12)


def test_one_sided_summary_epc_and_wastage(one_db, one_dir):
    record = OS_FIXTURE["positions"][0]  # 15 checkers on the 6-point
    result = bearoff.one_sided(record["points"], one_dir)
    assert result.pips == 90
    assert result.epc == pytest.approx(result.expected_rolls * 49 / 6)
    assert result.wastage == pytest.approx(result.epc - 90)
    assert result.expected_rolls == pytest.approx(record["mean_rolls"], abs=OS_MEAN_TOL)
    assert sum(result.distribution) == pytest.approx(1.0)


def test_one_sided_win_probability_single_checkers_exact(one_db, one_dir):
    folder = one_dir
    for a in small_positions(1)[1:]:
        for b in small_positions(1)[1:]:
            win = bearoff.one_sided_win_probability(a, b, folder)
            assert win == pytest.approx(exact(a, b)[0], abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(
    hst.lists(hst.integers(0, 2), min_size=6, max_size=6),
    hst.lists(hst.integers(0, 2), min_size=6, max_size=6),
)
def test_one_sided_win_probability_is_a_probability(one_db, one_dir, a, b):
    folder = one_dir
    if not any(a) or not any(b):
        return
    p_ab = bearoff.one_sided_win_probability(a, b, folder)
    p_ba = bearoff.one_sided_win_probability(b, a, folder)
    assert 0.0 <= p_ab <= 1.0
    assert p_ab + p_ba >= 1.0 - 1e-12  # being on roll never hurts


# --- two-sided --------------------------------------------------------------------------------
def test_two_sided_matches_gnubg(two_db):
    pairs = TS_FIXTURE["pairs"]
    assert len(pairs) >= 30
    got, want = [], []
    for r in pairs:
        i, j = two_db.index(r["on_roll"]), two_db.index(r["opponent"])
        got.append(
            [
                2 * two_db.win[i, j] - 1,
                two_db.centred[i, j],
                two_db.owned[i, j],
                two_db.opponent_owns[i, j],
            ]
        )
        want.append([r["cubeless_equity"], r["centred"], r["owned"], r["opponent_owns"]])
    assert_allclose(got, want, rtol=0, atol=TS_EQUITY_TOL)


def test_two_sided_equals_independent_recursion(two_db):
    positions = small_positions(2)[1:]
    for a in positions:
        for b in positions:
            i, j = two_db.index(a), two_db.index(b)
            w, c, o, u = exact(a, b)
            take = min(2 * two_db.opponent_owns[i, j], 1.0)
            assert two_db.win[i, j] == pytest.approx(w, abs=1e-12)
            assert two_db.opponent_owns[i, j] == pytest.approx(u, abs=1e-12)
            assert max(two_db.centred[i, j], take) == pytest.approx(c, abs=1e-12)
            assert max(two_db.owned[i, j], take) == pytest.approx(o, abs=1e-12)


def test_two_sided_invariants(two_db):
    inner = np.s_[1:, 1:]
    win, cen, own, opp = (
        two_db.win[inner],
        two_db.centred[inner],
        two_db.owned[inner],
        two_db.opponent_owns[inner],
    )
    assert np.all((win >= 0) & (win <= 1))
    assert np.all(opp <= cen + 1e-12) and np.all(cen <= own + 1e-12)  # cube access helps
    assert np.all(np.abs(opp) <= 1 + 1e-12) and np.all(np.abs(own) <= 1 + 1e-12)


def test_two_sided_result(two_db, two_dir):
    r = bearoff.two_sided((0, 0, 0, 0, 0, 1), (1, 0, 0, 0, 0, 0), two_dir)
    assert r.win == pytest.approx(0.75)
    assert r.centred_no_double == pytest.approx(0.5)
    assert r.double_take == pytest.approx(1.0)
    assert r.centred == pytest.approx(1.0)
    assert r.cubeless == pytest.approx(0.5)


# --- validation -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("points", "message"),
    [
        ((1, 2, 3), "must have 6 checker counts"),
        ((1, 0, 0, 0, 0, -1), "point 6 is negative"),
        ((16, 0, 0, 0, 0, 0), "has 16 checkers"),
        ((1.5, 0, 0, 0, 0, 0), "must be a whole number"),
        ("abcdef", "must be 6 checker counts"),
    ],
)
def test_one_sided_rejects_bad_points(one_db, one_dir, points, message):
    with pytest.raises(ValueError, match=message):
        bearoff.one_sided(points, one_dir)


def test_two_sided_rejects_more_than_six(two_db, two_dir):
    with pytest.raises(ValueError, match="up to 6"):
        bearoff.two_sided((7, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0), two_dir)
    with pytest.raises(ValueError, match="on_roll has no checkers"):
        bearoff.two_sided((0, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0), two_dir)
    with pytest.raises(ValueError, match="opponent has no checkers"):
        bearoff.two_sided((1, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 0), two_dir)


def test_build_rejects_sizes():
    with pytest.raises(ValueError, match="max_checkers"):
        bearoff.build_one_sided(16)
    with pytest.raises(ValueError, match="max_checkers"):
        bearoff.build_two_sided(7)


# --- the disk cache ---------------------------------------------------------------------------
def small_arrays():
    db = bearoff.build_one_sided(2)
    return {"positions": db.positions, "distribution": db.distribution}


EXPECTED = {"positions": ("int8", (28, 6)), "distribution": ("float64", (28, bearoff.MAX_ROLLS))}


def test_cache_round_trip(tmp_path):
    path = tmp_path / "x.bin"
    arrays = small_arrays()
    bearoff._write(path, "x", arrays)
    read = bearoff._read(path, "x", EXPECTED)
    assert read is not None
    assert np.array_equal(read["distribution"], arrays["distribution"])
    assert not list(tmp_path.glob("*.tmp"))  # the temporary file was renamed


@pytest.mark.parametrize(
    "damage",
    ["truncate", "flip", "header", "version", "empty", "kind"],
)
def test_cache_rejects_damaged_files(tmp_path, damage):
    path = tmp_path / "x.bin"
    bearoff._write(path, "x", small_arrays())
    raw = path.read_bytes()
    header, payload = raw.split(b"\n", 1)
    if damage == "truncate":
        path.write_bytes(raw[: len(raw) - 100])
    elif damage == "flip":
        path.write_bytes(header + b"\n" + payload[:10] + bytes([payload[10] ^ 1]) + payload[11:])
    elif damage == "header":
        path.write_bytes(b"{not json\n" + payload)
    elif damage == "version":
        path.write_bytes(header.replace(b'"version": 1', b'"version": 0') + b"\n" + payload)
    elif damage == "empty":
        path.write_bytes(b"")
    assert bearoff._read(path, "y" if damage == "kind" else "x", EXPECTED) is None


def test_corrupt_cache_is_rebuilt(tmp_path, monkeypatch):
    calls = []

    def build(progress):
        calls.append(1)
        return small_arrays()

    path = tmp_path / "x.bin"
    path.write_bytes(b"garbage")
    arrays = bearoff._cached("x", EXPECTED, build, tmp_path)
    assert calls == [1]
    assert arrays["distribution"].shape == (28, bearoff.MAX_ROLLS)
    assert bearoff._read(path, "x", EXPECTED) is not None  # rewritten, now valid
    bearoff._LOADED.pop(str(path))
    bearoff._cached("x", EXPECTED, build, tmp_path)  # read from disk, not rebuilt
    assert calls == [1]
    bearoff._LOADED.pop(str(path))


def test_concurrent_callers_share_one_build(tmp_path):
    calls = []
    started = threading.Event()

    def build(progress):
        calls.append(1)
        started.wait(timeout=5)  # hold the build until every thread has asked
        return small_arrays()

    results = []

    def ask():
        results.append(bearoff._cached("x", EXPECTED, build, tmp_path))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    started.set()
    for t in threads:
        t.join(timeout=30)
    assert calls == [1]
    assert len(results) == 4 and all(r is results[0] for r in results)
    bearoff._LOADED.pop(str(tmp_path / "x.bin"))


def test_cache_directory_from_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("CUBE_LAB_DATA", str(tmp_path))
    assert bearoff.cache_directory() == tmp_path
    monkeypatch.delenv("CUBE_LAB_DATA")
    assert bearoff.cache_directory().parts[-2:] == ("data", "cache")


def test_one_sided_table(one_db, one_dir):
    table = bearoff.one_sided_table(one_dir)
    assert len(table) == bearoff.ONE_SIDED_POSITIONS
    assert_allclose(table["epc"], table["expected_rolls"] * 49 / 6)
    assert (table["wastage"] > -1e-9).all()


# --- the bench's table (no builds run here) --------------------------------------------------
def test_bench_says_when_makebearoff_is_missing(monkeypatch):
    from bench import bearoff as bench

    monkeypatch.setattr(bench.shutil, "which", lambda name: None)
    monkeypatch.setattr(bench, "_ours", lambda function: (1.5, 200.0, 50.0, 150.0))
    results = bench.measure_bearoff(repeats=1)
    assert [r.builder for r in results][:2] == [
        "cubecore.bearoff.build_one_sided",
        "gnubg makebearoff",
    ]
    table = bench.bearoff_table(results)
    assert "not measured: /usr/games/makebearoff is not installed" in table
    assert "1.50 s" in table and "200 MiB (after imports 150)" in table


# --- the pip model against the exact values -----------------------------------------------------
@pytest.fixture(scope="module")
def comparison(one_db, two_db, one_dir):
    return bearoff.pip_model_comparison(one_dir)


def test_pip_model_is_exact_for_single_checkers(comparison, two_db):
    # one checker moves the whole roll and bears off when the total reaches its pips:
    # the pip model is then the game itself
    single = two_db.positions.sum(axis=1) == 1
    rows = np.flatnonzero(single)
    pairs = set()
    for a in rows:
        for b in rows:
            pairs.add((int(a), int(b)))
    count = len(two_db.positions)
    flat = np.array([(a - 1) * (count - 1) + (b - 1) for a, b in pairs])
    chosen = comparison.iloc[flat]
    assert len(chosen) == 36
    assert_allclose(chosen["win_error"], 0.0, atol=1e-12)
    assert_allclose(chosen["centred_error"], 0.0, atol=1e-12)
    assert (chosen["exact_action"] == chosen["pip_model_action"]).all()
    assert_allclose(chosen["exact_cube_life"], chosen["pip_model_cube_life"], atol=1e-9)


def test_implied_cube_life_definition(comparison):
    # x = (E - dead) / (live - dead): recover the exact equity from x where defined
    from cubecore.janowski import dead_cube_equity, live_cube_equity

    rows = comparison.dropna(subset=["exact_cube_life"]).iloc[::997]
    p = rows["exact_win"].to_numpy()
    dead = dead_cube_equity(p)
    live = live_cube_equity(p, "center")
    x = rows["exact_cube_life"].to_numpy()
    assert_allclose(dead + x * (live - dead), rows["exact_centred"], atol=1e-9)
    assert (comparison["gnubg_cube_life"] == 0.6).all()  # every pair is under 40 pips


def test_pip_model_comparison_columns(comparison):
    assert len(comparison) == (bearoff.TWO_SIDED_POSITIONS - 1) ** 2
    assert_allclose(comparison["win_error"], comparison["pip_model_win"] - comparison["exact_win"])
    assert (comparison["on_roll_wastage"] > 0).all()
    assert set(comparison["exact_action"].cat.categories) == {
        "no double",
        "double, take",
        "double, pass",
    }


def test_pip_model_errors_groups(one_db, two_db, one_dir):
    total = (bearoff.TWO_SIDED_POSITIONS - 1) ** 2
    for by in ("on_roll_pips", "pip_sum", "wastage"):
        errors = bearoff.pip_model_errors(by, one_dir)
        assert errors["pairs"].sum() == total
        assert (errors["max_abs_win_error"] >= errors["mean_abs_win_error"] - 1e-12).all()
        assert errors["median_exact_cube_life"].notna().any()
    with pytest.raises(ValueError, match="`by` must be one of"):
        bearoff.pip_model_errors("checkers", one_dir)


def test_loaded_arrays_are_read_only(one_db):
    with pytest.raises(ValueError, match="read-only"):
        one_db.distribution[1, 1] = 0.5


# --- dominance: a checker fewer never hurts ---------------------------------------------------
def one_fewer(positions: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Rows with a checker, and the same rows with one checker (chosen at random) removed."""
    rows = positions[positions.sum(axis=1) > 0].copy()
    fewer = rows.copy()
    for r in fewer:
        occupied = np.flatnonzero(r)
        r[rng.choice(occupied)] -= 1
    return rows, fewer


def test_one_sided_fewer_checkers_never_need_more_rolls(one_db):
    rng = np.random.default_rng(15)
    rows, fewer = one_fewer(one_db.positions[rng.choice(len(one_db.positions), 3000)], rng)
    lookup = bearoff._Index(one_db.positions)
    e = one_db.expected_rolls
    assert np.all(e[lookup(fewer)] <= e[lookup(rows)] + 1e-12)


def test_two_sided_fewer_checkers_never_hurt(two_db):
    rng = np.random.default_rng(16)
    rows, fewer = one_fewer(two_db.positions[1:], rng)
    lookup = bearoff._Index(two_db.positions)
    i, i_less = lookup(rows), lookup(fewer)
    j = rng.integers(1, len(two_db.positions), len(i))
    keep = i_less != 0
    i, i_less, j = i[keep], i_less[keep], j[keep]
    for table in (two_db.win, two_db.centred, two_db.owned, two_db.opponent_owns):
        assert np.all(table[i_less, j] >= table[i, j] - 1e-12)


# --- progress of a build (the page's progress bar) ------------------------------------------
@pytest.mark.parametrize("build", [bearoff.build_one_sided, bearoff.build_two_sided])
def test_a_build_reports_its_progress_rising_to_one(build):
    told: list[float] = []
    build(3, progress=told.append)
    assert len(told) > 3
    assert all(0.0 <= a <= b <= 1.0 for a, b in itertools.pairwise(told))
    assert told[-1] == 1.0


def test_a_database_reports_progress_only_when_it_is_built(tmp_path):
    from cubecore import bearoff as module

    expected = {
        "positions": ("int8", (84, 6)),
        "distribution": ("float64", (84, bearoff.MAX_ROLLS)),
    }

    def build(progress):
        db = bearoff.build_one_sided(3, progress=progress)
        return {"positions": db.positions, "distribution": db.distribution}

    told: list[float] = []
    built = module._cached("one_sided_small", expected, build, tmp_path, told.append)
    assert told and told[-1] == 1.0
    # as in a fresh process: the disk cache is read and nothing is built
    module._LOADED.pop(str(tmp_path / "one_sided_small.bin"))
    again: list[float] = []

    def refuse(progress):
        pytest.fail("built again although the disk cache holds it")

    read = module._cached("one_sided_small", expected, refuse, tmp_path, again.append)
    assert again == []
    np.testing.assert_array_equal(read["distribution"], built["distribution"])


@pytest.mark.parametrize("call", [bearoff.one_sided_database, bearoff.two_sided_database])
def test_progress_must_be_callable(call, tmp_path):
    with pytest.raises(TypeError, match="`progress` must be a callable or None, got str"):
        call(tmp_path, progress="yes")
