"""A digital game as a state machine (R4–R17, V1–V9): deal, trump, bids, tricks, scores."""

import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from scorekeeper.engine import (
    Bidding,
    Card,
    DealerRule,
    Game,
    IllegalBid,
    IllegalPlay,
    OutOfTurn,
    Phase,
    Plan,
    RuleError,
    RuleSet,
    Suit,
    TieBreak,
    TrumpCall,
    WinReason,
    WrongPhase,
    full_deck,
    suit_pile,
)

from .support import Stacked, cards, play_until, roundtrip, snapshot, stack_for

C = Card.parse


def new(rules: RuleSet | None = None, players: int = 4, dealer: int = 0) -> Game:
    return Game.new(rules or RuleSet(), players, dealer)


def round_one(rules: RuleSet | None = None, turned: str = "G9") -> Game:
    """Round 1 of 4 players dealt by seat 0: R1, B2, G3, Y4 (seat order), ``turned`` up."""
    game = new(rules)
    game.deal(stack_for(4, ["R1", "B2", "G3", "Y4"], turned))  # type: ignore[arg-type]
    return game


def at_round(number: int, rules: RuleSet | None = None, players: int = 4) -> Game:
    """A game waiting for the deal of round ``number`` (nothing scored before it)."""
    game = new(rules, players)
    data = game.to_dict()
    data["round"] = number - 1
    return Game.from_dict(data)


