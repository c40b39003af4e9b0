"""A circle's pages on a server with 10,000 circles, against a server with one circle.

Fills two databases: one with a single circle of 20 games, one with 10,000 circles of 20
games each (200,000 games), every circle with its own ~6 players, 4 of them at each game.
The timed circle is the same in both (same games, players and statistics), so any
difference is what the other circles cost it. Times its games list, a player page and
its records on both, in the same run (the two servers take turns request by request),
and counts each page's SQL queries. Target: at most 1.5× the one-circle time, with the
same number of queries.

    .venv/bin/python bench/circles.py [--circles 10000] [--repeat 40] [--json]
    .venv/bin/python bench/circles.py --database-url postgresql+psycopg://user@host:5432/db

On SQLite the databases are temporary files (``--dir DIR`` keeps them there and reuses
them on the next run). With ``--database-url`` (a PostgreSQL server the user may create
databases on) the bench creates two databases next to the named one,
``<name>_circles_one`` and ``<name>_circles_many``, and drops them afterwards
(``--keep`` keeps them for the next run). A throwaway server, as ``bin/_common.sh``'s
``start_test_postgres`` starts one for the tests::

    initdb -D /tmp/pg/data -U bench -A trust -E UTF8 --no-locale
    pg_ctl -D /tmp/pg/data -l /tmp/pg/log -w -o "-p 15488 -k /tmp/pg" start
    .venv/bin/python bench/circles.py \
        --database-url postgresql+psycopg://bench@127.0.0.1:15488/postgres
    pg_ctl -D /tmp/pg/data -m immediate stop

Games are written with bulk inserts (no app code per game): each is one of 64 games
scored by the engine (``score_sheet``, ``stats.seat_summaries``), seated with the circle's
players, so seats, by-cards counts and head-to-head records are what the app would have
written. Rounds are not written unless ``--rounds`` (no timed page reads them).
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from flask import Flask
from flask_migrate import upgrade
from sqlalchemy import create_engine, event, func, select, text
from sqlalchemy.engine import make_url

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper import create_app, engine  # noqa: E402
from scorekeeper.engine import RoundEntry, RuleSet  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.models import Circle, Player, Seat  # noqa: E402
from scorekeeper.services import circles as circle_service  # noqa: E402
from scorekeeper.services import stats  # noqa: E402

GAMES_PER_CIRCLE = 20
SEATED = 4
NAMES = [
    "Anna", "Ben", "Cat", "Dan", "Eve", "Finn", "Gus", "Hanna", "Ida", "Jon", "Kim", "Lea",
    "Max", "Nina", "Ole", "Pia", "Quinn", "Rosa", "Sam", "Tom", "Uma", "Vera", "Will", "Zoe",
]  # fmt: skip
RULES = [
    RuleSet.from_dict({}),
    RuleSet.from_dict({"round_plan": "short"}),
    RuleSet.from_dict({"dealer_rule": "plus_minus_one"}),
    RuleSet.from_dict({"dealer_rule": "canadian", "round_plan": "short"}),
]
TEMPLATES = 64
START = datetime(2023, 1, 1, tzinfo=UTC)
SPAN_HOURS = 3 * 365 * 24
BATCH = 20_000
SECRET_KEY = "bench"


@dataclass(frozen=True)
class Template:
    """A game as the engine scored it, to seat any four players at."""

    rules: dict[str, Any]
    first_dealer: int
    finished: bool
    summaries: list[stats.SeatSummary]
    rounds: list[Any]  # the sheet's scored rounds


def _templates(seed: int) -> list[Template]:
    rng = random.Random(seed)
    out = []
    for _ in range(TEMPLATES):
        rules = rng.choice(RULES)
        first_dealer = rng.randrange(SEATED)
        plan = engine.plan_for(rules, SEATED)
        played = len(plan) if rng.random() < 0.9 else rng.randrange(len(plan))
        entries = []
        for number in range(1, played + 1):
            cards = plan[number - 1]
            bids: list[int | None] = [rng.randint(0, min(cards, 3)) for _ in range(SEATED)]
            tricks = [0] * SEATED
            for _ in range(cards):
                tricks[rng.randrange(SEATED)] += 1
            entries.append(RoundEntry(tuple(bids), tuple(tricks)))
        sheet = engine.score_sheet(rules, SEATED, first_dealer, entries)
        out.append(
            Template(
                rules.to_dict(),
                first_dealer,
                sheet.finished,
                stats.seat_summaries(sheet),
                list(sheet.rounds),
            )
        )
    return out


COLUMNS = {
    "circle": ("id", "public_id", "name", "link_generation", "passphrase_hash", "created_at"),
    "player": ("id", "circle_id", "name", "key", "created_at"),
    "game": (
        "id", "public_id", "circle_id", "scorer_token_hash", "mode", "rules", "player_count",
        "first_dealer", "created_at", "updated_at", "finished_at", "version",
    ),
    "change": ("game_id", "at", "action", "summary"),
    "seat": (
        "game_id", "seat", "player_id", "total", "won", "rounds", "bid_rounds", "exact",
        "overs", "unders", "best_streak", "max_deficit", "by_cards",
    ),
    "player_cards": ("player_id", "cards", "rounds", "exact"),
    "rivalry": ("player_id", "other_id", "games", "ahead", "behind", "level"),
    "round": ("id", "game_id", "number", "cards", "dealer", "trump", "complete", "created_at"),
    "round_result": ("round_id", "seat", "player_id", "bid", "tricks", "score", "total"),
}  # fmt: skip
# Parents before the rows that refer to them.
ORDER = list(COLUMNS)


class Filler:
    """Writes circles with their players and games in bulk, numbering the rows itself:
    plain tuples through the driver (``executemany`` on SQLite, ``COPY`` on PostgreSQL),
    as the app's columns store them."""

    def __init__(self, app: Flask, templates: list[Template], with_rounds: bool) -> None:
        self.app = app
        self.templates = templates
        self.with_rounds = with_rounds
        with app.app_context():
            self.postgres = db.engine.dialect.name == "postgresql"
        for table, columns in COLUMNS.items():  # the models' tables, by their names
            assert set(columns) <= set(db.metadata.tables[table].columns.keys()), table
        self.circle_id = self.player_id = self.game_id = self.round_id = 0
        self.rows: dict[str, list[tuple[Any, ...]]] = {table: [] for table in COLUMNS}
        self.waiting = 0
        # What every game of a template writes the same: its rules and seats as stored.
        self.rules = [json.dumps(t.rules) for t in templates]
        self.seats = [
            [
                (
                    s.total, s.won, s.rounds, s.bid_rounds, s.exact, s.overs, s.unders,
                    s.best_streak, s.max_deficit, json.dumps([list(x) for x in s.by_cards]),
                )
                for s in t.summaries
            ]
            for t in templates
        ]  # fmt: skip

    def _time(self, moment: datetime) -> Any:
        # SQLite keeps times as SQLAlchemy writes them: text, UTC without an offset.
        return moment if self.postgres else moment.strftime("%Y-%m-%d %H:%M:%S.%f")

    def circle(self, seed: int) -> None:
        """One circle from ``seed`` (the same seed: the same circle, games and all)."""
        rng = random.Random(seed)
        add = self._add
        self.circle_id += 1
        cid = self.circle_id
        start = self._time(START)
        add("circle", (cid, _public_id(seed), f"Circle {seed}", 1, None, start))
        players = []
        for name in rng.sample(NAMES, rng.randint(5, 7)):
            self.player_id += 1
            players.append(self.player_id)
            add("player", (self.player_id, cid, name, name.casefold(), start))
        by_cards: dict[tuple[int, int], list[int]] = {}
        rivals: dict[tuple[int, int], list[int]] = {}
        for _ in range(GAMES_PER_CIRCLE):
            index = rng.randrange(len(self.templates))
            t = self.templates[index]
            seated = rng.sample(players, SEATED)
            moment = START + timedelta(hours=rng.randrange(SPAN_HOURS), seconds=seed % 3600)
            created = self._time(moment)
            finished = self._time(moment + timedelta(hours=1)) if t.finished else None
            self.game_id += 1
            gid = self.game_id
            add(
                "game",
                (
                    gid, f"g{seed:012d}{gid:09d}", cid, "0" * 64, "pad", self.rules[index],
                    SEATED, t.first_dealer, created, created, finished, 1,
                ),
            )  # fmt: skip
            add("change", (gid, created, "created", "Game set up"))
            for p, o, *counts in stats.rivalries(
                [(seated[i], s.total, s.won) for i, s in enumerate(t.summaries)]
            ):
                pair = rivals.setdefault((p, o), [0, 0, 0, 0])
                for i, c in enumerate(counts):
                    pair[i] += c
            for seat, (summary, stored) in enumerate(
                zip(t.summaries, self.seats[index], strict=True)
            ):
                player = seated[seat]
                add("seat", (gid, seat, player, *stored))
                for c, r, e in summary.by_cards:
                    line = by_cards.setdefault((player, c), [0, 0])
                    line[0] += r
                    line[1] += e
            if self.with_rounds:
                self._rounds(gid, seated, t, created)
        for (p, c), (r, e) in sorted(by_cards.items()):
            add("player_cards", (p, c, r, e))
        for (p, o), counts in sorted(rivals.items()):
            add("rivalry", (p, o, *counts))

    def _rounds(self, gid: int, seated: list[int], t: Template, created: Any) -> None:
        for scored in t.rounds:
            self.round_id += 1
            self._add(
                "round",
                (
                    self.round_id,
                    gid,
                    scored.number,
                    scored.cards,
                    scored.dealer,
                    None,
                    True,
                    created,
                ),
            )
            for seat in range(SEATED):
                self._add(
                    "round_result",
                    (
                        self.round_id, seat, seated[seat], scored.entry.bids[seat],
                        scored.entry.tricks[seat], scored.scores[seat], scored.totals[seat],
                    ),
                )  # fmt: skip

    def _add(self, table: str, row: tuple[Any, ...]) -> None:
        self.rows[table].append(row)
        self.waiting += 1
        if self.waiting >= BATCH:
            self.flush()

    def flush(self) -> None:
        """Insert what is waiting, parents first, in one transaction."""
        with self.app.app_context():
            conn = db.session.connection()
            driver = conn.connection.driver_connection
            cursor = driver.cursor()  # type: ignore[union-attr]
            for table in ORDER:
                rows = self.rows[table]
                if not rows:
                    continue
                columns = ", ".join(f'"{c}"' for c in COLUMNS[table])
                if self.postgres:
                    with cursor.copy(f'COPY "{table}" ({columns}) FROM STDIN') as copy:
                        for row in rows:
                            copy.write_row(row)
                else:
                    marks = ", ".join("?" * len(COLUMNS[table]))
                    cursor.executemany(f'INSERT INTO "{table}" ({columns}) VALUES ({marks})', rows)
                rows.clear()
            cursor.close()
            db.session.commit()
        self.waiting = 0

    def finish(self) -> None:
        self.flush()
        with self.app.app_context():
            conn = db.session.connection()
            if self.postgres:
                # Rows were numbered here: move the sequences past them.
                for table in ("circle", "player", "game", "round"):
                    conn.exec_driver_sql(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                        f'(SELECT coalesce(max(id), 1) FROM "{table}"))'
                    )
            db.session.commit()
        analyze(self.app)


