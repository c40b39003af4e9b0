"""Scoring follows the circle: whoever holds its link can take over keeping score of its
games (when the scorer's phone is gone), and nobody else can."""

from __future__ import annotations

import re

from flask import Flask
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Change, Game
from tests.circles.support import Phone, path_of, shown, text_of

TAKEN_OVER = "Scoring taken over by a member of the circle"


def _scorer_link(phone: Phone, pid: str) -> str:
    body = shown(phone.page(pid)).get_data(as_text=True)
    found = re.search(r'href="([^"]+/score/[^"]+)"', body)
    assert found, "no scorer link on the scorer's page"
    return path_of(found.group(1))


def _stored(app: Flask, pid: str) -> tuple[object, ...]:
    with app.app_context():
        game = db.session.scalar(select(Game).where(Game.public_id == pid))
        assert game is not None
        changes = db.session.scalars(
            select(Change.action).where(Change.game_id == game.id).order_by(Change.id)
        ).all()
        return (game.scorer_token_hash, game.version, tuple(changes))


def test_a_member_takes_over_scoring_and_the_old_scorer_link_stops_working(
    app: Flask, anna: Phone, ben: Phone, stranger: Phone
) -> None:
    circle_id = anna.make_circle()
    pid = anna.game_in(circle_id, ["Anna", "Ben", "Cat"])
    anna.exact_round(pid, 1)
    old_link = _scorer_link(anna, pid)
    ben.open(anna.link(circle_id))
    page = shown(ben.page(pid)).get_data(as_text=True)
    assert f'action="/games/{pid}/take-over"' in page
    assert "Keep score on this phone" in text_of(page)
    # Before taking over, Ben only follows.
    assert ben.bid(pid, 2, 0).status_code == 403

    taken = ben.client.post(f"/games/{pid}/take-over")
    assert taken.status_code == 303 and taken.headers["Location"] == f"/games/{pid}"
    page = shown(ben.page(pid)).get_data(as_text=True)
    assert "You keep score of this game on this phone now." in text_of(page)
    assert TAKEN_OVER in text_of(page)
    assert f'action="/games/{pid}/take-over"' not in page
    shown(ben.bid(pid, 2, 0))
    # The change log says so to everyone following the game.
    assert TAKEN_OVER in text_of(stranger.page(pid).get_data(as_text=True))
    # The old link no longer makes a phone the scorer; the new one does.
    refused = stranger.client.get(old_link)
    assert refused.status_code == 403
    assert stranger.bid(pid, 0, 1).status_code == 403
    assert stranger.client.get(_scorer_link(ben, pid)).status_code in (302, 303)
    shown(stranger.bid(pid, 0, 1))


def test_only_a_member_of_the_games_circle_can_take_over(
    app: Flask, anna: Phone, ben: Phone, stranger: Phone
) -> None:
    circle_id = anna.make_circle()
    pid = anna.game_in(circle_id, ["Anna", "Ben", "Cat"])
    one_off = anna.new_game(["Anna", "Ben", "Cat"])
    ben.make_circle("Another circle")  # Ben belongs to a circle, not to this one
    follower_page = stranger.page(pid).get_data(as_text=True)
    assert "take-over" not in follower_page
    before, one_off_before = _stored(app, pid), _stored(app, one_off)
    for phone in (stranger, ben):
        assert phone.client.post(f"/games/{pid}/take-over").status_code == 403
        assert phone.client.post(f"/games/{one_off}/take-over").status_code == 403
        assert phone.bid(pid, 1, 0).status_code == 403
    # A one-off game has no circle to take it over: only its scorer link.
    ben.open(anna.link(circle_id))
    assert ben.client.post(f"/games/{one_off}/take-over").status_code == 403
    assert _stored(app, pid) == before and _stored(app, one_off) == one_off_before
    assert stranger.client.post("/games/nosuchgame/take-over").status_code == 404
