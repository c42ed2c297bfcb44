"""Position questions: the class votes ND / DT / DP on a position.

A question of kind ``position`` keeps the position asked (``position``: JSON of its
Position ID, cube, and library id when it came from the library) and the verdict with
the engine's numbers, computed once when it is asked (``evaluation``: JSON); a vote
may carry the student's estimate of the winning chance (``answers.estimate``, percent).

Revision ID: 0007_position_votes
Revises: 0006_position_answers
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0007_position_votes"
down_revision = "0006_position_answers"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("questions") as batch:
        batch.drop_constraint("ck_questions_kind", type_="check")
        batch.create_check_constraint(
            "ck_questions_kind", "kind IN ('numeric', 'choice', 'position')"
        )
        batch.add_column(sa.Column("position", sa.Text(), nullable=True))
        batch.add_column(sa.Column("evaluation", sa.Text(), nullable=True))
    with op.batch_alter_table("answers") as batch:
        batch.add_column(sa.Column("estimate", sa.Float(), nullable=True))


def downgrade() -> None:
    op.execute("DELETE FROM questions WHERE kind = 'position'")
    with op.batch_alter_table("answers") as batch:
        batch.drop_column("estimate")
    with op.batch_alter_table("questions") as batch:
        batch.drop_column("evaluation")
        batch.drop_column("position")
        batch.drop_constraint("ck_questions_kind", type_="check")
        batch.create_check_constraint("ck_questions_kind", "kind IN ('numeric', 'choice')")
