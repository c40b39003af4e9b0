"""gunicorn's threaded worker, reading each request whole before a thread takes it.

gunicorn's ``gthread`` worker hands a connection to one of its threads as soon as the
first bytes arrive; the thread then reads the rest of the request with blocking reads,
however slowly it comes. And a connection closed after its answer is lingered on (up to
2 s, so that the client's last bytes don't turn the close into a reset) by the worker's
one event loop, which serves nothing else meanwhile. Without a buffering proxy in front
(``bin/serve`` at the table, or a server reached directly), 200 connections that each
sent half a request held every thread and connection slot for as long as they stayed
open, and 20 that didn't close after a ``Connection: close`` answer stalled the loop for
16 s: nothing, not even ``/healthz``, was served meanwhile.

:class:`Worker` does in its event loop what a buffering proxy would, beside every other
connection and without a thread:

- It reads a request's head, and a body of declared length up to the app's
  ``MAX_CONTENT_LENGTH``, and hands the request to a thread once it is all there. A head
  not whole within ``HEAD_TIMEOUT`` seconds, or a body within ``BODY_TIMEOUT``, closes
  the connection. A head over ``HEAD_MAX`` bytes is answered 431, a chunked body 411
  (browsers and the API's clients send a length), a body past the worker's
  ``BODY_BUDGET`` of buffered bytes 503.
- A larger declared body goes to a thread at once: the app refuses it (413) without
  reading it, and the connection is closed after the answer instead of drained.
- A connection still sending its request after ``SLOW_AFTER`` seconds no longer counts
  against ``worker_connections`` (which bounds the connections a worker holds, so that a
  burst of new ones, which send their requests at once, still spreads over the workers);
  at most ``READING_MAX`` of them per worker, the one waiting longest dropped for a
  newcomer, so slow ones can't keep anyone out. Nor does one kept alive, idle between
  two requests (gthread bounds those by itself).
- A connection closed after its answer lingers among the loop's sockets (at most
  ``LINGER`` seconds), not in the loop's own thread.

- A follower's live channel (``scorekeeper/live.py``) is parked among the loop's sockets
  once the app has answered its first message: no thread waits for the game to change.
  The app's hub calls the worker back with each new version, and the loop writes it
  (``data: 12``, a few bytes) to every parked follower of that game, and the version
  again every ``PING_EVERY`` seconds to all of them (proxies close a quiet connection,
  and the page needs a sign of life). Parked followers don't count against
  ``worker_connections``; past ``LIVE_MAX`` the app answers 503 and the page asks now
  and then instead. A stopping worker closes them (the page connects again elsewhere).

Only plain HTTP/1.x is buffered, as the app is served; with TLS, the PROXY protocol or
HTTP/2 configured in gunicorn, requests are read as gthread reads them. This builds on
gthread's internals, so gunicorn is pinned to one major version (pyproject.toml);
``tests/robustness/test_slow_clients.py`` serves through the real thing.
"""

from __future__ import annotations

import contextlib
import selectors
import socket
import threading
import time
from dataclasses import dataclass
from functools import partial
from typing import Any

from gunicorn.workers.gthread import ThreadWorker  # type: ignore[import-untyped]

from scorekeeper.live import HOLD

SLOW_AFTER = 0.1
HEAD_TIMEOUT = 10.0
BODY_TIMEOUT = 60.0
HEAD_MAX = 64 * 1024
READING_MAX = 512
BODY_BUDGET = 64 * 1024 * 1024
DEFAULT_BODY_MAX = 2 * 1024 * 1024
LINGER = 2.0
LINGER_MAX = 256
LINGER_DRAIN = 64 * 1024
RECV_SIZE = 256 * 1024
SWEEP_EVERY = 0.5
LIVE_MAX = 10_000  # followers parked per worker (each one file descriptor)
PING_EVERY = 20.0  # README's nginx example closes an upstream quiet for 30 s
_HELD = object()  # handle()'s result: the connection stays open as a live channel


