"""The benchmark package imports and its cheap parts run once (no timing assertions)."""

import importlib
import math
import re
from dataclasses import replace

import pytest

from bench import (
    abuse,
    caches,
    coldstart,
    fragments,
    kernels,
    load,
    machine,
    page_worker,
    pages,
    stats,
    stress,
)
from bench.wsclient import RunResult
from tests.threads import off_loop


@pytest.mark.parametrize(
    "module",
    [
        "bench.__main__",
        "bench.abuse",
        "bench.coldstart",
        "bench.fragments",
        "bench.rollout",
        "bench.scale",
        "bench.server",
        "bench.stress",
        "bench.suite_floor",
        "bench.wsclient",
    ],
)
def test_modules_import(module):
    assert importlib.import_module(module).__doc__


def test_machine_line_names_the_machine():
    line = machine.describe()
    assert "nproc" in line and "streamlit" in line


def test_stats_and_table():
    assert stats.percentile([1, 2, 3, 4], 50) == 2
    assert stats.median([3, 1, 2]) == 2
    assert stats.markdown_table(["a"], [[1]]).splitlines()[2] == "| 1 |"


def test_every_cache_is_bounded():
    rows = caches.audit()
    assert rows and all(row[-1] == "ok" for row in rows), [r for r in rows if r[-1] != "ok"]


def test_one_kernel_pass():
    results = kernels.measure_kernels(repeats=1)
    assert kernels.kernels_table(results).count("\n") == len(results) + 1


@pytest.mark.parametrize("target", ["baseline", "floor"])
def test_page_worker_one_iteration(target):
    """The yardstick scripts (run as scripts, never imported) run clean once each."""
    result = page_worker.measure(target, warm=1, moves=1, cold_caches=1, seed=0)
    assert not result["exceptions"] and len(result["warm"]) == 1
    # baseline: root, main, sidebar, slider, chart (and an event block); floor: 60 more
    assert result["elements"] >= (60 if target == "floor" else 4)


def test_pages_table_names_the_yardsticks():
    timings = [
        pages.PageTiming(target, 0.1, 0.1, 0.01, 0.01, elements, ())
        for target, elements in (("baseline", 6), ("floor", 66), ("pages/home.py", 60))
    ]
    table = pages.pages_table(timings)
    assert "baseline (1 slider + 1 chart)" in table and "60 captions" in table
    assert "| pages/home.py | 60 | 10 ms | 1.0x |" in table


def test_load_refuses_other_hosts():
    with pytest.raises(ValueError, match=r"127\.0\.0\.1"):
        load.run_load("http://example.com", [], sessions=1, seconds=1)


def test_abuse_bench_runs_and_reports():
    """Two tiny runs (2 normal sessions, 3 s, 16 KiB links): it runs and reports each part;
    each hostile client tries at least once however short the run (a loaded machine)."""
    runs = off_loop(
        abuse.run_abuse, sessions=2, seconds=3, link_kib=16, rerun_timeout=30, warm=False
    )
    assert [run.hostile for run in runs] == [False, True]
    quiet, loud = runs
    assert len(quiet.load.latencies["open"]) == len(loud.load.latencies["open"]) == 2
    assert quiet.counts == abuse.HostileCounts()
    assert loud.counts.worst_links >= 1 and loud.counts.clear_cache >= 1
    assert loud.counts.long_links >= 1
    # issue #38's three attacks: each tried at least once and counted
    memory = loud.counts.memory
    assert memory is not None and memory.opened + memory.refused >= 1
    assert loud.counts.compare_runs >= 1
    assert loud.counts.rooms + loud.counts.flood_refused >= 1
    assert loud.peak_rss > 0
    limit = abuse.memory_limit_mib()
    table = abuse.abuse_table(runs, limit)
    assert "| with hostile |" in table and "| without |" in table
    assert "p95 ratio" in table and f"(limit MemoryMax {limit:.0f} MiB)" in table


def test_the_compare_attacks_table_is_a_valid_one_away_table():
    from cubecore import met_io

    table = met_io.read_table(abuse.ONE_AWAY_CSV.decode(), "one_away.csv")
    assert table.length == 1 and table.post_length == 1


