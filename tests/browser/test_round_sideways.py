"""The round on a phone held sideways (640×360, 844×390): the round's table at the left,
who is asked and the keys at the right, every one of them reachable without scrolling,
and the keys standing where they stood all round (as upright:
test_round_on_one_screen.py). Six players, three rounds from the start and three from
round 7 (two columns of rows), with plus/minus one (V1) so that the dealer's struck key
says why, next to the keys."""

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


# On the smaller screen the later rounds (more keys, a struck key's reason and "Undo" at
# once) don't fit beside the table yet: there the keys shift when a message comes.
@pytest.mark.parametrize(
    ("small_phone", "first"),
    [((640, 360), 1), ((844, 390), 1), ((844, 390), 7)],
    ids=["640x360-round-1", "844x390-round-1", "844x390-round-7"],
    indirect=["small_phone"],
)
def test_v1_rounds_on_a_phone_held_sideways(
    small_phone: Page,
    app: Flask,
    live_server: str,
    artifacts: Path,
    first: int,
) -> None:
    played = bots_game(RULES, len(SIX), seed=6)
    link = new_game(app, SIX, RULES)
    with app.app_context(), transaction.atomic():
        game = game_service.get_game(link.split("/")[2])
        for number in range(1, first):
            game_service.record_round(game, played.bids[number - 1], played.tricks[number - 1])
    small_phone.goto(live_server + link)
    size = small_phone.viewport_size or {}
    shot = f"sideways-{first}-{size.get('width')}x{size.get('height')}"
    small_phone.screenshot(path=artifacts / f"{shot}-first.png")
    screen = Screen(small_phone)
    thumb = Thumb(small_phone, screen.before, screen.refused)
    for number in range(first, first + 3):
        expect(thumb.entry.locator("#entry-title")).to_contain_text(f"Round {number} ")
        # Side by side: the keys at the right of the table.
        table = thumb.entry.locator("table.seats").bounding_box()
        keys = thumb.entry.locator("form.taps .keys").bounding_box()
        assert table and keys and keys["x"] >= table["x"] + table["width"], (table, keys)
        thumb.round(played, number)
    small_phone.screenshot(path=artifacts / f"{shot}.png")
