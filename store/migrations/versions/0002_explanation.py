"""Questions carry an explanation shown with the answer on reveal (a drill's formula).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("questions") as batch:
        batch.add_column(sa.Column("explanation", sa.Text(), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("questions") as batch:
        batch.drop_column("explanation")
