"""Computer players: a bot that bids from its hand and plays to make its bid exactly,
and a random-legal player to measure it against. Pure functions of what a seat may know.

A bot only reads what its seat could see at a real table: its own hand (in the V5
foresight round the other hands instead), the turned-up card and trump, the bids that are
shown, the cards of the trick on the table and the tricks each player has taken.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from .cards import Card, Suit, full_deck
from .game import Game, Phase
from .tricks import resolve_trick


class Strategy(Protocol):
    """How a computer player decides. Each method is asked only when it is that seat's
    move of that kind; the answer must be legal."""

    @property
    def name(self) -> str:
        """What to call this kind of player in reports ("bot", "random")."""
        ...

    def choose_trump(self, game: Game, seat: int) -> Suit:
        """The suit the dealer names after a Wizard is turned up (R7)."""
        ...

    def bid(self, game: Game, seat: int) -> int:
        """One of ``game.allowed_bids(seat)``."""
        ...

    def play(self, game: Game, seat: int) -> Card:
        """One of ``game.legal_cards(seat)``."""
        ...


# -- what a seat can see ----------------------------------------------------------------


def _foresight_round(game: Game) -> bool:
    return game.rules.foresight and game.round_number == 1


def _shown_bid(game: Game, seat: int, other: int) -> int | None:
    """``other``'s bid as ``seat`` sees it (V3 hidden until all are in, V4 secret)."""
    return game.bids[other] if game.bid_seen_by(seat, other) else None


def _beats(game: Game, card: Card) -> bool:
    """Whether ``card`` would be winning the trick on the table if played now."""
    cards = [c for _, c in game.trick] + [card]
    result = resolve_trick(cards, game.trump, unicoloured=game.rules.unicoloured)
    return result.winner == len(cards) - 1


def _unseen(game: Game, seat: int) -> list[Card]:
    """Cards this seat has not seen this round (the other hands, the stock, and the
    tricks already played, which a bot does not keep track of)."""
    seen = list(game.hands[seat]) + [c for _, c in game.trick]
    if game.turned is not None:
        seen.append(game.turned)
    pool = full_deck()
    for card in seen:
        if card in pool:
            pool.remove(card)
    return pool


def _strength(card: Card, trump: Suit | None, unicoloured: bool) -> float:
    """A sort key: how likely a card is to win a trick, Jesters lowest, Wizards highest."""
    if card.is_wizard:
        return 100.0
    if card.is_jester:
        return -1.0
    rank = card.rank or 0
    if not unicoloured and trump is not None and card.suit is trump:
        return 50.0 + rank
    return float(rank)


