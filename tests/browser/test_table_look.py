"""The score pad made for a card table, on a phone, in both looks: names and figures in the
ledger's typeface (served from here, kept for a year, every letter of the seven languages
its own); while the counts go in, the tricks left said next to the keys; a key that gives
way under the thumb, and a short buzz where the phone has one (not for a mouse, not for a
reader who asked for less motion); and the final screen's podium, first three on steps,
on a small phone with six players."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, Response, expect

from scorekeeper import transaction
from scorekeeper.services import games as game_service
from scorekeeper.web.pwa import YEAR, file_version
from tests.browser.conftest import Phone

# The phones (phone_in, each_phone) stay open from test to test (KeptPages): the tests
# here add no scripts or routes to them, and take back the one handler they add.
KEEP_PAGES = True

FONT = "Scorekeeper Ledger"
FONT_FILE = "fonts/ledger/ledger-bold.woff2"
# Six players whose names hold letters of the app's languages but English.
SIX = ["Łucja", "Anna-Lena", "Françoise", "Dora", "Jürgen", "Nuño"]
PRESSED = "k => [getComputedStyle(k).transform, getComputedStyle(k).filter]"
BUZZES = """
window.buzzes = [];
Object.defineProperty(Navigator.prototype, "vibrate", {
  configurable: true, value: function (ms) { window.buzzes.push(ms); return true; }
});
"""


def scorer_link(app: Flask, names: list[str], played: int, bids: bool = False) -> str:
    """A game with ``played`` rounds scored (the seat of round k % players takes all its
    tricks: the totals all differ) and, with ``bids``, every bid of the next one in (all
    0): its counts are asked for. Its scorer link."""
    with app.app_context(), transaction.atomic():
        game, token = game_service.create_game(names, 0, game_service.parse_rules({}))
        for k in range(played):
            cards = k + 1
            tricks = [cards if s == k % len(names) else 0 for s in range(len(names))]
            game_service.record_round(game, [0] * len(names), tricks)
        if bids:
            game_service.record_round(game, [0] * len(names))
        return f"/games/{game.public_id}/score/{token}"


def ledger_fonts(page: Page, selector: str) -> list[str]:
    """The fonts Chromium drew the element's text with (none stood in for a letter)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    cdp.detach()
    return sorted({f["familyName"] for f in fonts})


def font_loaded(page: Page) -> None:
    page.wait_for_function(
        "[...document.fonts].some(f => f.family.replace(/\"/g, '') === 'Scorekeeper Ledger'"
        " && f.status === 'loaded')"
    )


def test_names_and_figures_in_the_ledger_typeface_kept_for_a_year(
    phone_in: Callable[[int, int, str], Page], app: Flask, live_server: str
) -> None:
    page = phone_in(360, 640, "light")
    fonts: list[Response] = []

    def fetched(response: Response) -> None:
        if "/static/fonts/" in response.url:
            fonts.append(response)

    page.on("response", fetched)
    page.goto(live_server + scorer_link(app, SIX, 2, bids=True))
    font_loaded(page)
    page.remove_listener("response", fetched)  # the page goes on to the next test
    # Asked for once, by its version, and kept for a year as the same bytes.
    assert len(fonts) == 1, [r.url for r in fonts]
    assert fonts[0].url.endswith(f"/static/{FONT_FILE}?v={file_version_of(app)}")
    assert fonts[0].headers["cache-control"] == f"public, max-age={YEAR}, immutable"
    assert fonts[0].headers["content-type"] == "font/woff2"
    assert len(fonts[0].body()) <= 10 * 1024
    # Names, totals and keys drawn in it, every letter of them (no stand-in font).
    for selector in (
        "table.seats tbody tr:first-child .who",
        "#standings li:first-child .strip-name",
        "#standings li:first-child .strip-total",
        "form.taps .key",
    ):
        assert ledger_fonts(page, selector) == [FONT], selector
    for seat in range(len(SIX)):
        assert ledger_fonts(page, f'table.seats tr[data-seat="{seat}"] .who') == [FONT]


def file_version_of(app: Flask) -> str:
    with app.test_request_context():
        version = file_version(FONT_FILE)
    assert version
    return version


