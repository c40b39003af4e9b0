"""A game night on the real server: how many tables it holds, followers polling or live.

    .venv/bin/python bench/night.py [--modes poll,live] [--taps entry|correction]
        [--speed 1] [--hold 60] [--start 20] [--max-tables 640]
        [--database-url URL --servers 2] [--json]

Serves a temporary SQLite database with gunicorn as ``bin/serve`` does (gunicorn.conf.py,
2 workers × 4 threads, ``WORKER_CONNECTIONS=100``, the access log on), or with
``--database-url postgresql://…`` on that database, with ``--servers 2`` two app servers
side by side (the scorers write on the first, the followers split over both: the change
reaches the second through LISTEN/NOTIFY).

Each table has a scorer who taps at a human pace (every 15 s on average, between 5 and
30 s, divided by ``--speed``) and five followers with the game page open as a browser
keeps it. A tap is, with ``--taps``:

- ``entry`` (the default): the next step of the open round on the game page, as the
  scorer's phone posts it (htmx, the form's fields, a fresh idempotency key) and the
  answer it shows: each player's bid, then the trick counts, the last count scoring the
  round, then the next round's bids. The scorer has opened the scorer link once (the
  session cookie, the CSRF token in the page's forms) and taps what the server's last
  answer offers, as a thumb would: "the rest made their bids" when offered, else the
  first key not disabled. Games start at a round of their own (none to all but the last
  played). When a game is over, the scorer's next tap gives the table a new game, made
  as the first ones are (not "Play again": its hourly quota of games per client would
  refuse a night's worth from one address); the followers open the new game instead,
  the scorer its scorer link. A change's version is the one the scorer's answer shows
  (its entry panel's);
- ``correction``: a correction of round 1 through the API (the scorer token; it rewrites
  every later round and the statistics, and answers JSON); every game has one round
  played.

The followers, with ``--modes``:

- ``poll``: as before the live channel: ``/games/<id>/live?v=N`` every 1.5 s (204 until
  the game moved on, then what changed);
- ``live``: the live channel (``/games/<id>/events``) open, and what changed fetched as
  the page does when it hears of a new version;
- ``fallback``: what the page does when the channel fails: ``/live`` every 5 s.

Tables are added in steps (``--start``, doubling, up to ``--max-tables``); each step is
held for ``--hold`` seconds after a few seconds to settle, and the ramp ends at the first
step not held (``--keep-going``: at ``--max-tables``, so that modes compare side by side
on a busy machine). A step fails when a follower's
delay (from the scorer's answer to the follower having the change) has p99 > 2 s, a tap's
p99 > 300 ms, or anything fails (a 5xx, a refused tap or one whose answer has no panel
to tap on, a refused or dropped connection, a stream cut).
Printed per step: tables, followers, taps/s, tap and delay p50/p99, failures, the app
servers' CPU (share of one core), the client's own CPU and the load average (the client
runs on the same machine); then the most tables each mode held. With ``--json`` the last
line is one JSON object (``"taps"`` the kind of tap; with entry taps, per mode, the rounds
the scorers' taps scored, the games they finished and the rounds scored as stored).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import secrets
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from sqlalchemy import func, select

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.taps import Button, Form, Panel, read_panel  # noqa: E402
from scorekeeper import create_app, transaction  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.models import Round  # noqa: E402
from scorekeeper.services import games as game_service  # noqa: E402
from tests.robustness.servers import Server, migrate  # noqa: E402

FOLLOWERS = 5
POLL_EVERY = 1.5
FALLBACK_EVERY = 5.0
DELAY_P99_MAX = 2.0
TAP_P99_MAX = 0.3
SETTLE = 5.0
BODIES = [
    b'{"bids": [0, 1, 0, 0], "tricks": [0, 1, 0, 0]}',
    b'{"bids": [1, 0, 0, 0], "tricks": [1, 0, 0, 0]}',
]
SYNC_VERSION = re.compile(rb'id="sync" hidden data-version="(\d+)"')
# The scorer's page has no live channel: the version its answer shows is the panel's.
ENTRY_VERSION = re.compile(rb'<section id="entry"[^>]* data-version="(\d+)"')
CLK_TCK = os.sysconf("SC_CLK_TCK")


class Failed(Exception):
    """A request that failed (a status the page would not expect, a dropped connection)."""


class Connection:
    """One kept-alive HTTP/1.1 connection, one request at a time, as a browser's."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.headers: dict[str, str] = {}  # the last answer's (Set-Cookie: one a line)

    async def _open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(
        self, method: str, path: str, headers: dict[str, str], body: bytes = b""
    ) -> tuple[int, bytes]:
        """Send one request; the answer's status and body (its headers: ``self.headers``)."""
        for attempt in (1, 2):  # a kept-alive connection the server closed: once more
            fresh = self.writer is None
            if fresh:
                await self._open()
            assert self.reader is not None and self.writer is not None
            head = f"{method} {path} HTTP/1.1\r\nHost: night\r\n" + "".join(
                f"{k}: {v}\r\n" for k, v in headers.items()
            )
            if body:
                head += f"Content-Length: {len(body)}\r\n"
            try:
                self.writer.write(head.encode() + b"\r\n" + body)
                status, answer_headers = await read_head(self.reader)
                data = await read_body(self.reader, answer_headers)
            except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
                self.close()
                if fresh or attempt == 2:
                    raise Failed(f"{method} {path}: {exc!r}") from exc
                continue
            self.headers = answer_headers
            if answer_headers.get("connection") == "close":
                self.close()
            if answer_headers.get("content-encoding") == "gzip":
                data = zlib.decompress(data, 16 + zlib.MAX_WBITS)
            return status, data
        raise AssertionError("unreachable")


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    raw = await reader.readuntil(b"\r\n\r\n")
    lines = raw.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if ":" in line:
            name, _, value = line.partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "set-cookie" and name in headers:
                value = f"{headers[name]}\n{value}"
            headers[name] = value
    return status, headers


