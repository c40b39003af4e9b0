"""Benchmark of the rules engine: random legal full games, played as fast as possible.

Every game is dealt and played through ``scorekeeper.engine.Game`` exactly as the app
would: the random player picks among ``allowed_bids``/``legal_cards`` and names a suit
when a Wizard is turned up. The random source is seeded, so a run is repeatable.

    python bench/engine.py                      # 2000 games of 4 players, full 15 rounds
    python bench/engine.py --players 6 --games 500
    python bench/engine.py --json               # last line: one JSON object
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.engine import Game, Phase, RuleSet, Suit  # noqa: E402

SUITS = list(Suit)


def play_random_game(rules: RuleSet, players: int, rng: random.Random) -> int:
    """Play one whole game with random legal choices; return the number of cards played."""
    game = Game.new(rules, players, first_dealer=rng.randrange(players))
    plays = 0
    while True:
        phase = game.phase
        if phase is Phase.PLAYING:
            seat = game.turn
            assert seat is not None
            game.play(seat, rng.choice(game.legal_cards(seat)))
            plays += 1
        elif phase is Phase.BIDDING:
            seat = rng.choice(game.waiting_for())
            game.bid(seat, rng.choice(game.allowed_bids(seat)))
        elif phase is Phase.DEAL:
            game.deal(rng)
        elif phase is Phase.CHOOSE_TRUMP:
            game.choose_trump(game.dealer, rng.choice(SUITS))
        else:
            return plays


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games to play (2000)")
    parser.add_argument("--players", type=int, default=4, help="3 to 6 (4)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random source (1)")
    parser.add_argument(
        "--rules", default="{}", help='rule set as JSON, e.g. \'{"round_plan": "short"}\''
    )
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    args = parser.parse_args(argv)
    rules = RuleSet.from_json(args.rules)
    rules.check_players(args.players)
    rng = random.Random(args.seed)

    plays = 0
    start = time.perf_counter()
    for _ in range(args.games):
        plays += play_random_game(rules, args.players, rng)
    seconds = time.perf_counter() - start

    result = {
        "games": args.games,
        "players": args.players,
        "seed": args.seed,
        "rules": rules.to_dict(),
        "plays": plays,
        "seconds": round(seconds, 4),
        "games_per_s": round(args.games / seconds, 1),
        "plays_per_s": round(plays / seconds, 1),
        "python": sys.version.split()[0],
    }
    print(
        f"{args.games} games of {args.players} players, {plays} card plays "
        f"in {seconds:.2f} s: {result['games_per_s']:.0f} games/s, "
        f"{result['plays_per_s']:.0f} plays/s"
    )
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
