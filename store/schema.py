"""The store's tables (SQLAlchemy Core): rooms, their questions, students and answers; the
per-client counters of the limits; the drills' answers by student token; rollout batches.

The Alembic migrations under ``store/migrations`` create exactly these tables; a test
compares the migrated database with this metadata. Times are naive UTC.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

__all__ = [
    "ANSWER_CHARS",
    "CARD_CHARS",
    "CODE_LENGTH",
    "DRILL_QUIZ_CHARS",
    "EXPLANATION_CHARS",
    "NICKNAME_CHARS",
    "OPTION_CHARS",
    "PROMPT_CHARS",
    "ROLLOUT_STATES",
    "TOKEN_CHARS",
    "answers",
    "client_events",
    "drill_answers",
    "metadata",
    "position_answers",
    "questions",
    "rollout_batches",
    "rollout_jobs",
    "rooms",
    "students",
]

#: Length of a room code (characters from :data:`store.classroom.CODE_ALPHABET`; why 9:
#: :data:`store.classroom.CODE_ALPHABET`'s arithmetic).
CODE_LENGTH = 9
#: Length of a visitor's identity token (32 hexadecimal digits, :func:`store.new_student_id`).
TOKEN_CHARS = 32
#: Longest nickname, answer, question prompt and choice option kept (characters).
NICKNAME_CHARS = 24
ANSWER_CHARS = 32
PROMPT_CHARS = 300
OPTION_CHARS = 60
EXPLANATION_CHARS = 600
#: Longest drill quiz signature kept (topic, level, count and seed).
DRILL_QUIZ_CHARS = 80
#: Longest key of a position decision kept (topic, library id and score).
CARD_CHARS = 80

metadata = MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_name)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

rooms = Table(
    "rooms",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("code", String(CODE_LENGTH), nullable=False, unique=True),
    # SHA-256 of the presenter key (the key itself is never stored)
    Column("secret_hash", String(64), nullable=False),
    Column("created_at", DateTime, nullable=False),
    Column("expires_at", DateTime, nullable=False),
    Column("closed_at", DateTime, nullable=True),
    # SHA-256 of the identity token of the visitor who opened it (their reload resumes it)
    Column("owner_hash", String(64), nullable=True),
)

questions = Table(
    "questions",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("room_id", ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("kind", String(8), nullable=False),
    Column("prompt", Text, nullable=False),
    # JSON list of the options of a choice question ("[]" for a numeric one)
    Column("options", Text, nullable=False),
    Column("answer_key", String(OPTION_CHARS), nullable=False),
    # shown with the answer key on reveal (how the key follows; empty when not given)
    Column("explanation", Text, nullable=False, server_default=""),
    Column("tolerance", Float, nullable=False),
    Column("created_at", DateTime, nullable=False),
    Column("revealed_at", DateTime, nullable=True),
    # a position question: JSON of the position asked (Position ID, cube, library id)
    Column("position", Text, nullable=True),
    # a position question: JSON of the verdict and the engine's numbers, made when asked
    Column("evaluation", Text, nullable=True),
    UniqueConstraint("room_id", "number", name="uq_questions_room_number"),
    CheckConstraint("kind IN ('numeric', 'choice', 'position')", name="kind"),
)

answers = Table(
    "answers",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("room_id", ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
    Column("question_id", ForeignKey("questions.id", ondelete="CASCADE"), nullable=False),
    Column("student_id", String(32), nullable=False),
    Column("nickname", String(NICKNAME_CHARS), nullable=False),
    Column("value", String(ANSWER_CHARS), nullable=False),
    # how many times this student sent an answer to this question (capped)
    Column("submissions", Integer, nullable=False),
    Column("created_at", DateTime, nullable=False),
    Column("updated_at", DateTime, nullable=False),
    # a position vote: the student's estimate of the winning chance, in percent (optional)
    Column("estimate", Float, nullable=True),
    UniqueConstraint("question_id", "student_id", name="uq_answers_question_student"),
)

students = Table(
    "students",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("room_id", ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
    Column("token", String(TOKEN_CHARS), nullable=False),
    Column("nickname", String(NICKNAME_CHARS), nullable=False),
    Column("joined_at", DateTime, nullable=False),
    # set when the presenter removed the student (their answers are deleted)
    Column("removed_at", DateTime, nullable=True),
    UniqueConstraint("room_id", "token", name="uq_students_room_token"),
)

# One row per counted action of a client address (a join, an answer, a room opened, a
# wrong room code), kept for the longest window of the limits (store.classroom.LIMITS).
client_events = Table(
    "client_events",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("client", String(64), nullable=False),
    Column("at", DateTime, nullable=False),
    Index("ix_client_events_client_kind_at", "client", "kind", "at"),
    Index("ix_client_events_at", "at"),
)

# A drill answer as given (the page grades it again from the seeded question), by the
# student's token, the quiz (its link: topic, level, count, seed) and question index.
drill_answers = Table(
    "drill_answers",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("token", String(TOKEN_CHARS), nullable=False),
    Column("quiz", String(DRILL_QUIZ_CHARS), nullable=False),
    Column("number", Integer, nullable=False),
    Column("given", String(ANSWER_CHARS), nullable=False),
    Column("answered_at", DateTime, nullable=False),
    UniqueConstraint("token", "quiz", "number", name="uq_drill_answers_token_quiz_number"),
)

# A student's graded answer to a decision of the position library (store.position_answers):
# by token, the quiz it was asked in and its place there (the first answer stands), the
# decision (its card: topic, library id, score) and its theme, graded against the engine's
# stored verdict on the way in. The spaced review replays a token's answers.
position_answers = Table(
    "position_answers",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("token", String(TOKEN_CHARS), nullable=False),
    Column("quiz", String(DRILL_QUIZ_CHARS), nullable=False),
    Column("number", Integer, nullable=False),
    Column("card", String(CARD_CHARS), nullable=False),
    Column("theme", String(16), nullable=False),
    Column("given", String(ANSWER_CHARS), nullable=False),
    Column("correct", Boolean, nullable=False),
    # equity given up per cube against the engine's answer (0 when right)
    Column("error", Float, nullable=False),
    Column("answered_at", DateTime, nullable=False),
    UniqueConstraint("token", "quiz", "number", name="uq_position_answers_token_quiz_number"),
    Index("ix_position_answers_token_answered_at", "token", "answered_at"),
    Index("ix_position_answers_answered_at", "answered_at"),
)

# One finished batch of a rollout (cubecore.rollout), keyed by the rollout (its key hashes
# position, cube, score, engine version and settings, all also kept in their own columns)
# and the batch's index: a batch done is never run again, a resumed rollout continues
# from its stored batches. The sums are cubecore.engine.RolloutBatchSums' fields.
rollout_batches = Table(
    "rollout_batches",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("rollout_key", String(40), nullable=False),
    Column("position_id", String(14), nullable=False),
    # JSON of the rollout's settings (cube, score, trials, batch size, seed, truncation)
    Column("settings", Text, nullable=False),
    Column("engine_version", String(32), nullable=False),
    Column("batch_index", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("trials", Integer, nullable=False),
    Column("truncation", Integer, nullable=False),
    Column("win", Float, nullable=False),
    Column("win_gammon", Float, nullable=False),
    Column("win_backgammon", Float, nullable=False),
    Column("lose_gammon", Float, nullable=False),
    Column("lose_backgammon", Float, nullable=False),
    Column("cubeless", Float, nullable=False),
    Column("no_double", Float, nullable=False),
    Column("double_take", Float, nullable=False),
    Column("cubeless_variance", Float, nullable=False),
    Column("no_double_variance", Float, nullable=False),
    Column("double_take_variance", Float, nullable=False),
    Column("cube_available", Boolean, nullable=False),
    Column("created_at", DateTime, nullable=False),
    UniqueConstraint(
        "rollout_key", "batch_index", name="uq_rollout_batches_rollout_key_batch_index"
    ),
)

#: The states of a rollout job (store.rollout_queue): waiting, being run by the process
#: holding its lease, finished, cancelled by its submitter, or stopped by an error.
ROLLOUT_STATES = ("queued", "running", "done", "cancelled", "failed")

# The shared queue of rollouts (store.rollout_queue): one job per rollout key (the key of
# rollout_batches), so that a rollout queued, running or done is never submitted twice.
# A running job is held by one process's lease (lease_owner until lease_expires, renewed
# by its heartbeat); a lease that expires (its process died) lets another process take
# the job and resume it from its stored batches.
rollout_jobs = Table(
    "rollout_jobs",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("rollout_key", String(40), nullable=False, unique=True),
    Column("position_id", String(14), nullable=False),
    # JSON of the rollout's settings (all of cubecore.rollout.RolloutSettings' fields)
    Column("settings", Text, nullable=False),
    Column("engine_version", String(32), nullable=False),
    Column("trials", Integer, nullable=False),
    Column("state", String(9), nullable=False),
    # the identity token of the session that submitted it (store.new_student_id)
    Column("submitted_by", String(TOKEN_CHARS), nullable=False),
    # the address it came from (store.classroom's client addresses), for the per-address limit
    Column("client", String(64), nullable=True),
    Column("submitted_at", DateTime, nullable=False),
    Column("lease_owner", String(64), nullable=True),
    Column("lease_expires", DateTime, nullable=True),
    Column("finished_at", DateTime, nullable=True),
    # why a job failed (players' words); empty otherwise
    Column("message", Text, nullable=False, server_default=""),
    Index("ix_rollout_jobs_state_submitted_at", "state", "submitted_at"),
    Index("ix_rollout_jobs_submitted_by_state", "submitted_by", "state"),
    Index("ix_rollout_jobs_client_state", "client", "state"),
    CheckConstraint("state IN ('queued', 'running', 'done', 'cancelled', 'failed')", name="state"),
)
