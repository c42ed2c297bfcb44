"""Classroom load: a presenter and N students over websockets, 2 processes, nginx, PostgreSQL.

A throw-away PostgreSQL cluster (:mod:`bench.postgres`) is the store of every app
process (``CUBE_LAB_DATABASE_URL``); the app processes sit behind nginx with sticky
sessions (:mod:`bench.scale`), each session with its own cookie. Every session speaks
the browser's websocket protocol (:mod:`bench.wsclient`): the presenter opens a room
and asks a multiple-choice question; each student opens the room link, joins with a
nickname, waits for the question (polling its live view at the app's own refresh
interval, as the browser does), thinks, answers; the presenter's live view (also at
the app's interval) is polled until it counts every answer, then the presenter
reveals and asks the next question.

Reported: answers sent and acknowledged, the presenter's final count per question,
the database's count per question (each must equal the number of students: every
answer counted exactly once), and the time from a student's acknowledged answer to
the presenter's count including it (median, p95, max), which includes the wait for the
presenter's next refresh.

:func:`run_hostile` is the other half: one client address against the per-client limits
(rooms opened, students joined, wrong room codes), from fresh sessions over two app
processes (``python -m bench classroom --hostile``).

Not done here (yet): the second run of the issue's acceptance that kills one app
process mid-run and restarts it; the store tests cover restarts of the store.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import subprocess
import time
import uuid
from dataclasses import dataclass, field
from typing import NotRequired, TypedDict, cast

import sqlalchemy as sa
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.Delta_pb2 import Delta
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.protocol import State

from bench.postgres import postgres_server
from bench.scale import nginx
from bench.server import LOOPBACK, ROOT, free_port, streamlit_command, wait_healthy
from bench.stats import markdown_table, median, ms, percentile
from bench.wsclient import RunResult, Session
from store.classroom import CLIENT_CODE_MISSES, CLIENT_JOINS, CLIENT_ROOMS, CODE_ALPHABET
from store.schema import CODE_LENGTH
from ui.classroom.controls import PRESENTER_REFRESH, STUDENT_REFRESH

_INPUTS = ("text_input", "text_area", "button", "radio", "number_input")
OPTIONS = ("Take", "Pass", "Beaver")


class _Room(TypedDict):
    """What the presenter and the students share in a round."""

    ready: asyncio.Event  # set once the room is open
    url: str  # the database the app stores rooms in
    code: NotRequired[str]  # the room code the presenter opened
    key: NotRequired[str]  # the presenter key
    asked: NotRequired[int]  # questions asked so far
    seen: NotRequired[dict[int, int]]  # per question: the answers the presenter has seen


class NotSent(ConnectionError):
    """The connection was already closed: the message never left (so nothing was stored)."""


class Screen(Session):
    """A session that reads what a person would: inputs by label, metrics, alerts, charts."""

    def __init__(
        self,
        base: str,
        rng: random.Random,
        cookie: str | None = None,
        headers: dict[str, str] | None = None,
    ):
        super().__init__(base, rng, cookie, headers)
        self.inputs: dict[str, tuple[str, str, str]] = {}  # form/label -> (id, kind, fragment)
        self.metrics: dict[str, tuple[str, str]] = {}  # label -> (value, fragment)
        self.alerts: list[str] = []
        self.codes: list[str] = []
        self.charts: list[str] = []  # the plotly figures drawn (JSON), in order
        self.fragment = ""  # the last fragment the page drew

    async def _rerun(self, back: BackMsg, timeout: float) -> RunResult:
        if not back.rerun_script.fragment_id:
            self.inputs, self.metrics, self.codes = {}, {}, []
        self.alerts, self.charts = [], []
        return await super()._rerun(back, timeout)

    def _read_delta(self, delta: Delta, result: RunResult, path: tuple[int, ...]) -> None:
        super()._read_delta(delta, result, path)
        if delta.fragment_id:
            self.fragment = delta.fragment_id
        if delta.WhichOneof("type") != "new_element":
            return
        element = delta.new_element
        kind = element.WhichOneof("type")
        if kind in _INPUTS:
            proto = getattr(element, kind)
            name = f"{proto.form_id}/{proto.label}" if proto.form_id else proto.label
            self.inputs[name] = (proto.id, kind, delta.fragment_id)
        elif kind == "metric":
            self.metrics[element.metric.label] = (element.metric.body, delta.fragment_id)
        elif kind == "alert":
            self.alerts.append(element.alert.body)
        elif kind == "code":
            self.codes.append(element.code.code_text)
        elif kind == "plotly_chart":
            self.charts.append(element.plotly_chart.spec)

    def find(self, suffix: str) -> str | None:
        """The input whose form/label ends with ``suffix``."""
        return next((name for name in self.inputs if name.endswith(suffix)), None)

    async def send(
        self, values: dict[str, object], press: str | None = None, fragment: str = ""
    ) -> RunResult:
        """Set inputs (form/label -> value) and press a button, as one rerun."""
        if self.ws.state is not State.OPEN:
            raise NotSent(f"connection {self.ws.state.name.lower()}")
        back = self._back(fragment)
        state = back.rerun_script
        for name, value in values.items():
            widget_id, kind, _ = self.inputs[name]
            entry = state.widget_states.widgets.add()
            entry.id = widget_id
            if kind == "number_input":
                entry.double_value = float(cast(float, value))
            else:
                entry.string_value = str(value)
        if press is not None:
            entry = state.widget_states.widgets.add()
            entry.id = self.inputs[press][0]
            entry.trigger_value = True
        return await self._rerun(back, 60)

    async def refresh(self, fragment: str) -> RunResult:
        """A live view's timed rerun (``st.fragment(run_every=...)``)."""
        return await self._rerun(self._back(fragment), 60)

    def _back(self, fragment: str) -> BackMsg:
        from streamlit.proto.BackMsg_pb2 import BackMsg

        back = BackMsg()
        back.rerun_script.page_script_hash = self.page_hash
        back.rerun_script.page_name = "classroom"
        back.rerun_script.fragment_id = fragment
        return back


