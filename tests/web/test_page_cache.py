"""The game page is rendered once per game version and kept in the app process's memory
(the page cache): later readers get the kept page, never a stale one whichever server
changed the game, a read writes nothing, and what must differ per request (CSRF token,
idempotency keys) still does."""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import brotli  # type: ignore[import-untyped]
import pytest
from flask import Flask, template_rendered
from flask_migrate import upgrade
from sqlalchemy import event, select

from scorekeeper import compression, create_app, transaction
from scorekeeper.extensions import db
from scorekeeper.services import pagecache
from scorekeeper.services.pagecache import MAX_VARIANTS
from scorekeeper.web.cached import _setup
from tests.web.support import HX, Pages, keep_score_without_link, pad_totals, section, text_of

BR = {"Accept-Encoding": "gzip, br"}


@contextmanager
def renders(app: Flask) -> Iterator[list[str]]:
    """The names of the templates rendered meanwhile."""
    seen: list[str] = []

    def record(sender: Flask, template: object, context: object, **extra: object) -> None:
        seen.append(getattr(template, "name", "?"))

    template_rendered.connect(record, app)
    try:
        yield seen
    finally:
        template_rendered.disconnect(record, app)


def kept_bodies(app: Flask) -> list[bytes]:
    with app.app_context():
        return [page.body for _, _, _, page in pagecache.kept_pages()]


def kept_rows(app: Flask) -> list[tuple[int, str]]:
    with app.app_context():
        return [(version, variant) for _, version, variant, _ in pagecache.kept_pages()]


def test_a_follower_gets_the_page_rendered_once_per_version(
    app: Flask, pages: Pages, follower: Pages
) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    pages.play_round(pid, {1: 1, 2: 0, 0: 0}, {1: 1, 2: 0})
    with renders(app) as seen:
        first = follower.page(pid)
    assert first.status_code == 200 and "games/game.html" in seen
    with renders(app) as seen:
        again = follower.page(pid)
        packed = follower.client.get(f"/games/{pid}", headers=BR)
    assert seen == []  # served from the kept copy, plain and compressed
    assert again.data == first.data
    assert packed.headers["Content-Encoding"] == "br"
    assert pad_totals(again.get_data(as_text=True), 1) == [20, 30, 20]
    assert len(kept_rows(app)) == 1


def test_a_change_is_seen_at_once_and_the_old_page_dropped(
    app: Flask, pages: Pages, follower: Pages
) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    pages.play_round(pid, {1: 1, 2: 0, 0: 0}, {1: 1, 2: 0})
    follower.page(pid)
    old = kept_rows(app)
    pages.play_round(pid, {2: 0, 0: 2, 1: 0}, {2: 0, 0: 2})
    body = follower.page(pid).get_data(as_text=True)
    assert pad_totals(body, 2) == [60, 50, 40]
    now = kept_rows(app)
    assert len(now) == 1 and now[0][0] > old[0][0]
    # A correction of a past round changes the version too.
    pages.correct(pid, 1, [1, 1, 0], [0, 1, 0])
    assert pad_totals(follower.page(pid).get_data(as_text=True), 1) == [-10, 30, 20]


def test_live_update_fragment_is_kept_too(app: Flask, pages: Pages, follower: Pages) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    pages.play_round(pid, {1: 1, 2: 0, 0: 0}, {1: 1, 2: 0})
    first = follower.client.get(f"/games/{pid}/live?v=1", headers=HX)
    with renders(app) as seen:
        again = follower.client.get(f"/games/{pid}/live?v=2", headers=HX)
    assert seen == [] and again.data == first.data
    assert again.headers["Cache-Control"] == "no-store"
    assert "<html" not in again.get_data(as_text=True)
    assert pad_totals(again.get_data(as_text=True), 1) == [20, 30, 20]


