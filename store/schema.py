"""The classroom tables (SQLAlchemy Core): rooms, their questions, the students' answers.

The Alembic migrations under ``store/migrations`` create exactly these tables; a test
compares the migrated database with this metadata. Times are naive UTC.
"""

from __future__ import annotations

from sqlalchemy import (
    CheckConstraint,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

__all__ = [
    "ANSWER_CHARS",
    "CODE_LENGTH",
    "EXPLANATION_CHARS",
    "NICKNAME_CHARS",
    "OPTION_CHARS",
    "PROMPT_CHARS",
    "answers",
    "metadata",
    "questions",
    "rooms",
]

#: Length of a room code (characters from :data:`store.classroom.CODE_ALPHABET`).
CODE_LENGTH = 6
#: Longest nickname, answer, question prompt and choice option kept (characters).
NICKNAME_CHARS = 24
ANSWER_CHARS = 32
PROMPT_CHARS = 300
OPTION_CHARS = 60
EXPLANATION_CHARS = 600

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
    UniqueConstraint("room_id", "number", name="uq_questions_room_number"),
    CheckConstraint("kind IN ('numeric', 'choice')", name="kind"),
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
    UniqueConstraint("question_id", "student_id", name="uq_answers_question_student"),
)
