"""What the JSON API asks about a circle besides the shared services: its size, and one of
its players by id."""

from __future__ import annotations

from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.i18n import _
from scorekeeper.models import Game, Player
from scorekeeper.services.errors import NotFound

# Ids are 32-bit integers on every database the app runs on: a larger one names nothing,
# and must not reach a query (PostgreSQL refuses it with an error instead of no row).
MAX_ID = 2**31 - 1
# How many of each record the API shows.
RECORDS = 3


def counts(circle_id: int) -> tuple[int, int]:
    """The circle's number of games (deleted ones left out) and of players, in one query."""
    games = (
        select(func.count(Game.id))
        .where(Game.circle_id == circle_id, Game.deleted_at.is_(None))
        .scalar_subquery()
    )
    players = select(func.count(Player.id)).where(Player.circle_id == circle_id).scalar_subquery()
    row = db.session.execute(select(games, players)).one()
    return int(row[0]), int(row[1])


def circle_player(player_id: int, circle_id: int) -> Player:
    """The circle's player with this id.

    :raises NotFound: for an id that names no player, or another circle's player: the same
        answer, so nothing tells whether the id exists elsewhere.
    """
    player = db.session.get(Player, player_id) if 1 <= player_id <= MAX_ID else None
    if player is None or player.circle_id != circle_id:
        raise NotFound(_("There is no such player."))
    return player
