"""Recording, correcting and deleting rounds through the API, under the rule sets."""

import threading
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.services.games import rounds
from tests.api.support import Api, Circle, Game, error_of


def fill(api: Api, game: Game, rounds: int) -> None:
    """Play ``rounds`` filler rounds: everyone bids 0, the first seat takes every trick."""
    for _ in range(rounds):
        cards = api.get(game)["next_round"]["cards"]
        players = len(game.data["players"])
        api.play(game, [0] * players, [cards] + [0] * (players - 1))


# -- R16: the books' worked examples --------------------------------------------------------


def test_r16_example_001(api: Api) -> None:
    game = api.create(["Thomas", "Ute", "Kevin"])
    body = api.play(game, [0, 1, 1], [0, 0, 1])
    assert body["rounds"][0]["scores"] == [20, -10, 30]
    assert body["rounds"][0]["totals"] == [20, -10, 30]
    body = api.play(game, [2, 0, 0], [1, 0, 1])
    assert body["rounds"][1]["cards"] == 2
    assert body["rounds"][1]["scores"] == [-10, 20, -10]
    assert body["rounds"][1]["totals"] == [10, 10, 20]
    assert body["totals"] == [10, 10, 20]
    assert api.get(game) == body


def test_r16_example_000_round_3(api: Api) -> None:
    game = api.create(["Henry", "Anya", "Freya"])
    # Earlier rounds that bring Henry and Anya to 10 each, as in the book.
    api.play(game, [0, 1, 0], [1, 0, 0])  # −10, −10, 20
    api.play(game, [0, 0, 2], [0, 0, 2])  # 20, 20, 40
    body = api.play(game, [2, 2, 0], [2, 1, 0])
    third = body["rounds"][2]
    assert third["cards"] == 3
    assert third["scores"] == [40, -10, 20]
    assert third["totals"][:2] == [50, 0]


def test_r16_example_003(api: Api) -> None:
    game = api.create(["A", "B", "C", "D"])
    fill(api, game, 8)
    body = api.play(game, [3, 0, 3, 2], [3, 0, 1, 5])
    assert body["rounds"][8]["cards"] == 9
    assert body["rounds"][8]["scores"] == [50, 20, -20, -30]


def test_v10_scoring_numbers(api: Api) -> None:
    game = api.create(scoring={"exact_bonus": 30, "per_trick": 5, "per_miss": 15})
    body = api.play(game, [0, 1, 1], [0, 0, 1])
    assert body["rounds"][0]["scores"] == [30, -15, 35]


# -- a whole game -----------------------------------------------------------------------------


def test_whole_game_to_the_end(api: Api, circle: Circle) -> None:
    game = api.create(["A", "B", "C", "D", "E", "F"], circle=circle)
    fill(api, game, 9)
    last = api.get(game)["next_round"]
    assert last == {
        "number": 10,
        "cards": 10,
        "dealer": 3,
        "bidding_order": [4, 5, 0, 1, 2, 3],
        "leader": 4,
        "open": False,
    }
    with api.unchanged(game):
        response = api.add(game, [0] * 6, [10, 0, 0, 0, 0, 0], trump="red")
        assert error_of(response) == (422, "no_trump_round")  # P1, R8
        response = api.add(game, [0] * 6, [10, 0, 0, 0, 0, 0], trump="wizard:red")
        assert error_of(response) == (422, "no_trump_round")
    body = api.play(game, [0] * 6, [0, 0, 0, 0, 10, 0])
    assert body["rounds"][9]["trump"] == "none"  # the last round records "no trump" itself
    assert body["finished"] is True
    assert body["next_round"] is None
    assert body["totals"] == [-430, 200, 200, 200, 80, 200]
    assert body["winners"] == ["B", "C", "D", "F"]  # equal totals share the win (R17)
    with api.unchanged(game):
        response = api.add(game, [0] * 6, [10, 0, 0, 0, 0, 0])
        assert error_of(response) == (422, "game_over")  # a round past the end
        assert "10 rounds" in response.get_json()["error"]["message"]
    summary = api.listed(circle)["games"][0]
    assert summary["finished"] is True
    assert summary["winners"] == ["B", "C", "D", "F"]


