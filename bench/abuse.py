"""Abuse bench: normal sessions with and without hostile clients (issue #18).

Two runs, each on a fresh ``streamlit run app.py`` on 127.0.0.1 (warmed up by one visit
of every page): ``sessions`` normal sessions of the load test (:mod:`bench.load`: think,
move a control, now and then switch page) for ``seconds``; then the same with six
hostile clients beside them, each looping until the time is up. Every client has a
client address as behind the deployed nginx (:data:`SETUP`): each normal session its
own, the hostile clients one together, so that the server's per-address limits
(sessions, page runs: :mod:`ui.throttle`) see them as a deployment would. The hostile
clients run in a process of their own (as on other machines): the event loop that
times the normal sessions runs nothing else, and its stalls are reported.

- **worst links**: opens a fresh session on each of the issue's rules-simulation links
  (:data:`WORST_LINKS`) in turn and waits for the run to end (or its timeout);
- **cache-clear flood**: one session sends Streamlit's ``clear_cache`` back message
  :data:`FLOOD_PER_SECOND` times a second;
- **long links**: opens a fresh session with a ``link_kib`` KiB query string (512 by
  default: the longest Streamlit passes on to the app), lets it run, closes it, and opens
  the next: the closed sessions are what a server keeps for
  ``server.disconnectedSessionTTL``;
- **memory** (issue #38 item 1): one client opening :data:`MEMORY_ATTACK_SESSIONS`
  sessions that each send a 15 MB text value, held open, again and again;
- **compare tables**: uploads a valid 1-away table on the match page and opens
  "Compare tables", again and again; an exception element there is an error;
- **classroom flood**: one client opening rooms, each with a question and
  :data:`FLOOD_STUDENTS` students who join and answer; it counts what it managed.

Reported: the normal sessions' p95 with and without the hostile clients and their ratio
(target :data:`P95_RATIO_TARGET`), their errors (target 0), the server's peak RSS against
the memory limit of ``deploy/cubelab@.service``, and what the hostile clients did.

Bounded: each run stops after ``seconds`` (a rerun waits at most ``rerun_timeout``);
only 127.0.0.1 is touched; the servers are stopped by the command itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bench.load import LoadResult, _page_paths, run_sessions, warm_up
from bench.server import streamlit_servers
from bench.stats import markdown_table, median, ms

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "deploy" / "cubelab@.service"
#: The issue's rules-simulation links: a strategy that almost never ends a game, and
#: beavers near the edge of the model's range.
WORST_LINKS = (
    ("rules", "view=simulation&ad=0.5001&ar=0.5001&bd=0.5&take=0&n=1000"),
    ("rules", "view=simulation&beavers=true&ad=0.51&ar=0.51&bd=0.5"),
)
FLOOD_PER_SECOND = 2.0
LONG_LINK_KIB = 512
P95_RATIO_TARGET = 1.5


#: Students the classroom flood brings to each room it opens.
FLOOD_STUDENTS = 5
#: The address every hostile client comes from, and the normal sessions' (session ``i``
#: the ``i + 1``-th): as behind the deployed nginx (deploy/nginx.conf.template), which
#: sets ``X-Real-IP`` and ``X-Forwarded-For`` to the visitor's address, and which the app
#: reads from a loopback peer only (:func:`ui.clients.client_address`).
#: Without them every client would be 127.0.0.1, one address, and a per-address limit
#: would hit the normal sessions with the hostile.
ATTACKER_ADDRESS = "198.51.100.66"
NORMAL_ADDRESS = "203.0.113.{}"
#: How the bench's clients reach the server, printed with its results.
SETUP = (
    "one app process on 127.0.0.1; the hostile clients in a process of their own; each "
    "normal session with its own client address "
    f"({NORMAL_ADDRESS.format('1')}, ...) and every hostile client with one "
    f"({ATTACKER_ADDRESS}), in the X-Real-IP and X-Forwarded-For headers nginx sets, "
    "which the app trusts from loopback"
)


def proxy_headers(address: str) -> dict[str, str]:
    """The headers the deployed nginx sends for a visitor at ``address``."""
    return {"X-Real-IP": address, "X-Forwarded-For": address}


HOSTILE_HEADERS = proxy_headers(ATTACKER_ADDRESS)


def normal_headers(index: int) -> dict[str, str]:
    """Normal session ``index``'s proxy headers: an address of its own."""
    return proxy_headers(NORMAL_ADDRESS.format(index + 1))