def test_r16_the_tricks_left_are_counted_down_next_to_the_keys(
    each_phone: Phone, app: Flask, live_server: str, artifacts: Path
) -> None:
    page, width, height = each_phone.page, each_phone.width, each_phone.height
    page.goto(live_server + scorer_link(app, ["Ann", "Ben", "Cat", "Dan", "Eve"], 3, bids=True))
    left = page.locator("form.taps .tricks-left")
    keys = page.locator("form.taps .keys")
    expect(left).to_have_text("4 tricks left")  # round 4: four cards each
    shown = []
    for count, after in (("1", "3 tricks left"), ("2", "1 trick left"), ("0", "1 trick left")):
        # Beside whose count is asked, just over the keys, on the screen.
        box, under = left.bounding_box(), keys.bounding_box()
        assert box is not None and under is not None
        assert 0 <= under["y"] - (box["y"] + box["height"]) <= 16, (box, under)
        assert box["x"] + box["width"] <= width and under["y"] + under["height"] <= height
        assert page.evaluate("window.scrollY") == 0
        shown.append(left.inner_text())
        page.locator(f'form.taps .key[value="{count}"]').click()
        expect(left).to_have_text(after)
    page.screenshot(path=artifacts / f"tricks-left-{each_phone.label}.png")
    page.locator('form.taps .key[value="0"]').click()  # the last one fills itself in
    expect(page.locator("form.taps .ask")).to_contain_text("bids")
    expect(left).to_have_count(0)
    assert shown == ["4 tricks left", "3 tricks left", "1 trick left"]


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_key_gives_way_and_the_phone_buzzes_unless_less_motion_is_asked(
    browser: Browser,
    browser_context_args: dict[str, Any],
    app: Flask,
    live_server: str,
    motion: str,
) -> None:
    context = browser.new_context(
        **browser_context_args,
        reduced_motion=motion,  # type: ignore[arg-type]
    )
    context.add_init_script(BUZZES)
    page = context.new_page()
    try:
        page.goto(live_server + scorer_link(app, ["Ann", "Ben", "Cat"], 2))
        keys = page.locator("form.taps .key:not([disabled])")
        # Pressed, a key sits lower and darker (both looks: app.css).
        box = keys.first.bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        pressed = keys.first.evaluate(PRESSED)
        page.mouse.up()  # a mouse's press taps the key, but never buzzes
        assert pressed[0] != "none" and pressed[1] != "none", pressed
        expect(page.locator("table.seats button.val")).to_have_count(1)
        assert page.evaluate("window.buzzes") == []
        keys.first.tap()  # a finger: 10 ms, or nothing for less motion
        expect(page.locator("table.seats button.val")).to_have_count(2)
        keys.first.tap()
        expect(page.locator("table.seats button.val")).to_have_count(3)
        assert page.evaluate("window.buzzes") == ([] if motion == "reduce" else [10, 10])
    finally:
        context.close()


def test_a_desktop_never_buzzes(browser: Browser, app: Flask, live_server: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(BUZZES)
    page = context.new_page()
    try:
        page.goto(live_server + scorer_link(app, ["Ann", "Ben", "Cat"], 2))
        page.locator("form.taps .key:not([disabled])").first.click()
        expect(page.locator("table.seats button.val")).to_have_count(1)
        assert page.evaluate("window.buzzes") == []
    finally:
        context.close()


def test_r17_the_podium_of_six_players_fits_a_phone_in_both_looks(
    each_phone: Phone, app: Flask, live_server: str, artifacts: Path
) -> None:
    """Jürgen 130, Nuño 120, Łucja 80, Anna-Lena 60, Françoise 40, Dora 20: second, first
    and third from the left, the winner starred, every place on the first screen."""
    page, width, height = each_phone.page, each_phone.width, each_phone.height
    page.goto(live_server + scorer_link(app, SIX, 10))
    font_loaded(page)
    steps = page.locator(".podium .step")
    expect(steps.locator(".who")).to_have_text(["Jürgen", "Nuño", "Łucja"])
    expect(steps.locator(".total")).to_have_text(["130", "120", "80"])
    lefts = [s.bounding_box()["x"] for s in steps.all()]  # type: ignore[index]
    assert lefts[1] < lefts[0] < lefts[2]
    winner = page.locator(".podium .step.winner .who")
    expect(winner).to_have_text("Jürgen")
    assert "★" in winner.evaluate("w => getComputedStyle(w, '::before').content")
    for name_or_total in (".podium .step:nth-child(2) .who", ".podium .winner .total"):
        assert ledger_fonts(page, name_or_total) == [FONT]
    expect(page.locator(".standings li")).to_have_text(
        [
            "1. Jürgen 130",
            "2. Nuño 120",
            "3. Łucja 80",
            "4. Anna-Lena 60",
            "5. Françoise 40",
            "6. Dora 20",
        ]
    )
    # The podium and every place on the first screen, nothing wider than it.
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for part in (page.locator(".podium-box"), page.locator(".standings li").last):
        box = part.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        assert box["y"] + box["height"] <= height, (part, box)
    # The final screen's other functions are all there.
    expect(page.get_by_role("button", name="Play again")).to_be_visible()
    share = page.locator("#entry a[data-share-picture]")
    expect(share).to_be_visible()
    expect(share).to_have_attribute("href", re.compile(r"/picture\.png$"))
    page.screenshot(path=artifacts / f"podium-{each_phone.label}.png")
