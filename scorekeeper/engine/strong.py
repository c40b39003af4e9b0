"""Bot levels beyond the everyday bot: an easy one that bids roughly and plays any legal
card, and a strong one that looks ahead.

The strong bot counts the cards (the round's tricks are on the table for everyone),
notes who showed out of a suit, and for each choice deals the cards it has not seen to
the others many times over, consistently with what it knows, and plays the round out
with a quick policy for every seat: it bids and plays what scores best on average. It
reads only what its seat may see; its random choices are seeded from that alone, so the
same view always gives the same move. Where it can't reason from the table (the
foresight round, a unicoloured game, bids it may not see, the saboteur dealer) it plays
as the everyday bot.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from .bots import Bot, _foresight_round, _shown_bid
from .cards import Card, Suit, full_deck
from .game import Game
from .rules import Bidding
from .tricks import decide

# Card plays simulated for one decision (bids and cards alike); at least MIN_DEALS deals.
BUDGET = 2400
MIN_DEALS = 6
MAX_DEALS = 40


def _seed(game: Game, seat: int) -> int:
    """A seed from what ``seat`` sees: the same view, the same choices."""
    seen = [
        game.round_number,
        seat,
        [str(c) for c in game.hands[seat]],
        [str(c) for _, c in game.trick],
        [[str(c) for _, c in t] for t in game.tricks_done],
        [_shown_bid(game, seat, s) for s in range(game.players)],
        str(game.turned),
        game.won,
    ]
    return zlib.crc32(repr(seen).encode())


def _blind(preferred: Sequence[int], game: Game, seat: int, near: float) -> int:
    """The first of ``preferred`` (bids the seat sees as allowed, best first) that the
    table takes; a bid that makes the sealed total (V3, V4) is asked to change, and then
    the nearest allowed one is made."""
    allowed = game.allowed_bids(seat)
    ranked = sorted(preferred, key=lambda b: (abs(b - near), b)) if near >= 0 else preferred
    for bid in ranked:
        if bid in allowed:
            return bid
    return min(allowed, key=lambda b: (abs(b - near), b))


# -- the easy bot ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EasyBot:
    """Bids its hand's rough worth, give or take one, and plays any legal card."""

    name: str = "easy"
    base: Bot = field(default_factory=Bot)

    def choose_trump(self, game: Game, seat: int) -> Suit:
        return self.base.choose_trump(game, seat)

    def bid(self, game: Game, seat: int) -> int:
        rough = round(self.base.expected_tricks(game, seat)) + random.Random(
            _seed(game, seat)
        ).choice((-1, 0, 1))
        return _blind([b for b in game.allowed_bids_seen(seat)], game, seat, rough)

    def play(self, game: Game, seat: int) -> Card:
        return random.Random(_seed(game, seat)).choice(game.legal_cards(seat))


# -- the strong bot -------------------------------------------------------------------------


def _strength(card: Card, trump: Suit | None) -> int:
    if card.is_wizard:
        return 100
    if card.is_jester:
        return -1
    rank = card.rank or 0
    return 50 + rank if trump is not None and card.suit is trump else rank


def _led(cards: Sequence[Card]) -> Suit | None:
    for card in cards:
        if not card.is_jester:
            return card.suit
    return None


def _legal(hand: Sequence[Card], trick: Sequence[Card]) -> list[Card]:
    suit = _led(trick)
    if suit is not None and any(c.suit is suit for c in hand):
        return [c for c in hand if c.suit is suit or c.suit is None]
    return list(hand)


def _voids(game: Game) -> list[set[Suit]]:
    """The suits each seat has shown it holds none of (it did not follow them)."""
    voids: list[set[Suit]] = [set() for _ in range(game.players)]
    for trick in [*game.tricks_done, tuple(game.trick)]:
        cards: list[Card] = []
        for s, card in trick:
            suit = _led(cards)
            if suit is not None and card.suit is not None and card.suit is not suit:
                voids[s].add(suit)
            cards.append(card)
    return voids


