"""A circle's history pages against the size of its history, and the cost of ratings.

Fills two SQLite databases (temporary files) with 10 games and with 10,000 games among 50
players, all in one circle, then times the circle's games list, a filtered games list, the
players, a player page and the records on each (as a browser that opened the circle's
link), in the same run, and counts each page's queries. Target: the 10,000-game pages take
at most 1.5× the 10-game ones, with the same number of queries.

Ratings: the players page with its ratings against the same page without them (the
players' lines read as before ratings, every rating shown as "–"), taking turns request by
request on the large history (target: at most 1.5×); rating the whole large history from
scratch; and importing ``--import-games`` (1,000) games into an empty circle, ratings
included, with the rating's share of it (target: at most 5 s).

    .venv/bin/python bench/history.py [--games 10000] [--repeat 30] [--import-games 1000]
        [--json]

Games are written with SQLAlchemy core inserts; their scores, totals and seat summaries
come from the engine (``score_sheet``, ``stats.seat_summaries``) as the app writes them,
and the ratings by the app's own ``ratings.replay``.
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade
from sqlalchemy import and_, case, event, func, insert, select

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper import create_app, engine, transaction  # noqa: E402
from scorekeeper.engine import RoundEntry, RuleSet  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.models import (  # noqa: E402
    Change,
    Circle,
    Game,
    Player,
    PlayerCards,
    RatingStep,
    Rivalry,
    Round,
    RoundResult,
    Seat,
)
from scorekeeper.services import circles as circle_service  # noqa: E402
from scorekeeper.services import ratings, stats, transfer  # noqa: E402

PLAYERS = 50
CIRCLE = "benchCircle0000A"  # the circle's public id (the same in both databases)
RULES = [
    RuleSet.from_dict({}),
    RuleSet.from_dict({"round_plan": "short"}),
    RuleSet.from_dict({"dealer_rule": "plus_minus_one"}),
    RuleSet.from_dict({"dealer_rule": "canadian", "round_plan": "short"}),
]


def _fill(app: Flask, games: int, seed: int = 1, rule_sets: list[RuleSet] | None = None) -> None:
    """Bulk-insert ``games`` random games (about 90% finished) among 50 players, all in
    one circle, under rule sets picked from ``rule_sets`` (by default :data:`RULES`, some
    of whose dealer rules the random bids may break: an import would refuse those)."""
    rng = random.Random(seed)
    start = datetime(2020, 1, 1, tzinfo=UTC)
    with app.app_context():
        conn = db.session.connection()
        conn.execute(
            insert(Circle),
            [{"id": 1, "public_id": CIRCLE, "name": "Bench", "created_at": start}],
        )
        conn.execute(
            insert(Player),
            [
                {
                    "id": i,
                    "circle_id": 1,
                    "name": f"Player {i}",
                    "key": f"player {i}",
                    "created_at": start,
                }
                for i in range(1, PLAYERS + 1)
            ],
        )
        game_rows: list[dict[str, Any]] = []
        seat_rows: list[dict[str, Any]] = []
        round_rows: list[dict[str, Any]] = []
        result_rows: list[dict[str, Any]] = []
        change_rows: list[dict[str, Any]] = []
        by_cards: dict[tuple[int, int], list[int]] = {}
        rivals: dict[tuple[int, int], list[int]] = {}
        round_id = 0
        for gid in range(1, games + 1):
            n = rng.randint(3, 6)
            seated = rng.sample(range(1, PLAYERS + 1), n)
            if (gid == 1 or games <= 10) and 1 not in seated:
                seated[0] = 1  # player 1 is the one whose page is timed
            rules = rng.choice(rule_sets or RULES)
            first_dealer = rng.randrange(n)
            plan = engine.plan_for(rules, n)
            played = len(plan) if rng.random() < 0.9 else rng.randrange(len(plan))
            entries = []
            for number in range(1, played + 1):
                cards = plan[number - 1]
                bids: list[int | None] = [rng.randint(0, min(cards, 3)) for _ in range(n)]
                tricks = [0] * n
                for _ in range(cards):
                    tricks[rng.randrange(n)] += 1
                entries.append(RoundEntry(tuple(bids), tuple(tricks)))
            sheet = engine.score_sheet(rules, n, first_dealer, entries)
            created = start + timedelta(hours=gid * 3)
            game_rows.append(
                {
                    "id": gid,
                    "circle_id": 1,
                    "public_id": secrets.token_urlsafe(16),
                    "scorer_token_hash": "0" * 64,
                    "mode": "pad",
                    "rules": rules.to_dict(),
                    "player_count": n,
                    "first_dealer": first_dealer,
                    "created_at": created,
                    "updated_at": created,
                    "finished_at": created + timedelta(hours=1) if sheet.finished else None,
                    "version": 1,
                    "played": played > 0,
                }
            )
            change_rows.append(
                {"game_id": gid, "at": created, "action": "created", "summary": "Game set up"}
            )
            summaries = stats.seat_summaries(sheet)
            for p, o, *counts in stats.rivalries(
                [(seated[i], x.total, x.won) for i, x in enumerate(summaries)]
            ):
                pair = rivals.setdefault((p, o), [0, 0, 0, 0])
                for i, c in enumerate(counts):
                    pair[i] += c
            for seat, summary in enumerate(summaries):
                row = {"game_id": gid, "seat": seat, "player_id": seated[seat]}
                row.update(summary.__dict__)
                row["by_cards"] = [list(line) for line in summary.by_cards]
                seat_rows.append(row)
                for c, r, e in summary.by_cards:
                    line = by_cards.setdefault((seated[seat], c), [0, 0])
                    line[0] += r
                    line[1] += e
            for scored in sheet.rounds:
                round_id += 1
                round_rows.append(
                    {
                        "id": round_id,
                        "game_id": gid,
                        "number": scored.number,
                        "cards": scored.cards,
                        "dealer": scored.dealer,
                        "trump": None,
                        "complete": True,
                        "created_at": created,
                    }
                )
                assert scored.scores is not None and scored.entry.tricks is not None
                for seat in range(n):
                    result_rows.append(
                        {
                            "round_id": round_id,
                            "seat": seat,
                            "player_id": seated[seat],
                            "bid": scored.entry.bids[seat],
                            "tricks": scored.entry.tricks[seat],
                            "score": scored.scores[seat],
                            "total": scored.totals[seat],
                        }
                    )
        for model, rows in (
            (Game, game_rows),
            (Seat, seat_rows),
            (Round, round_rows),
            (RoundResult, result_rows),
            (Change, change_rows),
            (
                PlayerCards,
                [
                    {"player_id": p, "cards": c, "rounds": r, "exact": e}
                    for (p, c), (r, e) in sorted(by_cards.items())
                ],
            ),
            (
                Rivalry,
                [
                    {
                        "player_id": p,
                        "other_id": o,
                        "games": g,
                        "ahead": a,
                        "behind": b,
                        "level": lv,
                    }
                    for (p, o), (g, a, b, lv) in sorted(rivals.items())
                ],
            ),
        ):
            for i in range(0, len(rows), 20_000):
                conn.execute(insert(model), rows[i : i + 20_000])
        db.session.commit()
        ratings.replay(db.session.connection(), 1)
        db.session.commit()
        conn = db.session.connection()
        conn.exec_driver_sql("ANALYZE")
        db.session.commit()


@contextmanager
def _counting(app: Flask) -> Iterator[list[str]]:
    statements: list[str] = []

    def record(*args: object) -> None:
        statements.append(str(args[2]))

    with app.app_context():
        eng = db.engine
    event.listen(eng, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        event.remove(eng, "before_cursor_execute", record)


def _lines_without_ratings(circle_id: int) -> list[stats.PlayerLine]:
    """The players' lines as they were read before ratings (no rating)."""
    rows = db.session.execute(
        select(
            Player.id,
            Player.name,
            func.count(Seat.game_id),
            func.coalesce(func.sum(case((Seat.won.is_(True), 1), else_=0)), 0),
            func.coalesce(func.sum(Seat.bid_rounds), 0),
            func.coalesce(func.sum(Seat.exact), 0),
        )
        .where(Player.circle_id == circle_id)
        .outerjoin(Seat, and_(Seat.player_id == Player.id, stats.live(circle_id)))
        .group_by(Player.id, Player.name)
        .order_by(Player.key)
    )
    return [
        stats.PlayerLine(pid, name, int(g), int(w), int(e) / int(b) if b else None)
        for pid, name, g, w, b, e in rows
    ]


