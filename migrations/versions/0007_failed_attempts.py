"""failed attempts: wrong passphrase guesses, limited per client

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'failed_attempt',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=32), nullable=False),
        sa.Column('client', sa.String(length=64), nullable=False),
        sa.Column('failed_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_failed_attempt')),
    )
    with op.batch_alter_table('failed_attempt', schema=None) as batch_op:
        batch_op.create_index(
            'ix_failed_attempt_kind_client', ['kind', 'client', 'failed_at'], unique=False
        )
        batch_op.create_index(
            batch_op.f('ix_failed_attempt_failed_at'), ['failed_at'], unique=False
        )


def downgrade():
    with op.batch_alter_table('failed_attempt', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_failed_attempt_failed_at'))
        batch_op.drop_index('ix_failed_attempt_kind_client')
    op.drop_table('failed_attempt')
