"""The app processes of one server share the pages they render (``PAGE_SHARE_DIR``,
services/pagecache.py): on a game night every follower of a game asks for its new version
at the same moment, on whichever worker its connection landed, and without the shared
folder each worker rendered the same version."""

from __future__ import annotations

import fcntl
import os
import re
import runpy
import shutil
import stat
from pathlib import Path

import pytest
from flask import Flask
from flask_migrate import upgrade

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.services import pagecache
from tests.web.support import HX, Pages, keep_score_without_link, pad_totals
from tests.web.test_page_cache import renders

CONF = Path(__file__).resolve().parents[2] / "gunicorn.conf.py"


@pytest.fixture
def share(tmp_path: Path) -> Path:
    folder = tmp_path / "share"
    folder.mkdir()
    return folder


@pytest.fixture
def worker(app: Flask, share: Path, tmp_path: Path):  # type: ignore[no-untyped-def]
    """A second worker of the same server: the same database and shared folder, an app
    (and so a memory) of its own. The first worker, ``app``, is given the folder too."""
    app.config["PAGE_SHARE_DIR"] = str(share)
    other = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
            "PAGE_SHARE_DIR": str(share),
        },
        instance_path=tmp_path / "other",
    )
    with other.app_context():
        upgrade()
    yield other
    with other.app_context():
        db.session.remove()
        db.engine.dispose()


def games_in(share: Path) -> list[Path]:
    return [path for path in share.iterdir() if path.is_dir()]


def shared_files(share: Path) -> list[str]:
    return sorted(
        path.name for game in games_in(share) for path in game.iterdir() if path.name[0] != "."
    )


def test_a_version_rendered_by_one_worker_is_served_by_the_other(
    app: Flask, worker: Flask, pages: Pages, share: Path
) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    pages.play_round(pid, {1: 1, 2: 0, 0: 0}, {1: 1, 2: 0})
    with renders(app) as seen:
        first = app.test_client().get(f"/games/{pid}/live?v=1", headers=HX)
    assert "games/_update.html" in seen
    with renders(worker) as seen:
        there = worker.test_client().get(f"/games/{pid}/live?v=1", headers=HX)
        again = worker.test_client().get(f"/games/{pid}/live?v=1", headers=HX)
    assert seen == []  # read from the shared folder, then from its own memory
    assert there.data == again.data == first.data
    assert pad_totals(there.get_data(as_text=True), 1) == [20, 30, 20]
    # The next version: whichever worker is asked first renders it, the other reads it;
    # the older version's file is gone.
    pages.play_round(pid, {2: 0, 0: 2, 1: 0}, {2: 0, 0: 2})
    with renders(worker) as seen:
        newer = worker.test_client().get(f"/games/{pid}/live?v=2", headers=HX)
    assert "games/_update.html" in seen
    with renders(app) as seen:
        same = app.test_client().get(f"/games/{pid}/live?v=2", headers=HX)
    assert seen == [] and same.data == newer.data
    assert pad_totals(same.get_data(as_text=True), 2) == [60, 50, 40]
    with app.app_context():
        version = pagecache.current_version(pid)
    assert [name.partition("-")[0] for name in shared_files(share)] == [str(version)]


def test_a_damaged_or_missing_shared_page_is_rendered_again(
    app: Flask, worker: Flask, pages: Pages, share: Path
) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    first = app.test_client().get(f"/games/{pid}")
    (page,) = (path for game in games_in(share) for path in game.glob("[0-9]*"))
    page.write_bytes(page.read_bytes()[:-10])  # cut short, as by a full disk
    with renders(worker) as seen:
        served = worker.test_client().get(f"/games/{pid}")
    assert seen == ["games/game.html"] and served.data == first.data
    # The folder removed under a running server: pages are rendered and served still.
    shutil.rmtree(share)
    pages.play_round(pid, {1: 1, 2: 0, 0: 0}, {1: 1, 2: 0})
    body = worker.test_client().get(f"/games/{pid}").get_data(as_text=True)
    assert pad_totals(body, 1) == [20, 30, 20]


def test_a_scorers_page_from_the_other_worker_gets_fresh_secrets_and_none_is_stored(
    app: Flask, worker: Flask, pages: Pages, share: Path
) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    keep_score_without_link(pages.client, pid)  # a page without the scorer link is kept
    app.config["WTF_CSRF_ENABLED"] = worker.config["WTF_CSRF_ENABLED"] = True
    first = pages.page(pid).get_data(as_text=True)
    moved = Pages(worker.test_client())  # the scorer's browser, answered by the other worker
    session = pages.client.get_cookie("session")
    assert session is not None
    moved.client.set_cookie("session", session.value)
    with renders(worker) as seen:
        second = moved.page(pid).get_data(as_text=True)
    assert seen == []
    keys = [re.findall(r'name="idempotency_key" value="([^"]+)"', b) for b in (first, second)]
    assert keys[0] and keys[1] and not set(keys[0]) & set(keys[1])
    token = re.search(r'name="csrf_token" value="([^"]+)"', second)
    assert token is not None
    stored = b"".join(path.read_bytes() for game in share.iterdir() for path in game.glob("[0-9]*"))
    secrets = [token.group(1), session.value, *keys[0], *keys[1]]
    assert stored and not [secret for secret in secrets if secret.encode() in stored]
    answer = moved.client.post(
        f"/games/{pid}/bid",
        data={"seat": "1", "bid": "0", "csrf_token": token.group(1), "idempotency_key": keys[1][0]},
        headers=HX,
    )
    assert answer.status_code == 200


