"""Idempotency-Key on the API's writes: a retry gets the first answer and writes once."""

from __future__ import annotations

from datetime import timedelta

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper import transaction
from scorekeeper.extensions import db
from scorekeeper.idempotency import REPLAYED
from scorekeeper.models import Game as GameRow
from scorekeeper.models import IdempotencyKey
from tests.api.support import API, Api, Game, error_of


def key(value: str, game: Game | None = None) -> dict[str, str]:
    return {**(game.auth if game else {}), "Idempotency-Key": value}


def test_a_retried_round_is_recorded_once(api: Api, client: FlaskClient) -> None:
    game = api.create()
    body = {"bids": [0, 1, 1], "tricks": [0, 0, 1]}
    first = client.post(f"{game.url}/rounds", json=body, headers=key("r1", game))
    assert first.status_code == 201
    again = client.post(f"{game.url}/rounds", json=body, headers=key("r1", game))
    assert again.status_code == 201
    assert again.headers[REPLAYED] == "true"
    assert again.get_data() == first.get_data()
    assert again.headers["Location"] == first.headers["Location"]
    assert again.headers["ETag"] == first.headers["ETag"]
    assert len(api.get(game)["rounds"]) == 1


def test_the_same_key_for_another_request_is_refused(api: Api, client: FlaskClient) -> None:
    game = api.create()
    ok = client.post(f"{game.url}/rounds", json={"bids": [0, 1, 1]}, headers=key("k", game))
    assert ok.status_code == 201
    with api.unchanged(game):
        other = client.put(
            f"{game.url}/rounds/1", json={"tricks": [0, 0, 1]}, headers=key("k", game)
        )
        assert error_of(other) == (422, "idempotency_key_reused")
        other = client.post(f"{game.url}/rounds", json={"bids": [1, 1, 1]}, headers=key("k", game))
        assert error_of(other) == (422, "idempotency_key_reused")


def test_a_refused_request_keeps_no_key(api: Api, client: FlaskClient) -> None:
    game = api.create()
    with api.unchanged(game):
        bad = client.post(
            f"{game.url}/rounds",
            json={"bids": [0, 1, 1], "tricks": [1, 1, 1]},
            headers=key("k", game),
        )
        assert bad.status_code == 422
    fixed = client.post(
        f"{game.url}/rounds", json={"bids": [0, 1, 1], "tricks": [0, 0, 1]}, headers=key("k", game)
    )
    assert fixed.status_code == 201


def test_a_retried_delete_answers_as_the_first(api: Api, client: FlaskClient) -> None:
    game = api.create()
    api.play(game, [0, 1, 1], [0, 0, 1])
    api.play(game, [0, 1, 1], [0, 1, 1])
    first = client.delete(f"{game.url}/rounds/2", headers=key("d", game))
    assert first.status_code == 200
    again = client.delete(f"{game.url}/rounds/2", headers=key("d", game))
    assert again.status_code == 200 and again.get_data() == first.get_data()
    assert len(api.get(game)["rounds"]) == 1
    # Without the key the retry would have been refused: round 2 is gone.
    assert client.delete(f"{game.url}/rounds/2", headers=game.auth).status_code == 404


def test_a_retried_put_with_if_match(api: Api, client: FlaskClient) -> None:
    game = api.create()
    api.add(game, [0, 1, 1])
    etag = client.get(game.url).headers["ETag"]
    headers = {**key("p", game), "If-Match": etag}
    first = client.put(f"{game.url}/rounds/1", json={"tricks": [0, 0, 1]}, headers=headers)
    assert first.status_code == 200
    again = client.put(f"{game.url}/rounds/1", json={"tricks": [0, 0, 1]}, headers=headers)
    assert again.status_code == 200 and again.get_data() == first.get_data()
    changed = api.get(game)
    assert changed["version"] == first.get_json()["version"]


