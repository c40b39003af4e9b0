"""The pad's rows are kept once rendered (scorekeeper/web/fragments.py), and a new version
renders only the rows it changed; a follower's fetch of a kept update costs one lookup.
Whatever is kept, every page and update is the one a fresh render gives: compared here
after each kind of change (R12 scoring, R16 a round scored with its last count, P2
corrections, undo, bonuses and penalties, the last round, V3 hidden bids before and after
they are shown) in two languages."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest
from flask import Flask

from scorekeeper.services import pagecache
from scorekeeper.services.pages import ChangeLog, LogLine
from scorekeeper.web import fragments
from tests.history.test_queries import counting as statements
from tests.web.support import HX, Pages, ok, section


def _views(pages: Pages, follower: Pages, pid: str) -> list[str]:
    """What the phones show: a follower's update and page in English and German, and the
    scorer's pad."""
    shown = []
    for language in ("en", "de"):
        asked = {"Accept-Language": language}
        live = follower.client.get(f"/games/{pid}/live?v=0", headers={**HX, **asked})
        shown.append(live.get_data(as_text=True))
        shown.append(follower.client.get(f"/games/{pid}", headers=asked).get_data(as_text=True))
    shown.append(section(pages.page(pid).get_data(as_text=True), "pad"))
    return shown


def _same_as_fresh(app: Flask, pages: Pages, follower: Pages, pid: str) -> None:
    kept = _views(pages, follower, pid)
    app.config["PAGE_CACHE"] = False  # every page and row rendered anew
    try:
        fresh = _views(pages, follower, pid)
    finally:
        app.config["PAGE_CACHE"] = True
    assert kept == fresh


def test_pages_built_from_kept_rows_are_the_fresh_ones(
    app: Flask, pages: Pages, follower: Pages
) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"], bidding="hidden", round_plan="short")
    check = lambda: _same_as_fresh(app, pages, follower, pid)  # noqa: E731
    steps: list[Callable[[], object]] = [
        lambda: pages.post(pid, "trump", trump="green"),
        lambda: pages.bid(pid, 1, 1),  # V3: sealed until every bid is in
        lambda: pages.bid(pid, 2, 0),
        lambda: pages.bid(pid, 0, 0),  # shown now
        lambda: pages.tricks(pid, 1, 1),
        lambda: pages.tricks(pid, 2, 1),  # R16: Ann's count forced, the round scored
        lambda: pages.play_round(pid, {2: 2, 0: 0, 1: 1}, {2: 2, 0: 0, 1: 2}),
        lambda: pages.play_round(pid, {0: 0, 1: 1, 2: 0}, {0: 0, 1: 6}),
        lambda: pages.post(pid, "reopen", round=3),  # Undo: round 3 open again
        lambda: pages.tricks(pid, 1, 6),  # scored again
        lambda: pages.correct(pid, 1, [1, 1, 1], [1, 1, 0], trump="red"),  # P2
        lambda: pages.post(pid, "rounds/2/adjust", seat=1, points="10", sign="bonus"),
        lambda: pages.post(pid, "rounds/2/adjust/0/remove"),
        lambda: pages.post(pid, "rounds/3/delete"),
    ]
    check()
    for step in steps:
        ok(step())  # type: ignore[arg-type]
        check()
    for number in range(3, 11):  # to the end: the final standings
        bids = {seat % 3: 0 for seat in range(number, number + 3)}  # left of the dealer first
        pages.play_round(pid, bids, {number % 3: 2 * number})
    check()


