"""The classroom store: rooms, questions and answers shared between sessions and processes.

A presenter opens a room (:meth:`Classroom.open_room`) and gets a short public room
code for the students and a separate presenter key (stored only as its SHA-256); every
presenter action takes both. Students join with the code (:meth:`Classroom.join`) and
answer (:meth:`Classroom.submit`): one stored answer per student and question (a
re-submit replaces it, sending the same value again changes nothing, and a student may
change an answer at most :data:`MAX_SUBMISSIONS` times). The database is SQLite in the
data directory by default and PostgreSQL when ``CUBE_LAB_DATABASE_URL`` is set
(:func:`database_url`); the schema comes from the Alembic migrations, run on start
(:func:`migrate`). This module has no streamlit import: the page (``ui/classroom``) is
one client, the tests and the load bench are others.

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
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pandas as pd
from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, RowMapping
from sqlalchemy.exc import IntegrityError

from store.schema import (
    ANSWER_CHARS,
    CODE_LENGTH,
    EXPLANATION_CHARS,
    NICKNAME_CHARS,
    OPTION_CHARS,
    PROMPT_CHARS,
    answers,
    questions,
    rooms,
)

__all__ = [
    "CODE_ALPHABET",
    "JOIN_ATTEMPTS",
    "JOIN_WINDOW",
    "MAX_OPTIONS",
    "MAX_QUESTIONS",
    "MAX_SUBMISSIONS",
    "RETENTION",
    "ROOM_LIFETIME",
    "Classroom",
    "JoinLimiter",
    "OpenedRoom",
    "Question",
    "RoomInfo",
    "Tally",
    "clean_code",
    "clean_nickname",
    "database_url",
    "migrate",
    "new_student_id",
]

#: Room-code characters: capitals and digits without the look-alikes I, L, O, 0 and 1.
#: 31**6 = 887,503,681 codes, of which a classroom uses a handful at a time.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: How long a room stays open after it was opened.
ROOM_LIFETIME = timedelta(hours=4)
#: How long an expired or closed room's answers (nicknames included) are kept for the
#: presenter's CSV; after that :meth:`Classroom.open_room` deletes the room.
RETENTION = timedelta(days=7)
#: Questions per room, options per choice question, answers a student may send per question.
MAX_QUESTIONS = 100
MAX_OPTIONS = 6
MAX_SUBMISSIONS = 5
#: Room codes one session may try per window (:class:`JoinLimiter`).
JOIN_ATTEMPTS = 10
JOIN_WINDOW = timedelta(minutes=10)

_MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_ROOT = Path(__file__).resolve().parents[1]
_SECRET_BYTES = 18  # token_urlsafe(18): 24 characters, 144 bits
_SECRET_FORM = re.compile(r"[A-Za-z0-9_-]{24}")
_STUDENT_FORM = re.compile(r"[0-9a-f]{32}")
_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]{1,3})?")
_LONGEST_SECRET = 100
_TOLERANCE_MAX = 1e9
_KINDS = ("numeric", "choice")

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

    Idempotent: a database already there is left as it is.
    """
    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def new_student_id() -> str:
    """A fresh anonymous student id (32 hex digits), kept in the student's session."""
    return secrets.token_hex(16)


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
        raise ValueError("The room code is empty: type the 6 characters your presenter shows.")
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

    def is_correct(self, value: str) -> bool | None:
        """Whether ``value`` (as stored) is right; ``None`` while the key is hidden."""
        if self.answer_key is None:
            return None
        if self.kind == "choice":
            return value == self.answer_key
        return abs(float(value) - float(self.answer_key)) <= self.tolerance


@dataclass(frozen=True)
class Tally:
    """Every stored answer of one question, without who gave it."""

    question: Question
    values: tuple[str, ...]

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


