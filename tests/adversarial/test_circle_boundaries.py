"""Circle boundaries: a circle's pages are its members' alone.

A stranger (holding no link) and a member of another circle get the same 404 for every
page, htmx fragment, export, import, rename or merge, setting and QR code of a circle —
with a valid CSRF token of their own session, so the refusal is the circle's and not the
form's — and the stored data is byte-identical afterwards. The routes are read from the
app's URL map, so a circle route added later is tried too. Nothing lists a game or a
player to a phone that holds no link; a view link shows its one game and nothing of the
circle around it.
"""

from __future__ import annotations

import io
import json
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import MetaData, select
from werkzeug.routing import Rule

from scorekeeper import engine, transaction
from scorekeeper.extensions import db
from scorekeeper.services import games as game_service

# The prefixes of a circle's own routes: every rule under them is tried.
CIRCLE_PREFIXES = ("/circles/", "/c/")
# Routes under those prefixes that belong to no circle (making one).
NOT_A_CIRCLES = {"/circles/new"}
HX = {"HX-Request": "true"}


def _csrf(client: FlaskClient) -> str:
    """A valid CSRF token of this client's own session (from a form it was shown)."""
    body = client.get("/circles/new").get_data(as_text=True)
    found = re.search(r'name="csrf_token" value="([^"]+)"', body)
    assert found, "no CSRF token on the new-circle form"
    return found.group(1)


@dataclass
class Member:
    """A phone that made a circle, with a game in it."""

    client: FlaskClient
    csrf: str
    circle: str  # the circle's public id
    key: str  # the secret part of its link
    games: list[str]
    players: dict[str, int]
    api_token: str

    @classmethod
    def make(cls, app: Flask, name: str, players: list[list[str]]) -> Member:
        client = app.test_client()
        csrf = _csrf(client)
        made = client.post(
            "/circles",
            data={"csrf_token": csrf, "idempotency_key": str(uuid.uuid4()), "name": name},
        )
        assert made.status_code == 303, made.get_data(as_text=True)
        circle = made.headers["Location"].split("?")[0].rsplit("/", 1)[1]
        games = []
        for names in players:
            created = client.post(
                "/games",
                data={
                    "csrf_token": csrf,
                    "idempotency_key": str(uuid.uuid4()),
                    "player": names,
                    "dealer": "0",
                    "circle": circle,
                },
            )
            assert created.status_code == 303, created.get_data(as_text=True)
            games.append(created.headers["Location"].split("?")[0].rsplit("/", 1)[1])
        home = client.get(f"/circles/{circle}").get_data(as_text=True)
        key = re.search(rf'href="http://localhost/c/{circle}/([^"]+)"', home).group(1)  # type: ignore[union-attr]
        token = re.search(r'<code class="share-link">([^<]+)</code>', home).group(1)  # type: ignore[union-attr]
        listed = client.get(f"/circles/{circle}/players").get_data(as_text=True)
        ids = {
            name: int(pid)
            for pid, name in re.findall(
                rf'href="/circles/{circle}/players/(\d+)">([^<]+)</a>', listed
            )
        }
        return cls(client, csrf, circle, key, games, ids, token)


def _finish_a_game(app: Flask, public_id: str) -> None:
    """Play the game to its end, so the circle has statistics, records and rivalries."""
    with app.app_context(), transaction.atomic():
        game = game_service.get_game(public_id)
        for cards in engine.plan_for(game_service.rules_of(game), game.player_count):
            game_service.record_round(game, [cards, 0, 1], [cards, 0, 0])
        db.session.commit()


@pytest.fixture
def victim(app: Flask) -> Member:
    """The circle under attack: two games (one finished), four players."""
    member = Member.make(
        app, "Elm Street Regulars", [["Anna", "Ben", "Cat"], ["Anna", "Ben", "Dan"]]
    )
    _finish_a_game(app, member.games[0])
    return member


@pytest.fixture
def other(app: Flask) -> Member:
    """A member of another circle on the same server."""
    return Member.make(app, "Mallory's circle", [["Mallory", "Trent", "Eve"]])


def dump(app: Flask) -> dict[str, list[str]]:
    """Every row of every table in the database (read from the database itself, so a
    table added later counts too), each as its repr, sorted."""
    with app.app_context():
        db.session.remove()
        meta = MetaData()
        meta.reflect(bind=db.engine)
        out = {}
        with db.engine.connect() as conn:
            for name, table in sorted(meta.tables.items()):
                out[name] = sorted(repr(tuple(row)) for row in conn.execute(select(table)))
        return out


def circle_rules(app: Flask) -> list[Rule]:
    rules = [
        rule
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith(CIRCLE_PREFIXES) and rule.rule not in NOT_A_CIRCLES
    ]
    for rule in rules:
        assert "circle_id" in rule.arguments, f"{rule.rule}: a circle route names its circle"
    return rules


