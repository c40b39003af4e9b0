"""What the web pages show around the score pad: recent games, and a game's change log."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from scorekeeper import i18n
from scorekeeper.extensions import db
from scorekeeper.models import Change, Game
from scorekeeper.services import games as game_service

# Taps while a round is entered are logged too, but the log a person reads shows what a
# paper pad would: rounds written, corrected or struck out.
_TAP_ACTIONS = ("bid", "tricks", "trump")


@dataclass(frozen=True)
class GameSummary:
    """One line of the home page's list of games."""

    public_id: str
    names: list[str]
    created_at: datetime
    rounds_done: int
    rounds: int
    finished: bool
    winners: list[str]


def recent_games(public_ids: list[str], limit: int = 10) -> list[GameSummary]:
    """The newest of these games (the ones this phone keeps score of), for the home page."""
    if not public_ids:
        return []
    games = list(
        db.session.scalars(
            select(Game)
            .where(Game.public_id.in_(public_ids))
            .options(selectinload(Game.seats), selectinload(Game.rounds))
            .order_by(Game.created_at.desc(), Game.id.desc())
            .limit(limit)
        )
    )
    return summarise_games(games)


def summarise_games(games: list[Game]) -> list[GameSummary]:
    """Home-page lines of these games."""
    summaries = []
    for game in games:
        sheet = game_service.sheet_of(game)
        names = game_service.names_of(game)
        summaries.append(
            GameSummary(
                public_id=game.public_id,
                names=names,
                created_at=game.created_at,
                rounds_done=sum(1 for r in sheet.rounds if r.complete),
                rounds=len(sheet.plan),
                finished=sheet.finished,
                winners=[names[s] for s in sheet.winners],
            )
        )
    return summaries


@dataclass(frozen=True)
class LogLine:
    at: datetime
    round_number: int | None
    action: str
    summary: str


def change_log(game: Game, taps: bool = False) -> list[LogLine]:
    """The game's change log, newest first; without the single taps of round entry unless
    ``taps``. Summaries never hold a bid that is still hidden or secret (V3, V4)."""
    query = select(Change).where(Change.game_id == game.id)
    if not taps:
        query = query.where(Change.action.not_in(_TAP_ACTIONS))
    changes = db.session.scalars(query.order_by(Change.id.desc()))
    return [LogLine(c.at, c.round_number, c.action, _words(c)) for c in changes]


def _words(change: Change) -> str:
    """A change in the reader's language: by its action where that says it all."""
    if change.action == "circle":
        return i18n._("Moved into a circle")
    if change.action == "scorer":
        return i18n._("Scoring taken over by a member of the circle")
    return i18n.change_summary(change.summary)
