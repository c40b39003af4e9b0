"""One writer at a time when the database is SQLite: writes wait their turn, never fail.

SQLite lets one connection write at a time; the others wait in its busy handler, which
polls with sleeps growing to 100 ms and gives up after ``busy_timeout`` (5 s) with
"database is locked". So under load an unlucky write could wait seconds behind later
ones, and a write in one process failed while another process held the database longer.
Writes take turns on locks instead: the threads of a process on a lock in memory, and the
processes sharing a database file on an advisory lock of a file beside it (``flock``: the
kernel hands it to the next waiter as soon as it is free, and frees it when a process
dies). A write then waits as long as the writes before it take, and SQLite's own waiting
is left to programs that write without taking a turn. When such a program holds the
database past the busy timeout, the write is refused with 503 and ``Retry-After``
(:class:`Busy`): nothing was stored, and the client can simply send it again.

Work that takes long but writes nothing (checking an imported file) steps aside
(:func:`aside`), so that other writes go on meanwhile.

A write whose every change is checked against what it read (a game's writes: the game's
version) need not hold the turn while it reads, checks and answers: with
:func:`turn_at_first_write` it takes the turn just before its first statement that writes
and gives it up when that transaction ends. Its reads then go on side by side with other
requests, as on PostgreSQL (each read sees what was committed when it ran: SQLite reads
outside a transaction until a statement writes), and a write that waits for its turn
never meets a locked database. A change made meanwhile by someone else shows as a
conflict (the version moved); the caller then does the whole write again holding the turn
throughout, so that the answer is the one the writes would get one after the other.

PostgreSQL locks rows, not the database: there writes run side by side as before.
"""

from __future__ import annotations

import fcntl
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, event
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session
from werkzeug.exceptions import ServiceUnavailable

from scorekeeper.extensions import db
from scorekeeper.i18n import _

RETRY_AFTER = 2  # seconds: a write that met a locked database tries again after this
LOCK_FILES_OPEN = 4  # databases whose lock file a process keeps open (tests use many)


class Busy(ServiceUnavailable):
    """The database was held by another program past the busy timeout: nothing was
    stored; try again shortly (503 with ``Retry-After``)."""

    def __init__(self) -> None:
        super().__init__(
            _(
                "The server is busy storing another change. Nothing was stored: "
                "try again in a moment."
            ),
            retry_after=RETRY_AFTER,
        )


class _Turn:
    """A re-entrant lock for the threads of this process, joined (for a database file) by
    an exclusive ``flock`` shared with every other process using the same file."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._owner: int | None = None
        self._depth = 0
        self._held_file: int | None = None  # the file lock this turn holds, if any
        self._files: dict[tuple[int, str], int] = {}  # (pid, path) -> open descriptor
        self._files_lock = threading.Lock()

    def mine(self) -> bool:
        return self._owner == threading.get_ident()

    def acquire(self, blocking: bool = True) -> bool:
        if self.mine():
            self._depth += 1
            return True
        if not self._lock.acquire(blocking):
            return False
        try:
            fd = _lock_file(self)
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_EX if blocking else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # another process writes: only when not blocking
            self._lock.release()
            return False
        except BaseException:
            self._lock.release()
            raise
        self._held_file = fd
        self._owner, self._depth = threading.get_ident(), 1
        return True

    def release(self) -> None:
        self._depth -= 1
        if self._depth:
            return
        self._owner = None
        fd, self._held_file = self._held_file, None
        try:
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            self._lock.release()

    def release_all(self) -> int:
        """Give the turn up however often this thread took it; returns that count."""
        depth, self._depth = self._depth, 1
        self.release()
        return depth

    def take_again(self, depth: int) -> None:
        self.acquire()
        self._depth = depth

    def descriptor(self, path: str) -> int | None:
        """This process's open descriptor of the lock file ``path`` (a forked child opens
        its own: a descriptor inherited from the parent would share the parent's lock).
        A few are kept open, for the databases used last."""
        key = (os.getpid(), path)
        with self._files_lock:
            fd = self._files.pop(key, None)
            if fd is None:
                try:
                    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
                except OSError:
                    return None  # a read-only folder: the process's own lock still holds
            self._files[key] = fd  # the newest last
            for old_key, old_fd in list(self._files.items())[:-LOCK_FILES_OPEN]:
                if old_fd != self._held_file:  # never the lock being held
                    del self._files[old_key]
                    os.close(old_fd)
            return fd


_turn = _Turn()


def _lock_file(turn: _Turn) -> int | None:
    """The descriptor of the lock file beside the SQLite database, or ``None`` for a
    database in memory."""
    database = db.engine.url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return turn.descriptor(os.path.abspath(database) + "-turn")


def _sqlite() -> bool:
    return db.engine.dialect.name == "sqlite"


def _writing() -> bool:
    """Whether this thread's session has written something not yet committed."""
    session = db.session()
    if not session.in_transaction():
        return False
    driver = session.connection().connection.driver_connection
    return bool(getattr(driver, "in_transaction", False))


