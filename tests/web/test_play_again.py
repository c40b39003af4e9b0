"""Play again: the next game at the same table in one tap from a finished game's final
screen (same players and seats, the next first dealer, the same rules and circle), for
its scorer or anyone in its circle; once for a double tap or a retry."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper import transaction
from scorekeeper.extensions import db
from scorekeeper.idempotency import REPLAYED, REUSED
from scorekeeper.models import Change, Game, IdempotencyKey, Player, utcnow
from scorekeeper.services import circles as circle_service
from scorekeeper.services import digital as digital_service
from scorekeeper.services import games as game_service
from tests.web.support import HX, Pages, scored, section, text_of


def play_to_the_end(app: Flask, pid: str) -> None:
    """Every round of the game's plan recorded (each player bids 0; the dealer takes
    every trick), as the scorer's taps would have stored them."""
    with app.app_context(), transaction.atomic():
        game = game_service.get_game(pid)
        n = game.player_count
        sheet = game_service.sheet_of(game)
        for number, cards in enumerate(sheet.plan, start=1):
            dealer = sheet.dealer(number)
            bids = [0] * n
            bids[dealer] = cards - 1  # never adding up to the cards: fine under V1 too
            tricks = [0] * n
            tricks[dealer] = cards
            game_service.record_round(game, bids, tricks, trump="none")
        assert game_service.get_game(pid).finished_at is not None


def finished(app: Flask, pages: Pages, players: list[str], dealer: int = 0, **form: Any) -> str:
    """A game set up through the form by ``pages``' browser and played to the end."""
    pid = pages.new_game(players, dealer=dealer, round_plan="short", **form)
    play_to_the_end(app, pid)
    return pid


def games(app: Flask) -> int:
    with app.app_context():
        return int(db.session.scalar(select(func.count()).select_from(Game)) or 0)


def everything(app: Flask) -> tuple[int, ...]:
    """Games, players, change-log lines and kept answers: what a refusal leaves alone."""
    with app.app_context():
        return tuple(
            int(db.session.scalar(select(func.count()).select_from(model)) or 0)
            for model in (Game, Player, Change, IdempotencyKey)
        )


def again_form(client: FlaskClient, pid: str) -> dict[str, str] | None:
    """The final screen's "Play again" form as this browser sees it: its action and
    fields (``None`` when the screen doesn't offer it)."""
    body = client.get(f"/games/{pid}").get_data(as_text=True)
    entry = section(body, "entry")
    found = re.search(r'<form class="play-again"[^>]*action="([^"]+)"(.*?)</form>', entry, re.S)
    if found is None:
        return None
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', found[2]))
    return {"action": found[1], **fields}


def tap_again(client: FlaskClient, pid: str, **headers: str) -> Any:
    form = again_form(client, pid)
    assert form is not None, "no Play again on the final screen"
    action = form.pop("action")
    assert action == f"/games/{pid}/again"
    return client.post(action, data=form, headers=headers)


def new_game_of(response: Any) -> str:
    assert response.status_code == 303, response.get_data(as_text=True)[:400]
    location = response.headers["Location"]
    # Ready for the first bid: the phones following the last game are led to it, so the
    # follow card (the welcome) is not put in front of the keys again.
    assert "welcome" not in location
    return str(location.removeprefix("/games/"))


def stored_game(app: Flask, pid: str) -> tuple[list[str], list[int], int, dict[str, Any], Any]:
    """Names, player ids, first dealer, rules and circle id of a stored game."""
    with app.app_context():
        game = game_service.get_game(pid)
        return (
            game_service.names_of(game),
            [s.player_id for s in game.seats],
            game.first_dealer,
            game.rules,
            game.circle_id,
        )


def join(app: Flask, phone: Pages, circle: str) -> None:
    """Open the circle's link on ``phone``."""
    with app.app_context():
        key = circle_service.circle_key(circle_service.get_circle(circle))
    assert phone.client.get(f"/c/{circle}/{key}").status_code == 303


# -- the next game ------------------------------------------------------------------------


