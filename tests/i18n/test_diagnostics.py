"""The diagnostics of a bad backup file, the trick resolver's notes and the command line,
in German and (unchanged) in English."""

from __future__ import annotations

import html
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import i18n, transaction
from scorekeeper.services import games as game_service
from scorekeeper.services import transfer
from scorekeeper.services.errors import Rejected
from tests.history.support import join, the_circle
from tests.web.support import Pages


def _backup(app: Flask) -> tuple[str, dict[str, Any]]:
    """One game of three rounds (Ann, Ben, Cat; standard rules) in a circle, as that
    circle's history file."""
    with app.app_context():
        with transaction.atomic():
            circle = the_circle()
            game, _token = game_service.create_game(
                ["Ann", "Ben", "Cat"], 0, game_service.parse_rules({}), circle_id=circle.id
            )
            game_service.record_round(game, [1, 0, 0], [1, 0, 0])
            game_service.record_round(game, [1, 1, 0], [1, 1, 0])
            game_service.record_round(game, [1, 1, 1], [1, 1, 1])
        return game.public_id, json.loads(transfer.history_json(circle.id))


def _import_path(app: Flask, reader: Pages) -> str:
    """The circle's import address, for a reader who holds the circle's link."""
    with app.app_context():
        circle = the_circle().public_id
    join(reader.client, circle)
    return f"/circles/{circle}/import"


def _bad_totals(data: dict[str, Any]) -> bytes:
    data["games"][0]["rounds"][1]["totals"] = [1, 2, 3]
    return json.dumps(data).encode()


def _text(body: bytes | str) -> str:
    text = body.decode() if isinstance(body, bytes) else body
    return " ".join(html.unescape(text).split())


