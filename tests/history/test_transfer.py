"""Export and import: round trips, every refusal with nothing stored, CSV guarding."""

from __future__ import annotations

import copy
import csv
import gzip
import io
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import Change, Game, Player, Round, RoundResult, Seat
from scorekeeper.services import games as game_service
from scorekeeper.services import pages, stats, transfer
from scorekeeper.services.errors import Rejected
from tests.history.support import Fixture, random_history, the_circle

pytestmark = pytest.mark.usefixtures("ctx")


def _counts() -> tuple[int, ...]:
    return tuple(
        db.session.scalar(select(func.count()).select_from(m)) or 0
        for m in (Game, Player, Seat, Round, RoundResult, Change)
    )


def _wipe() -> None:
    for m in (RoundResult, Round, Change, Seat, Game, Player):
        db.session.execute(m.__table__.delete())  # type: ignore[attr-defined]
    db.session.commit()


def test_round_trip_of_the_fixture(fx: Fixture) -> None:
    first = transfer.history_json(fx.circle_id)
    before = stats.player_stats(fx.ann, fx.circle_id)
    _wipe()
    assert transfer.import_history(first, fx.circle_id) == transfer.ImportResult(3, 0)
    db.session.commit()
    assert transfer.history_json(fx.circle_id) == first
    ann = db.session.scalar(select(Player.id).where(Player.key == "ann"))
    assert ann is not None
    after = stats.player_stats(ann, fx.circle_id)
    assert (after.games, after.wins, after.exact, after.best_streak) == (
        before.games,
        before.wins,
        before.exact,
        before.best_streak,
    )


@pytest.mark.parametrize("seed", range(6))
def test_round_trip_of_random_histories(seed: int) -> None:
    random_history(random.Random(seed), 6)
    circle_id = the_circle().id
    first = transfer.history_json(circle_id)
    data = json.loads(first)
    assert data["format"] == "scorekeeper-history" and data["version"] == 1
    assert len(data["games"]) == 6
    _wipe()
    result = transfer.import_history(first, circle_id)
    assert result.imported == 6
    db.session.commit()
    assert transfer.history_json(circle_id) == first
    # The imported games keep working: their sheets still load, and a game with a round
    # counts as played (the games list leaves out only the empty ones).
    for game in db.session.scalars(select(Game)):
        game_service.sheet_of(game)
        assert game.played == bool(game.rounds)


def test_game_already_here_is_skipped(fx: Fixture) -> None:
    text = transfer.history_json(fx.circle_id)
    before = _counts()
    assert transfer.import_history(text, fx.circle_id) == transfer.ImportResult(0, 3)
    assert _counts() == before


def test_game_json_is_complete(fx: Fixture) -> None:
    data = json.loads(transfer.game_json(game_service.get_game(fx.g2)))
    g = data["game"]
    assert data["format"] == "scorekeeper-game"
    assert g["public_id"] == fx.g2
    assert g["players"] == ["Ann", "Ben", "Dan"]
    assert g["rules"]["round_plan"] == "short"
    assert len(g["rounds"]) == 10
    assert g["rounds"][5]["bids"] == [12, 12, 0]
    assert g["rounds"][5]["tricks"] == [0, 12, 0]
    assert g["rounds"][9]["trump"] == "none"  # the last round has no trump by itself
    assert g["rounds"][-1]["totals"] == [-400, 850, 200]
    assert g["finished_at"] is not None and g["created_at"].startswith("2025-12-25T18:00:00")
    assert g["changes"][0]["action"] == "created"
    assert (g["changes"][0]["message"], g["changes"][0]["facts"]) == ("game_set_up", {})
    assert "scorer_token_hash" not in g


def test_a_file_from_before_change_messages_imports_and_shows_its_words(
    fx: Fixture, app: Flask
) -> None:
    """Changes without ``message`` and ``facts`` (files written before they existed) are
    taken, and shown in the words they were written in."""
    data = json.loads(transfer.history_json(fx.circle_id))
    for game in data["games"]:
        for change in game["changes"]:
            del change["message"], change["facts"]
    _wipe()
    transfer.import_history(json.dumps(data), fx.circle_id)
    stored = db.session.scalars(select(Change)).all()
    assert stored and all(c.message is None and c.facts is None for c in stored)
    with app.test_request_context(headers={"Accept-Language": "de"}):
        log = pages.change_log(game_service.get_game(fx.g2)).all_lines()
        assert log[-1].summary == "Game set up"


def test_secret_bids_of_the_open_round_stay_secret_in_downloads(app: Flask) -> None:
    rules = game_service.parse_rules({"bidding": "secret"})
    game, _ = game_service.create_game(["Ann", "Ben", "Cat"], 0, rules)
    game_service.record_round(game, [1, 0, 0])
    db.session.commit()
    g = json.loads(transfer.game_json(game))["game"]
    assert g["rounds"][0]["bids"] == [None, None, None]
    assert "1" not in [row[6] for row in csv.reader(io.StringIO(transfer.game_csv(game)))][1:]
    backup = json.loads(transfer.history_json(None, reveal_open_bids=False))
    assert backup["games"][0]["rounds"][0]["bids"] == [None, None, None]
    full = json.loads(transfer.history_json(None))
    assert full["games"][0]["rounds"][0]["bids"] == [1, 0, 0]


