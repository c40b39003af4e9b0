"""Rendered game pages kept in each app process's memory, per game version.

A game page only changes when the game does, and every change bumps the game's version
in the same transaction. So a page rendered for (game, version, variant) can be served
again to every reader of that version. The version comes from the database on every
request (one indexed lookup), so a page of an older version is never served, whichever
app server made the change; nothing is written on a read. Each process renders a page
once per version and keeps it while it has room (``PAGE_CACHE_MB``, default 32: the games
read least recently go first). Rendering again is always correct, so a page not kept
only costs the next reader a render.

Printed pads are kept here too, the one cache of rendered output: a game's filled pad as
a variant of the game's version, a blank pad (which has no game) under a key of its own
that says all it depends on, at version 0 (``web/pads.py``).

The processes of one server share what they render (``PAGE_SHARE_DIR``, a private folder
gunicorn.conf.py makes for each start of the server and removes at its end): a page one
process rendered is written there, and another that has no copy reads it instead of
rendering the same version again, and while one renders a version, the others wait for it
(on one of a fixed set of lock files). On a game night every follower of a game asks for
its new version at the same moment, on either worker: without the folder both rendered it.
Only the version of a game last written is kept there, and a game not rendered for an hour
goes.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import struct
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cachetools import LRUCache
from flask import current_app
from sqlalchemy import bindparam, select

from scorekeeper.extensions import db
from scorekeeper.models import Game

_compiled: dict[str, tuple[str, tuple[str, ...]]] = {}
_EXTENSION = "scorekeeper.pagecache.pages"
_SHARED = "scorekeeper.pagecache.shared"
SHARE_KEEP = 3600.0  # seconds a game's shared pages stay after its last render
SHARE_SWEEP = 300.0  # seconds between two sweeps of the shared folder by one process
LOCK_SLOTS = 64  # lock files in the shared folder: two pages in one slot wait for each other
_HEAD = struct.Struct("!III")  # lengths of the body, gzip and Brotli copies in a file
_NONE = 0xFFFFFFFF  # the length of a copy not kept
MAX_VARIANTS = 16  # per game version: a handful of languages × roles × addresses
DEFAULT_MB = 32


@dataclass(frozen=True, slots=True)
class Kept:
    body: bytes
    gzip: bytes | None
    br: bytes | None

    @property
    def size(self) -> int:
        return len(self.body) + len(self.gzip or b"") + len(self.br or b"")

    def copy(self, coding: str) -> bytes | None:
        """The copy kept in ``coding`` ("br" or "gzip"), if any."""
        return self.br if coding == "br" else self.gzip if coding == "gzip" else None


@dataclass(frozen=True, slots=True)
class _GamePages:
    """One game's kept pages, all of one version, by variant."""

    version: int
    pages: dict[str, Kept] = field(default_factory=dict)

    @property
    def size(self) -> int:
        # About what the objects around the bytes take (entry, dict slots, keys).
        return sum(page.size for page in self.pages.values()) + 200 * (1 + len(self.pages))


class _Pages:
    """A process's kept pages: games by public id, least recently read dropped first once
    their bytes pass the limit. Worker threads share it, hence the lock (LRUCache is
    not safe to share by itself)."""

    def __init__(self, limit: int) -> None:
        self.games: LRUCache[str, _GamePages] = LRUCache(
            maxsize=limit, getsizeof=lambda pages: pages.size
        )
        self.lock = threading.Lock()

    def get(self, public_id: str, version: int, variant: str) -> Kept | None:
        with self.lock:
            kept = self.games.get(public_id)
            if kept is not None and kept.version > version:
                # The database's version went back (a restored or replaced database):
                # what is kept belongs to another history of the game. (A reader whose
                # version was read just before a change can drop the newer pages too:
                # the next reader renders them again.)
                del self.games[public_id]
                return None
        if kept is None or kept.version != version:
            return None
        return kept.pages.get(variant)

    def replace(self, public_id: str, variant: str, old: Kept, new: Kept) -> int | None:
        """Put ``new`` where ``old`` is kept; the version it is kept for, or None when
        ``old`` is no longer kept (a newer version came, or it made room)."""
        with self.lock:
            kept = self.games.get(public_id)
            if kept is None or kept.pages.get(variant) is not old:
                return None
            try:
                self.games[public_id] = _GamePages(kept.version, {**kept.pages, variant: new})
            except ValueError:  # larger than the whole limit
                return None
            return kept.version

    def variants_taken(self, public_id: str, version: int, variant: str) -> int:
        with self.lock:
            kept = self.games.get(public_id)
        if kept is None or kept.version != version:
            return 0
        return sum(1 for name in kept.pages if name != variant)

    def put(self, public_id: str, version: int, variant: str, page: Kept) -> bool:
        with self.lock:
            kept = self.games.get(public_id)
            if kept is not None and kept.version > version:
                return False  # rendered from a version the game has since left
            pages = dict(kept.pages) if kept is not None and kept.version == version else {}
            if variant not in pages and len(pages) >= MAX_VARIANTS:
                # Odd Host headers: the pages kept first stay; the new one is served only.
                return False
            pages[variant] = page
            try:
                self.games[public_id] = _GamePages(version, pages)
            except ValueError:  # larger than the whole limit
                return False
            return True

    def kept(self) -> list[tuple[str, int, str, Kept]]:
        """Every kept page: (game, version, variant, page)."""
        with self.lock:
            games = list(self.games.items())
        return [
            (public_id, game.version, variant, page)
            for public_id, game in games
            for variant, page in game.pages.items()
        ]


