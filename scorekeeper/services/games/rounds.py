"""Whole rounds (the API and the correction form): record the next one, correct one, delete
the last.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorekeeper.engine import RoundEntry, TrumpCall
from scorekeeper.i18n import _
from scorekeeper.models import Change, Game, Round
from scorekeeper.services import changelog
from scorekeeper.services.errors import NotFound, Rejected
from scorekeeper.services.games.entry import trump_line
from scorekeeper.services.games.sheets import draft_of, entry_of, names_of, sheet_of
from scorekeeper.services.games.writing import (
    as_text,
    bids_shown,
    check_round,
    default_trump,
    describe_entry,
    expect_version,
    finish,
    parse_trump,
    round_row,
    store_round,
)

_UNSET: Any = object()


def _bids_list(value: object, players: int) -> list[int | None]:
    if not isinstance(value, (list, tuple)) or len(value) != players:
        raise Rejected(
            _("Bids must be a list of %(players)s numbers in seat order.", players=players),
            "bad_bids",
        )
    return list(value)


def _tricks_list(value: object, players: int) -> list[int]:
    if not isinstance(value, (list, tuple)) or len(value) != players:
        raise Rejected(
            _("Tricks must be a list of %(players)s numbers in seat order.", players=players),
            "bad_tricks",
        )
    return list(value)


def record_round(
    game: Game,
    bids: object,
    tricks: object = None,
    trump: object = None,
    version: int | None = None,
) -> int:
    """Record the next round (API): bids, and tricks now or later. Returns its number.

    :raises Rejected: when the plan is done, the round before is still open, or the
        round breaks the rule set.
    """
    expect_version(game, version)
    draft = draft_of(game)
    if draft is None:
        raise Rejected(
            _(
                "The game is over: all %(rounds)s rounds are recorded.",
                rounds=len(sheet_of(game).plan),
            ),
            "game_over",
        )
    if game.rounds and not game.rounds[-1].complete:
        raise Rejected(
            _("Round %(number)s is still open: add its tricks first.", number=draft.number),
            "round_open",
        )
    n = game.player_count
    entry = RoundEntry(
        tuple(_bids_list(bids, n)),
        None if tricks is None else tuple(_tricks_list(tricks, n)),
        parse_trump(trump) if trump is not None else default_trump(game, draft.number),
    )
    check_round(game, draft.number, entry)
    finish(game, _added(game, draft.number, entry))
    return draft.number


def _added(game: Game, number: int, entry: RoundEntry) -> Change:
    """Store ``entry`` as the next round; the change log's line for it."""
    store_round(game, number, entry, complete=entry.tricks is not None)
    # A round without tricks keeps its bids out of the log: they may be secret (V4).
    return changelog.line(
        "round_added",
        "round_recorded",
        {"number": number},
        round_number=number,
        data=describe_entry(names_of(game), entry) if entry.tricks is not None else None,
    )


def update_round(
    game: Game,
    number: int,
    bids: object = _UNSET,
    tricks: object = _UNSET,
    trump: object = _UNSET,
    version: int | None = None,
) -> None:
    """Correct round ``number`` (or add the tricks of the open round). Later rounds stay
    as played; their totals are recomputed (P2).

    :raises NotFound: for a round not recorded.
    :raises Rejected: when the corrected round breaks the rule set.
    """
    expect_version(game, version)
    rnd = round_row(game, number) if isinstance(number, int) else None
    if rnd is None:
        raise NotFound(_("Round %(number)s is not recorded.", number=number))
    old = entry_of(rnd)
    n = game.player_count
    new_tricks: tuple[int, ...] | None = old.tricks
    if tricks is not _UNSET:
        if tricks is None:
            if rnd.complete and number != len(game.rounds):
                raise Rejected(
                    _("Only the last round can have its tricks taken back."), "round_complete"
                )
            new_tricks = None
        else:
            new_tricks = tuple(_tricks_list(tricks, n))
    entry = RoundEntry(
        tuple(_bids_list(bids, n)) if bids is not _UNSET else old.bids,
        new_tricks,
        parse_trump(trump) if trump is not _UNSET else old.trump,
        old.adjustments,
    )
    if entry == old:
        return
    if entry.tricks is None and old.adjustments:
        raise Rejected(
            _(
                "Round %(number)s has a bonus or penalty: take it back before its tricks.",
                number=number,
            ),
            "round_adjusted",
        )
    check_round(game, number, entry)
    finish(game, _corrected(game, rnd, old, entry))