@dataclass(eq=False)
class _Follower:
    """A parked live channel: the game it follows and the version its page has heard."""

    conn: Any
    game: str
    version: int
    chunked: bool


@dataclass(eq=False)
class _Reading:
    """A request on its way in: the bytes so far, and once its head is in, its length."""

    data: bytearray
    started: float
    deadline: float
    scanned: int = 0  # the head's end is not before this
    end: int | None = None  # head and body
    reserved: int = 0  # of the worker's BODY_BUDGET
    watched: bool = False  # registered with the poller


@dataclass(frozen=True)
class _Framing:
    """What a request's head says about its body."""

    length: int | None = None
    chunked: bool = False
    odd: bool = False  # gunicorn refuses the head as it is, reading no body
    expects_continue: bool = False


def _refuse_hold(_game: str, _version: int) -> bool:
    return False


class _FirstMessage:
    """A live channel's answer from the app: once it is written, gunicorn's response
    writes no last chunk, and the worker knows how to frame the messages that follow."""

    def __init__(self, answer: Any, conn: Any, response: Any) -> None:
        self.answer, self.conn, self.response = answer, conn, response

    def __iter__(self) -> Any:
        yield from self.answer
        self.conn.held_chunked = self.response.chunked
        self.response.chunked = False

    def close(self) -> None:
        if hasattr(self.answer, "close"):
            self.answer.close()


def framing(head: bytes) -> _Framing:
    """The body a request head announces (``head`` without its final blank line)."""
    lines = head.split(b"\r\n")
    length: int | None = None
    chunked = expects = False
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        name, value = name.lower(), value.strip()
        if name == b"content-length":
            if length is not None or not value.isdigit() or len(value) > 18:
                return _Framing(odd=True)
            length = int(value)
        elif name == b"transfer-encoding":
            chunked = True
        elif name == b"expect":
            expects = value.lower() == b"100-continue" and lines[0].endswith(b"HTTP/1.1")
    if chunked and length is not None:
        return _Framing(odd=True)
    return _Framing(length=length, chunked=chunked, expects_continue=expects)


def _bare_line_feed(data: bytearray, start: int, stop: int) -> bool:
    at = data.find(b"\n", start, stop)
    while at >= 0:
        if at == 0 or data[at - 1] != 0x0D:
            return True
        at = data.find(b"\n", at + 1, stop)
    return False


def _answer(status: str, text: str, extra: str = "") -> bytes:
    body = text.encode() + b"\n"
    return (
        f"HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\n{extra}Connection: close\r\n\r\n"
    ).encode() + body


def _lean_headers(response: Any) -> list[str]:
    """gunicorn's own head of an answer without what no client needs: ``Server`` (the
    software's name, for anyone probing) and, to an HTTP/1.1 client, ``Connection:
    keep-alive``, which HTTP/1.1 means without it (RFC 9112, 9.3). 42 bytes off every
    answer: a phone's first load of a game page is lighter by a sixth of a kilobyte."""
    lines: list[str] = type(response).default_headers(response)
    implied = "Connection: keep-alive\r\n" if response.req.version >= (1, 1) else None
    return [line for line in lines if not line.startswith("Server:") and line != implied]


