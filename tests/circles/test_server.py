"""The server's side of circles: who may make them, the owner's `flask circles`, a home
page that shows only what the phone holds links to, and the old whole-server pages."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskCliRunner
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import Circle
from tests.circles.support import Phone, path_of, shown, text_of

SERVER_SECRET = "correct horse battery staple"


def _count(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Circle)) or 0


@pytest.fixture
def owners_only(app: Flask) -> Flask:
    """A server where only people who know its passphrase make circles."""
    app.config["CIRCLES"] = "passphrase"
    app.config["PASSPHRASE"] = SERVER_SECRET
    return app


def test_making_circles_can_need_the_servers_passphrase(owners_only: Flask) -> None:
    phone = Phone(owners_only.test_client())
    refused = phone.client.post("/circles", data={"name": "Thursday"})
    assert refused.status_code in (401, 403)
    assert _count(owners_only) == 0
    wrong = phone.client.post("/passphrase", data={"passphrase": "guess", "next": "/circles/new"})
    assert wrong.status_code == 403
    right = phone.client.post(
        "/passphrase", data={"passphrase": SERVER_SECRET, "next": "/circles/new"}
    )
    assert right.status_code == 303 and right.headers["Location"] == "/circles/new"
    assert 'name="name"' in shown(phone.client.get("/circles/new")).get_data(as_text=True)
    circle_id = phone.make_circle("Thursday")
    assert _count(owners_only) == 1
    shown(phone.home_of(circle_id))


def test_a_server_keeping_circles_to_its_owners_still_opens_their_links(
    owners_only: Flask,
) -> None:
    owner = Phone(owners_only.test_client())
    owner.client.post("/passphrase", data={"passphrase": SERVER_SECRET})
    circle_id = owner.make_circle("Thursday")
    link = owner.link(circle_id)
    friend = Phone(owners_only.test_client())
    # The friend never heard the server's passphrase: the circle's link is enough to
    # open the circle and keep score of its games; making circles is what is kept back.
    assert friend.open(link).headers["Location"] == f"/circles/{circle_id}"
    shown(friend.home_of(circle_id))
    shown(friend.client.get("/games/new"))
    friend.game_in(circle_id, ["Anna", "Ben", "Cat"])
    form = friend.client.get("/circles/new")
    assert form.status_code == 200
    assert "only people who know its passphrase can make circles" in text_of(
        form.get_data(as_text=True)
    )
    assert 'name="name"' not in form.get_data(as_text=True)
    assert friend.client.post("/circles", data={"name": "Mine"}).status_code == 403
    assert _count(owners_only) == 1


def test_flask_circles_lists_the_circles_with_links_that_open_them(
    app: Flask, runner: FlaskCliRunner, anna: Phone, stranger: Phone
) -> None:
    empty = runner.invoke(args=["circles"])
    assert empty.exit_code == 0 and "No circles yet." in empty.stderr
    circle_id = anna.make_circle("Thursday")
    anna.game_in(circle_id, ["Anna", "Ben", "Cat"])
    anna.game_in(circle_id, ["Anna", "Ben", "Dan"])
    listed = runner.invoke(args=["circles"])
    assert listed.exit_code == 0
    lines = listed.stdout.splitlines()
    assert len(lines) == 1
    public_id, games, name, link = lines[0].split("\t")
    assert (public_id, games, name) == (circle_id, "2", "Thursday")
    assert link == anna.link(circle_id)
    assert stranger.open(link).status_code == 303
    shown(stranger.home_of(circle_id))
    # With the server's address the links are whole, to send on.
    whole = runner.invoke(args=["circles", "--url", "https://scores.example.org/"])
    assert whole.stdout.split("\t")[-1].strip() == f"https://scores.example.org{link}"


def test_flask_circles_new_makes_one(app: Flask, runner: FlaskCliRunner, stranger: Phone) -> None:
    made = runner.invoke(args=["circles", "--new", "Family"])
    assert made.exit_code == 0
    (line,) = made.stdout.splitlines()
    public_id, games, name, link = line.split("\t")
    assert (games, name) == ("0", "Family")
    assert stranger.open(link).status_code == 303
    assert "<h1>Family</h1>" in shown(stranger.home_of(public_id)).get_data(as_text=True)
    refused = runner.invoke(args=["circles", "--new", ""])
    assert refused.exit_code == 2 and "Give the circle a name." in refused.stderr
    assert _count(app) == 1


def test_the_home_page_shows_only_what_this_phone_holds_links_to(
    app: Flask, anna: Phone, ben: Phone, stranger: Phone
) -> None:
    thursday = anna.make_circle("Thursday Wizards")
    family = anna.make_circle("Family Table")
    pid = anna.game_in(thursday, ["Anna", "Ben", "Cat"])
    one_off = anna.new_game(["Xaver", "Yvonne", "Zora"])
    ben.open(anna.link(thursday))
    fresh = shown(stranger.client.get("/")).get_data(as_text=True)
    assert "New game" in text_of(fresh) and 'href="/circles/new"' in fresh
    for secret in (thursday, family, pid, one_off, "Thursday", "Family", "Xaver", "Anna"):
        assert secret not in fresh, secret
    mine = shown(anna.client.get("/")).get_data(as_text=True)
    for name in (thursday, family, pid, one_off, "Thursday Wizards", "Family Table", "Xaver"):
        assert name in mine, name
    bens = shown(ben.client.get("/")).get_data(as_text=True)
    assert thursday in bens and "Thursday Wizards" in bens
    for secret in (family, "Family Table", one_off, "Xaver"):
        assert secret not in bens, secret


@pytest.mark.parametrize("old", ["/games", "/players", "/records", "/export"])
def test_the_old_whole_server_pages_lead_home(stranger: Phone, anna: Phone, old: str) -> None:
    anna.make_circle()
    for phone in (stranger, anna):
        answer = phone.client.get(old)
        assert answer.status_code == 303 and path_of(answer.headers["Location"]) == "/"
    assert stranger.client.get(f"{old}?page=2&player=1").status_code == 303


def test_a_circle_link_in_a_qr_code_or_chat_is_a_whole_url(anna: Phone) -> None:
    circle_id = anna.make_circle()
    body = anna.home_of(circle_id).get_data(as_text=True)
    found = re.search(r'<a href="([^"]+)" class="share-link">', body)
    assert found and found.group(1).startswith(f"http://localhost/c/{circle_id}/")
