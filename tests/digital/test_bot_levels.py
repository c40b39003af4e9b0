"""A digital table's bots play at the level chosen when it was set up."""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import func, select

from scorekeeper import transaction
from scorekeeper.engine import Phase, Plan, RuleSet
from scorekeeper.extensions import db
from scorekeeper.models import DigitalTable
from scorekeeper.services import digital as service
from scorekeeper.services.errors import Rejected

BOTS = ["bot"] * 4
SHORT = RuleSet(round_plan=Plan.SHORT)


def _exact_bids(app: Flask, level: str, seed: int) -> int:
    """A table of bots at ``level`` plays a short game through (bots only: a seeded
    test table); how many bids came out exact."""
    with app.app_context(), transaction.atomic():
        made = service.create_table(["", "", "", ""], BOTS, 0, SHORT, seed=seed, level=level)
        table = service.get_table(made.game.public_id)
        assert [service.bot_level(table, s) for s in range(4)] == [level] * 4
        game = service.engine_game(table)
        assert game.phase is Phase.GAME_OVER
        return sum(
            bid == took
            for entry in game.history
            for bid, took in zip(entry.bids, entry.tricks or (), strict=True)
        )


def test_the_bots_play_at_the_level_chosen(app: Flask) -> None:
    seeds = (1, 2, 3)
    strong = sum(_exact_bids(app, "strong", seed) for seed in seeds)
    easy = sum(_exact_bids(app, "easy", seed) for seed in seeds)
    assert strong > easy * 1.5  # 120 bids each


def test_a_level_that_is_not_one_is_refused_and_nothing_stored(app: Flask) -> None:
    with app.app_context():
        with pytest.raises(Rejected, match="easy, normal or strong"):
            service.create_table(
                ["Ann", "", "", ""], ["person", "bot", "bot", "bot"], 0, SHORT, level="grandmaster"
            )
        assert db.session.scalar(select(func.count()).select_from(DigitalTable)) == 0


def test_a_table_set_up_before_levels_plays_normal(app: Flask) -> None:
    with app.app_context(), transaction.atomic():
        made = service.create_table(["Ann", "", "", ""], ["person", "bot", "bot", "bot"], 0, SHORT)
        table = service.get_table(made.game.public_id)
        table.seats = [{k: v for k, v in seat.items() if k != "level"} for seat in table.seats]
        assert service.bot_level(table, 0) is None
        assert service.bot_level(table, 1) == "normal"