# -- the bot ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Bot:
    """Bids the tricks its hand should take and plays to make exactly that.

    ``caution`` scales the expected tricks down (the other players duck and trump too).
    """

    name: str = "bot"
    caution: float = 1.0
    softness: float = 1.0
    spread: float = 0.6

    # decisions --------------------------------------------------------------------------

    def choose_trump(self, game: Game, seat: int) -> Suit:
        """The suit this hand is longest and strongest in."""
        hand = game.hands[seat]

        def weight(suit: Suit) -> tuple[float, int]:
            cards = [c for c in hand if c.suit is suit]
            return (len(cards) + sum((c.rank or 0) for c in cards) / 26, -list(Suit).index(suit))

        return max(Suit, key=weight)

    def bid(self, game: Game, seat: int) -> int:
        """The allowed bid nearest to the expected tricks of the hand."""
        # Under hidden or secret bids (V3, V4) this is what a blind bid comes to: the
        # nearest bid it sees as allowed, unless the table asks it to change that one
        # (it makes the total), then the nearest of the rest.
        allowed = game.allowed_bids(seat)
        if not allowed:
            raise ValueError("This seat has no bid to make now.")
        expected = self.expected_tricks(game, seat)
        return min(allowed, key=lambda b: (abs(b - expected), b))

    def expected_tricks(self, game: Game, seat: int) -> float:
        """How many tricks the hand should take: the sum of each card's chance."""
        if _foresight_round(game):
            return _foresight_estimate(game, seat)
        if len(game.hands[seat]) == 1:
            return _single_card_chance(game, seat)
        hand = game.hands[seat]
        n = game.players
        cards = len(hand)
        unseen = _unseen(game, seat)
        others_hold = (n - 1) * cards
        # Chance that a given unseen card is in one of the other hands.
        q = min(1.0, others_hold / max(1, len(unseen))) * self.softness
        trump = None if game.rules.unicoloured else game.trump
        unseen_wizards = sum(1 for c in unseen if c.is_wizard)
        total = 0.0
        for card in hand:
            total += _card_chance(card, hand, unseen, q, trump, n, cards, unseen_wizards, game)
        # In long rounds middling cards win the tricks nobody else wants: the per-card
        # chances above miss those, so a share of the round is added.
        total = total * self.caution + self.spread * max(0, cards - 3) / n
        return max(0.0, min(float(cards), total))

    def play(self, game: Game, seat: int) -> Card:
        """The card that best keeps the bid on course."""
        legal = game.legal_cards(seat)
        if not legal:
            raise ValueError("This seat has no card to play now.")
        if _foresight_round(game):
            return legal[0]  # the bot cannot see its own cards either
        if len(legal) == 1:
            return legal[0]
        bid = game.bids[seat]
        if bid is None:  # the saboteur dealer (V6): spoil the others' bids
            return _saboteur_play(game, seat, legal)
        need = bid - game.won[seat]
        left = len(game.hands[seat])
        if need > 0:
            return _try_to_win(game, seat, legal, need, left)
        return _try_to_lose(game, legal)


def _card_chance(
    card: Card,
    hand: Sequence[Card],
    unseen: Sequence[Card],
    q: float,
    trump: Suit | None,
    n: int,
    cards: int,
    unseen_wizards: int,
    game: Game,
) -> float:
    if card.is_wizard:
        return 0.97
    if card.is_jester:
        return 0.0
    rank = card.rank or 0
    unicoloured = game.rules.unicoloured
    if unicoloured:
        higher = sum(1 for c in unseen if c.rank is not None and c.rank > rank)
        return float((1 - q) ** (higher + unseen_wizards) * 0.95)
    higher = sum(1 for c in unseen if c.suit is card.suit and (c.rank or 0) > rank)
    if trump is not None and card.suit is trump:
        hold = (1 - q) ** (higher + unseen_wizards)
        # Long trumps also win by trumping suits one is void in.
        mine = sum(1 for c in hand if c.suit is trump)
        ruff = 0.0
        if cards >= 3:
            short_suits = sum(
                1 for s in Suit if s is not trump and sum(1 for c in hand if c.suit is s) <= 1
            )
            ruff = min(0.55, 0.12 * short_suits + 0.04 * mine) * (rank / 13 + 0.5)
        return float(min(0.95, max(hold, ruff)))
    # A plain suit card must survive the higher cards, the Wizards, and players void in
    # its suit who trump it; when it is not led, it wins only if its suit is.
    hold = (1 - q) ** (higher + unseen_wizards)
    if trump is not None:
        in_suit = sum(1 for c in unseen if c.suit is card.suit)
        trumps_out = sum(1 for c in unseen if c.suit is trump)
        if trumps_out:
            per_player = cards
            # chance one other player is void in the suit (and holds a trump)
            pool = max(1, len(unseen))
            void = math.comb(max(0, pool - in_suit), min(per_player, pool)) / math.comb(
                pool, min(per_player, pool)
            )
            has_trump = 1 - math.comb(max(0, pool - trumps_out), min(per_player, pool)) / (
                math.comb(pool, min(per_player, pool))
            )
            hold *= (1 - void * has_trump) ** (n - 1)
    own_suit = sum(1 for c in hand if c.suit is card.suit)
    # Lower cards of a long suit rarely survive the later rounds of the suit.
    hold *= 0.9 ** max(0, own_suit - 2)
    return float(hold)


