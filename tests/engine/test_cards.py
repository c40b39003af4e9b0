"""Cards and the deck (R1, R2), their text form, French suit names (P3)."""

import copy
import dataclasses
import pickle
from collections import Counter

import pytest

from scorekeeper.engine import JESTER, WIZARD, Card, Kind, Suit, full_deck, parse_cards, suit_pile


def test_r1_deck_has_60_cards_four_suits_four_wizards_four_jesters() -> None:
    deck = full_deck()
    assert len(deck) == 60
    counts = Counter(deck)
    assert counts[WIZARD] == 4 and counts[JESTER] == 4
    for suit in Suit:
        assert sorted(c.rank for c in deck if c.suit is suit) == list(range(1, 14))
    assert all(c.suit is None and c.rank is None for c in deck if c.kind is not Kind.NUMBER)


def test_r1_suits_in_book_order() -> None:
    assert [s.colour for s in Suit] == ["yellow", "red", "green", "blue"]
    assert tuple(Suit) == (Suit.YELLOW, Suit.RED, Suit.GREEN, Suit.BLUE)


@pytest.mark.parametrize(
    ("text", "kind", "suit", "rank"),
    [
        ("R13", Kind.NUMBER, Suit.RED, 13),
        ("y1", Kind.NUMBER, Suit.YELLOW, 1),
        ("G7", Kind.NUMBER, Suit.GREEN, 7),
        ("b10", Kind.NUMBER, Suit.BLUE, 10),
        (" B10 ", Kind.NUMBER, Suit.BLUE, 10),
        ("W", Kind.WIZARD, None, None),
        ("w", Kind.WIZARD, None, None),
        ("Z", Kind.WIZARD, None, None),  # R1: Z for Zauberer
        ("J", Kind.JESTER, None, None),
        ("N", Kind.JESTER, None, None),  # R1: N for Narr
        ("n", Kind.JESTER, None, None),
    ],
)
def test_r1_parse(text: str, kind: Kind, suit: Suit | None, rank: int | None) -> None:
    card = Card.parse(text)
    assert (card.kind, card.suit, card.rank) == (kind, suit, rank)


@pytest.mark.parametrize("card", sorted(set(full_deck()), key=str))
def test_r1_text_form_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert eval(repr(card)) == card  # noqa: S307 - repr is Card.parse('...')


@pytest.mark.parametrize(("text", "shown"), [("B10", "B10"), ("y1", "Y1"), ("Z", "W"), ("N", "J")])
def test_r1_str(text: str, shown: str) -> None:
    assert str(Card.parse(text)) == shown


@pytest.mark.parametrize(
    "text", ["", "X", "R0", "R14", "R013", "R 13", "W1", "J0", "13", "RR", "R-1", "R²", "R1.0"]
)
def test_r1_unknown_card_text_is_a_value_error_that_says_how_to_write_one(text: str) -> None:
    with pytest.raises(ValueError, match="is not a card: write a suit letter"):
        Card.parse(text)


@pytest.mark.parametrize("value", [None, 13, ["R1"], b"R1"])
def test_r1_card_from_non_text_is_a_value_error(value: object) -> None:
    with pytest.raises(ValueError, match="A card is written as text"):
        Card.parse(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kind", "suit", "rank"),
    [
        (Kind.NUMBER, Suit.RED, 0),
        (Kind.NUMBER, Suit.RED, 14),
        (Kind.NUMBER, None, 5),
        (Kind.NUMBER, Suit.RED, None),
        (Kind.WIZARD, Suit.RED, None),
        (Kind.JESTER, None, 1),
    ],
)
def test_r1_impossible_cards_are_refused(kind: Kind, suit: Suit | None, rank: int | None) -> None:
    with pytest.raises(ValueError):
        Card(kind, suit, rank)


def test_r1_cards_are_immutable_values() -> None:
    card = Card.parse("R5")
    with pytest.raises(AttributeError):
        card.rank = 6  # type: ignore[misc]
    assert card == Card.number(Suit.RED, 5) and hash(card) == hash(Card.number(Suit.RED, 5))
    assert Card.parse("W") is WIZARD and Card.parse("N") is JESTER


