"""Recording rounds tap by tap on the game page: bids in order (R6), forbidden bids
(V1, V2, V7), tricks (auto-fill, adding up), trump (R7, R8, P1), undo, scoring (R16)."""

import re
from collections.abc import Callable

import pytest
from flask import Flask

from scorekeeper import transaction
from scorekeeper.services import games as game_service
from tests.web.support import (
    HX,
    Pages,
    alert,
    ok,
    pad_bids,
    pad_rows,
    pad_totals,
    scored,
    seat_rows,
    section,
    text_of,
)

Snapshot = Callable[[str], tuple[object, ...]]


@pytest.fixture
def pid(pages: Pages) -> str:
    """Ann, Ben, Cat; Ann deals round 1, so Ben bids first and Ann last."""
    return pages.new_game(["Ann", "Ben", "Cat"], dealer=0)


def test_panel_shows_round_cards_dealer_order_and_leader(pages: Pages, pid: str) -> None:
    body = pages.page(pid).get_data(as_text=True)
    panel = section(body, "entry")
    assert "Round 1" in panel and "of 20" in panel
    assert '<strong class="num">1</strong> card each' in panel
    assert (
        "<strong>Ann</strong> deals" in panel
        and "<strong>Ben</strong> bids first and leads" in panel
    )
    assert list(seat_rows(body)) == ["Ben", "Cat", "Ann"]  # bidding order, dealer last
    assert "Ben" in section(panel, "entry").split('class="ask"')[1][:60]  # Ben's turn


def test_a_round_tap_by_tap(pages: Pages, pid: str) -> None:
    ok(pages.bid(pid, 1, 1))
    ok(pages.bid(pid, 2, 0))
    response = ok(pages.bid(pid, 0, 0))
    body = response.get_data(as_text=True)
    assert seat_rows(body) == {"Ben": ("1", "·"), "Cat": ("0", "·"), "Ann": ("0", "·")}
    assert 'Bids <strong class="num">1</strong> for <strong class="num">1</strong> trick' in body
    assert pad_bids(body, 1) == ["0", "1", "0"]  # the pad came along (out of band)
    assert 'id="pad" class="pad players-3" hx-swap-oob="true"' in body
    # Ben took the one trick: the others took none, and the round is scored (R16).
    response = ok(pages.tricks(pid, 1, 1))
    assert scored(response)
    body = response.get_data(as_text=True)
    assert pad_totals(body, 1) == [20, 30, 20]
    assert "Round 2" in section(body, "entry")
    # The panel shows what the round brought, and offers to undo the tap.
    assert "+30" in section(body, "entry")
    assert "Round 1 is scored. ↶ Undo" in text_of(section(body, "entry"))


def _keyless(html: str) -> str:
    """Markup without what is fresh in every form rendered: the idempotency keys, and
    the CSRF token, which is signed with the second it is made."""
    return re.sub(r'name="(idempotency_key|csrf_token)" value="[^"]*"', "", html)


def test_page_and_fragment_share_the_markup(pages: Pages, pid: str) -> None:
    ok(pages.bid(pid, 1, 1))
    page = pages.page(pid)
    fragment = pages.client.get(f"/games/{pid}", headers=HX)
    assert "<html" in page.get_data(as_text=True)
    assert "<html" not in fragment.get_data(as_text=True)
    assert _keyless(section(page.get_data(as_text=True), "entry")) == _keyless(
        section(fragment.get_data(as_text=True), "entry")
    )
    for response in (page, fragment):
        assert "HX-Request" in response.headers["Vary"]


def test_bids_go_in_bidding_order(pages: Pages, pid: str, snapshot: Snapshot) -> None:
    before = snapshot(pid)
    response = pages.bid(pid, 2, 0)  # Cat before Ben
    assert response.status_code == 422
    assert alert(response) == "Ben bids first."
    assert snapshot(pid) == before


def test_forbidden_bid_is_disabled_with_the_reason_and_refused(
    pages: Pages, app: Flask, snapshot: Snapshot
) -> None:
    # Plus/minus one; Ann deals round 5 (5 cards). Rounds 1-4 go in through the service.
    pid = pages.new_game(["Ann", "Ben", "Cat"], dealer=2, dealer_rule="plus_minus_one")
    with app.app_context(), transaction.atomic():
        game = game_service.get_game(pid)
        for number, (bids, tricks) in enumerate(
            [
                ([0, 0, 0], [1, 0, 0]),
                ([1, 0, 0], [1, 1, 0]),
                ([1, 1, 0], [1, 1, 1]),
                ([1, 1, 1], [1, 1, 2]),
            ],
            start=1,
        ):
            game_service.record_round(game, bids, tricks)
            assert len(game.rounds) == number
    ok(pages.bid(pid, 1, 2))
    body = ok(pages.bid(pid, 2, 1)).get_data(as_text=True)
    reason = (
        "Ann (dealer) can't bid 2: the bids would add up to the 5 tricks "
        "(plus/minus one). Allowed: 0, 1, 3, 4, 5."
    )
    assert (
        '<button type="submit" name="bid" value="2" class="key" disabled '
        'aria-describedby="why-bid-2">2</button>' in body
    )
    why = f'<p class="why" id="why-bid-2" title="{reason}">{reason}</p>'.replace("'", "&#39;")
    assert why in body  # the whole reason its title too (shortened sideways at 640×360)
    assert "2 under" in body  # the live line: bids 3 for 5 tricks
    before = snapshot(pid)
    response = pages.bid(pid, 0, 2)
    assert response.status_code == 422
    assert alert(response) == reason
    assert snapshot(pid) == before
    ok(pages.bid(pid, 0, 3))