def test_play_again_starts_the_same_table_with_the_next_dealer(
    app: Flask, pages: Pages, client: FlaskClient
) -> None:
    old = finished(
        app,
        pages,
        ["Anna", "Ben", "Clara", "Dan"],
        dealer=1,
        dealer_rule="plus_minus_one",
        from_round=2,
        bidding="hidden",
        tie_break="bid_total",
        exact_bonus=30,
        per_miss=5,
    )
    final = text_of(section(pages.page(old).get_data(as_text=True), "entry"))
    assert "Play again" in final
    assert "Same players and seats, Clara deals first, same rules." in final
    new = new_game_of(tap_again(client, old))
    assert new != old
    names, ids, dealer, rules, circle = stored_game(app, new)
    old_names, old_ids, old_dealer, old_rules, _ = stored_game(app, old)
    assert names == old_names == ["Anna", "Ben", "Clara", "Dan"]  # the same seats
    assert (old_dealer, dealer) == (1, 2)  # the seat after the last game's first dealer
    assert rules == old_rules and rules["dealer_rule_from_round"] == 2
    assert rules["scoring"] == {"exact_bonus": 30, "per_trick": 10, "per_miss": 5}
    # A one-off game's next game is one-off too, with players of its own.
    assert circle is None and not set(ids) & set(old_ids)
    # Whoever tapped keeps score of it: the scorer's page, bids to enter.
    page = client.get(f"/games/{new}?welcome=1").get_data(as_text=True)
    assert "Keeping score" in page and "Keep the scorer link" in page
    assert pages.bid(new, 3, 0).status_code == 200  # Clara deals round 1: Dan bids first
    # The finished game is as it was.
    with app.app_context():
        assert game_service.get_game(old).finished_at is not None


def test_the_first_dealer_goes_round_the_table(app: Flask, pages: Pages) -> None:
    old = finished(app, pages, ["Anna", "Ben", "Clara"], dealer=2)
    new = new_game_of(tap_again(pages.client, old))
    assert stored_game(app, new)[2] == 0  # after the last seat comes the first
    # And the game after that one goes on round the table.
    play_to_the_end(app, new)
    newer = new_game_of(tap_again(pages.client, new))
    assert stored_game(app, newer)[2] == 1


def test_a_circle_member_plays_again_in_the_circle(app: Flask, pages: Pages) -> None:
    circle = pages.make_circle("Thursday")
    old = finished(app, pages, ["Anna", "Ben", "Clara"], circle=circle)
    # Another phone that holds the circle's link, but doesn't keep this game's score.
    member = Pages(app.test_client())
    join(app, member, circle)
    body = member.page(old).get_data(as_text=True)
    assert "Following" in body and "Play again" in text_of(section(body, "entry"))
    new = new_game_of(tap_again(member.client, old))
    names, ids, _, rules, circle_id = stored_game(app, new)
    old_names, old_ids, _, old_rules, old_circle = stored_game(app, old)
    assert circle_id == old_circle is not None  # the same circle …
    assert ids == old_ids and names == old_names  # … and its same players
    assert rules == old_rules
    # The member keeps score of the new game; the old game's scorer follows it.
    assert "Keeping score" in member.page(new).get_data(as_text=True)
    assert "Following" in pages.page(new).get_data(as_text=True)


def test_the_scorer_plays_again_without_holding_the_circle(app: Flask, pages: Pages) -> None:
    circle = pages.make_circle("Thursday")
    old = finished(app, pages, ["Anna", "Ben", "Clara"], circle=circle)
    # The scorer link handed to a phone that has never opened the circle.
    with app.app_context(), transaction.atomic():
        game = game_service.get_game(old)
        token = game_service.new_scorer_token(game)
    scorer = app.test_client()
    assert scorer.get(f"/games/{old}/score/{token}").status_code == 303
    new = new_game_of(tap_again(scorer, old))
    assert stored_game(app, new)[4] == stored_game(app, old)[4]  # still the circle's game


def test_with_htmx_the_answer_is_a_redirect_to_the_new_game(app: Flask, pages: Pages) -> None:
    old = finished(app, pages, ["Anna", "Ben", "Clara"])
    answer = tap_again(pages.client, old, **HX)
    assert answer.status_code == 204
    target = answer.headers["HX-Redirect"]
    assert re.fullmatch(r"/games/[\w-]+", target) and old not in target
    assert games(app) == 2


def test_the_last_rounds_answer_offers_play_again(app: Flask, pages: Pages) -> None:
    """The final screen comes with the tap that finishes the game (htmx), button and all."""
    pid = pages.new_game(["Anna", "Ben", "Clara"], round_plan="short")
    play_to_the_end(app, pid)
    with app.app_context(), transaction.atomic():
        game = game_service.get_game(pid)
        sheet = game_service.sheet_of(game)
        last = len(sheet.plan)
        dealer, cards = sheet.dealer(last), sheet.plan[-1]
        game_service.delete_last_round(game, last)
    others = [(dealer + k) % 3 for k in (1, 2)]
    for seat in others:
        assert pages.bid(pid, seat, 0).status_code == 200
    assert pages.bid(pid, dealer, cards).status_code == 200
    assert pages.tricks(pid, others[0], 0).status_code == 200
    answer = pages.tricks(pid, others[1], 0)  # the dealer's fill themselves in: scored
    assert scored(answer)
    entry = section(answer.get_data(as_text=True), "entry")
    assert "Final standings" in text_of(entry)
    assert f'action="/games/{pid}/again"' in entry and 'name="idempotency_key"' in entry


