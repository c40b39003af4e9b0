"""``bench/night.py``: how a follower's delay is counted (the figures themselves are for
the README, not for a test; a run takes minutes)."""

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

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