def test_a_tap_in_the_open_round_renders_that_row_alone(
    app: Flask, pages: Pages, follower: Pages, monkeypatch: pytest.MonkeyPatch
) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat", "Dan"])
    for number in range(1, 5):
        pages.play_round(pid, {seat % 4: 0 for seat in range(number, number + 4)}, {0: number})
    follower.client.get(f"/games/{pid}/live?v=0", headers=HX)  # every row rendered
    rendered: list[object] = []
    render = fragments._render

    def counted(template: str, values: dict[str, object]) -> str:
        piece = values.get("row") or values["line"]
        rendered.append(getattr(piece, "number", None) or getattr(piece, "action", None))
        return render(template, values)

    monkeypatch.setattr(fragments, "_render", counted)
    ok(pages.bid(pid, 1, 1))  # round 5: the scorer's answer renders its row
    update = follower.client.get(f"/games/{pid}/live?v=0", headers=HX).get_data(as_text=True)
    assert rendered == [5]  # and the follower's update gets it kept, with every other
    ok(pages.bid(pid, 2, 0))
    follower.client.get(f"/games/{pid}/live?v=0", headers=HX)
    assert rendered == [5, 5]
    ok(pages.post(pid, "rounds/1/adjust", seat=1, points="10", sign="bonus"))
    rendered.clear()
    follower.client.get(f"/games/{pid}/live?v=0", headers=HX)
    # A bonus in round 1: the totals of rounds 1 to 4 change (the scorer's answer rendered
    # the new log line, and its own rows, which link to their corrections).
    assert rendered == [1, 2, 3, 4]
    assert 'id="round-5"' in update and 'id="round-1"' in update


def test_a_follower_fetching_a_kept_update_costs_one_lookup(
    app: Flask, pages: Pages, follower: Pages, monkeypatch: pytest.MonkeyPatch
) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    ok(pages.bid(pid, 1, 1))
    first = follower.client.get(f"/games/{pid}/live?v=1", headers=HX)  # rendered and kept
    looked_up: list[str] = []
    state = pagecache.current_state

    def counted(public_id: str) -> tuple[int, bool] | None:
        looked_up.append(public_id)
        return state(public_id)

    monkeypatch.setattr(pagecache, "current_state", counted)
    with statements(app) as seen:
        again = app.test_client().get(f"/games/{pid}/live?v=1", headers=HX)
    assert again.status_code == 200 and again.data == first.data
    assert looked_up == [pid] and seen == []


def test_a_new_version_reads_only_its_new_log_line(
    app: Flask, pages: Pages, follower: Pages, monkeypatch: pytest.MonkeyPatch
) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    for number in range(1, 4):
        pages.play_round(pid, {seat % 3: 0 for seat in range(number, number + 3)}, {0: number})
    german = {**HX, "Accept-Language": "de"}
    before = follower.client.get(f"/games/{pid}/live?v=0", headers=german)  # all kept
    read: list[list[int]] = []
    lines = ChangeLog.lines

    def counted(log: ChangeLog, ids: Iterable[int]) -> dict[int, LogLine]:
        wanted = list(ids)
        read.append(wanted)
        return lines(log, wanted)

    monkeypatch.setattr(ChangeLog, "lines", counted)
    ok(pages.correct(pid, 2, [0, 0, 0], [0, 2, 0]))  # a line more: the scorer reads it
    update = follower.client.get(f"/games/{pid}/live?v=0", headers=german)
    assert [len(ids) for ids in read] == [1, 1]  # in English, then in German
    assert read[0] == read[1]
    shown = [answer.get_data(as_text=True).count('<li class="log-') for answer in (before, update)]
    assert shown[1] == shown[0] + 1


def test_a_long_log_is_read_in_parts(
    app: Flask, pages: Pages, follower: Pages, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database takes only so many parameters in one statement (SQLite 32,766): a log
    longer than a part is read part by part, whole."""
    from scorekeeper.services import games as game_service
    from scorekeeper.services import pages as page_service

    monkeypatch.setattr(page_service, "_READ_AT_ONCE", 2)
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    for number in range(1, 4):
        pages.play_round(pid, {seat % 3: 0 for seat in range(number, number + 3)}, {0: number})
    ok(pages.correct(pid, 1, [0, 0, 0], [0, 1, 0]))
    update = follower.client.get(f"/games/{pid}/live?v=0", headers=HX).get_data(as_text=True)
    with app.app_context():
        log = page_service.change_log(game_service.get_game(pid))
    assert len(log.ids) >= 5
    assert update.count('<li class="log-') == len(log.ids)
    _same_as_fresh(app, pages, follower, pid)