def test_abuse_reads_the_units_memory_limit(tmp_path):
    unit = tmp_path / "x.service"
    unit.write_text("[Service]\nMemoryMax=750M\n")
    assert abuse.memory_limit_mib(unit) == 750
    unit.write_text("[Service]\nMemoryHigh=750M\n")
    with pytest.raises(ValueError, match="MemoryMax"):
        abuse.memory_limit_mib(unit)


def test_coldstart_bench_runs_and_reports():
    """One round of each start, 3 sessions at once: both rows carry numbers, no errors."""
    rounds = off_loop(coldstart.run_coldstart, sessions=3, rounds=1)
    assert [r.plain for r in rounds] == [False, True]  # launcher first, then plain
    for r in rounds:
        assert len(r.firsts) == 3 and r.errors == ()
        assert r.healthy > 0 and r.rss > 0
    table = coldstart.coldstart_table(rounds)
    for start in ("launcher", "plain"):
        row = next(line for line in table.splitlines() if line.startswith(f"| {start} |"))
        # rounds, sessions, healthy, p50, p95, max, errors, RSS, verdict
        assert re.fullmatch(
            rf"\| {start} \| 1 \| 3 \| (\d+ ms \| ){{4}}0 \| \d+ \| (met|MISS) \|", row
        )
    assert re.search(r"plain p95 / launcher p95 \(same run\): \d+\.\d\dx", table)


@pytest.mark.parametrize(
    ("arguments", "named"),
    [({"sessions": 0}, "sessions"), ({"rounds": 21}, "rounds"), ({"open_timeout": 0}, "timeout")],
)
def test_coldstart_refuses_bad_parameters(arguments, named):
    with pytest.raises(ValueError, match=named):
        coldstart.run_coldstart(**arguments)


@pytest.mark.browser  # it runs a browser test in Chromium: not a check without one
def test_stress_bench_runs_a_browser_test_beside_a_hog_and_reports(tmp_path):
    """One run of one browser test beside one busy process: a row that passed, a total,
    and the run's whole output kept in its log."""
    (run,) = stress.run_browser_tests(
        runs=1,
        hogs=1,
        extra=("-k", "test_janowski_section_tab_is_in_the_link", "-n", "0"),
        logs=tmp_path,  # not over a real bench's logs in test-artifacts/
    )
    assert (run.passed, run.failed, run.errors, run.timed_out) == (1, 0, 0, False), run
    assert run.log == tmp_path / "stress-run-1.log"
    assert re.search(r"^1 passed", run.log.read_text(), re.MULTILINE), run.log.read_text()
    table = stress.stress_table([run])
    assert re.search(r"^\| 1 \| 1 \| 0 \| 0 \| \d+ s \| - \|$", table, re.MULTILINE), table
    assert table.endswith("runs with every browser test passing: 1 of 1")


def test_a_hog_spins_and_stops():
    with stress.hogging(1, 60) as pids:
        (pid,) = pids
        # in its busy loop once yielded: running or waiting for a core, never sleeping
        # (before, a hog still starting Python could be read in "D", waiting on the disk)
        assert machine_process_state(pid) == "R"
    assert machine_process_state(pid) in {"", "Z", "X"}, "the hog outlived its block"


def machine_process_state(pid: int) -> str:
    """The state letter of ``pid`` from /proc (empty once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return ""


@pytest.mark.parametrize(
    ("arguments", "named"),
    [({"runs": 0}, "runs"), ({"run_timeout": 0}, "run_timeout"), ({"hogs": -1}, "hogs")],
)
def test_stress_refuses_bad_parameters(arguments, named):
    with pytest.raises(ValueError, match=named):
        stress.run_browser_tests(**arguments)


def test_the_load_mix_names_each_moves_scope():
    """Every registered page's controls have a scope, and the mix line gives shares."""
    from ui.pages import PAGES

    scopes = load._scopes()
    assert set(scopes) == {spec.url_path for spec in PAGES}
    assert scopes["race"]["sec"] == "section tab"
    assert set(scopes["match"].values()) == {"section tab", "page-wide", "one section"}
    result = load.LoadResult(sessions=1, seconds=1.0, think=1.0)
    result.mix = {"one section": 3, "page switch": 1}
    assert load.mix_line(result) == "mix of 4 reruns: one section 75%, page switch 25%"
    # a section's own control: its fragment reran (the open section) or the page did (a
    # closed section's panel in the sidebar)
    moved = load.LoadResult(sessions=1, seconds=1.0, think=1.0)
    for fragment in (True, True, False):
        load._record(moved, "move", RunResult(0.1, moved="tk", fragment=fragment), 0, "match")
    assert moved.mix == {"open section": 2, "a closed section's panel": 1}


