"""Undo on the score pad: put back what a take-back took, reopen the round the last tap
scored. The round model (:class:`engine.RoundDraft`) says what each step takes back and
puts back; this module reads its moves from the change log and stores the result.
"""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import select

from scorekeeper import engine
from scorekeeper.extensions import db
from scorekeeper.i18n import _
from scorekeeper.models import Change, Game
from scorekeeper.services import changelog
from scorekeeper.services.errors import Rejected
from scorekeeper.services.games.entry import counts_entered, open_draft, pad_rules, tap_data, tap_of
from scorekeeper.services.games.sheets import entry_of, names_of
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
    move = draft.moves[-1]
    assert move.seat is not None
    name = names_of(game)[min(values, key=draft.order.index)]
    facts = {"number": draft.number, "name": name}
    if kind == "bid":
        store_round(game, draft.number, draft.entry(), complete=False, tricks_draft=draft.tricks)
        finish(game, changelog.line(kind, "bid_entered", facts, round_number=draft.number))
        return None
    # Every count back in: the round is scored, as when the last one is tapped.
    line = changelog.line(
        "tricks", "tricks_entered", facts, round_number=draft.number, data=tap_data(draft)
    )
    return counts_entered(game, draft, line)


def with_moves(game: Game, draft: engine.RoundDraft) -> engine.RoundDraft:
    """``draft`` with the moves the change log keeps of its round: the trick count
    entered last, when nothing else changed in the game since (one query)."""
    query = (
        select(Change.action, Change.data, Change.round_number)
        .where(Change.game_id == game.id)
        .order_by(Change.id.desc())
        .limit(2)
    )
    for action, data, round_number in db.session.execute(query):
        if round_number != draft.number:
            break
        if action == "round_completed":
            continue  # scored by that tap: the tap comes just before
        move = tap_of(data) if action == "tricks" else None
        return draft if move is None else replace(draft, moves=(move,))
    return draft


def _last_scored(game: Game) -> engine.RoundDraft | None:
    """The last round when it is scored and nothing of the next is entered, as the round
    model with its moves."""
    if not game.rounds or any(not r.complete for r in game.rounds):
        return None
    rnd = game.rounds[-1]
    return with_moves(game, round_draft(game, rnd.number, entry_of(rnd)))


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
    )
