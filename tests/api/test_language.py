"""The API answers in the client's ``Accept-Language`` (one of the app's languages, else
English), its own request checks included; the error codes stay the same in every
language."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.api.support import API, Api, Circle

GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}
ENGLISH = {"Accept-Language": "en-GB"}


def message(response: Any) -> str:
    text: str = response.get_json()["error"]["message"]
    return text


BAD_BODIES = [
    (
        [1, 2],
        "The body must be a JSON object.",
        "Der Body muss ein JSON-Objekt sein.",
    ),
    (
        {"first_dealer": 0},
        "Missing key: players.",
        "Fehlender Schlüssel: players.",
    ),
    (
        {"players": "Ann, Ben, Cat"},
        "players must be a list of strings.",
        "players muss eine Liste von Zeichenketten sein.",
    ),
    (
        {"players": ["Ann", "Ben", "Cat"], "first_dealer": "Ann"},
        "first_dealer must be a whole number.",
        "first_dealer muss eine ganze Zahl sein.",
    ),
    (
        {"players": ["Ann", "Ben", "Cat"], "colour": "red", "dealer": 1},
        "Unknown keys: colour, dealer. Allowed: players, first_dealer, rules.",
        "Unbekannte Schlüssel: colour, dealer. Erlaubt: players, first_dealer, rules.",
    ),
]


@pytest.mark.parametrize(("body", "english", "german"), BAD_BODIES)
def test_request_format_errors_in_the_clients_language(
    client: FlaskClient, body: object, english: str, german: str
) -> None:
    in_german = client.post(f"{API}/games", json=body, headers=GERMAN)
    assert in_german.status_code == 400
    assert in_german.get_json()["error"]["code"] == "bad_request"
    assert message(in_german) == german
    assert message(client.post(f"{API}/games", json=body, headers=ENGLISH)) == english
    # No Accept-Language, or one the app does not speak: English.
    assert message(client.post(f"{API}/games", json=body)) == english
    portuguese = {"Accept-Language": "pt-BR"}
    assert message(client.post(f"{API}/games", json=body, headers=portuguese)) == english


def test_a_body_that_is_not_json_in_german(client: FlaskClient) -> None:
    response = client.post(
        f"{API}/games", data="players=Ann", content_type="text/plain", headers=GERMAN
    )
    assert response.status_code == 415
    assert message(response) == "Schick den Body als JSON, mit Content-Type: application/json."
    response = client.post(
        f"{API}/games", data="{", content_type="application/json", headers=GERMAN
    )
    assert response.status_code == 400
    assert message(response).startswith("Der Body ist kein gültiges JSON: ")


def test_http_errors_in_german(client: FlaskClient, api: Api, circle: Circle) -> None:
    game = api.create()
    response = client.get(f"{API}/nowhere", headers=GERMAN)
    assert (response.status_code, message(response)) == (
        404,
        "Unter dieser Adresse gibt es nichts.",
    )
    response = client.post(f"{game.url}/rounds", json={"bids": [0, 0, 0]}, headers=GERMAN)
    assert response.status_code == 401
    assert message(response).startswith("Um ein Spiel zu ändern, braucht es sein Schreiber-Token")
    response = client.get(f"{game.url}/rounds/7", headers=GERMAN)
    assert (response.status_code, message(response)) == (404, "Runde 7 ist nicht eingetragen.")
    response = client.get(f"{API}/games?per_page=0", headers={**circle.auth, **GERMAN})
    assert (response.status_code, message(response)) == (
        400,
        "per_page muss eine ganze Zahl ab 1 sein.",
    )


def test_trump_and_version_errors_in_german(client: FlaskClient, api: Api) -> None:
    game = api.create()
    headers = {**game.auth, **GERMAN}
    response = client.post(
        f"{game.url}/rounds", json={"bids": [0, 0, 0], "trump": "purple"}, headers=headers
    )
    assert response.status_code == 422
    assert message(response).startswith("Unbekannter Trumpf 'purple': Nimm yellow, red")
    api.play(game, [0, 0, 0], [1, 0, 0])
    response = client.put(
        f"{game.url}/rounds/1", json={"tricks": [0, 1, 0], "version": 0}, headers=headers
    )
    assert response.status_code == 409
    assert message(response).startswith("Das Spiel ist bei Version 2, nicht 0:")


def test_a_reused_idempotency_key_in_german(client: FlaskClient, api: Api) -> None:
    game = api.create()
    headers = {**game.auth, **GERMAN, "Idempotency-Key": "k1"}
    assert (
        client.post(f"{game.url}/rounds", json={"bids": [0, 1, 1]}, headers=headers).status_code
        == 201
    )
    other = client.put(f"{game.url}/rounds/1", json={"tricks": [0, 0, 1]}, headers=headers)
    assert other.status_code == 422
    assert other.get_json()["error"]["code"] == "idempotency_key_reused"
    assert message(other) == (
        "Dieser Idempotenzschlüssel wurde schon für eine andere Anfrage benutzt: Schick mit "
        "jedem neuen Eintrag einen neuen Schlüssel."
    )
    bad_key = {**game.auth, **GERMAN, "Idempotency-Key": ""}
    response = client.post(f"{game.url}/rounds", json={"bids": [0, 1, 1]}, headers=bad_key)
    assert response.status_code == 400
    assert message(response).startswith("Idempotency-Key muss aus 1 bis ")


def test_api_answers_vary_on_the_language(client: FlaskClient) -> None:
    response = client.post(f"{API}/games", json=[1], headers=GERMAN)
    assert "Accept-Language" in response.headers["Vary"]


def test_an_unknown_rule_value_in_german(client: FlaskClient) -> None:
    body = {"players": ["Ann", "Ben", "Cat"], "rules": {"dealer_rule": "sometimes"}}
    german = client.post("/api/v1/games", json=body, headers=GERMAN)
    english = client.post("/api/v1/games", json=body)
    assert german.status_code == english.status_code == 422
    assert message(english).startswith("Rule 'dealer_rule' must be one of ")
    assert message(german).startswith("Die Regel dealer_rule nimmt einen dieser Werte: ")
