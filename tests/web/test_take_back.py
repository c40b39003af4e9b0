"""Taking back a bid on the entry panel takes back that bid alone, and "Undo" right after
puts back whatever a take-back removed. Bids made again are checked like any other (V1,
V2); hidden and secret bids (V3, V4) stay hidden through it all."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

import pytest
from flask import Flask

from scorekeeper.services import games as game_service
from tests.web.support import (
    HX,
    Pages,
    alert,
    ok,
    pad_bids,
    seat_rows,
    section,
    stored_tricks,
    text_of,
)

Snapshot = Callable[[str], tuple[object, ...]]


def taken_token(body: str) -> str:
    """The seal of the take-back the answer offers to undo."""
    found = re.search(r'name="taken" value="([^"]*)"', body)
    assert found, "no Undo offered"
    return html.unescape(found.group(1))


def note(body: str) -> str:
    found = re.search(r'class="note taken-back">(.*?)</form>', section(body, "entry"), re.S)
    assert found, "no take-back note"
    return text_of(found.group(1))


def stored_bids(app: Flask, pid: str) -> list[int | None]:
    with app.app_context():
        draft = game_service.draft_of(game_service.get_game(pid))
        assert draft is not None
        return list(draft.bids)


@pytest.fixture
def pid(pages: Pages) -> str:
    """Ann, Ben, Cat, Dan; Dan deals round 1 (of 15): Ann bids first, Dan last."""
    pid = pages.new_game(["Ann", "Ben", "Cat", "Dan"], dealer=3)
    pages.play_round(pid, {0: 0, 1: 0, 2: 0, 3: 1}, {0: 0, 1: 0, 2: 0})
    return pid  # round 2: Ann deals, Ben bids first


def test_taking_back_the_first_bid_takes_back_that_bid_alone(
    pages: Pages, pid: str, app: Flask
) -> None:
    for seat, bid in ((1, 1), (2, 0), (3, 2)):
        ok(pages.bid(pid, seat, bid))
    body = ok(pages.post(pid, "clear", clear="bid:1")).get_data(as_text=True)
    # Ben's bid went; Cat's and Dan's stay. Ben is asked again.
    assert seat_rows(body) == {
        "Ben": ("·", "·"),
        "Cat": ("0", "·"),
        "Dan": ("2", "·"),
        "Ann": ("·", "·"),
    }
    assert stored_bids(app, pid) == [None, None, 0, 2]
    assert "Ben bids" in text_of(section(body, "entry"))
    assert note(body) == "Ben's bid is taken back. ↶ Undo"


def test_undo_puts_the_bid_back_and_only_right_after(
    pages: Pages, pid: str, app: Flask, snapshot: Snapshot
) -> None:
    for seat, bid in ((1, 1), (2, 0), (3, 2)):
        ok(pages.bid(pid, seat, bid))
    taken = pages.post(pid, "clear", clear="bid:1").get_data(as_text=True)
    body = ok(pages.post(pid, "put-back", taken=taken_token(taken))).get_data(as_text=True)
    assert seat_rows(body) == {
        "Ben": ("1", "·"),
        "Cat": ("0", "·"),
        "Dan": ("2", "·"),
        "Ann": ("·", "·"),
    }
    assert stored_bids(app, pid) == [None, 1, 0, 2]
    assert pad_bids(pages.page(pid).get_data(as_text=True), 2) == ["", "1", "0", "2"]
    assert "Ann deals bids" in text_of(section(body, "entry"))
    # Once the game moved on, the Undo of then puts nothing back.
    before = snapshot(pid)
    again = pages.post(pid, "put-back", taken=taken_token(taken))
    assert again.status_code == 409
    assert snapshot(pid) == before


def test_undo_puts_back_trick_counts(pages: Pages, app: Flask, pid: str) -> None:
    for seat, bid in ((1, 1), (2, 0), (3, 0), (0, 0)):
        ok(pages.bid(pid, seat, bid))
    ok(pages.tricks(pid, 1, 1))
    ok(pages.tricks(pid, 2, 0))
    taken = ok(pages.post(pid, "clear", clear="tricks:2")).get_data(as_text=True)
    assert [t for _b, t in seat_rows(taken).values()] == ["1", "·", "·", "·"]
    assert note(taken) == "Cat's tricks are taken back. ↶ Undo"
    body = ok(pages.post(pid, "put-back", taken=taken_token(taken))).get_data(as_text=True)
    assert [t for _b, t in seat_rows(body).values()] == ["1", "0", "·", "·"]
    # Put back as the last count, it scores the round like the tap it undoes.
    ok(pages.tricks(pid, 3, 1))  # Ann's 0 fills itself in: scored
    ok(pages.post(pid, "reopen", round=2))
    ok(pages.tricks(pid, 0, 0))  # Dan's 1 fills itself in: scored again
    with app.app_context():
        assert stored_tricks(pid, 2) == [0, 1, 0, 1]


def test_v1_a_bid_made_again_is_checked_as_the_one_completing_the_round(
    pages: Pages, app: Flask, snapshot: Snapshot
) -> None:
    """Plus/minus one (V1): Ben's bid taken back after Dan (dealer) bid; made again, it
    completes the round, so the bid that makes the total is forbidden to Ben."""
    pid = pages.new_game(["Ann", "Ben", "Cat", "Dan"], dealer=0, dealer_rule="plus_minus_one")
    # Round 1 (1 card): Ann deals; Ben, Cat, Dan, Ann bid 0, 0, 0, 0.
    for seat in (1, 2, 3, 0):
        ok(pages.bid(pid, seat, 0))
    body = ok(pages.post(pid, "clear", clear="bid:1")).get_data(as_text=True)
    # The key that would make the total is off, with the reason beside it.
    reason = "Ben can't bid 1: the bids would add up to the 1 trick (plus/minus one). Allowed: 0."
    assert re.search(r'<button type="submit" name="bid" value="1" class="key" disabled', body)
    assert reason in text_of(section(body, "entry"))
    before = snapshot(pid)
    refused = pages.bid(pid, 1, 1)
    assert refused.status_code == 422
    assert alert(refused) == reason
    assert snapshot(pid) == before
    ok(pages.bid(pid, 1, 0))
    assert stored_bids(app, pid) == [0, 0, 0, 0]


def test_v2_a_bid_made_again_under_the_canadian_rule(pages: Pages, app: Flask) -> None:
    """Canadian rule (V2): only when the dealer leads; round 2, Ann deals and leads."""
    pid = pages.new_game(["Ann", "Ben", "Cat"], dealer=2, dealer_rule="canadian")
    pages.play_round(pid, {0: 1, 1: 0, 2: 0}, {0: 1, 1: 0})  # Ann 30, Ben 20, Cat 20
    for seat in (1, 2, 0):
        ok(pages.bid(pid, seat, 0))  # 2 cards: 0 + 0 + 0
    ok(pages.post(pid, "clear", clear="bid:2"))
    refused = pages.bid(pid, 2, 2)
    assert refused.status_code == 422
    assert "Cat can't bid 2: the bids would add up to the 2 tricks" in (alert(refused) or "")
    ok(pages.bid(pid, 2, 1))
    assert stored_bids(app, pid) == [0, 0, 1]


def normalise(body: str, pids: tuple[str, ...]) -> str:
    """An answer with what differs between two games anyway taken out."""
    for pid in pids:
        body = body.replace(pid, "GAME")
    body = re.sub(r'name="(csrf_token|idempotency_key|taken)" value="[^"]*"', "", body)
    body = re.sub(r'"X-CSRFToken": "[^"]*"', "", body)
    body = re.sub(r"<time[^>]*>[^<]*</time>", "", body)
    body = re.sub(r"\d{4}-\d\d-\d\dT[\d:.]+(\+00:00|Z)?", "TIME", body)  # in exports
    body = re.sub(r'"scorer_token_hash": "\w+"', "", body)
    body = re.sub(r"<svg.*?</svg>", "", body, flags=re.S)
    return re.sub(r"/score/[\w-]+", "/score/TOKEN", body)


@pytest.mark.parametrize("bidding", ["hidden", "secret"])
def test_v3_v4_hidden_and_secret_bids_stay_hidden_through_a_take_back(
    pages: Pages, follower: Pages, app: Flask, bidding: str
) -> None:
    """Two games alike but for their hidden (V3) or secret (V4) bids: taking one back and
    putting it back answers them byte for byte alike (the Undo's seal aside, which is
    fresh every time), so nothing shown depends on a bid; and the bids are kept."""
    rules = {"bidding": bidding, "dealer_rule": "plus_minus_one", "round_plan": "short"}
    a = pages.new_game(["Ann", "Ben", "Cat", "Dan"], dealer=3, **rules)
    b = pages.new_game(["Ann", "Ben", "Cat", "Dan"], dealer=3, **rules)
    bids = {a: [0, 1, 0], b: [1, 0, 0]}  # Ann, Ben, Cat (round 1: 1 card each)
    seen: dict[str, list[str]] = {a: [], b: []}
    for pid in (a, b):
        for seat, bid in enumerate(bids[pid]):
            ok(pages.bid(pid, seat, bid))
        taken = ok(pages.post(pid, "clear", clear="bid:0")).get_data(as_text=True)
        seen[pid].append(taken)
        seen[pid].append(
            follower.client.get(f"/games/{pid}/live?v=0", headers=HX).get_data(as_text=True)
        )
        seen[pid].append(pages.client.get(f"/games/{pid}/export.json").get_data(as_text=True))
        put = ok(pages.post(pid, "put-back", taken=taken_token(taken))).get_data(as_text=True)
        seen[pid].append(put)
        assert stored_bids(app, pid) == [*bids[pid], None]
    for one, other in zip(seen[a], seen[b], strict=True):
        assert normalise(one, (a, b)) == normalise(other, (a, b))
    assert note(seen[a][0]) == "Ann's bid is taken back. ↶ Undo"
    # Dan (dealer) bids last, told nothing of the others' total: no key is off.
    panel = section(seen[a][-1], "entry")
    assert "Dan <span" in panel and "disabled" not in panel.split('class="taps"')[1]


def test_v3_a_hidden_bid_made_again_that_makes_the_total_is_refused_after_the_tap(
    pages: Pages, app: Flask, snapshot: Snapshot
) -> None:
    """Hidden bids with plus/minus one (V3, V1): Ann's bid taken back after everyone bid;
    her keys give nothing away, and only the bid that makes the total is refused."""
    pid = pages.new_game(
        ["Ann", "Ben", "Cat", "Dan"], dealer=3, bidding="hidden", dealer_rule="plus_minus_one"
    )
    for seat in (0, 1, 2, 3):
        ok(pages.bid(pid, seat, 0))  # all in: revealed together
    body = ok(pages.post(pid, "clear", clear="bid:0")).get_data(as_text=True)
    assert seat_rows(body)["Ben"][0] == "✓"  # hidden again while one is missing
    assert "disabled" not in section(body, "entry").split('class="taps"')[1]
    before = snapshot(pid)
    refused = pages.bid(pid, 0, 1)
    assert refused.status_code == 422
    assert "Ann can't bid 1: the bids would add up to the 1 trick" in (alert(refused) or "")
    assert snapshot(pid) == before
    ok(pages.bid(pid, 0, 0))


def test_a_forged_or_foreign_undo_puts_nothing_back(
    pages: Pages, pid: str, snapshot: Snapshot
) -> None:
    ok(pages.bid(pid, 1, 1))
    other = pages.new_game(["Ann", "Ben", "Cat"], dealer=0)
    ok(pages.bid(other, 1, 1))
    foreign = taken_token(pages.post(other, "clear", clear="bid:1").get_data(as_text=True))
    own = taken_token(pages.post(pid, "clear", clear="bid:1").get_data(as_text=True))
    before = snapshot(pid)
    # A changed signature (a character well inside it: the last one of the base64 text
    # carries padding bits, which some changes leave decoding to the same bytes).
    forged = own[:-10] + ("A" if own[-10] != "A" else "B") + own[-9:]
    for token in (foreign, forged, "", "x" * 5000):
        answer = pages.post(pid, "put-back", taken=token)
        assert answer.status_code == 422, token
        assert alert(answer) == "There is nothing to put back."
        assert snapshot(pid) == before


def test_only_the_scorer_puts_back(
    pages: Pages, follower: Pages, pid: str, snapshot: Snapshot
) -> None:
    ok(pages.bid(pid, 1, 1))
    token = taken_token(pages.post(pid, "clear", clear="bid:1").get_data(as_text=True))
    before = snapshot(pid)
    assert follower.post(pid, "put-back", taken=token).status_code == 403
    assert snapshot(pid) == before


def test_without_javascript_the_undo_comes_with_the_page(pages: Pages, pid: str) -> None:
    ok(pages.bid(pid, 1, 1))
    answer = pages.post(pid, "clear", htmx=False, clear="bid:1")
    assert answer.status_code == 303
    page = pages.page(pid).get_data(as_text=True)
    assert note(page) == "Ben's bid is taken back. ↶ Undo"
    back = pages.post(pid, "put-back", htmx=False, taken=taken_token(page))
    assert back.status_code == 303
    page = pages.page(pid).get_data(as_text=True)
    assert seat_rows(page)["Ben"] == ("1", "·")
    assert 'class="note taken-back"' not in page  # shown once