@dataclass
class HostileCounts:
    worst_links: int = 0
    clear_cache: int = 0
    long_links: int = 0
    memory: MemoryAttack | None = None  # summed over the attack's rounds
    compare_runs: int = 0
    compare_errors: int = 0  # exception elements on "Compare tables"
    rooms: int = 0
    students: int = 0
    answers: int = 0
    flood_refused: int = 0  # rooms, joins or answers the server refused
    errors: list[str] = field(default_factory=list)  # what the hostile clients met


@dataclass
class AbuseRun:
    hostile: bool
    load: LoadResult
    counts: HostileCounts
    #: The bench's own event loop (it runs every client): its longest stall, and the
    #: seconds of its stalls over 0.1 s (each adds to the latency of the reruns in flight)
    client_stall: float = 0.0
    client_stalled: float = 0.0

    @property
    def peak_rss(self) -> float:
        return max((v for _, v in self.load.rss if v == v), default=float("nan"))


def memory_limit_mib(unit: Path = UNIT) -> float:
    """``MemoryMax`` of the systemd unit in MiB (the documented per-process limit)."""
    found = re.search(r"^MemoryMax=(\d+)([MG])$", unit.read_text(encoding="utf-8"), re.M)
    if found is None:
        raise ValueError(f"{unit} has no MemoryMax=<n>M or <n>G line")
    return float(found.group(1)) * (1024 if found.group(2) == "G" else 1)


def _rounds(stop_at: float) -> Iterator[int]:
    """Round numbers 0, 1, 2, ... of a hostile client: the first always, the next ones
    while ``time.monotonic() < stop_at``. So each client tries at least once, however
    long the server took before it started (a short run on a loaded machine)."""
    index = 0
    while index == 0 or time.monotonic() < stop_at:
        yield index
        index += 1


async def _worst_links(base: str, stop_at: float, counts: HostileCounts, timeout: float) -> None:
    from bench.wsclient import Session

    for index in _rounds(stop_at):
        page, query = WORST_LINKS[index % len(WORST_LINKS)]
        left = stop_at - time.monotonic()
        async with Session(base, random.Random(index + 1), headers=HOSTILE_HEADERS) as session:
            run = await session.open(page, query, timeout=min(timeout, left) if index else timeout)
        counts.worst_links += 1
        if run.exceptions:
            counts.errors.append(f"worst link /{page}?{query}: {run.exceptions[0][:120]}")


async def _clear_cache_flood(base: str, stop_at: float, counts: HostileCounts) -> None:
    from streamlit.proto.BackMsg_pb2 import BackMsg

    from bench.wsclient import Session

    back = BackMsg()
    back.clear_cache = True
    payload = back.SerializeToString()
    async with Session(base, random.Random(1), headers=HOSTILE_HEADERS) as session:
        await session.open("")
        while True:  # at least one message, however long the open took
            await session.ws.send(payload)
            counts.clear_cache += 1
            if time.monotonic() >= stop_at:
                break
            await asyncio.sleep(1 / FLOOD_PER_SECOND)


async def _long_links(
    base: str, stop_at: float, counts: HostileCounts, kib: int, timeout: float
) -> None:
    from bench.wsclient import Session

    pages = _page_paths()
    rng = random.Random(2)
    # The whole query string is ``kib`` KiB: Streamlit drops a longer one than 512 Ki
    # characters before the app sees it (CLIENT_STATE_QUERY_STRING_MAX_LENGTH).
    query = "note=" + "a" * (kib * 1024 - len("note="))
    for _ in _rounds(stop_at):
        async with Session(base, rng, headers=HOSTILE_HEADERS) as session:
            run = await session.open(rng.choice(pages), query, timeout=timeout)
        counts.long_links += 1
        if run.exceptions:
            counts.errors.append(f"long link: {run.exceptions[0][:120]}")


