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
    """A change in the reader's language: by its action where that says it all."""
    if change.action == "circle":
        return i18n._("Moved into a circle")
    if change.action == "scorer":
        return i18n._("Scoring taken over by a member of the circle")
    if change.action == "game_deleted":
        return i18n._("Game deleted")
    if change.action == "game_restored":
        return i18n._("Game brought back")
    if change.action == "next_game":
        return i18n._("Next game started")
    if change.action == "reopened":
        return i18n._("Round %(number)s reopened", number=change.round_number)
    data = change.data if isinstance(change.data, dict) else {}
    points = data.get("points")
    if change.action in ("adjusted", "adjustment_removed") and isinstance(points, int):
        facts = {
            "name": data.get("name", ""),
            "points": i18n.signed(points),
            "number": change.round_number,
        }
        reason = data.get("reason") or ""
        if change.action == "adjusted":
            if reason:
                return i18n._(
                    "%(name)s: %(points)s in round %(number)s (%(reason)s)", reason=reason, **facts
                )
            return i18n._("%(name)s: %(points)s in round %(number)s", **facts)
        return i18n._("%(name)s: %(points)s in round %(number)s taken back", **facts)
    return i18n.change_summary(change.summary)