@pytest.mark.parametrize(("tie_break", "winners"), [("shared", ["A", "B"]), ("bid_total", ["B"])])
def test_tie_for_the_win(api: Api, tie_break: str, winners: list[str]) -> None:
    game = api.create(["A", "B", "C"], round_plan="short", tie_break=tie_break)
    api.play(game, [0, 2, 0], [1, 1, 0])  # A and B both −10; B bid 2, A bid 0
    for cards in (4, 6, 8, 10, 12, 14, 16, 18, 20):
        api.play(game, [0, 0, 0], [0, 0, cards])
    body = api.get(game)
    assert body["totals"][:2] == [170, 170]
    assert body["winners"] == winners  # R17: shared, or the higher bid total


# -- bids first, tricks later ---------------------------------------------------------------


def test_bids_first_then_tricks(api: Api) -> None:
    game = api.create()
    response = api.add(game, [1, 0, 0], trump="green")
    assert response.status_code == 201
    assert response.headers["Location"] == f"{game.url}/rounds/1"
    body = response.get_json()
    open_round = body["rounds"][0]
    assert open_round["complete"] is False
    assert open_round["bids"] == [1, 0, 0]
    assert open_round["tricks"] is open_round["scores"] is open_round["totals"] is None
    assert body["next_round"]["open"] is True
    assert body["next_round"]["number"] == 1

    with api.unchanged(game):
        assert error_of(api.add(game, [0, 0, 0], [1, 0, 0])) == (422, "round_open")

    response = api.put(game, 1, tricks=[1, 0, 0])
    assert response.status_code == 200
    body = response.get_json()
    assert body["rounds"][0]["complete"] is True
    assert body["rounds"][0]["trump"] == "green"
    assert body["rounds"][0]["scores"] == [30, 20, 20]
    assert body["next_round"]["number"] == 2
    assert body["next_round"]["open"] is False


def test_tricks_taken_back_from_the_last_round_only(api: Api) -> None:
    game = api.create()
    api.play(game, [0, 0, 0], [1, 0, 0])
    api.play(game, [0, 0, 0], [2, 0, 0])
    with api.unchanged(game):
        assert error_of(api.put(game, 1, tricks=None)) == (422, "round_complete")
    body = api.put(game, 2, tricks=None).get_json()
    assert body["rounds"][1]["complete"] is False
    assert body["totals"] == [-10, 20, 20]


def test_get_one_round(client: FlaskClient, api: Api) -> None:
    game = api.create()
    body = api.play(game, [0, 1, 1], [0, 0, 1], trump="wizard:blue")
    response = client.get(f"{game.url}/rounds/1")
    assert response.status_code == 200
    assert response.get_json() == body["rounds"][0]
    for number in (0, 2, 99):
        assert error_of(client.get(f"{game.url}/rounds/{number}")) == (404, "not_found")
    assert error_of(client.get(f"{game.url}/rounds/-1")) == (404, "not_found")
    assert error_of(client.get(f"{game.url}/rounds/one")) == (404, "not_found")
    assert error_of(client.get("/api/v1/games/nope/rounds/1")) == (404, "not_found")


# -- rule sets: bids the rule set forbids ---------------------------------------------------


def test_v1_plus_minus_one(api: Api) -> None:
    game = api.create(["Ann", "Ben", "Cat"], 0, dealer_rule="plus_minus_one")
    with api.unchanged(game):
        response = api.add(game, [1, 0, 0], [1, 0, 0])
        assert error_of(response) == (422, "bids_equal_tricks")
        message = response.get_json()["error"]["message"]
        assert "Ann (dealer) can't bid 1" in message
    api.play(game, [0, 0, 0], [1, 0, 0])  # zero is fine: the total is 0, not 1
    # Only the dealer (last bidder) is held: Ben deals round 2 and bids last.
    with api.unchanged(game):
        assert error_of(api.add(game, [1, 0, 1], [1, 0, 1])) == (422, "bids_equal_tricks")
    api.play(game, [1, 1, 1], [1, 0, 1])


