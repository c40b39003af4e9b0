"""SIGKILL under write load: what was acknowledged survives, nothing is half-stored.

gunicorn (2 workers) on 127.0.0.1 serves a temporary SQLite file (or the test PostgreSQL);
writer threads create games and record rounds through the JSON API, some rounds in two
steps (bids, then tricks), and remember every write the server acknowledged. Mid-load the
whole process group gets SIGKILL. After a restart on the same database every acknowledged
write must be there, every round must have one result per seat, complete rounds must be
scored, and every stored score and total must equal the engine's recomputation.
"""

from __future__ import annotations

import http.client
import random
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from flask import Flask
from sqlalchemy import select

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.services import games as game_service
from tests.robustness.servers import Server, migrate, request

WRITERS = 3
KILL_AFTER_ACKS = 120  # acknowledged writes before the kill …
KILL_AFTER_SECONDS = 8.0  # … or this long, whichever comes first
API = "/api/v1"


@dataclass
class Acked:
    """What the server said it stored for one game: round number → (bids, tricks)."""

    token: str
    players: int
    rounds: dict[int, tuple[list[int], list[int] | None]] = field(default_factory=dict)


def writer(
    port: int,
    seed: int,
    acked: dict[str, Acked],
    count: list[int],
    stop: threading.Event,
    errors: list[BaseException],
) -> None:
    try:
        write(port, seed, acked, count, stop)
    except BaseException as exc:  # a wrong answer before the kill: fail the test with it
        errors.append(exc)


def write(
    port: int, seed: int, acked: dict[str, Acked], count: list[int], stop: threading.Event
) -> None:
    rng = random.Random(seed)
    while not stop.is_set():
        try:
            players = rng.randint(3, 6)
            status, body, _ = request(
                port,
                "POST",
                f"{API}/games",
                {"players": [f"P{seed}-{i}" for i in range(players)]},
            )
            if status != 201:
                raise AssertionError(f"create: {status} {body}")
            game = Acked(body["scorer_token"], players)
            acked[body["id"]] = game
            count.append(1)
            auth = {"Authorization": f"Bearer {game.token}"}
            for number in range(1, 60 // players + 1):
                if stop.is_set():
                    return
                cards = number
                bids = [rng.randint(0, cards) for _ in range(players)]
                tricks = [0] * players
                for _ in range(cards):
                    tricks[rng.randrange(players)] += 1
                url = f"{API}/games/{body['id']}/rounds"
                if rng.random() < 0.3:
                    # Two steps: the bids first (an open round), then the tricks.
                    status, reply, _ = request(port, "POST", url, {"bids": bids}, auth)
                    if status != 201:
                        raise AssertionError(f"bids: {status} {reply}")
                    game.rounds[number] = (bids, None)
                    count.append(1)
                    status, reply, _ = request(
                        port, "PUT", f"{url}/{number}", {"tricks": tricks}, auth
                    )
                    if status != 200:
                        raise AssertionError(f"tricks: {status} {reply}")
                else:
                    status, reply, _ = request(
                        port, "POST", url, {"bids": bids, "tricks": tricks}, auth
                    )
                    if status != 201:
                        raise AssertionError(f"round: {status} {reply}")
                game.rounds[number] = (bids, tricks)
                count.append(1)
        except (OSError, http.client.HTTPException):
            # The server is gone (killed): whatever was in flight is unacknowledged.
            return


def test_sigkill_loses_no_acknowledged_write(tmp_path: Path, database_url: str) -> None:
    instance = tmp_path / "instance"
    instance.mkdir()
    migrate(database_url, instance)
    server = Server(database_url, instance).start()
    acked: dict[str, Acked] = {}
    count: list[int] = []
    stop = threading.Event()
    errors: list[BaseException] = []
    threads = [
        threading.Thread(target=writer, args=(server.port, seed, acked, count, stop, errors))
        for seed in range(WRITERS)
    ]
    try:
        for t in threads:
            t.start()
        deadline = time.monotonic() + KILL_AFTER_SECONDS
        while len(count) < KILL_AFTER_ACKS and time.monotonic() < deadline:
            time.sleep(0.01)
        server.kill()  # mid-load: writers still have requests in flight
        for t in threads:
            t.join(timeout=15)
        stop.set()
    finally:
        stop.set()
        server.kill()
    assert not errors, errors
    assert len(count) >= 20, f"too little load before the kill: {len(count)} acks"

    server = Server(database_url, instance, port=server.port).start()
    try:
        for public_id, game in acked.items():
            status, body, _ = request(server.port, "GET", f"{API}/games/{public_id}")
            assert status == 200, (public_id, status)
            stored = {r["number"]: r for r in body["rounds"]}
            for number, (bids, tricks) in game.rounds.items():
                assert number in stored, f"{public_id}: acknowledged round {number} lost"
                assert stored[number]["bids"] == bids
                if tricks is not None:
                    assert stored[number]["tricks"] == tricks
    finally:
        server.stop()

    check_consistent(database_url, instance, expected_games=len(acked))


def check_consistent(database_url: str, instance: Path, expected_games: int) -> None:
    """Every round whole, every score and total the engine's."""
    app: Flask = create_app(
        {"SECRET_KEY": "check", "SQLALCHEMY_DATABASE_URI": database_url}, instance_path=instance
    )
    with app.app_context():
        games = db.session.scalars(select(Game)).all()
        assert len(games) >= expected_games
        for game in games:
            sheet = game_service.sheet_of(game)
            assert len(game.rounds) == len(sheet.rounds)
            for rnd, scored in zip(game.rounds, sheet.rounds, strict=True):
                assert len(rnd.results) == game.player_count, "round half-stored"
                assert all(r.bid is not None for r in rnd.results), "bids half-stored"
                if rnd.complete:
                    assert all(r.tricks is not None for r in rnd.results)
                    assert sum(r.tricks or 0 for r in rnd.results) == rnd.cards
                    assert scored.scores is not None
                    assert [r.score for r in sorted(rnd.results, key=lambda r: r.seat)] == list(
                        scored.scores
                    )
                    assert [r.total for r in sorted(rnd.results, key=lambda r: r.seat)] == list(
                        scored.totals
                    )
                else:
                    assert rnd is game.rounds[-1], "only the last round may be open"
                    assert all(r.score is None for r in rnd.results)
            totals = sorted(game.seats, key=lambda s: s.seat)
            assert [s.total for s in totals] == list(sheet.totals), "seat totals"
        db.session.remove()
        db.engine.dispose()
