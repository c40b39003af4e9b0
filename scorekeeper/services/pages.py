"""What the web pages show around the score pad: a game's change log. (The lists of games
are services.history's.)"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from scorekeeper import i18n
from scorekeeper.extensions import db
from scorekeeper.models import Change, Game

# Taps while a round is entered are logged too, but the log a person reads shows what a
# paper pad would: rounds written, corrected or struck out.
_TAP_ACTIONS = ("bid", "tricks", "trump")


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
    """A change in the reader's language, worded from its message id and facts."""
    return i18n.log_line(change.message, change.facts, change.summary)
