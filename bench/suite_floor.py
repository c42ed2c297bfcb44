"""The least CPU that `make test` needs on this machine for the browser checks it must make.

Issue #17 asks for `make test` in 5 minutes on 2 cores: 600 core-seconds at most, every
test included. The acceptance lists of the issues already resolved require browser
checks on every page (Playwright driving Debian's Chromium against a real server), and
each check needs Chromium to load and draw a page of the app, or to draw it again after
a click. That work has a cost no test can avoid. This command measures those unit costs
in one run, multiplies them by the least count of each that the acceptance lists ask for
(:data:`REQUIRED`; every saving a test could make is granted there), and adds the steps
of `make test` before its first test and each pytest worker's server and browser.

It prints the unit costs, the required work, and the floor: the core-seconds of all that,
the wall time on this machine's cores if the CPU were packed perfectly, what would be
left of 5 minutes for every other test (the AppTests, the unit and property tests, the
store on a real PostgreSQL, the benches' smoke tests), and the cores that 5 minutes
would need; with ``--others``, beside what those other tests take today.

CPU is the whole machine's busy time (``/proc/stat``: Chromium's processes, the app
server, Playwright's driver, this process), so the machine must be otherwise idle; the
header line gives the load average at the start. Bounded: every wait has a timeout, the
server and the browser are stopped when the command ends, and only 127.0.0.1 is touched.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.browser import CHROMIUM_ARGS, SETTLED, after_a_run, chromium_path, go_to, keep_stream
from bench.server import ROOT, streamlit_servers
from bench.stats import markdown_table, median
from ui.pages import PAGES, PageSpec

#: The 5 minutes of issue #17, in seconds.
TARGET_SECONDS = 300.0
#: The pytest-xdist workers of ``make test`` (pyproject.toml's ``addopts``), each with its
#: own app server and Chromium (tests/conftest.py).
WORKERS = 2
#: The longest any one wait of this command may take (ms).
PATIENCE_MS = 120_000

#: The three views the acceptance lists open: a laptop at 1280x720 (issue #19), the same
#: screen in presenter mode (issue #20), a phone at 390x844 (issue #20).
VIEWS: dict[str, tuple[str, dict[str, int]]] = {
    "laptop": ("", {"width": 1280, "height": 720}),
    "presenter": ("present=true", {"width": 1280, "height": 720}),
    "phone": ("", {"width": 390, "height": 844}),
}
#: What a test does inside a loaded page, each a run of the app and a new drawing:
#: open another section by its tab, click a preset, follow the sidebar's link to a page.
ACTIONS = ("tab", "preset", "link")


@dataclass(frozen=True)
class Need:
    """One check an acceptance list requires: how many of one unit of work it takes on
    a page (``count``), the unit being a fresh load in a view of :data:`VIEWS` or an
    action of :data:`ACTIONS`."""

    issue: int
    check: str
    unit: str
    count: Callable[[PageSpec], int]


def _has_slider(spec: PageSpec) -> bool:
    return any(control.is_slider for control in spec.controls)


def _has_presets(spec: PageSpec) -> bool:
    declared = spec.page
    return declared is not None and bool(
        declared.presets or any(section.presets for section in declared.sections)
    )


def _sections(spec: PageSpec) -> int:
    return 0 if spec.page is None else len(spec.page.sections)


def _overview_links(spec: PageSpec) -> int:
    if not spec.default:
        return 0
    from ui.home.content import OVERVIEW

    return sum(len(card.links) for card in OVERVIEW)


def _on(url_path: str, count: int) -> Callable[[PageSpec], int]:
    return lambda spec: count if spec.url_path == url_path else 0


#: The least work the acceptance lists require, page by page. Each line grants the
#: saving a test could make: one loaded page carries every check that does not need a
#: fresh one (issue #19's presets, round trip and keyboard move in one journey that
#: starts on a bad link; #20's contrast by switching the theme in place, counted as a
#: tab; #2-#7's page tests and #13's upload inside those journeys). Not counted, also in
#: the target's favour: waits, screenshots, reading the page, #17's own stress test (a
#: browser test beside a CPU hog), the drills' answers and the classroom's other clicks.
REQUIRED: tuple[Need, ...] = (
    Need(
        19,
        "a journey's first view (a bad link: its notice on the first screen)",
        "laptop",
        lambda spec: 1,
    ),
    Need(
        19,
        "a fresh context after each of two presets in a row",
        "laptop",
        lambda spec: 2 if _has_presets(spec) else 0,
    ),
    Need(19, "two presets in a row", "preset", lambda spec: 2 if _has_presets(spec) else 0),
    Need(19, "a page round trip: two sidebar links", "link", lambda spec: 2),
    Need(19, "a fresh context after the round trip", "laptop", lambda spec: 1),
    Need(
        19,
        "a keyboard move to a slider's minimum (a run, as a preset's)",
        "preset",
        lambda spec: 1 if _has_slider(spec) else 0,
    ),
    Need(
        19,
        "a fresh context after the keyboard move",
        "laptop",
        lambda spec: 1 if _has_slider(spec) else 0,
    ),
    Need(20, "presenter mode: the first section", "presenter", lambda spec: 1),
    Need(
        20,
        "presenter mode: every other section, by its tab",
        "tab",
        lambda spec: max(_sections(spec) - 1, 0),
    ),
    Need(
        20,
        "presenter mode: five presets with the sidebar open",
        "preset",
        lambda spec: 5 if _has_presets(spec) else 0,
    ),
    Need(
        20,
        "chart text contrast in light and in dark (the view drawn once per theme)",
        "tab",
        lambda spec: 2,
    ),
    Need(20, "a phone's first load", "phone", lambda spec: 1),
    Need(8, "each overview link followed from the home page", "link", _overview_links),
    Need(13, "a match equity table uploaded", "preset", _on("match", 1)),
    Need(16, "the same quiz link in a second browser", "laptop", _on("drills", 1)),
    Need(16, "a presenter and two students: the two other browsers", "laptop", _on("classroom", 2)),
)


@dataclass(frozen=True)
class UnitCosts:
    """Measured core-seconds (whole machine) and wall seconds, medians.

    ``loads[(url_path, view)]`` a fresh context's first load of a page, ``actions[kind]``
    an action inside a loaded page, ``steps[name]`` a step of `make test` before its first
    test, ``worker`` one pytest worker's app server (started, first page drawn) and
    Chromium (launched), ``others`` every test that is not a browser check, as the suite
    has them today (None when not measured)."""

    loads: dict[tuple[str, str], tuple[float, float]]
    actions: dict[str, tuple[float, float]]
    steps: dict[str, tuple[float, float]]
    worker: tuple[float, float]
    others: tuple[float, float] | None = None


@dataclass(frozen=True)
class Floor:
    """The floor of `make test` from :class:`UnitCosts` and :data:`REQUIRED`."""

    needs: tuple[tuple[Need, int, float], ...]  # (need, count over the pages, core-seconds)
    steps: float
    workers: float
    cores: int
    others: float | None = None  # every test that is not a browser check, today

    @property
    def browser(self) -> float:
        return sum(core_seconds for _, _, core_seconds in self.needs)

    @property
    def total(self) -> float:
        return self.steps + self.workers + self.browser

    @property
    def packed_seconds(self) -> float:
        """Wall time if the work filled every core from start to end."""
        return self.total / self.cores

    @property
    def left(self) -> float:
        """Core-seconds of the 5 minutes left for every other test (negative: over)."""
        return TARGET_SECONDS * self.cores - self.total

    @property
    def cores_for_target(self) -> int:
        """The cores on which the floor fits in 5 minutes, packed perfectly, with every
        other test as the suite has them today (:attr:`others`), or with none when they
        were not measured."""
        return math.ceil((self.total + (self.others or 0.0)) / TARGET_SECONDS)


def floor_of(
    costs: UnitCosts, specs: Sequence[PageSpec], cores: int, workers: int = WORKERS
) -> Floor:
    """The floor of `make test` on ``cores`` cores: the required work of :data:`REQUIRED`
    over ``specs`` at the measured unit costs, the steps before the first test, and
    ``workers`` pytest workers' server and browser.

    A page's fresh load costs what that page measured; an action costs the median over
    the measured pages. Raises ``ValueError`` naming ``cores`` or ``workers`` when not
    positive, or ``costs`` when a page of ``specs`` has no measured load.
    """
    if cores < 1:
        raise ValueError(f"cores must be at least 1, not {cores}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    needs = []
    for need in REQUIRED:
        count = 0
        core_seconds = 0.0
        for spec in specs:
            n = need.count(spec)
            if n == 0:
                continue
            if need.unit in VIEWS:
                if (spec.url_path, need.unit) not in costs.loads:
                    raise ValueError(f"costs has no {need.unit} load of /{spec.url_path}")
                unit = costs.loads[(spec.url_path, need.unit)][0]
            else:
                unit = costs.actions[need.unit][0]
            count += n
            core_seconds += n * unit
        needs.append((need, count, core_seconds))
    steps = sum(core_seconds for core_seconds, _ in costs.steps.values())
    others = None if costs.others is None else costs.others[0]
    return Floor(tuple(needs), steps, workers * costs.worker[0], cores, others)


# --- measuring -----------------------------------------------------------------------


def busy_core_seconds() -> float:
    """The whole machine's busy CPU time so far (``/proc/stat``, all cores), seconds."""
    with open("/proc/stat", encoding="ascii") as handle:
        fields = [int(v) for v in handle.readline().split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields) - idle) / os.sysconf("SC_CLK_TCK")