def test_v1_from_round(api: Api) -> None:
    game = api.create(dealer_rule="plus_minus_one", dealer_rule_from_round=2)
    api.play(game, [1, 0, 0], [1, 0, 0])  # round 1 exempt
    with api.unchanged(game):
        assert error_of(api.add(game, [1, 0, 1], [1, 0, 1])) == (422, "bids_equal_tricks")


def test_v2_canadian_only_when_the_dealer_strictly_leads(api: Api) -> None:
    lead = api.create(dealer_rule="canadian")
    api.play(lead, [0, 1, 0], [0, 1, 0])  # round 1: never (all tied at 0); totals 20 30 20
    with api.unchanged(lead):
        # Round 2: Ben deals, leads outright: his bid may not make the total 2.
        assert error_of(api.add(lead, [0, 1, 1], [0, 1, 1])) == (422, "bids_equal_tricks")
    api.play(lead, [0, 0, 1], [0, 1, 1])

    tied = api.create(dealer_rule="canadian")
    api.play(tied, [0, 0, 0], [1, 0, 0])  # totals −10 20 20: Ben shares the lead
    body = api.play(tied, [0, 1, 1], [0, 1, 1])
    assert body["rounds"][1]["scores"] == [20, 30, 30]


def test_v6_saboteur(api: Api) -> None:
    game = api.create(["Ann", "Ben", "Cat"], 0, saboteur=True)
    with api.unchanged(game):
        assert error_of(api.add(game, [0, 0, 1], [0, 0, 1])) == (422, "dealer_does_not_bid")
        assert error_of(api.add(game, [None, None, 1], [0, 0, 1])) == (422, "bids_missing")
    body = api.play(game, [None, 0, 0], [1, 0, 0])
    assert body["rounds"][0]["bids"] == [None, 0, 0]
    assert body["rounds"][0]["scores"] == [20, 20, 20]  # the dealer scores 20 regardless
    body = api.play(game, [0, None, 0], [0, 2, 0])
    assert body["rounds"][1]["scores"] == [20, 20, 20]


def test_a_round_may_wait_for_bids_not_yet_made(api: Api) -> None:
    """null in ``bids`` is also a player who has not bid yet, as the OpenAPI document
    says: a round without its tricks is kept with the bids so far; every bid is in before
    the tricks (R6)."""
    game = api.create(["Ann", "Ben", "Cat"])
    response = api.add(game, [None, 1, None])
    assert response.status_code == 201, response.get_data(as_text=True)
    assert api.get(game)["rounds"][0]["bids"] == [None, 1, None]
    with api.unchanged(game):
        response = api.put(game, 1, bids=[None, 1, 0], tricks=[1, 0, 0])
        assert error_of(response) == (422, "bids_missing")
    body = api.put(game, 1, bids=[0, 1, 0], tricks=[1, 0, 0]).get_json()
    assert body["rounds"][0]["scores"] == [-10, -10, 20]


def test_v6_with_v1_holds_the_last_bidder(api: Api) -> None:
    game = api.create(["Ann", "Ben", "Cat"], 0, saboteur=True, dealer_rule="plus_minus_one")
    with api.unchanged(game):
        # Ann deals and does not bid; Cat bids last and may not make the total 1.
        response = api.add(game, [None, 0, 1], [0, 0, 1])
        assert error_of(response) == (422, "bids_equal_tricks")
        assert "Cat can't bid 1" in response.get_json()["error"]["message"]
    api.play(game, [None, 0, 0], [0, 0, 1])


