"""The next game at the same table (Play again)."""

from __future__ import annotations

from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.i18n import _
from scorekeeper.models import Change, Game, utcnow
from scorekeeper.services import changelog
from scorekeeper.services.errors import Rejected
from scorekeeper.services.games.loading import create_game, parse_rules
from scorekeeper.services.games.sheets import names_of


def play_again(game: Game) -> tuple[Game, str]:
    """The next game at the same table, once ``game`` is over: the same players in the
    same seats, the seat after its first dealer deals first, the same rule set and the
    same circle (a one-off game's next game is one-off too). Returns it with its scorer
    token, as :func:`create_game` does.

    :raises Rejected: for a digital game, or a game whose last round is not recorded yet.
    """
    if game.mode != "pad":
        raise Rejected(
            _(
                "Play again is for games kept on the score pad. Set up the next digital "
                "game from “Play without cards”."
            ),
            "not_a_pad_game",
        )
    if game.finished_at is None:
        raise Rejected(
            _("This game isn't over yet: the next one can start once its last round is recorded."),
            "game_not_over",
        )
    started = next_game_of(game)
    if started is not None:
        raise NextGameStarted(started)
    new, token = create_game(
        names_of(game),
        (game.first_dealer + 1) % game.player_count,
        parse_rules(game.rules),
        circle_id=game.circle_id,
    )
    mark_next_game(game, new.public_id)
    db.session.flush()
    return new, token


def mark_next_game(game: Game, public_id: str) -> None:
    """Point the finished ``game`` to the next one at its table: phones following it are
    led there, and a second Play again opens it instead of starting another."""
    game.changes.append(changelog.line("next_game", "next_game", data={"public_id": public_id}))
    game.updated_at = utcnow()


class NextGameStarted(Rejected):
    """Play again on a game whose next game has already started (``public_id``)."""

    status = 409

    def __init__(self, public_id: str) -> None:
        super().__init__(
            _("The next game at this table has already started: here it is."),
            "next_game_started",
        )
        self.public_id = public_id


def next_game_of(game: Game) -> str | None:
    """The public id of the game started from ``game`` with Play again, while it is there
    (not deleted); ``None`` otherwise."""
    data = db.session.scalar(
        select(Change.data)
        .where(Change.game_id == game.id, Change.action == "next_game")
        .order_by(Change.id.desc())
        .limit(1)
    )
    public_id = data.get("public_id") if isinstance(data, dict) else None
    if not isinstance(public_id, str):
        return None
    there = db.session.scalar(
        select(Game.id).where(Game.public_id == public_id, Game.deleted_at.is_(None))
    )
    return public_id if there is not None else None
