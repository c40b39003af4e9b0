"""Settling a disputed trick (issue 6, trick resolver): R10–R14, V9."""

import pytest

from scorekeeper.engine import Suit, WinReason, parse_cards
from scorekeeper.engine.disputes import judge_trick


@pytest.mark.parametrize(
    ("cards", "trump", "winner", "reason"),
    [
        ("R5 R9 W W", Suit.BLUE, 2, WinReason.FIRST_WIZARD),  # R13
        ("R5 B2 R13", Suit.BLUE, 1, WinReason.HIGHEST_TRUMP),  # R13
        ("R5 G13 R9", None, 2, WinReason.HIGHEST_LED),  # R13
        ("J J J", Suit.RED, 0, WinReason.ALL_JESTERS),  # R14
        ("J G3 G7", Suit.RED, 2, WinReason.HIGHEST_LED),  # R12: G3 sets the suit
    ],
)
def test_winner_and_rule(cards: str, trump: Suit | None, winner: int, reason: WinReason) -> None:
    judgement = judge_trick(parse_cards(cards), trump)
    assert judgement.result is not None
    assert (judgement.result.winner, judgement.result.reason) == (winner, reason)


def test_off_suit_card_is_legal_only_if_void() -> None:
    judgement = judge_trick(parse_cards("R5 G13 W B1"), Suit.BLUE)
    [note_g, note_b] = judgement.notes
    assert note_g.index == 1 and "player 2 had no red" in note_g.text
    assert note_b.index == 3 and "no red" in note_b.text
    assert not note_g.impossible


def test_wizard_led_frees_everyone_and_wizards_jesters_are_always_legal() -> None:
    assert judge_trick(parse_cards("W R5 G1"), None).notes == ()
    assert judge_trick(parse_cards("R5 W J G2"), None).notes[0].index == 3


def test_unicoloured_has_no_follow_notes_and_highest_number_wins() -> None:
    judgement = judge_trick(parse_cards("R5 G9 B9"), None, unicoloured=True)
    assert judgement.notes == ()
    assert judgement.result is not None and judgement.result.winner == 1  # V9: first of equals


def test_impossible_cards() -> None:
    judgement = judge_trick(parse_cards("R5 R5"), None)
    assert any(n.impossible for n in judgement.notes)
    judgement = judge_trick(parse_cards("W W W W W"), None)
    assert any(n.impossible and "only 4" in n.text for n in judgement.notes)


def test_empty_trick_has_no_result() -> None:
    assert judge_trick([], None).result is None


def test_notes_carry_a_code_and_facts_for_other_languages() -> None:
    [twice] = judge_trick(parse_cards("R5 R5"), None).notes
    assert (twice.index, twice.code, twice.params) == (
        1,
        "one_in_deck",
        {"card": "R5", "suit": "red", "rank": 5},
    )
    assert twice.text == "Impossible: there is only one R5 in the deck." and twice.impossible
    fifth = judge_trick(parse_cards("W J W W W W"), None).notes
    assert [(n.index, n.code, n.params) for n in fifth] == [
        (5, "deck_has_only", {"kind": "wizard", "limit": 4})
    ]
    assert fifth[0].text == "Impossible: the deck has only 4 Wizards."
    [off] = judge_trick(parse_cards("G2 Y7"), None).notes
    assert (off.code, off.params, off.impossible) == (
        "legal_if_void",
        {"player": 2, "suit": "green"},
        False,
    )
    assert off.text == "Only legal if player 2 had no green: they had to follow green."
