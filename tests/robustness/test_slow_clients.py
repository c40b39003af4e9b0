"""Slow clients hold no worker: the server as bin/serve starts it, reached directly.

gunicorn with the project's gunicorn.conf.py (and bin/serve's settings: 100 connections
a worker, the access log on), a temporary SQLite database. Hundreds of connections that
send half a request and wait, or that never close after their answer, must not keep
anyone else out: /healthz and real requests are answered at once meanwhile (each waited
for with a bounded timeout, no sleeping). And reading requests whole in the worker's
loop (scorekeeper/serving.py) still serves what a client sends in pieces, pipelined, with
``Expect: 100-continue``, or too large.
"""

from __future__ import annotations

import json
import shutil
import socket
import time
from collections import deque
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from scorekeeper.serving import Worker
from tests.robustness.servers import Server, migrate, request

SLOW = 200
ANSWER_WITHIN = 10.0  # seconds; an answer comes in milliseconds, a stall never ends


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, _schema_template: str | Path
) -> Iterator[Server]:
    instance = tmp_path_factory.mktemp("instance")
    path = instance / "scorekeeper.sqlite"
    url = f"sqlite:///{path}"
    if isinstance(_schema_template, Path):  # the session's migrated SQLite file
        shutil.copyfile(_schema_template, path)
    else:
        migrate(url, instance)
    served = Server(url, instance, env={"WORKER_CONNECTIONS": "100", "ACCESS_LOG": "-"})
    try:
        yield served.start()
    finally:
        served.stop()


def connections(port: int, n: int, sent: bytes, stack: ExitStack) -> list[socket.socket]:
    """``n`` connections that have sent ``sent`` and then nothing more."""
    opened = []
    for _ in range(n):
        sock = stack.enter_context(socket.create_connection(("127.0.0.1", port), timeout=5))
        sock.sendall(sent)
        opened.append(sock)
    return opened