class _Shared:
    """The pages the processes of one server share: a folder per game (named by a hash of
    its id), holding ``<version>-<variant>`` files of the version last written, and the
    lock files."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.next_sweep = time.monotonic() + SHARE_SWEEP
        self.sweeping = threading.Lock()

    def _game(self, public_id: str) -> Path:
        return self.folder / hashlib.blake2b(public_id.encode(), digest_size=16).hexdigest()

    def get(self, public_id: str, version: int, variant: str) -> Kept | None:
        try:
            data = (self._game(public_id) / f"{version}-{variant}").read_bytes()
        except OSError:
            return None
        if len(data) < _HEAD.size:
            return None
        copies: list[bytes | None] = []
        at = _HEAD.size
        for length in _HEAD.unpack_from(data):
            if length == _NONE:
                copies.append(None)
            else:
                copies.append(data[at : at + length])
                at += length
        if at != len(data) or copies[0] is None:
            return None  # not a whole file: rendered again
        return Kept(copies[0], copies[1], copies[2])

    def put(self, public_id: str, version: int, variant: str, page: Kept) -> None:
        game = self._game(public_id)
        copies = (page.body, page.gzip, page.br)
        head = _HEAD.pack(*(_NONE if copy is None else len(copy) for copy in copies))
        name = None
        try:
            game.mkdir(exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=game, prefix=".new-", delete=False) as file:
                name = file.name
                file.write(head + b"".join(copy for copy in copies if copy is not None))
            os.replace(name, game / f"{version}-{variant}")
            name = None
            for old in game.iterdir():
                # The game's pages of any other version: older ones, or newer ones of
                # another history of the game (a database put back to an older copy).
                stem = old.name.partition("-")[0]
                if stem.isdigit() and int(stem) != version:
                    old.unlink(missing_ok=True)
        except OSError:
            if name is not None:
                with contextlib.suppress(OSError):
                    os.unlink(name)
            return  # a full or vanished folder: the page is only not shared
        self._sweep()

    @contextlib.contextmanager
    def rendering(self, public_id: str, variant: str) -> Iterator[None]:
        """While this process renders the page: the others wait, then read it. The locks
        are a fixed set of files (a page's slot by a hash of its game and variant), so
        that nobody can make files here by asking for pages: an unknown game or an odd
        Host makes none."""
        digest = hashlib.blake2b(f"{public_id}\n{variant}".encode(), digest_size=8).digest()
        slot = int.from_bytes(digest, "big") % LOCK_SLOTS
        lock = None
        try:
            lock = os.open(self.folder / f".lock-{slot}", os.O_RDWR | os.O_CREAT, 0o600)
            fcntl.flock(lock, fcntl.LOCK_EX)
        except OSError:  # a vanished folder, or a file system without locks: no wait
            pass
        try:
            yield
        finally:
            if lock is not None:
                os.close(lock)  # and the lock with it

    def _sweep(self) -> None:
        """Now and then: the games no process rendered for SHARE_KEEP seconds go."""
        now = time.monotonic()
        if now < self.next_sweep or not self.sweeping.acquire(blocking=False):
            return
        try:
            self.next_sweep = now + SHARE_SWEEP
            stale = time.time() - SHARE_KEEP
            for game in self.folder.iterdir():
                with contextlib.suppress(OSError):
                    if game.is_dir() and game.stat().st_mtime < stale:
                        shutil.rmtree(game)
        except OSError:
            pass
        finally:
            self.sweeping.release()


def _shared() -> _Shared | None:
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    if _SHARED not in app.extensions:
        folder = app.config.get("PAGE_SHARE_DIR")
        usable = folder and Path(folder).is_dir() and app.config.get("PAGE_CACHE", True)
        app.extensions[_SHARED] = _Shared(Path(folder)) if usable else None
    shared: _Shared | None = app.extensions[_SHARED]
    return shared


def _pages() -> _Pages:
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    pages: _Pages | None = app.extensions.get(_EXTENSION)
    if pages is None:
        limit = int(float(app.config.get("PAGE_CACHE_MB", DEFAULT_MB)) * 1024 * 1024)
        pages = app.extensions.setdefault(_EXTENSION, _Pages(limit))
    return pages


# Compiled once per database dialect (SQLite's "?" or psycopg's "%(name)s" parameters).
_STATE = select(Game.version, Game.deleted_at.is_not(None)).where(
    Game.public_id == bindparam("public_id")
)


def current_state(public_id: str) -> tuple[int, bool] | None:
    """The game's version as stored now and whether it is deleted (``None`` for no such
    game): what a following phone asks with every update, in one lookup."""
    engine = db.engine
    compiled = _compiled.get(engine.dialect.name)
    if compiled is None:
        statement = _STATE.compile(dialect=engine.dialect)
        names = tuple(statement.positiontup or ())
        compiled = _compiled[engine.dialect.name] = (statement.string, names)
    sql, order = compiled
    values = {"public_id": public_id}
    params: Any = tuple(values[name] for name in order) if order else values
    # Straight through the driver: this runs for every page served, and SQLAlchemy's
    # statement handling would take twice as long as the query itself.
    connection = engine.raw_connection()
    try:
        cursor = connection.cursor()
        cursor.execute(sql, params)
        row = cursor.fetchone()
        cursor.close()
    finally:
        connection.close()
    return None if row is None else (int(row[0]), bool(row[1]))


def current_version(public_id: str) -> int | None:
    """The game's version as stored now (``None`` for no such game)."""
    state = current_state(public_id)
    return None if state is None else state[0]


