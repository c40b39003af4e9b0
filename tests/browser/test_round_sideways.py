"""The round on a phone held sideways (640×360, 844×390): the round's table at the left,
who is asked and the keys at the right, every one of them reachable without scrolling,
and the keys standing where they stood all round (as upright:
test_round_on_one_screen.py). Six players, three rounds from the start and three from
round 7 (two columns of rows), with plus/minus one (V1) so that the dealer's struck key
says why, next to the keys. On the smaller screen the later rounds to the last in German
with six long names: the longest messages there are (a struck key's reason, "Undo …",
"Only … missed") take their own room and leave the keys where they are."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from bench.thumb import Thumb, bots_game
from scorekeeper import transaction
from scorekeeper.services import games as game_service
from tests.browser.test_round_on_one_screen import SIX, Screen, new_game

RULES = {"dealer_rule": "plus_minus_one"}
LONG = ["Maximiliane", "Bartholomäus", "Christopher", "Konstantin", "Friederike", "Annemarie"]


def only_de(name: str, took: int) -> str:
    return f"✓ Nur {name} daneben: {took} {'Stich' if took == 1 else 'Stiche'}"


@pytest.mark.parametrize(
    ("small_phone", "first", "last", "language"),
    [
        ((640, 360), 1, 3, "en"),
        ((844, 390), 1, 3, "en"),
        ((844, 390), 7, 9, "en"),
        ((640, 360), 7, 10, "de"),
    ],
    ids=["640x360-round-1", "844x390-round-1", "844x390-round-7", "640x360-round-7-to-10-de"],
    indirect=["small_phone"],
)
def test_v1_rounds_on_a_phone_held_sideways(
    small_phone: Page,
    app: Flask,
    live_server: str,
    artifacts: Path,
    first: int,
    last: int,
    language: str,
) -> None:
    names = LONG if language == "de" else SIX
    played = bots_game(RULES, len(names), seed=6)
    assert last <= len(played.plan)
    link = new_game(app, names, RULES)
    with app.app_context(), transaction.atomic():
        game = game_service.get_game(link.split("/")[2])
        for number in range(1, first):
            game_service.record_round(game, played.bids[number - 1], played.tricks[number - 1])
    small_phone.context.add_cookies([{"name": "lang", "value": language, "url": live_server}])
    small_phone.goto(live_server + link)
    size = small_phone.viewport_size or {}
    shot = f"sideways-{first}-{size.get('width')}x{size.get('height')}-{language}"
    small_phone.screenshot(path=artifacts / f"{shot}-first.png")
    screen = Screen(small_phone)
    thumb = Thumb(
        small_phone,
        screen.before,
        screen.refused,
        **({"only": only_de} if language == "de" else {}),
    )
    word = "Runde" if language == "de" else "Round"
    for number in range(first, last + 1):
        expect(thumb.entry.locator("#entry-title")).to_contain_text(f"{word} {number} ")
        # Side by side: the keys at the right of the table.
        table = thumb.entry.locator("table.seats").bounding_box()
        keys = thumb.entry.locator("form.taps .keys").bounding_box()
        assert table and keys and keys["x"] >= table["x"] + table["width"], (table, keys)
        thumb.round(played, number)
    small_phone.screenshot(path=artifacts / f"{shot}.png")
