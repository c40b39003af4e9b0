"""Entering the open round tap by tap (the score pad page): bids, trump, trick counts; the
round is scored once every count is in.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

from scorekeeper import engine
from scorekeeper.engine import RuleError
from scorekeeper.i18n import _, rule_message
from scorekeeper.models import Change, Game
from scorekeeper.services import changelog
from scorekeeper.services.errors import Rejected
from scorekeeper.services.games.sheets import draft_of, names_of
from scorekeeper.services.games.writing import (
    as_text,
    check_round,
    default_trump,
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
    draft = open_draft(game)
    with pad_rules(game):
        draft = draft.bid(seat, bid)
    entry = draft.entry()
    check_round(game, draft.number, entry)
    store_round(game, draft.number, entry, complete=False)
    facts = {"number": draft.number, "name": names_of(game)[seat]}
    message = "bid_cleared" if bid is None else "bid_entered"
    finish(game, changelog.line("bid", message, facts, round_number=draft.number))


def set_draft_trump(game: Game, trump: object, version: int | None = None) -> None:
    """Record the open round's trump. :raises Rejected: for a trump that doesn't fit (P1)."""
    expect_version(game, version)
    draft = open_draft(game).with_trump(parse_trump(trump))
    entry = draft.entry()
    check_round(game, draft.number, entry)
    store_round(game, draft.number, entry, complete=False, tricks_draft=draft.tricks)
    facts = {"number": draft.number, "trump": as_text(entry.trump)}
    finish(game, changelog.line("trump", "trump_set", facts, round_number=draft.number))


def set_tricks(game: Game, seat: int, tricks: int | None, version: int | None = None) -> int | None:
    """Enter one player's tricks in the open round, in any order; the forced counts fill
    themselves in (:meth:`engine.RoundDraft.record_tricks`). Once every count is in the
    round is scored (R16) — :func:`reopen_round` is its undo. Returns the number of the
    round scored, or ``None`` while counts are missing.

    :raises Rejected: before every bid is in, or for a count that can't add up.
    """
    expect_version(game, version)
    with pad_rules(game):
        draft, filled = open_draft(game).record_tricks(seat, tricks)
    line = changelog.line(
        "tricks",
        "tricks_entered",
        {"number": draft.number, "name": names_of(game)[seat]},
        round_number=draft.number,
        data={"seat": seat, "filled": filled},
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
        draft, filled = open_draft(game).rest_made_their_bids()
    line = changelog.line(
        "tricks",
        "rest_made_their_bids",
        {"number": draft.number},
        round_number=draft.number,
        data={"seat": None, "filled": filled},
    )
    scored = counts_entered(game, draft, line)
    assert scored is not None
    return scored


def counts_entered(game: Game, draft: engine.RoundDraft, line: Change) -> int | None:
    """Store the open round's trick counts; once every one is in, score the round.
    ``tap`` (the seat tapped, the seats filled in by themselves) goes into the change
    log, where :func:`reopen_round` finds what to take back."""
    if not draft.tricks_in:
        store_round(game, draft.number, draft.entry(), complete=False, tricks_draft=draft.tricks)
        finish(game, line)
        return None
    game.changes.append(line)
    store_round(game, draft.number, draft.entry(), complete=False, tricks_draft=draft.tricks)
    return score_open_round(game, open_draft(game))


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
    if cleared == draft:
        return
    store_round(game, draft.number, draft.entry(), complete=False, tricks_draft=cleared.tricks)
    facts = {"number": draft.number, "name": names_of(game)[seat]}
    finish(game, changelog.line("tricks", "tricks_cleared", facts, round_number=draft.number))


def confirm_round(game: Game, version: int | None = None) -> int:
    """Score the open round once every trick count is in (a round reopened by an older
    version of the pad, or stored with every count by the API). Returns its number.

    :raises Rejected: when tricks are missing or don't add up.
    """
    expect_version(game, version)
    return score_open_round(game, open_draft(game))


def score_open_round(game: Game, draft: engine.RoundDraft) -> int:
    with pad_rules(game):
        entry = draft.confirm()
    if entry.trump is None:
        entry = replace(entry, trump=default_trump(game, draft.number))
    check_round(game, draft.number, entry)
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
    )
    return draft.number
