"""page cache: a game page kept per version, shared by every app server

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-21 14:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'page_cache',
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('variant', sa.String(length=32), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('body', sa.LargeBinary(), nullable=False),
        sa.Column('gzip', sa.LargeBinary(), nullable=True),
        sa.Column('br', sa.LargeBinary(), nullable=True),
        sa.ForeignKeyConstraint(
            ['game_id'], ['game.id'], name=op.f('fk_page_cache_game_id_game'), ondelete='CASCADE'
        ),
        sa.PrimaryKeyConstraint('game_id', 'variant', name=op.f('pk_page_cache')),
    )


def downgrade():
    op.drop_table('page_cache')