def test_no_full_bid(pages: Pages, snapshot: Snapshot) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"], round_plan="short", no_full_bid=True)
    body = pages.page(pid).get_data(as_text=True)  # 2 cards: the most is 1
    assert 'value="2" class="key" disabled' in body
    assert "Ben can&#39;t bid 2: no full bid, so the most is 1." in body
    before = snapshot(pid)
    assert pages.bid(pid, 1, 2).status_code == 422
    assert snapshot(pid) == before


@pytest.mark.parametrize("bid", ["-1", "2", "x", ""])
def test_impossible_bids_are_refused(pages: Pages, pid: str, snapshot: Snapshot, bid: str) -> None:
    before = snapshot(pid)
    response = pages.bid(pid, 1, bid)
    assert response.status_code == 422
    assert alert(response)
    assert snapshot(pid) == before


@pytest.mark.parametrize("seat", ["3", "-1", "x", ""])
def test_no_such_seat(pages: Pages, pid: str, snapshot: Snapshot, seat: str) -> None:
    before = snapshot(pid)
    response = pages.post(pid, "bid", seat=seat, bid=0)
    assert response.status_code == 422
    assert alert(response) == "There is no such player at this table."
    assert snapshot(pid) == before


def test_tricks_must_add_up(pages: Pages, snapshot: Snapshot) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat", "Dan"], round_plan="short")  # 1 card, then 3
    pages.play_round(pid, {1: 0, 2: 0, 3: 1, 0: 0}, {1: 0, 2: 0, 3: 1})
    for seat, bid in ((2, 1), (3, 1), (0, 1), (1, 1)):
        ok(pages.bid(pid, seat, bid))
    body = ok(pages.tricks(pid, 2, 2)).get_data(as_text=True)
    # Only one trick is left for Dan: 2 and 3 are disabled, with the reason.
    assert 'name="tricks" value="2" class="key" disabled' in body
    assert "Dan can&#39;t have taken 2: only 1 of the 3 tricks is left." in body
    before = snapshot(pid)
    response = pages.tricks(pid, 3, 2)
    assert response.status_code == 422
    assert alert(response) == "Dan can't have taken 2: only 1 of the 3 tricks is left."
    assert snapshot(pid) == before
    ok(pages.tricks(pid, 3, 0))
    response = ok(pages.tricks(pid, 0, 1))  # Ben's 0 fills itself in: the round is scored
    assert scored(response)
    assert pad_totals(response.get_data(as_text=True), 2) == [50, 10, 10, 20]


def test_tricks_wait_for_every_bid(pages: Pages, pid: str, snapshot: Snapshot) -> None:
    ok(pages.bid(pid, 1, 0))
    before = snapshot(pid)
    response = pages.tricks(pid, 1, 0)
    assert response.status_code == 422
    assert alert(response) == "Enter every bid before the tricks."
    assert snapshot(pid) == before


def test_confirm_waits_for_every_trick(pages: Pages, pid: str, snapshot: Snapshot) -> None:
    for seat, bid in ((1, 0), (2, 0), (0, 0)):
        ok(pages.bid(pid, seat, bid))
    before = snapshot(pid)
    response = pages.confirm(pid)
    assert response.status_code == 422
    assert alert(response) == "Enter every player's tricks first."
    assert snapshot(pid) == before


def test_undo_steps_back_one_tap(pages: Pages, pid: str) -> None:
    ok(pages.bid(pid, 1, 1))
    ok(pages.bid(pid, 2, 0))
    body = pages.page(pid).get_data(as_text=True)
    # The server takes the step back down the round's moves; the label says which.
    assert 'name="clear" value="undo" class="secondary small undo"' in body
    assert "Undo Cat's bid" in text_of(section(body, "entry"))
    body = ok(pages.post(pid, "clear", clear="undo")).get_data(as_text=True)
    assert seat_rows(body)["Cat"] == ("·", "·")
    ok(pages.bid(pid, 2, 0))
    ok(pages.bid(pid, 0, 1))
    body = ok(pages.tricks(pid, 1, 0)).get_data(as_text=True)
    assert seat_rows(body)["Ben"] == ("1", "0")
    assert 'name="clear" value="tricks:1"' in body
    # Cat's 0 leaves one trick, Ann's: filled in, and the round scored.
    body = ok(pages.tricks(pid, 2, 0)).get_data(as_text=True)
    assert pad_totals(body, 1) == [30, -10, 20]
    # "Undo" opens the round again without Cat's tap and the count it filled in.
    body = ok(pages.post(pid, "reopen", round=1)).get_data(as_text=True)
    rows = seat_rows(body)
    assert rows["Ben"] == ("1", "0") and rows["Cat"] == ("0", "·") and rows["Ann"] == ("1", "·")
    assert pad_totals(body, 1) == [None, None, None]
    # A count tapped on the panel is taken back alone.
    body = ok(pages.post(pid, "clear", clear="tricks:1")).get_data(as_text=True)
    assert [t for _b, t in seat_rows(body).values()] == ["·", "·", "·"]
    # With no tricks in, a bid can be taken back again: that bid alone.
    body = ok(pages.post(pid, "clear", clear="bid:1")).get_data(as_text=True)
    assert [b for b, _t in seat_rows(body).values()] == ["·", "0", "1"]


