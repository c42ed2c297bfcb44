"""Script time of every registered page, as a ratio to the baseline page.

Each page (and the baseline, :mod:`bench.baseline_app`) is timed by
:mod:`bench.page_worker` in a fresh Python process with Streamlit's in-process
``AppTest`` runner, ``repeats`` times, interleaved page by page so that a burst of
load on the shared machine hits every page alike; the table shows medians.

Why AppTest: it executes exactly the script a server runs (``app.py`` routing to
the page through ``st.navigation``) without a websocket, a browser or a second
process competing for the two cores, so it isolates the script time. As in a
server, each script is compiled once per process (AppTest alone would recompile
``app.py`` and the page on every run). AppTest still adds a fixed per-run cost
(a thread, a mock runtime): it inflates every page and the baseline alike, so the
ratios are conservative. ``python -m bench load`` measures the same reruns over
the websocket of a real server.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.page_worker import YARDSTICKS
from bench.stats import markdown_table, median, ms

ROOT = Path(__file__).resolve().parents[1]

#: Views that are heavier than their page's default, timed as well: the cube
#: calculator's 15 x 15 score matrix (issue #14), the real race at a match score
#: (issue #15: the pip-model DP at the score and the cube life by score), the table fit
#: and the table comparison (issue #13).
HEAVY_VIEWS = (
    "pages/cube.py?sec=Score+matrix&n=15",
    "pages/real_race.py?sec=At+a+match+score",
    "pages/match.py?sec=Explain+this+table",
    "pages/match.py?sec=Compare+tables",
)

#: Targets of issue 9.
WARM_RATIO_TARGET = 1.5
COLD_TARGET_SECONDS = 1.5


@dataclass(frozen=True)
class PageTiming:
    target: str
    cold_process: float
    cold_caches: float
    warm: float
    move: float
    elements: int
    exceptions: tuple[str, ...]


def _run_worker(target: str, warm: int, moves: int, cold_caches: int, seed: int) -> dict[str, Any]:
    command = [
        sys.executable,
        "-m",
        "bench.page_worker",
        target,
        f"--warm={warm}",
        f"--moves={moves}",
        f"--cold-caches={cold_caches}",
        f"--seed={seed}",
    ]
    done = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )
    for line in done.stdout.splitlines():
        if line.startswith("BENCH-RESULT "):
            result: dict[str, Any] = json.loads(line.removeprefix("BENCH-RESULT "))
            return result
    tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
    return {"target": target, "error": " / ".join(tail) or f"exit {done.returncode}"}


def measure_pages(
    repeats: int = 3, warm: int = 10, moves: int = 10, cold_caches: int = 2
) -> list[PageTiming]:
    """Time the baseline and every page of ``ui.pages.PAGES``; medians over repeats."""
    sys.path.insert(0, str(ROOT))
    from ui.pages import PAGES

    targets = [*YARDSTICKS, *(page.file for page in PAGES), *HEAVY_VIEWS]
    runs: dict[str, list[dict[str, Any]]] = {target: [] for target in targets}
    for repeat in range(repeats):
        for target in targets:
            runs[target].append(_run_worker(target, warm, moves, cold_caches, seed=repeat))
            print(".", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    timings = []
    for target, results in runs.items():
        good = [r for r in results if "error" not in r]
        errors = tuple(r["error"] for r in results if "error" in r)
        timings.append(
            PageTiming(
                target=target,
                cold_process=median([r["cold_process"] for r in good]),
                cold_caches=median([t for r in good for t in r["cold_caches"]]),
                warm=median([t for r in good for t in r["warm"]]),
                move=median([t for r in good for t in r["move"]]),
                elements=max((r["elements"] for r in good), default=0),
                exceptions=errors + tuple(e for r in good for e in r["exceptions"]),
            )
        )
    return timings


def _ratio(value: float, base: float) -> str:
    return "-" if value != value or not base else f"{value / base:.1f}x"


def pages_table(timings: list[PageTiming]) -> str:
    """Markdown table: absolute medians, ratios to the baseline and target verdicts."""
    base = next(t for t in timings if t.target == "baseline")
    names = {  # the yardsticks of page_worker.YARDSTICKS, as the table names them
        "baseline": "baseline (1 slider + 1 chart)",
        "floor": "yardstick: baseline + 60 captions",
    }
    rows = []
    for t in timings:
        warm_ok = t.warm / base.warm <= WARM_RATIO_TARGET if base.warm else False
        cold_ok = t.cold_process <= COLD_TARGET_SECONDS
        rows.append(
            [
                names.get(t.target, t.target),
                t.elements,
                ms(t.warm),
                _ratio(t.warm, base.warm),
                ms(t.move),
                _ratio(t.move, base.move),
                ms(t.cold_caches),
                _ratio(t.cold_caches, base.cold_caches),
                ms(t.cold_process),
                _ratio(t.cold_process, base.cold_process),
                "-"
                if t.target in names
                else ("ok" if warm_ok else "MISS") + " / " + ("ok" if cold_ok else "MISS"),
                len(t.exceptions),
            ]
        )
    header = [
        "page",
        "elements",
        "warm rerun",
        "x base",
        "move a control",
        "x base",
        "cold caches",
        "x base",
        "cold process",
        "x base",
        f"warm <= {WARM_RATIO_TARGET}x / cold <= {COLD_TARGET_SECONDS} s",
        "exceptions",
    ]
    return markdown_table(header, rows)
