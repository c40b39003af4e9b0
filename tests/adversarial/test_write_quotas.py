"""What one client makes is limited: circles, games and imports per hour, and games per
circle. Each refusal is 429 (with ``Retry-After``) or 413, in words where the user is
looking, and stores nothing.

Before, with the default ``CIRCLES=anyone`` a stranger made circles and imported 2 MB
files of 249 games in under a second each (about 2.8 MB of database each), and 300
token-less ``POST /api/v1/games`` in a row were all answered 201.
"""

from __future__ import annotations

import io
import json
import re
import secrets
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select
from werkzeug.test import TestResponse

from scorekeeper import create_app, ratelimit
from scorekeeper.extensions import db
from scorekeeper.models import Circle, Game, Player, QuotaUse
from scorekeeper.services import circles as circle_service
from tests.adversarial.support import Clock, from_address
from tests.circles.support import Phone, alert
from tests.web.test_play_again import play_to_the_end, tap_again

NEW_GAME = {"players": ["Ann", "Ben", "Cat"], "first_dealer": 0}
GAME_QUOTA = ratelimit.QUOTAS["game"][1]
CIRCLE_QUOTA = ratelimit.QUOTAS["circle"][1]
IMPORT_QUOTA = ratelimit.QUOTAS["import"][1]
GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}


@pytest.fixture
def app(app: Flask) -> Flask:
    app.config["WTF_CSRF_ENABLED"] = False
    return app


def stored(app: Flask) -> tuple[int, ...]:
    """Circles, games, players and counted uses: what a refusal leaves as it was."""
    with app.app_context():
        return tuple(
            int(db.session.scalar(select(func.count()).select_from(model)) or 0)
            for model in (Circle, Game, Player, QuotaUse)
        )


def create(client: FlaskClient, **headers: str) -> TestResponse:
    return client.post("/api/v1/games", json=NEW_GAME, headers=headers)


def test_300_token_less_api_creates_meet_429_before_the_end(app: Flask, clock: Clock) -> None:
    client = from_address(app, "203.0.113.7")
    statuses = [create(client).status_code for _ in range(300)]
    assert statuses == [201] * GAME_QUOTA + [429] * (300 - GAME_QUOTA)
    before = stored(app)
    refused = create(client)
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "3600"
    error = refused.get_json()["error"]
    assert error["code"] == "too_many_games"
    assert error["message"] == (
        "Your network has started many games in a short time. Try again in 60 minutes."
    )
    assert stored(app) == before  # nothing stored, not even the refusal
    assert before[1] == GAME_QUOTA
    # Someone else is not held up; the client itself again once the hour has passed.
    assert create(from_address(app, "203.0.113.8")).status_code == 201
    clock.advance(1800)
    later = create(client)
    assert later.status_code == 429 and later.headers["Retry-After"] == "1800"
    clock.advance(1800)
    assert create(client).status_code == 201


def test_the_quota_holds_across_app_processes(app: Flask, tmp_path: Path) -> None:
    # A second app on the same database: another worker, or another app server.
    other = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
        },
        instance_path=tmp_path / "other",
    )
    try:
        clients = [from_address(app, "198.51.100.4"), from_address(other, "198.51.100.4")]
        statuses = [create(clients[n % 2]).status_code for n in range(GAME_QUOTA + 1)]
        assert statuses == [201] * GAME_QUOTA + [429]
    finally:
        with other.app_context():
            db.session.remove()
            db.engine.dispose()


def test_the_quota_is_a_setting_and_answers_in_the_readers_language(
    app: Flask, clock: Clock
) -> None:
    app.config["GAME_QUOTA"] = 2
    app.config["QUOTA_WINDOW"] = 90
    client = from_address(app, "192.0.2.50")
    assert [create(client).status_code for _ in range(2)] == [201, 201]
    refused = create(client, **GERMAN)
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "90"
    assert refused.get_json()["error"]["message"] == (
        "Von deinem Netz wurden in kurzer Zeit viele Spiele begonnen. "
        "Versuche es in 2 Minuten wieder."
    )


def test_the_setup_form_shows_the_refusal_where_the_scorer_is_looking(app: Flask) -> None:
    app.config["GAME_QUOTA"] = 2
    phone = Phone(app.test_client())
    phone.new_game(["Ann", "Ben", "Cat"])
    phone.new_game(["Ann", "Ben", "Cat"])
    before = stored(app)
    for htmx in (False, True):
        refused = phone.create(["Dora", "Emil", "Finn"], htmx=htmx)
        assert refused.status_code == 429
        assert "Retry-After" in refused.headers
        assert alert(refused) == (
            "Your network has started many games in a short time. Try again in 60 minutes."
        )
        body = refused.get_data(as_text=True)
        assert 'value="Dora"' in body  # the form as it was sent, to send again later
    assert stored(app) == before


