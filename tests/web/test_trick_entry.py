"""Trick counts with fewer taps: in any order, "the rest made their bids" in one tap, the
round scored once every count is in (R16) and "Undo" right after it. The counts still add
up to the cards dealt (R9), secret bids stay secret (V4), and a Saboteur dealer without a
bid takes what is left (V6)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from flask import Flask

from scorekeeper import transaction
from tests.web.support import (
    Pages,
    alert,
    ok,
    pad_totals,
    scored,
    seat_rows,
    section,
    stored_tricks,
    text_of,
)

Snapshot = Callable[[str], tuple[object, ...]]
REST = "The rest made their bids"
EVERYONE = "Everyone made their bid"


def to_round_3(pages: Pages, pid: str) -> None:
    """Rounds 1 and 2 of Ann, Ben, Cat, Dan (Dan deals round 1); round 3 deals 3 cards,
    Ben deals, Cat bids first."""
    pages.play_round(pid, {0: 0, 1: 0, 2: 0, 3: 1}, {0: 0, 1: 0, 2: 0})
    pages.play_round(pid, {1: 1, 2: 0, 3: 0, 0: 1}, {1: 1, 2: 0, 3: 0})


@pytest.fixture
def pid(pages: Pages) -> str:
    pid = pages.new_game(["Ann", "Ben", "Cat", "Dan"], dealer=3)
    to_round_3(pages, pid)
    return pid


def test_counts_go_in_in_any_order(pages: Pages, app: Flask, pid: str) -> None:
    for seat, bid in ((2, 1), (3, 0), (0, 1), (1, 0)):
        ok(pages.bid(pid, seat, bid))
    body = ok(pages.page(pid)).get_data(as_text=True)
    panel = section(body, "entry")
    # Cat is asked first (bidding order); everyone without a count is a tap away.
    assert "Tricks: Cat took" in text_of(panel)
    for seat in range(4):
        assert f'data-taker="{seat}"' in panel
    # Ann's count first, then Ben's, then Cat's: Dan's fills itself in and the round is
    # scored.
    ok(pages.tricks(pid, 0, 2))
    ok(pages.tricks(pid, 1, 0))
    response = ok(pages.tricks(pid, 2, 1))
    assert scored(response)
    with app.app_context():
        assert stored_tricks(pid, 3) == [2, 0, 1, 0]


def tricks_left(panel: str) -> str | None:
    """The words beside the keys saying how many tricks no count holds yet."""
    found = re.search(
        r'<p class="tricks-left"[^>]*>(.*?)</p>\s*</div>\s*<div class="keys">', panel, re.S
    )
    return text_of(found.group(1)) if found else None


def test_r16_the_tricks_left_are_counted_down_next_to_the_keys(pages: Pages, pid: str) -> None:
    for seat, bid in ((2, 1), (3, 0), (0, 1)):
        ok(pages.bid(pid, seat, bid))
        assert tricks_left(section(ok(pages.page(pid)).get_data(as_text=True), "entry")) is None
    shown = []
    for seat, count in ((1, 0), (0, 1), (1, 0)):  # the last bid, then Ann's and Ben's counts
        response = pages.bid(pid, seat, count) if not shown else pages.tricks(pid, seat, count)
        shown.append(tricks_left(section(ok(response).get_data(as_text=True), "entry")))
    assert shown == ["3 tricks left", "2 tricks left", "2 tricks left"]
    response = ok(pages.tricks(pid, 2, 2))  # every trick taken: Dan's 0 fills itself in
    assert scored(response) and "tricks-left" not in response.get_data(as_text=True)


def test_the_bid_key_is_marked(pages: Pages, pid: str) -> None:
    for seat, bid in ((2, 2), (3, 0), (0, 1), (1, 1)):
        ok(pages.bid(pid, seat, bid))
    panel = section(ok(pages.page(pid)).get_data(as_text=True), "entry")
    assert 'name="tricks" value="2" class="key as-bid"' in panel  # Cat bid 2
    assert panel.count("as-bid") == 1
    assert 'data-seat="2" data-bid="2"' in panel


def test_the_rest_made_their_bids_in_one_tap(pages: Pages, app: Flask, pid: str) -> None:
    for seat, bid in ((2, 1), (3, 0), (0, 1), (1, 0)):
        ok(pages.bid(pid, seat, bid))
    # Bids 2 for 3 tricks: "the rest as bid" can't add up yet.
    body = ok(pages.page(pid)).get_data(as_text=True)
    assert EVERYONE not in body and REST not in body
    body = ok(pages.tricks(pid, 0, 2)).get_data(as_text=True)  # Ann took 2, bid 1
    # Cat 1, Dan 0, Ben 0 make 3 with Ann's 2: offered.
    assert REST in text_of(section(body, "entry"))
    response = ok(pages.post(pid, "tricks/rest"))
    assert scored(response)
    with app.app_context():
        assert stored_tricks(pid, 3) == [2, 0, 1, 0]
    assert pad_totals(response.get_data(as_text=True), 3) == [40, 70, 70, 70]


def test_everyone_made_their_bid(pages: Pages, app: Flask, pid: str) -> None:
    for seat, bid in ((2, 1), (3, 1), (0, 1), (1, 0)):
        ok(pages.bid(pid, seat, bid))
    body = ok(pages.page(pid)).get_data(as_text=True)
    assert EVERYONE in text_of(section(body, "entry"))
    assert scored(ok(pages.post(pid, "tricks/rest")))
    with app.app_context():
        assert stored_tricks(pid, 3) == [1, 0, 1, 1]


def test_the_rest_as_bid_is_refused_when_it_does_not_add_up(
    pages: Pages, pid: str, snapshot: Snapshot
) -> None:
    before = snapshot(pid)
    response = pages.post(pid, "tricks/rest")  # no bid in yet
    assert response.status_code == 422
    assert alert(response) == "Enter every bid before the tricks."
    assert snapshot(pid) == before
    for seat, bid in ((2, 1), (3, 0), (0, 1), (1, 0)):
        ok(pages.bid(pid, seat, bid))
    before = snapshot(pid)
    response = pages.post(pid, "tricks/rest")  # bids 2 for 3 tricks
    assert response.status_code == 422
    assert alert(response) == "Their bids don't add up with the tricks entered: enter each count."
    assert snapshot(pid) == before


def test_secret_bids_are_never_filled_in_as_bid(pages: Pages, snapshot: Snapshot) -> None:
    """V4: the scorer doesn't see secret bids before the round is scored, so the offer
    would tell them the bids add up."""
    pid = pages.new_game(["Ann", "Ben", "Cat"], dealer=0, bidding="secret")
    for seat in (1, 2, 0):
        ok(pages.bid(pid, seat, 0))
    body = ok(pages.tricks(pid, 1, 0)).get_data(as_text=True)
    assert REST not in body and EVERYONE not in body and "data-bid=" not in body
    before = snapshot(pid)
    response = pages.post(pid, "tricks/rest")
    assert response.status_code == 422
    assert snapshot(pid) == before


def test_v6_the_dealer_without_a_bid_takes_what_is_left(pages: Pages, app: Flask) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"], dealer=2, saboteur=True)
    # Round 1 (1 card): Cat deals and does not bid; Ann and Ben bid 0.
    ok(pages.bid(pid, 0, 0))
    body = ok(pages.bid(pid, 1, 0)).get_data(as_text=True)
    assert EVERYONE in text_of(section(body, "entry"))
    assert scored(ok(pages.post(pid, "tricks/rest")))
    with app.app_context():
        assert stored_tricks(pid, 1) == [0, 0, 1]


def test_undo_right_after_the_round_is_scored(pages: Pages, app: Flask, pid: str) -> None:
    for seat, bid in ((2, 1), (3, 1), (0, 1), (1, 0)):
        ok(pages.bid(pid, seat, bid))
    ok(pages.tricks(pid, 2, 1))  # Cat 1, then Dan, Ann and Ben as bid
    body = ok(pages.post(pid, "tricks/rest")).get_data(as_text=True)
    assert "Round 3 is scored. ↶ Undo" in text_of(section(body, "entry"))
    body = ok(pages.post(pid, "reopen", round=3)).get_data(as_text=True)
    # The tap is undone: the counts it filled in are open again, Cat's stays.
    assert [t for _b, t in seat_rows(body).values()] == ["1", "·", "·", "·"]
    assert pad_totals(body, 3) == [None, None, None, None]
    with app.app_context():
        assert stored_tricks(pid, 3) == [None, None, 1, None]
    assert "Round 3 reopened" in text_of(section(body, "log"))
    # Once undone it can't be undone again.
    assert "is scored. ↶ Undo" not in text_of(section(body, "entry"))


def test_undo_is_gone_once_the_next_round_starts(
    pages: Pages, pid: str, snapshot: Snapshot
) -> None:
    ok(pages.bid(pid, 2, 0))  # round 3 has started
    before = snapshot(pid)
    response = pages.post(pid, "reopen", round=2)
    assert response.status_code == 422
    assert alert(response) == (
        "That round can't be reopened any more: correct it on the pad instead."
    )
    assert snapshot(pid) == before


@pytest.mark.parametrize("number", ["1", "3", "0", "-1", "x", "", "9" * 5000])
def test_only_the_round_just_scored_reopens(
    pages: Pages, pid: str, snapshot: Snapshot, number: str
) -> None:
    before = snapshot(pid)
    response = pages.post(pid, "reopen", round=number)
    assert response.status_code == 422
    assert alert(response)
    assert snapshot(pid) == before


def test_a_round_recorded_whole_is_not_reopened(pages: Pages, app: Flask) -> None:
    """A correction or a round sent whole (API, import) is no tap to undo."""
    pid = pages.new_game(["Ann", "Ben", "Cat"], dealer=0)
    from scorekeeper.services import games as game_service

    with app.app_context(), transaction.atomic():
        game_service.record_round(game_service.get_game(pid), [0, 0, 0], [1, 0, 0])
    assert "is scored. ↶ Undo" not in text_of(
        section(pages.page(pid).get_data(as_text=True), "entry")
    )
    assert pages.post(pid, "reopen", round=1).status_code == 422


def test_a_follower_can_not_reopen(
    pages: Pages, follower: Pages, pid: str, snapshot: Snapshot
) -> None:
    body = follower.page(pid).get_data(as_text=True)
    assert "is scored. ↶ Undo" not in body and "data-taker" not in body
    before = snapshot(pid)
    response = follower.post(pid, "reopen", round=2)
    assert response.status_code == 403
    assert follower.post(pid, "tricks/rest").status_code == 403
    assert snapshot(pid) == before


def test_undo_is_gone_once_anything_else_changes(
    pages: Pages, pid: str, snapshot: Snapshot
) -> None:
    """A correction of an earlier round after the tap: the tap is no longer the last thing
    done, so "Undo" is not offered for it any more."""
    ok(pages.correct(pid, 1, [0, 0, 0, 1], [0, 0, 1, 0]))  # Cat took the trick, not Dan
    body = pages.page(pid).get_data(as_text=True)
    assert "is scored. ↶ Undo" not in text_of(section(body, "entry"))
    before = snapshot(pid)
    assert pages.post(pid, "reopen", round=2).status_code == 422
    assert snapshot(pid) == before


def test_the_last_rounds_undo_comes_with_the_tap_that_ended_the_game_only(
    pages: Pages, app: Flask
) -> None:
    """A round before the last keeps its Undo on the page until the next round starts;
    the last round's comes with the answer to the tap that scored it (and a phone
    without JavaScript, the page it is sent back to), and the final standings shown
    again have none: its Undo does not wait there for hours."""
    from scorekeeper.services import games as game_service

    pid = pages.new_game(["Ann", "Ben", "Cat"], dealer=0)
    with app.app_context(), transaction.atomic():
        game = game_service.get_game(pid)
        for cards in game_service.sheet_of(game).plan[:-2]:
            game_service.record_round(game, [0, 0, 0], [cards, 0, 0])
    undo = "is scored. ↶ Undo"
    # Round 19 (19 cards, Ann deals, Ben bids first): Cat took them all.
    pages.play_round(pid, {1: 0, 2: 19, 0: 0}, {2: 19})
    assert "Round 19 " + undo in text_of(section(pages.page(pid).get_data(as_text=True), "entry"))
    # Round 20, the last: the tap's answer offers Undo, the page shown again does not.
    answer = pages.play_round(pid, {2: 0, 0: 20, 1: 0}, {0: 20}).get_data(as_text=True)
    assert "Final standings" in text_of(section(answer, "entry"))
    assert "Round 20 " + undo in text_of(section(answer, "entry"))
    for again in (pages.page(pid), pages.client.get(f"/games/{pid}/panel")):
        assert undo not in text_of(section(again.get_data(as_text=True), "entry"))
    # Without JavaScript: the page after the tap has it, the next one not.
    ok(pages.post(pid, "reopen", round=20))
    sent = pages.tricks(pid, 0, 20, htmx=False)
    assert sent.status_code == 303
    assert undo in text_of(section(pages.page(pid).get_data(as_text=True), "entry"))
    assert undo not in text_of(section(pages.page(pid).get_data(as_text=True), "entry"))