def _foresight_estimate(game: Game, seat: int) -> float:
    """V5: the bot sees the other hands, not its own: the share of the cards it could be
    holding that would win the trick against the cards it sees."""
    others = [c for s, h in enumerate(game.hands) if s != seat for c in h]
    pool = full_deck()
    for card in others + ([game.turned] if game.turned is not None else []):
        if card in pool:
            pool.remove(card)
    if not pool or any(len(h) != 1 for h in game.hands):
        return 0.5 * len(game.hands[seat]) / game.players
    order = [(game.leader + i) % game.players for i in range(game.players)]
    wins = 0
    for mine in pool:
        trick = [mine if s == seat else game.hands[s][0] for s in order]
        result = resolve_trick(trick, game.trump, unicoloured=game.rules.unicoloured)
        wins += order[result.winner] == seat
    return wins / len(pool)


SAMPLES = 300


def _single_card_chance(game: Game, seat: int) -> float:
    """With one card each, the trick is played out blind: the share of the others'
    possible cards (sampled with a fixed seed, so the bot stays deterministic) against
    which this card wins."""
    mine = game.hands[seat][0]
    unseen = _unseen(game, seat)
    order = [(game.leader + i) % game.players for i in range(game.players)]
    rng = random.Random(0)
    wins = 0
    for _ in range(SAMPLES):
        others = iter(rng.sample(unseen, game.players - 1))
        trick = [mine if s == seat else next(others) for s in order]
        result = resolve_trick(trick, game.trump, unicoloured=game.rules.unicoloured)
        wins += order[result.winner] == seat
    return wins / SAMPLES


def _hold_chance(game: Game, seat: int, card: Card, unseen: Sequence[Card] | None = None) -> float:
    """Chance that ``card``, winning the trick on the table now, is still winning after
    the players still to play (``unseen``: the cards the others may hold, when the
    caller counts the played ones too)."""
    if card.is_wizard:
        return 1.0
    after = game.players - len(game.trick) - 1
    if after == 0:
        return 1.0
    if any(c.is_wizard for _, c in game.trick):
        return 0.0
    if unseen is None:
        unseen = _unseen(game, seat)
    cards_each = len(game.hands[seat])
    q = min(1.0, after * cards_each / max(1, len(unseen)))
    trump = None if game.rules.unicoloured else game.trump
    rank = card.rank or 0
    danger = 0.0
    for c in unseen:
        if c.is_wizard:
            danger += 1
        elif c.is_jester or c.rank is None:
            continue
        elif game.rules.unicoloured or c.suit is card.suit:
            danger += c.rank > rank
        elif trump is not None and c.suit is trump:
            danger += 0.3  # only from a player void in the led suit
    return float((1 - q) ** danger)


def _try_to_win(game: Game, seat: int, legal: list[Card], need: int, left: int) -> Card:
    trump = game.trump
    uni = game.rules.unicoloured
    by_strength = sorted(legal, key=lambda c: _strength(c, trump, uni))
    if not game.trick:
        # Leading: the surest plain card if it should hold, else a Wizard, else low.
        plain = [c for c in by_strength if not c.is_wizard and not c.is_jester]
        wizards = [c for c in legal if c.is_wizard]
        if plain:
            best = max(plain, key=lambda c: _hold_chance(game, seat, c))
            chance = _hold_chance(game, seat, best)
            if chance >= 0.5 or (not wizards and chance >= 0.25):
                return best
        if wizards:
            return wizards[0]
        return (plain or by_strength)[0]
    winners = [c for c in by_strength if _beats(game, c)]
    if winners:
        holding = [c for c in winners if _hold_chance(game, seat, c) >= 0.6]
        if holding:
            return holding[0]  # the cheapest card that should hold
        best = winners[-1]
        if need >= left or _hold_chance(game, seat, best) >= 0.3:
            return best
    # Can't (or won't) win this one: throw away the least useful card, a Jester first.
    jesters = [c for c in legal if c.is_jester]
    if jesters:
        return jesters[0]
    losers = [c for c in by_strength if not _beats(game, c)]
    return (losers or by_strength)[0]