async def read_body(reader: asyncio.StreamReader, headers: dict[str, str]) -> bytes:
    if "content-length" in headers:
        return await reader.readexactly(int(headers["content-length"]))
    if headers.get("transfer-encoding") == "chunked":
        data = b""
        while chunk := await read_chunk(reader):
            data += chunk
        return data
    return b""


async def read_chunk(reader: asyncio.StreamReader) -> bytes:
    size = int((await reader.readuntil(b"\r\n")).strip(), 16)
    data = await reader.readexactly(size + 2)
    return data[:-2]


@dataclass
class Step:
    """What happened while one step was measured."""

    taps: list[float] = field(default_factory=list)
    failures: int = 0
    examples: list[str] = field(default_factory=list)

    def fail(self, what: str) -> None:
        self.failures += 1
        if len(self.examples) < 3:
            self.examples.append(what)


@dataclass
class Table:
    game: str
    token: str
    version: int
    answered: dict[int, float] = field(default_factory=dict)  # version → scorer's answer
    seen: list[list[tuple[float, int]]] = field(default_factory=list)  # per follower
    # Added to the game's versions in ``answered`` and ``seen``: a table's next game
    # counts on from its last one (entry taps).
    offset: int = 0
    followers: list[asyncio.Task[None]] = field(default_factory=list)
    rounds: int = 0  # rounds the scorer's taps scored
    games: int = 0  # games finished by them


