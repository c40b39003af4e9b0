"""adjustments: a one-off bonus or penalty for a player in a played round, kept with the
round

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-24 05:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('round', schema=None) as batch_op:
        batch_op.add_column(sa.Column('adjustments', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('round', schema=None) as batch_op:
        batch_op.drop_column('adjustments')
