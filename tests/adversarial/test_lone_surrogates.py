"""Half a character pair (a lone UTF-16 surrogate, ``\\ud800`` in JSON) is refused
wherever JSON comes in, saying so, and nothing is stored.

Python's ``json`` reads such an escape into a string that no UTF-8 page, file or database
column can hold. Before, an API adjustment with one in its reason was a 500, and an
imported file with one in a reason or a change's facts stored a game whose page, pad,
exports and the circle's backup then failed for good (the import's cases are in
test_import_identities.py).
"""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from scorekeeper.engine import Adjustment, InvalidRound, check_adjustment
from tests.api.support import Api, error_of

LONE = "\\ud800"  # as it stands in the JSON text
PAIR = "\\ud83c\\udccf"  # a whole character written as a pair: 🃏


@pytest.fixture
def api(client: FlaskClient) -> Api:
    return Api(client)


@pytest.mark.parametrize("key", [None, "0123456789abcdef0123"])
def test_an_api_adjustment_with_a_lone_surrogate_is_a_400(
    client: FlaskClient, api: Api, key: str | None
) -> None:
    game = api.create()
    played = {"bids": [0, 0, 0], "tricks": [1, 0, 0]}
    assert client.post(f"{game.url}/rounds", json=played, headers=game.auth).status_code == 201
    body = '{"seat": 0, "points": 5, "reason": "x' + LONE + 'y"}'
    headers = {**game.auth, **({"Idempotency-Key": key} if key else {})}
    with api.unchanged(game):
        answer = client.post(
            f"{game.url}/rounds/1/adjustments",
            data=body,
            content_type="application/json",
            headers=headers,
        )
        assert error_of(answer) == (400, "bad_request")
        assert "half of a character" in answer.get_json()["error"]["message"]


def test_a_name_written_as_a_pair_is_one_character(client: FlaskClient) -> None:
    body = '{"players": ["Ann", "Ben", "' + PAIR + 'Cat"]}'
    answer = client.post("/api/v1/games", data=body, content_type="application/json")
    assert answer.status_code == 201
    assert answer.get_json()["players"][2] == "\N{PLAYING CARD BLACK JOKER}Cat"
    lone = '{"players": ["Ann", "Ben", "' + LONE + 'Cat"]}'
    refused = client.post("/api/v1/games", data=lone, content_type="application/json")
    assert error_of(refused) == (400, "bad_request")


def test_the_engine_refuses_a_reason_with_a_lone_surrogate() -> None:
    with pytest.raises(InvalidRound) as refused:
        check_adjustment(Adjustment(0, 5, "x\ud800y"), 3)
    assert refused.value.code == "adjustment_reason_characters"
    assert check_adjustment(Adjustment(0, 5, "\N{PLAYING CARD BLACK JOKER}"), 3).reason


def test_a_lone_surrogate_as_raw_bytes_or_in_utf16_is_a_400(client: FlaskClient) -> None:
    # Parsed as bytes, json reads UTF-16 and the UTF-8 bytes of a surrogate without a word.
    utf8_bytes = b'{"players": ["Ann", "Ben", "\xed\xa0\x80Cat"]}'
    utf16 = '{"players": ["Ann", "Ben", "Cat"]}'.encode("utf-16")
    for body in (utf8_bytes, utf16):
        answer = client.post("/api/v1/games", data=body, content_type="application/json")
        assert error_of(answer) == (400, "bad_request")
        assert "it is not UTF-8 text" in answer.get_json()["error"]["message"]