def test_the_load_reads_the_page_registry_before_its_sessions_start(monkeypatch):
    """Importing every page's code takes seconds; done inside the client's event loop at
    the first move, it stalled every session's rerun in flight (counted as latency)."""
    import asyncio

    load._scopes.cache_clear()
    seen = []

    async def session(*args, **kwargs):
        seen.append(load._scopes.cache_info().currsize)

    monkeypatch.setattr(load, "_one_session", session)
    # off the loop a browser test's Playwright leaves running in this worker's thread
    off_loop(asyncio.run, load.run_sessions("http://127.0.0.1:1", [], 2, 0.1, 0.1, 1.0, False))
    assert seen == [1, 1]


def test_fragments_bench_moves_every_section_s_own_slider_in_its_fragment():
    """One timed move per section over three real servers: each reran its fragment alone,
    and the third server sent the section's recorded move again (bench/replay_app.py:
    the recorded deltas, its own slider and its fragment's container; a section's
    transient delta, a spinner's, is not sent again)."""
    results = off_loop(fragments.run_fragments, moves=1)
    from ui.pages import PAGES

    owners = {
        (spec.url_path, section.title)
        for spec in PAGES
        if spec.page is not None
        for section in spec.page.sections
        if any(c.is_slider for c in section.controls)
    }
    assert {(r.page, r.section) for r in results} == owners
    for r in results:
        assert r.errors == [] and r.fragment_runs == 1, (r.page, r.section, r.errors)
        assert len(r.seconds) == len(r.baseline) == len(r.floor) == 1 and r.ratio > 0
        assert r.floor_ratio > 0, (r.page, r.section)
        assert r.elements[0] + 1 <= r.floor_elements[0] <= r.elements[0] + 2, (r.page, r.section)
    assert sum(r.floor_elements[0] == r.elements[0] + 2 for r in results) >= len(results) - 1
    table = fragments.fragments_table(results)
    assert table.count("\n") == len(results) + 1
    assert all(re.search(r"\| 1 of 1 \| \d+ \| 0 \|$", row) for row in table.splitlines()[2:])


@pytest.mark.parametrize("moves", [0, 201])
def test_fragments_bench_refuses_bad_parameters(moves):
    with pytest.raises(ValueError, match="moves"):
        fragments.run_fragments(moves)


def test_the_soak_verdict_compares_the_last_minute_with_the_second():
    def soak(second: float, last: float) -> load.LoadResult:
        samples = [(t, 300.0) for t in range(0, 60, 10)]
        samples += [(t, second) for t in range(60, 120, 10)]
        samples += [(t, 350.0) for t in range(120, 240, 10)]
        samples += [(t, last) for t in range(240, 301, 10)]
        return load.LoadResult(sessions=30, seconds=300, think=1.0, rss=samples)

    flat = load.soak_growth(soak(500.0, 540.0))
    assert flat is not None and "+8.0%" in flat and flat.endswith("met)")
    grown = load.soak_growth(soak(500.0, 560.0))
    assert grown is not None and "+12.0%" in grown and grown.endswith("MISS)")
    assert load.soak_growth(load.LoadResult(sessions=30, seconds=60, think=1.0)) is None


