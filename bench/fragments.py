"""Section-local moves against the one-slider baseline page, over real servers' websockets.

Issue #17's acceptance: a move of a section's own slider reruns that section alone (its
part of the page is a fragment, :mod:`ui.skeleton`), and its warm rerun costs at most
:data:`RATIO_TARGET` times a move of the baseline page's slider
(:mod:`bench.baseline_app`: one slider, one chart), on every page.

Two servers run side by side: the app (the launcher, ``python -m ui.serve``) and the
baseline page (``streamlit run bench/baseline_app.py``). For every page and every section
with a slider of its own that is active at its defaults, one session opens the section
(``?sec=...``) and the baseline's session is already open. The section's slider moves
between its default and the next step: the first two moves fill the caches, the next
two are recorded, then
``moves`` timed moves alternate between the two values (warm: both are cached), each
one beside a baseline move between two values of its own slider, so that a burst of
load on the shared machine hits both alike. A time is the wall time from sending the
move to the end of its run (``script_finished``), as the browser would see it.

Beside them, a third server sends each section's move again without building it: the
two warm moves' deltas are recorded (:func:`record`) and :mod:`bench.replay_app`
re-sends them, nested as they were, on every move of its own slider. Its time is the
floor of the section's move: what sending it costs Streamlit; the rest is building it.

The table gives the medians, their ratio, the floor's median and ratio, how many of the
section's moves reran its fragment alone (the server's own
``FINISHED_FRAGMENT_RUN_SUCCESSFULLY``), the elements a move's run sent (median), and
the errors (:func:`bench.load.run_errors`). Bounded: each run waits at most ``timeout``
seconds; only 127.0.0.1 is touched and the bench stops its own servers.
"""

from __future__ import annotations

import asyncio
import base64
import json
import random
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast
from urllib.parse import quote

from bench.load import run_errors
from bench.replay_app import MOVE_KEY, RECORDING
from bench.server import streamlit_servers
from bench.stats import markdown_table, median, ms
from bench.wsclient import RunResult

__all__ = ["RATIO_TARGET", "SectionMove", "fragments_table", "run_fragments"]

#: Issue #17: a section-local move's warm rerun <= 1.5x the baseline page's.
RATIO_TARGET = 1.5
#: The baseline page's slider (bench/baseline_app.py) and the two values it moves between.
_BASELINE = ("f", (1.0, 1.05))
_MAX_MOVES = 200


@dataclass
class SectionMove:
    """One section's timed moves and the baseline's beside them."""

    page: str
    section: str
    key: str
    seconds: list[float] = field(default_factory=list)
    baseline: list[float] = field(default_factory=list)
    floor: list[float] = field(default_factory=list)  # the same move re-sent, not built
    fragment_runs: int = 0
    elements: list[int] = field(default_factory=list)
    floor_elements: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def ratio(self) -> float:
        return self._ratio(self.seconds)

    @property
    def floor_ratio(self) -> float:
        return self._ratio(self.floor)

    def _ratio(self, seconds: list[float]) -> float:
        if not seconds or not self.baseline:
            return float("nan")
        return median(seconds) / median(self.baseline)


def _targets() -> list[tuple[str, str, str, tuple[float, float]]]:
    """(page path, section title, slider key, its two values) for every section with an
    active slider of its own."""
    from ui.pages import PAGES
    from ui.warmup import import_pages

    import_pages()  # quietly: outside a server, cache decorators would log a warning each
    targets = []
    for spec in PAGES:
        page = spec.page
        if page is None:
            continue
        defaults = {c.key: c.default for c in page.all_controls}
        for section in page.sections:
            slider = next(
                (c for c in section.controls if c.is_slider and c.active(defaults)),
                None,
            )
            if slider is None:
                continue
            low, high, step = float(slider.low), float(slider.high), float(slider.step)
            start = float(cast(float, slider.default))
            other = start + step if start + step <= high else start - step
            targets.append((spec.url_path, section.title, slider.key, (start, max(low, other))))
    return targets


def record(runs: list[RunResult], path: Path) -> None:
    """Write two moves' deltas (a session's :attr:`~bench.wsclient.RunResult.deltas`) to
    ``path``, as :mod:`bench.replay_app` reads them."""
    moves = [
        [[list(where), base64.b64encode(raw).decode()] for where, raw in run.deltas] for run in runs
    ]
    path.write_text(json.dumps(moves))