@dataclass
class Outcome:
    students: int
    questions: int
    acked: dict[int, int] = field(default_factory=dict)  # question -> answers acknowledged
    unsure: dict[int, int] = field(default_factory=dict)  # question -> sends cut by a kill
    shown: dict[int, int] = field(default_factory=dict)  # question -> presenter's final count
    stored: dict[int, int] = field(default_factory=dict)  # question -> rows in the database
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    reconnects: int = 0
    killed_at: str = ""
    seconds: float = 0.0


#: What a session sees when its app process dies or is not up yet.
_LOST = (ConnectionClosed, InvalidHandshake, OSError, asyncio.TimeoutError, KeyError)
_KEY_FORM = re.compile(r"[A-Za-z0-9_-]{24}")


async def _reconnect_pause(out: Outcome) -> None:
    out.reconnects += 1
    if out.reconnects > 40 * (out.students + 1):
        raise RuntimeError("sessions keep losing their server: giving up")
    await asyncio.sleep(0.5)


def _room_state(url: str, code: str) -> tuple[int, int]:
    """(questions asked, questions revealed) of the room, as the database has them."""
    engine = sa.create_engine(url)
    query = sa.text(
        "SELECT count(q.id), count(q.revealed_at) FROM rooms r "
        "JOIN questions q ON q.room_id = r.id WHERE r.code = :code"
    )
    with engine.connect() as db:
        asked, revealed = db.execute(query, {"code": code}).one()
    engine.dispose()
    return int(asked), int(revealed)