def lookup(public_id: str, variant: str, version: int | None = None) -> Kept | None:
    """The page kept for the game's current version in this variant, if any (``version``:
    the current one, when the caller has just read the game)."""
    if version is None:
        version = current_version(public_id)
        if version is None:
            return None
    pages = _pages()
    kept = pages.get(public_id, version, variant)
    if kept is None and (shared := _shared()) is not None:
        kept = shared.get(public_id, version, variant)  # another process rendered it
        if kept is not None:
            pages.put(public_id, version, variant, kept)
    return kept


@contextlib.contextmanager
def rendering(public_id: str, variant: str) -> Iterator[None]:
    """Around rendering a page to keep: the server's other processes that want it
    meanwhile wait for it (the threads of this one wait on their own lock)."""
    shared = _shared()
    if shared is None:
        yield
    else:
        with shared.rendering(public_id, variant):
            yield


def has_room(public_id: str, version: int, variant: str) -> bool:
    """Whether a page rendered for ``version`` in ``variant`` would be kept: the version's
    variants are not all taken yet (asked before compressing a page that wouldn't be)."""
    return _pages().variants_taken(public_id, version, variant) < MAX_VARIANTS


def keep(
    public_id: str,
    version: int,
    variant: str,
    body: bytes,
    gzip: bytes | None = None,
    br: bytes | None = None,
) -> bool:
    """Keep a page rendered for ``version`` (the game's pages of an older version go), for
    the server's other processes too. Returns whether it was kept here."""
    page = Kept(body, gzip, br)
    kept = _pages().put(public_id, version, variant, page)
    if kept and (shared := _shared()) is not None:
        shared.put(public_id, version, variant, page)
    return kept


def add_copy(public_id: str, variant: str, kept: Kept, coding: str, copy: bytes) -> Kept:
    """``kept`` with its copy in ``coding`` added, and kept so if it still is the page
    kept for the game and variant (here, and for the server's other processes)."""
    page = Kept(
        kept.body,
        copy if coding == "gzip" else kept.gzip,
        copy if coding == "br" else kept.br,
    )
    version = _pages().replace(public_id, variant, kept, page)
    if version is not None and (shared := _shared()) is not None:
        shared.put(public_id, version, variant, page)
    return page


def kept_pages() -> list[tuple[str, int, str, Kept]]:
    """This process's kept pages, (game, version, variant, page) each: for tests and
    checks."""
    return _pages().kept()
