"""A circle's games, players, statistics and records over the API, for its circle token only.

Without a token, and with any token that is not a circle's current one, every circle
endpoint answers 401 with the same body, so nothing tells whether a circle exists; with
circle A's token nothing of circle B shows, and B's players are 404. Every answer here is
also checked against the OpenAPI document (see ``support.py``).
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text
from werkzeug.datastructures import WWWAuthenticate
from werkzeug.test import TestResponse

from scorekeeper import transaction
from scorekeeper.extensions import db
from scorekeeper.services import circles
from scorekeeper.services.circle_api import MAX_ID
from tests.api.support import API, DOC, Api, Circle, Game, error_of, new_circle

GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}
CIRCLE_READS = [
    f"{API}/games",
    f"{API}/circle",
    f"{API}/circle/players",
    f"{API}/circle/players/1",
    f"{API}/circle/records",
]


def finish(api: Api, game: Game, winner: int) -> dict[str, Any]:
    """Play the game to its end: ``winner`` bids and takes every trick of each round, the
    others bid 0 and take none, so every bid is exact."""
    players = len(game.data["players"])
    body = api.get(game)
    while body["next_round"] is not None:
        cards = body["next_round"]["cards"]
        line = [0] * players
        line[winner] = cards
        body = api.play(game, line, line)
    assert body["finished"] is True
    return body


TABLES = ("circle", "game", "player", "seat", "round", "change", "idempotency_key")


def dump(app: Flask) -> dict[str, list[tuple[Any, ...]]]:
    """Every stored row of the tables a game or circle lives in."""
    with app.app_context():
        return {
            table: sorted(
                (tuple(row) for row in db.session.execute(text(f"SELECT * FROM {table}"))),
                key=repr,
            )
            for table in TABLES
        }


def challenge(response: TestResponse) -> tuple[str, dict[str, str | None]]:
    """The 401's ``WWW-Authenticate``: its scheme and parameters."""
    parsed = WWWAuthenticate.from_header(response.headers["WWW-Authenticate"])
    assert parsed is not None
    return parsed.type, dict(parsed.parameters)


def player_ids(client: FlaskClient, circle: Circle) -> dict[str, int]:
    response = client.get(f"{API}/circle/players", headers=circle.auth)
    assert response.status_code == 200
    return {p["name"]: p["id"] for p in response.get_json()["players"]}


def wrong_tokens(app: Flask, circle: Circle, scorer_token: str) -> list[str]:
    """Tokens that are not a circle's: mistyped, another circle's id, an unknown circle,
    a scorer token, an old token after a new link, and malformed ones."""
    public_id, _dot, key = circle.token.partition(".")
    with app.app_context(), transaction.atomic():
        other = circles.create_circle("Others")
        old = circles.api_token(other)
        circles.new_link(other)
        other_id = other.public_id
    return [
        f"{public_id}.{key[:-1]}{'A' if key[-1] != 'A' else 'B'}",
        f"{other_id}.{key}",
        f"nosuchcircle0000.{key}",
        scorer_token,
        old,
        public_id,
        f"{public_id}.",
        f"{public_id}.{key}.{key}",
        "x" * 5000,
        f"{public_id}.{key}\u00e9",
    ]


# -- the token ------------------------------------------------------------------------------


@pytest.mark.parametrize("url", CIRCLE_READS)
def test_circle_reads_need_the_token(client: FlaskClient, circle: Circle, url: str) -> None:
    for headers in ({}, {"Authorization": "Basic YW5uOmFubg=="}, {"Authorization": "Bearer "}):
        response = client.get(url, headers=headers)
        assert error_of(response) == (401, "unauthorized"), headers
        assert challenge(response) == ("bearer", {"realm": "scorekeeper"})
        assert "circle token" in response.get_json()["error"]["message"]
        assert response.headers["Cache-Control"].endswith("no-store")


