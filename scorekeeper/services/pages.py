"""What the web pages show around the score pad: a game's change log. (The lists of games
are services.history's.)"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Text, select, type_coerce

from scorekeeper import i18n
from scorekeeper.extensions import db
from scorekeeper.models import Change, Game

# Taps while a round is entered are logged too, but the log a person reads shows what a
# paper pad would: rounds written, corrected or struck out.
_TAP_ACTIONS = ("bid", "tricks", "trump")
_READ_AT_ONCE = 500


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
        """The line in the reader's language, worded from its message id and facts; its
        facts are read from their JSON only when it is worded."""
        facts = self.facts
        if isinstance(facts, str):
            try:
                facts = json.loads(facts)
            except ValueError:
                return self.stored
        return i18n.log_line(self.message, facts, self.stored)


@dataclass(frozen=True)
class ChangeLog:
    """A game's change log, newest first, as the ids of its lines: a line is never changed
    once written, so a page may keep it worded and read only the lines it has not."""

    game: str  # the game's public id
    ids: tuple[int, ...]

    def __bool__(self) -> bool:
        return bool(self.ids)

    def lines(self, ids: Iterable[int]) -> dict[int, LogLine]:
        """These lines of the log, by id (a query per ``_READ_AT_ONCE`` of them: a page
        new to a long log reads it all, and a database takes only so many parameters)."""
        wanted = list(ids)
        found: dict[int, LogLine] = {}
        for start in range(0, len(wanted), _READ_AT_ONCE):
            rows = db.session.execute(
                select(
                    Change.id,
                    Change.at,
                    Change.round_number,
                    Change.action,
                    Change.message,
                    type_coerce(Change.facts, Text),  # decoded when worded (summary)
                    Change.summary,
                ).where(Change.id.in_(wanted[start : start + _READ_AT_ONCE]))
            )
            found.update((row[0], LogLine(*row)) for row in rows)
        return found

    def all_lines(self) -> list[LogLine]:
        """Every line, newest first."""
        found = self.lines(self.ids)
        return [found[i] for i in self.ids]


def change_log(game: Game, taps: bool = False) -> ChangeLog:
    """The game's change log, newest first; without the single taps of round entry unless
    ``taps``. Summaries never hold a bid that is still hidden or secret (V3, V4)."""
    query = select(Change.id).where(Change.game_id == game.id)
    if not taps:
        query = query.where(Change.action.not_in(_TAP_ACTIONS))
    ids = db.session.scalars(query.order_by(Change.id.desc()))
    return ChangeLog(game.public_id, tuple(ids))