class Phone:
    """A scorer's phone on the game page: its session cookie, and the entry panel the
    server's last answer showed (what a thumb can tap next)."""

    def __init__(self, port: int) -> None:
        self.http = Connection(port)
        self.cookies: dict[str, str] = {}
        self.panel: Panel | None = None  # None: the page is to be opened (again)
        self.version = 0

    async def send(
        self, method: str, path: str, headers: dict[str, str], body: bytes = b""
    ) -> tuple[int, bytes]:
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        status, data = await self.http.request(method, path, headers, body)
        for line in self.http.headers.get("set-cookie", "").split("\n"):
            name, _, value = line.split(";", 1)[0].partition("=")
            if name.strip():
                self.cookies[name.strip()] = value.strip()
        return status, data

    def show(self, body: bytes) -> None:
        """The panel and version an answer shows."""
        found = ENTRY_VERSION.search(body)
        if found is None:
            raise Failed(f"no entry panel: {body[:200]!r}")
        self.version = int(found.group(1))
        self.panel = read_panel(body.decode())

    def close(self) -> None:
        self.http.close()

    async def claim(self, table: Table) -> None:
        """Open the scorer link as a phone does: it sets the session and leads to the
        game page, whose forms hold the CSRF token."""
        status, body = await self.send("GET", f"/games/{table.game}/score/{table.token}", {})
        target = self.http.headers.get("location", "")
        if status != 303 or not target.endswith(f"/games/{table.game}"):
            raise Failed(f"scorer link {status}: {body[:200]!r}")
        status, body = await self.send("GET", f"/games/{table.game}", {"Accept-Encoding": "gzip"})
        if status != 200:
            raise Failed(f"game page {status}: {body[:200]!r}")
        self.show(body)

    async def tap(self) -> int | None:
        """The next step of the open round, as the page posts it (htmx, a fresh
        idempotency key); the version the answer shows, or None when the game is over
        (nothing left to tap but "Play again")."""
        assert self.panel is not None
        if self.panel.number is None:
            return None
        try:
            form, key = next_tap(self.panel)
        except Failed:
            self.panel = None  # open the page again before the next tap
            raise
        data = dict(form.fields)
        if key is not None:
            data[key.name] = key.value
        headers = {
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
            "Idempotency-Key": secrets.token_urlsafe(16),
            "Accept-Encoding": "gzip",
        }
        status, body = await self.send("POST", form.action, headers, urlencode(data).encode())
        if status != 200:
            self.panel = None  # open the page again before the next tap
            raise Failed(f"tap {form.action} {status}: {body[:200]!r}")
        self.show(body)
        return self.version


def next_tap(panel: Panel) -> tuple[Form, Button | None]:
    """What a thumb taps next on the panel: "Confirm" when the page asks for it, "the
    rest made their bids" when offered, else the first key not disabled (a bid, or the
    asked player's trick count): the round can always be finished that way."""
    for kind in ("confirm-form", "rest-form"):
        if (form := panel.form(kind)) is not None:
            return form, None
    form = panel.form("taps")
    if form is not None:
        key = next((b for b in form.buttons if not b.disabled), None)
        if key is not None:
            return form, key
    raise Failed(f"nothing to tap in round {panel.number}: {[f.classes for f in panel.forms]}")


