"""``bench/change_cost.py`` takes a followed game's change apart and ends with one JSON
object (the figures themselves are for the README, not for a test)."""

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "change_cost.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_change_cost", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    load().main([*argv, "--json"])
    result: dict[str, Any] = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    return result


@pytest.mark.parametrize("taps", ["entry", "correction"])
def test_a_change_taken_apart(capsys: pytest.CaptureFixture[str], taps: str) -> None:
    result = run(capsys, "--taps", taps, "--rounds", "2", "--changes", "3", "--followers", "3")
    assert result["taps"] == taps
    assert (result["rounds"], result["changes"], result["followers"]) == (2, 3, 3)
    parts = result["tap_ms"] + result["render_ms"] + 2 * result["kept_fetch_ms"]
    assert result["change_ms"] == pytest.approx(parts, abs=0.02)
    # The kept copy is what the other followers get: cheaper than rendering it.
    assert 0 < result["kept_fetch_ms"] < result["render_ms"]
    assert result["tables_per_core"] == int(result["changes_per_core_s"] * 15)


def test_entry_taps_play_the_rounds_on_and_the_next_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # 14 of 15 rounds played: 13 taps (10 to warm up, 3 measured) take the last round's
    # bids and counts (each of them answered 200 with the next step to tap, or the
    # bench stops), finish the game and go on in the next one, made the same way.
    result = run(capsys, "--rounds", "14", "--changes", "3", "--followers", "2")
    assert result["taps"] == "entry"
    assert result["games_finished"] >= 1
    # The scored rounds are in the database: the last round of each finished game.
    assert result["rounds_scored"] >= result["games_finished"]
    # Each tap's answer is a new version that a follower fetched (200, not 204).
    assert result["render_ms"] > 0
