"""ratings and seats: each circle player's rating (mu, sigma) and its history game by
game; each player's rounds by their seat relative to the dealer

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-27 00:00:00

Existing circles' ratings are computed here, once, from their finished games (the same
computation the app makes: ``scorekeeper.services.ratings``), and the counts by seat from
the stored rounds.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'rating',
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('circle_id', sa.Integer(), nullable=False),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ['circle_id'], ['circle.id'], name=op.f('fk_rating_circle_id_circle')
        ),
        sa.ForeignKeyConstraint(
            ['player_id'], ['player.id'], name=op.f('fk_rating_player_id_player'),
            ondelete='CASCADE',
        ),
        sa.PrimaryKeyConstraint('player_id', name=op.f('pk_rating')),
    )
    with op.batch_alter_table('rating', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_rating_circle_id'), ['circle_id'], unique=False)
    op.create_table(
        'rating_step',
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('circle_id', sa.Integer(), nullable=False),
        sa.Column('finished_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('place', sa.Integer(), nullable=False),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('run', sa.Integer(), nullable=False),
        sa.Column('best_run', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ['circle_id'], ['circle.id'], name=op.f('fk_rating_step_circle_id_circle')
        ),
        sa.ForeignKeyConstraint(
            ['game_id'], ['game.id'], name=op.f('fk_rating_step_game_id_game'),
            ondelete='CASCADE',
        ),
        sa.ForeignKeyConstraint(
            ['player_id'], ['player.id'], name=op.f('fk_rating_step_player_id_player'),
            ondelete='CASCADE',
        ),
        sa.PrimaryKeyConstraint('game_id', 'player_id', name=op.f('pk_rating_step')),
    )
    with op.batch_alter_table('rating_step', schema=None) as batch_op:
        batch_op.create_index(
            'ix_rating_step_circle_order', ['circle_id', 'finished_at', 'game_id'], unique=False
        )
        batch_op.create_index(
            'ix_rating_step_player_order', ['player_id', 'finished_at', 'game_id'], unique=False
        )
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.add_column(sa.Column('by_position', sa.JSON(), nullable=True))
    op.create_table(
        'player_position',
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('position', sa.Integer(), nullable=False),
        sa.Column('rounds', sa.Integer(), nullable=False),
        sa.Column('points', sa.Integer(), nullable=False),
        sa.Column('bid_rounds', sa.Integer(), nullable=False),
        sa.Column('exact', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ['player_id'], ['player.id'], name=op.f('fk_player_position_player_id_player'),
            ondelete='CASCADE',
        ),
        sa.PrimaryKeyConstraint('player_id', 'position', name=op.f('pk_player_position')),
    )
    conn = op.get_bind()
    _count_positions(conn)
    from scorekeeper.services import ratings

    ratings.rate_every_circle(conn)


def _count_positions(conn):
    """Each seat's rounds by its place relative to the round's dealer, from the stored
    rounds (as ``services.stats.seat_summaries`` counts them), and each player's sums
    over the games that were not deleted."""
    rows = conn.execute(
        sa.text(
            "SELECT r.game_id, rr.seat, rr.player_id, g.deleted_at IS NULL,"
            " (rr.seat - r.dealer + g.player_count) % g.player_count AS position,"
            " COUNT(*), COALESCE(SUM(rr.score), 0),"
            " SUM(CASE WHEN rr.bid IS NOT NULL THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN rr.bid = rr.tricks THEN 1 ELSE 0 END)"
            " FROM round_result rr JOIN round r ON r.id = rr.round_id"
            " JOIN game g ON g.id = r.game_id"
            " WHERE r.complete"
            " GROUP BY r.game_id, rr.seat, rr.player_id, g.deleted_at IS NULL, position"
            " ORDER BY r.game_id, rr.seat, position"
        )
    ).all()
    seats = {}
    players = {}
    for game_id, seat, player_id, live, position, rounds, points, bids, exact in rows:
        line = [int(position), int(rounds), int(points), int(bids), int(exact)]
        seats.setdefault((game_id, seat), []).append(line)
        if live:
            total = players.setdefault((player_id, int(position)), [0, 0, 0, 0])
            for i, n in enumerate(line[1:]):
                total[i] += n
    seat = sa.table(
        'seat', sa.column('game_id'), sa.column('seat'), sa.column('by_position', sa.JSON)
    )
    if seats:
        conn.execute(
            seat.update()
            .where(seat.c.game_id == sa.bindparam('g'), seat.c.seat == sa.bindparam('s'))
            .values(by_position=sa.bindparam('v', type_=sa.JSON)),
            [{'g': g, 's': s, 'v': v} for (g, s), v in seats.items()],
        )
    position = sa.table(
        'player_position',
        *(sa.column(c) for c in ('player_id', 'position', 'rounds', 'points', 'bid_rounds', 'exact')),
    )
    if players:
        conn.execute(
            position.insert(),
            [
                dict(zip(('player_id', 'position', 'rounds', 'points', 'bid_rounds', 'exact'), (p, k, *n)))
                for (p, k), n in sorted(players.items())
            ],
        )


def downgrade():
    op.drop_table('player_position')
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_column('by_position')
    with op.batch_alter_table('rating_step', schema=None) as batch_op:
        batch_op.drop_index('ix_rating_step_player_order')
        batch_op.drop_index('ix_rating_step_circle_order')
    op.drop_table('rating_step')
    with op.batch_alter_table('rating', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_rating_circle_id'))
    op.drop_table('rating')
