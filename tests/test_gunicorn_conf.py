"""gunicorn.conf.py: each worker, once it has loaded the app, moves what it holds out of
the garbage collector's full passes (they fell inside requests)."""

import gc
import runpy
from pathlib import Path

CONF = Path(__file__).resolve().parents[1] / "gunicorn.conf.py"


def test_a_worker_freezes_what_it_loaded() -> None:
    settings = runpy.run_path(str(CONF))
    assert gc.get_freeze_count() == 0
    try:
        settings["post_worker_init"](object())
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
