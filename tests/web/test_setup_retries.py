"""The setup form under an idempotency key: sent twice (a double tap, a resend after a
timeout that lost the answer), it sets up one game, and both answers lead to it with
this browser as its scorer."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.idempotency import REPLAYED, REUSED
from scorekeeper.models import Change, Game, IdempotencyKey, Player
from tests.web.support import HX, alert

FORM = {
    "player": ["Ann", "Ben", "Cat", "", "", ""],
    "dealer": "1",
    "dealer_rule": "plus_minus_one",
}


def counts(app: Flask) -> tuple[int, int, int]:
    """Games, players and change-log lines stored."""
    with app.app_context():
        return tuple(  # type: ignore[return-value]
            db.session.scalar(select(func.count()).select_from(model))
            for model in (Game, Player, Change)
        )


def form_key(client: FlaskClient) -> str:
    page = client.get("/games/new").get_data(as_text=True)
    setup = re.search(r'<form id="setup".*?</form>', page, re.S)
    assert setup
    found = re.search(r'name="idempotency_key" value="([^"]+)"', setup.group(0))
    assert found
    return found.group(1)


def test_the_setup_form_carries_a_fresh_key(client: FlaskClient) -> None:
    first, second = form_key(client), form_key(client)
    assert len(first) >= 20 and first != second
    # The form's small buttons send it back with a key of its own.
    edited = client.post("/games/new", data={**FORM, "do": "preset:german"}, headers=HX)
    keys = re.findall(r'name="idempotency_key" value="([^"]+)"', edited.get_data(as_text=True))
    assert len(keys) == 1 and keys[0] not in (first, second)


def test_the_form_sent_twice_sets_up_one_game(app: Flask, client: FlaskClient) -> None:
    data = {**FORM, "idempotency_key": form_key(client)}
    first = client.post("/games", data=data)
    assert first.status_code == 303
    target = first.headers["Location"]
    assert re.fullmatch(r"/games/[\w-]+\?welcome=1", target)
    stored = counts(app)
    assert stored == (1, 3, 1)
    again = client.post("/games", data=data)
    assert again.status_code == 303
    assert again.headers["Location"] == target
    assert again.headers[REPLAYED] == "true"
    assert counts(app) == stored
    # The game is the one set up, with this browser as its scorer.
    page = client.get(target).get_data(as_text=True)
    assert "Keeping score" in page and "Ann" in page


def test_with_htmx_the_retry_gets_the_same_redirect(app: Flask, client: FlaskClient) -> None:
    headers = {**HX, "Idempotency-Key": "setup-tap-1"}
    first = client.post("/games", data=FORM, headers=headers)
    assert first.status_code == 204
    again = client.post("/games", data=FORM, headers=headers)
    assert again.status_code == 204
    assert again.headers["HX-Redirect"] == first.headers["HX-Redirect"]
    assert counts(app)[0] == 1


def test_a_retry_whose_first_answer_was_lost_still_makes_a_scorer(
    app: Flask, client: FlaskClient
) -> None:
    data = {**FORM, "idempotency_key": form_key(client)}
    # The phone as it sent the form: the answer, and the cookie it set, never arrive.
    phone = app.test_client()
    phone.set_cookie("session", client.get_cookie("session").value)  # type: ignore[union-attr]
    first = client.post("/games", data=data)
    target = first.headers["Location"]
    again = phone.post("/games", data=data)
    assert again.headers["Location"] == target
    assert counts(app)[0] == 1
    page = phone.get(target).get_data(as_text=True)
    assert "Keeping score" in page
    game = target.split("?")[0]
    assert f"{game}/score/" in page  # the link to hand scoring over, too
    # A phone that never sent the form only follows the game.
    page = app.test_client().get(target).get_data(as_text=True)
    assert "Following" in page and "Keeping score" not in page and "/score/" not in page


def test_a_new_key_sets_up_a_second_game(app: Flask, client: FlaskClient) -> None:
    first = client.post("/games", data={**FORM, "idempotency_key": form_key(client)})
    second = client.post("/games", data={**FORM, "idempotency_key": form_key(client)})
    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] != second.headers["Location"]
    # Games outside a circle: each one-off game's players are that game's alone.
    assert counts(app) == (2, 6, 2)


def test_a_key_reused_for_another_setup_is_refused(app: Flask, client: FlaskClient) -> None:
    key = form_key(client)
    assert client.post("/games", data={**FORM, "idempotency_key": key}).status_code == 303
    stored = counts(app)
    other = {**FORM, "player": ["Dan", "Eve", "Fay", "", "", ""], "idempotency_key": key}
    refused = client.post("/games", data=other)
    assert refused.status_code == 422
    assert alert(refused) == str(REUSED)
    assert 'value="Dan"' in refused.get_data(as_text=True)  # the form as sent, to send anew
    assert counts(app) == stored


def test_a_refused_setup_stores_nothing_and_keeps_no_key(app: Flask, client: FlaskClient) -> None:
    key = form_key(client)
    bad = {**FORM, "player": ["Ann", "Ben", "", "", "", ""], "idempotency_key": key}
    refused = client.post("/games", data=bad)
    assert refused.status_code == 422
    assert alert(refused)
    assert counts(app) == (0, 0, 0)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(IdempotencyKey)) == 0
    # Sent again it is looked at afresh (and refused again), not replayed.
    again = client.post("/games", data=bad)
    assert again.status_code == 422 and REPLAYED not in again.headers
    # Put right under the same key, it sets the game up.
    assert client.post("/games", data={**FORM, "idempotency_key": key}).status_code == 303
    assert counts(app)[0] == 1
