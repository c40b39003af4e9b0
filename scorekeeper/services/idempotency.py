"""Idempotency keys: a write and the answer it got are stored in one transaction.

The services end every write with :func:`commit`. Inside :func:`deferred_commit` (a
request that carries an ``Idempotency-Key``) that only flushes: the write is checked by
the database (versions, unique rounds) but not yet committed, so the web layer can render
the answer, add it with :func:`keep` and commit both at once. A crash then leaves either
the write with its key or neither, and a retry finds the answer or writes afresh.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime, timedelta

from sqlalchemy import delete, select

from scorekeeper.extensions import db
from scorekeeper.models import IdempotencyKey, utcnow

KEY_MAX = 64
# A retry comes within minutes; a day covers a phone left offline overnight at most.
LIFETIME = timedelta(hours=24)
# One write in this many also sweeps every scope's expired keys.
SWEEP_ONE_IN = 50

_deferred: ContextVar[bool] = ContextVar("idempotency_deferred", default=False)


def commit() -> None:
    """End a service's write: commit it, or inside :func:`deferred_commit` only flush it
    (errors such as a stale version still show here)."""
    if _deferred.get():
        db.session.flush()
    else:
        db.session.commit()


@contextmanager
def deferred_commit() -> Iterator[None]:
    """Leave the commit of the writes made inside to the caller."""
    token = _deferred.set(True)
    try:
        yield
    finally:
        _deferred.reset(token)


def find(scope: str, key: str, now: datetime | None = None) -> IdempotencyKey | None:
    """The answer kept under ``key`` in ``scope``, unless it has expired."""
    row: IdempotencyKey | None = db.session.scalar(
        select(IdempotencyKey).where(IdempotencyKey.scope == scope, IdempotencyKey.key == key)
    )
    if row is None or _expired(row, now or utcnow()):
        return None
    return row


def keep(
    scope: str,
    key: str,
    fingerprint: str,
    status: int,
    headers: dict[str, str],
    body: bytes,
    now: datetime | None = None,
) -> None:
    """Add the answer to the session (the caller commits it with the write); expired keys
    of the scope go, and now and then everyone's."""
    now = now or utcnow()
    cutoff = now - LIFETIME
    scoped = delete(IdempotencyKey).where(IdempotencyKey.created_at < cutoff)
    if random.randrange(SWEEP_ONE_IN):  # usually: this scope only
        scoped = scoped.where(IdempotencyKey.scope == scope)
    db.session.execute(scoped)
    db.session.add(
        IdempotencyKey(
            scope=scope,
            key=key,
            fingerprint=fingerprint,
            status=status,
            headers=headers,
            body=body,
            created_at=now,
        )
    )


def expire(now: datetime | None = None) -> int:
    """Delete every expired key (e.g. from a periodic job); returns how many."""
    cutoff = (now or utcnow()) - LIFETIME
    result = db.session.execute(delete(IdempotencyKey).where(IdempotencyKey.created_at < cutoff))
    db.session.commit()
    return int(getattr(result, "rowcount", 0) or 0)


def _expired(row: IdempotencyKey, now: datetime) -> bool:
    created = row.created_at
    if created.tzinfo is None:  # SQLite hands back naive UTC
        created = created.replace(tzinfo=now.tzinfo)
    return created < now - LIFETIME
