"""A big import stores fast and holds the database briefly; a score write meanwhile waits
its turn instead of failing.

Before, an 8 MB import of 1,000 games ran 143 s: every game was flushed on its own, and
every seat's statistics were updated row by row (tens of thousands of statements), all
while holding SQLite's write lock; a scorer writing from another process meanwhile got
``500 database is locked`` after SQLite's busy timeout (5 s).
"""

from __future__ import annotations

import json
import random
import secrets
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, func, select, text
from werkzeug.test import TestResponse

from scorekeeper import engine, transaction, writers
from scorekeeper.extensions import db
from scorekeeper.models import (
    Change,
    Game,
    Player,
    PlayerCards,
    Rivalry,
    Round,
    RoundResult,
    Seat,
)
from scorekeeper.services import circles, transfer
from scorekeeper.services import games as game_service
from tests.history.support import NAMES, random_round, random_rules

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    with app.app_context():
        yield


def _played(circle_id: int, count: int, seed: int = 7) -> None:
    """``count`` random games of the circle through the services, finished and open."""
    rng = random.Random(seed)
    for i in range(count):
        n = rng.randint(3, 6)
        rules = random_rules(rng, n)
        game, _ = game_service.create_game(
            rng.sample(NAMES, n), rng.randrange(n), rules, circle_id=circle_id
        )
        game.created_at = datetime(2025, 3, 1 + i, 18, tzinfo=UTC)
        plan = engine.plan_for(rules, n)
        rounds = len(plan) if i % 3 else rng.randint(1, len(plan) - 1)
        for _ in range(rounds):
            bids, tricks = random_round(rng, game)
            game_service.record_round(game, bids, tricks)
        db.session.commit()


def _renamed(text_: str, copies: int = 1) -> str:
    """The history file with every game ``copies`` times, each with an id of its own."""
    data = json.loads(text_)
    games = []
    for _ in range(copies):
        for game in data["games"]:
            games.append({**game, "public_id": secrets.token_urlsafe(16)})
    return json.dumps({**data, "games": games})


@contextmanager
def _statements() -> Iterator[list[str]]:
    """The SQL statements sent to the database in the block (an executemany is one)."""
    sent: list[str] = []

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        sent.append(statement)

    event.listen(db.engine, "before_cursor_execute", count)
    try:
        yield sent
    finally:
        event.remove(db.engine, "before_cursor_execute", count)


TABLES = (Game, Player, Seat, Round, RoundResult, Change, PlayerCards, Rivalry)


def _counts() -> tuple[int, ...]:
    return tuple(db.session.scalar(select(func.count()).select_from(m)) or 0 for m in TABLES)


# -- fast: a fixed number of statements, however many games ---------------------------------


@pytest.mark.usefixtures("ctx")
def test_an_import_costs_the_same_statements_for_80_games_as_for_8() -> None:
    played = circles.create_circle("Played")
    _played(played.id, 4)
    backup = transfer.history_json(played.id)
    sent = []
    for copies in (2, 20):
        circle = circles.create_circle(f"Restored {copies}")
        with _statements() as statements:
            result = transfer.import_history(_renamed(backup, copies), circle.id)
        assert result == transfer.ImportResult(4 * copies, 0)
        sent.append(len(statements))
    # Bulk inserts of games, seats, rounds, changes and round lines, the statistics added
    # up once: before, each game was its own inserts and each seat's statistics an
    # UPDATE per number of cards and per opponent (over 2,000 statements for 80 games).
    assert sent[0] == sent[1] <= 30, sent


@pytest.mark.usefixtures("ctx")
def test_the_statistics_of_an_import_are_those_of_the_games_played() -> None:
    played = circles.create_circle("Played")
    _played(played.id, 9)
    backup = json.loads(_renamed(transfer.history_json(played.id)))
    restored = circles.create_circle("Restored")
    # In two goes: the second adds to the statistics the first wrote, and skips the
    # games the first stored.
    first = {**backup, "games": backup["games"][:4]}
    assert transfer.import_history(json.dumps(first), restored.id).imported == 4
    result = transfer.import_history(json.dumps(backup), restored.id)
    assert result == transfer.ImportResult(5, 4)
    assert _statistics(restored.id) == _statistics(played.id)