@pytest.mark.parametrize("url", CIRCLE_READS)
def test_a_wrong_token_never_says_whether_the_circle_exists(
    app: Flask, client: FlaskClient, api: Api, circle: Circle, url: str
) -> None:
    game = api.create(circle=circle)
    answers = set()
    for token in wrong_tokens(app, circle, game.token):
        response = client.get(url, headers={"Authorization": f"Bearer {token}"})
        assert error_of(response) == (401, "unauthorized"), token
        answers.add((response.get_data(), response.headers["WWW-Authenticate"]))
        assert challenge(response) == (
            "bearer",
            {"realm": "scorekeeper", "error": "invalid_token"},
        )
    # One and the same answer for every wrong token, whether or not its circle exists.
    assert len(answers) == 1
    assert b"not a valid circle token" in answers.pop()[0]


def test_the_token_is_read_as_a_bearer_token_in_any_case(
    client: FlaskClient, circle: Circle
) -> None:
    for scheme in ("Bearer", "bearer", "BEARER"):
        response = client.get(
            f"{API}/circle", headers={"Authorization": f"{scheme} {circle.token}"}
        )
        assert response.status_code == 200, scheme


def test_a_new_circle_link_makes_the_old_token_worthless(
    app: Flask, client: FlaskClient, circle: Circle
) -> None:
    assert client.get(f"{API}/circle", headers=circle.auth).status_code == 200
    public_id = circle.token.partition(".")[0]
    with app.app_context(), transaction.atomic():
        found = circles.get_circle(public_id)
        circles.new_link(found)
        renewed = Circle(circles.api_token(found))
    assert error_of(client.get(f"{API}/circle", headers=circle.auth)) == (401, "unauthorized")
    assert client.get(f"{API}/circle", headers=renewed.auth).status_code == 200


def test_the_token_is_checked_before_the_query(client: FlaskClient) -> None:
    # A bad page number from a stranger says nothing about the list: 401, not 400.
    assert error_of(client.get(f"{API}/games?per_page=0")) == (401, "unauthorized")


def test_refusals_in_german(client: FlaskClient, circle: Circle) -> None:
    response = client.get(f"{API}/games", headers=GERMAN)
    assert response.status_code == 401
    assert response.get_json()["error"]["message"].startswith(
        "Die Spiele und Spieler eines Kreises"
    )
    response = client.get(f"{API}/circle", headers={**GERMAN, "Authorization": "Bearer x.y"})
    assert response.get_json()["error"]["message"].startswith("Das ist kein gültiges Kreis-Token")
    response = client.get(f"{API}/circle/players/{MAX_ID}", headers={**GERMAN, **circle.auth})
    assert (response.status_code, response.get_json()["error"]["message"]) == (
        404,
        "Diesen Spieler gibt es nicht.",
    )


# -- games in circles ---------------------------------------------------------------------


def test_a_game_set_up_with_the_token_is_in_the_circle(
    client: FlaskClient, api: Api, circle: Circle
) -> None:
    first = api.create(["Ann", "Ben", "Cat"], circle=circle)
    second = api.create(["ann", "Ben", "Dan"], circle=circle)
    listed = api.listed(circle)
    assert [g["id"] for g in listed["games"]] == [second.id, first.id]
    # The same names are the same players of the circle (the first spelling stays).
    players = client.get(f"{API}/circle/players", headers=circle.auth).get_json()["players"]
    assert [(p["name"], p["games"]) for p in players] == [
        ("Ann", 2),
        ("Ben", 2),
        ("Cat", 1),
        ("Dan", 1),
    ]
    body = client.get(f"{API}/circle", headers=circle.auth).get_json()
    assert (body["games"], body["players"]) == (2, 4)
    # The game itself reads and is scored as any game: by its id and its scorer token.
    assert api.get(first)["players"] == ["Ann", "Ben", "Cat"]
    api.play(first, [0, 0, 1], [0, 0, 1])
    assert api.listed(circle)["games"][1]["rounds_played"] == 1