def _players_ratio(app: Flask, repeat: int) -> dict[str, float]:
    """The players page with ratings against without, request by request."""
    client = _member(app)
    url = PAGES["players"]
    real = stats.player_lines
    times: dict[str, list[float]] = {"with": [], "without": []}
    for _ in range(3):
        client.get(url)
    for _ in range(repeat):
        for kind in ("with", "without"):
            stats.player_lines = real if kind == "with" else _lines_without_ratings
            try:
                t0 = time.perf_counter()
                assert client.get(url).status_code == 200
                times[kind].append(time.perf_counter() - t0)
            finally:
                stats.player_lines = real
    with_ms = statistics.median(times["with"]) * 1000
    without_ms = statistics.median(times["without"]) * 1000
    return {"with_ms": with_ms, "without_ms": without_ms, "ratio": with_ms / without_ms}


def _rating_costs(large: Flask, small: Flask, tmp: Path, games: int) -> dict[str, float]:
    """Rating the large history from scratch; importing ``games`` games (a history file
    made from the small database refilled with that many) into an empty circle of a
    fresh database, and the rating's part of it."""
    with large.app_context():
        t0 = time.perf_counter()
        rated = ratings.replay(db.session.connection(), 1)
        rescratch_s = time.perf_counter() - t0
        db.session.rollback()
    source = _app(tmp / "source.sqlite")
    _fill(source, games, seed=2, rule_sets=RULES[:2])  # no dealer rule: any bid is legal
    with source.app_context():
        text = transfer.history_json(1)
    target = _app(tmp / "target.sqlite")
    spent: list[float] = []
    real = ratings.replay

    def timed(*args: Any, **kwargs: Any) -> int:
        t0 = time.perf_counter()
        try:
            return real(*args, **kwargs)
        finally:
            spent.append(time.perf_counter() - t0)

    with target.app_context():
        circle = circle_service.create_circle("Imported")
        db.session.commit()
        ratings.replay = timed  # type: ignore[assignment]
        try:
            t0 = time.perf_counter()
            with transaction.atomic():
                result = transfer.import_history(text, circle.id)
            import_s = time.perf_counter() - t0
        finally:
            ratings.replay = real  # type: ignore[assignment]
        assert result.imported == games, result
        steps = db.session.scalar(select(func.count()).select_from(RatingStep))
    return {
        "rated_games": rated,
        "rescratch_s": rescratch_s,
        "import_games": games,
        "import_s": import_s,
        "import_rating_s": sum(spent),
        "import_steps": int(steps or 0),
    }


