"""Cold start: a class opening pages of a freshly started server at the same moment.

Issue #17's acceptance: ``sessions`` (30) sessions open pages of a freshly started
process at once; the p95 of the time to the first complete page is at most
:data:`P95_TARGET_SECONDS`. Two ways to start the server are measured in the same run,
interleaved round by round (launcher, plain, launcher, plain, ...) so that the
machine's noise hits both alike:

- **launcher**: ``python -m ui.serve``, which imports every page's code before it
  listens and builds the expensive tables in a background thread;
- **plain**: ``streamlit run app.py`` (the warm-up begins with the first request).

Each round starts one fresh server (:func:`bench.server.streamlit_servers`) and notes
the time from starting the process to its first healthy ``/_stcore/health``; then opens
``sessions`` websocket sessions at once, session ``i`` on a page drawn with
``random.Random(seed + i)`` from the page registry (the same pages for both ways of
starting and every round). A session's time is wall time from before it connects to
the end of its first complete run (``script_finished``). Errors are counted as the load
test counts them (:func:`bench.load.run_errors`: a timeout, a landing on another page, a
compile error, an ``exception`` element), plus a session whose connection fails. The
server's RSS is read after the round.

Bounded: a run waits at most ``open_timeout`` and a round's sessions together at most
``open_timeout + 30`` s; the server start waits for health as
:func:`bench.server.wait_healthy` does; only 127.0.0.1 is touched and every server is
stopped by the bench itself.
"""

from __future__ import annotations

import asyncio
import math
import random
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from bench.load import _page_paths, run_errors
from bench.server import rss_mib, streamlit_servers
from bench.stats import markdown_table, median, ms, percentile

__all__ = [
    "P95_TARGET_SECONDS",
    "ColdRound",
    "coldstart_table",
    "print_coldstart",
    "run_coldstart",
]

#: Issue #17: p95 of the time to the first complete page, 30 sessions on a fresh process.
P95_TARGET_SECONDS = 1.5
_MAX_SESSIONS = 200
_MAX_ROUNDS = 20
_MAX_OPEN_TIMEOUT = 600.0
#: Slack (s) for connecting and closing on top of ``open_timeout``, for a whole round.
_ROUND_SLACK = 30.0


@dataclass(frozen=True)
class ColdRound:
    """One fresh server and its sessions' first pages.

    ``sessions``: how many opened a page at once; ``healthy``: seconds from starting
    the process to its first healthy answer; ``firsts``: each session's seconds to its
    first complete run (a session whose connection failed has none); ``errors``: what
    went wrong, one line each; ``rss``: the server's RSS in MiB after the round.
    """

    plain: bool
    sessions: int
    healthy: float
    firsts: tuple[float, ...]
    errors: tuple[str, ...]
    rss: float


def _label(plain: bool) -> str:
    return "plain" if plain else "launcher"


async def _first_page(
    base: str, index: int, seed: int, pages: list[str], timeout: float
) -> tuple[float | None, list[str]]:
    """Session ``index``: connect, open its page; (seconds to ``script_finished``, errors)."""
    from bench.wsclient import Session

    rng = random.Random(seed + index)
    page = rng.choice(pages)
    try:
        start = time.perf_counter()
        async with Session(base, rng, cookie=uuid.uuid4().hex) as session:
            run = await session.open(page, timeout=timeout)
            seconds = time.perf_counter() - start
    except Exception as error:  # a refused or dropped connection is an error of the round
        return None, [f"session {index}, /{page}: {type(error).__name__}: {error}"]
    return seconds, run_errors(run, f"session {index}, /{page}, first page")


async def _open_all(
    base: str, sessions: int, seed: int, timeout: float
) -> tuple[list[float], list[str]]:
    """All ``sessions`` first pages at once; (their seconds, the round's errors)."""
    pages = _page_paths()
    firsts: list[float] = []
    errors: list[str] = []
    try:
        outcomes = await asyncio.wait_for(
            asyncio.gather(*(_first_page(base, i, seed, pages, timeout) for i in range(sessions))),
            timeout + _ROUND_SLACK,
        )
    except TimeoutError:
        return firsts, [f"the round's {sessions} sessions did not end in time"]
    for seconds, found in outcomes:
        if seconds is not None:
            firsts.append(seconds)
        errors += found
    return firsts, errors