def analyze(app: Flask) -> None:
    """Planner statistics, as a database that has been in use for a while has them."""
    with app.app_context():
        eng = db.engine
    with eng.connect() as conn:
        if conn.dialect.name == "postgresql":
            conn = conn.execution_options(isolation_level="AUTOCOMMIT")
            conn.exec_driver_sql("VACUUM ANALYZE")
        else:
            conn.exec_driver_sql("ANALYZE")
            conn.commit()


@dataclass
class Server:
    """One database with its app, and the timed circle in it."""

    name: str
    app: Flask
    circle: str = ""
    player: int = 0

    def urls(self) -> dict[str, str]:
        base = f"/circles/{self.circle}"
        return {
            "games list": f"{base}/games",
            "player page": f"{base}/players/{self.player}",
            "records": f"{base}/records",
        }


def _app(url: str, instance: Path) -> Flask:
    app = create_app(
        {"TESTING": True, "SECRET_KEY": SECRET_KEY, "SQLALCHEMY_DATABASE_URI": url},
        instance_path=instance,
    )
    logging.disable(logging.INFO)  # the migrations' progress
    try:
        with app.app_context():
            upgrade()
    finally:
        logging.disable(logging.NOTSET)
    return app


def _filled(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Circle)) or 0


def _public_id(seed: int) -> str:
    return f"c{seed:015d}"


