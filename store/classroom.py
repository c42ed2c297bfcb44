"""The classroom store: rooms, questions and answers shared between sessions and processes.

A presenter opens a room (:meth:`Classroom.open_room`) and gets a short public room
code for the students and a separate presenter key (stored only as its SHA-256); every
presenter action takes the code and a credential: the key, or the identity token of the
visitor who opened the room (so a reload, on any app process, resumes it). Students join
with the code and their identity token (:meth:`Classroom.join`; one student per token and
room, however often they reload or join again) and answer (:meth:`Classroom.submit`): one
stored answer per student and question (a re-submit replaces it, sending the same value
again changes nothing, and a student may change an answer at most :data:`MAX_SUBMISSIONS`
times); only the open question (the newest, until revealed) takes answers. The presenter
may remove a student. Joins, answers, rooms opened and wrong room codes are limited per
client address (:data:`LIMITS`, counted in the database so that the limits hold across
sessions and app processes) and students per room (:data:`ROOM_STUDENTS`).

A question may be a position (:meth:`Classroom.ask_position`): a library position, a
link or a pasted Position ID or XGID (:func:`read_position_source`); the students vote
no double, double/take or double/pass (:data:`POSITION_CHOICES`) with an optional
estimate of the winning chance, and its verdict (:class:`PositionVerdict`: the library's
stored evaluation, else the engine at :data:`POSITION_LEVEL`) is computed once, when it
is asked, and stored hidden until the reveal; :meth:`Classroom.positions_frame` is the
room's record of the positions asked and their votes.

The same database keeps the drills' answers by student token
(:meth:`Classroom.keep_drill_answer`), so that a reload keeps a quiz's score. The
database is SQLite in the data directory by default and PostgreSQL when
``CUBE_LAB_DATABASE_URL`` is set (:func:`database_url`); the schema comes from the
Alembic migrations, run on start (:func:`migrate`). This module has no streamlit import:
the pages (``ui/classroom``, ``ui/drills``) are clients, the tests and the load bench
are others.

Every function that takes text from a person validates it and raises ``ValueError``
with a message that says what was wrong without repeating the text (it may be 10 kB of
HTML); a wrong type raises ``TypeError``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import os
import re
import secrets
import sqlite3
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pandas as pd
from sqlalchemy import Engine, create_engine, event, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, RowMapping
from sqlalchemy.exc import IntegrityError

from cubecore import engine as cube_engine
from cubecore import library as cube_library
from cubecore.match_points import CubeOwner
from cubecore.position import Position, position_from_id, position_id, xgid_info
from cubecore.position_text import match_id_info, players_words
from store.schema import (
    ANSWER_CHARS,
    CODE_LENGTH,
    DRILL_QUIZ_CHARS,
    EXPLANATION_CHARS,
    NICKNAME_CHARS,
    OPTION_CHARS,
    PROMPT_CHARS,
    answers,
    client_events,
    drill_answers,
    questions,
    rooms,
    students,
)

__all__ = [
    "CLIENT_ANSWERS",
    "CLIENT_CODE_MISSES",
    "CLIENT_JOINS",
    "CLIENT_ROOMS",
    "CODE_ALPHABET",
    "DRILL_RETENTION",
    "LIMITS",
    "MAX_OPEN_ROOMS",
    "MAX_OPTIONS",
    "MAX_QUESTIONS",
    "MAX_SUBMISSIONS",
    "POSITION_CHOICES",
    "POSITION_LEVEL",
    "RETENTION",
    "ROOM_LIFETIME",
    "ROOM_STUDENTS",
    "Classroom",
    "Limit",
    "OpenedRoom",
    "PositionAsked",
    "PositionVerdict",
    "Question",
    "RoomInfo",
    "Student",
    "Tally",
    "clean_code",
    "clean_nickname",
    "database_url",
    "limit_client",
    "migrate",
    "new_student_id",
    "open_database",
    "read_position_source",
]


@dataclass(frozen=True)
class Limit:
    """At most ``count`` actions of one ``kind`` per client address in any ``window``.

    ``message`` is what the person is told (players' words); ``{minutes}`` is filled in
    with how long until the oldest counted action leaves the window.
    """

    kind: str
    count: int
    window: timedelta
    message: str


#: Limits per client address. A school's class often reaches the app from one public
#: address, so each is set for a class of 60 behind one address and is far below what a
#: script sends (200 joins in 12.5 s, 885 rooms in 21 s were measured without limits).
CLIENT_JOINS = Limit(  # a class of 60 joining, each maybe twice (another phone, a typo)
    "join",
    120,
    timedelta(hours=1),
    "Too many students have joined from your network in the last hour: try again in {minutes}.",
)
CLIENT_ANSWERS = Limit(  # 60 students answering and changing their minds in 10 minutes
    "answer",
    600,
    timedelta(minutes=10),
    "Too many answers have come from your network in the last few minutes: "
    "send yours again in {minutes}.",
)
CLIENT_ROOMS = Limit(  # a teacher opens a room per class; a few more for trials
    "room",
    10,
    timedelta(hours=1),
    "Too many rooms have been opened from your network in the last hour: "
    "use one you opened, or try again in {minutes}.",
)
CLIENT_CODE_MISSES = Limit(  # a class's typos; the guessing rate of CODE_ALPHABET's arithmetic
    "miss",
    20,
    timedelta(minutes=10),
    "Too many wrong room codes have been tried from your network: check the code with "
    "your presenter and try again in {minutes}.",
)
LIMITS = (CLIENT_JOINS, CLIENT_ANSWERS, CLIENT_ROOMS, CLIENT_CODE_MISSES)
#: Students in one room: a large lecture; a room's code known to a stranger cannot be
#: stuffed with more.
ROOM_STUDENTS = 200
#: Rooms open at once across the app: the bound on open rooms of the code arithmetic below.
MAX_OPEN_ROOMS = 10_000

#: Room-code characters: capitals and digits without the look-alikes I, L, O, 0 and 1.
#:
#: Why codes have 9 of them (:data:`store.schema.CODE_LENGTH`): 31**9 = 26,439,622,160,671
#: (about 2.6e13) codes. At most :data:`MAX_OPEN_ROOMS` = 10,000 rooms are open at once;
#: one client address may try :data:`CLIENT_CODE_MISSES` = 20 wrong codes per 10 minutes,
#: 2 a minute, so 480 tries within a room's :data:`ROOM_LIFETIME` of 4 hours. The chance
#: that any of them hits an open room is at most 480 * 10,000 / 31**9 = 1.8e-7 < 1e-6.
#: (With 8 characters it would be 480 * 10,000 / 31**8 = 5.6e-6, too much.) An attacker
#: with k addresses multiplies it by k.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: How long a room stays open after it was opened.
ROOM_LIFETIME = timedelta(hours=4)
#: How long an expired or closed room's answers (nicknames included) are kept for the
#: presenter's CSV (the day after class); after that the room is deleted (:meth:`Classroom.purge`,
#: run whenever a room is opened or a student joins).
RETENTION = timedelta(days=1)
#: How long a student's drill answers are kept (a quiz link's attempt survives reloads).
DRILL_RETENTION = timedelta(days=7)
#: Questions per room, options per choice question, answers a student may send per question.
MAX_QUESTIONS = 100
MAX_OPTIONS = 6
MAX_SUBMISSIONS = 5

_MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_ROOT = Path(__file__).resolve().parents[1]
_SECRET_BYTES = 18  # token_urlsafe(18): 24 characters, 144 bits
_SECRET_FORM = re.compile(r"[A-Za-z0-9_-]{24}")
_STUDENT_FORM = re.compile(r"[0-9a-f]{32}")
_CLIENT_CHARS = 64
_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]{1,3})?")
_LONGEST_SECRET = 100
_TOLERANCE_MAX = 1e9
_KINDS = ("numeric", "choice")
#: The three answers of a position question (a class vote on the cube action).
POSITION_CHOICES = ("ND", "DT", "DP")
#: The engine's level for a position that is not in the library: the network alone
#: (gnubg's 0-ply), a few hundredths of a second; computed once, when it is asked.
POSITION_LEVEL = "1-ply"
#: The library's stored level for its positions' verdicts.
LIBRARY_LEVEL = "3-ply"
_SOURCE_CHARS = 2000  # a pasted link or position text
_LIBRARY_ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
_MAX_CUBE = 64  # the board draws cubes up to 64

Clock = Callable[[], datetime]


def _utc_now() -> datetime:
    return datetime.now(UTC)


def database_url(environ: Mapping[str, str] | None = None) -> str:
    """The database the store uses.

    ``CUBE_LAB_DATABASE_URL`` when set (``postgresql://user@host/db`` uses psycopg 3);
    otherwise the SQLite file ``classroom.sqlite3`` in the data directory:
    ``CUBE_LAB_DATA``, or ``data/`` at the repository root, created on demand.
    """
    environ = os.environ if environ is None else environ
    url = environ.get("CUBE_LAB_DATABASE_URL", "").strip()
    if url:
        for prefix in ("postgresql://", "postgres://"):
            if url.startswith(prefix):
                return "postgresql+psycopg://" + url[len(prefix) :]
        return url
    folder = Path(environ.get("CUBE_LAB_DATA", "").strip() or _ROOT / "data")
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'classroom.sqlite3'}"


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the database to ``revision`` (Alembic ``upgrade``; the newest by default).

    Idempotent: a database already there is left as it is. On SQLite the foreign keys
    are off while migrating: a migration that changes a column rebuilds the table
    (copy, drop, rename), and dropping ``rooms`` with the keys on would delete every
    question and answer of it (``ON DELETE CASCADE``). The pragma works only outside a
    transaction, so it is set on the driver's connection before the migration begins.
    """
    # imported here: Alembic (with Mako and Pygments) takes about 0.4 s to import, and a
    # process that never opens the store (a rollout worker, a page without one) skips it
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    with engine.connect() as connection:
        raw = connection.connection.driver_connection
        is_sqlite = isinstance(raw, sqlite3.Connection)
        if isinstance(raw, sqlite3.Connection):
            raw.execute("PRAGMA foreign_keys=OFF")
        try:
            with connection.begin():
                config.attributes["connection"] = connection
                command.upgrade(config, revision)
        finally:
            if is_sqlite and isinstance(raw, sqlite3.Connection):
                raw.execute("PRAGMA foreign_keys=ON")


def new_student_id() -> str:
    """A fresh identity token (32 hex digits): one per visitor (``ui/student.py``)."""
    return secrets.token_hex(16)


def _token(value: object) -> str:
    if not isinstance(value, str) or not _STUDENT_FORM.fullmatch(value):
        raise ValueError("student id must be 32 hexadecimal digits (see new_student_id)")
    return value


def _minutes(wait: timedelta) -> str:
    minutes = max(1, math.ceil(wait.total_seconds() / 60))
    return f"{minutes} minute{'s' if minutes > 1 else ''}"


def _text(name: str, value: object, limit: int) -> str:
    """``value`` as NFC text without surrounding blanks, or a ValueError naming ``name``."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be text (got {type(value).__name__})")
    cleaned = unicodedata.normalize("NFC", value).strip()
    if not cleaned:
        raise ValueError(f"The {name} is empty.")
    if len(cleaned) > limit:
        raise ValueError(
            f"The {name} is {len(cleaned)} characters long; the limit is {limit} characters."
        )
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in cleaned):
        raise ValueError(
            f"The {name} contains invisible or control characters (such as a "
            "right-to-left override); use letters, digits, spaces and punctuation."
        )
    return cleaned


def clean_nickname(value: object) -> str:
    """A nickname as stored: 1 to 24 visible characters (any script, right-to-left too)."""
    return _text("nickname", value, NICKNAME_CHARS)


def clean_code(value: object) -> str:
    """A room code as typed (any case, blanks around) in canonical form, or a ValueError.

    A presenter key typed where the room code goes is named as such (and not echoed).
    """
    if not isinstance(value, str):
        raise TypeError(f"room code must be text (got {type(value).__name__})")
    code = value.strip()
    if not code:
        raise ValueError(
            f"The room code is empty: type the {CODE_LENGTH} characters your presenter shows."
        )
    if _SECRET_FORM.fullmatch(code):
        raise ValueError(
            "That is a presenter key, not a room code. Keep the key secret; students "
            f"join with the {CODE_LENGTH}-character room code."
        )
    if len(code) != CODE_LENGTH:
        raise ValueError(
            f"A room code has {CODE_LENGTH} characters; this one has {min(len(code), 9999)}."
        )
    code = code.upper()
    if any(ch not in CODE_ALPHABET for ch in code):
        raise ValueError(
            f"A room code uses only the characters {CODE_ALPHABET} "
            "(no I, L, O, 0 or 1); check the code."
        )
    return code


def _clean_number(name: str, value: object) -> str:
    """A decimal number as text, normalised (``" 0.50 "`` -> ``"0.5"``)."""
    text = _text(name, value, ANSWER_CHARS)
    if not _NUMBER.fullmatch(text):
        raise ValueError(f"The {name} is not a number: write it like 0.25, 12 or -3.5.")
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"The {name} is too large.")
    return format(number, ".12g")


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


# position questions ------------------------------------------------------------------
_OWNER_WORDS = {"center": "centred cube", "player": "owns the cube", "opponent": "owned cube"}


@dataclass(frozen=True)
class PositionAsked:
    """The position of a position question: checkers, cube, where it came from.

    ``position_id`` is the checkers' GNU Backgammon Position ID (canonical, whatever
    was pasted); ``cube`` and ``owner`` (``"center"``, ``"player"`` on roll,
    ``"opponent"``) the cube; ``library_id`` and ``title`` name a library position.
    Money play.
    """

    position_id: str
    cube: int
    owner: CubeOwner
    library_id: str | None = None
    title: str = ""

    @property
    def position(self) -> Position:
        """The checkers."""
        return position_from_id(self.position_id)


@dataclass(frozen=True)
class PositionVerdict:
    """The verdict of a position question and the engine's numbers behind it.

    Computed once, when the question is asked, and stored: the library's stored
    evaluation (:data:`LIBRARY_LEVEL`) for a library position, else the engine at
    :data:`POSITION_LEVEL`. Equities are money equities per unit of the cube, from the
    player on roll's view; ``cube_life`` is the implied cube life x of the no-double
    equity (:func:`cubecore.engine.implied_cube_life`), None where it is undefined
    (``cube_life_note`` says why).
    """

    verdict: str
    action: str
    source: str
    level: str
    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float
    cubeless_equity: float
    no_double: float
    double_take: float | None
    double_pass: float | None
    cube_life: float | None
    cube_life_note: str

    @property
    def right_vote(self) -> str:
        """The vote among :data:`POSITION_CHOICES` that is right: too good to double
        (play on for the gammon) is a no double."""
        return "ND" if self.verdict == "TG" else self.verdict

    @property
    def probabilities(self) -> tuple[float, float, float, float, float]:
        """The five cubeless chances (win, win gammon, win backgammon, lose gammon,
        lose backgammon)."""
        return (
            self.win,
            self.win_gammon,
            self.win_backgammon,
            self.lose_gammon,
            self.lose_backgammon,
        )


def _library_pick(key: str) -> PositionAsked:
    try:
        item = cube_library.library_position(key)
    except ValueError:
        shown = key if len(key) <= 40 else key[:40] + "..."
        raise ValueError(
            f"The library has no position called {shown!r}: pick one from the library's list."
        ) from None
    return PositionAsked(item.position_id, item.cube, item.owner, item.id, item.title)


def _owner_of(owner_is_on_roll: bool | None) -> CubeOwner:
    if owner_is_on_roll is None:
        return "center"
    return "player" if owner_is_on_roll else "opponent"


def _money_only(length: int) -> None:
    if length:
        raise ValueError(
            f"That position is from a {length}-point match: a class vote is on money "
            "play; paste a money position (or its Position ID alone)."
        )


def _pasted(text: str) -> PositionAsked:
    """A Position ID, PositionID:MatchID or XGID (money play) as a position question's."""
    try:
        if text.upper().startswith("XGID="):
            info = xgid_info(text)
            _money_only(info.match_length)
            owner_on_roll = None
            if info.cube_owner:
                owner_on_roll = (info.cube_owner == 1) == info.bottom_on_roll
            return PositionAsked(
                position_id(info.position), info.cube_value, _owner_of(owner_on_roll)
            )
        if ":" in text:
            pid, _, mid = text.partition(":")
            checkers = position_from_id(pid.strip())
            match = match_id_info(mid.strip())
            _money_only(match.match_length)
            owner_on_roll = None
            if match.cube_owner is not None:
                owner_on_roll = match.cube_owner == match.player_on_roll
            return PositionAsked(position_id(checkers), match.cube_value, _owner_of(owner_on_roll))
        return PositionAsked(position_id(position_from_id(text)), 1, "center")
    except ValueError as error:
        raise ValueError(
            f"That position cannot be read: {players_words(str(error))[:300]}"
        ) from None


def read_position_source(text: object) -> PositionAsked:
    """What a presenter typed to ask a position: a library id, a link, or a position.

    Read, in order: a link (``http...`` or ``/...``, ``?...``) to the library page
    (``lib=`` its id) or the position page (``pos=`` a Position ID or XGID); a library
    id (lower-case words joined by hyphens); an XGID; a Position ID with a gnubg Match
    ID (``PositionID:MatchID``); a Position ID. The checkers are checked and written as
    their Position ID (:mod:`cubecore.position`); cube and owner come from the XGID or
    Match ID (a centred cube otherwise). Money play only. The position must not be
    over, and the cube at most 64.

    Raises ``ValueError`` saying what was wrong (an unknown library id, a link naming no
    position, an illegal position, a match score).
    """
    body = _text("position", text, _SOURCE_CHARS)
    if body.lower().startswith(("http://", "https://", "/", "?")) or "?lib=" in body:
        query = parse_qs(urlsplit(body).query)
        if "lib" in query:
            asked = _library_pick(query["lib"][0].strip())
        elif "pos" in query:
            asked = _pasted(query["pos"][0].strip()[:_SOURCE_CHARS])
        else:
            raise ValueError(
                "That link names no position: copy the link of a library position "
                "or of the position page."
            )
    elif _LIBRARY_ID.fullmatch(body) and (
        "-" in body or len(body) != 14 or any(item.id == body for item in cube_library.library())
    ):
        asked = _library_pick(body)
    else:
        asked = _pasted(body)
    checkers = asked.position
    if checkers.on_roll_borne_off == 15 or checkers.opponent_borne_off == 15:
        raise ValueError("That game is over (one side has borne off every checker).")
    if asked.cube > _MAX_CUBE:
        raise ValueError(f"The cube is on {asked.cube}: a class vote takes cubes up to 64.")
    if (asked.cube == 1) != (asked.owner == "center"):
        raise ValueError(
            f"The cube is on {asked.cube} and "
            f"{'in the middle' if asked.owner == 'center' else 'owned'}: a cube on 1 is in "
            "the middle and a turned cube has an owner; check the cube of that position."
        )
    return asked


def _verdict_of(asked: PositionAsked) -> PositionVerdict:
    """The stored verdict of the library, or the engine's at :data:`POSITION_LEVEL`."""
    if asked.library_id is not None:
        stored = cube_library.evaluation(asked.library_id, "money", LIBRARY_LEVEL)
        p: tuple[float, ...] = (
            stored.win,
            stored.win_gammon,
            stored.win_backgammon,
            stored.lose_gammon,
            stored.lose_backgammon,
        )
        verdict, action, source, level = stored.verdict, stored.action, "library", LIBRARY_LEVEL
        cubeless, nd, dt, dp = (
            stored.cubeless_equity,
            stored.no_double,
            stored.double_take,
            stored.double_pass,
        )
    else:
        try:
            d = cube_engine.evaluate(
                asked.position, level=POSITION_LEVEL, cube=asked.cube, owner=asked.owner
            )
        except (TimeoutError, RuntimeError, OSError) as error:
            raise ValueError(
                f"The engine could not evaluate that position just now ({type(error).__name__}): "
                "try again in a moment."
            ) from None
        pr = d.probabilities
        p = (pr.win, pr.win_gammon, pr.win_backgammon, pr.lose_gammon, pr.lose_backgammon)
        verdict = cube_library.verdict_of(d.action, d.doubles, d.taker_passes, d.cube_available)
        action, source, level = d.action, "engine", POSITION_LEVEL
        cubeless, nd, dt, dp = d.cubeless_equity, d.no_double, d.double_take, d.double_pass
    if verdict == "NA" or dt is None:
        raise ValueError(
            "The player on roll cannot double in that position (the opponent owns the "
            "cube): a class vote needs a cube decision."
        )
    implied = cube_engine.implied_cube_life(p, nd, cube=asked.cube, owner=asked.owner)
    return PositionVerdict(
        verdict=verdict,
        action=action,
        source=source,
        level=level,
        win=float(p[0]),
        win_gammon=float(p[1]),
        win_backgammon=float(p[2]),
        lose_gammon=float(p[3]),
        lose_backgammon=float(p[4]),
        cubeless_equity=float(cubeless),
        no_double=float(nd),
        double_take=None if dt is None else float(dt),
        double_pass=None if dp is None else float(dp),
        cube_life=implied.x,
        cube_life_note=implied.reason,
    )


def _clean_estimate(value: object) -> float | None:
    """A student's estimate of the winning chance, in percent (0 to 100), or None."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise TypeError("estimate must be a number")
    if isinstance(value, (int, float)):
        number = float(value)
    else:
        text = _text("winning chance", value, ANSWER_CHARS).removesuffix("%").strip()
        if not _NUMBER.fullmatch(text):
            raise ValueError("The winning chance is not a number: write it like 62 or 62.5.")
        number = float(text)
    if not (math.isfinite(number) and 0.0 <= number <= 100.0):
        raise ValueError("The winning chance is a percentage from 0 to 100.")
    return round(number, 1)


@dataclass(frozen=True)
class OpenedRoom:
    """A room just opened: its public code and the presenter key (shown once)."""

    code: str
    secret: str
    expires_at: datetime


@dataclass(frozen=True)
class RoomInfo:
    """What anyone who knows a room's code may see of it."""

    code: str
    created_at: datetime
    expires_at: datetime
    closed: bool
    questions: int


@dataclass(frozen=True)
class Question:
    """A question as a student sees it: the answer key and explanation only once revealed."""

    number: int
    kind: str
    prompt: str
    options: tuple[str, ...]
    revealed: bool
    answer_key: str | None
    tolerance: float
    explanation: str | None = None
    #: A position question's position (shown to all) and verdict (once revealed).
    position: PositionAsked | None = None
    verdict: PositionVerdict | None = None

    def is_correct(self, value: str) -> bool | None:
        """Whether ``value`` (as stored) is right; ``None`` while the key is hidden."""
        if self.answer_key is None:
            return None
        if self.kind in ("choice", "position"):
            return value == self.answer_key
        return abs(float(value) - float(self.answer_key)) <= self.tolerance


@dataclass(frozen=True)
class Tally:
    """Every stored answer of one question, without who gave it."""

    question: Question
    values: tuple[str, ...]
    #: A position question's winning-chance estimates (percent), one per answer
    #: (None where the student gave none).
    estimates: tuple[float | None, ...] = ()

    @property
    def count(self) -> int:
        return len(self.values)

    def choice_counts(self) -> dict[str, int]:
        """Answers per option, in the options' order (a choice question)."""
        counts = dict.fromkeys(self.question.options, 0)
        for value in self.values:
            counts[value] = counts.get(value, 0) + 1
        return counts

    def numbers(self) -> tuple[float, ...]:
        """The answers as numbers (a numeric question)."""
        return tuple(float(value) for value in self.values)

    def given_estimates(self) -> tuple[float, ...]:
        """The winning-chance estimates the students gave (percent)."""
        return tuple(value for value in self.estimates if value is not None)


@dataclass(frozen=True)
class Student:
    """A student in a room, as the presenter sees them: a number in the room, the nickname."""

    number: int
    nickname: str
    answers: int


def limit_client(
    db: Connection, limit: Limit, client: str | None, now: datetime, *, count: bool = True
) -> None:
    """Refuse when ``client`` has used ``limit`` up; else count one action if ``count``.

    The actions are rows of ``client_events`` (kind, client, time), so the limit holds
    across sessions and app processes; every store of the app counts its clients here.
    ``client`` ``None`` is a trusted caller (a test, a script), not limited. Two
    processes counting the same client at the same instant may each let one action
    through past the limit on PostgreSQL (read committed); SQLite serialises them.
    """
    if client is None:
        return
    if not isinstance(client, str):
        raise TypeError(f"client must be text (got {type(client).__name__})")
    who = client[:_CLIENT_CHARS]
    mine = (
        (client_events.c.client == who)
        & (client_events.c.kind == limit.kind)
        & (client_events.c.at > now - limit.window)
    )
    used, oldest = db.execute(select(func.count(), func.min(client_events.c.at)).where(mine)).one()
    if used >= limit.count:
        raise ValueError(limit.message.format(minutes=_minutes(oldest + limit.window - now)))
    if count:
        db.execute(client_events.insert().values(kind=limit.kind, client=who, at=now))


def open_database(url: str) -> Engine:
    """The engine of the app's database at ``url``, migrated to the newest revision.

    SQLite gets its write-ahead log, foreign keys and immediate transactions
    (:func:`_configure_sqlite`) and a 30 s busy wait; PostgreSQL a liveness check of
    pooled connections. Every store of the app (classroom, drill answers, rollouts,
    rollout queue) opens its database here.
    """
    is_sqlite = url.startswith("sqlite")
    engine = create_engine(
        url,
        pool_pre_ping=not is_sqlite,
        connect_args={"timeout": 30} if is_sqlite else {},
    )
    if is_sqlite:
        _configure_sqlite(engine)
    migrate(engine)
    return engine


def _configure_sqlite(engine: Engine) -> None:
    """Write-ahead log, foreign keys, a busy wait, and every transaction ``BEGIN IMMEDIATE``.

    With pysqlite's deferred transactions a read that turns into a write can fail at
    once ("database is locked") when another connection wrote in between; taking the
    write lock at BEGIN makes concurrent writers wait their turn instead.
    """

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: sqlite3.Connection, _record: object) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


