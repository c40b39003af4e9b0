"""Every API error is JSON with a stable code, and leaves the stored game as it was."""

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.services.games import rounds
from tests.api.support import API, Api, error_of

# -- 401, 403: the scorer token ---------------------------------------------------------------


def _writes(game_url: str) -> list[tuple[str, str, dict[str, Any] | None]]:
    return [
        ("POST", f"{game_url}/rounds", {"bids": [0, 0, 0], "tricks": [1, 0, 0]}),
        ("PUT", f"{game_url}/rounds/1", {"tricks": [0, 1, 0]}),
        ("DELETE", f"{game_url}/rounds/1", None),
    ]


@pytest.mark.parametrize(
    "authorization",
    [None, "", "Bearer", "Bearer ", "Basic dXNlcjpwYXNz", "Token abc"],
)
def test_without_a_token_is_401(client: FlaskClient, api: Api, authorization: str | None) -> None:
    game = api.create()
    api.play(game, [0, 0, 0], [1, 0, 0])
    headers = {} if authorization is None else {"Authorization": authorization}
    with api.unchanged(game):
        for method, url, body in _writes(game.url):
            response = client.open(url, method=method, json=body, headers=headers)
            assert error_of(response) == (401, "unauthorized"), (method, authorization)
            assert response.headers["WWW-Authenticate"].startswith("Bearer")
            assert "scorer token" in response.get_json()["error"]["message"]


def test_with_a_wrong_token_is_403(client: FlaskClient, api: Api) -> None:
    game = api.create()
    other = api.create(["Dan", "Eve", "Fay"])
    api.play(game, [0, 0, 0], [1, 0, 0])
    with api.unchanged(game):
        for token in ("not-the-token", other.token, game.token + "x", game.token.lower()):
            for method, url, body in _writes(game.url):
                response = client.open(
                    url, method=method, json=body, headers={"Authorization": f"Bearer {token}"}
                )
                assert error_of(response) == (403, "forbidden"), (method, token)


def test_bearer_scheme_is_case_insensitive(client: FlaskClient, api: Api) -> None:
    game = api.create()
    response = client.post(
        f"{game.url}/rounds",
        json={"bids": [0, 0, 0]},
        headers={"Authorization": f"bearer {game.token}"},
    )
    assert response.status_code == 201


# -- 404 ------------------------------------------------------------------------------------


def test_unknown_game_is_404_for_every_endpoint(client: FlaskClient, api: Api) -> None:
    game = api.create()
    url = f"{API}/games/no-such-game"
    for method, path, body in [("GET", url, None), ("GET", f"{url}/rounds/1", None), *_writes(url)]:
        response = client.open(path, method=method, json=body, headers=game.auth)
        assert error_of(response) == (404, "not_found"), (method, path)


@pytest.mark.parametrize(
    "path",
    ["/api/v1/nope", "/api/v2/games", "/api/v1/games/x/y/z", "/api/", "/api/v1/games/", "/api/v1/"],
)
def test_unknown_api_paths_are_json_404(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert error_of(response) == (404, "not_found")
    assert response.mimetype == "application/json"


def test_pages_keep_their_html_404(client: FlaskClient) -> None:
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert response.mimetype == "text/html"


# -- 405 ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("PATCH", "/games/G", {"GET", "HEAD"}),
        ("DELETE", "/games/G", {"GET", "HEAD"}),
        ("PUT", "/games", {"GET", "HEAD", "POST"}),
        ("DELETE", "/games", {"GET", "HEAD", "POST"}),
        ("GET", "/games/G/rounds", {"POST"}),
        ("POST", "/games/G/rounds/1", {"GET", "HEAD", "PUT", "DELETE"}),
        ("POST", "/openapi.json", {"GET", "HEAD"}),
        ("OPTIONS", "/games", {"GET", "HEAD", "POST"}),
    ],
)
def test_wrong_method_is_json_405(
    client: FlaskClient, api: Api, method: str, path: str, allowed: set[str]
) -> None:
    game = api.create()
    with api.unchanged(game):
        response = client.open(API + path.replace("G", game.id), method=method, headers=game.auth)
        assert error_of(response) == (405, "method_not_allowed")
        assert set(response.headers["Allow"].split(", ")) == allowed