# -- creating a game -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "players", "dealer", "message"),
    [
        (RuleSet(), 2, 0, "3 to 6 players"),
        (RuleSet(), 7, 0, "3 to 6 players"),
        (RuleSet(round_plan=Plan.UNICOLOURED), 5, 0, "3 or 4 players"),
        (RuleSet(), 4, 4, "seat from 0 to 3"),
        (RuleSet(), 4, -1, "seat from 0 to 3"),
        (RuleSet(), 4, True, "seat from 0 to 3"),
    ],
)
def test_r3_new_game_bad_arguments(rules: RuleSet, players: int, dealer: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Game.new(rules, players, dealer)


def test_new_game_waits_for_the_first_deal() -> None:
    game = new(dealer=2)
    assert game.phase is Phase.DEAL and game.cards == 0 and game.dealer == 2
    assert game.turn is None and game.waiting_for() == [] and game.winners() == []
    assert game.plan == list(range(1, 16))


# -- deal and trump --------------------------------------------------------------------------


def test_r4_r7_deal_round_one_turns_a_suit_card_for_trump() -> None:
    game = round_one()
    assert game.round_number == 1 and game.cards == 1
    assert game.hands == [cards("R1"), cards("B2"), cards("G3"), cards("Y4")]
    assert game.turned == C("G9") and game.trump is Suit.GREEN and not game.trump_chosen
    assert game.phase is Phase.BIDDING


def test_r7_jester_turned_means_no_trump() -> None:
    game = round_one(turned="J")
    assert game.turned == C("J") and game.trump is None and game.phase is Phase.BIDDING


def test_r7_wizard_turned_dealer_chooses_a_suit() -> None:
    game = round_one(turned="W")
    assert game.phase is Phase.CHOOSE_TRUMP and game.trump is None
    assert game.turn == 0 and game.waiting_for() == [0]
    assert game.allowed_bids(1) == [] and game.legal_cards(1) == []
    before = snapshot(game)
    with pytest.raises(OutOfTurn, match="Only the dealer"):
        game.choose_trump(1, Suit.RED)
    with pytest.raises(RuleError, match="one of the four suits"):
        game.choose_trump(0, None)  # type: ignore[arg-type]  # R7: never "no trump"
    with pytest.raises(RuleError, match="one of the four suits"):
        game.choose_trump(0, "red")  # type: ignore[arg-type]
    with pytest.raises(WrongPhase, match="dealer is choosing trump"):
        game.bid(1, 0)
    assert snapshot(game) == before
    game.choose_trump(0, Suit.BLUE)
    assert game.trump is Suit.BLUE and game.trump_chosen and game.phase is Phase.BIDDING
    with pytest.raises(WrongPhase):
        game.choose_trump(0, Suit.RED)
    # The round is recorded as "Wizard turned, dealer chose blue" (P1).
    play_until(game, random.Random(1), lambda g: g.phase is Phase.DEAL)
    assert game.history[0].trump == TrumpCall(Suit.BLUE, wizard_turned=True)


@pytest.mark.parametrize(("players", "last"), [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_r4_r8_last_round_deals_every_card_and_has_no_trump(players: int, last: int) -> None:
    game = at_round(last, players=players)
    game.deal(random.Random(players))
    assert game.cards == last and game.turned is None and game.trump is None
    assert Counter(c for hand in game.hands for c in hand) == Counter(full_deck())
    assert game.phase is Phase.BIDDING  # no Wizard to turn either


def test_v8_last_round_of_the_short_game_has_no_trump() -> None:
    game = at_round(10, RuleSet(round_plan=Plan.SHORT), players=5)
    game.deal(random.Random(5))
    assert game.cards == 12 and game.turned is None and game.trump is None


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_r4_each_round_deals_its_cards_from_one_deck(players: int) -> None:
    rng = random.Random(players)
    for number in (1, 2, 5, 60 // players - 1):
        game = at_round(number, players=players)
        game.deal(rng)
        assert [len(h) for h in game.hands] == [number] * players
        dealt = Counter(c for hand in game.hands for c in hand)
        assert game.turned is not None
        dealt[game.turned] += 1
        assert not dealt - Counter(full_deck())  # a multiset within the deck


@pytest.mark.parametrize("players", [3, 4])
def test_v9_unicoloured_deal_each_hand_from_its_own_colour(players: int) -> None:
    rules = RuleSet(round_plan=Plan.UNICOLOURED)
    rng = random.Random(9)
    game = new(rules, players)
    for number, size in enumerate(range(4, 16), start=1):
        game.deal(rng)
        assert game.round_number == number and game.cards == size
        assert game.turned is None and game.trump is None  # V9: no trump
        for seat, hand in enumerate(game.hands):
            assert len(hand) == size
            assert not Counter(hand) - Counter(suit_pile(list(Suit)[seat]))
        play_until(game, rng, lambda g: g.phase in (Phase.DEAL, Phase.GAME_OVER))
        assert game.history[-1].trump == TrumpCall(None)
    assert game.finished and len(game.history) == 12


def test_v9_unicoloured_trick_is_won_by_the_highest_number() -> None:
    rules = RuleSet(round_plan=Plan.UNICOLOURED)
    game = new(rules, 3)
    piles = ["Y9 Y1 Y2 Y3", "R9 R4 R5 R6", "G10 G7 G8 J"]
    game.deal(Stacked(*piles))  # type: ignore[arg-type]
    assert game.hands[2] == cards("G10 G7 G8 J")
    for seat in (1, 2, 0):
        game.bid(seat, 0)
    # R6: seat 1 leads. Equal nines: the first played wins (V9).
    assert game.play(1, C("R9")) is None
    game.play(2, C("G8"))
    result = game.play(0, C("Y9"))
    assert result is not None and result.reason is WinReason.HIGHEST_NUMBER
    assert game.last_trick is not None and game.last_trick.winner == 1 and game.leader == 1


# -- bids, play, scores: a scripted game -----------------------------------------------------


def test_r6_r9_r10_r13_r15_r16_two_scripted_rounds() -> None:
    game = round_one()
    # R6: bidding starts left of the dealer (seat 0) and the dealer bids last.
    order = []
    for bid in (0, 1, 0, 1):
        order.append(game.turn)
        game.bid(game.turn, bid)  # type: ignore[arg-type]
    assert order == [1, 2, 3, 0]
    assert game.bids == [1, 0, 1, 0] and game.phase is Phase.PLAYING
    # R6: the player left of the dealer leads.
    assert game.leader == 1 and game.turn == 1
    for seat, card in [(1, "B2"), (2, "G3"), (3, "Y4")]:
        assert game.legal_cards(seat) == cards(card)
        assert game.play(seat, C(card)) is None
    result = game.play(0, C("R1"))
    assert result is not None and result.winner == 1 and result.reason is WinReason.HIGHEST_TRUMP
    assert game.last_trick is not None and game.last_trick.winner == 2  # seat 2's green 3
    # R16: seat 0 bid 1 took 0, seat 1 bid 0 took 0, seat 2 bid 1 took 1, seat 3 0 of 0.
    assert game.won == [0, 0, 1, 0] and game.totals == [-10, 20, 30, 20]
    assert game.phase is Phase.DEAL and game.history[0].tricks == (0, 0, 1, 0)
    assert game.history[0].trump == TrumpCall(Suit.GREEN)

    # Round 2 (R5: seat 1 deals; bids from seat 2; seat 2 leads).
    hands = ["R5 B9", "B2 W", "J R7", "R1 B13"]
    game.deal(stack_for(4, hands, "B1"))  # type: ignore[arg-type]
    assert game.dealer == 1 and game.trump is Suit.BLUE and game.turn == 2
    for seat, bid in [(2, 0), (3, 0), (0, 0), (1, 2)]:
        game.bid(seat, bid)
    game.play(2, C("J"))
    assert game.legal_cards(3) == cards("R1 B13")  # R12: a Jester led, anything goes
    game.play(3, C("R1"))  # R12: the first number card sets red
    before = snapshot(game)
    with pytest.raises(IllegalPlay, match="You must follow red") as info:
        game.play(0, C("B9"))  # R10: seat 0 holds red
    assert info.value.code == "must_follow" and snapshot(game) == before
    game.play(0, C("R5"))
    assert game.legal_cards(1) == cards("B2 W")  # R10: no red, anything
    result = game.play(1, C("B2"))
    assert result is not None and result.reason is WinReason.HIGHEST_TRUMP
    assert game.leader == 1 and game.turn == 1  # R15: the winner leads the next trick
    game.play(1, C("W"))
    assert game.legal_cards(2) == cards("R7")
    game.play(2, C("R7"))
    game.play(3, C("B13"))
    result = game.play(0, C("B9"))
    assert result is not None and result.reason is WinReason.FIRST_WIZARD
    assert game.won == [0, 2, 0, 0]
    # R16: seat 1 bid 2 took 2 → 40; everyone else bid 0 took 0 → 20.
    assert game.totals == [10, 60, 50, 40]
    assert game.phase is Phase.DEAL and game.round_number == 2


def test_r17_game_over_and_winners() -> None:
    rng = random.Random(17)
    game = play_until(new(RuleSet(round_plan=Plan.SHORT), 6), rng, lambda g: g.finished)
    assert game.phase is Phase.GAME_OVER and len(game.history) == 10
    top = max(game.totals)
    assert game.winners() == [s for s, t in enumerate(game.totals) if t == top]
    assert game.turn is None and game.waiting_for() == []


def test_r17_bid_total_tie_break_in_a_game() -> None:
    game = play_until(new(RuleSet(round_plan=Plan.SHORT)), random.Random(3), lambda g: g.finished)
    data = game.to_dict()
    # Force a tie between seats 0 and 1 with different sums of bids.
    data["totals"] = [100, 100, 50, 50]
    for entry, (b0, b1) in zip(data["history"], [(1, 0)] + [(0, 0)] * 9, strict=True):
        entry["bids"][0], entry["bids"][1] = b0, b1
    assert Game.from_dict(data).winners() == [0, 1]
    data["rules"]["tie_break"] = TieBreak.BID_TOTAL.value
    assert Game.from_dict(data).winners() == [0]


# -- variants in the game --------------------------------------------------------------------


def test_v1_forbidden_bid_in_a_game_leaves_the_state_unchanged() -> None:
    game = round_one(RuleSet(dealer_rule=DealerRule.PLUS_MINUS_ONE))
    for seat in (1, 2, 3):
        game.bid(seat, 0)
    assert game.allowed_bids(0) == [0]
    before = snapshot(game)
    with pytest.raises(IllegalBid, match=r"Allowed: 0\.") as info:
        game.bid(0, 1)
    assert info.value.allowed == [0] and snapshot(game) == before
    game.bid(0, 0)


def test_v2_canadian_rule_in_a_game_uses_the_totals_before_the_round() -> None:
    game = round_one(RuleSet(dealer_rule=DealerRule.CANADIAN))
    for seat in (1, 2, 3, 0):
        assert game.allowed_bids(seat) == [0, 1]  # V2: never in round 1
        game.bid(seat, 0 if seat else 1)
    data = game.to_dict()
    data.update(phase="deal", hands=[[], [], [], []], totals=[0, 40, 10, 0])
    game = Game.from_dict(data)
    game.deal(random.Random(1))  # round 2, dealt by seat 1, who leads outright
    if game.phase is Phase.CHOOSE_TRUMP:
        game.choose_trump(1, Suit.RED)
    for seat in (2, 3, 0):
        game.bid(seat, 0)
    assert game.allowed_bids(1) == [0, 1]  # 2 would make the total


def test_v3_hidden_bids_in_any_order_and_hidden_until_all_are_in() -> None:
    game = round_one(RuleSet(bidding=Bidding.HIDDEN))
    assert game.turn is None and game.waiting_for() == [1, 2, 3, 0]
    game.bid(3, 1)
    game.bid(0, 0)
    assert game.waiting_for() == [1, 2]
    assert game.view(1)["bids"] == ["hidden", None, None, "hidden"]
    assert game.view(3)["bids"] == ["hidden", None, None, 1]
    assert game.view(None)["bids"] == ["hidden", None, None, "hidden"]
    with pytest.raises(OutOfTurn, match="already bid"):
        game.bid(3, 0)
    game.bid(2, 1)
    game.bid(1, 0)
    assert game.phase is Phase.PLAYING
    for seat in (None, 0, 1, 2, 3):
        assert game.view(seat)["bids"] == [0, 0, 1, 1]  # V3: revealed before play


def test_v4_secret_bids_hidden_until_the_round_is_over() -> None:
    game = round_one(RuleSet(bidding=Bidding.SECRET))
    for seat, bid in [(2, 1), (1, 0), (0, 1), (3, 0)]:
        game.bid(seat, bid)
    assert game.phase is Phase.PLAYING
    assert game.view(2)["bids"] == ["hidden", "hidden", 1, "hidden"]
    assert game.view(None)["bids"] == ["hidden"] * 4
    for seat in (1, 2, 3):
        game.play(seat, game.hands[seat][0])
        assert game.view(0)["bids"] == [1, "hidden", "hidden", "hidden"]
    game.play(0, C("R1"))
    assert game.phase is Phase.DEAL
    for seat in (None, 0, 1, 2, 3):
        view = game.view(seat)
        assert view["bids"] == [1, 0, 1, 0]
        assert view["history"][0]["bids"] == [1, 0, 1, 0]


def test_v5_foresight_round_one_shows_every_hand_but_ones_own() -> None:
    game = round_one(RuleSet(foresight=True))
    for seat in range(4):
        view = game.view(seat)
        assert view["hands"][seat] is None
        assert [h for s, h in enumerate(view["hands"]) if s != seat] == [
            [str(c) for c in game.hands[s]] for s in range(4) if s != seat
        ]
        assert view["legal_cards"] == []
    assert game.view(None)["hands"] == [None] * 4
    play_until(game, random.Random(5), lambda g: g.phase is Phase.DEAL)
    game.deal(random.Random(5))  # V5: later rounds are normal
    while game.phase is not Phase.BIDDING:
        game.choose_trump(game.dealer, Suit.RED)
    for seat in range(4):
        hands = game.view(seat)["hands"]
        assert hands[seat] == [str(c) for c in game.hands[seat]]
        assert all(h is None for s, h in enumerate(hands) if s != seat)


def test_v5_without_foresight_round_one_is_normal() -> None:
    game = round_one()
    assert game.view(2)["hands"] == [None, None, ["G3"], None]


def test_v6_saboteur_dealer_does_not_bid_and_scores_20() -> None:
    game = round_one(RuleSet(saboteur=True))
    assert game.bidders == [1, 2, 3] and game.allowed_bids(0) == []
    with pytest.raises(OutOfTurn, match="does not bid"):
        game.bid(0, 0)
    for seat in (1, 2, 3):
        game.bid(seat, 1)
    assert game.phase is Phase.PLAYING and game.bids == [None, 1, 1, 1]
    for seat, card in [(1, "B2"), (2, "G3"), (3, "Y4"), (0, "R1")]:
        game.play(seat, C(card))
    # Seat 2 took the trick (green trump). The dealer scores 20 whatever happened.
    assert game.totals == [20, -10, 30, -10]
    assert game.history[0].bids == (None, 1, 1, 1)


def test_v6_v1_constraint_falls_on_the_last_bidder_in_a_game() -> None:
    game = round_one(RuleSet(saboteur=True, dealer_rule=DealerRule.PLUS_MINUS_ONE))
    game.bid(1, 0)
    game.bid(2, 0)
    assert game.turn == 3 and game.allowed_bids(3) == [0]
    with pytest.raises(IllegalBid, match="Allowed: 0"):
        game.bid(3, 1)


def test_v7_no_full_bid_in_a_game() -> None:
    game = at_round(3, RuleSet(no_full_bid=True))
    game.deal(random.Random(7))
    if game.phase is Phase.CHOOSE_TRUMP:
        game.choose_trump(game.dealer, Suit.GREEN)
    assert game.allowed_bids(game.turn) == [0, 1, 2]  # type: ignore[arg-type]
    with pytest.raises(IllegalBid, match="no full bid"):
        game.bid(game.turn, 3)  # type: ignore[arg-type]


def test_v10_own_scoring_in_a_game() -> None:
    game = round_one(
        RuleSet.from_dict({"scoring": {"exact_bonus": 5, "per_trick": 1, "per_miss": 100}})
    )
    for seat, bid in [(1, 0), (2, 1), (3, 1), (0, 1)]:
        game.bid(seat, bid)
    for seat, card in [(1, "B2"), (2, "G3"), (3, "Y4"), (0, "R1")]:
        game.play(seat, C(card))
    assert game.totals == [-100, 5, 6, -100]


# -- errors change nothing -------------------------------------------------------------------


def bidding() -> Game:
    return round_one()


def playing() -> Game:
    game = round_one()
    for seat in (1, 2, 3, 0):
        game.bid(seat, 0)
    game.play(1, C("B2"))
    return game


def between_rounds() -> Game:
    return play_until(round_one(), random.Random(2), lambda g: g.phase is Phase.DEAL)


def over() -> Game:
    return play_until(
        new(RuleSet(round_plan=Plan.SHORT), 6), random.Random(4), lambda g: g.finished
    )


def two_cards_to_follow() -> Game:
    game = at_round(2)
    game.deal(stack_for(4, ["R5 B9", "B2 W", "J R7", "R1 B13"], "G1"))  # type: ignore[arg-type]
    for seat in (2, 3, 0, 1):
        game.bid(seat, 0)
    game.play(2, C("R7"))
    game.play(3, C("R1"))
    return game


ERRORS: list[tuple[str, Callable[[], Game], Callable[[Game], Any], type[Exception], str]] = [
    (
        "deal while bidding",
        bidding,
        lambda g: g.deal(random.Random(1)),
        WrongPhase,
        "players are bidding",
    ),
    ("deal while playing", playing, lambda g: g.deal(random.Random(1)), WrongPhase, "being played"),
    ("deal after the end", over, lambda g: g.deal(random.Random(1)), WrongPhase, "game is over"),
    ("trump with no Wizard", bidding, lambda g: g.choose_trump(0, Suit.RED), WrongPhase, "bidding"),
    ("bid before the deal", lambda: new(), lambda g: g.bid(1, 0), WrongPhase, "dealt first"),
    ("bid out of turn", bidding, lambda g: g.bid(2, 0), OutOfTurn, "Player 2's turn to bid"),
    ("dealer bids first", bidding, lambda g: g.bid(0, 0), OutOfTurn, "Player 2's turn"),
    ("bid too high", bidding, lambda g: g.bid(1, 2), IllegalBid, "from 0 to 1"),
    ("bid below zero", bidding, lambda g: g.bid(1, -1), IllegalBid, "from 0 to 1"),
    ("bid as text", bidding, lambda g: g.bid(1, "1"), IllegalBid, "whole number"),
    ("bid while playing", playing, lambda g: g.bid(2, 0), WrongPhase, "being played"),
    ("bid after the round", between_rounds, lambda g: g.bid(1, 0), WrongPhase, "dealt first"),
    ("play while bidding", bidding, lambda g: g.play(1, C("B2")), WrongPhase, "bidding"),
    ("play out of turn", playing, lambda g: g.play(3, C("Y4")), OutOfTurn, "Player 3's turn"),
    ("play again", playing, lambda g: g.play(1, C("B2")), OutOfTurn, "Player 3's turn"),
    ("card not in hand", playing, lambda g: g.play(2, C("R1")), IllegalPlay, "not in your hand"),
    ("text for a card", playing, lambda g: g.play(2, "G3"), IllegalPlay, "not a card"),
    (
        "must follow suit",
        two_cards_to_follow,
        lambda g: g.play(0, C("B9")),
        IllegalPlay,
        "must follow red",
    ),
    ("play after the end", over, lambda g: g.play(0, C("R1")), WrongPhase, "game is over"),
    ("unknown seat", playing, lambda g: g.play(4, C("G3")), RuleError, "no seat 4"),
    ("seat as text", bidding, lambda g: g.bid("1", 0), RuleError, "no seat '1'"),
    ("seat as bool", bidding, lambda g: g.bid(True, 0), RuleError, "no seat True"),
    ("bid as bool", bidding, lambda g: g.bid(1, True), IllegalBid, "whole number"),
    ("play as seat bool", playing, lambda g: g.play(True, C("G3")), RuleError, "no seat True"),
    ("play as seat text", playing, lambda g: g.play("2", C("G3")), RuleError, "no seat '2'"),  # type: ignore[arg-type]
    ("negative seat", bidding, lambda g: g.choose_trump(-1, Suit.RED), RuleError, "no seat -1"),
]


@pytest.mark.parametrize(
    ("make", "action", "error", "message"), [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS]
)
def test_bad_actions_raise_typed_errors_and_change_nothing(
    make: Callable[[], Game], action: Callable[[Game], Any], error: type[Exception], message: str
) -> None:
    game = make()
    before = json.dumps(game.to_dict())
    with pytest.raises(error, match=message):
        action(game)
    assert json.dumps(game.to_dict()) == before
    assert issubclass(error, ValueError)


class Seat(int):
    """A seat number of another int type: the full checks take it like a plain int."""


def test_seats_of_an_int_subclass_are_taken() -> None:
    game = playing()
    game.play(Seat(2), C("G3"))
    assert game.trick[-1] == (2, C("G3"))
    game = bidding()
    game.bid(Seat(1), 1)
    assert game.bids[1] == 1


@pytest.mark.parametrize("seed", range(20))
def test_r4_a_seeded_deal_is_the_deck_shuffled_by_that_generator(seed: int) -> None:
    # Game.deal draws as Random.shuffle would (inline, for speed): seeded games stay the same.
    game = new()
    game.deal(random.Random(seed))
    deck = full_deck()
    random.Random(seed).shuffle(deck)
    assert game.hands == [[deck[0]], [deck[1]], [deck[2]], [deck[3]]]
    assert game.turned is deck[4]


def test_r4_deal_with_the_system_generator_or_another_one() -> None:
    class Mine(random.Random):
        def random(self) -> float:  # a generator of its own: shuffles its own way
            return super().random()

    for rng in (random.SystemRandom(), Mine(5)):
        game = play_until(new(), rng, lambda g: g.round_number == 15)
        assert Counter(c for h in game.hands for c in h) == Counter(full_deck())


def test_last_trick_is_the_trick_just_won() -> None:
    game = two_cards_to_follow()
    assert game.last_trick is None
    game.play(0, C("R5"))
    result = game.play(1, C("W"))
    assert result is not None and result.winner == 3 and result.reason is WinReason.FIRST_WIZARD
    trick = game.last_trick
    assert trick is not None and trick is game.last_trick
    assert (trick.leader, trick.winner, trick.reason) == (2, 1, WinReason.FIRST_WIZARD)
    assert trick.cards == ((2, C("R7")), (3, C("R1")), (0, C("R5")), (1, C("W")))
    game.last_trick = None
    assert game.last_trick is None


def test_not_your_turn_queries_answer_empty() -> None:
    game = playing()
    assert game.legal_cards(1) == [] and game.legal_cards(2) == cards("G3")
    assert game.allowed_bids(2) == []
    game = bidding()
    assert game.allowed_bids(2) == [] and game.allowed_bids(1) == [0, 1]
    assert game.legal_cards(1) == []


# -- serialisation ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda: new(),
        bidding,
        playing,
        between_rounds,
        over,
        two_cards_to_follow,
        lambda: round_one(turned="W"),
    ],
    ids=["new", "bidding", "playing", "between rounds", "over", "mid-trick", "choose trump"],
)
def test_json_round_trip_is_exact(make: Callable[[], Game]) -> None:
    game = make()
    data = game.to_dict()
    again = roundtrip(game)
    assert again.to_dict() == data
    assert json.dumps(again.to_dict()) == json.dumps(data)
    for seat in (None, 0, 1):
        assert again.view(seat) == game.view(seat)


def test_a_restored_game_plays_on_the_same() -> None:
    game = playing()
    again = roundtrip(game)
    play_until(game, random.Random(8), lambda g: g.finished)
    play_until(again, random.Random(8), lambda g: g.finished)
    assert game.to_dict() == again.to_dict()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(version=2), "version"),
        (lambda d: d.pop("hands"), "Broken game state"),
        (lambda d: d.update(phase="dancing"), "dancing"),
        (lambda d: d.update(hands=[["X9"]] * 4), "not a card"),
        (lambda d: d.update(trump="purple"), "Unknown suit"),
        (lambda d: d.update(rules={"bidding": "loud"}), "'bidding'"),
        (lambda d: d.update(players=2), "3 to 6 players"),
        (lambda d: d.update(trick=5), "Broken game state"),
    ],
)
def test_from_dict_refuses_broken_states(
    change: Callable[[dict[str, Any]], Any], message: str
) -> None:
    data = playing().to_dict()
    change(data)
    with pytest.raises(ValueError, match=message):
        Game.from_dict(data)