class Night:
    def __init__(
        self,
        mode: str,
        ports: list[int],
        speed: float,
        taps: str = "correction",
        games: Games | None = None,
    ) -> None:
        self.mode = mode
        self.ports = ports
        self.speed = speed
        self.taps = taps
        self.games = games
        self.step = Step()
        self.running = True
        self.tasks: list[asyncio.Task[None]] = []

    def add(self, table: Table) -> None:
        scorer = self.entry if self.taps == "entry" else self.scorer
        self.tasks.append(asyncio.create_task(scorer(table)))
        self.follow(table)

    def follow(self, table: Table) -> None:
        """The table's five followers open its game."""
        table.followers = []
        for n in range(FOLLOWERS):
            if len(table.seen) <= n:
                table.seen.append([])
            port = self.ports[n % len(self.ports)]
            follower = self.live if self.mode == "live" else self.poll
            task = asyncio.create_task(follower(table, n, port))
            table.followers.append(task)
            self.tasks.append(task)

    async def entry(self, table: Table) -> None:
        """The scorer entering rounds on the game page: each tap the next step of the
        open round; when the game is over, the next tap moves the table to a new game."""
        with closing(Phone(self.ports[0])) as phone:
            await asyncio.sleep(random.uniform(0, 15) / self.speed)
            while self.running:
                try:
                    if phone.panel is None:
                        await phone.claim(table)
                    number = phone.panel.number if phone.panel is not None else None
                    start = time.monotonic()
                    version = await phone.tap()
                    if version is None:
                        await self.next_game(table, phone)
                    else:
                        done = time.monotonic()
                        table.answered[table.offset + version] = done
                        self.step.taps.append(done - start)
                        if phone.panel is not None and phone.panel.number != number:
                            table.rounds += 1
                except Failed as exc:
                    self.step.fail(str(exc))
                await asyncio.sleep(random.triangular(5, 30, 10) / self.speed)  # mean 15 s

    async def next_game(self, table: Table, phone: Phone) -> None:
        """A new game for the finished one's table (made as the night's first ones are);
        its followers open it instead, the scorer its scorer link."""
        assert self.games is not None
        [(game, token, version)] = await asyncio.to_thread(self.games.make, 1, lambda _: 0)
        for task in table.followers:
            task.cancel()
        await asyncio.gather(*table.followers, return_exceptions=True)
        table.games += 1
        table.offset += phone.version + 1  # the new game's versions count on
        table.game, table.token, table.version = game, token, version
        self.follow(table)
        await phone.claim(table)

    async def scorer(self, table: Table) -> None:
        with closing(Connection(self.ports[0])) as http:
            headers = {
                "Authorization": f"Bearer {table.token}",
                "Content-Type": "application/json",
            }
            turn = 0
            await asyncio.sleep(random.uniform(0, 15) / self.speed)
            while self.running:
                turn += 1
                start = time.monotonic()
                try:
                    status, body = await http.request(
                        "PUT", f"/api/v1/games/{table.game}/rounds/1", headers, BODIES[turn % 2]
                    )
                    if status != 200:
                        raise Failed(f"tap {status}: {body[:200]!r}")
                    done = time.monotonic()
                    table.answered[json.loads(body)["version"]] = done
                    self.step.taps.append(done - start)
                except Failed as exc:
                    self.step.fail(str(exc))
                await asyncio.sleep(random.triangular(5, 30, 10) / self.speed)  # mean 15 s

    async def fetch(self, http: Connection, table: Table, n: int, seen: int) -> int:
        status, body = await http.request(
            "GET",
            f"/games/{table.game}/live?v={seen}",
            {"HX-Request": "true", "Accept-Encoding": "gzip"},
        )
        if status == 204:
            return seen
        found = SYNC_VERSION.search(body)
        if status != 200 or found is None:
            raise Failed(f"live {status}: {body[:200]!r}")
        version = int(found.group(1))
        table.seen[n].append((time.monotonic(), table.offset + version))
        return version

    async def poll(self, table: Table, n: int, port: int) -> None:
        every = POLL_EVERY if self.mode == "poll" else FALLBACK_EVERY
        with closing(Connection(port)) as http:
            seen = table.version
            await asyncio.sleep(random.uniform(0, every))
            next_at = time.monotonic()
            while self.running:
                try:
                    seen = await self.fetch(http, table, n, seen)
                except Failed as exc:
                    self.step.fail(str(exc))
                next_at += every
                await asyncio.sleep(max(0.0, next_at - time.monotonic()))

    async def live(self, table: Table, n: int, port: int) -> None:
        with closing(Connection(port)) as http:
            seen = table.version
            while self.running:
                writer = None
                try:
                    reader, writer = await asyncio.open_connection("127.0.0.1", port)
                    writer.write(
                        f"GET /games/{table.game}/events?v={seen} HTTP/1.1\r\n"
                        "Host: night\r\nAccept: text/event-stream\r\n\r\n".encode()
                    )
                    status, headers = await read_head(reader)
                    if status != 200:
                        raise Failed(f"events {status}")
                    buffer = b""
                    while self.running:
                        chunk = await read_chunk(reader)
                        if not chunk:
                            raise Failed("stream ended")
                        buffer += chunk
                        while b"\n\n" in buffer:
                            message, buffer = buffer.split(b"\n\n", 1)
                            version = int(message.removeprefix(b"data: "))
                            if version > seen:
                                seen = await self.fetch(http, table, n, seen)
                except (Failed, OSError, asyncio.IncompleteReadError, ValueError) as exc:
                    if self.running:
                        self.step.fail(f"channel: {exc!r}")
                        await asyncio.sleep(1)
                finally:
                    if writer is not None:
                        writer.close()

    async def stop(self) -> None:
        self.running = False
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


def delays(tables: list[Table], start: float, end: float) -> tuple[list[float], int]:
    """Each follower's delay for each change answered in [start, end): from the scorer's
    answer to the follower having that version or a later one; and the changes missed."""
    found: list[float] = []
    missed = 0
    for table in tables:
        writes = sorted((t, v) for v, t in table.answered.items() if start <= t < end)
        for sightings in table.seen:
            for answered, version in writes:
                first = next((t for t, v in sightings if v >= version), None)
                if first is None:
                    missed += 1
                    found.append(end + SETTLE - answered)
                else:
                    found.append(max(0.0, first - answered))
    return found, missed


