"""The round being entered on a pad (engine.RoundDraft): queries answer, commands raise."""

import random
from dataclasses import replace

import pytest

from scorekeeper.engine import (
    Bidding,
    DealerRule,
    IllegalBid,
    RoundDraft,
    RuleError,
    RuleSet,
    TrumpCall,
    allowed_bids,
    bid_steps,
    count_steps,
)


def draft(rules: RuleSet | None = None, cards: int = 3, dealer: int = 0, players: int = 4):
    return RoundDraft.empty(rules or RuleSet(), 3, cards, dealer, (0,) * players)


def bid_all(d: RoundDraft, bids: list[int]) -> RoundDraft:
    for seat, bid in zip(d.bidders, bids, strict=False):
        d = d.bid(seat, bid)
    return d


def refused(call, code: str, message_id: str):  # type: ignore[no-untyped-def]
    with pytest.raises(RuleError) as caught:
        call()
    assert (caught.value.code, caught.value.message_id) == (code, message_id)
    return caught.value


def test_r6_bids_go_in_order_from_the_dealers_left() -> None:
    d = draft(dealer=1)
    assert d.order == [2, 3, 0, 1] and d.next_bidder == 2
    exc = refused(lambda: d.bid(3, 1), "not_your_turn", "bids_first")
    assert exc.params == {"seat": 2} and str(exc) == "Player 3 bids first."
    d = d.bid(2, 1)
    assert d.next_bidder == 3 and d.bids == (None, None, 1, None)


def test_commands_return_a_new_draft_and_leave_the_old_one_alone() -> None:
    d = draft()
    after = d.bid(1, 2)
    assert d.bids == (None,) * 4 and after.bids == (None, 2, None, None)
    assert after.with_trump(TrumpCall.parse("red")).trump == TrumpCall.parse("red")


def test_r9_bid_keys_go_from_0_to_the_cards_each_refusal_with_its_error() -> None:
    d = draft(RuleSet(no_full_bid=True), cards=3)
    options = d.bid_options()
    assert [o.value for o in options] == [0, 1, 2, 3]
    assert [o.allowed for o in options] == [True, True, True, False]
    assert options[3].refusal is not None and options[3].refusal.message_id == "full_bid"


def test_v1_the_last_bidder_may_not_make_the_total() -> None:
    d = bid_all(draft(RuleSet(dealer_rule=DealerRule.PLUS_MINUS_ONE)), [1, 0, 1])
    assert d.next_bidder == 0
    assert [o.value for o in d.bid_options() if not o.allowed] == [1]
    exc = refused(lambda: d.bid(0, 1), "bids_equal_tricks", "bids_equal_tricks")
    assert exc.params["seat"] == 0
    assert d.bid(0, 2).bids_in


@pytest.mark.parametrize("bidding", [Bidding.HIDDEN, Bidding.SECRET])
def test_v3_v4_the_last_bidders_keys_leave_the_dealer_rule_out(bidding: Bidding) -> None:
    rules = RuleSet(dealer_rule=DealerRule.PLUS_MINUS_ONE, bidding=bidding)
    d = bid_all(draft(rules), [1, 0, 1])
    assert not d.bids_shown
    assert all(o.allowed for o in d.bid_options())  # blind
    refused(lambda: d.bid(0, 1), "bids_equal_tricks", "bids_equal_tricks")  # when made
    assert d.bid(0, 0).bids_in


def test_v6_the_saboteur_dealer_does_not_bid() -> None:
    d = draft(RuleSet(saboteur=True), dealer=0)
    assert d.bidders == [1, 2, 3]
    refused(lambda: d.bid(0, 1), "dealer_does_not_bid", "deals_and_does_not_bid")
    assert bid_all(d, [1, 1, 1]).bids_in


def test_bids_may_be_taken_back_alone_until_the_counts_start() -> None:
    d = bid_all(draft(), [1, 0, 1, 0])
    assert d.last_bid == 0
    assert d.bid(2, None).bids == (0, 1, None, 1)
    d, _ = d.record_tricks(1, 1)
    refused(lambda: d.bid(2, None), "tricks_started", "tricks_started")


def test_counts_wait_for_every_bid() -> None:
    d = bid_all(draft(), [1, 0])
    assert d.next_taker is None and d.trick_options(d.next_taker) == []
    refused(lambda: d.record_tricks(1, 1), "bids_missing", "enter_bids_first")