def _unseen(game: Game, seat: int) -> list[Card]:
    pool = full_deck()
    seen = list(game.hands[seat]) + [c for _, c in game.trick]
    seen += [c for t in game.tricks_done for _, c in t]
    if game.turned is not None:
        seen.append(game.turned)
    for card in seen:
        if card in pool:
            pool.remove(card)
    return pool


def _deal(
    rng: random.Random, pool: list[Card], sizes: list[int], voids: list[set[Suit]], seat: int
) -> list[list[Card]] | None:
    """The unseen cards dealt to the other seats as their hand sizes and voids allow."""
    left = pool[:]
    rng.shuffle(left)
    hands: list[list[Card]] = [[] for _ in sizes]
    order = sorted((s for s in range(len(sizes)) if s != seat), key=lambda s: -len(voids[s]))
    for s in order:
        fits = [c for c in left if c.suit is None or c.suit not in voids[s]]
        if len(fits) < sizes[s]:
            return None
        hands[s] = fits[: sizes[s]]
        for card in hands[s]:  # one copy each (the four Wizards are one shared card)
            left.remove(card)
    return hands


def _rough_bid(hand: Sequence[Card], trump: Suit | None) -> int:
    """A quick bid for a seat whose bid is still to come in a look-ahead."""
    worth = 0.0
    for card in hand:
        if card.is_wizard:
            worth += 0.95
        elif card.is_jester:
            continue
        elif trump is not None and card.suit is trump:
            worth += 0.25 + 0.05 * (card.rank or 0)
        elif (card.rank or 0) >= 12:
            worth += 0.45
    return round(worth)


def _choose(
    hand: list[Card],
    trick: list[Card],
    need: int,
    last: bool,
    trump: Suit | None,
    unicoloured: bool,
) -> Card:
    """The quick policy of a look-ahead: win while a trick is needed, else duck."""
    legal = _legal(hand, trick)
    if len(legal) == 1:
        return legal[0]
    key = lambda c: _strength(c, trump)  # noqa: E731
    if not trick:
        if need > 0:
            return max(legal, key=key)
        plain = [c for c in legal if not c.is_wizard]
        return min(plain or legal, key=key)
    n = len(trick)
    winners = [c for c in legal if decide([*trick, c], trump, unicoloured).winner == n]
    if need > 0:
        if winners:
            return min(winners, key=key) if last else max(winners, key=key)
        return min(legal, key=key)
    losers = [c for c in legal if c not in winners]
    if losers:
        return max(losers, key=key)
    return min(legal, key=key)


def _play_out(
    game: Game,
    hands: list[list[Card]],
    bids: list[int],
    trick: list[tuple[int, Card]],
    leader: int,
    won: list[int],
) -> list[int]:
    """Play the round to its end with the quick policy; the tricks each seat took."""
    n = game.players
    trump = None if game.rules.unicoloured else game.trump
    uni = game.rules.unicoloured
    won = won[:]
    cards = [c for _, c in trick]
    seats = [s for s, _ in trick]
    while True:
        while len(cards) < n:
            s = (leader + len(cards)) % n
            hand = hands[s]
            card = _choose(hand, cards, bids[s] - won[s], len(cards) == n - 1, trump, uni)
            hand.remove(card)
            cards.append(card)
            seats.append(s)
        winner = seats[decide(cards, trump, uni).winner]
        won[winner] += 1
        leader = winner
        cards, seats = [], []
        if not hands[leader]:
            return won


def _score(game: Game, bid: int, took: int) -> int:
    scoring = game.rules.scoring
    if bid == took:
        return scoring.exact_bonus + scoring.per_trick * bid
    return -scoring.per_miss * abs(bid - took)


def _candidates(legal: list[Card], trump: Suit | None) -> list[Card]:
    """The cards worth looking ahead with: per suit its lowest and highest, a Wizard and a
    Jester (the cards between rarely play differently)."""
    if len(legal) <= 4:
        return legal
    picked: list[Card] = []
    for suit in Suit:
        cards = sorted((c for c in legal if c.suit is suit), key=lambda c: c.rank or 0)
        picked += cards[:1] + cards[-1:] if len(cards) > 1 else cards
    picked += [c for c in legal if c.is_wizard][:1] + [c for c in legal if c.is_jester][:1]
    return picked


