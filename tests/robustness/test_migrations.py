"""`flask db upgrade` brings a database made by the first migration, with games in it, up
to date: every game, round and change is still there and the app serves them.

The games go in through raw SQL that matches 0001's schema (as the app of that time wrote
them): a finished 3-player game, a 4-player game in progress with an open round (bids
only), and a 6-player game of two rounds. 0002 adds the per-seat statistics with zeros,
so (as its notes say) `flask rebuild-stats` fills them in after the upgrade. 0006 puts
every game and player into one circle, whose link `flask circles` prints for the owner.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from flask import Flask
from flask_migrate import upgrade
from sqlalchemy import inspect, select, text

from scorekeeper import create_app, engine, i18n
from scorekeeper.engine import RoundEntry, RuleSet
from scorekeeper.extensions import db
from scorekeeper.models import Change, Circle, Game, Player, Seat

TOKEN = "scorer-token-of-an-old-game"


def old_game(
    conn: Any, public_id: str, names: list[str], rounds: int, open_last: bool, seed: int
) -> list[int]:
    """Insert one game the way the 0001 app stored it; returns its expected totals."""
    rng = random.Random(seed)
    rules = RuleSet()
    now = datetime(2026, 1, 2, 20, 0, tzinfo=UTC)
    n = len(names)
    plan = engine.plan_for(rules, n)
    entries: list[RoundEntry] = []
    for number in range(1, rounds + 1):
        cards = plan[number - 1]
        bids = tuple(rng.randint(0, cards) for _ in range(n))
        tricks = [0] * n
        for _ in range(cards):
            tricks[rng.randrange(n)] += 1
        last_open = open_last and number == rounds
        entries.append(RoundEntry(bids, None if last_open else tuple(tricks), None))
    sheet = engine.score_sheet(rules, n, 0, entries)
    game_id = conn.execute(
        text(
            "INSERT INTO game (public_id, scorer_token_hash, mode, rules, player_count,"
            " first_dealer, created_at, updated_at, finished_at, version)"
            " VALUES (:p, :h, 'pad', :r, :n, 0, :t, :t, :f, :v) RETURNING id"
        ),
        {
            "p": public_id,
            "h": hashlib.sha256(TOKEN.encode()).hexdigest(),
            "r": json.dumps(rules.to_dict()),
            "n": n,
            "t": now,
            "f": now if sheet.finished else None,
            "v": 1 + rounds,
        },
    ).scalar_one()
    player_ids = []
    for name in names:
        row = conn.execute(
            text("SELECT id FROM player WHERE key = :k"), {"k": name.casefold()}
        ).scalar_one_or_none()
        if row is None:
            row = conn.execute(
                text("INSERT INTO player (name, key, created_at) VALUES (:n, :k, :t) RETURNING id"),
                {"n": name, "k": name.casefold(), "t": now},
            ).scalar_one()
        player_ids.append(row)
    for seat, pid in enumerate(player_ids):
        conn.execute(
            text("INSERT INTO seat (game_id, seat, player_id) VALUES (:g, :s, :p)"),
            {"g": game_id, "s": seat, "p": pid},
        )
    conn.execute(
        text(
            "INSERT INTO change (game_id, at, round_number, action, summary, data)"
            " VALUES (:g, :t, NULL, 'created', 'Game set up', NULL)"
        ),
        {"g": game_id, "t": now},
    )
    for scored in sheet.rounds:
        round_id = conn.execute(
            text(
                "INSERT INTO round (game_id, number, cards, dealer, trump, complete, created_at)"
                " VALUES (:g, :n, :c, :d, NULL, :done, :t) RETURNING id"
            ),
            {
                "g": game_id,
                "n": scored.number,
                "c": scored.cards,
                "d": scored.dealer,
                "done": scored.complete,
                "t": now,
            },
        ).scalar_one()
        for seat, pid in enumerate(player_ids):
            conn.execute(
                text(
                    "INSERT INTO round_result (round_id, seat, player_id, bid, tricks, score,"
                    " total) VALUES (:r, :s, :p, :b, :k, :sc, :tot)"
                ),
                {
                    "r": round_id,
                    "s": seat,
                    "p": pid,
                    "b": scored.entry.bids[seat],
                    "k": None if scored.entry.tricks is None else scored.entry.tricks[seat],
                    "sc": None if scored.scores is None else scored.scores[seat],
                    "tot": None if scored.scores is None else scored.totals[seat],
                },
            )
        conn.execute(
            text(
                "INSERT INTO change (game_id, at, round_number, action, summary, data)"
                " VALUES (:g, :t, :n, 'round_added', :s, NULL)"
            ),
            {"g": game_id, "t": now, "n": scored.number, "s": f"Round {scored.number} recorded"},
        )
    return list(sheet.totals)


def test_upgrade_from_0001_keeps_and_serves_games(tmp_path: Path, database_url: str) -> None:
    app: Flask = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": database_url},
        instance_path=tmp_path / "instance",
    )
    games = {
        "finished3xxxxxxxxxxxxx": (["Ann", "Ben", "Cat"], 20, False, 1),
        "progress4xxxxxxxxxxxxx": (["Ann", "Dan", "Eve", "Fay"], 7, True, 2),
        "twosix6xxxxxxxxxxxxxxx": (["Gus", "Hal", "Ivy", "Jo", "Kim", "Lu"], 2, False, 3),
    }
    with app.app_context():
        upgrade(revision="0001")
        assert "player_cards" not in inspect(db.engine).get_table_names()
        with db.engine.begin() as conn:
            expected = {pid: old_game(conn, pid, *spec) for pid, spec in games.items()}
        db.session.remove()

        upgrade()  # to head, as `flask db upgrade` on deploy

        assert "player_cards" in inspect(db.engine).get_table_names()
        result = app.test_cli_runner().invoke(args=["rebuild-stats"])
        assert result.exit_code == 0, result.output
        for pid, (_names, rounds, open_last, _) in games.items():
            game = db.session.scalars(select(Game).where(Game.public_id == pid)).one()
            assert len(game.rounds) == rounds
            assert [s.total for s in sorted(game.seats, key=lambda s: s.seat)] == expected[pid]
            assert game.rounds[-1].complete is not open_last
        seats = db.session.scalars(select(Seat)).all()
        assert sum(s.rounds for s in seats) > 0  # the statistics were rebuilt
        # 0011: the old lines of the change log got their message ids and facts.
        lines = {(c.message, c.summary): c.facts for c in db.session.scalars(select(Change))}
        assert lines[("game_set_up", "Game set up")] == {}
        assert lines[("round_recorded", "Round 7 recorded")] == {"number": 7}
        assert all(message is not None for message, _summary in lines)
        # The whole server's games and players so far are one circle's now.
        [circle] = db.session.scalars(select(Circle)).all()
        assert {g.circle_id for g in db.session.scalars(select(Game))} == {circle.id}
        assert {p.circle_id for p in db.session.scalars(select(Player))} == {circle.id}
        db.session.remove()

    # `flask circles` prints that circle's link; opening it opens the old history.
    listed = app.test_cli_runner().invoke(args=["circles"])
    assert listed.exit_code == 0, listed.output
    [line] = listed.stdout.splitlines()
    circle_id, count, _name, link = line.split("\t")
    assert count == "3" and link.startswith(f"/c/{circle_id}/")
    member = app.test_client()
    opened = member.get(link)
    assert opened.status_code == 303
    assert opened.headers["Location"] == f"/circles/{circle_id}"
    listed_games = member.get(f"/circles/{circle_id}/games").get_data(as_text=True)
    for pid in games:
        assert f'href="/games/{pid}"' in listed_games
    players = member.get(f"/circles/{circle_id}/players").get_data(as_text=True)
    for names, *_ in games.values():
        for name in names:
            assert f">{name}</a>" in players
    # Without the link the circle stays closed.
    assert app.test_client().get(f"/circles/{circle_id}/games").status_code == 404

    client = app.test_client()
    for pid, (names, rounds, _open, _) in games.items():
        body = client.get(f"/api/v1/games/{pid}").get_json()
        assert body["players"] == names
        assert body["totals"] == expected[pid]
        assert len(body["rounds"]) == rounds
        assert body["finished"] is (rounds == 20)
        page = client.get(f"/games/{pid}")
        assert page.status_code == 200
        html = page.get_data(as_text=True)
        for name, total in zip(names, expected[pid], strict=True):
            assert name in html and str(total).replace("-", "\u2212") in html
    # The old scorer token still works: the in-progress game takes its open round's tricks.
    r = client.put(
        "/api/v1/games/progress4xxxxxxxxxxxxx/rounds/7",
        json={"tricks": [7, 0, 0, 0]},
        headers={"Authorization": f"Bearer {TOKEN}"},
    )
    assert r.status_code == 200, r.get_json()
    assert member.get(f"/circles/{circle_id}/players").status_code == 200
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def _migration(name: str) -> Any:
    path = Path(__file__).resolve().parents[2] / "migrations" / "versions" / name
    spec = importlib.util.spec_from_file_location(name.removesuffix(".py"), path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Lines the app wrote before 0011, each with its action and data, and what it says now.
OLD_LINES = [
    ("created", "Game set up", None, None, "Game set up"),
    ("round_added", "Round 3 recorded", 3, None, "Round 3 recorded"),
    ("round_deleted", "Round 4 deleted", 4, None, "Round 4 deleted"),
    ("reopened", "Round 2 reopened", 2, None, "Round 2 reopened"),
    ("bid", "Round 2: Ann bid entered", 2, None, "Round 2: Ann bid entered"),
    ("bid", "Round 2: Mary Ann bid cleared", 2, None, "Round 2: Mary Ann bid cleared"),
    ("trump", "Round 2: trump red", 2, None, "Round 2: trump red"),
    ("trump", "Round 2: trump none", 2, None, "Round 2: trump no trump"),
    ("tricks", "Round 2: Ben's tricks entered", 2, None, "Round 2: Ben's tricks entered"),
    ("tricks", "Round 2: Ben's tricks cleared", 2, None, "Round 2: Ben's tricks cleared"),
    (
        "tricks",
        "Round 2: tricks from Cat on cleared",
        2,
        None,
        "Round 2: tricks from Cat on cleared",
    ),
    ("tricks", "Round 2: the rest made their bids", 2, None, "Round 2: the rest made their bids"),
    (
        "round_corrected",
        "Round 1 corrected: Ann's bid 1 → 0; Cat's tricks 0 → 1; trump – → red",
        1,
        None,
        "Round 1 corrected: Ann's bid 1 → 0; Cat's tricks 0 → 1; trump – → red",
    ),
    (
        "round_corrected",
        "Round 1 corrected: Ann's bid changed",
        1,
        None,
        "Round 1 corrected: Ann's bid changed",
    ),
    (
        "adjusted",
        "Ben: -10 in round 4 (misdeal)",
        4,
        {"seat": 1, "points": -10, "reason": "misdeal", "name": "Ben"},
        "Ben: \u221210 in round 4 (misdeal)",
    ),
    ("scorer", "Scoring taken over by a member of the circle", None, {}, None),
    ("circle", "Moved into a circle", None, {"circle": "Friends"}, None),
    ("next_game", "Next game started", None, {"public_id": "x" * 22}, None),
    ("game_deleted", "Game deleted", None, {}, None),
    ("game_restored", "Game brought back", None, {}, "Game brought back"),
]


def test_0011_gives_every_line_the_old_app_wrote_its_message_and_facts(app: Flask) -> None:
    message_of = _migration("0011_change_messages.py").message_of
    with app.test_request_context():
        for action, summary, number, data, now in OLD_LINES:
            message, facts = message_of(action, summary, number, data)
            assert message in i18n.LOG_MESSAGES, summary
            # Worded again from the id and facts: the same words (better ones for trump
            # and signs, which the page showed so already).
            assert i18n.log_line(message, facts, "") == (now or summary)
        # A line it doesn't know keeps no id: its stored words are shown (a round number
        # no game has, as an old import could hold, included).
        huge = "Round " + "9" * 5000 + " recorded"
        assert message_of("round_added", huge, None, None) == (None, None)
        assert message_of("tricks", "Something else", 2, None) == (None, None)
        assert message_of("round_corrected", "Round 1 corrected: who knows", 1, None) == (
            None,
            None,
        )


def test_0015_counts_seats_and_rates_as_the_app_does(tmp_path: Path, database_url: str) -> None:
    """Migration 0015 fills the counts by seat relative to the dealer and the ratings of a
    database with games: the same as the app keeps them while the games are played."""
    from flask_migrate import downgrade

    from scorekeeper.models import PlayerPosition, Rating, RatingStep
    from tests.history.support import random_history

    app: Flask = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": database_url},
        instance_path=tmp_path / "instance",
    )

    def kept() -> tuple[list[Any], ...]:
        positions = db.session.execute(
            select(PlayerPosition.__table__)
            .where(PlayerPosition.rounds > 0)
            .order_by(PlayerPosition.player_id, PlayerPosition.position)
        ).all()
        seats = db.session.execute(
            select(Seat.game_id, Seat.seat, Seat.by_position).order_by(Seat.game_id, Seat.seat)
        ).all()
        rated = db.session.execute(select(Rating.__table__).order_by(Rating.player_id)).all()
        steps = db.session.execute(
            select(RatingStep.__table__).order_by(RatingStep.game_id, RatingStep.player_id)
        ).all()
        return (
            [tuple(r) for r in positions],
            [(g, s, p or []) for g, s, p in seats],
            [tuple(r) for r in rated],
            [tuple(r)[:2] + tuple(r)[4:] for r in steps],  # times as each database reads them
        )

    with app.app_context():
        upgrade()
        random_history(random.Random(11), 25)
        db.session.commit()
        played = kept()
        assert played[0] and played[2], "some rounds and finished games"
        db.session.remove()
        downgrade(revision="0014")
        upgrade()
        assert kept() == played
