"""``flask simulate``: bot games played headless (engine only, no database)."""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass
from typing import Any

import click
from flask import Flask

from scorekeeper.engine import Card, Game, Plan, RuleSet, Suit
from scorekeeper.engine.bots import Bot, RandomPlayer, Strategy, play_game
from scorekeeper.engine.strong import LEVELS, bot_for


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


@dataclass(frozen=True, slots=True)
class Comparison:
    """One bot level against another: the level in one seat, the other level in the
    rest, the seat (and the first dealer) rotating from game to game."""

    level: str
    against: str
    games: int
    margin: float  # the level's points a game above the average of the others
    exact: int  # the level's exact bids …
    bids: int  # … of the bids it made
    move_ms: list[float]  # the level's time per decision (bid, card, trump)

    @property
    def exact_rate(self) -> float:
        return self.exact / self.bids if self.bids else 0.0

    def move_percentile(self, q: float) -> float:
        times = sorted(self.move_ms)
        return times[min(len(times) - 1, int(len(times) * q))] if times else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "against": self.against,
            "games": self.games,
            "points_a_game": round(self.margin, 1),
            "exact_rate": round(self.exact_rate, 4),
            "move_p99_ms": round(self.move_percentile(0.99), 1),
        }


@dataclass(slots=True)
class _Timed:
    """A strategy whose decisions are timed."""

    strategy: Strategy
    times: list[float]

    @property
    def name(self) -> str:
        return self.strategy.name

    def _timed(self, decide: Any, game: Game, seat: int) -> Any:
        start = time.perf_counter()
        answer = decide(game, seat)
        self.times.append((time.perf_counter() - start) * 1000)
        return answer

    def choose_trump(self, game: Game, seat: int) -> Suit:
        return self._timed(self.strategy.choose_trump, game, seat)  # type: ignore[no-any-return]

    def bid(self, game: Game, seat: int) -> int:
        return self._timed(self.strategy.bid, game, seat)  # type: ignore[no-any-return]

    def play(self, game: Game, seat: int) -> Card:
        return self._timed(self.strategy.play, game, seat)  # type: ignore[no-any-return]


def compare(
    level: str,
    against: str,
    games: int,
    players: int = 4,
    seed: int = 0,
    rules: RuleSet | None = None,
    games_from: int = 0,
) -> Comparison:
    """Play games ``games_from`` … ``games_from + games - 1`` (each dealt from its own
    seed, so a batch can be split among processes) with ``level`` in seat ``i % players``."""
    ruleset = rules if rules is not None else RuleSet()
    timed = _Timed(bot_for(level), [])
    margin = 0.0
    exact = bids = 0
    for i in range(games_from, games_from + games):
        seat = i % players
        strategies: list[Strategy] = [bot_for(against) for _ in range(players)]
        strategies[seat] = timed
        rng = random.Random(seed * 1_000_003 + i)
        game = play_game(Game.new(ruleset, players, (i // players) % players), strategies, rng)
        others = [t for s, t in enumerate(game.totals) if s != seat]
        margin += game.totals[seat] - sum(others) / len(others)
        for entry in game.history:
            bid = entry.bids[seat]
            if bid is not None and entry.tricks is not None:
                bids += 1
                exact += bid == entry.tricks[seat]
    return Comparison(level, against, games, margin / games, exact, bids, timed.times)


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
@click.option(
    "--level",
    type=click.Choice(LEVELS),
    default=None,
    help="Compare bot levels: one bot of this level in a rotating seat beside --against bots.",
)
@click.option(
    "--against",
    type=click.Choice(LEVELS),
    default="normal",
    show_default=True,
    help="The level of the other seats when comparing (--level).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def simulate_command(
    games: int,
    players: int,
    plan: str,
    opponents: str,
    seed: int | None,
    level: str | None,
    against: str,
    as_json: bool,
) -> None:
    """Play bot games headless and print each seat's average score and exact-bid rate,
    or (with --level) how one bot level fares against another."""
    if level is not None:
        found = compare(level, against, games, players, seed or 0, RuleSet(round_plan=Plan(plan)))
        if as_json:
            click.echo(json.dumps(found.to_dict()))
            return
        click.echo(
            f"{games} games, {players} players, {plan} plan: one {level} bot (rotating "
            f"seat) beside {against} bots"
        )
        click.echo(f"  {level}: {found.margin:+.1f} points a game against the {against} bots")
        click.echo(f"  {level}'s exact-bid rate: {found.exact_rate:.1%}")
        click.echo(f"  {level}'s decisions: 99th percentile {found.move_percentile(0.99):.1f} ms")
        return
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
