"""digital play: one table state per digital game

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-21 11:10:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'digital_table',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('state', sa.JSON(), nullable=False),
        sa.Column('seats', sa.JSON(), nullable=False),
        sa.Column('actions', sa.JSON(), nullable=False),
        sa.Column('table_secret_hash', sa.String(length=64), nullable=False),
        sa.Column('seed', sa.Integer(), nullable=True),
        sa.Column('recent', sa.JSON(), nullable=True),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_digital_table_game_id_game'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_digital_table')),
        sa.UniqueConstraint('game_id', name=op.f('uq_digital_table_game_id')),
    )


def downgrade():
    op.drop_table('digital_table')
