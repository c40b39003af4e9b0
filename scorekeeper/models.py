"""SQLAlchemy models: storage only, no game rules.

A game stores what the table said (players in seat order, rule set, each round's trump,
bids and tricks). Scores and running totals are stored too, but only ever written from
the engine's computation, so that statistics can be plain SQL aggregates.
Imported by `create_app` so that Alembic's autogenerate sees every table.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    event,
    false,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.extensions import Model

NAME_MAX = 40
CIRCLE_NAME_MAX = 60


def utcnow() -> datetime:
    return datetime.now(UTC)


class Circle(Model):
    """The people who play together: their own players, games, history and statistics.

    Reached by its circle link, whose secret part is derived from the server's secret key
    and ``link_generation`` (``services.circles.circle_key``), so nothing secret is stored:
    a new generation makes the old link worthless. ``passphrase_hash`` (optional) is asked
    for once per browser on top of the link."""

    __tablename__ = "circle"

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True)
    name: Mapped[str] = mapped_column(String(CIRCLE_NAME_MAX))
    link_generation: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    passphrase_hash: Mapped[str | None] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Player(Model):
    """A person, the same across the games of one circle. ``key`` is the case-folded name
    that identifies them within their circle. A player of a one-off game (no circle) belongs
    to that game alone."""

    __tablename__ = "player"
    __table_args__ = (UniqueConstraint("circle_id", "key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    circle_id: Mapped[int | None] = mapped_column(ForeignKey("circle.id"), index=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    key: Mapped[str] = mapped_column(String(NAME_MAX))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


# A round's stack keeps only the moves that still stand: for six players some 45
# characters at most.
DRAFT_MOVES_MAX = 100


class Game(Model):
    """One game of Wizard. ``public_id`` is the unguessable id in view links; the scorer's
    secret is stored only as a hash."""

    __tablename__ = "game"

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True)
    # The circle the game belongs to, or None for a one-off game.
    circle_id: Mapped[int | None] = mapped_column(ForeignKey("circle.id"))
    scorer_token_hash: Mapped[str] = mapped_column(String(64))
    mode: Mapped[str] = mapped_column(String(10), default="pad")
    rules: Mapped[dict[str, object]] = mapped_column(JSON)
    player_count: Mapped[int] = mapped_column(Integer)
    first_dealer: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, index=True
    )
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Bumped by every change: optimistic locking, and the ETag of live updates.
    version: Mapped[int] = mapped_column(Integer, default=1)
    # Set when the game is deleted: it leaves every list, the statistics and records, and
    # its pages answer 404; cleared by an undo (services.history.delete_game).
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Whether any round is on the pad (even one with a bid alone): kept by the rounds'
    # own list (below), so that the games list finds the empty games in an index.
    played: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # The stack of moves of the round being entered (or of the last one, scored by a tap
    # and not touched since): "<round number>:<moves>" in the engine's text form
    # (engine.moves_text), kept with the version every tap writes anyway; null for none.
    draft_moves: Mapped[str | None] = mapped_column(String(DRAFT_MOVES_MAX))

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.seat", cascade="all, delete-orphan"
    )
    rounds: Mapped[list[Round]] = relationship(
        back_populates="game", order_by="Round.number", cascade="all, delete-orphan"
    )
    changes: Mapped[list[Change]] = relationship(
        back_populates="game", order_by="Change.id", cascade="all, delete-orphan"
    )
    circle: Mapped[Circle | None] = relationship()

    __table_args__ = (
        # A circle's games list, newest first, from the top of an index.
        Index("ix_game_circle_created", "circle_id", "created_at", "id"),
        # A circle's deleted games, which its statistics leave out.
        Index("ix_game_circle_deleted", "circle_id", "deleted_at"),
        # A circle's games with no round by when they were last touched: where the games
        # list finds the empty ones it leaves out, reading only those.
        Index(
            "ix_game_circle_empty",
            "circle_id",
            "updated_at",
            sqlite_where=text("finished_at IS NULL AND played = 0"),  # as SQLAlchemy says it
            postgresql_where=text("finished_at IS NULL AND NOT played"),
        ),
    )
    __mapper_args__ = {"version_id_col": version}


class Seat(Model):
    """A player's seat in a game; seat order is the order around the table."""

    __tablename__ = "seat"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("game.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    # The seat's game so far, written from the engine's sheet with every change of the
    # game (services.stats.summarise): player statistics and records are then sums over
    # seats, not over every round ever played.
    total: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    won: Mapped[bool | None] = mapped_column(Boolean)  # None until the game is finished
    rounds: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    bid_rounds: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    exact: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    overs: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    unders: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    best_streak: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    max_deficit: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # [[cards, rounds, exact], …] of this seat: what it adds to the player's PlayerCards.
    by_cards: Mapped[list[list[int]] | None] = mapped_column(JSON)
    # [[position, rounds, points, bid rounds, exact], …] by the seat's place relative to
    # each round's dealer: what it adds to the player's PlayerPosition.
    by_position: Mapped[list[list[int]] | None] = mapped_column(JSON)

    game: Mapped[Game] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship(lazy="joined")

    __table_args__ = (
        # A player's seats with their summaries straight from the index (player page).
        Index(
            "ix_seat_player_summary",
            "player_id",
            "won",
            "game_id",
            "seat",
            "total",
            "rounds",
            "bid_rounds",
            "exact",
            "overs",
            "unders",
            "best_streak",
        ),
        # The others at a player's tables, with their totals (head to head).
        Index("ix_seat_game_player", "game_id", "seat", "player_id", "total"),
        # Records: the best seats read from the top of an index.
        Index("ix_seat_total", "total", "game_id", "seat"),
        Index("ix_seat_exact", "exact", "game_id", "seat"),
        Index("ix_seat_max_deficit", "max_deficit", "game_id", "seat"),
    )


class PlayerCards(Model):
    """A player's rounds and exact bids by the number of cards in hand, over all games.

    Kept up to date from the seats' ``by_cards`` whenever a game changes
    (services.stats.summarise), so a player page reads at most 20 rows, however long
    the history."""

    __tablename__ = "player_cards"

    player_id: Mapped[int] = mapped_column(
        ForeignKey("player.id", ondelete="CASCADE"), primary_key=True
    )
    cards: Mapped[int] = mapped_column(Integer, primary_key=True)
    rounds: Mapped[int] = mapped_column(Integer, default=0)
    exact: Mapped[int] = mapped_column(Integer, default=0)


class PlayerPosition(Model):
    """A player's rounds by their seat relative to the round's dealer (0: dealing, 1:
    bidding first, …), over all games: rounds, points scored, rounds with a bid, exact
    bids. Kept up to date from the seats' ``by_position`` like ``PlayerCards``."""

    __tablename__ = "player_position"

    player_id: Mapped[int] = mapped_column(
        ForeignKey("player.id", ondelete="CASCADE"), primary_key=True
    )
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    rounds: Mapped[int] = mapped_column(Integer, default=0)
    points: Mapped[int] = mapped_column(Integer, default=0)
    bid_rounds: Mapped[int] = mapped_column(Integer, default=0)
    exact: Mapped[int] = mapped_column(Integer, default=0)


class Rivalry(Model):
    """Two players' finished games at the same table: how often ``player`` ended ahead of,
    behind, or level with ``other``. Kept up to date from the seats like ``PlayerCards``."""

    __tablename__ = "rivalry"

    player_id: Mapped[int] = mapped_column(
        ForeignKey("player.id", ondelete="CASCADE"), primary_key=True
    )
    other_id: Mapped[int] = mapped_column(
        ForeignKey("player.id", ondelete="CASCADE"), primary_key=True
    )
    games: Mapped[int] = mapped_column(Integer, default=0)
    ahead: Mapped[int] = mapped_column(Integer, default=0)
    behind: Mapped[int] = mapped_column(Integer, default=0)
    level: Mapped[int] = mapped_column(Integer, default=0)


class Rating(Model):
    """A player's rating in their circle as it stands after their latest rated game
    (``services.ratings``): the skill estimate ``mu`` and its uncertainty ``sigma``, and
    how many games it rests on. Kept with every change of a finished game, so the
    players page reads one row a player."""

    __tablename__ = "rating"

    player_id: Mapped[int] = mapped_column(
        ForeignKey("player.id", ondelete="CASCADE"), primary_key=True
    )
    circle_id: Mapped[int] = mapped_column(ForeignKey("circle.id"), index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)


class RatingStep(Model):
    """A player's rating after one rated game, in the circle's order of play (the games'
    finish times, then their ids): the player page's history, and where a recomputation
    after a correction, deletion or import starts from. ``place`` is the finishing place
    (1 for a winner; equal totals share a place); the winning streaks ride along, so the
    page reads them from the latest step."""

    __tablename__ = "rating_step"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("game.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(
        ForeignKey("player.id", ondelete="CASCADE"), primary_key=True
    )
    circle_id: Mapped[int] = mapped_column(ForeignKey("circle.id"))
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    place: Mapped[int] = mapped_column(Integer)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)  # the player's rated games so far, this one too
    run: Mapped[int] = mapped_column(Integer)  # games won in a row, ending with this one
    best_run: Mapped[int] = mapped_column(Integer)  # the most won in a row so far

    __table_args__ = (
        # The circle's steps from a point in its order of play (recomputing from there).
        Index("ix_rating_step_circle_order", "circle_id", "finished_at", "game_id"),
        # A player's history in order, and their last step before a point.
        Index("ix_rating_step_player_order", "player_id", "finished_at", "game_id"),
    )


