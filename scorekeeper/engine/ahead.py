"""The rest of a game as data: what a score pad needs to go on round after round while it
can't reach the server, worked out by the engine's own queries and commands.

For each round from the open one to the end of the plan: its cards, dealer, bidding order
and leader, the top bid, when the dealer rule holds (:class:`DealerRuleHolds`) and the
bid it refuses at each step when it does (:class:`BidSteps`), and what the trick counts
do at each step (:class:`CountSteps`). For the whole game: the score of every bid and
trick count up to the most cards dealt (R16, V10), what a seat without a bid scores (V6),
and whether "the rest made their bids" is offered at all (never for secret bids, V4).
A page looks these up; it knows no rule of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .bids import DealerRuleHolds, bidders, dealer_rule_holds, max_bid
from .entry import RoundDraft
from .pad import RoundEntry, round_scores
from .plan import bidding_order, dealer_of_round, first_lead, plan_for
from .rules import Bidding, RuleSet
from .scoring import score_round
from .steps import BidSteps, CountSteps, _bid_steps, _count_steps


@dataclass(frozen=True)
class RoundAhead:
    """One round of the plan still to be entered, as data."""

    number: int
    cards: int
    dealer: int
    order: tuple[int, ...]  # every seat in bidding order (R6)
    bidders: tuple[int, ...]  # the seats that bid (V6: not a saboteur dealer)
    leader: int
    top: int  # the highest bid (R9, V7)
    holds: DealerRuleHolds  # when the dealer rule holds (V1, V2)
    bid_steps: BidSteps  # the bids it refuses step by step, when it holds
    # With hidden or secret bids (V3, V4), when it holds: the bid refused once it is in
    # (the keys give nothing away; the bid is refused after the fact, as online).
    blind: BidSteps
    count_steps: CountSteps

    def as_data(self) -> dict[str, Any]:
        """A plain value for JSON (short keys: it goes out with the page)."""
        return {
            "n": self.number,
            "cards": self.cards,
            "dealer": self.dealer,
            "order": list(self.order),
            "bidders": list(self.bidders),
            "leader": self.leader,
            "top": self.top,
            "holds": self.holds.value,
            "bids": self.bid_steps.as_data(),
            "blind": self.blind.as_data(),
            "counts": self.count_steps.as_data(),
        }


@dataclass(frozen=True)
class GameAhead:
    """The rounds still to be entered, and how any of them scores."""

    rounds: tuple[RoundAhead, ...]
    scores: tuple[tuple[int, ...], ...]  # scores[bid][tricks], 0 to the most cards
    no_bid: int | None  # what a seat without a bid scores (V6), None when all bid
    rest: bool  # whether "the rest made their bids" may be offered (not with V4)

    def as_data(self) -> dict[str, Any]:
        """A plain value for JSON."""
        return {
            "rounds": [r.as_data() for r in self.rounds],
            "scores": [list(row) for row in self.scores],
            "no_bid": self.no_bid,
            "rest": self.rest,
        }


def game_ahead(rules: RuleSet, players: int, first_dealer: int, from_round: int) -> GameAhead:
    """The rounds ``from_round`` to the end of the plan, as data (see the module).

    :raises ValueError: when the rule set can't be played by ``players``, or for a first
        dealer or round out of range.
    """
    plan = plan_for(rules, players)
    rounds = tuple(
        _round_ahead(rules, players, number, plan[number - 1], first_dealer)
        for number in range(max(1, from_round), len(plan) + 1)
    )
    most = max(plan)
    scores = tuple(
        tuple(score_round(bid, won, rules.scoring) for won in range(most + 1))
        for bid in range(most + 1)
    )
    # A stand-in round of one card: the first bidder bids and takes it, the others none.
    seated = bidders(rules, 0, players)
    bids = tuple(None if s not in seated else (1 if s == seated[0] else 0) for s in range(players))
    tricks = tuple(1 if s == seated[0] else 0 for s in range(players))
    scored = round_scores(rules, 0, RoundEntry(bids, tricks))
    no_bid = next((scored[s] for s in range(players) if s not in seated), None)
    draft = replace(RoundDraft.empty(rules, 1, 1, 0, (0,) * players), bids=bids)
    return GameAhead(rounds, scores, no_bid, draft.rest_as_bid() is not None)


def _round_ahead(
    rules: RuleSet, players: int, number: int, cards: int, first_dealer: int
) -> RoundAhead:
    dealer = dealer_of_round(first_dealer, number, players)
    holds = dealer_rule_holds(rules, number)
    steps = blind = BidSteps(())
    if holds is not DealerRuleHolds.NEVER:
        # Totals before the round under which the rule holds: the dealer alone ahead.
        totals = tuple(1 if s == dealer else 0 for s in range(players))
        steps = _bid_steps(rules, number, cards, dealer, totals)
        if rules.bidding is not Bidding.OPEN:
            blind = _bid_steps(rules, number, cards, dealer, totals, blind=True)
    return RoundAhead(
        number=number,
        cards=cards,
        dealer=dealer,
        order=tuple(bidding_order(dealer, players)),
        bidders=tuple(bidders(rules, dealer, players)),
        leader=first_lead(dealer, players),
        top=max_bid(rules, cards),
        holds=holds,
        bid_steps=steps,
        blind=blind,
        count_steps=_count_steps(rules, players, cards),
    )
