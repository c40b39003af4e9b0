"""The story page of a game: running totals chart, bids against tricks, downloads."""

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import transaction
from scorekeeper.engine import RuleSet
from scorekeeper.services import games as game_service


def _played_game(app: Flask) -> str:
    with app.app_context(), transaction.atomic():
        game, _token = game_service.create_game(["Thomas", "Ute", "Kevin"], 0, RuleSet())
        # R16, 001's example: round 1 → 20, −10, 30; round 2 → −10, 20, −10.
        game_service.record_round(game, [0, 1, 1], [0, 0, 1])
        game_service.record_round(game, [2, 0, 0], [1, 0, 1])
        return game.public_id


def test_story_page_shows_the_chart_and_bids_against_tricks(
    app: Flask, client: FlaskClient
) -> None:
    public_id = _played_game(app)
    page = client.get(f"/games/{public_id}/story")
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert "<svg" in body and "<script" not in body.split("<svg", 1)[1].split("</svg>")[0]
    for name in ("Thomas", "Ute", "Kevin"):
        assert name in body
    # Thomas bid 0 + 2 and took 0 + 1, exact once in two rounds.
    assert "1/2" in body
    assert f"/games/{public_id}/pad.pdf" in body
    assert f"/games/{public_id}/export.json" in body


def test_game_page_links_to_the_story_and_downloads(app: Flask, client: FlaskClient) -> None:
    public_id = _played_game(app)
    body = client.get(f"/games/{public_id}").get_data(as_text=True)
    assert f"/games/{public_id}/story" in body
    assert f"/games/{public_id}/pad.pdf" in body
    assert f"/games/{public_id}/export.csv" in body


def test_story_of_an_unknown_game_is_a_friendly_404(client: FlaskClient) -> None:
    response = client.get("/games/no-such-game/story")
    assert response.status_code == 404
    assert "Traceback" not in response.get_data(as_text=True)
