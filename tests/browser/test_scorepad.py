"""The score pad on a phone, in a real Chromium: a whole game, a correction, a second
phone following, the tap count of a round, and a 320-px-wide screen."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from scorekeeper import engine, transaction
from scorekeeper.services import games as game_service


class Taps:
    """Taps on the entry panel, counted; each waits until the page shows the answer."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.count = 0

    def version(self) -> str | None:
        return self.page.locator("#entry").get_attribute("data-version")

    def tap(self, target: Locator) -> None:
        before = self.version()
        target.click()
        self.count += 1
        expect(self.page.locator("#entry")).not_to_have_attribute("data-version", before or "")

    def key(self, value: int | str) -> None:
        """One of the big number buttons."""
        self.tap(
            self.page.locator("form.taps .keys").get_by_role("button", name=str(value), exact=True)
        )

    def first_allowed_key(self) -> int:
        key = self.page.locator("form.taps .key:not([disabled])").first
        value = int(key.inner_text())
        self.tap(key)
        return value


# Text directly inside the game's container (outside every panel): what a fragment that
# doesn't fit where htmx puts it would leave behind.
STRAY_TEXT = """() => [...document.querySelector('.game').childNodes]
    .filter(n => n.nodeType === Node.TEXT_NODE && n.textContent.trim())
    .map(n => n.textContent.trim())"""


def pad_totals(page: Page, number: int) -> list[int | None]:
    cells = page.locator("#pad tbody tr").nth(number - 1).locator("td.total")
    texts = [re.sub(r"^D", "", t).strip() for t in cells.all_inner_texts()]
    return [int(t.replace("\N{MINUS SIGN}", "-")) if t else None for t in texts]


def start_game(
    page: Page,
    base: str,
    names: list[str],
    dealer: int = 0,
    preset: str | None = None,
    **switches: str,
) -> None:
    """Set a game up through the setup page, as a person would."""
    page.goto(base + "/games/new")
    for seat, name in enumerate(names):
        page.get_by_label(f"Player {seat + 1}", exact=True).fill(name)
    if preset:
        button = page.get_by_role("button", name=preset, exact=True)
        button.click()
        expect(button).to_have_attribute("aria-pressed", "true")
    for field, value in switches.items():
        page.locator(f'input[name="{field}"][value="{value}"]').check()
    page.locator('input[name="dealer"]').nth(dealer).check()
    page.locator("#setup").get_by_role("button", name="Start the game").last.click()
    expect(page.locator("#entry")).to_be_visible()


def scorer_url(app: Flask, names: list[str], dealer: int = 0, **rules: Any) -> str:
    """A game made directly through the service; its scorer link."""
    with app.app_context(), transaction.atomic():
        game, token = game_service.create_game(names, dealer, game_service.parse_rules(rules))
        return f"/games/{game.public_id}/score/{token}"


