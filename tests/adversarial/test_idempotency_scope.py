"""An idempotency key is its client's: the same key from someone else is a new request,
never a replay of another client's answer (which holds a scorer token or seat links),
and a key can't be claimed in advance to hand someone a game its claimer controls.

The browsers here run with CSRF checks on, as in production: each posts the token and
key of a form it was shown.
"""

from __future__ import annotations

import re
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select
from werkzeug.test import TestResponse

from scorekeeper.extensions import db
from scorekeeper.idempotency import REPLAYED
from scorekeeper.models import DigitalTable, Game, IdempotencyKey, utcnow
from tests.api.support import API
from tests.digital.support import SETUP_FORM
from tests.web.support import HX

FORM = {"player": ["Ann", "Ben", "Cat", "", "", ""], "dealer": "1"}
NEW_GAME = {"players": ["Ann", "Ben", "Cat"]}


@pytest.fixture
def app(app: Flask) -> Flask:
    app.config["WTF_CSRF_ENABLED"] = True
    return app


def shown_form(client: FlaskClient, page: str) -> dict[str, str]:
    """The CSRF token and idempotency key of the setup form on ``page``, as this browser
    was shown them."""
    body = client.get(page).get_data(as_text=True)
    form = re.search(r'<form[^>]*method="post".*?</form>', body, re.S | re.I)
    assert form, page
    fields = {}
    for name in ("csrf_token", "idempotency_key"):
        found = re.search(rf'name="{name}" value="([^"]+)"', form.group(0))
        assert found, name
        fields[name] = found.group(1)
    return fields


def games(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Game)) or 0


def same_browser(app: Flask, client: FlaskClient) -> FlaskClient:
    """Another connection of the browser ``client`` is now: its cookie as it stands (what
    a later answer sets never reaches it)."""
    phone = app.test_client()
    phone.set_cookie("session", client.get_cookie("session").value)  # type: ignore[union-attr]
    return phone


def game_of(response: TestResponse) -> str:
    assert response.status_code == 303, response.get_data(as_text=True)
    return urlsplit(response.headers["Location"]).path.rstrip("/").rsplit("/", 1)[1]


def bid(client: FlaskClient, pid: str) -> int:
    """A scorer's tap (with the page's own CSRF token and key): its status."""
    fields = shown_form(client, "/games/new")
    data = {"seat": "2", "bid": "0", "csrf_token": fields["csrf_token"]}  # first to bid
    return client.post(f"/games/{pid}/bid", data=data, headers=HX).status_code


# -- the setup form ---------------------------------------------------------------------------


@pytest.mark.parametrize("first", ["victim", "stranger"])
def test_the_same_setup_key_from_another_browser_sets_up_its_own_game(
    app: Flask, first: str
) -> None:
    """Whether the stranger claims the key in advance or sends it after the victim, each
    browser gets its own game and keeps score of that one only."""
    victim, stranger = app.test_client(), app.test_client()
    key = shown_form(victim, "/games/new")["idempotency_key"]
    posts = {
        name: {**FORM, **shown_form(browser, "/games/new"), "idempotency_key": key}
        for name, browser in (("victim", victim), ("stranger", stranger))
    }
    order = [first, "stranger" if first == "victim" else "victim"]
    browsers = {"victim": victim, "stranger": stranger}
    answers = {name: browsers[name].post("/games", data=posts[name]) for name in order}
    assert REPLAYED not in answers[order[1]].headers
    mine, theirs = game_of(answers["victim"]), game_of(answers["stranger"])
    assert mine != theirs and games(app) == 2
    assert "Keeping score" in victim.get(f"/games/{mine}").get_data(as_text=True)
    follows = stranger.get(f"/games/{mine}").get_data(as_text=True)
    assert "Following" in follows and "/score/" not in follows
    assert bid(stranger, mine) == 403
    assert bid(victim, theirs) == 403
    assert bid(victim, mine) == 200


def test_a_retry_of_the_same_browser_still_gets_its_game(app: Flask) -> None:
    """The retrying phone lost the answer and the cookie it set, not its own session."""
    browser = app.test_client()
    data = {**FORM, **shown_form(browser, "/games/new")}
    retry = same_browser(app, browser)
    pid = game_of(browser.post("/games", data=data))
    again = retry.post("/games", data=data)
    assert again.headers[REPLAYED] == "true" and game_of(again) == pid
    assert games(app) == 1
    assert "Keeping score" in retry.get(f"/games/{pid}").get_data(as_text=True)
    assert bid(retry, pid) == 200


