"""The browser tests under a CPU hog, several runs in a row: do they wait on conditions?

Issue #17, item 3: browser tests wait on conditions, never on sleeps or fixed timeouts,
so they pass on a loaded machine. This runs ``pytest -m browser`` (every real-browser
test, on the project's usual two xdist workers) ``runs`` times in a row while ``hogs``
processes each spin a core at 100 % (a busy loop: the machine's two cores are then
shared four ways or more), and reports each run: passed, failed, errors, wall time, and
the failing tests by name. Each run's whole pytest output (with a failed browser test's
page state and server log, ``tests/conftest.py``) is kept in
``test-artifacts/stress-run-<n>.log``: a failure seen once under load can be read later.

Bounded: each run stops after ``run_timeout`` seconds (a hung run counts as failed), the
hogs are killed when the last run ends or the command is interrupted, and nothing but
127.0.0.1 is touched (the browser tests' own servers).
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bench.server import ARTIFACTS
from bench.stats import markdown_table

__all__ = ["BrowserRun", "hogging", "run_browser_tests", "stress_table"]

ROOT = Path(__file__).resolve().parents[1]
_MAX_RUNS = 20
_MAX_HOGS = 16
_MAX_RUN_TIMEOUT = 7200.0
#: A busy loop that stops by itself after ``argv[1]`` seconds (a hog never outlives a
#: forgotten bench by much). It says "spinning" on stdout as it enters the loop.
_HOG = (
    "import sys, time\n"
    "end = time.monotonic() + float(sys.argv[1])\n"
    "print('spinning', flush=True)\n"
    "while time.monotonic() < end: pass\n"
)


@dataclass(frozen=True)
class BrowserRun:
    """One ``pytest -m browser`` run: counts from its summary line, its wall time, the
    failing tests' ids, whether it ran out of time and the file holding its output."""

    passed: int
    failed: int
    errors: int
    seconds: float
    failures: tuple[str, ...]
    timed_out: bool
    log: Path


@contextmanager
def hogging(hogs: int, seconds: float) -> Iterator[list[int]]:
    """``hogs`` processes spinning a core each for at most ``seconds``; yields their pids
    once every one of them is in its busy loop (not still starting Python)."""
    if not 0 <= hogs <= _MAX_HOGS:
        raise ValueError(f"hogs must be in 0..{_MAX_HOGS}, got {hogs}")
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", _HOG, str(seconds)], stdout=subprocess.PIPE, text=True
        )
        for _ in range(hogs)
    ]
    try:
        for process in processes:
            assert process.stdout is not None
            said = process.stdout.readline()  # at its loop, or "" if it died starting
            if said != "spinning\n":
                raise RuntimeError(f"a CPU hog did not start: exit status {process.wait()}")
        yield [process.pid for process in processes]
    finally:
        for process in processes:
            process.kill()
        for process in processes:
            process.wait()
            if process.stdout is not None:
                process.stdout.close()


def _count(summary: str, word: str) -> int:
    found = re.search(rf"(\d+) {word}", summary)
    return int(found.group(1)) if found else 0


def _one_run(run_timeout: float, extra: tuple[str, ...], log: Path) -> BrowserRun:
    command = [sys.executable, "-m", "pytest", "-m", "browser", "-q", "-p", "no:cacheprovider"]
    began = time.monotonic()
    log.parent.mkdir(parents=True, exist_ok=True)
    try:
        done = subprocess.run(
            [*command, *extra],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=run_timeout,
            check=False,
        )
    except subprocess.TimeoutExpired as expired:
        printed = [
            part.decode(errors="replace") if isinstance(part, bytes) else part
            for part in (expired.stdout or "", expired.stderr or "")
        ]
        log.write_text(f"{''.join(printed)}\n(stopped after {run_timeout:g} s)\n")
        return BrowserRun(0, 0, 0, time.monotonic() - began, (), True, log)
    seconds = time.monotonic() - began
    log.write_text(done.stdout + done.stderr)
    lines = done.stdout.splitlines()
    summary = next(
        (line for line in reversed(lines) if re.search(r"\d+ (passed|failed|errors?)\b", line)),
        "",
    )
    failures = tuple(
        line.split(" ", 1)[1].split(" - ")[0]
        for line in lines
        if line.startswith(("FAILED ", "ERROR "))
    )
    return BrowserRun(
        _count(summary, "passed"),
        _count(summary, "failed"),
        _count(summary, "errors?"),
        seconds,
        failures,
        False,
        log,
    )


def run_browser_tests(
    runs: int = 5,
    hogs: int = 2,
    run_timeout: float = 3600.0,
    extra: tuple[str, ...] = (),
    on_run: Callable[[int, BrowserRun], None] | None = None,
    logs: Path = ARTIFACTS,
) -> list[BrowserRun]:
    """``runs`` runs of the browser tests in a row beside ``hogs`` busy processes.

    ``extra`` are further pytest arguments (``-k`` to run a subset, say); ``on_run(i,
    run)`` is told each run as it ends (a long bench shows its progress); each run's
    output goes to ``logs / "stress-run-<n>.log"`` (replaced by the next bench).
    """
    if not 1 <= runs <= _MAX_RUNS:
        raise ValueError(f"runs must be in 1..{_MAX_RUNS}, got {runs}")
    if not 0 < run_timeout <= _MAX_RUN_TIMEOUT:
        raise ValueError(f"run_timeout must be in (0, {_MAX_RUN_TIMEOUT:g}] s, got {run_timeout}")
    results = []
    with hogging(hogs, runs * run_timeout):
        for index in range(runs):
            results.append(_one_run(run_timeout, extra, logs / f"stress-run-{index + 1}.log"))
            if on_run is not None:
                on_run(index, results[-1])
    return results


def stress_table(results: list[BrowserRun]) -> str:
    """One row per run and a total: every run must pass every test."""
    rows = [
        [
            index + 1,
            run.passed,
            run.failed,
            run.errors,
            f"{run.seconds:.0f} s",
            "timed out" if run.timed_out else (", ".join(run.failures) or "-"),
        ]
        for index, run in enumerate(results)
    ]
    clean = sum(1 for r in results if not (r.failed or r.errors or r.timed_out) and r.passed)
    table = markdown_table(["run", "passed", "failed", "errors", "wall time", "failing"], rows)
    return table + f"\n\nruns with every browser test passing: {clean} of {len(results)}"
