"""Pages make a fixed number of queries, whatever the size of the history."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask
from sqlalchemy import event

from scorekeeper.extensions import db
from tests.history.support import player_id, random_history

PAGES = [
    "/games",
    "/games?status=ongoing&round_plan=full",
    "/games?player={ann}",
    "/players",
    "/players/{ann}",
    "/records",
]


@contextmanager
def counting(app: Flask) -> Iterator[list[str]]:
    statements: list[str] = []

    def record(*args: object) -> None:
        statements.append(str(args[2]))

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", record)


def _query_counts(app: Flask) -> dict[str, int]:
    client = app.test_client()
    with app.app_context():
        ann = player_id("Ann")
    counts = {}
    for page in PAGES:
        url = page.format(ann=ann)
        client.get(url)  # warm up (first-request work is not the page's)
        with counting(app) as statements:
            response = client.get(url)
        assert response.status_code == 200, url
        counts[page] = len(statements)
    return counts


def _history(app: Flask, games: int) -> None:
    with app.app_context():
        random_history(random.Random(7), games)
        from scorekeeper.services import games as game_service
        from scorekeeper.services import players as player_service

        # Make sure "Ann" exists and has played.
        player_service.get_or_create(["Ann"])
        game, _ = game_service.create_game(["Ann", "Ben", "Cat"], 0, game_service.parse_rules({}))
        game_service.record_round(game, [1, 0, 0], [1, 0, 0])


def test_query_count_does_not_grow_with_history(app: Flask) -> None:
    _history(app, 2)
    small = _query_counts(app)
    _history(app, 18)
    large = _query_counts(app)
    assert small == large
    assert max(small.values()) <= 8, small
