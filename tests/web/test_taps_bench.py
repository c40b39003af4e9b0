"""``bench/taps.py`` enters bot games through the page and ends with one JSON object (the
figures themselves are for the README, not for a test)."""

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "taps.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_taps", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_one_game_entered_through_the_page(capsys: pytest.CaptureFixture[str]) -> None:
    load().main(["--games", "1", "--players", "3", "--json"])
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["rounds"] == {"3": 20}  # the full plan for 3 players (R4)
    assert result["bid_taps"] == {"3": 3.0}  # every bid tapped, one tap each
    # At least one tap for the tricks of every round (the last count alone fills itself).
    assert 1.0 <= result["trick_taps"]["3"] <= 2.0
    assert result["avg_taps"]["3"] == pytest.approx(
        result["bid_taps"]["3"] + result["trick_taps"]["3"], abs=0.01
    )


@pytest.mark.parametrize(
    "argv", [["--games", "0"], ["--players", "2"], ["--players", "x"], ["--jobs", "0"]]
)
def test_bad_options_are_refused(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        load().main(argv)
