"""At the table on a 390×844 phone: a new game of four known players in six taps from the
home page, and the next game in one tap from the final screen (once, however often the
button is tapped)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, Locator, Page, expect
from sqlalchemy import func, select

from scorekeeper import transaction
from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.services import circles as circle_service
from scorekeeper.services import games as game_service
from tests.browser.test_a11y import TAP_TARGETS, axe_problems


class Taps:
    """Taps counted; each waits for what it should change on the page."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.count = 0

    def tap(self, target: Locator) -> None:
        target.click()
        self.count += 1


def _circle_with_history(app: Flask) -> tuple[str, str]:
    """A circle whose players have played before (the latest table: Dan, Eve, Ann, Ben,
    under the German rule); its link and the latest game's scorer link (paths)."""
    with app.app_context(), transaction.atomic():
        circle = circle_service.create_circle("Thursday Wizards")
        rules = game_service.parse_rules({"dealer_rule": "plus_minus_one"})
        for names in (["Fay", "Gus", "Hal"], ["Dan", "Eve", "Ann", "Ben"]):
            game, token = game_service.create_game(names, 0, rules, circle_id=circle.id)
        link = f"/c/{circle.public_id}/{circle_service.circle_key(circle)}"
        return link, f"/games/{game.public_id}/score/{token}"


def _games(app: Flask) -> int:
    with app.app_context():
        return int(db.session.scalar(select(func.count()).select_from(Game)) or 0)


def _finished_game(app: Flask, names: list[str], first_dealer: int) -> tuple[str, str]:
    """A short game (V8) played to the end; its public id and scorer link (path)."""
    with app.app_context(), transaction.atomic():
        rules = game_service.parse_rules({"round_plan": "short", "bidding": "hidden"})
        game, token = game_service.create_game(names, first_dealer, rules)
        sheet = game_service.sheet_of(game)
        for number, cards in enumerate(sheet.plan, start=1):
            dealer = sheet.dealer(number)
            bids, tricks = [0] * len(names), [0] * len(names)
            bids[dealer] = tricks[dealer] = cards
            game_service.record_round(game, bids, tricks, trump="none")
        return game.public_id, f"/games/{game.public_id}/score/{token}"