#: The memory attack of issue #38: one client, sessions each sending one text value far
#: past its box's 20,000 characters (the cube page's evaluation box).
MEMORY_ATTACK_SESSIONS = 30
MEMORY_ATTACK_BYTES = 15 * 10**6
MEMORY_ATTACK_PAGE = "cube"
MEMORY_ATTACK_WIDGET = "paste"


@dataclass
class MemoryAttack:
    """What the memory attack managed: sessions opened and refused (the handshake), values
    the server took (their run ended) or ignored (no run within ``reply_timeout``), and
    connections it closed on a value."""

    opened: int = 0
    refused: int = 0
    taken: int = 0
    ignored: int = 0
    closed: int = 0
    errors: list[str] = field(default_factory=list)


async def memory_attack(
    base: str,
    sessions: int = MEMORY_ATTACK_SESSIONS,
    value_bytes: int = MEMORY_ATTACK_BYTES,
    hold_until: float | None = None,
    headers: dict[str, str] | None = None,
    on_held: Callable[[], object] | None = None,
    reply_timeout: float = 10.0,
) -> MemoryAttack:
    """Open ``sessions`` sessions on the cube page at once and send each a text value of
    ``value_bytes`` bytes for its evaluation box; hold them all open until the
    ``time.monotonic()`` value ``hold_until`` (None: return once all are sent; they are
    closed on return either way). ``on_held`` is called once every value is sent, the
    sessions still open (a test reads the server's memory there)."""
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    from bench.wsclient import Session

    found = MemoryAttack()
    value = "a" * value_bytes
    held: list[Session] = []

    async def one(index: int) -> None:
        session = Session(base, random.Random(index), headers=headers)
        try:
            await session.__aenter__()
        except InvalidStatus:
            found.refused += 1
            return
        held.append(session)
        found.opened += 1
        try:
            await session.open(MEMORY_ATTACK_PAGE)
            widget = session.texts.get(MEMORY_ATTACK_WIDGET)
            if widget is None:
                found.errors.append(f"no {MEMORY_ATTACK_WIDGET!r} box on /{MEMORY_ATTACK_PAGE}")
                return
            run = await session.send_states({widget: ("string_value", value)}, reply_timeout)
            if run.timed_out:
                found.ignored += 1
            else:
                found.taken += 1
            if run.exceptions:
                found.errors.append(run.exceptions[0][:120])
        except ConnectionClosed:
            found.closed += 1

    try:
        await asyncio.gather(*(one(index) for index in range(sessions)))
        if on_held is not None:
            on_held()
        while hold_until is not None and time.monotonic() < hold_until:
            await asyncio.sleep(min(1.0, max(0.0, hold_until - time.monotonic())))
    finally:
        for session in held:
            with contextlib.suppress(Exception):
                await session.__aexit__()
    return found


async def _memory_rounds(base: str, stop_at: float, counts: HostileCounts) -> None:
    """:func:`memory_attack` again and again until ``stop_at``, its counts summed."""
    total = counts.memory = MemoryAttack()
    for _ in _rounds(stop_at):
        found = await memory_attack(
            base,
            hold_until=min(stop_at, time.monotonic() + 10),
            headers=proxy_headers(ATTACKER_ADDRESS),
        )
        total.opened += found.opened
        total.refused += found.refused
        total.taken += found.taken
        total.ignored += found.ignored
        total.closed += found.closed
        total.errors += found.errors[:3]


#: A valid match equity table of 1-away only, as a CSV file in cubecore's format
#: (``cubecore.met_io.to_csv`` of a 1-away model table; tests/test_bench_smoke.py reads
#: it back).
ONE_AWAY_CSV = b"# name: One away\naway,1\n1,0.5\npost,0.5\n"


