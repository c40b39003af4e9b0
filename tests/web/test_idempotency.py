"""Flaky networks and two scorers on the pages: a retried tap records once (its
Idempotency-Key), and a tap on a page someone else already changed gets 409 with the
current state — never a lost or duplicated round."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from scorekeeper import writers
from scorekeeper.idempotency import REPLAYED, REUSED
from scorekeeper.services.games import entry
from tests.web.support import HX, Pages, alert, seat_rows, section, stored_tricks

Snapshot = Callable[[str], tuple[object, ...]]


@pytest.fixture
def pid(pages: Pages) -> str:
    """Ann, Ben, Cat; Ann deals round 1, so Ben bids first, then Cat, then Ann."""
    return pages.new_game(["Ann", "Ben", "Cat"], dealer=0)


def version(snapshot: Snapshot, pid: str) -> int:
    v = snapshot(pid)[0]
    assert isinstance(v, int)
    return v


def changes(snapshot: Snapshot, pid: str) -> int:
    n = snapshot(pid)[-1]
    assert isinstance(n, int)
    return n


def tap(pages: Pages, pid: str, action: str, key: str | None, htmx: bool = True, **data: object):  # type: ignore[no-untyped-def]
    headers = dict(HX) if htmx else {}
    if key is not None:
        headers["Idempotency-Key"] = key
    return pages.client.post(
        f"/games/{pid}/{action}", data={k: str(v) for k, v in data.items()}, headers=headers
    )


def test_a_retried_tap_gets_the_same_answer_and_records_once(
    pages: Pages, pid: str, snapshot: Snapshot
) -> None:
    v = version(snapshot, pid)
    first = tap(pages, pid, "bid", "tap-1", seat=1, bid=0, v=v)
    assert first.status_code == 200
    after = snapshot(pid)
    again = tap(pages, pid, "bid", "tap-1", seat=1, bid=0, v=v)
    assert again.status_code == 200
    assert again.headers[REPLAYED] == "true"
    assert again.get_data() == first.get_data()
    assert again.headers["Content-Type"] == first.headers["Content-Type"]
    assert snapshot(pid) == after  # no second write, no second change logged
    assert changes(snapshot, pid) == 2  # created, one bid
    assert seat_rows(again.get_data(as_text=True))["Ben"] == ("0", "·")


def test_a_whole_round_tapped_twice_each_is_recorded_once(
    pages: Pages, pid: str, snapshot: Snapshot
) -> None:
    taps = [
        ("bid", {"seat": 1, "bid": 0}),
        ("bid", {"seat": 2, "bid": 1}),
        ("bid", {"seat": 0, "bid": 1}),
        ("tricks", {"seat": 1, "tricks": 0}),
        ("tricks", {"seat": 2, "tricks": 1}),  # Ann's 0 fills itself in: scored
    ]
    for n, (action, data) in enumerate(taps):
        v = version(snapshot, pid)
        for _ in range(3):  # the answer got lost twice
            response = tap(pages, pid, action, f"k{n}", **data, v=v)
            assert response.status_code == 200, alert(response)
    stored = snapshot(pid)
    rounds = stored[2]
    assert isinstance(rounds, tuple) and len(rounds) == 1
    assert rounds[0][4] is True  # complete
    assert [(r[1], r[2]) for r in rounds[0][5]] == [(1, 0), (0, 0), (1, 1)]
    assert changes(snapshot, pid) == 1 + len(taps) + 1  # created, the taps, scored


def test_without_javascript_the_form_carries_its_key(
    pages: Pages, pid: str, snapshot: Snapshot
) -> None:
    page = pages.page(pid).get_data(as_text=True)
    bid_form = re.search(r'<form[^>]*action="/games/[^"]+/bid".*?</form>', page, re.S)
    assert bid_form
    key = re.search(r'name="idempotency_key" value="([^"]+)"', bid_form.group(0))
    assert key and len(key.group(1)) >= 20
    keys = re.findall(r'name="idempotency_key" value="([^"]+)"', page)
    assert len(keys) == len(set(keys))  # one per form
    v = version(snapshot, pid)
    data = {"seat": 1, "bid": 0, "v": v, "idempotency_key": key.group(1)}
    first = tap(pages, pid, "bid", None, htmx=False, **data)
    assert first.status_code == 303
    after = snapshot(pid)
    resent = tap(pages, pid, "bid", None, htmx=False, **data)  # the browser sends it again
    assert resent.status_code == 303
    assert resent.headers["Location"] == first.headers["Location"]
    assert snapshot(pid) == after


def test_a_key_used_for_another_tap_is_refused(pages: Pages, pid: str, snapshot: Snapshot) -> None:
    v = version(snapshot, pid)
    assert tap(pages, pid, "bid", "same", seat=1, bid=0, v=v).status_code == 200
    after = snapshot(pid)
    other = tap(pages, pid, "bid", "same", seat=2, bid=1, v=v + 1)
    assert other.status_code == 422
    assert alert(other) == REUSED
    assert section(other.get_data(as_text=True), "entry")  # the panel, as stored
    assert snapshot(pid) == after
    # …and on another route too.
    assert tap(pages, pid, "trump", "same", trump="red", v=v + 1).status_code == 422
    assert snapshot(pid) == after


def test_a_refused_tap_keeps_no_key(pages: Pages, pid: str, snapshot: Snapshot) -> None:
    v = version(snapshot, pid)
    refused = tap(pages, pid, "bid", "k", seat=0, bid=0, v=v)  # Ann bids last, not first
    assert refused.status_code == 422
    assert alert(refused) == "Ben bids first."
    fixed = tap(pages, pid, "bid", "k", seat=1, bid=0, v=v)
    assert fixed.status_code == 200
    assert seat_rows(fixed.get_data(as_text=True))["Ben"] == ("0", "·")


def test_keys_are_kept_per_game(pages: Pages, pid: str, snapshot: Snapshot) -> None:
    other = pages.new_game(["Dan", "Eve", "Fay"], dealer=0)
    assert tap(pages, pid, "bid", "k", seat=1, bid=0, v=version(snapshot, pid)).status_code == 200
    assert (
        tap(pages, other, "bid", "k", seat=1, bid=1, v=version(snapshot, other)).status_code == 200
    )
    assert seat_rows(pages.page(other).get_data(as_text=True))["Eve"] == ("1", "·")


def test_a_follower_cannot_replay_the_scorers_answer(
    pages: Pages, follower: Pages, pid: str, snapshot: Snapshot
) -> None:
    v = version(snapshot, pid)
    assert tap(pages, pid, "bid", "k", seat=1, bid=0, v=v).status_code == 200
    assert tap(follower, pid, "bid", "k", seat=1, bid=0, v=v).status_code == 403


def test_a_bad_key_is_a_bad_request(pages: Pages, pid: str, snapshot: Snapshot) -> None:
    before = snapshot(pid)
    v = version(snapshot, pid)
    assert tap(pages, pid, "bid", "x" * 65, seat=1, bid=0, v=v).status_code == 400
    assert tap(pages, pid, "bid", "two words", seat=1, bid=0, v=v).status_code == 400
    assert snapshot(pid) == before


def test_the_answer_is_stored_with_the_write_or_not_at_all(
    app: Flask, pages: Pages, pid: str, snapshot: Snapshot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure between the write and its key leaves neither: the retry writes afresh."""
    from scorekeeper.services import idempotency

    before = snapshot(pid)
    v = version(snapshot, pid)

    def crash(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the server died here")

    monkeypatch.setattr(idempotency, "keep", crash)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    assert tap(pages, pid, "bid", "k", seat=1, bid=0, v=v).status_code == 500
    assert snapshot(pid) == before
    monkeypatch.undo()
    assert tap(pages, pid, "bid", "k", seat=1, bid=0, v=v).status_code == 200
    assert changes(snapshot, pid) == 2


# -- two scorers at once --------------------------------------------------------------------


@pytest.fixture
def second(app: Flask, pages: Pages, pid: str) -> Pages:
    """A second scorer's phone, through the scorer link the first one shares."""
    page = pages.whole_page(pid).get_data(as_text=True)
    link = re.search(r'href="https?://[^/"]+(/games/[^"]+/score/[^"]+)"', page)
    assert link
    other = Pages(app.test_client())
    assert other.client.get(link.group(1)).status_code == 303
    return other


def test_two_scorers_tap_the_same_bid(
    pages: Pages, second: Pages, pid: str, snapshot: Snapshot
) -> None:
    v = version(snapshot, pid)  # both phones show this version
    assert tap(pages, pid, "bid", "a1", seat=1, bid=0, v=v).status_code == 200
    after = snapshot(pid)
    late = tap(second, pid, "bid", "b1", seat=1, bid=1, v=v)
    assert late.status_code == 409
    assert (alert(late) or "").startswith("Already recorded by someone else")
    body = late.get_data(as_text=True)
    assert seat_rows(body)["Ben"] == ("0", "·")  # the current state, swapped in
    assert f'data-version="{v + 1}"' in section(body, "entry")
    assert snapshot(pid) == after
    # The second phone goes on from what it now shows.
    assert tap(second, pid, "bid", "b2", seat=2, bid=1, v=v + 1).status_code == 200


def test_two_scorers_score_the_same_round(
    pages: Pages, second: Pages, pid: str, snapshot: Snapshot
) -> None:
    v = _ready_to_score(pages, pid, snapshot)
    assert tap(pages, pid, "tricks", "a", seat=2, tricks=1, v=v).status_code == 200
    late = tap(second, pid, "tricks", "b", seat=2, tricks=0, v=v)
    assert late.status_code == 409
    assert "Round 2" in section(late.get_data(as_text=True), "entry")
    rounds = snapshot(pid)[2]
    assert isinstance(rounds, tuple) and len(rounds) == 1  # not lost, not twice
    assert [(r[1], r[2]) for r in rounds[0][5]] == [(1, 0), (0, 0), (1, 1)]
    # A correction from a stale page is refused the same way.
    stale = second.correct(pid, 1, [0, 0, 1], [0, 1, 0], v=v)
    assert stale.status_code == 409
    assert snapshot(pid)[2] == rounds


def _ready_to_score(pages: Pages, pid: str, snapshot: Snapshot) -> int:
    """Bids in, Ben's count in: Cat's count is the one that scores the round."""
    for seat, bid in ((1, 0), (2, 1), (0, 1)):
        assert pages.bid(pid, seat, bid, v=version(snapshot, pid)).status_code == 200
    assert pages.tricks(pid, 1, 0, v=version(snapshot, pid)).status_code == 200
    return version(snapshot, pid)


def _at_once(*taps: Callable[[], int]) -> list[int]:
    """Run the taps in threads that start together; their status codes."""
    barrier = threading.Barrier(len(taps))
    results: list[int] = [0] * len(taps)

    def run(i: int) -> None:
        barrier.wait()
        results[i] = taps[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(taps))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_two_scorers_score_at_the_same_moment(
    pages: Pages, second: Pages, pid: str, snapshot: Snapshot
) -> None:
    v = _ready_to_score(pages, pid, snapshot)
    statuses = _at_once(
        lambda: tap(pages, pid, "tricks", "a", seat=2, tricks=1, v=v).status_code,
        lambda: tap(second, pid, "tricks", "b", seat=2, tricks=0, v=v).status_code,
    )
    assert sorted(statuses) == [200, 409]
    rounds = snapshot(pid)[2]
    assert isinstance(rounds, tuple) and len(rounds) == 1
    assert changes(snapshot, pid) == 1 + 4 + 2  # created, 4 taps, the last one scored


def test_the_same_tap_sent_twice_at_the_same_moment_records_once(
    pages: Pages, pid: str, snapshot: Snapshot
) -> None:
    v = _ready_to_score(pages, pid, snapshot)
    answers = _at_once(
        lambda: tap(pages, pid, "tricks", "k", seat=2, tricks=1, v=v).status_code,
        lambda: tap(pages, pid, "tricks", "k", seat=2, tricks=1, v=v).status_code,
    )
    assert answers == [200, 200]  # the second one gets the first one's answer
    rounds = snapshot(pid)[2]
    assert isinstance(rounds, tuple) and len(rounds) == 1
    assert changes(snapshot, pid) == 1 + 4 + 2


def _sqlite(app: Flask) -> bool:
    with app.app_context():
        return bool(app.extensions["sqlalchemy"].engine.dialect.name == "sqlite")


def test_a_tap_reads_and_checks_without_the_write_turn(
    app: Flask, pages: Pages, pid: str, snapshot: Snapshot
) -> None:
    """SQLite: a page's change of a game reads the game, checks the rules and answers a
    refusal without the write turn (every change it makes is checked against the game's
    version), so a tap of one game never waits for another game's write to read; a tap
    that writes takes the turn for its write."""
    holding, release = threading.Event(), threading.Event()

    def other_write() -> None:
        with app.app_context(), writers.turn():
            holding.set()
            release.wait(20)

    v = version(snapshot, pid)
    refused: list[int] = []
    written: list[int] = []
    holder = threading.Thread(target=other_write)
    holder.start()
    try:
        assert holding.wait(10)
        # Ben's bid of 9 in a round of one card: refused, answered while the turn is held.
        thread = threading.Thread(
            target=lambda: refused.append(
                tap(pages, pid, "bid", "r" * 20, seat=1, bid=9, v=v).status_code
            )
        )
        thread.start()
        thread.join(10)
        assert refused == [422]
        writer = threading.Thread(
            target=lambda: written.append(
                tap(pages, pid, "bid", "w" * 20, seat=1, bid=0, v=v).status_code
            )
        )
        writer.start()
        writer.join(0.5)
        if _sqlite(app):
            assert written == []  # it writes: it waits for its turn
    finally:
        release.set()
        holder.join(10)
    writer.join(10)
    assert written == [200]
    assert version(snapshot, pid) == v + 1


def test_a_change_coming_in_while_a_tap_reads_goes_first(
    app: Flask,
    pages: Pages,
    second: Pages,
    pid: str,
    snapshot: Snapshot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SQLite: while a tap without the page's version (a phone without JavaScript) reads
    the game, another scorer corrects round 1; the tap is then made again after that
    correction, as if the two had come one after the other. (PostgreSQL answers 409, as
    it always has: another change came in first.)"""
    pages.play_round(pid, {1: 0, 2: 1, 0: 0}, {1: 0, 2: 1})  # round 2: Cat bids first
    v = version(snapshot, pid)
    finish = entry.finish
    others: list[int] = []

    def meanwhile(*args: Any, **kwargs: Any) -> None:
        if not others:  # the tap has read and checked the game: the correction comes in
            thread = threading.Thread(
                target=lambda: others.append(
                    second.correct(pid, 1, [0, 0, 1], [1, 0, 0]).status_code
                )
            )
            thread.start()
            thread.join(10)
            assert others == [200]
        finish(*args, **kwargs)

    monkeypatch.setattr(entry, "finish", meanwhile)
    response = pages.bid(pid, 2, 0, htmx=False)
    assert others == [200]
    with app.app_context():
        assert stored_tricks(pid, 1) == [1, 0, 0]
    if _sqlite(app):
        assert response.status_code == 303
        assert version(snapshot, pid) == v + 2
        assert seat_rows(pages.page(pid).get_data(as_text=True))["Cat"][0] == "0"
    else:
        assert response.status_code == 409
        assert version(snapshot, pid) == v + 1
