"""Bot levels against each other, in one run.

    .venv/bin/python bench/bots.py [--games 1000] [--jobs 2] [--json]

Plays ``--games`` seeded 4-player full games (the book's rules) with one strong bot beside
three normal ones, and as many with one normal bot beside three easy ones; the bot of the
higher level takes each seat in turn and the first dealer rotates too. Prints the higher
level's points a game above the average of the others, the strong bot's exact-bid rate,
and the time the strong bot takes per decision (median and 99th percentile, wall clock,
each game played on one core; the machine's load average is printed beside it). Targets:
strong beats normal by ≥ 190 points a game, normal beats easy by ≥ 100, strong's
exact-bid rate ≥ 74 %, a strong move ≤ 150 ms at the 99th percentile.
With --json the last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.simulate import Comparison, compare  # noqa: E402

TARGETS = {"strong_vs_normal": 190.0, "normal_vs_easy": 100.0, "strong_exact_rate": 0.74}
MOVE_MS = 150.0


def _part(args: tuple[str, str, int, int]) -> Comparison:
    level, against, games, games_from = args
    return compare(level, against, games, games_from=games_from)


def _compare(level: str, against: str, games: int, jobs: int) -> Comparison:
    """``compare`` split into ``jobs`` processes, put back together."""
    size = -(-games // jobs)
    parts = [(level, against, min(size, games - i), i) for i in range(0, games, size)]
    with ProcessPoolExecutor(jobs) as pool:
        done = list(pool.map(_part, parts))
    margin = sum(p.margin * p.games for p in done) / games
    exact, bids = sum(p.exact for p in done), sum(p.bids for p in done)
    return Comparison(
        level, against, games, margin, exact, bids, [t for p in done for t in p.move_ms]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    args = parser.parse_args()
    start = time.perf_counter()
    strong = _compare("strong", "normal", args.games, args.jobs)
    normal = _compare("normal", "easy", args.games, args.jobs)
    figures = {
        "strong_vs_normal": round(strong.margin, 1),
        "normal_vs_easy": round(normal.margin, 1),
        "strong_exact_rate": round(strong.exact_rate, 4),
        "strong_move_p99_ms": round(strong.move_percentile(0.99), 1),
        "strong_move_median_ms": round(strong.move_percentile(0.5), 1),
        "load_avg": [round(load, 2) for load in os.getloadavg()],
        "games": args.games,
    }
    met = {
        **{k: figures[k] >= v for k, v in TARGETS.items()},
        "strong_move_p99_ms": figures["strong_move_p99_ms"] <= MOVE_MS,
    }
    print(f"{args.games} seeded 4-player full games per pairing, {args.jobs} process(es)")
    print(
        f"strong beside normal: {strong.margin:+.1f} points a game "
        f"(target ≥ +{TARGETS['strong_vs_normal']:.0f})"
    )
    print(
        f"normal beside easy:   {normal.margin:+.1f} points a game "
        f"(target ≥ +{TARGETS['normal_vs_easy']:.0f})"
    )
    print(
        f"strong's exact-bid rate: {strong.exact_rate:.1%} "
        f"(target ≥ {TARGETS['strong_exact_rate']:.0%})"
    )
    print(
        f"strong's decisions: median {strong.move_percentile(0.5):.1f} ms, "
        f"99th percentile {strong.move_percentile(0.99):.1f} ms (target ≤ {MOVE_MS:.0f} ms); "
        f"load average at the end {figures['load_avg']} on {os.cpu_count()} cores"
    )
    print(f"targets met: {met}   ({time.perf_counter() - start:.0f} s)")
    if args.json:
        print(json.dumps({**figures, "targets_met": all(met.values())}))


if __name__ == "__main__":
    main()
