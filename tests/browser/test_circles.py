"""A group's circle on two phones: made in a few taps, joined by its link, scored by either."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect

from scorekeeper import transaction
from scorekeeper.services import circles as circle_service
from scorekeeper.services import games as game_service


@pytest.fixture
def second_phone(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[Page]:
    context = browser.new_context(**browser_context_args)
    try:
        yield context.new_page()
    finally:
        context.close()


def _fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_circle_from_making_to_a_second_scorer(
    page: Page, second_phone: Page, live_server: str, artifacts: Path
) -> None:
    # Phone 1: the home page offers a circle; a name is enough.
    page.goto(live_server + "/")
    page.get_by_role("link", name="New circle").click()
    page.get_by_label("Name of the circle").fill("Thursday Wizards")
    page.get_by_role("button", name="Make the circle").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Thursday Wizards")
    expect(page.get_by_text("Your circle is ready.")).to_be_visible()
    link = page.locator(".share .share-link").first
    expect(link).to_be_visible()
    circle_link = link.get_attribute("href")
    assert circle_link and "/c/" in circle_link
    _fits(page)
    page.screenshot(path=artifacts / "circle-home.png", full_page=True)

    # A game in the circle: the setup form has the circle chosen.
    page.get_by_role("link", name="New game").click()
    expect(page.get_by_label("Thursday Wizards")).to_be_checked()
    for seat, name in enumerate(["Anna", "Ben", "Clara"]):
        page.get_by_label(f"Player {seat + 1}", exact=True).fill(name)
    page.locator("#setup").get_by_role("button", name="Start the game").last.click()
    expect(page.get_by_role("heading", name="Ready to play")).to_be_visible()
    expect(page.get_by_text("Anyone in Thursday Wizards can take over scoring")).to_be_visible()
    _fits(page)
    page.screenshot(path=artifacts / "circle-game-welcome.png", full_page=True)
    game_path = page.url.split("?")[0].removeprefix(live_server)

    # Phone 2 holds nothing: its home page lists no game and no circle.
    second_phone.goto(live_server + "/")
    expect(second_phone.get_by_text("Anna")).to_have_count(0)
    # It opens the circle link and sees the circle's game and players.
    second_phone.goto(circle_link)
    expect(second_phone.get_by_role("heading", level=1)).to_have_text("Thursday Wizards")
    expect(second_phone.locator(".game-list")).to_contain_text("Anna, Ben, Clara")
    second_phone.get_by_role("link", name="Players").click()
    expect(second_phone.get_by_role("link", name="Clara")).to_be_visible()
    # It takes over the scoring of the game.
    second_phone.goto(live_server + game_path)
    expect(second_phone.get_by_text("Following")).to_be_visible()
    second_phone.get_by_role("button", name="Keep score on this phone").click()
    taken = second_phone.get_by_text("You keep score of this game on this phone now.")
    expect(taken).to_be_visible()
    expect(second_phone.get_by_text("Keeping score")).to_be_visible()
    second_phone.locator(".game-tabs a[href$='#log-view']").click()
    expect(second_phone.locator("#log")).to_be_visible()
    expect(second_phone.locator("#log")).to_contain_text(
        "Scoring taken over by a member of the circle"
    )
    # Home now shows the circle on phone 2 too.
    second_phone.goto(live_server + "/")
    expect(second_phone.get_by_role("link", name="Thursday Wizards")).to_be_visible()
    second_phone.screenshot(path=artifacts / "circle-second-phone-home.png", full_page=True)


def test_a_one_off_game_warns_that_its_scorer_link_is_the_only_key(
    page: Page, live_server: str, artifacts: Path
) -> None:
    page.goto(live_server + "/games/new")
    for seat, name in enumerate(["Anna", "Ben", "Clara"]):
        page.get_by_label(f"Player {seat + 1}", exact=True).fill(name)
    page.locator("#setup").get_by_role("button", name="Start the game").last.click()
    welcome = page.locator("section.welcome")
    expect(welcome.get_by_role("heading", name="Keep the scorer link")).to_be_in_viewport()
    expect(welcome).to_contain_text("only key")
    expect(welcome.locator(".share-link").first).to_contain_text("/score/")
    _fits(page)
    page.screenshot(path=artifacts / "one-off-welcome.png", full_page=True)
    # The scorer link stays off every shared cache.
    response = page.request.get(page.url)
    assert "no-store" in (response.headers.get("cache-control") or "")


def test_r16_a_record_below_zero_reads_with_a_minus_sign(
    page: Page, live_server: str, app: Flask, artifacts: Path
) -> None:
    """R16 (totals may go negative): a short game in which everyone misses every bid,
    so even the best final score is below zero; the records page writes it as the pad
    does, with a real minus sign ("−60 points"), not a hyphen."""
    with app.app_context(), transaction.atomic():
        circle = circle_service.create_circle("Thursday Wizards")
        link = f"/c/{circle.public_id}/{circle_service.circle_key(circle)}"
        game, _ = game_service.create_game(
            ["Anna", "Ben", "Clara"],
            0,
            game_service.parse_rules({"round_plan": "short"}),
            circle_id=circle.id,
        )
        # Each round one player bids 0 and takes every trick; the others bid 1 and take
        # none: everyone loses points every round.
        for number, cards in enumerate(game_service.sheet_of(game).plan):
            taker = number % 3
            bids = [0 if seat == taker else 1 for seat in range(3)]
            tricks = [cards if seat == taker else 0 for seat in range(3)]
            game_service.record_round(game, bids, tricks)
        best = max(game_service.sheet_of(game).totals)
        circle_id = circle.public_id
    assert best < 0
    page.goto(live_server + link)
    page.goto(live_server + f"/circles/{circle_id}/records")
    highest = page.locator("ol.records").first.locator("li").first
    expect(highest).to_contain_text(f"\N{MINUS SIGN}{-best} points — ")
    assert "-" not in highest.locator("strong").inner_text()
    _fits(page)
    page.screenshot(path=artifacts / "records-below-zero.png", full_page=True)


def test_a_players_head_to_head_fits_a_narrow_phone_in_german(
    page: Page, live_server: str, app: Flask
) -> None:
    """The player page's head-to-head table at 360 px in German: every column shows (its
    last one, "Gleich", was cut off in a box that scrolled without a sign of it)."""
    with app.app_context(), transaction.atomic():
        circle = circle_service.create_circle("Freitagsrunde")
        link = f"/c/{circle.public_id}/{circle_service.circle_key(circle)}"
        game, _ = game_service.create_game(
            ["Anna", "Ben", "Clara", "Dieter"],
            0,
            game_service.parse_rules({"round_plan": "short"}),
            circle_id=circle.id,
        )
        for cards in game_service.sheet_of(game).plan:
            game_service.record_round(game, [cards, 0, 0, 0], [cards, 0, 0, 0])
        clara = game.seats[2].player_id
        circle_id = circle.public_id
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(live_server + link)
    page.locator("footer.langs").get_by_role("link", name="Deutsch").click()
    page.goto(live_server + f"/circles/{circle_id}/players/{clara}")
    expect(page.get_by_role("heading", name="Direkter Vergleich")).to_be_visible()
    box = page.locator(".table-box").last
    expect(box.locator("th").last).to_have_text("Gleich")
    width, room = box.evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert width <= room