PAGES = {
    "games list": f"/circles/{CIRCLE}/games",
    "filtered list": f"/circles/{CIRCLE}/games?player=1&status=finished",
    "players": f"/circles/{CIRCLE}/players",
    "player page": f"/circles/{CIRCLE}/players/1",
    "records": f"/circles/{CIRCLE}/records",
}


def _member(app: Flask) -> FlaskClient:
    """A browser that opened the circle's link."""
    with app.app_context():
        circle = circle_service.get_circle(CIRCLE)
        link = f"/c/{CIRCLE}/{circle_service.circle_key(circle)}"
    client = app.test_client()
    assert client.get(link).status_code == 303, link
    return client


def _measure(apps: dict[str, Flask], repeat: int) -> dict[str, dict[str, dict[str, float]]]:
    """Median time and query count of every page on every app. The apps take turns
    request by request, so that a busy machine slows them alike."""
    clients = {k: _member(app) for k, app in apps.items()}
    out: dict[str, dict[str, dict[str, float]]] = {k: {} for k in apps}
    for name, url in PAGES.items():
        times: dict[str, list[float]] = {k: [] for k in apps}
        for k, client in clients.items():
            for _ in range(3):
                assert client.get(url).status_code == 200, url
            with _counting(apps[k]) as statements:
                client.get(url)
            out[k][name] = {"queries": len(statements)}
        for _ in range(repeat):
            for k, client in clients.items():
                t0 = time.perf_counter()
                client.get(url)
                times[k].append(time.perf_counter() - t0)
        for k in apps:
            out[k][name]["ms"] = statistics.median(times[k]) * 1000
    return out


