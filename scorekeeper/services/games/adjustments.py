"""Bonuses and penalties: one-off points given to a player in a played round."""

from __future__ import annotations

from typing import Any

from scorekeeper import engine
from scorekeeper.i18n import _
from scorekeeper.models import Game, Round
from scorekeeper.services import changelog
from scorekeeper.services.errors import NotFound, Rejected
from scorekeeper.services.games.sheets import entry_of, names_of
from scorekeeper.services.games.writing import expect_version, finish, rejected, round_row


def _played_round(game: Game, number: object) -> Round:
    rnd = round_row(game, number) if isinstance(number, int) else None
    if rnd is None:
        raise NotFound(_("Round %(number)s is not recorded.", number=number))
    if not rnd.complete:
        raise Rejected(
            _(
                "Round %(number)s is not played yet: a bonus or penalty comes once its "
                "tricks are in.",
                number=number,
            ),
            "round_open",
        )
    return rnd


def add_adjustment(
    game: Game,
    number: object,
    seat: object,
    points: object,
    reason: object = "",
    version: int | None = None,
) -> int:
    """Give ``seat`` a one-off bonus (points > 0) or penalty (< 0) in played round
    ``number``: in their total from that round on, on the pad and in the log. Returns
    its place among the round's bonuses and penalties (what takes it back).

    :raises NotFound: for a round not recorded.
    :raises Rejected: for a round not played yet, or a player, points or reason the
        engine refuses (nothing is stored).
    """
    expect_version(game, version)
    rnd = _played_round(game, number)
    text = " ".join(reason.split()) if isinstance(reason, str) else reason
    adjustment = engine.Adjustment(seat, points, text)  # type: ignore[arg-type]
    try:
        engine.check_adjustments([*entry_of(rnd).adjustments, adjustment], game.player_count)
    except ValueError as exc:
        raise rejected(exc) from None
    given = {"seat": adjustment.seat, "points": adjustment.points, "reason": adjustment.reason}
    rnd.adjustments = [*(rnd.adjustments or []), given]
    name = names_of(game)[adjustment.seat]
    facts = {**given, "name": name, "number": rnd.number}
    finish(
        game,
        changelog.line(
            "adjusted", "adjusted", facts, round_number=rnd.number, data={**given, "name": name}
        ),
    )
    return len(rnd.adjustments) - 1


def remove_adjustment(
    game: Game, number: object, index: object, version: int | None = None
) -> dict[str, Any]:
    """Take back the ``index``-th bonus or penalty of round ``number`` (logged); returns
    what it was.

    :raises NotFound: for a round not recorded or no such bonus or penalty.
    """
    expect_version(game, version)
    rnd = _played_round(game, number)
    given = list(rnd.adjustments or [])
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(given):
        raise NotFound(_("That bonus or penalty is not there (any more)."))
    gone = given.pop(index)
    rnd.adjustments = given or None
    name = names_of(game)[gone["seat"]]
    facts = {**gone, "name": name, "number": rnd.number}
    finish(
        game,
        changelog.line(
            "adjustment_removed",
            "adjustment_removed",
            facts,
            round_number=rnd.number,
            data={**gone, "name": name},
        ),
    )
    return gone
