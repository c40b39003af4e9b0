"""Setting up a game through the form: players, dealer, rule set (issue 3, R3, V1–V10)."""

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.services import games as game_service
from tests.web.support import HX, Pages, alert


def game_count(app: Flask) -> int:
    with app.app_context():
        return db.session.query(Game).count()


def test_setup_page_offers_six_seats_dealer_and_rules(client: FlaskClient) -> None:
    response = client.get("/games/new")
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert body.count('name="player"') == 6
    assert body.count('name="dealer"') == 6
    for value in (
        "plus_minus_one",
        "canadian",
        "hidden",
        "secret",
        "short",
        "unicoloured",
        "bid_total",
        "french",
        "no_full_bid",
        "saboteur",
        "foresight",
        "exact_bonus",
        "per_trick",
        "per_miss",
        "from_round",
    ):
        assert f'"{value}"' in body, value
    assert "German rule" in body  # V1 offered under its other name too


def test_creating_a_game_makes_this_browser_the_scorer(pages: Pages, app: Flask) -> None:
    response = pages.create(
        ["Ann", "Ben", "Cat"],
        dealer=2,
        dealer_rule="plus_minus_one",
        from_round=3,
        round_plan="short",
        tie_break="bid_total",
        suit_names="french",
        exact_bonus=25,
        per_trick=5,
        per_miss=15,
    )
    assert response.status_code == 303
    # The new game opens with its welcome (the scorer link, shown once prominently).
    location = response.headers["Location"]
    assert location.endswith("?welcome=1")
    pid = location.removeprefix("/games/").removesuffix("?welcome=1")
    with app.app_context():
        game = game_service.get_game(pid)
        assert game_service.names_of(game) == ["Ann", "Ben", "Cat"]
        assert game.first_dealer == 2
        assert game.rules == {
            "dealer_rule": "plus_minus_one",
            "dealer_rule_from_round": 3,
            "no_full_bid": False,
            "bidding": "open",
            "saboteur": False,
            "foresight": False,
            "round_plan": "short",
            "tie_break": "bid_total",
            "scoring": {"exact_bonus": 25, "per_trick": 5, "per_miss": 15},
            "suit_names": "french",
        }
    body = pages.whole_page(pid).get_data(as_text=True)
    assert 'id="entry"' in body and 'name="bid"' in body  # the scorer's entry panel
    assert "Plus/minus one from round 3" in body  # the rule set in plain words
    assert "Short game: 10 rounds" in body


def test_switches_are_stored(pages: Pages, app: Flask) -> None:
    pid = pages.new_game(
        ["Ann", "Ben", "Cat", "Dan"],
        bidding="secret",
        no_full_bid=True,
        saboteur=True,
        foresight=True,
        round_plan="unicoloured",
    )
    with app.app_context():
        rules = game_service.get_game(pid).rules
    assert rules["bidding"] == "secret"
    assert rules["no_full_bid"] and rules["saboteur"] and rules["foresight"]
    assert rules["round_plan"] == "unicoloured"
    assert rules["dealer_rule"] == "none"


def test_trailing_empty_seats_are_ignored(pages: Pages, app: Flask) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat", "", "  ", ""])
    with app.app_context():
        assert game_service.names_of(game_service.get_game(pid)) == ["Ann", "Ben", "Cat"]


