"""Numbers typed into forms: anything odd is a clear 4xx, never a 500.

``--1``, a 5,000-digit number (more than Python turns into an int), digits of other
scripts, signs and hex are text to the pages: the service refuses them with its message
(422) and nothing changes. A browser that is not the game's scorer gets 403 before any
field is read.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import transaction
from scorekeeper.engine import RuleSet
from scorekeeper.limits import whole_number
from scorekeeper.services import digital as digital_service
from tests.web.support import HX, Pages, alert, stored

ODD = ["--1", "+-1", "1-", "9" * 5000, "-" + "9" * 5000, "١", "１", "0x1", "1e3", "1.0", "½"]


@pytest.fixture
def app(app: Flask) -> Flask:
    app.config["WTF_CSRF_ENABLED"] = False
    return app


def new_game(client: FlaskClient) -> str:
    response = Pages(client).create(["Ann", "Ben", "Cat"])
    assert response.status_code == 303
    return urlsplit(response.headers["Location"]).path.rsplit("/", 1)[1]


def snapshot(app: Flask, pid: str) -> tuple[object, ...]:
    with app.app_context():
        return stored(pid)


@pytest.mark.parametrize("value", ODD)
def test_whole_number_reads_plain_digits_only(value: str) -> None:
    assert whole_number(value) is None


@pytest.mark.parametrize(("text", "number"), [("0", 0), (" 12 ", 12), ("-3", -3), ("+4", 4)])
def test_whole_number_reads_what_a_phone_sends(text: str, number: int) -> None:
    assert whole_number(text) == number


ACTIONS = [
    ("bid", "bid"),
    ("bid", "seat"),
    ("tricks", "tricks"),
    ("tricks", "seat"),
    ("clear", "clear"),
]


@pytest.mark.parametrize(("action", "field"), ACTIONS)
def test_a_stranger_gets_403_whatever_the_fields_say(app: Flask, action: str, field: str) -> None:
    pid = new_game(app.test_client())
    before = snapshot(app, pid)
    stranger = Pages(app.test_client())
    for value in ("--1", "9" * 5000):
        data = {"seat": "1", "bid": "0", "tricks": "0", "clear": "bid:1"}
        data[field] = f"bid:{value}" if action == "clear" else value
        for htmx in (True, False):
            assert stranger.post(pid, action, htmx=htmx, **data).status_code == 403
        # With an idempotency key too: refused before the key is looked at.
        keyed = stranger.client.post(
            f"/games/{pid}/{action}", data=data, headers={**HX, "Idempotency-Key": "k-1"}
        )
        assert keyed.status_code == 403
    assert snapshot(app, pid) == before


@pytest.mark.parametrize("field", ["bid", "seat"])
def test_the_scorer_gets_the_reason_for_an_odd_bid(app: Flask, field: str) -> None:
    scorer = app.test_client()
    pid = new_game(scorer)
    before = snapshot(app, pid)
    for value in ODD:
        data = {"seat": "1", "bid": "0", field: value}
        answer = Pages(scorer).post(pid, "bid", **data)
        assert answer.status_code == 422, value
        assert alert(answer), value
    assert snapshot(app, pid) == before


def test_the_scorer_gets_the_reason_for_odd_tricks(app: Flask) -> None:
    scorer = app.test_client()
    pages = Pages(scorer)
    pid = new_game(scorer)
    for seat in (1, 2, 0):
        assert pages.bid(pid, seat, 0).status_code == 200
    before = snapshot(app, pid)
    for value in ("--1", "9" * 5000, "１"):
        answer = pages.tricks(pid, 1, value)
        assert answer.status_code == 422 and alert(answer), value
    assert snapshot(app, pid) == before


def test_taking_back_an_odd_seat_is_refused(app: Flask) -> None:
    scorer = app.test_client()
    pid = new_game(scorer)
    assert Pages(scorer).bid(pid, 1, 0).status_code == 200
    before = snapshot(app, pid)
    for value in ("--1", "9" * 5000, "１"):
        answer = Pages(scorer).post(pid, "clear", clear=f"bid:{value}")
        assert answer.status_code == 422 and alert(answer), value
    assert snapshot(app, pid) == before


def test_a_correction_with_odd_numbers_is_refused(app: Flask) -> None:
    scorer = app.test_client()
    pages = Pages(scorer)
    pid = new_game(scorer)
    pages.play_round(pid, {1: 0, 2: 0, 0: 1}, {1: 0, 2: 0})
    before = snapshot(app, pid)
    stranger = Pages(app.test_client())
    for value in ("--1", "9" * 5000):
        for field in ("bid0", "tricks1"):
            data = {"bid0": "1", "bid1": "0", "bid2": "0", "tricks0": "1", "tricks1": "0"}
            data["tricks2"] = "0"
            data[field] = value
            answer = pages.post(pid, "rounds/1", **data)
            assert answer.status_code == 422 and alert(answer)
        assert stranger.post(pid, "rounds/1", bid0=value).status_code == 403
    assert snapshot(app, pid) == before


def test_the_setup_forms_seat_buttons_take_odd_numbers(client: FlaskClient) -> None:
    for value in ("9" * 5000, "--1", "١"):
        for htmx in (True, False):
            data = {"player": ["Ann", "Ben", "Cat"], "dealer": "0", "do": f"up:{value}"}
            answer = client.post("/games/new", data=data, headers=HX if htmx else {})
            assert answer.status_code == 200
            assert "Ann" in answer.get_data(as_text=True)


def test_a_digital_table_with_an_odd_first_dealer_says_what_to_do(client: FlaskClient) -> None:
    form = {
        "name0": "Ann",
        "kind0": "person",
        "name1": "Ben",
        "kind1": "bot",
        "name2": "Cat",
        "kind2": "person",
        "plan": "short",
    }
    for value in ("--1", "9" * 5000, "x", ""):
        answer = client.post("/digital/new", data={**form, "first_dealer": value})
        assert answer.status_code == 422
        message = alert(answer) or ""
        assert message and "int()" not in message and "literal" not in message


def test_pass_and_play_ignores_an_odd_seat(app: Flask) -> None:
    with app.app_context(), transaction.atomic():
        made = digital_service.create_table(
            ["Ann", "Ben", "Cat"], ["person", "person", "bot"], 2, RuleSet(), seed=4
        )
        public_id, token = made.game.public_id, made.table_token
    phone = app.test_client()
    base = f"/digital/{public_id}/t/{token}"
    for value in ("9" * 5000, "--1", "١"):
        answer = phone.post(f"{base}/reveal", data={"seat": value}, headers=HX)
        assert answer.status_code == 200
        assert "data-card=" not in answer.get_data(as_text=True)  # no hand shown