def test_csv_guards_formulas_but_keeps_numbers(app: Flask) -> None:
    game, _ = game_service.create_game(
        ["=HYPERLINK(1)", "-Ann", "@Ben"], 0, game_service.parse_rules({})
    )
    game_service.record_round(game, [1, 0, 0], [0, 1, 0])
    rows = list(csv.reader(io.StringIO(transfer.game_csv(game))))
    assert rows[0] == transfer.CSV_HEADER
    assert [r[5] for r in rows[1:]] == ["'=HYPERLINK(1)", "'-Ann", "'@Ben"]
    assert rows[1][2] == "'=HYPERLINK(1)"  # the dealer's name too
    assert rows[1][8] == "-10"  # a negative score stays a number
    assert rows[2][8] == "-10" and rows[3][8] == "20"


# -- every refusal, and nothing stored ------------------------------------------------------

Mutation = Callable[[dict[str, Any]], None]


def _set(path: list[Any], value: Any) -> Mutation:
    def apply(data: dict[str, Any]) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return apply


def _delete(path: list[Any]) -> Mutation:
    def apply(data: dict[str, Any]) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return apply


def _dup_game(data: dict[str, Any]) -> None:
    data["games"].append(copy.deepcopy(data["games"][0]))


BAD: list[tuple[str, Mutation, str]] = [
    ("wrong version", _set(["version"], 2), "version 2"),
    ("wrong format", _set(["format"], "other"), "not a Scorekeeper history"),
    ("games missing", _delete(["games"]), "no 'games'"),
    ("game key missing", _delete(["games", 1, "rules"]), "Game 2 "),
    ("bad rules", _set(["games", 0, "rules", "dealer_rule"], "sometimes"), "dealer_rule"),
    ("too few players", _set(["games", 0, "players"], ["Ann", "Ben"]), "3 to 6"),
    ("player twice", _set(["games", 0, "players"], ["Ann", "ann", "Cat"]), "twice"),
    ("bad date", _set(["games", 0, "created_at"], "yesterday"), "created_at"),
    ("wrong cards", _set(["games", 0, "rounds", 2, "cards"], 5), "round 3"),
    ("wrong dealer", _set(["games", 0, "rounds", 2, "dealer"], 0), "round 3"),
    ("round numbers", _set(["games", 0, "rounds", 2, "number"], 7), "Round 3"),
    ("tricks don't add up", _set(["games", 0, "rounds", 1, "tricks"], [4, 1, 0]), "Round 2"),
    ("bid out of range", _set(["games", 0, "rounds", 0, "bids"], [3, 0, 1]), "Round 1"),
    ("totals don't add up", _set(["games", 1, "rounds", 4, "totals"], [400, -50, 110]), "round 5"),
    ("scores don't add up", _set(["games", 1, "rounds", 0, "scores"], [40, -10, 21]), "round 1"),
    ("trump in the last round", _set(["games", 0, "rounds", 9, "trump"], "red"), "Round 10"),
    ("bad trump", _set(["games", 0, "rounds", 0, "trump"], "purple"), "Round 1"),
    ("finished disagrees", _set(["games", 0, "finished_at"], None), "finished"),
    ("too many rounds", lambda d: d["games"][2]["rounds"].extend([{}] * 20), "plan has"),
    ("not a list", _set(["games", 0, "rounds", 0, "bids"], "1,0,1"), "Round 1"),
    ("same game twice", _dup_game, "twice"),
    ("a change without its action", _delete(["games", 0, "changes", 0, "action"]), "change 1"),
    (
        "a change message this app doesn't write",
        _set(["games", 0, "changes", 0, "message"], "drop_table"),
        "not a change this app writes",
    ),
    (
        "a change message that is not a text",
        _set(["games", 0, "changes", 0, "message"], ["game_set_up"]),
        "not a change this app writes",
    ),
    (
        "a change message without its facts",
        _set(["games", 0, "changes", 0, "facts"], None),
        "comes with its facts",
    ),
    (
        "change facts that are not an object",
        _set(["games", 0, "changes", 0, "facts"], "Ann"),
        "object or null",
    ),
    (
        "change facts too long",
        _set(["games", 0, "changes", 0, "facts"], {"name": "x" * 3000}),
        "longer than",
    ),
]


