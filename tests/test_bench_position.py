"""The position bench's cheap parts run and report (no timing assertions)."""

import pytest

from bench import position as bench
from cubecore import engine
from cubecore.position import position_from_id, position_id


def test_positions_are_distinct_legal_and_seeded():
    found = bench.positions(40, seed=3)
    assert len({position_id(p) for p in found}) == 40
    assert bench.positions(40, seed=3) == found
    for p in found[:5]:  # each one the engine evaluates
        assert position_from_id(position_id(p)) == p
        assert engine.evaluate(p).action


def test_tables():
    timings = [bench.Timing("baseline page", 0.01, 15), bench.Timing("evaluate", 0.2, 3)]
    text = bench.levels_table(timings)
    assert "| evaluate | 200.0 | 20.0x | 3 |  |" in text
    run = bench.LoadRun(30, 60.0, 5.0, "position", latencies=[0.2] * 19 + [1.5], errors=["x"])
    row = bench.load_table(run).splitlines()[2]
    assert "| /position | 30 | 60 s | 5 s | 20 | 200 ms | 200 ms | 1500 ms | meets" in row
    assert row.endswith("| 1 | - | - |")  # no CPU figures: the server was not the bench's
    run.server_cpu, run.engine_cpu = 3.0, 0.5
    assert bench.load_table(run).splitlines()[2].endswith("| 1 | 150 ms | 25 ms |")
    note = bench.cpu_note(run)
    assert "150 ms per verdict: one core gives at most 6.7 verdicts a second" in note
    assert "the run asked 0.3 a second (5% of a core)" in note


@pytest.mark.parametrize(
    ("keywords", "name"),
    [
        ({"sessions": 0}, "sessions"),
        ({"seconds": 0.1}, "seconds"),
        ({"every": 0.1}, "every"),
    ],
)
def test_load_refuses_bad_parameters(keywords, name):
    with pytest.raises(ValueError, match=name):
        bench.run_load("http://127.0.0.1:1", "", "pos={pos}", ".", **keywords)
    with pytest.raises(ValueError, match=r"127\.0\.0\.1"):
        bench.run_load("http://example.com", "", "pos={pos}", ".")


def test_measure_levels_refuses_bad_parameters():
    for keywords, name in (({"levels": ("5-ply",)}, "levels"), ({"repeats": 0}, "repeats"),
                           ({"n": 12}, "`n`")):  # fmt: skip
        with pytest.raises(ValueError, match=name):
            bench.measure_levels(**keywords)
