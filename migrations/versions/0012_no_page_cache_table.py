"""no page cache table: each app process keeps the game pages it rendered in its own
memory, per game version (read from the game row), so a read no longer writes

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-26 15:40:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade():
    op.drop_table('page_cache')


def downgrade():
    # The kept pages themselves are not brought back: the next reader renders them.
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