@pytest.mark.parametrize(("what", "mutate", "says"), BAD, ids=[b[0] for b in BAD])
def test_bad_file_is_refused_and_nothing_stored(
    fx: Fixture, what: str, mutate: Mutation, says: str
) -> None:
    data = json.loads(transfer.history_json(fx.circle_id))
    _wipe()
    game_service.create_game(["Zed", "Yan", "Xi"], 0, game_service.parse_rules({}))
    mutate(data)
    before = _counts()
    with pytest.raises(Rejected) as err:
        transfer.import_history(json.dumps(data), fx.circle_id)
    assert says.lower() in err.value.message.lower(), err.value.message
    assert _counts() == before


@pytest.mark.parametrize("number", ["Infinity", "-Infinity", "NaN", "1e999"])
def test_numbers_no_app_writes_are_refused_as_not_json(fx: Fixture, number: str) -> None:
    """Infinity and 1e999 parse in Python but are no JSON the app writes (and the
    database's JSON would not store them): refused before anything is looked at."""
    data = json.loads(transfer.history_json(fx.circle_id))
    _wipe()
    data["games"][0]["changes"][0]["facts"] = {"points": "NUMBER"}
    text = json.dumps(data).replace('"NUMBER"', number)
    before = _counts()
    with pytest.raises(Rejected) as err:
        transfer.import_history(text, fx.circle_id)
    assert err.value.code == "bad_file" and "not valid JSON" in err.value.message
    assert _counts() == before


@pytest.mark.parametrize(
    "text", ["", "{", "[1, 2]", "null", '{"format": "scorekeeper-history"}', b"\xff\xfe"]
)
def test_broken_files_are_refused(app: Flask, text: str | bytes) -> None:
    with pytest.raises(Rejected):
        transfer.import_history(text, the_circle().id)
    assert _counts() == (0, 0, 0, 0, 0, 0)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (
            gzip.compress(b'{"format": "scorekeeper-history"}', mtime=0),
            "The file is not text: choose",
        ),
        (
            "round,player,bid\n1,Ann,0\n",  # the CSV export
            "The file is not valid JSON (line 1, column 1): choose the .json file",
        ),
        ('{"format": "scorekeeper-history", "n": ' + "9" * 5000 + "}", "number in it is too long"),
        ('{"n": 1e999}', "1e999 is too large a number"),
    ],
    # Named, not shown: the same on every xdist worker (and short).
    ids=["gzip", "csv", "long number", "huge number"],
)
def test_a_file_that_is_no_history_is_refused_in_the_readers_words(
    app: Flask, text: str | bytes, says: str
) -> None:
    # Before, Python's own words: "'utf-8' codec can't decode byte 0x8b…",
    # "…use sys.set_int_max_str_digits()…", "Expecting value: line 1 column 1 (char 0)".
    with (
        app.test_request_context(headers={"Accept-Language": "en"}),
        pytest.raises(Rejected) as refused,
    ):
        transfer.import_history(text, the_circle().id)
    message = refused.value.message
    assert says in message
    assert "codec" not in message and "sys." not in message and "char 0" not in message
    assert _counts() == (0, 0, 0, 0, 0, 0)


def test_a_bad_game_late_in_the_file_stores_none_of_the_good_ones(fx: Fixture) -> None:
    data = json.loads(transfer.history_json(fx.circle_id))
    _wipe()
    data["games"][2]["rounds"][1]["tricks"] = [2, 2, 0, 0]
    with pytest.raises(Rejected, match=r"Game 3 .*Round 2"):
        transfer.import_history(json.dumps(data), fx.circle_id)
    assert _counts() == (0, 0, 0, 0, 0, 0)


def test_a_round_kept_after_a_correction_is_accepted(app: Flask) -> None:
    # P2 under the Canadian rule: correcting round 1 changes who leads, so round 2 as
    # played would now be refused; the file shows the correction and is accepted.
    rules = game_service.parse_rules({"dealer_rule": "canadian"})
    game, _ = game_service.create_game(["Ann", "Ben", "Cat"], 2, rules)
    game_service.record_round(game, [0, 0, 1], [0, 0, 1])  # Ann 20, Ben 20, Cat 30
    # Round 2, dealer Ann: she doesn't lead, so the bids may add up to the 2 cards.
    game_service.record_round(game, [1, 1, 0], [1, 1, 0])
    # Correct round 1 so that Ann led: round 2's bids would now be refused (V2).
    game_service.update_round(game, 1, bids=[1, 0, 0], tricks=[1, 0, 0])
    assert game_service.sheet_of(game).totals_before(2) == (30, 20, 20)
    db.session.commit()
    text = transfer.history_json(None)
    _wipe()
    assert transfer.import_history(text, the_circle().id).imported == 1
    db.session.commit()
    assert transfer.history_json(None) == text


def test_one_game_download_imports_read_only(fx: Fixture) -> None:
    game = game_service.get_game(fx.g2)
    text = transfer.game_json(game)
    old_hash = game.scorer_token_hash
    _wipe()
    assert transfer.import_history(text, fx.circle_id) == transfer.ImportResult(1, 0)
    moved = game_service.get_game(fx.g2)
    assert moved.scorer_token_hash != old_hash
    assert transfer.game_json(moved) == text