def _try_to_lose(game: Game, legal: list[Card]) -> Card:
    trump = game.trump
    uni = game.rules.unicoloured
    by_strength = sorted(legal, key=lambda c: _strength(c, trump, uni))
    if not game.trick:
        # Leading: the lowest plain card; a Jester when nothing low is left.
        plain = [c for c in by_strength if not c.is_jester and not c.is_wizard]
        jesters = [c for c in legal if c.is_jester]
        if plain and (plain[0].rank or 0) <= 6 or not jesters:
            return (plain or by_strength)[0]
        return jesters[0]
    losers = [c for c in by_strength if not _beats(game, c) and not c.is_jester]
    if losers:
        return losers[-1]  # shed the most dangerous card that still loses
    jesters = [c for c in legal if c.is_jester]
    if jesters and not _beats(game, jesters[0]):
        return jesters[0]
    # Every card wins: take it with the strongest card, to be rid of it.
    return by_strength[-1]


def _saboteur_play(game: Game, seat: int, legal: list[Card]) -> Card:
    """The Wizard Saboteur dealer (V6) spoils the bid of the player winning the trick:
    win it if they needed it, keep out of it otherwise. A bid the dealer can't see
    (secret: V4) spoils nothing it knows of."""
    if game.trick:
        cards = [c for _, c in game.trick]
        result = resolve_trick(cards, game.trump, unicoloured=game.rules.unicoloured)
        holder = game.trick[result.winner][0]
        bid = _shown_bid(game, seat, holder)
        if bid is not None and game.won[holder] < bid:
            winners = [c for c in legal if _beats(game, c)]
            if winners:
                return min(winners, key=lambda c: _strength(c, game.trump, False))
    return _try_to_lose(game, legal)


# -- the random-legal player --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RandomPlayer:
    """Picks uniformly among the legal choices, with its own random source."""

    rng: random.Random
    name: str = "random"

    def choose_trump(self, game: Game, seat: int) -> Suit:
        """Any suit."""
        return self.rng.choice(list(Suit))

    def bid(self, game: Game, seat: int) -> int:
        """Any allowed bid."""
        return self.rng.choice(game.allowed_bids(seat))

    def play(self, game: Game, seat: int) -> Card:
        """Any legal card."""
        return self.rng.choice(game.legal_cards(seat))


# -- driving a game ------------------------------------------------------------------------


def act(game: Game, seat: int, strategy: Strategy) -> None:
    """Make ``seat``'s next move with ``strategy`` (trump choice, bid or card).

    :raises ValueError: when ``seat`` has nothing to do now.
    """
    if game.phase is Phase.CHOOSE_TRUMP and seat == game.dealer:
        game.choose_trump(seat, strategy.choose_trump(game, seat))
    elif game.phase is Phase.BIDDING and seat in game.waiting_for():
        game.bid(seat, strategy.bid(game, seat))
    elif game.phase is Phase.PLAYING and seat == game.turn:
        game.play(seat, strategy.play(game, seat))
    else:
        raise ValueError(f"Seat {seat} has nothing to do now.")


def play_until_waiting(game: Game, strategies: Sequence[Strategy | None]) -> None:
    """Let the computer seats (``strategies[seat]`` not ``None``) act until the game is
    over, waits for a deal, or waits for a person."""
    while True:
        ready = [s for s in game.waiting_for() if strategies[s] is not None]
        if not ready:
            return
        seat = ready[0]
        strategy = strategies[seat]
        assert strategy is not None
        act(game, seat, strategy)


def play_game(game: Game, strategies: Sequence[Strategy], rng: random.Random) -> Game:
    """Play ``game`` to the end with one strategy per seat, dealing with ``rng``."""
    while not game.finished:
        if game.phase is Phase.DEAL:
            game.deal(rng)
        play_until_waiting(game, strategies)
    return game
