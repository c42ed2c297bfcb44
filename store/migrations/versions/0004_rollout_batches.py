"""Rollout batches: every finished batch of a rollout, keyed by the rollout and its index.

Revision ID: 0004_rollout_batches
Revises: 0003_people
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_rollout_batches"
down_revision = "0003_people"
branch_labels = None
depends_on = None

_SUMS = (
    "win",
    "win_gammon",
    "win_backgammon",
    "lose_gammon",
    "lose_backgammon",
    "cubeless",
    "no_double",
    "double_take",
    "cubeless_variance",
    "no_double_variance",
    "double_take_variance",
)


def upgrade() -> None:
    op.create_table(
        "rollout_batches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("rollout_key", sa.String(40), nullable=False),
        sa.Column("position_id", sa.String(14), nullable=False),
        sa.Column("settings", sa.Text(), nullable=False),
        sa.Column("engine_version", sa.String(32), nullable=False),
        sa.Column("batch_index", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("trials", sa.Integer(), nullable=False),
        sa.Column("truncation", sa.Integer(), nullable=False),
        *(sa.Column(name, sa.Float(), nullable=False) for name in _SUMS),
        sa.Column("cube_available", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_rollout_batches"),
        sa.UniqueConstraint(
            "rollout_key", "batch_index", name="uq_rollout_batches_rollout_key_batch_index"
        ),
    )


def downgrade() -> None:
    op.drop_table("rollout_batches")
