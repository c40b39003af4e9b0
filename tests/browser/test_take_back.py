"""Taking a bid back on a phone (390×844): one tap on the first player's bid takes back
that bid alone, even with hidden bids (V3) collected one by one, and "Undo" right after
puts it back."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from playwright.sync_api import Page, expect

from scorekeeper import transaction
from scorekeeper.services import games as game_service
from tests.browser.test_in_view import in_view

NAMES = ["Anna", "Ben", "Clara", "Dan", "Eve"]


def tap(page: Page, target: str, name: str) -> None:
    """Tap a button of the entry panel and wait for the panel the answer brings."""
    version = page.locator("#entry").get_attribute("data-version") or ""
    page.locator(target).get_by_role("button", name=name, exact=True).click()
    expect(page.locator("#entry")).not_to_have_attribute("data-version", version)


def bid_cells(page: Page) -> list[str]:
    return [t.strip() for t in page.locator("table.seats tbody td:nth-child(2)").all_inner_texts()]


def test_v3_one_tap_takes_back_one_hidden_bid_and_undo_puts_it_back(
    page: Page, live_server: str, app: Flask, artifacts: Path
) -> None:
    with app.app_context(), transaction.atomic():
        rules = game_service.parse_rules({"bidding": "hidden", "dealer_rule": "plus_minus_one"})
        game, token = game_service.create_game(NAMES, 4, rules)
        public_id = game.public_id
    page.goto(f"{live_server}/games/{public_id}/score/{token}")
    # Round 1: Eve deals; Anna, Ben, Clara, Dan bid in secret, one by one.
    for bid in ("0", "1", "0", "0"):
        tap(page, "form.taps .keys", bid)
    assert bid_cells(page) == ["✓", "✓", "✓", "✓", "·"]
    # Anna's bid was misheard: one tap on it.
    tap(page, "form.seats-form", "Anna's bid ✓: take it back")
    assert bid_cells(page) == ["·", "✓", "✓", "✓", "·"]  # the others stay
    expect(page.locator("form.taps .ask")).to_have_text("Anna bids")
    taken = page.locator("#entry .taken-back")
    expect(taken).to_contain_text("Anna's bid is taken back.")
    in_view(page, taken)
    page.screenshot(path=artifacts / "take-back-one-bid.png")
    # Undo: it goes back as it was, still hidden.
    tap(page, "#entry .taken-back", "↶ Undo")
    assert bid_cells(page) == ["✓", "✓", "✓", "✓", "·"]
    expect(page.locator("form.taps .ask")).to_contain_text("Eve")
    with app.app_context():
        draft = game_service.draft_of(game_service.get_game(public_id))
        assert draft is not None and draft.bids == (0, 1, 0, 0, None)
    page.screenshot(path=artifacts / "take-back-undone.png")
