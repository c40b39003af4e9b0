"""An imported file's identifiers, texts, numbers and times are checked as strictly as the
app makes its own: a refusal says what and where in the file (in English and German),
and stores nothing.

Before, an import took a public id of "new" (shadowed by /games/new), "a/b/..c"
(unreachable) or one with a quote (breaking Content-Disposition), any text as the mode,
a 1 MB change summary that every follower of the game then loaded, and a change with
``round_number: 2**63`` made a 500.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper import transaction
from scorekeeper.extensions import db
from scorekeeper.models import Change, Game, Player, PlayerCards, Rivalry, Round, Seat
from scorekeeper.services import circles, transfer
from scorekeeper.services import games as game_service
from scorekeeper.services.errors import Rejected
from tests.history.support import SHORT, SHORT_CARDS

MB = 1024 * 1024


@pytest.fixture
def backup(app: Flask) -> Iterator[dict[str, Any]]:
    """A finished short game (Ann, Ben, Cat) of a circle as a history file, and a second
    circle to import it into."""
    with app.app_context():
        circle = circles.create_circle("Friends")
        game, _ = game_service.create_game(["Ann", "Ben", "Cat"], 0, SHORT, circle_id=circle.id)
        for c in SHORT_CARDS:
            game_service.record_round(game, [c, 0, 0], [c, 0, 0])
        db.session.commit()
        data = json.loads(transfer.history_json(circle.id))
        db.session.delete(game)  # so that the file's game is a new one to this server
        db.session.commit()
        yield data


def _a_circle() -> int:
    return circles.create_circle("Elsewhere").id


def _counts() -> tuple[int, ...]:
    return tuple(
        db.session.scalar(select(func.count()).select_from(m)) or 0
        for m in (Game, Player, Seat, Round, Change, PlayerCards, Rivalry)
    )


Mutation = Callable[[dict[str, Any]], None]


def _game(**values: Any) -> Mutation:
    def apply(data: dict[str, Any]) -> None:
        data["games"][0].update(values)

    return apply


def _change(**values: Any) -> Mutation:
    def apply(data: dict[str, Any]) -> None:
        data["games"][0]["changes"][0].update(values)

    return apply


def _many_changes(data: dict[str, Any]) -> None:
    game = data["games"][0]
    game["changes"] = [copy.deepcopy(game["changes"][0]) for _ in range(5001)]


ID = "{id}"  # the game's public id, filled in by the test
JUNK: list[tuple[str, Mutation, str]] = [
    (
        "id of a route",
        _game(public_id="new"),
        "Game 1: the public id 'new' is not one this app makes: 22 letters, digits, “-” or “_”.",
    ),
    ("id with slashes", _game(public_id="a/b/..c"), "Game 1: the public id 'a/b/..c' is not"),
    ("id with a quote", _game(public_id='abcdefghij"klmnopqrstu'), "Game 1: the public id"),
    ("id too long", _game(public_id="A" * 23), "Game 1: the public id 'AAAA"),
    ("id of 1 MB", _game(public_id="A" * MB), "Game 1: the public id 'AAAA"),
    ("id a number", _game(public_id=12345), "Game 1: the public id 12345 is not"),
    (
        "unknown mode",
        _game(mode="hacker"),
        f"Game 1 ({ID}): the mode 'hacker' is not one this app knows: 'pad' or 'digital'.",
    ),
    ("empty mode", _game(mode=""), f"Game 1 ({ID}): the mode '' is not one"),
    (
        "scorer hash",
        _game(scorer_token_hash="zz"),
        f"Game 1 ({ID}): scorer_token_hash must be 64 hexadecimal digits",
    ),
    (
        "summary of 1 MB",
        _change(summary="x" * MB),
        f"Game 1 ({ID}), change 1: summary is longer than 1000 characters.",
    ),
    (
        "summary with control characters",
        _change(summary="Game set up\x1b[31m"),
        f"Game 1 ({ID}), change 1: summary contains control characters.",
    ),
    ("summary a number", _change(summary=5), f"Game 1 ({ID}), change 1: summary must be a text."),
    (
        "data of 1 MB",
        _change(data={"players": ["x" * MB]}),
        f"Game 1 ({ID}), change 1: data is longer than 2000 characters.",
    ),
    ("data a list", _change(data=[1, 2]), "change 1: data must be an object or null."),
    (
        "action",
        _change(action="DROP TABLE"),
        f"Game 1 ({ID}), change 1: action 'DROP TABLE' is not the name of a change",
    ),
    (
        "round number 2**63",
        _change(round_number=2**63),
        f"Game 1 ({ID}), change 1: round_number is 9223372036854775808, out of range.",
    ),
    ("round number 0", _change(round_number=0), "change 1: round_number is 0, out of range."),
    ("round past the plan", _change(round_number=11), "round_number is 11, out of range."),
    (
        "time past year 9999",
        _change(at="9999-12-31T23:59:59-05:00"),
        f"Game 1 ({ID}), change 1: at '9999-12-31T23:59:59-05:00' is not a plausible time: "
        "it must lie between 2000-01-01 and now.",
    ),
    (
        "time before year 1",
        _game(created_at="0001-01-01T00:00:00+01:00"),
        f"Game 1 ({ID}): created_at '0001-01-01T00:00:00+01:00' is not a plausible time",
    ),
    (
        "time in the future",
        _game(finished_at="2999-01-01T00:00:00+00:00"),
        "finished_at '2999-01-01T00:00:00+00:00' is not a plausible time",
    ),
    (
        "date of 1 MB",
        _game(updated_at="2" * MB),
        f"Game 1 ({ID}): updated_at '22222222",
    ),
    (
        "too many changes",
        _many_changes,
        f"Game 1 ({ID}) has 5001 changes; a game has at most 5000.",
    ),
]


@pytest.mark.parametrize(("what", "mutate", "says"), JUNK, ids=[j[0] for j in JUNK])
def test_junk_in_a_file_is_refused_saying_where(
    app: Flask, backup: dict[str, Any], what: str, mutate: Mutation, says: str
) -> None:
    public_id = backup["games"][0]["public_id"]
    mutate(backup)
    with app.test_request_context(headers={"Accept-Language": "en"}), transaction.atomic():
        circle_id = _a_circle()
        before = _counts()
        with pytest.raises(Rejected) as refused:
            transfer.import_history(json.dumps(backup), circle_id)
        message = refused.value.message
        assert says.format(id=public_id) in message, message
        assert len(message) < 400  # what was wrong is quoted, not the whole of it
        assert _counts() == before


GERMAN: list[tuple[str, Mutation, str]] = [
    (
        "id",
        _game(public_id="new"),
        "Spiel 1: Die öffentliche ID 'new' stammt nicht von dieser App: 22 Buchstaben, "
        "Ziffern, „-“ oder „_“.",
    ),
    (
        "mode",
        _game(mode="hacker"),
        f"Spiel 1 ({ID}): Den Modus 'hacker' kennt diese App nicht: 'pad' oder 'digital'.",
    ),
    (
        "scorer hash",
        _game(scorer_token_hash="zz"),
        f"Spiel 1 ({ID}): scorer_token_hash muss aus 64 Hexadezimalziffern bestehen, wie die "
        "App ihn speichert.",
    ),
    (
        "summary",
        _change(summary="x" * MB),
        f"Spiel 1 ({ID}), Änderung 1: summary ist länger als 1000 Zeichen.",
    ),
    (
        "control characters",
        _change(summary="\x00"),
        f"Spiel 1 ({ID}), Änderung 1: summary enthält Steuerzeichen.",
    ),
    ("not a text", _change(summary=5), "Änderung 1: summary muss ein Text sein."),
    ("data", _change(data=[1]), "Änderung 1: data muss ein Objekt oder null sein."),
    (
        "action",
        _change(action="DROP TABLE"),
        "Änderung 1: action 'DROP TABLE' ist kein Name einer Änderung: Kleinbuchstaben und „_“.",
    ),
    (
        "round number",
        _change(round_number=2**63),
        "Änderung 1: round_number ist 9223372036854775808 und damit außerhalb des erlaubten "
        "Bereichs.",
    ),
    (
        "time",
        _game(created_at="1970-01-01T00:00:00+00:00"),
        f"Spiel 1 ({ID}): created_at '1970-01-01T00:00:00+00:00' ist keine plausible Zeit: "
        "Sie muss zwischen 2000-01-01 und jetzt liegen.",
    ),
    (
        "changes",
        _many_changes,
        f"Spiel 1 ({ID}) hat 5001 Änderungen; ein Spiel hat höchstens 5000.",
    ),
]


@pytest.mark.parametrize(("what", "mutate", "says"), GERMAN, ids=[g[0] for g in GERMAN])
def test_junk_in_a_file_is_refused_in_german(
    app: Flask, backup: dict[str, Any], what: str, mutate: Mutation, says: str
) -> None:
    public_id = backup["games"][0]["public_id"]
    mutate(backup)
    with app.test_request_context(headers={"Accept-Language": "de"}), transaction.atomic():
        circle_id = _a_circle()
        with pytest.raises(Rejected) as refused:
            transfer.import_history(json.dumps(backup), circle_id)
        assert says.format(id=public_id) in refused.value.message, refused.value.message


def test_times_from_another_time_zone_are_stored_in_utc(app: Flask, backup: dict[str, Any]) -> None:
    backup["games"][0]["created_at"] = "2026-01-06T20:00:00+02:00"
    with app.app_context():
        circle_id = _a_circle()
        assert transfer.import_history(json.dumps(backup), circle_id).imported == 1
        db.session.commit()
        again = json.loads(transfer.history_json(circle_id))
    assert again["games"][0]["created_at"] == "2026-01-06T18:00:00+00:00"


def test_the_longest_texts_the_app_writes_import(app: Flask) -> None:
    """Six players with names of 40 characters, a round corrected for every one of them
    (bids, tricks and trump): the longest change the app logs goes through."""
    names = [f"{letter * 39}{n}" for n, letter in enumerate("ABCDEF")]
    with app.app_context():
        circle = circles.create_circle("Friends")
        game, _ = game_service.create_game(names, 0, SHORT, circle_id=circle.id)
        game_service.record_round(game, [1, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0], "red")
        game_service.record_round(game, [1, 1, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0], "blue")
        game_service.update_round(
            game, 2, bids=[0, 0, 1, 1, 1, 1], tricks=[0, 0, 1, 1, 0, 0], trump="wizard:green"
        )
        db.session.commit()
        data = json.loads(transfer.history_json(circle.id))
        longest = max(len(c["summary"]) for c in data["games"][0]["changes"])
        assert longest > 500
        db.session.delete(game)
        db.session.commit()
        assert transfer.import_history(json.dumps(data), circle.id).imported == 1
        db.session.commit()


def test_a_digital_game_imports_as_its_score_pad(
    app: Flask, client: FlaskClient, backup: dict[str, Any]
) -> None:
    """A digital game's file has its rounds, not its table (hands, seat links): it can be
    followed and printed here, not played on."""
    backup["games"][0]["mode"] = "digital"
    public_id = backup["games"][0]["public_id"]
    with app.app_context():
        circle_id = _a_circle()
        assert transfer.import_history(json.dumps(backup), circle_id).imported == 1
        db.session.commit()
        assert json.loads(transfer.history_json(circle_id))["games"][0]["mode"] == "digital"
    assert client.get(f"/games/{public_id}").status_code == 200
    assert client.get(f"/digital/{public_id}/").status_code == 404


# Half a character pair (a lone surrogate) anywhere in the file: see test_lone_surrogates.py.
LONE_SURROGATE = "\\ud800"  # as it stands in the JSON text


def _with_lone(where: str, data: dict[str, Any]) -> str:
    game = data["games"][0]
    if where == "adjustment reason":
        game["rounds"][0]["adjustments"] = [{"seat": 0, "points": 5, "reason": "MARK"}]
    else:
        game["changes"][0]["facts"] = {"number": 1, "note": "MARK"}
    return json.dumps(data).replace("MARK", "x" + LONE_SURROGATE + "y")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8 bytes of a surrogate"])
def test_a_file_in_utf16_or_with_a_surrogates_bytes_is_refused(
    app: Flask, backup: dict[str, Any], encoding: str
) -> None:
    escaped = _with_lone("change facts", backup)  # "\\ud800" as JSON writes it
    data = (
        escaped.encode("utf-16")
        if encoding == "utf-16"
        else escaped.replace("\\ud800", "\ud800").encode("utf-8", "surrogatepass")
    )
    with app.test_request_context(headers={"Accept-Language": "en"}), transaction.atomic():
        circle_id = _a_circle()
        before = _counts()
        with pytest.raises(Rejected) as refused:
            transfer.import_history(data, circle_id)
        assert "The file is not text" in refused.value.message
        assert _counts() == before


@pytest.mark.parametrize("where", ["adjustment reason", "change facts"])
def test_an_imported_file_with_a_lone_surrogate_is_refused(
    app: Flask, backup: dict[str, Any], where: str
) -> None:
    text = _with_lone(where, backup)
    with app.test_request_context(headers={"Accept-Language": "en"}), transaction.atomic():
        circle_id = _a_circle()
        before = _counts()
        for sent in (text, text.encode()):
            with pytest.raises(Rejected) as refused:
                transfer.import_history(sent, circle_id)
            assert "half of a character" in refused.value.message
        assert _counts() == before