def _most_seated(app: Flask, public_id: str) -> int:
    """The circle's player with the most games (of equals, the first made)."""
    games = func.count(Seat.game_id)
    with app.app_context():
        row = db.session.execute(
            select(Player.id)
            .join(Circle, Circle.id == Player.circle_id)
            .join(Seat, Seat.player_id == Player.id)
            .where(Circle.public_id == public_id)
            .group_by(Player.id)
            .order_by(games.desc(), Player.id)
            .limit(1)
        ).first()
    assert row is not None, public_id
    return int(row[0])


def fill(server: Server, circles: int, timed_seed: int, with_rounds: bool) -> float:
    """Fill the server's database with ``circles`` circles (unless a kept database holds
    them already); the circle of ``timed_seed`` is the one timed. Returns the seconds it
    took."""
    t0 = time.perf_counter()
    existing = _filled(server.app)
    if existing not in (0, circles):
        raise SystemExit(f"{server.name}: the database holds {existing} circles, not {circles}")
    if not existing:
        filler = Filler(server.app, _templates(1), with_rounds)
        for seed in [timed_seed] if circles == 1 else range(1, circles + 1):
            filler.circle(seed)
        filler.finish()
    server.circle = _public_id(timed_seed)
    server.player = _most_seated(server.app, server.circle)
    return time.perf_counter() - t0


