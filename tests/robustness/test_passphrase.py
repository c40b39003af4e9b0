"""The optional instance passphrase of a private server."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.extensions import db

SECRET = "correct horse battery staple"


@pytest.fixture
def private(app: Flask) -> Flask:
    app.config["PASSPHRASE"] = SECRET
    app.config["WTF_CSRF_ENABLED"] = False
    return app


def test_without_a_passphrase_everything_is_open(client: FlaskClient) -> None:
    assert client.get("/").status_code == 200
    assert client.get("/api/v1/openapi.json").status_code == 200
    assert client.get("/passphrase").status_code == 303


def test_pages_ask_once_then_remember(private: Flask) -> None:
    client = private.test_client()
    asked = client.get("/games/new")
    assert asked.status_code == 303
    assert asked.headers["Location"].startswith("/passphrase?next=/games/new")
    form = client.get(asked.headers["Location"])
    assert form.status_code == 200 and 'type="password"' in form.get_data(as_text=True)
    # Open without it: the liveness check, static files.
    assert client.get("/healthz").status_code == 200
    static = client.get("/static/css/app.css")
    assert static.status_code == 200
    static.close()
    # A POST is refused, nothing stored.
    refused = client.post("/games", data={"player": ["Ann", "Ben", "Cat"], "dealer": "0"})
    assert refused.status_code == 401
    wrong = client.post("/passphrase", data={"passphrase": "guess", "next": "/games/new"})
    assert wrong.status_code == 403
    assert client.get("/games/new").status_code == 303
    right = client.post("/passphrase", data={"passphrase": SECRET, "next": "/games/new"})
    assert right.status_code == 303 and right.headers["Location"] == "/games/new"
    assert client.get("/games/new").status_code == 200
    created = client.post("/games", data={"player": ["Ann", "Ben", "Cat"], "dealer": "0"})
    assert created.status_code == 303
    public_id = created.headers["Location"].split("/")[2].split("?")[0]
    # The session also opens the API.
    game = client.get(f"/api/v1/games/{public_id}")
    assert game.status_code == 200 and game.get_json()["players"] == ["Ann", "Ben", "Cat"]


def test_next_never_leaves_the_server(private: Flask) -> None:
    client = private.test_client()
    for target in ("https://evil.example/", "//evil.example/x", "javascript:alert(1)"):
        response = client.post("/passphrase", data={"passphrase": SECRET, "next": target})
        assert response.status_code == 303 and response.headers["Location"] == "/", target


def test_the_api_takes_the_passphrase_in_a_header(private: Flask) -> None:
    client = private.test_client()
    refused = client.get("/api/v1/games")
    assert refused.status_code == 401
    assert refused.get_json()["error"]["code"] == "passphrase_required"
    assert client.get("/api/v1/games", headers={"X-Passphrase": "nope"}).status_code == 401
    body = {"players": ["Ann", "Ben", "Cat"]}
    assert client.post("/api/v1/games", json=body).status_code == 401
    ok = client.post("/api/v1/games", json=body, headers={"X-Passphrase": SECRET})
    assert ok.status_code == 201


def test_a_new_passphrase_asks_again(private: Flask) -> None:
    client = private.test_client()
    client.post("/passphrase", data={"passphrase": SECRET})
    assert client.get("/").status_code == 200
    private.config["PASSPHRASE"] = "another one"
    assert client.get("/").status_code == 303


@pytest.fixture
def from_env(tmp_path: Path, database_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    monkeypatch.setenv("SCOREKEEPER_PASSPHRASE", SECRET)
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": database_url},
        instance_path=tmp_path / "instance",
    )
    yield app
    with app.app_context():
        db.engine.dispose()


def test_the_environment_sets_it(from_env: Flask) -> None:
    client = from_env.test_client()
    assert client.get("/").status_code == 303
    assert client.get("/healthz").status_code == 200
