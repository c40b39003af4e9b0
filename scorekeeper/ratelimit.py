"""Limits per client: wrong guesses, and what a client makes.

**Guesses**: after a few wrong ones, a pause.

Used for the server's passphrase (``passphrase.py``: the form and the API's header) and
circle passphrases. Each guess is a row in ``failed_attempt`` (migration 0007), so the
limit holds across every app process and server sharing the database; a right guess
costs nothing (its row goes again). A client is its address as the app sees it (after the
proxy fix), an IPv6 address by its /64 network (one household's block); the table keeps
only a keyed hash.

A guess is counted before it is checked: its row is committed first, then the client's
rows are counted, and the guess is checked only if they are within the limit. Of guesses
sent at once, the last to count sees every other one that was let through (each was
committed before it counted), so however many arrive together, at most the limit are
checked: checking first and recording a wrong guess after let 13 to 24 of 80 through.

Settings: ``RATE_LIMIT_FAILURES`` wrong guesses (default 10) within
``RATE_LIMIT_WINDOW`` seconds (default 600); the next guess is refused until the oldest of
them is older than the window.

**Quotas** (:func:`spend`): circles, games (the setup forms, play again, digital tables,
the API) and history imports a client makes, each a row in ``quota_use`` (migration 0013)
written in the same transaction as what was made, so a refused or failed request counts
nothing. Settings: ``CIRCLE_QUOTA`` (default 5), ``GAME_QUOTA`` (60) and ``IMPORT_QUOTA``
(5) within ``QUOTA_WINDOW`` seconds (default 3600); past that, 429 with the time to wait.

Both are counted in the database, so they hold across every app process and server
sharing it: no other store (Flask-Limiter's backends are memory, which each process keeps
apart, or a cache server this app doesn't otherwise need). A client is its address as the
app sees it (after the proxy fix), an IPv6 address by its /64 network (one household's
block); the tables keep only a keyed hash.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from flask import Response, current_app, request
from sqlalchemy import ColumnElement, and_, delete, select
from sqlalchemy.orm import InstrumentedAttribute

from scorekeeper import writers
from scorekeeper.extensions import db
from scorekeeper.i18n import _n
from scorekeeper.models import FailedAttempt, QuotaUse
from scorekeeper.services.errors import TooMany

DEFAULT_FAILURES = 10
DEFAULT_WINDOW = 600
# What a client may make within QUOTA_WINDOW: (setting, default). A group makes one
# circle, 10 to 20 games an evening and restores a backup now and then.
QUOTAS = {
    "circle": ("CIRCLE_QUOTA", 5),
    "game": ("GAME_QUOTA", 60),
    "import": ("IMPORT_QUOTA", 5),
}
DEFAULT_QUOTA_WINDOW = 3600


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


@dataclass(frozen=True, slots=True)
class Guess:
    """A guess counted before it is checked: ``wait`` seconds until the client may guess
    again when it was refused (0: check it), and its row while it counts."""

    wait: int
    row: int | None = None


def take_guess(kind: str, client: str) -> Guess:
    """Count a guess of ``client`` at ``kind`` before it is checked (commits; sweeps
    expired ones). Refused (``wait`` > 0, not counted) when the client's guesses would go
    over the limit: then check nothing, a blocked client learns nothing. A guess found
    right is given back with :func:`was_right`."""
    failures, window = _settings()
    moment = now()
    key = _key(kind, client)
    _end_reads()
    with writers.turn():
        db.session.execute(delete(FailedAttempt).where(FailedAttempt.failed_at <= moment - window))
        attempt = FailedAttempt(kind=kind, client=key, failed_at=moment)
        db.session.add(attempt)
        db.session.flush()
        row = attempt.id
        db.session.commit()
    # Counted after the commit, so this count sees every guess committed before it.
    others = db.session.scalars(
        select(FailedAttempt.failed_at)
        .where(
            FailedAttempt.kind == kind,
            FailedAttempt.client == key,
            FailedAttempt.failed_at > moment - window,
            FailedAttempt.id != row,
        )
        .order_by(FailedAttempt.failed_at.desc())
        .limit(failures)
    ).all()
    if len(others) < failures:
        return Guess(0, row)
    _forget(row)
    free_at = _aware(others[-1]) + window
    return Guess(max(1, math.ceil((free_at - moment).total_seconds())))


def was_right(guess: Guess) -> None:
    """The guess was right: it costs nothing (commits)."""
    if guess.row is not None:
        _forget(guess.row)


def _forget(row: int) -> None:
    _end_reads()
    with writers.turn():
        db.session.execute(delete(FailedAttempt).where(FailedAttempt.id == row))
        db.session.commit()


def _end_reads() -> None:
    # Give the connection back to the pool before waiting for the write turn (SQLite):
    # the thread holding the turn may need one, and others waiting could hold them all.
    # Nothing is pending here: the caller has only read (the circle of a link).
    db.session.commit()


def refused(response: Response, wait: int) -> Response:
    """``response`` as the answer to a refused guess: 429, saying when to try again."""
    response.status_code = 429
    response.headers["Retry-After"] = str(wait)
    return response


def wait_message(wait: int) -> str:
    """Why a guess was refused (429) and when to try again, in the reader's words."""
    minutes = max(1, math.ceil(wait / 60))
    return _n(
        "Too many wrong guesses from your network. Try again in %(num)s minute.",
        "Too many wrong guesses from your network. Try again in %(num)s minutes.",
        minutes,
    )


