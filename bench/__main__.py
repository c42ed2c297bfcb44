"""``python -m bench``: page and kernel benchmarks, load test, soak and scale-out.

Subcommands (default: ``all`` = pages + kernels):

- ``pages``: script time of every registered page vs the baseline page (AppTest).
- ``kernels``: absolute cold times of the compute kernels.
- ``load --sessions 30 --seconds 60``: concurrent websocket sessions against an app
  server (``python -m ui.serve``) this command starts on 127.0.0.1 (or ``--url`` of a
  running local server, ``--pid`` for its memory).
- ``soak --seconds 300``: the load test for longer, with server memory over time.
- ``caches``: every ``st.cache_data``/``st.cache_resource`` in ui/ and its bound.
- ``bearoff``: the bear-off database builds against gnubg's ``makebearoff`` (same run).
- ``engine --levels 1-ply 2-ply 3-ply rollout --repeats 3``: the position engine's
  (bgsage's) evaluation time per level beside its 1-ply on the same position.
- ``position --sessions 30 --seconds 60 --every 5``: the position page's engine levels,
  score matrix and verdict across levels timed beside the one-slider baseline page, then
  sessions each asking a 2-ply evaluation of a new position once per ~5 s on one
  process: p95 to the verdict and errors (``--page``/``--query``/``--settled``: the page,
  its link and the verdict's text; default the position page at 2-ply).
- ``abuse --sessions 30 --seconds 60``: the load test without and then with six
  hostile clients of one address (worst links, a ``clear_cache`` flood, 512 KiB links,
  15 MB text values, a 1-away table compared, a classroom flood), each on a fresh
  server; normal sessions' p95 ratio, their errors, peak RSS against the unit's limit.
  With ``--costs``: on one server, the server CPU of the normal sessions and of each
  hostile client alone.
- ``rollout --trials 1296 --batch 144``: one full rollout on a LocalCluster of 1 and of
  2 worker processes (rollouts.cluster): wall time, trials/s and their ratio;
  ``--scheduler tcp://host:port`` runs it on an existing cluster instead.
- ``scale``: 1 and 2 app processes behind nginx (deploy/nginx.conf.template), the
  load test at increasing session counts through the proxy.
- ``stress --runs 5 --hogs 2``: the browser tests (``pytest -m browser``) that many runs
  in a row beside processes spinning a core each (busy loops): each run's passed,
  failed, errors, wall time and failing tests (issue #17: they wait on conditions).
- ``fragments --moves 15``: for every section with a slider of its own, warm moves of
  that slider (its section reruns alone, a fragment) beside moves of the baseline
  page's slider, over the websockets of two real servers: medians, ratio (target 1.5x),
  the same move sent again without being built by a third server (its floor: what
  sending it costs), how many moves reran the fragment alone, elements sent, errors.
- ``coldstart --sessions 30 --rounds 3``: sessions opening pages of a freshly started
  server at the same moment, the launcher (``python -m ui.serve``) against ``streamlit
  run app.py``, interleaved round by round: time to healthy, p50/p95/max to the first
  complete page, errors, RSS, and the plain/launcher p95 ratio of the same run.
- ``suitefloor --loads 3 --others``: the least CPU `make test` needs for the browser
  checks the acceptance lists require (issue #17's 5 minutes on 2 cores): core-seconds
  of a fresh load of every page in each view and of an action in a page (Debian's
  Chromium against a real server), the steps before the first test, and their sum over
  the required checks against the 5 minutes this machine's cores give; with
  ``--others``, beside every test that is not a browser check as it is today.

Every command is bounded in time, stops by itself and touches only 127.0.0.1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bench import machine
from bench.server import ARTIFACTS

ROOT = Path(__file__).resolve().parents[1]


def _artifacts() -> Path | None:
    """Where a bench's servers write their logs: ``test-artifacts/`` when it exists."""
    return ARTIFACTS if ARTIFACTS.exists() else None


