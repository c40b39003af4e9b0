"""The games lists (a circle's, and the home page's games of this phone): the time of day,
who leads an ongoing game and by how much, the winners' score, the variants as badges,
Play again for a finished score pad game, and the games set up but never played and left
for a day kept out of the way."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import transaction
from scorekeeper.engine import Bidding, DealerRule, Plan, RuleSet, Scoring, SuitNames, TieBreak
from scorekeeper.extensions import db
from scorekeeper.models import Game, utcnow
from scorekeeper.services import games as game_service
from scorekeeper.services import history
from tests.history.support import Fixture, join, the_circle
from tests.web.support import Pages


def _text(body: str) -> str:
    body = re.sub(r'<span class="visually-hidden">.*?</span>', "", body, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def _lines(body: str) -> dict[str, str]:
    """Each game line's text, by the game's id."""
    found = re.findall(
        r'<li class="game-line[^"]*">\s*<a class="game-main" href="/games/([\w-]+)">(.*?)</li>',
        body,
        re.S,
    )
    return {pid: _text(line) for pid, line in found}


def _ids(body: str) -> list[str]:
    return re.findall(r'<a class="game-main" href="/games/([\w-]+)"', body)


# -- what a line shows -------------------------------------------------------------------------


def test_lines_show_time_of_day_leader_and_winner_scores(member: FlaskClient, fx: Fixture) -> None:
    body = member.get(f"/circles/{fx.circle}/games").get_data(as_text=True)
    lines = _lines(body)
    # g3 (full game, two rounds): Ann 20, Ben 50, Cat 40, Dan −20.
    assert lines[fx.g3].startswith("Ann, Ben, Cat, Dan Ongoing — resume Ben leads with 50 ")
    assert "Jan 6 18:00 UTC 2 rounds played" in lines[fx.g3]
    # The "·" between the pieces is drawn by the page, never one left at a line's end.
    assert '<span class="standing dots"><span class="ongoing">' in body
    # The phone shows the time in its own zone (app.js) from the machine-readable one.
    assert '<time datetime="2026-01-06T18:00:00+00:00" data-local>' in body
    assert lines[fx.g1].startswith("Ann, Ben, Cat Won by Ann with 1300 ")
    assert lines[fx.g2].startswith("Ann, Ben, Dan Won by Ben with 850 ")
    assert "Dec 24 18:00 UTC 10 rounds played" in lines[fx.g1]


def test_level_leaders_lead_together_and_a_negative_lead_has_a_minus(
    app: Flask, member: FlaskClient, fx: Fixture
) -> None:
    with app.app_context(), transaction.atomic():
        game, _ = game_service.create_game(
            ["Eve", "Fay", "Gus"], 0, RuleSet(), circle_id=fx.circle_id
        )
        game_service.record_round(game, [1, 1, 0], [0, 0, 1])  # −10, −10, −10
        pid = game.public_id
    line = _lines(member.get(f"/circles/{fx.circle}/games").get_data(as_text=True))[pid]
    assert "Ongoing — resume Eve and Fay and Gus lead with \u221210" in line


def test_a_game_not_started_says_so(app: Flask, member: FlaskClient, fx: Fixture) -> None:
    with app.app_context(), transaction.atomic():
        game, _ = game_service.create_game(
            ["Eve", "Fay", "Gus"], 0, RuleSet(), circle_id=fx.circle_id
        )
        pid = game.public_id
    line = _lines(member.get(f"/circles/{fx.circle}/games").get_data(as_text=True))[pid]
    assert line.startswith("Eve, Fay, Gus Ongoing — resume Not started yet ")
    assert "leads" not in line


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        (RuleSet(), []),
        (RuleSet(dealer_rule=DealerRule.PLUS_MINUS_ONE), ["plus_minus_one"]),  # V1
        (RuleSet(dealer_rule=DealerRule.CANADIAN, dealer_rule_from_round=3), ["canadian"]),  # V2
        (RuleSet(bidding=Bidding.HIDDEN), ["hidden"]),  # V3
        (RuleSet(bidding=Bidding.SECRET), ["secret"]),  # V4
        (RuleSet(foresight=True), ["foresight"]),  # V5
        (RuleSet(saboteur=True), ["saboteur"]),  # V6
        (RuleSet(no_full_bid=True), ["no_full_bid"]),  # V7
        (RuleSet(round_plan=Plan.SHORT), ["short"]),  # V8
        (RuleSet(round_plan=Plan.UNICOLOURED), ["unicoloured"]),  # V9
        (RuleSet(scoring=Scoring(exact_bonus=30)), ["scoring"]),  # V10
        (RuleSet(tie_break=TieBreak.BID_TOTAL), ["tie_break"]),  # R17's option
        (RuleSet(suit_names=SuitNames.FRENCH), ["french"]),
        (
            RuleSet(
                dealer_rule=DealerRule.PLUS_MINUS_ONE,
                bidding=Bidding.HIDDEN,
                round_plan=Plan.SHORT,
                tie_break=TieBreak.BID_TOTAL,
            ),
            ["plus_minus_one", "hidden", "short", "tie_break"],
        ),
    ],
)
def test_every_variant_has_a_badge(rules: RuleSet, expected: list[str]) -> None:
    assert history.badges(rules) == expected


BADGES = {
    "en": ["±1", "Hidden bids", "Short game", "Tie-break by bids"],
    "de": ["±1", "Verdeckte Ansagen", "Kurzes Spiel", "Gleichstand nach Ansagen"],
}


@pytest.mark.parametrize("language", ["en", "de"])
def test_badges_on_the_page_in_the_readers_language(
    app: Flask, member: FlaskClient, fx: Fixture, language: str
) -> None:
    rules = RuleSet(
        dealer_rule=DealerRule.PLUS_MINUS_ONE,
        bidding=Bidding.HIDDEN,
        round_plan=Plan.SHORT,
        tie_break=TieBreak.BID_TOTAL,
    )
    with app.app_context(), transaction.atomic():
        game, _ = game_service.create_game(["Eve", "Fay", "Gus"], 0, rules, circle_id=fx.circle_id)
        pid = game.public_id
    member.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    body = member.get(f"/circles/{fx.circle}/games").get_data(as_text=True)
    line = re.search(rf'href="/games/{pid}">(.*?)</li>', body, re.S)
    assert line is not None
    shown = [html.unescape(b) for b in re.findall(r'<span class="badge">(.*?)</span>', line[1])]
    assert shown == BADGES[language]
    # The book's rules: no badge at all.
    book = re.search(rf'href="/games/{fx.g3}">(.*?)</li>', body, re.S)
    assert book is not None and 'class="badge"' not in book[1]


# -- Play again ---------------------------------------------------------------------------------


def test_play_again_for_finished_score_pad_games(
    app: Flask, member: FlaskClient, fx: Fixture
) -> None:
    body = member.get(f"/circles/{fx.circle}/games").get_data(as_text=True)
    again = re.findall(
        r'<form class="again-form" method="post" action="/games/([\w-]+)/again">', body
    )
    assert again == [fx.g2, fx.g1]  # finished; the ongoing g3 has none
    form = body[body.index(f'action="/games/{fx.g1}/again"') :].split("</form>")[0]
    assert 'name="csrf_token"' in form and 'name="idempotency_key"' in form


def test_the_list_renders_without_play_again(app: Flask, member: FlaskClient, fx: Fixture) -> None:
    # Without the Play again endpoint (an app built without it) the list still renders.
    view = app.view_functions.pop("web.play_again")
    try:
        response = member.get(f"/circles/{fx.circle}/games")
    finally:
        app.view_functions["web.play_again"] = view
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert "/again" not in body
    assert _ids(body) == [fx.g3, fx.g2, fx.g1]


# -- empty games ---------------------------------------------------------------------------------


def _empty_game(circle_id: int, untouched: timedelta, names: list[str] | None = None) -> str:
    game, _ = game_service.create_game(
        names or ["Eve", "Fay", "Gus"], 0, RuleSet(), circle_id=circle_id
    )
    game.updated_at = utcnow() - untouched
    db.session.commit()
    return game.public_id


def test_empty_games_left_for_a_day_are_hidden_until_asked_for(
    app: Flask, member: FlaskClient, fx: Fixture
) -> None:
    with app.app_context(), transaction.atomic():
        old = [_empty_game(fx.circle_id, timedelta(days=1, minutes=1)) for _ in range(2)]
        fresh = _empty_game(fx.circle_id, timedelta(hours=23))
        # Bids entered (a round begun) and left: not empty.
        begun, _ = game_service.create_game(
            ["Eve", "Fay", "Gus"], 0, RuleSet(), circle_id=fx.circle_id
        )
        game_service.record_round(begun, [1, 0, 0])
        begun.updated_at = utcnow() - timedelta(days=3)
        db.session.commit()
        begun_id = begun.public_id
    games = f"/circles/{fx.circle}/games"
    body = member.get(games).get_data(as_text=True)
    shown = _ids(body)
    assert fresh in shown and begun_id in shown
    assert not set(old) & set(shown)
    link = re.search(r'<p class="empty-games"><a href="([^"]+)">([^<]+)</a>', body)
    assert link is not None and html.unescape(link[2]) == "Show 2 empty games"
    body = member.get(html.unescape(link[1])).get_data(as_text=True)
    assert set(old) <= set(_ids(body))
    assert "Hide empty games" in body
    # A filter keeps them shown; "finished" never has empty games to offer.
    ongoing = member.get(f"{games}?status=ongoing&empty=1").get_data(as_text=True)
    assert set(old) <= set(_ids(ongoing))
    assert 'name="empty" value="1"' in ongoing
    assert "empty game" not in member.get(f"{games}?status=finished").get_data(as_text=True)
    one = member.get(f"{games}?player={fx.ann}").get_data(as_text=True)
    assert "empty game" not in one  # Ann sat at none of them


def test_the_circle_page_leaves_empty_games_out_too(
    app: Flask, member: FlaskClient, fx: Fixture
) -> None:
    with app.app_context():
        old = _empty_game(fx.circle_id, timedelta(days=2))
    body = member.get(f"/circles/{fx.circle}").get_data(as_text=True)
    assert fx.g3 in body and old not in body


def test_a_game_is_empty_again_once_its_only_round_is_deleted(app: Flask, fx: Fixture) -> None:
    with app.app_context(), transaction.atomic():
        game, _ = game_service.create_game(
            ["Eve", "Fay", "Gus"], 0, RuleSet(), circle_id=fx.circle_id
        )
        assert not game.played
        game_service.set_bid(game, 1, 1)  # the first bid opens round 1
        assert game.played
        game_service.delete_last_round(game, 1)
        assert not game.played
        game.updated_at = utcnow() - timedelta(days=2)
        db.session.commit()
        page = history.list_games(fx.circle_id, history.GameFilter())
        assert page.empty_hidden == 1
        assert game.public_id not in [line.public_id for line in page.games]


def test_list_games_counts_what_it_hides(app: Flask, fx: Fixture) -> None:
    with app.app_context():
        _empty_game(fx.circle_id, timedelta(days=2))
        now = utcnow()
        page = history.list_games(fx.circle_id, history.GameFilter(), now=now)
        assert page.empty_hidden == 1 and len(page.games) == 3
        shown = history.list_games(fx.circle_id, history.GameFilter(show_empty=True), now=now)
        assert shown.empty_hidden == 0 and len(shown.games) == 4
        # Two days on, nobody touched it: the same.
        later = history.list_games(fx.circle_id, history.GameFilter(), now=now + timedelta(days=2))
        assert later.empty_hidden == 1


# -- the home page -----------------------------------------------------------------------------


def test_home_lines_show_the_same(app: Flask, client: FlaskClient) -> None:
    app.config["WTF_CSRF_ENABLED"] = False
    pid = Pages(client).new_game(["Ann", "Ben", "Cat"], round_plan="short")
    with app.app_context(), transaction.atomic():
        game = game_service.get_game(pid)
        game.created_at = datetime(2026, 2, 3, 21, 7, tzinfo=UTC)
        game_service.record_round(game, [2, 0, 0], [2, 0, 0])
    body = client.get("/").get_data(as_text=True)
    assert "css/history.css" in body
    line = _lines(body)[pid]
    assert line.startswith("Ann, Ben, Cat Ongoing — resume Ann leads with 40 ")
    assert "Feb 3 21:07 UTC 1 round played you keep score Short game Delete" in line
    # A phone with no games loads no list styles.
    assert "css/history.css" not in app.test_client().get("/").get_data(as_text=True)


def test_the_history_pages_still_count_their_queries(app: Flask, fx: Fixture) -> None:
    # The list's lines come from two queries and the hidden count from a third, however
    # many games the page shows.
    from tests.history.test_queries import counting

    client = app.test_client()
    join(client, fx.circle)
    url = f"/circles/{fx.circle}/games"
    client.get(url)
    with counting(app) as few:
        client.get(url)
    with app.app_context(), transaction.atomic():
        for _ in range(5):
            game, _ = game_service.create_game(
                ["Eve", "Fay", "Gus"], 0, RuleSet(), circle_id=the_circle().id
            )
            game_service.record_round(game, [1, 0, 0], [1, 0, 0])
    with counting(app) as more:
        client.get(url)
    assert len(more) == len(few)
    with app.app_context():
        assert db.session.query(Game).count() == 8
