"""Ratings per circle: each finished game rates its players in order of play (finish
time), corrections, undos, deletions, imports, merges and moves rate again, ties share
a place, one-off and digital games never rate; the pages, the API and the exports show
them. Expected values come from openskill itself, game by game, as the fixture's games
(support.py) were played."""

from __future__ import annotations

import json
import random
import re
from datetime import UTC, datetime, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from openskill.models import PlackettLuce
from sqlalchemy import select

from scorekeeper import transaction
from scorekeeper.extensions import db
from scorekeeper.models import Game, Player, Rating, RatingStep
from scorekeeper.services import circles as circle_service
from scorekeeper.services import games as game_service
from scorekeeper.services import history, ratings, roster, transfer
from tests.history.support import (
    SHORT,
    SHORT_CARDS,
    Fixture,
    join,
    player_id,
    random_history,
    the_circle,
)

MODEL = PlackettLuce()


def _expected(*games: tuple[list[str], list[int]]) -> dict[str, tuple[float, float, int]]:
    """What openskill gives for these games (names, places) played in this order."""
    state: dict[str, tuple[float, float, int]] = {}
    for names, places in games:
        teams = [[MODEL.rating(*state.get(n, (25.0, 25 / 3, 0))[:2])] for n in names]
        after = MODEL.rate(teams, ranks=[float(p) for p in places])
        for name, [new] in zip(names, after, strict=True):
            state[name] = (new.mu, new.sigma, state.get(name, (0, 0, 0))[2] + 1)
    return state


def _stored(circle_id: int) -> dict[str, tuple[float, float, int]]:
    rows = db.session.execute(
        select(Player.name, Rating.mu, Rating.sigma, Rating.games)
        .join(Rating, Rating.player_id == Player.id)
        .where(Rating.circle_id == circle_id)
    )
    return {name: (mu, sigma, games) for name, mu, sigma, games in rows}


def _close(a: dict[str, tuple[float, float, int]], b: dict[str, tuple[float, float, int]]) -> None:
    assert sorted(a) == sorted(b)
    for name in a:
        assert a[name][0] == pytest.approx(b[name][0]), name
        assert a[name][1] == pytest.approx(b[name][1]), name
        assert a[name][2] == b[name][2], name


def _steps(circle_id: int) -> list[tuple[int, int, float, float, int, int]]:
    rows = db.session.execute(
        select(
            RatingStep.game_id,
            RatingStep.player_id,
            RatingStep.mu,
            RatingStep.sigma,
            RatingStep.games,
            RatingStep.place,
        )
        .where(RatingStep.circle_id == circle_id)
        .order_by(RatingStep.game_id, RatingStep.player_id)
    )
    return [tuple(r) for r in rows]  # type: ignore[misc]


def _from_scratch(circle_id: int) -> tuple[dict[str, tuple[float, float, int]], list]:
    """The circle's ratings and steps made again from nothing (then rolled back)."""
    with db.session.begin_nested() as nested:
        ratings.replay(db.session.connection(), circle_id)
        fresh = (_stored(circle_id), _steps(circle_id))
        nested.rollback()
    return fresh


G1 = (["Ann", "Ben", "Cat"], [1, 2, 3])  # 1300, 200, -100
G2 = (["Ann", "Ben", "Dan"], [3, 1, 2])  # -400, 850, 200


# -- in order of play --------------------------------------------------------------------


def test_each_finished_game_rates_its_players_in_order(app: Flask, fx: Fixture) -> None:
    with app.app_context():
        # g3 is still being played: it rates nobody yet (Cat has g1 alone, Dan g2).
        _close(_stored(fx.circle_id), _expected(G1, G2))
        places = {
            (game, player): place
            for game, player, *_, place in _steps(fx.circle_id)
            for game in [game]
        }
        g1 = game_service.get_game(fx.g1).id
        assert [places[(g1, p)] for p in (fx.ann, fx.ben, fx.cat)] == [1, 2, 3]
        assert len(places) == 6