async def _compare_tables(base: str, stop_at: float, counts: HostileCounts, timeout: float) -> None:
    from bench.wsclient import Session

    for _ in _rounds(stop_at):
        rng = random.Random(counts.compare_runs)
        async with Session(base, rng, headers=HOSTILE_HEADERS) as session:
            await session.open("match", "sec=Tables", timeout=timeout)
            await session.upload("met_file", "one_away.csv", ONE_AWAY_CSV, timeout=timeout)
            tabs = next(w for w in session.widgets.values() if w.kind == "tabs")
            run = await session._send(tabs, ("string_value", "Compare tables"), timeout)
        counts.compare_runs += 1
        if run.exceptions or run.timed_out:
            counts.compare_errors += 1
            counts.errors.append(f"compare tables: {(run.exceptions or ['timed out'])[0][:120]}")


async def _classroom_flood(
    base: str, stop_at: float, counts: HostileCounts, timeout: float
) -> None:
    """Rooms, each with a question and :data:`FLOOD_STUDENTS` students answering it, one
    after another until ``stop_at``; what the server took is counted."""
    from bench.classroom import OPTIONS, Screen

    headers = proxy_headers(ATTACKER_ADDRESS)
    for index in _rounds(stop_at):
        presenter = Screen(base, random.Random(index), cookie=f"flood-{index}")
        presenter.headers = headers
        async with presenter:
            await presenter.open("classroom", "sec=Present", timeout=timeout)
            await presenter.send({}, press="Open a new room")
            code = presenter.metrics.get("Room code", ("", ""))[0]
            if not code:
                counts.flood_refused += 1
                continue
            counts.rooms += 1
            await presenter.send(
                {
                    "classroom_ask/Kind": "Multiple choice",
                    "classroom_ask/Question": f"Flood {index}: take or pass?",
                    "classroom_ask/Options (multiple choice): one per line": "\n".join(OPTIONS),
                    "classroom_ask/The exact answer (an option, or a number)": "Take",
                },
                press="classroom_ask/Ask",
            )
            for k in range(FLOOD_STUDENTS):
                if time.monotonic() >= stop_at:
                    break
                student = Screen(base, random.Random(k), cookie=f"flood-{index}-{k}")
                student.headers = headers
                async with student:
                    await student.open("classroom", f"room={code}", timeout=timeout)
                    await student.send(
                        {"classroom_join/Room code": code, "classroom_join/Nickname": f"f{k}"},
                        press="classroom_join/Join the room",
                    )
                    field_name = f"classroom_answer_form_{code}_1/Your answer"
                    if field_name not in student.inputs:
                        counts.flood_refused += 1
                        continue
                    counts.students += 1
                    await student.send(
                        {field_name: OPTIONS[k % len(OPTIONS)]},
                        press=f"classroom_answer_form_{code}_1/Send my answer",
                        fragment=student.inputs[field_name][2],
                    )
                    if any(a.startswith("Your answer:") for a in student.alerts):
                        counts.answers += 1
                    else:
                        counts.flood_refused += 1


async def simulation_queue(
    base: str,
    hogs: int = 30,
    timeout: float = 120.0,
    head_start: float = 5.0,
    reader_seed: int = 7,
) -> tuple[float, list[str], int]:
    """Issue #38 item 10: ``hogs`` sessions of one client (one address) ask again and
    again for uncached simulations of the rules page (a million games, new seeds); after
    ``head_start`` seconds a reader of another address asks for one. (The reader's
    seconds to its result, the reader's waiting notices, the hogs' runs that ended.)"""
    from bench.wsclient import Session

    hog_query = "sec=Simulation&n=1000&seed={}"  # a million games each: the page's largest
    hog_sessions = [
        Session(base, random.Random(i), headers={"X-Real-IP": ATTACKER_ADDRESS})
        for i in range(hogs)
    ]
    reader = Session(base, random.Random(-1), headers={"X-Real-IP": "203.0.113.10"})
    stop = asyncio.Event()
    ended = 0

    async def hog(index: int, session: Session) -> None:
        nonlocal ended
        seed = 1000 + 1000 * index
        while not stop.is_set():
            seed += 1
            run = await session.open("rules", hog_query.format(seed), timeout=timeout)
            ended += not run.timed_out

    for session in (*hog_sessions, reader):
        await session.__aenter__()
    try:
        tasks = [asyncio.create_task(hog(i, s)) for i, s in enumerate(hog_sessions)]
        await asyncio.sleep(head_start)
        run = await reader.open("rules", f"sec=Simulation&seed={reader_seed}", timeout=timeout)
        stop.set()
        await asyncio.gather(*tasks)
        notices = [a for a in run.alerts if a.startswith("Waiting for the simulation slot")]
        return (float("inf") if run.timed_out else run.seconds), notices, ended
    finally:
        for session in (*hog_sessions, reader):
            await session.__aexit__()


