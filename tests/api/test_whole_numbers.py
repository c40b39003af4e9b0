"""Integers as JSON Schema reads them: the document says "integer", and JSON Schema counts
``2.0`` (and ``2e0``) as the integer 2, so the API takes them as 2; ``2.5`` is refused
with 400, as the document's schema refuses it. Every answer here is also checked against
the document (see ``support.py``), accepted request bodies included."""

from __future__ import annotations

import json

import pytest
from flask.testing import FlaskClient
from jsonschema import ValidationError
from werkzeug.test import TestResponse

from tests.api.support import API, DOC, Api, Circle, Game, error_of, schema, validate


def send(
    client: FlaskClient, method: str, url: str, text: str, to: Game | Circle | None = None
) -> TestResponse:
    """The body as written (``2.0`` stays ``2.0`` on the wire), with the token of ``to``."""
    headers = to.auth if to is not None else {}
    return client.open(
        url, method=method, data=text, content_type="application/json", headers=headers
    )


def document_allows(body: object, name: str) -> bool:
    try:
        validate(body, schema(name))
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize(
    "text",
    [
        '{"bids": [0, 1.0, 0], "tricks": [1.0, 0, 0e0]}',
        '{"bids": [0.0, 1e0, 0], "tricks": [10E-1, 0, 0], "version": 1.0}',
    ],
)
def test_a_round_in_whole_floats_is_recorded_as_integers(
    client: FlaskClient, api: Api, text: str
) -> None:
    assert document_allows(json.loads(text), "NewRound")
    game = api.create()
    response = send(client, "POST", f"{game.url}/rounds", text, game)
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert body["rounds"][0]["bids"] == [0, 1, 0]
    assert body["rounds"][0]["tricks"] == [1, 0, 0]
    assert body["rounds"][0]["scores"] == [-10, -10, 20]
    # Stored and sent back as integers, not as floats.
    # (Read back from the raw text: JSON parsing keeps 1.0 a float and 1 an integer; the
    # raw text itself may hold "1.0" in a timestamp such as 10:38:51.015.)
    sent = json.loads(api.raw(game))
    numbers = [*sent["rounds"][0]["bids"], *sent["rounds"][0]["tricks"], sent["version"]]
    assert all(type(n) is int for n in numbers), numbers


def test_a_game_set_up_with_whole_floats(client: FlaskClient, api: Api) -> None:
    text = (
        '{"players": ["Ann", "Ben", "Cat"], "first_dealer": 2.0, "rules": {"dealer_rule": '
        '"plus_minus_one", "dealer_rule_from_round": 3.0, "scoring": {"exact_bonus": 3e1, '
        '"per_trick": 5.0, "per_miss": 15.0}}}'
    )
    assert document_allows(json.loads(text), "NewGame")
    response = send(client, "POST", f"{API}/games", text)
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert body["first_dealer"] == 2 and isinstance(body["first_dealer"], int)
    assert body["rules"]["dealer_rule_from_round"] == 3
    assert body["rules"]["scoring"] == {"exact_bonus": 30, "per_trick": 5, "per_miss": 15}
    assert all(type(v) is int for v in body["rules"]["scoring"].values())


def test_a_correction_in_whole_floats(client: FlaskClient, api: Api) -> None:
    game = api.create()
    api.play(game, [0, 0, 0], [1, 0, 0])
    text = '{"bids": [1.0, 0, 0], "tricks": [1, 0.0, 0], "version": 2.0}'
    assert document_allows(json.loads(text), "RoundChange")
    response = send(client, "PUT", f"{game.url}/rounds/1", text, game)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["rounds"][0]["scores"] == [30, 20, 20]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('{"bids": [0, 1.5, 0]}', "bids"),
        ('{"bids": [0, 0, 0], "tricks": [0.5, 0.5, 0]}', "tricks"),
        ('{"bids": [0, 0, 0], "version": 1.5}', "version"),
        ('{"bids": [0, 0, 1e-1]}', "bids"),
    ],
)
def test_a_fraction_is_refused_with_400(client: FlaskClient, api: Api, text: str, key: str) -> None:
    assert not document_allows(json.loads(text), "NewRound")
    game = api.create()
    with api.unchanged(game):
        response = send(client, "POST", f"{game.url}/rounds", text, game)
        assert error_of(response) == (400, "bad_request")
        message = response.get_json()["error"]["message"]
        assert message.startswith(f"{key} must be") and "whole number" in message


def test_a_fractional_dealer_is_refused_with_400(
    client: FlaskClient, api: Api, circle: Circle
) -> None:
    text = '{"players": ["Ann", "Ben", "Cat"], "first_dealer": 1.5}'
    assert not document_allows(json.loads(text), "NewGame")
    response = send(client, "POST", f"{API}/games", text, circle)
    assert error_of(response) == (400, "bad_request")
    message = response.get_json()["error"]["message"]
    assert message.startswith("first_dealer must be") and "whole number" in message
    assert api.listed(circle)["games"] == []


def test_a_fraction_inside_the_rules_is_refused(
    client: FlaskClient, api: Api, circle: Circle
) -> None:
    # Rule values are checked by the engine (422, bad_rules), naming the rule.
    text = '{"players": ["Ann", "Ben", "Cat"], "rules": {"scoring": {"exact_bonus": 2.5}}}'
    assert not document_allows(json.loads(text), "NewGame")
    response = send(client, "POST", f"{API}/games", text, circle)
    assert error_of(response) == (422, "bad_rules")
    assert "exact_bonus" in response.get_json()["error"]["message"]
    assert api.listed(circle)["games"] == []


def test_the_document_says_how_integers_are_read() -> None:
    assert "`2.0`" in DOC["info"]["description"]
