"""change messages: each line of a game's change log says which message it is and with
what facts (worded in the reader's language when shown); the lines already stored get
theirs from their action, data and English words, once, here

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-26 11:00:00

"""
import re

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None

BATCH = 500

# What the app wrote before this revision, by its English words (the only time the words
# are read back: from here on every line is stored with its id and facts).
_ROUND = r"Round (?P<number>\d{1,9})"
_LINES = [
    (re.compile(rf"^{_ROUND} recorded$"), "round_recorded"),
    (re.compile(rf"^{_ROUND} deleted$"), "round_deleted"),
    (re.compile(rf"^{_ROUND} reopened$"), "round_reopened"),
    (re.compile(rf"^{_ROUND}: (?P<name>.+) bid cleared$"), "bid_cleared"),
    (re.compile(rf"^{_ROUND}: (?P<name>.+) bid entered$"), "bid_entered"),
    (re.compile(rf"^{_ROUND}: trump (?P<trump>\S+)$"), "trump_set"),
    (re.compile(rf"^{_ROUND}: the rest made their bids$"), "rest_made_their_bids"),
    (re.compile(rf"^{_ROUND}: (?P<name>.+)'s tricks entered$"), "tricks_entered"),
    (re.compile(rf"^{_ROUND}: (?P<name>.+)'s tricks cleared$"), "tricks_cleared"),
    (re.compile(rf"^{_ROUND}: tricks from (?P<name>.+) on cleared$"), "tricks_cleared_from"),
    (re.compile(rf"^{_ROUND} corrected: (?P<parts>.+)$"), "round_corrected"),
    (re.compile(rf"^{_ROUND}$"), "round_corrected"),
]
_PARTS = [
    (re.compile(r"^(?P<name>.+)'s bid changed$"), "bid_changed"),
    (re.compile(r"^(?P<name>.+)'s bid (?P<old>\S+) → (?P<new>\S+)$"), "bid"),
    (re.compile(r"^(?P<name>.+)'s tricks (?P<old>\S+) → (?P<new>\S+)$"), "tricks"),
    (re.compile(r"^trump (?P<old>\S+) → (?P<new>\S+)$"), "trump"),
]
_BY_ACTION = {
    "created": "game_set_up",
    "scorer": "scorer_taken_over",
    "circle": "moved_into_circle",
    "game_deleted": "game_deleted",
    "game_restored": "game_restored",
    "next_game": "next_game",
}


def _part(text):
    for pattern, part in _PARTS:
        found = pattern.match(text)
        if found:
            return {"part": part, **found.groupdict()}
    return None


def message_of(action, summary, round_number, data):
    """The message id and facts of a line stored before this revision, or (None, None)."""
    if action in _BY_ACTION:
        return _BY_ACTION[action], {}
    if action in ("adjusted", "adjustment_removed"):
        if isinstance(data, dict) and isinstance(data.get("points"), int) and "name" in data:
            return action, {**data, "number": round_number}
        return None, None
    for pattern, message in _LINES:
        found = pattern.match(summary or "")
        if found is None:
            continue
        facts = found.groupdict()
        facts["number"] = int(facts["number"])
        if message == "round_corrected":
            parts = [_part(p) for p in facts.pop("parts", "").split("; ") if p]
            if None in parts:
                return None, None
            facts["parts"] = parts
        return message, facts
    return None, None


def upgrade():
    with op.batch_alter_table('change', schema=None) as batch_op:
        batch_op.add_column(sa.Column('message', sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column('facts', sa.JSON(), nullable=True))
    change = sa.table(
        'change',
        sa.column('id', sa.Integer),
        sa.column('action', sa.String),
        sa.column('summary', sa.Text),
        sa.column('round_number', sa.Integer),
        sa.column('data', sa.JSON),
        sa.column('message', sa.String),
        sa.column('facts', sa.JSON),
    )
    conn = op.get_bind()
    last = 0
    while True:
        rows = conn.execute(
            sa.select(
                change.c.id, change.c.action, change.c.summary, change.c.round_number, change.c.data
            )
            .where(change.c.id > last)
            .order_by(change.c.id)
            .limit(BATCH)
        ).all()
        if not rows:
            break
        for row in rows:
            message, facts = message_of(row.action, row.summary, row.round_number, row.data)
            if message is not None:
                conn.execute(
                    change.update()
                    .where(change.c.id == row.id)
                    .values(message=message, facts=facts)
                )
        last = rows[-1].id


def downgrade():
    with op.batch_alter_table('change', schema=None) as batch_op:
        batch_op.drop_column('facts')
        batch_op.drop_column('message')
