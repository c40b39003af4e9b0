"""``flask simulate``: bot games played headless (engine only, no database)."""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass
from typing import Any

import click
from flask import Flask

from scorekeeper.engine import Game, Plan, RuleSet
from scorekeeper.engine.bots import Bot, RandomPlayer, Strategy, play_game


@dataclass(frozen=True, slots=True)
class SimulationResult:
    """What a batch of simulated games measured."""

    games: int
    seconds: float
    names: list[str]
    total_score: list[int]
    exact: list[int]
    bids: list[int]

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    @property
    def avg_score(self) -> list[float]:
        return [t / self.games for t in self.total_score]

    def exact_rate(self, seat: int) -> float:
        return self.exact[seat] / self.bids[seat] if self.bids[seat] else 0.0

    @property
    def bot_exact_rate(self) -> float:
        """Exact bids over all bids made by bots."""
        seats = [s for s, n in enumerate(self.names) if n == "bot"]
        made = sum(self.bids[s] for s in seats)
        return sum(self.exact[s] for s in seats) / made if made else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "games_per_s": round(self.games_per_s, 2),
            "exact_bid_rate": round(self.bot_exact_rate, 4),
            "avg_score": [round(a, 2) for a in self.avg_score],
            "seats": self.names,
        }


def simulate(
    games: int,
    players: int = 4,
    plan: str = "full",
    opponents: str = "bots",
    seed: int | None = None,
    rules: RuleSet | None = None,
) -> SimulationResult:
    """Play ``games`` games: all bots, or one bot at seat 0 beside random-legal players.

    The first dealer rotates from game to game so that no seat keeps an edge.
    """
    rng = random.Random(seed)
    ruleset = rules if rules is not None else RuleSet(round_plan=Plan(plan))
    strategies: list[Strategy] = [Bot()]
    for _ in range(players - 1):
        strategies.append(
            Bot() if opponents == "bots" else RandomPlayer(random.Random(rng.getrandbits(64)))
        )
    total = [0] * players
    exact = [0] * players
    bids = [0] * players
    start = time.perf_counter()
    for number in range(games):
        game = play_game(Game.new(ruleset, players, number % players), strategies, rng)
        for seat in range(players):
            total[seat] += game.totals[seat]
            for entry in game.history:
                bid = entry.bids[seat]
                if bid is None or entry.tricks is None:
                    continue
                bids[seat] += 1
                exact[seat] += bid == entry.tricks[seat]
    seconds = time.perf_counter() - start
    return SimulationResult(games, seconds, [s.name for s in strategies], total, exact, bids)


@click.command("simulate")
@click.option("--games", default=100, show_default=True, type=click.IntRange(1, 1_000_000))
@click.option("--players", default=4, show_default=True, type=click.IntRange(3, 6))
@click.option("--plan", default="full", show_default=True, type=click.Choice(["full", "short"]))
@click.option(
    "--opponents",
    default="bots",
    show_default=True,
    type=click.Choice(["bots", "random"]),
    help="bots: every seat a bot; random: one bot (seat 0) beside random-legal players.",
)
@click.option("--seed", default=None, type=int, help="Seed for deals and random players.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def simulate_command(
    games: int, players: int, plan: str, opponents: str, seed: int | None, as_json: bool
) -> None:
    """Play bot games headless and print each seat's average score and exact-bid rate."""
    result = simulate(games, players, plan, opponents, seed)
    if as_json:
        click.echo(json.dumps(result.to_dict()))
        return
    click.echo(f"{result.games} games, {players} players, {plan} plan, opponents: {opponents}")
    for seat, name in enumerate(result.names):
        click.echo(
            f"  seat {seat} ({name:6}): avg score {result.avg_score[seat]:8.1f}  "
            f"exact bids {result.exact_rate(seat):6.1%}"
        )
    click.echo(f"  bots' exact-bid rate: {result.bot_exact_rate:.1%}")
    click.echo(f"  {result.games_per_s:.1f} games/s")


def init_app(app: Flask) -> None:
    """Register the ``simulate`` command."""
    app.cli.add_command(simulate_command)
