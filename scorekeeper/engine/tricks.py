"""Playing a trick: legal cards (R10–R12), the winner (R13, R14; V9), the next lead (R15)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from .cards import Card, Suit
from .errors import IllegalPlay
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


def led_suit(trick: Iterable[Card]) -> Suit | None:
    """The suit the others must follow, or ``None`` when anything may be played (R12).

    The first card that is not a Jester sets it; a Wizard there (it has no suit) frees
    the whole trick.
    """
    for card in trick:
        if not card.is_jester:
            return card.suit
    return None


def playable(hand: Sequence[Card], suit: Suit | None) -> list[Card]:
    """The cards of ``hand`` that may be played when ``suit`` is led (R10, R11), in hand
    order; ``None`` for no suit to follow. No argument checks: the game's hot path."""
    if suit is not None:
        for card in hand:
            if card.suit is suit:
                # R10 must follow; R11 a Wizard or Jester may be played at any time.
                return [c for c in hand if c.suit is suit or c.suit is None]
    return list(hand)


def legal_plays(hand: Sequence[Card], trick: Sequence[Card]) -> list[Card]:
    """The cards of ``hand`` that may be played onto ``trick`` (R10–R12), in hand order.

    :raises ValueError: when the trick is already full or holds something that isn't a card.
    """
    _check_trick(trick, complete=False)
    for card in hand:
        if not isinstance(card, Card):
            raise ValueError(f"{card!r} is not a card.")
    return playable(hand, led_suit(trick))


def revokes(card: Card, hand: Sequence[Card], suit: Suit | None) -> bool:
    """Whether playing ``card`` from ``hand`` fails to follow the led ``suit`` though the
    hand could (R10); a Wizard or a Jester never does (R11). No argument checks."""
    return (
        suit is not None
        and card.suit is not suit
        and card.suit is not None
        and any(c.suit is suit for c in hand)
    )


def illegal_play(card: Card, hand: Sequence[Card], trick: Sequence[Card]) -> IllegalPlay | None:
    """The error that playing ``card`` from ``hand`` onto ``trick`` would be (R10, R11),
    or ``None`` if it may be played.

    :raises ValueError: when the trick is already full.
    """
    _check_trick(trick, complete=False)
    if card not in hand:
        return IllegalPlay(
            f"{card} is not in your hand.", code="not_in_hand", params={"card": str(card)}
        )
    suit = led_suit(trick)
    if suit is not None and revokes(card, hand, suit):
        return must_follow(suit)
    return None


def must_follow(suit: Suit) -> IllegalPlay:
    """The error of a card that does not follow ``suit`` from a hand holding it (R10)."""
    return IllegalPlay(
        f"You must follow {suit.colour}: you have {suit.colour} in your hand.",
        code="must_follow",
        params={"suit": suit.colour},
    )


def why_illegal(card: Card, hand: Sequence[Card], trick: Sequence[Card]) -> str | None:
    """Why ``card`` may not be played from ``hand`` onto ``trick`` in English, or ``None``
    if it may (:func:`illegal_play` gives the message's id and facts).

    :raises ValueError: when the trick is already full.
    """
    refusal = illegal_play(card, hand, trick)
    return None if refusal is None else refusal.message


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
    return decide(cards, trump, unicoloured)


def decide(cards: Iterable[Card], trump: Suit | None, unicoloured: bool) -> TrickResult:
    """:func:`resolve_trick` without argument checks: the game's hot path (any iterable)."""
    # One pass in play order: the first Wizard wins at once (R13); otherwise the number
    # card winning so far (the first is of the led suit, R12) keeps the trick unless a
    # later one beats it: a higher one of its suit, or a trump over the led suit.
    best = 0
    top: Card | None = None
    first: Card | None = None
    for i, card in enumerate(cards):
        if card.is_jester:
            if first is None:
                first = card
            continue
        if card.is_wizard:
            best, top, reason = i, card, WinReason.FIRST_WIZARD
            break
        if top is None:
            best, top = i, card
        elif unicoloured:
            if (card.rank or 0) > (top.rank or 0):  # V9: any colour; equal numbers stay first
                best, top = i, card
        elif card.suit is top.suit:
            if card.code > top.code:  # codes run in rank order within a suit
                best, top = i, card
        elif card.suit is trump:
            best, top = i, card
    else:
        if top is None:
            if first is None:
                raise ValueError("A trick needs at least one card.")
            top, reason = first, WinReason.ALL_JESTERS  # R14
        elif unicoloured:
            reason = WinReason.HIGHEST_NUMBER
        elif top.suit is trump:
            reason = WinReason.HIGHEST_TRUMP
        else:
            reason = WinReason.HIGHEST_LED
    # A TrickResult is a frozen value and there are only a few thousand different ones,
    # while building a frozen dataclass costs half a microsecond, a good part of a trick:
    # each is made once and shared. The key holds the reason's value, a str that hashes
    # in C (an Enum member hashes in Python, and ``.value`` is a property: ``_value_``
    # is the plain attribute).
    key = (best, top, reason._value_)
    result = _RESULTS.get(key)
    if result is None:
        result = _RESULTS[key] = TrickResult(best, top, reason)
    return result


_RESULTS: dict[tuple[int, Card, str], TrickResult] = {}


def trick_winner(cards: Sequence[Card], trump: Suit | None, *, unicoloured: bool = False) -> int:
    """Index, in play order, of the card that wins the trick (R13, R14; V9).

    :raises ValueError: for an empty trick or more than 6 cards.
    """
    return resolve_trick(cards, trump, unicoloured=unicoloured).winner
