"""What the web pages show around the score pad: a game's change log. (The lists of games
are services.history's.)"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Text, select, type_coerce

from scorekeeper import i18n
from scorekeeper.extensions import db
from scorekeeper.models import Change, Game

# Taps while a round is entered are logged too, but the log a person reads shows what a
# paper pad would: rounds written, corrected or struck out.
_TAP_ACTIONS = ("bid", "tricks", "trump")


@dataclass(frozen=True)
class LogLine:
    id: int
    at: datetime
    round_number: int | None
    action: str
    message: str | None
    facts: object  # as JSON text where the database hands it over so (SQLite)
    stored: str  # the English words of the time

    @property
    def summary(self) -> str:
        """The line in the reader's language, worded from its message id and facts (a
        line is never changed once written: a page may keep it worded, and its facts are
        read from their JSON only when it is worded)."""
        facts = self.facts
        if isinstance(facts, str):
            try:
                facts = json.loads(facts)
            except ValueError:
                return self.stored
        return i18n.log_line(self.message, facts, self.stored)


def change_log(game: Game, taps: bool = False) -> list[LogLine]:
    """The game's change log, newest first; without the single taps of round entry unless
    ``taps``. Summaries never hold a bid that is still hidden or secret (V3, V4)."""
    query = select(
        Change.id,
        Change.at,
        Change.round_number,
        Change.action,
        Change.message,
        type_coerce(Change.facts, Text),  # decoded when worded (summary)
        Change.summary,
    ).where(Change.game_id == game.id)
    if not taps:
        query = query.where(Change.action.not_in(_TAP_ACTIONS))
    rows = db.session.execute(query.order_by(Change.id.desc()))
    return [LogLine(*row) for row in rows]
