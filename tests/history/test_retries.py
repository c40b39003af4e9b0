"""Renames, merges and imports under an idempotency key: sent again (a double tap, a
resend after a timeout), they change nothing twice and answer as the first time did."""

from __future__ import annotations

import html
import io
import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select
from werkzeug.test import TestResponse

from scorekeeper import transaction
from scorekeeper.extensions import db
from scorekeeper.idempotency import REPLAYED, REUSED
from scorekeeper.models import Change, Game, IdempotencyKey, Player, Seat
from scorekeeper.services import games as game_service
from scorekeeper.services import transfer
from tests.history.support import Fixture, join, the_circle


@pytest.fixture
def app(app: Flask) -> Flask:
    app.config["WTF_CSRF_ENABLED"] = False
    return app


@pytest.fixture
def client(client: FlaskClient, fx: Fixture) -> FlaskClient:
    """A browser that holds the fixture circle's link."""
    return join(client, fx.circle)


def players(app: Flask) -> dict[int, str]:
    with app.app_context():
        return {p.id: p.name for p in db.session.scalars(select(Player))}


def seats_of(app: Flask) -> list[tuple[str, int, int]]:
    with app.app_context():
        rows = db.session.execute(
            select(Game.public_id, Seat.seat, Seat.player_id).join(Seat.game)
        ).all()
        return sorted((r[0], r[1], r[2]) for r in rows)


def history(app: Flask) -> str:
    """Everything stored, as the backup file has it."""
    with app.app_context():
        db.session.expire_all()
        return transfer.history_json(None)


def keys_kept(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(IdempotencyKey)) or 0


def form_key(client: FlaskClient, page: str, action: str) -> str:
    """The key of the form on ``page`` that posts to ``action``."""
    body = client.get(page).get_data(as_text=True)
    form = re.search(rf'<form[^>]*action="{re.escape(action)}".*?</form>', body, re.S)
    assert form, action
    found = re.search(r'name="idempotency_key" value="([^"]+)"', form.group(0))
    assert found
    return found.group(1)


def flashed(client: FlaskClient, response: TestResponse) -> str:
    return html.unescape(client.get(response.headers["Location"]).get_data(as_text=True))


# -- rename ---------------------------------------------------------------------------------


def test_a_rename_sent_twice_renames_once_and_answers_alike(
    app: Flask, client: FlaskClient, fx: Fixture
) -> None:
    page = f"/circles/{fx.circle}/players/{fx.cat}"
    key = form_key(client, page, f"/circles/{fx.circle}/players/{fx.cat}/rename")
    # Everyone of the small history played with Cat: no merge is offered beside it.
    assert f"/players/{fx.cat}/merge" not in client.get(page).get_data(as_text=True)
    data = {"name": "Catherine", "idempotency_key": key}
    first = client.post(f"/circles/{fx.circle}/players/{fx.cat}/rename", data=data)
    assert first.status_code == 303
    assert "Renamed to Catherine." in flashed(client, first)
    after = history(app)
    again = client.post(f"/circles/{fx.circle}/players/{fx.cat}/rename", data=data)
    assert again.status_code == 303
    assert again.headers[REPLAYED] == "true"
    assert again.headers["Location"] == first.headers["Location"]
    assert "Renamed to Catherine." in flashed(client, again)  # the message again, too
    assert history(app) == after
    assert players(app)[fx.cat] == "Catherine"


def test_a_rename_under_a_new_key_is_a_new_rename(
    app: Flask, client: FlaskClient, fx: Fixture
) -> None:
    url = f"/circles/{fx.circle}/players/{fx.cat}/rename"
    assert client.post(url, data={"name": "Cathy", "idempotency_key": "r1"}).status_code == 303
    assert client.post(url, data={"name": "Cat", "idempotency_key": "r2"}).status_code == 303
    assert players(app)[fx.cat] == "Cat"
    # The same key again answers as it did, and does not undo the later rename.
    again = client.post(url, data={"name": "Cathy", "idempotency_key": "r1"})
    assert again.status_code == 303 and again.headers[REPLAYED] == "true"
    assert players(app)[fx.cat] == "Cat"


