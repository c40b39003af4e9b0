"""A whole digital game as a state machine (R4–R16, V1–V9).

deal → (the dealer chooses trump when a Wizard is turned up) → bids → tricks → scores →
next deal, to the end of the plan. Every action checks first and changes nothing when it
raises; the state serialises to JSON-ready data and back exactly, and can be shown to
one seat without revealing the other hands.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum
from operator import itemgetter
from typing import Any

from . import bids as bidrules
from .cards import Card, Suit, shuffled_deck, suit_pile
from .entry import RoundDraft
from .errors import IllegalBid, IllegalPlay, OutOfTurn, RuleError, WrongPhase
from .pad import RoundEntry, TrumpCall, scored_round
from .plan import first_lead, plan_for
from .rules import Bidding, DealerRule, RuleSet
from .scoring import winners
from .sight import SEALED, SeenBids, Viewer, seen_bids
from .tricks import (
    TrickResult,
    WinReason,
    decide,
    illegal_play,
    led_suit,
    must_follow,
)

STATE_VERSION = 1

_card = itemgetter(1)  # the card of a (seat, card) pair on the table


class Phase(Enum):
    """What the game waits for."""

    DEAL = "deal"  # the next round is to be dealt
    CHOOSE_TRUMP = "choose_trump"  # a Wizard was turned up: the dealer picks a suit (R7)
    BIDDING = "bidding"
    PLAYING = "playing"
    GAME_OVER = "game_over"


# The phases the hot paths test, as module globals: quicker to reach than Phase.PLAYING.
_PLAYING = Phase.PLAYING
_BIDDING = Phase.BIDDING


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: who led, the cards in play order with their seats, the result."""

    leader: int
    cards: tuple[tuple[int, Card], ...]
    winner: int
    reason: WinReason

    def to_dict(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "cards": [[seat, str(card)] for seat, card in self.cards],
            "winner": self.winner,
            "reason": self.reason.value,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Trick:
        return cls(
            data["leader"],
            tuple((seat, Card.parse(text)) for seat, text in data["cards"]),
            data["winner"],
            WinReason(data["reason"]),
        )


class Game:
    """The state of a digital game. Create with :meth:`new`, then call :meth:`deal`.

    The attributes are the state itself (:meth:`to_dict` stores them) and may be read
    freely; tests may also set them to stage a position. The rule set and the number of
    players stay fixed for the life of a game: a few things derived from them are worked
    out once here, for the hot paths (a random game makes some 550 moves, and a benchmark
    plays a thousand games a second).
    """

    _last_trick: Trick | None
    _draft: tuple[tuple[int, tuple[int | None, ...], tuple[int, ...]], RoundDraft] | None = None
    _last_trick_parts: tuple[int, tuple[tuple[int, Card], ...], int, WinReason] | None

    def __init__(self, rules: RuleSet, players: int, first_dealer: int) -> None:
        self.rules = rules
        self.players = players
        self.first_dealer = first_dealer
        self.plan = plan_for(rules, players)
        # Seats in bidding order (R6; V6 without the dealer), by dealer.
        self._bidding_order = [tuple(bidrules.bidders(rules, d, players)) for d in range(players)]
        self._open_bidding = rules.bidding is Bidding.OPEN
        # Without a dealer rule (V1, V2) every bid from 0 to the maximum is allowed.
        self._any_bid = rules.dealer_rule is DealerRule.NONE
        # One more than the highest bid (R9, V7), by cards in hand.
        self._bid_limit = [bidrules.max_bid(rules, n) + 1 for n in range(max(self.plan) + 1)]
        self._unicoloured = rules.unicoloured
        self.round_number = 0
        self.phase = Phase.DEAL
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.turned: Card | None = None
        self.trump: Suit | None = None
        self.trump_chosen = False
        self.bids: list[int | None] = [None] * players
        self.trick: list[tuple[int, Card]] = []
        self.leader = 0
        self.won = [0] * players
        self.last_trick = None
        # The round's complete tricks so far, each (seat, card) in play order: seen by
        # everyone at the table (a strong bot counts the cards with them).
        self.tricks_done: list[tuple[tuple[int, Card], ...]] = []
        self.history: list[RoundEntry] = []
        self.totals = [0] * players

    @classmethod
    def new(cls, rules: RuleSet, players: int, first_dealer: int = 0) -> Game:
        """A game before its first deal.

        :raises ValueError: for a player count the rule set can't take or a bad dealer seat.
        """
        rules.check_players(players)
        if (
            isinstance(first_dealer, bool)
            or not isinstance(first_dealer, int)
            or not (0 <= first_dealer < players)
        ):
            raise ValueError(f"The first dealer must be a seat from 0 to {players - 1}.")
        return cls(rules, players, first_dealer)

    # -- questions -----------------------------------------------------------------------

    @property
    def cards(self) -> int:
        """Cards per player in the current round (0 before the first deal)."""
        return self.plan[self.round_number - 1] if self.round_number else 0

    @property
    def dealer(self) -> int:
        """The seat that deals the current round (the first round's before the first deal).

        The same as :func:`dealer_of_round` (R5), without its checks: :meth:`new` made them.
        """
        return (self.first_dealer + (self.round_number or 1) - 1) % self.players

    @property
    def bidders(self) -> list[int]:
        return list(self._bidding_order[self.dealer])

    def _next_bidder(self) -> int | None:
        """The first seat in bidding order that has not bid (the one to bid in open
        bidding), or ``None``."""
        bids = self.bids
        dealer = (self.first_dealer + (self.round_number or 1) - 1) % self.players  # .dealer
        for seat in self._bidding_order[dealer]:
            if bids[seat] is None:
                return seat
        return None

    @property
    def turn(self) -> int | None:
        """The seat that must act now, or ``None`` when any of several may (hidden or
        secret bids) or nobody (between rounds, game over)."""
        phase = self.phase
        if phase is _PLAYING:
            return (self.leader + len(self.trick)) % self.players
        if phase is _BIDDING:
            return self._next_bidder() if self._open_bidding else None
        if phase is Phase.CHOOSE_TRUMP:
            return self.dealer
        return None

    def round_draft(self) -> RoundDraft:
        """The bids of the round being dealt as the round model has them: every question
        and every check of a bid goes to it (the seats bid for themselves). Kept while
        the round's bids and the totals stay as they are (a bid asks it several times)."""
        key = (self.round_number, tuple(self.bids), tuple(self.totals))
        kept = self._draft
        if kept is not None and kept[0] == key:
            return kept[1]
        draft = RoundDraft(
            self.rules,
            self.round_number,
            self.cards,
            self.dealer,
            key[2],
            key[1],
            (None,) * self.players,
            None,
            (),
            True,
        )
        self._draft = (key, draft)
        return draft

    def waiting_for(self) -> list[int]:
        """Every seat that may act now."""
        if self.phase is _BIDDING:
            if self._open_bidding:
                seat = self._next_bidder()
                return [] if seat is None else [seat]
            return list(self.round_draft().waiting)
        turn = self.turn
        return [] if turn is None else [turn]

    def allowed_bids(self, seat: int) -> list[int]:
        """The bids ``seat`` could make now (empty when it is not theirs to bid)."""
        if self.phase is not _BIDDING:
            return []
        if self._any_bid:
            # Nothing is forbidden without a dealer rule: every bid to the top, for the
            # seat asked (the round model's answer, without building it).
            return list(range(self._bid_limit[self.cards])) if seat in self.waiting_for() else []
        return self.round_draft().allowed(seat)

    def allowed_bids_seen(self, seat: int) -> list[int]:
        """The bids ``seat`` may make as far as it can tell: under hidden or secret bids
        (V3, V4) the dealer rule can't be applied to bids the seat doesn't see, so the
        last bidder bids blind and is asked to change only if the bid makes the total
        (:meth:`bid` refuses it then). With open bids, :meth:`allowed_bids`."""
        if self.phase is not _BIDDING:
            return []
        if self._any_bid:
            return self.allowed_bids(seat)
        return [o.value for o in self.round_draft().bid_options(seat) if o.allowed]

    def bid_refusals_seen(self, seat: int) -> dict[int, IllegalBid]:
        """Why each bid from 0 to the cards that ``seat`` may not make now is refused, as
        far as the seat can tell (the bids it sees: V3, V4); empty when it is not theirs
        to bid."""
        if self.phase is not _BIDDING:
            return {}
        options = self.round_draft().bid_options(seat)
        return {o.value: o.refusal for o in options if isinstance(o.refusal, IllegalBid)}

    def legal_cards(self, seat: int) -> list[Card]:
        """The cards ``seat`` may play now (empty when it is not their turn), in hand order.

        Written out rather than calling :func:`~.tricks.legal_plays`, which checks its
        arguments; a game's hands and trick hold only cards. Same rules: R10–R12.
        """
        trick = self.trick
        if self.phase is not _PLAYING or seat != (self.leader + len(trick)) % self.players:
            return []
        hand = self.hands[seat]
        if not trick:
            return hand.copy()  # the lead: anything goes
        # R12: the first card sets the suit (a Wizard, suit None, frees the trick), or if it
        # is a Jester, the first card that is not.
        first = trick[0][1]
        led = led_suit(map(_card, trick)) if first.is_jester else first.suit
        if led is not None:
            for card in hand:
                if card.suit is led:
                    # R10 must follow; R11 a Wizard or Jester may be played at any time.
                    # (A loop: for a few cards it beats a comprehension, a function call.)
                    legal = []
                    for card in hand:
                        if card.suit is led or card.suit is None:
                            legal.append(card)
                    return legal
        return hand.copy()

    @property
    def finished(self) -> bool:
        return self.phase is Phase.GAME_OVER

    def winners(self) -> list[int]:
        """Seats of the winner(s) once the game is over (R17), else ``[]``."""
        if not self.finished:
            return []
        bid_totals = [sum(e.bids[s] or 0 for e in self.history) for s in range(self.players)]
        return winners(self.totals, self.rules.tie_break, bid_totals)

    # -- actions -------------------------------------------------------------------------

    def _check_seat(self, seat: object) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise RuleError(
                f"There is no seat {seat!r} at this table.",
                code="unknown_seat",
                params={"seat": repr(seat)},
            )
        return seat

    def _need(self, phase: Phase, doing: str) -> None:
        if self.phase is not phase:
            raise WrongPhase(
                f"You can't {doing} now: {_PHASE_WORDS[self.phase]}.",
                params={"doing": doing, "phase": self.phase.value},
            )

    def deal(self, rng: random.Random) -> None:
        """Deal the next round (R4, R7, R8; V9) with ``rng``: a seeded ``random.Random``
        for tests and replays, ``secrets.SystemRandom()`` for real play.

        :raises WrongPhase: unless the game waits for a deal.
        """
        self._need(Phase.DEAL, "deal")
        number = self.round_number + 1
        cards = self.plan[number - 1]
        hands: list[list[Card]]
        turned: Card | None = None
        if self.rules.unicoloured:
            # V9: each player draws from their own shuffled pile of one colour.
            hands = []
            for seat in range(self.players):
                pile = suit_pile(list(Suit)[seat])
                rng.shuffle(pile)
                hands.append(pile[:cards])
        else:
            deck = shuffled_deck(rng)
            hands = [deck[i * cards : (i + 1) * cards] for i in range(self.players)]
            stock = deck[self.players * cards :]
            turned = stock[0] if stock else None  # R8: no stock, no trump
        self.round_number = number
        self.hands = hands
        self.turned = turned
        self.trump = turned.suit if turned is not None else None
        self.trump_chosen = False
        self.bids = [None] * self.players
        self.trick = []
        self.won = [0] * self.players
        self.last_trick = None
        self.tricks_done = []
        self.leader = first_lead(self.dealer, self.players)
        if turned is not None and turned.is_wizard:
            self.phase = Phase.CHOOSE_TRUMP
        else:
            self.phase = Phase.BIDDING

    def choose_trump(self, seat: int, suit: Suit) -> None:
        """The dealer names trump after a Wizard is turned up (R7; never "no trump").

        :raises WrongPhase: when no Wizard waits for a choice.
        :raises OutOfTurn: when ``seat`` is not the dealer.
        """
        seat = self._check_seat(seat)
        self._need(Phase.CHOOSE_TRUMP, "choose trump")
        if seat != self.dealer:
            raise OutOfTurn(
                "Only the dealer chooses trump when a Wizard is turned up.",
                message_id="dealer_chooses_trump",
            )
        if not isinstance(suit, Suit):
            raise RuleError("The dealer must choose one of the four suits.", code="bad_suit")
        self.trump = suit
        self.trump_chosen = True
        self.phase = Phase.BIDDING

    def bid(self, seat: int, bid: int) -> None:
        """``seat`` bids ``bid`` tricks (R9; V1–V4, V6, V7).

        :raises WrongPhase: outside bidding.
        :raises OutOfTurn: when it is another seat's turn to bid, or the seat has bid.
        :raises IllegalBid: for a bid out of range or forbidden, saying which are allowed.

        The round model (:meth:`round_draft`) checks the bid. The common case goes first
        without building it: a whole number in range from the seat whose turn it is, when
        no dealer rule can forbid it (a test holds it to the model's answer).
        """
        bids = self.bids
        if (
            self._any_bid
            and self.phase is _BIDDING
            and type(seat) is int
            and type(bid) is int
            and 0 <= bid < self._bid_limit[self.cards]
        ):
            order = self._bidding_order[self.dealer]
            if self._open_bidding:
                if seat == self._next_bidder():
                    bids[seat] = bid
                    if seat == order[-1]:  # the others bid before, in order
                        self.phase = _PLAYING
                    return
            elif seat in order and bids[seat] is None:
                bids[seat] = bid
                if all(bids[s] is not None for s in order):
                    self.phase = _PLAYING
                return
        seat = self._check_seat(seat)
        self._need(Phase.BIDDING, "bid")
        draft = self.round_draft().bid(seat, bid)
        self.bids = list(draft.bids)
        self._draft = ((self.round_number, draft.bids, draft.totals_before), draft)
        if draft.bids_in:
            self.phase = Phase.PLAYING

    def play(self, seat: int, card: Card) -> TrickResult | None:
        """``seat`` plays ``card`` (R10–R15; V9). Returns the trick's result when this card
        completes it, else ``None``.

        :raises WrongPhase: outside play.
        :raises OutOfTurn: when it is another seat's turn.
        :raises IllegalPlay: for a card not in hand or one that must not be played.
        """
        trick = self.trick
        # The checks in the order that costs least when all is well: cards are shared
        # instances, so ``card in hand`` is an identity test done in C. Whenever something
        # is wrong, _refuse_play makes every check again, in order, and says why.
        if (
            self.phase is not _PLAYING
            or type(seat) is not int
            or seat != (self.leader + len(trick)) % self.players
            or type(card) is not Card
            or card not in (hand := self.hands[seat])
        ):
            self._refuse_play(seat, card)
            hand = self.hands[seat]
        suit = card.suit
        if suit is not None and trick:
            # R10: a number card must follow the led suit when the hand holds one; R11: a
            # Wizard or a Jester (suit None) may always be played. R12: the first card
            # sets the suit (a Wizard, suit None, frees the trick), or if it is a Jester,
            # the first card that is not.
            first = trick[0][1]
            led = led_suit(map(_card, trick)) if first.is_jester else first.suit
            if led is not suit and led is not None:
                for c in hand:
                    if c.suit is led:
                        raise must_follow(led)
        hand.remove(card)
        trick.append((seat, card))
        if len(trick) < self.players:
            return None
        result = decide(map(_card, trick), self.trump, self._unicoloured)
        winner = trick[result.winner][0]
        self.won[winner] += 1
        # The Trick is built only when someone asks for it (see last_trick).
        done = tuple(trick)
        self._last_trick_parts = (self.leader, done, winner, result.reason)
        self.tricks_done.append(done)
        self.trick = []
        self.leader = winner  # R15
        if not any(self.hands):
            self._finish_round()
        return result

    def _refuse_play(self, seat: object, card: object) -> None:
        """Check a play fully, in order, raising the first error; return if it is legal."""
        seat = self._check_seat(seat)
        self._need(Phase.PLAYING, "play a card")
        turn = (self.leader + len(self.trick)) % self.players
        if seat != turn:
            raise OutOfTurn(
                f"It is Player {turn + 1}'s turn to play.",
                message_id="turn_to_play",
                params={"seat": turn},
            )
        if not isinstance(card, Card):
            raise IllegalPlay(
                f"{card!r} is not a card.", message_id="not_a_card", params={"card": repr(card)}
            )
        refusal = illegal_play(card, self.hands[seat], list(map(_card, self.trick)))
        if refusal is not None:
            raise refusal

    @property
    def last_trick(self) -> Trick | None:
        """The trick finished last in this round (``None`` before the first one)."""
        # A frozen dataclass costs about a microsecond to build and most are never read:
        # play() keeps the parts, and the Trick is made on the first read.
        parts = self._last_trick_parts
        if parts is not None:
            self._last_trick = Trick(*parts)
            self._last_trick_parts = None
        return self._last_trick

    @last_trick.setter
    def last_trick(self, trick: Trick | None) -> None:
        self._last_trick = trick
        self._last_trick_parts = None

    def trump_call(self) -> TrumpCall:
        """The round's trump as the pad records it: the turned-up card's suit, or the
        dealer's choice under a turned-up Wizard (R7); none without a stock (R8, V9)."""
        return _trump_call(self.trump if self.turned is not None else None, self.trump_chosen)

    def _finish_round(self) -> None:
        """The round played is scored as the pad scores it (:func:`scored_round`)."""
        trump = self.trump_call()
        entry = RoundEntry(tuple(self.bids), tuple(self.won), trump)
        scored = scored_round(
            self.rules, self.round_number, self.cards, self.dealer, entry, tuple(self.totals)
        )
        self.history.append(entry)
        self.totals = list(scored.totals)
        self.phase = Phase.GAME_OVER if self.round_number == len(self.plan) else Phase.DEAL

    # -- serialisation -------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (every hand included: for storage only)."""
        return {
            "version": STATE_VERSION,
            "rules": self.rules.to_dict(),
            "players": self.players,
            "first_dealer": self.first_dealer,
            "round": self.round_number,
            "phase": self.phase.value,
            "hands": [[str(c) for c in hand] for hand in self.hands],
            "turned": None if self.turned is None else str(self.turned),
            "trump": None if self.trump is None else self.trump.colour,
            "trump_chosen": self.trump_chosen,
            "bids": list(self.bids),
            "trick": [[seat, str(card)] for seat, card in self.trick],
            "leader": self.leader,
            "won": list(self.won),
            "last_trick": None if self.last_trick is None else self.last_trick.to_dict(),
            "tricks_done": [[[seat, str(card)] for seat, card in t] for t in self.tricks_done],
            "history": [
                {
                    "bids": list(e.bids),
                    "tricks": list(e.tricks or ()),
                    "trump": None if e.trump is None else str(e.trump),
                }
                for e in self.history
            ],
            "totals": list(self.totals),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """Rebuild a state stored with :meth:`to_dict`.

        :raises ValueError: for data of another version or a broken shape.
        """
        try:
            if data.get("version") != STATE_VERSION:
                raise ValueError(f"Unknown game state version {data.get('version')!r}.")
            game = cls.new(RuleSet.from_dict(data["rules"]), data["players"], data["first_dealer"])
            game.round_number = data["round"]
            game.phase = Phase(data["phase"])
            game.hands = [[Card.parse(t) for t in hand] for hand in data["hands"]]
            game.turned = None if data["turned"] is None else Card.parse(data["turned"])
            game.trump = None if data["trump"] is None else Suit.from_name(data["trump"])
            game.trump_chosen = bool(data["trump_chosen"])
            game.bids = list(data["bids"])
            game.trick = [(seat, Card.parse(t)) for seat, t in data["trick"]]
            game.leader = data["leader"]
            game.won = list(data["won"])
            game.last_trick = (
                None if data["last_trick"] is None else Trick.from_dict(data["last_trick"])
            )
            # States stored before it was kept: the round's earlier tricks are unknown.
            game.tricks_done = [
                tuple((seat, Card.parse(t)) for seat, t in trick)
                for trick in data.get("tricks_done", [])
            ]
            game.history = [
                RoundEntry(
                    tuple(e["bids"]),
                    tuple(e["tricks"]),
                    None if e["trump"] is None else TrumpCall.parse(e["trump"]),
                )
                for e in data["history"]
            ]
            game.totals = list(data["totals"])
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"Broken game state: {exc!r}") from None
        return game

    # -- what one seat may see -----------------------------------------------------------

    def seen_bids(self, seat: int | None) -> SeenBids:
        """The round's bids as ``seat`` (``None``: a spectator) may see them (V3, V4)."""
        played = self.phase is Phase.DEAL or self.phase is Phase.GAME_OVER
        return seen_bids(
            self.rules, self.bids, dealer=self.dealer, played=played, viewer=Viewer.at_seat(seat)
        )

    def bid_seen_by(self, seat: int | None, other: int) -> bool:
        """Whether ``seat`` (``None``: a spectator) may see ``other``'s bid (V3, V4: see
        :func:`bids_seen`)."""
        played = self.phase is Phase.DEAL or self.phase is Phase.GAME_OVER
        return other == seat or bidrules.bids_seen(
            self.rules, self.bids, self.bidders, played=played
        )

    def view(self, seat: int | None) -> dict[str, Any]:
        """The state as seen from ``seat`` (``None``: a spectator who sees no hand).

        Other hands are never included, only their sizes; V5 turns this round in round 1
        (every hand but one's own). Bids follow V3 (hidden until all are in) and V4
        (secret until the round is played).
        """
        if seat is not None:
            seat = self._check_seat(seat)
        foresight = (
            self.rules.foresight
            and self.round_number == 1
            and self.phase
            in (
                Phase.CHOOSE_TRUMP,
                Phase.BIDDING,
                Phase.PLAYING,
            )
        )
        hands: list[list[str] | None] = []
        for s, hand in enumerate(self.hands):
            visible = seat is not None and ((s != seat) if foresight else (s == seat))
            hands.append([str(c) for c in hand] if visible else None)
        bids = ["hidden" if b is SEALED else b for b in self.seen_bids(seat)]
        history = self.to_dict()["history"]
        return {
            "round": self.round_number,
            "cards": self.cards,
            "phase": self.phase.value,
            "dealer": self.dealer,
            "turn": self.turn,
            "waiting_for": self.waiting_for(),
            "seat": seat,
            "hands": hands,
            "hand_sizes": [len(h) for h in self.hands],
            "turned": None if self.turned is None else str(self.turned),
            "trump": None if self.trump is None else self.trump.colour,
            "trump_chosen": self.trump_chosen,
            "bids": bids,
            "trick": [[s, str(c)] for s, c in self.trick],
            "leader": self.leader,
            "won": list(self.won),
            "last_trick": None if self.last_trick is None else self.last_trick.to_dict(),
            "history": history,
            "totals": list(self.totals),
            "allowed_bids": [] if seat is None else self.allowed_bids_seen(seat),
            # In the foresight round one's own cards stay unseen, so do the playable ones.
            "legal_cards": []
            if seat is None or foresight
            else [str(c) for c in self.legal_cards(seat)],
            "winners": self.winners(),
        }


# TrumpCall is a frozen value with only nine different ones: each is made once and shared
# (by the suit's letter: a str hashes in C, an Enum member in Python).
_TRUMP_CALLS: dict[tuple[str | None, bool], TrumpCall] = {}


def _trump_call(suit: Suit | None, wizard_turned: bool) -> TrumpCall:
    key = (None if suit is None else suit._value_, wizard_turned)
    call = _TRUMP_CALLS.get(key)
    if call is None:
        call = _TRUMP_CALLS[key] = TrumpCall(suit, wizard_turned=wizard_turned)
    return call


_PHASE_WORDS = {
    Phase.DEAL: "the next round has to be dealt first",
    Phase.CHOOSE_TRUMP: "the dealer is choosing trump",
    Phase.BIDDING: "the players are bidding",
    Phase.PLAYING: "the cards are being played",
    Phase.GAME_OVER: "the game is over",
}
