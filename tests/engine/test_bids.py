"""Which bids are allowed (R9; V1, V2, V6, V7) and how a forbidden bid is refused."""

from typing import Any

import pytest

from scorekeeper.engine import (
    Bidding,
    DealerRule,
    IllegalBid,
    RuleSet,
    allowed_bids,
    bid_limits,
    bidders,
    bids_seen,
    check_bid,
    check_bids,
    dealer_rule_applies,
    max_bid,
)

V1 = RuleSet(dealer_rule=DealerRule.PLUS_MINUS_ONE)
V2 = RuleSet(dealer_rule=DealerRule.CANADIAN)
V6 = RuleSet(saboteur=True)
V7 = RuleSet(no_full_bid=True)
ZEROS = [0, 0, 0, 0]


def allowed(
    rules: RuleSet,
    seat: int,
    bids: dict[int, int],
    *,
    cards: int = 3,
    round_number: int = 3,
    dealer: int = 3,
    totals: list[int] | None = None,
) -> list[int]:
    return allowed_bids(
        rules,
        round_number=round_number,
        cards=cards,
        dealer=dealer,
        seat=seat,
        bids=bids,
        totals_before=totals or ZEROS,
    )


# -- R9 and V7: the range -------------------------------------------------------------------


@pytest.mark.parametrize("cards", [1, 2, 3, 10, 20])
def test_r9_bids_from_0_to_cards_in_hand_any_total(cards: int) -> None:
    rules = RuleSet()
    assert max_bid(rules, cards) == cards
    # R9: the total may be anything, even equal to the cards (no dealer rule).
    assert allowed(rules, 3, {0: 0, 1: cards, 2: 0}, cards=cards) == list(range(cards + 1))


@pytest.mark.parametrize(("cards", "top"), [(1, 1), (2, 1), (3, 2), (4, 3), (15, 14), (20, 19)])
def test_v7_no_full_bid_max_is_max_1_cards_minus_1(cards: int, top: int) -> None:
    assert max_bid(V7, cards) == top
    assert allowed(V7, 0, {}, cards=cards) == list(range(top + 1))


def test_v7_two_cards_in_round_1_of_a_short_game_allows_0_and_1() -> None:
    assert allowed(V7, 1, {}, cards=2, round_number=1) == [0, 1]


def test_v7_full_bid_is_refused_with_the_most_allowed() -> None:
    with pytest.raises(IllegalBid, match="no full bid, so the most is 2") as info:
        check(V7, 3, seat=0, bids={})
    assert info.value.code == "full_bid" and info.value.allowed == [0, 1, 2]


def check(
    rules: RuleSet,
    bid: Any,
    *,
    seat: int,
    bids: dict[int, int],
    cards: int = 3,
    round_number: int = 3,
    dealer: int = 3,
    totals: list[int] | None = None,
) -> int | None:
    return check_bid(
        rules,
        bid,
        round_number=round_number,
        cards=cards,
        dealer=dealer,
        seat=seat,
        bids=bids,
        totals_before=totals or ZEROS,
        names=["Ann", "Bob", "Cy", "Dee"],
    )


@pytest.mark.parametrize("bid", [-1, 4, 100])
def test_r9_bid_out_of_range_is_refused(bid: int) -> None:
    with pytest.raises(IllegalBid, match=f"can't bid {bid}: bids go from 0 to 3") as info:
        check(RuleSet(), bid, seat=0, bids={})
    assert info.value.code == "bid_out_of_range" and info.value.allowed == [0, 1, 2, 3]
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("bid", ["2", 2.0, None, True, [2]])
def test_r9_bid_must_be_a_whole_number(bid: object) -> None:
    with pytest.raises(IllegalBid, match="whole number from 0 to 3"):
        check(RuleSet(), bid, seat=0, bids={})


def test_r9_a_good_bid_is_returned() -> None:
    assert check(RuleSet(), 2, seat=0, bids={}) == 2


# -- V1 plus/minus one ----------------------------------------------------------------------

