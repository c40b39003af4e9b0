"""Games in a circle: the circle's players, its known names, its statistics; one-off games
as easy as ever, and moved into a circle later."""

from __future__ import annotations

import re

from flask import Flask
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import Circle, Game, Player
from tests.circles.support import Phone, alert, shown, stat, text_of


def _chips(body: str) -> list[str]:
    """The known names the setup form offers with one tap."""
    return [
        text_of(c)
        for c in re.findall(
            r'<button class="chip"[^>]*value="name:[^>]*>(.*?)</button>', body, re.S
        )
    ]


def _players_of(app: Flask, circle_id: str | None) -> list[str]:
    """The stored players of a circle (by public id), or of no circle, by name."""
    with app.app_context():
        query = select(Player.name).order_by(Player.key)
        if circle_id is None:
            query = query.where(Player.circle_id.is_(None))
        else:
            query = query.join(Circle, Circle.id == Player.circle_id).where(
                Circle.public_id == circle_id
            )
        return list(db.session.scalars(query))


def _circle_of_game(app: Flask, pid: str) -> str | None:
    with app.app_context():
        return db.session.scalar(
            select(Circle.public_id)
            .join(Game, Game.circle_id == Circle.id)
            .where(Game.public_id == pid)
        )


def test_a_game_set_up_in_the_circle_is_played_by_its_players(app: Flask, anna: Phone) -> None:
    circle_id = anna.make_circle()
    form = shown(anna.client.get(f"/games/new?circle={circle_id}")).get_data(as_text=True)
    assert re.search(rf'name="circle" value="{circle_id}"\s*checked', form)
    first = anna.game_in(circle_id, ["Anna", "Ben", "Cat"])
    second = anna.game_in(circle_id, ["ben", "ANNA", "Dan"])
    assert _circle_of_game(app, first) == _circle_of_game(app, second) == circle_id
    # The same names (whatever their case) are the same people.
    assert _players_of(app, circle_id) == ["Anna", "Ben", "Cat", "Dan"]
    assert _players_of(app, None) == []
    assert set(anna.player_ids(circle_id)) == {"Anna", "Ben", "Cat", "Dan"}
    games = shown(anna.client.get(f"/circles/{circle_id}/games")).get_data(as_text=True)
    assert f"/games/{first}" in games and f"/games/{second}" in games
    # The game page says which circle it belongs to.
    page = shown(anna.page(first)).get_data(as_text=True)
    assert f'href="/circles/{circle_id}"' in page


def test_the_setup_form_offers_the_circles_names_only(anna: Phone, ben: Phone) -> None:
    ours = anna.make_circle("Thursday")
    theirs = anna.make_circle("Family")
    anna.game_in(ours, ["Anna", "Ben", "Cat"])
    anna.game_in(theirs, ["Dora", "Emil", "Fritz"])
    assert sorted(_chips(anna.client.get(f"/games/new?circle={ours}").get_data(as_text=True))) == [
        "Anna",
        "Ben",
        "Cat",
    ]
    family = anna.client.get(f"/games/new?circle={theirs}").get_data(as_text=True)
    assert sorted(_chips(family)) == ["Dora", "Emil", "Fritz"]
    # Choosing another circle on the form (htmx posts the form back) swaps the names.
    swapped = anna.client.post(
        "/games/new", data={"circle": ours, "player": ["", "", ""]}, headers={"HX-Request": "true"}
    )
    assert sorted(_chips(swapped.get_data(as_text=True))) == ["Anna", "Ben", "Cat"]
    one_off = anna.client.post("/games/new", data={"circle": "", "player": ["", "", ""]})
    assert _chips(one_off.get_data(as_text=True)) == []
    # Ben holds Thursday's link only: Family's names are nowhere on his form.
    ben.open(anna.link(ours))
    for url in ("/games/new", f"/games/new?circle={theirs}"):
        body = ben.client.get(url).get_data(as_text=True)
        assert "Dora" not in body and "Family" not in body, url
        assert f'value="{theirs}"' not in body, url
    sneaked = ben.client.post("/games/new", data={"circle": theirs, "player": ["", "", ""]})
    assert "Dora" not in sneaked.get_data(as_text=True)