def _hostile_process(
    base: str, stop_at: float, link_kib: int, rerun_timeout: float, only: str | None
) -> HostileCounts:
    """The hostile clients on this process's own event loop until ``stop_at`` (a
    ``time.monotonic()`` value: one clock for every process of the machine)."""
    counts = HostileCounts()

    async def main() -> None:
        await asyncio.gather(*hostile_clients(base, stop_at, counts, link_kib, rerun_timeout, only))

    asyncio.run(main())
    return counts


async def _in_own_process(
    base: str, stop_at: float, link_kib: int, rerun_timeout: float, only: str | None
) -> HostileCounts:
    """:func:`_hostile_process` in a process of its own, as hostile clients on other
    machines: what they do on their side (15 MB values built and masked, 512 KiB links)
    never stalls the event loop that times the normal sessions."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    loop = asyncio.get_running_loop()
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return await loop.run_in_executor(
            pool, _hostile_process, base, stop_at, link_kib, rerun_timeout, only
        )


async def _watch_loop(stop_at: float, lags: list[float], every: float = 0.05) -> None:
    """How late this process's event loop wakes up, every ``every`` seconds: a stall of
    the bench client, not of the server."""
    while time.monotonic() < stop_at:
        began = time.monotonic()
        await asyncio.sleep(every)
        lags.append(time.monotonic() - began - every)


async def _guard(name: str, hostile: Awaitable[None], counts: HostileCounts) -> None:
    """A hostile client whose connection the server drops has done its job: note it."""
    try:
        await hostile
    except Exception as error:  # the server closing a hostile socket is not a bench error
        counts.errors.append(f"{name}: {type(error).__name__}: {str(error)[:120]}")


#: The hostile clients' names (:func:`hostile_clients`).
HOSTILE = (
    "worst links",
    "clear_cache flood",
    "long links",
    "memory",
    "compare tables",
    "classroom flood",
)


def hostile_clients(
    base: str,
    stop_at: float,
    counts: HostileCounts,
    link_kib: int,
    rerun_timeout: float,
    only: str | None = None,
) -> list[Awaitable[None]]:
    """The hostile clients (or the one named ``only``, one of :data:`HOSTILE`), each
    running until the ``time.monotonic()`` value ``stop_at`` and counting what it did in
    ``counts``."""
    made: dict[str, Callable[[], Awaitable[None]]] = {
        "worst links": lambda: _worst_links(base, stop_at, counts, rerun_timeout),
        "clear_cache flood": lambda: _clear_cache_flood(base, stop_at, counts),
        "long links": lambda: _long_links(base, stop_at, counts, link_kib, rerun_timeout),
        "memory": lambda: _memory_rounds(base, stop_at, counts),
        "compare tables": lambda: _compare_tables(base, stop_at, counts, rerun_timeout),
        "classroom flood": lambda: _classroom_flood(base, stop_at, counts, rerun_timeout),
    }
    return [_guard(name, make(), counts) for name, make in made.items() if only in (None, name)]


async def _run(
    base: str,
    pid: int,
    sessions: int,
    seconds: float,
    think: float,
    hostile: bool,
    link_kib: int,
    rerun_timeout: float,
    only: str | None = None,
) -> AbuseRun:
    counts = HostileCounts()

    lags: list[float] = []

    async def own_process(stop_at: float) -> None:
        found = await _in_own_process(base, stop_at, link_kib, rerun_timeout, only)
        vars(counts).update(vars(found))

    def beside(stop_at: float) -> list[Awaitable[None]]:
        watch = _watch_loop(stop_at, lags)
        return [watch, own_process(stop_at)] if hostile else [watch]

    load = await run_sessions(
        base, [pid], sessions, seconds, think, rerun_timeout, False, beside, None, normal_headers
    )
    return AbuseRun(hostile, load, counts, max(lags, default=0.0), sum(x for x in lags if x > 0.1))


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of ``pid`` and its live children (the server and its
    simulation worker), from /proc/<pid>/stat; 0 for a process that is gone."""
    import os

    from bench.server import _children

    total = 0.0
    for each in (pid, *_children(pid)):
        with contextlib.suppress(OSError, IndexError, ValueError):
            with open(f"/proc/{each}/stat", encoding="ascii") as handle:
                fields = handle.read().rpartition(")")[2].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


