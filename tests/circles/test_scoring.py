"""Scoring follows the circle: whoever holds its link can take over keeping score of its
games (when the scorer's phone is gone), and nobody else can."""

from __future__ import annotations

import re

import flask
from flask import Flask
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Change, Game
from scorekeeper.web.access import MAX_TOKENS, TAG, scored_ids
from tests.circles.support import Phone, path_of, shown, text_of

TAKEN_OVER = "Scoring taken over by a member of the circle"


def _scorer_link(phone: Phone, pid: str) -> str:
    body = shown(phone.client.get(f"/games/{pid}?all=1")).get_data(as_text=True)
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
    log = ben.client.get(f"/games/{pid}/log", headers={"HX-Request": "true"})  # the Log tab
    assert TAKEN_OVER in text_of(log.get_data(as_text=True))
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
    # Nor does the phone that kept score before: it follows the game now.
    _refused_as_scorer(app, anna, pid)


def _refused_as_scorer(app: Flask, phone: Phone, pid: str) -> None:
    """``phone`` follows the game: no keys on its page, and its taps change nothing."""
    page = shown(phone.page(pid)).get_data(as_text=True)
    assert "/bid" not in page and "/score/" not in page
    before = _stored(app, pid)
    assert phone.bid(pid, 1, 0).status_code == 403
    assert _stored(app, pid) == before


def test_a_phone_that_scored_many_games_since_keeps_a_tag_and_loses_it_on_take_over(
    app: Flask, anna: Phone, ben: Phone
) -> None:
    circle_id = anna.make_circle()
    first = anna.game_in(circle_id, ["Anna", "Ben", "Cat"])
    for _ in range(MAX_TOKENS):
        anna.new_game(["Anna", "Ben", "Cat"])
    with anna.client.session_transaction() as session:
        credential = dict(map(tuple, session["scoring"]))[first]
    # Eleven games later the first one's token is no longer in the cookie, only a tag:
    # neither the token nor its stored hash.
    assert credential.startswith(TAG) and len(credential) == 7
    with app.app_context():
        stored = db.session.scalar(select(Game.scorer_token_hash).where(Game.public_id == first))
    assert credential[1:] not in (stored or "")
    anna.exact_round(first, 1)  # the tag still makes this phone the scorer
    ben.open(anna.link(circle_id))
    assert ben.client.post(f"/games/{first}/take-over").status_code == 303
    _refused_as_scorer(app, anna, first)


def test_an_entry_from_before_tags_counts_until_the_scoring_is_taken_over(
    app: Flask, anna: Phone, ben: Phone
) -> None:
    circle_id = anna.make_circle()
    pid = anna.game_in(circle_id, ["Anna", "Ben", "Cat"])
    with anna.client.session_transaction() as session:
        session["scoring"] = [[pid, ""]]  # as browsers kept their older games before tags
        kept = dict(session)
    anna.exact_round(pid, 1)  # granted by the signed cookie, and nobody took over
    with app.test_request_context():
        flask.session.update(kept)
        assert scored_ids() == {pid}
    ben.open(anna.link(circle_id))
    assert ben.client.post(f"/games/{pid}/take-over").status_code == 303
    _refused_as_scorer(app, anna, pid)
    with app.test_request_context():
        flask.session.update(kept)
        assert scored_ids() == set()  # nor is it listed as hers any more
