"""A circle's pages make a fixed number of queries, whatever the size of its history
(and of the other circles')."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask
from sqlalchemy import event

from scorekeeper import transaction
from scorekeeper.extensions import db
from scorekeeper.services import circles as circle_service
from tests.history.support import join, player_id, random_history, the_circle

PAGES = [
    "/circles/{circle}/games",
    "/circles/{circle}/games?status=ongoing&round_plan=full",
    "/circles/{circle}/games?player={ann}",
    "/circles/{circle}/players",
    "/circles/{circle}/players/{ann}",
    "/circles/{circle}/records",
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
        circle = the_circle().public_id
    join(client, circle)
    counts = {}
    for page in PAGES:
        url = page.format(ann=ann, circle=circle)
        client.get(url)  # warm up (first-request work is not the page's)
        with counting(app) as statements:
            response = client.get(url)
        assert response.status_code == 200, url
        counts[page] = len(statements)
    return counts


def _history(app: Flask, games: int) -> None:
    with app.app_context(), transaction.atomic():
        circle_id = the_circle().id
        random_history(random.Random(7), games, circle_id)
        # As many games in another circle, with the same names.
        other = circle_service.create_circle("Elsewhere")
        random_history(random.Random(8), games, other.id)
        from scorekeeper.services import games as game_service
        from scorekeeper.services import players as player_service

        # Make sure "Ann" exists and has played.
        player_service.get_or_create(["Ann"], circle_id)
        game, _ = game_service.create_game(
            ["Ann", "Ben", "Cat"], 0, game_service.parse_rules({}), circle_id=circle_id
        )
        game_service.record_round(game, [1, 0, 0], [1, 0, 0])


def test_query_count_does_not_grow_with_history(app: Flask) -> None:
    _history(app, 2)
    small = _query_counts(app)
    _history(app, 18)
    large = _query_counts(app)
    assert small == large
    assert max(small.values()) <= 10, small


def test_the_empty_games_count_reads_the_index_of_empty_games(app: Flask) -> None:
    """The games list counts the empty games it leaves out from an index of those alone
    (on SQLite the condition must read as the partial index's own, or every game is read)."""
    from scorekeeper.services import history

    with app.app_context():
        circle_id = the_circle().id
        random_history(random.Random(3), 4, circle_id)
        with counting(app) as statements:
            history.list_games(circle_id, history.GameFilter())
        count = next(s for s in statements if "count(" in s)
        if db.engine.dialect.name == "sqlite":
            plan = db.session.connection().exec_driver_sql(
                "EXPLAIN QUERY PLAN " + count, (circle_id, "2026-01-01 00:00:00")
            )
            details = " ".join(row[-1] for row in plan)
            assert "ix_game_circle_empty" in details, details
        else:
            assert "NOT game.played" in count, count