@dataclass
class JoinLimiter:
    """At most :data:`JOIN_ATTEMPTS` room codes per :data:`JOIN_WINDOW` for one session.

    A guessed code is checked against the database only while the session is under
    the limit, so trying codes costs a session ten looks per ten minutes; a code
    already joined is not counted again.
    """

    attempts: int = JOIN_ATTEMPTS
    window: timedelta = JOIN_WINDOW
    tried: list[datetime] = field(default_factory=list)

    def check(self, now: datetime) -> None:
        """Count one attempt at ``now``, or raise ValueError when over the limit."""
        self.tried = [t for t in self.tried if now - t < self.window]
        if len(self.tried) >= self.attempts:
            wait = self.window - (now - self.tried[0])
            minutes = max(1, math.ceil(wait.total_seconds() / 60))
            raise ValueError(
                f"Too many room codes tried from this session: wait {minutes} "
                f"minute{'s' if minutes > 1 else ''} and try again."
            )
        self.tried.append(now)


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
        is_sqlite = self.url.startswith("sqlite")
        self.engine = create_engine(
            self.url,
            pool_pre_ping=not is_sqlite,
            connect_args={"timeout": 30} if is_sqlite else {},
        )
        if is_sqlite:
            _configure_sqlite(self.engine)
        migrate(self.engine)

    def dispose(self) -> None:
        """Close the connection pool."""
        self.engine.dispose()

    # time ------------------------------------------------------------------------------
    def now(self) -> datetime:
        """The current time as stored (naive UTC)."""
        return self._clock().astimezone(UTC).replace(tzinfo=None)

    # rooms -----------------------------------------------------------------------------
    def purge(self) -> int:
        """Delete rooms that expired more than :data:`RETENTION` ago; how many were deleted.

        Their questions and answers go with them (foreign keys ``ON DELETE CASCADE``).
        """
        with self.engine.begin() as db:
            gone = db.execute(rooms.delete().where(rooms.c.expires_at < self.now() - RETENTION))
            return int(gone.rowcount or 0)

    def open_room(self) -> OpenedRoom:
        """Open a new room; the presenter key in the result is not stored and not shown again.

        Rooms past their retention are deleted first (:meth:`purge`).
        """
        self.purge()
        secret = secrets.token_urlsafe(_SECRET_BYTES)
        now = self.now()
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            try:
                with self.engine.begin() as db:
                    db.execute(
                        rooms.insert().values(
                            code=code,
                            secret_hash=_hash(secret),
                            created_at=now,
                            expires_at=now + ROOM_LIFETIME,
                        )
                    )
            except IntegrityError:
                continue  # that code is taken: draw another
            return OpenedRoom(code, secret, now + ROOM_LIFETIME)
        raise RuntimeError("no free room code found in 20 draws")  # pragma: no cover

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
        given = secret.strip()[:_LONGEST_SECRET]
        if not hmac.compare_digest(_hash(given), row["secret_hash"]):
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

    def join(self, code: object) -> RoomInfo:
        """The room a student joins: ValueError if unknown, expired or closed."""
        with self.engine.begin() as db:
            return self._info(db, self._open(db, code))

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
                    room_id=room["id"],
                    number=number,
                    kind=kind,
                    prompt=text,
                    options=json.dumps(list(chosen)),
                    answer_key=key,
                    tolerance=float(tolerance),
                    explanation=why,
                    created_at=self.now(),
                )
            )
        return Question(number, kind, text, chosen, False, None, float(tolerance), None)

    @staticmethod
    def _question(row: RowMapping, *, with_key: bool) -> Question:
        revealed = row["revealed_at"] is not None
        return Question(
            number=row["number"],
            kind=row["kind"],
            prompt=row["prompt"],
            options=tuple(json.loads(row["options"])),
            revealed=revealed,
            answer_key=row["answer_key"] if (revealed or with_key) else None,
            tolerance=row["tolerance"],
            explanation=row["explanation"] if (revealed or with_key) else None,
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
        self, code: object, number: int, student_id: object, nickname: object, value: object
    ) -> str:
        """Store a student's answer to question ``number``; returns the value as stored.

        Only the room's open question takes answers: the newest one, until it is
        revealed (an older question is closed once a newer one is posted). One row per student and question: a re-submit replaces the value (and the
        nickname), the same value again changes nothing, and after
        :data:`MAX_SUBMISSIONS` different answers the last one stands.
        """
        if not isinstance(student_id, str) or not _STUDENT_FORM.fullmatch(student_id):
            raise ValueError("student id must be 32 hexadecimal digits (see new_student_id)")
        name = clean_nickname(nickname)
        with self.engine.begin() as db:
            room = self._open(db, code)
            row = self._question_row(db, room["id"], number)
            if row["revealed_at"] is not None:
                raise ValueError(f"Question {number} has been revealed: answers are closed.")
            newest = db.execute(
                select(func.max(questions.c.number)).where(questions.c.room_id == room["id"])
            ).scalar_one()
            if number != newest:
                raise ValueError(
                    f"Question {number} is closed: the presenter has moved on to "
                    f"question {newest}."
                )
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
                submissions=1,
                created_at=now,
                updated_at=now,
            )
            same = answers.c.value == insert.excluded.value
            upsert = insert.on_conflict_do_update(
                index_elements=[answers.c.question_id, answers.c.student_id],
                set_={
                    "value": insert.excluded.value,
                    "nickname": insert.excluded.nickname,
                    "updated_at": insert.excluded.updated_at,
                    "submissions": answers.c.submissions + 1,
                },
                where=(answers.c.submissions < MAX_SUBMISSIONS) & ~same,
            ).returning(answers.c.id)
            if db.execute(upsert).first() is None:
                kept = db.execute(
                    select(answers.c.value).where(
                        answers.c.question_id == row["id"], answers.c.student_id == student_id
                    )
                ).scalar_one()
                if kept != stored:
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

    def _tally(self, db: Connection, room_id: int, number: int, *, with_key: bool) -> Tally:
        row = self._question_row(db, room_id, number)
        values = db.execute(
            select(answers.c.value).where(answers.c.question_id == row["id"]).order_by(answers.c.id)
        ).scalars()
        return Tally(self._question(row, with_key=with_key), tuple(values))

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
            "correct",
            "changes",
            "answered_at",
        ]
        return pd.DataFrame.from_records(records, columns=columns)

    def answers_csv(self, code: object, secret: object) -> str:
        """:meth:`answers_frame` as CSV text."""
        return self.answers_frame(code, secret).to_csv(index=False)
