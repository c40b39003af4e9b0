"""Pages that cost seconds are not a way to tie a server up: a game's filled pad is
rendered once per game version and then kept, and the history export streams.

Before, ``/games/<id>/pad.pdf`` (1.4–2 s) was rendered anew on every request, and
``/export/history.json`` of 1,216 games took 16 s, built whole in memory first.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, select

from scorekeeper import create_app, pdf, transaction
from scorekeeper.extensions import db
from scorekeeper.models import Game, Player
from scorekeeper.services import circles, ratings, transfer
from scorekeeper.services import games as game_service
from tests.history.support import random_history

# -- a game's filled pad ----------------------------------------------------------------------


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every PDF actually rendered (its HTML); the "PDF" is a digest of that HTML."""
    calls: list[str] = []

    def render(html: str, static_root: Path) -> bytes:
        calls.append(html)
        return b"%PDF-1.7 " + hashlib.sha256(html.encode()).hexdigest().encode()

    monkeypatch.setattr(pdf, "html_to_pdf", render)
    return calls


def _game(app: Flask) -> tuple[str, str]:
    with app.app_context(), transaction.atomic():
        game, token = game_service.create_game(
            ["Ann", "Ben", "Cat"], 0, game_service.parse_rules({})
        )
        game_service.record_round(game, [1, 0, 0], [1, 0, 0])
        return game.public_id, token


def test_a_games_pad_is_rendered_once_per_version(
    app: Flask, client: FlaskClient, renders: list[str], tmp_path: Path
) -> None:
    public_id, _token = _game(app)
    url = f"/games/{public_id}/pad.pdf"
    first = client.get(url)
    assert first.status_code == 200 and first.mimetype == "application/pdf"
    assert len(renders) == 1

    again = client.get(url)
    assert (again.status_code, again.data, again.headers["ETag"]) == (
        200,
        first.data,
        first.headers["ETag"],
    )
    assert len(renders) == 1

    # Another app server on the same database keeps its own: rendered there once.
    other = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
        },
        instance_path=tmp_path / "other",
    )
    elsewhere = other.test_client().get(url)
    assert (elsewhere.status_code, elsewhere.mimetype) == (200, "application/pdf")
    # (Not byte for byte the first server's: each render names its chart anew.)
    assert other.test_client().get(url).data == elsewhere.data
    assert len(renders) == 2
    with other.app_context():
        db.session.remove()
        db.engine.dispose()

    unchanged = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert unchanged.status_code == 304
    assert len(renders) == 2

    # What the PDF depends on besides the game is a pad of its own: paper, language.
    letter = client.get(url + "?paper=letter")
    german = client.get(url, headers={"Accept-Language": "de"})
    assert len({first.data, letter.data, german.data}) == 3
    assert len(renders) == 4
    assert client.get(url + "?paper=letter").data == letter.data
    assert client.get(url, headers={"Accept-Language": "de"}).data == german.data
    assert len(renders) == 4

    # The game changes: its next pad is rendered, the old one is never served again.
    with app.app_context(), transaction.atomic():
        game_service.record_round(game_service.get_game(public_id), [1, 1, 0], [1, 1, 0])
    changed = client.get(url)
    assert changed.status_code == 200
    assert changed.data != first.data
    assert changed.headers["ETag"] != first.headers["ETag"]
    assert len(renders) == 5
    assert client.get(url).data == changed.data
    assert len(renders) == 5


def test_without_the_page_cache_every_pad_is_rendered(
    app: Flask, client: FlaskClient, renders: list[str]
) -> None:
    app.config["PAGE_CACHE"] = False
    public_id, _token = _game(app)
    for _ in range(2):
        assert client.get(f"/games/{public_id}/pad.pdf").status_code == 200
    assert len(renders) == 2


# -- the history export -----------------------------------------------------------------------


