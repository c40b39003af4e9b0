"""The setup form remembers: the rules of this phone's last game come preselected, and the
known-player chips come in order of recent play, bots never among them."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import transaction
from scorekeeper.extensions import db
from scorekeeper.models import Game, Player, utcnow
from scorekeeper.services import circles as circle_service
from scorekeeper.services import digital as digital_service
from scorekeeper.services import games as game_service
from scorekeeper.services import roster
from tests.web.support import HX, Pages

REMEMBERED = "As in your last game"


def checked(body: str, field: str) -> list[str]:
    """The values of ``field`` the form has checked (radio buttons and checkboxes)."""
    return re.findall(rf'name="{field}" value="([^"]*)"\s*checked', body)


def value(body: str, field: str) -> str:
    found = re.search(rf'name="{field}"\s+value="([^"]*)"', body)
    assert found, field
    return found.group(1)


def chips(body: str) -> list[str]:
    return re.findall(r'name="do" value="name:([^"]*)"', body)


# -- the last rule set ----------------------------------------------------------------------


def test_a_fresh_phone_gets_the_books_rules(client: FlaskClient) -> None:
    body = client.get("/games/new").get_data(as_text=True)
    assert checked(body, "dealer_rule") == ["none"]
    assert checked(body, "bidding") == ["open"]
    assert checked(body, "round_plan") == ["full"]
    assert REMEMBERED not in body
    assert re.search(r'value="preset:book"[^>]*aria-pressed="true"', body)


def test_the_last_games_rules_come_preselected(pages: Pages, client: FlaskClient) -> None:
    pages.new_game(["Ann", "Ben", "Cat"], round_plan="short")
    pages.new_game(
        ["Ann", "Ben", "Cat"],
        dealer_rule="canadian",
        from_round=3,
        bidding="hidden",
        round_plan="short",
        tie_break="bid_total",
        suit_names="french",
        exact_bonus=25,
        per_trick=5,
        per_miss=15,
        no_full_bid=True,
        foresight=True,
    )
    body = client.get("/games/new").get_data(as_text=True)
    assert checked(body, "dealer_rule") == ["canadian"]  # V2
    assert value(body, "from_round") == "3"
    assert checked(body, "bidding") == ["hidden"]  # V3
    assert checked(body, "round_plan") == ["short"]  # V8
    assert checked(body, "tie_break") == ["bid_total"]
    assert checked(body, "suit_names") == ["french"]
    assert checked(body, "no_full_bid") == ["on"] and checked(body, "foresight") == ["on"]
    assert checked(body, "saboteur") == []
    assert (value(body, "exact_bonus"), value(body, "per_trick"), value(body, "per_miss")) == (
        "25",
        "5",
        "15",
    )
    assert REMEMBERED in body
    # The scoring fold is open: what it holds differs from the book.
    assert re.search(r'<details class="fold"\s+open>', body)
    # Started as it stands, the next game has the same rule set.
    started = client.post("/games", data=form_of(body))
    assert started.status_code == 303
    with pages.client.application.app_context():
        games = db.session.query(Game).order_by(Game.id).all()
        assert games[-1].rules == games[-2].rules


def form_of(body: str) -> dict[str, list[str]]:
    """What the setup form sends as shown (three players typed in)."""
    data: dict[str, list[str]] = {"player": ["Dan", "Eve", "Fay", "", "", ""], "dealer": ["0"]}
    for field in ("dealer_rule", "bidding", "round_plan", "tie_break", "suit_names"):
        data[field] = checked(body, field)
    for field in ("no_full_bid", "saboteur", "foresight"):
        data[field] = checked(body, field)
    for field in ("from_round", "exact_bonus", "per_trick", "per_miss"):
        data[field] = [value(body, field)]
    return data


def test_a_preset_rule_set_shows_as_that_preset(pages: Pages, client: FlaskClient) -> None:
    pages.new_game(["Ann", "Ben", "Cat"], dealer_rule="plus_minus_one")
    body = client.get("/games/new").get_data(as_text=True)
    assert re.search(r'value="preset:german"[^>]*aria-pressed="true"', body)


def test_each_phone_remembers_its_own_last_game(app: Flask, pages: Pages) -> None:
    pages.new_game(["Ann", "Ben", "Cat"], bidding="secret")
    other = app.test_client().get("/games/new").get_data(as_text=True)
    assert checked(other, "bidding") == ["open"] and REMEMBERED not in other


def test_a_digital_game_is_not_the_rules_to_remember(app: Flask, pages: Pages) -> None:
    pages.new_game(["Ann", "Ben", "Cat"], bidding="hidden")
    with app.app_context(), transaction.atomic():
        rules = game_service.parse_rules({"bidding": "secret", "saboteur": True})
        made = digital_service.create_table(
            ["Ann", "Bot 1", "Bot 2"], ["person", "bot", "bot"], 0, rules
        )
        pid, token = made.game.public_id, made.scorer_token
    # This phone holds the newer digital game's scorer link …
    assert pages.client.get(f"/games/{pid}/score/{token}").status_code == 303
    # … but the setup form is the score pad's: its last score pad game's rules.
    body = pages.client.get("/games/new").get_data(as_text=True)
    assert checked(body, "bidding") == ["hidden"] and checked(body, "saboteur") == []


def early_start(body: str) -> bool:
    """Whether the form offers to start with the rules of this phone's last game (its
    Start at the thumb says so)."""
    bar = body[body.index('<div class="start-bar">') :]
    return "as in your last game (above)." in bar[: bar.index("</div>")]


def test_remembered_rules_let_the_game_start_under_the_names(
    pages: Pages, client: FlaskClient
) -> None:
    assert not early_start(client.get("/games/new").get_data(as_text=True))  # a new phone
    pages.new_game(["Ann", "Ben", "Cat"], dealer_rule="plus_minus_one")
    body = client.get("/games/new").get_data(as_text=True)
    assert early_start(body)
    assert "Rules: German rule, as in your last game (above)." in body
    # Seating a known name keeps it so …
    seated = client.post(
        "/games/new", data={**form_of(body), "remembered": "1", "do": "name:Ann"}, headers=HX
    ).get_data(as_text=True)
    assert early_start(seated) and REMEMBERED in seated
    assert checked(seated, "dealer_rule") == ["plus_minus_one"]
    # … choosing a preset is choosing the rules anew: they are not the last game's now.
    chosen = client.post(
        "/games/new", data={**form_of(body), "remembered": "1", "do": "preset:book"}, headers=HX
    ).get_data(as_text=True)
    assert checked(chosen, "dealer_rule") == ["none"]
    assert not early_start(chosen) and REMEMBERED not in chosen


# -- known players, latest first ----------------------------------------------------------


def test_known_players_come_in_order_of_recent_play(app: Flask, pages: Pages) -> None:
    circle = pages.make_circle("Thursday")
    pages.new_game(["Gus", "Hal", "Ida"], circle=circle)
    pages.new_game(["Cat", "Ann", "Ben"], circle=circle)
    pages.new_game(["Eve", "Dan", "Ann", "Fay"], circle=circle)
    body = pages.client.get("/games/new").get_data(as_text=True)
    # The latest table first, in its seat order; then who played before, and before that.
    assert chips(body) == ["Eve", "Dan", "Ann", "Fay", "Cat", "Ben", "Gus", "Hal", "Ida"]
    # A game played later moves its players to the front.
    pages.new_game(["Ida", "Gus", "Ben"], circle=circle)
    body = pages.client.get("/games/new").get_data(as_text=True)
    assert chips(body) == ["Ida", "Gus", "Ben", "Eve", "Dan", "Ann", "Fay", "Cat", "Hal"]


def test_bots_are_never_offered(app: Flask, pages: Pages) -> None:
    circle = pages.make_circle("Thursday")
    pages.new_game(["Ann", "Ben", "Cat"], circle=circle)
    with app.app_context(), transaction.atomic():
        rules = game_service.parse_rules({})
        made = digital_service.create_table(
            ["Zoe", "Merlin", "Morgana"], ["person", "bot", "bot"], 0, rules
        )
        # A digital game in the circle (as an imported history brings one), newer still.
        circle_id = circle_service.get_circle(circle).id
        game = db.session.get(Game, made.game.id)
        assert game is not None
        game.circle_id = circle_id
        for seat in game.seats:
            db.session.get(Player, seat.player_id).circle_id = circle_id  # type: ignore[union-attr]
        db.session.commit()
        assert roster.recent_names(circle_id) == ["Ann", "Ben", "Cat"]
    body = pages.client.get("/games/new").get_data(as_text=True)
    assert chips(body) == ["Ann", "Ben", "Cat"]
    assert "Merlin" not in body and "Morgana" not in body


def test_chips_are_the_circles_own(app: Flask, pages: Pages) -> None:
    first = pages.make_circle("Thursday")
    pages.new_game(["Ann", "Ben", "Cat"], circle=first)
    second = pages.make_circle("Family")
    pages.new_game(["Mum", "Dad", "Kid"], circle=second)
    pages.new_game(["Lou", "Max", "Ned"])  # one-off: nobody's chips
    with app.app_context():
        ids = [circle_service.get_circle(c).id for c in (first, second)]
        assert roster.recent_names(ids[0]) == ["Ann", "Ben", "Cat"]
        assert roster.recent_names(ids[1]) == ["Mum", "Dad", "Kid"]
        assert roster.recent_names(None) == []
        assert roster.recent_names(ids[0], limit=2) == ["Ann", "Ben"]


def test_a_deleted_game_is_neither_remembered_nor_recent(app: Flask, pages: Pages) -> None:
    circle = pages.make_circle("Thursday")
    pages.new_game(["Ann", "Ben", "Cat"], circle=circle, bidding="hidden")
    gone = pages.new_game(["Dan", "Eve", "Fay"], circle=circle, bidding="secret")
    with app.app_context():
        game = game_service.get_game(gone)
        game.deleted_at = utcnow()  # deleted from the games list: it leaves every list
        db.session.commit()
    body = pages.client.get("/games/new").get_data(as_text=True)
    assert checked(body, "bidding") == ["hidden"]  # the last game still there
    assert chips(body) == ["Ann", "Ben", "Cat"]