def test_the_order_of_play_is_the_finish_time(app: Flask) -> None:
    """Set up A, then B; B finishes first, so it rates first."""
    with app.app_context():
        circle = the_circle()
        a, _ = game_service.create_game(["Ann", "Ben", "Cat"], 0, SHORT, circle_id=circle.id)
        b, _ = game_service.create_game(["Ann", "Ben", "Dan"], 0, SHORT, circle_id=circle.id)
        db.session.commit()
        for c in SHORT_CARDS:  # Ben bids and takes everything: Ben first, Ann and Dan tie
            game_service.record_round(b, [0, c, 0], [0, c, 0])
        db.session.commit()
        for c in SHORT_CARDS:  # Ann bids and takes everything
            game_service.record_round(a, [c, 0, 1], [c, 0, 0])
        db.session.commit()
        expected = _expected((["Ann", "Ben", "Dan"], [2, 1, 2]), (["Ann", "Ben", "Cat"], [1, 2, 3]))
        _close(_stored(circle.id), expected)
        # Played the other way round, the numbers differ: the order counts.
        other = _expected((["Ann", "Ben", "Cat"], [1, 2, 3]), (["Ann", "Ben", "Dan"], [2, 1, 2]))
        assert other["Ann"][0] != pytest.approx(expected["Ann"][0])


def test_ties_share_a_place(app: Flask) -> None:
    with app.app_context():
        circle = the_circle()
        game, _ = game_service.create_game(["Ann", "Ben", "Cat"], 0, SHORT, circle_id=circle.id)
        for c in SHORT_CARDS:  # Ben and Cat bid and take the same: level on points
            game_service.record_round(game, [c - 2, 1, 1], [c - 2, 1, 1])
        db.session.commit()
        assert ratings.places([(1, 500, False), (2, 500, False), (3, 100, False)]) == [1, 1, 3]
        stored = _stored(circle.id)
        totals = [s.total for s in game.seats]
        assert totals[1] == totals[2] and totals[0] != totals[1]
        assert stored["Ben"][0] == pytest.approx(stored["Cat"][0])
        _close(stored, _expected((["Ann", "Ben", "Cat"], [1, 2, 2])))


def test_a_tie_break_winner_is_ahead_of_the_others_on_the_same_total() -> None:
    """R17's bid-total tie-break: the winner is placed first; the rest share second."""
    assert ratings.places([(1, 300, False), (2, 300, True), (3, 300, False)]) == [2, 1, 2]


# -- rated again after a change ----------------------------------------------------------------


def test_a_correction_of_an_earlier_game_rates_every_later_game_again(
    app: Flask, fx: Fixture
) -> None:
    with app.app_context():
        before = _stored(fx.circle_id)
        g1 = game_service.get_game(fx.g1)
        # Cat's bids corrected from 1 to 0 in every round (she took none): 10 × 20
        # instead of 10 × -10, 200 as Ben: the two now share second place.
        for number, cards in enumerate(SHORT_CARDS, start=1):
            game_service.update_round(g1, number, bids=[cards, 0, 0])
        db.session.commit()
        assert [s.total for s in g1.seats] == [1300, 200, 200]
        assert g1.finished_at is not None  # still finished: rated where it was
        after = _stored(fx.circle_id)
        _close(after, _expected((G1[0], [1, 2, 2]), G2))
        assert after["Ben"][0] != pytest.approx(before["Ben"][0])
        assert after["Dan"][0] != pytest.approx(before["Dan"][0])  # g2, replayed
        assert _from_scratch(fx.circle_id) == (after, _steps(fx.circle_id))


def test_undoing_the_last_round_takes_the_game_out_until_it_ends_again(
    app: Flask, fx: Fixture
) -> None:
    with app.app_context():
        g2 = game_service.get_game(fx.g2)
        game_service.delete_last_round(g2, 10)
        db.session.commit()
        assert g2.finished_at is None
        _close(_stored(fx.circle_id), _expected(G1))  # Dan is unrated again
        game_service.record_round(g2, [20, 20, 0], [0, 20, 0])
        db.session.commit()
        _close(_stored(fx.circle_id), _expected(G1, G2))


def test_deleting_a_game_and_bringing_it_back(app: Flask, fx: Fixture) -> None:
    with app.app_context():
        g1 = history.find_game(fx.g1)
        with transaction.atomic():
            history.delete_game(g1)
        _close(_stored(fx.circle_id), _expected((G2[0], [3, 1, 2])))  # Cat: unrated
        with transaction.atomic():
            history.restore_game(history.find_game(fx.g1))
        _close(_stored(fx.circle_id), _expected(G1, G2))


