"""The position page's costs (``python -m bench position``, issue #39).

Two measurements, one table each:

1. **Time per level** beside the one-slider baseline page: a warm rerun of
   :mod:`bench.baseline_app` (one URL-bound slider, one chart) moved over a real
   server's websocket, and, in this process, the engine's evaluation
   (:func:`cubecore.engine.evaluate`, money, cube centred) of the opening position and
   of a contact position at each level, the score matrix
   (:func:`cubecore.position_matrix.position_matrix`, ``--n`` x ``--n``) and the verdict
   across levels (1-ply .. 3-ply); medians, and each as a multiple of the baseline.
   The start of the engine's child process (levels above 1-ply) is timed apart, first.
2. **Load**: ``--sessions`` websocket sessions on one server process, each opening
   ``--page`` with ``--query`` (``{pos}`` is replaced by a Position ID of its own, new
   at every request so that no cache answers it) once per ``--every`` seconds on
   average for ``--seconds``: the time from the request to the verdict (the run ends
   with an element whose text matches ``--settled``), its median, p95 and maximum
   against the target (p95 <= 1 s), and every error (an exception, a timeout, a run
   that ended without the verdict). When the bench starts the server itself it also
   reads the CPU seconds the server process and the engine's child process spent in
   the run (``/proc``), per verdict: against the one core the server's interpreter can
   use, they bound how many verdicts a second one process can give.

The page is the app's position page, ``/position?pos=<id>&depth=2-ply``;
``--page real_race --query "pos={pos}" --settled "."`` drives the app's real race page.
Every run is bounded in time and touches only 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING
from urllib.parse import quote

from bench.stats import markdown_table, median, ms, percentile

if TYPE_CHECKING:
    from cubecore.position import Position

#: Issue #39: p95 from the request to the verdict, one process, 30 sessions.
P95_TARGET_SECONDS = 1.0
#: The levels timed by default (4-ply took ~7 s a position on 2 loaded cores).
DEFAULT_LEVELS = ("1-ply", "2-ply", "3-ply")
#: What the position page prints with its verdict ("Proper cube action: ...").
DEFAULT_SETTLED = r"^Proper cube action: "
_BASELINE_KEY, _BASELINE_VALUES = "f", (1.0, 1.05)


# --------------------------------------------------------------------------- positions


def positions(count: int, seed: int = 0) -> list[Position]:
    """``count`` distinct legal positions, seeded: each side's 15 checkers on 2 to 7 of
    its points (some on the bar or borne off), no point held by both sides."""
    from cubecore.position import Position

    rng = random.Random(seed)
    found: dict[Position, None] = {}
    while len(found) < count:
        mine = [0] * 24
        theirs = [0] * 24
        for side, other in ((mine, theirs), (theirs, mine)):
            free = [p for p in range(24) if not other[23 - p]]
            points = rng.sample(free, rng.randint(2, 7))
            for _ in range(rng.randint(9, 15)):
                side[rng.choice(points)] += 1
        bar = rng.random() < 0.15 and sum(mine) < 15
        found[Position(tuple(mine), tuple(theirs), on_roll_bar=int(bar))] = None
    return list(found)


# --------------------------------------------------------------------------- time per level


@dataclass(frozen=True)
class Timing:
    """One thing timed: its median seconds over ``runs``, and a note."""

    what: str
    seconds: float
    runs: int
    note: str = ""


def _timed(what: str, call: Callable[[], object], repeats: int) -> Timing:
    times: list[float] = []
    for _ in range(repeats):
        start = time.perf_counter()
        try:
            call()
        except TimeoutError as error:
            return Timing(what, float("nan"), len(times), f"over budget: {error}")
        times.append(time.perf_counter() - start)
    return Timing(what, median(times), repeats)


async def _baseline_moves(base: str, moves: int, timeout: float) -> list[float]:
    from bench.wsclient import Session

    async with Session(base, random.Random(0)) as session:
        await session.open("", timeout=timeout)
        times = []
        for index in range(moves + 1):
            run = await session.slide(_BASELINE_KEY, _BASELINE_VALUES[index % 2], timeout)
            if index:  # the first move warms the path
                times.append(run.seconds)
        return times


def measure_levels(
    levels: tuple[str, ...] = DEFAULT_LEVELS, repeats: int = 3, n: int = 7, moves: int = 15
) -> list[Timing]:
    """The baseline page's warm rerun, then each level's evaluation, the score matrix and
    the verdict across levels (module notes, part 1)."""
    from bench.server import streamlit_servers
    from cubecore import engine
    from cubecore import position_matrix as pm
    from cubecore.position import Position

    for level in levels:
        if level not in engine.LEVELS:
            raise ValueError(f"`levels`: unknown level {level!r}; known: {engine.LEVELS}")
    if not 1 <= repeats <= 20:
        raise ValueError(f"`repeats` must be in [1, 20], got {repeats}")
    if not pm.GRID_RANGE[0] <= n <= pm.GRID_RANGE[1]:
        raise ValueError(f"`n` must be in {list(pm.GRID_RANGE)}, got {n}")
    with streamlit_servers(1, script="bench/baseline_app.py") as servers:
        base_times = asyncio.run(_baseline_moves(servers[0][0], moves, 60.0))
    results = [
        Timing("baseline page: one slider + one chart, warm rerun", median(base_times), moves)
    ]
    start_board = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2,)
    opening = Position(start_board, start_board)
    engine.stop_child()
    results.append(
        _timed(
            "engine child process start + first 2-ply",
            lambda: engine.evaluate(opening, level="2-ply"),
            1,
        )
    )
    contact = positions(1, seed=39)[0]
    for name, position in (("opening", opening), ("contact", contact)):
        for level in levels:
            results.append(
                _timed(
                    f"evaluate, {name}, {level}",
                    partial(engine.evaluate, position, level=level),
                    repeats,
                )
            )
    cells = len(pm.matrix_cells(n))
    for level in ("1-ply", "2-ply"):
        results.append(
            _timed(
                f"score matrix {n} x {n} ({cells} scores), {level}",
                partial(pm.position_matrix, contact, level=level, n=n),
                1,
            )
        )
    results.append(
        _timed(
            "verdict across levels, 1-ply .. 3-ply",
            lambda: pm.verdict_across_levels(contact, levels=("1-ply", "2-ply", "3-ply")),
            1,
        )
    )
    return results


def levels_table(results: list[Timing]) -> str:
    """Part 1 as a markdown table: medians and multiples of the baseline page's rerun."""
    base = results[0].seconds
    rows = [
        [
            r.what,
            "-" if r.seconds != r.seconds else f"{r.seconds * 1000:.1f}",
            "-" if r.seconds != r.seconds or not base else f"{r.seconds / base:.1f}x",
            r.runs,
            r.note,
        ]
        for r in results
    ]
    return markdown_table(["what", "median ms", "x baseline", "runs", "note"], rows)