@contextmanager
def counting(app: Flask) -> Iterator[list[str]]:
    """The SQL statements sent while the block runs."""
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


@contextmanager
def sql_clock(app: Flask) -> Iterator[list[float]]:
    """The seconds spent in the database while the block runs (one running sum)."""
    spent = [0.0]
    started: list[float] = []

    def before(*_args: object) -> None:
        started.append(time.perf_counter())

    def after(*_args: object) -> None:
        spent[0] += time.perf_counter() - started.pop()

    with app.app_context():
        eng = db.engine
    event.listen(eng, "before_cursor_execute", before)
    event.listen(eng, "after_cursor_execute", after)
    try:
        yield spent
    finally:
        event.remove(eng, "before_cursor_execute", before)
        event.remove(eng, "after_cursor_execute", after)


def _member(server: Server) -> Any:
    """A browser holding the timed circle's link."""
    client = server.app.test_client()
    with server.app.app_context():
        circle = circle_service.get_circle(server.circle)
        key = circle_service.circle_key(circle)
    opened = client.get(f"/c/{server.circle}/{key}")
    assert opened.status_code == 303, opened.status_code
    return client


def measure(servers: list[Server], repeat: int) -> dict[str, dict[str, dict[str, Any]]]:
    """Median time and the queries of every page on every server; the servers take turns
    request by request, so that a busy machine slows them alike."""
    clients = {s.name: _member(s) for s in servers}
    out: dict[str, dict[str, dict[str, Any]]] = {s.name: {} for s in servers}
    for page in servers[0].urls():
        times: dict[str, list[float]] = {s.name: [] for s in servers}
        for s in servers:
            url = s.urls()[page]
            for _ in range(3):
                answer = clients[s.name].get(url)
                assert answer.status_code == 200, (s.name, url, answer.status_code)
            with counting(s.app) as statements:
                clients[s.name].get(url)
            out[s.name][page] = {"queries": len(statements), "statements": statements}
        sql: dict[str, list[float]] = {s.name: [] for s in servers}
        for _ in range(repeat):
            for s in servers:
                url = s.urls()[page]
                with sql_clock(s.app) as spent:
                    t0 = time.perf_counter()
                    clients[s.name].get(url)
                    times[s.name].append(time.perf_counter() - t0)
                sql[s.name].append(spent[0])
        for s in servers:
            out[s.name][page]["ms"] = statistics.median(times[s.name]) * 1000
            out[s.name][page]["sql_ms"] = statistics.median(sql[s.name]) * 1000
    return out


