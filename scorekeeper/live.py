"""The live channel: every phone following a game hears of its new version at once.

Every change of a game bumps its version in the transaction that makes it (``Game``'s
version column). Once that transaction commits, the :class:`Hub` of the process that made
it hears of it at once; the other processes and servers hear of it through the database:

- PostgreSQL: a trigger on the game table (migration 0014) sends
  ``NOTIFY scorekeeper_games, '<id> <version>'`` for each new version, delivered when its
  transaction commits and dropped if it rolls back, however the version moved (a tap, or
  a rename that bumps many games in one statement); each process's hub LISTENs on one
  connection of its own.
- SQLite (one machine, a few processes): the hub asks ``PRAGMA data_version`` on a
  read-only connection of its own ten times a second (it changes when any other connection
  committed; no disk read) and, when it changed, reads the versions of the games followed
  in this process in one statement per 500.

So a follower costs the hub nothing while its game stands still, and nothing here waits
on a write: the hub only reads versions.

Followers wait in one of two ways. Under ``scorekeeper.serving.Worker`` (gunicorn, as
served) the answer is parked in the worker's event loop, without a thread, and the hub
calls the worker back (:meth:`Hub.add_listener`). Under any other server (``flask run``,
the tests' server) each follower holds a thread for up to ``LIVE_HOLD`` seconds, waiting
on the hub's one condition.

What goes out is the game's version and nothing else (``data: 12``): the page then asks
for what changed as it always did (``/games/<id>/live``, kept rendered per version), so
the visibility rules are those of that answer. Why server-sent events rather than long
polling: see README (Deploy).
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any

from flask import Flask, Response
from sqlalchemy import Connection, Engine, event
from sqlalchemy.orm import Mapper, Session, object_session

from scorekeeper import i18n
from scorekeeper.extensions import db
from scorekeeper.models import Game

log = logging.getLogger(__name__)

NOTIFY_CHANNEL = "scorekeeper_games"
HOLD = "scorekeeper.live.hold"  # environ: the serving worker parks the answer
SQLITE_TICK = 0.1  # seconds between two looks at SQLite's data_version
LISTEN_TICK = 1.0  # seconds a LISTEN waits before looking whether anyone still follows
RETRY_AFTER = 2.0  # seconds before the hub connects again after losing the database
KNOWN_MAX = 50_000  # games whose latest version the hub remembers
CHUNK = 500  # games per version lookup
DEFAULT_HOLD = 25.0  # seconds a thread-held stream lasts (under 30 s proxy timeouts)
PING_EVERY = 20.0  # seconds between two signs of life on a quiet stream
_PENDING = "live.pending"  # session.info: (hub, game, version) committed with it

Listener = Callable[[str, int], None]


class Hub:
    """One process's knowledge of the games followed in it and their latest versions."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._latest: OrderedDict[str, int] = OrderedDict()
        self._followed: dict[str, int] = {}  # game → how many follow it here
        self._fresh: set[str] = set()  # followed since the last look (SQLite)
        self._listeners: list[Listener] = []
        self._thread: threading.Thread | None = None
        self._released = 0  # bumped by release(): thread-held streams end

    # -- what followers use ------------------------------------------------------------------

    def add_listener(self, listener: Listener) -> None:
        """Call ``listener(game, version)`` for each new version of a followed game."""
        with self._lock:
            self._listeners.append(listener)

    def follow(self, game: str, version: int) -> int:
        """Count one more follower of ``game``, whose page shows ``version``; the latest
        version known here (higher when a change came in meanwhile)."""
        with self._lock:
            count = self._followed.get(game, 0)
            self._followed[game] = count + 1
            if not count:
                self._fresh.add(game)
            if self._thread is None:
                self._thread = threading.Thread(target=self._watch, name="live", daemon=True)
                self._thread.start()
            return max(version, self._latest.get(game, version))

    def unfollow(self, game: str) -> None:
        """One follower of ``game`` fewer."""
        with self._lock:
            count = self._followed.get(game, 0) - 1
            if count > 0:
                self._followed[game] = count
            else:
                self._followed.pop(game, None)
                self._fresh.discard(game)

    def followers(self) -> int:
        """How many follow a game here (each one counted)."""
        with self._lock:
            return sum(self._followed.values())

    def wait(self, game: str, version: int, timeout: float) -> int | None:
        """The latest version of ``game`` once it is past ``version``, or after
        ``timeout`` seconds whatever it is; ``None`` once :meth:`release` was called.
        Holds the calling thread."""
        deadline = time.monotonic() + timeout
        with self._changed:
            released = self._released
            while self._latest.get(game, version) <= version:
                left = deadline - time.monotonic()
                if self._released != released:
                    return None
                if left <= 0:
                    break
                self._changed.wait(left)
            return max(version, self._latest.get(game, version))

    def release(self) -> None:
        """End every thread-held wait now (a server shutting down)."""
        with self._changed:
            self._released += 1
            self._changed.notify_all()

    # -- what writers and watchers use ------------------------------------------------------

    def publish(self, game: str, version: int) -> None:
        """``game`` is at ``version`` now: wake those who follow it."""
        with self._changed:
            if version <= self._latest.get(game, 0):
                return
            self._latest[game] = version
            self._latest.move_to_end(game)
            if len(self._latest) > KNOWN_MAX:
                self._latest.popitem(last=False)
            if game not in self._followed:
                return
            self._changed.notify_all()
            listeners = list(self._listeners)
        for listener in listeners:
            listener(game, version)

    def _watch(self) -> None:
        """The watcher thread: until nobody follows, listen (PostgreSQL) or look (SQLite)."""
        while True:
            try:
                if self._engine.dialect.name == "postgresql":
                    self._listen()
                else:
                    self._look_at_sqlite()
            except Exception:  # the database away: followers keep waiting, we come back
                log.exception("live: lost the database; trying again")
                time.sleep(RETRY_AFTER)
            with self._lock:
                if not self._followed:
                    self._thread = None
                    return

    def _anyone(self) -> bool:
        with self._lock:
            return bool(self._followed)

    def _take(self, everyone: bool) -> list[str]:
        with self._lock:
            games = list(self._followed) if everyone else list(self._fresh)
            self._fresh.clear()
            return games

    def _look_at_sqlite(self) -> None:
        path = self._engine.url.database
        if not path or path == ":memory:":
            return  # nothing to watch but this process
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as con:
            seen = None
            while self._anyone():
                now = con.execute("PRAGMA data_version").fetchone()[0]
                games = self._take(everyone=now != seen)
                seen = now
                self._read_versions(con, games, "?")
                time.sleep(SQLITE_TICK)

    def _listen(self) -> None:
        import psycopg  # PostgreSQL only

        url = self._engine.url.set(drivername="postgresql")
        with psycopg.connect(url.render_as_string(hide_password=False), autocommit=True) as con:
            con.execute(f"LISTEN {NOTIFY_CHANNEL}")
            self._read_versions(con, self._take(everyone=True), "%s")
            while self._anyone():
                for note in con.notifies(timeout=LISTEN_TICK):
                    game, _, version = note.payload.partition(" ")
                    if version.isdigit():
                        self.publish(game, int(version))

    def _read_versions(self, con: Any, games: list[str], mark: str) -> None:
        # Straight through the driver, on the watcher's own connection: never the app's
        # pool, and a read that waits on no writer (WAL, MVCC).
        for start in range(0, len(games), CHUNK):
            chunk = games[start : start + CHUNK]
            marks = ", ".join([mark] * len(chunk))
            rows = con.execute(
                f"SELECT public_id, version FROM game WHERE public_id IN ({marks})", chunk
            ).fetchall()
            for game, version in rows:
                self.publish(game, version)


