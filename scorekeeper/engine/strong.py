"""Bot levels beyond the everyday bot: an easy one that bids roughly and plays any legal
card, and a strong one that looks ahead.

The strong bot counts the cards (the round's tricks are on the table for everyone),
notes who showed out of a suit, and for each choice deals the cards it has not seen to
the others many times over, consistently with what it knows, and plays the round out
with a quick policy for every seat: it bids and plays what scores best on average, the
choices that do worst dropped round by round so that the deals go to the best ones.
Once its bid is made, or its sure winners (its Wizards and top trumps when no Wizard is
left unseen) will make it, it loses every trick it can, leads no card that could take
one too many and keeps its sure winners for later. It reads only what its seat may see;
its random choices are seeded from that alone, so the same view always gives the same
move. Where it can't reason from the table (the foresight round, a unicoloured game,
bids it may not see, the saboteur dealer) it plays as the everyday bot.
"""

from __future__ import annotations

import itertools
import random
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from .bots import Bot, _foresight_round, _hold_chance, _shown_bid
from .cards import Card, Suit, full_deck
from .game import Game
from .rules import Bidding
from .tricks import decide

# Card plays simulated for one decision (bids and cards alike); the first round of
# halving deals at least MIN_DEALS hands, all rounds together at most MAX_DEALS.
BUDGET = 7200
MIN_DEALS = 6
MAX_DEALS = 240


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


def _led(cards: Sequence[Card]) -> Suit | None:
    for card in cards:
        if not card.is_jester:
            return card.suit
    return None


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


# The look-ahead plays with card codes (0–51 the numbers, suit by suit in rank order,
# 52 the Wizard, 53 the Jester): a round is played out some hundred thousand times a game.
WIZARD, JESTER = 52, 53
_SUITS = list(Suit)


def _codes(cards: Sequence[Card]) -> list[int]:
    return [c.code for c in cards]


