"""The "Only Ben missed" button on a small phone: under the number keys, it follows the
player the keys point at (a tap on their circle), shows the count it would enter (what
the tricks left leave when everyone else made their bid, R16), and a tap enters every
count left and scores the round. A player who can't be the only one is refused next to
the keys, with why, and nothing is stored. The keys never move. Offline the page offers
the same from the game's data (the engine's steps)."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from playwright.sync_api import BrowserContext, Locator, Page, expect

from scorekeeper import transaction
from scorekeeper.extensions import db
from scorekeeper.services import games as game_service
from tests.browser.test_in_view import in_view
from tests.browser.test_offline import key, open_pad

NAMES = ["Ann", "Ben", "Cat", "Dan"]


def round_3_bid(app: Flask) -> tuple[str, str]:
    """Ann, Ben, Cat, Dan at 50, 50, 40, 50 before round 3 (3 cards, Ben deals, Cat
    bids first), its bids in: Cat 2, Dan 0, Ann 1, Ben 1 (4 for 3 tricks: someone
    missed). The game's id and the scorer link."""
    with app.app_context(), transaction.atomic():
        game, token = game_service.create_game(NAMES, 3, game_service.parse_rules({}))
        game_service.record_round(game, [0, 0, 0, 1], [0, 0, 0, 1])
        game_service.record_round(game, [1, 1, 0, 0], [1, 1, 0, 0])
        for seat, bid in ((2, 2), (3, 0), (0, 1), (1, 1)):
            game_service.set_bid(game, seat, bid)
        return game.public_id, f"/games/{game.public_id}/score/{token}"


def test_only_one_missed_follows_the_keys_and_refuses_with_why(
    page: Page, app: Flask, live_server: str, artifacts: Path
) -> None:
    page.set_viewport_size({"width": 360, "height": 640})
    public_id, link = round_3_bid(app)
    page.goto(live_server + link)
    entry = page.locator("#entry")
    keys = entry.locator("form.taps .keys")
    button = entry.locator("form.missed-form button")
    where = keys.bounding_box()

    def pick(name: str) -> Locator:
        circle = entry.get_by_role("button", name=f"Enter {name}'s tricks")
        circle.click()
        expect(circle).to_have_attribute("aria-pressed", "true")
        return circle

    # Cat is asked first: if she alone missed, she took 1 (Dan 0, Ann 1, Ben 1 as bid).
    expect(button).to_have_text("✓ Only Cat missed: took 1")
    in_view(page, button)
    # Dan bid 0: he alone would have taken -1. His button says no count; a tap on it is
    # refused next to the keys, and nothing is stored.
    pick("Dan")
    expect(button).to_have_text("✓ Only Dan missed")
    version = entry.get_attribute("data-version")
    button.click()
    alert = entry.locator(".thumb-zone .alert")
    expect(alert).to_have_text(
        "Dan can't be the only one who missed: the others' bids come to 4, "
        "and only 3 tricks are left."
    )
    in_view(page, alert)
    assert entry.get_attribute("data-version") == version
    assert keys.bounding_box() == where
    page.screenshot(path=artifacts / "only-missed-refused.png")
    with app.app_context():
        game = game_service.get_game(public_id)
        assert [r.tricks for r in game.rounds[2].results] == [None] * 4
    # Ann took 0 of her 1, everyone else made their bid: two taps.
    pick("Ann")
    expect(button).to_have_text("✓ Only Ann missed: took 0")
    assert keys.bounding_box() == where
    page.screenshot(path=artifacts / "only-missed.png")
    button.click()
    expect(page.locator("#entry-title")).to_contain_text("Round 4")
    # Ann −10, Ben +30, Cat +40, Dan +20 on top of 50, 50, 40, 50 (R16).
    expect(page.locator("#round-3 td.total")).to_have_text(["40", "D80", "80", "70"])
    in_view(page, entry.locator(".reopen"))
    with app.app_context():
        game = game_service.get_game(public_id)
        tricks = {r.seat: r.tricks for r in game.rounds[2].results}
        assert [tricks[s] for s in range(4)] == [0, 1, 2, 0]


def test_offline_the_same_offer_comes_from_the_games_data(
    page: Page, context: BrowserContext, app: Flask, live_server: str
) -> None:
    """Without a connection the page offers "only … missed" as the server would, worked
    out from the engine's steps in the game's data: the queued tap fills in every count
    left and the next round is drawn; back online the server stores the same counts."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    public_id, link = round_3_bid(app)
    open_pad(page, live_server + link)
    entry = page.locator("#entry")
    button = entry.locator("form.missed-form button")
    context.set_offline(True)
    expect(page.locator("#net")).to_contain_text("Offline")
    key(page, 2)  # Cat made her 2: 1 trick left for Dan, Ann and Ben, who bid 0, 1, 1
    expect(entry.locator("form.taps .ask")).to_have_text("Tricks: Dan took")
    expect(button).to_have_text("✓ Only Dan missed")  # Ann's and Ben's bids pass the 1 left
    entry.get_by_role("button", name="Enter Ann's tricks").click()
    expect(button).to_have_text("✓ Only Ann missed: took 0")
    button.click()
    expect(page.locator("#entry-title")).to_contain_text("Round 4")
    expect(page.locator("[data-offline-undo]")).to_have_text("↶ Undo")
    expect(page.locator("#net")).to_contain_text("2 entries not saved yet")

    context.set_offline(False)
    expect(page.locator("#net")).to_contain_text("Saved ✓")
    expect(page.locator("#pad tr.unsaved")).to_have_count(0)
    with app.app_context():
        db.session.expire_all()
        game = game_service.get_game(public_id)
        tricks = {r.seat: r.tricks for r in game.rounds[2].results}
        assert [tricks[s] for s in range(4)] == [0, 1, 2, 0]
    assert errors == []
