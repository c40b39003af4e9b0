"""Request limits: a body over the size limit is refused before it is read, and JSON is
nested at most 32 levels deep, each with a clear 4xx.

Before, 100–300 MB bodies were read into a worker (700 MB of memory), and JSON nested
1,000 deep made every API write and the history import fail with RecursionError (500).
"""

from __future__ import annotations

import http.client
import io
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade
from sqlalchemy import func, select

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.limits import MAX_JSON_DEPTH, TooDeep, check_json_depth
from scorekeeper.models import Game
from scorekeeper.services import transfer
from scorekeeper.services.errors import Rejected
from tests.robustness.servers import Server, migrate
from tests.web.support import HX

MB = 1024 * 1024
NEW_GAME = {"players": ["Ann", "Ben", "Cat"]}
GAME_FORM = "player=Ann&player=Ben&player=Cat&dealer=0"


class Endless(io.RawIOBase):
    """A request body of ``size`` bytes that is never made, counting what is read of it
    (its size is all the test client asks before sending it)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.position = 0
        self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        self.position = self.size + offset if whence == io.SEEK_END else offset
        return self.position

    def tell(self) -> int:
        return self.position

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        size = len(buffer)
        buffer[:size] = b"[" * size
        self.read_bytes += size
        return size


def nested(depth: int, inner: object = 1) -> object:
    value = inner
    for _ in range(depth):
        value = [value]
    return value


# -- size --------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [100 * MB, 300 * MB])
def test_a_huge_api_body_is_refused_unread_in_the_apis_format(
    client: FlaskClient, size: int
) -> None:
    body = Endless(size)
    answer = client.post(
        "/api/v1/games",
        input_stream=body,
        content_type="application/json",
        headers={"Idempotency-Key": "huge-1"},
    )
    assert answer.status_code == 413
    assert answer.mimetype == "application/json"
    error = answer.get_json()["error"]
    assert error["code"] == "too_large"
    assert "2\N{NO-BREAK SPACE}MB" in error["message"]
    assert body.read_bytes == 0
    assert client.get("/api/v1/games").status_code != 500


def test_a_body_without_a_length_is_cut_off_at_the_limit(client: FlaskClient) -> None:
    body = Endless(100 * MB)
    answer = client.post(
        "/api/v1/games",
        input_stream=body,
        content_type="application/json",
        # Sent chunked: no length, the server says where the body ends (as gunicorn does).
        environ_overrides={"wsgi.input_terminated": True, "CONTENT_LENGTH": ""},
    )
    assert answer.status_code == 413
    assert answer.get_json()["error"]["code"] == "too_large"
    assert body.read_bytes <= 2 * MB + 64 * 1024


@pytest.mark.parametrize("htmx", [False, True])
def test_a_huge_form_gets_a_page_naming_the_limit(app: Flask, htmx: bool) -> None:
    app.config["WTF_CSRF_ENABLED"] = True  # the CSRF check reads the form first
    client = app.test_client()
    body = Endless(200 * MB)
    answer = client.post(
        "/games",
        input_stream=body,
        content_type="application/x-www-form-urlencoded",
        headers=HX if htmx else {},
    )
    assert answer.status_code == 413
    assert answer.mimetype == "text/html"
    text = answer.get_data(as_text=True)
    assert "larger than 2\N{NO-BREAK SPACE}MB" in text and "Nothing was stored" in text
    assert ("<html" in text) is not htmx  # htmx gets the notice in place of the widget
    assert body.read_bytes == 0


def test_a_real_body_just_over_the_limit_is_refused(app: Flask) -> None:
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    filler = "x" * (2 * MB)
    form = client.post(
        "/games",
        data=f"{GAME_FORM}&note={filler}",
        content_type=("application/x-www-form-urlencoded"),
    )
    assert form.status_code == 413
    api = client.post("/api/v1/games", json={**NEW_GAME, "note": filler})
    assert api.status_code == 413
    # Within the limit, a form with a big field is read as before (one limit for both).
    fine = client.post(
        "/games",
        data=f"{GAME_FORM}&note={'x' * MB}",
        content_type=("application/x-www-form-urlencoded"),
    )
    assert fine.status_code == 303


def test_the_german_page_names_the_limit_too(app: Flask) -> None:
    answer = app.test_client().post(
        "/games",
        input_stream=Endless(10 * MB),
        content_type="application/x-www-form-urlencoded",
        headers={"Accept-Language": "de"},
    )
    assert answer.status_code == 413
    text = answer.get_data(as_text=True)
    assert "2\N{NO-BREAK SPACE}MB" in text and "larger than" not in text


@pytest.fixture
def small_app(tmp_path: Path, database_url: str) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": database_url,
            "MAX_CONTENT_LENGTH": MB + MB // 2,
        },
        instance_path=tmp_path / "instance",
    )
    with app.app_context():
        upgrade()
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_the_limit_is_configurable(small_app: Flask) -> None:
    assert small_app.config["MAX_FORM_MEMORY_SIZE"] == MB + MB // 2
    client = small_app.test_client()
    answer = client.post("/api/v1/games", json={**NEW_GAME, "note": "x" * (2 * MB)})
    assert answer.status_code == 413
    assert "1.5\N{NO-BREAK SPACE}MB" in answer.get_json()["error"]["message"]


# -- JSON nesting -------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 1_000, 100_000])
def test_deep_json_in_an_api_write_is_a_400(client: FlaskClient, depth: int) -> None:
    body = (
        json.dumps({**NEW_GAME, "rules": {"scoring": nested(depth)}})
        if depth < 900
        else ('{"players": ["Ann", "Ben", "Cat"], "rules": ' + "[" * depth + "]" * depth + "}")
    )
    for headers in ({}, {"Idempotency-Key": f"deep-{depth}"}):
        answer = client.post(
            "/api/v1/games", data=body, content_type="application/json", headers=headers
        )
        assert answer.status_code == 400, headers
        error = answer.get_json()["error"]
        assert error["code"] == "bad_request"
        assert f"more than {MAX_JSON_DEPTH} levels" in error["message"]
    assert client.get("/api/v1/games").status_code != 500


def test_deep_json_on_a_rounds_write_is_a_400(client: FlaskClient) -> None:
    created = client.post("/api/v1/games", json=NEW_GAME).get_json()
    url, auth = f"/api/v1/games/{created['id']}", f"Bearer {created['scorer_token']}"
    before = client.get(url).data
    body = '{"bids": ' + "[" * 1000 + "]" * 1000 + "}"
    for method in ("post", "put"):
        path = f"{url}/rounds" if method == "post" else f"{url}/rounds/1"
        answer = getattr(client, method)(
            path, data=body, content_type="application/json", headers={"Authorization": auth}
        )
        assert answer.status_code == 400
        assert f"more than {MAX_JSON_DEPTH} levels" in answer.get_json()["error"]["message"]
    assert client.get(url).data == before


def test_json_as_deep_as_allowed_gets_the_usual_answer(client: FlaskClient) -> None:
    # The whole body is the outer object plus 31 levels: within the bound, so the API
    # says what is wrong with it instead (rules.scoring is not a list).
    body = json.dumps({**NEW_GAME, "rules": {"scoring": nested(MAX_JSON_DEPTH - 2)}})
    answer = client.post("/api/v1/games", data=body, content_type="application/json")
    assert answer.status_code in (400, 422)
    assert "levels" not in answer.get_json()["error"]["message"]


def test_a_deep_history_file_is_refused_with_the_reason(app: Flask) -> None:
    for depth in (MAX_JSON_DEPTH + 1, 5_000):
        text = '{"format": "scorekeeper-history", "games": ' + "[" * depth + "]" * depth + "}"
        with app.test_request_context():
            with pytest.raises(Rejected) as refused:
                transfer.parse_history(text.encode())
            assert f"more than {MAX_JSON_DEPTH} levels" in refused.value.message
            with pytest.raises(Rejected):
                transfer.parse_history(text)


@pytest.mark.parametrize(
    "text",
    [
        json.dumps(nested(MAX_JSON_DEPTH)),
        json.dumps({"a": nested(MAX_JSON_DEPTH - 1), "b": "[[[[" * 40}),
        json.dumps(["\\", '"[[[[', "]]]]]", nested(MAX_JSON_DEPTH - 1)]),
        json.dumps([{"k": [[{}]]}] * 5000),
        "[" * MAX_JSON_DEPTH,  # not valid, but not deep: the parser says what is wrong
        "]" * 100 + "[" * MAX_JSON_DEPTH,
    ],
)
def test_depth_within_the_bound_passes(text: str) -> None:
    check_json_depth(text)
    check_json_depth(text.encode())


@pytest.mark.parametrize(
    "text",
    [
        json.dumps(nested(MAX_JSON_DEPTH + 1)),
        json.dumps({"a": [nested(MAX_JSON_DEPTH)]}),
        json.dumps(['\\"', nested(MAX_JSON_DEPTH + 1), "]]]]"]),
        "[" * 1000 + "]" * 1000,
        "{" * 1000,
        "[" * (MAX_JSON_DEPTH + 1),
        '{"a":' * 1000 + "1" + "}" * 1000,
        "[" * 100 + "}" * 100,  # mismatched: the parser would still recurse 100 deep
    ],
)
def test_deeper_json_is_refused(text: str) -> None:
    with pytest.raises(TooDeep):
        check_json_depth(text)
    with pytest.raises(TooDeep):
        check_json_depth(text.encode())


# -- under gunicorn ------------------------------------------------------------------------


@pytest.fixture
def server(tmp_path: Path, database_url: str) -> Iterator[Server]:
    instance = tmp_path / "served"
    instance.mkdir()
    migrate(database_url, instance)
    running = Server(database_url, instance, workers=1)
    try:
        yield running.start()
    finally:
        running.stop()


@pytest.mark.parametrize("path", ["/api/v1/games", "/games"])
def test_gunicorn_answers_413_without_waiting_for_the_body(server: Server, path: str) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        kind = (
            "application/json"
            if path.startswith("/api/")
            else ("application/x-www-form-urlencoded")
        )
        connection.putrequest("POST", path)
        connection.putheader("Content-Type", kind)
        connection.putheader("Content-Length", str(300 * MB))
        connection.endheaders()
        connection.send(b"[" * 65536)  # the first bit of 300 MB that never come
        started = time.monotonic()
        answer = connection.getresponse()
        body = answer.read().decode()
    finally:
        connection.close()
    assert answer.status == 413
    assert time.monotonic() - started < 5
    assert "2\N{NO-BREAK SPACE}MB" in body or "2\\u00a0MB" in body


@pytest.mark.parametrize("path", ["/api/v1/games", "/games", "/circles", "/digital/new"])
def test_a_deep_body_of_another_type_with_a_key_is_refused_not_a_500(
    client: FlaskClient, path: str
) -> None:
    # The key's fingerprint reads the body as JSON whatever its type (nested too deep to
    # read, it is taken as bytes), and the write then refuses what it was sent.
    body = "[" * 50_000 + "]" * 50_000
    with client.application.app_context():
        before = db.session.scalar(select(func.count(Game.id)))
    answer = client.post(
        path,
        data=body,
        content_type="text/plain",
        headers={"Idempotency-Key": "0123456789abcdef0123"},
    )
    assert 400 <= answer.status_code < 500
    with client.application.app_context():
        assert db.session.scalar(select(func.count(Game.id))) == before
