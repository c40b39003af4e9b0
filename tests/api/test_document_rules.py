"""The OpenAPI document is generated from the API's models and states the rules the server
keeps: a request the document allows is not refused for its shape, and one it refuses is
refused by the server too (4xx, nothing stored)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator, FormatChecker
from openapi_spec_validator import validate as validate_spec

from scorekeeper.api import openapi, schemas
from scorekeeper.models import NAME_MAX
from tests.api.support import API, DOC, Api, Circle, error_of


def test_the_served_document_is_the_generated_one(client: FlaskClient) -> None:
    served = client.get(f"{API}/openapi.json", headers={"Accept-Encoding": "identity"})
    assert served.status_code == 200
    fresh = openapi.document.__wrapped__()  # built anew, not the cached one
    assert json.loads(served.get_data()) == fresh == DOC
    validate_spec(fresh)
    assert fresh["openapi"] == "3.1.0"


def test_each_body_schema_is_its_models() -> None:
    components = DOC["components"]["schemas"]
    for model in (*schemas.REQUESTS, *schemas.ANSWERS):
        assert list(components[model.__name__]["properties"]) == list(model.model_fields)
        assert components[model.__name__]["additionalProperties"] is False
    assert components["NewRound"]["required"] == ["bids"]
    assert components["RoundChange"]["required"] == []


FORMATS = FormatChecker()
FORMATS.checks(schemas.LINE_FORMAT)(schemas.is_text_line)


def _valid(value: object, schema: dict[str, Any]) -> bool:
    root = {**schema, "components": DOC["components"]}
    return Draft202012Validator(root, format_checker=FORMATS).is_valid(value)


def _parameter(name: str) -> dict[str, Any]:
    parameter: dict[str, Any] = DOC["components"]["parameters"][name]
    return parameter


@pytest.mark.parametrize(
    "value",
    ['"7"', "W/\"7\"", "7", "*", ' "7" ', '"' + "9" * 18 + '"', "9" * 19, '""7""', "seven",
     "7, 8", '"-7"'],
)  # fmt: skip
def test_if_match_is_refused_exactly_when_the_document_refuses_it(
    api: Api, client: FlaskClient, value: str
) -> None:
    game = api.create()
    allowed = _valid(value, _parameter("If-Match")["schema"])
    response = client.delete(f"{game.url}/rounds/1", headers={**game.auth, "If-Match": value})
    # Allowed: read as a version (409 when it is not the game's, else on to the round: 404).
    assert (response.status_code == 400) is not allowed, (value, response.get_json())


@pytest.mark.parametrize("length", [15, 16, 64])
def test_a_new_games_key_has_16_characters_with_a_circle_token_too(
    client: FlaskClient, circle: Circle, length: int
) -> None:
    key = "k" * length
    allowed = _valid(key, _parameter("NewGameKey")["schema"])
    assert allowed is (length >= 16)
    response = client.post(
        f"{API}/games",
        json={"players": ["Ann", "Ben", "Cat"]},
        headers={**circle.auth, "Idempotency-Key": key},
    )
    assert response.status_code == (201 if allowed else 400), response.get_json()
    listed = client.get(f"{API}/games", headers=circle.auth).get_json()
    assert listed["total"] == (1 if allowed else 0)  # a refusal stores nothing


NEW_GAME = {"$ref": "#/components/schemas/NewGame"}


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"players": ["Ann", "Ben", "a" + " " * NAME_MAX + "b"]}, "bad_name"),  # as sent
        ({"players": ["Ann", "Ben", " \t "]}, "bad_name"),
        ({"players": ["Ann", "Ben", ""]}, "bad_name"),
        ({"players": ["Ann", "Ben", "Cat\u200b"]}, "bad_name"),
        ({"players": ["Ann", "Ben", "Cat\x07"]}, "bad_name"),
        ({"players": ["Ann", "Ben"]}, "bad_players"),
        ({"players": ["Ann", "Ann", "Ben"]}, "bad_players"),
        ({"players": ["Ann", "Ben", "Cat"], "first_dealer": 3}, "bad_dealer"),
        ({"players": ["Ann", "Ben", "Cat", "Dan", "Eve"], "rules": {"round_plan": "unicoloured"}},
         "bad_players"),
        ({"players": ["Ann", "Ben", "Cat"], "rules": {"dealer_rule_from_round": 21}}, "bad_rules"),
    ],
)  # fmt: skip
def test_what_the_document_refuses_in_a_new_game_the_server_refuses(
    client: FlaskClient, body: dict[str, Any], code: str
) -> None:
    """V9 (unicoloured for 3 or 4), R3 (3 to 6 players)."""
    assert not _valid(body, NEW_GAME)
    response = client.post(f"{API}/games", json=body)
    assert error_of(response) == (422, code)


def test_a_new_game_at_the_documents_bounds_is_set_up(client: FlaskClient) -> None:
    for body in (
        {"players": ["A", "B", "x" * NAME_MAX], "first_dealer": 2},
        {"players": list("ABCDEF"), "first_dealer": 5},
        {"players": list("ABCD"), "rules": {"round_plan": "unicoloured"}},
        {"players": ["Ann", " Ben ", "Céline\x85"]},  # white space, folded
    ):
        assert _valid(body, NEW_GAME), body
        assert client.post(f"{API}/games", json=body).status_code == 201, body


@pytest.mark.parametrize(
    "body",
    [{"bids": []}, {"bids": [0, 0]}, {"bids": [0, 0, 0, 0, 0, 0, 0]}, {"bids": [0, 0, 21]},
     {"bids": [0, 0, -1]}, {"bids": [0, 0, 0], "tricks": [0, 0]}],
)  # fmt: skip
def test_what_the_document_refuses_in_a_round_the_server_refuses(
    api: Api, client: FlaskClient, body: dict[str, Any]
) -> None:
    game = api.create()
    assert not _valid(body, {"$ref": "#/components/schemas/NewRound"})
    with api.unchanged(game):
        response = client.post(f"{game.url}/rounds", json=body, headers=game.auth)
        assert 400 <= response.status_code < 500, response.get_json()


@pytest.mark.parametrize(
    "body",
    [{"seat": 0, "points": 0}, {"seat": 0, "points": 501}, {"seat": 6, "points": 5},
     {"seat": 0, "points": 5, "reason": "x" * 61}, {"seat": 0, "points": 5, "reason": "a\x07b"},
     {"seat": 0, "points": 5, "reason": "a\u202eb"}],
)  # fmt: skip
def test_what_the_document_refuses_in_an_adjustment_the_server_refuses(
    api: Api, client: FlaskClient, body: dict[str, Any]
) -> None:
    game = api.create()
    api.play(game, [0, 0, 0], [1, 0, 0])
    assert not _valid(body, {"$ref": "#/components/schemas/NewAdjustment"})
    with api.unchanged(game):
        response = client.post(f"{game.url}/rounds/1/adjustments", json=body, headers=game.auth)
        assert response.status_code == 422, response.get_json()


def test_the_control_pattern_is_within_the_text_line_format() -> None:
    """The pattern the document gives beside its ``text-line`` format: a C0 or C1 control
    character that is not white space (which is folded) is refused by both."""
    pattern = re.compile(schemas._NO_CONTROL["pattern"])
    for code in [*range(0x20), *range(0x7F, 0xA0)]:
        char = chr(code)
        assert bool(pattern.search(char)) is not schemas.is_text_line(f"a{char}b"), hex(code)
    assert schemas.is_text_line("Ann Ben é ß 漢\t")
    assert not schemas.is_text_line("Ann\u200bBen")
