"""The live channel (scorekeeper/live.py): a following phone hears of each new version of
its game at once, and of nothing while nothing changes. Under the tests' server each
follower holds a thread (the gunicorn worker parks them: tests/robustness/test_live.py)."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from flask import Flask

from scorekeeper import live, transaction
from scorekeeper.services import games as game_service
from tests.web.support import Pages


def _version(app: Flask, pid: str) -> int:
    with app.app_context():
        version = game_service.version_of(pid)
    assert version is not None
    return version


def _channel(pages: Pages, pid: str, seen: int) -> tuple[Iterator[bytes], object]:
    response = pages.client.get(f"/games/{pid}/events?v={seen}", buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["X-Accel-Buffering"] == "no"  # nginx passes each message on
    assert "Content-Length" not in response.headers
    return iter(response.response), response


def test_a_write_wakes_a_waiting_follower(
    app: Flask, pages: Pages, follower: Pages, monkeypatch: pytest.MonkeyPatch
) -> None:
    app.config["LIVE_HOLD"] = 30
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    version = _version(app, pid)
    messages, response = _channel(follower, pid, version)
    assert next(messages) == f"data: {version}\n\n".encode()
    hub = live.hub_of(app)
    following = threading.Event()
    follow = hub.follow

    def followed(game: str, seen: int) -> int:
        latest = follow(game, seen)
        following.set()
        return latest

    monkeypatch.setattr(hub, "follow", followed)

    def scorer() -> None:
        assert following.wait(timeout=10)  # the follower waits now
        pages.bid(pid, 1, 1)

    tap = threading.Thread(target=scorer)
    tap.start()
    try:
        woke = next(messages)
    finally:
        tap.join()
        response.close()  # type: ignore[attr-defined]
    assert woke == f"data: {_version(app, pid)}\n\n".encode()
    assert _version(app, pid) > version
    assert hub.followers() == 0


def test_nothing_is_sent_while_nothing_changes(app: Flask, pages: Pages, follower: Pages) -> None:
    app.config["LIVE_HOLD"] = 0.3  # the stream ends (the page asks again) after this
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    version = _version(app, pid)
    messages, response = _channel(follower, pid, version)
    assert list(messages) == [f"data: {version}\n\n".encode()]
    response.close()  # type: ignore[attr-defined]


def test_a_page_behind_hears_the_version_at_once(app: Flask, pages: Pages, follower: Pages) -> None:
    app.config["LIVE_HOLD"] = 0.1
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    pages.bid(pid, 1, 1)
    messages, response = _channel(follower, pid, 1)
    assert next(messages) == f"data: {_version(app, pid)}\n\n".encode()
    response.close()  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ("", 400),
        ("?v=", 400),
        ("?v=x", 400),
        ("?v=-1", 400),
        ("?v=99999999999", 400),  # more digits than any version
        ("?v=" + "9" * 5000, 400),
        ("?v=1%00", 400),
        ("?v=%01", 400),
        ("?v=1e3", 400),
    ],
)
def test_bad_versions_are_refused(pages: Pages, query: str, status: int) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    assert pages.client.get(f"/games/{pid}/events{query}").status_code == status


@pytest.mark.parametrize("pid", ["nope", "%01%02", "a" * 300, "x%0Ay"])
def test_an_unknown_game_is_404(pages: Pages, pid: str) -> None:
    assert pages.client.get(f"/games/{pid}/events?v=1").status_code == 404


def test_only_what_is_committed_goes_out(app: Flask, pages: Pages) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    version = _version(app, pid)
    hub = live.hub_of(app)
    heard: list[tuple[str, int]] = []
    hub.add_listener(lambda game, v: heard.append((game, v)))
    hub.follow(pid, version)
    try:
        with pytest.raises(RuntimeError), app.app_context(), transaction.atomic():
            game_service.set_bid(game_service.get_game(pid), 1, 1)
            raise RuntimeError("rolled back")
        # (The hub's watcher may have read the version as stored: that one, no other.)
        assert all(news == (pid, version) for news in heard)
        with app.app_context(), transaction.atomic():
            game_service.set_bid(game_service.get_game(pid), 1, 1)
        assert _version(app, pid) > version
        assert (pid, _version(app, pid)) in heard  # at once, by this process's hub
    finally:
        hub.unfollow(pid)


def test_the_hub_keeps_the_latest_version() -> None:
    hub = live.Hub(engine=None)  # type: ignore[arg-type]  # no watcher: see below
    hub.publish("g", 5)
    hub.publish("g", 4)  # late news of an older version changes nothing
    hub._thread = threading.current_thread()  # follow() starts no watcher
    assert hub.follow("g", 3) == 5  # a page that read 3 just before 5 was committed
    assert hub.wait("g", 5, timeout=0) == 5  # nothing newer: the same version back
    woken: list[int | None] = []
    waiter = threading.Thread(target=lambda: woken.append(hub.wait("g", 5, timeout=30)))
    waiter.start()
    hub.publish("g", 6)  # before or after the waiter started waiting: it hears of it
    waiter.join()
    assert woken == [6]


def test_a_follower_page_listens_and_a_scorer_page_does_not(pages: Pages, follower: Pages) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    body = follower.page(pid).get_data(as_text=True)
    assert f'data-events="/games/{pid}/events"' in body
    assert 'hx-trigger="sk-live"' in body and "every 1500ms" not in body
    assert "js/live.js" in body
    scorer = pages.page(pid).get_data(as_text=True)
    assert "js/live.js" not in scorer and "data-events" not in scorer


def test_followers_asking_at_once_get_one_render(
    app: Flask, pages: Pages, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The channel wakes every follower at once: one renders the update, the rest wait
    for that copy (before, each rendered and compressed it again)."""
    from scorekeeper.web import cached

    pid = pages.new_game(["Ann", "Ben", "Cat"])
    pages.bid(pid, 1, 1)
    phones = [app.test_client() for _ in range(5)]
    arrived = threading.Semaphore(0)
    renders: list[str] = []
    first_render, render = cached._first_render, cached._render

    def arriving(public_id: str, variant: str) -> Iterator[None]:
        arrived.release()
        return first_render(public_id, variant)  # type: ignore[no-any-return]

    def rendering(*args: object) -> object:
        for _ in phones:  # every phone is in before the first one renders
            assert arrived.acquire(timeout=10)
        renders.append("page")
        return render(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(cached, "_first_render", arriving)
    monkeypatch.setattr(cached, "_render", rendering)
    answers: list[int] = []
    asking = [
        threading.Thread(
            target=lambda c=phone: answers.append(
                c.get(f"/games/{pid}/live?v=1", headers={"HX-Request": "true"}).status_code
            )
        )
        for phone in phones
    ]
    for thread in asking:
        thread.start()
    for thread in asking:
        thread.join()
    assert answers == [200] * 5
    assert renders == ["page"]
