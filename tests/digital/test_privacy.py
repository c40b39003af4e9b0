"""The phone passed round the table never shows a hand without its cover: not the setup's
answer, not the host page, not a seat link it was shown before (Back, history, a
bookmark), not a live update, not a move or Play again sent from such a page."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper import transaction
from scorekeeper.engine import RuleSet
from scorekeeper.extensions import db
from scorekeeper.services import digital as service
from scorekeeper.services import games as game_service
from tests.digital.support import SETUP_FORM, public_id_of

HX = {"HX-Request": "true"}
HAND = re.compile(r'data-(?:card|seen-card)="')
# Ann and Cat are people, Ben a bot (SETUP_FORM); Ben deals, so Cat bids first.
ONE_PHONE = {**SETUP_FORM, "phones": "one"}


def shows_a_hand(response: TestResponse) -> bool:
    return bool(HAND.search(response.get_data(as_text=True)))


def follow(client: FlaskClient, response: TestResponse) -> TestResponse:
    """Follow redirects as a browser does (an htmx answer's HX-Redirect too)."""
    for _ in range(5):
        target = response.headers.get("HX-Redirect") or (
            response.headers.get("Location") if response.status_code in (302, 303) else None
        )
        if not target:
            return response
        response = client.get(urlsplit(target).path)
    raise AssertionError("a redirect loop")


def every_way_into(path: str) -> list[tuple[str, str, dict[str, str]]]:
    """The requests a browser that was shown a seat link can still make with it."""
    return [
        ("GET", path, {}),
        ("GET", path, HX),
        ("GET", f"{path}/live", HX),
        ("GET", f"{path}/live", {}),
        ("POST", f"{path}/act", HX),
        ("POST", f"{path}/act", {}),
        ("POST", f"{path}/again", {}),
    ]


def test_one_phone_passed_round_gets_no_seat_links_at_all(app: Flask, client: FlaskClient) -> None:
    created = client.post("/digital/new", data=ONE_PHONE)
    assert created.status_code == 303
    location = urlsplit(created.headers["Location"]).path
    assert "/t/" in location  # straight to the table's cover, no seat-links page
    public_id = public_id_of(location)
    with app.app_context():
        table = service.get_table(public_id)
        # No seat has a link: a hand opens only under the cover, with the table link.
        assert [s.get("secret") for s in table.seats] == [None, None, None]
    cover = client.get(location)
    assert cover.status_code == 200 and not shows_a_hand(cover)
    assert "Tap when only Cat is looking" in cover.get_data(as_text=True)
    # The host page has nothing to hand out: it leads to the same cover.
    host = follow(client, client.get(f"/digital/{public_id}/"))
    assert urlsplit(host.request.url).path == location
    assert not shows_a_hand(host) and "data-seat-link" not in host.get_data(as_text=True)


def test_phones_of_their_own_still_get_their_links(client: FlaskClient) -> None:
    created = client.post("/digital/new", data=SETUP_FORM)
    host = client.get(created.headers["Location"]).get_data(as_text=True)
    assert host.count("data-seat-link=") == 2  # Ann's and Cat's; Ben is a bot


def test_after_the_table_link_no_seat_link_shown_before_shows_a_hand(
    app: Flask, client: FlaskClient
) -> None:
    """The host browser was shown every seat link, opened them (before the table was
    opened there, each shows its hand: they are the links to hand out), then became the
    phone passed round: every one of those links, every way, now leads to the cover."""
    created = client.post("/digital/new", data=SETUP_FORM)
    host_path = urlsplit(created.headers["Location"]).path
    host = client.get(host_path).get_data(as_text=True)
    seat_links = [urlsplit(u).path for u in re.findall(r'href="([^"]+)" data-seat-link=', host)]
    table_link = urlsplit(re.findall(r'href="([^"]+)" data-table-link', host)[0]).path
    assert len(seat_links) == 2
    assert all(shows_a_hand(client.get(link)) for link in seat_links)
    public_id = public_id_of(host_path)
    with app.app_context():
        state = dict(service.get_table(public_id).state)

    cover = client.get(table_link)
    assert cover.status_code == 200 and not shows_a_hand(cover)
    reached = 0
    for link in [host_path, *seat_links]:
        ways = [("GET", link, {}), ("GET", link, HX)] if link == host_path else every_way_into(link)
        for method, path, headers in ways:
            data = {"action": "bid", "value": "0", "seq": "0"} if method == "POST" else None
            answer = client.open(path, method=method, headers=headers, data=data)
            assert answer.status_code < 400, (method, path)
            landed = follow(client, answer)
            assert not shows_a_hand(answer) and not shows_a_hand(landed), (method, path, headers)
            assert urlsplit(landed.request.url).path == table_link, (method, path)
            reached += 1
    assert reached == 2 + 2 * 7
    with app.app_context():
        # Not a move was made from those pages.
        assert dict(service.get_table(public_id).state) == state
    # The home page's way back to this table is its cover, too.
    home = client.get("/").get_data(as_text=True)
    assert f'href="{table_link}" data-running-table="{public_id}"' in home
    assert not any(link in home for link in seat_links)


def test_the_cover_opens_only_the_hand_of_a_player_whose_turn_it_is(app: Flask) -> None:
    with app.app_context(), transaction.atomic():
        made = service.create_table(
            ["Ann", "Ben", "Cat"], ["person", "person", "bot"], 2, RuleSet(), seed=4
        )
        public_id, token = made.game.public_id, made.table_token
    phone = app.test_client()
    base = f"/digital/{public_id}/t/{token}"
    phone.get(base)
    # Ann bids first (Cat deals): Ben's hand stays covered, even when asked for.
    asked = phone.post(f"{base}/reveal", data={"seat": "1"}, headers=HX)
    assert asked.status_code == 200 and not shows_a_hand(asked)
    assert not shows_a_hand(phone.get(base))
    opened = phone.post(f"{base}/reveal", data={"seat": "0"}, headers=HX)
    assert shows_a_hand(opened)
    seq = re.search(r'name="seq" value="(\d+)"', opened.get_data(as_text=True))
    assert seq
    phone.post(f"{base}/act", data={"action": "bid", "value": "0", "seq": seq.group(1)})
    # Ann's turn is over: Back to the page that showed her hand finds the cover.
    for way in (phone.get(base), phone.get(f"{base}/live", headers=HX)):
        assert not shows_a_hand(way)
    # A reveal of Ann left over from before: still the cover while Ben is to bid.
    with phone.session_transaction() as session:
        session["digital_reveal"] = {public_id: 0}
    assert not shows_a_hand(phone.get(base))


def test_one_person_against_bots_goes_straight_to_the_hand(app: Flask, client: FlaskClient) -> None:
    form = {**SETUP_FORM, "kind2": "bot", "name2": ""}
    created = client.post("/digital/new", data=form)
    location = urlsplit(created.headers["Location"]).path
    assert "/s/" in location  # no seat-links page, no QR code for one's own seat
    assert shows_a_hand(client.get(location))
    public_id = public_id_of(location)
    host = client.get(f"/digital/{public_id}/")
    assert host.status_code == 303 and urlsplit(host.headers["Location"]).path == location
    home = client.get("/").get_data(as_text=True)
    assert f'href="{location}" data-running-table="{public_id}"' in home
    # Another browser holds no way in.
    assert public_id not in app.test_client().get("/").get_data(as_text=True)


def test_a_deleted_table_is_not_offered_on_the_home_page(app: Flask, client: FlaskClient) -> None:
    created = client.post("/digital/new", data=ONE_PHONE)
    public_id = public_id_of(created.headers["Location"])
    assert f'data-running-table="{public_id}"' in client.get("/").get_data(as_text=True)
    with app.app_context():
        game = game_service.get_game(public_id)
        game.deleted_at = game.created_at
        db.session.commit()
    assert f'data-running-table="{public_id}"' not in client.get("/").get_data(as_text=True)