@dataclass
class AttackCost:
    """One phase of :func:`attack_costs`: the server's CPU seconds per second of it, this
    (client) process's, and the wall seconds it ran."""

    name: str
    server: float
    client: float
    seconds: float


async def _attack_costs(
    base: str, pid: int, sessions: int, seconds: float, think: float, link_kib: int
) -> list[AttackCost]:
    import os

    phases: list[str | None] = [None, "normal", *HOSTILE]
    found = []
    for name in phases:
        counts = HostileCounts()
        began, server0, client0 = time.monotonic(), cpu_seconds(pid), sum(os.times()[:2])
        stop_at = began + seconds
        if name is None:
            await asyncio.sleep(seconds)
        elif name == "normal":
            await run_sessions(
                base, [pid], sessions, seconds, think, 30.0, False, None, None, normal_headers
            )
        else:
            await asyncio.gather(*hostile_clients(base, stop_at, counts, link_kib, 30.0, name))
        wall = time.monotonic() - began
        server = (cpu_seconds(pid) - server0) / wall
        client = (sum(os.times()[:2]) - client0) / wall
        found.append(AttackCost(name or "idle", server, client, wall))
    return found


def attack_costs(
    sessions: int = 30,
    seconds: float = 20.0,
    think: float = 1.0,
    link_kib: int = LONG_LINK_KIB,
    log_dir: Path | None = None,
) -> list[AttackCost]:
    """On one fresh server (warmed up): nothing, then ``sessions`` normal sessions, then
    each hostile client alone, each for ``seconds``; what each cost the server's CPU."""
    with (
        tempfile.TemporaryDirectory() as scratch,
        streamlit_servers(
            1,
            log_dir=log_dir,
            env={"CUBE_LAB_DATABASE_URL": f"sqlite:///{scratch}/classroom.sqlite3"},
        ) as servers,
    ):
        base, pid = servers[0]
        warm_up(base)
        return asyncio.run(_attack_costs(base, pid, sessions, seconds, think, link_kib))


def costs_table(costs: list[AttackCost]) -> str:
    """Server CPU per phase, in cores and as a share of the normal sessions' phase."""
    normal = next(c.server for c in costs if c.name == "normal")
    rows = [
        [
            c.name,
            f"{c.seconds:.0f} s",
            f"{c.server:.2f}",
            f"{c.server / normal:.2f}" if normal > 0 else "-",
            f"{c.client:.2f}",
        ]
        for c in costs
    ]
    return markdown_table(
        ["phase (alone)", "ran", "server CPU (cores)", "/ normal sessions'", "bench client CPU"],
        rows,
    )


def run_abuse(
    sessions: int = 30,
    seconds: float = 60.0,
    think: float = 1.0,
    link_kib: int = LONG_LINK_KIB,
    rerun_timeout: float = 30.0,
    log_dir: Path | None = None,
    warm: bool = True,
    only: str | None = None,
) -> list[AbuseRun]:
    """The run without and then with the hostile clients, each on a fresh server.

    ``warm`` visits every page once before each run (the teacher opening the app);
    ``only`` names the one hostile client of the second run (one of :data:`HOSTILE`).
    """
    if only is not None and only not in HOSTILE:
        raise ValueError(f"only must be one of {HOSTILE}, not {only!r}")
    if not 1 <= sessions <= 200 or not 0 < seconds <= 600 or not 1 <= link_kib <= 512:
        raise ValueError("sessions must be in 1..200, seconds in (0, 600], link_kib in 1..512")
    runs = []
    for hostile in (False, True):
        # the classroom flood's rooms go to a throw-away database, not the repository's
        with (
            tempfile.TemporaryDirectory() as scratch,
            streamlit_servers(
                1,
                log_dir=log_dir,
                env={"CUBE_LAB_DATABASE_URL": f"sqlite:///{scratch}/classroom.sqlite3"},
            ) as servers,
        ):
            base, pid = servers[0]
            if warm:
                warm_up(base)
            runs.append(
                asyncio.run(
                    _run(
                        base, pid, sessions, seconds, think, hostile, link_kib, rerun_timeout, only
                    )
                )
            )
    return runs