# --------------------------------------------------------------------------- load


@dataclass
class LoadRun:
    """The load run's requests: seconds to the verdict, and errors."""

    sessions: int
    seconds: float
    every: float
    page: str
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    #: CPU seconds of the server process and of its children (the engine's child
    #: process) during the run; None when the server is not this bench's.
    server_cpu: float | None = None
    engine_cpu: float | None = None

    @property
    def p95(self) -> float:
        return percentile(self.latencies, 95)


def process_cpu(pid: int) -> tuple[float, float]:
    """User and system CPU seconds of ``pid`` and of its live children, from
    /proc/<pid>/stat (0 for a process that is gone)."""
    import contextlib
    import os

    from bench.server import _children

    def one(each: int) -> float:
        with contextlib.suppress(OSError, IndexError, ValueError):
            with open(f"/proc/{each}/stat", encoding="ascii") as handle:
                fields = handle.read().rpartition(")")[2].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return 0.0

    return one(pid), sum(one(child) for child in _children(pid))


def run_texts(run: object) -> list[str]:
    """The texts a run drew (headings, Markdown, captions, alerts, metrics), read from
    its kept deltas (:attr:`bench.wsclient.RunResult.deltas`)."""
    from streamlit.proto.Delta_pb2 import Delta

    texts = []
    for _, raw in getattr(run, "deltas", []):
        delta = Delta.FromString(raw)
        if delta.WhichOneof("type") != "new_element":
            continue
        element = delta.new_element
        kind = element.WhichOneof("type")
        if kind in ("heading", "markdown", "alert"):
            texts.append(getattr(element, kind).body)
        elif kind == "metric":
            texts += [element.metric.label, element.metric.body]
    return texts


async def _session(
    index: int,
    base: str,
    page: str,
    query: str,
    settled: re.Pattern[str],
    ids: list[str],
    stop_at: float,
    every: float,
    timeout: float,
    result: LoadRun,
) -> None:
    from bench.load import run_errors
    from bench.wsclient import Session

    rng = random.Random(index)
    asked = 0
    try:
        while time.monotonic() < stop_at:
            await asyncio.sleep(rng.uniform(0.5, 1.5) * every if asked else rng.uniform(0, every))
            if time.monotonic() >= stop_at:
                break
            position_text = ids[(index + asked * result.sessions) % len(ids)]
            asked += 1
            async with Session(base, rng) as session:
                session.keep_deltas = True
                link = query.replace("{pos}", quote(position_text, safe=""))
                run = await session.open(page, link, timeout)
            where = f"session {index}, request {asked} ({position_text})"
            errors = run_errors(run, where)
            if not errors and not any(settled.search(text) for text in run_texts(run)):
                errors.append(f"{where}: the run ended without the verdict")
            result.errors += errors
            if not errors:
                result.latencies.append(run.seconds)
    except Exception as error:  # a dropped connection is the run's error, not a crash
        result.errors.append(f"session {index}: {type(error).__name__}: {error}")


