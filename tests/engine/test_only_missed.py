"""One player alone missed ("Only Ben missed": engine.RoundDraft.only_missed and
only_one_missed). When every other player whose count is missing made their bid, the
tricks add up to the cards (R16), so the one who missed took what the others' bids
leave. Nothing is guessed: the scorer says who alone missed, the round model works out
the count or says why it can't be."""

import random
from dataclasses import replace

import pytest

from scorekeeper.engine import Bidding, RoundDraft, RuleError, RuleSet


def bids_in(bids: list[int | None], cards: int = 3, rules: RuleSet | None = None) -> RoundDraft:
    """A round of ``cards`` with dealer 0 and ``bids`` in (seat order)."""
    d = RoundDraft.empty(rules or RuleSet(), 3, cards, 0, (0,) * len(bids))
    return replace(d, bids=tuple(bids))


def refused(call, message_id: str) -> RuleError:  # type: ignore[no-untyped-def]
    with pytest.raises(RuleError) as caught:
        call()
    assert (caught.value.code, caught.value.message_id) == ("not_only_miss", message_id)
    return caught.value


def test_r16_the_one_who_missed_took_what_the_others_bids_leave() -> None:
    # 3 cards; bids 1, 0, 1, 0 come to 2: someone missed. Ben (seat 1) alone: he took 1.
    d = bids_in([1, 0, 1, 0])
    assert d.rest_as_bid() is None and d.one_missed_offered
    assert d.only_missed(1) == (1, 1, 1, 0)
    after, filled = d.only_one_missed(1)
    assert after.tricks == (1, 1, 1, 0) and after.tricks_in and filled == [0, 2, 3]
    assert after.confirm().tricks == (1, 1, 1, 0)
    # Ann (bid 1) alone: she took 2.
    assert d.only_missed(0) == (2, 0, 1, 0)


def test_r16_with_counts_in_only_the_tricks_left_are_shared() -> None:
    d = bids_in([1, 1, 1, 1], cards=4)  # even: nobody need have missed
    assert d.rest_as_bid() == (1, 1, 1, 1) and not d.one_missed_offered
    d, _ = d.record_tricks(1, 2)  # Ben took 2 of his 1: 2 left for Ann, Cat and Dan
    assert d.rest_as_bid() is None and d.one_missed_offered
    assert d.only_missed(0) == (0, 2, 1, 1)
    assert d.only_missed(3) == (1, 2, 1, 0)
    refused(lambda: d.only_one_missed(1), "count_already_in")


def test_r16_a_miss_that_would_be_a_negative_count_is_refused_with_why() -> None:
    # 3 cards, bids 2, 0, 1, 1 come to 4: whoever alone missed took one less than bid,
    # which Ben (bid 0) can't have.
    d = bids_in([2, 0, 1, 1])
    assert d.only_missed(1) is None
    exc = refused(lambda: d.only_one_missed(1), "others_bid_too_many")
    assert exc.params == {"seat": 1, "bids": 4, "left": 3}
    assert str(exc) == (
        "Player 2 can't be the only one who missed: the others' bids come to 4, "
        "and only 3 tricks are left."
    )
    assert d.only_missed(0) == (1, 0, 1, 1)
    assert d.one_missed_offered  # for Ann, Cat or Dan


def test_r16_not_offered_when_nobody_can_be_the_only_one() -> None:
    d = bids_in([2, 2, 2])  # 3 cards: each alone would have taken -1
    assert all(d.only_missed(s) is None for s in range(3))
    assert not d.one_missed_offered


def test_when_the_rest_add_up_the_one_made_it_too() -> None:
    d = bids_in([1, 0, 1, 1])
    exc = refused(lambda: d.only_one_missed(2), "made_it_too")
    assert str(exc) == "If the others made their bids, Player 3 made theirs too."
    assert not d.one_missed_offered


def test_v4_never_under_secret_bids() -> None:
    d = bids_in([1, 0, 1, 0], rules=RuleSet(bidding=Bidding.SECRET))
    refused(lambda: d.only_one_missed(1), "secret_bids_each_count")
    assert not d.one_missed_offered


def test_v3_hidden_bids_are_shown_once_all_are_in_so_it_is_offered() -> None:
    d = bids_in([1, 0, 1, 0], rules=RuleSet(bidding=Bidding.HIDDEN))
    assert d.one_missed_offered and d.only_missed(1) == (1, 1, 1, 0)


def test_v6_a_saboteur_dealer_has_no_bid_to_miss_nor_one_to_go_by() -> None:
    d = bids_in([None, 1, 0, 0], rules=RuleSet(saboteur=True))  # dealer 0 bids nothing
    refused(lambda: d.only_one_missed(0), "no_bid_to_go_by")
    refused(lambda: d.only_one_missed(1), "no_bid_to_go_by")
    assert not d.one_missed_offered
    d, _ = d.record_tricks(0, 1)  # the dealer's count in: 2 left for bids of 1, 0, 0
    assert d.one_missed_offered
    assert d.only_missed(1) == (1, 2, 0, 0)
    assert d.only_missed(2) == (1, 1, 1, 0)


def test_before_every_bid_and_for_a_seat_not_at_the_table() -> None:
    d = RoundDraft.empty(RuleSet(), 3, 3, 0, (0,) * 4).bid(1, 1)
    with pytest.raises(RuleError) as caught:
        d.only_one_missed(1)
    assert caught.value.message_id == "enter_bids_first"
    d = bids_in([1, 0, 1, 0])
    for seat in (-1, 4, True, "1"):
        with pytest.raises(RuleError) as caught:
            d.only_one_missed(seat)  # type: ignore[arg-type]
        assert caught.value.message_id == "no_seat"


def test_reopening_takes_back_the_whole_tap() -> None:
    d = bids_in([1, 0, 1, 0])
    d, _ = d.record_tricks(3, 0)
    after, _ = d.only_one_missed(1)
    assert after.reopen_seats == [0, 1, 2]
    assert after.reopen().tricks == (None, None, None, 0)
    assert after.undo_step == ("tricks", 1)


def test_r16_over_random_rounds_it_enters_the_truth_exactly_when_one_alone_missed() -> None:
    """Bids and counts at random: for every player whose count is missing, "only they
    missed" enters the very counts that were taken when they alone missed, and is refused
    otherwise; it is offered exactly when one of them alone can have missed."""
    rng = random.Random(16)
    for _ in range(400):
        players, cards = rng.randint(3, 6), rng.randint(1, 12)
        tricks = [0] * players
        for _trick in range(cards):
            tricks[rng.randrange(players)] += 1
        bids = [t if rng.random() < 0.6 else rng.randint(0, cards) for t in tricks]
        d = bids_in(list(bids), cards)
        for seat in rng.sample(range(players), rng.randint(0, players - 1)):
            d, _ = d.record_tricks(seat, tricks[seat])
            if d.tricks_in:
                break
        if d.tricks_in:
            continue
        missing = [s for s, t in enumerate(d.tricks) if t is None]
        missed = [s for s in missing if bids[s] != tricks[s]]
        for seat in missing:
            if missed == [seat]:
                assert d.only_missed(seat) == tuple(tricks)
                assert d.only_one_missed(seat)[0].tricks == tuple(tricks)
            elif d.only_missed(seat) is not None:
                # Said falsely, it still enters counts that add up, and not this truth.
                counts = d.only_missed(seat)
                assert counts is not None and sum(counts) == cards
                assert counts != tuple(tricks) and counts[seat] != bids[seat]
        if len(missed) == 1 and len(missing) >= 2:
            assert d.one_missed_offered
        if not missed:
            assert not d.one_missed_offered