def test_a_phone_cant_set_up_a_game_in_a_circle_it_doesnt_hold(
    app: Flask, anna: Phone, stranger: Phone
) -> None:
    circle_id = anna.make_circle()
    refused = stranger.create(["Anna", "Ben", "Cat"], circle=circle_id)
    assert refused.status_code == 422
    assert alert(refused) == "This phone can't open that circle: open its link first."
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 0
        assert db.session.scalar(select(func.count()).select_from(Player)) == 0


def test_two_circles_anna_are_two_players_with_their_own_statistics(
    app: Flask, anna: Phone
) -> None:
    thursday = anna.make_circle("Thursday")
    family = anna.make_circle("Family")
    # Anna deals round 1 in both games: exact on Thursday, a miss in the family.
    at_thursday = anna.game_in(thursday, ["Anna", "Ben", "Cat"])
    anna.exact_round(at_thursday, 1)
    anna.exact_round(at_thursday, 2)
    at_home = anna.game_in(family, ["Anna", "Dora", "Emil"])
    anna.missed_round(at_home, 1)
    with app.app_context():
        annas = db.session.scalars(select(Player).where(Player.key == "anna")).all()
        assert len(annas) == 2 and annas[0].circle_id != annas[1].circle_id
    thursday_anna = anna.player_page(thursday, "Anna")
    family_anna = anna.player_page(family, "Anna")
    assert stat(thursday_anna, "Games played") == "1 (1 ongoing)"
    assert stat(family_anna, "Games played") == "1 (1 ongoing)"
    assert stat(thursday_anna, "Exact bids") == "2 of 2 (100%)"
    assert stat(family_anna, "Exact bids") == "0 of 1 (0%)"
    # Each circle's pages know their own players only.
    assert set(anna.player_ids(thursday)) == {"Anna", "Ben", "Cat"}
    assert set(anna.player_ids(family)) == {"Anna", "Dora", "Emil"}
    family_ids = anna.player_ids(family)
    assert anna.client.get(f"/circles/{thursday}/players/{family_ids['Anna']}").status_code == 404
    assert anna.client.get(f"/circles/{thursday}/players/{family_ids['Dora']}").status_code == 404
    listed = anna.client.get(f"/circles/{thursday}/games?player={family_ids['Anna']}")
    assert at_home not in listed.get_data(as_text=True)


def test_a_one_off_game_needs_no_circle_and_shows_its_scorer_link_with_a_warning(
    app: Flask, stranger: Phone, ben: Phone
) -> None:
    form = shown(stranger.client.get("/games/new")).get_data(as_text=True)
    assert 'type="radio" name="circle"' not in form  # nothing to choose: no circle yet
    created = stranger.create(["Anna", "Ben", "Cat"])
    assert created.status_code == 303
    location = created.headers["Location"]
    assert location.endswith("?welcome=1")
    pid = location.split("?")[0].rsplit("/", 1)[1]
    assert _circle_of_game(app, pid) is None
    welcome = stranger.client.get(location)
    assert welcome.status_code == 200
    assert welcome.headers["Cache-Control"] == "private, no-store"
    body = welcome.get_data(as_text=True)
    text = text_of(body)
    assert "Keep the scorer link" in text and "only key" in text
    found = re.search(r'href="(http://localhost/games/[^"]+/score/[^"]+)"', body)
    assert found, "no scorer link on the welcome page"
    # The link is the real key: another phone keeps score with it.
    claimed = ben.client.get(found.group(1).removeprefix("http://localhost"))
    assert claimed.status_code in (302, 303)
    shown(ben.bid(pid, 1, 0))
    # Nobody can take the game over: it has no circle.
    assert "take-over" not in ben.page(pid).get_data(as_text=True)
    assert _players_of(app, None) == ["Anna", "Ben", "Cat"]