@pytest.mark.parametrize(
    ("players", "dealer", "rules", "message"),
    [
        (["Ann", "Ben"], 0, {}, "Wizard is played by 3 to 6 players, not 2."),
        (["A", "B", "C", "D", "E", "F", "G"], 0, {}, "Wizard is played by 3 to 6 players, not 7."),
        (["Ann", "", "Cat"], 0, {}, "Each player needs a name."),
        (["Ann", "Ben", "ann"], 0, {}, "is at the table twice"),
        (["Ann", "Ben", "x" * 41], 0, {}, "is too long"),
        (["Ann", "Ben", "Cat"], 3, {}, "The first dealer must be one of the players."),
        (["Ann", "Ben", "Cat"], "x", {}, "The first dealer must be one of the players."),
        (
            ["A", "B", "C", "D", "E"],
            0,
            {"round_plan": "unicoloured"},
            "The unicoloured game is for 3 or 4 players only.",
        ),
        (
            ["Ann", "Ben", "Cat"],
            0,
            {"dealer_rule": "sometimes"},
            "Rule 'dealer_rule' must be one of",
        ),
        (["Ann", "Ben", "Cat"], 0, {"bidding": "loud"}, "Rule 'bidding' must be one of"),
        (
            ["Ann", "Ben", "Cat"],
            0,
            {"dealer_rule": "plus_minus_one", "from_round": "soon"},
            "dealer rule starts from",
        ),
        (
            ["Ann", "Ben", "Cat"],
            0,
            {"dealer_rule": "plus_minus_one", "from_round": "0"},
            "dealer rule starts from",
        ),
        (
            ["Ann", "Ben", "Cat"],
            0,
            {"exact_bonus": "lots"},
            "must be a whole number from 0 to 1000",
        ),
        (["Ann", "Ben", "Cat"], 0, {"per_miss": "-5"}, "a whole number from 0 to 1000"),
    ],
)
def test_bad_setups_are_refused_with_the_reason(
    pages: Pages,
    app: Flask,
    players: list[str],
    dealer: object,
    rules: dict[str, str],
    message: str,
) -> None:
    response = pages.create(players, dealer, **rules)
    assert response.status_code == 422
    assert message in (alert(response) or "")
    assert game_count(app) == 0
    body = response.get_data(as_text=True)
    # The form comes back as it was typed.
    for name in players[:6]:
        if name:
            assert f'value="{name}"' in body


def test_a_form_with_thousands_of_names_is_cut_short(pages: Pages, app: Flask) -> None:
    # Before, every name was checked and rendered back: 150,000 took 10 s of a worker.
    names = [f"P{n}" for n in range(5_000)]
    response = pages.create(names)
    assert response.status_code == 422
    assert "Wizard is played by 3 to 6 players, not 12." in (alert(response) or "")
    body = response.get_data(as_text=True)
    assert body.count('name="player"') == 12 and 'value="P11"' in body
    assert 'value="P12"' not in body
    assert game_count(app) == 0


def test_bad_setup_with_htmx_answers_the_form_fragment(pages: Pages, app: Flask) -> None:
    response = pages.create(["Ann", "Ben"], htmx=True)
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert body.lstrip().startswith("<form") and "<html" not in body
    assert 'id="setup"' in body
    assert "HX-Request" in response.headers.get("Vary", "")
    assert game_count(app) == 0


def test_setup_with_htmx_redirects_by_header(pages: Pages) -> None:
    response = pages.create(["Ann", "Ben", "Cat"], htmx=True)
    assert response.status_code == 204
    assert response.headers["HX-Redirect"].startswith("/games/")
    assert response.headers["HX-Redirect"].endswith("?welcome=1")


def form(**extra: object) -> dict[str, object]:
    data: dict[str, object] = {"player": ["Ann", "Ben", "Cat", "Dan", "", ""], "dealer": "1"}
    data.update(extra)
    return data


def test_moving_a_seat_takes_the_dealer_along(client: FlaskClient) -> None:
    response = client.post("/games/new", data=form(do="up:1"), headers=HX)
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert body.lstrip().startswith("<form")
    names = [n for n in re.findall(r'name="player" value="([^"]*)"', body)]
    assert names[:4] == ["Ben", "Ann", "Cat", "Dan"]
    assert 'name="dealer" value="0" checked' in body  # Ben still deals first

    down = client.post("/games/new", data=form(do="down:3")).get_data(as_text=True)
    assert "<html" in down  # without htmx: the whole page
    assert re.findall(r'name="player" value="([^"]*)"', down)[:5] == [
        "Ann",
        "Ben",
        "Cat",
        "",
        "Dan",
    ]


