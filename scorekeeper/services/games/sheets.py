"""Reading a game through the engine: its rule set, rounds, score sheet and the round to
enter next.
"""

from __future__ import annotations

import functools
import json

from scorekeeper import engine
from scorekeeper.engine import RoundEntry, RuleSet, TrumpCall
from scorekeeper.extensions import db
from scorekeeper.models import DRAFT_MOVES_MAX, Game, Round


def rules_of(game: Game) -> RuleSet:
    """The game's rule set, read once per stored form (a request asks for it often)."""
    return _rules(json.dumps(game.rules, sort_keys=True))


@functools.lru_cache(maxsize=256)
def _rules(stored: str) -> RuleSet:
    return RuleSet.from_dict(json.loads(stored))


def names_of(game: Game) -> list[str]:
    return [s.player.name for s in game.seats]


def entry_of(rnd: Round) -> RoundEntry:
    return RoundEntry(
        bids=tuple(r.bid for r in rnd.results),
        tricks=tuple(r.tricks or 0 for r in rnd.results) if rnd.complete else None,
        trump=TrumpCall.parse(rnd.trump) if rnd.trump else None,
        adjustments=tuple(
            engine.Adjustment(a["seat"], a["points"], a.get("reason", ""))
            for a in rnd.adjustments or ()
        ),
    )


def entries_of(game: Game) -> list[RoundEntry]:
    return [entry_of(r) for r in game.rounds]


# A request's sheets, kept with its database session (which lives as long as the request
# or CLI command): by game, the key they were made from and the sheet. A request reads a
# game or two; a command that goes through every game keeps the last few.
_SHEETS = "scorekeeper.sheets"
_SHEETS_KEPT = 8

SheetKey = tuple[RuleSet, int, int, tuple[RoundEntry, ...]]


def sheet_of(game: Game) -> engine.Sheet:
    """The engine's score sheet of the stored rounds: worked out once per request for the
    rounds as they stand (kept with the session, keyed by everything it is made from, so a
    change of any round makes a new one)."""
    key: SheetKey = (rules_of(game), game.player_count, game.first_dealer, tuple(entries_of(game)))
    sheets: dict[str, tuple[SheetKey, engine.Sheet]] = db.session.info.setdefault(_SHEETS, {})
    kept = sheets.pop(game.public_id, None)
    if kept is not None and kept[0] == key:
        sheet = kept[1]
    elif kept is not None and _only_the_open_round_changed(kept[0], key):
        # A tap in the open round: the rounds scored stay, nothing is added up again.
        sheet = kept[1].with_open_round(key[3][-1])
    else:
        sheet = engine.score_sheet(key[0], key[1], key[2], list(key[3]))
    if len(sheets) >= _SHEETS_KEPT:
        del sheets[next(iter(sheets))]  # the one used longest ago
    sheets[game.public_id] = (key, sheet)
    return sheet


def _only_the_open_round_changed(old: SheetKey, new: SheetKey) -> bool:
    """Whether sheet key ``new`` differs from ``old`` in its open round alone: the same
    game, the same rounds scored, and an open round (no tricks) changed or just begun."""
    before: tuple[RoundEntry, ...] = old[3]
    after: tuple[RoundEntry, ...] = new[3]
    if old[:3] != new[:3] or not after or after[-1].tricks is not None:
        return False
    if before[:-1] == after[:-1] and before and before[-1].tricks is None:
        return True  # the open round changed
    return before == after[:-1] and all(e.tricks is not None for e in before)  # opened


def draft_of(game: Game) -> engine.RoundDraft | None:
    """The round to enter next (stored partly or not at all) as the engine's draft, or
    ``None`` when every round of the plan is recorded."""
    sheet = sheet_of(game)
    number = sheet.next_number()
    if number is None:
        return None
    rules = rules_of(game)
    totals = tuple(sheet.totals_before(number))
    if game.rounds and not game.rounds[-1].complete:
        rnd = game.rounds[-1]
        return engine.RoundDraft(
            rules,
            number,
            rnd.cards,
            rnd.dealer,
            totals,
            tuple(r.bid for r in rnd.results),
            tuple(r.tricks for r in rnd.results),
            TrumpCall.parse(rnd.trump) if rnd.trump else None,
        ).with_moves(moves_of(game, number))
    return engine.RoundDraft.empty(
        rules, number, sheet.plan[number - 1], sheet.dealer(number), totals
    )


def moves_of(game: Game, number: int) -> tuple[engine.Move, ...]:
    """The stack of moves the game keeps of round ``number`` (:func:`keep_moves`): none
    for another round, for a draft stored before moves were kept, or for text that isn't
    a stack of moves."""
    head, _, text = (game.draft_moves or "").partition(":")
    if head != str(number):
        return ()
    try:
        return engine.parse_moves(text)
    except ValueError:
        return ()


def keep_moves(game: Game, draft: engine.RoundDraft | None) -> None:
    """Keep ``draft``'s stack of moves with the game (no draft, no moves: none), in the
    row every write updates anyway; a stack too long to keep is not kept (Undo then
    follows the bidding order)."""
    text = None
    if draft is not None and draft.moves:
        try:
            text = f"{draft.number}:{engine.moves_text(draft.moves)}"
        except ValueError:  # a move without a text form
            text = None
    game.draft_moves = text if text is None or len(text) <= DRAFT_MOVES_MAX else None