def test_a_merge_rates_the_merged_games_as_one_players(app: Flask, fx: Fixture) -> None:
    """Cath (a later game) is Cat under another name: merged, her game follows Cat's g1."""
    with app.app_context():
        circle = the_circle()
        game, _ = game_service.create_game(["Ann", "Ben", "Cath"], 0, SHORT, circle_id=circle.id)
        for c in SHORT_CARDS:  # Cath bids and takes everything
            game_service.record_round(game, [0, 0, c], [0, 0, c])
        db.session.commit()
        later = (["Ann", "Ben", "Cat"], [2, 2, 1])
        with transaction.atomic():
            roster.merge_players(fx.circle_id, fx.cat, player_id("Cath"))
        _close(_stored(fx.circle_id), _expected(G1, G2, later))
        assert _from_scratch(fx.circle_id) == (_stored(fx.circle_id), _steps(fx.circle_id))


def test_a_one_off_game_rates_once_moved_into_a_circle(app: Flask, fx: Fixture) -> None:
    with app.app_context():
        game, _ = game_service.create_game(["Ann", "Eve", "Cat"], 0, SHORT)
        for c in SHORT_CARDS:
            game_service.record_round(game, [0, c, 0], [0, c, 0])
        db.session.commit()
        assert game.circle_id is None
        assert db.session.scalar(select(RatingStep).where(RatingStep.game_id == game.id)) is None
        assert "Eve" not in _stored(fx.circle_id)
        with transaction.atomic():
            circle_service.move_game(game, circle_service.get_circle(fx.circle))
        _close(_stored(fx.circle_id), _expected(G1, G2, (["Ann", "Eve", "Cat"], [2, 1, 2])))


def test_random_histories_rate_as_if_rated_from_scratch(app: Flask) -> None:
    """Games finished, corrected and left open in any order: what is kept is what
    rating every finished game afresh, in order of play, gives."""
    with app.app_context():
        random_history(random.Random(7), 30)
        circle_id = the_circle().id
        kept = (_stored(circle_id), _steps(circle_id))
        assert kept[1], "some games finished"
        assert _from_scratch(circle_id) == kept


# -- imports -----------------------------------------------------------------------------


def _wipe_circle(circle_id: int) -> None:
    for game in db.session.scalars(select(Game).where(Game.circle_id == circle_id)):
        db.session.delete(game)
    db.session.flush()
    db.session.execute(Player.__table__.delete())  # type: ignore[attr-defined]
    db.session.commit()


def test_an_import_rates_its_games(app: Flask, fx: Fixture) -> None:
    with app.app_context():
        backup = transfer.history_json(fx.circle_id)
        _wipe_circle(fx.circle_id)
        assert _stored(fx.circle_id) == {}
        with transaction.atomic():
            transfer.import_history(backup, fx.circle_id)
        _close(_stored(fx.circle_id), _expected(G1, G2))


def test_an_import_of_older_games_rates_the_later_ones_again(app: Flask, fx: Fixture) -> None:
    """g2 is here; g1 comes by import: it finished first, so it rates first."""
    with app.app_context():
        data = json.loads(transfer.history_json(fx.circle_id))
        _wipe_circle(fx.circle_id)
        games = {g["public_id"]: g for g in data["games"]}
        for public_id in (fx.g2, fx.g1):
            data["games"] = [games[public_id]]
            with transaction.atomic():
                transfer.import_history(json.dumps(data), fx.circle_id)
            if public_id == fx.g2:
                _close(_stored(fx.circle_id), _expected((G2[0], [3, 1, 2])))
        _close(_stored(fx.circle_id), _expected(G1, G2))


def test_digital_games_never_rate_even_when_imported_into_a_circle(app: Flask, fx: Fixture) -> None:
    with app.app_context():
        data = json.loads(transfer.history_json(fx.circle_id))
        for game in data["games"]:
            if game["public_id"] == fx.g1:
                game["mode"] = "digital"
        _wipe_circle(fx.circle_id)
        with transaction.atomic():
            transfer.import_history(json.dumps(data), fx.circle_id)
        _close(_stored(fx.circle_id), _expected((G2[0], [3, 1, 2])))


