"""Benchmark of the printed score pads (issue 4).

Measures, in one run on one machine (absolute numbers drift on shared machines, so each
is also given as a ratio to WeasyPrint rendering a one-line page in the same run):

- a blank pad (full game, 3 players, 20 rounds), rendered: GET /pads/blank.pdf with the
  page cache off;
- the pad of a finished 20-round game: GET /games/<id>/pad.pdf (load, prepare, render),
  the page cache off;
- a blank pad asked for again: 304 to If-None-Match, and 200 from the page cache.

Targets: blank ≤ 0.5 s, filled ≤ 1 s, cached < 10 ms.

    python bench/pdf.py               # 7 renders of each, 200 cached requests
    python bench/pdf.py --repeat 3 --json
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flask import Flask  # noqa: E402
from flask_migrate import upgrade  # noqa: E402

from scorekeeper import create_app, pdf, transaction  # noqa: E402
from scorekeeper.engine import RuleSet  # noqa: E402
from scorekeeper.services import games  # noqa: E402

BLANK = "/pads/blank.pdf?players=3&plan=full&paper=a4"
ONE_LINE = "<!doctype html><html><body><p>Wizard score pad</p></body></html>"


def median_seconds(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def bench_app(folder: str) -> Flask:
    """An app for a benchmark, its SQLite database and instance in ``folder``."""
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(folder) / 'bench.sqlite'}",
        },
        instance_path=Path(folder) / "instance",
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="renders of each kind (7)")
    parser.add_argument("--cached", type=int, default=200, help="cached requests (200)")
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    args = parser.parse_args(argv)
    logging.disable(logging.INFO)  # alembic tells each migration it runs

    with tempfile.TemporaryDirectory() as tmp:
        app = bench_app(tmp)
        static = Path(app.static_folder or "static")
        client = app.test_client()
        with app.app_context(), transaction.atomic():
            upgrade()
            game, _ = games.create_game(["Ann", "Ben", "Cat"], 0, RuleSet())
            for number in range(1, 21):
                bids = [number % 3, (number + 1) % 2, 1]
                tricks = [number - 1, 1, 0] if number > 1 else [0, 1, 0]
                games.record_round(game, bids, tricks, "red" if number < 20 else None)
            filled_url = f"/games/{game.public_id}/pad.pdf"

        def one_line() -> None:
            pdf.html_to_pdf(ONE_LINE, static)

        def blank() -> None:
            response = client.get(BLANK)
            assert response.status_code == 200, response.status_code

        def filled() -> None:
            response = client.get(filled_url)
            assert response.status_code == 200, response.status_code

        # Every pad rendered: none kept in the page cache (until the cached requests).
        app.config["PAGE_CACHE"] = False
        for warm in (one_line, blank, filled):  # fonts, templates, first-use imports
            warm()

        # Interleave the kinds so that a busy spell of the machine hits them all alike.
        one_line_s, blank_s, filled_s = [], [], []
        for _ in range(args.repeat):
            one_line_s.append(median_seconds(one_line, 3))
            blank_s.append(median_seconds(blank, 1))
            filled_s.append(median_seconds(filled, 1))
        one = statistics.median(one_line_s)
        blank_t = statistics.median(blank_s)
        filled_t = statistics.median(filled_s)

        app.config["PAGE_CACHE"] = True
        etag = client.get(BLANK).headers["ETag"]

        def not_modified() -> None:
            response = client.get(BLANK, headers={"If-None-Match": etag})
            assert response.status_code == 304

        def cached_200() -> None:
            response = client.get(BLANK)
            assert response.status_code == 200

        not_modified_ms = median_seconds(not_modified, args.cached) * 1000
        cached_ms = median_seconds(cached_200, args.cached) * 1000

    result = {
        "one_line_s": round(one, 4),
        "blank_s": round(blank_t, 4),
        "filled_s": round(filled_t, 4),
        "blank_ratio": round(blank_t / one, 1),
        "filled_ratio": round(filled_t / one, 1),
        "not_modified_ms": round(not_modified_ms, 2),
        "cached_ms": round(cached_ms, 2),
        "repeat": args.repeat,
    }
    print(f"one-line page       {one:8.3f} s")
    print(f"blank pad (3p, 20)  {blank_t:8.3f} s   {blank_t / one:5.1f}× one line   target ≤ 0.5 s")
    print(f"filled 20-round     {filled_t:8.3f} s   {filled_t / one:5.1f}× one line   target ≤ 1 s")
    print(f"cached blank: 304   {not_modified_ms:8.2f} ms                     target < 10 ms")
    print(f"cached blank: 200   {cached_ms:8.2f} ms                     target < 10 ms")
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
