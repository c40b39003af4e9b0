"""Which bids each viewer may see, as a value (V3, V4): numbers or sealed."""

from dataclasses import replace

import pytest

from scorekeeper.engine import (
    EXPORT,
    FOLLOWER,
    SCORER,
    SEALED,
    Bidding,
    Game,
    Phase,
    Reveal,
    RoundDraft,
    RoundEntry,
    RuleSet,
    Viewer,
)


def draft(bidding: Bidding) -> RoundDraft:
    return RoundDraft.empty(RuleSet(bidding=bidding), 2, 3, 0, (0, 0, 0))  # bids 1, 2, 0


def test_open_bids_are_numbers_for_everyone_as_they_are_made() -> None:
    d = draft(Bidding.OPEN).bid(1, 2)
    for viewer in (SCORER, FOLLOWER, EXPORT, Viewer.at_seat(2), Viewer.bot(0)):
        seen = d.seen_by(viewer)
        assert list(seen) == [None, 2, None] and not seen.sealed and seen.total == 2
    assert d.reveal is Reveal.NOW


def test_v3_hidden_bids_are_sealed_until_every_bid_is_in_but_a_seat_sees_its_own() -> None:
    d = draft(Bidding.HIDDEN).bid(1, 2).bid(2, 0)
    for viewer in (SCORER, FOLLOWER, EXPORT):
        seen = d.seen_by(viewer)
        assert list(seen) == [None, SEALED, SEALED]
        assert seen.sealed and seen.total is None and seen.numbers == [None, None, None]
    assert list(d.seen_by(Viewer.at_seat(1))) == [None, 2, SEALED]
    assert list(d.seen_by(Viewer.bot(2))) == [None, SEALED, 0]
    d = d.bid(0, 0)
    assert list(d.seen_by(FOLLOWER)) == [0, 2, 0] and d.reveal is Reveal.ALL_IN


def test_v4_secret_bids_are_sealed_until_the_round_is_scored() -> None:
    d = draft(Bidding.SECRET).bid(1, 2).bid(2, 0).bid(0, 0)
    assert list(d.seen_by(SCORER)) == [SEALED] * 3 and d.reveal is Reveal.SCORED
    d, _ = d.record_tricks(1, 3)
    assert d.seen_by(EXPORT).sealed  # counts in, not yet scored
    scored = RoundDraft.of_entry(d.rules, 2, 3, 0, (0, 0, 0), RoundEntry(d.bids, (0, 3, 0)))
    assert list(scored.seen_by(EXPORT)) == [0, 2, 0]


@pytest.mark.parametrize("bidding", [Bidding.HIDDEN, Bidding.SECRET])
def test_v3_v4_a_digital_seat_sees_what_the_round_model_says(bidding: Bidding) -> None:
    game = Game.new(RuleSet(bidding=bidding), 3, 0)
    game.phase, game.round_number = Phase.BIDDING, 2
    game.bids = [None, 1, None]
    assert game.view(1)["bids"] == [None, 1, None]
    assert game.view(2)["bids"] == [None, "hidden", None]
    assert list(game.seen_bids(None)) == [None, SEALED, None]
    model = replace(game.round_draft(), bids=(None, 1, None))
    assert game.seen_bids(2) == model.seen_by(Viewer.at_seat(2))
