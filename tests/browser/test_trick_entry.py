"""Trick counts with fewer taps on a phone: a tap on a player's circle points the number
keys at them (counts in any order), the key of their bid is marked, "the rest made their
bids" fills in everyone left, the round is scored once every count is in (R16), and
"Undo" right after it opens the round again without that tap."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, Locator, Page, expect

from scorekeeper import transaction
from scorekeeper.services import games as game_service
from tests.browser.test_a11y import TAP_TARGETS, axe_problems
from tests.browser.test_in_view import in_view

NAMES = ["Ann", "Ben", "Cat", "Dan"]


def round_3(app: Flask) -> tuple[str, str]:
    """Ann, Ben, Cat, Dan with rounds 1 and 2 played (Dan dealt round 1): round 3 deals
    3 cards, Ben deals, Cat bids first. The game's id and scorer link."""
    with app.app_context(), transaction.atomic():
        game, token = game_service.create_game(NAMES, 3, game_service.parse_rules({}))
        game_service.record_round(game, [0, 0, 0, 1], [0, 0, 0, 1])
        game_service.record_round(game, [1, 1, 0, 0], [1, 1, 0, 0])
        return game.public_id, f"/games/{game.public_id}/score/{token}"


@pytest.fixture(params=["light", "dark"])
def page(
    request: pytest.FixtureRequest, browser: Browser, browser_context_args: dict[str, Any]
) -> Iterator[Page]:
    """A 390×844 phone in the light or dark scheme (the page's CSP let through for
    axe-core)."""
    context = browser.new_context(
        **{**browser_context_args, "viewport": {"width": 390, "height": 844}},
        color_scheme=request.param,
        bypass_csp=True,
    )
    yield context.new_page()
    context.close()


def test_misses_first_then_the_rest_as_bid_then_undo(
    page: Page, app: Flask, live_server: str, artifacts: Path
) -> None:
    public_id, link = round_3(app)
    page.goto(live_server + link)
    entry = page.locator("#entry")
    taps = 0

    def tap(target: Locator) -> None:
        nonlocal taps
        before = entry.get_attribute("data-version")
        target.click()
        taps += 1
        expect(entry).not_to_have_attribute("data-version", before or "")

    def key(value: int) -> Locator:
        return entry.locator("form.taps .keys").get_by_role("button", name=str(value), exact=True)

    for bid in (1, 0, 1, 1):  # Cat, Dan, Ann, Ben: bids 3 for 3 tricks
        tap(key(bid))
    ask = entry.locator("form.taps .ask")
    expect(ask).to_have_text("Tricks: Cat took")
    expect(entry.get_by_role("button", name="✓ Everyone made their bid")).to_be_visible()
    # Ann took 2 (bid 1): her circle points the keys at her; her bid's key is marked.
    pick = entry.get_by_role("button", name="Enter Ann's tricks")
    pick.click()
    taps += 1
    expect(ask).to_have_text("Tricks: Ann took")
    expect(pick).to_have_attribute("aria-pressed", "true")
    expect(entry.locator("form.taps .key.as-bid")).to_have_text("1")
    page.screenshot(path=artifacts / "tricks-pick.png")
    tap(key(2))
    # Ben took 0 (bid 1), Cat 1 and Dan 0 as bid.
    expect(ask).to_have_text("Tricks: Cat took")
    entry.get_by_role("button", name="Enter Ben's tricks").click()
    taps += 1
    tap(key(0))
    rest = entry.get_by_role("button", name="✓ The rest made their bids")
    page.screenshot(path=artifacts / "tricks-rest.png")
    tap(rest)
    assert taps == 4 + 5
    # Scored: Ann −10, Ben −10, Cat +30, Dan +20 on top of 50, 50, 40, 50.
    totals = page.locator("#round-3 td.total")
    expect(totals).to_have_text(["40", "D40", "70", "70"])  # D: Ben dealt
    note = entry.locator(".reopen")
    expect(note).to_contain_text("Round 3 is scored.")
    in_view(page, note)
    assert axe_problems(page) == []
    assert page.evaluate(TAP_TARGETS) == []
    page.screenshot(path=artifacts / "tricks-scored.png")
    # Undo: round 3 again, without the last tap's counts; Ann's and Ben's stay.
    tap(note.get_by_role("button", name="Undo"))
    expect(page.locator("#entry-title")).to_contain_text("Round 3")
    rows = entry.locator("table.seats tbody tr")
    expect(rows.locator("td:nth-child(3)")).to_have_text(["·", "·", "2", "0"])
    expect(totals).to_have_text(["", "D", "", ""])
    page.screenshot(path=artifacts / "tricks-reopened.png")
    with app.app_context():
        game = game_service.get_game(public_id)
        assert [r.tricks for r in sorted(game.rounds[2].results, key=lambda r: r.seat)] == [
            2,
            0,
            None,
            None,
        ]


def last_round_bid(app: Flask) -> str:
    """Ann, Ben, Cat, Dan with 14 of the 15 rounds played and round 15's bids in: the
    first to bid (Ann) bid all 15 tricks, the others none. The scorer link."""
    with app.app_context(), transaction.atomic():
        game, token = game_service.create_game(NAMES, 2, game_service.parse_rules({}))
        for cards in game_service.sheet_of(game).plan[:-1]:
            game_service.record_round(game, [0, 0, 0, 0], [cards, 0, 0, 0])
        draft = game_service.draft_of(game)
        assert draft is not None and draft.number == 15
        for seat in draft.order:
            game_service.set_bid(game, seat, 15 if seat == 0 else 0)
        return f"/games/{game.public_id}/score/{token}"


def test_the_last_rounds_undo_goes_once_the_final_screen_was_shown(
    page: Page, app: Flask, live_server: str, artifacts: Path
) -> None:
    """The tap that scores the last round brings the final standings with "Undo" for a
    mistaken tap, as after any round. The offer goes after two minutes on screen, and a
    final screen shown again (the page reloaded, hours later) has none: the pad's round
    link corrects the round from then on."""
    page.goto(live_server + last_round_bid(app))
    entry = page.locator("#entry")
    title = page.locator("#entry-title")

    def last_tap() -> None:
        # Ann took all 15: the others' 0 fill themselves in, and the game is over.
        entry.locator("form.taps .keys").get_by_role("button", name="15", exact=True).click()
        expect(title).to_have_text("Final standings")

    last_tap()
    undo = entry.locator(".reopen")
    expect(undo).to_contain_text("Round 15 is scored.")
    in_view(page, undo)
    page.screenshot(path=artifacts / "final-undo.png")
    undo.get_by_role("button", name="Undo").click()  # a mistake: the round is open again
    expect(title).to_contain_text("Round 15")
    last_tap()
    expect(undo).to_be_visible()
    # Two minutes on screen (the offer's own clock, moved on rather than waited for).
    undo.evaluate("el => el.getAnimations().forEach(a => { a.currentTime = 120000; })")
    expect(undo).to_be_hidden()
    page.reload()
    expect(title).to_have_text("Final standings")
    expect(entry.locator(".reopen")).to_have_count(0)
    expect(entry.get_by_role("button", name="Undo")).to_have_count(0)
