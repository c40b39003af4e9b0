"""A backup whose scores or totals are not the rules' (R16) is refused with what differs:
the round, the player, the file's value and the rules' value, in English and German."""

from __future__ import annotations

import html
import io
import json
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from scorekeeper import transaction
from scorekeeper.services import games as game_service
from scorekeeper.services import transfer
from scorekeeper.services.errors import Rejected
from tests.history.support import join, the_circle

Mutation = Callable[[list[dict[str, Any]]], None]


def _backup(app: Flask) -> tuple[str, dict[str, Any]]:
    """One game of three rounds in the circle (Ann, Ben, Cat; the book's scoring, R16):
    round 1 Ann 30, Ben 20, Cat −10; round 2 30, 30, 20; round 3 30 each. Totals after
    round 3: Ann 90, Ben 80, Cat 40."""
    with app.app_context():
        with transaction.atomic():
            circle = the_circle()
            game, _token = game_service.create_game(
                ["Ann", "Ben", "Cat"], 0, game_service.parse_rules({}), circle_id=circle.id
            )
            game_service.record_round(game, [1, 0, 1], [1, 0, 0])
            game_service.record_round(game, [1, 1, 0], [1, 1, 0])
            game_service.record_round(game, [1, 1, 1], [1, 1, 1])
        return game.public_id, json.loads(transfer.history_json(circle.id))


def _score(number: int, seat: int, value: int) -> Mutation:
    def apply(rounds: list[dict[str, Any]]) -> None:
        rounds[number - 1]["scores"][seat] = value

    return apply


def _total(number: int, seat: int, value: int) -> Mutation:
    def apply(rounds: list[dict[str, Any]]) -> None:
        rounds[number - 1]["totals"][seat] = value

    return apply


def _both(*mutations: Mutation) -> Mutation:
    def apply(rounds: list[dict[str, Any]]) -> None:
        for mutate in mutations:
            mutate(rounds)

    return apply


CASES: list[tuple[str, Mutation, str, str]] = [
    (
        # The defect: one score changed, the totals as they were.
        "a score changed",
        _score(3, 1, 20),
        "round 3, Ben: the file says score 20, the rules give 30.",
        "Runde 3, Ben: Die Datei nennt die Punkte 20, die Regeln ergeben 30.",
    ),
    (
        # A score and its total changed together: the score is the cause.
        "a score and its total changed",
        _both(_score(3, 1, 20), _total(3, 1, 70)),
        "round 3, Ben: the file says score 20, the rules give 30.",
        "Runde 3, Ben: Die Datei nennt die Punkte 20, die Regeln ergeben 30.",
    ),
    (
        "a total changed",
        _total(2, 2, 25),
        "round 2, Cat: the file says total 25, the rules give 10.",
        "Runde 2, Cat: Die Datei nennt den Stand 25, die Regeln ergeben 10.",
    ),
    (
        "a negative score",
        _score(1, 2, 10),
        "round 1, Cat: the file says score 10, the rules give \u221210.",
        "Runde 1, Cat: Die Datei nennt die Punkte 10, die Regeln ergeben \u221210.",
    ),
]


@pytest.mark.parametrize(("what", "mutate", "english", "german"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("language", ["en", "de"])
def test_what_differs_is_named(
    app: Flask, what: str, mutate: Mutation, english: str, german: str, language: str
) -> None:
    pid, data = _backup(app)
    mutate(data["games"][0]["rounds"])
    with (
        app.test_request_context(headers={"Accept-Language": language}),
        pytest.raises(Rejected) as refused,
    ):
        transfer.parse_history(json.dumps(data))
    game = f"Game 1 ({pid})" if language == "en" else f"Spiel 1 ({pid})"
    expected = english if language == "en" else german
    assert refused.value.message == f"{game}: {expected}"


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        ("en-GB,en;q=0.8", "round 3, Ben: the file says score 20, the rules give 30."),
        ("de-DE,de;q=0.9", "Runde 3, Ben: Die Datei nennt die Punkte 20, die Regeln ergeben 30."),
    ],
)
def test_the_import_page_names_what_differs_and_stores_nothing(
    app: Flask, accept: str, expected: str
) -> None:
    app.config["WTF_CSRF_ENABLED"] = False
    pid, data = _backup(app)
    _score(3, 1, 20)(data["games"][0]["rounds"])
    data["games"][0]["public_id"] = "A" * len(pid)  # not on the server yet
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = accept
    with app.app_context():
        circle = the_circle().public_id
    join(client, circle)
    response = client.post(
        f"/circles/{circle}/import",
        data={"file": (io.BytesIO(json.dumps(data).encode()), "backup.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    body = " ".join(html.unescape(response.get_data(as_text=True)).split())
    assert expected in body
    games = client.get(f"/circles/{circle}/games").get_data(as_text=True)
    assert "A" * len(pid) not in games