class Classroom:
    """The classroom store on one database.

    Parameters
    ----------
    url : str, optional
        SQLAlchemy database URL; :func:`database_url` when not given.
    clock : callable, optional
        Returns the current time (timezone-aware); tests pass a fake clock.

    Every public method opens its own short transaction, so one ``Classroom`` may be
    shared by the threads of a server process (the page keeps one per process).
    """

    def __init__(self, url: str | None = None, *, clock: Clock | None = None) -> None:
        self.url = database_url() if url is None else url
        self._clock = clock or _utc_now
        self.engine = open_database(self.url)

    def dispose(self) -> None:
        """Close the connection pool."""
        self.engine.dispose()

    # time ------------------------------------------------------------------------------
    def now(self) -> datetime:
        """The current time as stored (naive UTC)."""
        return self._clock().astimezone(UTC).replace(tzinfo=None)

    # limits ----------------------------------------------------------------------------
    def _limited(self, db: Connection, limit: Limit, client: str | None, *, count: bool) -> None:
        """:func:`limit_client` at this store's time."""
        limit_client(db, limit, client, self.now(), count=count)

    def _count(self, limit: Limit, client: str | None) -> None:
        """Count one action of ``client`` in its own transaction (kept when the caller fails)."""
        if client is None:
            return
        with self.engine.begin() as db:
            db.execute(
                client_events.insert().values(
                    kind=limit.kind, client=client[:_CLIENT_CHARS], at=self.now()
                )
            )

    # rooms -----------------------------------------------------------------------------
    def purge(self) -> int:
        """Delete rooms that expired more than :data:`RETENTION` ago; how many were deleted.

        Their questions, students and answers go with them (foreign keys ``ON DELETE
        CASCADE``); so do the limits' counts older than their longest window and drill
        answers older than :data:`DRILL_RETENTION`.
        """
        now = self.now()
        longest = max(limit.window for limit in LIMITS)
        with self.engine.begin() as db:
            gone = db.execute(rooms.delete().where(rooms.c.expires_at < now - RETENTION))
            db.execute(client_events.delete().where(client_events.c.at < now - longest))
            db.execute(
                drill_answers.delete().where(drill_answers.c.answered_at < now - DRILL_RETENTION)
            )
            return int(gone.rowcount or 0)

    def open_room(self, owner: str | None = None, *, client: str | None = None) -> OpenedRoom:
        """Open a new room; the presenter key in the result is not stored and not shown again.

        ``owner`` is the identity token of the visitor opening it: it works as the
        presenter key for them (stored as its SHA-256), so their reload resumes the
        room. ``client`` is their address (:data:`CLIENT_ROOMS`). Rooms past their
        retention are deleted first (:meth:`purge`); at most :data:`MAX_OPEN_ROOMS` are
        open at once.
        """
        owner_hash = None if owner is None else _hash(_token(owner))
        self.purge()
        secret = secrets.token_urlsafe(_SECRET_BYTES)
        now = self.now()
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            try:
                with self.engine.begin() as db:
                    self._limited(db, CLIENT_ROOMS, client, count=False)
                    still_open = db.execute(
                        select(func.count())
                        .select_from(rooms)
                        .where(rooms.c.expires_at > now, rooms.c.closed_at.is_(None))
                    ).scalar_one()
                    if still_open >= MAX_OPEN_ROOMS:
                        raise ValueError(
                            "The classroom is full right now (too many rooms are open): "
                            "try again later."
                        )
                    db.execute(
                        rooms.insert().values(
                            code=code,
                            secret_hash=_hash(secret),
                            owner_hash=owner_hash,
                            created_at=now,
                            expires_at=now + ROOM_LIFETIME,
                        )
                    )
                    self._limited(db, CLIENT_ROOMS, client, count=True)
            except IntegrityError:
                continue  # that code is taken: draw another
            return OpenedRoom(code, secret, now + ROOM_LIFETIME)
        raise RuntimeError("no free room code found in 20 draws")  # pragma: no cover

    def owns(self, code: object, owner: object) -> bool:
        """Whether the visitor with identity token ``owner`` opened room ``code``.

        False for a room that does not exist (any more) or a malformed token.
        """
        if not isinstance(owner, str) or not _STUDENT_FORM.fullmatch(owner):
            return False
        try:
            with self.engine.begin() as db:
                row = self._room(db, code)
        except ValueError:
            return False
        return row["owner_hash"] is not None and hmac.compare_digest(
            row["owner_hash"], _hash(owner)
        )

    def new_key(self, code: object, secret: object) -> str:
        """A new presenter key for the room (the old key stops working); shown once."""
        fresh = secrets.token_urlsafe(_SECRET_BYTES)
        with self.engine.begin() as db:
            row = self._presenter(db, code, secret)
            db.execute(
                update(rooms).where(rooms.c.id == row["id"]).values(secret_hash=_hash(fresh))
            )
        return fresh

    def _room(self, db: Connection, code: object) -> RowMapping:
        canonical = clean_code(code)
        row = db.execute(select(rooms).where(rooms.c.code == canonical)).mappings().first()
        if row is None:
            raise ValueError(f"There is no room {canonical}: check the code with your presenter.")
        return row

    def _open(self, db: Connection, code: object) -> RowMapping:
        row = self._room(db, code)
        if row["closed_at"] is not None:
            raise ValueError(f"Room {row['code']} was closed by its presenter.")
        if self.now() >= row["expires_at"]:
            raise ValueError(f"Room {row['code']} has expired.")
        return row

    def _presenter(self, db: Connection, code: object, secret: object) -> RowMapping:
        row = self._room(db, code)
        if not isinstance(secret, str):
            raise TypeError(f"presenter key must be text (got {type(secret).__name__})")
        given = _hash(secret.strip()[:_LONGEST_SECRET])
        by_key = hmac.compare_digest(given, row["secret_hash"])
        by_owner = row["owner_hash"] is not None and hmac.compare_digest(given, row["owner_hash"])
        if not (by_key or by_owner):
            raise ValueError(f"The presenter key does not match room {row['code']}.")
        return row

    def _info(self, db: Connection, row: RowMapping) -> RoomInfo:
        count = db.execute(
            select(func.count()).select_from(questions).where(questions.c.room_id == row["id"])
        ).scalar_one()
        return RoomInfo(
            code=row["code"],
            created_at=row["created_at"],
            expires_at=row["expires_at"],
            closed=row["closed_at"] is not None,
            questions=int(count),
        )

    def join(
        self,
        code: object,
        student_id: object = None,
        nickname: object = None,
        *,
        client: str | None = None,
    ) -> RoomInfo:
        """The room a student joins: ValueError if unknown, expired, closed or full.

        With ``student_id`` (the visitor's identity token) and ``nickname`` the student
        is recorded in the room: one student per token, so joining again (after a
        reload, on any app process, under any nickname) is the same student, with the
        nickname updated. A student the presenter removed cannot join again. ``client``
        is the address the request came from: a wrong or closed room code counts
        against :data:`CLIENT_CODE_MISSES` (tried before the code is looked up), a new
        student against :data:`CLIENT_JOINS`; a room takes :data:`ROOM_STUDENTS`.
        """
        token = None if student_id is None else _token(student_id)
        name = None if token is None else clean_nickname(nickname)
        with self.engine.begin() as db:
            self._limited(db, CLIENT_CODE_MISSES, client, count=False)
        try:
            with self.engine.begin() as db:
                room = self._open(db, code)
        except ValueError:
            self._count(CLIENT_CODE_MISSES, client)
            raise
        if token is None:
            with self.engine.begin() as db:
                return self._info(db, room)
        self.purge()
        with self.engine.begin() as db:
            room = self._open(db, room["code"])
            known = (
                db.execute(
                    select(students).where(
                        students.c.room_id == room["id"], students.c.token == token
                    )
                )
                .mappings()
                .first()
            )
            if known is not None and known["removed_at"] is not None:
                raise ValueError(f"The presenter has removed you from room {room['code']}.")
            if known is not None:
                db.execute(
                    update(students).where(students.c.id == known["id"]).values(nickname=name)
                )
                return self._info(db, room)
            present = db.execute(
                select(func.count()).select_from(students).where(students.c.room_id == room["id"])
            ).scalar_one()
            if present >= ROOM_STUDENTS:
                raise ValueError(
                    f"Room {room['code']} is full ({ROOM_STUDENTS} students): ask your presenter."
                )
            self._limited(db, CLIENT_JOINS, client, count=True)
            db.execute(
                students.insert().values(
                    room_id=room["id"], token=token, nickname=name, joined_at=self.now()
                )
            )
            return self._info(db, room)

    def joined(self, code: object, student_id: object) -> str | None:
        """The nickname of the student with this token in the room; ``None`` if they
        have not joined it, were removed, or the room is not open."""
        if not isinstance(student_id, str) or not _STUDENT_FORM.fullmatch(student_id):
            return None
        try:
            with self.engine.begin() as db:
                room = self._open(db, code)
                row = db.execute(
                    select(students.c.nickname, students.c.removed_at).where(
                        students.c.room_id == room["id"], students.c.token == student_id
                    )
                ).first()
        except ValueError:
            return None
        if row is None or row.removed_at is not None:
            return None
        return str(row.nickname)

    def students(self, code: object, secret: object) -> tuple[Student, ...]:
        """The room's students (not removed), in the order they joined, for the presenter."""
        with self.engine.begin() as db:
            room = self._presenter(db, code, secret)
            given = (
                select(func.count())
                .select_from(answers)
                .where(answers.c.room_id == room["id"], answers.c.student_id == students.c.token)
                .scalar_subquery()
            )
            rows = db.execute(
                select(students.c.id, students.c.nickname, given)
                .where(students.c.room_id == room["id"], students.c.removed_at.is_(None))
                .order_by(students.c.joined_at, students.c.id)
            ).all()
        return tuple(Student(int(row[0]), str(row[1]), int(row[2])) for row in rows)

    def remove_student(self, code: object, secret: object, number: object) -> None:
        """Remove a student (:attr:`Student.number`) from the room: their answers are
        deleted and their token cannot join or answer in this room again."""
        if isinstance(number, bool) or not isinstance(number, int):
            raise TypeError(f"student number must be an integer (got {type(number).__name__})")
        with self.engine.begin() as db:
            room = self._presenter(db, code, secret)
            token = db.execute(
                select(students.c.token).where(
                    students.c.room_id == room["id"], students.c.id == number
                )
            ).scalar_one_or_none()
            if token is None:
                raise ValueError("That student is not in this room.")
            db.execute(
                update(students).where(students.c.id == number).values(removed_at=self.now())
            )
            db.execute(
                answers.delete().where(
                    answers.c.room_id == room["id"], answers.c.student_id == token
                )
            )

    def presenter_room(self, code: object, secret: object) -> RoomInfo:
        """The room, for its presenter (any state): ValueError if the key does not match."""
        with self.engine.begin() as db:
            return self._info(db, self._presenter(db, code, secret))

    def close(self, code: object, secret: object) -> None:
        """Close the room: no more questions or answers; its answers stay for the CSV."""
        with self.engine.begin() as db:
            row = self._presenter(db, code, secret)
            if row["closed_at"] is None:
                db.execute(
                    update(rooms).where(rooms.c.id == row["id"]).values(closed_at=self.now())
                )

    # questions -------------------------------------------------------------------------
    def ask(
        self,
        code: object,
        secret: object,
        *,
        kind: str,
        prompt: object,
        answer_key: object,
        options: Sequence[object] = (),
        tolerance: float = 0.0,
        explanation: object = "",
    ) -> Question:
        """Pose the room's next question.

        ``kind`` is ``"numeric"`` (``answer_key`` a number, an answer within
        ``tolerance`` of it is right) or ``"choice"`` (2 to :data:`MAX_OPTIONS`
        distinct ``options``, ``answer_key`` one of them). ``explanation`` (optional,
        plain text) is shown with the key on reveal: how the key follows.
        """
        if kind not in _KINDS:
            raise ValueError(f"kind must be one of {_KINDS} (got {str(kind)[:20]!r})")
        text = _text("question", prompt, PROMPT_CHARS)
        if not isinstance(explanation, str):
            raise TypeError(f"explanation must be text (got {type(explanation).__name__})")
        why = _text("explanation", explanation, EXPLANATION_CHARS) if explanation.strip() else ""
        if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)):
            raise TypeError(f"tolerance must be a number (got {type(tolerance).__name__})")
        if not (math.isfinite(tolerance) and 0 <= tolerance <= _TOLERANCE_MAX):
            raise ValueError(f"tolerance must be between 0 and {_TOLERANCE_MAX:g}")
        if kind == "numeric":
            if options:
                raise ValueError("A numeric question has no options.")
            chosen: tuple[str, ...] = ()
            key = _clean_number("answer key", answer_key)
        else:
            if isinstance(options, str):
                raise TypeError("options must be a sequence of texts, not one text")
            chosen = tuple(_text("option", option, OPTION_CHARS) for option in options)
            if not 2 <= len(chosen) <= MAX_OPTIONS:
                raise ValueError(
                    f"A choice question has 2 to {MAX_OPTIONS} options (got {len(chosen)})."
                )
            if len(set(chosen)) != len(chosen):
                raise ValueError("Two options are the same.")
            key = _text("answer key", answer_key, OPTION_CHARS)
            if key not in chosen:
                raise ValueError("The answer key is not one of the options.")
            tolerance = 0.0
        number = self._insert_question(
            code,
            secret,
            {
                "kind": kind,
                "prompt": text,
                "options": json.dumps(list(chosen)),
                "answer_key": key,
                "tolerance": float(tolerance),
                "explanation": why,
            },
        )
        return Question(number, kind, text, chosen, False, None, float(tolerance), None)

    def _insert_question(self, code: object, secret: object, values: dict[str, Any]) -> int:
        """Store the room's next question (``values``: its columns); its number."""
        with self.engine.begin() as db:
            room = self._presenter(db, code, secret)
            self._open(db, room["code"])
            last = db.execute(
                select(func.max(questions.c.number)).where(questions.c.room_id == room["id"])
            ).scalar_one()
            number = (last or 0) + 1
            if number > MAX_QUESTIONS:
                raise ValueError(f"A room holds at most {MAX_QUESTIONS} questions.")
            db.execute(
                questions.insert().values(
                    room_id=room["id"], number=number, created_at=self.now(), **values
                )
            )
        return int(number)

    def ask_position(
        self, code: object, secret: object, source: object, *, prompt: object = ""
    ) -> Question:
        """Pose a position: the class votes no double, double/take or double/pass.

        ``source`` is what the presenter typed (:func:`read_position_source`: a library
        id, a link, a Position ID or an XGID). The verdict is computed here, once, and
        stored hidden until the reveal (:class:`PositionVerdict`: the library's stored
        evaluation, else the engine at :data:`POSITION_LEVEL`); the answer key is its
        vote (:attr:`PositionVerdict.right_vote`). ``prompt`` (optional) replaces the
        default question. Nothing is stored when anything is wrong.
        """
        if not isinstance(prompt, str):
            raise TypeError(f"prompt must be text (got {type(prompt).__name__})")
        asked = read_position_source(source)
        with self.engine.begin() as db:  # the key before the engine's work
            room = self._presenter(db, code, secret)
            self._open(db, room["code"])
        verdict = _verdict_of(asked)
        default = "Money play: no double, double/take or double/pass?"
        if asked.title:
            default = f"{asked.title}. {default}"
        text = _text("question", prompt, PROMPT_CHARS) if prompt.strip() else default[:PROMPT_CHARS]
        number = self._insert_question(
            code,
            secret,
            {
                "kind": "position",
                "prompt": text,
                "options": json.dumps(list(POSITION_CHOICES)),
                "answer_key": verdict.right_vote,
                "tolerance": 0.0,
                "explanation": "",
                "position": json.dumps(asdict(asked)),
                "evaluation": json.dumps(asdict(verdict)),
            },
        )
        return Question(
            number, "position", text, POSITION_CHOICES, False, None, 0.0, None, asked, None
        )

    @staticmethod
    def _question(row: RowMapping, *, with_key: bool) -> Question:
        revealed = row["revealed_at"] is not None
        shown = revealed or with_key
        position = verdict = None
        if row["position"] is not None:
            position = PositionAsked(**json.loads(row["position"]))
        if row["evaluation"] is not None and shown:
            verdict = PositionVerdict(**json.loads(row["evaluation"]))
        return Question(
            number=row["number"],
            kind=row["kind"],
            prompt=row["prompt"],
            options=tuple(json.loads(row["options"])),
            revealed=revealed,
            answer_key=row["answer_key"] if shown else None,
            tolerance=row["tolerance"],
            explanation=row["explanation"] if shown else None,
            position=position,
            verdict=verdict,
        )

    def _question_row(self, db: Connection, room_id: int, number: object) -> RowMapping:
        if isinstance(number, bool) or not isinstance(number, int):
            raise TypeError(f"question number must be an integer (got {type(number).__name__})")
        row = (
            db.execute(
                select(questions).where(
                    questions.c.room_id == room_id, questions.c.number == number
                )
            )
            .mappings()
            .first()
        )
        if row is None:
            raise ValueError(f"There is no question {number} in this room.")
        return row

    def latest(self, code: object) -> Question | None:
        """The room's newest question as students see it (``None`` before the first)."""
        with self.engine.begin() as db:
            room = self._open(db, code)
            row = (
                db.execute(
                    select(questions)
                    .where(questions.c.room_id == room["id"])
                    .order_by(questions.c.number.desc())
                    .limit(1)
                )
                .mappings()
                .first()
            )
            return None if row is None else self._question(row, with_key=False)

    def presenter_question(self, code: object, secret: object, number: int) -> Question:
        """A question with its answer key, for the presenter."""
        with self.engine.begin() as db:
            room = self._presenter(db, code, secret)
            return self._question(self._question_row(db, room["id"], number), with_key=True)

    def reveal(self, code: object, secret: object, number: int) -> Question:
        """Show the question's answer key to the students; no answers after this."""
        with self.engine.begin() as db:
            room = self._presenter(db, code, secret)
            row = self._question_row(db, room["id"], number)
            if row["revealed_at"] is None:
                db.execute(
                    update(questions)
                    .where(questions.c.id == row["id"])
                    .values(revealed_at=self.now())
                )
            row = self._question_row(db, room["id"], number)
            return self._question(row, with_key=True)

    # answers ---------------------------------------------------------------------------
    def submit(
        self,
        code: object,
        number: int,
        student_id: object,
        nickname: object,
        value: object,
        *,
        estimate: object = None,
        client: str | None = None,
    ) -> str:
        """Store a student's answer to question ``number``; returns the value as stored.

        A position question takes one of :data:`POSITION_CHOICES` and, optionally, the
        student's ``estimate`` of the winning chance (percent, 0 to 100); other
        questions take no estimate.

        Only the room's open question takes answers: the newest one, until it is
        revealed (an older question is closed once a newer one is posted). One row per
        student and question: a re-submit replaces the value (and the
        nickname), the same value again changes nothing, and after
        :data:`MAX_SUBMISSIONS` different answers the last one stands. A student the
        presenter removed cannot answer; ``client`` (the address) is limited to
        :data:`CLIENT_ANSWERS`.
        """
        student_id = _token(student_id)
        name = clean_nickname(nickname)
        guess = _clean_estimate(estimate)
        with self.engine.begin() as db:
            room = self._open(db, code)
            row = self._question_row(db, room["id"], number)
            removed = db.execute(
                select(students.c.id).where(
                    students.c.room_id == room["id"],
                    students.c.token == student_id,
                    students.c.removed_at.is_not(None),
                )
            ).first()
            if removed is not None:
                raise ValueError(f"The presenter has removed you from room {room['code']}.")
            self._limited(db, CLIENT_ANSWERS, client, count=True)
            if row["revealed_at"] is not None:
                raise ValueError(f"Question {number} has been revealed: answers are closed.")
            newest = db.execute(
                select(func.max(questions.c.number)).where(questions.c.room_id == room["id"])
            ).scalar_one()
            if number != newest:
                raise ValueError(
                    f"Question {number} is closed: the presenter has moved on to question {newest}."
                )
            if guess is not None and row["kind"] != "position":
                raise ValueError("Only a position question takes a winning chance.")
            if row["kind"] == "numeric":
                stored = _clean_number("answer", value)
            else:
                stored = _text("answer", value, OPTION_CHARS)
                if stored not in json.loads(row["options"]):
                    raise ValueError("The answer is not one of the options.")
            now = self.now()
            dialect = postgresql if db.dialect.name == "postgresql" else sqlite
            insert = dialect.insert(answers).values(
                room_id=room["id"],
                question_id=row["id"],
                student_id=student_id,
                nickname=name,
                value=stored,
                estimate=guess,
                submissions=1,
                created_at=now,
                updated_at=now,
            )
            same = (
                answers.c.value == insert.excluded.value
            ) & answers.c.estimate.is_not_distinct_from(insert.excluded.estimate)
            upsert = insert.on_conflict_do_update(
                index_elements=[answers.c.question_id, answers.c.student_id],
                set_={
                    "value": insert.excluded.value,
                    "estimate": insert.excluded.estimate,
                    "nickname": insert.excluded.nickname,
                    "updated_at": insert.excluded.updated_at,
                    "submissions": answers.c.submissions + 1,
                },
                where=(answers.c.submissions < MAX_SUBMISSIONS) & ~same,
            ).returning(answers.c.id)
            if db.execute(upsert).first() is None:
                kept = db.execute(
                    select(answers.c.value, answers.c.estimate).where(
                        answers.c.question_id == row["id"], answers.c.student_id == student_id
                    )
                ).one()
                if (kept[0], kept[1]) != (stored, guess):
                    raise ValueError(
                        f"You have changed your answer to question {number} "
                        f"{MAX_SUBMISSIONS - 1} times; your last answer stands."
                    )
            return stored

    def my_answer(self, code: object, number: int, student_id: str) -> str | None:
        """The student's stored answer to question ``number`` (``None`` if none)."""
        with self.engine.begin() as db:
            room = self._room(db, code)
            row = self._question_row(db, room["id"], number)
            return db.execute(
                select(answers.c.value).where(
                    answers.c.question_id == row["id"], answers.c.student_id == student_id
                )
            ).scalar_one_or_none()

    def my_vote(
        self, code: object, number: int, student_id: str
    ) -> tuple[str, float | None] | None:
        """The student's stored vote and estimate on question ``number`` (``None`` if none)."""
        with self.engine.begin() as db:
            room = self._room(db, code)
            row = self._question_row(db, room["id"], number)
            found = db.execute(
                select(answers.c.value, answers.c.estimate).where(
                    answers.c.question_id == row["id"], answers.c.student_id == student_id
                )
            ).first()
        return None if found is None else (str(found[0]), found[1])

    def _tally(self, db: Connection, room_id: int, number: int, *, with_key: bool) -> Tally:
        row = self._question_row(db, room_id, number)
        found = db.execute(
            select(answers.c.value, answers.c.estimate)
            .where(answers.c.question_id == row["id"])
            .order_by(answers.c.id)
        ).all()
        return Tally(
            self._question(row, with_key=with_key),
            tuple(str(one[0]) for one in found),
            tuple(one[1] for one in found),
        )

    def tally(self, code: object, secret: object, number: int) -> Tally:
        """Every answer to question ``number`` so far, for the presenter."""
        with self.engine.begin() as db:
            room = self._presenter(db, code, secret)
            return self._tally(db, room["id"], number, with_key=True)

    def result(self, code: object, number: int) -> Tally:
        """The class's answers to a revealed question, for the students (no names)."""
        with self.engine.begin() as db:
            room = self._room(db, code)
            tally = self._tally(db, room["id"], number, with_key=False)
            if not tally.question.revealed:
                raise ValueError(f"Question {number} has not been revealed yet.")
            return tally

    def answers_frame(self, code: object, secret: object) -> pd.DataFrame:
        """Every answer of the room, one row each, for the presenter's CSV.

        Students are numbered in the order of their first answer (``student``); a
        nickname that a spreadsheet would read as a formula (``=``, ``+``, ``-``,
        ``@``) is prefixed with an apostrophe.
        """
        with self.engine.begin() as db:
            room = self._presenter(db, code, secret)
            rows = (
                db.execute(
                    select(
                        answers.c.id.label("answer_id"),
                        answers.c.student_id,
                        answers.c.nickname,
                        answers.c.value,
                        answers.c.estimate,
                        answers.c.submissions,
                        answers.c.created_at,
                        answers.c.updated_at,
                        questions.c.number,
                        questions.c.kind,
                        questions.c.prompt,
                        questions.c.options,
                        questions.c.answer_key,
                        questions.c.explanation,
                        questions.c.tolerance,
                        questions.c.revealed_at,
                        questions.c.position,
                        questions.c.evaluation,
                    )
                    .select_from(answers)
                    .join(questions, answers.c.question_id == questions.c.id)
                    .where(answers.c.room_id == room["id"])
                    .order_by(questions.c.number, answers.c.id)
                )
                .mappings()
                .all()
            )
        first_seen: dict[str, int] = {}
        for row in sorted(rows, key=lambda r: (r["created_at"], r["answer_id"])):
            first_seen.setdefault(row["student_id"], len(first_seen) + 1)
        records = []
        for row in rows:
            question = self._question(row, with_key=True)
            nickname = row["nickname"]
            if nickname[:1] in ("=", "+", "-", "@"):
                nickname = "'" + nickname
            records.append(
                {
                    "question": question.number,
                    "prompt": question.prompt,
                    "answer_key": question.answer_key,
                    "student": first_seen[row["student_id"]],
                    "nickname": nickname,
                    "answer": row["value"],
                    "winning_chance_estimate": row["estimate"],
                    "correct": question.is_correct(row["value"]),
                    "changes": row["submissions"] - 1,
                    "answered_at": row["updated_at"].isoformat(timespec="seconds"),
                }
            )
        columns = [
            "question",
            "prompt",
            "answer_key",
            "student",
            "nickname",
            "answer",
            "winning_chance_estimate",
            "correct",
            "changes",
            "answered_at",
        ]
        return pd.DataFrame.from_records(records, columns=columns)

    def answers_csv(self, code: object, secret: object) -> str:
        """:meth:`answers_frame` as CSV text."""
        return self.answers_frame(code, secret).to_csv(index=False)

    def positions_frame(self, code: object, secret: object) -> pd.DataFrame:
        """Every position the room voted on, one row each, for the presenter's CSV.

        The position (Position ID, cube, library id and title), the votes per answer of
        :data:`POSITION_CHOICES`, how many were right, the students' mean estimate of the
        winning chance, and the verdict with the engine's numbers (where they came from,
        the level, the winning chance, the three equities, the implied cube life).
        """
        with self.engine.begin() as db:
            room = self._presenter(db, code, secret)
            numbers = db.execute(
                select(questions.c.number)
                .where(questions.c.room_id == room["id"], questions.c.kind == "position")
                .order_by(questions.c.number)
            ).scalars()
            tallies = [self._tally(db, room["id"], n, with_key=True) for n in numbers.all()]
        records = []
        for tally in tallies:
            question, counts = tally.question, tally.choice_counts()
            asked, verdict = question.position, question.verdict
            assert asked is not None and verdict is not None  # a position question has both
            guesses = tally.given_estimates()
            records.append(
                {
                    "question": question.number,
                    "position_id": asked.position_id,
                    "cube": asked.cube,
                    "cube_owner": asked.owner,
                    "library_id": asked.library_id or "",
                    "title": asked.title,
                    "votes": tally.count,
                    **{f"votes_{choice}": counts.get(choice, 0) for choice in POSITION_CHOICES},
                    "right_vote": verdict.right_vote,
                    "right": sum(value == verdict.right_vote for value in tally.values),
                    "estimates": len(guesses),
                    "mean_estimate_percent": (
                        round(sum(guesses) / len(guesses), 2) if guesses else None
                    ),
                    "revealed": question.revealed,
                    "verdict": verdict.verdict,
                    "proper_action": verdict.action,
                    "evaluated_by": f"{verdict.source} {verdict.level}",
                    "winning_chance_percent": round(100.0 * verdict.win, 2),
                    "no_double": round(verdict.no_double, 4),
                    "double_take": None
                    if verdict.double_take is None
                    else round(verdict.double_take, 4),
                    "double_pass": None
                    if verdict.double_pass is None
                    else round(verdict.double_pass, 4),
                    "implied_cube_life": None
                    if verdict.cube_life is None
                    else round(verdict.cube_life, 4),
                }
            )
        columns = [
            "question", "position_id", "cube", "cube_owner", "library_id", "title", "votes",
            *(f"votes_{choice}" for choice in POSITION_CHOICES),
            "right_vote", "right", "estimates", "mean_estimate_percent", "revealed", "verdict",
            "proper_action", "evaluated_by", "winning_chance_percent", "no_double",
            "double_take", "double_pass", "implied_cube_life",
        ]  # fmt: skip
        frame = pd.DataFrame.from_records(records, columns=columns)
        for name in ("title",):  # a spreadsheet must not read a title as a formula
            frame[name] = frame[name].map(
                lambda text: "'" + text if str(text)[:1] in ("=", "+", "-", "@") else text
            )
        return frame

    def positions_csv(self, code: object, secret: object) -> str:
        """:meth:`positions_frame` as CSV text."""
        return self.positions_frame(code, secret).to_csv(index=False)

    # drills ----------------------------------------------------------------------------
    def keep_drill_answer(
        self, student_id: object, quiz: object, number: object, given: object
    ) -> None:
        """Keep a student's answer to question ``number`` (0-based) of the drill ``quiz``
        (its link's signature), as given; a new answer replaces it."""
        token = _token(student_id)
        name = _text("quiz", quiz, DRILL_QUIZ_CHARS)
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < 1000:
            raise ValueError("question number must be an integer from 0 to 999")
        text = _text("answer", given, ANSWER_CHARS)
        with self.engine.begin() as db:
            dialect = postgresql if db.dialect.name == "postgresql" else sqlite
            insert = dialect.insert(drill_answers).values(
                token=token, quiz=name, number=number, given=text, answered_at=self.now()
            )
            db.execute(
                insert.on_conflict_do_update(
                    index_elements=[
                        drill_answers.c.token,
                        drill_answers.c.quiz,
                        drill_answers.c.number,
                    ],
                    set_={
                        "given": insert.excluded.given,
                        "answered_at": insert.excluded.answered_at,
                    },
                )
            )

    def drill_answers(self, student_id: object, quiz: object) -> dict[int, str]:
        """The student's kept answers to the drill ``quiz``: question number -> answer."""
        if not isinstance(student_id, str) or not _STUDENT_FORM.fullmatch(student_id):
            return {}
        with self.engine.begin() as db:
            rows = db.execute(
                select(drill_answers.c.number, drill_answers.c.given).where(
                    drill_answers.c.token == student_id, drill_answers.c.quiz == str(quiz)
                )
            ).all()
        return {int(row[0]): str(row[1]) for row in rows}
