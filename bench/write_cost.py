"""Where a round submission's time goes, in one process: the load benchmark's write, taken apart.

    .venv/bin/python bench/write_cost.py [--games 256] [--writes 1024] [--json]

Fills a temporary SQLite database as ``bench/load.py`` does (256 four-player games with 5
rounds played) and corrects round 1 of each game in turn through the Flask test client
(``PUT /api/v1/games/<id>/rounds/1`` with the scorer token; a game's corrections
alternate between two, so each one changes the round), timing these parts of every write:

- load: reading the game (``services.games.get_game``, the ORM's one statement and its
  objects);
- flush: the ORM's flush of the changes (the statements that write, and the unit of work
  that finds them);
- answer: the answer, the game as JSON (``api.games._game_response``);
- commit: the transaction's commit (SQLite's, with the WAL's fsync);
- the rest: Flask, the scorer check, the body's validation, the rule check, the scoring
  by the engine, the change log and the statistics of the game (the write's own work).

Then sends the statements the writes sent (captured with their parameters) straight
through ``sqlite3``, committed as the app does: what reading and writing cost the driver
without the ORM. ``GET /healthz`` through the same client is the yardstick, as in
``bench/load.py``: "without the ORM" is the write with load, flush and commit replaced by
the bare statements, as a share of ``/healthz``'s requests/s; the load benchmark's
target for round submissions is 15 %. With --json the last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import fill  # noqa: E402
from scorekeeper import create_app  # noqa: E402
from scorekeeper.api import games as api_games  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.services import games as game_service  # noqa: E402
from tests.robustness.servers import migrate  # noqa: E402

BODIES = (
    '{"bids": [0, 1, 0, 0], "tricks": [0, 1, 0, 0]}',
    '{"bids": [1, 0, 0, 0], "tricks": [1, 0, 0, 0]}',
)
PARTS = ("load", "flush", "answer", "commit")
COMMIT = "COMMIT"  # where a transaction ended, among the captured statements


class Clock:
    """Time spent in each part during the current write, summed over the writes."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = defaultdict(float)
        self._started: dict[str, float] = {}

    @contextmanager
    def part(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.spent[name] += time.perf_counter() - start

    def wrap(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            with self.part(name):
                return function(*args, **kwargs)

        return timed

    def start(self, name: str) -> None:
        self._started[name] = time.perf_counter()

    def running(self, name: str) -> bool:
        return name in self._started

    def stop(self, name: str) -> None:
        self.spent[name] += time.perf_counter() - self._started.pop(name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=256, help="games corrected in turn")
    parser.add_argument("--writes", type=int, default=1024, help="corrections timed")
    parser.add_argument("--json", action="store_true", help="one JSON object as last line")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games: at least 1")
    if args.writes < 1:
        parser.error("--writes: at least 1")

    with tempfile.TemporaryDirectory(prefix="scorekeeper-write-cost-") as tmp:
        instance = Path(tmp)
        path = instance / "cost.sqlite"
        url = f"sqlite:///{path}"
        migrate(url, instance)
        _, games = fill(url, instance, fours=args.games)
        app = create_app(
            {"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": url}, instance_path=instance
        )
        client = app.test_client()
        sent = 0

        def write() -> None:
            nonlocal sent
            public_id, token = games[sent % len(games)]
            body = BODIES[(sent // len(games)) % 2]
            sent += 1
            answer = client.put(
                f"/api/v1/games/{public_id}/rounds/1",
                data=body,
                headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
            )
            if answer.status_code != 200:
                raise SystemExit(f"a correction was answered {answer.status_code}: {answer.text}")

        # Warm up: every game read and corrected once, every code path compiled.
        for _ in range(len(games)):
            write()

        clock = Clock()
        statements: list[tuple[str, Any, bool]] = []
        originals = (game_service.get_game, api_games._game_response)
        game_service.get_game = clock.wrap("load", game_service.get_game)  # type: ignore[assignment]
        api_games._game_response = clock.wrap("answer", api_games._game_response)  # type: ignore[assignment]

        # A flush within the commit (nothing is left to flush by then) is the commit's.
        def before_flush(*_: Any) -> None:
            if not clock.running("commit"):
                clock.start("flush")

        def after_flush(*_: Any) -> None:
            if clock.running("flush"):
                clock.stop("flush")

        def before_commit(*_: Any) -> None:
            clock.start("commit")

        def after_commit(*_: Any) -> None:
            clock.stop("commit")
            statements.append((COMMIT, None, False))

        def statement(_c: Any, _cur: Any, sql: str, params: Any, _x: Any, many: bool) -> None:
            statements.append((sql, params, many))

        listeners = [
            (Session, "before_flush", before_flush),
            (Session, "after_flush_postexec", after_flush),
            (Session, "before_commit", before_commit),
            (Session, "after_commit", after_commit),
        ]
        for target, name, listener in listeners:
            event.listen(target, name, listener)
        with app.app_context():
            event.listen(db.engine, "before_cursor_execute", statement)
        try:
            start = time.perf_counter()
            for _ in range(args.writes):
                write()
            whole = (time.perf_counter() - start) / args.writes
        finally:
            for target, name, listener in listeners:
                event.remove(target, name, listener)
            with app.app_context():
                event.remove(db.engine, "before_cursor_execute", statement)
            game_service.get_game, api_games._game_response = originals  # type: ignore[assignment]

        spent = {name: clock.spent[name] / args.writes for name in PARTS}
        bare_reads, bare_writes = (t / args.writes for t in _bare(path, statements))

        start = time.perf_counter()
        for _ in range(args.writes):
            if client.get("/healthz").status_code != 200:
                raise SystemExit("/healthz did not answer 200")
        healthz = (time.perf_counter() - start) / args.writes

    sent_statements = sum(1 for s in statements if s[0] != COMMIT)
    rest = whole - sum(spent.values())
    without_orm = whole - spent["load"] - spent["flush"] - spent["commit"] + bare_reads
    without_orm += bare_writes
    figures = {
        "writes": args.writes,
        "statements_per_write": round(sent_statements / args.writes, 2),
        "healthz_ms": round(healthz * 1000, 3),
        "write_ms": round(whole * 1000, 3),
        **{f"{name}_ms": round(spent[name] * 1000, 3) for name in PARTS},
        "rest_ms": round(rest * 1000, 3),
        "bare_reads_ms": round(bare_reads * 1000, 3),
        "bare_writes_ms": round(bare_writes * 1000, 3),
        "write_share_of_healthz": round(healthz / whole, 4),
        "without_orm_ms": round(without_orm * 1000, 3),
        "without_orm_share_of_healthz": round(healthz / without_orm, 4),
    }
    print(f"{args.writes} corrections of round 1, in one process (Flask test client, SQLite)")
    print(f"  /healthz           {healthz * 1000:6.3f} ms")
    print(f"  a correction       {whole * 1000:6.3f} ms   {healthz / whole:6.1%} of /healthz")
    for name in (*PARTS, "rest"):
        value = rest if name == "rest" else spent[name]
        print(f"    {name:15}  {value * 1000:6.3f} ms   {value / whole:6.1%} of the correction")
    print(f"  its statements ({sent_statements / args.writes:.1f} a write) through sqlite3:")
    print(f"    reads          {bare_reads * 1000:6.3f} ms")
    print(f"    writes, commit {bare_writes * 1000:6.3f} ms")
    print(
        f"  without the ORM  {without_orm * 1000:6.3f} ms   "
        f"{healthz / without_orm:6.1%} of /healthz (target of bench/load.py: 15 %)"
    )
    if args.json:
        print(json.dumps(figures))
    return 0


def _bare(path: Path, statements: list[tuple[str, Any, bool]]) -> tuple[float, float]:
    """Seconds sending ``statements`` through sqlite3 as captured takes (with the app's
    pragmas): (reads, writes with their transactions' begin and commit)."""
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA foreign_keys=ON")
    spent = {"reads": 0.0, "writes": 0.0}
    try:
        for sql, params, many in statements:
            start = time.perf_counter()
            if sql == COMMIT:
                if connection.in_transaction:
                    connection.execute("COMMIT")
                spent["writes"] += time.perf_counter() - start
                continue
            kind = "reads" if _reads(sql) else "writes"
            if kind == "writes" and not connection.in_transaction:
                connection.execute("BEGIN")
            if many:
                connection.executemany(sql, params)
            else:
                connection.execute(sql, params).fetchall()
            spent[kind] += time.perf_counter() - start
    finally:
        connection.close()
    return spent["reads"], spent["writes"]


def _reads(sql: str) -> bool:
    return sql.lstrip()[:6].upper() == "SELECT"


if __name__ == "__main__":
    sys.exit(main())
