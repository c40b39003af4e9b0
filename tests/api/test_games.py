"""Setting up, reading and listing games through the API."""

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper.engine import RuleSet
from tests.api.support import API, Api, Circle, error_of


def test_create_game(client: FlaskClient) -> None:
    response = client.post(
        f"{API}/games",
        json={"players": ["Ann", "Ben", "Cat"], "first_dealer": 2, "rules": {"bidding": "hidden"}},
    )
    assert response.status_code == 201
    body = response.get_json()
    assert response.headers["Location"] == f"{API}/games/{body['id']}"
    assert response.headers["ETag"] == '"1"'
    assert "no-store" in response.headers["Cache-Control"].split(", ")
    assert len(body["scorer_token"]) >= 32
    assert len(body["id"]) >= 20
    assert body["players"] == ["Ann", "Ben", "Cat"]
    assert body["first_dealer"] == 2
    assert body["rules"] == {**RuleSet().to_dict(), "bidding": "hidden"}
    assert body["round_plan"] == list(range(1, 21))
    assert body["rounds"] == []
    assert body["totals"] == [0, 0, 0]
    assert body["finished"] is False
    assert body["winners"] == []
    assert body["version"] == 1
    assert body["next_round"] == {
        "number": 1,
        "cards": 1,
        "dealer": 2,
        "bidding_order": [0, 1, 2],
        "leader": 0,
        "open": False,
    }
    assert body["links"]["self"] == f"{API}/games/{body['id']}"


def test_links_to_the_pages(client: FlaskClient) -> None:
    body = client.post(f"{API}/games", json={"players": ["Ann", "Ben", "Cat"]}).get_json()
    game_id, token = body["id"], body["scorer_token"]
    assert body["links"] == {
        "self": f"{API}/games/{game_id}",
        "view": f"http://localhost/games/{game_id}",
        "scorer": f"http://localhost/games/{game_id}/score/{token}",
    }
    page = client.get(body["links"]["view"])
    assert page.status_code == 200
    assert "Ann" in page.get_data(as_text=True)
    again = client.get(body["links"]["self"]).get_json()
    assert again["links"] == {"self": body["links"]["self"], "view": body["links"]["view"]}


def test_created_game_reads_back_without_the_token(client: FlaskClient, api: Api) -> None:
    game = api.create(["Ann", "Ben", "Cat", "Dan"], 1, round_plan="short")
    body = api.get(game)
    assert "scorer_token" not in body
    assert game.token.encode() not in client.get(game.url).get_data()
    assert body["round_plan"] == [1, 3, 5, 7, 9, 11, 12, 13, 14, 15]
    created = {k: v for k, v in game.data.items() if k not in ("scorer_token", "links")}
    assert {k: v for k, v in body.items() if k != "links"} == created


def test_defaults(client: FlaskClient) -> None:
    response = client.post(f"{API}/games", json={"players": ["Ann", "Ben", "Cat"]})
    assert response.status_code == 201
    body = response.get_json()
    assert body["first_dealer"] == 0
    assert body["rules"] == RuleSet().to_dict()


def test_every_rule_key(client: FlaskClient) -> None:
    rules = {
        "dealer_rule": "canadian",
        "dealer_rule_from_round": 3,
        "no_full_bid": True,
        "bidding": "open",
        "saboteur": True,
        "foresight": True,
        "round_plan": "unicoloured",
        "tie_break": "bid_total",
        "scoring": {"exact_bonus": 30, "per_trick": 5, "per_miss": 15},
        "suit_names": "french",
    }
    response = client.post(f"{API}/games", json={"players": ["A", "B", "C", "D"], "rules": rules})
    assert response.status_code == 201
    assert response.get_json()["rules"] == rules
    assert response.get_json()["round_plan"] == list(range(4, 16))