def _statistics(circle_id: int) -> dict[str, Any]:
    """A circle's statistics by player name: the seats' summaries, by-cards counts and
    head-to-head records, as the pages read them."""
    name = {
        p.id: p.name
        for p in db.session.scalars(select(Player).where(Player.circle_id == circle_id))
    }
    seats = sorted(
        (
            name[s.player_id],
            s.seat,
            s.total,
            s.won,
            s.rounds,
            s.bid_rounds,
            s.exact,
            s.overs,
            s.unders,
            s.best_streak,
            s.max_deficit,
            json.dumps(s.by_cards),
        )
        for s in db.session.scalars(select(Seat).where(Seat.player_id.in_(name)))
    )
    cards = sorted(
        (name[c.player_id], c.cards, c.rounds, c.exact)
        for c in db.session.scalars(select(PlayerCards).where(PlayerCards.player_id.in_(name)))
    )
    pairs = sorted(
        (name[r.player_id], name[r.other_id], r.games, r.ahead, r.behind, r.level)
        for r in db.session.scalars(select(Rivalry).where(Rivalry.player_id.in_(name)))
    )
    assert seats and cards and pairs
    return {"seats": seats, "cards": cards, "pairs": pairs}


# -- all or nothing ---------------------------------------------------------------------------


@pytest.mark.usefixtures("ctx")
def test_an_import_failing_while_storing_leaves_nothing_behind() -> None:
    played = circles.create_circle("Played")
    _played(played.id, 3)
    backup = _renamed(transfer.history_json(played.id), 2)
    restored = circles.create_circle("Restored")
    db.session.commit()
    before = _counts()

    def disk_full(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        # The head-to-head records come last: every game's rows went in before.
        if "rivalry" in statement.lower() and not statement.lstrip().upper().startswith("SELECT"):
            raise RuntimeError("the disk is full")

    event.listen(db.engine, "before_cursor_execute", disk_full)
    try:
        with pytest.raises(RuntimeError):
            transfer.import_history(backup, restored.id)
    finally:
        event.remove(db.engine, "before_cursor_execute", disk_full)
    assert _counts() == before
    assert transfer.import_history(backup, restored.id).imported == 6


# -- the write turn -----------------------------------------------------------------------------


def test_checking_the_file_leaves_the_write_turn_to_others(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check of a file (seconds for a big one) writes nothing: the scorers' writes of
    this process go on meanwhile, though the import request holds the write turn."""
    with app.app_context(), transaction.atomic():
        circle = circles.create_circle("Friends")
        played = circles.create_circle("Played")
        _played(played.id, 2)
        backup = _renamed(transfer.history_json(played.id))
        others: list[bool] = []
        check = transfer.parse_history

        def write() -> None:
            with app.app_context(), writers.turn():
                db.session.execute(text("UPDATE circle SET name = name"))
                db.session.commit()

        def checking(text_: str | bytes) -> list[Any]:
            other = threading.Thread(target=write)
            other.start()
            other.join(10)
            others.append(not other.is_alive())
            return check(text_)

        monkeypatch.setattr(transfer.storing, "parse_history", checking)
        with writers.turn():  # as every write request holds it (scorekeeper.idempotency)
            assert transfer.import_history(backup, circle.id).imported == 2
        assert others == [True]


class Holder:
    """Another process writing to the same database: it takes the write turn, changes a
    row and holds the open transaction until told to commit."""

    SCRIPT = """
import sys
from sqlalchemy import text
from scorekeeper import create_app, writers
from scorekeeper.extensions import db

app = create_app(
    {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": sys.argv[1]},
    instance_path=sys.argv[2],
)
with app.app_context(), writers.turn():
    circle = {"id": int(sys.argv[3])}
    db.session.execute(text("UPDATE circle SET name = name WHERE id = :id"), circle)
    print("holding", flush=True)
    sys.stdin.readline()
    db.session.commit()
print("done", flush=True)
"""

    def __init__(self, app: Flask, circle_id: int, instance: Path) -> None:
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-c",
                self.SCRIPT,
                app.config["SQLALCHEMY_DATABASE_URI"],
                str(instance),
                str(circle_id),
            ],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line == "holding\n", line

    def release(self) -> None:
        out, _ = self.process.communicate("go\n", timeout=30)
        assert out == "done\n" and self.process.returncode == 0, out


def _impatient_sqlite(app: Flask) -> None:
    """SQLite's own wait for a locked database cut from 5 s to 0.1 s: a write that waits
    on SQLite rather than on its turn fails before the other process is done."""
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            event.listen(
                db.engine, "connect", lambda conn, _: conn.execute("PRAGMA busy_timeout=100")
            )
            db.engine.dispose()


def _a_round(client: FlaskClient, public_id: str, token: str) -> TestResponse:
    return client.post(
        f"/api/v1/games/{public_id}/rounds",
        json={"bids": [1, 0, 0], "tricks": [1, 0, 0]},
        headers={"Authorization": f"Bearer {token}", "Idempotency-Key": secrets.token_hex(8)},
    )


def _rounds(app: Flask, public_id: str) -> int:
    with app.app_context():
        return len(game_service.get_game(public_id).rounds)


def test_a_score_write_waits_while_another_process_writes(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    with app.app_context(), transaction.atomic():
        game, token = game_service.create_game(
            ["Ann", "Ben", "Cat"], 0, game_service.parse_rules({})
        )
        public_id = game.public_id
        circle_id = circles.create_circle("Friends").id
        sqlite = db.engine.dialect.name == "sqlite"
    _impatient_sqlite(app)
    answers: list[TestResponse] = []
    holder = Holder(app, circle_id, tmp_path / "holder")
    try:
        writer = threading.Thread(target=lambda: answers.append(_a_round(client, public_id, token)))
        writer.start()
        writer.join(1.0)
        if sqlite:
            # One writer at a time: this one waits its turn, however long the other takes.
            assert writer.is_alive() and not answers
        else:
            # PostgreSQL locks rows: a write to another row goes on at once.
            writer.join(30)
            assert [a.status_code for a in answers] == [201]
    finally:
        holder.release()
    writer.join(30)
    assert [a.status_code for a in answers] == [201], answers[0].get_json() if answers else None
    assert _rounds(app, public_id) == 1


def test_a_write_meeting_a_database_locked_elsewhere_is_told_to_try_again(
    app: Flask, client: FlaskClient
) -> None:
    """A program writing without taking a turn (sqlite3 at the shell, say) holds the
    database past SQLite's busy timeout: the write is refused with 503 and Retry-After,
    nothing stored; never a 500."""
    with app.app_context(), transaction.atomic():
        game, token = game_service.create_game(
            ["Ann", "Ben", "Cat"], 0, game_service.parse_rules({})
        )
        public_id = game.public_id
        path = db.engine.url.database
        sqlite = db.engine.dialect.name == "sqlite"
    if not sqlite:
        # PostgreSQL has no database-wide lock: a transaction elsewhere stops no write.
        with app.app_context(), db.engine.connect() as other, other.begin():
            other.execute(text("UPDATE circle SET name = name"))
            assert _a_round(client, public_id, token).status_code == 201
        return
    _impatient_sqlite(app)
    other = sqlite3.connect(str(path), isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # SQLite's write lock, until the rollback below
        response = _a_round(client, public_id, token)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert response.status_code == 503, response.get_data(as_text=True)
    assert response.headers["Retry-After"] == str(writers.RETRY_AFTER)
    assert response.get_json()["error"]["code"]
    assert _rounds(app, public_id) == 0
    assert _a_round(client, public_id, token).status_code == 201  # and again: it goes in
