"""Undo steps back down the round's stack of moves, kept with the game: move by move
across requests, reloads and phones, exactly as the round model does in memory (R6: a
bid taken back and made again is the last one made; counts go in in any order). A draft
stored before its moves were kept still loads, and Undo there follows the bidding
order."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from flask import Flask

from scorekeeper import transaction
from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.services import games as game_service
from scorekeeper.services import idempotency
from scorekeeper.services.errors import Rejected
from tests.history.test_queries import counting as statements
from tests.web.support import HX, Pages, alert, keep_score_without_link, ok, seat_rows, text_of

Snapshot = Callable[[str], tuple[object, ...]]


@pytest.fixture
def pid(pages: Pages) -> str:
    """Five players, Eve deals round 1; two rounds played: round 3 (3 cards) is open, Ben
    deals and the bidding goes Cat, Dan, Eve, Ann, Ben."""
    pid = pages.new_game(["Ann", "Ben", "Cat", "Dan", "Eve"], dealer=4)
    pages.play_round(pid, {0: 0, 1: 0, 2: 0, 3: 0, 4: 1}, {4: 1})
    pages.play_round(pid, {1: 0, 2: 0, 3: 0, 4: 0, 0: 2}, {0: 2})
    return pid


def undo_label(body: str) -> str | None:
    """What the scorer's Undo button next to the keys says, if it is there."""
    found = re.search(r'<p class="undo-line">(.*?)</p>', body, re.S)
    return None if found is None else text_of(found.group(1))


def undo(pages: Pages, pid: str) -> str:
    """Reload the page and tap its Undo (what the button sends); returns what it said."""
    body = ok(pages.page(pid)).get_data(as_text=True)
    label = undo_label(body)
    button = re.search(r'<p class="undo-line"><button [^>]*name="clear" value="([^"]*)"', body)
    assert label is not None and button is not None, "no Undo on the page"
    ok(pages.post(pid, "clear", clear=button.group(1)))
    return label


def bids_of(pages: Pages, pid: str) -> list[str]:
    return [bid for bid, _took in seat_rows(pages.page(pid).get_data(as_text=True)).values()]


def test_r6_undo_takes_back_the_bid_made_last_then_the_ones_before(
    pages: Pages, pid: str, app: Flask, snapshot: Snapshot
) -> None:
    """A bid taken back and made again is the last move: Undo takes it first, on one
    phone and then on another (the stack is the game's, not a page's)."""
    for seat, bid in ((2, 1), (3, 0), (4, 1)):
        ok(pages.bid(pid, seat, bid))
    ok(pages.post(pid, "clear", clear="bid:3"))
    ok(pages.bid(pid, 3, 2))  # Dan's bid again, after Eve's
    assert undo(pages, pid) == "↶ Undo Dan's bid"
    assert bids_of(pages, pid) == ["1", "·", "1", "·", "·"]  # Cat, Dan, Eve, Ann, Ben
    other = Pages(app.test_client())  # another phone keeping score of the game
    keep_score_without_link(other.client, pid)
    assert undo(other, pid) == "↶ Undo Eve's bid"
    assert undo(pages, pid) == "↶ Undo Cat's bid"
    body = pages.page(pid).get_data(as_text=True)
    assert undo_label(body) is None and bids_of(pages, pid) == ["·"] * 5
    # Nothing left to take back: refused where the keys are, and nothing changes.
    before = snapshot(pid)
    response = pages.post(pid, "clear", clear="undo")
    assert response.status_code == 422
    assert alert(response) == "There is nothing to take back."
    assert snapshot(pid) == before


def test_undo_takes_back_the_counts_in_the_order_they_were_tapped(pages: Pages, pid: str) -> None:
    for seat, bid in ((2, 1), (3, 0), (4, 1), (0, 0), (1, 0)):
        ok(pages.bid(pid, seat, bid))
    for seat, count in ((4, 1), (2, 1), (0, 0)):  # one trick left for Dan and Ben
        ok(pages.tricks(pid, seat, count))
    labels = [undo(pages, pid) for _ in range(3)]
    assert labels == ["↶ Undo Ann's tricks", "↶ Undo Cat's tricks", "↶ Undo Eve's tricks"]
    # Every count out: Undo is back at the bids, the last one made.
    body = pages.page(pid).get_data(as_text=True)
    assert [t for _b, t in seat_rows(body).values()] == ["·"] * 5
    assert undo_label(body) == "↶ Undo Ben's bid"


