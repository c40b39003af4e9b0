"""The live channel served as it is deployed: gunicorn with scorekeeper.serving.Worker.

Two app servers share one database (the test PostgreSQL when TEST_DATABASE_URL is set:
LISTEN/NOTIFY carries the change; else one SQLite file: each process watches its
data_version). Many more followers than the servers have threads and connection slots are
parked at once on both; /healthz and a write are answered meanwhile, and the write
reaches every follower on both servers.
"""

from __future__ import annotations

import selectors
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper import create_app, transaction
from scorekeeper.extensions import db
from scorekeeper.services import games as game_service
from tests.robustness.servers import Server, migrate, request

FOLLOWERS = 48  # per server: 3 × its 16 connection slots, 12 × its 4 threads


@pytest.fixture
def servers(tmp_path: Path, database_url: str) -> Iterator[tuple[Server, Server, str, str]]:
    instance = tmp_path / "instance"
    instance.mkdir()
    migrate(database_url, instance)
    app = create_app(
        {"SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": database_url}, instance_path=instance
    )
    with app.app_context(), transaction.atomic():
        game, token = game_service.create_game(
            ["Ann", "Ben", "Cat", "Dan"], 0, game_service.parse_rules({})
        )
        pid = game.public_id
    with app.app_context():
        db.engine.dispose()
    a = Server(database_url, instance, workers=2)
    b = Server(database_url, instance, workers=1)
    try:
        yield a.start(), b.start(), pid, token
    finally:
        a.stop()
        b.stop()


def _follow(server: Server, pid: str, version: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    sock.sendall(f"GET /games/{pid}/events?v={version} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    return sock


def _messages(sock: socket.socket, until: bytes) -> bytes:
    """What came on this follower's stream, read until ``until`` is in it (10 s at most)."""
    data = b""
    while until not in data:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    return data


def test_parked_followers_hold_no_thread_and_hear_a_write_on_either_server(
    servers: tuple[Server, Server, str, str],
) -> None:
    a, b, pid, token = servers
    followers = []
    for server in (a, b):
        for _ in range(FOLLOWERS):
            followers.append(_follow(server, pid, 1))
    for sock in followers:
        head = _messages(sock, b"data: 1\n\n")
        assert head.startswith(b"HTTP/1.1 200 ")
        assert b"Content-Type: text/event-stream" in head
        assert b"X-Accel-Buffering: no" in head
        assert head.endswith(b"9\r\ndata: 1\n\n\r\n")  # the version now, one chunk

    # Nothing is sent while nothing changes.
    quiet = selectors.DefaultSelector()
    for sock in followers:
        quiet.register(sock, selectors.EVENT_READ)
    assert quiet.select(timeout=0.5) == []
    quiet.close()

    # The servers answer others meanwhile: no thread or slot is held by a follower.
    for server in (a, b):
        assert request(server.port, "GET", "/healthz")[0] == 200
    status, body, _ = request(
        a.port,
        "POST",
        f"/api/v1/games/{pid}/rounds",
        {"bids": [0, 0, 0, 0], "tricks": [1, 0, 0, 0]},
        {"Authorization": f"Bearer {token}"},
    )
    assert status == 201, body
    version = body["version"]
    assert version > 1
    for sock in followers:
        assert _messages(sock, b"\r\n").endswith(f"data: {version}\n\n\r\n".encode())

    # A page behind (opened before the write) hears the version now; bad asks get 4xx.
    with _follow(b, pid, 1) as sock:
        assert _messages(sock, b"\n\n\r\n").endswith(f"data: {version}\n\n\r\n".encode())
    for bad, expected in ((f"/games/{pid}/events?v=1e99", 400), ("/games/x/events?v=1", 404)):
        assert request(a.port, "GET", bad)[0] == expected

    # Followers that leave are let go; the others stay.
    for sock in followers[: FOLLOWERS // 2]:
        sock.close()
    assert request(a.port, "GET", "/healthz")[0] == 200
    for sock in followers[FOLLOWERS // 2 :]:
        sock.close()