@contextmanager
def _statements() -> Iterator[list[tuple[str, Any]]]:
    """The SQL statements sent in the block, with their parameters."""
    sent: list[tuple[str, Any]] = []

    def record(conn: Any, cursor: Any, statement: str, parameters: Any, *args: Any) -> None:
        sent.append((statement, parameters))

    event.listen(db.engine, "before_cursor_execute", record)
    try:
        yield sent
    finally:
        event.remove(db.engine, "before_cursor_execute", record)


def _queries(sent: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    return [(s, p) for s, p in sent if s.lstrip().upper().startswith("SELECT")]


@pytest.fixture
def history(app: Flask) -> Iterator[int]:
    """A circle with seven games of every kind (finished, open, hidden bids, corrected)."""
    with app.app_context():
        circle = circles.create_circle("Friends")
        random_history(random.Random(3), 7, circle.id)
        db.session.commit()
        yield circle.id


def _reference(circle_id: int, reveal_open_bids: bool) -> list[dict[str, Any]]:
    """The circle's games as each game's own export gives them (loaded whole)."""
    games = db.session.scalars(
        select(Game).where(Game.circle_id == circle_id).order_by(Game.created_at, Game.id)
    )
    return [transfer.game_data(g, reveal_open_bids=reveal_open_bids) for g in games]


def test_the_history_export_streams_a_batch_of_games_at_a_time(
    history: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(transfer.export, "EXPORT_BATCH", 3)
    with _statements() as sent:
        chunks = transfer.history_chunks(history, reveal_open_bids=False)
        assert next(chunks).startswith("{")
        assert sent == []  # the first bytes go out before anything is read
        pieces = [next(chunks)]
        first_batch = len(_queries(sent))
        pieces.extend(chunks)
    assert len(pieces) == 3 + 1  # games 1-3, 4-6, 7, and the end
    # The games' ids first; then each batch costs the same few queries, none with more
    # than a batch of games in it; at the end one query for the circle's ratings.
    queries = _queries(sent)
    per_batch = first_batch - 1
    assert len(queries) == 1 + 3 * per_batch + 1 and per_batch <= 5, queries
    assert "rating" in queries[-1][0]
    for _statement, parameters in queries:
        values = parameters if isinstance(parameters, (list, tuple)) else []
        assert len(values) <= 3
    whole = json.loads(transfer.history_json(history, reveal_open_bids=False))
    # The circle's ratings close the file: one line per rated player, by name.
    rated = whole.pop("ratings")
    shown = ratings.circle_ratings(history)
    players = {p.id: p.name for p in db.session.scalars(select(Player))}
    assert {r["player"]: r["rating"] for r in rated} == {
        players[pid]: s.value for pid, s in shown.items()
    }
    assert whole == {
        "format": "scorekeeper-history",
        "version": 1,
        "games": _reference(history, reveal_open_bids=False),
    }
    assert json.loads(transfer.history_json(history))["games"] == _reference(history, True)


def test_the_streamed_export_needs_no_request_once_started(app: Flask, history: int) -> None:
    """A streamed answer is read after its view returned: the chunks read the database
    on their own connection."""
    with app.app_context():
        chunks = transfer.history_chunks(history, reveal_open_bids=False)
        expected = transfer.history_json(history, reveal_open_bids=False)
    assert "".join(chunks) == expected  # outside any app context


def test_the_export_stays_importable_while_games_change(
    app: Flask, history: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(transfer.export, "EXPORT_BATCH", 2)
    with app.app_context():
        chunks = transfer.history_chunks(history, reveal_open_bids=True)
        pieces = [next(chunks), next(chunks)]
        # Meanwhile a game of a later batch is set up and one of them is played on.
        game, _ = game_service.create_game(
            ["Ann", "Ben", "Cat"], 0, game_service.parse_rules({}), circle_id=history
        )
        game_service.record_round(game, [1, 0, 0], [1, 0, 0])
        db.session.commit()
        pieces.extend(chunks)
        data = json.loads("".join(pieces))
        for game_data in data["games"]:
            game_data["public_id"] = secrets.token_urlsafe(16)
        elsewhere = circles.create_circle("Elsewhere")
        result = transfer.import_history(json.dumps(data), elsewhere.id)
        assert result.imported == len(data["games"]) >= 7