@pytest.fixture
def checked_page(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[Page]:
    """A phone whose pages axe-core can be run on (the page's CSP bypassed)."""
    context = browser.new_context(**browser_context_args, bypass_csp=True)  # type: ignore[arg-type]
    try:
        yield context.new_page()
    finally:
        context.close()


def fits(page: Page, width: int) -> bool:
    """Whether the page fits ``width`` CSS pixels without sideways scrolling (the
    viewport is put back to the phone's afterwards)."""
    before = page.viewport_size
    page.set_viewport_size({"width": width, "height": 740})
    try:
        return bool(page.evaluate(f"document.documentElement.scrollWidth <= {width}"))
    finally:
        if before:
            page.set_viewport_size(before)


def test_a_new_game_of_four_known_players_in_six_taps(
    app: Flask, checked_page: Page, live_server: str, artifacts: Path
) -> None:
    page = checked_page
    link, last_game = _circle_with_history(app)
    # Done long before: this phone holds the circle, and kept score of its last game.
    page.goto(live_server + link)
    page.goto(live_server + last_game)
    page.goto(live_server + "/")
    taps = Taps(page)

    taps.tap(page.get_by_role("link", name="New game"))
    expect(page.get_by_label("Thursday Wizards")).to_be_checked()  # the circle, chosen
    # The latest table first, in its seats; the last game's rules already chosen.
    chip_row = page.locator("#setup .chips .chip")
    expect(chip_row).to_have_text(["Dan", "Eve", "Ann", "Ben", "Fay", "Gus", "Hal"])
    expect(page.locator("#setup input[name=dealer_rule][value=plus_minus_one]")).to_be_checked()
    for name in ("Ann", "Ben", "Dan", "Eve"):
        chip = page.locator("#setup .chips").get_by_role("button", name=name, exact=True)
        taps.tap(chip)
        expect(chip).to_have_attribute("aria-pressed", "true")
    seats = page.locator("#setup input[name=player]")
    for seat, name in enumerate(["Ann", "Ben", "Dan", "Eve", "", ""]):
        expect(seats.nth(seat)).to_have_value(name)
    expect(page.locator("#setup input[name=dealer][value='0']")).to_be_checked()
    page.screenshot(path=artifacts / "setup-four-chips.png", full_page=True)
    assert axe_problems(page) == []
    assert page.evaluate(TAP_TARGETS) == []
    assert fits(page, 320)
    # The rules are set already: Start, at the thumb.
    taps.tap(page.locator("#setup .start-bar").get_by_role("button", name="Start the game"))

    # The game page, ready for the first bid: Ben bids first (Ann deals).
    expect(page).to_have_url(re.compile(r"/games/[\w-]+\?welcome=1$"))
    expect(page.locator(".topbar-role")).to_have_text("Keeping score")
    expect(page.locator("form.taps .key:not([disabled])").first).to_be_attached()
    assert taps.count <= 6, f"{taps.count} taps from the home page to the first bid"
    with app.app_context():
        game = db.session.scalars(select(Game).order_by(Game.id.desc())).first()
        assert game is not None
        assert game_service.names_of(game) == ["Ann", "Ben", "Dan", "Eve"]
        assert game.rules["dealer_rule"] == "plus_minus_one"  # remembered from the last game


def test_play_again_in_one_tap_from_the_final_screen(
    app: Flask, checked_page: Page, live_server: str, artifacts: Path
) -> None:
    page = checked_page
    old, scorer_link = _finished_game(app, ["Anna", "Ben", "Clara", "Dan"], first_dealer=3)
    page.goto(live_server + scorer_link)
    final = page.locator("#entry")
    expect(final.get_by_role("heading", name="Final standings")).to_be_visible()
    button = final.get_by_role("button", name="Play again")
    expect(final).to_contain_text("Same players and seats, Anna deals first, same rules.")
    button.scroll_into_view_if_needed()
    expect(button).to_be_in_viewport()
    assert axe_problems(page) == []
    assert page.evaluate(TAP_TARGETS) == []
    assert fits(page, 390) and fits(page, 320)
    page.screenshot(path=artifacts / "final-play-again.png", full_page=True)

    games = _games(app)
    # Two quick taps, as a thumb on a slow connection does: one game.
    button.dblclick()
    # Straight to the first bid: its key on the screen, no follow card before it.
    expect(page).to_have_url(re.compile(r"/games/[\w-]+$"))
    expect(page.locator("form.taps .key:not([disabled])").first).to_be_in_viewport(ratio=1)
    new = page.url.split("?")[0].rsplit("/", 1)[1]
    assert new != old
    expect(page.locator(".topbar-role")).to_have_text("Keeping score")
    expect(page.locator("#pad thead")).to_contain_text("Anna")
    assert _games(app) == games + 1
    with app.app_context():
        game = game_service.get_game(new)
        assert game_service.names_of(game) == ["Anna", "Ben", "Clara", "Dan"]
        assert game.first_dealer == 0  # after the last seat, the first
        assert game.rules == game_service.get_game(old).rules


def test_a_follower_is_not_offered_play_again(app: Flask, page: Page, live_server: str) -> None:
    old, _link = _finished_game(app, ["Anna", "Ben", "Clara"], first_dealer=0)
    page.goto(f"{live_server}/games/{old}")
    expect(page.locator("#entry").get_by_role("heading", name="Final standings")).to_be_visible()
    expect(page.get_by_role("button", name="Play again")).to_have_count(0)
    expect(page.get_by_role("link", name="New game")).to_be_visible()


@pytest.mark.parametrize("size", [(360, 640), (375, 667)], ids=["360x640", "375x667"])
def test_play_again_opens_with_the_first_bid_key_in_view_on_a_small_phone(
    app: Flask, page: Page, live_server: str, artifacts: Path, size: tuple[int, int]
) -> None:
    """Six players, the smallest phones: one tap on Play again and the first bid's keys are
    on the screen (the phones that followed are led to the new game by themselves)."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    _old, scorer_link = _finished_game(app, ["Anna", "Ben", "Clara", "Dan", "Eve", "Fay"], 0)
    page.goto(live_server + scorer_link)
    button = page.locator("#entry").get_by_role("button", name="Play again")
    button.scroll_into_view_if_needed()
    button.click()
    expect(page).to_have_url(re.compile(r"/games/[\w-]+$"))
    expect(page.locator("form.taps .key:not([disabled])").first).to_be_in_viewport(ratio=1)
    expect(page.locator(".welcome")).to_have_count(0)
    page.screenshot(path=artifacts / f"play-again-first-bid-{size[0]}.png")


@pytest.mark.parametrize("size", [(360, 640), (375, 667)], ids=["360x640", "375x667"])
def test_a_returning_table_sits_down_in_one_tap(
    app: Flask, page: Page, live_server: str, artifacts: Path, size: tuple[int, int]
) -> None:
    """The group that played last in the circle: New game, the last table, Start; three
    taps, each on the screen without scrolling, the players in their seats."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    link, last_game = _circle_with_history(app)
    page.goto(live_server + link)
    page.goto(live_server + last_game)
    page.goto(live_server + "/")
    taps = Taps(page)
    table = page.locator("#setup .table-chip")
    start = page.locator("#setup .start-bar").get_by_role("button", name="Start the game")
    seats = page.locator("#setup input[name=player]")
    for target in (page.get_by_role("link", name="New game"), table, start):
        expect(target).to_be_in_viewport(ratio=1)
        if target is table:
            expect(table).to_have_text("Last table: Dan, Eve, Ann, Ben")
        taps.tap(target)
        if target is table:
            for seat, name in enumerate(["Dan", "Eve", "Ann", "Ben", "", ""]):
                expect(seats.nth(seat)).to_have_value(name)
            expect(table).to_have_count(0)  # seated: the chip goes
        if target is start:
            expect(page.locator("form.taps .key").first).to_be_visible()  # the game page
        elif target is not table:
            expect(table).to_be_visible()  # the setup page
        assert page.evaluate("window.scrollY") == 0
    expect(page.locator("form.taps .key").first).to_be_in_viewport(ratio=1)
    assert taps.count == 3
    with app.app_context():
        game = db.session.scalars(select(Game).order_by(Game.id.desc())).first()
        assert game is not None
        assert game_service.names_of(game) == ["Dan", "Eve", "Ann", "Ben"]
    page.screenshot(path=artifacts / f"setup-last-table-{size[0]}.png")