@pytest.fixture
def second_phone(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[Page]:
    context: BrowserContext = browser.new_context(**browser_context_args)
    yield context.new_page()
    context.close()


def test_a_whole_short_game_with_plus_minus_one(
    page: Page, live_server: str, artifacts: Path
) -> None:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    names = ["Ann", "Ben", "Cat"]
    start_game(page, live_server, names, dealer=0, preset="Short game, German rule")
    # The rules are under "More", loaded when it opens.
    page.locator(".game-tabs").get_by_role("link", name="More").click()
    expect(page.locator(".rule-lines")).to_contain_text("Plus/minus one")
    page.locator(".game-tabs").get_by_role("link", name="Round").click()
    taps = Taps(page)
    totals = [0, 0, 0]
    for number, cards in enumerate(engine.round_plan(3, short=True), start=1):
        expect(page.locator("#entry-title")).to_contain_text(f"Round {number}")
        order = engine.bidding_order((number - 1) % 3, 3)
        bids = {order[0]: cards // 2, order[1]: number % 2}
        taps.key(bids[order[0]])
        taps.key(bids[order[1]])
        # Each bid shows on the pad's row of the open round at once (the tap's answer
        # brings that row along), and nothing of the answer lands anywhere else.
        row_bids = page.locator(f"#round-{number} td.bid")
        expect(row_bids.nth(order[0])).to_have_text(str(bids[order[0]]))
        expect(row_bids.nth(order[1])).to_have_text(str(bids[order[1]]))
        assert page.evaluate(STRAY_TEXT) == []
        if number == 3:
            # The dealer's forbidden bid is disabled, with the reason beside it.
            forbidden = cards - sum(bids.values())
            expect(page.locator(f'form.taps button[value="{forbidden}"]')).to_be_disabled()
            expect(page.locator("form.taps .why")).to_contain_text(
                f"(dealer) can't bid {forbidden}: the bids would add up to the {cards} tricks"
            )
            page.screenshot(path=artifacts / "pad-dealer-bid.png")
        bids[order[2]] = taps.first_allowed_key()
        taken = {order[0]: min(cards, number % 4), order[1]: 1}
        taps.key(taken[order[0]])
        taps.key(taken[order[1]])
        # The last count filled itself in, and the round is scored (R16).
        taken[order[2]] = cards - taken[order[0]] - taken[order[1]]
        if number == 1:
            page.screenshot(path=artifacts / "pad-scored.png")
        for seat in range(3):
            totals[seat] += engine.score_round(bids[seat], taken[seat])
        assert pad_totals(page, number) == totals
    expect(page.locator("#entry-title")).to_have_text("Final standings")
    best = max(totals)
    winners = [n for n, t in zip(names, totals, strict=True) if t == best]
    expect(page.locator(".winner-line")).to_contain_text(
        f"{winners[0]} wins" if len(winners) == 1 else "share the win"
    )
    # Scores are shown with a real minus sign (U+2212).
    expect(page.locator(".standings li").first).to_contain_text(str(best).replace("-", "\u2212"))
    assert taps.count == 50  # 10 rounds × (3 bids + 2 tricks)
    # No script errors, nothing refused by the Content Security Policy (a missing favicon
    # is the one request allowed to fail).
    assert [e for e in errors if "favicon" not in e and "404" not in e] == []
    page.screenshot(path=artifacts / "pad-final.png", full_page=True)


def test_correcting_an_earlier_round(
    page: Page, live_server: str, app: Flask, artifacts: Path
) -> None:
    page.goto(live_server + scorer_url(app, ["Ann", "Ben", "Cat"], dealer=0))
    taps = Taps(page)
    for seat_bids, took in (([0, 1, 0], [0, 1]), ([1, 0, 1], [1, 0])):
        for bid in seat_bids:
            taps.key(bid)
        for count in took:
            taps.key(count)  # the last count fills itself in: scored
    before = pad_totals(page, 2)
    # The pad is a tab away; a round's number there opens its correction in the round's
    # place.
    page.locator(".game-tabs").get_by_role("link", name="Pad").click()
    page.locator("#pad").get_by_role("link", name="Round 1: correct it").click()
    expect(page.locator("#entry-title")).to_have_text("Correct round 1")
    page.screenshot(path=artifacts / "pad-correct.png")
    # Round 1 really: Ben took the trick, not Cat (Ben bid 0, Cat 1, Ann 0).
    page.get_by_label("Ben's tricks").select_option("1")
    page.get_by_label("Cat's tricks").select_option("0")
    page.get_by_role("button", name="Save correction").click()
    expect(page.locator("#entry .note")).to_have_text("Round 1 corrected.")
    assert pad_totals(page, 1) == [20, -10, -10]
    assert before == [40, 50, 60]
    assert pad_totals(page, 2) == [40, 20, 20]  # round 2 as played, totals follow
    page.locator(".game-tabs").get_by_role("link", name="Log").click()
    expect(page.locator("#log")).to_contain_text("Round 1 corrected: Ben's tricks 0 → 1")
    page.screenshot(path=artifacts / "pad-corrected.png", full_page=True)


# German short months as Chromium's Intl writes them ("26. Nov., 17:24").
GERMAN_TIME = re.compile(
    r"^\d{1,2}\. (Jan\.|Feb\.|März|Apr\.|Mai|Juni|Juli|Aug\.|Sept\.|Okt\.|Nov\.|Dez\.),? "
    r"\d{2}:\d{2}$"
)


def test_a_german_page_on_an_english_phone_writes_its_times_in_german(
    browser: Browser, browser_context_args: dict[str, Any], live_server: str, app: Flask
) -> None:
    """The phone speaks English, the reader picked Deutsch: the change log's times (in
    the phone's own time zone, written by app.js) read as the rest of the page does."""
    context = browser.new_context(**{**browser_context_args, "locale": "en-GB"})
    try:
        page = context.new_page()
        page.goto(live_server + scorer_url(app, ["Ann", "Ben", "Cat"]))
        page.locator("footer.langs").get_by_role("link", name="Deutsch").click()
        expect(page.locator("html")).to_have_attribute("lang", "de")
        page.locator(".game-tabs").get_by_role("link", name="Protokoll").click()
        when = page.locator("#log time[data-local]").first
        expect(when).to_be_visible()
        # The server's own text ends in "UTC": this is app.js's, in German.
        expect(when).to_have_text(GERMAN_TIME)
    finally:
        context.close()


def test_a_second_phone_follows_within_two_seconds(
    page: Page, second_phone: Page, live_server: str, app: Flask, artifacts: Path
) -> None:
    page.goto(live_server + scorer_url(app, ["Ann", "Ben", "Cat", "Dan"], dealer=3))
    view_link = page.locator("a.share-link").first.get_attribute("href")
    assert view_link and "/score/" not in view_link
    second_phone.goto(view_link)
    expect(second_phone.locator(".topbar-role")).to_have_text("Following")
    expect(second_phone.locator("form.taps")).to_have_count(0)
    taps = Taps(page)
    taps.key(1)  # Ann bids 1
    ann = second_phone.locator("table.seats tbody tr").first.locator("td").first
    expect(ann).to_have_text("1", timeout=2000)
    for bid in (0, 0, 1):
        taps.key(bid)
    taps.key(1)  # Ann took the only trick: the others' 0 fill themselves in, scored
    expect(second_phone.locator("#pad tbody tr").first.locator("td.total").first).to_have_text(
        "30", timeout=2000
    )
    expect(second_phone.locator("#entry-title")).to_contain_text("Round 2", timeout=2000)
    second_phone.screenshot(path=artifacts / "pad-follower.png", full_page=True)


def test_a_six_player_round_in_7_taps(page: Page, live_server: str, artifacts: Path) -> None:
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
    start_game(page, live_server, names, dealer=0)
    taps = Taps(page)
    # Round 1 has one card; play round 1 then count round 2 (2 cards), a real round.
    for _ in range(6):
        taps.key(0)
    for _ in range(5):
        taps.key(0)  # the last count fills itself in: scored
    taps.count = 0
    expect(page.locator(".cards-each")).to_contain_text("2 cards each")
    for bid in (1, 0, 0, 1, 0, 0):
        taps.key(bid)
    # Bids 2 for 2 tricks: if everyone made their bid, one tap scores the round.
    page.screenshot(path=artifacts / "pad-six-everyone.png")
    taps.tap(page.get_by_role("button", name="✓ Everyone made their bid"))
    assert taps.count == 7
    print(f"taps for a 6-player round without trump: {taps.count}")
    # Round 1: Ann (dealer) took the only trick; round 2: Cat, Dan, Eve, Fay, Ann, Ben bid
    # 1, 0, 0, 1, 0, 0 and all made it.
    assert pad_totals(page, 2) == [-10 + 20, 20 + 20, 20 + 30, 20 + 20, 20 + 20, 20 + 30]
    page.screenshot(path=artifacts / "pad-six.png", full_page=True)


def test_no_sideways_scrolling_at_320_px(
    browser: Browser,
    browser_context_args: dict[str, Any],
    live_server: str,
    app: Flask,
    artifacts: Path,
) -> None:
    narrow = browser.new_context(
        **{**browser_context_args, "viewport": {"width": 320, "height": 640}}
    )
    page = narrow.new_page()
    names = ["Annabelle", "Bartholomew", "Cat", "Dan", "Eve", "Fay"]
    url = scorer_url(app, names, dealer=0, dealer_rule="plus_minus_one")
    page.goto(live_server + url)
    taps = Taps(page)
    for _ in range(5):
        taps.key(0)
    taps.first_allowed_key()
    for _ in range(5):
        taps.key(0)  # the last count fills itself in: scored
    taps.key(1)
    for check in ("/games/new", url.split("/score/")[0], "/"):
        page.goto(live_server + check)
        assert page.evaluate("document.documentElement.scrollWidth") <= 320, check
    page.goto(live_server + url.split("/score/")[0])
    # The six players' pad fits the screen too, without scrolling in its own box
    # (tests/browser/test_pad_fits.py tries more names and widths).
    box = page.locator(".pad-box")
    assert box.evaluate("el => el.scrollWidth <= el.clientWidth")
    page.screenshot(path=artifacts / "pad-320.png", full_page=True)
    page.goto(live_server + "/games/new")
    page.screenshot(path=artifacts / "setup-320.png", full_page=True)
    narrow.close()


def test_without_javascript_the_forms_still_work(
    browser: Browser, browser_context_args: dict[str, Any], live_server: str, artifacts: Path
) -> None:
    context = browser.new_context(**{**browser_context_args, "java_script_enabled": False})
    page = context.new_page()
    page.goto(live_server + "/games/new")
    for seat, name in enumerate(["Ann", "Ben", "Cat"]):
        page.get_by_label(f"Player {seat + 1}", exact=True).fill(name)
    page.locator("#setup").get_by_role("button", name="Start the game").last.click()
    expect(page.locator("#entry-title")).to_contain_text("Round 1")
    for bid in (0, 1, 0):
        page.locator("form.taps").get_by_role("button", name=str(bid), exact=True).click()
    expect(page.locator("form.taps h3")).to_contain_text("Tricks: Ben took")
    page.locator("form.taps").get_by_role("button", name="1", exact=True).click()
    # Ben took the only trick: Cat's and Ann's 0 filled themselves in, and it is scored.
    expect(page.locator("#entry-title")).to_contain_text("Round 2")
    assert pad_totals(page, 1) == [20, -10, -10]  # Ben 0 took 1, Cat 1 took 0, Ann 0 took 0
    # The tabs are links: each shows its part in the round's place, and back.
    tabs = page.locator(".game-tabs")
    for tab, part in [("Pad", "#pad"), ("Log", "#log"), ("More", ".rule-lines")]:
        tabs.get_by_role("link", name=tab).click()
        expect(page.locator(part)).to_be_visible()
        expect(page.locator("#entry")).to_be_hidden()
    tabs.get_by_role("link", name="Round").click()
    expect(page.locator("#entry form.taps")).to_be_visible()
    expect(page.locator("#pad")).to_be_hidden()
    context.close()