def test_players_are_cleaned(client: FlaskClient) -> None:
    response = client.post(f"{API}/games", json={"players": ["  Ann  Lee ", "Ben", "Cat"]})
    assert response.get_json()["players"] == ["Ann Lee", "Ben", "Cat"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"players": ["Ann", "Ben"]}, "bad_players"),
        ({"players": ["A", "B", "C", "D", "E", "F", "G"]}, "bad_players"),
        ({"players": ["Ann", "Ben", "ann"]}, "bad_players"),
        ({"players": ["Ann", "Ben", "  "]}, "bad_name"),
        ({"players": ["Ann", "Ben", "x" * 41]}, "bad_name"),
        ({"players": ["Ann", "Ben", "Cat"], "first_dealer": 3}, "bad_dealer"),
        ({"players": ["Ann", "Ben", "Cat"], "first_dealer": -1}, "bad_dealer"),
        ({"players": ["Ann", "Ben", "Cat"], "rules": {"bidding": "loud"}}, "bad_rules"),
        ({"players": ["Ann", "Ben", "Cat"], "rules": {"colour": True}}, "bad_rules"),
        ({"players": ["Ann", "Ben", "Cat"], "rules": {"saboteur": "yes"}}, "bad_rules"),
        ({"players": ["Ann", "Ben", "Cat"], "rules": {"dealer_rule_from_round": 0}}, "bad_rules"),
        ({"players": ["Ann", "Ben", "Cat"], "rules": {"scoring": {"per_trick": -1}}}, "bad_rules"),
        ({"players": ["Ann", "Ben", "Cat"], "rules": {"scoring": {"bonus": 1}}}, "bad_rules"),
        (
            {"players": ["A", "B", "C", "D", "E"], "rules": {"round_plan": "unicoloured"}},
            "bad_players",
        ),
    ],
)
def test_rules_broken_when_setting_up_are_422(
    client: FlaskClient, api: Api, circle: Circle, body: dict[str, Any], code: str
) -> None:
    response = client.post(f"{API}/games", json=body, headers=circle.auth)
    assert error_of(response) == (422, code)
    assert response.get_json()["error"]["message"]
    assert api.listed(circle)["total"] == 0


@pytest.mark.parametrize(
    "body",
    [
        {"players": "Ann, Ben, Cat"},
        {"players": ["Ann", "Ben", 3]},
        {"players": ["Ann", "Ben", "Cat"], "first_dealer": "0"},
        {"players": ["Ann", "Ben", "Cat"], "first_dealer": 1.5},  # 1.0 is 1 (test_whole_numbers)
        {"players": ["Ann", "Ben", "Cat"], "first_dealer": True},
        {"players": ["Ann", "Ben", "Cat"], "rules": ["short"]},
        {"players": ["Ann", "Ben", "Cat"], "rules": None},
        {"players": ["Ann", "Ben", "Cat"], "dealer": 0},
        {"first_dealer": 0},
        ["Ann", "Ben", "Cat"],
        "Ann",
        None,
    ],
)
def test_wrong_shape_is_400(client: FlaskClient, api: Api, circle: Circle, body: object) -> None:
    response = client.post(
        f"{API}/games", data=json.dumps(body), content_type="application/json", headers=circle.auth
    )
    assert error_of(response) == (400, "bad_request")
    assert api.listed(circle)["total"] == 0


@pytest.mark.parametrize(
    "data",
    ['{"players": ["Ann", "Ben", "Cat"]', '{"players": NaN}', "", b"\xff\xfe{"],
)
def test_malformed_json_is_400(client: FlaskClient, data: str | bytes) -> None:
    response = client.post(f"{API}/games", data=data, content_type="application/json")
    assert error_of(response) == (400, "bad_request")


@pytest.mark.parametrize(
    ("data", "content_type"),
    [
        ("players=Ann&players=Ben&players=Cat", "application/x-www-form-urlencoded"),
        ('{"players": ["Ann", "Ben", "Cat"]}', "text/plain"),
        ('{"players": ["Ann", "Ben", "Cat"]}', None),
    ],
)
def test_body_not_sent_as_json_is_415(
    client: FlaskClient, data: str, content_type: str | None
) -> None:
    response = client.post(f"{API}/games", data=data, content_type=content_type)
    assert error_of(response) == (415, "unsupported_media_type")