# -- 400, 415: bodies of the wrong shape ----------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        {"bids": "0,0,0"},
        {"bids": [0, "1", 0]},
        {"bids": [0, 1.5, 0]},
        {"bids": [0, True, 0]},
        {"bids": [0, 0, 0], "tricks": [1, None, 0]},
        {"bids": [0, 0, 0], "tricks": {"Ann": 1}},
        {"bids": [0, 0, 0], "trump": 1},
        {"bids": [0, 0, 0], "trump": ["red"]},
        {"bids": [0, 0, 0], "trump_wizard": "yes", "trump": "red"},
        {"bids": [0, 0, 0], "trump_wizard": True},
        {"bids": [0, 0, 0], "version": "1"},
        {"bids": [0, 0, 0], "version": None},
        {"bids": [0, 0, 0], "round": 1},
        {"tricks": [1, 0, 0]},
        {},
        [0, 0, 0],
        None,
        17,
    ],
)
def test_round_body_of_the_wrong_shape_is_400(client: FlaskClient, api: Api, body: object) -> None:
    game = api.create()
    with api.unchanged(game):
        response = client.post(
            f"{game.url}/rounds",
            data=json.dumps(body),
            content_type="application/json",
            headers=game.auth,
        )
        assert error_of(response) == (400, "bad_request")


@pytest.mark.parametrize(
    "body",
    [
        {"bids": [0, "0", 0]},
        {"tricks": None, "bids": None},
        {"trump_wizard": True},
        {"number": 1},
        [1, 0, 0],
    ],
)
def test_correction_of_the_wrong_shape_is_400(client: FlaskClient, api: Api, body: object) -> None:
    game = api.create()
    api.play(game, [0, 0, 0], [1, 0, 0])
    with api.unchanged(game):
        response = client.put(
            f"{game.url}/rounds/1",
            data=json.dumps(body),
            content_type="application/json",
            headers=game.auth,
        )
        assert error_of(response) == (400, "bad_request")


@pytest.mark.parametrize(
    "data", ['{"bids": [0, 0, 0]', "{'bids': []}", '{"bids": [0, 0, Infinity]}']
)
def test_malformed_round_json_is_400(client: FlaskClient, api: Api, data: str) -> None:
    game = api.create()
    with api.unchanged(game):
        for method, url in (("POST", f"{game.url}/rounds"), ("PUT", f"{game.url}/rounds/1")):
            response = client.open(
                url, method=method, data=data, content_type="application/json", headers=game.auth
            )
            assert error_of(response) == (400, "bad_request")


def test_round_not_sent_as_json_is_415(client: FlaskClient, api: Api) -> None:
    game = api.create()
    api.play(game, [0, 0, 0], [1, 0, 0])
    with api.unchanged(game):
        for method, url in (("POST", f"{game.url}/rounds"), ("PUT", f"{game.url}/rounds/1")):
            response = client.open(url, method=method, data={"bids": "0"}, headers=game.auth)
            assert error_of(response) == (415, "unsupported_media_type")


# -- 500 ------------------------------------------------------------------------------------


def test_server_error_is_json_and_rolls_back(
    app: Flask, client: FlaskClient, api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    app.config["PROPAGATE_EXCEPTIONS"] = False
    game = api.create()
    real_finish = rounds.finish

    def fail_after_writing(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(rounds, "finish", fail_after_writing)
    with api.unchanged(game):
        response = api.add(game, [0, 0, 0], [1, 0, 0])
        assert error_of(response) == (500, "server_error")
        assert "disk on fire" not in response.get_data(as_text=True)
    monkeypatch.setattr(rounds, "finish", real_finish)
    assert api.play(game, [0, 0, 0], [1, 0, 0])["version"] == 2


# -- CSRF: the API is for bearer-token clients --------------------------------------------


def test_api_is_exempt_from_csrf(app: Flask, client: FlaskClient) -> None:
    app.config["WTF_CSRF_ENABLED"] = True
    response = client.post(f"{API}/games", json={"players": ["Ann", "Ben", "Cat"]})
    assert response.status_code == 201
