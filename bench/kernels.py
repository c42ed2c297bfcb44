"""Absolute times of the compute kernels, cold (their ``lru_cache`` cleared each time)."""

from __future__ import annotations

import time
from collections.abc import Callable

from bench.page_worker import clear_cubecore_caches
from bench.stats import markdown_table, median, ms

#: Target of issue 9 for the race DP table to 300 pips.
RACE_TARGET_SECONDS = 0.5
#: Games of the P-game throughput kernel; its target is at least 100,000 games per second.
THROUGHPUT_GAMES = 200_000
THROUGHPUT_TARGET_GAMES_PER_SECOND = 100_000


def simulation_throughput(n_games: int = 1_000_000, seed: int = 0) -> float:
    """Games per second of :func:`cubecore.pgame.simulate_games` on this machine (wall clock).

    Optimal thresholds (double and redouble at 80%, take from 20%), money play, an even
    start. This was ``pgame.measure_throughput``: a benchmark, so it lives here.
    """
    from cubecore import pgame
    from cubecore.rules import Rules

    begin = time.perf_counter()
    pgame.simulate_games(pgame.GameBatch(n_games, pgame.OPTIMAL, Rules(), 0.5, seed))
    return n_games / (time.perf_counter() - begin)


def _kernels() -> list[tuple[str, Callable[[], object], float | None]]:
    from cubecore import keeler_spencer, match, pgame, race
    from cubecore.rules import Rules

    # The race DP lives behind ``race._cube_tables`` (an lru_cache); the pages reach
    # it through public functions that build it for MAX_COUNT pips.
    return [
        ("race DP table, 300 pips (race._cube_tables(300))", lambda: race._cube_tables(300), 0.5),
        (
            f"race DP table as the app builds it ({race.MAX_COUNT} pips)",
            lambda: race._cube_tables(race.MAX_COUNT),
            None,
        ),
        (
            "race cube_action_map 100x100 (DP table included)",
            lambda: race.cube_action_map("center", 100),
            None,
        ),
        (
            "race cube_action_map 300x300 (DP table included)",
            lambda: race.cube_action_map("center", 300),
            None,
        ),
        ("race win probability table 1", race.table_1, None),
        (
            "Keeler-Spencer 30x30 raising points (alpha and beta)",
            lambda: (
                keeler_spencer.raising_points_table(30, 30, point="alpha"),
                keeler_spencer.raising_points_table(30, 30, point="beta"),
            ),
            None,
        ),
        (
            "Keeler-Spencer 30x30 even-game values",
            lambda: keeler_spencer.even_game_value_table(30, 30),
            None,
        ),
        ("match equity table 25x25", lambda: match.match_equity_table(25), None),
        (
            f"P-game simulation, {THROUGHPUT_GAMES:,} games (target "
            f"{THROUGHPUT_TARGET_GAMES_PER_SECOND:,} games/s)",
            lambda: pgame.simulate_games(
                pgame.GameBatch(THROUGHPUT_GAMES, pgame.OPTIMAL, Rules(), 0.5, 0)
            ),
            THROUGHPUT_GAMES / THROUGHPUT_TARGET_GAMES_PER_SECOND,
        ),
    ]


def measure_kernels(repeats: int = 3) -> list[tuple[str, float, float | None]]:
    """Median cold time of each kernel (caches cleared before every call)."""
    results = []
    for name, kernel, target in _kernels():
        times = []
        for _ in range(repeats):
            clear_cubecore_caches()
            start = time.perf_counter()
            kernel()
            times.append(time.perf_counter() - start)
        results.append((name, median(times), target))
    return results


def kernels_table(results: list[tuple[str, float, float | None]]) -> str:
    rows = [
        [
            name,
            ms(seconds),
            "-"
            if target is None
            else f"<= {target * 1000:.0f} ms: " + ("ok" if seconds <= target else "MISS"),
        ]
        for name, seconds, target in results
    ]
    return markdown_table(["kernel (cold, median)", "time", "target"], rows)