def test_after_a_round_is_reopened_undo_steps_back_the_taps_before(pages: Pages, pid: str) -> None:
    """Reopening takes back the tap that scored the round (and the counts it filled in);
    the taps before it stay on the stack, the last one on top."""
    for seat, bid in ((2, 1), (3, 0), (4, 1), (0, 0), (1, 0)):
        ok(pages.bid(pid, seat, bid))
    ok(pages.tricks(pid, 4, 1))
    ok(pages.tricks(pid, 2, 1))
    ok(pages.tricks(pid, 3, 1))  # every trick taken: Ann and Ben took none, round scored
    ok(pages.post(pid, "reopen", round=3))
    body = pages.page(pid).get_data(as_text=True)
    assert [t for _b, t in seat_rows(body).values()] == ["1", "·", "1", "·", "·"]
    assert [undo(pages, pid) for _ in range(2)] == [
        "↶ Undo Cat's tricks",
        "↶ Undo Eve's tricks",
    ]


@pytest.mark.parametrize(
    "kept",
    [None, "3:zz", "2:b2 b3 b4", "3:b9 b8"],
    ids=["stored-before-moves", "not-a-stack", "another-round", "seats-not-at-the-table"],
)
def test_a_draft_without_a_stack_it_can_read_loads_and_undo_follows_the_bidding_order(
    pages: Pages, pid: str, app: Flask, kept: str | None
) -> None:
    for seat, bid in ((2, 1), (3, 0), (4, 1)):
        ok(pages.bid(pid, seat, bid))
    ok(pages.post(pid, "clear", clear="bid:3"))
    ok(pages.bid(pid, 3, 2))  # in memory, Undo would take Dan's first
    with app.app_context(), transaction.atomic():
        game_service.get_game(pid).draft_moves = kept
    ok(pages.bid(pid, 0, 1))  # a move kept from here on
    assert undo(pages, pid) == "↶ Undo Ann's bid"
    assert undo(pages, pid) == "↶ Undo Eve's bid"  # the stack doesn't say: bidding order
    assert undo(pages, pid) == "↶ Undo Dan's bid"


def test_undo_across_transactions_through_the_services(app: Flask, pages: Pages, pid: str) -> None:
    """Each call a request of its own: the stack is read back from the game every time."""

    def step(call: Callable[[Game], object]) -> object:
        with app.app_context(), transaction.atomic():
            return call(game_service.get_game(pid))

    for seat, bid in ((2, 1), (3, 0), (4, 1)):
        step(lambda g, s=seat, b=bid: game_service.set_bid(g, s, b))
    step(lambda g: game_service.take_back(g, "bid", 2))
    step(lambda g: game_service.set_bid(g, 2, 0))
    taken = [step(game_service.undo_move) for _ in range(3)]
    assert [(t.kind, t.values) for t in taken] == [  # type: ignore[attr-defined]
        ("bid", {2: 0}),
        ("bid", {4: 1}),
        ("bid", {3: 0}),
    ]
    with pytest.raises(Rejected) as refused:
        step(game_service.undo_move)
    assert refused.value.code == "nothing_to_take_back"


def test_a_change_elsewhere_keeps_the_open_rounds_stack(pages: Pages, pid: str, app: Flask) -> None:
    """A bonus given in a round played (a write of the game that is no tap) leaves the
    round being entered and its stack as they were."""
    for seat, bid in ((2, 1), (3, 0), (4, 1)):
        ok(pages.bid(pid, seat, bid))
    ok(pages.post(pid, "clear", clear="bid:3"))
    ok(pages.bid(pid, 3, 2))
    with app.app_context(), transaction.atomic():
        game_service.add_adjustment(game_service.get_game(pid), 1, 0, 10, "misdeal")
    assert undo(pages, pid) == "↶ Undo Dan's bid"


def test_an_undo_tap_is_as_light_as_a_bid_and_reads_no_change_log(
    pages: Pages, pid: str, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stack comes with the game's row: the game read, the key; the game's version
    and stack, the bid and the log written; the key kept."""
    monkeypatch.setattr(idempotency, "SCOPE_SWEEPS", 0)  # a tap that sweeps nothing
    ok(pages.bid(pid, 2, 1))
    ok(pages.bid(pid, 3, 0))
    version = re.search(r'data-version="(\d+)"', pages.page(pid).get_data(as_text=True))
    assert version is not None
    with statements(app) as seen:
        response = pages.client.post(
            f"/games/{pid}/clear",
            data={"clear": "undo", "v": version.group(1)},
            headers={**HX, "Idempotency-Key": "u" * 20},
        )
    assert response.status_code == 200
    reads = [s for s in seen if s.lstrip().upper().startswith("SELECT")]
    assert len(reads) == 2 and not [s for s in reads if "FROM change" in s]
    assert len(seen) <= 6, "\n".join(s.split("\n")[0] for s in seen)
    with app.app_context():
        db.session.expire_all()
        assert game_service.get_game(pid).draft_moves == "3:b2"
