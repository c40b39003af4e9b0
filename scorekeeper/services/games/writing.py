"""The steps every write of a game shares: check a round with the engine, store it,
recompute every score and total, log the change, flush.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from scorekeeper import engine
from scorekeeper.engine import RoundEntry, RuleError, TrumpCall
from scorekeeper.extensions import db
from scorekeeper.i18n import _, rule_message
from scorekeeper.models import Change, Game, Round, RoundResult, utcnow
from scorekeeper.services import ratings, stats
from scorekeeper.services.errors import Conflict, Rejected
from scorekeeper.services.games.sheets import draft_of, keep_moves, names_of, rules_of, sheet_of


def rejected(exc: RuleError | ValueError) -> Rejected:
    code = getattr(exc, "code", "rule_broken")
    return Rejected(rule_message(exc), code)


def round_draft(
    game: Game, number: int, entry: RoundEntry, moves: tuple[engine.Move, ...] = ()
) -> engine.RoundDraft:
    """Round ``number`` of ``game`` holding ``entry`` as the engine's round model, with
    the totals before it as they now stand (P2)."""
    sheet = sheet_of(game)
    return engine.RoundDraft.of_entry(
        rules_of(game),
        number,
        sheet.plan[number - 1],
        sheet.dealer(number),
        sheet.totals_before(number),
        entry,
        moves,
    )


def check_round(game: Game, number: int, entry: RoundEntry) -> None:
    """Check a round entered whole (a correction, the API) with the round model (P2)."""
    try:
        round_draft(game, number, entry).check(names_of(game))
    except ValueError as exc:
        raise rejected(exc) from None


def parse_trump(value: object) -> TrumpCall | None:
    """``None``/``""`` → not recorded; else "red", "none", "wizard:red", French names…

    :raises Rejected: for anything else.
    """
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise Rejected(_("Trump must be a suit, 'none', or 'wizard:<suit>'."), "bad_trump")
    try:
        return TrumpCall.parse(value)
    except ValueError as exc:
        raise Rejected(str(exc), "bad_trump") from None


def round_row(game: Game, number: int) -> Round | None:
    return next((r for r in game.rounds if r.number == number), None)


def store_round(
    game: Game,
    number: int,
    entry: RoundEntry,
    complete: bool,
    tricks_draft: Sequence[int | None] | None = None,
) -> Round:
    """Write ``entry`` into round ``number`` (creating the row when needed)."""
    rnd = round_row(game, number)
    if rnd is None:
        sheet = sheet_of(game)
        rnd = Round(number=number, cards=sheet.plan[number - 1], dealer=sheet.dealer(number))
        for seat in game.seats:
            rnd.results.append(RoundResult(seat=seat.seat, player_id=seat.player_id))
        game.rounds.append(rnd)
    rnd.trump = None if entry.trump is None else str(entry.trump)
    rnd.complete = complete
    tricks: Sequence[int | None] = (
        entry.tricks if entry.tricks is not None else (tricks_draft or [None] * len(entry.bids))
    )
    for result in rnd.results:
        result.bid = entry.bids[result.seat]
        result.tricks = tricks[result.seat]
    return rnd


def finish(game: Game, *changes: Change, draft: engine.RoundDraft | None = None) -> None:
    """Recompute scores and totals of every round from the engine, keep the stack of
    moves of ``draft`` (a tap's round; by default the round to enter now, as stored: a
    change elsewhere keeps its moves that still stand, and a scored round's go), log,
    flush.

    A concurrent change by another scorer shows as a stale version (or, for a new round,
    the same round number stored twice) and becomes a :class:`Conflict`: nothing is stored
    (whoever owns the transaction rolls it back: ``scorekeeper/transaction.py``).
    """
    try:
        sheet = sheet_of(game)
        for rnd, scored in zip(game.rounds, sheet.rounds, strict=True):
            for result in rnd.results:
                if scored.scores is None:
                    result.score = result.total = None
                else:
                    result.score = scored.scores[result.seat]
                    result.total = scored.totals[result.seat]
        was_finished = game.finished_at is not None
        game.finished_at = (game.finished_at or utcnow()) if sheet.finished else None
        stats.summarise(game, sheet)
        keep_moves(game, draft if draft is not None else draft_of(game))
        game.updated_at = utcnow()
        # Added to the log without reading it (a tap's statements count).
        for change in changes:
            change.game = game
            db.session.add(change)
        db.session.flush()
        # A tap in a game that was and is still being played reads nothing more.
        ratings.game_changed(db.session.connection(), game, was_rated=was_finished)
    except (StaleDataError, IntegrityError):
        raise Conflict(
            _(
                "Already recorded by someone else: the game changed in the meantime. "
                "Here is the current state."
            ),
            "conflict",
        ) from None


def expect_version(game: Game, version: int | None) -> None:
    if version is not None and version != game.version:
        raise Conflict(
            _(
                "Already recorded by someone else: the game has changed since you "
                "loaded it. Here is the current state."
            ),
            "conflict",
        )


def describe_entry(names: Sequence[str], entry: RoundEntry) -> dict[str, Any]:
    return {
        "bids": list(entry.bids),
        "tricks": None if entry.tricks is None else list(entry.tricks),
        "trump": None if entry.trump is None else str(entry.trump),
    }


def default_trump(game: Game, number: int) -> TrumpCall | None:
    """The last round (and every unicoloured round) records "no trump" by itself (R8, V9)."""
    sheet = sheet_of(game)
    if engine.deals_every_card(rules_of(game), game.player_count, sheet.plan[number - 1]):
        return TrumpCall(None)
    return None


def bids_shown(game: Game, dealer: int, entry: RoundEntry) -> bool:
    """Whether the change log may show the bids of ``entry`` (:data:`engine.EXPORT`
    sees no sealed bid: V3, V4)."""
    seen = engine.seen_bids(
        rules_of(game),
        entry.bids,
        dealer=dealer,
        played=entry.tricks is not None,
        viewer=engine.EXPORT,
    )
    return not seen.sealed


def as_text(value: object) -> str:
    return "–" if value is None else str(value)
