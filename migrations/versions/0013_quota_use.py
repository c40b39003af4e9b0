"""quota use: what each client made (circles, games, imports), limited per client

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-26 22:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'quota_use',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=32), nullable=False),
        sa.Column('client', sa.String(length=64), nullable=False),
        sa.Column('used_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_quota_use')),
    )
    with op.batch_alter_table('quota_use', schema=None) as batch_op:
        batch_op.create_index(
            'ix_quota_use_kind_client', ['kind', 'client', 'used_at'], unique=False
        )
        batch_op.create_index(batch_op.f('ix_quota_use_used_at'), ['used_at'], unique=False)


def downgrade():
    with op.batch_alter_table('quota_use', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_quota_use_used_at'))
        batch_op.drop_index('ix_quota_use_kind_client')
    op.drop_table('quota_use')
