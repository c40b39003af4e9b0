"""The story of a game on a phone (390×844): the totals axis reads — its labels apart,
negative ones with a real minus sign, from below the lowest total to above the highest."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from scorekeeper import transaction
from scorekeeper.services import games as game_service
from tests.web.test_final_standings import TIED_GAME

# The totals axis's labels as drawn: text, top and bottom on the screen.
LABELS = """() => [...document.querySelectorAll('.chart svg .axis.y text')].map(t => {
    const box = t.getBoundingClientRect();
    return [t.textContent, box.top, box.bottom];
})"""


@pytest.mark.parametrize("rounds", [4, 10], ids=["early", "finished"])
def test_the_story_chart_reads_on_a_phone(
    page: Page, live_server: str, app: Flask, artifacts: Path, rounds: int
) -> None:
    with app.app_context(), transaction.atomic():
        rules = game_service.parse_rules({"round_plan": "short"})
        game, _token = game_service.create_game(["Anna", "Ben", "Clara"], 0, rules)
        for bids, tricks in TIED_GAME[:rounds]:
            game_service.record_round(game, bids, tricks)
        public_id = game.public_id
        totals = [t for r in game_service.sheet_of(game).rounds for t in r.totals]
    page.goto(f"{live_server}/games/{public_id}/story")
    expect(page.locator(".chart svg")).to_be_visible()
    page.locator(".chart").scroll_into_view_if_needed()
    page.screenshot(path=artifacts / f"story-chart-{rounds}.png")
    labels = sorted(page.evaluate(LABELS), key=lambda label: label[1])
    values = [int(text.replace("\N{MINUS SIGN}", "-")) for text, _top, _bottom in labels]
    assert not [text for text, _top, _bottom in labels if "-" in text]  # U+2212 only
    # Apart: a label's height at least between two labels.
    for (_a, top, bottom), (_b, next_top, _next_bottom) in zip(labels, labels[1:], strict=False):
        assert next_top - bottom >= bottom - top, labels
    assert max(values) >= max(totals)
    assert min(values) <= 0