def run_load(
    base: str,
    page: str,
    query: str,
    settled: str,
    sessions: int = 30,
    seconds: float = 60.0,
    every: float = 5.0,
    timeout: float = 60.0,
    seed: int = 1,
    pid: int | None = None,
) -> LoadRun:
    """The load run (module notes, part 2) against the server at ``base`` (127.0.0.1);
    with the server's ``pid``, the CPU it and its children spent."""
    from bench.load import _check_local
    from cubecore.position import position_id

    _check_local(base)
    if not 1 <= sessions <= 200:
        raise ValueError(f"`sessions` must be in [1, 200], got {sessions}")
    if not 1.0 <= seconds <= 3600.0:
        raise ValueError(f"`seconds` must be in [1, 3600], got {seconds}")
    if not 0.5 <= every <= 600.0:
        raise ValueError(f"`every` must be in [0.5, 600] seconds, got {every}")
    pattern = re.compile(settled, re.M)
    requests = sessions * (int(seconds / (0.5 * every)) + 2)
    ids = [position_id(p) for p in positions(requests, seed=seed)]
    result = LoadRun(sessions, seconds, every, page)

    async def main() -> None:
        stop_at = time.monotonic() + seconds
        await asyncio.gather(
            *(
                _session(i, base, page, query, pattern, ids, stop_at, every, timeout, result)
                for i in range(sessions)
            )
        )

    before = process_cpu(pid) if pid is not None else None
    asyncio.run(main())
    if pid is not None and before is not None:
        after = process_cpu(pid)
        result.server_cpu = after[0] - before[0]
        result.engine_cpu = after[1] - before[1]  # the child started before the run
    return result


def _per_verdict(seconds: float | None, run: LoadRun) -> str:
    if seconds is None or not run.latencies:
        return "-"
    return f"{1000 * seconds / len(run.latencies):.0f} ms"


def load_table(run: LoadRun) -> str:
    """The load run as a markdown table (one row), with the target's verdict."""
    p95 = run.p95
    verdict = "-" if p95 != p95 else ("meets" if p95 <= P95_TARGET_SECONDS else "misses")
    rows = [
        [
            f"/{run.page}",
            run.sessions,
            f"{run.seconds:.0f} s",
            f"{run.every:g} s",
            len(run.latencies),
            ms(median(run.latencies)),
            ms(p95),
            ms(max(run.latencies, default=float("nan"))),
            f"{verdict} (<= {P95_TARGET_SECONDS:g} s)",
            len(run.errors),
            _per_verdict(run.server_cpu, run),
            _per_verdict(run.engine_cpu, run),
        ]
    ]
    header = [
        "page",
        "sessions",
        "length",
        "every",
        "verdicts",
        "median",
        "p95",
        "max",
        "target",
        "errors",
        "server CPU per verdict",
        "engine process CPU per verdict",
    ]
    return markdown_table(header, rows)


def cpu_note(run: LoadRun) -> str:
    """The server's CPU in the run against the one core its interpreter can use: the
    verdicts a second that CPU per verdict allows, beside the verdicts asked."""
    assert run.server_cpu is not None
    per = run.server_cpu / max(len(run.latencies), 1)
    asked = len(run.latencies) / run.seconds
    ceiling = 1.0 / per if per > 0 else float("inf")
    share = run.server_cpu / run.seconds
    return (
        f"Server CPU {run.server_cpu:.1f} s in {run.seconds:.0f} s ({share:.2f} of a core), "
        f"{1000 * per:.0f} ms per verdict: one core gives at most "
        f"{ceiling:.1f} verdicts a second; the run asked {asked:.1f} a second "
        f"({asked * per:.0%} of a core). The engine's child process: "
        f"{run.engine_cpu or 0.0:.1f} s."
    )


def run(
    levels: tuple[str, ...],
    repeats: int,
    n: int,
    sessions: int,
    seconds: float,
    every: float,
    page: str,
    query: str,
    settled: str,
    url: str | None,
) -> None:
    """Print both tables (``python -m bench position``); ``--sessions 0`` skips the load."""
    from bench.server import streamlit_servers
    from cubecore import engine

    print(f"### Position analysis: time per level (bgsage {engine.installed_version()}, money)\n")
    print(levels_table(measure_levels(levels, repeats, n)))
    print()
    if sessions == 0:
        return
    title = (
        f"### Position analysis under load: {sessions} sessions, each opening "
        f"/{page}?{query} with a new position once per ~{every:g} s, {seconds:.0f} s, "
        "one process\n"
    )
    if url:
        result = run_load(url, page, query, settled, sessions, seconds, every)
    else:
        with streamlit_servers(1) as servers:
            base, pid = servers[0]
            # the engine's child process starts with the first deep evaluation: once, first
            run_load(base, page, query, settled, 1, 1.0, 0.5, seed=2)
            result = run_load(base, page, query, settled, sessions, seconds, every, pid=pid)
    print(title)
    print(load_table(result))
    if result.server_cpu is not None and result.latencies:
        print(f"\n{cpu_note(result)}")
    for error in result.errors[:10]:
        print(f"- {error[:200]}")
    print()
