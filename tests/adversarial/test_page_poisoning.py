"""The kept game page can't be poisoned: one stranger's request never changes the links,
styles, scripts or QR codes that later followers of the game get.

Every link of a page is built from the root URL it was asked at (scheme, host, script
root). The script root comes from ``X-Forwarded-Prefix`` behind a proxy (``PROXY_HOPS``)
or from gunicorn's ``SCRIPT_NAME``; a prefix that is not a plain path is refused, a plain
one gets its own kept page. Odd ``Host`` headers can't evict the pages real readers get,
and a server that names its hosts (``TRUSTED_HOSTS``) answers no other.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import requests
from flask import Flask, template_rendered
from flask.testing import FlaskClient
from flask_migrate import upgrade

from scorekeeper import create_app, transaction
from scorekeeper.engine import RuleSet
from scorekeeper.extensions import db
from scorekeeper.services import games as game_service
from scorekeeper.services import pagecache
from scorekeeper.services.pagecache import MAX_VARIANTS
from tests.robustness.servers import Server, migrate
from tests.web.support import HX, Pages

EVIL = "evil.example"
PASSPHRASE = "a long passphrase"


def proxied(tmp_path: Path, database_url: str, **config: object) -> Flask:
    """An app behind one reverse proxy (PROXY_HOPS=1), as the README's deploy has it."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": database_url,
            "WTF_CSRF_ENABLED": False,
            "PROXY_HOPS": 1,
            **config,
        },
        instance_path=tmp_path / "instance",
    )
    with app.app_context():
        upgrade()
    return app


@pytest.fixture
def app(tmp_path: Path, database_url: str) -> Iterator[Flask]:
    app = proxied(tmp_path, database_url)
    assert app.config.get("PAGE_CACHE", True)  # the page cache is on, as by default
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def new_game(client: FlaskClient) -> str:
    """A game set up through the form by ``client``, which keeps score of it."""
    response = Pages(client).create(["Ann", "Ben", "Cat"])
    assert response.status_code == 303
    return urlsplit(response.headers["Location"]).path.rsplit("/", 1)[1]


def kept(app: Flask) -> list[bytes]:
    with app.app_context():
        return [page.body for _, _, _, page in pagecache.kept_pages()]


@contextmanager
def renders(app: Flask) -> Iterator[list[str]]:
    """The names of the templates rendered meanwhile."""
    seen: list[str] = []

    def record(sender: Flask, template: object, context: object, **extra: object) -> None:
        seen.append(getattr(template, "name", "?"))

    template_rendered.connect(record, app)
    try:
        yield seen
    finally:
        template_rendered.disconnect(record, app)


def links(body: str) -> set[str]:
    """Every address the page points at: links, forms, scripts, styles, images, QR codes."""
    attributes = r'\s(?:href|src|action|hx-get|hx-post|value|data-[\w-]+)="([^"]*)"'
    return {v for v in re.findall(attributes, body) if v.startswith(("/", "http", "\\"))}


ODD_PREFIXES = [
    f"//{EVIL}",
    f"https://{EVIL}",
    f"/games/..//{EVIL}",
    "/a//b",
    "/..",
    "/a\\b",
    "/a b",
    "/a\tb",
    "/x\x7f",
]


@pytest.mark.parametrize("kind", ["page", "live"])
def test_an_odd_forwarded_prefix_is_refused_and_followers_keep_their_links(
    app: Flask, kind: str
) -> None:
    pid = new_game(app.test_client())
    follower = app.test_client()
    path, headers = (
        (f"/games/{pid}", {}) if kind == "page" else (f"/games/{pid}/live?v=0", dict(HX))
    )
    before = follower.get(path, headers=headers)
    assert before.status_code == 200
    stranger = app.test_client()
    for prefix in ODD_PREFIXES:
        refused = stranger.get(path, headers={**headers, "X-Forwarded-Prefix": prefix})
        assert refused.status_code == 400, prefix
        assert EVIL not in refused.get_data(as_text=True)
        after = follower.get(path, headers=headers)
        assert after.status_code == 200 and after.data == before.data, prefix
    assert not any(EVIL.encode() in body for body in kept(app))


