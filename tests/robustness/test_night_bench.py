"""``bench/night.py``: how a follower's delay is counted (the figures themselves are for
the README, not for a test; a run takes minutes)."""

import importlib.util
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "night.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_night", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_a_delay_runs_from_the_scorers_answer_to_the_follower_having_it() -> None:
    night = load()
    table = night.Table("g", "token", 2)
    table.answered = {3: 10.0, 4: 20.0, 5: 40.0}  # version → when the scorer had it
    # One follower saw 3 at 10.5 and jumped from 3 to 5 at 41 (4 and 5 at once); another
    # saw 3 before the scorer's answer came back (no negative delay) and nothing after.
    table.seen = [[(10.5, 3), (41.0, 5)], [(9.9, 3)]]
    delays, missed = night.delays([table], start=0.0, end=45.0)
    assert sorted(delays) == [0.0, 0.5, 1.0, 10.0, 21.0, 30.0]
    # The second follower never had 4 or 5: counted as missed, and as late as the end of
    # the step and its settling time (5 s) allow: 50 - 20 and 50 - 40.
    assert missed == 2
    # Changes answered outside the step are not its changes.
    assert night.delays([table], start=15.0, end=30.0) == ([21.0, 15.0], 1)
    assert night.pct([0.5, 1.0, 10.0, 21.0], 0.99) == 21.0
    assert night.pct([], 0.99) == 0.0


def test_entry_taps_enter_rounds_on_the_game_page_and_followers_see_each(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tiny night on the real server: two tables whose games are at their last round,
    scorers tapping about every 0.15 s, five followers each on the live channel."""
    night = load()
    monkeypatch.setattr(night, "SETTLE", 1.0)

    def at_the_last_round(games: Any, count: int, taps: str) -> list[Any]:
        return [night.Table(*made) for made in games.make(count, lambda rounds: rounds - 1)]

    monkeypatch.setattr(night, "make_tables", at_the_last_round)
    argv = ["--modes", "live", "--start", "2", "--max-tables", "2", "--hold", "3"]
    # In a thread of its own: after a browser test on this worker, Playwright's event
    # loop is this thread's running loop, and asyncio.run refuses to start beside it.
    with ThreadPoolExecutor(1) as thread:
        thread.submit(night.main, [*argv, "--speed", "100", "--json"]).result()
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["taps"] == "entry"  # the default
    live = result["modes"]["live"]
    [step] = live["steps"]
    # Every tap answered 200 with a panel to tap on; no follower failed or missed one.
    assert step["failures"] == 0, step.get("failure_examples")
    assert step["missed"] == 0
    assert step["taps_per_s"] > 2
    # Each tap made a new version (a bid or a count), and each of the five followers of
    # its table had it (none missed): at least ten taps of the three seconds held.
    assert step["changes_seen"] >= 5 * 10
    # Both games' last round was scored and each table went on in a new game.
    assert live["games_finished"] >= 2
    assert live["rounds_scored"] >= 2
    # As stored: a tap cut off at the end may have been stored without its answer.
    assert live["rounds_scored"] <= live["rounds_stored"] <= live["rounds_scored"] + 2