# -- once, whatever the taps ---------------------------------------------------------------


def test_a_double_tap_starts_one_game(app: Flask, pages: Pages) -> None:
    old = finished(app, pages, ["Anna", "Ben", "Clara"])
    form = again_form(pages.client, old)
    assert form is not None
    action = form.pop("action")
    first = pages.client.post(action, data=form)
    stored = everything(app)
    second = pages.client.post(action, data=form)
    assert second.headers[REPLAYED] == "true"
    assert second.headers["Location"] == first.headers["Location"]
    assert everything(app) == stored and games(app) == 2
    # Once it has started, the finished game offers to go to it, not to start another;
    # a form sent again with a fresh key opens it too.
    assert again_form(pages.client, old) is None
    again = pages.client.post(action, data={**form, "idempotency_key": "a-fresh-key-0001"})
    assert again.headers["Location"] == f"/games/{new_game_of(first)}"
    assert games(app) == 2


def test_a_retry_whose_answer_was_lost_still_makes_the_scorer(app: Flask, pages: Pages) -> None:
    old = finished(app, pages, ["Anna", "Ben", "Clara"])
    form = again_form(pages.client, old)
    assert form is not None
    action = form.pop("action")
    # The phone as it tapped: the answer, and the cookie it set, never arrive.
    phone = app.test_client()
    phone.set_cookie("session", pages.client.get_cookie("session").value)  # type: ignore[union-attr]
    new = new_game_of(pages.client.post(action, data=form))
    retry = phone.post(action, data=form)
    assert new_game_of(retry) == new and games(app) == 2
    assert "Keeping score" in phone.get(f"/games/{new}").get_data(as_text=True)


def test_a_key_used_for_another_request_is_refused(app: Flask, pages: Pages) -> None:
    old = finished(app, pages, ["Anna", "Ben", "Clara"])
    other = finished(app, pages, ["Dan", "Eve", "Fay"])
    form = again_form(pages.client, old)
    assert form is not None
    action = form.pop("action")
    new_game_of(pages.client.post(action, data=form))
    stored = everything(app)
    # The same key on the other game's button is another request, not a replay …
    refused = pages.client.post(f"/games/{other}/again", data=form)
    assert refused.status_code == 303  # another game's button: another scope
    # … but the same key with something else in the form is refused in words.
    reused = pages.client.post(action, data={**form, "extra": "1"})
    assert reused.status_code == 422
    assert str(REUSED) in text_of(reused.get_data(as_text=True))
    assert everything(app)[0] == stored[0] + 1  # only the other game's next game


# -- refusals -------------------------------------------------------------------------------


def test_an_unknown_game_is_not_found(pages: Pages) -> None:
    answer = pages.client.post("/games/no-such-game/again", data={"idempotency_key": "k" * 20})
    assert answer.status_code == 404
    assert pages.client.post("/games/no-such-game/again").status_code == 404


@pytest.mark.parametrize("htmx", [False, True])
def test_a_follower_is_refused_in_words(app: Flask, pages: Pages, htmx: bool) -> None:
    old = finished(app, pages, ["Anna", "Ben", "Clara"])
    follower = app.test_client()
    # The follower's final screen doesn't offer it …
    assert again_form(follower, old) is None
    assert "Play again" not in follower.get(f"/games/{old}").get_data(as_text=True)
    stored = everything(app)
    # … and a follower who sends it anyway is told why, in words; nothing is stored.
    for data in ({"idempotency_key": "a-key-of-the-follower"}, {}):
        answer = follower.post(f"/games/{old}/again", data=data, headers=HX if htmx else {})
        assert answer.status_code == 403
        text = text_of(answer.get_data(as_text=True))
        assert "Only the scorer or the circle can play again" in text
        assert "whoever keeps score of this one, or by someone in its circle" in text
        assert everything(app) == stored


def test_the_refusal_speaks_german(app: Flask, pages: Pages) -> None:
    old = finished(app, pages, ["Anna", "Ben", "Clara"])
    answer = app.test_client().post(
        f"/games/{old}/again", headers={"Accept-Language": "de"}, data={}
    )
    assert answer.status_code == 403
    text = text_of(answer.get_data(as_text=True))
    assert "Only the scorer" not in text and "Nur der Schreiber" in text


