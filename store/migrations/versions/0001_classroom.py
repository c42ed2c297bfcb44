"""The classroom: rooms, questions, answers (one answer per student and question).

Revision ID: 0001
Revises:
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(6), nullable=False),
        sa.Column("secret_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("closed_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_rooms"),
        sa.UniqueConstraint("code", name="uq_rooms_code"),
    )
    op.create_table(
        "questions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("prompt", sa.Text(), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("answer_key", sa.String(60), nullable=False),
        sa.Column("tolerance", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("revealed_at", sa.DateTime(), nullable=True),
        sa.CheckConstraint("kind IN ('numeric', 'choice')", name="ck_questions_kind"),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name="fk_questions_room_id_rooms", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_questions"),
        sa.UniqueConstraint("room_id", "number", name="uq_questions_room_number"),
    )
    op.create_table(
        "answers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("question_id", sa.Integer(), nullable=False),
        sa.Column("student_id", sa.String(32), nullable=False),
        sa.Column("nickname", sa.String(24), nullable=False),
        sa.Column("value", sa.String(32), nullable=False),
        sa.Column("submissions", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["question_id"],
            ["questions.id"],
            name="fk_answers_question_id_questions",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name="fk_answers_room_id_rooms", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_answers"),
        sa.UniqueConstraint("question_id", "student_id", name="uq_answers_question_student"),
    )


def downgrade() -> None:
    op.drop_table("answers")
    op.drop_table("questions")
    op.drop_table("rooms")