def _round(
    plain: bool, sessions: int, seed: int, open_timeout: float, log_dir: Path | None
) -> ColdRound:
    started = time.monotonic()
    with streamlit_servers(1, log_dir=log_dir, plain=plain) as servers:
        healthy = time.monotonic() - started
        base, pid = servers[0]
        firsts, errors = asyncio.run(_open_all(base, sessions, seed, open_timeout))
        rss = rss_mib(pid)
    return ColdRound(plain, sessions, healthy, tuple(firsts), tuple(errors), rss)


def run_coldstart(
    sessions: int = 30,
    rounds: int = 3,
    seed: int = 0,
    open_timeout: float = 60.0,
    log_dir: Path | None = None,
) -> list[ColdRound]:
    """``rounds`` rounds of each way to start, interleaved: launcher, plain, launcher, ...

    Each round is one fresh server on 127.0.0.1 and ``sessions`` sessions opening a page
    on it at once (see the module's docstring).
    """
    if not 1 <= sessions <= _MAX_SESSIONS:
        raise ValueError(f"sessions must be in 1..{_MAX_SESSIONS}, got {sessions}")
    if not 1 <= rounds <= _MAX_ROUNDS:
        raise ValueError(f"rounds must be in 1..{_MAX_ROUNDS}, got {rounds}")
    if not 0 < open_timeout <= _MAX_OPEN_TIMEOUT:
        raise ValueError(
            f"open_timeout must be in (0, {_MAX_OPEN_TIMEOUT:g}] seconds, got {open_timeout}"
        )
    return [
        _round(plain, sessions, seed, open_timeout, log_dir)
        for _ in range(rounds)
        for plain in (False, True)
    ]


def _p95(rounds: list[ColdRound]) -> float:
    return percentile([t for r in rounds for t in r.firsts], 95)


def coldstart_table(rounds: list[ColdRound]) -> str:
    """One row per way to start (all its rounds' sessions together) and the p95 ratio."""
    rows = []
    p95s = {}
    for plain in (False, True):
        mine = [r for r in rounds if r.plain == plain]
        if not mine:
            continue
        firsts = [t for r in mine for t in r.firsts]
        errors = sum(len(r.errors) for r in mine)
        p95s[plain] = p95 = _p95(mine)
        met = p95 <= P95_TARGET_SECONDS and errors == 0
        rss = [r.rss for r in mine if not math.isnan(r.rss)]
        rows.append(
            [
                _label(plain),
                len(mine),
                mine[0].sessions,
                ms(median([r.healthy for r in mine])),
                ms(median(firsts)),
                ms(p95),
                ms(max(firsts, default=math.nan)),
                errors,
                f"{max(rss):.0f}" if rss else "-",
                "met" if met else "MISS",
            ]
        )
    table = markdown_table(
        [
            "start",
            "rounds",
            "sessions",
            "time to healthy (median)",
            "first complete page p50",
            "p95",
            "max",
            "errors",
            "RSS MiB after round (max)",
            f"p95 <= {P95_TARGET_SECONDS:g} s, 0 errors",
        ],
        rows,
    )
    both = len(p95s) == 2 and p95s[False] > 0
    ratio = f"{p95s[True] / p95s[False]:.2f}x" if both else "-"
    return table + f"\n\nplain p95 / launcher p95 (same run): {ratio}"


def _grouped(errors: list[str]) -> list[tuple[str, int]]:
    """Distinct errors without their session's number, most frequent first."""
    counts: dict[str, int] = {}
    for line in errors:
        key = line.split(", ", 1)[1] if line.startswith("session ") else line
        counts[key[:160]] = counts.get(key[:160], 0) + 1
    return sorted(counts.items(), key=lambda item: -item[1])


def print_coldstart(rounds: list[ColdRound], limit: int = 8) -> None:
    """The table, then each way to start's errors, grouped (at most ``limit`` kinds)."""
    print(coldstart_table(rounds))
    for plain in (False, True):
        grouped = _grouped([line for r in rounds if r.plain == plain for line in r.errors])
        for line, times in grouped[:limit]:
            print(f"- {_label(plain)}, error ({times}x): {line}")
        if len(grouped) > limit:
            print(f"- {_label(plain)}: ... and {len(grouped) - limit} more kinds of error")
