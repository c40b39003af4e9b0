"""A circle's settings: a new link that locks out the old one, a new name; and forgetting
a circle on one phone."""

from __future__ import annotations

from flask import Flask
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Circle
from tests.circles.support import Phone, shown, text_of


def test_a_new_link_locks_out_the_old_one_but_not_this_phone(
    app: Flask, anna: Phone, ben: Phone, stranger: Phone
) -> None:
    circle_id = anna.make_circle()
    pid = anna.game_in(circle_id, ["Anna", "Ben", "Cat"])
    old = anna.link(circle_id)
    ben.open(old)
    shown(ben.home_of(circle_id))
    answer = anna.settings(circle_id, "new-link")
    assert answer.status_code == 303 and answer.headers["Location"] == f"/circles/{circle_id}"
    home = shown(anna.home_of(circle_id)).get_data(as_text=True)
    assert "New link made: the old one no longer opens the circle." in text_of(home)
    new = anna.link(circle_id)
    assert new != old and new.startswith(f"/c/{circle_id}/")
    # Ben held the old link only: every page of the circle is gone for him.
    for path in (
        f"/circles/{circle_id}",
        f"/circles/{circle_id}/games",
        f"/circles/{circle_id}/players",
        f"/circles/{circle_id}/export/history.json",
    ):
        assert ben.client.get(path).status_code == 404, path
    assert f'href="/circles/{circle_id}"' not in ben.client.get("/").get_data(as_text=True)
    assert ben.client.post(f"/games/{pid}/take-over").status_code == 403
    assert ben.open(old).status_code == 404
    assert stranger.open(old).status_code == 404
    # The new link works for whoever gets it.
    assert stranger.open(new).status_code == 303
    shown(stranger.home_of(circle_id))
    assert ben.open(new).status_code == 303
    shown(ben.home_of(circle_id))
    # The circle's games and players are all still there.
    assert f"/games/{pid}" in anna.client.get(f"/circles/{circle_id}/games").get_data(as_text=True)


def test_rename_the_circle(app: Flask, anna: Phone, ben: Phone) -> None:
    circle_id = anna.make_circle("Thursday")
    ben.open(anna.link(circle_id))
    assert anna.settings(circle_id, "rename", name="Friday Wizards").status_code == 303
    assert "<h1>Friday Wizards</h1>" in ben.home_of(circle_id).get_data(as_text=True)
    refused = anna.settings(circle_id, "rename", name="\x07")
    assert refused.status_code == 303
    home = anna.home_of(circle_id).get_data(as_text=True)
    assert "Names can't contain control characters." in text_of(home)
    with app.app_context():
        assert db.session.scalars(select(Circle.name)).all() == ["Friday Wizards"]
    # An unknown setting is a bad request, and changes nothing.
    assert anna.settings(circle_id, "delete-everything").status_code == 400
    with app.app_context():
        assert db.session.scalars(select(Circle.name)).all() == ["Friday Wizards"]


def test_forgetting_a_circle_on_this_phone(anna: Phone, ben: Phone) -> None:
    circle_id = anna.make_circle("Thursday")
    link = anna.link(circle_id)
    ben.open(link)
    assert 'href="/circles/' in ben.client.get("/").get_data(as_text=True)
    forgot = ben.client.post(f"/circles/{circle_id}/forget")
    assert forgot.status_code == 303 and forgot.headers["Location"] == "/"
    home = ben.client.get("/").get_data(as_text=True)
    assert "This phone has forgotten the circle." in text_of(home)
    assert "Thursday" not in home and circle_id not in home
    assert ben.home_of(circle_id).status_code == 404
    # Only on Ben's phone: Anna is still in, and the link still opens it.
    shown(anna.home_of(circle_id))
    assert ben.open(link).status_code == 303
    shown(ben.home_of(circle_id))