def abuse_table(runs: list[AbuseRun], limit_mib: float) -> str:
    """One row per run and a verdict row (p95 ratio, errors, peak RSS against the limit)."""
    rows = []
    for run in runs:
        lat = run.load.all_latencies()
        c = run.counts
        rows.append(
            [
                "with hostile" if run.hostile else "without",
                run.load.sessions,
                len(lat),
                ms(median(lat)),
                ms(run.load.p95),
                ms(max(lat, default=float("nan"))),
                len(run.load.errors),
                f"{run.peak_rss:.0f}",
                f"{ms(run.client_stall)} / {run.client_stalled:.1f} s",
                f"{c.worst_links} / {c.clear_cache} / {c.long_links}" if run.hostile else "-",
                _memory_cell(c.memory) if run.hostile else "-",
                f"{c.compare_runs} / {c.compare_errors}" if run.hostile else "-",
                f"{c.rooms} / {c.students} / {c.answers} / {c.flood_refused}"
                if run.hostile
                else "-",
            ]
        )
    table = markdown_table(
        [
            "run",
            "normal sessions",
            "reruns",
            "p50",
            "p95",
            "max",
            "errors (normal)",
            "peak RSS MiB",
            "bench client stall: longest / in all",
            "worst links / clear_cache / long links sent",
            "memory: sessions opened / refused / closed on 15 MB",
            "compare tables: runs / errors",
            "classroom flood: rooms / students / answers / refused",
        ],
        rows,
    )
    quiet = next(r for r in runs if not r.hostile)
    loud = next(r for r in runs if r.hostile)
    ratio = loud.load.p95 / quiet.load.p95 if quiet.load.p95 > 0 else float("nan")
    errors = len(loud.load.errors) + len(quiet.load.errors)
    peak = max(quiet.peak_rss, loud.peak_rss)
    verdicts = [
        f"p95 ratio {ratio:.2f}x (target <= {P95_RATIO_TARGET}x): "
        + ("ok" if ratio <= P95_RATIO_TARGET else "MISS"),
        f"errors of normal sessions {errors} (target 0): " + ("ok" if errors == 0 else "MISS"),
        f"peak RSS {peak:.0f} MiB (limit MemoryMax {limit_mib:.0f} MiB): "
        + ("ok" if peak <= limit_mib else "MISS"),
    ]
    return table + "\n\n" + "\n".join(f"- {line}" for line in verdicts)


def _memory_cell(found: MemoryAttack | None) -> str:
    if found is None:
        return "-"
    return f"{found.opened} / {found.refused} / {found.closed}"


def _grouped(lines: list[str], limit: int = 8) -> list[tuple[str, int]]:
    """Distinct lines, most frequent first, at most ``limit``."""
    counts: dict[str, int] = {}
    for line in lines:
        counts[line[:200]] = counts.get(line[:200], 0) + 1
    return sorted(counts.items(), key=lambda item: -item[1])[:limit]


def print_abuse(runs: list[AbuseRun], limit_mib: float) -> None:
    print(abuse_table(runs, limit_mib))
    for run in runs:
        side = "with" if run.hostile else "without"
        for line, times in _grouped(run.load.errors):
            print(f"- {side} hostile, error ({times}x): {line}")
        for line, times in _grouped(run.counts.errors):
            print(f"- hostile client met ({times}x): {line}")
