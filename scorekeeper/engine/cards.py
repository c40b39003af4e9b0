"""Cards and the 60-card deck (R1, R2)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from .errors import EngineError


class Suit(Enum):
    """The four suits (R1), in the order the book lists them."""

    YELLOW = "Y"
    RED = "R"
    GREEN = "G"
    BLUE = "B"

    @property
    def colour(self) -> str:
        """The colour name used in storage and the API: ``"yellow"``, ``"red"``, …"""
        return self.name.lower()

    @property
    def french(self) -> str:
        """The French-deck name for tables playing with two standard decks (P3)."""
        return _FRENCH[self]

    @classmethod
    def from_name(cls, text: str) -> Suit:
        """Parse a suit from its letter, colour name or French name (any case).

        :raises ValueError: for anything else.
        """
        key = text.strip().lower()
        for suit in cls:
            if key in (suit.value.lower(), suit.colour, suit.french):
                return suit
        raise ValueError(
            f"Unknown suit {text!r}: use yellow, red, green or blue "
            "(or diamonds, hearts, clubs, spades)."
        )


_FRENCH = {
    Suit.RED: "hearts",
    Suit.YELLOW: "diamonds",
    Suit.GREEN: "clubs",
    Suit.BLUE: "spades",
}


class Kind(Enum):
    """What sort of card: a numbered suit card, a Wizard or a Jester."""

    NUMBER = "number"
    WIZARD = "wizard"
    JESTER = "jester"


@dataclass(frozen=True, slots=True, eq=False, init=False)
class Card:
    """One card. Wizards and Jesters have no suit and no rank (R1).

    The text form round-trips: ``str(Card.parse("B10")) == "B10"``; Wizards are ``"W"``
    and Jesters ``"J"`` (``"Z"`` and ``"N"``, the German letters, are read too).

    There are only 54 different cards (52 numbers, the Wizard, the Jester), and each exists
    once: ``Card(...)``, :meth:`number`, :meth:`parse` and :func:`full_deck` all hand out the
    same shared, frozen instances. So two equal cards are the same object, and equality and
    hashing are the built-in identity ones, done in C: ``card in hand``, ``hand.remove(card)``
    and set or dict look-ups are the engine's innermost loop and never call Python code.
    Everything the rules ask of a card is a plain attribute worked out once, here.
    """

    kind: Kind
    suit: Suit | None
    rank: int | None
    is_wizard: bool = field(init=False, repr=False)
    is_jester: bool = field(init=False, repr=False)
    # 0–51 the numbers, suit by suit in rank order; 52 the Wizard; 53 the Jester
    code: int = field(init=False, repr=False)
    _text: str = field(init=False, repr=False)

    def __new__(cls, kind: Kind, suit: Suit | None = None, rank: int | None = None) -> Card:
        try:
            return _CARDS[kind, suit, rank]
        except (KeyError, TypeError):  # TypeError: something unhashable
            pass
        if kind is Kind.NUMBER:
            raise ValueError("A number card needs a suit and a rank from 1 to 13.")
        if kind is Kind.WIZARD or kind is Kind.JESTER:
            raise ValueError("Wizards and Jesters have no suit and no rank.")
        raise ValueError(f"{kind!r} is not a kind of card.")

    @classmethod
    def _make(cls, kind: Kind, suit: Suit | None, rank: int | None, code: int) -> Card:
        # Only for the table of the 54 cards below; __new__ hands those out.
        card = object.__new__(cls)
        text = "W" if kind is Kind.WIZARD else "J" if kind is Kind.JESTER else ""
        if suit is not None:
            text = f"{suit.value}{rank}"
        for name, value in (
            ("kind", kind),
            ("suit", suit),
            ("rank", rank),
            ("is_wizard", kind is Kind.WIZARD),
            ("is_jester", kind is Kind.JESTER),
            ("code", code),
            ("_text", text),
        ):
            object.__setattr__(card, name, value)
        return card

    def __reduce__(self) -> tuple[type[Card], tuple[Kind, Suit | None, int | None]]:
        # Copies and pickles come back as the shared instance.
        return (Card, (self.kind, self.suit, self.rank))

    @classmethod
    def number(cls, suit: Suit, rank: int) -> Card:
        """A numbered card of a suit."""
        return cls(Kind.NUMBER, suit, rank)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card from its text form: ``R13``, ``y1``, ``W``/``Z``, ``J``/``N``.

        :raises ValueError: when the text is not a card.
        """
        if not isinstance(text, str):
            raise EngineError(
                f"A card is written as text like 'R13', not {text!r}.",
                message_id="card_not_text",
                params={"value": repr(text)},
            )
        card = _BY_TEXT.get(text.strip().upper())
        if card is None:
            raise EngineError(
                f"{text!r} is not a card: write a suit letter Y, R, G or B with 1 to 13 "
                "(like R13 or y1), W or Z for a Wizard, J or N for a Jester.",
                message_id="not_a_card_text",
                params={"value": repr(text)},
            )
        return card

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card.parse({self._text!r})"


