"""Rollout jobs: the shared queue of rollouts, one job per rollout key, with its lease.

Revision ID: 0005_rollout_jobs
Revises: 0004_rollout_batches
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0005_rollout_jobs"
down_revision = "0004_rollout_batches"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rollout_jobs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("rollout_key", sa.String(40), nullable=False),
        sa.Column("position_id", sa.String(14), nullable=False),
        sa.Column("settings", sa.Text(), nullable=False),
        sa.Column("engine_version", sa.String(32), nullable=False),
        sa.Column("trials", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(9), nullable=False),
        sa.Column("submitted_by", sa.String(32), nullable=False),
        sa.Column("client", sa.String(64), nullable=True),
        sa.Column("submitted_at", sa.DateTime(), nullable=False),
        sa.Column("lease_owner", sa.String(64), nullable=True),
        sa.Column("lease_expires", sa.DateTime(), nullable=True),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.Column("message", sa.Text(), nullable=False, server_default=""),
        sa.PrimaryKeyConstraint("id", name="pk_rollout_jobs"),
        sa.UniqueConstraint("rollout_key", name="uq_rollout_jobs_rollout_key"),
        sa.CheckConstraint(
            "state IN ('queued', 'running', 'done', 'cancelled', 'failed')",
            name="ck_rollout_jobs_state",
        ),
    )
    op.create_index("ix_rollout_jobs_state_submitted_at", "rollout_jobs", ["state", "submitted_at"])
    op.create_index("ix_rollout_jobs_submitted_by_state", "rollout_jobs", ["submitted_by", "state"])
    op.create_index("ix_rollout_jobs_client_state", "rollout_jobs", ["client", "state"])


def downgrade() -> None:
    op.drop_index("ix_rollout_jobs_client_state", table_name="rollout_jobs")
    op.drop_index("ix_rollout_jobs_submitted_by_state", table_name="rollout_jobs")
    op.drop_index("ix_rollout_jobs_state_submitted_at", table_name="rollout_jobs")
    op.drop_table("rollout_jobs")