def test_bids_cannot_change_once_tricks_are_in(pages: Pages, pid: str, snapshot: Snapshot) -> None:
    for seat, bid in ((1, 0), (2, 0), (0, 0)):
        ok(pages.bid(pid, seat, bid))
    ok(pages.tricks(pid, 1, 0))
    before = snapshot(pid)
    response = pages.post(pid, "clear", clear="bid:2")
    assert response.status_code == 422
    assert "clear them before changing a bid" in (alert(response) or "")
    assert pages.post(pid, "clear", clear="nonsense").status_code == 422
    assert snapshot(pid) == before


def test_trump_is_recorded_and_shown_by_name_and_letter(pages: Pages, pid: str) -> None:
    body = ok(pages.post(pid, "trump", trump="wizard:blue")).get_data(as_text=True)
    assert "Wizard: dealer chose Blue" in section(body, "entry")
    pages.play_round(pid, {1: 0, 2: 0, 0: 0}, {1: 1, 2: 0})
    body = pages.page(pid).get_data(as_text=True)
    assert pad_rows_first(body).startswith("1 1 B")
    assert 'title="Trump: Wizard: dealer chose Blue"' in body
    body = ok(pages.post(pid, "trump", trump="none")).get_data(as_text=True)
    assert '<span class="trump-now">No trump</span>' in section(body, "entry")


def pad_rows_first(body: str) -> str:
    return pad_rows(body)[0][0]


def test_french_suit_names(pages: Pages) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"], suit_names="french")
    body = ok(pages.post(pid, "trump", trump="red")).get_data(as_text=True)
    assert '<span class="trump-mark suit-red">♥</span> Hearts' in section(body, "entry")


def test_last_round_has_no_trump_by_itself(pages: Pages, app: Flask, snapshot: Snapshot) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"], round_plan="short")
    with app.app_context(), transaction.atomic():
        game = game_service.get_game(pid)
        for cards in (2, 4, 6, 8, 10, 12, 14, 16, 18):
            game_service.record_round(game, [0, 0, 0], [cards, 0, 0])
    body = pages.page(pid).get_data(as_text=True)
    panel = section(body, "entry")
    assert '<span class="trump-now">No trump</span>' in panel and "every card is dealt" in panel
    assert 'name="trump"' not in panel
    before = snapshot(pid)
    response = pages.post(pid, "trump", trump="red")
    assert response.status_code == 422
    assert alert(response) == "The last round deals every card, so there is no trump."
    assert snapshot(pid) == before
    body = pages.play_round(pid, {1: 0, 2: 0, 0: 0}, {1: 20, 2: 0}).get_data(as_text=True)
    with app.app_context():
        assert game_service.get_game(pid).rounds[-1].trump == "none"


def test_bad_trump(pages: Pages, pid: str, snapshot: Snapshot) -> None:
    before = snapshot(pid)
    response = pages.post(pid, "trump", trump="purple")
    assert response.status_code == 422
    assert "Unknown suit" in (alert(response) or "")
    assert snapshot(pid) == before


def test_without_javascript_forms_post_and_redirect(
    pages: Pages, pid: str, snapshot: Snapshot
) -> None:
    response = pages.bid(pid, 1, 0, htmx=False)
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{pid}"
    before = snapshot(pid)
    refused = pages.bid(pid, 0, 0, htmx=False)  # Cat bids first
    assert refused.status_code == 422
    assert "<html" in refused.get_data(as_text=True)
    assert alert(refused) == "Cat bids first."
    assert snapshot(pid) == before


def test_a_stale_page_gets_409_and_the_current_state(
    pages: Pages, pid: str, snapshot: Snapshot
) -> None:
    ok(pages.bid(pid, 1, 0))
    before = snapshot(pid)
    stale = before[0] - 1  # the version the page had before that bid
    response = pages.post(pid, "bid", seat=2, bid=0, v=stale)
    assert response.status_code == 409
    assert "Already recorded by someone else" in (alert(response) or "")
    assert seat_rows(response.get_data(as_text=True))["Ben"] == ("0", "·")
    assert snapshot(pid) == before
    ok(pages.post(pid, "bid", seat=2, bid=0, v=before[0]))
