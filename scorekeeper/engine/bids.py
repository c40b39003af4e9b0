"""Which bids are allowed (R9; V1, V2, V6, V7), asked as a query or checked as a command."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from .errors import IllegalBid
from .plan import bidding_order
from .rules import Bidding, DealerRule, RuleSet


def max_bid(rules: RuleSet, cards: int) -> int:
    """The highest bid anyone may make with ``cards`` in hand (R9; V7: max(1, cards − 1))."""
    return max(1, cards - 1) if rules.no_full_bid else cards


def bidders(rules: RuleSet, dealer: int, players: int) -> list[int]:
    """Seats that bid, in order (R6); under Wizard Saboteur the dealer does not bid (V6)."""
    order = bidding_order(dealer, players)
    return order[:-1] if rules.saboteur else order


def bids_seen(
    rules: RuleSet, bids: Sequence[int | None], bidders: Sequence[int], *, played: bool
) -> bool:
    """Whether a round's bids may be seen by all (V3, V4): always once the round is played
    (``played``: its tricks are in); before that, open bids at once, hidden bids once
    every bidder has bid, secret bids not at all. A seat always sees its own bid.

    The one answer for every view of a round: the pad and its pages, the change log, the
    exports, the API, a digital seat and a bot.
    """
    if played or rules.bidding is Bidding.OPEN:
        return True
    if rules.bidding is Bidding.HIDDEN:
        return all(bids[s] is not None for s in bidders)
    return False


class DealerRuleHolds(Enum):
    """When the dealer rule holds in a round, before the totals are known (V1, V2)."""

    NEVER = "never"
    ALWAYS = "always"
    DEALER_LEADS = "dealer_leads"  # V2: the dealer's total before it strictly the highest


def dealer_rule_holds(rules: RuleSet, round_number: int) -> DealerRuleHolds:
    """When the bids of round ``round_number`` may not add up to its cards (V1, V2 and
    the rule's start round): the one place this is decided, as a value a page can act on
    for rounds whose totals it works out itself."""
    if rules.dealer_rule is DealerRule.NONE or round_number < rules.dealer_rule_from_round:
        return DealerRuleHolds.NEVER
    if rules.dealer_rule is DealerRule.CANADIAN:
        return DealerRuleHolds.DEALER_LEADS
    return DealerRuleHolds.ALWAYS


def dealer_rule_applies(
    rules: RuleSet, round_number: int, dealer: int, totals_before: Sequence[int]
) -> bool:
    """Whether the bids of this round may not add up to the cards (V1, V2 and start round).

    Under the Canadian rule (V2) only when the dealer's total before the round is strictly
    the highest; a tie for the lead does not count, so never in round 1.
    """
    holds = dealer_rule_holds(rules, round_number)
    if holds is DealerRuleHolds.DEALER_LEADS:
        mine = totals_before[dealer]
        return all(mine > t for seat, t in enumerate(totals_before) if seat != dealer)
    return holds is DealerRuleHolds.ALWAYS


@dataclass(frozen=True)
class BidLimits:
    """What limits the bids of one round, as data: the highest bid anyone may make, and
    the total the round's bids may not reach (None when the dealer rule does not hold).

    A page that keeps taking bids while it can't reach the server enforces exactly these.
    """

    top: int
    total_not: int | None


def bid_limits(
    rules: RuleSet, *, round_number: int, cards: int, dealer: int, totals_before: Sequence[int]
) -> BidLimits:
    """The limits of a round's bids (R9; V1, V2, V7)."""
    applies = dealer_rule_applies(rules, round_number, dealer, totals_before)
    return BidLimits(top=max_bid(rules, cards), total_not=cards if applies else None)


def _who(seat: int, dealer: int, names: Sequence[str] | None) -> str:
    name = names[seat] if names is not None and seat < len(names) else f"Player {seat + 1}"
    return f"{name} (dealer)" if seat == dealer else name


def _listing(bids: Sequence[int]) -> str:
    return ", ".join(map(str, bids))


def allowed_bids(
    rules: RuleSet,
    *,
    round_number: int,
    cards: int,
    dealer: int,
    seat: int,
    bids: Mapping[int, int | None],
    totals_before: Sequence[int],
) -> list[int]:
    """The bids ``seat`` may make, given the bids already made (seat → bid).

    The dealer rule holds the bid that completes the round, once every other bid is
    known: the last bidder's (V1, V2), or on a score pad, a bid taken back and made again
    after the others. A dealer under Wizard Saboteur has no bid: the answer is empty.
    """
    players = len(totals_before)
    order = bidders(rules, dealer, players)
    if seat not in order:
        return []
    limits = bid_limits(
        rules, round_number=round_number, cards=cards, dealer=dealer, totals_before=totals_before
    )
    allowed = list(range(0, limits.top + 1))
    if limits.total_not is not None:
        others = [bids.get(s) for s in order if s != seat]
        if all(b is not None for b in others):
            forbidden = limits.total_not - sum(b for b in others if b is not None)
            allowed = [b for b in allowed if b != forbidden]
    return allowed


def check_bid(
    rules: RuleSet,
    bid: object,
    *,
    round_number: int,
    cards: int,
    dealer: int,
    seat: int,
    bids: Mapping[int, int | None],
    totals_before: Sequence[int],
    names: Sequence[str] | None = None,
) -> int | None:
    """Check one bid and return it (``None`` for a dealer who does not bid, V6).

    :raises IllegalBid: saying why, in a player's words, with the allowed bids attached.
    """
    who = _who(seat, dealer, names)
    name = names[seat] if names is not None and seat < len(names) else None
    facts: dict[str, object] = {"seat": seat, "name": name, "dealer": seat == dealer}
    players = len(totals_before)
    if seat not in bidders(rules, dealer, players):
        if bid is None:
            return None
        raise IllegalBid(
            f"{who} does not bid: under Wizard Saboteur the dealer has no bid.",
            code="dealer_does_not_bid",
            params=facts,
        )
    allowed = allowed_bids(
        rules,
        round_number=round_number,
        cards=cards,
        dealer=dealer,
        seat=seat,
        bids=bids,
        totals_before=totals_before,
    )
    top = max_bid(rules, cards)
    facts.update(bid=bid, cards=cards, top=top, allowed=allowed)
    if isinstance(bid, bool) or not isinstance(bid, int):
        raise IllegalBid(
            f"{who}'s bid must be a whole number from 0 to {top}.",
            allowed=allowed,
            code="bid_out_of_range",
            message_id="bid_not_a_number",
            params=facts,
        )
    if bid < 0 or bid > cards:
        raise IllegalBid(
            f"{who} can't bid {bid}: bids go from 0 to {top} in a round of {cards} "
            f"card{'s' if cards != 1 else ''}.",
            allowed=allowed,
            code="bid_out_of_range",
            params=facts,
        )
    if bid > top:
        raise IllegalBid(
            f"{who} can't bid {bid}: no full bid, so the most is {top}.",
            allowed=allowed,
            code="full_bid",
            params=facts,
        )
    if bid not in allowed:
        rule = (
            "plus/minus one"
            if rules.dealer_rule is DealerRule.PLUS_MINUS_ONE
            else ("Canadian rule: the dealer is in the lead")
        )
        raise IllegalBid(
            f"{who} can't bid {bid}: the bids would add up to the {cards} "
            f"trick{'s' if cards != 1 else ''} ({rule}). Allowed: {_listing(allowed)}.",
            allowed=allowed,
            code="bids_equal_tricks",
            params={**facts, "dealer_rule": rules.dealer_rule.value},
        )
    return bid


def check_bids(
    rules: RuleSet,
    bids: Sequence[int | None],
    *,
    round_number: int,
    cards: int,
    dealer: int,
    totals_before: Sequence[int],
    names: Sequence[str] | None = None,
) -> None:
    """Check a whole round's bids (seat order) as if made one by one in bidding order.

    Seats that have not bid yet are ``None``; a ``None`` before a later bid is fine here
    (the pad may be filled in any order) but the dealer rule is checked only when all bids
    are in.

    :raises IllegalBid: for the first bid, in bidding order, that is not allowed.
    """
    players = len(totals_before)
    if len(bids) != players:
        raise IllegalBid(
            f"There must be one bid per player ({players}), not {len(bids)}.",
            code="wrong_count",
            message_id="wrong_bid_count",
            params={"players": players, "count": len(bids)},
        )
    made: dict[int, int | None] = {}
    for seat in bidding_order(dealer, players):
        bid = bids[seat]
        if bid is None and seat in bidders(rules, dealer, players):
            continue
        check_bid(
            rules,
            bid,
            round_number=round_number,
            cards=cards,
            dealer=dealer,
            seat=seat,
            bids=made,
            totals_before=totals_before,
            names=names,
        )
        made[seat] = bid
