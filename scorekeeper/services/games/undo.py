"""Undo on the score pad: put back what a take-back took, reopen the round the last tap
scored.
"""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.i18n import _
from scorekeeper.models import Change, Game
from scorekeeper.services import changelog
from scorekeeper.services.errors import Rejected
from scorekeeper.services.games.entry import counts_entered, open_draft
from scorekeeper.services.games.sheets import names_of
from scorekeeper.services.games.writing import (
    check_round,
    expect_version,
    finish,
    round_row,
    store_round,
)


def put_back(
    game: Game, kind: str, values: dict[int, int], version: int | None = None
) -> int | None:
    """Undo a take-back in the open round: put ``values`` (seat → bid, or seat → trick
    count for ``kind`` "tricks") back where they were taken from, checked again. Returns
    the number of the round when that scored it (every count in again).

    :raises Conflict: when the game changed since they were taken back.
    :raises Rejected: when there is nothing to put back there.
    """
    expect_version(game, version)
    draft = open_draft(game)
    n = game.player_count
    names = names_of(game)
    current = draft.bids if kind == "bid" else draft.tricks
    if kind not in ("bid", "tricks") or not values:
        raise Rejected(_("There is nothing to put back."), "nothing_to_put_back")
    if any(not 0 <= seat < n or current[seat] is not None for seat in values):
        raise Rejected(_("There is nothing to put back."), "nothing_to_put_back")
    restored = tuple(values.get(seat, value) for seat, value in enumerate(current))
    first = names[min(values, key=draft.order.index)]
    if kind == "bid":
        draft = replace(draft, bids=restored)
        check_round(game, draft.number, draft.entry())
        store_round(game, draft.number, draft.entry(), complete=False, tricks_draft=draft.tricks)
        facts = {"number": draft.number, "name": first}
        finish(game, changelog.line(kind, "bid_entered", facts, round_number=draft.number))
        return None
    # Every count back in: the round is scored, as when the last one is tapped.
    tap = {"seat": min(values), "filled": sorted(values)[1:]}
    line = changelog.line(
        "tricks",
        "tricks_entered",
        {"number": draft.number, "name": first},
        round_number=draft.number,
        data=tap,
    )
    return counts_entered(game, replace(draft, tricks=restored), line)


def last_count_tap(game: Game, number: int) -> tuple[int | None, list[int]] | None:
    """The trick count just entered in round ``number`` as the change log has it: the
    seat tapped (``None`` for "the rest made their bids") and the seats that filled
    themselves in with it; ``None`` when the log doesn't say, or when anything else
    changed in the game since."""
    query = (
        select(Change.action, Change.data, Change.round_number)
        .where(Change.game_id == game.id)
        .order_by(Change.id.desc())
        .limit(2)
    )
    for action, data, round_number in db.session.execute(query):
        if round_number != number:
            return None
        if action == "round_completed":
            continue  # scored by that tap: the tap comes just before
        if action != "tricks" or not isinstance(data, dict) or "filled" not in data:
            return None
        seat, filled = data.get("seat"), data.get("filled")
        if (seat is not None and not isinstance(seat, int)) or not isinstance(filled, list):
            return None
        return seat, [s for s in filled if isinstance(s, int)]
    return None


def reopenable(game: Game) -> int | None:
    """The round "Undo" may reopen: the last one scored, when its last trick count was
    entered on the pad (the change log says which) and nothing of the next is."""
    scored = [r for r in game.rounds if r.complete]
    if not scored or len(scored) != len(game.rounds):
        return None
    number = scored[-1].number
    return number if last_count_tap(game, number) is not None else None


def reopen_round(game: Game, number: object, version: int | None = None) -> None:
    """Undo the tap that scored round ``number``: the round is open again with that tap's
    count (and the counts that filled themselves in with it) taken back.

    :raises Conflict: when the game changed since.
    :raises Rejected: when that round can't be reopened any more.
    """
    expect_version(game, version)
    if isinstance(number, bool) or not isinstance(number, int) or number != reopenable(game):
        raise Rejected(
            _("That round can't be reopened any more: correct it on the pad instead."),
            "cannot_reopen",
        )
    tap = last_count_tap(game, number)
    rnd = round_row(game, number)
    assert tap is not None and rnd is not None
    seat, filled = tap
    back = set(filled) | ({seat} if seat is not None else set())
    for result in rnd.results:
        if result.seat in back:
            result.tricks = None
    rnd.complete = False
    finish(
        game, changelog.line("reopened", "round_reopened", {"number": number}, round_number=number)
    )
