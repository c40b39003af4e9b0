"""Play again at a digital table: one tap after the last round starts the next game with
the same seats; every link (each seat's, the pass-and-play phone's) opens its place in it."""

from __future__ import annotations

import html
import re

from flask import Flask
from werkzeug.test import TestResponse

from scorekeeper.engine import Plan, RuleSet
from scorekeeper.extensions import db
from scorekeeper.models import Game as GameRow
from scorekeeper.services import digital as service
from tests.digital.support import Table

P, B = "person", "bot"


def count_games(app: Flask) -> int:
    with app.app_context():
        count = db.session.query(GameRow).count()
        db.session.remove()
        return count


def finished_table(app: Flask) -> Table:
    table = Table.create(app, RuleSet(round_plan=Plan.SHORT), [P, B, P, B], dealer=1)
    assert table.play_rounds(scan_all=False).finished
    return table


def test_one_tap_starts_the_next_game_with_the_same_seats(app: Flask) -> None:
    table = finished_table(app)
    body = table.get(0)
    assert "Play again" in body
    assert "Same players and seats, Cat deals first, same rules." in body  # Ben dealt first
    before = count_games(app)

    tapped = table.phones[0].post(table.url(0, "/again"))
    assert tapped.status_code == 303
    new_id = re.fullmatch(rf"/digital/([^/]+)/s/{table.tokens[0]}", tapped.headers["Location"])
    assert new_id and new_id.group(1) != table.public_id
    assert count_games(app) == before + 1
    # The same link opens the same seat in the next game: round 1, Cat deals.
    page = table.phones[0].get(tapped.headers["Location"])
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Round 1" in text
    # Cat's seat on the table carries the dealer's mark.
    cat = re.search(r'<li class="[^"]*" data-seat="2".*?</li>', text, re.S)
    assert cat and ">deals</span>" in cat.group(0)
    with app.app_context():
        new = service.get_table(new_id.group(1))
        assert service.names(new) == ["Ann", "Ben", "Cat", "Dan"]
        assert [service.is_bot(new, s) for s in range(4)] == [False, True, False, True]
        assert new.game.first_dealer == 2
        assert service.engine_game(new).round_number == 1
        db.session.remove()

    # Cat's phone, still on the old game, is shown the way; its tap finds the same game.
    old = table.get(2, "/live")
    assert f'href="/digital/{new_id.group(1)}/s/{table.tokens[2]}"' in old
    again = table.phones[2].post(table.url(2, "/again"))
    assert again.status_code == 303
    assert again.headers["Location"] == f"/digital/{new_id.group(1)}/s/{table.tokens[2]}"
    assert count_games(app) == before + 1


def message(response: TestResponse) -> str:
    found = re.search(r"data-message>(.*?)</p>", response.get_data(as_text=True), re.S)
    assert found, response.status_code
    return html.unescape(found.group(1))


def test_the_pass_and_play_phone_plays_again_too(app: Flask) -> None:
    table = finished_table(app)
    phone = app.test_client()
    page = f"/digital/{table.public_id}/t/{table.table_token}"
    assert "Play again" in phone.get(page).get_data(as_text=True)
    tapped = phone.post(page + "/again")
    assert tapped.status_code == 303
    assert re.fullmatch(rf"/digital/[^/]+/t/{table.table_token}", tapped.headers["Location"])
    cover = phone.get(tapped.headers["Location"]).get_data(as_text=True)
    assert "Tap when only Ann is looking" in html.unescape(cover)  # Ann bids first
    assert "data-card=" not in cover  # no hand before its player's tap


def test_before_the_end_and_for_strangers_nothing_starts(app: Flask) -> None:
    table = Table.create(app, RuleSet(round_plan=Plan.SHORT), [P, B, P])
    before = count_games(app)
    early = table.phones[0].post(table.url(0, "/again"))
    assert early.status_code == 422
    assert "isn't over yet" in message(early)
    htmx = table.phones[0].post(table.url(0, "/again"), headers={"HX-Request": "true"})
    assert htmx.status_code == 422 and "isn't over yet" in message(htmx)
    # Links that are no seat's or table's: the same 404 as for no game at all.
    stranger = app.test_client()
    assert stranger.post(f"/digital/{table.public_id}/s/nope/again").status_code == 404
    assert stranger.post(f"/digital/{table.public_id}/t/nope/again").status_code == 404
    assert stranger.post("/digital/nosuchgame/s/nope/again").status_code == 404
    assert count_games(app) == before
