"""The strong bot in positions staged card by card: it keeps to its bid exactly (R16).

Each position is one the strong bot used to throw away: with its bid as good as made by
Wizards nobody can beat any more (every other Wizard is out, R13), it took tricks it
could have lost, or led away the Wizard it needed and was left to lead a high card.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from scorekeeper.engine import Card, Game, Phase, RuleSet, Suit
from scorekeeper.engine.cards import full_deck
from scorekeeper.engine.strong import StrongBot, _play_out, _strengths
from scorekeeper.engine.tricks import resolve_trick
from tests.engine.support import cards

Play = tuple[int, str]


def _position(
    hand: str,
    others: Sequence[str],
    tricks: Sequence[Sequence[Play]],
    bids: list[int | None],
    won: list[int],
    leader: int,
    trick: Sequence[Play] = (),
) -> Game:
    """Seat 0 holds ``hand`` in a 4-player round with red trumps (the red 4 turned up):
    ``tricks`` are done, ``trick`` is on the table and it is seat 0's turn."""
    game = Game.new(RuleSet(), 4, 0)
    game.round_number = len(cards(hand)) + len(tricks)
    game.phase = Phase.PLAYING
    game.trump, game.turned = Suit.RED, Card.parse("R4")
    game.hands = [cards(hand), *(cards(h) for h in others)]
    game.bids, game.won, game.leader = bids, won, leader
    game.tricks_done = [tuple((s, Card.parse(c)) for s, c in t) for t in tricks]
    for seat, card in trick:
        game.play(seat, Card.parse(card))
    assert game.turn == 0
    return game


# Seat 0 won the first trick; both Wizards it does not hold fell in the second.
TWO_TRICKS = [
    [(1, "Y5"), (2, "Y8"), (3, "Y2"), (0, "Y12")],
    [(0, "B3"), (1, "W"), (2, "W"), (3, "B4")],
]


@pytest.mark.parametrize(
    ("trick", "others"),
    [
        (
            [(1, "G6"), (2, "G3"), (3, "G2")],
            ["G6 R2 B9 Y9 R1", "G3 Y10 B10 R3 Y7", "G2 Y4 B6 R5 Y6"],
        ),
        ([(2, "G6"), (3, "G2")], ["G5 R2 B9 Y9 R1", "G6 Y10 B10 R3 Y7", "G2 Y4 B6 R5 Y6"]),
        ([(3, "G7")], ["G5 R2 B9 Y9 R1", "G3 Y10 B10 R3 Y7", "G7 Y4 B6 R5 Y6"]),
    ],
    ids=["last", "third", "second"],
)
def test_r13_r16_two_sure_wizards_make_the_bid_so_it_throws_the_jester(
    trick: list[Play], others: list[str]
) -> None:
    """Bid 3, one trick taken, two Wizards in hand and the other two played (R13: each of
    its Wizards takes the trick it is played to). Green is led and green 11 or 9 would
    take it: a fourth trick. It throws the Jester (R11: at any time), which loses (R2),
    and keeps both Wizards."""
    game = _position(
        "W W G11 G9 J", others, TWO_TRICKS, [3, 2, 1, 2], [1, 1, 0, 0], trick[0][0], trick
    )
    card = StrongBot().play(game, 0)
    assert card == Card.parse("J")
    played = [c for _, c in game.trick] + [card]
    assert resolve_trick(played, Suit.RED).winner != len(played) - 1  # it loses the trick


def test_r16_when_its_bid_is_made_it_ducks_with_its_highest_losing_card() -> None:
    """Bid 1 and taken; green 10 leads the trick. The green 9 loses to it (R13) as the
    green 2 and the Jester do, and the green 11 would take a trick too many: it gets rid
    of its most dangerous losing card, the 9, and keeps the Jester for later."""
    game = _position(
        "G11 G9 G2 J",
        ["G12 R2 Y9 R1", "G10 Y10 R3 B1", "Y4 R5 Y6 B5"],
        [
            [(1, "Y5"), (2, "Y8"), (3, "Y2"), (0, "R12")],
            [(0, "B2"), (1, "B9"), (2, "B10"), (3, "B6")],
        ],
        [1, 1, 1, 2],
        [1, 0, 1, 0],
        2,
        [(2, "G10"), (3, "Y4")],
    )
    assert StrongBot().play(game, 0) == Card.parse("G9")


# Seat 0 took the first trick with a Wizard and the fourth with a trump; the other two
# Wizards fell in the second; the three greens above the 11 are out; seats 2 and 3 showed
# they have no red (trump) left, and seat 1 has made its bid of 2.
FOUR_TRICKS = [
    [(1, "G13"), (2, "G10"), (3, "G12"), (0, "W")],
    [(0, "B3"), (1, "W"), (2, "W"), (3, "B4")],
    [(1, "R13"), (2, "Y1"), (3, "B12"), (0, "R10")],
    [(1, "Y5"), (2, "Y8"), (3, "Y2"), (0, "R6")],
]


@pytest.mark.parametrize("bids", [[3, 2, 1, 1], [3, 2, 2, 0]])
def test_r13_r16_it_keeps_the_wizard_it_needs_and_leads_the_jester(bids: list[int | None]) -> None:
    """Bid 3, two tricks taken, on lead with a Wizard (sure: the others are out, R13), the
    green 11 and 9 (now the highest greens) and a Jester. Cashing the Wizard leaves it on
    lead again with two greens that win whatever it leads; leading a green takes a fourth
    trick. It leads the Jester and keeps the Wizard for the trick it still needs."""
    game = _position(
        "W G11 G9 J",
        ["R2 B9 Y9 R1", "Y10 B10 Y7 B1", "Y4 B6 Y6 B5"],
        FOUR_TRICKS,
        bids,
        [2, 2, 0, 0],
        0,
    )
    assert StrongBot().play(game, 0) == Card.parse("J")


def test_r13_r14_the_look_ahead_decides_tricks_as_the_rules_do() -> None:
    """The strong bot plays rounds out on card codes, in a loop of its own: with one card
    each, who takes the trick is what the rules say (first Wizard, highest trump, highest
    of the led suit, the first of all Jesters)."""
    rng = random.Random(4)
    deck = full_deck()
    fixed = ["J J J", "J J J J", "J W J W", "J G5 R2", "J J Y1 W", "G5 R2 G7 B13", "B1 J R1 Y13"]
    hands = [cards(h) for h in fixed] + [
        rng.sample(deck, rng.choice((3, 4, 5, 6))) for _ in range(3000)
    ]
    for number, hand in enumerate(hands):
        players = len(hand)
        trump = rng.choice([None, *Suit])
        leader = 0 if number < len(fixed) else rng.randrange(players)
        order = [hand[(leader + i) % players] for i in range(players)]
        winner = (leader + resolve_trick(order, trump).winner) % players
        for me in range(players):
            took = _play_out(
                [[c.code] for c in hand],
                [0] * players,
                [],
                leader,
                [0] * players,
                me,
                list(Suit).index(trump) if trump is not None else -1,
                _strengths(trump),
            )
            assert took == (me == winner), (order, trump)