def _app(path: Path) -> Flask:
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"},
        instance_path=path.parent / "instance",
    )
    with app.app_context():
        upgrade()
    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=60)
    parser.add_argument("--import-games", type=int, default=1000)
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    args = parser.parse_args()
    import logging

    logging.getLogger("alembic").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        small_app, large_app = _app(Path(tmp) / "small.sqlite"), _app(Path(tmp) / "large.sqlite")
        _fill(small_app, 10)
        t0 = time.perf_counter()
        _fill(large_app, args.games)
        fill_s = time.perf_counter() - t0
        measured = _measure({"small": small_app, "large": large_app}, args.repeat)
        small, large = measured["small"], measured["large"]
        players = _players_ratio(large_app, args.repeat)
        costs = _rating_costs(large_app, small_app, Path(tmp), args.import_games)
    print(f"filled {args.games} games among {PLAYERS} players of one circle in {fill_s:.1f} s")
    print(f"{'page':<15}{'10 games':>12}{f'{args.games} games':>16}{'ratio':>8}{'queries':>10}")
    result: dict[str, Any] = {"games": args.games, "players": PLAYERS, "pages": {}}
    for name in PAGES:
        s, big = small[name], large[name]
        ratio = big["ms"] / s["ms"]
        queries = f"{s['queries']:.0f}/{big['queries']:.0f}"
        print(f"{name:<15}{s['ms']:>10.2f}ms{big['ms']:>14.2f}ms{ratio:>7.2f}×{queries:>10}")
        result["pages"][name] = {
            "ms_10": round(s["ms"], 3),
            "ms_large": round(big["ms"], 3),
            "ratio": round(ratio, 3),
            "queries_10": int(s["queries"]),
            "queries_large": int(big["queries"]),
        }
    result["max_ratio"] = max(p["ratio"] for p in result["pages"].values())
    print(
        f"players page with ratings {players['with_ms']:.2f} ms, without "
        f"{players['without_ms']:.2f} ms: {players['ratio']:.2f}× ({args.games} games)"
    )
    print(
        f"ratings of {costs['rated_games']:.0f} finished games from scratch: "
        f"{costs['rescratch_s']:.2f} s"
    )
    print(
        f"import of {costs['import_games']:.0f} games: {costs['import_s']:.2f} s, "
        f"of which rating them {costs['import_rating_s']:.2f} s "
        f"({costs['import_steps']} rating steps)"
    )
    result["players_ratings"] = {k: round(v, 3) for k, v in players.items()}
    result["ratings"] = {k: round(v, 3) for k, v in costs.items()}
    # The targets: every page within 1.5× of its 10-game self, the players page within
    # 1.5× of itself without ratings, and the rating of an imported 1,000 games within 5 s.
    result["target_met"] = (
        result["max_ratio"] <= 1.5 and players["ratio"] <= 1.5 and costs["import_rating_s"] <= 5
    )
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