def test_the_same_digital_setup_key_from_another_browser_deals_its_own_table(
    app: Flask,
) -> None:
    victim, stranger = app.test_client(), app.test_client()
    key = shown_form(victim, "/digital/new")["idempotency_key"]
    claim = {**SETUP_FORM, **shown_form(stranger, "/digital/new"), "idempotency_key": key}
    theirs = game_of(stranger.post("/digital/new", data=claim))
    sent = {**SETUP_FORM, **shown_form(victim, "/digital/new"), "idempotency_key": key}
    answer = victim.post("/digital/new", data=sent)
    assert REPLAYED not in answer.headers
    mine = game_of(answer)
    assert mine != theirs
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(DigitalTable)) == 2
    # Each browser holds the seat links of its own table only.
    assert victim.get(f"/digital/{mine}/").status_code == 200
    assert stranger.get(f"/digital/{mine}/").status_code == 403
    assert victim.get(f"/digital/{theirs}/").status_code == 403


# -- the API ----------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["1", "new-game", "x" * 15])
def test_a_guessable_key_without_a_token_is_refused(app: Flask, key: str) -> None:
    """Without a token the key alone shows a retry is the sender's: a short one could be
    claimed in advance, or sent by a stranger to get someone's scorer token."""
    first, second = app.test_client(), app.test_client()
    answers = [
        client.post(f"{API}/games", json=NEW_GAME, headers={"Idempotency-Key": key})
        for client in (first, second)
    ]
    assert [a.status_code for a in answers] == [400, 400]
    assert games(app) == 0
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(IdempotencyKey)) == 0
    from scorekeeper.idempotency import ANONYMOUS_MIN

    assert len(key) < ANONYMOUS_MIN
    for answer in answers:
        error = answer.get_json()["error"]
        assert error["code"] == "bad_request"
        assert "Idempotency-Key" in error["message"] and str(ANONYMOUS_MIN) in error["message"]


def test_a_random_key_without_a_token_is_still_a_retry(app: Flask) -> None:
    client = app.test_client()
    headers = {"Idempotency-Key": "9d2c1f7a-3e4b-4c6d-8a9f-0b1e2d3c4a5b"}
    first = client.post(f"{API}/games", json=NEW_GAME, headers=headers)
    again = app.test_client().post(f"{API}/games", json=NEW_GAME, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.headers[REPLAYED] == "true"
    assert again.get_json()["scorer_token"] == first.get_json()["scorer_token"]
    assert games(app) == 1


def test_the_client_is_told_by_its_own_secret(app: Flask) -> None:
    """One definition of the client: the session's secret for a page, the checked
    credential for the API, else the key itself; nothing that two clients share."""
    from scorekeeper.idempotency import ANONYMOUS_MIN, client_scope

    def tag(page: bool, checked: bool, key: str, **request: object) -> str:
        with app.test_request_context("/", **request):
            return client_scope(page=page, checked=checked, key=key).tag

    long_key = "k" * ANONYMOUS_MIN
    ann, ben = ({"headers": {"Authorization": f"Bearer {t}"}} for t in ("ann-token", "ben-tok"))
    assert tag(False, True, "k", **ann) == tag(False, True, "other", **ann)
    assert tag(False, True, "k", **ann) != tag(False, True, "k", **ben)
    # A credential nobody checked (a new game needs none) tells nobody apart.
    assert tag(False, False, long_key, **ann) == tag(False, False, long_key, **ben)
    assert tag(False, False, long_key) != tag(False, False, long_key + "x")
    # Two browsers without a session yet each get their own.
    assert tag(True, False, "k") != tag(True, False, "k")
    with app.test_request_context("/"):
        first = client_scope(page=True, checked=False, key="k")
        assert client_scope(page=True, checked=False, key="other") == first
    # What is stored says nothing of the secret it stands for.
    assert b"ann-token" not in tag(False, True, "k", **ann).encode()


def test_a_key_sent_again_after_it_expired_is_a_new_request(app: Flask) -> None:
    """The expired row the lookup saw is swept, not compared in Python with aware times
    (a 500 on SQLite)."""
    from scorekeeper.services import idempotency

    old = utcnow() - timedelta(hours=25)
    with app.app_context():
        idempotency.keep("s", "k", "f", 201, {}, b"first", b"seal", now=old)
        db.session.commit()
        assert idempotency.find("s", "k") is None
        idempotency.keep("s", "k", "f", 201, {}, b"second", b"seal")
        db.session.commit()
        row = idempotency.find("s", "k")
        assert row is not None
        answer = idempotency.answer(row, b"seal")
        assert answer is not None and answer.body == b"second"
