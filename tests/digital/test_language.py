"""Digital play's own messages in the phone's language (German here; English unchanged)."""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask
from werkzeug.test import TestResponse

from scorekeeper import transaction
from scorekeeper.engine import RuleSet
from scorekeeper.services import digital as service
from tests.digital.support import Table

P, B = "person", "bot"
GERMAN = "de-DE,de;q=0.9"


def alert(response: TestResponse) -> str | None:
    """The message the seat's page shows for a refused move."""
    found = re.search(r'role="alert"[^>]*>(.*?)</p>', response.get_data(as_text=True), re.S)
    return html.unescape(found.group(1)).strip() if found else None


def _table(app: Flask, language: str) -> Table:
    table = Table.create(app, RuleSet(), [P, P, B])
    for phone in table.phones.values():
        phone.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    return table


GERMAN_WHOLE_BID = "Eine Ansage ist eine ganze Zahl von Stichen."


@pytest.mark.parametrize(
    ("action", "value", "seq", "german", "english"),
    [
        ("dance", "", "0", "Unbekannter Zug.", "Unknown action."),
        (
            "bid",
            "1",
            "",
            "Dieser Anfrage fehlt ihre Zugnummer.",
            "This request is missing its action number.",
        ),
        ("play", "X9", "0", "'X9' ist keine Karte.", "'X9' is not a card."),
        # Before, a bid of 5,000 digits was "'999…' is not a card", all digits quoted.
        ("bid", "9" * 5000, "0", GERMAN_WHOLE_BID, "A bid is a whole number of tricks."),
        ("trump", "purple", "0", "'purple' ist keine der vier Farben.", None),
    ],
)
def test_a_bad_move_is_refused_in_the_phones_language(
    app: Flask, action: str, value: str, seq: str, german: str, english: str | None
) -> None:
    table = _table(app, GERMAN)
    seat = 1  # the first bidder after dealer 0, a person
    if seq == "0":
        seq = str(table.seq(seat))
    response = table.post(seat, action, value, seq)
    assert response.status_code == 422
    assert alert(response) == german
    if english is not None:
        table = _table(app, "en")
        response = table.post(seat, action, value, seq)
        assert alert(response) == english


def test_a_tap_counted_already_in_german(app: Flask) -> None:
    table = _table(app, GERMAN)
    seq = table.seq(1)
    assert table.post(1, "bid", "0", seq).status_code == 200
    again = table.post(1, "bid", "0", seq)
    assert alert(again) == "Schon erledigt: Dieses Tippen wurde einmal gezählt."


def test_pass_and_play_asks_who_first_in_german(app: Flask) -> None:
    with app.app_context(), transaction.atomic():
        made = service.create_table(["Ann", "Ben", "Cat"], [P, P, B], 0, RuleSet(), seed=3)
        url = f"/digital/{made.game.public_id}/t/{made.table_token}/act"
    phone = app.test_client()
    phone.environ_base["HTTP_ACCEPT_LANGUAGE"] = GERMAN
    response = phone.post(url, data={"action": "bid", "value": "0", "seq": "0"})
    assert response.status_code == 422
    assert (
        alert(response)
        == "Tippe zuerst auf „Tippen, wenn nur … hinschaut“ für den Spieler, der dran ist."
    )