def test_the_soak_reports_what_of_the_rss_the_server_s_caches_hold():
    """The timeline: the largest RSS in each window with the worker and without it, and
    the caches' last reading in it; the verdict line adds the caches' growth from the
    second minute's end to the last reading."""
    samples = [(float(t), 500.0 if t <= 240 else 530.0) for t in range(0, 301)]
    result = load.LoadResult(sessions=30, seconds=300, think=1.0, rss=samples)
    result.alone = [(t, value - 200.0) for t, value in samples]
    result.caches = [(0.0, 1.0), (30.0, 20.0), (119.0, 40.0), (150.0, 45.0), (290.0, 61.5)]
    result.caches.append((300.5, 62.0))  # the sampler's last reading, after the last RSS
    rows = load.rss_timeline(result, every=60.0).splitlines()
    assert rows[0] == (
        "| until | server RSS MiB, with its worker (max in window) | without it "
        "| the server's st.cache_data, MiB (last reading) |"
    )
    assert rows[2:] == [
        "| 60 s | 500 | 300 | 20.0 |",
        "| 120 s | 500 | 300 | 40.0 |",
        "| 180 s | 500 | 300 | 45.0 |",
        "| 240 s | 500 | 300 | 45.0 |",
        "| 300 s | 530 | 330 | 61.5 |",
    ]
    ends = load.LoadResult(sessions=30, seconds=300, think=1.0, rss=[*samples, (300.4, 540.0)])
    ends.caches = result.caches
    assert (
        load.rss_timeline(ends, every=60.0).splitlines()[-1] == "| 300.4 s (end) | 540 | - | 62.0 |"
    )
    line = load.soak_growth(result)
    assert line is not None and "+6.0% (target <= +10%: met)" in line
    assert line.endswith(
        "40.0 MiB at the second minute's end and 62.0 MiB at the last reading (+22.0 MiB)"
    )
    result.caches_unread = ["at 30 s: timed out"]
    assert str(load.soak_growth(result)).endswith("1 cache readings failed (at 30 s: timed out)")
    # a run cut short ends its last window where it ended; without cache readings (a
    # proxy's URL) there is no caches column
    short = load.LoadResult(sessions=30, seconds=300, think=1.0, rss=samples[:100])
    assert load.rss_timeline(short, every=60.0).splitlines()[2:] == [
        "| 60 s | 500 | - |",
        "| 99.0 s (end) | 500 | - |",
    ]


def test_latency_by_minute_splits_the_reruns_by_when_they_ended():
    result = load.LoadResult(sessions=30, seconds=150, think=1.0)
    result.timeline = [(1.0, 0.9), (59.9, 0.1), (60.0, 0.3), (149.0, 0.05)]
    rows = load.latency_by_minute(result).splitlines()[2:]
    assert len(rows) == 3
    assert rows[0].startswith("| 0-60 s | 2 |")
    assert rows[1].startswith("| 60-120 s | 1 | 300 ms | 300 ms |")
    assert rows[2].startswith("| 120-180 s | 1 | 50 ms | 50 ms |")


def _flat_costs(specs, laptop=4.0, presenter=5.0, phone=6.0):
    from bench import suite_floor

    loads = {}
    for spec in specs:
        loads[(spec.url_path, "laptop")] = (laptop, 1.0)
        loads[(spec.url_path, "presenter")] = (presenter, 1.0)
        loads[(spec.url_path, "phone")] = (phone, 1.0)
    actions = {"tab": (1.0, 0.5), "preset": (0.5, 0.3), "link": (0.25, 0.2)}
    return suite_floor.UnitCosts(loads, actions, {"mypy": (30.0, 30.0)}, (10.0, 8.0))