V1_CASES = [
    # (tag, bids before the dealer (seats 0, 1, 2), cards, allowed to the dealer, seat 3)
    ("V1 forbids the bid that makes the total", {0: 1, 1: 1, 2: 0}, 3, [0, 2, 3]),
    ("V1 zero forbidden when it would make the total", {0: 1, 1: 1, 2: 1}, 3, [1, 2, 3]),
    ("V1 top bid forbidden", {0: 0, 1: 0, 2: 0}, 3, [0, 1, 2]),
    ("V1 total already over: no constraint", {0: 2, 1: 2, 2: 0}, 3, [0, 1, 2, 3]),
    ("V1 round 1: the dealer cannot bid what makes 1", {0: 0, 1: 0, 2: 0}, 1, [0]),
    ("V1 round 1: zero forbidden", {0: 1, 1: 0, 2: 0}, 1, [1]),
]


@pytest.mark.parametrize(
    ("bids", "cards", "expected"), [c[1:] for c in V1_CASES], ids=[c[0] for c in V1_CASES]
)
def test_v1_plus_minus_one(bids: dict[int, int], cards: int, expected: list[int]) -> None:
    assert allowed(V1, 3, bids, cards=cards) == expected


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_v1_only_the_last_bidder_is_constrained(seat: int) -> None:
    before = {s: 1 for s in range(seat)}
    assert allowed(V1, seat, before) == [0, 1, 2, 3]


def test_v1_last_bidder_is_left_of_whoever_deals() -> None:
    # Dealer 1: order 2, 3, 0, 1; seat 1 bids last.
    assert allowed(V1, 1, {2: 1, 3: 1, 0: 0}, dealer=1) == [0, 2, 3]
    assert allowed(V1, 0, {2: 1, 3: 1}, dealer=1) == [0, 1, 2, 3]


def test_v1_a_bid_made_again_after_the_dealers_completes_the_round() -> None:
    """On a score pad a bid can be taken back and made again after the others (the
    dealer's too): it completes the round, so the rule holds it."""
    # Dealer 3: order 0, 1, 2, 3. Seat 0's bid again, with 1 + 0 + 1 already bid.
    assert allowed(V1, 0, {1: 1, 2: 0, 3: 1}) == [0, 2, 3]
    assert allowed(V1, 1, {0: 1, 2: 0, 3: 1}) == [0, 2, 3]
    # While another bid is still missing, nothing is forbidden yet.
    assert allowed(V1, 0, {1: 1, 3: 1}) == [0, 1, 2, 3]
    assert allowed(RuleSet(), 0, {1: 1, 2: 0, 3: 1}) == [0, 1, 2, 3]  # R9: no rule
    with pytest.raises(IllegalBid, match="Ann can't bid 1: the bids would add up to the 3"):
        check(V1, 1, seat=0, bids={1: 1, 2: 0, 3: 1})


def test_v1_forbidden_bid_says_why_and_which_bids_are_allowed() -> None:
    with pytest.raises(IllegalBid) as info:
        check(V1, 0, seat=3, bids={0: 1, 1: 1, 2: 1})
    message = str(info.value)
    assert message == (
        "Dee (dealer) can't bid 0: the bids would add up to the 3 tricks (plus/minus one). "
        "Allowed: 1, 2, 3."
    )
    assert info.value.allowed == [1, 2, 3] and info.value.code == "bids_equal_tricks"


@pytest.mark.parametrize(
    ("start", "round_number", "constrained"),
    [(1, 1, True), (2, 1, False), (2, 2, True), (4, 3, False), (4, 4, True), (4, 9, True)],
)
def test_v1_start_round(start: int, round_number: int, constrained: bool) -> None:
    rules = V1.with_options(dealer_rule_from_round=start)
    assert dealer_rule_applies(rules, round_number, 3, ZEROS) is constrained
    got = allowed(rules, 3, {0: 0, 1: 0, 2: 0}, cards=1, round_number=round_number)
    assert got == ([0] if constrained else [0, 1])


def test_v7_with_v1_always_leaves_a_bid() -> None:
    rules = V1.with_options(no_full_bid=True)
    for cards in (1, 2, 3):
        for first in range(cards + 1):
            got = allowed(rules, 3, {0: first, 1: 0, 2: 0}, cards=cards)
            assert got and cards - first not in got


# -- V2 Canadian rule -----------------------------------------------------------------------