def _url(rule: Rule, victim: Member, key: str) -> str:
    values: dict[str, Any] = {}
    for arg in rule.arguments:
        if arg == "circle_id":
            values[arg] = victim.circle
        elif arg == "player_id":
            values[arg] = victim.players["Anna"]
        elif arg == "key":
            values[arg] = key
        else:
            raise AssertionError(f"{rule.rule}: say here what to try for <{arg}>")
    path = rule.rule
    for arg, value in values.items():
        path = re.sub(rf"<(?:[^:<>]+:)?{arg}>", str(value), path)
    return path


def _form(attacker_csrf: str, victim: Member, export: bytes) -> Iterator[dict[str, Any]]:
    """What a POST could carry: every field any circle form reads, each way it reads it."""
    base = {"csrf_token": attacker_csrf, "name": "Mallory", "passphrase": "hijacked!"}
    for do in ("rename", "passphrase", "new-link", ""):
        yield {
            **base,
            "idempotency_key": str(uuid.uuid4()),
            "do": do,
            "other": str(victim.players["Ben"]),
            "file": (io.BytesIO(export), "history.json"),
        }


def _attackers(
    app: Flask, victim: Member, other: Member
) -> list[tuple[str, FlaskClient, str, str]]:
    """(who, client, their CSRF token, the link key they try) for each attacker."""
    stranger = app.test_client()
    wrong = victim.key[:-4] + ("AAAA" if not victim.key.endswith("AAAA") else "BBBB")
    return [
        ("stranger", stranger, _csrf(stranger), wrong),
        ("member of another circle", other.client, other.csrf, other.key),
    ]


def test_every_circle_route_is_404_to_a_stranger_and_to_another_circle(
    app: Flask, victim: Member, other: Member
) -> None:
    rules = circle_rules(app)
    endpoints = {rule.endpoint for rule in rules}
    # The routes this test knew of when it was written are all there (a renamed one
    # would otherwise slip out of the test unnoticed).
    assert {
        "web.open_circle",
        "web.unlock_circle",
        "web.circle_home",
        "web.circle_qr",
        "web.circle_settings",
        "web.forget",
        "web.games_list",
        "web.players_list",
        "web.player_page",
        "web.player_rename",
        "web.player_merge",
        "web.records_page",
        "web.transfer_page",
        "web.history_download",
        "web.history_upload",
    } <= endpoints
    export = other.client.get(f"/circles/{other.circle}/export/history.json").data
    assert json.loads(export)["games"]
    before = dump(app)
    tried = 0
    for who, client, csrf, key in _attackers(app, victim, other):
        for rule in rules:
            url = _url(rule, victim, key)
            for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
                if method == "GET":
                    asks: list[dict[str, Any]] = [{}, {"headers": HX}]
                    for query in ("", "?page=1", f"?player={victim.players['Ben']}"):
                        asks.append({"query_string": query.lstrip("?")})
                else:
                    asks = [{"data": form} for form in _form(csrf, victim, export)]
                    asks += [
                        {"data": {**form}, "headers": HX} for form in _form(csrf, victim, export)
                    ]
                for ask in asks:
                    answer = client.open(url, method=method, **ask)
                    tried += 1
                    assert answer.status_code == 404, (who, method, url, ask.get("headers"))
                    body = answer.get_data(as_text=True)
                    for secret in ("Elm Street Regulars", "Anna", *victim.games):
                        assert secret not in body, (who, method, url, secret)
                assert dump(app) == before, (who, method, url)
    assert tried > 100
    # The members themselves are still in, with everything as it was.
    assert victim.client.get(f"/circles/{victim.circle}").status_code == 200
    assert other.client.get(f"/circles/{other.circle}").status_code == 200


def test_a_circles_ids_dont_work_through_another_circle(
    app: Flask, victim: Member, other: Member
) -> None:
    """Mallory's own circle's pages, asked about Elm Street's players and games: nothing."""
    mine = f"/circles/{other.circle}"
    anna, ben = victim.players["Anna"], victim.players["Ben"]
    before = dump(app)
    for path in (f"{mine}/players/{anna}", f"{mine}/players/{ben}"):
        assert other.client.get(path).status_code == 404
        assert other.client.get(path, headers=HX).status_code == 404
    listed = other.client.get(f"{mine}/games", query_string={"player": anna})
    assert listed.status_code in (200, 404)
    for secret in victim.games:
        assert secret not in listed.get_data(as_text=True)
    mallory = other.players["Mallory"]
    for path, form in (
        (f"{mine}/players/{anna}/rename", {"name": "Mallory was here"}),
        (f"{mine}/players/{mallory}/merge", {"other": str(anna)}),
        (f"{mine}/players/{anna}/merge", {"other": str(mallory)}),
    ):
        data = {"csrf_token": other.csrf, "idempotency_key": str(uuid.uuid4()), **form}
        answer = other.client.post(path, data=data)
        assert answer.status_code in (404, 422), (path, answer.status_code)
        assert "Anna" not in answer.get_data(as_text=True)
    # An import naming Elm Street's games by their ids leaves them where they are.
    export = json.loads(other.client.get(f"{mine}/export/history.json").data)
    export["games"][0]["public_id"] = victim.games[0]
    upload = other.client.post(
        f"{mine}/import",
        data={
            "csrf_token": other.csrf,
            "idempotency_key": str(uuid.uuid4()),
            "file": (io.BytesIO(json.dumps(export).encode()), "history.json"),
        },
    )
    assert upload.status_code in (303, 422)
    after = dump(app)
    for table in ("game", "seat", "round", "round_result", "player", "circle", "rivalry"):
        assert after[table] == before[table], table
    # Mallory's export holds Mallory's circle only.
    text = other.client.get(f"{mine}/export/history.json").get_data(as_text=True)
    # Names as the file's strings ("Ben" may well turn up inside a random id).
    for secret in ('"Elm Street Regulars"', '"Anna"', '"Ben"', *victim.games):
        assert secret not in text