def test_the_suite_floor_sums_the_required_checks_at_the_measured_costs():
    """Every page's phone load, every presenter tab and every overview link are counted
    once at their unit cost; the floor adds the steps and each worker's start, and the
    5 minutes' budget is the cores' 300 s each."""
    from bench import suite_floor
    from ui.home.content import OVERVIEW
    from ui.pages import PAGES

    specs = [spec for spec in PAGES if spec.page is not None]
    floor = suite_floor.floor_of(_flat_costs(specs), specs, cores=2)
    by_check = {need.check: (count, core_s) for need, count, core_s in floor.needs}
    assert by_check["a phone's first load"] == (len(specs), 6.0 * len(specs))
    tabs = sum(len(spec.page.sections) - 1 for spec in specs)
    assert by_check["presenter mode: every other section, by its tab"] == (tabs, 1.0 * tabs)
    links = sum(len(card.links) for card in OVERVIEW)
    assert by_check["each overview link followed from the home page"] == (links, 0.25 * links)
    assert floor.steps == 30.0 and floor.workers == 20.0
    assert floor.total == pytest.approx(50.0 + sum(c for _, c in by_check.values()))
    assert floor.packed_seconds == pytest.approx(floor.total / 2)
    assert floor.left == pytest.approx(600.0 - floor.total)
    assert floor.cores_for_target == math.ceil(floor.total / 300.0)
    table = suite_floor.floor_tables(floor)
    assert table.count("| #") == len(suite_floor.REQUIRED)
    assert "with no other test" in table
    today = suite_floor.floor_of(replace(_flat_costs(specs), others=(700.0, 350.0)), specs, 2)
    assert today.others == 700.0 and today.total == floor.total and today.left == floor.left
    assert today.cores_for_target == math.ceil((floor.total + 700.0) / 300.0)
    assert "every other test as the suite has them today" in suite_floor.floor_tables(today)


def test_the_suite_floor_refuses_bad_parameters():
    from bench import suite_floor
    from ui.pages import PAGES

    specs = [spec for spec in PAGES if spec.page is not None]
    costs = _flat_costs(specs[:1])
    for arguments, named in (
        ({"cores": 0}, "cores"),
        ({"cores": 2, "workers": 0}, "workers"),
        ({"cores": 2}, f"no laptop load of /{specs[1].url_path}"),
    ):
        with pytest.raises(ValueError, match=named):
            suite_floor.floor_of(costs, specs, **arguments)
    with pytest.raises(ValueError, match="loads"):
        suite_floor.run_floor(loads=0)
    with pytest.raises(ValueError, match="pages: unknown"):
        suite_floor.run_floor(loads=1, pages=["nowhere"])


def test_a_failing_step_before_the_tests_is_named(monkeypatch):
    from bench import suite_floor

    monkeypatch.setattr(
        suite_floor,
        "_step_commands",
        lambda scratch: {"passes": (["true"], (0,)), "fails here": (["false"], (0,))},
    )
    with pytest.raises(RuntimeError, match="fails here: exit status 1"):
        suite_floor.measure_steps()


@pytest.mark.browser
def test_the_suite_floor_measures_a_page_in_each_view_and_its_actions():
    """One page through Debian's Chromium against a real server: a fresh load in each
    view, its tabs, presets and sidebar links, each a positive cost."""
    from bench import suite_floor

    costs, floor = off_loop(suite_floor.run_floor, loads=1, pages=["classroom"], steps=False)
    assert set(costs.loads) == {("classroom", view) for view in suite_floor.VIEWS}
    assert all(core_s > 0 and wall > 0 for core_s, wall in costs.loads.values())
    assert all(core_s > 0 for core_s, _ in costs.actions.values()), costs.actions
    assert costs.worker[0] > 0 and floor.total > floor.workers > 0
    assert "/classroom" in suite_floor.costs_tables(costs)


def test_abuse_costs_are_shares_of_the_normal_sessions():
    costs = [
        abuse.AttackCost("idle", 0.01, 0.0, 20.0),
        abuse.AttackCost("normal", 0.2, 0.1, 21.0),
        abuse.AttackCost("memory", 0.05, 0.02, 20.0),
    ]
    rows = abuse.costs_table(costs).splitlines()[2:]
    assert rows[1].split("|")[4].strip() == "1.00" and rows[2].split("|")[4].strip() == "0.25"
    with pytest.raises(ValueError, match="only"):
        abuse.run_abuse(only="no such client")


def test_every_client_of_the_abuse_bench_has_a_proxy_address():
    assert abuse.normal_headers(0) != abuse.normal_headers(1) != abuse.HOSTILE_HEADERS
    assert abuse.HOSTILE_HEADERS["X-Real-IP"] == abuse.ATTACKER_ADDRESS
