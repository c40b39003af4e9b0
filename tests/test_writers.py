"""SQLite: writes of one process take turns (scorekeeper/writers.py)."""

import threading

from flask import Flask
from sqlalchemy import delete, select

from scorekeeper import writers
from scorekeeper.extensions import db
from scorekeeper.models import Game, IdempotencyKey


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


def test_a_checked_write_holds_the_turn_from_its_first_write_to_its_commit(app: Flask) -> None:
    def free_elsewhere() -> bool:
        seen: list[bool] = []

        def other() -> None:
            with app.app_context(), writers.turn_if_free() as free:
                seen.append(free)

        thread = threading.Thread(target=other)
        thread.start()
        thread.join(10)
        return seen == [True]

    nothing = delete(IdempotencyKey).where(IdempotencyKey.id == -1)
    with app.app_context():
        sqlite = db.engine.dialect.name == "sqlite"
        with writers.turn_at_first_write() as unlocked:
            assert unlocked == sqlite  # PostgreSQL: nothing to take
            db.session.scalar(select(Game.id))
            assert free_elsewhere()  # reading, it lets others write
            db.session.execute(nothing)
            assert free_elsewhere() != sqlite  # written: its turn until the commit
            db.session.commit()
            assert free_elsewhere()
            db.session.execute(nothing)  # a second transaction takes it again
            assert free_elsewhere() != sqlite
            db.session.rollback()
            assert free_elsewhere()
            db.session.execute(nothing)
        assert free_elsewhere()  # and gives it up at the end whatever happened
        db.session.rollback()