def _locked(exc: OperationalError) -> bool:
    return "database is locked" in str(exc.orig) or "database table is locked" in str(exc.orig)


@contextmanager
def turn() -> Iterator[None]:
    """Hold the write turn (SQLite), or nothing (any other database); a write that still
    meets a locked database raises :class:`Busy` (503) rather than a server error."""
    if not _sqlite():
        yield
        return
    _turn.acquire()
    try:
        with _busy_when_locked():
            yield
    finally:
        _turn.release()


@contextmanager
def _busy_when_locked() -> Iterator[None]:
    """A database still locked by a program that writes without a turn: :class:`Busy`."""
    try:
        yield
    except OperationalError as exc:
        if _locked(exc):
            db.session.rollback()
            raise Busy() from exc
        raise


class _FirstWrite(threading.local):
    """This thread's :func:`turn_at_first_write`: whether one is open, and whether it
    holds the turn (taken for a statement that writes, until the transaction ends)."""

    open = False
    held = False


_first_write = _FirstWrite()


@contextmanager
def turn_at_first_write() -> Iterator[bool]:
    """Reads without the write turn; the turn from the first statement that writes until
    its transaction ends (SQLite; any other database: nothing). Yields whether the reads
    go without the turn (False: another database, or already inside). Only for writes
    that check every change against what they read (see the module's docstring); a write
    that still meets a locked database raises :class:`Busy` (503), as in :func:`turn`."""
    if not _sqlite() or _first_write.open:
        yield False
        return
    _first_write.open = True
    try:
        with _busy_when_locked():
            yield True
    finally:
        _first_write.open = False
        _give_back()


def _give_back() -> None:
    if _first_write.held:
        _first_write.held = False
        _turn.release()


def watch(engine: Engine) -> None:
    """Let :func:`turn_at_first_write` see the statements run on ``engine`` (SQLite)."""
    event.listen(engine, "before_cursor_execute", _before_statement)


def _before_statement(*args: Any) -> None:
    statement: str = args[2]
    if _first_write.open and not _first_write.held and not _reads(statement):
        _turn.acquire()
        _first_write.held = True


def _reads(statement: str) -> bool:
    """Whether a statement only reads (anything else counts as a write: a statement that
    reads but is taken for one only waits for its turn)."""
    return statement.lstrip()[:6].upper() == "SELECT"


# The transaction that took the turn has ended: the next write may go.
event.listen(Session, "after_commit", lambda _session: _give_back())
event.listen(Session, "after_rollback", lambda _session: _give_back())


@contextmanager
def turn_if_free() -> Iterator[bool]:
    """The write turn if nobody holds it (True), else go on without (False): for writes
    that may as well be skipped (and to see whether another thread holds the turn)."""
    if not _sqlite():
        yield True
        return
    free = _turn.acquire(blocking=False)
    try:
        yield free
    finally:
        if free:
            _turn.release()


@contextmanager
def aside() -> Iterator[None]:
    """Give the write turn up while the block runs, if this thread holds it: for long work
    that writes nothing, so that the other writes go on meanwhile (SQLite). The block must
    not write. After a write not yet committed the turn is kept (SQLite holds the database
    for that write: the others could only wait in its busy handler)."""
    if not _sqlite() or not _turn.mine() or _writing():
        yield
        return
    depth = _turn.release_all()
    try:
        yield
    finally:
        _turn.take_again(depth)