# -- what one seat sees ----------------------------------------------------------------------


def test_view_shows_only_ones_own_hand() -> None:
    game = two_cards_to_follow()
    for seat in range(4):
        view = game.view(seat)
        assert view["hands"][seat] == [str(c) for c in game.hands[seat]]
        assert all(h is None for s, h in enumerate(view["hands"]) if s != seat)
        assert view["hand_sizes"] == [2, 2, 1, 1]
        assert view["seat"] == seat
    assert game.view(None)["hands"] == [None] * 4
    assert game.view(0)["legal_cards"] == ["R5"]
    assert game.view(1)["legal_cards"] == []
    assert game.view(0)["trick"] == [[2, "R7"], [3, "R1"]]
    with pytest.raises(RuleError, match="no seat 9"):
        game.view(9)


def test_view_is_json_ready() -> None:
    game = over()
    view = game.view(0)
    assert json.loads(json.dumps(view)) == view
    assert view["winners"] == game.winners() and view["phase"] == "game_over"


def test_v1_with_v3_hidden_bids_the_dealer_bids_once_the_others_are_in() -> None:
    """V1 + V3 (001): bids go in at once, but if they add up the last bidder must change,
    so the dealer's bid waits for the others and the bid that makes the total is refused."""
    rules = RuleSet(dealer_rule=DealerRule.PLUS_MINUS_ONE, bidding=Bidding.HIDDEN)
    game = Game.new(rules, 3, first_dealer=0)
    game.deal(random.Random(7))
    if game.phase is Phase.CHOOSE_TRUMP:
        game.choose_trump(0, Suit.RED)
    assert game.phase is Phase.BIDDING
    assert sorted(game.waiting_for()) == [1, 2]  # the dealer (seat 0) waits
    assert game.allowed_bids(0) == []
    game.bid(2, 0)
    assert game.waiting_for() == [1]
    game.bid(1, 0)
    assert game.waiting_for() == [0]
    assert game.allowed_bids(0) == [0]  # 1 card: bidding 1 would make the total
    before = game.to_dict()
    with pytest.raises(IllegalBid, match="add up"):
        game.bid(0, 1)
    assert game.to_dict() == before
    game.bid(0, 0)
    assert game.phase is Phase.PLAYING


@pytest.mark.parametrize("bidding", [Bidding.HIDDEN, Bidding.SECRET])
def test_v3_v4_the_last_bidder_bids_blind(bidding: Bidding) -> None:
    """V3 (and V4) with V1: nothing the dealer's seat is shown before the bid gives the
    others' total away: the keys it sees are the same whatever the others bid; only the
    bid that makes the total is refused when made (asked to change)."""

    def dealer_after(first: int, second: int) -> Game:
        rules = RuleSet(dealer_rule=DealerRule.PLUS_MINUS_ONE, bidding=bidding)
        game = Game.new(rules, 3, first_dealer=0)
        game.deal(random.Random(7))
        game.round_number, game.hands = 3, [game.hands[0]] * 3  # pretend: 3 cards each
        game.bids = [None, first, second]
        return game

    seen = [dealer_after(a, b).view(0)["allowed_bids"] for a, b in ((0, 0), (1, 1), (2, 1))]
    assert seen == [[0, 1, 2, 3]] * 3
    game = dealer_after(1, 1)
    before = game.to_dict()
    with pytest.raises(IllegalBid, match="add up"):
        game.bid(0, 1)  # 1 + 1 + 1: asked to change
    assert game.to_dict() == before
    game.bid(0, 2)