def test_a_retried_new_game_is_made_once(app: Flask, client: FlaskClient) -> None:
    body = {"players": ["Ann", "Ben", "Cat"]}
    # Without a token the key is the client's secret: a random one.
    headers = {"Idempotency-Key": "0b6f3c1e-5a7d-4e8b-9c2f-7d1a4e6b8c30"}
    first = client.post(f"{API}/games", json=body, headers=headers)
    again = client.post(f"{API}/games", json=body, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.get_json()["id"] == first.get_json()["id"]
    assert again.get_json()["scorer_token"] == first.get_json()["scorer_token"]
    with app.app_context():  # a one-off game is in no list: count the stored games
        assert db.session.scalar(select(func.count()).select_from(GameRow)) == 1


def test_a_key_on_another_game_is_another_key(api: Api, client: FlaskClient) -> None:
    one, two = api.create(), api.create()
    for game in (one, two):
        response = client.post(
            f"{game.url}/rounds", json={"bids": [0, 1, 1]}, headers=key("k", game)
        )
        assert response.status_code == 201
        assert REPLAYED not in response.headers


def test_only_the_scorer_gets_a_kept_answer(api: Api, client: FlaskClient) -> None:
    game, other = api.create(), api.create()
    body = {"bids": [0, 1, 1]}
    assert client.post(f"{game.url}/rounds", json=body, headers=key("k", game)).status_code == 201
    stranger = {"Authorization": f"Bearer {other.token}", "Idempotency-Key": "k"}
    assert error_of(client.post(f"{game.url}/rounds", json=body, headers=stranger)) == (
        403,
        "forbidden",
    )


def test_a_malformed_key_is_a_bad_request(api: Api, client: FlaskClient) -> None:
    game = api.create()
    with api.unchanged(game):
        response = client.post(
            f"{game.url}/rounds", json={"bids": [0, 1, 1]}, headers=key("é" * 3, game)
        )
        assert error_of(response) == (400, "bad_request")


def test_two_clients_record_the_same_round(api: Api, client: FlaskClient) -> None:
    game = api.create()
    version = api.get(game)["version"]
    body = {"bids": [0, 1, 1], "tricks": [0, 0, 1], "version": version}
    assert client.post(f"{game.url}/rounds", json=body, headers=key("a", game)).status_code == 201
    late = client.post(
        f"{game.url}/rounds",
        json={**body, "bids": [1, 1, 1], "tricks": [1, 0, 0]},
        headers=key("b", game),
    )
    assert error_of(late) == (409, "conflict")
    assert late.get_json()["game"]["rounds"][0]["bids"] == [0, 1, 1]
    assert len(api.get(game)["rounds"]) == 1


def test_keys_expire_after_a_day(app: Flask, api: Api, client: FlaskClient) -> None:
    from scorekeeper.models import utcnow
    from scorekeeper.services import idempotency

    game = api.create()
    api.add(game, [0, 1, 1])
    put = {"tricks": [0, 0, 1]}
    assert client.put(f"{game.url}/rounds/1", json=put, headers=key("old", game)).status_code == 200
    with app.app_context():
        # Stored under keyed hashes of the client and the key (see test_stored_secrets).
        scope, stored = db.session.execute(select(IdempotencyKey.scope, IdempotencyKey.key)).one()
        assert scope.startswith(f"api:{game.id}/")
        later = utcnow() + timedelta(hours=25)
        assert idempotency.find(scope, stored) is not None
        # A day on, the key is a new one, and the old row is gone as it is looked up.
        assert idempotency.find(scope, stored, now=later) is None
        db.session.commit()
        assert db.session.scalar(select(func.count()).select_from(IdempotencyKey)) == 0
    put = {"tricks": [0, 1, 0]}
    assert client.put(f"{game.url}/rounds/1", json=put, headers=key("new", game)).status_code == 200
    with app.app_context(), transaction.atomic():
        # A periodic job sweeps every expired key.
        assert idempotency.expire(now=utcnow() + timedelta(hours=25)) == 1
        assert db.session.scalar(select(func.count()).select_from(IdempotencyKey)) == 0