def test_a_refused_rename_changes_nothing_and_keeps_no_key(
    app: Flask, client: FlaskClient, fx: Fixture
) -> None:
    before = history(app)
    url = f"/circles/{fx.circle}/players/{fx.cat}/rename"
    for _ in range(2):
        refused = client.post(url, data={"name": "ann", "idempotency_key": "r1"})
        assert refused.status_code == 422
        assert REPLAYED not in refused.headers
        assert "already a player called Ann" in html.unescape(refused.get_data(as_text=True))
    assert client.post(url, data={"name": "", "idempotency_key": "r2"}).status_code == 422
    assert history(app) == before
    assert keys_kept(app) == 0


def test_a_key_reused_for_another_rename_is_refused(
    app: Flask, client: FlaskClient, fx: Fixture
) -> None:
    assert (
        client.post(
            f"/circles/{fx.circle}/players/{fx.cat}/rename",
            data={"name": "Cathy", "idempotency_key": "k"},
        ).status_code
        == 303
    )
    after = history(app)
    for url, data in (
        (f"/circles/{fx.circle}/players/{fx.cat}/rename", {"name": "Catalina"}),
        (f"/circles/{fx.circle}/players/{fx.dan}/rename", {"name": "Cathy2"}),
        (f"/circles/{fx.circle}/players/{fx.cat}/merge", {"other": str(fx.dan)}),
    ):
        refused = client.post(url, data={**data, "idempotency_key": "k"})
        assert refused.status_code == 422, url
        assert str(REUSED) in html.unescape(refused.get_data(as_text=True))
    assert history(app) == after


# -- merge ----------------------------------------------------------------------------------


def _cathy(app: Flask, fx: Fixture) -> int:
    with app.app_context(), transaction.atomic():
        game_service.create_game(
            ["Cathy", "Eve", "Fay"], 0, game_service.parse_rules({}), circle_id=fx.circle_id
        )
        cathy = db.session.scalar(select(Player.id).where(Player.key == "cathy"))
        assert isinstance(cathy, int)
        return cathy


def test_a_merge_sent_twice_merges_once_and_answers_alike(
    app: Flask, client: FlaskClient, fx: Fixture
) -> None:
    cathy = _cathy(app, fx)
    key = form_key(
        client,
        f"/circles/{fx.circle}/players/{fx.cat}",
        f"/circles/{fx.circle}/players/{fx.cat}/merge",
    )
    data = {"other": str(cathy), "idempotency_key": key}
    first = client.post(f"/circles/{fx.circle}/players/{fx.cat}/merge", data=data)
    assert first.status_code == 303
    assert "Merged: all those games are now Cat's." in flashed(client, first)
    after, seats = history(app), seats_of(app)
    assert cathy not in players(app)
    # Without the key the resent merge would find Cathy gone (404); with it, the answer
    # is the first one's.
    again = client.post(f"/circles/{fx.circle}/players/{fx.cat}/merge", data=data)
    assert again.status_code == 303
    assert again.headers[REPLAYED] == "true"
    assert again.headers["Location"] == first.headers["Location"]
    assert "Merged: all those games are now Cat's." in flashed(client, again)
    assert history(app) == after and seats_of(app) == seats
    assert (
        client.post(
            f"/circles/{fx.circle}/players/{fx.cat}/merge", data={"other": str(cathy)}
        ).status_code
        == 404
    )


def test_a_refused_merge_changes_nothing(app: Flask, client: FlaskClient, fx: Fixture) -> None:
    before, seats = history(app), seats_of(app)
    refused = client.post(
        f"/circles/{fx.circle}/players/{fx.ann}/merge",
        data={"other": str(fx.ben), "idempotency_key": "m1"},
    )
    assert refused.status_code == 422
    assert "can't be merged" in html.unescape(refused.get_data(as_text=True))
    again = client.post(
        f"/circles/{fx.circle}/players/{fx.ann}/merge",
        data={"other": str(fx.ben), "idempotency_key": "m1"},
    )
    assert again.status_code == 422 and REPLAYED not in again.headers
    # Not a player's id: too long a number (unread), another script's digits, nothing.
    for other in ("9" * 5000, "١", ""):
        refused = client.post(f"/circles/{fx.circle}/players/{fx.ann}/merge", data={"other": other})
        assert refused.status_code == 422
        assert "Choose the name to merge into this player." in refused.get_data(as_text=True)
    assert history(app) == before and seats_of(app) == seats
    assert keys_kept(app) == 0