def test_while_one_process_renders_a_page_the_others_wait_for_it(app: Flask, share: Path) -> None:
    app.config["PAGE_SHARE_DIR"] = str(share)
    with app.app_context(), pagecache.rendering("g1", "v" * 32):
        (lock,) = share.glob(".lock-*")
        other = os.open(lock, os.O_RDWR)  # as another process opens it
        try:
            with pytest.raises(BlockingIOError):
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(other)
    other = os.open(lock, os.O_RDWR)
    try:
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)  # free once it is kept
    finally:
        os.close(other)


def test_games_not_rendered_for_an_hour_leave_the_folder(
    app: Flask, share: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app.config["PAGE_SHARE_DIR"] = str(share)
    page = pagecache.Kept(b"<p>a page</p>", b"gz", None)
    with app.app_context():
        pagecache.keep("old", 3, "a" * 32, page.body, page.gzip)
        (old,) = games_in(share)
        hour_ago = old.stat().st_mtime - pagecache.SHARE_KEEP - 1
        os.utime(old, (hour_ago, hour_ago))
        shared = app.extensions["scorekeeper.pagecache.shared"]
        pagecache.keep("new", 1, "a" * 32, page.body, page.gzip)
        assert old.exists()  # no sweep before SHARE_SWEEP seconds have passed
        shared.next_sweep = 0.0
        pagecache.keep("new", 2, "a" * 32, page.body, page.gzip)
        assert not old.exists()
        assert len(games_in(share)) == 1
        # What was kept reads back whole, a copy not kept included.
        del app.extensions["scorekeeper.pagecache.pages"]
        assert pagecache.lookup("new", "a" * 32, 2) == page


def test_asking_for_pages_makes_no_files_but_those_of_pages_kept(
    app: Flask, worker: Flask, pages: Pages, share: Path
) -> None:
    """Unknown games and odd Host headers, as anyone may send them, leave nothing in the
    folder but its fixed set of lock files."""
    for n in range(30):
        assert worker.test_client().get(f"/games/nosuchgame{n}").status_code == 404
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    for n in range(40):
        answer = worker.test_client().get(f"/games/{pid}", headers={"Host": f"h{n}.example"})
        assert answer.status_code == 200
    games = games_in(share)
    locks = [path for path in share.iterdir() if path.name.startswith(".lock-")]
    assert len(games) == 1 and len(locks) <= pagecache.LOCK_SLOTS
    assert len(shared_files(share)) <= pagecache.MAX_VARIANTS


def test_a_version_gone_back_leaves_nothing_of_the_other_history(app: Flask, share: Path) -> None:
    """A database put back to an older copy: the game's version goes back, and a page kept
    for a version of the other history must never come back when this one reaches it."""
    app.config["PAGE_SHARE_DIR"] = str(share)
    with app.app_context():
        pagecache.keep("g", 10, "a" * 32, b"<p>other history, v10</p>", b"gz")
        assert pagecache.lookup("g", "a" * 32, 5) is None  # as a reader of version 5 asks
        pagecache.keep("g", 5, "a" * 32, b"<p>this history, v5</p>", b"gz")
        del app.extensions["scorekeeper.pagecache.pages"]  # another process's memory
        assert pagecache.lookup("g", "a" * 32, 10) is None
        kept = pagecache.lookup("g", "a" * 32, 5)
        assert kept is not None and kept.body == b"<p>this history, v5</p>"


class _Server:
    """What gunicorn.conf.py's hooks read of gunicorn's arbiter."""

    def __init__(self, workers: int) -> None:
        self.cfg = type("Cfg", (), {"workers": workers})()


def test_gunicorn_gives_each_server_a_private_folder_and_removes_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("PAGE_SHARE_DIR", raising=False)
    settings = runpy.run_path(str(CONF))
    settings["on_starting"](_Server(workers=3))
    folder = Path(os.environ["PAGE_SHARE_DIR"])
    assert folder.is_dir() and stat.S_IMODE(folder.stat().st_mode) == 0o700
    (folder / "game").mkdir()
    settings["on_exit"](_Server(workers=3))
    assert not folder.exists()
    # One worker has no one to share with; a folder named by whoever started the server
    # is neither used nor removed.
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    monkeypatch.setenv("PAGE_SHARE_DIR", str(theirs))
    settings = runpy.run_path(str(CONF))
    settings["on_starting"](_Server(workers=1))
    assert "PAGE_SHARE_DIR" not in os.environ
    settings["on_exit"](_Server(workers=1))
    assert theirs.is_dir()
