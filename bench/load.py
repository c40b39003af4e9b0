"""Load on a real server: gunicorn (gunicorn.conf.py, 2 workers) driven by wrk.

    .venv/bin/python bench/load.py [--duration 10] [--connections 32] [--slow 0] [--json]

Serves a temporary SQLite database holding a finished 6-player game on 127.0.0.1 and
measures, in the same run and one after the other, with `wrk -t2 -c32 --latency`:

- trivial: GET /healthz, the app's cheapest answer (the yardstick);
- game page: GET /games/<id> of the finished 6-player game (10 rounds, full page, as a
  follower opening the view link sees it; asked for during a second before the run, so
  the run measures the readers after the first of each worker, who rendered it into
  that worker's page cache);
- round submission: PUT /api/v1/games/<id>/rounds/1 with the game's scorer token,
  correcting round 1 of 256 four-player games with 5 rounds played, in turn (a game has
  only so many rounds to add; a correction goes the same way as a new round: rule check,
  store, recompute every score from the engine, log the change, commit). Each one
  changes the round (a game's corrections alternate between two sets of bids and tricks:
  sent again, the same correction is answered without writing). Each connection writes
  to a different game, as tables do; one game written by 32 phones at once would mostly
  measure 409s.

With ``--slow N``, N more connections that each sent half a request and wait (opened again
as the server drops them) are held open throughout, as a slow or hostile client would:
the figures should stay as they are without them.

Prints requests/s, p50/p99 latency, errors and the page/trivial ratio; with --json the
last line is one JSON object. Targets (issue 7): the game page serves ≥ 50 % of the
trivial endpoint's requests/s with p99 ≤ 25 ms, and nothing fails.
"""

from __future__ import annotations

import argparse
import json
import re
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any
from urllib.request import urlopen

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper import create_app, transaction  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.services import games as game_service  # noqa: E402
from tests.robustness.servers import Server, migrate  # noqa: E402

PUT_LUA = """
-- Each wrk thread corrects round 1 of its own games in turn, skipping a game whose last
-- correction is still unanswered (two at once would rightly get 409 "already recorded by
-- someone else"; tables don't send their next entry before the last one is answered).
games = {%s}
local per_thread = %d
-- Every request changes the round: a game's corrections alternate between two bodies (a
-- body the round already holds would be answered without writing anything).
local bodies = {
  '{"bids": [0, 1, 0, 0], "tricks": [0, 1, 0, 0]}',
  '{"bids": [1, 0, 0, 0], "tricks": [1, 0, 0, 0]}',
}
local sent = {}
local threads = 0
function setup(thread)
  thread:set("offset", threads * per_thread)
  threads = threads + 1
end
local n = 0
local busy = {}
function request()
  local g
  for _ = 1, per_thread do
    n = n + 1
    g = games[offset + (n %% per_thread) + 1]
    if not busy[g[1]] then break end
  end
  busy[g[1]] = true
  sent[g[1]] = ((sent[g[1]] or 0) %% 2) + 1
  return wrk.format("PUT", "/api/v1/games/" .. g[1] .. "/rounds/1",
    {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. g[2]},
    bodies[sent[g[1]]])
end
function response(status, headers, body)
  local id = body:match('"id"%%s*:%%s*"([^"]+)"')
  if id then busy[id] = nil end
  if status >= 300 then io.write("answer " .. status .. " " .. body:sub(1, 160) .. "\\n") end
end
"""
GAMES_PER_THREAD = 128
THREADS = 2
ACCEPT = "Accept-Encoding: gzip, deflate, br"


def fill(
    database_url: str, instance: Path, fours: int = THREADS * GAMES_PER_THREAD
) -> tuple[str, list[tuple[str, str]]]:
    """(finished 6-player game id, ``fours`` × (4-player game id, scorer token))."""
    app = create_app(
        {"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": database_url}, instance_path=instance
    )
    with app.app_context(), transaction.atomic():
        rules = game_service.parse_rules({})
        six, _ = game_service.create_game(
            ["Anna", "Bernd", "Carla", "Dieter", "Eva", "Frank"], 0, rules
        )
        for cards in range(1, 11):
            tricks = [0] * 6
            for i in range(cards):
                tricks[i % 6] += 1
            bids = [tricks[0], 0, tricks[2], 1, 0, tricks[5]]
            game_service.record_round(six, bids, tricks)
        assert game_service.sheet_of(six).finished
        corrected = []
        for _ in range(fours):
            four, token = game_service.create_game(["Ann", "Ben", "Cat", "Dan"], 0, rules)
            for cards in range(1, 6):
                game_service.record_round(four, [0, 0, 0, 0], [cards, 0, 0, 0])
            corrected.append((four.public_id, token))
        six_id = six.public_id
    with app.app_context():
        db.engine.dispose()
    return six_id, corrected


def _ms(text: str) -> float:
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()  # type: ignore[union-attr]
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]


