"""Cards and the 60-card deck (R1, R2)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


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


@dataclass(frozen=True, slots=True)
class Card:
    """One card. Wizards and Jesters have no suit and no rank (R1).

    The text form round-trips: ``str(Card.parse("B10")) == "B10"``; Wizards are ``"W"``
    and Jesters ``"J"`` (``"Z"`` and ``"N"``, the German letters, are read too).
    """

    kind: Kind
    suit: Suit | None = None
    rank: int | None = None

    def __post_init__(self) -> None:
        if self.kind is Kind.NUMBER:
            if self.suit is None or self.rank is None or not 1 <= self.rank <= 13:
                raise ValueError("A number card needs a suit and a rank from 1 to 13.")
        elif self.suit is not None or self.rank is not None:
            raise ValueError("Wizards and Jesters have no suit and no rank.")

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
            raise ValueError(f"A card is written as text like 'R13', not {text!r}.")
        t = text.strip().upper()
        if t in ("W", "Z"):
            return WIZARD
        if t in ("J", "N"):
            return JESTER
        if len(t) >= 2 and t[0] in "YRGB" and t[1:].isdecimal():
            rank = int(t[1:])
            if 1 <= rank <= 13 and t[1:] == str(rank):
                return cls(Kind.NUMBER, Suit(t[0]), rank)
        raise ValueError(
            f"{text!r} is not a card: write a suit letter Y, R, G or B with 1 to 13 "
            "(like R13 or y1), W or Z for a Wizard, J or N for a Jester."
        )

    @property
    def is_wizard(self) -> bool:
        return self.kind is Kind.WIZARD

    @property
    def is_jester(self) -> bool:
        return self.kind is Kind.JESTER

    def __str__(self) -> str:
        if self.kind is Kind.WIZARD:
            return "W"
        if self.kind is Kind.JESTER:
            return "J"
        assert self.suit is not None
        return f"{self.suit.value}{self.rank}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


WIZARD = Card(Kind.WIZARD)
JESTER = Card(Kind.JESTER)


def full_deck() -> list[Card]:
    """The 60 cards (R1): 1–13 in each of the four suits, four Wizards, four Jesters."""
    cards = [Card.number(suit, rank) for suit in Suit for rank in range(1, 14)]
    return cards + [WIZARD] * 4 + [JESTER] * 4


def suit_pile(suit: Suit) -> list[Card]:
    """One player's pile in the unicoloured game (V9): a suit's 13 cards, a Wizard, a Jester."""
    return [Card.number(suit, rank) for rank in range(1, 14)] + [WIZARD, JESTER]


def parse_cards(text: str | list[str]) -> list[Card]:
    """Read several cards from ``"R13 W y1"`` (spaces or commas) or a list of texts.

    :raises ValueError: naming the first text that is not a card.
    """
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(p) for p in parts]