def _pages(args: argparse.Namespace) -> None:
    from bench.pages import measure_pages, pages_table

    timings = measure_pages(args.repeats, args.warm, args.moves, args.cold_caches)
    print("### Page script time (AppTest, in-process; medians)\n")
    print(pages_table(timings))
    for t in timings:
        for text in t.exceptions[:3]:
            print(f"- {t.target}: {text[:200]}")
    print()


def _kernels(args: argparse.Namespace) -> None:
    from bench.kernels import kernels_table, measure_kernels

    print("### Compute kernels (cold: lru caches cleared before each call)\n")
    print(kernels_table(measure_kernels(args.kernel_repeats)))
    print()


def _load(args: argparse.Namespace, title: str) -> None:
    from bench.load import (
        LoadResult,
        cache_memory,
        latency_by_minute,
        load_table,
        mix_line,
        per_page_table,
        print_errors,
        rss_timeline,
        run_load,
        soak_growth,
        warm_up,
    )
    from bench.server import streamlit_servers
    from bench.stats import markdown_table, ms

    def report(result: LoadResult) -> None:
        print(f"### {title}\n")
        print(load_table([result], "1" if not args.url else args.url))
        print(f"\n{mix_line(result)}")
        print("\nPer page (moves and switches):\n")
        print(per_page_table(result))
        print("\nBy minute (moves and switches):\n")
        print(latency_by_minute(result))
        print("\nServer memory over time:\n")
        print(rss_timeline(result, every=args.rss_every))
        if (growth := soak_growth(result)) is not None:
            print(f"\n{growth}")
        print_errors(result)

    def first_visits(base: str) -> None:
        first = warm_up(base)
        print("### Warm-up: first visit of each page on a fresh server (one session)\n")
        print(markdown_table(["page", "first run"], [[f"/{p}", ms(t)] for p, t in first.items()]))
        print()

    if args.url:
        report(run_load(args.url, args.pid or [], args.sessions, args.seconds, args.think))
        return
    log_dir = _artifacts()
    with streamlit_servers(1, log_dir=log_dir) as servers:
        base, pid = servers[0]
        if not args.no_warm_up:
            first_visits(base)
        report(run_load(base, [pid], args.sessions, args.seconds, args.think, caches=True))
        print("\nCache memory at the end (/_stcore/metrics; it counts st.cache_resource as 0):\n")
        print(cache_memory(base))


def _abuse(args: argparse.Namespace) -> None:
    from bench.abuse import (
        SETUP,
        attack_costs,
        costs_table,
        memory_limit_mib,
        print_abuse,
        run_abuse,
    )

    log_dir = _artifacts()
    if args.costs:
        costs = attack_costs(args.sessions, args.seconds, args.think, args.link_kib, log_dir)
        print(
            f"### Abuse, cost of each client: one server, {args.seconds:.0f} s a phase, "
            f"{args.sessions} normal sessions then each hostile client alone\n"
        )
        print(costs_table(costs))
        print(f"\nSetup: {SETUP}.\n")
        return
    runs = run_abuse(
        args.sessions, args.seconds, args.think, args.link_kib, log_dir=log_dir, only=args.only
    )
    print(
        f"### Abuse: {args.sessions} normal sessions (think {args.think} s), {args.seconds:.0f} s, "
        f"without and with 6 hostile clients ({args.link_kib} KiB links)\n"
    )
    print_abuse(runs, memory_limit_mib())
    print(f"\nSetup: {SETUP}.\n")


def _coldstart(args: argparse.Namespace) -> None:
    from bench.coldstart import print_coldstart, run_coldstart

    log_dir = _artifacts()
    rounds = run_coldstart(args.sessions, args.rounds, args.seed, args.open_timeout, log_dir)
    print(
        f"### Cold start: {args.sessions} sessions opening pages of a fresh server at once, "
        f"{args.rounds} rounds of each start (interleaved)\n"
    )
    print_coldstart(rounds)
    print()