class Round(Model):
    """A round as recorded. ``complete`` once the tricks are confirmed; before that the
    bids (and tricks tapped so far) are kept so that nothing is lost on a reload."""

    __tablename__ = "round"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    cards: Mapped[int] = mapped_column(Integer)
    dealer: Mapped[int] = mapped_column(Integer)
    trump: Mapped[str | None] = mapped_column(String(20))
    complete: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Bonuses and penalties given in the round once played: [{"seat", "points",
    # "reason"}, …] in the order given (engine.Adjustment); null for none.
    adjustments: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)

    game: Mapped[Game] = relationship(back_populates="rounds")
    results: Mapped[list[RoundResult]] = relationship(
        back_populates="round",
        order_by="RoundResult.seat",
        cascade="all, delete-orphan",
        lazy="selectin",
    )


class RoundResult(Model):
    """One player's line of a round: bid, tricks taken, and (once complete) score and total."""

    __tablename__ = "round_result"

    round_id: Mapped[int] = mapped_column(
        ForeignKey("round.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    bid: Mapped[int | None] = mapped_column(Integer)
    tricks: Mapped[int | None] = mapped_column(Integer)
    score: Mapped[int | None] = mapped_column(Integer)
    total: Mapped[int | None] = mapped_column(Integer)

    round: Mapped[Round] = relationship(back_populates="results")


class Change(Model):
    """The game's change log: what changed, when, in words and as data."""

    __tablename__ = "change"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    round_number: Mapped[int | None] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(20))
    # What it says: the message's id and its facts, worded in the reader's language when
    # shown (i18n.log_line); ``summary`` keeps the English words of the time, for exports
    # and for lines of old files that carry no id.
    message: Mapped[str | None] = mapped_column(String(40))
    facts: Mapped[dict[str, object] | None] = mapped_column(JSON)
    summary: Mapped[str] = mapped_column(Text)
    data: Mapped[dict[str, object] | None] = mapped_column(JSON)

    game: Mapped[Game] = relationship(back_populates="changes")


class DigitalTable(Model):
    """The state of a digital game (mode "digital"): the engine's whole state, the seats
    (person or bot, each person's secret link stored only as a hash) and, per seat, the
    number of actions taken, which every action request must name (double taps and
    retries are then harmless). ``seed`` is set only for bot test games."""

    __tablename__ = "digital_table"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), unique=True)
    state: Mapped[dict[str, object]] = mapped_column(JSON)
    seats: Mapped[list[dict[str, object]]] = mapped_column(JSON)
    actions: Mapped[list[int]] = mapped_column(JSON)
    table_secret_hash: Mapped[str] = mapped_column(String(64))
    seed: Mapped[int | None] = mapped_column(Integer)
    # What every phone shows about the round just finished while the next one starts.
    recent: Mapped[dict[str, object] | None] = mapped_column(JSON)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Bumped by every change: optimistic locking across processes, and the ETag of polls.
    version: Mapped[int] = mapped_column(Integer, default=1)

    game: Mapped[Game] = relationship()

    __mapper_args__ = {"version_id_col": version}


