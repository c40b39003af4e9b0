"""What one change to a followed game costs the server, in one process: a game night's
load taken apart (``bench/night.py`` measures the whole).

    .venv/bin/python bench/change_cost.py [--rounds 10] [--changes 100] [--followers 5]
        [--no-freeze] [--json]

A four-player game with ``--rounds`` rounds played, in a temporary SQLite database (the
app's objects frozen out of the garbage collector's way once it is made, as each gunicorn
worker does: gunicorn.conf.py; ``--no-freeze`` leaves them), and then ``--changes``
changes, each as a game night makes it: the scorer's tap (a correction of round 1 through
the API with the scorer token, as ``bench/night.py`` taps), then each follower fetching
what changed (``GET /games/<id>/live`` as the page asks when its live channel says the
game moved on, gzip). The first follower's fetch renders the new version and keeps it; the
others get the kept copy. Printed: CPU milliseconds (this process's CPU time, so other
work on the machine counts little) for the tap, the first fetch, each further fetch, a
whole change, and a follower's ``/live`` while nothing changed (what a follower without
the channel asks every 5 s); then how many changes a second one core would take, and the
tables that makes at one change per table every 15 s. With --json the last line is one
JSON object.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper import create_app, transaction  # noqa: E402
from scorekeeper.services import games as game_service  # noqa: E402
from tests.robustness.servers import migrate  # noqa: E402

BODIES = [
    {"bids": [0, 1, 0, 0], "tricks": [0, 1, 0, 0]},
    {"bids": [1, 0, 0, 0], "tricks": [1, 0, 0, 0]},
]
FOLLOWER = {"HX-Request": "true", "Accept-Encoding": "gzip"}
TAP_EVERY = 15.0  # seconds between a table's changes on a game night (bench/night.py)


def cpu_ms(action: Callable[[], object]) -> float:
    start = time.process_time()
    action()
    return (time.process_time() - start) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--changes", type=int, default=100)
    parser.add_argument("--followers", type=int, default=5)
    parser.add_argument(
        "--no-freeze",
        action="store_true",
        help="leave the app's objects to the garbage collector's full passes (as before)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object as last line")
    args = parser.parse_args(argv)

    try:
        figures = _measure(args)
    finally:
        gc.unfreeze()  # (this may run inside another process: the tests)
    print(
        f"a change with {args.followers} followers: {figures['change_ms']} ms of CPU"
        f" (tap {figures['tap_ms']}, render {figures['render_ms']},"
        f" each further fetch {figures['kept_fetch_ms']});"
        f" /live with nothing new {figures['unchanged_live_ms']} ms"
    )
    print(
        f"one core: {figures['changes_per_core_s']} changes/s,"
        f" {figures['tables_per_core']} tables at one change per {TAP_EVERY:.0f} s"
        " (one process renders each version once; n processes up to n times)"
    )
    if args.json:
        print(json.dumps(figures))
    return 0


def _measure(args: argparse.Namespace) -> dict[str, float]:
    """The figures: CPU milliseconds of each part of a change."""
    with tempfile.TemporaryDirectory(prefix="scorekeeper-change-") as tmp:
        instance = Path(tmp)
        url = f"sqlite:///{instance / 'change.sqlite'}"
        migrate(url, instance)
        app = create_app(
            {"SECRET_KEY": "change", "SQLALCHEMY_DATABASE_URI": url}, instance_path=instance
        )
        if not args.no_freeze:
            gc.freeze()  # as each gunicorn worker does once it has loaded the app
        with app.app_context(), transaction.atomic():
            rules = game_service.parse_rules({})
            game, token = game_service.create_game(["Ann", "Ben", "Cat", "Dan"], 0, rules)
            for number in range(1, args.rounds + 1):
                game_service.record_round(game, [0, 0, 0, 0], [number, 0, 0, 0])
            public_id = game.public_id
        client = app.test_client()
        scorer = {"Authorization": f"Bearer {token}"}
        state = {"version": 0}

        def tap(turn: int) -> None:
            answer = client.put(
                f"/api/v1/games/{public_id}/rounds/1", json=BODIES[turn % 2], headers=scorer
            )
            assert answer.status_code == 200, answer.data
            state["version"] = answer.json["version"]  # type: ignore[index]

        def fetch() -> None:
            answer = client.get(
                f"/games/{public_id}/live?v={state['version'] - 1}", headers=FOLLOWER
            )
            assert answer.status_code == 200, answer.status_code

        def unchanged() -> None:
            answer = client.get(f"/games/{public_id}/live?v={state['version']}", headers=FOLLOWER)
            assert answer.status_code == 204, answer.status_code

        for turn in range(10):  # warm: templates compiled, caches filled
            tap(turn)
            fetch()
        taps, firsts, kept, idle = [], [], [], []
        for turn in range(args.changes):
            taps.append(cpu_ms(lambda: tap(turn)))  # noqa: B023
            firsts.append(cpu_ms(fetch))
            kept.extend(cpu_ms(fetch) for _ in range(args.followers - 1))
            idle.append(cpu_ms(unchanged))

    def mean(values: list[float]) -> float:
        return sum(values) / len(values) if values else 0.0

    change = mean(taps) + mean(firsts) + mean(kept) * (args.followers - 1)
    per_core = 1000 / change
    figures = {
        "rounds": args.rounds,
        "changes": args.changes,
        "followers": args.followers,
        "tap_ms": round(mean(taps), 2),
        "render_ms": round(mean(firsts), 2),
        "kept_fetch_ms": round(mean(kept), 2),
        "change_ms": round(change, 2),
        "unchanged_live_ms": round(mean(idle), 3),
        "changes_per_core_s": round(per_core, 1),
        "tables_per_core": int(round(per_core, 1) * TAP_EVERY),
    }
    return figures


if __name__ == "__main__":
    raise SystemExit(main())