def wrk(url: str, duration: int, connections: int, script: str | None = None) -> dict[str, Any]:
    # As a phone's browser asks: it takes Brotli or gzip (the page then goes out as kept).
    cmd = ["wrk", f"-t{THREADS}", f"-c{connections}", f"-d{duration}s", "--latency", "-H", ACCEPT]
    if script:
        cmd += ["-s", script]
    out = subprocess.run(cmd + [url], capture_output=True, text=True, check=True).stdout
    requests = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    refused = re.findall(r"^answer (\d+) (.*)$", out, re.MULTILINE)
    for status, body in dict(refused).items():
        print(f"  {url.rsplit('/', 3)[-3]}…: {status} {body[:120]}", file=sys.stderr)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    return {
        "non_2xx": int(non2xx.group(1)) if non2xx else 0,
        "non_2xx_statuses": ",".join(sorted({status for status, _ in refused})),
        "socket_errors": sum(int(x) for x in socket.groups()) if socket else 0,
        # wrk's kinds: connect, read, write, timeout (no answer within 2 s)
        "socket_error_kinds": ",".join(socket.groups()) if socket else "0,0,0,0",
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),  # type: ignore[union-attr]
        "p50_ms": _ms(re.search(r"\s50%\s+(\S+)", out).group(1)),  # type: ignore[union-attr]
        "p99_ms": _ms(re.search(r"\s99%\s+(\S+)", out).group(1)),  # type: ignore[union-attr]
        "requests": requests,
        "errors": (int(non2xx.group(1)) if non2xx else 0)
        + (sum(int(x) for x in socket.groups()) if socket else 0),
    }


def hold_slow(port: int, count: int, stop: threading.Event) -> None:
    """Keep ``count`` connections open that sent half a request, until ``stop``."""
    half = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
    watch = selectors.DefaultSelector()

    def one() -> None:
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.sendall(half)
        sock.setblocking(False)
        watch.register(sock, selectors.EVENT_READ)

    for _ in range(count):
        one()
    while not stop.is_set():
        for key, _ in watch.select(timeout=0.2):  # readable: the server dropped it
            watch.unregister(key.fileobj)
            key.fileobj.close()  # type: ignore[union-attr]
            one()
    for key in list(watch.get_map().values()):
        key.fileobj.close()  # type: ignore[union-attr]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--slow", type=int, default=0, help="half-sent connections held open")
    parser.add_argument("--json", action="store_true", help="one JSON object as last line")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="scorekeeper-load-") as tmp:
        instance = Path(tmp)
        url = f"sqlite:///{instance / 'load.sqlite'}"
        migrate(url, instance)
        six, fours = fill(url, instance)
        lua = instance / "put.lua"
        games = ", ".join(f'{{"{g}", "{t}"}}' for g, t in fours)
        lua.write_text(PUT_LUA % (games, GAMES_PER_THREAD))
        server = Server(url, instance, workers=2).start()
        stop = threading.Event()
        slow = threading.Thread(target=hold_slow, args=(server.port, args.slow, stop))
        slow.start()
        try:
            # The game's first reader in each app process renders the page and keeps it
            # (the page cache, per process): a second of readers first, over as many
            # connections as the run, so that both workers have; the run measures the
            # readers after.
            urlopen(f"{server.base}/games/{six}").read()
            wrk(f"{server.base}/games/{six}", 1, args.connections)
            results = {
                "trivial": wrk(f"{server.base}/healthz", args.duration, args.connections),
                "game_page": wrk(f"{server.base}/games/{six}", args.duration, args.connections),
                "round_submission": wrk(
                    f"{server.base}/api/v1/games/{fours[0][0]}/rounds/1",
                    args.duration,
                    args.connections,
                    str(lua),
                ),
            }
        finally:
            stop.set()
            slow.join()
            server.stop()
            log = server.log()

    ratio = results["game_page"]["rps"] / results["trivial"]["rps"]
    ok = (
        ratio >= 0.5
        and results["game_page"]["p99_ms"] <= 25
        and all(r["errors"] == 0 for r in results.values())
    )
    print(
        f"wrk -t2 -c{args.connections} -d{args.duration}s --latency, gunicorn 2 workers, "
        f"{args.slow} slow clients held open"
    )
    for name, r in results.items():
        print(
            f"{name:17} {r['rps']:8.0f} req/s  p50 {r['p50_ms']:6.2f} ms  "
            f"p99 {r['p99_ms']:6.2f} ms  errors {r['errors']:.0f}"
            + (f" (connect,read,write,timeout: {r['socket_error_kinds']})" if r["errors"] else "")
        )
    print(f"game page / trivial: {ratio:.0%}   targets (≥ 50 %, p99 ≤ 25 ms, 0 errors) met: {ok}")
    if any(r["errors"] for r in results.values()):
        print("server log (tail):", log[-1500:], sep="\n")
    if args.json:
        print(
            json.dumps(
                {
                    **results,
                    "slow": args.slow,
                    "page_to_trivial": round(ratio, 3),
                    "targets_met": ok,
                }
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