def test_a_plain_prefix_gets_its_own_page_and_never_the_others(app: Flask) -> None:
    pid = new_game(app.test_client())
    behind = app.test_client()
    prefixed = behind.get(f"/games/{pid}", headers={"X-Forwarded-Prefix": "/scores"})
    assert prefixed.status_code == 200
    assert f"/scores/games/{pid}" in prefixed.get_data(as_text=True)
    # A later reader at the root gets links at the root, not under /scores, and back.
    follower = app.test_client()
    plain = follower.get(f"/games/{pid}").get_data(as_text=True)
    assert "/scores/" not in plain and f"http://localhost/games/{pid}" in plain
    again = behind.get(f"/games/{pid}", headers={"X-Forwarded-Prefix": "/scores"})
    assert again.data == prefixed.data
    live = follower.get(f"/games/{pid}/live?v=0", headers=HX).get_data(as_text=True)
    assert "/scores/" not in live


def test_the_qr_code_of_the_view_link_is_no_shared_caches_to_keep(app: Flask) -> None:
    # The QR code encodes the address it was asked at (host, forwarded prefix): a copy
    # kept by a cache in front would hand one reader's address to every other.
    pid = new_game(app.test_client())
    client = app.test_client()
    prefixed = client.get(f"/games/{pid}/qr.svg", headers={"X-Forwarded-Prefix": "/scores"})
    plain = client.get(f"/games/{pid}/qr.svg")
    assert prefixed.status_code == plain.status_code == 200
    assert prefixed.data != plain.data  # each encodes its own address
    for answer in (prefixed, plain):
        control = {d.strip() for d in answer.headers["Cache-Control"].split(",")}
        assert "private" in control and "public" not in control, control


def test_every_link_of_a_followers_page_stays_on_the_server(app: Flask) -> None:
    pid = new_game(app.test_client())
    stranger = app.test_client()
    for prefix in ODD_PREFIXES:
        stranger.get(f"/games/{pid}", headers={"X-Forwarded-Prefix": prefix})
    body = app.test_client().get(f"/games/{pid}").get_data(as_text=True)
    for link in links(body):
        parts = urlsplit(link)
        assert parts.netloc in ("", "localhost"), link
        assert not link.startswith("//"), link


def test_odd_hosts_never_evict_the_pages_real_readers_get(app: Flask) -> None:
    pid = new_game(app.test_client())
    follower = app.test_client()
    first = follower.get(f"/games/{pid}")
    assert first.status_code == 200
    stranger = app.test_client()
    for n in range(3 * MAX_VARIANTS):
        odd = stranger.get(f"/games/{pid}", headers={"Host": f"h{n}.example"})
        assert odd.status_code == 200
        # Its own links, served but not necessarily kept.
        assert f"http://h{n}.example/games/{pid}" in odd.get_data(as_text=True)
    assert len(kept(app)) <= MAX_VARIANTS
    with renders(app) as seen:
        again = follower.get(f"/games/{pid}")
    assert seen == []  # still served from the kept copy
    assert again.data == first.data


