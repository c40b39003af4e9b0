"""What one change to a followed game costs the server, in one process: a game night's
load taken apart (``bench/night.py`` measures the whole).

    .venv/bin/python bench/change_cost.py [--taps entry|correction] [--rounds 10]
        [--changes 100] [--followers 5] [--no-freeze] [--json]

A four-player game with ``--rounds`` rounds played, in a temporary SQLite database (the
app's objects frozen out of the garbage collector's way once it is made, as each gunicorn
worker does: gunicorn.conf.py; ``--no-freeze`` leaves them), and then ``--changes``
changes, each as a game night makes it: the scorer's tap, as ``bench/night.py`` taps
(``entry``, the default: the next step of the open round posted from the game page with
the scorer's session, the answer fragment and all, a bid or a trick count as the answer
offers it; a finished game's table goes on in a new game with ``--rounds`` played, made
outside the measure; ``correction``: a correction of round 1 through the API with the
scorer token), then each follower (another phone) fetching what changed (``GET
/games/<id>/live`` as the page asks when its live channel says the game moved on, gzip).
The first follower's fetch renders the new version and keeps it; the others get the kept
copy. Printed: CPU milliseconds (this process's CPU time, so other
work on the machine counts little) for the tap, the first fetch, each further fetch, a
whole change, and a follower's ``/live`` while nothing changed (what a follower without
the channel asks every 5 s); then how many changes a second one core would take, and the
tables that makes at one change per table every 15 s. With --json the last line is one
JSON object (with entry taps also the rounds they scored and the games they finished).
"""

from __future__ import annotations

import argparse
import gc
import gzip
import json
import secrets
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import func, select
from werkzeug.test import TestResponse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.night import ENTRY_VERSION, next_tap, taps_option  # noqa: E402
from bench.taps import Panel, read_panel  # noqa: E402
from scorekeeper import create_app, transaction  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.models import Round  # noqa: E402
from scorekeeper.services import games as game_service  # noqa: E402
from tests.robustness.servers import migrate  # noqa: E402

BODIES = [
    {"bids": [0, 1, 0, 0], "tricks": [0, 1, 0, 0]},
    {"bids": [1, 0, 0, 0], "tricks": [1, 0, 0, 0]},
]
FOLLOWER = {"HX-Request": "true", "Accept-Encoding": "gzip"}
TAP = FOLLOWER  # the scorer's phone posts with htmx too
TAP_EVERY = 15.0  # seconds between a table's changes on a game night (bench/night.py)


def cpu_ms(action: Callable[[], object]) -> float:
    start = time.process_time()
    action()
    return (time.process_time() - start) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    taps_option(parser)
    parser.add_argument("--rounds", type=int, default=10, help="rounds played before")
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

        def new_game() -> tuple[str, str]:
            with app.app_context(), transaction.atomic():
                rules = game_service.parse_rules({})
                game, token = game_service.create_game(["Ann", "Ben", "Cat", "Dan"], 0, rules)
                for number in range(1, args.rounds + 1):
                    game_service.record_round(game, [0, 0, 0, 0], [number, 0, 0, 0])
                return game.public_id, token

        public_id, token = new_game()
        client = app.test_client()
        # Entry taps come from the scorer's phone, its session a scorer's: the followers
        # are other phones.
        follower = app.test_client() if args.taps == "entry" else client
        scorer = {"Authorization": f"Bearer {token}"}
        state = {"version": 0}
        panel = Panel()

        def claim() -> None:
            """The scorer link opened on the phone, then the game page it leads to."""
            answer = client.get(f"/games/{public_id}/score/{token}")
            assert answer.status_code == 303, answer.status_code
            show(client.get(f"/games/{public_id}", headers={"Accept-Encoding": "gzip"}))

        def show(answer: TestResponse) -> None:
            nonlocal panel
            assert answer.status_code == 200, answer.data[:300]
            answer.direct_passthrough = False  # (gzip: read as the phone reads it)
            body = gzip.decompress(answer.data) if answer.content_encoding else answer.data
            found = ENTRY_VERSION.search(body)
            assert found is not None, body[:300]
            state["version"] = int(found.group(1))
            panel = read_panel(body.decode())

        answers: list[TestResponse] = []

        def tap(turn: int) -> None:
            """The scorer's tap; an entry tap's answer is read after (``read``), so that
            what the phone does with it doesn't count as the server's."""
            if args.taps == "entry":
                form, key = next_tap(panel)
                data = {**form.fields, **({key.name: key.value} if key else {})}
                headers = {**TAP, "Idempotency-Key": secrets.token_urlsafe(16)}
                answers.append(client.post(form.action, data=data, headers=headers))
                return
            answer = client.put(
                f"/api/v1/games/{public_id}/rounds/1", json=BODIES[turn % 2], headers=scorer
            )
            assert answer.status_code == 200, answer.data
            state["version"] = answer.json["version"]  # type: ignore[index]

        def read() -> None:
            while answers:
                show(answers.pop())

        def fetch() -> None:
            answer = follower.get(
                f"/games/{public_id}/live?v={state['version'] - 1}", headers=FOLLOWER
            )
            assert answer.status_code == 200, answer.status_code

        def unchanged() -> None:
            answer = follower.get(f"/games/{public_id}/live?v={state['version']}", headers=FOLLOWER)
            assert answer.status_code == 204, answer.status_code

        def next_game() -> None:
            """A finished game's table plays the next one (made as the first was)."""
            nonlocal public_id, token
            if args.taps == "entry" and panel.number is None:
                public_id, token = new_game()
                claim()
                state["games"] += 1

        state["games"] = 0
        if args.taps == "entry":
            claim()
        for turn in range(10):  # warm: templates compiled, caches filled
            next_game()
            tap(turn)
            read()
            fetch()
        taps: list[float] = []
        firsts: list[float] = []
        kept: list[float] = []
        idle: list[float] = []
        for turn in range(args.changes):
            next_game()
            taps.append(cpu_ms(lambda: tap(turn)))  # noqa: B023
            read()
            firsts.append(cpu_ms(fetch))
            kept.extend(cpu_ms(fetch) for _ in range(args.followers - 1))
            idle.append(cpu_ms(unchanged))
        with app.app_context():
            # What the taps did to the games as stored (the rounds played before aside).
            done = select(func.count(Round.id)).where(Round.complete)
            state["rounds"] = (db.session.scalar(done) or 0) - args.rounds * (state["games"] + 1)

    def mean(values: list[float]) -> float:
        return sum(values) / len(values) if values else 0.0

    change = mean(taps) + mean(firsts) + mean(kept) * (args.followers - 1)
    per_core = 1000 / change
    figures = {
        "taps": args.taps,
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
    if args.taps == "entry":
        figures.update(rounds_scored=state["rounds"], games_finished=state["games"])
    return figures


if __name__ == "__main__":
    raise SystemExit(main())
