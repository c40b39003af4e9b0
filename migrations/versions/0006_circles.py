"""circles: a group's own players, games and statistics behind a link

Every existing game and player moves into one circle, "Our games", whose link
`flask --app scorekeeper circles` prints. Player names are unique within a circle now,
not on the whole server.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23 17:00:00

"""
import secrets
from datetime import UTC, datetime

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'circle',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('public_id', sa.String(length=32), nullable=False),
        sa.Column('name', sa.String(length=60), nullable=False),
        sa.Column('link_generation', sa.Integer(), server_default='1', nullable=False),
        sa.Column('passphrase_hash', sa.String(length=255), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_circle')),
        sa.UniqueConstraint('public_id', name=op.f('uq_circle_public_id')),
    )
    sqlite = op.get_bind().dialect.name == 'sqlite'
    if sqlite:
        # SQLite's batch mode copies the player table and drops the old one, which the
        # seats and round lines refer to: no foreign key checks while the copy is made
        # (the rows and their ids stay the same), on again right after.
        op.execute('PRAGMA defer_foreign_keys = ON')
        op.execute('PRAGMA foreign_keys = OFF')
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.add_column(sa.Column('circle_id', sa.Integer(), nullable=True))
        batch_op.drop_constraint(batch_op.f('uq_player_key'), type_='unique')
        batch_op.create_unique_constraint(batch_op.f('uq_player_circle_id'), ['circle_id', 'key'])
        batch_op.create_index(batch_op.f('ix_player_circle_id'), ['circle_id'], unique=False)
        batch_op.create_foreign_key(
            batch_op.f('fk_player_circle_id_circle'), 'circle', ['circle_id'], ['id']
        )
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('circle_id', sa.Integer(), nullable=True))
        batch_op.create_index(
            'ix_game_circle_created', ['circle_id', 'created_at', 'id'], unique=False
        )
        batch_op.create_foreign_key(
            batch_op.f('fk_game_circle_id_circle'), 'circle', ['circle_id'], ['id']
        )
    if sqlite:
        op.execute('PRAGMA foreign_keys = ON')

    # Answers kept for retries were stored in plain text and per server, not per client:
    # they go (a retry then writes afresh, as after a day).
    op.execute('DELETE FROM idempotency_key')

    # The games and players so far were the whole server's: they become one circle's.
    conn = op.get_bind()
    has_data = conn.execute(sa.text('SELECT 1 FROM player')).first() or conn.execute(
        sa.text('SELECT 1 FROM game')
    ).first()
    if has_data:
        conn.execute(
            sa.text(
                "INSERT INTO circle (public_id, name, link_generation, created_at)"
                " VALUES (:p, 'Our games', 1, :t)"
            ),
            {'p': secrets.token_urlsafe(12), 't': datetime.now(UTC)},
        )
        circle_id = conn.execute(sa.text('SELECT max(id) FROM circle')).scalar()
        conn.execute(sa.text('UPDATE player SET circle_id = :c'), {'c': circle_id})
        conn.execute(sa.text('UPDATE game SET circle_id = :c'), {'c': circle_id})


def downgrade():
    # Names are unique on the whole server again: only possible with a single circle.
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_game_circle_id_circle'), type_='foreignkey')
        batch_op.drop_index('ix_game_circle_created')
        batch_op.drop_column('circle_id')
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_player_circle_id_circle'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_player_circle_id'))
        batch_op.drop_constraint(batch_op.f('uq_player_circle_id'), type_='unique')
        batch_op.create_unique_constraint(batch_op.f('uq_player_key'), ['key'])
        batch_op.drop_column('circle_id')
    op.drop_table('circle')