def test_odd_hosts_are_not_compressed_or_written_once_the_variants_are_taken(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    pid = new_game(app.test_client())
    stranger = app.test_client()
    for n in range(MAX_VARIANTS):
        stranger.get(f"/games/{pid}", headers={"Host": f"h{n}.example"})
    rows = kept(app)
    assert len(rows) == MAX_VARIANTS
    compressed: list[bytes] = []
    from scorekeeper import compression

    real = compression.compress

    def spy(body: bytes, coding: str, best: bool = False) -> bytes:
        compressed.append(body)
        return real(body, coding, best=best)

    monkeypatch.setattr(compression, "compress", spy)
    odd = stranger.get(f"/games/{pid}", headers={"Host": "one-more.example"})
    assert odd.status_code == 200
    assert compressed == [] and kept(app) == rows


def test_a_change_of_the_game_makes_room_again(app: Flask) -> None:
    scorer = app.test_client()
    pid = new_game(scorer)
    stranger = app.test_client()
    for n in range(MAX_VARIANTS):
        stranger.get(f"/games/{pid}", headers={"Host": f"h{n}.example"})
    Pages(scorer).bid(pid, 1, 0)
    follower = app.test_client()
    follower.get(f"/games/{pid}")
    with renders(app) as seen:
        follower.get(f"/games/{pid}")
    assert seen == []  # the new version's page is kept for its readers


def test_trusted_hosts_refuse_any_other_host(tmp_path: Path, database_url: str) -> None:
    app = proxied(
        tmp_path,
        database_url,
        TRUSTED_HOSTS=["scores.example.org"],
        PASSPHRASE=PASSPHRASE,
    )
    with app.app_context(), transaction.atomic():
        game, _token = game_service.create_game(["Ann", "Ben", "Cat"], 0, RuleSet())
        pid = game.public_id
    client = app.test_client()
    # A private server too: its passphrase redirect builds a link, and can't for this host.
    for path in (f"/games/{pid}", "/", "/api/v1/games", "/healthz"):
        refused = client.get(path, headers={"Host": EVIL})
        assert refused.status_code == 400, path
        assert EVIL not in refused.get_data(as_text=True)
    forwarded = client.get(f"/games/{pid}", headers={"X-Forwarded-Host": EVIL})
    assert forwarded.status_code == 400
    assert kept(app) == []
    good = "http://scores.example.org"
    unlocked = client.post("/passphrase", data={"passphrase": PASSPHRASE}, base_url=good)
    assert unlocked.status_code == 303
    page = client.get(f"/games/{pid}", base_url=good)
    assert page.status_code == 200
    assert f"http://scores.example.org/games/{pid}" in page.get_data(as_text=True)


def test_trusted_hosts_come_from_the_environment(
    tmp_path: Path, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRUSTED_HOSTS", "scores.example.org, .example.net")
    app = proxied(tmp_path, database_url)
    assert app.config["TRUSTED_HOSTS"] == ["scores.example.org", ".example.net"]
    client = app.test_client()
    assert client.get("/healthz", headers={"Host": EVIL}).status_code == 400
    assert client.get("/healthz", headers={"Host": "a.example.net"}).status_code == 200


# -- gunicorn: a SCRIPT_NAME header --------------------------------------------------------


@pytest.fixture
def server(tmp_path: Path, database_url: str) -> Iterator[tuple[Server, str]]:
    instance = tmp_path / "served"
    instance.mkdir()
    migrate(database_url, instance)
    app = create_app(
        {"SECRET_KEY": "shared-secret-for-tests", "SQLALCHEMY_DATABASE_URI": database_url},
        instance_path=instance,
    )
    with app.app_context():
        game, _token = game_service.create_game(["Ann", "Ben", "Cat"], 0, RuleSet())
        pid = game.public_id
        db.session.commit()
        db.session.remove()
        db.engine.dispose()
    # As bin/serve runs it: no proxy in front, requests from 127.0.0.1 (which gunicorn
    # trusts for forwarded headers).
    running = Server(database_url, instance, workers=1)
    try:
        yield running.start(), pid
    finally:
        running.stop()


def test_a_script_name_header_never_reaches_the_page(server: tuple[Server, str]) -> None:
    running, pid = server
    for path in (f"/games/{pid}", f"//{EVIL}/games/{pid}"):
        answer = requests.get(running.base + path, headers={"SCRIPT_NAME": f"//{EVIL}"}, timeout=10)
        assert answer.status_code < 500
        for link in links(answer.text):
            assert not link.startswith("//") and urlsplit(link).netloc in (
                "",
                f"127.0.0.1:{running.port}",
            )
    follower = requests.get(f"{running.base}/games/{pid}", timeout=10)
    assert follower.status_code == 200
    assert EVIL not in follower.text
    assert f"http://127.0.0.1:{running.port}/games/{pid}" in follower.text