def _deal(
    rng: random.Random, pool: list[int], sizes: list[int], voids: list[set[int]], seat: int
) -> list[list[int]] | None:
    """The unseen cards (codes) dealt to the other seats as their hand sizes and voids
    (suit indices) allow; ``None`` when the shuffle leaves a seat too few cards."""
    left = sorted(pool, key=lambda _: rng.random())  # a shuffle, quicker
    hands: list[list[int]] = [[] for _ in sizes]
    if not any(voids):
        start = 0
        for s in range(len(sizes)):
            if s != seat:
                hands[s] = left[start : start + sizes[s]]
                start += sizes[s]
        return hands
    order = sorted((s for s in range(len(sizes)) if s != seat), key=lambda s: -len(voids[s]))
    for s in order:
        void = voids[s]
        fits = [c for c in left if c >= WIZARD or c // 13 not in void] if void else left
        if len(fits) < sizes[s]:
            return None
        hands[s] = fits[: sizes[s]]
        for code in hands[s]:  # one copy each (the four Wizards share one code)
            left.remove(code)
    return hands


def _strengths(trump: Suit | None) -> list[int]:
    """Each code's sort key: Jester lowest, then the plain ranks, the trumps, the Wizard."""
    keys = [code % 13 + 1 for code in range(52)] + [100, -1]
    if trump is not None:
        first = _SUITS.index(trump) * 13
        for code in range(first, first + 13):
            keys[code] += 50
    return keys


def _rough_bid(hand: Sequence[int], trump: int) -> int:
    """A quick bid for a seat whose bid is still to come in a look-ahead."""
    worth = 0.0
    for code in hand:
        if code == WIZARD:
            worth += 0.95
        elif code == JESTER:
            continue
        elif code // 13 == trump:
            worth += 0.25 + 0.05 * (code % 13 + 1)
        elif code % 13 + 1 >= 12:
            worth += 0.45
    return round(worth)


def _play_out(
    hands: list[list[int]],
    bids: list[int],
    trick: list[tuple[int, int]],
    leader: int,
    won: list[int],
    me: int,
    trump: int,
    keys: list[int],
) -> int:
    """Play the round to its end with the quick policy for every seat (``trump`` the
    trump's suit index, -1 for none): the tricks ``me`` took.

    The policy wins while a trick is needed and ducks otherwise. ``me`` counts its
    Wizards as tricks in hand: while they cover what it still needs, its other cards
    duck, and when every card it may play takes the trick it spends a Wizard (that
    trick would come anyway), else its most dangerous card."""
    n = len(hands)
    won = won[:]
    # The trick so far: the cards played, the suit to follow (-1 none yet, -2 a Wizard
    # led), the winning card (-1 none: only Jesters) and its seat. The cards of ``trick``
    # come first, as they lie.
    given = [c for _, c in reversed(trick)]
    count, led, top, best, wizard = 0, -1, -1, leader, False
    seat = leader
    while True:
        if count == n:
            if top == -1:  # R14: only Jesters, the first one wins
                best = leader
            won[best] += 1
            if not hands[best]:
                return won[me]
            seat = leader = best
            count, led, top, wizard = 0, -1, -1, False
        hand = hands[seat]
        if given:
            card = given.pop()
        elif len(hand) == 1:
            card = hand.pop()
        else:
            legal = hand
            if led >= 0:  # R10, R11 (a Wizard's or Jester's code // 13 is 4)
                follow = [c for c in hand if c // 13 in (led, 4)]
                if len(follow) < len(hand) and follow and min(follow) < WIZARD:
                    legal = follow
            if len(legal) == 1:
                card = legal[0]
            else:
                need = bids[seat] - won[seat]
                wizards = legal.count(WIZARD) if seat == me else 0
                short = need > (hand.count(WIZARD) if seat == me else 0)
                if count == 0:
                    if short:
                        card = max(legal, key=keys.__getitem__)
                    else:
                        plain = [c for c in legal if c != WIZARD] or legal
                        card = min(plain, key=keys.__getitem__)
                else:
                    if wizard:
                        winners = []
                    elif top == -1:
                        winners = [c for c in legal if c != JESTER]
                    else:
                        ts = top // 13
                        winners = [
                            c
                            for c in legal
                            if c == WIZARD
                            or (c < WIZARD and c // 13 == ts and c > top)
                            or (c < WIZARD and c // 13 == trump and ts != trump)
                        ]
                    if short:
                        if not winners:
                            card = min(legal, key=keys.__getitem__)
                        elif count == n - 1:
                            card = min(winners, key=keys.__getitem__)
                        else:
                            card = max(winners, key=keys.__getitem__)
                    else:
                        losers = [c for c in legal if c not in winners] if winners else legal
                        if losers:
                            card = max(losers, key=keys.__getitem__)
                        elif wizards:
                            card = WIZARD
                        elif seat == me:
                            card = max(legal, key=keys.__getitem__)
                        else:
                            card = min(legal, key=keys.__getitem__)
            hand.remove(card)
        count += 1
        if not wizard:  # R13: the first Wizard wins, else the highest trump or led card
            if card == WIZARD:
                wizard, top, best = True, card, seat
                if led == -1:
                    led = -2
            elif card != JESTER:
                if led == -1:
                    led = card // 13
                if (
                    top == -1
                    or (card // 13 == top // 13 and card > top)
                    or (card // 13 == trump and top // 13 != trump)
                ):
                    top, best = card, seat
        seat = (seat + 1) % n


def _score(game: Game, bid: int, took: int) -> int:
    scoring = game.rules.scoring
    if bid == took:
        return scoring.exact_bonus + scoring.per_trick * bid
    return -scoring.per_miss * abs(bid - took)


def _candidates(legal: list[Card], winning: set[Card]) -> list[Card]:
    """The cards worth looking ahead with: per suit its lowest and highest, and the
    highest that loses the trick on the table and the lowest that takes it; a Wizard and
    a Jester (the cards between rarely play differently)."""
    if len(legal) <= 4:
        return legal
    picked: list[Card] = []
    for suit in Suit:
        cards = sorted((c for c in legal if c.suit is suit), key=lambda c: c.rank or 0)
        losing = [c for c in cards if c not in winning]
        taking = [c for c in cards if c in winning]
        for card in cards[:1] + losing[-1:] + taking[:1] + cards[-1:]:
            if card not in picked:
                picked.append(card)
    picked += [c for c in legal if c.is_wizard][:1] + [c for c in legal if c.is_jester][:1]
    return picked


def _rank(card: Card) -> int:
    return card.rank or 0


def _sure_winners(game: Game, seat: int, unseen: Sequence[Card]) -> list[Card]:
    """The cards in ``seat``'s hand that take whichever later trick they are played to:
    once no Wizard is left unseen, its Wizards and the trumps above every unseen trump
    (such a trump is played only when trumps are led or its player is void)."""
    if any(c.is_wizard for c in unseen):
        return []
    hand = game.hands[seat]
    trump = None if game.rules.unicoloured else game.trump
    top = max((c.rank or 0 for c in unseen if trump is not None and c.suit is trump), default=0)
    return [c for c in hand if c.is_wizard or (c.suit is trump and (c.rank or 0) > top)]


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

    def _deals(self, game: Game, seat: int) -> Iterator[list[list[int]]]:
        """Hands for the other seats (as card codes), one deal after another."""
        rng = random.Random(_seed(game, seat))
        pool = _codes(_unseen(game, seat))
        sizes = [len(h) for h in game.hands]
        voids = [{_SUITS.index(suit) for suit in v} for v in _voids(game)]
        while True:
            hands = _deal(rng, pool, sizes, voids, seat)
            if hands is None:
                hands = _deal(rng, pool, sizes, [set() for _ in sizes], seat)
            if hands is not None:
                yield hands

    def _pick(
        self, game: Game, seat: int, choices: int, score: Callable[[int, list[list[int]]], int]
    ) -> int:
        """The index of the best of ``choices`` by ``score(choice, deal)`` summed over
        deals, by rounds of halving: each round deals more hands and drops the worse
        half, so the budget goes to telling the best choices apart."""
        deals = self._deals(game, seat)
        steps = max(1, sum(len(h) for h in game.hands))
        survivors = list(range(choices))
        totals = [0] * choices
        rounds = max(1, (choices - 1).bit_length())
        dealt = 0
        for number in range(rounds):
            more = self.budget // rounds // (steps * len(survivors))
            if number == 0:
                more = max(MIN_DEALS, more)
            more = max(1, min(more, MAX_DEALS - dealt))
            for deal in itertools.islice(deals, more):
                for i in survivors:
                    totals[i] += score(i, deal)
            dealt += more
            if number < rounds - 1:
                survivors.sort(key=lambda i: (-totals[i], i))
                survivors = sorted(survivors[: (len(survivors) + 1) // 2])
        return max(survivors, key=lambda i: (totals[i], -i))

    def bid(self, game: Game, seat: int) -> int:
        # Chosen among the bids the seat sees as allowed (V3, V4: blind to the others').
        seen = game.allowed_bids_seen(seat)
        expected = self.base.expected_tricks(game, seat)
        if not self._reasoned(game) or len(seen) == 1:
            return _blind(seen, game, seat, expected)
        near = sorted(seen, key=lambda b: (abs(b - expected), b))[:3]
        trump = _SUITS.index(game.trump) if game.trump is not None else -1
        keys = _strengths(game.trump)
        mine = _codes(game.hands[seat])
        shown = [_shown_bid(game, seat, s) for s in range(game.players)]

        def score(i: int, deal: list[list[int]]) -> int:
            bids = [
                near[i] if s == seat else b if b is not None else _rough_bid(deal[s], trump)
                for s, b in enumerate(shown)
            ]
            hands = [mine[:] if s == seat else h[:] for s, h in enumerate(deal)]
            took = _play_out(hands, bids, [], game.leader, [0] * game.players, seat, trump, keys)
            return _score(game, near[i], took)

        best = near[self._pick(game, seat, len(near), score)]
        ranked = [best, *sorted((b for b in near if b != best), key=lambda b: (abs(b - best), b))]
        return _blind(ranked, game, seat, -1)

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
        cards = [c for _, c in game.trick]
        winning = {c for c in legal if decide([*cards, c], game.trump, False).winner == len(cards)}
        unseen = _unseen(game, seat)
        sure = _sure_winners(game, seat, unseen)
        losing = [c for c in legal if c not in winning]
        wizards = sum(1 for c in legal if c.is_wizard)
        if cards and losing and game.won[seat] + len(sure) >= bid:
            # The bid is made, or its sure winners will make it: every other trick it
            # takes is one too many, so it loses this one while it can.
            legal = losing
            if len(legal) == 1:
                return legal[0]
        elif not cards and game.won[seat] + max(wizards, len(sure)) >= bid:
            # Its Wizards (or sure winners) take what it still needs. It leads no high
            # card that could take a trick too many, and keeps its sure winners for
            # later (led now, they would leave it to lead again).
            keep = sure if game.won[seat] + len(sure) >= bid else []
            low = [
                c
                for c in legal
                if c not in keep
                and (
                    c.suit is None
                    or (
                        c is min((d for d in legal if d.suit is c.suit), key=_rank)
                        and _hold_chance(game, seat, c, unseen) < 0.5
                    )
                )
            ]
            legal = low or legal
        choices = _candidates(legal, winning)
        if len(choices) == 1:
            return choices[0]
        bids = [b if b is not None else -1 for b in shown]  # -1: no bid to make (V6)
        trump = _SUITS.index(game.trump) if game.trump is not None else -1
        keys = _strengths(game.trump)
        trick = [(s, c.code) for s, c in game.trick]
        rests = []
        for card in choices:
            rest = _codes(game.hands[seat])
            rest.remove(card.code)
            rests.append(rest)

        def score(i: int, deal: list[list[int]]) -> int:
            hands = [rests[i][:] if s == seat else h[:] for s, h in enumerate(deal)]
            played = [*trick, (seat, choices[i].code)]
            took = _play_out(hands, bids, played, game.leader, game.won, seat, trump, keys)
            return _score(game, bid, took)

        return choices[self._pick(game, seat, len(choices), score)]


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
