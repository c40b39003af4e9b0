"""draft moves: the stack of moves of the round being entered, kept with the game so
that Undo steps back move by move across requests and phones

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-27 03:00:00

Drafts stored before have none (null): Undo then follows the bidding order, as it did.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('draft_moves', sa.String(length=100), nullable=True))


def downgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('draft_moves')