async def _measure(
    app: str, baseline: str, replay: str, recordings: Path, moves: int, timeout: float
) -> list[SectionMove]:
    from bench.wsclient import Session

    results = []
    async with Session(baseline, random.Random(0)) as base_session:
        opened = await base_session.open("", timeout=timeout)
        base_errors = run_errors(opened, "baseline, open")
        key, base_values = _BASELINE
        for index, (page, title, slider, values) in enumerate(_targets()):
            result = SectionMove(page, title, slider, errors=list(base_errors))
            base_errors = []
            where = f"/{page}?sec={title}"
            async with (
                Session(app, random.Random(1)) as session,
                Session(replay, random.Random(2)) as floor_session,
            ):
                run = await session.open(page, f"sec={quote(title)}", timeout=timeout)
                result.errors += run_errors(run, f"{where}, open")
                for cold in (values[1], values[0]):  # both values cached: a section that
                    # computes shows its progress on a cold move, not on the warm ones timed
                    run = await session.slide(slider, cold, timeout)
                    result.errors += run_errors(run, f"{where}, warm-up move")
                warm_ups = []
                session.keep_deltas = True  # the warm moves recorded: not the timed ones
                for warm in (values[1], values[0]):
                    run = await session.slide(slider, warm, timeout)
                    result.errors += run_errors(run, f"{where}, warm-up move")
                    warm_ups.append(run)
                session.keep_deltas = False
                record(warm_ups, recordings / f"{index}.json")
                run = await floor_session.open("", f"s={index}", timeout=timeout)
                result.errors += run_errors(run, f"{where}, re-sent, open")
                for index_move in range(moves):
                    base_run = await base_session.slide(
                        key, base_values[1 - index_move % 2], timeout
                    )
                    result.baseline.append(base_run.seconds)
                    result.errors += run_errors(base_run, "baseline, move")
                    run = await session.slide(slider, values[1 - index_move % 2], timeout)
                    result.seconds.append(run.seconds)
                    result.fragment_runs += run.fragment
                    result.elements.append(run.elements)
                    result.errors += run_errors(run, f"{where}, move {slider}")
                    floor_run = await floor_session.slide(  # from its default, as the baseline
                        MOVE_KEY, base_values[1 - index_move % 2], timeout
                    )
                    result.floor.append(floor_run.seconds)
                    result.floor_elements.append(floor_run.elements)
                    result.errors += run_errors(floor_run, f"{where}, re-sent move")
            results.append(result)
    return results


def run_fragments(moves: int = 15, timeout: float = 60.0) -> list[SectionMove]:
    """Start the app's and the baseline's servers, time every section's moves, stop them."""
    if not 1 <= moves <= _MAX_MOVES:
        raise ValueError(f"moves must be in 1..{_MAX_MOVES} (got {moves})")
    with (
        tempfile.TemporaryDirectory(prefix="cubelab-replay-") as folder,
        streamlit_servers(1) as app_servers,
        streamlit_servers(1, script="bench/baseline_app.py") as baseline_servers,
        streamlit_servers(
            1, script="bench/replay_app.py", env={RECORDING: folder}
        ) as replay_servers,
    ):
        app, baseline, replay = (s[0][0] for s in (app_servers, baseline_servers, replay_servers))
        return asyncio.run(_measure(app, baseline, replay, Path(folder), moves, timeout))


def fragments_table(results: list[SectionMove]) -> str:
    """One row per section: medians, ratio against the target, fragment runs, errors."""
    rows = []
    for r in results:
        ratio = r.ratio
        verdict = "met" if ratio <= RATIO_TARGET else "MISS"
        rows.append(
            [
                f"/{r.page}",
                r.section,
                r.key,
                ms(median(r.baseline)) if r.baseline else "-",
                ms(median(r.seconds)) if r.seconds else "-",
                f"{ratio:.2f}x {verdict}",
                f"{ms(median(r.floor))} ({r.floor_ratio:.2f}x)" if r.floor else "-",
                f"{r.fragment_runs} of {len(r.seconds)}",
                f"{median([float(e) for e in r.elements]):.0f}" if r.elements else "-",
                str(len(r.errors)),
            ]
        )
    header = [
        "page",
        "section",
        "slider",
        "baseline move",
        "section move",
        f"ratio (target <= {RATIO_TARGET}x)",
        "the same move re-sent, not built (ratio)",
        "fragment runs",
        "elements sent",
        "errors",
    ]
    return markdown_table(header, rows)
