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
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from cachetools import LRUCache
from flask import current_app
from sqlalchemy import bindparam, select

from scorekeeper.extensions import db
from scorekeeper.models import Game

_compiled: dict[str, tuple[str, tuple[str, ...]]] = {}
_EXTENSION = "scorekeeper.pagecache.pages"
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
    return _pages().get(public_id, version, variant)


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
    """Keep a page rendered for ``version`` (the game's pages of an older version go).
    Returns whether it was kept."""
    return _pages().put(public_id, version, variant, Kept(body, gzip, br))


def kept_pages() -> list[tuple[str, int, str, Kept]]:
    """This process's kept pages, (game, version, variant, page) each: for tests and
    checks."""
    return _pages().kept()
