"""``bench/change_cost.py`` takes a followed game's change apart and ends with one JSON
object (the figures themselves are for the README, not for a test)."""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "change_cost.py"


def test_a_change_taken_apart(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("bench_change_cost", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    module.main(["--rounds", "2", "--changes", "3", "--followers", "3", "--json"])
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert (result["rounds"], result["changes"], result["followers"]) == (2, 3, 3)
    parts = result["tap_ms"] + result["render_ms"] + 2 * result["kept_fetch_ms"]
    assert result["change_ms"] == pytest.approx(parts, abs=0.02)
    # The kept copy is what the other followers get: cheaper than rendering it.
    assert 0 < result["kept_fetch_ms"] < result["render_ms"]
    assert result["tables_per_core"] == int(result["changes_per_core_s"] * 15)
