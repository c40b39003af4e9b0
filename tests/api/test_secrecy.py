"""Hidden (V3) and secret (V4) bids never show in an API answer before their time."""

import re

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper import transaction
from scorekeeper.services import games as game_service
from tests.api.support import API, Api, Circle, Game, error_of


def _answers(client: FlaskClient, api: Api, game: Game, bids: list[int]) -> list[bytes]:
    """Every kind of answer about ``game`` while round 3's secret ``bids`` are in."""
    answers: list[TestResponse] = [api.add(game, bids, trump="red")]
    answers.append(client.get(game.url))
    answers.append(client.get(f"{game.url}/rounds/3"))
    answers.append(api.add(game, [0, 0, 0], [3, 0, 0], version=1))  # 409 with the game
    answers.append(api.add(game, [0, 0, 0], [3, 0, 0]))  # 422 round_open
    answers.append(api.put(game, 3, trump="blue"))  # a correction of the open round
    answers.append(client.get(game.url))
    statuses = [a.status_code for a in answers]
    assert statuses == [201, 200, 200, 409, 422, 200, 200]
    return [a.get_data() for a in answers]


def _anonymised(answer: bytes, game: Game, created_at: str) -> bytes:
    return answer.replace(game.id.encode(), b"ID").replace(created_at.encode(), b"WHEN")


def test_secret_bids_do_not_leak_until_the_tricks(
    client: FlaskClient, api: Api, circle: Circle
) -> None:
    seen: list[list[bytes]] = []
    for secret in ([3, 2, 3], [0, 1, 0]):
        game = api.create(bidding="secret", circle=circle)
        api.play(game, [1, 0, 0], [1, 0, 0])
        api.play(game, [0, 2, 0], [0, 2, 0])
        answers = _answers(client, api, game, secret)
        body = api.get(game)
        third = body["rounds"][2]
        assert third["bids"] == [None, None, None]
        assert third["bids_hidden"] is True
        assert body["rounds"][1]["bids"] == [0, 2, 0]  # played rounds show their bids
        # Nothing in the raw bytes of any answer has the shape of the secret bids.
        shown = rb",\s*".join(str(b).encode() for b in secret)
        for answer in answers:
            assert re.search(rb'"bids":\s*\[\s*' + shown, answer) is None
        listed = client.get(f"{API}/games", headers=circle.auth)
        assert listed.status_code == 200 and b'"bids"' not in listed.get_data()
        seen.append([_anonymised(a, game, body["created_at"]) for a in answers])
    # Two games that differ only in their secret bids get the very same bytes.
    assert seen[0] == seen[1]


def test_secret_bids_show_once_the_round_is_played(api: Api) -> None:
    game = api.create(bidding="secret")
    api.add(game, [1, 0, 0])
    assert api.get(game)["rounds"][0]["bids"] == [None, None, None]
    body = api.put(game, 1, tricks=[1, 0, 0]).get_json()
    assert body["rounds"][0]["bids"] == [1, 0, 0]
    assert body["rounds"][0]["bids_hidden"] is False
    # Taking the tricks back hides the bids again.
    body = api.put(game, 1, tricks=None).get_json()
    assert body["rounds"][0]["bids"] == [None, None, None]


def test_secret_bids_in_a_saboteur_game(api: Api) -> None:
    game = api.create(bidding="secret", saboteur=True)
    body = api.add(game, [None, 1, 0]).get_json()
    assert body["rounds"][0]["bids"] == [None, None, None]
    assert body["rounds"][0]["bids_hidden"] is True


def _bid(app: Flask, game: Game, seat: int, bid: int) -> None:
    """Enter one bid the way the score pad page does, tap by tap."""
    with app.app_context(), transaction.atomic():
        game_service.set_bid(game_service.get_game(game.id), seat, bid)


def test_hidden_bids_show_when_all_are_in(app: Flask, client: FlaskClient, api: Api) -> None:
    game = api.create(["Ann", "Ben", "Cat"], 0, bidding="hidden")  # Ben bids first
    _bid(app, game, 1, 1)
    _bid(app, game, 2, 0)
    for answer in (api.get(game), client.get(f"{game.url}/rounds/1").get_json()):
        rnd = answer["rounds"][0] if "rounds" in answer else answer
        assert rnd["bids"] == [None, None, None]
        assert rnd["bids_hidden"] is True
    _bid(app, game, 0, 1)
    rnd = api.get(game)["rounds"][0]
    assert rnd["bids"] == [1, 1, 0]
    assert rnd["bids_hidden"] is False
    assert rnd["complete"] is False
    # The API completes the round the page began.
    assert api.put(game, 1, tricks=[0, 1, 0]).get_json()["rounds"][0]["scores"] == [-10, 30, 20]


def test_open_bids_show_as_they_come(app: Flask, api: Api) -> None:
    game = api.create(["Ann", "Ben", "Cat"], 0)
    _bid(app, game, 1, 1)
    rnd = api.get(game)["rounds"][0]
    assert rnd["bids"] == [None, 1, None]
    assert rnd["bids_hidden"] is False
    assert error_of(api.add(game, [0, 0, 0])) == (422, "round_open")


def test_secret_bids_entered_on_the_page_stay_secret(app: Flask, api: Api) -> None:
    game = api.create(["Ann", "Ben", "Cat"], 0, bidding="secret")
    _bid(app, game, 1, 1)
    _bid(app, game, 2, 1)
    _bid(app, game, 0, 1)
    rnd = api.get(game)["rounds"][0]
    assert rnd["bids"] == [None, None, None]
    assert rnd["bids_hidden"] is True


def test_secret_bids_stay_out_of_the_change_log(app: Flask, api: Api) -> None:
    game = api.create(["Ann", "Ben", "Cat"], 0, bidding="secret")
    api.add(game, [1, 0, 0])
    assert api.put(game, 1, bids=[0, 1, 0]).status_code == 200
    assert api.delete(game, 1).status_code == 200
    with app.app_context():
        stored = game_service.get_game(game.id)
        log = [(c.action, c.summary, c.data) for c in stored.changes]
    assert [action for action, _, _ in log] == [
        "created",
        "round_added",
        "round_corrected",
        "round_deleted",
    ]
    for _, summary, data in log[1:]:
        assert "→" not in summary
        assert data is None
    assert log[2][1] == "Round 1 corrected: Ann's bid changed; Ben's bid changed"
    # Once played, a correction says what changed.
    api.play(game, [1, 0, 0], [1, 0, 0])
    api.put(game, 1, bids=[0, 0, 0])
    with app.app_context():
        last = game_service.get_game(game.id).changes[-1]
        assert last.summary == "Round 1 corrected: Ann's bid 1 → 0"
        assert last.data is not None
