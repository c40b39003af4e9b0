"""Idempotency keys: a write and the answer it got are stored in one transaction.

The services end every write with a flush: the write is checked by the database
(versions, unique rounds) but not yet committed, so the web layer can render the answer,
add it with :func:`keep` when the request carries an ``Idempotency-Key``, and commit both
at once (``scorekeeper/transaction.py`` owns the transaction). A crash then leaves either
the write with its key or neither, and a retry finds the answer or writes afresh.

A kept answer may hold secrets (a new game's scorer token, a digital table's seat links),
so it is stored sealed (:mod:`scorekeeper.sealing`), never in plain text: under a key
derived from a secret that only the client's retry brings back (see
:mod:`scorekeeper.idempotency`), and bound to the row it belongs to (its scope, key,
fingerprint and status), so a sealed answer can't be read, altered or moved to another
row without it.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select

from scorekeeper import sealing
from scorekeeper.extensions import db
from scorekeeper.models import IdempotencyKey, utcnow

KEY_MAX = 64
# A retry comes within minutes; a day covers a phone left offline overnight at most.
LIFETIME = timedelta(hours=24)
# Expired keys are swept now and then, not on every write (a tap's statements count):
# of SWEEP_ONE_IN writes, one sweeps every scope's and SCOPE_SWEEPS − 1 their own scope's.
# An expired key a retry comes back with is removed when it is looked up.
SWEEP_ONE_IN = 50
SCOPE_SWEEPS = 5

# A sweep leaves rows already loaded (an expired one :func:`find` just looked at) alone:
# matching them in Python would compare SQLite's naive times with aware ones.
_UNSYNCHRONIZED = {"synchronize_session": False}


@dataclass(frozen=True, slots=True)
class Answer:
    """A kept answer, opened: what the first request was answered with."""

    status: int
    headers: dict[str, str]
    body: bytes


def find(scope: str, key: str, now: datetime | None = None) -> IdempotencyKey | None:
    """The row kept under ``key`` in ``scope``, unless it has expired."""
    row: IdempotencyKey | None = db.session.scalar(
        select(IdempotencyKey).where(IdempotencyKey.scope == scope, IdempotencyKey.key == key)
    )
    if row is None:
        return None
    if _expired(row, now or utcnow()):
        # Gone now, so that the key can be kept again with this request's answer.
        db.session.execute(
            delete(IdempotencyKey).where(IdempotencyKey.id == row.id),
            execution_options=_UNSYNCHRONIZED,
        )
        db.session.expunge(row)
        return None
    return row


def keep(
    scope: str,
    key: str,
    fingerprint: str,
    status: int,
    headers: dict[str, str],
    body: bytes,
    secret: bytes,
    now: datetime | None = None,
) -> None:
    """Add the answer, sealed with the client's ``secret``, to the session (the caller
    commits it with the write); now and then expired keys go, of the scope or everyone's."""
    now = now or utcnow()
    cutoff = now - LIFETIME
    roll = random.randrange(SWEEP_ONE_IN)
    if roll < SCOPE_SWEEPS:
        swept = delete(IdempotencyKey).where(IdempotencyKey.created_at < cutoff)
        if roll:  # this scope only
            swept = swept.where(IdempotencyKey.scope == scope)
        db.session.execute(swept, execution_options=_UNSYNCHRONIZED)
    # JSON never holds a raw newline: the first one ends the headers.
    plain = json.dumps(headers, separators=(",", ":")).encode() + b"\n" + body
    db.session.add(
        IdempotencyKey(
            scope=scope,
            key=key,
            fingerprint=fingerprint,
            status=status,
            headers={},
            body=sealing.seal("kept answer", plain, _row(scope, key, fingerprint, status), secret),
            created_at=now,
        )
    )


def answer(row: IdempotencyKey, secret: bytes) -> Answer | None:
    """The answer kept in ``row``, or ``None`` when the client's ``secret`` doesn't open
    it."""
    associated = _row(row.scope, row.key, row.fingerprint, row.status)
    plain = sealing.unseal("kept answer", row.body, associated, secret)
    if plain is None:
        return None
    headers, _, body = plain.partition(b"\n")
    return Answer(row.status, json.loads(headers), body)


def _row(scope: str, key: str, fingerprint: str, status: int) -> bytes:
    """What a sealed answer is bound to: the row it was kept in."""
    return json.dumps([scope, key, fingerprint, status], separators=(",", ":")).encode()


def expire(now: datetime | None = None) -> int:
    """Delete every expired key (e.g. from a periodic job, which commits); returns how
    many."""
    cutoff = (now or utcnow()) - LIFETIME
    result = db.session.execute(
        delete(IdempotencyKey).where(IdempotencyKey.created_at < cutoff),
        execution_options=_UNSYNCHRONIZED,
    )
    db.session.flush()
    return int(getattr(result, "rowcount", 0) or 0)


def _expired(row: IdempotencyKey, now: datetime) -> bool:
    created = row.created_at
    if created.tzinfo is None:  # SQLite hands back naive UTC
        created = created.replace(tzinfo=now.tzinfo)
    return created < now - LIFETIME
