"""A circle's players: the names offered on the setup form, renaming a player, and
merging two names of the same person into one player.

A merge keeps the history: every seat and round line of the merged name moves to the kept
player, and the merged name is removed. Two players who sat in the same game are two
people, so they are never merged.
"""

from __future__ import annotations

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.orm import aliased

from scorekeeper.extensions import db
from scorekeeper.i18n import _, _n
from scorekeeper.models import (
    Game,
    Player,
    PlayerCards,
    PlayerPosition,
    Rivalry,
    RoundResult,
    Seat,
)
from scorekeeper.services import players as player_service
from scorekeeper.services import ratings, stats
from scorekeeper.services.errors import NotFound, Rejected


def recent_names(circle_id: int | None, limit: int = 30) -> list[str]:
    """The circle's players for the setup form's one-tap chips, in order of recent play:
    the players of the latest game first, in their seat order, then those of the game
    before, and so on. Only score pad games count: bots sit at digital games alone, so a
    bot is never offered (nor anyone who never sat at a score pad); nor do deleted games.
    A one-off game (no circle) has none."""
    if circle_id is None:
        return []
    latest_first = func.row_number().over(
        partition_by=Seat.player_id, order_by=(Game.created_at.desc(), Game.id.desc())
    )
    # Each player's latest score pad game in the circle, and their seat in it.
    last = (
        select(
            Seat.player_id,
            Seat.seat,
            Game.created_at,
            Game.id.label("game_id"),
            latest_first.label("n"),
        )
        .join(Game, Game.id == Seat.game_id)
        .where(Game.circle_id == circle_id, Game.mode == "pad", Game.deleted_at.is_(None))
        .subquery()
    )
    rows = db.session.execute(
        select(Player.name)
        .join(last, last.c.player_id == Player.id)
        .where(last.c.n == 1, Player.circle_id == circle_id)
        .order_by(last.c.created_at.desc(), last.c.game_id.desc(), last.c.seat)
        .limit(limit)
    )
    return [name for (name,) in rows]


def latest_table(circle_id: int | None) -> list[str]:
    """The players of the circle's latest score pad game, in their seat order: the table
    that most likely sits down again (none for a one-off game, or a circle without one)."""
    if circle_id is None:
        return []
    latest = (
        select(Game.id)
        .where(Game.circle_id == circle_id, Game.mode == "pad", Game.deleted_at.is_(None))
        .order_by(Game.created_at.desc(), Game.id.desc())
        .limit(1)
        .scalar_subquery()
    )
    rows = db.session.execute(
        select(Player.name)
        .join(Seat, Seat.player_id == Player.id)
        .where(Seat.game_id == latest)
        .order_by(Seat.seat)
    )
    return [name for (name,) in rows]


def _player(player_id: int, circle_id: int) -> Player:
    player = db.session.get(Player, player_id)
    if player is None or player.circle_id != circle_id:
        raise NotFound(_("There is no such player."))
    return player


def _names_changed(*player_ids: int) -> None:
    """A new version for every game these players sat in: the names on its pages change
    (so pages kept for the old version go, and following phones reload them)."""
    db.session.execute(
        update(Game)
        .where(Game.id.in_(select(Seat.game_id).where(Seat.player_id.in_(player_ids))))
        .values(version=Game.version + 1)
        .execution_options(synchronize_session=False)
    )


def rename_player(circle_id: int, player_id: int, new_name: object) -> Player:
    """Give a player a new name (the same person in every game).

    :raises NotFound: for an unknown player.
    :raises Rejected: for a bad name, or one another player already has (merge instead).
    """
    player = _player(player_id, circle_id)
    name = player_service.clean_name(new_name)
    key = player_service.name_key(name)
    other = db.session.scalar(
        select(Player).where(
            Player.circle_id == circle_id, Player.key == key, Player.id != player.id
        )
    )
    if other is not None:
        raise Rejected(
            _(
                "There is already a player called %(name)s. If they are the same person, "
                "merge the two instead.",
                name=other.name,
            ),
            "name_taken",
        )
    player.name = name
    player.key = key
    _names_changed(player.id)
    db.session.flush()
    return player