@contextmanager
def _spent(into: list[tuple[float, float]]) -> Iterator[None]:
    """Append (core-seconds of the whole machine, wall seconds) of the block to ``into``."""
    cpu, wall = busy_core_seconds(), time.monotonic()
    yield
    into.append((busy_core_seconds() - cpu, time.monotonic() - wall))


def _medians(samples: Sequence[tuple[float, float]]) -> tuple[float, float]:
    return median([c for c, _ in samples]), median([w for _, w in samples])


def _step_commands(scratch: Path) -> dict[str, tuple[list[str], tuple[int, ...]]]:
    """Each step of `make test` before its first test as a fresh clone runs it, with the
    exit statuses that mean it did its work (pytest's "no tests ran" is 5)."""
    python = sys.executable
    return {
        "a new virtual environment from requirements-dev.lock": (
            ["env", f"VENV={scratch / 'venv'}", "scripts/ensure-venv.sh", "requirements-dev.lock"],
            (0,),
        ),
        "ruff check and format, no cache": (
            [
                "sh",
                "-c",
                f"{python} -m ruff check --no-cache . >/dev/null && "
                f"{python} -m ruff format --check --no-cache . >/dev/null",
            ],
            (0,),
        ),
        "mypy, cold cache": ([python, "-m", "mypy", "--cache-dir", str(scratch / "mypy")], (0,)),
        "pytest's start and collection on its workers": (
            [python, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-k", "not_a_test_name"],
            (5,),
        ),
    }


def _measured_run(
    name: str, command: list[str], done: tuple[int, ...], timeout: float
) -> tuple[float, float]:
    """Core-seconds and wall seconds of ``command`` run in the project's folder; an exit
    status not in ``done`` raises ``RuntimeError`` naming the step and the end of its output."""
    samples: list[tuple[float, float]] = []
    with _spent(samples):
        finished = subprocess.run(
            command, cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False
        )
    if finished.returncode not in done:
        tail = (finished.stdout + finished.stderr)[-800:]
        raise RuntimeError(f"{name}: exit status {finished.returncode}\n{tail}")
    return samples[0]


def measure_steps(timeout: float = 600.0) -> dict[str, tuple[float, float]]:
    """Core-seconds and wall seconds of each step of `make test` before its first test
    (:func:`_step_commands`); a step that fails raises ``RuntimeError``."""
    with tempfile.TemporaryDirectory(prefix="cubelab-floor-") as scratch:
        return {
            name: _measured_run(name, command, done, timeout)
            for name, (command, done) in _step_commands(Path(scratch)).items()
        }


def measure_others(timeout: float = 1800.0) -> tuple[float, float]:
    """Core-seconds and wall seconds of every test that is not a browser check, as
    `make test` runs them (``pytest -m "not browser"``, its workers included); a failing
    test raises ``RuntimeError``."""
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-m", "not browser"]
    return _measured_run("the tests that are not browser checks", command, (0,), timeout)


def _load(browser: Any, base: str, spec: PageSpec, view: str) -> Any:
    query, viewport = VIEWS[view]
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(PATIENCE_MS)
    page = context.new_page()
    keep_stream(page)
    page.goto(f"{base}/{spec.link_path}{'?' + query if query else ''}")
    page.wait_for_function(SETTLED, timeout=PATIENCE_MS)
    return context, page


def _actions_on(
    page: Any,
    specs: Sequence[PageSpec],
    spec: PageSpec,
    found: dict[str, list[tuple[float, float]]],
) -> None:
    """On ``page`` (``spec`` loaded): each other section's tab, up to two presets of the
    open section, and a sidebar link to another page and back."""
    declared = spec.page
    assert declared is not None
    for section in declared.sections[1:]:
        with _spent(found["tab"]):
            after_a_run(
                page, page.get_by_role("tab", name=section.title, exact=True).click, PATIENCE_MS
            )
    last = declared.sections[-1]
    for label in list({**declared.presets, **last.presets})[:2]:
        with _spent(found["preset"]):
            after_a_run(page, page.get_by_role("button", name=label, exact=True).click, PATIENCE_MS)
    other = next((s for s in specs if s is not spec), None) or next(
        s for s in PAGES if s is not spec
    )
    for target in (other, spec):
        with _spent(found["link"]):
            go_to(page, target, PATIENCE_MS)


def measure_browser(
    specs: Sequence[PageSpec], loads: int
) -> tuple[
    dict[tuple[str, str], tuple[float, float]], dict[str, tuple[float, float]], tuple[float, float]
]:
    """Fresh loads (``loads`` of each page in each view), the actions (on each page's
    first laptop load), and a worker's start (its server healthy, Chromium launched, a
    first page drawn, as tests/conftest.py's fixtures do).

    Raises ``RuntimeError`` when Debian's Chromium is not installed."""
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    if executable is None:
        raise RuntimeError("Debian's chromium is not installed: run scripts/ensure-system.sh")
    started: list[tuple[float, float]] = []
    load_samples: dict[tuple[str, str], list[tuple[float, float]]] = {}
    action_samples: dict[str, list[tuple[float, float]]] = {kind: [] for kind in ACTIONS}
    with ExitStack() as stack:
        with _spent(started):
            ((base, _),) = stack.enter_context(streamlit_servers(1))
            playwright = stack.enter_context(sync_playwright())
            browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            stack.callback(browser.close)
            context, _ = _load(browser, base, specs[0], "laptop")
            context.close()
        for _ in range(loads):
            for spec in specs:
                for view in VIEWS:
                    samples = load_samples.setdefault((spec.url_path, view), [])
                    with _spent(samples):
                        context, page = _load(browser, base, spec, view)
                    if view == "laptop" and len(samples) == 1:
                        _actions_on(page, specs, spec, action_samples)
                    context.close()
    return (
        {key: _medians(samples) for key, samples in load_samples.items()},
        {kind: _medians(samples) for kind, samples in action_samples.items()},
        started[0],
    )


def run_floor(
    loads: int = 3, pages: Sequence[str] | None = None, steps: bool = True, others: bool = False
) -> tuple[UnitCosts, Floor]:
    """Measure the unit costs (``loads`` fresh loads of each page in each view; the steps
    before the first test unless ``steps`` is false; every test that is not a browser
    check if ``others``) and the floor on this machine's cores, over ``pages`` (url
    paths; all registered pages when None).

    Raises ``ValueError`` naming ``loads`` (below 1) or ``pages`` (an unknown url path)."""
    if loads < 1:
        raise ValueError(f"loads must be at least 1, not {loads}")
    known = {spec.url_path: spec for spec in PAGES if spec.page is not None}
    unknown = sorted(set(pages or ()) - set(known))
    if unknown:
        raise ValueError(f"pages: unknown {unknown}; known: {sorted(known)}")
    specs = [known[name] for name in pages] if pages else list(known.values())
    measured_steps = measure_steps() if steps else {}
    measured_others = measure_others() if others else None
    load_costs, action_costs, worker = measure_browser(specs, loads)
    costs = UnitCosts(load_costs, action_costs, measured_steps, worker, measured_others)
    return costs, floor_of(costs, specs, os.cpu_count() or 1)


def _f(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.1f}"


def costs_tables(costs: UnitCosts) -> str:
    """The unit costs as markdown: loads by page and view, actions, steps, a worker."""
    paths = list(dict.fromkeys(path for path, _ in costs.loads))
    header = ["page", *(f"{view} load: core-s (wall s)" for view in VIEWS)]
    rows = [
        [
            f"/{path}",
            *(
                f"{_f(costs.loads[(path, view)][0])} ({_f(costs.loads[(path, view)][1])})"
                for view in VIEWS
            ),
        ]
        for path in paths
    ]
    what = {
        "tab": "another section opened by its tab",
        "preset": "a preset clicked",
        "link": "the sidebar's link to a page followed",
    }
    other = [[what[kind], _f(c), _f(w)] for kind, (c, w) in costs.actions.items()]
    other += [[name, _f(c), _f(w)] for name, (c, w) in costs.steps.items()]
    other.append(["a pytest worker's app server and Chromium, started", *map(_f, costs.worker)])
    if costs.others is not None:
        other.append(
            [
                'every test that is not a browser check (`pytest -m "not browser"`)',
                *map(_f, costs.others),
            ]
        )
    return (
        markdown_table(header, rows)
        + "\n\n"
        + markdown_table(["unit of work", "core-s", "wall s"], other)
    )


def floor_tables(floor: Floor) -> str:
    """The required work and the floor's summary as markdown."""
    rows = [
        [f"#{need.issue}", need.check, count, _f(core_seconds)]
        for need, count, core_seconds in floor.needs
    ]
    budget = TARGET_SECONDS * floor.cores
    summary: list[list[object]] = [
        ["the steps before the first test", _f(floor.steps)],
        [f"{WORKERS} pytest workers' app server and Chromium", _f(floor.workers)],
        ["the browser checks the acceptance lists require", _f(floor.browser)],
        ["all of it", _f(floor.total)],
        [
            f"its wall time on {floor.cores} cores, packed perfectly",
            f"{floor.packed_seconds:.0f} s",
        ],
        [
            f"left of 5 minutes on {floor.cores} cores ({budget:.0f} core-s) for every other test",
            _f(floor.left) if floor.left >= 0 else f"none: over by {_f(-floor.left)}",
        ],
    ]
    if floor.others is None:
        summary.append(
            [
                "cores on which the floor fits in 5 minutes with no other test",
                floor.cores_for_target,
            ]
        )
    else:
        both = floor.total + floor.others
        summary += [
            ["the floor and every other test as the suite has them today", _f(both)],
            [
                f"their wall time on {floor.cores} cores, packed perfectly",
                f"{both / floor.cores:.0f} s",
            ],
            ["cores on which they fit in 5 minutes", floor.cores_for_target],
        ]
    return (
        markdown_table(["issue", "required check", "count", "core-s"], rows)
        + "\n\n"
        + markdown_table(["floor of `make test`", "core-s"], summary)
    )