class Worker(ThreadWorker):
    """gthread, with requests read in the event loop (see the module's docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._reading: dict[Any, _Reading] = {}
        self._lingering: dict[socket.socket, list[float]] = {}
        self._reserved = 0
        self._next_sweep = 0.0
        self._body_max: int | None = None
        self._app: Any = None
        self._local = threading.local()  # the connection a thread is answering
        self._followers: dict[socket.socket, _Follower] = {}
        self._games: dict[str, set[_Follower]] = {}
        self._hub: Any = None
        self._next_ping = 0.0
        cfg = self.cfg
        self._buffering = (
            not cfg.is_ssl
            and cfg.proxy_protocol == "off"
            and "h2" not in cfg.http_protocols
            and getattr(cfg, "protocol", "http") == "http"
        )

    # gthread accepts while its connections number fewer than this: those still sending
    # their request after SLOW_AFTER don't count (they hold no thread; READING_MAX bounds
    # them), nor those kept alive and idle between two requests (gthread keeps at most
    # ``worker_connections - threads`` of them; counted, they shut the door on new
    # connections for as long as they wait, up to the keep-alive timeout: a game night's
    # followers, each fetching what changed and then keeping its connection, held every
    # tap that came on a new connection for up to 5 s). The newest come last: only the
    # young ones at the end are looked at.
    @property
    def worker_connections(self) -> int:
        young = 0
        since = time.monotonic() - SLOW_AFTER
        for reading in reversed(self._reading.values()):
            if reading.started < since:
                break
            young += 1
        idle = len(self._reading) + len(self._followers) + len(self.keepalived_conns)
        return int(self._busy_max + idle - young)

    @worker_connections.setter
    def worker_connections(self, value: int) -> None:
        self._busy_max = value

    def load_wsgi(self) -> None:
        """The app, with a way to park its answer in this worker's loop (``HOLD``)."""
        super().load_wsgi()
        self._app = self.__dict__["wsgi"]
        self.wsgi = self._serve

    def _serve(self, environ: dict[str, Any], start_response: Any) -> Any:
        # Only a plain HTTP/1.x request (handle_request) may be parked. Others (TLS or
        # HTTP/2 served by gunicorn itself) are refused a channel rather than given a
        # thread each: the app answers 503 and the page asks now and then.
        conn, self._local.conn = getattr(self._local, "conn", None), None
        response = start_response.__self__
        response.default_headers = partial(_lean_headers, response)
        if conn is None:
            environ[HOLD] = _refuse_hold
            return self._app(environ, start_response)
        environ[HOLD] = partial(self._hold, conn)
        answer = self._app(environ, start_response)
        if "held" not in conn.__dict__:
            return answer
        # gunicorn's response (start_response is its bound method) would end the stream
        # with the last chunk: after the app's first message, the loop writes the rest.
        return _FirstMessage(answer, conn, response)

    def _hold(self, conn: Any, game: str, version: int) -> bool:
        """In a thread: keep this answer open for ``game``'s next versions (False: full)."""
        if len(self._followers) >= LIVE_MAX or not self.alive:
            return False
        conn.held = (game, version)
        return True

    def body_max(self) -> int:
        """The largest body the app takes (its MAX_CONTENT_LENGTH): buffered whole."""
        if self._body_max is None:
            config = getattr(self._app or self.wsgi, "config", None) or {}
            self._body_max = int(config.get("MAX_CONTENT_LENGTH") or DEFAULT_BODY_MAX)
        return self._body_max

    def enqueue_req(self, conn: Any) -> None:
        """Every request comes here (new, kept alive, pipelined): read it whole first."""
        if not self._buffering:
            super().enqueue_req(conn)
            return
        conn.close = partial(self._close, conn)
        # What the parser read ahead of the last request is the start of this one.
        ahead = conn.parser.unreader.take_buffered() if conn.parser is not None else b""
        if len(self._reading) >= READING_MAX:
            self._drop(next(iter(self._reading)))
        now = time.monotonic()
        self._reading[conn] = _Reading(bytearray(ahead), now, now + HEAD_TIMEOUT)
        conn.sock.setblocking(False)
        self._receive(conn)

    def handle(self, conn: Any) -> Any:
        """In a thread: the request read in the loop goes to gunicorn's parser first."""
        data = conn.__dict__.pop("request_bytes", None)
        if data is not None:
            conn.sock.setblocking(True)
            conn.init()
            conn.parser.unreader.unread(data)
        result = super().handle(conn)
        if "held_chunked" in conn.__dict__:
            return _HELD  # its first message is out: the loop keeps it open
        conn.__dict__.pop("held", None)
        return result

    def handle_request(self, req: Any, conn: Any) -> Any:
        """In a thread: a body too large to buffer is left unread, the connection closed."""
        if conn.__dict__.pop("body_unread", False):
            req.must_close = True
        if self._buffering:
            self._local.conn = conn
        return super().handle_request(req, conn)

    def finish_request(self, conn: Any, fs: Any) -> None:
        """In the loop: a live channel's connection is parked, any other as gthread does."""
        if fs.cancelled() or fs.exception() is not None or fs.result() is not _HELD:
            super().finish_request(conn, fs)
        elif self.alive:
            self._park(conn)
        else:
            self.nr_conns -= 1
            conn.close()

    def murder_pending(self) -> None:
        """gthread's sweep of idle connections, and ours of slow and lingering ones."""
        super().murder_pending()
        now = time.monotonic()
        if now < self._next_sweep:
            return
        self._next_sweep = now + SWEEP_EVERY
        for conn, reading in list(self._reading.items()):
            if reading.deadline <= now:
                self._drop(conn)
        for sock, (deadline, _drained) in list(self._lingering.items()):
            if deadline <= now:
                self._unlinger(sock)
        if not self.alive:
            for follower in list(self._followers.values()):
                self._unpark(follower)
        elif now >= self._next_ping:
            self._next_ping = now + PING_EVERY
            for follower in list(self._followers.values()):
                self._send(follower)

    # Live channels parked in the loop.

    def _park(self, conn: Any) -> None:
        game, version = conn.__dict__.pop("held")
        follower = _Follower(conn, game, version, conn.__dict__.pop("held_chunked"))
        if self._hub is None:
            self._hub = self._app.extensions["live"]
            self._hub.add_listener(self._heard)
        sock = conn.sock
        sock.setblocking(False)
        self._followers[sock] = follower
        self._games.setdefault(game, set()).add(follower)
        self.poller.register(sock, selectors.EVENT_READ, partial(self._on_follower, follower))
        latest = self._hub.follow(game, version)
        if latest > version:  # changed between the app's answer and now
            follower.version = latest
            self._send(follower)

    def _heard(self, game: str, version: int) -> None:
        # Called by the hub, in any thread: the loop does the writing.
        self.method_queue.defer(self._changed, game, version)

    def _changed(self, game: str, version: int) -> None:
        for follower in list(self._games.get(game, ())):
            if version > follower.version:
                follower.version = version
                self._send(follower)

    def _send(self, follower: _Follower) -> None:
        message = f"data: {follower.version}\n\n".encode()
        if follower.chunked:
            message = b"%X\r\n%s\r\n" % (len(message), message)
        try:
            sent = follower.conn.sock.send(message)
        except OSError:
            sent = 0
        if sent < len(message):  # gone, or not reading: the page connects again
            self._unpark(follower)

    def _on_follower(self, follower: _Follower, sock: socket.socket) -> None:
        # A follower sends nothing after its request: anything readable is its close.
        if sock in self._followers:
            self._unpark(follower)

    def _unpark(self, follower: _Follower) -> None:
        sock = follower.conn.sock
        if self._followers.pop(sock, None) is None:
            return
        games = self._games[follower.game]
        games.discard(follower)
        if not games:
            del self._games[follower.game]
        self._hub.unfollow(follower.game)
        with contextlib.suppress(KeyError, ValueError, OSError):
            self.poller.unregister(sock)
        self.nr_conns -= 1
        with contextlib.suppress(OSError):
            sock.close()

    # Reading a request in the loop.

    def _on_readable(self, conn: Any, _sock: Any) -> None:
        # Events come in batches: one handled before may have dropped this connection.
        if conn in self._reading:
            self._receive(conn)

    def _receive(self, conn: Any) -> None:
        reading = self._reading[conn]
        while not self._settle(conn, reading):
            try:
                chunk = conn.sock.recv(RECV_SIZE)
            except (BlockingIOError, InterruptedError):
                if not reading.watched:
                    self.poller.register(
                        conn.sock, selectors.EVENT_READ, partial(self._on_readable, conn)
                    )
                    reading.watched = True
                return
            except OSError:
                chunk = b""
            if not chunk:  # the client went away
                self._drop(conn)
                return
            reading.data += chunk

    def _settle(self, conn: Any, reading: _Reading) -> bool:
        """Hand the request over or refuse it once it can be; False: wait for more."""
        data = reading.data
        if reading.end is None:
            found = data.find(b"\r\n\r\n", max(0, reading.scanned - 3))
            stop = len(data) if found < 0 else found + 2
            if _bare_line_feed(data, max(0, reading.scanned - 1), stop):
                return self._hand_over(conn, reading)  # gunicorn refuses it as it is
            if found < 0:
                if len(data) > HEAD_MAX:
                    return self._refuse(conn, "431 Request Header Fields Too Large")
                reading.scanned = len(data)
                return False
            body = framing(bytes(data[:found]))
            if body.odd:
                return self._hand_over(conn, reading)
            if body.chunked:
                return self._refuse(conn, "411 Length Required")
            length = body.length or 0
            if length > self.body_max():
                conn.body_unread = True
                return self._hand_over(conn, reading)
            if length and len(data) < found + 4 + length:
                if self._reserved + length > BODY_BUDGET:
                    return self._refuse(conn, "503 Service Unavailable", "Retry-After: 10\r\n")
                self._reserved += length
                reading.reserved = length
                reading.deadline = time.monotonic() + BODY_TIMEOUT
                if body.expects_continue:
                    with contextlib.suppress(OSError):
                        conn.sock.send(b"HTTP/1.1 100 Continue\r\n\r\n")
            reading.end = found + 4 + length
        if len(data) < reading.end:
            return False
        return self._hand_over(conn, reading)

    def _forget(self, conn: Any) -> None:
        reading = self._reading.pop(conn)
        self._reserved -= reading.reserved
        if reading.watched:
            with contextlib.suppress(KeyError, ValueError, OSError):
                self.poller.unregister(conn.sock)

    def _hand_over(self, conn: Any, reading: _Reading) -> bool:
        self._forget(conn)
        conn.request_bytes = bytes(reading.data)
        conn.data_ready = True
        super().enqueue_req(conn)
        return True

    def _refuse(self, conn: Any, status: str, extra: str = "") -> bool:
        self._forget(conn)
        self.nr_conns -= 1
        with contextlib.suppress(OSError):
            conn.sock.send(_answer(status, status.split(" ", 1)[1], extra))
        self._close(conn, graceful=True)
        return True

    def _drop(self, conn: Any) -> None:
        self._forget(conn)
        self.nr_conns -= 1
        self._close(conn)

    # Closing without holding the loop.

    def _close(self, conn: Any, graceful: bool = False) -> None:
        sock = conn.sock
        if graceful:
            try:
                sock.shutdown(socket.SHUT_WR)
                sock.setblocking(False)
                self.poller.register(sock, selectors.EVENT_READ, self._on_lingering)
            except (OSError, KeyError, ValueError):
                pass
            else:
                if len(self._lingering) >= LINGER_MAX:
                    self._unlinger(next(iter(self._lingering)))
                self._lingering[sock] = [time.monotonic() + LINGER, 0.0]
                return
        with contextlib.suppress(OSError):
            sock.close()

    def _on_lingering(self, sock: socket.socket) -> None:
        if sock not in self._lingering:
            return
        try:
            data = sock.recv(RECV_SIZE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        state = self._lingering[sock]
        state[1] += len(data)
        if not data or state[1] > LINGER_DRAIN:
            self._unlinger(sock)

    def _unlinger(self, sock: socket.socket) -> None:
        del self._lingering[sock]
        with contextlib.suppress(KeyError, ValueError, OSError):
            self.poller.unregister(sock)
        with contextlib.suppress(OSError):
            sock.close()
