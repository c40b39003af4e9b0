"""One writer at a time per app process when the database is SQLite.

SQLite lets one connection write at a time; the others wait in its busy handler, which
polls with sleeps growing to 100 ms, so under load an unlucky write could wait seconds
behind later ones. Writes of one process queue on a lock instead, each going on as soon
as the one before is done, and SQLite's own waiting is left to the few processes.
PostgreSQL locks rows, not the database: there writes run side by side as before.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from scorekeeper.extensions import db

_lock = threading.RLock()  # re-entrant: a write may call another that takes a turn


@contextmanager
def turn() -> Iterator[None]:
    """Hold this process's write turn (SQLite), or nothing (any other database)."""
    if db.engine.dialect.name != "sqlite":
        yield
        return
    with _lock:
        yield


@contextmanager
def turn_if_free() -> Iterator[bool]:
    """This process's write turn if nobody holds it (True), else go on without (False):
    for writes that may as well be skipped, such as keeping a rendered page."""
    if db.engine.dialect.name != "sqlite":
        yield True
        return
    free = _lock.acquire(blocking=False)
    try:
        yield free
    finally:
        if free:
            _lock.release()
