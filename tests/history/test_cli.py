"""The export and import commands: files, exit status, nothing stored on a bad file."""

from __future__ import annotations

import json
from pathlib import Path

from flask import Flask
from flask.testing import FlaskCliRunner
from sqlalchemy import delete, func, select, update

from scorekeeper import transaction
from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.services import games as game_service
from scorekeeper.services import transfer
from tests.history.support import Fixture


def _games(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Game)) or 0


def test_export_then_import(
    app: Flask, runner: FlaskCliRunner, fx: Fixture, tmp_path: Path
) -> None:
    backup = tmp_path / "backup.json"
    result = runner.invoke(args=["export", str(backup)])
    assert result.exit_code == 0, result.output
    data = json.loads(backup.read_text())
    assert len(data["games"]) == 3
    with app.app_context():
        for game in db.session.scalars(select(Game)):
            db.session.delete(game)
        db.session.commit()
    result = runner.invoke(args=["import", str(backup)])
    assert result.exit_code == 0, result.output
    assert "3 games imported" in result.output
    with app.app_context():
        assert transfer.history_json(None) == backup.read_text()
        # Into the server's only circle, the fixture's, with the players it already had;
        # the circle's own export carries its ratings too (the server's has none).
        circle = json.loads(transfer.history_json(fx.circle_id))
        assert [r["player"] for r in circle.pop("ratings")] == ["Ann", "Ben", "Cat", "Dan"]
        assert "ratings" not in data and circle == data


def test_export_of_one_circle(
    app: Flask, runner: FlaskCliRunner, fx: Fixture, tmp_path: Path
) -> None:
    with app.app_context(), transaction.atomic():
        game_service.create_game(["Ann", "Ben", "Cat"], 0, game_service.parse_rules({}))
    everything = json.loads(runner.invoke(args=["export", "-"]).stdout)
    assert len(everything["games"]) == 4  # the one-off game too
    result = runner.invoke(args=["export", "--circle", fx.circle, "-"])
    assert result.exit_code == 0, result.output
    assert [g["public_id"] for g in json.loads(result.stdout)["games"]] == [fx.g1, fx.g2, fx.g3]
    result = runner.invoke(args=["export", "--circle", "no-such-circle", "-"])
    assert result.exit_code != 0 and "no circle" in result.output


def test_export_to_stdout(runner: FlaskCliRunner, fx: Fixture) -> None:
    result = runner.invoke(args=["export", "-"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["version"] == 1


def test_bad_file_exits_non_zero_and_stores_nothing(
    app: Flask, runner: FlaskCliRunner, fx: Fixture, tmp_path: Path
) -> None:
    with app.app_context():
        data = json.loads(transfer.history_json(None))
    data["games"][0]["public_id"] = "a-new-game-id-12345678"
    data["games"][0]["rounds"][3]["totals"] = [1, 2, 3]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = runner.invoke(args=["import", str(bad)])
    assert result.exit_code == 1
    assert "nothing stored" in result.stderr and "round 4" in result.stderr
    assert _games(app) == 3
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    result = runner.invoke(args=["import", str(broken)])
    assert result.exit_code == 1 and "not valid JSON" in result.stderr
    result = runner.invoke(args=["import", str(tmp_path / "missing.json")])
    assert result.exit_code != 0
    assert _games(app) == 3


def test_rebuild_stats(app: Flask, runner: FlaskCliRunner, fx: Fixture) -> None:
    from scorekeeper.models import PlayerCards, Rivalry, Seat
    from scorekeeper.services import stats

    with app.app_context():
        before = {
            k: v for k, v in vars(stats.player_stats(fx.ann, fx.circle_id)).items() if k != "player"
        }
        # As after upgrading a database whose games predate the summaries.
        db.session.execute(update(Seat).values(total=0, won=None, by_cards=None))
        db.session.execute(delete(PlayerCards))
        db.session.execute(delete(Rivalry))
        db.session.commit()
    result = runner.invoke(args=["rebuild-stats"])
    assert result.exit_code == 0, result.output
    assert "3 games" in result.stderr
    with app.app_context():
        after = {
            k: v for k, v in vars(stats.player_stats(fx.ann, fx.circle_id)).items() if k != "player"
        }
        assert after == before
