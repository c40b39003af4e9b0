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
    # A uniform choice from rng.random(): rng.choice is twice as slow, and this measures
    # the engine rather than the random module. The bound methods and the phases are
    # local names only to keep the harness's own cost down; every move still goes
    # through the public, fully checked API.
    draw = rng.random
    legal_cards, play = game.legal_cards, game.play
    allowed_bids, bid, waiting_for = game.allowed_bids, game.bid, game.waiting_for
    playing, bidding, dealing = Phase.PLAYING, Phase.BIDDING, Phase.DEAL
    plays = 0
    while True:
        phase = game.phase
        if phase is playing:
            # A whole round of tricks, card by card, until the game moves on.
            while phase is playing:
                seat = game.turn
                assert seat is not None
                cards = legal_cards(seat)
                play(seat, cards[int(draw() * len(cards))])
                plays += 1
                phase = game.phase
        elif phase is bidding:
            waiting = waiting_for()
            seat = waiting[int(draw() * len(waiting))]
            bids = allowed_bids(seat)
            bid(seat, bids[int(draw() * len(bids))])
        elif phase is dealing:
            game.deal(rng)
        elif phase is Phase.CHOOSE_TRUMP:
            game.choose_trump(game.dealer, SUITS[int(draw() * 4)])
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
    if args.games < 1:
        parser.error("--games must be at least 1")
    try:
        rules = RuleSet.from_json(args.rules)
        rules.check_players(args.players)
    except ValueError as exc:
        parser.error(str(exc))
    rng = random.Random(args.seed)

    plays = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for _ in range(args.games):
        plays += play_random_game(rules, args.players, rng)
    seconds = time.perf_counter() - start
    # CPU time too: on a shared machine it shows what the engine costs, whatever the load.
    cpu_seconds = time.process_time() - cpu_start

    result = {
        "games": args.games,
        "players": args.players,
        "seed": args.seed,
        "rules": rules.to_dict(),
        "plays": plays,
        "seconds": round(seconds, 4),
        "cpu_seconds": round(cpu_seconds, 4),
        "games_per_s": round(args.games / seconds, 1),
        "plays_per_s": round(plays / seconds, 1),
        "games_per_cpu_s": round(args.games / cpu_seconds, 1),
        "plays_per_cpu_s": round(plays / cpu_seconds, 1),
        "python": sys.version.split()[0],
    }
    print(
        f"{args.games} games of {args.players} players, {plays} card plays "
        f"in {seconds:.2f} s: {result['games_per_s']:.0f} games/s, "
        f"{result['plays_per_s']:.0f} plays/s "
        f"({result['games_per_cpu_s']:.0f} games per CPU second)"
    )
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