def test_r16_counts_can_not_pass_the_cards_and_the_forced_ones_fill_themselves() -> None:
    d = bid_all(draft(cards=3), [1, 0, 1, 0])
    d, filled = d.record_tricks(1, 2)
    assert filled == [] and d.tricks == (None, 2, None, None)
    options = d.trick_options(2)
    assert [o.allowed for o in options] == [True, True, False, False]
    exc = refused(lambda: d.record_tricks(2, 2), "tricks_do_not_add_up", "tricks_left")
    assert str(exc) == "Player 3 can't have taken 2: only 1 of the 3 tricks is left."
    refused(lambda: d.record_tricks(2, 4), "tricks_out_of_range", "tricks_from_zero")
    # Every trick taken: the others took none.
    d, filled = d.record_tricks(2, 1)
    assert filled == [0, 3] and d.tricks == (0, 2, 1, 0) and d.tricks_in
    assert d.confirm().tricks == (0, 2, 1, 0)


def test_r16_the_last_count_is_what_is_left() -> None:
    d = bid_all(draft(cards=3), [1, 0, 1, 0])
    d, _ = d.record_tricks(0, 1)
    d, _ = d.record_tricks(1, 0)
    options = d.trick_options(2)
    assert [o.allowed for o in options] == [True, True, True, False]
    d, _ = d.record_tricks(3, 1)
    last = d.trick_options(2)
    assert [o.allowed for o in last] == [False, True, False, False]
    assert last[0].refusal is not None and last[0].refusal.message_id == "last_count_is_left"
    d, filled = d.clear_tricks(3).record_tricks(2, 1)
    assert filled == [3] and d.tricks == (1, 0, 1, 1)


def test_r16_the_tricks_left_count_down_as_the_counts_go_in() -> None:
    d = draft(cards=3)
    assert d.tricks_left is None  # no count is asked for before every bid is in
    d = bid_all(d, [1, 0, 1])
    assert d.tricks_left is None
    d = bid_all(d, [1, 0, 1, 0])
    assert d.tricks_left == 3
    d, _ = d.record_tricks(2, 1)
    assert d.tricks_left == 2
    d, _ = d.record_tricks(0, 0)
    assert d.tricks_left == 2
    d = d.clear_tricks(2)
    assert d.tricks_left == 3
    d, filled = d.record_tricks(1, 3)  # every trick taken: the others took none
    assert filled and d.tricks_in and d.tricks_left is None


def test_the_rest_made_their_bids() -> None:
    d = bid_all(draft(cards=3), [1, 0, 1, 1])  # seats 1, 2, 3, 0
    d, _ = d.record_tricks(1, 1)
    assert d.rest_as_bid() == (1, 1, 0, 1)
    d2, filled = d.rest_made_their_bids()
    assert filled == [0, 2, 3] and d2.tricks_in
    d, _ = d.record_tricks(2, 1)  # Cat took 1 of her 0: the rest can't all be right
    assert d.rest_as_bid() is None
    refused(d.rest_made_their_bids, "rest_does_not_add_up", "rest_does_not_add_up")


def test_v4_the_rest_is_never_entered_as_bid_under_secret_bids() -> None:
    d = bid_all(draft(RuleSet(bidding=Bidding.SECRET), cards=3), [1, 0, 1, 1])
    assert d.rest_as_bid() is None


def test_confirm_needs_every_count() -> None:
    d = bid_all(draft(), [1, 0, 1, 0])
    refused(d.confirm, "tricks_missing", "tricks_missing")


@pytest.mark.parametrize("seat", [-1, 4, True, "1"])
def test_a_seat_not_at_the_table_is_refused(seat: object) -> None:
    d = draft()
    refused(lambda: d.bid(seat, 1), "bad_seat", "no_seat")  # type: ignore[arg-type]
    refused(lambda: d.clear_tricks(seat), "bad_seat", "no_seat")  # type: ignore[arg-type]


@pytest.mark.parametrize("rule", list(DealerRule))
@pytest.mark.parametrize("cards", [1, 2, 5])
def test_v1_v2_the_keys_agree_with_the_engines_allowed_bids(rule: DealerRule, cards: int) -> None:
    rules = RuleSet(dealer_rule=rule)
    totals = (30, 10, 0)  # the dealer leads: the Canadian rule holds
    d = RoundDraft.empty(rules, 2, cards, 0, totals)
    for bids in ([0, 0], [1, 0], [cards, 0]):
        d2 = d.bid(1, bids[0]).bid(2, bids[1])
        allowed = allowed_bids(
            rules,
            round_number=2,
            cards=cards,
            dealer=0,
            seat=0,
            bids={1: bids[0], 2: bids[1]},
            totals_before=totals,
        )
        assert [o.value for o in d2.bid_options() if o.allowed] == allowed


def test_r16_the_count_steps_sent_to_an_offline_page_spell_out_the_forced_counts() -> None:
    steps = count_steps(draft(cards=3)).as_data()
    assert steps["top"] == [3, 2, 1, 0]  # with 0, 1, 2, 3 tricks taken
    # The last count is what is left; every trick taken, the rest took none.
    assert steps["fill"] == {"1 0": 3, "1 1": 2, "1 2": 1, "1 3": 0, "2 3": 0, "3 3": 0}