@contextmanager
def databases(args: argparse.Namespace) -> Iterator[tuple[str, str, Path]]:
    """The URLs of the one-circle and the many-circle database, and an instance folder."""
    with tempfile.TemporaryDirectory() as tmp:
        instance = Path(tmp) / "instance"
        if not args.database_url:
            folder = Path(args.dir) if args.dir else Path(tmp)
            folder.mkdir(parents=True, exist_ok=True)
            rounds = "-rounds" if args.rounds else ""
            yield (
                f"sqlite:///{folder / f'circles-1{rounds}.sqlite'}",
                f"sqlite:///{folder / f'circles-{args.circles}{rounds}.sqlite'}",
                instance,
            )
            return
        url = make_url(args.database_url)
        base = url.database or "postgres"
        names = [f"{base}_circles_one", f"{base}_circles_many"]
        admin = create_engine(url, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            for name in names:
                exists = conn.execute(
                    text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name}
                ).first()
                if exists and not args.keep:
                    conn.exec_driver_sql(f'DROP DATABASE "{name}"')
                    exists = None
                if not exists:
                    conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
        try:
            yield (
                url.set(database=names[0]).render_as_string(hide_password=False),
                url.set(database=names[1]).render_as_string(hide_password=False),
                instance,
            )
        finally:
            if not args.keep:
                with admin.connect() as conn:
                    for name in names:
                        conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            admin.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--circles", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--database-url", help="a PostgreSQL server to run on (see above)")
    parser.add_argument("--dir", help="SQLite: keep the databases in DIR and reuse them")
    parser.add_argument("--keep", action="store_true", help="PostgreSQL: keep the databases")
    parser.add_argument("--rounds", action="store_true", help="write every game's rounds too")
    parser.add_argument("--show-sql", action="store_true", help="print each page's queries")
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    args = parser.parse_args()
    timed_seed = args.circles // 2 or 1
    with databases(args) as (one_url, many_url, instance):
        one = Server("one", _app(one_url, instance))
        many = Server("many", _app(many_url, instance))
        fill(one, 1, timed_seed, args.rounds)
        reused = _filled(many.app) == args.circles
        fill_s = fill(many, args.circles, timed_seed, args.rounds)
        measured = measure([one, many], args.repeat)
        dialect = make_url(many_url).get_backend_name()
        for s in (one, many):
            with s.app.app_context():
                db.session.remove()
                db.engine.dispose()
    games = args.circles * GAMES_PER_CIRCLE
    print(
        f"{dialect}: {args.circles} circles, {games} games"
        f"{' with rounds' if args.rounds else ''}"
        f" ({'kept from the last run' if reused else f'filled in {fill_s:.0f} s'})"
    )
    print(
        f"{'page':<14}{'1 circle':>12}{f'{args.circles} circles':>17}{'ratio':>8}"
        f"{'queries':>10}{'SQL time (1 / many)':>24}"
    )
    result: dict[str, Any] = {}
    queries: dict[str, dict[str, int]] = {}
    timings: dict[str, dict[str, float]] = {}
    for page in measured["one"]:
        small, large = measured["one"][page], measured["many"][page]
        ratio = large["ms"] / small["ms"]
        key = page.replace(" ", "_")
        counts = f"{small['queries']}/{large['queries']}"
        sql = f"{small['sql_ms']:.2f} / {large['sql_ms']:.2f} ms"
        print(
            f"{page:<14}{small['ms']:>10.2f}ms{large['ms']:>15.2f}ms{ratio:>7.2f}×"
            f"{counts:>10}{sql:>24}"
        )
        result[f"{key}_ratio"] = round(ratio, 3)
        queries[key] = {"one": small["queries"], "many": large["queries"]}
        timings[key] = {
            "one_ms": round(small["ms"], 3),
            "many_ms": round(large["ms"], 3),
            "one_sql_ms": round(small["sql_ms"], 3),
            "many_sql_ms": round(large["sql_ms"], 3),
            "sql_ratio": round(large["sql_ms"] / small["sql_ms"], 3),
        }
        if args.show_sql:
            for statement in large["statements"]:
                print("    " + " ".join(statement.split()))
    result["ms"] = timings
    result["queries"] = queries
    result["same_queries"] = all(q["one"] == q["many"] for q in queries.values())
    result["database"] = dialect
    result["circles"] = args.circles
    result["games"] = games
    worst = max(v for k, v in result.items() if k.endswith("_ratio"))
    result["target_met"] = worst <= 1.5 and result["same_queries"]
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