def test_v7_no_full_bid(api: Api) -> None:
    short = api.create(no_full_bid=True, round_plan="short")  # 2 cards in round 1
    with api.unchanged(short):
        assert error_of(api.add(short, [2, 0, 0], [2, 0, 0])) == (422, "full_bid")
    api.play(short, [1, 1, 0], [1, 1, 0])
    full = api.create(no_full_bid=True)  # 1 card: 1 may be bid
    api.play(full, [1, 1, 1], [1, 0, 0])


@pytest.mark.parametrize(
    ("bids", "tricks", "code"),
    [
        ([0, 0, 0], [1, 1, 0], "tricks_do_not_add_up"),
        ([0, 0, 0], [0, 0, 0], "tricks_do_not_add_up"),
        ([0, 0, 0], [-1, 1, 1], "tricks_out_of_range"),
        ([0, 0, 0], [2, 0, 0], "tricks_out_of_range"),
        ([0, 0, 0], [1, 0], "bad_tricks"),
        ([0, 0], [1, 0, 0], "bad_bids"),
        ([0, 0, 0, 0], None, "bad_bids"),
        ([2, 0, 0], [1, 0, 0], "bid_out_of_range"),
        ([-1, 0, 0], [1, 0, 0], "bid_out_of_range"),
        ([0, None, 0], [1, 0, 0], "bids_missing"),
    ],
)
def test_round_rejections(
    api: Api, bids: list[int | None], tricks: list[int] | None, code: str
) -> None:
    game = api.create()
    with api.unchanged(game):
        response = api.add(game, bids, tricks)
        assert error_of(response) == (422, code)
        assert response.get_json()["error"]["message"]


# -- trump ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sent", "trump", "wizard"),
    [
        ({"trump": "red"}, "red", False),
        ({"trump": "yellow", "trump_wizard": False}, "yellow", False),
        ({"trump": "none"}, "none", False),
        ({"trump": None}, None, False),
        ({}, None, False),
        ({"trump": "wizard:green"}, "green", True),
        ({"trump": "wizard:green", "trump_wizard": True}, "green", True),
        ({"trump": "blue", "trump_wizard": True}, "blue", True),
    ],
)
def test_trump(api: Api, sent: dict[str, Any], trump: str | None, wizard: bool) -> None:
    game = api.create()
    body = api.play(game, [0, 0, 0], [1, 0, 0], **sent)
    assert (body["rounds"][0]["trump"], body["rounds"][0]["trump_wizard"]) == (trump, wizard)


@pytest.mark.parametrize(
    "sent",
    [
        {"trump": "hearts"},
        {"trump": "Red"},
        {"trump": "jester"},
        {"trump": ""},
        {"trump": "wizard:none"},
        {"trump": "none", "trump_wizard": True},
        {"trump": None, "trump_wizard": True},
        {"trump": "wizard:red", "trump_wizard": False},
    ],
)
def test_bad_trump_is_422(api: Api, sent: dict[str, Any]) -> None:
    game = api.create()
    with api.unchanged(game):
        assert error_of(api.add(game, [0, 0, 0], [1, 0, 0], **sent)) == (422, "bad_trump")


def test_unicoloured_game_has_no_trump(api: Api) -> None:
    game = api.create(round_plan="unicoloured")
    with api.unchanged(game):
        error = error_of(api.add(game, [0, 0, 0], [4, 0, 0], trump="red"))
        assert error == (422, "no_trump_round")
    body = api.play(game, [0, 0, 0], [4, 0, 0])
    assert body["rounds"][0]["trump"] == "none"


def test_correct_trump(api: Api) -> None:
    game = api.create()
    api.play(game, [0, 0, 0], [1, 0, 0], trump="red")
    body = api.put(game, 1, trump="blue", trump_wizard=True).get_json()
    assert (body["rounds"][0]["trump"], body["rounds"][0]["trump_wizard"]) == ("blue", True)
    body = api.put(game, 1, trump=None).get_json()
    assert (body["rounds"][0]["trump"], body["rounds"][0]["trump_wizard"]) == (None, False)


# -- corrections (P2) -----------------------------------------------------------------------


