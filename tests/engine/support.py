"""Helpers for the engine tests: cards from text, stacked decks, reference rules.

The reference functions (``ref_*``) restate RULES.md in the plainest possible way,
independently of the engine, so that property tests can compare the two.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence

from hypothesis import strategies as st

from scorekeeper.engine import (
    Bidding,
    Card,
    DealerRule,
    Game,
    Phase,
    Plan,
    RuleSet,
    Scoring,
    Suit,
    SuitNames,
    TieBreak,
    parse_cards,
)


def cards(text: str) -> list[Card]:
    """``cards("R13 W y1")`` → three cards."""
    return parse_cards(text)


class Stacked:
    """A stand-in for ``random.Random`` whose ``shuffle`` puts the given cards on top.

    ``Game.deal`` only shuffles; the deal takes hands from the top (seat 0 first), then
    turns the next card. Each call to ``shuffle`` uses the next list of ``tops`` (V9
    shuffles one pile per seat); the rest of the deck keeps its order.
    """

    def __init__(self, *tops: str) -> None:
        self.tops = [cards(t) for t in tops]

    def shuffle(self, deck: list[Card]) -> None:
        top = self.tops.pop(0) if self.tops else []
        rest = list(deck)
        for card in top:
            rest.remove(card)  # raises if the card is not in the deck: a broken test
        deck[:] = top + rest


def stack_for(players: int, hands: Sequence[str], turned: str | None = None) -> Stacked:
    """A stacked deck that deals ``hands`` (seat order) and then turns ``turned``."""
    sizes = {len(cards(h)) for h in hands}
    assert len(hands) == players and len(sizes) == 1, "every seat gets the same count"
    return Stacked(" ".join([*hands, turned or ""]))


def roundtrip(game: Game) -> Game:
    """The game through JSON and back."""
    return Game.from_dict(json.loads(json.dumps(game.to_dict())))


def snapshot(game: Game) -> str:
    return json.dumps(game.to_dict(), sort_keys=True)


# -- reference rules (RULES.md, restated) -------------------------------------------------


def ref_led_suit(trick: Sequence[Card]) -> Suit | None | str:
    """R12: the suit to follow, ``None`` while only Jesters lie, ``"free"`` after a Wizard."""
    for c in trick:
        if c.is_wizard:
            return "free"
        if not c.is_jester:
            return c.suit
    return None


def ref_may_play(card: Card, hand: Sequence[Card], trick: Sequence[Card]) -> bool:
    """R10, R11, R12."""
    if card.is_wizard or card.is_jester:
        return True
    led = ref_led_suit(trick)
    if not isinstance(led, Suit):
        return True
    return card.suit is led or not any(c.suit is led for c in hand)


def ref_winner(trick: Sequence[Card], trump: Suit | None, unicoloured: bool = False) -> int:
    """R13, R14, V9: index of the winning card."""
    wizards = [i for i, c in enumerate(trick) if c.is_wizard]
    if wizards:
        return wizards[0]
    numbers = [i for i, c in enumerate(trick) if not c.is_jester]
    if not numbers:
        return 0
    if unicoloured:
        pool = numbers
    else:
        trumps = [i for i in numbers if trick[i].suit is trump]
        led = ref_led_suit(trick)
        pool = trumps or [i for i in numbers if trick[i].suit is led]
    top = max(trick[i].rank or 0 for i in pool)
    return min(i for i in pool if trick[i].rank == top)


def ref_score(bid: int, won: int, bonus: int = 20, per_trick: int = 10, miss: int = 10) -> int:
    """R16, V10."""
    return bonus + per_trick * won if bid == won else -miss * abs(bid - won)


@st.composite
def rule_sets(draw: st.DrawFn) -> RuleSet:
    """Every valid combination of options."""
    dealer_rule = draw(st.sampled_from(DealerRule))
    bidding = draw(st.sampled_from(Bidding))
    return RuleSet(
        dealer_rule=dealer_rule,
        dealer_rule_from_round=draw(st.integers(1, 20)),
        no_full_bid=draw(st.booleans()),
        bidding=bidding,
        saboteur=draw(st.booleans()),
        foresight=draw(st.booleans()),
        round_plan=draw(st.sampled_from(Plan)),
        tie_break=draw(st.sampled_from(TieBreak)),
        scoring=Scoring(*draw(st.tuples(*[st.integers(0, 1000)] * 3))),
        suit_names=draw(st.sampled_from(SuitNames)),
    )


def random_step(game: Game, rng: random.Random) -> None:
    """One random legal action by whoever may act (the game must not be over)."""
    phase = game.phase
    if phase is Phase.DEAL:
        game.deal(rng)
    elif phase is Phase.CHOOSE_TRUMP:
        game.choose_trump(game.dealer, rng.choice(list(Suit)))
    elif phase is Phase.BIDDING:
        seat = rng.choice(game.waiting_for())
        game.bid(seat, rng.choice(game.allowed_bids(seat)))
    elif phase is Phase.PLAYING:
        seat = game.turn
        assert seat is not None
        game.play(seat, rng.choice(game.legal_cards(seat)))
    else:
        raise AssertionError("the game is over")


def play_until(game: Game, rng: random.Random, done: Callable[[Game], bool]) -> Game:
    """Random legal actions until ``done(game)``."""
    while not done(game):
        random_step(game, rng)
    return game