async def _presenter(
    base: str,
    students: int,
    questions: int,
    room: _Room,
    out: Outcome,
    acks: dict[int, list[float]],
) -> None:
    cookie = uuid.uuid4().hex
    asked = revealed = 0
    while revealed < questions:
        try:
            async with Screen(base, random.Random(0), cookie=cookie) as screen:
                await screen.open("classroom", "sec=Present")
                if "code" not in room:
                    await screen.send({}, press="Open a new room")
                    room["code"] = screen.metrics["Room code"][0]
                    room["key"] = next(c for c in screen.codes if _KEY_FORM.fullmatch(c))
                    room["ready"].set()
                else:  # back after a restart: resume the room with the presenter key
                    await screen.send(
                        {
                            "classroom_resume/Room code": room["code"],
                            "classroom_resume/Presenter key": room["key"],
                        },
                        press="classroom_resume/Resume",
                    )
                    asked, revealed = await asyncio.to_thread(
                        _room_state, room["url"], room["code"]
                    )
                while revealed < questions:
                    if asked == revealed:
                        await screen.send(
                            {
                                "classroom_ask/Kind": "Multiple choice",
                                "classroom_ask/Question": f"Question {asked + 1}: take or pass?",
                                "classroom_ask/Options (multiple choice): one per line": "\n".join(
                                    OPTIONS
                                ),
                                "classroom_ask/The exact answer (an option, or a number)": "Take",
                            },
                            press="classroom_ask/Ask",
                        )
                        asked += 1
                        room["asked"] = asked
                        if screen.alerts:
                            out.errors.append(f"ask {asked}: {screen.alerts}")
                    number = asked
                    while True:
                        await asyncio.sleep(PRESENTER_REFRESH)
                        await screen.refresh(screen.metrics["Answers"][1])
                        now = time.perf_counter()
                        count = int(screen.metrics["Answers"][0])
                        seen = room.setdefault("seen", {}).get(number, 0)
                        for ack in sorted(acks.get(number, []))[seen:count]:
                            if ack <= now:
                                out.latencies.append(now - ack)
                                seen += 1
                        room["seen"][number] = seen
                        # the teacher waits until everyone has answered
                        sent = out.acked.get(number, 0) + out.unsure.get(number, 0)
                        if sent >= students and count >= out.acked.get(number, 0):
                            break
                    out.shown[number] = count
                    await screen.send(
                        {}, press="Reveal the answer", fragment=screen.metrics["Answers"][1]
                    )
                    revealed = number
        except _LOST:
            await _reconnect_pause(out)


async def _student(
    base: str, k: int, questions: int, room: _Room, out: Outcome, acks: dict[int, list[float]]
) -> None:
    rng = random.Random(k)
    cookie = uuid.uuid4().hex
    await room["ready"].wait()
    code = room["code"]
    answered: set[int] = set()
    while len(answered) < questions:
        try:
            async with Screen(base, rng, cookie=cookie) as screen:
                await screen.open("classroom", f"room={code}")
                await screen.send(
                    {"classroom_join/Room code": code, "classroom_join/Nickname": f"s{k:02d}"},
                    press="classroom_join/Join the room",
                )
                if screen.alerts:
                    out.errors.append(f"join {k}: {screen.alerts}")
                    return
                for number in range(1, questions + 1):
                    if number in answered:
                        continue
                    field_name = f"classroom_answer_form_{code}_{number}/Your answer"
                    while field_name not in screen.inputs:
                        await asyncio.sleep(STUDENT_REFRESH)
                        await screen.refresh(screen.fragment)
                    await asyncio.sleep(rng.uniform(0.2, 2.0))  # reading and thinking
                    submit = f"classroom_answer_form_{code}_{number}/Send my answer"
                    try:
                        await screen.send(
                            {field_name: rng.choice(OPTIONS)},
                            press=submit,
                            fragment=screen.inputs[field_name][2],
                        )
                    except NotSent:
                        raise  # the process had died while the student thought: answer again
                    except _LOST:
                        # cut off mid-send: stored or not, the student cannot know
                        out.unsure[number] = out.unsure.get(number, 0) + 1
                        answered.add(number)
                        raise
                    answered.add(number)
                    if not any(alert.startswith("Your answer:") for alert in screen.alerts):
                        out.errors.append(f"answer {k}/{number}: {screen.alerts}")
                        continue
                    acks.setdefault(number, []).append(time.perf_counter())
                    out.acked[number] = out.acked.get(number, 0) + 1
        except _LOST:
            await _reconnect_pause(out)


