"""How a card looks on screen: its colour, number and name, from its text form."""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper import i18n
from scorekeeper.engine import Card, Kind, Suit

_SYMBOLS = {Suit.RED: "♥", Suit.YELLOW: "♦", Suit.GREEN: "♣", Suit.BLUE: "♠"}
# A shape for each colour, so that a card reads without its colour (colour-blind
# players, a dim room): the same in every language.
_SHAPES = {Suit.YELLOW: "●", Suit.RED: "■", Suit.GREEN: "▲", Suit.BLUE: "◆"}
WIZARD_SYMBOL, JESTER_SYMBOL = "✦", "◐"


@dataclass(frozen=True, slots=True)
class Face:
    """What a card button or chip shows."""

    text: str  # the card's text form, "R5", "W", "J"
    label: str  # big on the card: "5", "W", "J"
    css: str  # colour class: "suit-red", "card-wizard", "card-jester"
    name: str  # in words: "red 5", "Wizard"
    mark: str = ""  # the suit beside the number, so colour is never all: "R" or "♥"
    symbol: str = ""  # the suit's shape on a drawn card ("▲", or "♥" with French names)

    @property
    def suit_word(self) -> str:
        return self.name.rsplit(" ", 1)[0]


def suit_word(suit: Suit | str | None, french: bool = False) -> str:
    """The suit as the table names it (P3: French names are display names only)."""
    if suit is None:
        return i18n._("no trump")
    s = suit if isinstance(suit, Suit) else Suit.from_name(suit)
    if french:
        return f"{_FRENCH[s.french]} {_SYMBOLS[s]}"
    return i18n.suit_word(s.colour)


_FRENCH = {
    "hearts": i18n._l("hearts"),
    "diamonds": i18n._l("diamonds"),
    "clubs": i18n._l("clubs"),
    "spades": i18n._l("spades"),
}


def face(text: str | Card, french: bool = False) -> Face:
    """The face of a card given as text (``"R5"``) or a :class:`Card`."""
    card = text if isinstance(text, Card) else Card.parse(text)
    if card.kind is Kind.WIZARD:
        return Face(str(card), i18n._("W"), "card-wizard", i18n._("Wizard"), symbol=WIZARD_SYMBOL)
    if card.kind is Kind.JESTER:
        return Face(str(card), i18n._("J"), "card-jester", i18n._("Jester"), symbol=JESTER_SYMBOL)
    assert card.suit is not None
    return Face(
        str(card),
        str(card.rank),
        f"suit-{card.suit.colour}",
        f"{suit_word(card.suit, french)} {card.rank}",
        _SYMBOLS[card.suit] if french else card.suit.value,
        _SYMBOLS[card.suit] if french else _SHAPES[card.suit],
    )