def test_known_names_are_one_tap_chips(app: Flask, pages: Pages, client: FlaskClient) -> None:
    # The names are the circle's players: the form opens in this phone's latest circle.
    circle = pages.make_circle("Friends")
    pages.new_game(["Ann", "Ben", "Cat"], circle=circle)
    body = client.get("/games/new").get_data(as_text=True)
    assert re.search(rf'name="circle" value="{circle}"\s*checked', body)
    for name in ("Ann", "Ben", "Cat"):
        assert f'value="name:{name}"' in body
    # Tapping a chip seats the player in the first free seat …
    tapped = client.post(
        "/games/new",
        data={"player": ["Dan", "", "", "", "", ""], "circle": circle, "do": "name:Cat"},
        headers=HX,
    ).get_data(as_text=True)
    assert re.findall(r'name="player" value="([^"]*)"', tapped)[:2] == ["Dan", "Cat"]
    assert re.search(r'value="name:Cat"[^>]*aria-pressed="true"', tapped)
    # … and tapping it again unseats them.
    again = client.post(
        "/games/new",
        data={"player": ["Dan", "Cat", "Eve", "", "", ""], "circle": circle, "do": "name:cat"},
        headers=HX,
    ).get_data(as_text=True)
    assert re.findall(r'name="player" value="([^"]*)"', again)[:3] == ["Dan", "Eve", ""]
    # A one-off game (no circle) offers no names, nor does a phone without the circle.
    for other, url in ((client, "/games/new?circle="), (app.test_client(), "/games/new")):
        body = other.get(url).get_data(as_text=True)
        assert 'value="name:' not in body, url
    # Nor does another circle of this phone: its players are its own.
    pages.make_circle("Family")
    body = client.get("/games/new").get_data(as_text=True)
    assert 'value="name:' not in body


def test_full_table_refuses_a_seventh_chip(client: FlaskClient, pages: Pages) -> None:
    pages.new_game(["Ann", "Ben", "Cat"])
    response = client.post(
        "/games/new",
        data={"player": ["A", "B", "C", "D", "E", "F"], "do": "name:Ann"},
        headers=HX,
    )
    assert "The table is full" in (alert(response) or "")


def test_presets_set_the_switches(client: FlaskClient) -> None:
    body = client.post("/games/new", data=form(do="preset:short"), headers=HX).get_data(
        as_text=True
    )
    assert 'name="dealer_rule" value="plus_minus_one" checked' in body
    assert 'name="round_plan" value="short" checked' in body
    assert re.search(r'value="preset:short"[^>]*aria-pressed="true"', body)
    book = client.post(
        "/games/new", data=form(do="preset:book", dealer_rule="canadian"), headers=HX
    ).get_data(as_text=True)
    assert 'name="dealer_rule" value="none" checked' in book
    # The names typed so far stay.
    assert 'value="Dan"' in book


def test_home_lists_recent_games_to_resume(app: Flask, pages: Pages, client: FlaskClient) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    body = client.get("/").get_data(as_text=True)
    assert 'href="/games/new"' in body
    assert f'href="/games/{pid}"' in body
    assert "Ann, Ben, Cat" in body
    assert "you keep score" in body
    # The home page lists only the games this phone holds links to: not to another.
    body = app.test_client().get("/").get_data(as_text=True)
    assert 'href="/games/new"' in body
    assert pid not in body and "Ann, Ben, Cat" not in body


def test_the_follow_card_is_offered_once_per_circle_evening(
    app: Flask, pages: Pages, client: FlaskClient
) -> None:
    """The first game of a circle on this phone in an evening opens with its follow card
    (the QR code for the other phones); the next ones open ready for the first bid. A game
    in no circle always opens with its welcome: its scorer link is the only key."""
    circle = pages.make_circle("Thursday")
    first = pages.create(["Ann", "Ben", "Cat"], circle=circle)
    assert first.headers["Location"].endswith("?welcome=1")
    second = pages.create(["Ann", "Ben", "Cat", "Dan"], circle=circle)
    assert "welcome" not in second.headers["Location"]
    other = pages.make_circle("Sunday")
    assert (
        pages.create(["Eve", "Fay", "Gus"], circle=other).headers["Location"].endswith("?welcome=1")
    )
    for _ in range(2):
        one_off = pages.create(["Hal", "Ida", "Jo"], circle="")
        assert one_off.headers["Location"].endswith("?welcome=1")
    # The next evening (twelve hours on), the circle's first game shows it again.
    with client.session_transaction() as session:
        session["welcomed"] = {k: v - 13 * 3600 for k, v in session["welcomed"].items()}
    again = pages.create(["Ann", "Ben", "Cat"], circle=circle)
    assert again.headers["Location"].endswith("?welcome=1")
    # A forged or odd record of it is no record.
    with client.session_transaction() as session:
        session["welcomed"] = {circle: "yesterday", "x" * 400: -5}
    assert (
        pages.create(["Ann", "Ben", "Cat"], circle=circle)
        .headers["Location"]
        .endswith("?welcome=1")
    )
