"""live channel: on PostgreSQL, every new version of a game is announced (NOTIFY) to the
app servers that LISTEN, once its transaction commits (scorekeeper/live.py); SQLite needs
nothing: each process watches the file's data_version

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-27 00:00:00

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None

# A trigger rather than a statement from the app: it catches every way a version moves
# (a tap, a correction, a rename that bumps many games at once) and costs the writer no
# round trip. The payload is "<public_id> <version>"; the channel is live.NOTIFY_CHANNEL.


def upgrade():
    if op.get_bind().dialect.name != 'postgresql':
        return
    op.execute(
        """
        CREATE FUNCTION scorekeeper_game_version_notify() RETURNS trigger
        LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('scorekeeper_games', NEW.public_id || ' ' || NEW.version);
            RETURN NULL;
        END
        $$
        """
    )
    op.execute(
        """
        CREATE TRIGGER game_version_notify
        AFTER UPDATE OF version ON game
        FOR EACH ROW WHEN (NEW.version IS DISTINCT FROM OLD.version)
        EXECUTE FUNCTION scorekeeper_game_version_notify()
        """
    )


def downgrade():
    if op.get_bind().dialect.name != 'postgresql':
        return
    op.execute('DROP TRIGGER game_version_notify ON game')
    op.execute('DROP FUNCTION scorekeeper_game_version_notify()')
