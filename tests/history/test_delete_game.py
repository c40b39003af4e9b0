"""Deleting a game, and its Undo: the game leaves the lists, the statistics and records,
its pages and links answer 404, until it is brought back as it was. Only its scorer or
someone in its circle may do either; every refusal leaves everything as it was."""

from __future__ import annotations

import html
import json
import logging
import random
import re
import secrets
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper import transaction
from scorekeeper.engine import RuleSet
from scorekeeper.extensions import db
from scorekeeper.models import Change, Game, Player, PlayerCards, Rivalry
from scorekeeper.services import circles as circle_service
from scorekeeper.services import digital as digital_service
from scorekeeper.services import games as game_service
from scorekeeper.services import history, stats, transfer
from tests.history.support import Fixture, join, random_history, the_circle
from tests.web.support import Pages, keep_score_without_link

REFUSED = "Only the table can delete this game"


@pytest.fixture
def app(app: Flask) -> Flask:
    app.config["WTF_CSRF_ENABLED"] = False
    return app


def _text(body: str) -> str:
    body = re.sub(r'<span class="visually-hidden">.*?</span>', "", body, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def _ids(body: str) -> list[str]:
    return re.findall(r'<a class="game-main" href="/games/([\w-]+)"', body)


def _delete(client: FlaskClient, pid: str, back: str = "circle", **data: str) -> Any:
    return client.post(f"/games/{pid}/delete", data={"back": back, **data})


def _restore(client: FlaskClient, pid: str, back: str = "circle", **data: str) -> Any:
    return client.post(f"/games/{pid}/restore", data={"back": back, **data})


def _stored(app: Flask) -> tuple[Any, ...]:
    """Everything a delete or an undo changes: the games' rows and logs, and the
    by-cards counts and head-to-head records."""
    with app.app_context():
        games = db.session.execute(
            select(Game.public_id, Game.version, Game.deleted_at).order_by(Game.id)
        ).all()
        changes = db.session.execute(select(Change.game_id, Change.action)).all()
        cards = db.session.execute(
            select(PlayerCards.player_id, PlayerCards.cards, PlayerCards.rounds, PlayerCards.exact)
            .where(PlayerCards.rounds != 0)
            .order_by(PlayerCards.player_id, PlayerCards.cards)
        ).all()
        rivals = db.session.execute(
            select(Rivalry.player_id, Rivalry.other_id, Rivalry.games, Rivalry.ahead)
            .where(Rivalry.games != 0)
            .order_by(Rivalry.player_id, Rivalry.other_id)
        ).all()
        return tuple(games), tuple(sorted(changes)), tuple(cards), tuple(rivals)


# -- deleting from the circle's games list, and the Undo ---------------------------------------


def test_a_member_deletes_a_game_and_undoes_it(
    app: Flask, member: FlaskClient, fx: Fixture
) -> None:
    games = f"/circles/{fx.circle}/games"
    body = member.get(games).get_data(as_text=True)
    form = body[body.index(f'action="/games/{fx.g1}/delete"') :].split("</form>")[0]
    assert 'name="csrf_token"' in form and 'name="idempotency_key"' in form
    assert 'name="back" value="circle"' in form
    assert "Delete this game? It leaves the list" in _text(form)

    deleted = _delete(member, fx.g1)
    assert deleted.status_code == 303
    assert deleted.headers["Location"] == f"{games}?deleted={fx.g1}"
    body = member.get(deleted.headers["Location"]).get_data(as_text=True)
    assert _ids(body) == [fx.g3, fx.g2]
    notice = body[body.index('<div class="notice undo"') :].split("</div>")[0]
    assert "Game deleted: Ann, Ben, Cat." in _text(notice)
    assert f'action="/games/{fx.g1}/restore"' in notice and 'name="idempotency_key"' in notice

    # Its pages and links stop working; it has left every list and the statistics.
    for path in ("", "/pad.pdf", "/export.json", "/export.csv", "/story"):
        assert member.get(f"/games/{fx.g1}{path}").status_code == 404, path
    assert fx.g1 not in member.get(f"/circles/{fx.circle}").get_data(as_text=True)
    backup = json.loads(member.get(f"/circles/{fx.circle}/export/history.json").data)
    assert [g["public_id"] for g in backup["games"]] == [fx.g2, fx.g3]
    players = member.get(f"/circles/{fx.circle}/players").get_data(as_text=True)
    cat = re.search(
        rf'href="/circles/{fx.circle}/players/{fx.cat}">Cat</a></td>'
        rf'\s*<td class="num rating">.*?</td>\s*<td[^>]*>(\d+)',
        players,
    )
    assert cat is not None and cat[1] == "1"  # g3 alone
    records = member.get(f"/circles/{fx.circle}/records").get_data(as_text=True)
    assert "<strong>1300</strong>" not in records and "<strong>850</strong>" in records

    restored = _restore(member, fx.g1)
    assert restored.status_code == 303 and restored.headers["Location"] == games
    body = member.get(games).get_data(as_text=True)
    assert "The game is back." in body and 'class="notice undo"' not in body
    assert _ids(body) == [fx.g3, fx.g2, fx.g1]
    assert "<strong>1300</strong>" in member.get(f"/circles/{fx.circle}/records").get_data(
        as_text=True
    )
    page = member.get(f"/games/{fx.g1}")
    assert page.status_code == 200
    log = _text(page.get_data(as_text=True))
    assert "Game deleted" in log and "Game brought back" in log


def test_a_phone_following_the_game_is_told_and_stops_asking(
    app: Flask, member: FlaskClient, client: FlaskClient, fx: Fixture
) -> None:
    page = client.get(f"/games/{fx.g1}").get_data(as_text=True)
    live = re.search(r'hx-get="(/games/[^"]+/live\?v=\d+)"', page)
    assert live is not None
    url = live.group(1).replace("&amp;", "&")
    assert client.get(url, headers={"HX-Request": "true"}).status_code == 204
    assert _delete(member, fx.g1).status_code == 303
    # Before, a 404 notice and the asking went on every 1.5 s.
    told = client.get(url, headers={"HX-Request": "true"})
    assert told.status_code == 286  # htmx stops polling on 286
    body = told.get_data(as_text=True)
    assert 'id="entry"' in body and 'role="alert"' in body
    assert "This game was deleted" in _text(body) and "<html" not in body
    # Brought back, the game's page and its live answers are as before.
    assert _restore(member, fx.g1).status_code == 303
    assert client.get(url, headers={"HX-Request": "true"}).status_code == 200


def test_the_undo_notice_is_only_for_the_table(
    app: Flask, member: FlaskClient, fx: Fixture
) -> None:
    assert _delete(member, fx.g1).status_code == 303
    # Another circle's list, and a phone without the circle: no notice, no names.
    with app.app_context(), transaction.atomic():
        other = circle_service.create_circle("Family").public_id
    join(member, other)
    body = member.get(f"/circles/{other}/games?deleted={fx.g1}").get_data(as_text=True)
    assert 'class="notice undo"' not in body
    stranger = app.test_client()
    body = stranger.get(f"/?deleted={fx.g1}").get_data(as_text=True)
    assert 'class="notice undo"' not in body and "Ann, Ben, Cat" not in body
    # Nonsense is ignored.
    for value in ("", "x" * 500, fx.g2):
        body = member.get(f"/circles/{fx.circle}/games?deleted={value}").get_data(as_text=True)
        assert 'class="notice undo"' not in body


def test_the_scorer_of_a_one_off_game_deletes_it_from_the_home_page(
    app: Flask, client: FlaskClient
) -> None:
    pid = Pages(client).new_game(["Ann", "Ben", "Cat"])
    assert f'action="/games/{pid}/delete"' in client.get("/").get_data(as_text=True)
    deleted = _delete(client, pid, back="home")
    assert deleted.status_code == 303 and deleted.headers["Location"] == f"/?deleted={pid}"
    body = client.get(deleted.headers["Location"]).get_data(as_text=True)
    assert "Game deleted: Ann, Ben, Cat." in _text(body)
    assert pid not in _ids(body)
    assert client.get(f"/games/{pid}").status_code == 404
    # "circle" for a game in none leads home too.
    restored = _restore(client, pid, back="circle")
    assert restored.status_code == 303 and restored.headers["Location"] == "/"
    assert _ids(client.get("/").get_data(as_text=True)) == [pid]


# -- statistics ---------------------------------------------------------------------------------


def _statistics(circle_id: int) -> dict[str, Any]:
    """Everything the circle's statistics and records pages show, by player name (two
    circles' players have different ids)."""
    players = {}
    for line in stats.player_lines(circle_id):
        if not line.games:
            continue  # a name whose games were all deleted
        s = stats.player_stats(line.id, circle_id)
        players[line.name] = (
            line.games,
            line.wins,
            line.exact_rate,
            s.games,
            s.finished,
            s.wins,
            s.avg_final,
            s.rounds,
            s.points,
            s.bid_rounds,
            s.exact,
            s.overs,
            s.unders,
            s.best_streak,
            s.best_game and s.best_game.total,
            s.worst_game and s.worst_game.total,
            [(c.cards, c.rounds, c.exact) for c in s.by_cards],
            sorted((h.name, h.games, h.ahead, h.behind, h.level) for h in s.head_to_head),
        )
    found = stats.records(circle_id, limit=10_000)
    records = [
        sorted((r.name, r.value) for r in part)
        for part in (found.highest_final, found.most_exact, found.biggest_comeback)
    ]
    return {"players": players, "records": records}


def _copy_into_new_circle(data: dict[str, Any], keep: set[str], name: str) -> int:
    """A new circle holding copies of the games ``keep`` (new ids), counted by the import:
    what the statistics must be with exactly those games."""
    circle = circle_service.create_circle(name)
    games = [
        dict(g, public_id=secrets.token_urlsafe(16))
        for g in data["games"]
        if g["public_id"] in keep
    ]
    transfer.import_history(json.dumps({**data, "games": games}), circle.id)
    return circle.id


def _counts(circle_id: int) -> tuple[Any, ...]:
    """The by-cards counts and head-to-head records of the circle's players."""
    players = select(Player.id).where(Player.circle_id == circle_id)
    cards = db.session.execute(
        select(PlayerCards.player_id, PlayerCards.cards, PlayerCards.rounds, PlayerCards.exact)
        .where(PlayerCards.player_id.in_(players), PlayerCards.rounds != 0)
        .order_by(PlayerCards.player_id, PlayerCards.cards)
    ).all()
    rivals = db.session.execute(
        select(Rivalry.player_id, Rivalry.other_id, Rivalry.games, Rivalry.ahead, Rivalry.level)
        .where(Rivalry.player_id.in_(players), Rivalry.games != 0)
        .order_by(Rivalry.player_id, Rivalry.other_id)
    ).all()
    return tuple(cards), tuple(rivals)


@pytest.mark.parametrize("seed", [3, 8])
def test_statistics_are_those_of_the_games_left(app: Flask, seed: int) -> None:
    rng = random.Random(seed)
    with app.app_context(), transaction.atomic():
        circle_id = the_circle().id
        random_history(rng, 14, circle_id)
        data = json.loads(transfer.history_json(circle_id))
        ids = [g["public_id"] for g in data["games"]]
        finished = [g["public_id"] for g in data["games"] if g["finished_at"]]
        gone = {rng.choice(finished), *rng.sample(ids, 3)}
        before = _counts(circle_id)
        for pid in sorted(gone):
            assert history.delete_game(history.find_game(pid))
        assert _counts(circle_id) != before
        without = _copy_into_new_circle(data, set(ids) - gone, "Without")
        assert _statistics(circle_id) == _statistics(without)
        for pid in sorted(gone):
            assert history.restore_game(history.find_game(pid))
        assert _counts(circle_id) == before  # back exactly as it was
        everything = _copy_into_new_circle(data, set(ids), "All")
        assert _statistics(circle_id) == _statistics(everything)


def test_rebuilding_the_statistics_leaves_deleted_games_out(app: Flask, fx: Fixture) -> None:
    with app.app_context(), transaction.atomic():
        assert history.delete_game(history.find_game(fx.g1))
        counted = _statistics(fx.circle_id)
        assert stats.rebuild(game_service.sheet_of) == 2
        assert _statistics(fx.circle_id) == counted
        # The undo after a rebuild still puts back exactly what the game adds.
        assert history.restore_game(history.find_game(fx.g1))
        restored = _statistics(fx.circle_id)
        stats.rebuild(game_service.sheet_of)
        assert _statistics(fx.circle_id) == restored


# -- who may, and what else is refused ------------------------------------------------------------


def test_only_the_scorer_or_the_circle_may_delete(
    app: Flask, member: FlaskClient, fx: Fixture
) -> None:
    before = _stored(app)
    stranger = app.test_client()
    follower = app.test_client()
    assert follower.get(f"/games/{fx.g1}").status_code == 200  # the view link is enough to look
    with app.app_context(), transaction.atomic():
        other = circle_service.create_circle("Family").public_id
    neighbour = join(app.test_client(), other)
    for phone in (stranger, follower, neighbour):
        for send in (_delete, _restore):
            refused = send(phone, fx.g1)
            assert refused.status_code == 403
            assert REFUSED in _text(refused.get_data(as_text=True))
            assert "nothing was deleted" in _text(refused.get_data(as_text=True))
    assert _stored(app) == before
    # Deleted by a member, it can't be brought back by anyone else either.
    assert _delete(member, fx.g1).status_code == 303
    deleted = _stored(app)
    assert _restore(stranger, fx.g1).status_code == 403
    assert _stored(app) == deleted


def test_unknown_games_are_not_found(app: Flask, member: FlaskClient, fx: Fixture) -> None:
    before = _stored(app)
    for pid in ("nosuchgame", "x" * 200, fx.g1 + "x"):
        assert _delete(member, pid).status_code == 404
        assert _restore(member, pid).status_code == 404
    assert _stored(app) == before


def test_twice_is_once(app: Flask, member: FlaskClient, fx: Fixture) -> None:
    assert _delete(member, fx.g1).status_code == 303
    once = _stored(app)
    again = _delete(member, fx.g1)
    assert again.status_code == 303 and again.headers["Location"].endswith(f"?deleted={fx.g1}")
    assert _stored(app) == once  # not taken out of the statistics twice
    assert _restore(member, fx.g1).status_code == 303
    restored = _stored(app)
    again = _restore(member, fx.g1)
    assert again.status_code == 303
    assert "This game is not deleted: nothing changed." in member.get(
        again.headers["Location"]
    ).get_data(as_text=True)
    assert _stored(app) == restored


def test_a_retry_with_the_same_key_answers_as_the_first_time(
    app: Flask, member: FlaskClient, fx: Fixture
) -> None:
    first = _delete(member, fx.g2, idempotency_key="k" * 20)
    once = _stored(app)
    retry = _delete(member, fx.g2, idempotency_key="k" * 20)
    assert retry.status_code == first.status_code == 303
    assert retry.headers["Location"] == first.headers["Location"]
    assert retry.headers.get("Idempotent-Replayed") == "true"
    assert _stored(app) == once
    # The same key for another request is refused, and changes nothing.
    reused = _restore(member, fx.g2, idempotency_key="k" * 20)
    assert reused.status_code == 422
    assert _stored(app) == once


def test_a_digital_game_is_not_deleted_here(app: Flask, client: FlaskClient) -> None:
    with app.app_context(), transaction.atomic():
        made = digital_service.create_table(["Ann", "Ben", "Cat"], ["person"] * 3, 0, RuleSet())
        pid = made.game.public_id
    keep_score_without_link(client, pid)
    before = _stored(app)
    refused = _delete(client, pid, back="home")
    assert refused.status_code == 422
    assert "Only games kept on the score pad can be deleted." in _text(
        refused.get_data(as_text=True)
    )
    assert _stored(app) == before


def test_the_forms_need_their_csrf_token(app: Flask, member: FlaskClient, fx: Fixture) -> None:
    app.config["WTF_CSRF_ENABLED"] = True
    before = _stored(app)
    assert _delete(member, fx.g1).status_code == 400
    assert _stored(app) == before


def test_a_delete_is_logged(app: Flask, member: FlaskClient, fx: Fixture, caplog: Any) -> None:
    with caplog.at_level(logging.INFO, logger="scorekeeper.services.history"):
        _delete(member, fx.g1)
        _restore(member, fx.g1)
    assert f"game {fx.g1} deleted" in caplog.text
    assert f"game {fx.g1} brought back" in caplog.text
    with app.app_context():
        actions = db.session.scalars(
            select(Change.action)
            .join(Game, Game.id == Change.game_id)
            .where(Game.public_id == fx.g1)
            .order_by(Change.id)
        ).all()
    assert actions[-2:] == ["game_deleted", "game_restored"]


def test_in_german(app: Flask, member: FlaskClient, fx: Fixture) -> None:
    member.environ_base["HTTP_ACCEPT_LANGUAGE"] = "de"
    deleted = _delete(member, fx.g1)
    body = _text(member.get(deleted.headers["Location"]).get_data(as_text=True))
    assert "Spiel gelöscht: Ann, Ben, Cat." in body and "Rückgängig" in body
    stranger = app.test_client()
    stranger.environ_base["HTTP_ACCEPT_LANGUAGE"] = "de"
    assert "Nur der Tisch kann dieses Spiel löschen" in _text(
        _delete(stranger, fx.g2).get_data(as_text=True)
    )
    _restore(member, fx.g1)
    log = _text(member.get(f"/games/{fx.g1}").get_data(as_text=True))
    assert "Spiel gelöscht" in log and "Spiel zurückgeholt" in log
