"""``flask simulate``: headless bot games from the command line."""

import json

from flask.testing import FlaskCliRunner


def test_simulate_json(runner: FlaskCliRunner) -> None:
    result = runner.invoke(
        args=[
            "simulate",
            "--games",
            "2",
            "--players",
            "4",
            "--plan",
            "short",
            "--seed",
            "1",
            "--json",
        ]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 2
    assert set(data) >= {"games", "games_per_s", "exact_bid_rate", "avg_score"}
    assert len(data["avg_score"]) == 4
    assert 0 <= data["exact_bid_rate"] <= 1


def test_simulate_text_against_random(runner: FlaskCliRunner) -> None:
    result = runner.invoke(
        args=["simulate", "--games", "2", "--players", "3", "--opponents", "random", "--seed", "4"]
    )
    assert result.exit_code == 0, result.output
    assert "seat 0 (bot" in result.output
    assert "seat 1 (random" in result.output
    assert "games/s" in result.output