async def _chaos(cluster: Cluster | None, questions: int, room: _Room, out: Outcome) -> None:
    """Kill one app process in the middle of the round and start it again."""
    if cluster is None:
        return
    middle = max(1, (questions + 1) // 2)
    while out.acked.get(middle, 0) < out.students // 2:
        await asyncio.sleep(0.1)
    out.killed_at = f"question {middle}, after {out.acked.get(middle, 0)} of its answers"
    await asyncio.to_thread(cluster.restart, cluster.ports[-1])


async def _round(
    base: str, url: str, students: int, questions: int, cluster: Cluster | None
) -> tuple[Outcome, str]:
    out = Outcome(students, questions)
    room: _Room = {"ready": asyncio.Event(), "url": url}
    acks: dict[int, list[float]] = {}
    start = time.perf_counter()
    await asyncio.gather(
        _presenter(base, students, questions, room, out, acks),
        *(_student(base, k, questions, room, out, acks) for k in range(students)),
        _chaos(cluster, questions, room, out),
    )
    out.seconds = time.perf_counter() - start
    return out, room["code"]


class Cluster:
    """App processes on fixed loopback ports; one can be killed and started again."""

    def __init__(self, count: int) -> None:
        self.ports = [free_port() for _ in range(count)]
        self.processes: dict[int, subprocess.Popen[bytes]] = {}
        for port in self.ports:
            self._start(port)
        for port in self.ports:
            wait_healthy(f"http://{LOOPBACK}:{port}", process=self.processes[port])

    def _start(self, port: int) -> None:
        self.processes[port] = subprocess.Popen(
            streamlit_command(port), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
        )

    def restart(self, port: int) -> None:
        """SIGKILL the process on ``port`` (no goodbye), then start a new one there."""
        self.processes[port].kill()
        self.processes[port].wait()
        self._start(port)
        wait_healthy(f"http://{LOOPBACK}:{port}", process=self.processes[port])

    def close(self) -> None:
        for process in self.processes.values():
            process.terminate()
        for process in self.processes.values():
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _stored(url: str, code: str) -> dict[int, int]:
    engine = sa.create_engine(url)
    query = sa.text(
        "SELECT q.number, count(a.id) FROM rooms r JOIN questions q ON q.room_id = r.id "
        "LEFT JOIN answers a ON a.question_id = q.id WHERE r.code = :code "
        "GROUP BY q.number ORDER BY q.number"
    )
    with engine.connect() as db:
        rows = db.execute(query, {"code": code}).all()
    engine.dispose()
    return {int(number): int(count) for number, count in rows}


def run_classroom(
    students: int = 40, questions: int = 10, processes: int = 2, *, restart: bool = False
) -> Outcome:
    """Run one classroom round (``restart``: kill one process mid-run); print the report."""
    with postgres_server() as url:
        os.environ["CUBE_LAB_DATABASE_URL"] = url
        cluster = None
        try:
            cluster = Cluster(processes)
            with nginx([f"{LOOPBACK}:{port}" for port in cluster.ports]) as proxy:
                out, code = asyncio.run(
                    _round(proxy, url, students, questions, cluster if restart else None)
                )
        finally:
            del os.environ["CUBE_LAB_DATABASE_URL"]
            if cluster is not None:
                cluster.close()
        out.stored = _stored(url, code)
    _report(out, processes)
    return out


def verdict(out: Outcome) -> tuple[bool, str]:
    """Whether every answer was counted exactly once (and none lost), in words."""
    problems = []
    for number in range(1, out.questions + 1):
        acked, unsure = out.acked.get(number, 0), out.unsure.get(number, 0)
        shown, stored = out.shown.get(number, 0), out.stored.get(number, 0)
        if acked + unsure != out.students:
            problems.append(f"question {number}: {acked + unsure} of {out.students} sent")
        if not acked <= stored <= acked + unsure:
            problems.append(f"question {number}: {stored} stored for {acked} acknowledged")
        if shown != stored:
            problems.append(f"question {number}: presenter counted {shown}, {stored} stored")
    problems += out.errors
    if problems:
        return False, "NO: " + "; ".join(problems[:10])
    return True, "yes"


def _report(out: Outcome, processes: int) -> None:
    print(
        f"### Classroom: 1 presenter + {out.students} students, {out.questions} questions, "
        f"{processes} app processes behind nginx, one PostgreSQL ({out.seconds:.0f} s)\n"
    )
    if out.killed_at:
        print(
            f"One app process killed (SIGKILL) and restarted at {out.killed_at}; "
            f"{out.reconnects} session reconnects (a student who reconnects joins again).\n"
        )
    header = ["question", "acknowledged", "cut off mid-send", "presenter's count", "stored"]
    rows = [
        [
            number,
            out.acked.get(number, 0),
            out.unsure.get(number, 0),
            out.shown.get(number, 0),
            out.stored.get(number, 0),
        ]
        for number in range(1, out.questions + 1)
    ]
    print(markdown_table(header, rows))
    _, words = verdict(out)
    print(f"\nEvery answer counted exactly once and none lost: {words}")
    if out.latencies:
        print(
            f"Answer to the presenter's count ({len(out.latencies)} answers; the presenter's "
            f"view refreshes every {PRESENTER_REFRESH:g} s): median {ms(median(out.latencies))}, "
            f"p95 {ms(percentile(out.latencies, 95))}, max {ms(max(out.latencies))}"
        )


# hostile clients (issue #38 items 3 and 4) ----------------------------------------------
@dataclass
class Hostile:
    """What one client address got done against two app processes, each step in fresh
    sessions alternating between the processes (a fresh session reset the old limits)."""

    rooms: int = 0  # rooms opened before the first refusal
    rooms_refusal: str = ""
    joins: int = 0  # students joined into one room before the first refusal
    joins_refusal: str = ""
    misses: int = 0  # wrong room codes tried before the first refusal
    misses_refusal: str = ""
    right_code_refusal: str = ""  # a fresh session's right code, after the misses
    seconds: dict[str, float] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)


