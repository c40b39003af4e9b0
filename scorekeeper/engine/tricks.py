"""Playing a trick: legal cards (R10–R12), the winner (R13, R14; V9), the next lead (R15)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from .cards import Card, Suit
from .rules import MAX_PLAYERS


class WinReason(Enum):
    """Which rule decided a trick."""

    FIRST_WIZARD = "first_wizard"  # R13
    HIGHEST_TRUMP = "highest_trump"  # R13
    HIGHEST_LED = "highest_led"  # R13
    ALL_JESTERS = "all_jesters"  # R14
    HIGHEST_NUMBER = "highest_number"  # V9

    @property
    def words(self) -> str:
        return _WORDS[self]


_WORDS = {
    WinReason.FIRST_WIZARD: "the first Wizard wins",
    WinReason.HIGHEST_TRUMP: "the highest trump wins",
    WinReason.HIGHEST_LED: "the highest card of the suit led wins",
    WinReason.ALL_JESTERS: "only Jesters: the first Jester wins",
    WinReason.HIGHEST_NUMBER: "the highest number wins (unicoloured)",
}


@dataclass(frozen=True, slots=True)
class TrickResult:
    """Who won a trick (index in play order), with which card, and by which rule."""

    winner: int
    card: Card
    reason: WinReason


def _check_trick(trick: Sequence[Card], *, complete: bool) -> None:
    limit = MAX_PLAYERS if complete else MAX_PLAYERS - 1
    if len(trick) > limit:
        raise ValueError(
            f"A trick has at most {MAX_PLAYERS} cards (one per player); "
            f"this one has {len(trick) + (0 if complete else 1)}."
        )
    for card in trick:
        if not isinstance(card, Card):
            raise ValueError(f"{card!r} is not a card.")


def led_suit(trick: Sequence[Card]) -> Suit | None:
    """The suit the others must follow, or ``None`` when anything may be played (R12).

    The first card that is not a Jester sets it; a Wizard there frees the whole trick.
    """
    for card in trick:
        if card.is_jester:
            continue
        return None if card.is_wizard else card.suit
    return None


def legal_plays(hand: Sequence[Card], trick: Sequence[Card]) -> list[Card]:
    """The cards of ``hand`` that may be played onto ``trick`` (R10–R12), in hand order.

    :raises ValueError: when the trick is already full or holds something that isn't a card.
    """
    _check_trick(trick, complete=False)
    hand = list(hand)
    for card in hand:
        if not isinstance(card, Card):
            raise ValueError(f"{card!r} is not a card.")
    suit = led_suit(trick)
    if suit is None:
        return hand
    if any(c.suit is suit for c in hand):
        # R10 must follow; R11 a Wizard or Jester may be played at any time.
        return [c for c in hand if c.suit is suit or c.suit is None]
    return hand


def why_illegal(card: Card, hand: Sequence[Card], trick: Sequence[Card]) -> str | None:
    """Why ``card`` may not be played from ``hand`` onto ``trick``, or ``None`` if it may."""
    if card not in hand:
        return f"{card} is not in your hand."
    if card in legal_plays(hand, trick):
        return None
    suit = led_suit(trick)
    assert suit is not None
    return f"You must follow {suit.colour}: you have {suit.colour} in your hand."


def resolve_trick(
    cards: Sequence[Card], trump: Suit | None, *, unicoloured: bool = False
) -> TrickResult:
    """Decide a trick (the cards in play order): R13, R14, or V9 when ``unicoloured``.

    :raises ValueError: for an empty trick or more than 6 cards.
    """
    _check_trick(cards, complete=True)
    if not cards:
        raise ValueError("A trick needs at least one card.")
    if trump is not None and not isinstance(trump, Suit):
        raise ValueError(f"Trump must be a suit or None, not {trump!r}.")
    for i, card in enumerate(cards):
        if card.is_wizard:
            return TrickResult(i, card, WinReason.FIRST_WIZARD)
    numbers = [(i, c) for i, c in enumerate(cards) if not c.is_jester]
    if not numbers:
        return TrickResult(0, cards[0], WinReason.ALL_JESTERS)

    def best(candidates: list[tuple[int, Card]]) -> tuple[int, Card]:
        # max() keeps the first of equal ranks: V9's "the one played first wins".
        return max(candidates, key=lambda ic: ic[1].rank or 0)

    if unicoloured:
        i, card = best(numbers)
        return TrickResult(i, card, WinReason.HIGHEST_NUMBER)
    if trump is not None:
        trumps = [(i, c) for i, c in numbers if c.suit is trump]
        if trumps:
            i, card = best(trumps)
            return TrickResult(i, card, WinReason.HIGHEST_TRUMP)
    suit = led_suit(cards)
    i, card = best([(i, c) for i, c in numbers if c.suit is suit])
    return TrickResult(i, card, WinReason.HIGHEST_LED)


def trick_winner(cards: Sequence[Card], trump: Suit | None, *, unicoloured: bool = False) -> int:
    """Index, in play order, of the card that wins the trick (R13, R14; V9).

    :raises ValueError: for an empty trick or more than 6 cards.
    """
    return resolve_trick(cards, trump, unicoloured=unicoloured).winner
