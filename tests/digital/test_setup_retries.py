"""The digital table's setup form under an idempotency key: sent twice, it deals one
game, and both answers lead to its host page with the same seat links."""

from __future__ import annotations

import html
import re

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.idempotency import REPLAYED, REUSED
from scorekeeper.models import DigitalTable, Game
from tests.digital.support import SETUP_FORM

FORM = SETUP_FORM


def tables(app: Flask) -> tuple[int, int]:
    """Games and digital tables stored."""
    with app.app_context():
        return (
            db.session.scalar(select(func.count()).select_from(Game)) or 0,
            db.session.scalar(select(func.count()).select_from(DigitalTable)) or 0,
        )


def form_key(client: FlaskClient) -> str:
    page = client.get("/digital/new").get_data(as_text=True)
    found = re.search(r'name="idempotency_key" value="([^"]+)"', page)
    assert found
    return found.group(1)


def seat_links(client: FlaskClient, host: str) -> list[str]:
    page = client.get(host)
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    links = re.findall(r'href="([^"]+)" data-seat-link=', body)
    links += re.findall(r'href="([^"]+)" data-table-link', body)
    assert len(links) == 3  # Ann's, Cat's and the pass-and-play link
    return links


def test_the_form_sent_twice_deals_one_game(app: Flask, client: FlaskClient) -> None:
    key = form_key(client)
    assert key != form_key(client)  # a fresh one each time the form is shown
    data = {**FORM, "idempotency_key": key}
    first = client.post("/digital/new", data=data)
    assert first.status_code == 303
    links = seat_links(client, first.headers["Location"])
    again = client.post("/digital/new", data=data)
    assert again.status_code == 303
    assert again.headers[REPLAYED] == "true"
    assert again.headers["Location"] == first.headers["Location"]
    assert tables(app) == (1, 1)
    assert seat_links(client, again.headers["Location"]) == links


def test_a_retry_whose_answer_was_lost_gets_the_links(app: Flask, client: FlaskClient) -> None:
    data = {**FORM, "idempotency_key": form_key(client)}
    # The phone as it sent the form: the answer, and the cookie it set, never arrive.
    phone = app.test_client()
    phone.set_cookie("session", client.get_cookie("session").value)  # type: ignore[union-attr]
    first = client.post("/digital/new", data=data)
    links = seat_links(client, first.headers["Location"])
    again = phone.post("/digital/new", data=data)
    assert again.headers["Location"] == first.headers["Location"]
    assert seat_links(phone, again.headers["Location"]) == links
    assert tables(app) == (1, 1)
    assert app.test_client().get(first.headers["Location"]).status_code == 403


def test_a_new_key_deals_a_second_game(app: Flask, client: FlaskClient) -> None:
    first = client.post("/digital/new", data={**FORM, "idempotency_key": form_key(client)})
    second = client.post("/digital/new", data={**FORM, "idempotency_key": form_key(client)})
    assert first.headers["Location"] != second.headers["Location"]
    assert tables(app) == (2, 2)


def test_a_reused_key_or_a_bad_form_stores_nothing(app: Flask, client: FlaskClient) -> None:
    key = form_key(client)
    bad = {**FORM, "kind0": "bot", "kind2": "bot", "idempotency_key": key}
    refused = client.post("/digital/new", data=bad)
    assert refused.status_code == 422
    assert "At least one seat must be a person" in refused.get_data(as_text=True)
    assert tables(app) == (0, 0)
    assert client.post("/digital/new", data={**FORM, "idempotency_key": key}).status_code == 303
    assert tables(app) == (1, 1)
    other = client.post("/digital/new", data={**FORM, "name0": "Dan", "idempotency_key": key})
    assert other.status_code == 422
    assert str(REUSED) in html.unescape(other.get_data(as_text=True))
    assert tables(app) == (1, 1)
