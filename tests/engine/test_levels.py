"""Bot levels (easy, normal, strong): always legal, deciding only from what their seat sees,
and ranked as their names say."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from scorekeeper.engine import Bidding, Game, Phase, Plan, RuleSet
from scorekeeper.engine.bots import Bot, Strategy, play_game, play_until_waiting
from scorekeeper.engine.strong import LEVELS, EasyBot, StrongBot, bot_for
from scorekeeper.simulate import compare, simulate_command
from tests.engine.test_bots import VARIANTS, Checked


@pytest.mark.parametrize("level", ["easy", "strong"])
@pytest.mark.parametrize(
    "rules",
    [r for r in VARIANTS if r.round_plan is not Plan.FULL],
    ids=lambda r: ",".join(r.describe()),
)
def test_every_level_makes_only_legal_moves(level: str, rules: RuleSet) -> None:
    players = 4
    strategies = [Checked(bot_for(level) if s % 2 else Bot()) for s in range(players)]
    game = play_game(Game.new(rules, players, 1), strategies, random.Random(5))
    assert game.finished
    assert sum(s.moves for s in strategies) == players * sum(game.plan)


def test_levels_by_name() -> None:
    assert [type(bot_for(level)) for level in LEVELS] == [EasyBot, Bot, StrongBot]
    with pytest.raises(ValueError, match="Unknown bot level"):
        bot_for("wizard")


def _at_move(rules: RuleSet, seed: int, phase: Phase, plays: int = 0) -> tuple[Game, int]:
    """A game in round 5 at its first bid (or after ``plays`` cards of play): the seat
    whose move it is."""
    rng = random.Random(seed)
    game = Game.new(rules, 4, 0)
    bots: list[Strategy | None] = [Bot()] * 4
    while game.round_number < 5 or game.phase is Phase.DEAL:
        if game.phase is Phase.DEAL:
            game.deal(rng)
            if game.round_number == 5:
                break
        play_until_waiting(game, bots)
    if game.phase is Phase.CHOOSE_TRUMP:
        Bot().choose_trump(game, game.dealer)
        game.choose_trump(game.dealer, Bot().choose_trump(game, game.dealer))
    if phase is Phase.PLAYING:
        while game.phase is Phase.BIDDING:
            seat = game.waiting_for()[0]
            game.bid(seat, Bot().bid(game, seat))
        for _ in range(plays):
            seat = game.turn
            assert seat is not None
            game.play(seat, Bot().play(game, seat))
        seat = game.turn
    else:
        seat = game.waiting_for()[0]
    assert seat is not None
    return game, seat


def _others_changed(game: Game, seat: int, rng: random.Random) -> Game:
    """The same game as ``seat`` sees it, with what it can't see changed: the other
    hands dealt afresh among the other seats (same sizes), and hidden or secret bids of
    the others made different."""
    other = Game.from_dict(game.to_dict())
    seats = [s for s in range(other.players) if s != seat]
    cards = [c for s in seats for c in other.hands[s]]
    rng.shuffle(cards)
    for s in seats:
        size = len(other.hands[s])
        other.hands[s], cards = cards[:size], cards[size:]
    shown = game.view(seat)["bids"]
    for s in seats:
        bid = other.bids[s]
        if bid is not None and shown[s] == "hidden":
            other.bids[s] = (bid + 1) % (other.cards + 1)
    return other


SEALED = [
    RuleSet(),
    RuleSet(bidding=Bidding.HIDDEN),
    RuleSet(bidding=Bidding.SECRET),
]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("rules", SEALED, ids=["open", "V3 hidden", "V4 secret"])
@pytest.mark.parametrize("seed", range(3))
def test_a_bot_decides_only_from_what_its_seat_sees(level: str, rules: RuleSet, seed: int) -> None:
    """The same seat, the same view, different cards and sealed bids elsewhere: the
    same bid and the same cards played (V3, V4: the bids it can't see change nothing)."""
    rng = random.Random(seed)
    for phase, plays in ((Phase.BIDDING, 0), (Phase.PLAYING, 0), (Phase.PLAYING, 6)):
        game, seat = _at_move(rules, seed, phase, plays)
        if phase is Phase.BIDDING:
            while seat != game.bidders[-1]:  # the last bidder sees the most (or least)
                game.bid(seat, Bot().bid(game, seat))
                seat = game.waiting_for()[0]
        for _ in range(3):
            other = _others_changed(game, seat, rng)
            assert other.view(seat) == game.view(seat)
            bot = bot_for(level)
            if phase is Phase.BIDDING:
                assert bot.bid(other, seat) == bot.bid(game, seat)
            else:
                assert bot.play(other, seat) is bot.play(game, seat)


def test_the_rounds_tricks_are_kept_for_everyone_to_count() -> None:
    game, seat = _at_move(RuleSet(), 1, Phase.PLAYING, plays=9)
    assert len(game.tricks_done) == 2 and len(game.trick) == 1
    assert all(len(t) == 4 for t in game.tricks_done)
    back = Game.from_dict(game.to_dict())
    assert back.tricks_done == game.tricks_done
    older = game.to_dict()
    del older["tricks_done"]  # a state stored before they were kept
    assert Game.from_dict(older).tricks_done == []


def test_strong_beats_normal_and_normal_beats_easy() -> None:
    """A handful of seeded short games (the benchmark plays a thousand full ones)."""
    short = RuleSet(round_plan=Plan.SHORT)
    strong = compare("strong", "normal", 8, rules=short)
    assert strong.margin > 25 and strong.exact_rate > 0.55
    assert max(strong.move_ms) < 1000
    normal = compare("normal", "easy", 8, rules=short)
    assert normal.margin > 50


def test_simulate_compares_levels_from_the_command_line() -> None:
    result = CliRunner().invoke(
        simulate_command,
        ["--level", "easy", "--against", "normal", "--games", "4", "--plan", "short"],
    )
    assert result.exit_code == 0, result.output
    assert "one easy bot (rotating seat) beside normal bots" in result.output
    assert "points a game against the normal bots" in result.output
    bad = CliRunner().invoke(simulate_command, ["--level", "grandmaster"])
    assert bad.exit_code == 2 and "grandmaster" in bad.output


def test_the_bots_benchmark_ends_with_its_figures_as_json() -> None:
    bench = Path(__file__).resolve().parents[2] / "bench" / "bots.py"
    done = subprocess.run(
        [sys.executable, str(bench), "--games", "2", "--json"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert set(figures) == {
        "strong_vs_normal",
        "normal_vs_easy",
        "strong_exact_rate",
        "strong_move_p99_ms",
        "strong_move_median_ms",
        "load_avg",
        "games",
        "targets_met",
    }
    assert figures["games"] == 2 and 0 <= figures["strong_exact_rate"] <= 1
    assert figures["strong_move_p99_ms"] > 0