_hubs: weakref.WeakKeyDictionary[Engine, Hub] = weakref.WeakKeyDictionary()


def init_app(app: Flask) -> None:
    """Give the app's database its hub (``app.extensions["live"]``)."""
    with app.app_context():
        engine = db.engine
    hub = _hubs.get(engine)
    if hub is None:
        hub = _hubs[engine] = Hub(engine)
    app.extensions["live"] = hub


def hub_of(app: Flask) -> Hub:
    """The app's hub."""
    hub: Hub = app.extensions["live"]
    return hub


# -- writers: the version a transaction commits goes out once it is committed ----------------


@event.listens_for(Game, "after_update")
def _game_changed(_mapper: Mapper[Game], connection: Connection, game: Game) -> None:
    # This process's followers hear of it as soon as it is committed, without waiting for
    # NOTIFY or data_version; a statement that bumps many games at once (a rename) leaves
    # them to those.
    hub = _hubs.get(connection.engine)
    session = object_session(game)
    if hub is not None and session is not None:
        session.info.setdefault(_PENDING, []).append((hub, game.public_id, game.version))


@event.listens_for(Session, "after_commit")
def _committed(session: Session) -> None:
    for hub, game, version in session.info.pop(_PENDING, ()):
        hub.publish(game, version)


@event.listens_for(Session, "after_soft_rollback")
def _rolled_back(session: Session, _previous: object) -> None:
    # Nothing of it was committed. (A savepoint's rollback drops the whole list: what the
    # outer transaction commits still reaches the hubs, through NOTIFY or data_version.)
    session.info.pop(_PENDING, None)


# -- the answer a follower gets ---------------------------------------------------------------


def _message(version: int) -> bytes:
    return f"data: {version}\n\n".encode()


def stream(app: Flask, environ: dict[str, Any], game: str, version: int) -> Response:
    """The live channel's answer: ``game``'s version now, then again at each change and
    every ``PING_EVERY`` seconds (proxies and the page then know it is alive)."""
    hub = hub_of(app)
    hold = environ.get(HOLD)
    body: Iterator[bytes] | list[bytes]
    if hold is not None:
        if not hold(game, version):
            response = Response(
                i18n._("The live channel is full; asking now and then.") + "\n", 503
            )
            response.headers["Retry-After"] = "10"
            response.headers["Cache-Control"] = "no-store"
            return response
        body = iter([_message(version)])  # the worker sends the rest from its loop
    else:
        body = _held(hub, game, version, float(app.config.get("LIVE_HOLD", DEFAULT_HOLD)))
    response = Response(body, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    # nginx passes each message on at once instead of filling its buffer first.
    response.headers["X-Accel-Buffering"] = "no"
    return response


def _held(hub: Hub, game: str, version: int, hold: float) -> Iterator[bytes]:
    """A thread's stream: each new version, and a sign of life every ``PING_EVERY``
    seconds, until ``hold`` seconds have passed (the page then asks again)."""
    yield _message(version)
    latest: int | None = hub.follow(game, version)
    try:
        deadline = time.monotonic() + hold
        while latest is not None:
            if latest > version:
                version = latest
                yield _message(version)
            left = deadline - time.monotonic()
            if left <= 0:
                return
            latest = hub.wait(game, version, min(left, PING_EVERY))
            if latest == version and left > PING_EVERY:
                yield _message(version)
    finally:
        hub.unfollow(game)