# -- the import page ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "expected", "not_expected"),
    [
        (
            "german",
            "Spiel 1 ({pid}): Runde 2, Ann: Die Datei nennt den Stand 1, die Regeln ergeben 60.",
            "the file says",
        ),
        (
            "english",
            "Game 1 ({pid}): round 2, Ann: the file says total 1, the rules give 60.",
            "Die Datei nennt",
        ),
    ],
)
def test_bad_import_file_on_the_page(
    app: Flask, request: pytest.FixtureRequest, language: str, expected: str, not_expected: str
) -> None:
    reader: Pages = request.getfixturevalue(language)
    pid, data = _backup(app)
    response = reader.client.post(
        _import_path(app, reader),
        data={"file": (io.BytesIO(_bad_totals(data)), "backup.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    body = _text(response.get_data(as_text=True))
    assert expected.format(pid=pid) in body
    assert not_expected not in body


def test_a_good_import_says_what_it_did_in_german(app: Flask, german: Pages) -> None:
    _pid, data = _backup(app)
    response = german.client.post(
        _import_path(app, german),
        data={"file": (io.BytesIO(json.dumps(data).encode()), "backup.json")},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert "0 Spiele importiert; 1 schon vorhanden, übersprungen." in _text(response.data)


# -- every kind of problem, worded in German ---------------------------------------------

Mutation = Callable[[dict[str, Any]], Any]


def _game(data: dict[str, Any]) -> dict[str, Any]:
    game: dict[str, Any] = data["games"][0]
    return game


GERMAN: list[tuple[str, Mutation, str]] = [
    (
        "version",
        lambda d: d.update(version=2),
        "Die Datei hat die Formatversion 2; dieser Server liest Version 1.",
    ),
    (
        "format",
        lambda d: d.update(format="x"),
        "Das ist keine Verlaufsdatei von Scorekeeper (Format 'x').",
    ),
    ("games missing", lambda d: d.pop("games"), "Die Datei: 'games' fehlt."),
    (
        "games not a list",
        lambda d: d.update(games={}),
        "'games' muss in der Datei eine Liste sein.",
    ),
    ("game not an object", lambda d: d.update(games=[1]), "Spiel 1 muss ein Objekt sein."),
    (
        "round key missing",
        lambda d: _game(d)["rounds"][0].pop("cards"),
        "): Runde 1: 'cards' fehlt.",
    ),
    (
        "cards",
        lambda d: _game(d)["rounds"][2].update(cards=5),
        "): Runde 3 hat 5 Karten, aber nach diesen Regeln werden 3 gegeben.",
    ),
    (
        "dealer",
        lambda d: _game(d)["rounds"][2].update(dealer=0),
        "): Runde 3: Der Geber sitzt auf Platz 0, aber das Geben geht an Platz 2.",
    ),
    (
        "numbered",
        lambda d: _game(d)["rounds"][1].update(number=7),
        "): Runde 2 hat die Nummer 7: Die Runden müssen der Reihe nach 1, 2, 3, … nummeriert sein.",
    ),
    (
        "trump",
        lambda d: _game(d)["rounds"][0].update(trump="purple"),
        "): Runde 1: Der Trumpf 'purple' ist weder eine Farbe noch 'none' oder 'wizard:<Farbe>'.",
    ),
    (
        "bids not a list",
        lambda d: _game(d)["rounds"][0].update(bids="1,0,0"),
        "): Runde 1: bids muss eine Liste von 3 Zahlen in Sitzreihenfolge sein.",
    ),
    (
        "tricks too many",
        lambda d: _game(d)["rounds"][1].update(tricks=[2, 1, 0]),
        "): Runde 2 "
        "verstößt gegen die Regeln: Die Stiche ergeben zusammen 3, aber in dieser Runde wurden "
        "2 Stiche gespielt.",
    ),
    (
        "bid out of range",
        lambda d: _game(d)["rounds"][0].update(bids=[3, 0, 0]),
        "): Runde 1 "
        "verstößt gegen die Regeln: Ann (Geber) darf nicht 3 ansagen: In einer Runde mit 1 Karte "
        "gehen die Ansagen von 0 bis 1.",
    ),
    (
        "player twice",
        lambda d: _game(d).update(players=["Ann", "ann", "Cat"]),
        "): Ein Spieler sitzt zweimal am Tisch.",
    ),
    (
        "two players",
        lambda d: _game(d).update(players=["Ann", "Ben"]),
        "): Wizard wird von 3 bis 6 Spielern gespielt, nicht von 2.",
    ),
    (
        "bad date",
        lambda d: _game(d).update(created_at="gestern"),
        "): created_at 'gestern' ist kein Datum mit Uhrzeit (ISO 8601).",
    ),
    (
        "finished",
        lambda d: _game(d).update(finished_at="2026-01-01T00:00:00+00:00"),
        "): Nach den Runden ist das Spiel nicht beendet, aber finished_at sagt etwas anderes.",
    ),
    ("change", lambda d: _game(d)["changes"][0].pop("action"), ", Änderung 1: 'action' fehlt."),
    ("twice", lambda d: d["games"].append(_game(d)), "steht zweimal in der Datei."),
]


@pytest.mark.parametrize(("what", "mutate", "says"), GERMAN, ids=[g[0] for g in GERMAN])
def test_every_problem_of_a_file_in_german(
    app: Flask, what: str, mutate: Mutation, says: str
) -> None:
    _pid, data = _backup(app)
    mutate(data)
    with (
        app.test_request_context(headers={"Accept-Language": "de"}),
        pytest.raises(Rejected) as refused,
    ):
        transfer.parse_history(json.dumps(data))
    assert says in refused.value.message, refused.value.message


def test_a_broken_file_in_german(app: Flask) -> None:
    with (
        app.test_request_context(headers={"Accept-Language": "de"}),
        pytest.raises(Rejected) as refused,
    ):
        transfer.parse_history("{")
    assert refused.value.message == (
        "Die Datei ist kein gültiges JSON (Zeile 1, Spalte 2): Wähle die .json-Datei, die ein "
        "Export von Scorekeeper erstellt hat."
    )


# -- the command line ----------------------------------------------------------------------

SHELL = {"LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None}


def test_import_command_in_german(app: Flask, tmp_path: Path) -> None:
    pid, data = _backup(app)
    bad = tmp_path / "bad.json"
    bad.write_bytes(_bad_totals(data))
    runner = app.test_cli_runner()
    result = runner.invoke(args=["import", str(bad)], env={**SHELL, "LANG": "de_DE.UTF-8"})
    assert result.exit_code == 1
    assert result.stderr.startswith(
        f"Import abgelehnt, nichts gespeichert: Spiel 1 ({pid}): Runde 2, Ann: Die Datei nennt "
        "den Stand 1, die Regeln ergeben 60."
    )
    good = tmp_path / "good.json"
    good.write_text(json.dumps(_backup(app)[1]))
    result = runner.invoke(args=["import", str(good)], env={**SHELL, "LANG": "de_DE.UTF-8"})
    assert result.exit_code == 0
    assert result.stderr == "0 Spiele importiert; 2 schon vorhanden, übersprungen.\n"


def test_import_command_in_english_by_default(app: Flask, tmp_path: Path) -> None:
    _pid, data = _backup(app)
    bad = tmp_path / "bad.json"
    bad.write_bytes(_bad_totals(data))
    result = app.test_cli_runner().invoke(
        args=["import", str(bad)], env={**SHELL, "LANG": "C.UTF-8"}
    )
    assert result.exit_code == 1
    assert result.stderr.startswith("Import refused, nothing stored: Game 1 (")


@pytest.mark.parametrize(
    ("env", "language"),
    [
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "de_AT"}, "de"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "fr"),
        ({"LANG": "es_ES.UTF-8"}, "es"),
        ({"LANG": "it_IT.UTF-8"}, "it"),
        ({"LANG": "nl_BE.UTF-8"}, "nl"),
        ({"LANG": "pl_PL.UTF-8"}, "pl"),
        ({"LANG": "pt_BR.UTF-8"}, "en"),  # a language the app doesn't speak
        ({"LANG": "C"}, "en"),
        ({}, "en"),
        ({"LC_ALL": "C.UTF-8", "LANG": "de_DE.UTF-8"}, "en"),  # LC_ALL wins over LANG
        ({"LC_MESSAGES": "de_DE.UTF-8", "LANG": "en_US.UTF-8"}, "de"),
        ({"LANGUAGE": "pt:pl:de", "LANG": "en_US.UTF-8"}, "pl"),  # the first of the list we have
    ],
)
def test_shell_language(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], language: str
) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert i18n.shell_language() == language


# -- the trick resolver's notes -----------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "german_note", "english_note"),
    [
        (
            "R5 R5",
            "Unmöglich: Die Karte rot 5 gibt es im Kartenspiel nur einmal.",
            "Impossible: there is only one R5 in the deck.",
        ),
        (
            "W W W W W",
            "Unmöglich: Im Kartenspiel sind nur 4 Zauberer.",
            "Impossible: the deck has only 4 Wizards.",
        ),
        (
            "J J J J J",
            "Unmöglich: Im Kartenspiel sind nur 4 Narren.",
            "Impossible: the deck has only 4 Jesters.",
        ),
        (
            "R5 G13",
            "Nur erlaubt, wenn Spieler 2 kein rot hatte: rot musste bedient werden.",
            "Only legal if player 2 had no red: they had to follow red.",
        ),
    ],
)
def test_resolver_notes_in_german_and_english(
    german: Pages, english: Pages, cards: str, german_note: str, english_note: str
) -> None:
    url = f"/resolver/?trump=blue&cards={cards.replace(' ', '+')}"
    in_german = _text(german.client.get(url).get_data(as_text=True))
    assert german_note in in_german
    assert english_note not in in_german
    assert english_note in _text(english.client.get(url).get_data(as_text=True))


@pytest.mark.parametrize(
    ("cards", "german", "english"),
    [
        ("R13+X9", "'X9' ist keine Karte: schreib einen Farbbuchstaben", "'X9' is not a card"),
        ("W+r14", "'r14' ist keine Karte", "'r14' is not a card: write a suit letter"),
    ],
)
def test_resolver_cards_it_cannot_read_in_german_and_english(
    client: FlaskClient, cards: str, german: str, english: str
) -> None:
    de = client.get(f"/resolver/?cards={cards}", headers={"Accept-Language": "de"})
    en = client.get(f"/resolver/?cards={cards}", headers={"Accept-Language": "en"})
    assert de.status_code == en.status_code == 200
    assert german in html.unescape(de.get_data(as_text=True))
    assert english in html.unescape(en.get_data(as_text=True))
