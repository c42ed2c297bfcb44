"""Load test and soak: N concurrent websocket sessions moving controls on random pages.

Every session opens a random registered page (all sessions at once, like a class
opening the teacher's link), then until the time is up: waits a think time,
moves one random control (a rerun), and now and then switches to another random
page. Latency is from sending the rerun to ``script_finished``. An ``exception``
element, a compile error, a timeout or a dropped connection counts as an error.
Server memory is VmRSS of every server process, sampled every second.

Bounded: ``seconds`` caps the run (sessions stop after their current rerun, and
a rerun waits at most ``rerun_timeout``); targets are 127.0.0.1 only.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import math
import random
import re
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlparse

from bench.server import rss_split
from bench.stats import markdown_table, median, ms, percentile

if TYPE_CHECKING:  # imported where used: websockets loads only when a load test runs
    from bench.wsclient import RunResult

#: Issue #17: one process, 30 sessions at a move per ~1 s (issue #9's was 1 s).
P95_TARGET_SECONDS = 0.5
RSS_TARGET_MIB = 400.0
_LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}


@dataclass
class LoadResult:
    sessions: int
    seconds: float
    think: float
    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    rss: list[tuple[float, float]] = field(default_factory=list)  # (t, total MiB)
    alone: list[tuple[float, float]] = field(default_factory=list)  # (t, MiB without workers)
    caches: list[tuple[float, float]] = field(default_factory=list)  # (t, server caches MiB)
    caches_unread: list[str] = field(default_factory=list)  # cache readings that failed
    reruns: int = 0
    by_page: dict[str, list[float]] = field(default_factory=dict)  # moves and switches
    peak_per_process: float = 0.0  # MiB, the largest single server process
    mix: dict[str, int] = field(default_factory=dict)  # moves by scope, and page switches
    started: float = field(default_factory=time.monotonic)  # the run's start (monotonic)
    timeline: list[tuple[float, float]] = field(default_factory=list)  # (end t, seconds)

    def all_latencies(self) -> list[float]:
        return [v for kind in ("move", "switch") for v in self.latencies.get(kind, [])]

    @property
    def p95(self) -> float:
        return percentile(self.all_latencies(), 95)


def _check_local(base: str) -> None:
    host = urlparse(base).hostname
    if host not in _LOCAL_HOSTS:
        raise ValueError(f"load only targets 127.0.0.1, not {host}")


def _page_paths() -> list[str]:
    from ui.pages import PAGES

    return [page.url_path for page in PAGES]


@functools.cache
def _scopes() -> dict[str, dict[str, str]]:
    """Page -> control key -> "section tab", "page-wide" or "one section" (its own panel)."""
    from ui.pages import PAGES
    from ui.skeleton import SECTION_KEY
    from ui.warmup import import_pages

    import_pages()  # quietly: outside a server, cache decorators would log a warning each
    scopes: dict[str, dict[str, str]] = {}
    for spec in PAGES:
        page = spec.page
        if page is None:
            continue
        scope = {control.key: "page-wide" for control in page.controls}
        scope.update({c.key: "one section" for s in page.sections for c in s.controls})
        scopes[spec.url_path] = {**scope, SECTION_KEY: "section tab"}
    return scopes


def mix_line(result: LoadResult) -> str:
    """What the sessions did, in shares of all their reruns after the first page."""
    total = sum(result.mix.values())
    if not total:
        return "mix: no moves"
    parts = [f"{name} {count / total:.0%}" for name, count in sorted(result.mix.items())]
    return f"mix of {total} reruns: " + ", ".join(parts)


async def _one_session(
    index: int,
    base: str,
    pages: list[str],
    stop_at: float,
    think: float,
    result: LoadResult,
    rerun_timeout: float,
    sticky: bool,
    headers: dict[str, str] | None = None,
) -> None:
    from bench.wsclient import Session

    rng = random.Random(index)
    cookie = uuid.uuid4().hex if sticky else None
    try:
        async with Session(base, rng, cookie=cookie, headers=headers) as session:
            page = rng.choice(pages)
            run: RunResult | None  # a move may find nothing to move
            run = await session.open(page, timeout=rerun_timeout)
            _record(result, "open", run, index, page)
            while time.monotonic() < stop_at:
                await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                if time.monotonic() >= stop_at:
                    break
                if rng.random() < 0.15 or not session.widgets:
                    page = rng.choice(pages)
                    run = await session.switch(page, timeout=rerun_timeout)
                    kind = "switch"
                else:
                    run = await session.move(timeout=rerun_timeout)
                    kind = "move"
                if run is not None:
                    _record(result, kind, run, index, page)
    except Exception as error:  # a dropped connection is an error of the run, not a crash
        result.errors.append(f"session {index}: {type(error).__name__}: {error}")


def run_errors(run: RunResult, where: str) -> list[str]:
    """The errors of one run, each prefixed by ``where``: a timeout, a landing on another
    page, a compile error, and every ``exception`` element (its first 200 characters)."""
    errors = []
    if run.timed_out:
        errors.append(f"{where}: timed out")
    if getattr(run, "wrong_page", False):
        errors.append(f"{where}: landed on another page")
    if run.compile_error:
        errors.append(f"{where}: compile error")
    errors += [f"{where}: {text[:200]}" for text in run.exceptions]
    return errors


def _record(result: LoadResult, kind: str, run: RunResult, index: int, page: str) -> None:
    result.latencies.setdefault(kind, []).append(run.seconds)
    if kind != "open":
        result.by_page.setdefault(page, []).append(run.seconds)
        result.timeline.append((time.monotonic() - result.started, run.seconds))
        scope = "page switch"
        if kind == "move":  # "another widget": not a control (a drill's answer, say)
            scope = _scopes().get(page, {}).get(run.moved, "another widget")
            if scope == "one section":  # the open one's reruns alone (a fragment)
                scope = "open section" if run.fragment else "a closed section's panel"
        result.mix[scope] = result.mix.get(scope, 0) + 1
    result.reruns += 1
    result.errors += run_errors(run, f"session {index}, /{page}, {kind}")


#: How often the soak reads the server's ``st.cache_data`` memory (/_stcore/metrics), in seconds.
CACHE_SAMPLE_SECONDS = 30.0


async def _sample_rss(
    pids: list[int], result: LoadResult, stop: asyncio.Event, caches_of: str | None
) -> None:
    """Every second, ``pids``' RSS with their workers' and without; every
    :data:`CACHE_SAMPLE_SECONDS`, the memory of the ``st.cache_data`` caches of the
    server at ``caches_of`` (if given), read in a thread."""
    start = time.monotonic()
    next_caches = 0.0
    while not stop.is_set():
        split = [rss_split(pid) for pid in pids]  # (alone, with workers) each
        sizes = [total for _, total in split]
        at = time.monotonic() - start
        result.rss.append((at, sum(sizes)))
        result.alone.append((at, sum(own for own, _ in split)))
        result.peak_per_process = max([result.peak_per_process, *(v for v in sizes if v == v)])
        if caches_of is not None and at >= next_caches:
            next_caches += CACHE_SAMPLE_SECONDS
            try:
                held = await asyncio.to_thread(cache_data_bytes, caches_of)
            except OSError as error:  # a busy server's metrics page: said, not fatal
                result.caches_unread.append(f"at {at:.0f} s: {error}")
            else:
                result.caches.append((time.monotonic() - start, sum(held.values()) / 2**20))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 1.0)


async def run_sessions(
    base: str,
    pids: list[int],
    sessions: int,
    seconds: float,
    think: float,
    rerun_timeout: float,
    sticky: bool,
    beside: Callable[[float], list[Awaitable[None]]] | None = None,
    caches_of: str | None = None,
    headers_of: Callable[[int], dict[str, str]] | None = None,
) -> LoadResult:
    """``sessions`` normal sessions for ``seconds`` while ``pids``' memory is sampled.

    ``headers_of(i)``, if given, are the handshake headers of session ``i`` (the abuse
    bench's proxy headers: each session its own client address).

    ``beside(stop_at)``, if given, are more clients that run as long (until the
    ``time.monotonic()`` value ``stop_at``), as the abuse bench's hostile ones.
    ``caches_of``, if given, is one server's URL whose ``st.cache_data`` memory is
    sampled too (:func:`cache_data_bytes`): what of its RSS those caches hold.
    """
    result = LoadResult(sessions, seconds, think)
    pages = _page_paths()
    # Read the controls' scopes now, before the clock starts: the first move's record
    # would otherwise import every page's code (~4 s) inside the event loop, and every
    # session's rerun in flight would count that stall of the client as the server's.
    _scopes()
    stop = asyncio.Event()
    sampler = asyncio.create_task(_sample_rss(pids, result, stop, caches_of))
    stop_at = time.monotonic() + seconds
    tasks: list[Awaitable[None]] = [
        _one_session(
            i,
            base,
            pages,
            stop_at,
            think,
            result,
            rerun_timeout,
            sticky,
            None if headers_of is None else headers_of(i),
        )
        for i in range(sessions)
    ]
    if beside is not None:
        tasks += beside(stop_at)
    try:
        await asyncio.wait_for(asyncio.gather(*tasks), seconds + 2 * rerun_timeout + 30)
    except TimeoutError:
        result.errors.append("run did not stop in time")
    stop.set()
    await sampler
    return result


async def _warm_up(base: str, timeout: float) -> dict[str, float]:
    """Visit every page once in one session (the teacher opening the app first)."""
    from bench.wsclient import Session

    first: dict[str, float] = {}
    async with Session(base, random.Random(0), cookie=uuid.uuid4().hex) as session:
        for page in _page_paths():
            run = await session.open(page, timeout=timeout)
            first[page] = run.seconds
    return first


def warm_up(base: str, timeout: float = 60.0) -> dict[str, float]:
    """First-visit time of every page on ``base`` (a fresh server: imports, tables, caches)."""
    _check_local(base)
    return asyncio.run(_warm_up(base, timeout))


def run_load(
    base: str,
    pids: list[int],
    sessions: int = 30,
    seconds: float = 60.0,
    think: float = 1.0,
    rerun_timeout: float = 30.0,
    sticky: bool = False,
    caches: bool = False,
) -> LoadResult:
    """Run the load test against ``base`` (a loopback URL) and sample ``pids``' memory;
    with ``caches``, the memory of ``base``'s ``st.cache_data`` too (one server, not a
    proxy)."""
    _check_local(base)
    if sessions < 1 or sessions > 500 or seconds <= 0 or seconds > 3600:
        raise ValueError("sessions must be in 1..500 and seconds in (0, 3600]")
    return asyncio.run(
        run_sessions(
            base,
            pids,
            sessions,
            seconds,
            think,
            rerun_timeout,
            sticky,
            caches_of=base if caches else None,
        )
    )


def load_table(results: list[LoadResult], label: str = "") -> str:
    rows = []
    for r in results:
        lat = r.all_latencies()
        opens = r.latencies.get("open", [])
        rss = [v for _, v in r.rss if v == v]
        met = r.p95 <= P95_TARGET_SECONDS and not r.errors
        verdict = "ok" if met and r.peak_per_process <= RSS_TARGET_MIB else "MISS"
        rows.append(
            [
                label,
                r.sessions,
                f"{r.seconds:.0f} s",
                f"{r.think:.1f} s",
                len(lat),
                f"{len(lat) / r.seconds:.1f}/s",
                ms(median(lat)),
                ms(r.p95),
                ms(max(lat, default=float("nan"))),
                f"{ms(percentile(r.latencies.get('move', []), 95))} / "
                f"{ms(percentile(r.latencies.get('switch', []), 95))}",
                f"{ms(median(opens))} / {ms(percentile(opens, 95))}",
                len(r.errors),
                f"{rss[0]:.0f} / {max(rss):.0f} / {rss[-1]:.0f}" if rss else "-",
                verdict,
            ]
        )
    header = [
        "servers",
        "sessions",
        "run",
        "think",
        "reruns",
        "rate",
        "p50",
        "p95",
        "max",
        "p95 move / page switch",
        "first load p50 / p95",
        "errors",
        "RSS MiB (all servers) start / peak / end",
        f"p95 <= {P95_TARGET_SECONDS:g} s, 0 errors, RSS <= {RSS_TARGET_MIB:.0f} MiB per process",
    ]
    return markdown_table(header, rows)


def per_page_table(result: LoadResult) -> str:
    """Latency of moves and page switches per page (the page the rerun landed on)."""
    rows = []
    for page, values in sorted(result.by_page.items()):
        errors = sum(1 for line in result.errors if f"/{page}," in line)
        rows.append(
            [f"/{page}", len(values), ms(median(values)), ms(percentile(values, 95)), errors]
        )
    return markdown_table(["page", "reruns", "p50", "p95", "errors"], rows)


def latency_by_minute(result: LoadResult, every: float = 60.0) -> str:
    """Moves and page switches by window of ``every`` seconds (by when each rerun ended):
    their number, p50 and p95, as a markdown table. A fresh server's first minute meets
    its cache misses (random values); later windows show a process that has served the
    class for a while."""
    windows: dict[int, list[float]] = {}
    for t, seconds in result.timeline:
        windows.setdefault(int(t // every), []).append(seconds)
    rows = [
        [
            f"{index * every:.0f}-{(index + 1) * every:.0f} s",
            len(values),
            ms(median(values)),
            ms(percentile(values, 95)),
        ]
        for index, values in sorted(windows.items())
    ]
    return markdown_table(["window", "reruns", "p50", "p95"], rows)


def _caches_by(result: LoadResult, until: float) -> float | None:
    """The server's ``st.cache_data`` memory (MiB) last sampled before ``until`` seconds,
    if any."""
    sampled = [value for t, value in result.caches if t < until]
    return sampled[-1] if sampled else None


def rss_timeline(result: LoadResult, every: float = 30.0) -> str:
    """RSS every ``every`` seconds (max in each window) as a markdown table: the servers
    with their workers, and without them; with cache readings (:attr:`LoadResult.caches`),
    the caches' memory last read in each window (in the last window, the last reading).
    A window ends at its last second, and the last window where the run ended."""

    def window(t: float) -> int:
        return max(math.ceil(t / every) - 1, 0)

    if not result.rss:
        return "no memory samples"
    last = result.rss[-1][0]
    header = ["until", "server RSS MiB, with its worker (max in window)", "without it"]
    if result.caches:
        header.append("the server's st.cache_data, MiB (last reading)")
    by_window: dict[int, tuple[list[float], list[float]]] = {}
    for samples, column in ((result.rss, 0), (result.alone, 1)):
        for t, value in samples:
            if value == value:  # NaN: the server was gone
                by_window.setdefault(window(t), ([], []))[column].append(value)
    rows = []
    for index, (with_workers, alone) in sorted(by_window.items()):
        if not with_workers:
            continue
        high = (index + 1) * every
        ended = high > last  # the run ended inside this window
        row = [
            f"{last:.1f} s (end)" if ended else f"{high:.0f} s",
            f"{max(with_workers):.0f}",
            f"{max(alone):.0f}" if alone else "-",
        ]
        if result.caches:
            held = _caches_by(result, math.inf if ended else high)
            row.append("-" if held is None else f"{held:.1f}")
        rows.append(row)
    return markdown_table(header, rows)


#: Issue #17's soak: the last minute's RSS within 10% of the second minute's.
SOAK_GROWTH_TARGET = 0.10


def soak_growth(result: LoadResult) -> str | None:
    """The soak's verdict: the largest RSS sample of the last minute against the largest
    of the second (60-120 s), as a line; ``None`` for a run shorter than 3 minutes."""
    if result.seconds < 180:
        return None
    second = [v for t, v in result.rss if 60 <= t < 120]
    last = [v for t, v in result.rss if t >= result.seconds - 60]
    if not second or not last:
        return "RSS growth: not enough samples in the second and the last minute"
    growth = max(last) / max(second) - 1
    verdict = "met" if growth <= SOAK_GROWTH_TARGET else "MISS"
    line = (
        f"RSS growth: last minute's max {max(last):.0f} MiB against the second minute's "
        f"{max(second):.0f} MiB: {growth:+.1%} (target <= +{SOAK_GROWTH_TARGET:.0%}: {verdict})"
    )
    then, end = _caches_by(result, 120.0), _caches_by(result, math.inf)
    if then is not None and end is not None:
        line += (
            f"; the server's st.cache_data held {then:.1f} MiB at the second minute's end and "
            f"{end:.1f} MiB at the last reading ({end - then:+.1f} MiB)"
        )
    if result.caches_unread:
        line += f"; {len(result.caches_unread)} cache readings failed ({result.caches_unread[0]})"
    return line


def cache_sizes(base: str) -> dict[tuple[str, str], float]:
    """Bytes held by each of the server's caches, by ``(function, cache type)``
    (``st_cache_data``, ``st_cache_resource``, ...), from its /_stcore/metrics. Streamlit
    keeps these figures for 5 s (``_METRICS_EXPENSIVE_STATS_TTL_SECONDS``), and it counts
    every ``st.cache_resource`` entry as 0 bytes (it cannot size an arbitrary object): the
    app's views (figures, tables) and the elements it records (:func:`ui.widgets.chart`,
    :func:`ui.widgets.table`) are not in these figures."""
    import urllib.request

    _check_local(base)
    with urllib.request.urlopen(f"{base}/_stcore/metrics", timeout=30) as answer:
        text = answer.read().decode()
    sizes: dict[tuple[str, str], float] = {}
    for line in text.splitlines():
        if line.startswith("cache_memory_bytes{"):
            labels, value = line.rsplit(" ", 1)
            name = re.search(r'cache="([^"]*)"', labels)
            kind = re.search(r'cache_type="([^"]*)"', labels)
            key = (name.group(1) if name else labels, kind.group(1) if kind else "?")
            sizes[key] = sizes.get(key, 0.0) + float(value)
    return sizes


def cache_data_bytes(base: str) -> dict[str, float]:
    """Bytes held by each ``st.cache_data`` function of the server (:func:`cache_sizes`)."""
    return {
        name: size for (name, kind), size in cache_sizes(base).items() if kind == "st_cache_data"
    }


def cache_memory(base: str, top: int = 8) -> str:
    """Largest caches by memory (:func:`cache_sizes`) as a markdown table."""
    sizes = {f"{name} ({kind})": size for (name, kind), size in cache_sizes(base).items()}
    rows = sorted(sizes.items(), key=lambda item: -item[1])
    total = sum(sizes.values())
    body = [[name, f"{size / 2**20:.1f}"] for name, size in rows[:top]]
    body.append(["total (all caches)", f"{total / 2**20:.1f}"])
    return markdown_table(["cache", "MiB"], body)


def print_errors(result: LoadResult, limit: int = 10) -> None:
    for line in result.errors[:limit]:
        print("  error:", line, file=sys.stderr)
    if len(result.errors) > limit:
        print(f"  ... and {len(result.errors) - limit} more errors", file=sys.stderr)
