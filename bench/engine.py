"""The position engine's evaluation time per level on this machine (``python -m bench engine``).

For three positions (the opening position: contact; a 77-pip race; a bear-off of 5
checkers a side) it times :func:`cubecore.engine.evaluate` (money, cube centred) at
each level asked (default 1-ply to 3-ply and a 144-trial rollout; ``--levels 4-ply``
adds the slowest), ``--repeats`` times each, and prints the median beside the baseline:
the 1-ply evaluation of the same position (the raw net, in-process). Levels above
1-ply run in the adapter's child process: its start-up is timed once, apart, first.
Every call keeps the adapter's budget (:data:`cubecore.engine.DEFAULT_BUDGETS`): a
level over budget is reported as such, never waited for.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from bench.stats import markdown_table, median

#: Levels timed by default (4-ply takes minutes on a loaded 2-core machine).
DEFAULT_LEVELS = ("1-ply", "2-ply", "3-ply", "rollout")
#: Rollout trials in the bench (a multiple of 36).
BENCH_TRIALS = 144


@dataclass(frozen=True)
class LevelTiming:
    """Median seconds of one level on one position, and its ratio to 1-ply."""

    position: str
    level: str
    seconds: float
    baseline: float
    note: str


def _positions() -> dict[str, object]:
    from cubecore.position import Position

    start = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2,)
    race = (0, 2, 2, 2, 2, 2, 3, 2) + (0,) * 16  # 77 pips against 71
    other = (1, 2, 2, 2, 2, 2, 2, 2) + (0,) * 16
    return {
        "opening (contact)": Position(start, start),
        "race, 77 vs 71 pips": Position(race, other),
        "bear-off, 5 a side": Position.from_home((1, 1, 1, 1, 1, 0), (0, 2, 1, 1, 0, 1)),
    }


def _time(position: object, level: str, repeats: int) -> tuple[float, str]:
    from cubecore import engine
    from cubecore.position import Position

    assert isinstance(position, Position)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        try:
            engine.evaluate(position, level=level, trials=BENCH_TRIALS)
        except TimeoutError:
            return engine.DEFAULT_BUDGETS[level], "over budget"
        times.append(time.perf_counter() - start)
    return median(times), ""


def measure(levels: tuple[str, ...] = DEFAULT_LEVELS, repeats: int = 3) -> list[LevelTiming]:
    """Time every level on every bench position (see the module notes)."""
    from cubecore import engine

    for level in levels:
        if level not in engine.LEVELS:
            raise ValueError(f"`levels`: unknown level {level!r}; known: {engine.LEVELS}")
    if not 1 <= repeats <= 20:
        raise ValueError(f"`repeats` must be in [1, 20], got {repeats}")
    results = []
    for name, position in _positions().items():
        baseline, _ = _time(position, "1-ply", max(repeats, 5))
        for level in levels:
            seconds, note = _time(position, level, repeats)
            results.append(LevelTiming(name, level, seconds, baseline, note))
    return results


def worker_start_seconds() -> float:
    """Seconds of the first evaluation above 1-ply (the child's start-up included)."""
    from cubecore import engine
    from cubecore.position import Position

    start_board = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2,)
    engine.stop_child()  # a cold child
    start = time.perf_counter()
    engine.evaluate(Position(start_board, start_board), level="2-ply")
    return time.perf_counter() - start


def table(results: list[LevelTiming]) -> str:
    """The timings as a markdown table."""
    rows = [
        [
            r.position,
            r.level,
            f"{r.seconds * 1000:.1f}",
            f"{r.baseline * 1000:.1f}",
            f"{r.seconds / r.baseline:.1f}x" if r.baseline > 0 else "-",
            r.note,
        ]
        for r in results
    ]
    header = ["position", "level", "median ms", "1-ply ms (baseline)", "ratio", "note"]
    return markdown_table(header, rows)


def run(levels: tuple[str, ...], repeats: int) -> None:
    """Print the child's start-up and the table (``python -m bench engine``)."""
    from cubecore import engine

    print(f"### Position engine: bgsage {engine.installed_version()}, money, cube centred\n")
    print(f"Child process start-up and first 2-ply evaluation: {worker_start_seconds():.2f} s\n")
    print(table(measure(levels, repeats)))
    print()