#: The words each limit's refusal starts with (store.classroom's messages).
_REFUSED = {
    "rooms": "Too many rooms have been opened from your network",
    "joins": "Too many students have joined from your network",
    "misses": "Too many wrong room codes have been tried from your network",
}


def _refusal(screen: Screen, step: str) -> str:
    """The alert of a refused step, as plain text ("" when none)."""
    for alert in screen.alerts:
        plain = alert.replace("\\", "")
        if plain.startswith(_REFUSED[step]):
            return plain
    return ""


async def _fresh(bases: list[str], k: int, page_query: str) -> Screen:
    screen = Screen(bases[k % len(bases)], random.Random(k))
    await screen.__aenter__()
    await screen.open("classroom", page_query)
    return screen


async def _hostile(bases: list[str], cap: int) -> Hostile:
    out = Hostile()
    first_code = ""
    start = time.perf_counter()
    for k in range(cap):  # rooms: the presenter's button, a fresh session each time
        screen = await _fresh(bases, k, "sec=Present")
        try:
            await screen.send({}, press="Open a new room")
            out.rooms_refusal = _refusal(screen, "rooms")
            if out.rooms_refusal:
                break
            if "Room code" not in screen.metrics:
                out.errors.append(f"room {k}: {screen.alerts}")
                break
            first_code = first_code or screen.metrics["Room code"][0]
            out.rooms += 1
        finally:
            await screen.__aexit__()
    out.seconds["rooms"] = time.perf_counter() - start
    start = time.perf_counter()
    for k in range(cap):  # students: a fresh session (a fresh identity) each time
        screen = await _fresh(bases, k, f"room={first_code}")
        try:
            await screen.send(
                {"classroom_join/Room code": first_code, "classroom_join/Nickname": f"bot{k}"},
                press="classroom_join/Join the room",
            )
            out.joins_refusal = _refusal(screen, "joins")
            if out.joins_refusal:
                break
            if not any(a.startswith("Waiting for the presenter") for a in screen.alerts):
                out.errors.append(f"join {k}: {screen.alerts}")  # not in the room
                break
            out.joins += 1
        finally:
            await screen.__aexit__()
    out.seconds["joins"] = time.perf_counter() - start
    start = time.perf_counter()
    rng = random.Random(38)
    for k in range(cap):  # guessed codes, a fresh session each time
        guess = "".join(rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        screen = await _fresh(bases, k, "")
        try:
            await screen.send(
                {"classroom_join/Room code": guess, "classroom_join/Nickname": "guess"},
                press="classroom_join/Join the room",
            )
            out.misses_refusal = _refusal(screen, "misses")
            if out.misses_refusal:
                break
            out.misses += 1
        finally:
            await screen.__aexit__()
    screen = await _fresh(bases, cap, "")
    try:
        await screen.send(
            {"classroom_join/Room code": first_code, "classroom_join/Nickname": "late"},
            press="classroom_join/Join the room",
        )
        out.right_code_refusal = _refusal(screen, "misses")
    finally:
        await screen.__aexit__()
    out.seconds["misses"] = time.perf_counter() - start
    return out


def hostile_verdict(out: Hostile) -> tuple[bool, str]:
    """Whether each limit held at its count (and the right code was refused too), in words."""
    problems = list(out.errors)
    for step, limit, done, refusal in (
        ("rooms", CLIENT_ROOMS, out.rooms, out.rooms_refusal),
        ("joins", CLIENT_JOINS, out.joins, out.joins_refusal),
        ("misses", CLIENT_CODE_MISSES, out.misses, out.misses_refusal),
    ):
        if done != limit.count or not refusal:
            problems.append(f"{step}: {done} done, limit {limit.count}, refused: {bool(refusal)}")
    if not out.right_code_refusal:
        problems.append("the right code was let in after the wrong ones")
    return (False, "NO: " + "; ".join(problems[:10])) if problems else (True, "yes")


def run_hostile(processes: int = 2) -> Hostile:
    """One client address against ``processes`` app processes on one store (a SQLite file
    in a fresh data directory): opens rooms, joins students into one room and guesses
    room codes, each step from fresh sessions until refused; prints the report."""
    import tempfile

    from bench.server import streamlit_servers

    cap = max(CLIENT_ROOMS.count, CLIENT_JOINS.count, CLIENT_CODE_MISSES.count) + 5
    with tempfile.TemporaryDirectory() as data:
        env = {"CUBE_LAB_DATA": data, "CUBE_LAB_DATABASE_URL": ""}
        with streamlit_servers(processes, env=env) as servers:
            out = asyncio.run(_hostile([base for base, _ in servers], cap))
    print(
        f"### Classroom limits: one client address, fresh sessions over {processes} app "
        "processes on one store\n"
    )
    rows = [
        [what, done, limit.count, f"{out.seconds.get(step, 0):.1f} s", refusal or "never"]
        for what, step, done, limit, refusal in (
            ("rooms opened", "rooms", out.rooms, CLIENT_ROOMS, out.rooms_refusal),
            ("students joined", "joins", out.joins, CLIENT_JOINS, out.joins_refusal),
            ("wrong codes", "misses", out.misses, CLIENT_CODE_MISSES, out.misses_refusal),
        )
    ]
    print(markdown_table(["step", "done", "limit", "time", "refused with"], rows))
    print(f"\nThe right code after the wrong ones: {out.right_code_refusal or 'let in'}")
    print(f"Every limit held: {hostile_verdict(out)[1]}")
    return out


# a position round (issue #40 item 4) -------------------------------------------------
#: The library position the class votes on (a double the opponent takes, stored 3-ply).
POSITION_ASKED = "early-hit-and-split"
_ESTIMATE = "Your winning chance for the player on roll, in percent (optional)"
_PASTE = "classroom_position/Or paste a Position ID, an XGID or a link to a position"


@dataclass
class VoteOutcome:
    """What a position round saw: votes sent, shown, stored; reloads that kept them."""

    students: int
    acked: dict[str, int] = field(default_factory=dict)  # vote -> acknowledged
    estimates: int = 0  # acknowledged votes that carried an estimate
    done: int = 0  # students who voted and reloaded
    shown: int = 0  # the presenter's count before the reveal
    bars: dict[str, int] = field(default_factory=dict)  # the presenter's histogram
    stored: dict[str, int] = field(default_factory=dict)  # vote -> rows in the database
    stored_estimates: int = 0
    stored_students: int = 0
    reloads: int = 0
    reloads_kept: int = 0  # reloads that showed the student's own vote, without a join form
    revealed: bool = False
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0


def _vote_bars(charts: list[str]) -> dict[str, int]:
    """The presenter's histogram of the votes (its bars' heights), by vote."""
    from ui.classroom.positions import VOTE_WORDS

    words = {word: vote for vote, word in VOTE_WORDS.items()}
    for spec in charts:
        figure = json.loads(spec)
        title = figure.get("layout", {}).get("title", {})
        if "votes" in str(title.get("text", "")):
            trace = figure["data"][0]
            return {words[x]: int(y) for x, y in zip(trace["x"], trace["y"], strict=True)}
    return {}


async def _position_presenter(base: str, room: _Room, out: VoteOutcome) -> None:
    async with Screen(base, random.Random(0), cookie=uuid.uuid4().hex) as screen:
        await screen.open("classroom", "sec=Present")
        await screen.send({}, press="Open a new room")
        room["code"] = screen.metrics["Room code"][0]
        room["key"] = next(c for c in screen.codes if _KEY_FORM.fullmatch(c))
        await screen.send(
            {_PASTE: f"/library?lib={POSITION_ASKED}"},
            press="classroom_position/Pose this position",
        )
        if screen.alerts or "Votes" not in screen.metrics:
            out.errors.append(f"ask: {screen.alerts}")
            room["ready"].set()
            return
        room["ready"].set()
        while True:
            await asyncio.sleep(PRESENTER_REFRESH)
            await screen.refresh(screen.metrics["Votes"][1])
            count = int(screen.metrics["Votes"][0])
            if out.done >= out.students and count >= sum(out.acked.values()):
                break
        out.shown = count
        out.bars = _vote_bars(screen.charts)
        await screen.send({}, press="Reveal the verdict", fragment=screen.metrics["Votes"][1])
        if screen.alerts:
            out.errors.append(f"reveal: {screen.alerts}")


async def _position_student(
    base: str, k: int, direct: list[str], room: _Room, out: VoteOutcome
) -> None:
    """Join, vote (every other student with an estimate), then reload on each app process
    (its own port, the same identity cookie): the vote and the student must be kept."""
    from store import POSITION_CHOICES, new_student_id
    from ui.classroom.positions import VOTE_WORDS
    from ui.student import COOKIE

    rng = random.Random(k)
    token = new_student_id()
    vote = rng.choice(POSITION_CHOICES)
    estimate = str(rng.randint(30, 90)) if k % 2 == 0 else ""
    await room["ready"].wait()
    code = room.get("code", "")
    route = uuid.uuid4().hex
    said = f"Your vote: {VOTE_WORDS[vote]}"
    try:
        async with Screen(
            base, rng, headers={"Cookie": f"stroute={route}; {COOKIE}={token}"}
        ) as one:
            await one.open("classroom", f"room={code}")
            await one.send(
                {"classroom_join/Room code": code, "classroom_join/Nickname": f"s{k:02d}"},
                press="classroom_join/Join the room",
            )
            form = f"classroom_vote_form_{code}_1"
            box = f"{form}/{_ESTIMATE}"
            for _ in range(60):
                if box in one.inputs:
                    break
                await asyncio.sleep(STUDENT_REFRESH)
                await one.refresh(one.fragment)
            else:
                out.errors.append(f"student {k}: no vote form")
                return
            await asyncio.sleep(rng.uniform(0.2, 2.0))  # looking at the board
            await one.send(
                {box: estimate}, press=f"{form}/{VOTE_WORDS[vote]}", fragment=one.inputs[box][2]
            )
            if not any(alert.startswith(said) for alert in one.alerts):
                out.errors.append(f"vote {k}: {one.alerts}")
                return
            out.acked[vote] = out.acked.get(vote, 0) + 1
            out.estimates += bool(estimate)
        for other in direct:  # a reload, on each app process
            async with Screen(other, rng, headers={"Cookie": f"{COOKIE}={token}"}) as again:
                await again.open("classroom", f"room={code}")
                out.reloads += 1
                kept = any(alert.startswith(said) for alert in again.alerts)
                if kept and again.find("Join the room") is None:
                    out.reloads_kept += 1
                else:
                    out.errors.append(f"reload {k}: {again.alerts}")
    finally:
        out.done += 1


def _stored_votes(url: str, code: str) -> tuple[dict[str, int], int, int]:
    """(rows per vote, estimates stored, students) of the room's question 1."""
    engine = sa.create_engine(url)
    votes = sa.text(
        "SELECT a.value, count(a.id), count(a.estimate) FROM rooms r "
        "JOIN questions q ON q.room_id = r.id JOIN answers a ON a.question_id = q.id "
        "WHERE r.code = :code AND q.number = 1 GROUP BY a.value"
    )
    people = sa.text(
        "SELECT count(s.id) FROM rooms r JOIN students s ON s.room_id = r.id WHERE r.code = :code"
    )
    with engine.connect() as db:
        rows = db.execute(votes, {"code": code}).all()
        students = db.execute(people, {"code": code}).scalar_one()
    engine.dispose()
    return (
        {str(value): int(count) for value, count, _ in rows},
        sum(int(row[2]) for row in rows),
        int(students),
    )


def run_position_round(students: int = 30, processes: int = 2) -> VoteOutcome:
    """The class votes on a library position: ``students`` over nginx and ``processes``
    app processes on PostgreSQL, each reloading once on every process; print the report."""
    out = VoteOutcome(students)
    with postgres_server() as url:
        os.environ["CUBE_LAB_DATABASE_URL"] = url
        cluster = None
        try:
            cluster = Cluster(processes)
            direct = [f"http://{LOOPBACK}:{port}" for port in cluster.ports]
            with nginx([f"{LOOPBACK}:{port}" for port in cluster.ports]) as proxy:

                async def _all() -> str:
                    room: _Room = {"ready": asyncio.Event(), "url": url}
                    await asyncio.gather(
                        _position_presenter(proxy, room, out),
                        *(_position_student(proxy, k, direct, room, out) for k in range(students)),
                    )
                    return room.get("code", "")

                start = time.perf_counter()
                code = asyncio.run(_all())
                out.seconds = time.perf_counter() - start
        finally:
            del os.environ["CUBE_LAB_DATABASE_URL"]
            if cluster is not None:
                cluster.close()
        out.stored, out.stored_estimates, out.stored_students = _stored_votes(url, code)
        out.revealed = code != "" and _room_state(url, code) == (1, 1)
    _position_report(out, processes)
    return out


def position_verdict(out: VoteOutcome) -> tuple[bool, str]:
    """Whether every vote was counted exactly once, the presenter's histogram equals the
    store's count, and every reload kept the student's vote and identity, in words."""
    problems = []
    acked = sum(out.acked.values())
    if acked != out.students:
        problems.append(f"{acked} of {out.students} votes acknowledged")
    if out.stored != out.acked:
        problems.append(f"stored {out.stored} for acknowledged {out.acked}")
    if out.shown != sum(out.stored.values()):
        problems.append(f"presenter counted {out.shown}, {sum(out.stored.values())} stored")
    if {vote: n for vote, n in out.bars.items() if n} != out.stored:
        problems.append(f"presenter's histogram {out.bars}, stored {out.stored}")
    if out.stored_estimates != out.estimates:
        problems.append(f"{out.stored_estimates} estimates stored for {out.estimates} sent")
    if out.stored_students != out.students:
        problems.append(f"{out.stored_students} students stored for {out.students}")
    if not out.revealed:
        problems.append("the position was not asked and revealed once")
    if out.reloads_kept != out.reloads or not out.reloads:
        problems.append(f"{out.reloads_kept} of {out.reloads} reloads kept the vote")
    problems += out.errors
    if problems:
        return False, "NO: " + "; ".join(problems[:10])
    return True, "yes"


def _position_report(out: VoteOutcome, processes: int) -> None:
    print(
        f"### Classroom position vote: 1 presenter + {out.students} students, "
        f"{processes} app processes behind nginx, one PostgreSQL ({out.seconds:.0f} s)\n"
    )
    header = ["vote", "acknowledged", "presenter's histogram", "stored"]
    rows = [
        [vote, out.acked.get(vote, 0), out.bars.get(vote, 0), out.stored.get(vote, 0)]
        for vote in ("ND", "DT", "DP")
    ]
    print(markdown_table(header, rows))
    print(
        f"\nPresenter's count {out.shown}; estimates {out.estimates} sent, "
        f"{out.stored_estimates} stored; {out.stored_students} students in the room; "
        f"{out.reloads_kept} of {out.reloads} reloads (each student once on each process) "
        "kept the student's vote and identity."
    )
    _, words = position_verdict(out)
    print(f"Every vote counted exactly once, histogram equal to the store: {words}")