def test_a_thousand_games_import_and_rate(app: Flask) -> None:
    """The import of a long history rates every finished game (its time: bench/history.py)."""
    with app.app_context():
        circle = the_circle()
        start = datetime(2024, 1, 1, tzinfo=UTC)
        names = ["Ann", "Ben", "Cat", "Dan", "Eve"]
        rng = random.Random(3)
        games = []
        for i in range(1000):
            who = rng.sample(names, 3)
            winner = rng.randrange(3)
            rounds = []
            totals = [0, 0, 0]
            for number, cards in enumerate(SHORT_CARDS, start=1):
                bids = [cards if s == winner else 0 for s in range(3)]
                tricks = list(bids)
                scores = [20 + 10 * b for b in bids]
                totals = [t + s for t, s in zip(totals, scores, strict=True)]
                rounds.append(
                    {
                        "number": number,
                        "cards": cards,
                        "dealer": (number - 1) % 3,
                        "trump": None,
                        "complete": True,
                        "bids": bids,
                        "tricks": tricks,
                        "scores": scores,
                        "totals": list(totals),
                    }
                )
            when = (start + timedelta(hours=i)).isoformat()
            games.append(
                {
                    "public_id": f"imported{i:014d}",
                    "mode": "pad",
                    "created_at": when,
                    "updated_at": when,
                    "finished_at": when,
                    "scorer_token_hash": "0" * 64,
                    "players": who,
                    "first_dealer": 0,
                    "rules": SHORT.to_dict(),
                    "rounds": rounds,
                    "changes": [],
                }
            )
        text = json.dumps({"format": transfer.FORMAT, "version": transfer.VERSION, "games": games})
        with transaction.atomic():
            assert transfer.import_history(text, circle.id).imported == 1000
        stored = _stored(circle.id)
        assert sum(n for _, _, n in stored.values()) == 3000
        assert _from_scratch(circle.id) == (stored, _steps(circle.id))


# -- pages, API, exports -------------------------------------------------------------------------


def test_the_players_page_shows_ratings(member: FlaskClient, fx: Fixture) -> None:
    body = member.get(f"/circles/{fx.circle}/players").get_data(as_text=True)
    with member.application.app_context():
        shown = ratings.circle_ratings(fx.circle_id)
    assert '<th class="num">Rating</th>' in body
    ann = shown[fx.ann]
    assert f'{ann.value}<small title="provisional: after 2 games">provisional</small>' in body
    assert '<small title="provisional: after 1 game">provisional</small>' in body  # Cat
    assert "Everyone starts at 1000; a rating is provisional for its first 5 games" in body
    member.set_cookie("lang", "de")
    body = member.get(f"/circles/{fx.circle}/players").get_data(as_text=True)
    assert '<th class="num">Wertung</th>' in body
    assert 'title="vorläufig: nach 2 Spielen">vorläufig</small>' in body
    assert 'title="vorläufig: nach 1 Spiel">vorläufig</small>' in body


def test_the_player_page_shows_the_rating_its_chart_and_insights(
    member: FlaskClient, fx: Fixture
) -> None:
    page = f"/circles/{fx.circle}/players/{fx.ann}"
    body = member.get(page).get_data(as_text=True)
    with member.application.app_context():
        ann = ratings.circle_ratings(fx.circle_id)[fx.ann]
    assert f'<strong class="rating-value">{ann.value}</strong>' in body
    assert 'aria-label="Rating of Ann after each game"' in body and "<svg" in body
    assert "Bids tend to be too high: 5 of 6 missed bids took fewer tricks than bid." in body
    assert "Longest winning streak: 1 game." in body
    member.set_cookie("lang", "de")
    body = member.get(page).get_data(as_text=True)
    assert "Wertung" in body and "Einschätzungen" in body
    assert "Ansagen sind eher zu hoch: 5 von 6 verfehlten Ansagen" in body


def test_a_player_without_a_finished_game_has_no_rating_yet(member: FlaskClient) -> None:
    with member.application.app_context():
        circle = the_circle()
        game_service.create_game(["Zoe", "Ann", "Ben"], 0, SHORT, circle_id=circle.id)
        db.session.commit()
        zoe = player_id("Zoe")
    body = member.get(f"/circles/{circle.public_id}/players/{zoe}").get_data(as_text=True)
    assert "No rating yet: it starts with the first finished game." in body
    body = member.get(f"/circles/{circle.public_id}/players").get_data(as_text=True)
    assert re.search(rf'players/{zoe}">Zoe</a></td>\s*<td class="num rating">–</td>', body)