# -- import ---------------------------------------------------------------------------------


def _backup(client: FlaskClient) -> dict[str, Any]:
    with client.application.app_context():
        circle = the_circle().public_id
    data: dict[str, Any] = json.loads(client.get(f"/circles/{circle}/export/history.json").data)
    return data


def _fresh(app: Flask) -> FlaskClient:
    """A server with nothing stored but an empty circle, to import into (the same
    database, emptied), and a browser that holds its link."""
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        circle = the_circle().public_id
        db.session.commit()
    return join(app.test_client(), circle)


def upload(client: FlaskClient, body: bytes, key: str | None, name: str = "h.json") -> TestResponse:
    data: dict[str, Any] = {"file": (io.BytesIO(body), name)}
    if key is not None:
        data["idempotency_key"] = key
    with client.application.app_context():
        circle = the_circle().public_id
    return client.post(f"/circles/{circle}/import", data=data, content_type="multipart/form-data")


def test_an_import_sent_twice_imports_once_and_answers_alike(
    app: Flask, client: FlaskClient, fx: Fixture
) -> None:
    body = json.dumps(_backup(client)).encode()
    client = _fresh(app)
    with app.app_context():
        circle = the_circle().public_id
    key = form_key(client, f"/circles/{circle}/export", f"/circles/{circle}/import")
    first = upload(client, body, key)
    assert first.status_code == 303
    assert "3 games imported" in flashed(client, first)
    after = history(app)
    assert len(json.loads(after)["games"]) == 3
    again = upload(client, body, key)
    assert again.status_code == 303
    assert again.headers[REPLAYED] == "true"
    assert again.headers["Location"] == first.headers["Location"]
    # The first answer's message, not "0 imported, 3 already here".
    shown = flashed(client, again)
    assert "3 games imported" in shown and "already here" not in shown
    assert history(app) == after


def test_an_import_under_a_new_key_is_looked_at_anew(
    app: Flask, client: FlaskClient, fx: Fixture
) -> None:
    body = json.dumps(_backup(client)).encode()
    before = history(app)
    response = upload(client, body, "i1")
    assert response.status_code == 303
    assert "3 already here, skipped" in flashed(client, response)
    assert history(app) == before


def test_the_same_key_with_another_file_is_refused(
    app: Flask, client: FlaskClient, fx: Fixture
) -> None:
    backup = _backup(client)
    whole = json.dumps(backup).encode()
    one_game = json.dumps({**backup, "games": backup["games"][:1]}).encode()
    client = _fresh(app)
    assert upload(client, one_game, "i1").status_code == 303
    after = history(app)
    assert len(json.loads(after)["games"]) == 1
    refused = upload(client, whole, "i1")  # same key, same file name, other content
    assert refused.status_code == 422
    text = html.unescape(refused.get_data(as_text=True))
    assert "Nothing was imported" in text and str(REUSED) in text
    assert history(app) == after


def test_a_bad_file_stores_nothing_and_keeps_no_key(
    app: Flask, client: FlaskClient, fx: Fixture
) -> None:
    before, changes = history(app), _changes(app)
    backup = _backup(client)
    backup["games"].append({**backup["games"][0], "public_id": "a-new-game-id-123456"})
    backup["games"][1]["rounds"] = "lost"
    for _ in range(2):
        refused = upload(client, json.dumps(backup).encode(), "i1")
        assert refused.status_code == 422 and REPLAYED not in refused.headers
        assert "Nothing was imported" in html.unescape(refused.get_data(as_text=True))
    assert history(app) == before
    assert keys_kept(app) == 0
    assert _changes(app) == changes


def _changes(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Change)) or 0