def pct(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


def cpu_ticks(servers: list[Server]) -> int:
    """utime + stime of every app server process (masters and their workers)."""
    masters = {s.process.pid for s in servers if s.process is not None}
    total = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            fields = Path(entry.path, "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(entry.name), int(fields[1])
        if pid in masters or ppid in masters:
            total += int(fields[11]) + int(fields[12])
    return total


def client_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Games:
    """Makes the night's games in the database the servers serve (four players, a few
    rounds played: everyone bid 0, the first player took every trick)."""

    def __init__(self, database_url: str, instance: Path) -> None:
        self.app = create_app(
            {"SECRET_KEY": "night", "SQLALCHEMY_DATABASE_URI": database_url},
            instance_path=instance,
        )

    def make(self, count: int, played: Callable[[int], int]) -> list[tuple[str, str, int]]:
        """``count`` games, each with ``played(rounds in the game)`` rounds played: their
        public ids, scorer tokens and versions."""
        made = []
        with self.app.app_context(), transaction.atomic():
            rules = game_service.parse_rules({})
            for _ in range(count):
                game, token = game_service.create_game(["Ann", "Ben", "Cat", "Dan"], 0, rules)
                for number in range(1, played(len(game_service.sheet_of(game).plan)) + 1):
                    game_service.record_round(game, [0, 0, 0, 0], [number, 0, 0, 0])
                made.append((game.public_id, token))
        with self.app.app_context():
            found = [(g, t, game_service.version_of(g) or 0) for g, t in made]
            db.engine.dispose()
        return found

    def rounds(self) -> int:
        """The rounds scored in all games."""
        with self.app.app_context():
            count = db.session.scalar(select(func.count(Round.id)).where(Round.complete))
            db.engine.dispose()
        return count or 0


def make_tables(games: Games, count: int, taps: str) -> list[Table]:
    """Correction taps: every game with one round played. Entry taps: each game at a
    round of its own (none to all but the last played), so that games are at different
    stages and some end during the night."""
    played = (lambda rounds: random.randrange(rounds)) if taps == "entry" else (lambda _: 1)
    return [Table(*made) for made in games.make(count, played)]


async def warm_up(servers: list[Server], table: Table) -> None:
    """Every worker compiles its templates before the night starts (a phone's first page)."""

    async def one(port: int) -> None:
        with closing(Connection(port)) as http:
            for path in (f"/games/{table.game}", f"/games/{table.game}/live?v=0"):
                await http.request("GET", path, {"HX-Request": "true", "Accept-Encoding": "gzip"})

    await asyncio.gather(*(one(s.port) for s in servers for _ in range(8)))


async def run_mode(
    mode: str,
    servers: list[Server],
    tables: list[Table],
    args: argparse.Namespace,
    games: Games | None = None,
) -> list[dict[str, Any]]:
    await warm_up(servers, tables[-1])
    night = Night(mode, [s.port for s in servers], args.speed, args.taps, games)
    steps: list[dict[str, Any]] = []
    running: list[Table] = []
    target = args.start
    try:
        while target <= len(tables):
            for table in tables[len(running) : target]:
                table.answered.clear()
                table.seen.clear()
                night.add(table)
                running.append(table)
            await asyncio.sleep(SETTLE)
            night.step = Step()
            ticks, mine, start = cpu_ticks(servers), client_cpu(), time.monotonic()
            await asyncio.sleep(args.hold)
            end = time.monotonic()
            elapsed = end - start
            server_cpu = (cpu_ticks(servers) - ticks) / CLK_TCK / elapsed
            await asyncio.sleep(min(SETTLE, 3.0))  # the last changes reach the followers
            found, missed = delays(running, start, end)
            step = night.step
            result = {
                "mode": mode,
                "tables": len(running),
                "followers": len(running) * FOLLOWERS,
                "taps_per_s": round(len(step.taps) / elapsed, 2),
                "tap_p50_ms": round(pct(step.taps, 0.5) * 1000, 1),
                "tap_p99_ms": round(pct(step.taps, 0.99) * 1000, 1),
                "delay_p50_s": round(pct(found, 0.5), 3),
                "delay_p99_s": round(pct(found, 0.99), 3),
                "changes_seen": len(found),
                "missed": missed,
                "failures": step.failures,
                "server_cpu": round(server_cpu, 2),
                "client_cpu": round((client_cpu() - mine) / elapsed, 2),
                "load": round(os.getloadavg()[0], 1),
                "held": (
                    pct(found, 0.99) <= DELAY_P99_MAX
                    and pct(step.taps, 0.99) <= TAP_P99_MAX
                    and step.failures == 0
                    and missed == 0
                    and bool(step.taps)
                ),
            }
            if step.examples:
                result["failure_examples"] = step.examples
            steps.append(result)
            print(
                f"{mode:8} {result['tables']:5} tables {result['followers']:5} followers"
                f"  taps {result['taps_per_s']:6}/s p50 {result['tap_p50_ms']:6} ms"
                f" p99 {result['tap_p99_ms']:7} ms  delay p50 {result['delay_p50_s']:6} s"
                f" p99 {result['delay_p99_s']:6} s  failures {result['failures']}"
                f"  CPU server {result['server_cpu']:.2f} client {result['client_cpu']:.2f}"
                f"  load {result['load']}  {'held' if result['held'] else 'NOT held'}",
                flush=True,
            )
            if (not result["held"] and not args.keep_going) or target >= args.max_tables:
                break
            target = min(target * 2, args.max_tables)
    finally:
        await night.stop()
    return steps


def taps_option(parser: argparse.ArgumentParser) -> None:
    """``--taps``: what a scorer's tap is (here and in bench/change_cost.py)."""
    parser.add_argument(
        "--taps",
        choices=("entry", "correction"),
        default="entry",
        help="a scorer's tap: the next step of the open round on the game page (entry), "
        "or a correction of round 1 through the API",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modes", default="poll,live", help="poll, live, fallback")
    taps_option(parser)
    parser.add_argument("--speed", type=float, default=1.0, help="taps this many times faster")
    parser.add_argument("--hold", type=float, default=60.0, help="seconds each step is held")
    parser.add_argument("--start", type=int, default=20)
    parser.add_argument("--max-tables", type=int, default=640)
    parser.add_argument(
        "--keep-going",
        action="store_true",
        help="every step up to --max-tables even past one not held (modes side by side)",
    )
    parser.add_argument("--database-url", help="PostgreSQL (default: a temporary SQLite)")
    parser.add_argument("--servers", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON object as last line")
    args = parser.parse_args(argv)

    # Each follower holds one or two connections, on both ends: as many files as allowed.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    needed = args.max_tables * FOLLOWERS * 2 * 2 + 100
    if hard < needed:
        print(f"ulimit -n is {hard}: {needed} may be needed", file=sys.stderr)

    results: dict[str, Any] = {
        "taps": args.taps,
        "speed": args.speed,
        "hold_s": args.hold,
        "modes": {},
    }
    with tempfile.TemporaryDirectory(prefix="scorekeeper-night-") as tmp:
        instance = Path(tmp)
        url = args.database_url or f"sqlite:///{instance / 'night.sqlite'}"
        migrate(url, instance)
        env = {"WORKER_CONNECTIONS": "100", "ACCESS_LOG": "-"}  # as bin/serve
        games = Games(url, instance)
        for mode in args.modes.split(","):
            tables = make_tables(games, args.max_tables, args.taps)
            rounds = games.rounds()
            servers = [Server(url, instance, workers=2, env=env) for _ in range(args.servers)]
            try:
                for server in servers:
                    server.start()
                steps = asyncio.run(run_mode(mode, servers, tables, args, games))
            finally:
                for server in servers:
                    server.stop()
            held = [s for s in steps if s["held"]]
            best = max(held, key=lambda s: s["tables"]) if held else None
            results["modes"][mode] = {"steps": steps, "most_tables_held": best}
            if args.taps == "entry":
                # What the scorers' taps did, as they saw it and as the database has it.
                results["modes"][mode].update(
                    rounds_scored=sum(t.rounds for t in tables),
                    games_finished=sum(t.games for t in tables),
                    rounds_stored=games.rounds() - rounds,
                )
            if best:
                print(
                    f"{mode}: held {best['tables']} tables ({best['followers']} followers)"
                    f" for {args.hold:.0f} s: delay p99 {best['delay_p99_s']} s,"
                    f" tap p99 {best['tap_p99_ms']} ms, server CPU {best['server_cpu']}"
                )
            else:
                print(f"{mode}: not even {args.start} tables held")
    results["database"] = "postgresql" if args.database_url else "sqlite"
    results["servers"] = args.servers
    if args.json:
        print(json.dumps(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