def test_the_records_show_the_highest_settled_ratings(member: FlaskClient, fx: Fixture) -> None:
    records = f"/circles/{fx.circle}/records"
    assert "No settled rating yet: it takes 5 finished games." in member.get(records).get_data(
        as_text=True
    )
    with member.application.app_context():
        circle = the_circle()
        for _ in range(4):
            game, _token = game_service.create_game(
                ["Ann", "Ben", "Cat"], 0, SHORT, circle_id=circle.id
            )
            for c in SHORT_CARDS:
                game_service.record_round(game, [c, 0, 1], [c, 0, 0])
            db.session.commit()
        shown = ratings.circle_ratings(fx.circle_id)
    body = member.get(records).get_data(as_text=True)
    section = body[body.index("Highest ratings") : body.index("Highest final score")]
    # Ann and Ben have 6 games (settled), Cat 5; Dan's one game is provisional.
    names = re.findall(r">(Ann|Ben|Cat|Dan)</a>", section)
    assert names == ["Ann", "Ben", "Cat"]
    assert f"<strong>{shown[fx.ann].value}</strong>" in section
    assert f"± {shown[fx.ann].margin} after 6 games" in section


def test_the_api_gives_each_players_rating_or_null(
    member: FlaskClient, app: Flask, fx: Fixture
) -> None:
    with app.app_context():
        circle = circle_service.get_circle(fx.circle)
        token = circle_service.api_token(circle)
        game_service.create_game(["Zoe", "Ann", "Ben"], 0, SHORT, circle_id=circle.id)
        db.session.commit()
        shown = ratings.circle_ratings(fx.circle_id)
    body = member.get(
        "/api/v1/circle/players", headers={"Authorization": f"Bearer {token}"}
    ).get_json()
    by_name = {p["name"]: p["rating"] for p in body["players"]}
    assert by_name["Zoe"] is None
    ann = shown[fx.ann]
    assert by_name["Ann"] == {
        "value": ann.value,
        "margin": ann.margin,
        "games": 2,
        "provisional": True,
        "mu": pytest.approx(ann.mu),
        "sigma": pytest.approx(ann.sigma),
    }


def test_the_exports_carry_the_ratings(member: FlaskClient, fx: Fixture) -> None:
    with member.application.app_context():
        shown = ratings.circle_ratings(fx.circle_id)
    backup = json.loads(member.get(f"/circles/{fx.circle}/export/history.json").data)
    by_name = {r["player"]: r for r in backup["ratings"]}
    assert sorted(by_name) == ["Ann", "Ben", "Cat", "Dan"]
    assert by_name["Ann"]["rating"] == shown[fx.ann].value
    assert by_name["Cat"]["games"] == 1 and by_name["Cat"]["provisional"] is True
    response = member.get(f"/circles/{fx.circle}/export/ratings.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert response.headers["Cache-Control"] == "private, no-store"
    lines = response.get_data(as_text=True).splitlines()
    assert lines[0] == "player,rating,margin,games,provisional,mu,sigma"
    assert lines[1].startswith(f"Ann,{shown[fx.ann].value},{shown[fx.ann].margin},2,yes,")
    assert len(lines) == 5


def test_the_ratings_csv_is_the_circles_alone(client: FlaskClient, fx: Fixture) -> None:
    """A stranger (no circle link) gets the circle's 404; names that start a formula are
    written as text."""
    assert client.get(f"/circles/{fx.circle}/export/ratings.csv").status_code == 404
    with client.application.app_context():
        circle = the_circle()
        names = ["=SUM(A1)", "Ann", "Ben"]
        game, _ = game_service.create_game(names, 0, SHORT, circle_id=circle.id)
        for c in SHORT_CARDS:
            game_service.record_round(game, [c, 0, 0], [c, 0, 0])
        db.session.commit()
    csv_text = (
        join(client, fx.circle)
        .get(f"/circles/{fx.circle}/export/ratings.csv")
        .get_data(as_text=True)
    )
    assert "\r\n'=SUM(A1)," in csv_text


def test_the_history_read_for_the_chart_is_the_latest_games(app: Flask, fx: Fixture) -> None:
    """The page reads at most the latest games of a long history, in order of play."""
    with app.app_context():
        circle = the_circle()
        for _ in range(3):
            game, _token = game_service.create_game(
                ["Ann", "Ben", "Cat"], 0, SHORT, circle_id=circle.id
            )
            for c in SHORT_CARDS:
                game_service.record_round(game, [c, 0, 1], [c, 0, 0])
            db.session.commit()
        latest = ratings.history(fx.ann, limit=2)
        everything = ratings.history(fx.ann)
    assert [s.rating.games for s in everything] == [1, 2, 3, 4, 5]
    assert latest == everything[-2:]
    # g1 won, g2 lost, then three won: the streak is kept along.
    assert [(s.run, s.best_run) for s in everything] == [(1, 1), (0, 1), (1, 1), (2, 2), (3, 3)]
