"""The engine bench runs its cheap level and reports it (no timing assertions)."""

import pytest

from bench import engine as engine_bench


def test_engine_bench_reports_every_position_at_one_ply():
    results = engine_bench.measure(("1-ply",), repeats=1)
    assert [r.level for r in results] == ["1-ply"] * 3
    assert all(r.seconds > 0 and r.baseline > 0 and r.note == "" for r in results)
    text = engine_bench.table(results)
    assert text.count("\n") == 2 + len(results) - 1
    assert "opening (contact)" in text and "1-ply ms (baseline)" in text


@pytest.mark.parametrize(
    ("levels", "repeats", "name"), [(("5-ply",), 1, "levels"), (("1-ply",), 0, "repeats")]
)
def test_engine_bench_refuses_bad_parameters(levels, repeats, name):
    with pytest.raises(ValueError, match=name):
        engine_bench.measure(levels, repeats)
