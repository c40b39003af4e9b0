"""SQLAlchemy models: storage only, no game rules.

A game stores what the table said (players in seat order, rule set, each round's trump,
bids and tricks). Scores and running totals are stored too, but only ever written from
the engine's computation, so that statistics can be plain SQL aggregates.
Imported by `create_app` so that Alembic's autogenerate sees every table.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.extensions import Model

NAME_MAX = 40


def utcnow() -> datetime:
    return datetime.now(UTC)


class Player(Model):
    """A person, the same across games. ``key`` is the case-folded name that identifies them."""

    __tablename__ = "player"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    key: Mapped[str] = mapped_column(String(NAME_MAX), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Game(Model):
    """One game of Wizard. ``public_id`` is the unguessable id in view links; the scorer's
    secret is stored only as a hash."""

    __tablename__ = "game"

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True)
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

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.seat", cascade="all, delete-orphan"
    )
    rounds: Mapped[list[Round]] = relationship(
        back_populates="game", order_by="Round.number", cascade="all, delete-orphan"
    )
    changes: Mapped[list[Change]] = relationship(
        back_populates="game", order_by="Change.id", cascade="all, delete-orphan"
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

    game: Mapped[Game] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship(lazy="joined")


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
    summary: Mapped[str] = mapped_column(Text)
    data: Mapped[dict[str, object] | None] = mapped_column(JSON)

    game: Mapped[Game] = relationship(back_populates="changes")