def test_moving_a_one_off_game_into_a_circle_counts_it_for_the_circles_players(
    app: Flask, anna: Phone
) -> None:
    circle_id = anna.make_circle("Thursday")
    at_thursday = anna.game_in(circle_id, ["Anna", "Ben", "Cat"])
    anna.exact_round(at_thursday, 1)
    one_off = anna.new_game(["ANNA", "Ben", "Zoe"])
    anna.exact_round(one_off, 1)
    anna.exact_round(one_off, 2)
    before = anna.player_page(circle_id, "Anna")
    assert stat(before, "Games played") == "1 (1 ongoing)"
    assert stat(before, "Exact bids") == "1 of 1 (100%)"
    assert "Zoe" not in anna.player_ids(circle_id)

    form = shown(anna.client.get(f"/games/{one_off}/move")).get_data(as_text=True)
    assert circle_id in form and "Thursday" in form
    moved = anna.client.post(f"/games/{one_off}/move", data={"circle": circle_id})
    assert moved.status_code == 303 and moved.headers["Location"] == f"/games/{one_off}"
    assert _circle_of_game(app, one_off) == circle_id
    page = shown(anna.client.get(f"/games/{one_off}?all=1")).get_data(as_text=True)
    assert "Moved into a circle" in text_of(page)
    assert f'href="/circles/{circle_id}"' in page
    # ANNA and Ben joined the circle's Anna and Ben; Zoe is new to the circle.
    assert _players_of(app, circle_id) == ["Anna", "Ben", "Cat", "Zoe"]
    assert _players_of(app, None) == []
    after = anna.player_page(circle_id, "Anna")
    assert stat(after, "Games played") == "2 (2 ongoing)"
    assert stat(after, "Exact bids") == "3 of 3 (100%)"
    assert stat(anna.player_page(circle_id, "Ben"), "Games played") == "2 (2 ongoing)"
    assert stat(anna.player_page(circle_id, "Zoe"), "Exact bids") == "2 of 2 (100%)"
    games = anna.client.get(f"/circles/{circle_id}/games").get_data(as_text=True)
    assert f"/games/{one_off}" in games
    # The pad still shows the game as it was played, and it goes on being scored.
    shown(anna.bid(one_off, 0, 0))


def test_a_game_moves_only_by_its_scorer_into_one_of_their_circles(
    app: Flask, anna: Phone, ben: Phone, stranger: Phone
) -> None:
    circle_id = anna.make_circle("Thursday")
    bens = ben.make_circle("Ben's")
    one_off = anna.new_game(["Anna", "Ben", "Cat"])
    ben.open(anna.link(circle_id))
    # Ben is in the circle but doesn't keep score of the game; the stranger only views it.
    assert ben.client.post(f"/games/{one_off}/move", data={"circle": circle_id}).status_code == 403
    assert ben.client.get(f"/games/{one_off}/move").status_code == 403
    assert (
        stranger.client.post(f"/games/{one_off}/move", data={"circle": circle_id}).status_code
        == 403
    )
    # Anna keeps score but doesn't hold Ben's circle.
    refused = anna.client.post(f"/games/{one_off}/move", data={"circle": bens})
    assert refused.status_code == 422
    assert alert(refused) == "Choose one of your circles."
    assert _circle_of_game(app, one_off) is None
    assert _players_of(app, None) == ["Anna", "Ben", "Cat"]


def test_a_game_in_a_circle_stays_there(app: Flask, anna: Phone) -> None:
    thursday = anna.make_circle("Thursday")
    family = anna.make_circle("Family")
    pid = anna.game_in(thursday, ["Anna", "Ben", "Cat"])
    assert anna.client.get(f"/games/{pid}/move").status_code == 404
    refused = anna.client.post(f"/games/{pid}/move", data={"circle": family})
    assert 400 <= refused.status_code < 500
    assert _circle_of_game(app, pid) == thursday
    assert _players_of(app, thursday) == ["Anna", "Ben", "Cat"]
    assert _players_of(app, family) == []


def test_a_view_link_export_does_not_name_the_circle(
    app: Flask, anna: Phone, ben: Phone, stranger: Phone
) -> None:
    # A view link shows that one game and nothing else: not the name of the circle it
    # was moved into (its change log keeps it for the scorer and the circle's people).
    circle_id = anna.make_circle("Secret Society of Thursday")
    one_off = anna.new_game(["Anna", "Ben", "Cat"])
    anna.exact_round(one_off, 1)
    assert anna.client.post(f"/games/{one_off}/move", data={"circle": circle_id}).status_code == 303
    ben.open(anna.link(circle_id))
    follower = stranger.client.get(f"/games/{one_off}/export.json")
    assert follower.status_code == 200
    assert "Secret Society" not in follower.get_data(as_text=True)
    moved = [c for c in follower.get_json()["game"]["changes"] if c["action"] == "circle"]
    assert len(moved) == 1 and "circle" not in (moved[0]["data"] or {})
    for phone in (anna, ben):  # the scorer, and a member of the circle
        export = phone.client.get(f"/games/{one_off}/export.json").get_json()
        moved = [c for c in export["game"]["changes"] if c["action"] == "circle"]
        assert moved[0]["data"] == {"circle": "Secret Society of Thursday"}
