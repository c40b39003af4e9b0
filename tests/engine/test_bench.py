"""``bench/engine.py`` runs and ends with one JSON object (the figures are not tested)."""

import importlib.util
import json
import random
from pathlib import Path
from types import ModuleType

import pytest

from scorekeeper.engine import RuleSet

BENCH = Path(__file__).resolve().parents[2] / "bench" / "engine.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_engine", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("argv", "plays"),
    [
        (["--games", "2", "--json"], 2 * 4 * sum(range(1, 16))),
        (["--games", "1", "--players", "6", "--seed", "3", "--json"], 6 * sum(range(1, 11))),
        (
            ["--games", "1", "--players", "3", "--rules", '{"round_plan": "short"}', "--json"],
            3 * sum([2, 4, 6, 8, 10, 12, 14, 16, 18, 20]),
        ),
        (
            ["--games", "1", "--rules", '{"bidding": "hidden", "saboteur": true}', "--json"],
            4 * sum(range(1, 16)),
        ),
    ],
)
def test_bench_json_last_line(
    argv: list[str], plays: int, capsys: pytest.CaptureFixture[str]
) -> None:
    load().main(argv)
    last = capsys.readouterr().out.strip().splitlines()[-1]
    result = json.loads(last)
    assert result["plays"] == plays
    assert result["games_per_s"] > 0 and result["plays_per_s"] > 0


@pytest.mark.parametrize(
    "argv", [["--games", "0"], ["--players", "2"], ["--rules", '{"x": 1}'], ["--rules", "{"]]
)
def test_bench_refuses_bad_options(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        load().main(argv)


def test_bench_plays_every_card_of_every_round() -> None:
    plays = load().play_random_game(RuleSet(), 5, random.Random(7))
    assert plays == 5 * sum(range(1, 13))
