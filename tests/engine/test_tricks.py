"""Playing a trick: legal cards (R10–R12) and the winner (R2, R13, R14; V9)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine import (
    Card,
    Suit,
    WinReason,
    full_deck,
    led_suit,
    legal_plays,
    resolve_trick,
    trick_winner,
    why_illegal,
)
from scorekeeper.engine.tricks import revokes

from .support import cards, ref_may_play, ref_winner

R, Y, G, B = Suit.RED, Suit.YELLOW, Suit.GREEN, Suit.BLUE


# -- legal plays ----------------------------------------------------------------------------

LEGAL = [
    # (tag, hand, trick so far, legal cards)
    ("R10 leader may play anything", "R1 B13 W J", "", "R1 B13 W J"),
    ("R10 must follow the led suit", "R1 R9 B13 G2", "R5", "R1 R9"),
    ("R10 cannot follow: anything", "B13 G2 Y4", "R5", "B13 G2 Y4"),
    ("R10 cannot follow: trump or not", "B13 G2", "R5 B1", "B13 G2"),
    ("R10 led suit is the first card, not the trump played later", "R2 B3", "G5 R9", "R2 B3"),
    ("R10 follow the led suit even after another suit was thrown", "R2 G3", "G5 R9", "G3"),
    ("R11 Wizard may be played though one could follow", "R1 W B2", "R5", "R1 W"),
    ("R11 Jester may be played though one could follow", "R1 J B2", "R5", "R1 J"),
    ("R11 Wizard and Jester with a suit to follow", "W J R3 Y3", "R5 Y1", "W J R3"),
    ("R12 Wizard led: everyone free", "R1 B2 J", "W", "R1 B2 J"),
    ("R12 Wizard led then a suit: still free", "R1 B2", "W B9", "R1 B2"),
    ("R12 Jester led: next player free", "R1 B2 G3", "J", "R1 B2 G3"),
    ("R12 Jesters led: still free", "R1 B2", "J J", "R1 B2"),
    ("R12 Jester led, then a suit sets the suit", "R1 B2 W", "J B7", "B2 W"),
    ("R12 Jesters led, then a suit sets the suit", "R1 B2", "J J B7", "B2"),
    ("R12 Jester led, then a Wizard frees the trick", "R1 B2", "J W", "R1 B2"),
    ("R12 Jester led, Wizard, then a suit: still free", "R1 B2", "J W B7", "R1 B2"),
    ("R12 a later Wizard does not free followers", "R1 B2", "B7 W", "B2"),
    ("R12 a later Wizard after a Jester lead and suit", "R1 B2 J", "J B7 W", "B2 J"),
    ("R12 led suit never changes after a Jester", "R1 B2", "B7 J", "B2"),
    ("R10 empty hand has nothing to play", "", "R5", ""),
]


@pytest.mark.parametrize(
    ("hand", "trick", "legal"), [c[1:] for c in LEGAL], ids=[c[0] for c in LEGAL]
)
def test_r10_r11_r12_legal_plays(hand: str, trick: str, legal: str) -> None:
    assert legal_plays(cards(hand), cards(trick)) == cards(legal)


@pytest.mark.parametrize(
    ("trick", "suit"),
    [
        ("", None),
        ("R5", R),
        ("W", None),
        ("J", None),
        ("J J", None),
        ("J G3", G),
        ("J W B1", None),
        ("B7 W", B),
        ("Y2 R9 W", Y),
    ],
)
def test_r12_led_suit(trick: str, suit: Suit | None) -> None:
    assert led_suit(cards(trick)) is suit


def test_r10_legal_plays_keeps_hand_order_and_copies() -> None:
    hand = cards("R1 B2 R3")
    result = legal_plays(hand, [])
    assert result == hand and result is not hand


def test_r10_why_illegal_says_what_to_follow() -> None:
    hand, trick = cards("R1 B2"), cards("R5")
    assert why_illegal(Card.parse("R1"), hand, trick) is None
    assert why_illegal(Card.parse("B2"), hand, trick) == (
        "You must follow red: you have red in your hand."
    )
    assert why_illegal(Card.parse("G2"), hand, trick) == "G2 is not in your hand."


# -- the winner ---------------------------------------------------------------------------

WINNER = [
    # (tag, trick, trump, winner index, reason)
    ("R13 first Wizard wins", "R5 W B13 W", B, 1, WinReason.FIRST_WIZARD),
    ("R13 Wizard led wins", "W W R13", R, 0, WinReason.FIRST_WIZARD),
    ("R13 Wizard beats trump", "B13 W", B, 1, WinReason.FIRST_WIZARD),
    ("R13 Wizard after Jester lead", "J W W", None, 1, WinReason.FIRST_WIZARD),
    ("R13 highest trump", "R13 B1 B5 R12", B, 2, WinReason.HIGHEST_TRUMP),
    ("R13 trump beats led suit", "R13 B1", B, 1, WinReason.HIGHEST_TRUMP),
    ("R13 trump led wins", "B2 R13 G13", B, 0, WinReason.HIGHEST_TRUMP),
    ("R13 highest of led suit", "R5 R9 G13 R2", Y, 1, WinReason.HIGHEST_LED),
    ("R13 no trump: highest of led suit", "G3 R13 G4", None, 2, WinReason.HIGHEST_LED),
    ("R13 off-suit 13 loses to led 1", "Y1 B13 R13 G13", None, 0, WinReason.HIGHEST_LED),
    ("R13 Jester led: first number sets the suit", "J G3 G9 R13", None, 2, WinReason.HIGHEST_LED),
    ("R13 Jester led, trump wins", "J G3 R1", R, 2, WinReason.HIGHEST_TRUMP),
    ("R2 Jester loses to a 1", "J Y1", None, 1, WinReason.HIGHEST_LED),
    ("R2 Jester loses to everything after a lead", "R1 J J", None, 0, WinReason.HIGHEST_LED),
    ("R14 all Jesters: first wins (3)", "J J J", R, 0, WinReason.ALL_JESTERS),
    ("R14 all Jesters: first wins (4)", "J J J J", None, 0, WinReason.ALL_JESTERS),
    ("R14 a single Jester", "J", None, 0, WinReason.ALL_JESTERS),
    ("R13 six players", "R5 R6 R7 R8 R9 R4", G, 4, WinReason.HIGHEST_LED),
]


@pytest.mark.parametrize(
    ("trick", "trump", "winner", "reason"), [c[1:] for c in WINNER], ids=[c[0] for c in WINNER]
)
def test_r13_r14_trick_winner(
    trick: str, trump: Suit | None, winner: int, reason: WinReason
) -> None:
    assert trick_winner(cards(trick), trump) == winner
    result = resolve_trick(cards(trick), trump)
    assert (result.winner, result.reason) == (winner, reason)
    assert result.card == cards(trick)[winner]


UNICOLOURED = [
    # (tag, trick, winner)
    ("V9 highest number regardless of colour", "R5 B9 G7", 1),
    ("V9 equal numbers: first played wins", "R9 B9 G7", 0),
    ("V9 equal numbers: first played wins, later", "G2 R9 B9 Y9", 1),
    ("V9 Wizard keeps R13", "R13 W B13", 1),
    ("V9 first Wizard wins", "W R13 W", 0),
    ("V9 Jester keeps R2", "J R1", 1),
    ("V9 all Jesters keep R14", "J J J J", 0),
    ("V9 Jester led then numbers", "J G4 R12 Y12", 2),
]


@pytest.mark.parametrize(
    ("trick", "winner"), [c[1:] for c in UNICOLOURED], ids=[c[0] for c in UNICOLOURED]
)
def test_v9_trick_winner(trick: str, winner: int) -> None:
    assert trick_winner(cards(trick), None, unicoloured=True) == winner
    # Trump is never part of V9: a suit passed by mistake changes nothing.
    assert trick_winner(cards(trick), R, unicoloured=True) == winner


def test_v9_reason_is_highest_number() -> None:
    assert resolve_trick(cards("R5 B9"), None, unicoloured=True).reason is WinReason.HIGHEST_NUMBER


# -- bad arguments ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: trick_winner(cards("R1 R2 R3 R4 R5 R6 R7"), None), "at most 6 cards"),
        (lambda: trick_winner([], None), "at least one card"),
        (lambda: trick_winner(["R1"], None), "is not a card"),  # type: ignore[list-item]
        (lambda: trick_winner(cards("R1"), "red"), "Trump must be a suit"),  # type: ignore[arg-type]
        (lambda: legal_plays(cards("R1"), cards("R1 R2 R3 R4 R5 R6")), "at most 6 cards"),
        (lambda: legal_plays(["R1"], []), "is not a card"),  # type: ignore[list-item]
        (lambda: legal_plays(cards("R1"), ["R2"]), "is not a card"),  # type: ignore[list-item]
    ],
    ids=[
        "7-card trick",
        "empty trick",
        "text for a card",
        "trump as text",
        "trick full",
        "hand of text",
        "trick of text",
    ],
)
def test_r13_bad_arguments_are_value_errors(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()  # type: ignore[operator]


# -- against the reference ------------------------------------------------------------------

DECK = full_deck()
suits = st.sampled_from([None, *Suit])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=1, max_size=6), suits, st.booleans())
def test_r13_r14_v9_winner_matches_the_reference(
    trick: list[Card], trump: Suit | None, unicoloured: bool
) -> None:
    assert trick_winner(trick, trump, unicoloured=unicoloured) == ref_winner(
        trick, trump, unicoloured
    )


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), max_size=10), st.lists(st.sampled_from(DECK), max_size=5))
def test_r10_r11_r12_legal_plays_match_the_reference(hand: list[Card], trick: list[Card]) -> None:
    legal = legal_plays(hand, trick)
    assert legal == [c for c in hand if ref_may_play(c, hand, trick)]
    assert (legal == []) == (hand == [])  # R10: there is always something to play
    # The game's own checks say the same, card by card.
    for card in DECK:
        allowed = card in legal
        assert (why_illegal(card, hand, trick) is None) is allowed
        if card in hand:
            assert revokes(card, hand, led_suit(trick)) is not allowed
