"""Entering the open round tap by tap (the score pad page): bids, trump, trick counts; the
round is scored once every count is in.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from scorekeeper import engine
from scorekeeper.engine import RuleError
from scorekeeper.i18n import _, rule_message
from scorekeeper.models import Change, Game
from scorekeeper.services import changelog
from scorekeeper.services.errors import Rejected
from scorekeeper.services.games.sheets import draft_of, keep_moves, names_of
from scorekeeper.services.games.writing import (
    as_text,
    describe_entry,
    expect_version,
    finish,
    parse_trump,
    store_round,
)


@contextmanager
def pad_rules(game: Game) -> Iterator[None]:
    """A draft's command refused by the engine becomes a refusal in the reader's words,
    naming the players."""
    try:
        yield
    except RuleError as exc:
        raise Rejected(rule_message(exc, names_of(game)), exc.code) from None


def open_draft(game: Game) -> engine.RoundDraft:
    draft = draft_of(game)
    if draft is None:
        raise Rejected(_("The game is over: every round of the plan is recorded."), "game_over")
    return draft


def set_bid(game: Game, seat: int, bid: int | None, version: int | None = None) -> None:
    """Enter (or change, or with ``None`` take back) one player's bid in the open round
    (:meth:`engine.RoundDraft.bid` says what may be bid when).

    :raises Rejected: out of order, after the tricks have started, or a forbidden bid.
    """
    expect_version(game, version)
    with pad_rules(game):
        draft = open_draft(game).bid(seat, bid)
    _bid_stored(game, draft, seat, bid)


def _bid_stored(game: Game, draft: engine.RoundDraft, seat: int, bid: int | None) -> None:
    store_round(game, draft.number, draft.entry(), complete=False)
    facts = {"number": draft.number, "name": names_of(game)[seat]}
    message = "bid_cleared" if bid is None else "bid_entered"
    finish(game, changelog.line("bid", message, facts, round_number=draft.number), draft=draft)


def take_back(game: Game, kind: str, seat: int, version: int | None = None) -> engine.Taken:
    """Take back one player's entry in the open round: their bid (``kind`` "bid") or
    their trick count ("tricks"), alone (:meth:`engine.RoundDraft.take_back`). Returns
    what was taken, for :func:`put_back`.

    :raises Rejected: for another kind, a seat not at the table, a bid once the counts
        have started, or when the game is over.
    """
    expect_version(game, version)
    draft = open_draft(game)
    with pad_rules(game):
        after, taken = draft.take_back(kind, seat)
    _taken_back(game, draft, after, kind, seat)
    return taken


def undo_move(game: Game, version: int | None = None) -> engine.Taken:
    """One step back down the open round's stack of moves, as the round model keeps it
    across requests (:meth:`engine.RoundDraft.undo`): the trick count tapped last, else
    the bid made last, taken back alone. Returns what was taken, for :func:`put_back`.

    :raises Rejected: when nothing is entered, or when the game is over.
    """
    expect_version(game, version)
    draft = open_draft(game)
    with pad_rules(game):
        step = draft.undo_step
        after, taken = draft.undo()
    assert step is not None  # undo() refuses a draft with nothing to take back
    _taken_back(game, draft, after, *step)
    return taken


def _taken_back(
    game: Game, draft: engine.RoundDraft, after: engine.RoundDraft, kind: str, seat: int
) -> None:
    if kind == "bid":
        _bid_stored(game, after, seat, None)
    elif after != draft:
        _count_cleared(game, after, seat)


def set_draft_trump(game: Game, trump: object, version: int | None = None) -> None:
    """Record the open round's trump. :raises Rejected: for a trump that doesn't fit (P1)."""
    expect_version(game, version)
    finish(game, *trump_line(game, parse_trump(trump)))


def trump_line(game: Game, trump: engine.TrumpCall | None) -> list[Change]:
    """Store ``trump`` as the open round's (checked by the round model: P1), its move
    on the round's stack; the change log's line for it.

    :raises Rejected: for a trump that doesn't fit.
    """
    with pad_rules(game):
        draft = open_draft(game).with_trump(trump)
    entry = draft.entry()
    store_round(game, draft.number, entry, complete=False, tricks_draft=draft.tricks)
    keep_moves(game, draft)  # what finish() reads back as the round to enter
    facts = {"number": draft.number, "trump": as_text(entry.trump)}
    return [changelog.line("trump", "trump_set", facts, round_number=draft.number)]


def set_tricks(game: Game, seat: int, tricks: int | None, version: int | None = None) -> int | None:
    """Enter one player's tricks in the open round, in any order; the forced counts fill
    themselves in (:meth:`engine.RoundDraft.record_tricks`). Once every count is in the
    round is scored (R16) — :func:`reopen_round` is its undo. Returns the number of the
    round scored, or ``None`` while counts are missing.

    :raises Rejected: before every bid is in, or for a count that can't add up.
    """
    expect_version(game, version)
    with pad_rules(game):
        draft, _filled = open_draft(game).record_tricks(seat, tricks)
    return _count_tap(game, draft, "tricks_entered", name=names_of(game)[seat])


def _count_tap(game: Game, draft: engine.RoundDraft, log_id: str, **facts: object) -> int | None:
    """Store the counts a tap entered (:func:`counts_entered`), with its change log line:
    the message ``log_id`` about the round and ``facts``."""
    line = changelog.line(
        "tricks",
        log_id,
        {"number": draft.number, **facts},
        round_number=draft.number,
    )
    return counts_entered(game, draft, line)


def rest_as_bid(game: Game, version: int | None = None) -> int:
    """Every player whose count is missing took what they bid ("the rest made their
    bids"): filled in, and the round scored. Returns its number.

    :raises Rejected: with secret bids (V4), before every bid is in, or when the bids of
        the rest don't add up with the counts in.
    """
    expect_version(game, version)
    with pad_rules(game):
        draft, _filled = open_draft(game).rest_made_their_bids()
    scored = _count_tap(game, draft, "rest_made_their_bids")
    assert scored is not None
    return scored


def only_one_missed(game: Game, seat: int, version: int | None = None) -> int:
    """``seat`` alone of the players whose count is missing missed their bid ("only Ben
    missed"): the others' counts as bid, theirs what is left
    (:meth:`engine.RoundDraft.only_one_missed`), and the round scored. Returns its number.

    :raises Rejected: as the round model says (a count already in, secret bids, the
        others' bids leaving them no miss, …).
    """
    expect_version(game, version)
    with pad_rules(game):
        draft, _filled = open_draft(game).only_one_missed(seat)
    scored = _count_tap(game, draft, "only_missed", name=names_of(game)[seat])
    assert scored is not None
    return scored


def counts_entered(game: Game, draft: engine.RoundDraft, line: Change) -> int | None:
    """Store the open round's trick counts and log ``line``; once every one is in, score
    the round, its stack of moves kept with the game: the tap that scored it on top,
    which :func:`reopen_round` takes back."""
    store_round(game, draft.number, draft.entry(), complete=False, tricks_draft=draft.tricks)
    if not draft.tricks_in:
        finish(game, line, draft=draft)
        return None
    game.changes.append(line)
    return score_open_round(game, draft)


def clear_tricks_from(game: Game, seat: int, version: int | None = None) -> None:
    """Take back the open round's trick count of ``seat`` (an undo on the pad). Counts go
    in in any order and the round is scored once they are all in, so no count of an open
    round filled itself in: the others stay.

    :raises Rejected: for a seat not at the table, or when the game is over.
    """
    expect_version(game, version)
    draft = open_draft(game)
    with pad_rules(game):
        cleared = draft.clear_tricks(seat)
    if cleared != draft:
        _count_cleared(game, cleared, seat)


def _count_cleared(game: Game, draft: engine.RoundDraft, seat: int) -> None:
    store_round(game, draft.number, draft.entry(), complete=False, tricks_draft=draft.tricks)
    facts = {"number": draft.number, "name": names_of(game)[seat]}
    line = changelog.line("tricks", "tricks_cleared", facts, round_number=draft.number)
    finish(game, line, draft=draft)


def confirm_round(game: Game, version: int | None = None) -> int:
    """Score the open round once every trick count is in (a round reopened by an older
    version of the pad, or stored with every count by the API). Returns its number.

    :raises Rejected: when tricks are missing or don't add up.
    """
    expect_version(game, version)
    return score_open_round(game, open_draft(game))


def score_open_round(game: Game, draft: engine.RoundDraft) -> int:
    """Score the open round: the round model checks it whole (the totals before it may
    have changed since its bids were made: P2) and gives the entry to store; its stack
    of moves stays with the game until the next change."""
    names = names_of(game)
    with pad_rules(game):
        entry = draft.confirm(names)
    store_round(game, draft.number, entry, complete=True)
    finish(
        game,
        changelog.line(
            "round_completed",
            "round_recorded",
            {"number": draft.number},
            round_number=draft.number,
            data=describe_entry(names_of(game), entry),
        ),
        draft=draft,
    )
    return draft.number
