"""Whatever a tap brings up is where the person is looking: on a 390×844 phone, the
message of a correction refused, the delete to confirm, and a rule broken on the entry
panel open inside the screen, wherever the page was scrolled to."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Locator, Page, expect

from scorekeeper import transaction
from scorekeeper.services import games as game_service

NAMES = ["Anna", "Ben", "Clara", "Dan", "Eve", "Fay"]


@pytest.fixture
def page(page: Page) -> Page:
    """The phone's page as Safari on an iPhone has it: without scroll anchoring, which
    in Chromium keeps what is below a swapped panel in place and so often, not always,
    brings a shorter panel into view by chance."""
    page.add_init_script(
        "document.addEventListener('DOMContentLoaded', () =>"
        " document.documentElement.style.setProperty('overflow-anchor', 'none'))"
    )
    return page


def in_view(page: Page, element: Locator) -> None:
    """The element comes wholly inside the screen: the page brings it there once the tap's
    answer has settled, so this waits for it (up to the expect timeout) rather than
    looking once."""
    expect(element).to_be_visible()
    expect(element).to_be_in_viewport(ratio=1)


def game_with_rounds(app: Flask, rounds: int, **rules: Any) -> str:
    """Six players, ``rounds`` rounds played (everyone bids 0; the dealer takes every
    trick); the scorer link."""
    with app.app_context(), transaction.atomic():
        game, token = game_service.create_game(NAMES, 0, game_service.parse_rules(rules))
        for number, cards in enumerate(game_service.sheet_of(game).plan[:rounds], start=1):
            dealer = (number - 1) % len(NAMES)
            tricks = [cards if seat == dealer else 0 for seat in range(len(NAMES))]
            game_service.record_round(game, [0] * len(NAMES), tricks)
        return f"/games/{game.public_id}/score/{token}"


def open_correction(page: Page, number: int) -> None:
    """Tap the round's number on the pad (a tab away on a phone held upright), as a
    person scrolled down to it would."""
    tab = page.locator(".game-tabs").get_by_role("link", name="Pad")
    if tab.is_visible():
        tab.click()
    link = page.locator("#pad").get_by_role("link", name=f"Round {number}: correct it")
    link.scroll_into_view_if_needed()
    link.click()
    expect(page.locator("#entry-title")).to_have_text(f"Correct round {number}")


def scroll_to_middle(page: Page, element: Locator) -> None:
    """Scroll the page so that ``element`` is in the middle of the screen, as a thumb
    would before tapping it."""
    element.evaluate("el => el.scrollIntoView({block: 'center'})")


def test_a_refused_correction_says_why_on_screen(
    page: Page, live_server: str, app: Flask, artifacts: Path
) -> None:
    page.goto(live_server + game_with_rounds(app, 6))
    open_correction(page, 6)
    # Round 6 (6 cards): Anna took one trick more than was played.
    page.get_by_label("Anna's tricks").select_option("1")
    save = page.get_by_role("button", name="Save correction")
    scroll_to_middle(page, save)
    save.click()
    alert = page.locator("#entry .alert")
    expect(alert).to_contain_text("The tricks add up to 7, but 6 tricks were played")
    in_view(page, alert)
    page.screenshot(path=artifacts / "in-view-correction-refused.png")


def test_the_delete_to_confirm_and_its_outcome_are_on_screen(
    page: Page, live_server: str, app: Flask, artifacts: Path
) -> None:
    page.goto(live_server + game_with_rounds(app, 6))
    open_correction(page, 6)
    delete = page.get_by_role("link", name="Delete round 6…")
    scroll_to_middle(page, delete)
    delete.click()
    expect(page.locator("#entry-title")).to_have_text("Delete round 6?")
    page.screenshot(path=artifacts / "in-view-delete-confirm.png")
    in_view(page, page.locator("#entry-title"))
    confirm = page.locator("#entry").get_by_role("button", name="Delete round 6")
    in_view(page, confirm)
    in_view(page, page.locator("#entry").get_by_role("link", name="Keep it"))
    confirm.click()
    note = page.locator("#entry .note")
    expect(note).to_have_text("Round 6 deleted.")
    in_view(page, note)
    page.screenshot(path=artifacts / "in-view-deleted.png")


def test_a_correction_saved_says_so_on_screen(
    page: Page, live_server: str, app: Flask, artifacts: Path
) -> None:
    page.goto(live_server + game_with_rounds(app, 6))
    open_correction(page, 3)
    page.get_by_label("Anna's tricks").select_option("1")
    page.get_by_label("Clara's tricks").select_option("2")
    save = page.get_by_role("button", name="Save correction")
    scroll_to_middle(page, save)
    save.click()
    note = page.locator("#entry .note")
    expect(note).to_have_text("Round 3 corrected.")
    in_view(page, note)


def scroll_to_keys(page: Page) -> None:
    """The page scrolled so that the number keys sit at the top of the screen (the
    panel's head above it), as on a phone held low while six players bid."""
    keys = page.locator("form.taps .keys")
    keys.evaluate("el => el.scrollIntoView({block: 'start'})")
    box = page.locator("#entry").bounding_box()
    assert box is not None and box["y"] < 0  # the panel's top is off the screen


def test_a_bid_made_meanwhile_on_another_phone_is_said_on_screen(
    page: Page, live_server: str, app: Flask, artifacts: Path
) -> None:
    link = game_with_rounds(app, 2)
    page.goto(live_server + link)
    expect(page.locator("form.taps")).to_be_visible()
    scroll_to_keys(page)
    # Meanwhile another phone with the scorer link records Dan's bid (round 3: Clara
    # deals, Dan bids first), so this page's tap comes too late.
    with app.app_context(), transaction.atomic():
        game = game_service.get_game(link.split("/")[2])
        game_service.set_bid(game, 3, 1)
    page.locator("form.taps .keys").get_by_role("button", name="0", exact=True).click()
    alert = page.locator("#entry .alert")
    expect(alert).to_contain_text("Already recorded by someone else")
    in_view(page, alert)
    page.screenshot(path=artifacts / "in-view-conflict.png")


def test_v1_v3_a_forbidden_bid_is_refused_on_screen(
    page: Page, live_server: str, app: Flask, artifacts: Path
) -> None:
    """Hidden bids (V3) with plus/minus one (V1): the dealer bids without being told
    what is forbidden; the refusal after the tap is on the screen."""
    link = game_with_rounds(app, 1, bidding="hidden", dealer_rule="plus_minus_one")
    page.goto(live_server + link)
    # Round 2 (2 cards): Ben deals; Clara, Dan, Eve, Fay, Anna bid 0, 0, 1, 0, 0.
    for bid in (0, 0, 1, 0, 0):
        version = page.locator("#entry").get_attribute("data-version") or ""
        page.locator("form.taps .keys").get_by_role("button", name=str(bid), exact=True).click()
        expect(page.locator("#entry")).not_to_have_attribute("data-version", version)
    expect(page.locator("form.taps .ask")).to_contain_text("Ben")
    # Nothing on the dealer's keys gives the others' total away.
    expect(page.locator("form.taps .key[disabled]")).to_have_count(0)
    expect(page.locator("form.taps .why")).to_have_count(0)
    scroll_to_keys(page)
    page.locator("form.taps .keys").get_by_role("button", name="1", exact=True).click()
    alert = page.locator("#entry .alert")
    expect(alert).to_contain_text("Ben (dealer) can't bid 1")
    in_view(page, alert)
    page.screenshot(path=artifacts / "in-view-forbidden-bid.png")


@pytest.mark.parametrize(
    "names, says",
    [
        (["Anna", "Ben"], "3 to 6"),
        (["Anna", "Ben", "Anna"], "Anna is at the table twice"),
    ],
    ids=["two-players", "a-name-twice"],
)
def test_r3_a_setup_refused_says_why_on_screen(
    page: Page, live_server: str, artifacts: Path, names: list[str], says: str
) -> None:
    """R3 (3 to 6 players), and a name twice: the form comes back with its message at
    its top, while the thumb is on "Start the game" at the bottom of the page."""
    page.goto(live_server + "/games/new")
    for seat, name in enumerate(names):
        page.get_by_label(f"Player {seat + 1}", exact=True).fill(name)
    start = page.locator("#setup").get_by_role("button", name="Start the game").last
    start.scroll_into_view_if_needed()
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    expect(page.locator("#setup .alert")).to_have_count(0)
    start.click()
    alert = page.locator("#setup .alert[role=alert]")
    expect(alert).to_contain_text(says)
    in_view(page, alert)
    page.screenshot(path=artifacts / f"in-view-setup-refused-{len(names)}.png")


@pytest.mark.parametrize("size", [(360, 640), (375, 667)], ids=["360x640", "375x667"])
def test_start_is_at_the_thumb_at_every_step_of_a_first_setup(
    page: Page, live_server: str, artifacts: Path, size: tuple[int, int]
) -> None:
    """A first game on a small phone: Start is on the screen from the first look, while
    the names are typed and after a rule preset is chosen, without scrolling."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(live_server + "/games/new")
    start = page.locator("#setup .start-bar").get_by_role("button", name="Start the game")
    in_view(page, start)
    for seat, name in enumerate(NAMES[:4]):
        page.get_by_label(f"Player {seat + 1}", exact=True).fill(name)
        in_view(page, start)
    page.locator("#setup .presets").get_by_role("button", name="German rule", exact=True).click()
    expect(page.locator("#setup input[name=dealer_rule][value=plus_minus_one]")).to_be_checked()
    in_view(page, start)
    page.screenshot(path=artifacts / f"setup-start-at-the-thumb-{size[0]}.png")
    start.click()
    expect(page).to_have_url(re.compile(r"/games/[\w-]+"))