def test_a_one_off_game_is_in_no_list(app: Flask, api: Api, circle: Circle) -> None:
    in_circle = api.create(circle=circle)
    one_off = api.create(["Ann", "Ben", "Cat"])
    assert "scorer_token" in one_off.data
    assert api.get(one_off)["players"] == ["Ann", "Ben", "Cat"]  # its view id still opens it
    for someone in (circle, new_circle(app, "Others")):
        ids = [g["id"] for g in api.listed(someone)["games"]]
        assert one_off.id not in ids
    assert [g["id"] for g in api.listed(circle)["games"]] == [in_circle.id]


def test_a_bad_token_sets_up_no_game(app: Flask, client: FlaskClient, api: Api) -> None:
    circle = new_circle(app)
    other = api.create(circle=circle)
    for token in wrong_tokens(app, circle, other.token):
        response = client.post(
            f"{API}/games",
            json={"players": ["Ann", "Ben", "Cat"]},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert error_of(response) == (401, "unauthorized"), token
        assert challenge(response)[1]["error"] == "invalid_token"
    for header in ("Basic YW5uOmFubg==", "Bearer", "Bearer  "):
        response = client.post(
            f"{API}/games",
            json={"players": ["Ann", "Ben", "Cat"]},
            headers={"Authorization": header},
        )
        assert error_of(response) == (401, "unauthorized"), header
    assert api.listed(circle)["total"] == 1
    with app.app_context():
        assert [count for _circle, count in circles.all_circles()] == [1, 0]


def test_the_token_is_checked_before_the_body(client: FlaskClient) -> None:
    response = client.post(
        f"{API}/games", data="{", content_type="application/json", headers={"Authorization": "x"}
    )
    assert error_of(response) == (401, "unauthorized")


def test_circle_a_never_shows_circle_b(app: Flask, client: FlaskClient, api: Api) -> None:
    a, b = new_circle(app, "A"), new_circle(app, "B")
    a_game = finish(api, api.create(["Ann", "Ben", "Cat"], circle=a, round_plan="short"), 0)
    b_game = finish(api, api.create(["Ann", "Dan", "Eve"], circle=b, round_plan="short"), 1)
    b_id = b_game["id"]

    def seen(circle: Circle) -> bytes:
        return b"".join(
            client.get(url, headers=circle.auth).get_data()
            for url in (f"{API}/games", f"{API}/circle", f"{API}/circle/players")
            + (f"{API}/circle/records",)
        )

    a_seen = seen(a)
    assert b_id.encode() not in a_seen and a_game["id"].encode() in a_seen
    for name in (b"Dan", b"Eve"):
        assert name not in a_seen
    assert [g["id"] for g in api.listed(a)["games"]] == [a_game["id"]]
    # Two circles' "Ann" are two people.
    a_ids, b_ids = player_ids(client, a), player_ids(client, b)
    assert set(a_ids) == {"Ann", "Ben", "Cat"} and set(b_ids) == {"Ann", "Dan", "Eve"}
    assert a_ids["Ann"] != b_ids["Ann"]
    for pid in b_ids.values():
        response = client.get(f"{API}/circle/players/{pid}", headers=a.auth)
        assert error_of(response) == (404, "not_found")
        # The same answer as for an id that is nobody's.
        nobody = client.get(f"{API}/circle/players/{MAX_ID}", headers=a.auth)
        assert response.get_data() == nobody.get_data()
    records = client.get(f"{API}/circle/records", headers=a.auth).get_json()
    for kind in ("highest_final", "most_exact", "biggest_comeback"):
        for record in records[kind]:
            assert record["game_id"] == a_game["id"]
            assert record["player_id"] in a_ids.values()
    # B sees its own, the other way round.
    b_ann = client.get(f"{API}/circle/players/{b_ids['Ann']}", headers=b.auth).get_json()
    assert (b_ann["games"], b_ann["wins"]) == (1, 0)
    assert client.get(f"{API}/circle/players/{a_ids['Ann']}", headers=b.auth).status_code == 404


@pytest.mark.parametrize(
    "player_id", ["0", str(MAX_ID), str(MAX_ID + 1), "99999999999999999999", "00001x", "-1"]
)
def test_a_player_id_out_of_range_is_404(
    client: FlaskClient, circle: Circle, player_id: str
) -> None:
    response = client.get(f"{API}/circle/players/{player_id}", headers=circle.auth)
    assert error_of(response) == (404, "not_found")


def test_refused_reads_change_nothing(app: Flask, client: FlaskClient, api: Api) -> None:
    circle = new_circle(app)
    game = api.create(circle=circle)
    before = client.get(f"{API}/games", headers=circle.auth).get_data()
    stored = dump(app)
    for url in CIRCLE_READS:
        client.get(url)
        client.get(url, headers={"Authorization": "Bearer nope.nope"})
    client.post(f"{API}/games", json={"players": ["X", "Y", "Z"]}, headers={"Authorization": "x"})
    assert dump(app) == stored
    assert client.get(f"{API}/games", headers=circle.auth).get_data() == before
    assert api.get(game)["version"] == 1


# -- what the token opens ------------------------------------------------------------------


def test_the_circle(app: Flask, client: FlaskClient, api: Api) -> None:
    circle = new_circle(app, "  Thursday   Wizards ")
    api.create(circle=circle)
    response = client.get(f"{API}/circle", headers=circle.auth)
    body = response.get_json()
    assert body["id"] == circle.token.partition(".")[0]
    assert body["name"] == "Thursday Wizards"
    assert (body["games"], body["players"]) == (1, 3)
    assert body["links"] == {
        "self": f"{API}/circle",
        "games": f"{API}/games",
        "players": f"{API}/circle/players",
        "records": f"{API}/circle/records",
    }
    for link in body["links"].values():
        assert client.get(link, headers=circle.auth).status_code == 200
    assert circle.token not in response.get_data(as_text=True)


def test_an_empty_circle(client: FlaskClient, circle: Circle) -> None:
    body = client.get(f"{API}/circle", headers=circle.auth).get_json()
    assert (body["games"], body["players"]) == (0, 0)
    assert client.get(f"{API}/circle/players", headers=circle.auth).get_json() == {"players": []}
    assert client.get(f"{API}/circle/records", headers=circle.auth).get_json() == {
        "highest_final": [],
        "most_exact": [],
        "biggest_comeback": [],
    }


def test_a_players_statistics(client: FlaskClient, api: Api, circle: Circle) -> None:
    game = api.create(["Ann", "Ben", "Cat"], circle=circle, round_plan="short")
    plan = game.data["round_plan"]
    body = finish(api, game, 0)
    ids = player_ids(client, circle)
    players = client.get(f"{API}/circle/players", headers=circle.auth).get_json()["players"]
    rating = players[0].pop("rating")
    assert players[0] == {
        "id": ids["Ann"],
        "name": "Ann",
        "games": 1,
        "wins": 1,
        "exact_rate": 1.0,
        "links": {"self": f"{API}/circle/players/{ids['Ann']}"},
    }
    # One game won of one: a provisional rating, above where everyone starts (1000).
    assert rating["games"] == 1 and rating["provisional"] is True
    assert rating["mu"] > 25 and rating["sigma"] < 25 / 3
    assert rating["value"] == round(1000 + 25 * (rating["mu"] - 3 * rating["sigma"]))
    ann = client.get(players[0]["links"]["self"], headers=circle.auth).get_json()
    total = body["totals"][0]
    assert total == sum(20 + 10 * cards for cards in plan)
    assert ann["id"] == ids["Ann"] and ann["name"] == "Ann"
    assert (ann["games"], ann["finished"], ann["wins"], ann["win_rate"]) == (1, 1, 1, 1.0)
    assert (ann["rounds"], ann["bid_rounds"], ann["exact"], ann["exact_rate"]) == (
        len(plan),
        len(plan),
        len(plan),
        1.0,
    )
    assert (ann["points"], ann["average_final"]) == (total, total)
    assert ann["average_round_score"] == total / len(plan)
    assert (ann["overs"], ann["unders"], ann["best_streak"]) == (0, 0, len(plan))
    best = {"id": game.id, "created_at": body["created_at"], "total": total}
    assert ann["best_game"] == {**best, "links": {"self": game.url}}
    assert ann["worst_game"] == ann["best_game"]
    assert [c["cards"] for c in ann["by_cards"]] == sorted(set(plan))
    assert all(c["exact_rate"] == 1.0 for c in ann["by_cards"])
    assert [(h["name"], h["games"], h["ahead"], h["behind"]) for h in ann["head_to_head"]] == [
        ("Ben", 1, 1, 0),
        ("Cat", 1, 1, 0),
    ]
    assert ann["head_to_head"][0]["links"]["self"] == f"{API}/circle/players/{ids['Ben']}"
    assert ann["links"] == {
        "self": f"{API}/circle/players/{ids['Ann']}",
        "players": f"{API}/circle/players",
    }


def test_a_player_without_games_yet(client: FlaskClient, api: Api, circle: Circle) -> None:
    api.create(["Ann", "Ben", "Cat"], circle=circle)
    ann = client.get(
        f"{API}/circle/players/{player_ids(client, circle)['Ann']}", headers=circle.auth
    ).get_json()
    assert (ann["games"], ann["finished"], ann["wins"]) == (1, 0, 0)
    assert ann["win_rate"] is ann["average_final"] is ann["exact_rate"] is None
    assert ann["best_game"] is ann["worst_game"] is None


def test_the_records(client: FlaskClient, api: Api, circle: Circle) -> None:
    game = api.create(["Ann", "Ben", "Cat"], circle=circle, round_plan="short")
    body = finish(api, game, 2)
    records = client.get(f"{API}/circle/records", headers=circle.auth).get_json()
    ids = player_ids(client, circle)
    top = records["highest_final"][0]
    assert top == {
        "player_id": ids["Cat"],
        "name": "Cat",
        "game_id": game.id,
        "created_at": body["created_at"],
        "value": body["totals"][2],
        "links": {"player": f"{API}/circle/players/{ids['Cat']}", "game": game.url},
    }
    assert [r["value"] for r in records["highest_final"]] == sorted(body["totals"], reverse=True)
    assert len(records["most_exact"]) == 3
    assert records["biggest_comeback"] == []  # Cat led from the first round


# -- the document ---------------------------------------------------------------------------


def test_the_document_describes_the_circle_token() -> None:
    schemes = DOC["components"]["securitySchemes"]
    assert schemes["circleToken"]["type"] == "http"
    assert schemes["circleToken"]["scheme"] == "bearer"
    circle_ops = {
        ("/api/v1/games", "get"),
        ("/api/v1/circle", "get"),
        ("/api/v1/circle/players", "get"),
        ("/api/v1/circle/players/{player_id}", "get"),
        ("/api/v1/circle/records", "get"),
    }
    for path, method in circle_ops:
        op = DOC["paths"][path][method]
        assert op["security"] == [{"circleToken": []}], path
        assert op["responses"]["401"] == {"$ref": "#/components/responses/CircleUnauthorized"}
    assert DOC["paths"]["/api/v1/circle/players/{player_id}"]["get"]["responses"]["404"]
    create = DOC["paths"]["/api/v1/games"]["post"]
    assert create["security"] == [{}, {"circleToken": []}]  # the token is optional
    assert "401" in create["responses"]
    # Reading a game needs no token: its id is the view link.
    assert "security" not in DOC["paths"]["/api/v1/games/{game_id}"]["get"]
    unauthorized = DOC["components"]["responses"]["CircleUnauthorized"]
    assert "WWW-Authenticate" in unauthorized["headers"]
