"""Replaying the form that made a circle: a retry whose answer got lost joins the circle
again, but only with the link the circle was made with, and only while that link still
opens it. A member locked out by "Make a new link" who sends the old form again (same
browser, same idempotency key) gets the answer an old link gets, and nothing of the new
link reaches the browser's session cookie (signed, not encrypted: readable).

The browsers here run with CSRF checks on, as in production.
"""

from __future__ import annotations

import json
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.idempotency import REPLAYED
from tests.adversarial.test_idempotency_scope import same_browser
from tests.circles.support import Phone, shown

SECRET = "open sesame"


@pytest.fixture
def app(app: Flask) -> Flask:
    app.config["WTF_CSRF_ENABLED"] = True
    return app


def creation_form(client: FlaskClient, name: str, passphrase: str) -> dict[str, str]:
    """The circle form as this browser was shown it, filled in."""
    body = client.get("/circles/new").get_data(as_text=True)
    fields = {"name": name, "passphrase": passphrase}
    for field in ("csrf_token", "idempotency_key"):
        found = re.search(rf'name="{field}" value="([^"]+)"', body)
        assert found, field
        fields[field] = found.group(1)
    return fields


def csrf(client: FlaskClient) -> str:
    return creation_form(client, "", "")["csrf_token"]


def unlock(client: FlaskClient, link: str, passphrase: str) -> int:
    data = {"passphrase": passphrase, "csrf_token": csrf(client)}
    return client.post(link, data=data).status_code


def session_text(app: Flask, client: FlaskClient) -> str:
    """The browser's session as anyone holding the cookie can read it."""
    cookie = client.get_cookie("session")
    assert cookie is not None
    signer = app.session_interface.get_signing_serializer(app)  # type: ignore[attr-defined]
    return json.dumps(signer.loads(cookie.value))


def circle_id_of(location: str) -> str:
    return location.split("?")[0].rsplit("/", 1)[1]


def settings(client: FlaskClient, circle_id: str, do: str) -> int:
    body = client.get(f"/circles/{circle_id}").get_data(as_text=True)
    fields = dict(re.findall(r'name="(csrf_token|idempotency_key)" value="([^"]+)"', body)[:2])
    return client.post(f"/circles/{circle_id}/settings", data={"do": do, **fields}).status_code


def link_of(client: FlaskClient, circle_id: str) -> str:
    return Phone(client).link(circle_id)


@pytest.mark.parametrize("passphrase", ["", SECRET])
def test_a_replay_after_a_new_link_does_not_let_the_maker_back_in(
    app: Flask, passphrase: str
) -> None:
    mallory = app.test_client()
    form = creation_form(mallory, "Thursday", passphrase)
    made = mallory.post("/circles", data=form)
    assert made.status_code == 303
    circle_id = circle_id_of(made.headers["Location"])
    old = link_of(mallory, circle_id)
    # Anna, a member, locks Mallory out with a new link.
    anna = app.test_client()
    assert anna.get(old).status_code == (200 if passphrase else 303)
    if passphrase:
        assert unlock(anna, old, passphrase) == 303
    assert settings(anna, circle_id, "new-link") == 303
    new = link_of(anna, circle_id)
    assert new != old
    assert mallory.get(f"/circles/{circle_id}").status_code == 404

    replay = mallory.post("/circles", data=form)
    assert replay.status_code == 303 and replay.headers[REPLAYED] == "true"
    # It leads where an old link leads: the same 404 as a circle that does not exist.
    assert mallory.get(replay.headers["Location"]).status_code == 404
    assert mallory.get(f"/circles/{circle_id}").status_code == 404
    new_key = new.rsplit("/", 1)[1]
    assert new_key not in session_text(app, mallory)
    # The old link (and the old passphrase with it) still opens nothing.
    assert mallory.get(old).status_code == 404
    assert unlock(mallory, old, passphrase or "x") == 404
    shown(anna.get(f"/circles/{circle_id}"))


@pytest.mark.parametrize("passphrase", ["", SECRET])
def test_a_retry_whose_answer_got_lost_still_joins(app: Flask, passphrase: str) -> None:
    maker = app.test_client()
    form = creation_form(maker, "Thursday", passphrase)
    lost = same_browser(app, maker)  # the cookie as it was before the answer came
    made = maker.post("/circles", data=form)
    circle_id = circle_id_of(made.headers["Location"])
    replay = lost.post("/circles", data=form)
    assert replay.status_code == 303 and replay.headers[REPLAYED] == "true"
    assert replay.headers["Location"] == made.headers["Location"]
    # In, passphrase and all (it was this browser that set it).
    shown(lost.get(f"/circles/{circle_id}"))
    assert link_of(lost, circle_id) == link_of(maker, circle_id)


def test_a_lost_answer_retried_after_a_new_link_stays_out(app: Flask) -> None:
    maker = app.test_client()
    form = creation_form(maker, "Thursday", SECRET)
    lost = same_browser(app, maker)
    made = maker.post("/circles", data=form)
    circle_id = circle_id_of(made.headers["Location"])
    assert settings(maker, circle_id, "new-link") == 303
    new_key = link_of(maker, circle_id).rsplit("/", 1)[1]
    replay = lost.post("/circles", data=form)
    assert replay.status_code == 303
    assert lost.get(f"/circles/{circle_id}").status_code == 404
    assert new_key not in session_text(app, lost)
    assert circle_id not in session_text(app, lost)
