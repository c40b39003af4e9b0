"""V3/V4 with V1/V2 at a digital table: the last bidder bids blind. What each seat is
shown before it bids is the same whatever the others' sealed bids, and the bid that makes
the total is refused only once it is made."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from scorekeeper.engine import Bidding, DealerRule, Phase, RuleSet
from scorekeeper.engine.bots import Bot
from tests.digital.support import Table

P = "person"
SEED = 9  # round 1 with this deal leaves round 2's dealer strictly ahead (checked below)


def _alike(table: Table, body: str) -> str:
    """A seat's page with what differs between two tables by name alone taken out."""
    body = body.replace(table.public_id, "TABLE")
    for token in table.tokens:
        if token:
            body = body.replace(token, "SEAT")
    body = re.sub(r'name="csrf_token" value="[^"]*"', "", body)
    return re.sub(r'"X-CSRFToken": "[^"]*"', "", body)


@pytest.mark.parametrize("bidding", [Bidding.HIDDEN, Bidding.SECRET])
@pytest.mark.parametrize("dealer_rule", [DealerRule.PLUS_MINUS_ONE, DealerRule.CANADIAN])
def test_v3_v4_a_seat_sees_nothing_of_the_sealed_bids_before_it_bids(
    app: Flask, bidding: Bidding, dealer_rule: DealerRule
) -> None:
    rules = RuleSet(bidding=bidding, dealer_rule=dealer_rule)
    tables = [Table.create(app, rules, [P, P, P], seed=SEED) for _ in range(2)]
    for table in tables:
        table.play_rounds(rounds=1, scan_all=False)
    game = tables[0].engine()
    assert game.to_dict() == tables[1].engine().to_dict()
    assert game.round_number == 2
    others = [t for s, t in enumerate(game.totals) if s != game.dealer]
    assert game.totals[game.dealer] > max(others), "V2 applies in round 2 only if so"
    if game.phase is Phase.CHOOSE_TRUMP:
        suit = Bot().choose_trump(game, game.dealer).colour
        for table in tables:
            table.post(game.dealer, "trump", suit, table.seq(game.dealer))
    first, second, last = tables[0].engine().bidders
    # Two cards: the sealed bids leave 1 forbidden to the last bidder in one game, 0 in
    # the other.
    sealed = [{first: 0, second: 1}, {first: 2, second: 0}]

    def pages(seat: int) -> list[str]:
        return [_alike(t, t.get(seat)) + _alike(t, t.get(seat, "/live")) for t in tables]

    for seat in (first, second):
        for waiting in (second, last):
            one, other = pages(waiting)
            assert one == other
        for table, bids in zip(tables, sealed, strict=True):
            response = table.post(seat, "bid", str(bids[seat]), table.seq(seat))
            assert response.status_code == 200
    one, other = pages(last)
    assert one == other
    assert 'data-bid-key="1" disabled' not in one and "would add up" not in one

    # The last bid of 1 makes the total in the first game only: asked to change there.
    refused = tables[0].post(last, "bid", "1", tables[0].seq(last))
    assert refused.status_code == 422
    assert "Ben (dealer) can&#39;t bid 1" in refused.get_data(as_text=True)
    assert tables[0].engine().bids[last] is None
    assert tables[1].post(last, "bid", "1", tables[1].seq(last)).status_code == 200
    assert tables[0].post(last, "bid", "0", tables[0].seq(last)).status_code == 200
    assert tables[0].engine().phase is tables[1].engine().phase is Phase.PLAYING