def answer(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    sock.settimeout(ANSWER_WITHIN)
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
    return received


def create_body() -> bytes:
    return json.dumps({"players": ["Ann", "Ben", "Cat"], "first_dealer": 0}).encode()


def test_half_sent_heads_keep_nobody_out(server: Server) -> None:
    with ExitStack() as stack:
        connections(
            server.port, SLOW, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", stack
        )
        status, body, _ = request(server.port, "GET", "/healthz", timeout=ANSWER_WITHIN)
        assert (status, body) == (200, "ok")
        assert request(server.port, "GET", "/", timeout=ANSWER_WITHIN)[0] == 200
        status, game, _ = request(
            server.port,
            "POST",
            "/api/v1/games",
            {"players": ["Ann", "Ben", "Cat"], "first_dealer": 0},
            timeout=ANSWER_WITHIN,
        )
        assert status == 201, game


def test_half_sent_bodies_keep_nobody_out(server: Server) -> None:
    head = (
        b"POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b'Content-Length: 1000\r\n\r\n{"players": '
    )
    with ExitStack() as stack:
        connections(server.port, SLOW, head, stack)
        status, body, _ = request(server.port, "GET", "/healthz", timeout=ANSWER_WITHIN)
        assert (status, body) == (200, "ok")


def test_clients_that_never_close_keep_nobody_out(server: Server) -> None:
    # Each is answered and the server closes its side; the client doesn't close its own.
    # gthread lingered on each for up to 2 s in the worker's only loop, serving nothing
    # else meanwhile, so the twentieth answer came after some 10 × 2 s.
    closing = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    deadline = time.monotonic() + ANSWER_WITHIN
    with ExitStack() as stack:
        for sock in connections(server.port, 20, closing, stack):
            received = b""
            while not received.endswith(b"ok"):
                sock.settimeout(max(0.001, deadline - time.monotonic()))
                received += sock.recv(4096)
        status, body, _ = request(server.port, "GET", "/healthz", timeout=ANSWER_WITHIN)
        assert (status, body) == (200, "ok")


def test_a_request_sent_in_pieces_is_served_whole(server: Server) -> None:
    body = create_body()
    head = (
        b"POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(body)
    )
    whole = head + body
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for start in range(0, len(whole), 7):
            sock.sendall(whole[start : start + 7])
        received = answer(sock)
    assert received.startswith(b"HTTP/1.1 201 "), received[:200]
    assert b'"players": ["Ann", "Ben", "Cat"]' in received or b'"Ann"' in received


def test_pipelined_requests_are_answered_in_order(server: Server) -> None:
    one = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    last = b"GET /api/v1/openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(one + one + last[:20])
        sock.sendall(last[20:])
        received = answer(sock)
    assert received.count(b"HTTP/1.1 200 ") == 3, received[:400]
    assert b'"openapi"' in received


def test_answers_name_no_software_nor_say_what_http_1_1_means_anyway(server: Server) -> None:
    # 42 bytes off every answer, four of them in a phone's first load of a game page.
    kept = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    old = b"GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"
    last = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(kept + old + last)
        received = answer(sock)
    heads = [head.lower() for head in received.split(b"\r\n\r\nok")[:-1]]
    assert len(heads) == 3, received
    assert all(b"\r\nserver:" not in head and b"\r\ndate:" in head for head in heads)
    assert heads[0].startswith(b"http/1.1 200 ") and b"\r\nconnection:" not in heads[0]
    # HTTP/1.0 closes unless told to keep the connection; and a closing answer says so.
    assert heads[1].startswith(b"http/1.0 200 ") and b"\r\nconnection: keep-alive" in heads[1]
    assert heads[2].startswith(b"http/1.1 200 ") and b"\r\nconnection: close" in heads[2]


def test_expect_continue_is_answered_before_the_body(server: Server) -> None:
    body = create_body()
    head = (
        b"POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Expect: 100-continue\r\nConnection: close\r\nContent-Length: %d\r\n\r\n" % len(body)
    )
    with socket.create_connection(("127.0.0.1", server.port), timeout=ANSWER_WITHIN) as sock:
        sock.sendall(head)
        assert sock.recv(64).startswith(b"HTTP/1.1 100 Continue\r\n\r\n")
        sock.sendall(body)
        received = answer(sock)
    assert b"HTTP/1.1 201 " in received, received[:300]


@pytest.mark.parametrize(
    ("sent", "status"),
    [
        # A body larger than the app takes is refused unread, by the app, in its words.
        (
            b"POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 3000000\r\n\r\n{",
            b"413",
        ),
        # A chunked body: a length is asked for (no client of the app sends one).
        (
            b"POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b'Transfer-Encoding: chunked\r\n\r\n5\r\n{"pl',
            b"411",
        ),
        # A head that never ends within a sane size.
        (b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"X-Pad: y\r\n" * 8000, b"431"),
    ],
    ids=["too-large", "chunked", "endless-head"],
)
def test_what_cannot_be_read_whole_is_refused_at_once(
    server: Server, sent: bytes, status: bytes
) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=ANSWER_WITHIN) as sock:
        sock.sendall(sent)
        received = answer(sock)
    assert received.startswith(b"HTTP/1.1 " + status), received[:300]
    assert b"Connection: close" in received, received[:300]
    if status == b"413":
        assert b"larger than 2\\u00a0MB" in received, received


def test_connections_kept_alive_between_requests_leave_room_for_new_ones() -> None:
    # A game night's followers each fetch what changed and keep the connection for the
    # next change. Counted against worker_connections, those idle connections shut the
    # worker's door on new ones (a scorer's tap) until they expired, 5 s later: a tap's
    # p99 was 5.0 s with 320 tables (bench/night.py). Like a connection still sending its
    # request, an idle one holds no thread; gthread bounds them by itself.
    worker = object.__new__(Worker)
    worker.worker_connections = 100
    worker._reading = {}
    worker._followers = {}
    worker.keepalived_conns = deque()
    assert worker.worker_connections == 100
    worker.keepalived_conns.extend(object() for _ in range(96))
    # gthread accepts while its connections (these 96 among them) are fewer than this:
    # a hundred more may come in, as with none kept.
    assert worker.worker_connections == 196
