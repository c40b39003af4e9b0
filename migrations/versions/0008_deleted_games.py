"""deleted games: a game can be deleted and brought back (undo); unfinished games by when
they were last touched (the games list leaves out the empty ones left for a day)

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('deleted_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index('ix_game_circle_deleted', ['circle_id', 'deleted_at'], unique=False)
        batch_op.create_index(
            'ix_game_circle_unfinished',
            ['circle_id', 'updated_at'],
            unique=False,
            sqlite_where=sa.text('finished_at IS NULL'),
            postgresql_where=sa.text('finished_at IS NULL'),
        )


def downgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_index('ix_game_circle_unfinished')
        batch_op.drop_index('ix_game_circle_deleted')
        batch_op.drop_column('deleted_at')
