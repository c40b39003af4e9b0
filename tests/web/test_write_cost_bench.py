"""``bench/write_cost.py`` takes a round submission apart and ends with one JSON object
(the figures themselves are for the README, not for a test)."""

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "write_cost.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_write_cost", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_a_correction_taken_apart(capsys: pytest.CaptureFixture[str]) -> None:
    load().main(["--games", "3", "--writes", "6", "--json"])
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["writes"] == 6
    # The game read in one statement; the version, the change log, the seats, round 1's
    # results and the later rounds' totals written, and the two players' points by seat
    # relative to the dealer (the correction changes two scores).
    assert result["statements_per_write"] == 8
    parts = [result[f"{name}_ms"] for name in ("load", "flush", "answer", "commit")]
    assert all(part > 0 for part in parts)
    # The parts timed don't overlap: what is left over is the write's own work.
    assert result["rest_ms"] > 0
    assert result["bare_reads_ms"] > 0
    assert result["bare_writes_ms"] > 0
    assert result["without_orm_ms"] < result["write_ms"]
    assert result["write_share_of_healthz"] < result["without_orm_share_of_healthz"] < 1


@pytest.mark.parametrize("argv", [["--games", "0"], ["--writes", "0"], ["--writes", "x"]])
def test_bad_options_refused(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        load().main(argv)
