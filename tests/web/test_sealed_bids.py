"""V3/V4 with V1/V2 on the score pad: the last bidder bids blind. Nothing any phone is
shown before the last bid depends on the sealed bids, and the bid that makes the total
is refused only once it is made."""

from collections.abc import Callable
from functools import partial

import pytest

from tests.web.support import HX, Pages, alert, ok, pad_bids
from tests.web.test_bidding_variants import Snapshot, normalise

# Round 2 (2 cards): Cat, Ann, then Ben, who deals and leads after round 1, so that the
# Canadian rule (V2) applies as well as plus/minus one (V1). The sealed bids leave a
# different bid forbidden to Ben: 1 in game A, 0 in game B.
SEALED = {"A": {2: 0, 0: 1}, "B": {2: 2, 0: 0}}


@pytest.mark.parametrize("bidding", ["hidden", "secret"])
@pytest.mark.parametrize("dealer_rule", ["plus_minus_one", "canadian"])
def test_v3_v4_nothing_before_the_last_bid_depends_on_the_sealed_bids(
    pages: Pages, follower: Pages, snapshot: Snapshot, bidding: str, dealer_rule: str
) -> None:
    games = {
        name: pages.new_game(
            ["Ann", "Ben", "Cat"], dealer=0, bidding=bidding, dealer_rule=dealer_rule
        )
        for name in SEALED
    }
    for pid in games.values():
        # Round 1, alike in both: Ben 30, Ann 20, Cat -10.
        pages.play_round(pid, {1: 1, 2: 1, 0: 0}, {1: 1, 2: 0, 0: 0}, trump="green")
        ok(pages.post(pid, "trump", trump="red"))
    ids = tuple(games.values())

    def views(pid: str, action: Callable[[], object] | None) -> list[str]:
        shown = [] if action is None else [action().get_data(as_text=True)]  # type: ignore[attr-defined]
        return [
            *shown,
            pages.page(pid).get_data(as_text=True),
            pages.client.get(f"/games/{pid}", headers=HX).get_data(as_text=True),
            follower.page(pid).get_data(as_text=True),
            follower.client.get(f"/games/{pid}/live?v=0", headers=HX).get_data(as_text=True),
            pages.client.get(f"/games/{pid}/export.csv").get_data(as_text=True),
            pages.client.get(f"/api/v1/games/{pid}").get_data(as_text=True),
        ]

    for seat in (2, 0):
        seen = [
            views(pid, partial(pages.bid, pid, seat, SEALED[name][seat]))
            for name, pid in games.items()
        ]
        for one, other in zip(*seen, strict=True):
            assert normalise(one, ids) == normalise(other, ids)
    # Ben's keys, with both others' bids in: the same in both games, every key offered.
    seen = [views(pid, None) for pid in games.values()]
    for one, other in zip(*seen, strict=True):
        assert normalise(one, ids) == normalise(other, ids)
    assert "would add up" not in seen[0][0]

    # Ben bids 1: in A that makes the total 2, the round's cards, and he is asked to
    # change, with nothing stored; in B it stands.
    before = snapshot(games["A"])
    refused = pages.bid(games["A"], 1, 1)
    assert refused.status_code == 422
    assert "can't bid 1" in (alert(refused) or "")
    assert snapshot(games["A"]) == before
    ok(pages.bid(games["B"], 1, 1))
    ok(pages.bid(games["A"], 1, 0))
    if bidding == "hidden":  # shown together once all are in (V3)
        assert pad_bids(pages.page(games["A"]).get_data(as_text=True), 2) == ["1", "0", "0"]
        assert pad_bids(pages.page(games["B"]).get_data(as_text=True), 2) == ["0", "1", "2"]
