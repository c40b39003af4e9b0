"""A circle's optional passphrase: asked once per phone on top of the link, guesses
limited per client (three in the tests' app, see conftest)."""

from __future__ import annotations

from flask import Flask
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import FailedAttempt
from tests.circles.support import Phone, alert, shown

SECRET = "open sesame"
WRONG = "That is not the circle's passphrase."


def _asks(response) -> bool:  # type: ignore[no-untyped-def]
    return 'name="passphrase"' in response.get_data(as_text=True)


def test_the_passphrase_is_asked_once_on_each_phone(anna: Phone, ben: Phone) -> None:
    circle_id = anna.make_circle("Thursday", passphrase=SECRET)
    # The phone that made the circle is in already.
    shown(anna.home_of(circle_id))
    link = anna.link(circle_id)
    asked = ben.open(link)
    assert asked.status_code == 200 and _asks(asked)
    assert asked.headers["Cache-Control"] == "private, no-store"
    assert ben.home_of(circle_id).status_code == 404
    wrong = ben.unlock(link, "open sesam")
    assert wrong.status_code == 403 and alert(wrong) == WRONG
    assert ben.home_of(circle_id).status_code == 404
    right = ben.unlock(link, SECRET)
    assert right.status_code == 303 and right.headers["Location"] == f"/circles/{circle_id}"
    shown(ben.home_of(circle_id))
    # Once is enough: the link (tapped again in the chat) goes straight in.
    again = ben.open(link)
    assert again.status_code == 303 and again.headers["Location"] == f"/circles/{circle_id}"


def test_the_passphrase_needs_the_link_too(anna: Phone, stranger: Phone) -> None:
    circle_id = anna.make_circle("Thursday", passphrase=SECRET)
    key = anna.link(circle_id).rsplit("/", 1)[1]
    for path in (f"/c/{circle_id}/{key[::-1]}", f"/c/{circle_id}/x"):
        assert stranger.unlock(path, SECRET).status_code == 404
        assert stranger.open(path).status_code == 404
    assert stranger.home_of(circle_id).status_code == 404


def test_guesses_are_limited_per_client(app: Flask, anna: Phone, ben: Phone) -> None:
    circle_id = anna.make_circle("Thursday", passphrase=SECRET)
    link = anna.link(circle_id)
    for guess in ("1234", "abcd", "letmein"):
        assert ben.unlock(link, guess).status_code == 403
    blocked = ben.unlock(link, SECRET)
    assert blocked.status_code == 429
    assert "Too many wrong guesses from your network. Try again in" in (alert(blocked) or "")
    assert ben.home_of(circle_id).status_code == 404
    # Another network is not held back by Ben's guesses, and nothing of Ben's stays
    # stored but the keyed traces of his guesses.
    elsewhere = Phone(app.test_client())
    elsewhere.client.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    assert elsewhere.unlock(link, SECRET).status_code == 303
    shown(elsewhere.home_of(circle_id))
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(FailedAttempt)) == 3
        stored = db.session.scalars(select(FailedAttempt.client)).all()
        assert all("127.0.0.1" not in c for c in stored)


def test_a_passphrase_set_later_asks_every_other_phone_again(anna: Phone, ben: Phone) -> None:
    circle_id = anna.make_circle("Thursday")
    link = anna.link(circle_id)
    ben.open(link)
    shown(ben.home_of(circle_id))
    assert anna.settings(circle_id, "passphrase", passphrase=SECRET).status_code == 303
    shown(anna.home_of(circle_id))  # the phone that set it stays in
    assert ben.home_of(circle_id).status_code == 404
    assert _asks(ben.open(link))
    assert ben.unlock(link, SECRET).status_code == 303
    shown(ben.home_of(circle_id))
    # Cleared again: the link alone opens it.
    assert anna.settings(circle_id, "passphrase", passphrase="").status_code == 303
    carol = Phone(anna.client.application.test_client())
    assert carol.open(link).status_code == 303
    shown(carol.home_of(circle_id))


def test_a_too_short_passphrase_is_refused_and_nothing_changes(anna: Phone, ben: Phone) -> None:
    refused = anna.client.post("/circles", data={"name": "Thursday", "passphrase": "abc"})
    assert refused.status_code == 422
    assert alert(refused) == "A passphrase has 4 to 200 characters."
    circle_id = anna.make_circle("Thursday")
    link = anna.link(circle_id)
    answer = anna.settings(circle_id, "passphrase", passphrase="abc")
    assert answer.status_code == 303
    home = anna.home_of(circle_id).get_data(as_text=True)
    assert "A passphrase has 4 to 200 characters." in home
    assert ben.open(link).status_code == 303  # still no passphrase asked