V2_CASES = [
    # (tag, totals before, round, start round, constrained)
    ("V2 dealer strictly highest", [10, 20, 0, 30], 3, 1, True),
    ("V2 dealer tied for the lead", [30, 20, 0, 30], 3, 1, False),
    ("V2 dealer not leading", [40, 20, 0, 30], 3, 1, False),
    ("V2 never in round 1 (all tied at 0)", [0, 0, 0, 0], 1, 1, False),
    ("V2 negative totals, dealer highest", [-10, -20, -30, -5], 3, 1, True),
    ("V2 and start round: before it", [10, 20, 0, 30], 3, 4, False),
    ("V2 and start round: from it", [10, 20, 0, 30], 4, 4, True),
    ("V2 and start round: start holds but dealer tied", [30, 20, 0, 30], 4, 4, False),
]


@pytest.mark.parametrize(
    ("totals", "round_number", "start", "constrained"),
    [c[1:] for c in V2_CASES],
    ids=[c[0] for c in V2_CASES],
)
def test_v2_canadian_rule(
    totals: list[int], round_number: int, start: int, constrained: bool
) -> None:
    rules = V2.with_options(dealer_rule_from_round=start)
    assert dealer_rule_applies(rules, round_number, 3, totals) is constrained
    got = allowed(rules, 3, {0: 1, 1: 1, 2: 0}, round_number=round_number, totals=totals)
    assert got == ([0, 2, 3] if constrained else [0, 1, 2, 3])


def test_v2_forbidden_bid_names_the_canadian_rule() -> None:
    with pytest.raises(IllegalBid, match=r"Canadian rule.*Allowed: 0, 2, 3\.$"):
        check(V2, 1, seat=3, bids={0: 1, 1: 1, 2: 0}, totals=[0, 0, 0, 10])


# -- The limits as data (what a page offline enforces) -----------------------------------


@pytest.mark.parametrize(
    ("rules", "round_number", "totals", "top", "total_not"),
    [
        (RuleSet(), 3, ZEROS, 3, None),  # R9: anything from 0 to the cards
        (V7, 3, ZEROS, 2, None),  # V7: no full bid
        (V1, 3, ZEROS, 3, 3),  # V1: the bids may not add up to the cards
        (V1.with_options(dealer_rule_from_round=4), 3, ZEROS, 3, None),  # V1 start round
        (V2, 3, [10, 20, 0, 30], 3, 3),  # V2: the dealer strictly leads
        (V2, 3, [30, 20, 0, 30], 3, None),  # V2: tied for the lead
        (V1.with_options(no_full_bid=True), 3, ZEROS, 2, 3),
    ],
)
def test_v1_v2_v7_bid_limits_as_data(
    rules: RuleSet, round_number: int, totals: list[int], top: int, total_not: int | None
) -> None:
    limits = bid_limits(rules, round_number=round_number, cards=3, dealer=3, totals_before=totals)
    assert (limits.top, limits.total_not) == (top, total_not)
    # The same limits as the bids the last bidder may make once the others are in.
    others = {0: 1, 1: 1, 2: 0}
    got = allowed(rules, 3, others, round_number=round_number, totals=totals)
    assert got == [b for b in range(top + 1) if total_not is None or b + 2 != total_not]


# -- V6 Wizard Saboteur ---------------------------------------------------------------------


@pytest.mark.parametrize(("dealer", "order"), [(3, [0, 1, 2]), (0, [1, 2, 3]), (2, [3, 0, 1])])
def test_v6_dealer_does_not_bid(dealer: int, order: list[int]) -> None:
    assert bidders(V6, dealer, 4) == order
    assert bidders(RuleSet(), dealer, 4) == [*order, dealer]
    assert allowed(V6, dealer, {}, dealer=dealer) == []
    assert check(V6, None, seat=dealer, bids={}, dealer=dealer) is None
    with pytest.raises(IllegalBid, match="under Wizard Saboteur the dealer has no bid") as info:
        check(V6, 1, seat=dealer, bids={}, dealer=dealer)
    assert info.value.code == "dealer_does_not_bid"