def _corrected(game: Game, rnd: Round, old: RoundEntry, entry: RoundEntry) -> Change:
    """Store ``entry`` over round ``rnd`` (``old`` as it was); the change log's line."""
    number = rnd.number
    was_open = not rnd.complete and old.tricks is None
    store_round(game, number, entry, complete=entry.tricks is not None)
    # A bid still hidden (V3) or secret (V4) stays out of the log, summary and data alike.
    show = bids_shown(game, rnd.dealer, entry)
    parts = _corrections(names_of(game), old, entry, show_bids=show)
    action = "round_completed" if was_open and entry.tricks is not None else "round_corrected"
    return changelog.line(
        action,
        "round_corrected",
        {"number": number, "parts": parts},
        round_number=number,
        data={
            "before": describe_entry(names_of(game), old),
            "after": describe_entry(names_of(game), entry),
        }
        if show
        else None,
    )


def record_played(
    game: Game,
    played: Sequence[tuple[int, RoundEntry]],
    trump: tuple[int, TrumpCall] | None = None,
) -> None:
    """Rounds a digital table played, into its pad, and (``trump``: its number and
    trump) the trump of the round it plays now, public at the table (R7, R8). The
    engine's round model checked every bid as it was made and the tricks come from the
    play, so each round is stored and logged as :func:`record_round` (or, its trump
    already shown, :func:`update_round`) would, without a second check, and the pad is
    added up once for them all."""
    changes = []
    for number, entry in played:
        rnd = round_row(game, number)
        if rnd is None:
            changes.append(_added(game, number, entry))
        else:
            changes.append(_corrected(game, rnd, entry_of(rnd), entry))
    draft = draft_of(game) if trump is not None else None
    if trump is not None and draft is not None and draft.number == trump[0]:
        changes.extend(trump_line(game, trump[1]))
    if changes:
        finish(game, *changes)


def _corrections(
    names: Sequence[str], old: RoundEntry, new: RoundEntry, show_bids: bool = True
) -> list[dict[str, str]]:
    """What a correction changed, part by part, as the change log's facts."""
    parts = []
    for seat, name in enumerate(names):
        if old.bids[seat] != new.bids[seat]:
            parts.append(
                {
                    "part": "bid",
                    "name": name,
                    "old": as_text(old.bids[seat]),
                    "new": as_text(new.bids[seat]),
                }
                if show_bids
                else {"part": "bid_changed", "name": name}
            )
        before = None if old.tricks is None else old.tricks[seat]
        after = None if new.tricks is None else new.tricks[seat]
        if before != after:
            parts.append(
                {"part": "tricks", "name": name, "old": as_text(before), "new": as_text(after)}
            )
    if old.trump != new.trump:
        parts.append({"part": "trump", "old": as_text(old.trump), "new": as_text(new.trump)})
    return parts


def delete_last_round(game: Game, number: int, version: int | None = None) -> None:
    """Remove the last recorded round (kept in the change log).

    :raises NotFound: for a round not recorded.
    :raises Rejected: for a round that is not the last one.
    """
    expect_version(game, version)
    rnd = round_row(game, number) if isinstance(number, int) else None
    if rnd is None:
        raise NotFound(_("Round %(number)s is not recorded.", number=number))
    if rnd is not game.rounds[-1]:
        raise Rejected(
            _(
                "Only the last round (%(number)s) can be deleted; correct earlier rounds instead.",
                number=game.rounds[-1].number,
            ),
            "not_last_round",
        )
    old = entry_of(rnd)
    shown = bids_shown(game, rnd.dealer, old)
    game.rounds.remove(rnd)
    finish(
        game,
        changelog.line(
            "round_deleted",
            "round_deleted",
            {"number": number},
            round_number=number,
            data={"before": describe_entry(names_of(game), old)} if shown else None,
        ),
    )
