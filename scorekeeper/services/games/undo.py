"""Undo on the score pad: put back what a take-back took, reopen the round the last tap
scored. The round model (:class:`engine.RoundDraft`) says what each step takes back and
puts back, from the stack of moves the game keeps of the round (``Game.draft_moves``).
"""

from __future__ import annotations

from scorekeeper import engine
from scorekeeper.i18n import _
from scorekeeper.models import Game
from scorekeeper.services import changelog
from scorekeeper.services.errors import Rejected
from scorekeeper.services.games.entry import counts_entered, open_draft, pad_rules
from scorekeeper.services.games.sheets import entry_of, moves_of, names_of
from scorekeeper.services.games.writing import (
    expect_version,
    finish,
    round_draft,
    round_row,
    store_round,
)


def put_back(
    game: Game, kind: str, values: dict[int, int], version: int | None = None
) -> int | None:
    """Undo a take-back in the open round: put ``values`` (seat → bid, or seat → trick
    count for ``kind`` "tricks") back where they were taken from, checked again
    (:meth:`engine.RoundDraft.put_back`). Returns the number of the round when that
    scored it (every count in again).

    :raises Conflict: when the game changed since they were taken back.
    :raises Rejected: when there is nothing to put back there.
    """
    expect_version(game, version)
    with pad_rules(game):
        draft = open_draft(game).put_back(engine.Taken(kind, values))
    name = names_of(game)[min(values, key=draft.order.index)]
    facts = {"number": draft.number, "name": name}
    if kind == "bid":
        store_round(game, draft.number, draft.entry(), complete=False, tricks_draft=draft.tricks)
        line = changelog.line(kind, "bid_entered", facts, round_number=draft.number)
        finish(game, line, draft=draft)
        return None
    # Every count back in: the round is scored, as when the last one is tapped.
    line = changelog.line("tricks", "tricks_entered", facts, round_number=draft.number)
    return counts_entered(game, draft, line)


def _last_scored(game: Game) -> engine.RoundDraft | None:
    """The last round when it is scored and nothing of the next is entered, as the round
    model with the moves the game keeps of it (none once anything changed since)."""
    if not game.rounds or any(not r.complete for r in game.rounds):
        return None
    rnd = game.rounds[-1]
    draft = round_draft(game, rnd.number, entry_of(rnd))
    return draft.with_moves(moves_of(game, rnd.number))


def reopenable(game: Game) -> int | None:
    """The round "Undo" may reopen: the last one scored, when the round model knows the
    count tap that scored it (:attr:`engine.RoundDraft.reopen_seats`)."""
    draft = _last_scored(game)
    return None if draft is None or draft.reopen_seats is None else draft.number


def reopen_round(game: Game, number: object, version: int | None = None) -> None:
    """Undo the tap that scored round ``number``: the round is open again with that tap's
    count (and the counts that filled themselves in with it) taken back
    (:meth:`engine.RoundDraft.reopen`).

    :raises Conflict: when the game changed since.
    :raises Rejected: when that round can't be reopened any more.
    """
    expect_version(game, version)
    draft = _last_scored(game)
    if isinstance(number, bool) or draft is None or number != draft.number:
        raise Rejected(
            _("That round can't be reopened any more: correct it on the pad instead."),
            "cannot_reopen",
        )
    with pad_rules(game):
        reopened = draft.reopen()
    rnd = round_row(game, reopened.number)
    assert rnd is not None
    for result in rnd.results:
        result.tricks = reopened.tricks[result.seat]
    rnd.complete = False
    finish(
        game,
        changelog.line(
            "reopened", "round_reopened", {"number": reopened.number}, round_number=number
        ),
        draft=reopened,
    )