def test_play_again_counts_and_is_refused_in_words(app: Flask) -> None:
    app.config["GAME_QUOTA"] = 1
    phone = Phone(app.test_client())
    pid = phone.new_game(["Ann", "Ben", "Cat"], round_plan="short")
    play_to_the_end(app, pid)
    before = stored(app)
    refused = tap_again(phone.client, pid)
    assert refused.status_code == 429
    assert "Retry-After" in refused.headers
    assert "Your network has started many games in a short time." in refused.get_data(as_text=True)
    assert stored(app) == before


def test_a_digital_table_counts_as_a_game(app: Flask) -> None:
    app.config["GAME_QUOTA"] = 1
    client = app.test_client()
    form = {"name0": "Ann", "kind0": "person", "kind1": "bot", "kind2": "bot", "first_dealer": "0"}
    assert client.post("/digital/new", data=form).status_code == 303
    before = stored(app)
    refused = client.post("/digital/new", data=form)
    assert refused.status_code == 429
    assert "Retry-After" in refused.headers
    assert alert(refused) == (
        "Your network has started many games in a short time. Try again in 60 minutes."
    )
    assert stored(app) == before


def test_a_flood_of_circles_meets_429_on_the_form(app: Flask, clock: Clock) -> None:
    phone = Phone(from_address(app, "203.0.113.20"))
    for n in range(CIRCLE_QUOTA):
        phone.make_circle(f"Circle {n}")
    before = stored(app)
    refused = phone.client.post("/circles", data={"name": "One too many"})
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "3600"
    assert alert(refused) == (
        "Your network has made many circles in a short time. Try again in 60 minutes."
    )
    assert 'value="One too many"' in refused.get_data(as_text=True)
    assert stored(app) == before
    clock.advance(3600)
    phone.make_circle("Next hour")


def history_file(phone: Phone, circle: str, games: int) -> bytes:
    """The history of the circle after ``games`` games set up in it, as exported."""
    for _ in range(games):
        phone.game_in(circle, ["Ann", "Ben", "Cat"])
    return phone.client.get(f"/circles/{circle}/export/history.json").data


def fresh(body: bytes) -> bytes:
    """The same history with new game ids: games an import would store."""
    history = json.loads(body)
    for game in history["games"]:
        game["public_id"] = secrets.token_urlsafe(16)
    return json.dumps(history).encode()


def upload(phone: Phone, circle: str, body: bytes) -> TestResponse:
    return phone.client.post(
        f"/circles/{circle}/import",
        data={"file": (io.BytesIO(body), "history.json")},
        content_type="multipart/form-data",
    )


def test_a_flood_of_imports_meets_429_on_the_import_page(app: Flask, clock: Clock) -> None:
    phone = Phone(from_address(app, "203.0.113.30"))
    circle = phone.make_circle()
    body = history_file(phone, circle, 1)
    for _ in range(IMPORT_QUOTA):
        imported = upload(phone, circle, body)
        assert imported.status_code == 303, alert(imported)
    before = stored(app)
    refused = upload(phone, circle, fresh(body))
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "3600"
    page = refused.get_data(as_text=True)
    assert "Your network has imported many files in a short time. Try again in 60 minutes." in page
    assert 'enctype="multipart/form-data"' in page  # the import form, to try later
    assert stored(app) == before


def test_a_circle_holds_at_most_so_many_games(app: Flask) -> None:
    app.config["CIRCLE_MAX_GAMES"] = 3
    phone = Phone(app.test_client())
    circle = phone.make_circle()
    body = history_file(phone, circle, 2)  # two games in the circle
    # An import that would take it past the bound stores none of the file.
    before = stored(app)
    refused = upload(phone, circle, fresh(body))
    assert refused.status_code == 413
    page = refused.get_data(as_text=True)
    assert re.search(
        r"This file has 2 new games, but the circle holds 2 of the 3 games a circle keeps "
        r"here\. Nothing was imported\.",
        page,
    )
    assert stored(app) == before
    # The third game fits; the fourth is refused on the setup form, in words.
    phone.game_in(circle, ["Ann", "Ben", "Cat"])
    before = stored(app)
    full = phone.create(["Dora", "Emil", "Finn"], circle=circle)
    assert full.status_code == 413
    assert alert(full) == (
        "This circle holds 3 games, the most a circle keeps here: this game can be a "
        "one-off game (no circle), or start a new circle."
    )
    # The API with the circle's token, too.
    with app.app_context():
        token = circle_service.api_token(circle_service.get_circle(circle))
    api = phone.client.post(
        "/api/v1/games", json=NEW_GAME, headers={"Authorization": f"Bearer {token}"}
    )
    assert api.status_code == 413
    assert api.get_json()["error"]["code"] == "circle_full"
    assert stored(app) == before
    # A one-off game is still there for the table, but it can't move into the full circle.
    one_off = phone.new_game(["Dora", "Emil", "Finn"])
    before = stored(app)
    moved = phone.client.post(f"/games/{one_off}/move", data={"circle": circle})
    assert moved.status_code == 413
    assert alert(moved) == alert(full)
    assert stored(app) == before