def test_json_with_charset_is_fine(client: FlaskClient) -> None:
    response = client.post(
        f"{API}/games",
        data='{"players": ["Ann", "Ben", "Cat"]}',
        content_type="application/json; charset=utf-8",
    )
    assert response.status_code == 201


def test_unknown_game_is_404(client: FlaskClient) -> None:
    response = client.get(f"{API}/games/no-such-game")
    assert error_of(response) == (404, "not_found")
    assert response.get_json()["error"]["message"] == "There is no game at this address."


def test_get_game_sends_its_version_as_etag(client: FlaskClient, api: Api) -> None:
    game = api.create()
    response = client.get(game.url)
    assert response.headers["ETag"] == '"1"'
    api.play(game, [0, 0, 1], [0, 0, 1])
    assert client.get(game.url).headers["ETag"] == '"2"'
    assert api.get(game)["version"] == 2


def test_head_of_a_game(client: FlaskClient, api: Api) -> None:
    game = api.create()
    response = client.head(game.url)
    assert response.status_code == 200
    assert response.get_data() == b""


# -- the list of games ----------------------------------------------------------------------


def test_empty_list(api: Api, circle: Circle) -> None:
    body = api.listed(circle)
    assert body == {
        "games": [],
        "page": 1,
        "per_page": 20,
        "total": 0,
        "pages": 1,
        "links": {
            "self": f"{API}/games?page=1&per_page=20",
            "first": f"{API}/games?page=1&per_page=20",
            "last": f"{API}/games?page=1&per_page=20",
            "next": None,
            "prev": None,
        },
    }


def test_list_is_newest_first_and_paged(client: FlaskClient, api: Api, circle: Circle) -> None:
    games = [api.create([f"P{i}", "Ben", "Cat"], circle=circle) for i in range(5)]
    api.play(games[0], [0, 0, 1], [0, 0, 1])
    newest_first = [g.id for g in reversed(games)]

    first = api.listed(circle, "?per_page=2")
    assert [g["id"] for g in first["games"]] == newest_first[:2]
    assert (first["page"], first["per_page"], first["total"], first["pages"]) == (1, 2, 5, 3)
    assert first["links"]["prev"] is None
    assert first["links"]["next"] == f"{API}/games?page=2&per_page=2"
    assert first["links"]["last"] == f"{API}/games?page=3&per_page=2"

    second = client.get(first["links"]["next"], headers=circle.auth).get_json()
    assert [g["id"] for g in second["games"]] == newest_first[2:4]
    assert second["links"]["prev"] == f"{API}/games?page=1&per_page=2"

    last = client.get(second["links"]["next"], headers=circle.auth).get_json()
    assert [g["id"] for g in last["games"]] == newest_first[4:]
    assert last["links"]["next"] is None
    oldest = last["games"][0]
    assert oldest["players"] == ["P0", "Ben", "Cat"]
    assert oldest["rounds_played"] == 1
    assert oldest["rounds_in_plan"] == 20
    assert oldest["totals"] == [20, 20, 30]
    assert oldest["finished"] is False
    assert oldest["winners"] == []
    assert oldest["links"]["self"] == games[0].url
    assert "scorer_token" not in str(last)

    beyond = api.listed(circle, "?page=9&per_page=2")
    assert beyond["games"] == []
    assert beyond["links"]["prev"] == f"{API}/games?page=3&per_page=2"
    assert beyond["links"]["next"] is None


def test_per_page_bounds(client: FlaskClient, api: Api, circle: Circle) -> None:
    api.create(circle=circle)
    assert api.listed(circle, "?per_page=100")["total"] == 1
    for query in (
        "per_page=0",
        "per_page=101",
        "per_page=x",
        "page=0",
        "page=-1",
        "page=1.5",
        "page=9999999999",
    ):
        response = client.get(f"{API}/games?{query}", headers=circle.auth)
        assert error_of(response) == (400, "bad_request"), query
