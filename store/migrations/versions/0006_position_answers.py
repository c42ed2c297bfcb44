"""Position answers: a student's graded answers to the library's decisions, by token.

Revision ID: 0006_position_answers
Revises: 0005_rollout_jobs
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_position_answers"
down_revision = "0005_rollout_jobs"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "position_answers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(32), nullable=False),
        sa.Column("quiz", sa.String(80), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("card", sa.String(80), nullable=False),
        sa.Column("theme", sa.String(16), nullable=False),
        sa.Column("given", sa.String(32), nullable=False),
        sa.Column("correct", sa.Boolean(), nullable=False),
        sa.Column("error", sa.Float(), nullable=False),
        sa.Column("answered_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_position_answers"),
        sa.UniqueConstraint(
            "token", "quiz", "number", name="uq_position_answers_token_quiz_number"
        ),
    )
    op.create_index(
        "ix_position_answers_token_answered_at", "position_answers", ["token", "answered_at"]
    )
    op.create_index("ix_position_answers_answered_at", "position_answers", ["answered_at"])


def downgrade() -> None:
    op.drop_index("ix_position_answers_answered_at", table_name="position_answers")
    op.drop_index("ix_position_answers_token_answered_at", table_name="position_answers")
    op.drop_table("position_answers")