# The 54 cards, made once: numbers suit by suit, then the Wizard and the Jester.
_CARDS: dict[tuple[Kind, Suit | None, int | None], Card] = {}
for _code, (_suit, _rank) in enumerate((s, r) for s in Suit for r in range(1, 14)):
    _CARDS[Kind.NUMBER, _suit, _rank] = Card._make(Kind.NUMBER, _suit, _rank, _code)
WIZARD = _CARDS[Kind.WIZARD, None, None] = Card._make(Kind.WIZARD, None, None, 52)
JESTER = _CARDS[Kind.JESTER, None, None] = Card._make(Kind.JESTER, None, None, 53)
del _code, _suit, _rank

# Every text form Card.parse reads, once stripped and upper-cased: "R13", "Y1", "W", "Z", …
_BY_TEXT: dict[str, Card] = {str(c): c for c in _CARDS.values()} | {"Z": WIZARD, "N": JESTER}

# The 60 cards of a deal in a fixed order; every deal copies this (dealing is hot).
_DECK = (
    *(c for c in _CARDS.values() if c.kind is Kind.NUMBER),
    *[WIZARD] * 4,
    *[JESTER] * 4,
)


def full_deck() -> list[Card]:
    """The 60 cards (R1): 1–13 in each of the four suits, four Wizards, four Jesters."""
    return list(_DECK)


# The steps of Random.shuffle on the deck: position i swaps with a random one below
# n = i + 1, drawn as k = n.bit_length() random bits until below n (Random._randbelow).
_STEPS = tuple((i, i + 1, (i + 1).bit_length()) for i in range(len(_DECK) - 1, 0, -1))
# How Random.shuffle draws for the standard generators, if this Python draws that way.
_RANDBELOW = getattr(random.Random, "_randbelow_with_getrandbits", None)


def shuffled_deck(rng: random.Random) -> list[Card]:
    """:func:`full_deck` shuffled with ``rng``: the very same order as ``rng.shuffle``.

    ``rng.shuffle`` draws each position with a Python-level ``_randbelow`` call, which is a
    good part of the cost of a whole game. For the standard generators (``random.Random``,
    ``secrets.SystemRandom``) the same draws are made here inline, so seeded deals do not
    change; any other generator simply shuffles itself.
    """
    deck = list(_DECK)
    kind = type(rng)
    if (
        _RANDBELOW is None
        or kind.shuffle is not random.Random.shuffle
        or getattr(kind, "_randbelow", None) is not _RANDBELOW
    ):
        rng.shuffle(deck)
        return deck
    getrandbits = rng.getrandbits
    for i, n, k in _STEPS:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def suit_pile(suit: Suit) -> list[Card]:
    """One player's pile in the unicoloured game (V9): a suit's 13 cards, a Wizard, a Jester."""
    return [Card.number(suit, rank) for rank in range(1, 14)] + [WIZARD, JESTER]


def parse_cards(text: str | list[str]) -> list[Card]:
    """Read several cards from ``"R13 W y1"`` (spaces or commas) or a list of texts.

    :raises ValueError: naming the first text that is not a card.
    """
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(p) for p in parts]


def sort_hand(hand: Sequence[Card], trump: Suit | None) -> list[Card]:
    """A hand as a player holds it: Wizards first, then the trump suit, then the other
    suits in the book's order, each from high to low, and Jesters last."""
    suits = list(Suit)
    if trump is not None:
        suits.remove(trump)
        suits.insert(0, trump)

    def place(card: Card) -> tuple[int, int]:
        if card.is_wizard:
            return (0, 0)
        if card.is_jester:
            return (len(suits) + 1, 0)
        assert card.suit is not None and card.rank is not None
        return (1 + suits.index(card.suit), -card.rank)

    return sorted(hand, key=place)
