"""Messages carry the person's rating of a reply (`feedback`: Good response / Bad response, with a comment).

Its parent is 0002 whatever other revision was added beside it: the store upgrades to every head, so this one and a
sibling run in either order (they touch different columns).

Revision ID: 0003_feedback
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_feedback"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Nullable, no default needed: a worker still running the older code goes on inserting messages without it.
    op.add_column("copilot_messages", sa.Column("feedback", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("copilot_messages") as batch:
        batch.drop_column("feedback")
