"""SQLite: writes of one process take turns (scorekeeper/writers.py)."""

import threading

from flask import Flask

from scorekeeper import writers


def test_a_skippable_write_steps_aside_while_another_writes(app: Flask) -> None:
    with app.app_context():
        if app.extensions["sqlalchemy"].engine.dialect.name != "sqlite":
            with writers.turn(), writers.turn_if_free() as free:
                assert free  # PostgreSQL: writes run side by side
            return
        holding, release = threading.Event(), threading.Event()

        def writer() -> None:
            with app.app_context(), writers.turn():
                holding.set()
                release.wait(10)

        other = threading.Thread(target=writer)
        other.start()
        try:
            assert holding.wait(10)
            with writers.turn_if_free() as free:
                assert not free
        finally:
            release.set()
            other.join(10)
        with writers.turn_if_free() as free:
            assert free
        with writers.turn(), writers.turn():  # the same thread may take it again
            pass
