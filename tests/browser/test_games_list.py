"""A circle's games list on a 360-px phone: each game compact (the time of day, who leads
and by how much, the variants as badges), nothing wider than the screen; Delete asks
first, right where it was tapped, and the Undo is on the page it leads to."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, Locator, Page, expect

from scorekeeper import transaction
from scorekeeper.extensions import db
from scorekeeper.models import utcnow
from scorekeeper.services import circles as circle_service
from scorekeeper.services import games as game_service
from tests.browser.test_a11y import TAP_TARGETS, axe_problems

WIDTH, HEIGHT = 360, 740
NAMES = ["Anna-Katharina", "Benedikt", "Clara", "Dominik", "Eleonore", "Friedrich"]
ALL_VARIANTS = {
    "dealer_rule": "canadian",
    "bidding": "open",
    "no_full_bid": True,
    "saboteur": True,
    "round_plan": "short",
    "tie_break": "bid_total",
    "scoring": {"exact_bonus": 30, "per_trick": 10, "per_miss": 10},
    "suit_names": "french",
}


@pytest.fixture
def phone(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[Page]:
    """A small phone (360 × 740), CSP bypassed for axe-core."""
    context = browser.new_context(
        **{**browser_context_args, "viewport": {"width": WIDTH, "height": HEIGHT}},
        bypass_csp=True,  # type: ignore[arg-type]
    )
    try:
        yield context.new_page()
    finally:
        context.close()


def _history(app: Flask) -> tuple[str, str, str, str]:
    """A circle with a finished game, an ongoing one with every variant it can have, and
    one set up two days ago and never played; its link, and the first two games' ids."""
    with app.app_context(), transaction.atomic():
        circle = circle_service.create_circle("Thursday Wizards")
        done, _ = game_service.create_game(
            NAMES[:3], 0, game_service.parse_rules({"round_plan": "short"}), circle_id=circle.id
        )
        for cards in game_service.sheet_of(done).plan:
            game_service.record_round(done, [cards, 0, 0], [cards, 0, 0])
        busy, _ = game_service.create_game(
            NAMES, 0, game_service.parse_rules(ALL_VARIANTS), circle_id=circle.id
        )
        # Round 1 (1 card, Anna deals and doesn't bid, V6): Benedikt bids 1 and takes it.
        game_service.record_round(busy, [None, 1, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0])
        empty, _ = game_service.create_game(
            NAMES[3:], 0, game_service.parse_rules({}), circle_id=circle.id
        )
        empty.updated_at = utcnow() - timedelta(days=2)
        db.session.commit()
        link = f"/c/{circle.public_id}/{circle_service.circle_key(circle)}"
        return link, f"/circles/{circle.public_id}/games", done.public_id, busy.public_id


def _in_view(phone: Page, element: Locator) -> None:
    expect(element).to_be_visible()
    box = element.bounding_box()
    assert box is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= HEIGHT, box
    assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, box


def _fits(phone: Page) -> None:
    assert phone.evaluate("document.documentElement.scrollWidth") <= WIDTH
    assert not phone.evaluate(TAP_TARGETS)
    assert not axe_problems(phone)


def test_the_games_list_on_a_small_phone(
    app: Flask, phone: Page, live_server: str, artifacts: Path
) -> None:
    link, games, done, busy = _history(app)
    phone.goto(live_server + link)
    phone.goto(live_server + games)
    lines = phone.locator("li.game-line")
    expect(lines).to_have_count(2)  # the empty game left for two days is not among them
    expect(phone.get_by_role("link", name="Show 1 empty game")).to_be_visible()

    ongoing = lines.nth(0)
    expect(ongoing.locator(".leader")).to_have_text("Benedikt leads with 40")
    # The time of day, in the phone's own zone (app.js), not only the day.
    expect(ongoing.locator("time")).to_have_text(re.compile(r"\d{1,2}:\d{2}"))
    expect(ongoing.locator(".badge")).to_have_text(
        [
            "Canadian",
            "Saboteur",
            "No full bid",
            "Short game",
            "Own scoring",
            "Tie-break by bids",
            "French suits",
        ]
    )
    finished = lines.nth(1)
    expect(finished.locator(".winners")).to_have_text("Won by Anna-Katharina with 1300")
    expect(finished.get_by_role("button", name=re.compile("^Play again"))).to_be_visible()
    expect(ongoing.get_by_role("button", name=re.compile("^Play again"))).to_have_count(0)
    phone.screenshot(path=artifacts / "games-list-360.png", full_page=True)
    # Compact: six long names with seven badges take a few lines; three names and one
    # badge, with Play again beside them, a few less.
    for i, tallest in ((0, 220), (1, 170)):
        box = lines.nth(i).bounding_box()
        assert box is not None and box["height"] <= tallest, (i, box)
    _fits(phone)

    # Delete asks first, where it was tapped; nothing is gone yet.
    finished.locator("details.delete > summary").click()
    question = finished.get_by_text("Delete this game? It leaves the list")
    _in_view(phone, question)
    confirm = finished.get_by_role("button", name="Delete game")
    _in_view(phone, confirm)
    _fits(phone)
    phone.screenshot(path=artifacts / "games-list-360-delete.png", full_page=True)
    # "Keep it" closes the question again.
    finished.locator("details.delete > summary").click()
    expect(confirm).to_be_hidden()
    finished.locator("details.delete > summary").click()
    confirm.click()

    notice = phone.locator(".notice.undo")
    expect(notice).to_contain_text("Game deleted: Anna-Katharina, Benedikt, Clara.")
    _in_view(phone, notice.get_by_role("button", name="Undo"))
    expect(phone.locator("li.game-line")).to_have_count(1)
    assert phone.request.get(f"{live_server}/games/{done}").status == 404
    _fits(phone)
    phone.screenshot(path=artifacts / "games-list-360-undo.png", full_page=True)

    notice.get_by_role("button", name="Undo").click()
    expect(phone.get_by_text("The game is back.")).to_be_visible()
    expect(phone.locator("li.game-line")).to_have_count(2)
    expect(phone.locator(f'li.game-line a[href="/games/{done}"]')).to_be_visible()
    assert phone.request.get(f"{live_server}/games/{busy}").status == 200

    # The empty game, when asked for.
    phone.get_by_role("link", name="Show 1 empty game").click()
    expect(phone.locator("li.game-line")).to_have_count(3)
    expect(phone.locator("li.game-line.empty")).to_contain_text("Not started yet")
    _fits(phone)