def test_v6_with_v1_constraint_falls_on_the_player_right_of_the_dealer() -> None:
    rules = V1.with_options(saboteur=True)
    assert allowed(rules, 2, {0: 1, 1: 1}) == [0, 2, 3]  # seat 2 sits right of dealer 3
    assert allowed(rules, 2, {0: 1, 1: 2}) == [1, 2, 3]  # zero too
    assert allowed(rules, 1, {0: 1}) == [0, 1, 2, 3]
    with pytest.raises(IllegalBid, match=r"^Cy can't bid 1.*Allowed: 0, 2, 3\.$"):
        check(rules, 1, seat=2, bids={0: 1, 1: 1})


@pytest.mark.parametrize(
    ("totals", "constrained"),
    [
        ([10, 20, 0, 30], True),  # the dealer (seat 3) leads: the last bidder is held
        ([10, 20, 40, 30], False),  # the last bidder leads, not the dealer: no constraint
        ([10, 30, 0, 30], False),  # the dealer is tied for the lead
    ],
    ids=["V6 V2 dealer leads", "V6 V2 last bidder leads", "V6 V2 dealer tied"],
)
def test_v6_with_v2_condition_is_still_the_dealers_lead(
    totals: list[int], constrained: bool
) -> None:
    rules = V2.with_options(saboteur=True)
    got = allowed(rules, 2, {0: 1, 1: 1}, totals=totals)
    assert got == ([0, 2, 3] if constrained else [0, 1, 2, 3])


# -- a whole round of bids (the pad) ---------------------------------------------------------


def test_check_bids_accepts_a_round_and_checks_the_dealer_rule_when_all_are_in() -> None:
    kwargs: dict[str, Any] = {"round_number": 3, "cards": 3, "dealer": 3, "totals_before": ZEROS}
    check_bids(V1, [1, 1, 0, 0], **kwargs)
    check_bids(V1, [1, None, 0, 1], **kwargs)  # not all in: nothing to forbid yet
    with pytest.raises(IllegalBid, match="Allowed: 0, 2, 3"):
        check_bids(V1, [1, 1, 0, 1], **kwargs)
    with pytest.raises(IllegalBid, match="one bid per player"):
        check_bids(V1, [1, 1, 0], **kwargs)
    with pytest.raises(IllegalBid, match="bids go from 0 to 3"):
        check_bids(RuleSet(), [1, 5, 0, 1], **kwargs)


def test_v6_check_bids_wants_no_bid_from_the_dealer() -> None:
    kwargs: dict[str, Any] = {"round_number": 3, "cards": 3, "dealer": 3, "totals_before": ZEROS}
    check_bids(V6, [1, 1, 1, None], **kwargs)
    with pytest.raises(IllegalBid, match="does not bid"):
        check_bids(V6, [1, 1, 1, 0], **kwargs)


# -- who may see the bids (V3, V4) -----------------------------------------------------------


@pytest.mark.parametrize(
    ("bidding", "bids", "played", "seen"),
    [
        (Bidding.OPEN, [None, 1, None], False, True),  # open: each bid as it is made
        (Bidding.HIDDEN, [None, 1, 2], False, False),  # V3: Ann has not bid yet
        (Bidding.HIDDEN, [0, 1, 2], False, True),  # V3: all in, shown together
        (Bidding.SECRET, [0, 1, 2], False, False),  # V4: all in, still sealed
        (Bidding.SECRET, [0, 1, 2], True, True),  # V4: the round is played
        (Bidding.HIDDEN, [None, 1, 2], True, True),
    ],
)
def test_v3_v4_when_the_bids_are_seen(
    bidding: Bidding, bids: list[int | None], played: bool, seen: bool
) -> None:
    assert bids_seen(RuleSet(bidding=bidding), bids, [1, 2, 0], played=played) is seen


def test_v3_v6_the_saboteur_dealer_has_no_bid_to_wait_for() -> None:
    rules = RuleSet(bidding=Bidding.HIDDEN, saboteur=True)
    order = bidders(rules, 0, 3)  # Ben, Cat: Ann deals and does not bid
    assert bids_seen(rules, [None, 1, 2], order, played=False)
    assert not bids_seen(rules, [None, None, 2], order, played=False)
