"""Settling a disputed trick of a game played with real cards (R10–R14; V9).

The table says the trump and the cards in play order; the answer is who wins and by which
rule, and notes on what the cards say about the players: a card that did not follow the
led suit was legal only if its player had none of that suit, and a card can't be in one
trick twice.

Each note says its kind in ``code`` and the facts in ``params`` besides its English
``text``, so that an app can word it in another language (as with :class:`RuleError`):

- ``"one_in_deck"``: a number card twice (``card`` "R5", ``suit`` "red", ``rank`` 5);
- ``"deck_has_only"``: a fifth Wizard or Jester (``kind`` "wizard"/"jester", ``limit`` 4);
- ``"legal_if_void"``: a card off the led suit (``player`` 2, ``suit`` "red").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from .cards import Card, Kind
from .rules import MAX_PLAYERS
from .tricks import TrickResult, led_suit, resolve_trick


@dataclass(frozen=True, slots=True)
class Note:
    """Something the cards say about the card at ``index`` (in play order)."""

    index: int
    text: str
    impossible: bool = False  # True: the trick as entered can't have happened
    code: str = ""  # the kind of note (see the module docstring)
    params: dict[str, object] = field(default_factory=dict, hash=False)


@dataclass(frozen=True, slots=True)
class Judgement:
    """The winner of a disputed trick (``None`` before any card) and the notes."""

    result: TrickResult | None
    notes: tuple[Note, ...]

    def notes_for(self, index: int) -> list[Note]:
        return [n for n in self.notes if n.index == index]


def judge_trick(
    cards: Sequence[Card], trump_suit: object = None, *, unicoloured: bool = False
) -> Judgement:
    """Who wins ``cards`` (play order) under ``trump_suit`` and what else is known.

    Players are named by their place in the trick: "player 1" led.

    :raises ValueError: for more than 6 cards or a trump that is not a suit.
    """
    if len(cards) > MAX_PLAYERS:
        raise ValueError(f"A trick has at most {MAX_PLAYERS} cards.")
    result = (
        resolve_trick(cards, trump_suit, unicoloured=unicoloured)  # type: ignore[arg-type]
        if cards
        else None
    )
    notes: list[Note] = []
    counts: Counter[Card] = Counter()
    for i, card in enumerate(cards):
        counts[card] += 1
        limit = 1 if card.kind is Kind.NUMBER else 4
        if counts[card] > limit and card.suit is not None:
            notes.append(
                Note(
                    i,
                    f"Impossible: there is only one {card} in the deck.",
                    impossible=True,
                    code="one_in_deck",
                    params={"card": str(card), "suit": card.suit.colour, "rank": card.rank},
                )
            )
        elif counts[card] > limit:
            notes.append(
                Note(
                    i,
                    f"Impossible: the deck has only {limit} {card.kind.value.title()}s.",
                    impossible=True,
                    code="deck_has_only",
                    params={"kind": card.kind.value, "limit": limit},
                )
            )
        if unicoloured or card.suit is None:
            continue  # V9: nobody can follow another's colour; R11: Wizards, Jesters free
        led = led_suit(cards[:i])
        if led is not None and card.suit is not led:
            notes.append(
                Note(
                    i,
                    f"Only legal if player {i + 1} had no {led.colour}: "
                    f"they had to follow {led.colour}.",
                    code="legal_if_void",
                    params={"player": i + 1, "suit": led.colour},
                )
            )
    return Judgement(result, tuple(notes))
