"""No secret is stored in plain text: after games are set up through the API, the setup
form and the digital setup form (each with an idempotency key, and retried), no column of
any table holds a scorer token, a seat or table link's secret, a browser's session
secret or a key that was a client's only secret — not even inside compressed copies.

The retries still get their secrets back: the kept answers are sealed, not emptied.
"""

from __future__ import annotations

import gzip
import json
import re
import zlib
from collections.abc import Iterator

import brotli  # type: ignore[import-untyped]
import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import inspect, select, text

from scorekeeper.extensions import db
from scorekeeper.idempotency import REPLAYED
from scorekeeper.models import IdempotencyKey
from tests.api.support import API
from tests.digital.support import SETUP_FORM
from tests.web.support import HX, Pages


@pytest.fixture
def app(app: Flask) -> Flask:
    app.config["WTF_CSRF_ENABLED"] = False
    return app


def _forms(value: object) -> Iterator[bytes]:
    """A stored value as bytes, and what it holds compressed."""
    if value is None or isinstance(value, (int, float)):
        return
    if isinstance(value, (bytes, bytearray, memoryview)):
        raw = bytes(value)
        yield raw
        for unpack in (gzip.decompress, brotli.decompress, zlib.decompress):
            try:
                yield unpack(raw)
            except Exception:  # not that kind of compressed data
                continue
    elif isinstance(value, str):
        yield value.encode()
    else:  # JSON (dict, list) as PostgreSQL hands it back, dates
        yield json.dumps(value, default=str).encode()
        yield str(value).encode()


def leaks(app: Flask, secrets: dict[str, str]) -> list[str]:
    """Where any of ``secrets`` (name → value) stands in plain text: every column of every
    table, read as stored."""
    found = []
    with app.app_context():
        db.session.expire_all()
        for table in inspect(db.engine).get_table_names():
            result = db.session.execute(text(f'SELECT * FROM "{table}"'))
            columns = list(result.keys())
            for row in result:
                for column, value in zip(columns, row, strict=True):
                    for data in _forms(value):
                        for name, secret in secrets.items():
                            if secret.encode() in data:
                                found.append(f"{name} in {table}.{column}")
    return sorted(set(found))


def kept_answers(app: Flask) -> int:
    with app.app_context():
        return len(db.session.scalars(select(IdempotencyKey)).all())


def session_of(app: Flask, client: FlaskClient) -> dict[str, object]:
    cookie = client.get_cookie("session")
    assert cookie is not None
    serializer = app.session_interface.get_signing_serializer(app)  # type: ignore[attr-defined]
    session: dict[str, object] = serializer.loads(cookie.value)
    return session


def scorer_token(page: str) -> str:
    link = re.search(r'href="https?://[^/"]+/games/[^"/]+/score/([^"]+)"', page)
    assert link, "no scorer link"
    return link.group(1)


def test_an_api_setup_keeps_no_secret_in_plain_text(app: Flask) -> None:
    client = app.test_client()
    key = "5f0c2a9e-71d4-4b3a-8e6f-2c9d0b7a1e43"  # with no token, the client's secret
    headers = {"Idempotency-Key": key}
    first = client.post(f"{API}/games", json={"players": ["Ann", "Ben", "Cat"]}, headers=headers)
    assert first.status_code == 201
    token = first.get_json()["scorer_token"]
    game = first.get_json()["id"]
    bearer = {"Authorization": f"Bearer {token}", "Idempotency-Key": "r1"}
    body = {"bids": [0, 1, 1], "tricks": [0, 0, 1]}
    assert client.post(f"{API}/games/{game}/rounds", json=body, headers=bearer).status_code == 201
    assert kept_answers(app) == 2
    assert leaks(app, {"scorer token": token, "idempotency key": key}) == []
    # The client that lost the answer gets it whole.
    again = client.post(f"{API}/games", json={"players": ["Ann", "Ben", "Cat"]}, headers=headers)
    assert again.headers[REPLAYED] == "true"
    assert again.get_json() == first.get_json()


@pytest.mark.parametrize("htmx", [False, True])
def test_a_web_setup_keeps_no_secret_in_plain_text(app: Flask, htmx: bool) -> None:
    pages = Pages(app.test_client())
    data = {"player": ["Ann", "Ben", "Cat"], "dealer": "0", "idempotency_key": "setup-1"}
    first = pages.client.post("/games", data=data, headers=HX if htmx else {})
    assert first.status_code == (204 if htmx else 303)
    target = first.headers["HX-Redirect" if htmx else "Location"]
    token = scorer_token(pages.client.get(target).get_data(as_text=True))
    browser = str(session_of(app, pages.client)["csrf_token"])
    assert kept_answers(app) == 1
    assert leaks(app, {"scorer token": token, "session secret": browser}) == []
    # The same browser, its answer lost, is made the scorer again with the same link.
    retry = app.test_client()
    retry.set_cookie("session", _without_scoring(app, pages.client))
    assert "Keeping score" not in retry.get(target).get_data(as_text=True)
    again = retry.post("/games", data=data, headers=HX if htmx else {})
    assert again.headers[REPLAYED] == "true"
    assert scorer_token(retry.get(target).get_data(as_text=True)) == token


def _without_scoring(app: Flask, client: FlaskClient) -> str:
    """The browser's session cookie as it was before the answer granted it the game."""
    session = session_of(app, client)
    session.pop("scoring", None)
    serializer = app.session_interface.get_signing_serializer(app)  # type: ignore[attr-defined]
    cookie: str = serializer.dumps(session)
    return cookie


def test_a_digital_setup_keeps_no_secret_in_plain_text(app: Flask) -> None:
    client = app.test_client()
    data = {**SETUP_FORM, "idempotency_key": "digital-1"}
    first = client.post("/digital/new", data=data)
    assert first.status_code == 303
    host = client.get(first.headers["Location"]).get_data(as_text=True)
    links = re.findall(r'href="([^"]+)" data-(?:seat|table)-link', host)
    secrets = {link: link.rstrip("/").rsplit("/", 1)[1] for link in links}
    assert len(secrets) == 3  # Ann's and Cat's hands, and the pass-and-play link
    assert kept_answers(app) == 1
    assert leaks(app, secrets) == []
    again = client.post("/digital/new", data=data)
    assert again.headers[REPLAYED] == "true"
    assert re.findall(
        r'href="([^"]+)" data-(?:seat|table)-link',
        client.get(again.headers["Location"]).get_data(as_text=True),
    ) == list(secrets)
