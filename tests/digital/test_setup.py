"""The digital table's setup form: a seat is a person (named), a bot (named, or given a
name of its own) or nobody; seats left out close up (R2: 3 to 6 players)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import transaction
from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.services import games as game_service
from tests.digital.support import SETUP_FORM, public_id_of
from tests.digital.test_setup_retries import tables
from tests.web.support import Pages, alert


def deal(client: FlaskClient, **seats: str) -> Any:
    form = {k: v for k, v in SETUP_FORM.items() if not k.startswith(("name", "kind"))}
    form["first_dealer"] = "0"
    return client.post("/digital/new", data={**form, **seats})


def seated(app: Flask, response: Any) -> list[str]:
    assert response.status_code == 303, alert(response)
    public_id = public_id_of(response.headers["Location"])
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


def test_the_pad_marks_the_bots(app: Flask, client: FlaskClient) -> None:
    """Bots are not people: the game's pad says which players are bots; a score pad game
    marks nobody."""
    from scorekeeper.engine import RuleSet
    from tests.digital.support import Table
    from tests.web.support import section

    table = Table.create(app, RuleSet(), ["person", "bot", "person", "bot"])
    page = client.get(f"/games/{table.public_id}").get_data(as_text=True)
    heads = re.findall(r'<th scope="colgroup".*?</th>', section(page, "pad"), re.S)
    assert ["data-bot" in h for h in heads] == [False, True, False, True]
    with app.app_context(), transaction.atomic():
        pad_game, _ = game_service.create_game(["Ann", "Ben", "Cat"], 0, RuleSet())
        db.session.commit()
        public_id = pad_game.public_id
    pad_page = client.get(f"/games/{public_id}")
    assert pad_page.status_code == 200 and "data-bot" not in pad_page.get_data(as_text=True)


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
def test_the_bots_play_at_the_level_chosen_on_the_form(
    app: Flask, client: FlaskClient, level: str
) -> None:
    from scorekeeper.services import digital as service

    form = client.get("/digital/new").get_data(as_text=True)
    assert 'name="level" value="normal" checked' in form  # the everyday bot by default
    response = deal(client, name0="Ann", kind0="person", kind1="bot", kind2="bot", level=level)
    public_id = public_id_of(response.headers["Location"])
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


# -- known players: one tap seats a name, as on the score pad's setup ----------------------


def chips(body: str) -> dict[str, str]:
    """The known-player chips: name → aria-pressed."""
    return dict(
        (name, pressed)
        for name, pressed in re.findall(
            r'value="name:([^"]*)"[^>]*aria-pressed="(true|false)"', body
        )
    )


def names_in(body: str) -> list[str]:
    return [re.search(rf'name="name{i}" value="([^"]*)"', body).group(1) for i in range(6)]  # type: ignore[union-attr]


def edit(client: FlaskClient, names: list[str], kinds: list[str], do: str) -> Any:
    form = {k: v for k, v in SETUP_FORM.items() if not k.startswith(("name", "kind"))}
    form |= {f"name{i}": n for i, n in enumerate(names)}
    form |= {f"kind{i}": k for i, k in enumerate(kinds)}
    return client.post("/digital/new/edit", data={**form, "do": do})


def test_known_players_are_offered_and_seated_in_one_tap(app: Flask, client: FlaskClient) -> None:
    pages = Pages(client)
    circle = pages.make_circle("Thursday")
    pages.new_game(["Ann", "Ben", "Cat"], circle=circle)
    body = client.get("/digital/new").get_data(as_text=True)
    assert chips(body) == {"Ann": "false", "Ben": "false", "Cat": "false"}
    games_before = count_games(app)

    kinds = ["person", "bot", "bot", "none", "none", "none"]
    tapped = edit(client, ["", "", "", "", "", ""], kinds, "name:Ben")
    body = tapped.get_data(as_text=True)
    assert tapped.status_code == 200
    assert names_in(body) == ["Ben", "", "", "", "", ""]
    assert chips(body)["Ben"] == "true"
    # The next name goes to the next seat that is not a bot's, which becomes a person's.
    body = edit(client, names_in(body), kinds, "name:Ann").get_data(as_text=True)
    assert names_in(body) == ["Ben", "", "", "Ann", "", ""]
    assert re.search(r'name="kind3"[^>]*>.*?<option value="person"\s+selected', body, re.S)
    # Tapped again: off its seat.
    body = edit(client, names_in(body), kinds, "name:Ben").get_data(as_text=True)
    assert names_in(body) == ["", "", "", "Ann", "", ""]
    assert chips(body)["Ben"] == "false"
    assert count_games(app) == games_before  # a tap stores nothing


def test_a_phone_without_a_circle_has_no_chips(client: FlaskClient) -> None:
    body = client.get("/digital/new").get_data(as_text=True)
    assert chips(body) == {}


@pytest.mark.parametrize(
    ("do", "words"),
    [
        ("zap", "That button is not on this form."),
        ("name:", "Each player needs a name."),
        ("name:" + "x" * 5000, "is too long"),
        ("name:Ann\x07", "control characters"),
    ],
)
def test_a_forged_tap_is_refused_in_words(
    app: Flask, client: FlaskClient, do: str, words: str
) -> None:
    before = count_games(app)
    answer = edit(client, ["Max", "", "", "", "", ""], ["person"] * 6, do)
    assert answer.status_code == 422
    assert words in html.unescape(alert(answer))
    assert names_in(answer.get_data(as_text=True))[0] == "Max"  # the form as it was sent
    assert count_games(app) == before


def test_a_name_with_no_free_seat_is_refused(client: FlaskClient) -> None:
    answer = edit(client, ["A", "B", "C", "D", "E", "F"], ["person"] * 6, "name:Ann")
    assert answer.status_code == 422
    assert "Every seat is taken" in alert(answer)


def count_games(app: Flask) -> int:
    with app.app_context():
        count = db.session.query(Game).count()
        db.session.remove()
        return count


def kinds_in(body: str) -> list[str]:
    return [
        re.search(rf'name="kind{i}"[^>]*>.*?<option value="(\w+)"\s+selected', body, re.S).group(1)  # type: ignore[union-attr]
        for i in range(6)
    ]


def test_you_against_bots_in_one_tap(app: Flask, client: FlaskClient) -> None:
    before = count_games(app)
    names = ["Ann", "Ben", "Robo", "", "", ""]
    kinds = ["person", "person", "bot", "none", "none", "none"]
    body = edit(client, names, kinds, "bots:3").get_data(as_text=True)
    # The first seat is yours; a bot keeps the name it had, a person's seat is a bot's now.
    assert kinds_in(body) == ["person", "bot", "bot", "bot", "none", "none"]
    assert names_in(body) == ["Ann", "", "Robo", "", "", ""]
    assert count_games(app) == before  # a tap stores nothing


@pytest.mark.parametrize("do", ["bots:1", "bots:6", "bots:x", "bots:" + "9" * 500])
def test_a_forged_number_of_bots_is_refused(app: Flask, client: FlaskClient, do: str) -> None:
    answer = edit(client, ["Max", "", "", "", "", ""], ["person"] * 6, do)
    assert answer.status_code == 422
    assert "That button is not on this form." in alert(answer)
    assert kinds_in(answer.get_data(as_text=True)) == ["person"] * 6


def test_the_next_setup_is_this_phones_last_table(app: Flask, client: FlaskClient) -> None:
    fresh = client.get("/digital/new").get_data(as_text=True)
    assert "As at your last table" not in fresh
    assert kinds_in(fresh) == ["person", "person", "person", "none", "none", "none"]
    created = deal(
        client,
        name0="Ann",
        kind0="person",
        kind1="bot",
        name2="Robo",
        kind2="bot",
        level="strong",
        bidding="hidden",
    )
    assert created.status_code == 303
    body = client.get("/digital/new").get_data(as_text=True)
    assert "As at your last table" in body
    # The bot left unnamed is left unnamed again (it gets its name at the next deal).
    assert names_in(body) == ["Ann", "", "Robo", "", "", ""]
    assert kinds_in(body) == ["person", "bot", "bot", "none", "none", "none"]
    assert 'name="level" value="strong" checked' in body
    assert re.search(r'<option value="hidden"\s+selected', body)
    # Another phone starts from the book's setup.
    other = app.test_client().get("/digital/new").get_data(as_text=True)
    assert "As at your last table" not in other and names_in(other)[0] == ""