class IdempotencyKey(Model):
    """A write's answer kept under the client's ``Idempotency-Key``: a retry of the same
    request by the same client gets this answer again instead of writing twice. Stored in
    the transaction of the write itself, so there is never a write without its key or a key
    without its write. ``scope`` is what the key is unique within (a game, or new games)
    followed by a keyed hash of the client's own secret; ``key`` is a keyed hash of the key;
    ``body`` is the whole answer sealed under a key only the client's retry brings
    (``scorekeeper/idempotency.py``); ``fingerprint`` hashes method, path and body, so the
    key can't be reused for another request."""

    __tablename__ = "idempotency_key"
    __table_args__ = (UniqueConstraint("scope", "key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    scope: Mapped[str] = mapped_column(String(64))
    key: Mapped[str] = mapped_column(String(64))
    fingerprint: Mapped[str] = mapped_column(String(64))
    status: Mapped[int] = mapped_column(Integer)
    headers: Mapped[dict[str, str]] = mapped_column(JSON)
    body: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, index=True
    )


class FailedAttempt(Model):
    """A guess at a passphrase (the server's or a circle's), counted before it is checked
    and kept for a while when it was wrong, so that guesses can be limited per client
    across every app process (``scorekeeper/ratelimit.py``).
    ``client`` is a keyed hash of what identifies the client (its address), never the
    address itself; rows older than the limit's window are swept as new ones come in."""

    __tablename__ = "failed_attempt"
    __table_args__ = (Index("ix_failed_attempt_kind_client", "kind", "client", "failed_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    client: Mapped[str] = mapped_column(String(64))
    failed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)


class QuotaUse(Model):
    """Something a client made (a circle, a game, an import), kept for a while so that
    what one client makes can be limited across every app process
    (``scorekeeper/ratelimit.py``). ``client`` is a keyed hash of the client's address,
    never the address itself; rows older than the limit's window are swept as new ones
    come in."""

    __tablename__ = "quota_use"
    __table_args__ = (Index("ix_quota_use_kind_client", "kind", "client", "used_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    client: Mapped[str] = mapped_column(String(64))
    used_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)


@event.listens_for(Game.rounds, "append")
def _round_added(game: Game, _round: Round, _initiator: object) -> None:
    game.played = True


@event.listens_for(Game.rounds, "remove")
def _round_removed(game: Game, removed: Round, _initiator: object) -> None:
    game.played = any(r is not removed for r in game.rounds)
