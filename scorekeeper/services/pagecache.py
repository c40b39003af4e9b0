"""Rendered game pages kept in the database, per game version.

A game page only changes when the game does, and every change bumps the game's version
in the same transaction. So a page rendered for (game, version, variant) can be served
again to every reader of that version, by any app server: the lookup joins the game row,
and a kept page of an older version is never served. Rendering again is always correct,
so failing to keep a page (a write conflict between two servers, a read-only database)
only costs the next reader a render.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, delete, func, or_, select
from sqlalchemy.exc import SQLAlchemyError

from scorekeeper import writers
from scorekeeper.extensions import db
from scorekeeper.models import Game, PageCache

log = logging.getLogger(__name__)
_compiled: dict[str, tuple[str, tuple[str, ...]]] = {}
MAX_VARIANTS = 16


@dataclass(frozen=True, slots=True)
class Kept:
    body: bytes
    gzip: bytes | None
    br: bytes | None


# Compiled once per database dialect (SQLite's "?" or psycopg's "%(name)s" parameters).
_LOOKUP = (
    select(PageCache.body, PageCache.gzip, PageCache.br)
    .join(Game, Game.id == PageCache.game_id)
    .where(
        Game.public_id == bindparam("public_id"),
        PageCache.variant == bindparam("variant"),
        PageCache.version == Game.version,
    )
)


def lookup(public_id: str, variant: str) -> Kept | None:
    """The page kept for the game's current version in this variant, if any."""
    engine = db.engine
    compiled = _compiled.get(engine.dialect.name)
    if compiled is None:
        statement = _LOOKUP.compile(dialect=engine.dialect)
        names = tuple(statement.positiontup or ())
        compiled = _compiled[engine.dialect.name] = (statement.string, names)
    sql, order = compiled
    values = {"public_id": public_id, "variant": variant}
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
    if row is None:
        return None
    body, gzip, br = (bytes(v) if v is not None else None for v in row)
    return Kept(body or b"", gzip, br)


def keep(
    game_id: int,
    version: int,
    variant: str,
    body: bytes,
    gzip: bytes | None = None,
    br: bytes | None = None,
) -> bool:
    """Keep a page rendered for ``version``; drop the game's pages of other versions.

    Commits its own transaction, so call it after everything else of the request is
    done. Skipped while this process is writing something else (SQLite: the page is kept
    by a later reader rather than waiting here). Returns whether the page was kept.
    """
    with writers.turn_if_free() as free:
        return free and _keep(game_id, version, variant, body, gzip, br)


def has_room(game_id: int, version: int, variant: str) -> bool:
    """Whether a page rendered for ``version`` in ``variant`` would be kept: the version's
    variants are not all taken yet (asked before compressing a page that wouldn't be)."""
    taken = db.session.scalar(
        select(func.count())
        .select_from(PageCache)
        .where(
            PageCache.game_id == game_id,
            PageCache.version == version,
            PageCache.variant != variant,
        )
    )
    return (taken or 0) < MAX_VARIANTS


def _keep(
    game_id: int, version: int, variant: str, body: bytes, gzip: bytes | None, br: bytes | None
) -> bool:
    try:
        # Pages of other versions are never served again; this variant is replaced.
        db.session.execute(
            delete(PageCache).where(
                PageCache.game_id == game_id,
                or_(PageCache.version != version, PageCache.variant == variant),
            )
        )
        taken = db.session.scalar(
            select(func.count()).select_from(PageCache).where(PageCache.game_id == game_id)
        )
        # A game has a handful of variants (languages × roles × addresses); more means odd
        # Host headers. The pages kept first stay: the new one is served, not kept.
        if (taken or 0) >= MAX_VARIANTS:
            db.session.commit()
            return False
        db.session.add(
            PageCache(
                game_id=game_id, version=version, variant=variant, body=body, gzip=gzip, br=br
            )
        )
        db.session.commit()
    except SQLAlchemyError as exc:
        # Another server kept the same page at the same moment, or the game changed
        # meanwhile: the next reader renders it again.
        db.session.rollback()
        log.info("page not kept: %s", exc.__class__.__name__)
        return False
    return True
