"""A circle's history pages through the Flask client: lists, filters, player pages,
forms. ``member`` is a browser that opened the circle's link."""

from __future__ import annotations

import json
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import transaction
from scorekeeper.extensions import db
from scorekeeper.models import Player
from scorekeeper.services import games as game_service
from tests.history.support import Fixture, join, the_circle


def _game_ids(html: str) -> list[str]:
    return re.findall(r'href="/games/([A-Za-z0-9_-]{16,})"', html)


def test_games_list_newest_first(member: FlaskClient, fx: Fixture) -> None:
    html = member.get(f"/circles/{fx.circle}/games").get_data(as_text=True)
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
    member: FlaskClient, fx: Fixture, query: str, expected: list[str]
) -> None:
    query = query.replace("player=cat", f"player={fx.cat}").replace(
        "player=dan", f"player={fx.dan}"
    )
    html = member.get(f"/circles/{fx.circle}/games?{query}").get_data(as_text=True)
    assert _game_ids(html) == [getattr(fx, g) for g in expected]


def test_games_list_pages(app: Flask, client: FlaskClient) -> None:
    with app.app_context(), transaction.atomic():
        circle = the_circle()
        for _ in range(25):
            game_service.create_game(
                ["Ann", "Ben", "Cat"], 0, game_service.parse_rules({}), circle_id=circle.id
            )
        # A one-off game (no circle) is in no circle's list.
        game_service.create_game(["Ann", "Ben", "Cat"], 0, game_service.parse_rules({}))
        public_id = circle.public_id
    games = f"/circles/{public_id}/games"
    join(client, public_id)
    first = client.get(games).get_data(as_text=True)
    assert len(_game_ids(first)) == 20
    assert 'rel="next"' in first and 'rel="prev"' not in first
    second = client.get(f"{games}?page=2").get_data(as_text=True)
    assert len(_game_ids(second)) == 5
    assert 'rel="prev"' in second and 'rel="next"' not in second
    assert not set(_game_ids(first)) & set(_game_ids(second))
    filtered = client.get(f"{games}?status=ongoing").get_data(as_text=True)
    assert "page=2&amp;status=ongoing" in filtered


def test_players_and_player_page(member: FlaskClient, fx: Fixture) -> None:
    players = f"/circles/{fx.circle}/players"
    html = member.get(players).get_data(as_text=True)
    assert f'href="{players}/{fx.ann}"' in html
    html = member.get(f"{players}/{fx.ann}").get_data(as_text=True)
    assert "<h1>Ann</h1>" in html
    assert "450.0" in html  # average final score
    assert "16 of 22" in html
    assert "takes fewer tricks than bid" in html
    assert f'href="/games/{fx.g1}">1300</a>' in html
    assert 'name="csrf_token"' in html
    assert member.get(f"{players}/999").status_code == 404


def test_records_page(member: FlaskClient, fx: Fixture) -> None:
    html = member.get(f"/circles/{fx.circle}/records").get_data(as_text=True)
    assert "<strong>1300</strong>" in html and "<strong>450</strong>" in html


def test_rename_and_merge_forms(app: Flask, member: FlaskClient, fx: Fixture) -> None:
    app.config["WTF_CSRF_ENABLED"] = False
    players = f"/circles/{fx.circle}/players"
    response = member.post(f"{players}/{fx.cat}/rename", data={"name": "Catherine"})
    assert response.status_code == 303
    assert "Renamed to Catherine" in member.get(response.location).get_data(as_text=True)
    response = member.post(f"{players}/{fx.cat}/rename", data={"name": "ann"})
    assert response.status_code == 422
    assert "already a player called Ann" in response.get_data(as_text=True)
    response = member.post(f"{players}/{fx.ann}/merge", data={"other": str(fx.ben)})
    assert response.status_code == 422
    assert "can&#39;t be merged" in response.get_data(as_text=True)
    with app.app_context(), transaction.atomic():
        game_service.create_game(
            ["Cathy", "Eve", "Fay"], 0, game_service.parse_rules({}), circle_id=fx.circle_id
        )
        cathy = db.session.scalar(db.select(Player.id).where(Player.key == "cathy"))
    # The choices are the names Cat's could be: never at a table with her (the others of
    # the small history all played with her, and would be refused).
    page = member.get(f"{players}/{fx.cat}").get_data(as_text=True)
    merge_form = page[page.index(f"{players}/{fx.cat}/merge") :]
    choices = re.findall(r'<option value="(\d+)">([^<]+)</option>', merge_form)
    assert [name for _, name in choices] == ["Cathy", "Eve", "Fay"]
    response = member.post(f"{players}/{fx.cat}/merge", data={"other": str(cathy)})
    assert response.status_code == 303
    with app.app_context():
        assert db.session.get(Player, cathy) is None


def test_forms_need_the_csrf_token(member: FlaskClient, fx: Fixture) -> None:
    response = member.post(
        f"/circles/{fx.circle}/players/{fx.cat}/rename", data={"name": "Catherine"}
    )
    assert response.status_code == 400


def test_downloads(member: FlaskClient, fx: Fixture) -> None:
    client = member
    response = client.get(f"/games/{fx.g1}/export.json")
    assert response.status_code == 200
    assert "attachment" in response.headers["Content-Disposition"]
    assert json.loads(response.data)["game"]["public_id"] == fx.g1
    response = client.get(f"/games/{fx.g1}/export.csv")
    assert response.mimetype == "text/csv"
    assert response.get_data(as_text=True).startswith("round,cards,dealer")
    response = client.get(f"/circles/{fx.circle}/export/history.json")
    assert len(json.loads(response.data)["games"]) == 3
    assert client.get("/games/nope/export.json").status_code == 404
    assert client.get(f"/circles/{fx.circle}/export").status_code == 200


def test_upload_import(app: Flask, member: FlaskClient, fx: Fixture) -> None:
    app.config["WTF_CSRF_ENABLED"] = False
    import io

    client = member
    good = client.get(f"/circles/{fx.circle}/export/history.json").data
    response = client.post(
        f"/circles/{fx.circle}/import",
        data={"file": (io.BytesIO(good), "h.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 303
    assert "3 already here, skipped" in client.get(response.location).get_data(as_text=True)
    response = client.post(
        f"/circles/{fx.circle}/import",
        data={"file": (io.BytesIO(b"{nope"), "h.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    assert "Nothing was imported" in response.get_data(as_text=True)
    assert "not valid JSON" in response.get_data(as_text=True)
    response = client.post(
        f"/circles/{fx.circle}/import", data={}, content_type="multipart/form-data"
    )
    assert response.status_code == 422


@pytest.mark.parametrize("page", ["/games", "/players", "/records", "/export"])
def test_the_old_history_addresses_lead_home(client: FlaskClient, fx: Fixture, page: str) -> None:
    # The history is a circle's now: the old server-wide pages list nothing, they lead
    # to the home page, which lists the circles this phone holds links to.
    response = client.get(page)
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


def test_the_pages_need_the_circle_link(client: FlaskClient, fx: Fixture) -> None:
    for page in ("games", "players", f"players/{fx.ann}", "records", "export"):
        assert client.get(f"/circles/{fx.circle}/{page}").status_code == 404, page
    join(client, fx.circle)
    for page in ("games", "players", f"players/{fx.ann}", "records", "export"):
        assert client.get(f"/circles/{fx.circle}/{page}").status_code == 200, page


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
