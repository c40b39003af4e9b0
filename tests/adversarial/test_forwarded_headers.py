"""Forwarded headers (``X-Forwarded-For``, ``-Proto``, ``-Host``, ``-Prefix``) are taken
only from the reverse proxy: with ``PROXY_HOPS=1`` the app believes them only when the
request's peer is one of ``TRUSTED_PROXIES`` (by default 127.0.0.1 and ::1). A client that
reaches the app's port directly can't pick the address its passphrase guesses count
against, nor the scheme, host or prefix of the links it is shown.

Before, a direct peer with a new ``X-Forwarded-For`` on each request had 40 of 40 wrong
server-passphrase guesses and 50 of 50 circle-passphrase guesses checked (limit 10).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager as ContextManager
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper import create_app, ratelimit, transaction
from scorekeeper.engine import RuleSet
from scorekeeper.services import circles as circle_service
from scorekeeper.services import games as game_service
from tests.adversarial.support import Clock, from_address
from tests.adversarial.test_passphrase_limit import SECRET, private_server

LIMIT = ratelimit.DEFAULT_FAILURES
DIRECT = "203.0.113.5"  # a client that reaches the app's port without the proxy


def proxied(tmp_path: Path, database_url: str, **config: object) -> ContextManager[Flask]:
    """A private server behind one reverse proxy (PROXY_HOPS=1), closed after use."""
    return private_server(tmp_path, database_url, "proxied", PROXY_HOPS=1, **config)


@pytest.fixture
def app(tmp_path: Path, database_url: str) -> Iterator[Flask]:
    with proxied(tmp_path, database_url) as app:
        yield app


def forwarded(n: int) -> dict[str, str]:
    """A different made-up client address for each request."""
    return {"X-Forwarded-For": f"198.51.100.{n % 250 + 1}"}


def test_a_direct_peer_cannot_spread_its_guesses_over_made_up_addresses(
    app: Flask, clock: Clock
) -> None:
    client = from_address(app, DIRECT)
    answers = [
        client.post("/passphrase", data={"passphrase": f"guess {n}"}, headers=forwarded(n))
        for n in range(40)
    ]
    checked = sum(a.status_code == 403 for a in answers)
    assert checked == LIMIT
    assert all(a.status_code == 429 for a in answers[LIMIT:])
    api = client.get("/api/v1/openapi.json", headers={"X-Passphrase": SECRET, **forwarded(99)})
    assert api.status_code == 429


def test_nor_over_a_circles_passphrase(tmp_path: Path, database_url: str, clock: Clock) -> None:
    # A server without a passphrase of its own: the circle's is the one guessed.
    with proxied(tmp_path, database_url, PASSPHRASE="") as app:
        with app.app_context(), transaction.atomic():
            circle = circle_service.create_circle("Thursday", "open sesame")
            link = f"/c/{circle.public_id}/{circle_service.circle_key(circle)}"
        client = from_address(app, DIRECT)
        answers = [
            client.post(link, data={"passphrase": f"guess {n}"}, headers=forwarded(n))
            for n in range(50)
        ]
        assert sum(a.status_code == 403 for a in answers) == LIMIT
        assert all(a.status_code == 429 for a in answers[LIMIT:])


def test_a_direct_peers_scheme_host_and_prefix_are_its_own(app: Flask) -> None:
    with app.app_context(), transaction.atomic():
        pid = game_service.create_game(["Ann", "Ben", "Cat"], 0, RuleSet())[0].public_id
    client = from_address(app, DIRECT)
    client.post("/passphrase", data={"passphrase": SECRET})
    headers = {
        "X-Forwarded-Proto": "https",
        "X-Forwarded-Host": "evil.example",
        "X-Forwarded-Prefix": "/elsewhere",
    }
    page = client.get(f"/games/{pid}", headers=headers)
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert f"http://localhost/games/{pid}" in body
    assert "evil.example" not in body and "/elsewhere" not in body and "https:" not in body
    # Over plain HTTP, as it came: the session cookie is not marked Secure.
    unlocked = from_address(app, DIRECT).post(
        "/passphrase", data={"passphrase": SECRET}, headers=headers
    )
    assert "Secure" not in unlocked.headers["Set-Cookie"]


@pytest.mark.parametrize(
    ("trusted", "peer"),
    [
        (None, "127.0.0.1"),
        (None, "::1"),
        ("10.0.0.10", "10.0.0.10"),
        ("10.0.0.10, 10.0.0.11", "10.0.0.11"),
        ("10.0.0.0/24", "10.0.0.77"),
        ("10.0.0.10", "::ffff:10.0.0.10"),  # an IPv4 peer on a socket bound to [::]
        ("fd00::/8", "fd00::10"),
        (["10.0.0.10", "10.0.0.11"], "10.0.0.11"),  # a list in instance/config.py
    ],
)
def test_the_proxy_is_believed(
    tmp_path: Path, database_url: str, clock: Clock, trusted: str | list[str] | None, peer: str
) -> None:
    config = {} if trusted is None else {"TRUSTED_PROXIES": trusted}
    with proxied(tmp_path, database_url, **config) as app:
        proxy = from_address(app, peer)
        for n in range(LIMIT):
            guessed = proxy.post(
                "/passphrase", data={"passphrase": f"guess {n}"}, headers=forwarded(0)
            )
            assert guessed.status_code == 403
        blocked = proxy.post("/passphrase", data={"passphrase": SECRET}, headers=forwarded(0))
        assert blocked.status_code == 429
        # Another client behind the same proxy is someone else.
        other = proxy.post("/passphrase", data={"passphrase": SECRET}, headers=forwarded(1))
        assert other.status_code == 303
        secure = from_address(app, peer).post(
            "/passphrase",
            data={"passphrase": SECRET},
            headers={**forwarded(2), "X-Forwarded-Proto": "https"},
        )
        assert "Secure" in secure.headers["Set-Cookie"]


def test_trusted_proxies_come_from_the_environment(
    tmp_path: Path, database_url: str, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRUSTED_PROXIES", "192.0.2.1")
    with proxied(tmp_path, database_url) as app:
        for n in range(LIMIT + 1):
            from_address(app, "192.0.2.1").post(
                "/passphrase", data={"passphrase": f"guess {n}"}, headers=forwarded(n)
            )
        # Each guess counted against its own forwarded address: none is blocked.
        right = from_address(app, "192.0.2.1").post(
            "/passphrase", data={"passphrase": SECRET}, headers=forwarded(0)
        )
        assert right.status_code == 303
        # 127.0.0.1 is no proxy now: its forwarded address is ignored.
        local = from_address(app, "127.0.0.1")
        for n in range(LIMIT):
            local.post("/passphrase", data={"passphrase": f"guess {n}"}, headers=forwarded(n))
        assert local.post("/passphrase", data={"passphrase": SECRET}).status_code == 429


@pytest.mark.parametrize("bad", ["10.0.0", "proxy.internal", "10.0.0.0/33", "10.0.0.1;10.0.0.2"])
def test_a_setting_that_names_no_address_is_refused_at_start(
    tmp_path: Path, database_url: str, bad: str
) -> None:
    with pytest.raises(ValueError, match="TRUSTED_PROXIES"):
        create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "test",
                "SQLALCHEMY_DATABASE_URI": database_url,
                "PROXY_HOPS": 1,
                "TRUSTED_PROXIES": bad,
            },
            instance_path=tmp_path / "bad",
        )
