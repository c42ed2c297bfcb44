"""Bear-off database builds: the project's own against gnubg's ``makebearoff``, same run.

``python -m bench bearoff`` builds, each in a fresh process so that time and memory
are its own:

* the one-sided database (15 checkers, 6 points: 54,264 positions, roll distributions):
  ``cubecore.bearoff.build_one_sided()`` and ``makebearoff -o 6 -g`` (gnubg's without
  its gammon distributions, which ours does not compute either);
* the two-sided 6x6 database (924 x 924 pairs, cubeless and cubeful):
  ``cubecore.bearoff.build_two_sided()`` and ``makebearoff -t 6x6``.

Wall time, and peak memory as the child's maximum resident set size (``wait4``); for
the project's builds also the Python-level peak of allocations (``tracemalloc``, numpy
included). When gnubg's ``makebearoff`` is not installed the table says so.
Every build runs once per repeat (default 1); nothing is cached between them (the
project's builds do not touch the disk cache).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.stats import markdown_table, median

ROOT = Path(__file__).resolve().parents[1]
MAKEBEAROFF = "/usr/games/makebearoff"
#: Goal of issue 15: each build under 60 s on 2 cores.
TARGET_SECONDS = 60.0

_CHILD = """
import json, resource, sys, time, tracemalloc
sys.path.insert(0, {root!r})
from cubecore import bearoff
imported = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
tracemalloc.start()
start = time.perf_counter()
bearoff.{function}()
seconds = time.perf_counter() - start
peak = tracemalloc.get_traced_memory()[1]
print(json.dumps({{"seconds": seconds, "traced_peak": peak, "import_rss_kib": imported}}))
"""


@dataclass(frozen=True)
class Build:
    """One timed build."""

    database: str
    builder: str
    seconds: float | None
    max_rss_mib: float | None
    traced_peak_mib: float | None
    note: str = ""
    import_rss_mib: float | None = None


def _run(command: list[str], cwd: str | None = None) -> tuple[float, float, str]:
    """Wall seconds, max RSS (MiB) and stdout of one child process."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        child = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL, cwd=cwd)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - start
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    if child.returncode != 0:
        raise RuntimeError(f"{command[0]} exited with {child.returncode}")
    return seconds, usage.ru_maxrss / 1024, text  # ru_maxrss is in KiB on Linux


def _ours(function: str) -> tuple[float, float, float, float]:
    code = _CHILD.format(root=str(ROOT), function=function)
    _, rss, text = _run([sys.executable, "-c", code])
    result = json.loads(text.strip().splitlines()[-1])
    return result["seconds"], rss, result["traced_peak"] / 2**20, result["import_rss_kib"] / 1024


def _gnubg(arguments: list[str]) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as folder:
        seconds, rss, _ = _run(
            [MAKEBEAROFF, *arguments, "-f", str(Path(folder) / "db.bd")], cwd=folder
        )
    return seconds, rss


BUILDS = (
    ("one-sided, 15 checkers (54,264)", "build_one_sided", ["-o", "6", "-g"]),
    ("two-sided 6x6 (924 x 924), cubeful", "build_two_sided", ["-t", "6x6"]),
)


def _medians(runs: list[tuple[float, ...]]) -> list[float]:
    """The median of each measure (time, memory, ...) over the runs."""
    return [median(measure) for measure in zip(*runs, strict=True)]


def measure_bearoff(repeats: int = 1, gnubg: bool = True) -> list[Build]:
    """Time every build ``repeats`` times; medians of time and memory."""
    have_gnubg = gnubg and shutil.which(MAKEBEAROFF) is not None
    results: list[Build] = []
    for database, function, arguments in BUILDS:
        seconds, rss, peak, imports = _medians([_ours(function) for _ in range(repeats)])
        ours = f"cubecore.bearoff.{function}"
        results.append(Build(database, ours, seconds, rss, peak, import_rss_mib=imports))
        if have_gnubg:
            seconds, rss = _medians([_gnubg(arguments) for _ in range(repeats)])
            theirs = f"gnubg makebearoff {' '.join(arguments)}"
            results.append(Build(database, theirs, seconds, rss, None))
        else:
            results.append(
                Build(
                    database,
                    "gnubg makebearoff",
                    None,
                    None,
                    None,
                    f"not measured: {MAKEBEAROFF} is not installed" if gnubg else "skipped",
                )
            )
    return results


def bearoff_table(results: list[Build]) -> str:
    """A markdown table of the builds."""

    def mib(value: float | None) -> str:
        return "-" if value is None else f"{value:.0f} MiB"

    rows = []
    for r in results:
        if r.seconds is None:
            time_cell, goal = "-", r.note
        else:
            time_cell = f"{r.seconds:.2f} s"
            ok = "ok" if r.seconds <= TARGET_SECONDS else "MISS"
            goal = f"<= {TARGET_SECONDS:.0f} s: {ok}" if r.import_rss_mib is not None else "-"
        rss = mib(r.max_rss_mib)
        if r.import_rss_mib is not None:
            rss += f" (after imports {r.import_rss_mib:.0f})"
        rows.append([r.database, r.builder, time_cell, rss, mib(r.traced_peak_mib), goal])
    headers = ["database", "builder", "time", "max RSS", "traced peak (numpy)", "goal"]
    return markdown_table(headers, rows)


def run(repeats: int = 1) -> None:
    """Print the table (``python -m bench bearoff``)."""
    print("### Bear-off database builds (fresh process each; wall time, peak memory)\n")
    print(bearoff_table(measure_bearoff(repeats)))