def merge_choices(circle_id: int, player_id: int) -> list[tuple[int, str]]:
    """The players of the circle that ``player_id`` may be merged with, as (id, name) by
    name: everyone else but those who sat at a table with them (:func:`merge_players`
    refuses those: two people)."""
    mine, theirs = aliased(Seat), aliased(Seat)
    tablemates = (
        select(theirs.player_id)
        .join(mine, mine.game_id == theirs.game_id)
        .where(mine.player_id == player_id)
    )
    query = (
        select(Player.id, Player.name)
        .where(
            Player.circle_id == circle_id,
            Player.id != player_id,
            Player.id.not_in(tablemates),
        )
        .order_by(Player.key)
    )
    return [(pid, name) for pid, name in db.session.execute(query)]


def merge_players(circle_id: int, keep_id: int, merge_id: int) -> Player:
    """Move every game of player ``merge_id`` to ``keep_id`` and remove ``merge_id``.

    :raises NotFound: for an unknown player.
    :raises Rejected: for the same player twice, or two players who sat in the same game.
    """
    if keep_id == merge_id:
        raise Rejected(_("Choose two different players to merge."), "same_player")
    keep, gone = _player(keep_id, circle_id), _player(merge_id, circle_id)
    mine, theirs = aliased(Seat), aliased(Seat)
    shared = db.session.scalar(
        select(func.count())
        .select_from(mine)
        .join(theirs, theirs.game_id == mine.game_id)
        .where(mine.player_id == keep.id, theirs.player_id == gone.id)
    )
    if shared:
        raise Rejected(
            _n(
                "%(keep)s and %(gone)s played at the same table (%(num)s game), so they are "
                "two people: they can't be merged.",
                "%(keep)s and %(gone)s played at the same table (%(num)s games), so they are "
                "two people: they can't be merged.",
                shared,
                keep=keep.name,
                gone=gone.name,
            ),
            "played_together",
        )
    _names_changed(gone.id)
    db.session.execute(update(Seat).where(Seat.player_id == gone.id).values(player_id=keep.id))
    db.session.execute(
        update(RoundResult).where(RoundResult.player_id == gone.id).values(player_id=keep.id)
    )
    moved = db.session.execute(
        select(PlayerCards.cards, PlayerCards.rounds, PlayerCards.exact).where(
            PlayerCards.player_id == gone.id
        )
    ).all()
    stats.add_cards(keep.id, [tuple(line) for line in moved])
    db.session.execute(delete(PlayerCards).where(PlayerCards.player_id == gone.id))
    stats.add_positions(keep.id, stats.positions_of(gone.id))
    db.session.execute(delete(PlayerPosition).where(PlayerPosition.player_id == gone.id))
    # Head-to-head records: the merged name's, and everyone's against the merged name.
    rivals = db.session.scalars(
        select(Rivalry).where(or_(Rivalry.player_id == gone.id, Rivalry.other_id == gone.id))
    ).all()
    moved_pairs = [
        (
            keep.id if r.player_id == gone.id else r.player_id,
            keep.id if r.other_id == gone.id else r.other_id,
            r.games,
            r.ahead,
            r.behind,
            r.level,
        )
        for r in rivals
    ]
    db.session.execute(
        delete(Rivalry).where(or_(Rivalry.player_id == gone.id, Rivalry.other_id == gone.id))
    )
    stats.add_rivalries(moved_pairs)
    # Their games are one player's now: rated again in one line of play from the first
    # game of the name that goes (the kept name's games before it stand as they were).
    db.session.flush()
    conn = db.session.connection()
    since = ratings.first_key(conn, gone.id)
    if since is not None:
        ratings.replay(conn, circle_id, since)
    db.session.execute(delete(Player).where(Player.id == gone.id))
    db.session.flush()
    db.session.expire_all()
    return keep