def _wait(
    stamp: InstrumentedAttribute[datetime],
    match: ColumnElement[bool],
    most: int,
    window: timedelta,
    moment: datetime,
) -> int:
    """Seconds until the oldest of the ``most`` latest rows that ``match`` within
    ``window`` (by their ``stamp``) leaves it; 0 while there are fewer."""
    recent = db.session.scalars(
        select(stamp).where(match, stamp > moment - window).order_by(stamp.desc()).limit(most)
    ).all()
    if len(recent) < most:
        return 0
    free_at = _aware(recent[-1]) + window
    return max(1, math.ceil((free_at - moment).total_seconds()))


def _quota(kind: str) -> tuple[int, timedelta]:
    setting, default = QUOTAS[kind]
    config = current_app.config
    window = config.get("QUOTA_WINDOW") or DEFAULT_QUOTA_WINDOW
    return int(config.get(setting) or default), timedelta(seconds=float(window))


def check(kind: str) -> None:
    """Refuse this client one more ``kind`` ("circle", "game", "import") once it has made
    its quota within the window. Reads only (SQLite: takes no write lock).

    :raises TooMany: with the time to wait.
    """
    quota, window = _quota(kind)
    mine = and_(QuotaUse.kind == kind, QuotaUse.client == _quota_key(kind))
    if wait := _wait(QuotaUse.used_at, mine, quota, window, now()):
        raise TooMany(_quota_message(kind, wait), f"too_many_{kind}s", wait)


def count(kind: str) -> None:
    """Count one ``kind`` made by this client, in the request's transaction: kept only if
    what was made is (sweeps the expired ones)."""
    _quota_size, window = _quota(kind)
    moment = now()
    db.session.execute(
        delete(QuotaUse).where(QuotaUse.kind == kind, QuotaUse.used_at <= moment - window)
    )
    db.session.add(QuotaUse(kind=kind, client=_quota_key(kind), used_at=moment))


def spend(kind: str) -> None:
    """:func:`check`, then :func:`count`: for what costs little to make.

    :raises TooMany: the client made its quota within the window (nothing counted).
    """
    check(kind)
    count(kind)


def _quota_key(kind: str) -> str:
    return _key(f"quota:{kind}", client_address())


def _quota_message(kind: str, wait: int) -> str:
    minutes = max(1, math.ceil(wait / 60))
    if kind == "circle":
        return _n(
            "Your network has made many circles in a short time. Try again in %(num)s minute.",
            "Your network has made many circles in a short time. Try again in %(num)s minutes.",
            minutes,
        )
    if kind == "import":
        return _n(
            "Your network has imported many files in a short time. Try again in %(num)s minute.",
            "Your network has imported many files in a short time. Try again in %(num)s minutes.",
            minutes,
        )
    return _n(
        "Your network has started many games in a short time. Try again in %(num)s minute.",
        "Your network has started many games in a short time. Try again in %(num)s minutes.",
        minutes,
    )