def test_a_new_version_is_compressed_once_at_the_fast_level_in_the_coding_asked(
    app: Flask, pages: Pages, follower: Pages, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every change makes a version the game's followers read once each: compressing it
    at the best levels (Zopfli, Brotli 11) in both codings cost over half a second a
    change, which bounded a game night's tables; the fast level costs a millisecond."""
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    pages.play_round(pid, {1: 1, 2: 0, 0: 0}, {1: 1, 2: 0})
    calls: list[tuple[str, bool]] = []
    real = compression.compress

    def counted(data: bytes, coding: str, best: bool = False) -> bytes:
        calls.append((coding, best))
        return real(data, coding, best)

    monkeypatch.setattr(compression, "compress", counted)
    readers = [
        follower.client.get(f"/games/{pid}/live?v=1", headers={**HX, **BR}) for _ in range(5)
    ]
    assert [r.headers["Content-Encoding"] for r in readers] == ["br"] * 5
    assert calls == [("br", False)]
    assert len({r.data for r in readers}) == 1
    # A phone taking gzip only still gets the same page, compressed on the way out.
    plain = follower.client.get(f"/games/{pid}/live?v=1", headers={**HX, "Accept-Encoding": "gzip"})
    assert plain.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(plain.data) == brotli.decompress(readers[0].data)
    assert calls == [("br", False), ("gzip", False)]


def test_a_page_kept_in_gzip_is_compressed_once_more_for_brotli_readers(
    app: Flask, pages: Pages, follower: Pages, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first reader took gzip only (a phone on the LAN over plain HTTP): the first
    reader after it who takes Brotli has the page compressed in Brotli once more, and it is
    kept so: the next get it as kept (compressed anew for each, it cost a busy server
    a third of its pages a second)."""
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    calls: list[str] = []
    real = compression.compress

    def counted(data: bytes, coding: str, best: bool = False) -> bytes:
        calls.append(coding)
        return real(data, coding, best)

    monkeypatch.setattr(compression, "compress", counted)
    first = follower.client.get(f"/games/{pid}", headers={"Accept-Encoding": "gzip"})
    readers = [follower.client.get(f"/games/{pid}", headers=BR) for _ in range(3)]
    again = follower.client.get(f"/games/{pid}", headers={"Accept-Encoding": "gzip"})
    assert calls == ["gzip", "br"]
    assert [r.headers["Content-Encoding"] for r in readers] == ["br"] * 3
    assert len({r.data for r in readers}) == 1 and again.data == first.data
    bare = follower.client.get(f"/games/{pid}", headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in bare.headers
    assert bare.data == gzip.decompress(first.data) == brotli.decompress(readers[0].data)
    assert calls == ["gzip", "br"]
    # A newer version meanwhile: the copy made for the older one is not kept for it.
    pages.play_round(pid, {1: 1, 2: 0, 0: 0}, {1: 1, 2: 0})
    with app.app_context():
        old = pagecache.Kept(b"old", b"gz", None)
        assert pagecache.add_copy(pid, "v" * 32, old, "br", b"br").br == b"br"
        assert all(page.body != b"old" for _, _, _, page in pagecache.kept_pages())


def forget_scorer_link(pages: Pages, pid: str) -> None:
    """The browser keeps score of the game but no longer holds its scorer link (as for a
    browser's older games: see web/access.py)."""
    keep_score_without_link(pages.client, pid)


def test_the_scorers_page_gets_fresh_secrets_every_time(app: Flask, pages: Pages) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    forget_scorer_link(pages, pid)
    app.config["WTF_CSRF_ENABLED"] = True
    first = pages.page(pid).get_data(as_text=True)
    with renders(app) as seen:
        second = pages.page(pid).get_data(as_text=True)
    assert seen == []
    with app.test_request_context():
        marks = (_setup().csrf_mark, _setup().key_mark)
    assert not any(mark in body for mark in marks for body in (first, second))
    keys = [re.findall(r'name="idempotency_key" value="([^"]+)"', b) for b in (first, second)]
    assert keys[0] and keys[1] and not set(keys[0]) & set(keys[1])
    assert len(set(keys[1])) == len(keys[1])  # every form its own key
    token = re.search(r'name="csrf_token" value="([^"]+)"', second).group(1)  # type: ignore[union-attr]
    assert re.search(r'"X-CSRFToken": "([^"]+)"', second).group(1) == token  # type: ignore[union-attr]
    # The token from the kept page is good for a write.
    key = keys[1][0]
    answer = pages.client.post(
        f"/games/{pid}/bid",
        data={"seat": "1", "bid": "0", "csrf_token": token, "idempotency_key": key},
        headers=HX,
    )
    assert answer.status_code == 200


def test_the_scorer_and_a_follower_see_their_own_pages(
    app: Flask, pages: Pages, follower: Pages
) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    follower.page(pid)
    scorer = pages.page(pid).get_data(as_text=True)
    viewer = follower.page(pid).get_data(as_text=True)
    # The scorer link is under "More", loaded when it opens.
    more = pages.client.get(f"/games/{pid}/more", headers=HX).get_data(as_text=True)
    assert 'name="idempotency_key"' in scorer and "/score/" in more
    assert 'name="idempotency_key"' not in viewer and "/score/" not in viewer
    assert "hx-headers" not in viewer  # a follower sends nothing back
    forget_scorer_link(pages, pid)
    assert "/score/" not in pages.page(pid).get_data(as_text=True)
    assert "/score/" not in pages.client.get(f"/games/{pid}/more", headers=HX).get_data(
        as_text=True
    )
    assert len(kept_rows(app)) == 2  # the follower's page, the scorer's without the link


def test_the_page_with_the_scorer_link_is_never_kept(
    app: Flask, pages: Pages, follower: Pages
) -> None:
    """The database keeps the scorer's secret only as a hash: no kept page may hold it.
    (The scorer's pages while it holds the link are rendered each time: whether they show
    the link depends on the link still working.)"""
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    first = pages.whole_page(pid).get_data(as_text=True)
    token = re.search(rf"/games/{pid}/score/([\w-]+)", first).group(1)  # type: ignore[union-attr]
    with renders(app) as seen:
        again = pages.page(pid).get_data(as_text=True)
    assert "games/game.html" in seen and f'data-lazy="/games/{pid}/more"' in again
    more = pages.client.get(f"/games/{pid}/more", headers=HX).get_data(as_text=True)
    assert f"/score/{token}" in more
    pages.play_round(pid, {1: 1, 2: 0, 0: 0}, {1: 1, 2: 0})
    pages.client.get(f"/games/{pid}/live?v=1", headers=HX)  # the update: not kept either
    follower.page(pid)  # a follower's page is kept
    bodies = kept_bodies(app)
    assert bodies and not any(token.encode() in body for body in bodies)


def test_each_language_has_its_own_page(app: Flask, follower: Pages, pages: Pages) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    english = follower.client.get(f"/games/{pid}", headers={"Accept-Language": "en"})
    german = follower.client.get(f"/games/{pid}", headers={"Accept-Language": "de"})
    assert "Score pad" in english.get_data(as_text=True)
    assert text_of(section(german.get_data(as_text=True), "pad-title")) == "Spielblock"
    again = follower.client.get(f"/games/{pid}", headers={"Accept-Language": "de"})
    assert again.data == german.data != english.data


def test_a_message_after_a_form_post_is_shown_once_not_kept(app: Flask, pages: Pages) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    pages.play_round(pid, {1: 1, 2: 0, 0: 0}, {1: 1, 2: 0})
    forget_scorer_link(pages, pid)  # so that the scorer's page is kept
    pages.page(pid)  # kept for this version
    done = pages.post(pid, "rounds/1/delete", htmx=False)
    assert done.status_code == 303
    note = '<p class="note" role="status" title="Round 1 deleted.">Round 1 deleted.</p>'
    assert note in pages.page(pid).get_data(as_text=True)
    assert note not in pages.page(pid).get_data(as_text=True)
    bodies = [body.decode() for body in kept_bodies(app)]
    assert bodies and not any(note in body for body in bodies)


def test_an_unknown_game_is_404_and_nothing_kept(app: Flask, follower: Pages) -> None:
    assert follower.page("0" * 32).status_code == 404
    assert follower.client.get(f"/games/{'0' * 32}/live?v=1", headers=HX).status_code == 404
    assert kept_rows(app) == []


def test_odd_host_names_cannot_fill_the_memory(app: Flask, pages: Pages, follower: Pages) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    for n in range(3 * MAX_VARIANTS):
        answer = follower.client.get(f"/games/{pid}", headers={"Host": f"h{n}.example"})
        assert answer.status_code == 200
        assert f"http://h{n}.example/games/{pid}" in answer.get_data(as_text=True)
    assert len(kept_rows(app)) <= MAX_VARIANTS


def test_two_servers_keep_their_own_pages_and_never_serve_a_stale_one(
    app: Flask, pages: Pages, tmp_path: Path
) -> None:
    """A second app on the same database keeps its own copy; after a change made through
    the second, the first serves the new version at once (the version is the database's)."""
    other = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
        },
        instance_path=tmp_path / "other",
    )
    with other.app_context():
        upgrade()
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    first = app.test_client().get(f"/games/{pid}")
    with renders(other) as seen:
        served = other.test_client().get(f"/games/{pid}")
        again = other.test_client().get(f"/games/{pid}")
    assert seen == ["games/game.html"]  # rendered once there too, then kept
    assert served.data == again.data == first.data
    # The scorer's browser, now on the other server (same secret key, same session).
    moved = Pages(other.test_client())
    moved.client.set_cookie("session", pages.client.get_cookie("session").value)  # type: ignore[union-attr]
    moved.play_round(pid, {1: 1, 2: 0, 0: 0}, {1: 1, 2: 0})
    with renders(app) as seen:
        body = app.test_client().get(f"/games/{pid}").get_data(as_text=True)
    assert "games/game.html" in seen
    assert pad_totals(body, 1) == [20, 30, 20]
    with other.app_context():
        db.session.remove()
        db.engine.dispose()


def test_a_kept_page_costs_one_read_of_the_games_version_and_writes_nothing(
    app: Flask, pages: Pages, follower: Pages, monkeypatch: pytest.MonkeyPatch
) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    follower.page(pid)
    statements: list[str] = []
    versions: list[str] = []
    read_version = pagecache.current_version

    def counted(public_id: str) -> int | None:
        versions.append(public_id)
        return read_version(public_id)

    monkeypatch.setattr(pagecache, "current_version", counted)
    with app.app_context():
        engine = db.engine
    listen = lambda *args: statements.append(args[2])  # noqa: E731
    event.listen(engine, "before_cursor_execute", listen)
    try:
        with renders(app) as seen:
            assert follower.page(pid).status_code == 200
    finally:
        event.remove(engine, "before_cursor_execute", listen)
    assert seen == []
    # The version straight through the driver, and no other statement at all.
    assert versions == [pid] and statements == []


def test_the_least_recently_read_games_make_room(app: Flask, pages: Pages, follower: Pages) -> None:
    """The kept pages of a process stay within PAGE_CACHE_MB: the games read least
    recently go first, and a game read again is rendered again."""
    games = [pages.new_game(["Ann", "Ben", name]) for name in ("Cat", "Dan", "Eve", "Fay")]
    follower.page(games[0])
    with app.app_context():
        one = sum(page.size for _, _, _, page in pagecache.kept_pages())
    # A process of its own, with room for two and a half such games.
    limit = 2.5 * one / (1024 * 1024)
    app.config["PAGE_CACHE_MB"] = limit
    del app.extensions["scorekeeper.pagecache.pages"]
    for pid in games:
        assert follower.page(pid).status_code == 200
    with app.app_context():
        kept = [public_id for public_id, _, _, _ in pagecache.kept_pages()]
        size = sum(page.size for _, _, _, page in pagecache.kept_pages())
    assert sorted(kept) == sorted(games[2:])
    assert size <= limit * 1024 * 1024
    with renders(app) as seen:
        follower.page(games[0])
    assert seen == ["games/game.html"]


def test_without_the_cache_the_page_is_the_same(app: Flask, pages: Pages, follower: Pages) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    pages.play_round(pid, {1: 1, 2: 0, 0: 0}, {1: 1, 2: 0})
    kept = follower.page(pid).data
    app.config["PAGE_CACHE"] = False
    with renders(app) as seen:
        fresh = follower.page(pid).data
    assert "games/game.html" in seen and fresh == kept
    assert len(kept_rows(app)) == 1


def test_a_renamed_or_merged_player_shows_at_once(
    app: Flask, pages: Pages, follower: Pages
) -> None:
    """Names live with the players, not the games: a rename or a merge gives every game
    the player sat in a new version, so kept pages go and following phones reload."""
    from scorekeeper.models import Circle, Player
    from scorekeeper.services import roster

    # Renames and merges are a circle's: the games are in one.
    circle = pages.make_circle()
    first = pages.new_game(["Ann", "Ben", "Cat"], circle=circle)
    second = pages.new_game(["Bob", "Dan", "Eve"], circle=circle)
    for pid in (first, second):
        assert follower.page(pid).status_code == 200
    live = follower.client.get(f"/games/{first}/live?v=1", headers=HX)
    assert live.status_code == 204
    with app.app_context(), transaction.atomic():
        circle_id = db.session.scalar(select(Circle.id).where(Circle.public_id == circle))
        assert circle_id is not None
        ids = {p.name: p.id for p in db.session.scalars(select(Player))}
        roster.rename_player(circle_id, ids["Ann"], "Annika")
        roster.merge_players(circle_id, ids["Ben"], ids["Bob"])
    assert "Annika" in text_of(section(follower.page(first).get_data(as_text=True), "pad"))
    assert "Ben" in text_of(section(follower.page(second).get_data(as_text=True), "pad"))
    assert "Bob" not in follower.page(second).get_data(as_text=True)
    live = follower.client.get(f"/games/{first}/live?v=1", headers=HX)
    assert live.status_code == 200 and "Annika" in live.get_data(as_text=True)


# -- a process's kept pages, directly ----------------------------------------------------


def page(size: int) -> pagecache.Kept:
    return pagecache.Kept(b"x" * size, None, None)


def test_a_page_rendered_from_an_older_version_never_replaces_a_newer_one() -> None:
    pages = pagecache._Pages(1024 * 1024)
    assert pages.put("g", 5, "v", page(10))
    assert not pages.put("g", 4, "v", page(11))  # a slow render of the version before
    assert pages.get("g", 5, "v") == page(10)
    assert pages.put("g", 6, "w", page(12))  # a newer version: the older pages go
    assert pages.get("g", 6, "v") is None and pages.get("g", 6, "w") == page(12)


def test_a_version_gone_back_drops_what_was_kept() -> None:
    """A restored database can show a version number the game had before, with other
    rounds: what the process kept of the later one is dropped, not served."""
    pages = pagecache._Pages(1024 * 1024)
    assert pages.put("g", 37, "v", page(10))
    assert pages.get("g", 1, "v") is None
    assert pages.put("g", 1, "v", page(11))
    assert pages.get("g", 1, "v") == page(11)


def test_a_page_larger_than_the_whole_room_is_not_kept_and_drops_nothing() -> None:
    pages = pagecache._Pages(10_000)
    assert pages.put("g", 1, "v", page(1_000))
    assert not pages.put("h", 1, "v", page(20_000))
    assert pages.get("g", 1, "v") == page(1_000) and pages.get("h", 1, "v") is None


def test_a_game_version_keeps_at_most_its_variants() -> None:
    pages = pagecache._Pages(1024 * 1024)
    for n in range(MAX_VARIANTS):
        assert pages.put("g", 1, f"v{n}", page(10))
    assert not pages.put("g", 1, "one-more", page(10))
    assert pages.put("g", 1, "v0", page(20))  # a variant already kept is replaced
    assert len(pages.kept()) == MAX_VARIANTS and pages.get("g", 1, "v0") == page(20)
    assert pages.variants_taken("g", 1, "one-more") == MAX_VARIANTS
