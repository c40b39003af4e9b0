"""The README's screenshots, written by the app itself: the main screens on a 390×844
phone in both looks (ledger paper, card table), each checked to wear its look; the score
pad's (a round while its tricks are counted, the pad a tab away, the podium of a game of
six) on a small 360×640 phone."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from tests.browser.test_a11y import (
    PhoneMaker,
    _pages,
    phones,  # noqa: F401  (a fixture)
)
from tests.browser.test_table_look import SIX, scorer_link

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
# The page colour of each look (--bg in static/css/app.css).
BACKGROUND = {"light": "rgb(243, 237, 220)", "dark": "rgb(13, 51, 38)"}
SCREENS = {
    "game-scorer-mid-round": "game",
    "setup": "setup",
    "history-games": "history",
    "player": "player",
    "home": "home",
}
# The score pad's screens, on a small phone: the round fills it.
SMALL = {"game"}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_main_screens_in_both_looks(
    app: Flask,
    phones: PhoneMaker,  # noqa: F811
    live_server: str,
    scheme: str,
) -> None:
    DOCS.mkdir(parents=True, exist_ok=True)
    scorer, viewer = phones(scheme), phones(scheme)
    written = []
    for name, page in _pages(app, live_server, scorer, viewer):
        if name not in SCREENS:
            continue
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == BACKGROUND[scheme], (name, background)
        expect(page.locator("main")).to_be_visible()
        if SCREENS[name] in SMALL:
            size = page.viewport_size
            page.set_viewport_size({"width": 360, "height": 640})
            assert page.evaluate("window.scrollY") == 0
            if name == "game-scorer-mid-round":  # the bids in, one count: "2 tricks left"
                keys = page.locator("form.taps .key:not([disabled])")
                for entered in (3, 4):
                    keys.first.click()
                    expect(page.locator("table.seats button.val")).to_have_count(entered)
                page.locator('form.taps .key[value="1"]').click()
                expect(page.locator(".tricks-left")).to_have_text("2 tricks left")
            page.screenshot(path=DOCS / f"{SCREENS[name]}-{scheme}.png")
            if name == "game-scorer-mid-round":
                tabs = page.locator(".game-tabs")
                tabs.get_by_role("link", name="Pad").click()
                expect(page.locator("#pad")).to_be_visible()
                page.screenshot(path=DOCS / f"pad-{scheme}.png")
                written.append("pad")
                tabs.get_by_role("link", name="Round").click()
                expect(page.locator("#entry")).to_be_visible()
            assert size is not None
            page.set_viewport_size(size)
        else:
            page.screenshot(path=DOCS / f"{SCREENS[name]}-{scheme}.png")
        written.append(SCREENS[name])
    # The podium of a game of six, as its scorer sees it at the end.
    scorer.set_viewport_size({"width": 360, "height": 640})
    scorer.goto(live_server + scorer_link(app, SIX, 10))
    expect(scorer.locator(".podium .winner")).to_be_visible()
    scorer.evaluate("document.fonts.ready")
    scorer.evaluate("Promise.all(document.getAnimations().map(a => a.finished))")  # the burst
    scorer.screenshot(path=DOCS / f"final-{scheme}.png")
    written.append("final")
    assert sorted(written) == sorted([*SCREENS.values(), "pad", "final"])


def test_the_footer_switches_the_look_and_it_is_remembered(
    phones: PhoneMaker,  # noqa: F811
    live_server: str,
) -> None:
    page: Page = phones("light")
    page.goto(live_server + "/games/new")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == BACKGROUND["light"]
    page.get_by_role("navigation", name="Look").get_by_role("link", name="Card table").click()
    expect(page).to_have_url(live_server + "/games/new")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == BACKGROUND["dark"]
    page.goto(live_server + "/")  # remembered on the next page
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    footer = page.get_by_role("navigation", name="Look")
    expect(footer.locator("[aria-current]")).to_have_text("Card table")
    footer.get_by_role("link", name="Auto").click()
    expect(page.locator("html")).not_to_have_attribute("data-theme", "dark")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == BACKGROUND["light"]