def test_correction_recomputes_later_totals(api: Api) -> None:
    game = api.create(["Thomas", "Ute", "Kevin"])
    api.play(game, [0, 1, 1], [0, 0, 1])
    api.play(game, [2, 0, 0], [1, 0, 1])
    response = api.put(game, 1, tricks=[0, 1, 0])
    assert response.status_code == 200
    body = response.get_json()
    assert body["rounds"][0]["scores"] == [20, 30, -10]
    assert body["rounds"][1]["scores"] == [-10, 20, -10]
    assert body["rounds"][1]["totals"] == [10, 50, -20]
    assert body["totals"] == [10, 50, -20]
    assert body["version"] == 4


def test_correction_is_checked_but_later_rounds_are_kept(api: Api) -> None:
    game = api.create(dealer_rule="canadian")
    api.play(game, [0, 0, 0], [1, 0, 0])  # −10 20 20: Ben, round 2's dealer, only tied
    api.play(game, [0, 1, 1], [0, 1, 1])  # bids make 2: fine while Ben is tied
    api.play(game, [0, 0, 0], [3, 0, 0])
    # Round 1 corrected: Cat bid 1 and missed, so Ben led outright before round 2.
    response = api.put(game, 1, bids=[0, 0, 1])
    assert response.status_code == 200
    body = response.get_json()
    assert body["rounds"][0]["totals"] == [-10, 20, -10]
    second = body["rounds"][1]
    assert second["bids"] == [0, 1, 1]  # kept as played (P2) …
    assert second["totals"] == [10, 50, 20]
    assert "Kept as played" in second["flag"]  # … and flagged
    assert body["rounds"][0]["flag"] is None
    # Correcting round 2 itself checks it with the totals as they now stand.
    with api.unchanged(game):
        assert error_of(api.put(game, 2, trump="red")) == (422, "bids_equal_tricks")
    # A correction that breaks the rules is refused and changes nothing.
    with api.unchanged(game):
        assert error_of(api.put(game, 1, tricks=[1, 1, 0])) == (422, "tricks_do_not_add_up")
        assert error_of(api.put(game, 3, bids=[4, 0, 0])) == (422, "bid_out_of_range")


def test_correction_that_changes_nothing(api: Api) -> None:
    game = api.create()
    body = api.play(game, [0, 0, 0], [1, 0, 0])
    response = api.put(game, 1, bids=[0, 0, 0])
    assert response.status_code == 200
    assert response.get_json() == body
    assert api.put(game, 1).get_json() == body  # an empty body changes nothing either


def test_correct_unknown_round_is_404(api: Api) -> None:
    game = api.create()
    api.play(game, [0, 0, 0], [1, 0, 0])
    with api.unchanged(game):
        for number in (0, 2, 20, 21):
            assert error_of(api.put(game, number, tricks=[1, 0, 0])) == (404, "not_found")


# -- deleting the last round ----------------------------------------------------------------


def test_delete_the_last_round(api: Api) -> None:
    game = api.create()
    api.play(game, [0, 0, 0], [1, 0, 0])
    before = api.get(game)
    api.play(game, [0, 0, 0], [2, 0, 0])
    with api.unchanged(game):
        response = api.delete(game, 1)
        assert error_of(response) == (422, "not_last_round")
        assert "Only the last round (2)" in response.get_json()["error"]["message"]
        assert error_of(api.delete(game, 3)) == (404, "not_found")
    response = api.delete(game, 2)
    assert response.status_code == 200
    body = response.get_json()
    assert {k: v for k, v in body.items() if k != "version"} == {
        k: v for k, v in before.items() if k != "version"
    }
    assert body["version"] == before["version"] + 2
    # The round can be recorded again.
    assert api.play(game, [2, 0, 0], [2, 0, 0])["rounds"][1]["scores"] == [40, 20, 20]


def test_delete_an_open_round_and_the_only_round(api: Api) -> None:
    game = api.create()
    api.add(game, [0, 0, 0])
    assert api.delete(game, 1).get_json()["rounds"] == []
    with api.unchanged(game):
        assert error_of(api.delete(game, 1)) == (404, "not_found")


