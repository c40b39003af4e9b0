"""Guesses are limited per client: after a few wrong ones, a pause.

Used for the server's passphrase (``passphrase.py``: the form and the API's header) and
circle passphrases. Each wrong guess is a row in ``failed_attempt`` (migration 0007), so
the limit holds across every app process and server sharing the database; a right guess
costs nothing. A client is its address as the app sees it (after the proxy fix), an IPv6
address by its /64 network (one household's block); the table keeps only a keyed hash.

Settings: ``RATE_LIMIT_FAILURES`` wrong guesses (default 10) within
``RATE_LIMIT_WINDOW`` seconds (default 600); the next guess is refused until the oldest of
them is older than the window.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import math
from datetime import UTC, datetime, timedelta

from flask import current_app, request
from sqlalchemy import delete, select

from scorekeeper import writers
from scorekeeper.extensions import db
from scorekeeper.i18n import _n
from scorekeeper.models import FailedAttempt

DEFAULT_FAILURES = 10
DEFAULT_WINDOW = 600


def now() -> datetime:
    """The time (a function, so tests can move the clock)."""
    return datetime.now(UTC)


def client_address() -> str:
    """Who is guessing: the client's address, an IPv6 address by its /64 network."""
    address = request.remote_addr or "unknown"
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def _settings() -> tuple[int, timedelta]:
    config = current_app.config
    failures = int(config.get("RATE_LIMIT_FAILURES") or DEFAULT_FAILURES)
    window = timedelta(seconds=float(config.get("RATE_LIMIT_WINDOW") or DEFAULT_WINDOW))
    return failures, window


def _key(kind: str, client: str) -> str:
    secret = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(secret, f"{kind}\n{client}".encode(), hashlib.sha256).hexdigest()


def _aware(value: datetime) -> datetime:
    # SQLite hands back naive datetimes; every stored time is UTC.
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def blocked(kind: str, client: str) -> int:
    """Seconds until ``client`` may guess at ``kind`` again; 0 when it may now.

    Ask before checking a guess, right or wrong: a blocked client learns nothing.
    """
    failures, window = _settings()
    moment = now()
    recent = db.session.scalars(
        select(FailedAttempt.failed_at)
        .where(
            FailedAttempt.kind == kind,
            FailedAttempt.client == _key(kind, client),
            FailedAttempt.failed_at > moment - window,
        )
        .order_by(FailedAttempt.failed_at.desc())
        .limit(failures)
    ).all()
    if len(recent) < failures:
        return 0
    free_at = _aware(recent[-1]) + window
    return max(1, math.ceil((free_at - moment).total_seconds()))


def record_failure(kind: str, client: str) -> None:
    """Count a wrong guess of ``client`` at ``kind`` (commits; sweeps expired ones)."""
    _failures, window = _settings()
    moment = now()
    with writers.turn():
        db.session.execute(delete(FailedAttempt).where(FailedAttempt.failed_at <= moment - window))
        db.session.add(FailedAttempt(kind=kind, client=_key(kind, client), failed_at=moment))
        db.session.commit()


def wait_message(wait: int) -> str:
    """Why a guess was refused (429) and when to try again, in the reader's words."""
    minutes = max(1, math.ceil(wait / 60))
    return _n(
        "Too many wrong guesses from your network. Try again in %(num)s minute.",
        "Too many wrong guesses from your network. Try again in %(num)s minutes.",
        minutes,
    )
