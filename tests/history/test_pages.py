"""The history pages through the Flask client: lists, filters, player pages, forms."""

from __future__ import annotations

import json
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import Player
from scorekeeper.services import games as game_service
from tests.history.support import Fixture


def _game_ids(html: str) -> list[str]:
    return re.findall(r'href="/games/([A-Za-z0-9_-]{16,})"', html)


def test_games_list_newest_first(client: FlaskClient, fx: Fixture) -> None:
    html = client.get("/games").get_data(as_text=True)
    assert _game_ids(html) == [fx.g3, fx.g2, fx.g1]
    assert "Won by Ann" in html and "Won by Ben" in html
    assert "Ongoing — resume" in html
    assert "10 rounds played" in html and "2 rounds played" in html
    assert "Ann, Ben, Cat, Dan" in html


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("status=finished", ["g2", "g1"]),
        ("status=ongoing", ["g3"]),
        ("round_plan=short", ["g2", "g1"]),
        ("round_plan=full", ["g3"]),
        ("dealer_rule=canadian", []),
        ("dealer_rule=none", ["g3", "g2", "g1"]),
        ("player=cat", ["g3", "g1"]),
        ("player=dan&status=finished", ["g2"]),
        ("from=2025-12-25", ["g3", "g2"]),
        ("to=2025-12-25", ["g2", "g1"]),
        ("from=2025-12-25&to=2025-12-25", ["g2"]),
        ("status=bogus&from=notadate", ["g3", "g2", "g1"]),  # nonsense is ignored
    ],
)
def test_games_list_filters(
    client: FlaskClient, fx: Fixture, query: str, expected: list[str]
) -> None:
    query = query.replace("player=cat", f"player={fx.cat}").replace(
        "player=dan", f"player={fx.dan}"
    )
    html = client.get(f"/games?{query}").get_data(as_text=True)
    assert _game_ids(html) == [getattr(fx, g) for g in expected]


def test_games_list_pages(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        for _ in range(25):
            game_service.create_game(["Ann", "Ben", "Cat"], 0, game_service.parse_rules({}))
    first = client.get("/games").get_data(as_text=True)
    assert len(_game_ids(first)) == 20
    assert 'rel="next"' in first and 'rel="prev"' not in first
    second = client.get("/games?page=2").get_data(as_text=True)
    assert len(_game_ids(second)) == 5
    assert 'rel="prev"' in second and 'rel="next"' not in second
    assert not set(_game_ids(first)) & set(_game_ids(second))
    filtered = client.get("/games?status=ongoing").get_data(as_text=True)
    assert "page=2&amp;status=ongoing" in filtered


def test_players_and_player_page(client: FlaskClient, fx: Fixture) -> None:
    html = client.get("/players").get_data(as_text=True)
    assert f'href="/players/{fx.ann}"' in html
    html = client.get(f"/players/{fx.ann}").get_data(as_text=True)
    assert "<h1>Ann</h1>" in html
    assert "450.0" in html  # average final score
    assert "16 of 22" in html
    assert "takes fewer tricks than bid" in html
    assert f'href="/games/{fx.g1}">1300</a>' in html
    assert 'name="csrf_token"' in html
    assert client.get("/players/999").status_code == 404


def test_records_page(client: FlaskClient, fx: Fixture) -> None:
    html = client.get("/records").get_data(as_text=True)
    assert "<strong>1300</strong>" in html and "<strong>450</strong>" in html


def test_rename_and_merge_forms(app: Flask, client: FlaskClient, fx: Fixture) -> None:
    app.config["WTF_CSRF_ENABLED"] = False
    response = client.post(f"/players/{fx.cat}/rename", data={"name": "Catherine"})
    assert response.status_code == 303
    assert "Renamed to Catherine" in client.get(response.location).get_data(as_text=True)
    response = client.post(f"/players/{fx.cat}/rename", data={"name": "ann"})
    assert response.status_code == 422
    assert "already a player called Ann" in response.get_data(as_text=True)
    response = client.post(f"/players/{fx.ann}/merge", data={"other": str(fx.ben)})
    assert response.status_code == 422
    assert "can&#39;t be merged" in response.get_data(as_text=True)
    with app.app_context():
        game_service.create_game(["Cathy", "Eve", "Fay"], 0, game_service.parse_rules({}))
        cathy = db.session.scalar(db.select(Player.id).where(Player.key == "cathy"))
    response = client.post(f"/players/{fx.cat}/merge", data={"other": str(cathy)})
    assert response.status_code == 303
    with app.app_context():
        assert db.session.get(Player, cathy) is None


def test_forms_need_the_csrf_token(client: FlaskClient, fx: Fixture) -> None:
    response = client.post(f"/players/{fx.cat}/rename", data={"name": "Catherine"})
    assert response.status_code == 400


def test_downloads(client: FlaskClient, fx: Fixture) -> None:
    response = client.get(f"/games/{fx.g1}/export.json")
    assert response.status_code == 200
    assert "attachment" in response.headers["Content-Disposition"]
    assert json.loads(response.data)["game"]["public_id"] == fx.g1
    response = client.get(f"/games/{fx.g1}/export.csv")
    assert response.mimetype == "text/csv"
    assert response.get_data(as_text=True).startswith("round,cards,dealer")
    response = client.get("/export/history.json")
    assert len(json.loads(response.data)["games"]) == 3
    assert client.get("/games/nope/export.json").status_code == 404
    assert client.get("/export").status_code == 200


def test_upload_import(app: Flask, client: FlaskClient, fx: Fixture) -> None:
    app.config["WTF_CSRF_ENABLED"] = False
    import io

    good = client.get("/export/history.json").data
    response = client.post(
        "/import", data={"file": (io.BytesIO(good), "h.json")}, content_type="multipart/form-data"
    )
    assert response.status_code == 303
    assert "3 already here, skipped" in client.get(response.location).get_data(as_text=True)
    response = client.post(
        "/import",
        data={"file": (io.BytesIO(b"{nope"), "h.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    assert "Nothing was imported" in response.get_data(as_text=True)
    assert "not valid JSON" in response.get_data(as_text=True)
    response = client.post("/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 422


def test_chart_fragment(app: Flask, fx: Fixture) -> None:
    from flask import render_template

    from scorekeeper.services.charts import game_chart
    from scorekeeper.services.padview import pad_view

    with app.test_request_context():
        chart = game_chart(pad_view(game_service.get_game(fx.g2)))
        html = render_template("_chart.html", chart=chart)
    assert "<svg" in html and "<script" not in html
    assert chart.rounds == 10
    ann, ben, dan = chart.bids
    assert (ann.bid, ann.tricks, ann.exact, ann.rounds) == (110, 30, 5, 10)
    assert (ben.bid, ben.tricks, ben.exact) == (5 + 80, 80, 5)
    assert (dan.bid, dan.tricks, dan.exact, dan.difference) == (0, 0, 10, 0)
    assert "Ann" in html and "+80" not in html