def test_r1_each_card_exists_once_however_it_is_made() -> None:
    deck = full_deck()
    assert len({id(c) for c in deck}) == 54  # 52 numbers, the Wizard, the Jester
    assert sorted(c.code for c in set(deck)) == list(range(54))
    for card in deck:
        assert Card.parse(str(card)) is card
        assert Card(card.kind, card.suit, card.rank) is card
        assert Card(kind=card.kind, suit=card.suit, rank=card.rank) is card
        assert copy.copy(card) is card and copy.deepcopy(card) is card
        assert pickle.loads(pickle.dumps(card)) is card
        assert card.is_wizard is (card.kind is Kind.WIZARD)
        assert card.is_jester is (card.kind is Kind.JESTER)
    red5 = Card.number(Suit.RED, 5)
    assert dataclasses.replace(red5, rank=6) is Card.parse("R6")
    assert {red5: 1}[Card.parse("r5")] == 1


@pytest.mark.parametrize("value", [None, "number", "W"])
def test_r1_a_card_needs_a_kind(value: object) -> None:
    with pytest.raises(ValueError, match="not a kind of card"):
        Card(value)  # type: ignore[arg-type]


def test_r1_parse_cards_reads_spaces_commas_and_lists() -> None:
    assert parse_cards("R13 W, y1") == [Card.parse("R13"), WIZARD, Card.parse("Y1")]
    assert parse_cards(["J", "b2"]) == [JESTER, Card.parse("B2")]
    with pytest.raises(ValueError, match="'Q2' is not a card"):
        parse_cards("R1 Q2")


def test_r1_wizards_and_jesters_have_no_suit() -> None:
    assert WIZARD.suit is None and JESTER.suit is None
    assert WIZARD.is_wizard and not WIZARD.is_jester
    assert JESTER.is_jester and not JESTER.is_wizard


def test_r2_rank_1_lowest_13_highest_in_each_suit() -> None:
    for suit in Suit:
        ranks = [c.rank for c in full_deck() if c.suit is suit]
        assert min(ranks) == 1 and max(ranks) == 13


def test_v9_suit_pile_is_a_colour_plus_one_wizard_and_one_jester() -> None:
    for suit in Suit:
        pile = suit_pile(suit)
        assert len(pile) == 15
        assert Counter(pile) == Counter(
            [Card.number(suit, r) for r in range(1, 14)] + [WIZARD, JESTER]
        )


@pytest.mark.parametrize(
    ("suit", "french"),
    [(Suit.RED, "hearts"), (Suit.YELLOW, "diamonds"), (Suit.GREEN, "clubs"), (Suit.BLUE, "spades")],
)
def test_p3_french_names_are_display_names_for_the_colours(suit: Suit, french: str) -> None:
    assert suit.french == french
    assert Suit.from_name(french) is suit
    assert Suit.from_name(french.upper()) is suit
    assert Suit.from_name(suit.colour) is suit
    assert Suit.from_name(suit.value.lower()) is suit


@pytest.mark.parametrize("text", ["", "purple", "none", "trump", "heart"])
def test_p3_unknown_suit_name_is_a_value_error(text: str) -> None:
    with pytest.raises(ValueError, match="Unknown suit"):
        Suit.from_name(text)


def test_a_hand_is_held_wizards_first_trump_next_high_to_low_jesters_last() -> None:
    from scorekeeper.engine import sort_hand

    hand = parse_cards("R3 J B10 W G13 R12 B2 J W Y7")
    held = [str(c) for c in sort_hand(hand, Suit.BLUE)]
    assert held == ["W", "W", "B10", "B2", "Y7", "R12", "R3", "G13", "J", "J"]
    # No trump: the suits in the book's order.
    assert [str(c) for c in sort_hand(hand, None)][2:8] == ["Y7", "R12", "R3", "G13", "B10", "B2"]
    assert sorted(map(str, sort_hand(hand, Suit.RED))) == sorted(map(str, hand))