@pytest.mark.parametrize("saboteur", [False, True], ids=["open", "saboteur"])
def test_r16_the_count_steps_agree_with_the_commands_over_random_rounds(saboteur: bool) -> None:
    """An offline page that looks the steps up does what the draft's commands do, for
    counts given in any order (R16; V6: a saboteur dealer bids nothing but takes tricks)."""
    rng = random.Random(16)
    rules = RuleSet(saboteur=True) if saboteur else RuleSet()
    for _ in range(300):
        players, cards = rng.randint(3, 6), rng.randint(1, 20)
        d = RoundDraft.empty(rules, 1, cards, rng.randrange(players), (0,) * players)
        d = replace(d, bids=tuple(0 if s in d.bidders else None for s in range(players)))
        steps = count_steps(d).as_data()
        while not d.tricks_in:
            taken = sum(t for t in d.tricks if t is not None)
            seat = rng.choice([s for s, t in enumerate(d.tricks) if t is None])
            allowed = [o.value for o in d.trick_options(seat) if o.allowed]
            assert allowed == list(range(steps["top"][taken] + 1))
            count = rng.choice(allowed)
            missing = sum(t is None for t in d.tricks) - 1  # once this count is in
            d, filled = d.record_tricks(seat, count)
            fill = steps["fill"].get(f"{missing} {taken + count}")
            assert (fill is not None) == bool(filled)
            assert all(d.tricks[s] == fill for s in filled)


def test_v1_the_bid_steps_sent_to_an_offline_page_spell_out_the_refused_bid() -> None:
    rules = RuleSet(dealer_rule=DealerRule.PLUS_MINUS_ONE)
    # The last bid (1 missing) may not bring 3 cards' bids to 3: with 0 in, not 3; …
    assert bid_steps(draft(rules)).as_data() == {"1": [3, 2, 1, 0]}
    # V7: the top bid is 2 of 3 cards, so with 0 in the keys refuse nothing more.
    no_full = RuleSet(dealer_rule=DealerRule.PLUS_MINUS_ONE, no_full_bid=True)
    assert bid_steps(draft(no_full)).as_data() == {"1": [None, 2, 1, 0]}
    assert bid_steps(draft(RuleSet())).as_data() == {}  # no dealer rule
    # V3, V4: the last bidder bids blind; the server asks for a change afterwards.
    for bidding in (Bidding.HIDDEN, Bidding.SECRET):
        sealed = RuleSet(dealer_rule=DealerRule.PLUS_MINUS_ONE, bidding=bidding)
        assert bid_steps(draft(sealed)).as_data() == {}


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet(dealer_rule=DealerRule.PLUS_MINUS_ONE),
        RuleSet(dealer_rule=DealerRule.CANADIAN),
        RuleSet(dealer_rule=DealerRule.PLUS_MINUS_ONE, no_full_bid=True),
        RuleSet(dealer_rule=DealerRule.PLUS_MINUS_ONE, saboteur=True),
        RuleSet(dealer_rule=DealerRule.PLUS_MINUS_ONE, bidding=Bidding.HIDDEN),
    ],
    ids=["v1", "v2", "v1-v7", "v1-v6", "v1-v3"],
)
def test_the_bid_steps_agree_with_the_keypad_over_random_rounds(rules: RuleSet) -> None:
    """An offline page that looks the bid steps up refuses what the online keypad
    (bid_options) refuses, bid after bid, for any dealer, cards and totals (V1, V2, V3,
    V6, V7)."""
    rng = random.Random(2)
    for _ in range(200):
        players, cards = rng.randint(3, 6), rng.randint(1, 20)
        totals = tuple(rng.choice([0, 30, 60]) for _ in range(players))
        d = RoundDraft.empty(rules, rng.randint(2, 10), cards, rng.randrange(players), totals)
        steps = bid_steps(d).as_data()
        while d.next_bidder is not None:
            missing = sum(d.bids[s] is None for s in d.bidders)
            total = sum(b for b in d.bids if b is not None)
            row = steps.get(str(missing), [])
            looked_up = row[total] if total < len(row) else None
            options = d.bid_options()
            refused = [o.value for o in options if not o.allowed and o.value <= d.limits.top]
            assert refused == ([] if looked_up is None else [looked_up])
            allowed = [o.value for o in options if o.allowed]
            rng.shuffle(allowed)
            for value in allowed:  # V3: a blind last bid may still be asked to change
                try:
                    d = d.bid(d.next_bidder, value)
                    break
                except IllegalBid:
                    continue
