"""People: students with one identity per room, the presenter's own rooms, per-client
limits, longer room codes, the drills' answers by student token.

Revision ID: 0003_people
Revises: 0002
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0003_people"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.alter_column("code", type_=sa.String(9), existing_nullable=False)
        batch.add_column(sa.Column("owner_hash", sa.String(64), nullable=True))
    op.create_table(
        "students",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(32), nullable=False),
        sa.Column("nickname", sa.String(24), nullable=False),
        sa.Column("joined_at", sa.DateTime(), nullable=False),
        sa.Column("removed_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name="fk_students_room_id_rooms", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_students"),
        sa.UniqueConstraint("room_id", "token", name="uq_students_room_token"),
    )
    op.create_table(
        "client_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_client_events"),
    )
    op.create_index("ix_client_events_client_kind_at", "client_events", ["client", "kind", "at"])
    op.create_index("ix_client_events_at", "client_events", ["at"])
    op.create_table(
        "drill_answers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(32), nullable=False),
        sa.Column("quiz", sa.String(80), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("given", sa.String(32), nullable=False),
        sa.Column("answered_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_drill_answers"),
        sa.UniqueConstraint("token", "quiz", "number", name="uq_drill_answers_token_quiz_number"),
    )


def downgrade() -> None:
    op.drop_table("drill_answers")
    op.drop_index("ix_client_events_at", "client_events")
    op.drop_index("ix_client_events_client_kind_at", "client_events")
    op.drop_table("client_events")
    op.drop_table("students")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("owner_hash")
        batch.alter_column("code", type_=sa.String(6), existing_nullable=False)