def test_a_game_in_another_circle_cant_be_taken_over_or_moved(
    app: Flask, victim: Member, other: Member
) -> None:
    before = dump(app)
    pid = victim.games[1]
    for path in (f"/games/{pid}/take-over", f"/games/{pid}/move"):
        answer = other.client.post(path, data={"csrf_token": other.csrf, "circle": other.circle})
        assert answer.status_code in (403, 404), path
    setup = other.client.post(
        "/games",
        data={
            "csrf_token": other.csrf,
            "idempotency_key": str(uuid.uuid4()),
            "player": ["Anna", "Ben", "Cat"],
            "dealer": "0",
            "circle": victim.circle,
        },
    )
    assert setup.status_code == 422
    assert dump(app) == before


def test_nothing_lists_a_game_or_a_player_to_a_phone_without_a_link(
    app: Flask, victim: Member, other: Member
) -> None:
    fresh = app.test_client()
    secrets = ["Elm Street Regulars", "Mallory's circle", victim.circle, other.circle]
    secrets += [*victim.games, *other.games, *victim.players, *other.players]
    for path in ("/", "/games/new", "/circles/new", "/games", "/players", "/records", "/export"):
        answer = fresh.get(path, follow_redirects=True)
        assert answer.status_code == 200, path
        body = answer.get_data(as_text=True)
        for secret in secrets:
            assert secret not in body, (path, secret)
    # The API's lists need a circle's token.
    for path in (
        "/api/v1/games",
        "/api/v1/circle",
        "/api/v1/circle/players",
        "/api/v1/circle/records",
    ):
        answer = fresh.get(path)
        assert answer.status_code in (401, 404), path
        for secret in secrets:
            assert secret not in answer.get_data(as_text=True), (path, secret)


def test_another_circles_token_opens_nothing_of_this_circle_over_the_api(
    app: Flask, victim: Member, other: Member
) -> None:
    auth = {"Authorization": f"Bearer {other.api_token}"}
    for pid in victim.players.values():
        assert other.client.get(f"/api/v1/circle/players/{pid}", headers=auth).status_code == 404
    for path in (
        "/api/v1/games",
        "/api/v1/circle",
        "/api/v1/circle/players",
        "/api/v1/circle/records",
    ):
        answer = other.client.get(path, headers=auth)
        assert answer.status_code == 200, path
        body = answer.get_data(as_text=True)
        for secret in ("Elm Street Regulars", "Anna", "Ben", victim.circle, *victim.games):
            assert secret not in body, (path, secret)
    # A token naming this circle with the other circle's key is no token at all.
    forged = {"Authorization": f"Bearer {victim.circle}.{other.api_token.split('.', 1)[1]}"}
    assert app.test_client().get("/api/v1/circle", headers=forged).status_code == 401


def test_a_view_link_shows_its_game_and_nothing_of_the_circle(app: Flask, victim: Member) -> None:
    """A follower of one game learns nothing of the circle: not its name, link or id,
    nor its other games or its players' pages."""
    follower = app.test_client()
    pid, elsewhere = victim.games
    rules = [
        r
        for r in app.url_map.iter_rules()
        if r.rule.startswith("/games/<public_id>")
        and "GET" in r.methods
        and set(r.arguments) <= {"public_id", "number"}
    ]
    assert rules
    for rule in rules:
        url = rule.rule.replace("<public_id>", pid).replace("<int:number>", "1")
        # A file (the printed pad, the picture) is the same to htmx; its text is not
        # read here (tests/web/test_picture.py reads the picture's, from its PDF).
        for headers in ({}, HX) if not url.endswith((".pdf", ".png")) else ({},):
            answer = follower.get(url, headers=headers)
            assert answer.status_code < 500, url
            body = (
                answer.data.decode(errors="replace")
                if answer.mimetype not in ("application/pdf", "image/png")
                else ""
            )
            for secret in (
                "Elm Street Regulars",
                victim.circle,
                victim.key,
                elsewhere,
                "/circles/",
            ):
                assert secret not in body, (url, secret)