# -- optimistic versioning ------------------------------------------------------------------


def test_version_in_the_body(api: Api) -> None:
    game = api.create()
    assert api.play(game, [0, 0, 0], [1, 0, 0], version=1)["version"] == 2
    with api.unchanged(game):
        response = api.add(game, [0, 0, 0], [2, 0, 0], version=1)
        assert error_of(response) == (409, "conflict")
        assert response.get_json()["game"] == api.get(game)
        assert response.headers["ETag"] == '"2"'
        assert error_of(api.put(game, 1, tricks=[0, 1, 0], version=1)) == (409, "conflict")
        # A stale client hears 409 before whatever else is wrong with its request.
        assert error_of(api.add(game, [9, 9, 9], trump="purple", version=1)) == (409, "conflict")
    assert api.put(game, 1, tricks=[0, 1, 0], version=2).status_code == 200


def test_if_match(client: FlaskClient, api: Api) -> None:
    game = api.create()
    url = f"{game.url}/rounds"
    body = {"bids": [0, 0, 0], "tricks": [1, 0, 0]}
    with api.unchanged(game):
        response = client.post(url, json=body, headers={**game.auth, "If-Match": '"7"'})
        assert error_of(response) == (409, "conflict")
        assert response.get_json()["game"]["version"] == 1
        # Too long to be a version (int() would refuse past 4,300 digits), other digits.
        for bad in ("seven", '"1", "2"', '"-1"', "1" * 5000, "١"):
            response = client.post(url, json=body, headers={**game.auth, "If-Match": bad})
            assert error_of(response) == (400, "bad_request"), bad
        # If-Match and the body's version must agree.
        response = client.post(
            url, json={**body, "version": 1}, headers={**game.auth, "If-Match": '"2"'}
        )
        assert error_of(response) == (409, "conflict")
    response = client.post(url, json=body, headers={**game.auth, "If-Match": '"1"'})
    assert response.status_code == 201
    response = client.put(
        f"{url}/1", json={"tricks": [0, 1, 0]}, headers={**game.auth, "If-Match": 'W/"2"'}
    )
    assert response.status_code == 200
    response = client.put(
        f"{url}/1", json={"tricks": [0, 0, 1]}, headers={**game.auth, "If-Match": "*"}
    )
    assert response.status_code == 200
    with api.unchanged(game):
        assert error_of(api.delete(game, 1, **{"If-Match": '"3"'})) == (409, "conflict")
    assert api.delete(game, 1, **{"If-Match": '"4"'}).status_code == 200


def test_a_change_coming_in_while_a_correction_reads_goes_first(
    app: Flask, api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite: a correction reads the game without the write turn, so another change of
    the game can come in before it writes; it is then made again after that change, as
    if the two had come one after the other. (PostgreSQL answers 409, as it always has.)"""
    game = api.create()
    fill(api, game, 2)
    check = rounds.check_round
    others: list[int] = []
    started: list[threading.Thread] = []

    def other() -> None:
        others.append(api.put(game, 2, tricks=[0, 2, 0]).status_code)

    def meanwhile(*args: Any) -> None:
        if not started:  # the first correction, after reading the game: another change
            started.append(threading.Thread(target=other))
            started[0].start()
            started[0].join(10)
        check(*args)

    monkeypatch.setattr(rounds, "check_round", meanwhile)
    response = api.put(game, 1, tricks=[0, 1, 0])
    assert others == [200]
    body = api.get(game)
    assert body["rounds"][1]["tricks"] == [0, 2, 0]
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        assert response.status_code == 200
        assert response.get_json() == body
        assert body["rounds"][0]["tricks"] == [0, 1, 0]
        assert body["version"] == game.data["version"] + 4
    else:
        assert error_of(response) == (409, "conflict")
        assert body["rounds"][0]["tricks"] == [1, 0, 0]