def test_a_game_not_over_is_refused_in_words(app: Flask, pages: Pages) -> None:
    pid = pages.new_game(["Anna", "Ben", "Clara"], round_plan="short")
    pages.play_round(pid, {1: 0, 2: 0, 0: 0}, {1: 0, 2: 0})
    assert again_form(pages.client, pid) is None  # not offered while the game goes on
    stored = everything(app)
    answer = pages.client.post(f"/games/{pid}/again", data={"idempotency_key": "k" * 20})
    assert answer.status_code == 422
    assert "This game isn't over yet" in text_of(answer.get_data(as_text=True))
    assert f'href="/games/{pid}"' in answer.get_data(as_text=True)  # the way back
    assert everything(app) == stored  # no game, and no key kept: a retry looks afresh


def test_a_digital_game_is_refused(app: Flask, client: FlaskClient) -> None:
    with app.app_context(), transaction.atomic():
        rules = game_service.parse_rules({"round_plan": "short"})
        made = digital_service.create_table(
            ["Anna", "Robo", "Bobo"], ["person", "bot", "bot"], 0, rules
        )
        pid, token = made.game.public_id, made.scorer_token
    assert client.get(f"/games/{pid}/score/{token}").status_code == 303
    stored = everything(app)
    answer = client.post(f"/games/{pid}/again", data={"idempotency_key": "k" * 20})
    assert answer.status_code == 422
    assert "Play again is for games kept on the score pad" in text_of(answer.get_data(as_text=True))
    assert everything(app) == stored


def test_without_a_csrf_token_nothing_starts(app: Flask, pages: Pages) -> None:
    old = finished(app, pages, ["Anna", "Ben", "Clara"])
    app.config["WTF_CSRF_ENABLED"] = True
    stored = everything(app)
    answer = pages.client.post(f"/games/{old}/again", data={"idempotency_key": "k" * 20})
    assert answer.status_code == 400
    assert "This page has expired" in answer.get_data(as_text=True)
    assert everything(app) == stored
    # With the token of the final screen it starts.
    assert new_game_of(tap_again(pages.client, old))


def test_a_deleted_game_is_not_found(app: Flask, pages: Pages) -> None:
    old = finished(app, pages, ["Anna", "Ben", "Clara"])
    with app.app_context():
        game = game_service.get_game(old)
        game.deleted_at = utcnow()
        db.session.commit()
    stored = everything(app)
    answer = pages.client.post(f"/games/{old}/again", data={"idempotency_key": "k" * 20})
    assert answer.status_code == 404
    assert everything(app) == stored


# -- the next game, for the other phones at the table ---------------------------------------


def test_phones_following_the_finished_game_are_led_to_the_next(
    app: Flask, pages: Pages, follower: Pages
) -> None:
    old = finished(app, pages, ["Anna", "Ben", "Clara"])
    assert "Go to the next game" not in follower.page(old).get_data(as_text=True)
    new = new_game_of(tap_again(pages.client, old))
    body = follower.page(old).get_data(as_text=True)
    entry = section(body, "entry")
    assert "The next game at this table has started." in text_of(entry)
    assert f'href="/games/{new}"' in entry
    assert "Next game started" in text_of(section(body, "log"))
    # The scorer's old page no longer offers to start another.
    assert again_form(pages.client, old) is None


def test_a_second_play_again_opens_the_game_already_started(app: Flask, pages: Pages) -> None:
    """Two phones at the table tap Play again one after the other (each with its own
    key): one game starts; the second phone is taken to it, in words."""
    circle = pages.make_circle("Thursday")
    old = finished(app, pages, ["Anna", "Ben", "Clara"], circle=circle)
    member = Pages(app.test_client())
    join(app, member, circle)
    form = again_form(member.client, old)  # the member's screen still shows the button
    assert form is not None
    new = new_game_of(tap_again(pages.client, old))
    before = everything(app)
    action = form.pop("action")
    answer = member.client.post(action, data=form)
    assert answer.status_code == 303 and answer.headers["Location"] == f"/games/{new}"
    assert games(app) == 2
    assert everything(app)[:2] == before[:2]  # no game, no player added
    page = member.client.get(f"/games/{new}").get_data(as_text=True)
    assert "The next game at this table has already started: here it is." in page
    answer = member.client.post(
        action, data={**form, "idempotency_key": "another-key-1234"}, headers=HX
    )
    assert answer.status_code == 204 and answer.headers["HX-Redirect"] == f"/games/{new}"


def test_once_the_next_game_is_deleted_play_again_starts_one(app: Flask, pages: Pages) -> None:
    old = finished(app, pages, ["Anna", "Ben", "Clara"])
    first = new_game_of(tap_again(pages.client, old))
    with app.app_context(), transaction.atomic():
        from scorekeeper.services import history

        history.delete_game(history.find_game(first))
    second = new_game_of(tap_again(pages.client, old))
    assert second != first and games(app) == 3