@dataclass(frozen=True, slots=True)
class StrongBot:
    """Looks ahead: deals the unseen cards many times and plays the round out."""

    name: str = "strong"
    base: Bot = field(default_factory=Bot)
    budget: int = BUDGET

    def choose_trump(self, game: Game, seat: int) -> Suit:
        return self.base.choose_trump(game, seat)

    def _reasoned(self, game: Game) -> bool:
        return not (_foresight_round(game) or game.rules.unicoloured)

    def _deals(self, game: Game, seat: int, choices: int) -> list[list[list[Card]]]:
        rng = random.Random(_seed(game, seat))
        pool = _unseen(game, seat)
        sizes = [len(h) for h in game.hands]
        voids = _voids(game)
        steps = max(1, sum(sizes)) * max(1, choices)
        wanted = max(MIN_DEALS, min(MAX_DEALS, self.budget // steps))
        deals = []
        for _ in range(wanted * 2):
            hands = _deal(rng, pool, sizes, voids, seat)
            if hands is None:
                hands = _deal(rng, pool, sizes, [set() for _ in sizes], seat)
            if hands is not None:
                deals.append(hands)
            if len(deals) == wanted:
                break
        return deals

    def bid(self, game: Game, seat: int) -> int:
        # Chosen among the bids the seat sees as allowed (V3, V4: blind to the others').
        seen = game.allowed_bids_seen(seat)
        expected = self.base.expected_tricks(game, seat)
        if not self._reasoned(game) or len(seen) == 1:
            return _blind(seen, game, seat, expected)
        near = sorted(seen, key=lambda b: (abs(b - expected), b))[:3]
        deals = self._deals(game, seat, len(near))
        trump = None if game.rules.unicoloured else game.trump
        scored: list[tuple[int, int]] = []
        for candidate in near:
            total = 0
            for hands in deals:
                hands = [h[:] for h in hands]
                hands[seat] = list(game.hands[seat])
                bids = []
                for s in range(game.players):
                    shown = _shown_bid(game, seat, s) if s != seat else candidate
                    bids.append(shown if shown is not None else _rough_bid(hands[s], trump))
                won = _play_out(game, hands, bids, [], game.leader, [0] * game.players)
                total += _score(game, candidate, won[seat])
            scored.append((-total, candidate))
        return _blind([b for _, b in sorted(scored)], game, seat, -1)

    def play(self, game: Game, seat: int) -> Card:
        legal = game.legal_cards(seat)
        bid = game.bids[seat]
        shown = [_shown_bid(game, seat, s) for s in range(game.players)]
        if (
            len(legal) == 1
            or bid is None
            or not self._reasoned(game)
            or game.rules.bidding is Bidding.SECRET
            or any(b is None for s, b in enumerate(shown) if s in game.bidders)
        ):
            return self.base.play(game, seat)
        trump = None if game.rules.unicoloured else game.trump
        choices = _candidates(legal, trump)
        deals = self._deals(game, seat, len(choices))
        bids = [b if b is not None else -1 for b in shown]  # -1: no bid to make (V6)
        best, best_score = choices[0], None
        for card in choices:
            total = 0
            for hands in deals:
                hands = [h[:] for h in hands]
                hands[seat] = list(game.hands[seat])
                hands[seat].remove(card)
                trick = [*game.trick, (seat, card)]
                won = _play_out(game, hands, bids, trick, game.leader, list(game.won))
                total += _score(game, bid, won[seat])
            if best_score is None or total > best_score:
                best, best_score = card, total
        return best


LEVELS = ("easy", "normal", "strong")


def bot_for(level: str) -> EasyBot | Bot | StrongBot:
    """The bot of a level: "easy", "normal" or "strong"."""
    if level == "easy":
        return EasyBot()
    if level == "strong":
        return StrongBot()
    if level == "normal":
        return Bot()
    raise ValueError(f"Unknown bot level {level!r}: use easy, normal or strong.")
