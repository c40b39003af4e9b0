"""played games: whether any round is on the pad, so that the games list finds the empty
games it leaves out in an index of those alone

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-24 04:20:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('played', sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    op.execute(
        "UPDATE game SET played = (EXISTS (SELECT 1 FROM round WHERE round.game_id = game.id))"
    )
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_index('ix_game_circle_unfinished')
        batch_op.create_index(
            'ix_game_circle_empty',
            ['circle_id', 'updated_at'],
            unique=False,
            sqlite_where=sa.text('finished_at IS NULL AND played = 0'),
            postgresql_where=sa.text('finished_at IS NULL AND NOT played'),
        )


def downgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_index('ix_game_circle_empty')
        batch_op.create_index(
            'ix_game_circle_unfinished',
            ['circle_id', 'updated_at'],
            unique=False,
            sqlite_where=sa.text('finished_at IS NULL'),
            postgresql_where=sa.text('finished_at IS NULL'),
        )
        batch_op.drop_column('played')
