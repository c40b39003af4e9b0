"""The digital table's setup form: a seat is a person (named), a bot (named, or given a
name of its own) or nobody; seats left out close up (R2: 3 to 6 players)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.services import games as game_service
from tests.digital.support import SETUP_FORM
from tests.digital.test_setup_retries import tables
from tests.web.support import alert


def deal(client: FlaskClient, **seats: str) -> Any:
    form = {k: v for k, v in SETUP_FORM.items() if not k.startswith(("name", "kind"))}
    form["first_dealer"] = "0"
    return client.post("/digital/new", data={**form, **seats})


def seated(app: Flask, response: Any) -> list[str]:
    assert response.status_code == 303, alert(response)
    public_id = response.headers["Location"].rstrip("/").rsplit("/", 1)[1]
    with app.app_context():
        names = game_service.names_of(game_service.get_game(public_id))
        db.session.remove()
        return names


def test_one_person_and_three_bots_left_unnamed(app: Flask, client: FlaskClient) -> None:
    response = deal(client, name0="Ann", kind0="person", kind1="bot", kind2="bot", kind3="bot")
    assert seated(app, response) == ["Ann", "Merlin", "Morgana", "Nimue"]


def test_a_bot_name_a_player_has_is_skipped(app: Flask, client: FlaskClient) -> None:
    response = deal(client, name0="Merlin", kind0="person", name1="Robo", kind1="bot", kind2="bot")
    assert seated(app, response) == ["Merlin", "Robo", "Morgana"]


def test_nobody_and_unnamed_people_leave_no_seat(app: Flask, client: FlaskClient) -> None:
    response = deal(
        client,
        name0="Ann",
        kind0="person",
        name1="Ben",
        kind1="none",
        kind2="person",
        name3="Cat",
        kind3="person",
        kind4="bot",
        kind5="none",
    )
    assert seated(app, response) == ["Ann", "Cat", "Merlin"]


def test_the_form_offers_nobody_for_the_last_three_seats(client: FlaskClient) -> None:
    page = client.get("/digital/new").get_data(as_text=True)
    for seat in (3, 4, 5):
        select = page.split(f'name="kind{seat}"')[1].split("</select>")[0]
        assert 'value="none" selected' in select
    for seat in (0, 1, 2):
        select = page.split(f'name="kind{seat}"')[1].split("</select>")[0]
        assert 'value="person" selected' in select


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        ({"name0": "Ann", "kind0": "person"}, "Wizard is played by 3 to 6 players, not 1."),
        (
            {"name0": "Ann", "kind0": "person", "kind1": "robot", "name1": "R", "name2": "C"},
            "Each seat is played by a person or a bot.",
        ),
        ({"kind0": "bot", "kind1": "bot", "kind2": "bot"}, "At least one seat must be a person."),
    ],
)
def test_a_table_that_can_not_be_dealt_is_refused_in_words(
    app: Flask, client: FlaskClient, seats: dict[str, str], message: str
) -> None:
    before = tables(app)
    response = deal(client, **seats)
    assert response.status_code == 422
    assert alert(response) == message
    assert tables(app) == before


def test_the_round_just_played_reads_in_the_pads_order(app: Flask) -> None:
    """After round 1 a seat sees the round as the pad has it: bid, took, score, total
    (R16), each player on a line."""
    from scorekeeper.engine import RuleSet
    from tests.digital.support import Table
    from tests.web.support import text_of

    table = Table.create(app, RuleSet(), ["person", "bot", "bot"])
    game = table.play_rounds(rounds=1, scan_all=False)
    entry = game.history[0]
    assert entry.tricks is not None
    body = table.get(0)
    summary = body.split('class="round-summary')[1].split("</table>")[0]
    assert text_of(summary.split("<tbody>")[0]).endswith("Player Bid Took Score Total")
    for seat, name in enumerate(["Ann", "Ben", "Cat"]):
        bid, took, total = entry.bids[seat], entry.tricks[seat], game.totals[seat]
        score = f"+{total}" if total > 0 else str(total).replace("-", "\N{MINUS SIGN}")
        line = f"{name} {bid} {took} {score} {str(total).replace('-', chr(0x2212))}"
        assert line in text_of(summary), (line, text_of(summary))


def test_the_pad_shows_the_open_rounds_trump(app: Flask) -> None:
    """R7: the trump the table turned up is on the game's pad while the round is played
    (before: "not recorded")."""
    from scorekeeper.engine import RuleSet
    from scorekeeper.services.padview import suit_label
    from tests.digital.support import Table
    from tests.web.support import section, text_of

    table = Table.create(app, RuleSet(), ["person", "bot", "bot"])
    game = table.play_rounds(rounds=1, scan_all=False)
    assert game.round_number == 2 and game.turned is not None
    page = app.test_client().get(f"/games/{table.public_id}").get_data(as_text=True)
    trump = text_of(section(page, "entry")).split("Trump", 1)[1][:40]
    if game.trump is None:
        assert trump.strip().startswith("No trump")
    else:
        with app.test_request_context():
            assert suit_label(game.trump, game.rules) in trump
    assert "not recorded" not in trump


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
def test_the_bots_play_at_the_level_chosen_on_the_form(
    app: Flask, client: FlaskClient, level: str
) -> None:
    from scorekeeper.services import digital as service

    form = client.get("/digital/new").get_data(as_text=True)
    assert 'name="level" value="normal" checked' in form  # the everyday bot by default
    response = deal(client, name0="Ann", kind0="person", kind1="bot", kind2="bot", level=level)
    public_id = response.headers["Location"].rstrip("/").rsplit("/", 1)[1]
    with app.app_context():
        table = service.get_table(public_id)
        assert [service.bot_level(table, s) for s in range(3)] == [None, level, level]


def test_a_bot_level_that_is_not_one_is_refused_on_the_form(
    app: Flask, client: FlaskClient
) -> None:
    before = tables(app)
    response = deal(client, name0="Ann", kind0="person", kind1="bot", kind2="bot", level="god")
    assert response.status_code == 422
    assert alert(response) == "The bots play easy, normal or strong."
    assert 'name="level" value="easy"' in response.get_data(as_text=True)
    assert tables(app) == before