def _stress(args: argparse.Namespace) -> None:
    from bench.stress import BrowserRun, run_browser_tests, stress_table

    extra = ("-k", args.select) if args.select else ()

    def progress(index: int, run: BrowserRun) -> None:
        failing = f"; failing: {', '.join(run.failures)}" if run.failures else ""
        print(
            f"run {index + 1}: {run.passed} passed, {run.failed} failed, {run.errors} errors,"
            f" {run.seconds:.0f} s{', timed out' if run.timed_out else ''}{failing}"
            f"; output in {run.log}",
            flush=True,
        )

    results = run_browser_tests(args.runs, args.hogs, args.run_timeout, extra, progress)
    print(
        f"### The browser tests, {args.runs} runs in a row beside {args.hogs} processes "
        "spinning a core each\n"
    )
    print(stress_table(results))
    print()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command")
    for name in ("all", "pages", "kernels"):
        p = sub.add_parser(name)
        p.add_argument("--repeats", type=int, default=3, help="fresh processes per page")
        p.add_argument("--warm", type=int, default=10, help="warm reruns per process")
        p.add_argument("--moves", type=int, default=10, help="control moves per process")
        p.add_argument("--cold-caches", type=int, default=2, help="cold-cache runs per process")
        p.add_argument("--kernel-repeats", type=int, default=3)
    for name, seconds in (("load", 60.0), ("soak", 300.0)):
        p = sub.add_parser(name)
        p.add_argument("--sessions", type=int, default=30)
        p.add_argument("--seconds", type=float, default=seconds)
        p.add_argument("--think", type=float, default=1.0, help="mean think time per session (s)")
        p.add_argument("--url", help="a running local server instead of starting one")
        p.add_argument("--pid", type=int, action="append", help="server pid(s) for memory")
        p.add_argument("--no-warm-up", action="store_true", help="skip the first-visit pass")
        p.add_argument("--rss-every", type=float, default=10.0 if name == "load" else 30.0)
    p = sub.add_parser("abuse")
    p.add_argument("--sessions", type=int, default=30, help="normal sessions")
    p.add_argument("--seconds", type=float, default=60.0, help="length of each of the two runs")
    p.add_argument("--think", type=float, default=1.0, help="mean think time per session (s)")
    p.add_argument("--link-kib", type=int, default=512, help="size of the long links (KiB)")
    p.add_argument("--only", help="the one hostile client of the second run (its name)")
    p.add_argument(
        "--costs",
        action="store_true",
        help="instead: the server CPU of the normal sessions and of each hostile client alone",
    )
    sub.add_parser("caches")
    sub.add_parser("bearoff").add_argument("--repeats", type=int, default=1)
    p = sub.add_parser("engine")
    p.add_argument("--levels", nargs="+", default=["1-ply", "2-ply", "3-ply", "rollout"])
    p.add_argument("--repeats", type=int, default=3)
    p = sub.add_parser("rollout")
    p.add_argument("--trials", type=int, default=1296)
    p.add_argument("--batch", type=int, default=144, help="trials per batch (task)")
    p.add_argument("--scheduler", help="tcp://host:port of an existing Dask scheduler")
    p = sub.add_parser("position")
    p.add_argument("--levels", nargs="+", default=["1-ply", "2-ply", "3-ply"])
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--n", type=int, default=7, help="the score matrix's grid")
    p.add_argument("--sessions", type=int, default=30, help="0: no load run")
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--every", type=float, default=5.0, help="mean seconds between requests")
    p.add_argument("--page", default="position", help="url path of a page of app.py")
    p.add_argument("--query", default="pos={pos}&depth=2-ply", help="{pos}: a Position ID")
    p.add_argument("--settled", default=r"^Proper cube action: ", help="the verdict's regex")
    p.add_argument("--url", help="a running local server instead of starting one")
    p = sub.add_parser("scale")
    p.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    p.add_argument("--sessions", type=int, nargs="+", default=[10, 20, 30, 45, 60])
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--think", type=float, default=1.0)
    p = sub.add_parser("stress")
    p.add_argument("--runs", type=int, default=5, help="runs of the browser tests in a row")
    p.add_argument("--hogs", type=int, default=2, help="processes spinning a core each")
    p.add_argument("--run-timeout", type=float, default=3600.0, help="longest run (s)")
    p.add_argument("-k", dest="select", default=None, help="pytest -k: a subset")
    p = sub.add_parser("coldstart")
    p.add_argument("--sessions", type=int, default=30, help="sessions opening a page at once")
    p.add_argument("--rounds", type=int, default=3, help="fresh servers of each start")
    p.add_argument("--seed", type=int, default=0, help="session i's page: Random(seed + i)")
    p.add_argument("--open-timeout", type=float, default=60.0, help="longest first run (s)")
    p = sub.add_parser("fragments")
    p.add_argument("--moves", type=int, default=15, help="timed moves per section")
    p = sub.add_parser("suitefloor")
    p.add_argument("--loads", type=int, default=3, help="fresh loads of each page in each view")
    p.add_argument("--pages", nargs="+", default=None, help="url paths (default: every page)")
    p.add_argument("--no-steps", action="store_true", help="skip the steps before pytest")
    p.add_argument("--others", action="store_true", help='also run pytest -m "not browser"')
    p = sub.add_parser("classroom")
    p.add_argument("--students", type=int, default=40)
    p.add_argument("--questions", type=int, default=10)
    p.add_argument("--processes", type=int, default=2)
    p.add_argument("--restart", action="store_true", help="kill one process mid-run")
    p.add_argument("--hostile", action="store_true", help="one client against the limits")
    p.add_argument("--position", action="store_true", help="the class votes on a position")
    args = parser.parse_args(argv)
    command = args.command or "all"
    if command == "all" and args.command is None:
        args = parser.parse_args(["all", *(argv or sys.argv[1:])])
    sys.path.insert(0, str(ROOT))
    print(f"Cube Theory Lab benchmarks: {machine.describe()}\n")
    if command in ("all", "pages"):
        _pages(args)
    if command in ("all", "kernels"):
        _kernels(args)
    if command == "caches":
        from bench.caches import caches_table

        print("### Streamlit caches in ui/\n")
        print(caches_table())
    if command == "bearoff":
        __import__("bench.bearoff", fromlist=["run"]).run(args.repeats)
    if command == "rollout":
        __import__("bench.rollout", fromlist=["run"]).run(args.trials, args.batch, args.scheduler)
    if command == "engine":
        __import__("bench.engine", fromlist=["run"]).run(tuple(args.levels), args.repeats)
    if command == "position":
        __import__("bench.position", fromlist=["run"]).run(
            tuple(args.levels), args.repeats, args.n, args.sessions, args.seconds, args.every,
            args.page, args.query, args.settled, args.url,
        )  # fmt: skip
    if command == "load":
        _load(args, f"Load: {args.sessions} sessions, {args.seconds:.0f} s, think {args.think} s")
    if command == "soak":
        _load(args, f"Soak: {args.sessions} sessions, {args.seconds:.0f} s, think {args.think} s")
    if command == "abuse":
        _abuse(args)
    if command == "coldstart":
        _coldstart(args)
    if command == "stress":
        _stress(args)
    if command == "fragments":
        from bench.fragments import fragments_table, run_fragments

        results = run_fragments(args.moves)
        print("### A section's own slider: warm rerun vs the baseline page's (websocket)\n")
        print(fragments_table(results))
        for result in results:
            for error in result.errors[:3]:
                print(f"- {error[:200]}")
    if command == "suitefloor":
        from bench.suite_floor import costs_tables, floor_tables, run_floor

        costs, floor = run_floor(
            args.loads, args.pages, steps=not args.no_steps, others=args.others
        )
        pages = ", ".join(f"/{path}" for path, view in costs.loads if view == "laptop")
        print(f"### Unit costs: whole-machine core-seconds, medians of {args.loads} ({pages})\n")
        print(costs_tables(costs))
        print("\n### The least work the acceptance lists require, and the floor\n")
        print(floor_tables(floor))
    if command == "classroom":
        from bench.classroom import run_classroom, run_hostile, run_position_round

        if args.hostile:
            run_hostile(args.processes)
        elif args.position:
            run_position_round(args.students, args.processes)
        else:
            run_classroom(args.students, args.questions, args.processes, restart=args.restart)
    if command == "scale":
        from bench.scale import run_scale

        run_scale(args.processes, args.sessions, args.seconds, args.think)


if __name__ == "__main__":
    main()
