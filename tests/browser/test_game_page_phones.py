"""The game page's frame on phones (360, 375 and 390 px, both looks): the top bar stays
one line when a tap is saved, in English and German; the invitation to follow, shown
before the first round, does not come back with the final standings."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import expect

from scorekeeper import transaction
from scorekeeper.services import games as game_service
from tests.browser.conftest import Phone
from tests.browser.test_standings import game

# The phones (phone_in, each_phone) stay open from test to test (KeptPages): the tests
# here add no handlers, scripts or routes to them.
KEEP_PAGES = True

# The lines the top bar's words sit on: the middles of its text, apart by more than a
# few pixels.
BAR_LINES = """() => {
    const middles = [];
    const range = document.createRange();
    const walker = document.createTreeWalker(
        document.querySelector('header.topbar'), NodeFilter.SHOW_TEXT);
    for (let node; (node = walker.nextNode());) {
        range.selectNodeContents(node);
        for (const r of range.getClientRects()) {
            if (r.width > 0) middles.push(r.top + r.height / 2);
        }
    }
    middles.sort((a, b) => a - b);
    return middles.filter((m, i) => i === 0 || m - middles[i - 1] > 6).length;
}"""


@pytest.mark.parametrize(
    ("language", "saved"), [("en", "Saved ✓"), ("de", "Gespeichert ✓")], ids=["en", "de"]
)
def test_the_top_bar_stays_one_line_when_a_tap_is_saved(
    app: Flask, live_server: str, each_phone: Phone, artifacts: Path, language: str, saved: str
) -> None:
    phone = each_phone.page
    phone.context.add_cookies([{"name": "lang", "value": language, "url": live_server}])
    phone.goto(live_server + game(app, ["Anna", "Ben", "Clara", "Dora"], []))
    bar = phone.locator("header.topbar")
    net = phone.locator("#net")
    expect(net).to_be_visible()
    before = bar.bounding_box()
    entry = phone.locator("#entry")
    version = entry.get_attribute("data-version")
    entry.locator("form.taps .keys").get_by_role("button", name="0", exact=True).click()
    expect(entry).not_to_have_attribute("data-version", version or "")
    expect(net).to_contain_text(saved)
    assert phone.evaluate(BAR_LINES) == 1
    after = bar.bounding_box()
    assert before is not None and after is not None
    assert after["height"] == before["height"], (before, after)
    phone.screenshot(path=artifacts / f"top-bar-saved-{language}-{each_phone.label}.png")


def test_the_invitation_to_follow_stays_away_once_the_game_is_over(
    app: Flask, live_server: str, each_phone: Phone, artifacts: Path
) -> None:
    """A phone following from before the first round: the invitation at the top goes
    with the first round's standings, and stays gone when the final standings come."""
    link = game(app, ["Anna", "Ben", "Clara"], [])
    follower = each_phone.page
    follower.goto(live_server + link.split("/score/")[0])
    invite = follower.locator("details.follow-early")
    expect(invite).to_be_visible()
    public_id = link.split("/")[2]
    with app.app_context(), transaction.atomic():
        played = game_service.get_game(public_id)
        plan = game_service.sheet_of(played).plan
        game_service.record_round(played, [1, 0, 0], [1, 0, 0])
    expect(follower.locator("#standings .strip-head")).to_contain_text("After round 1")
    expect(invite).to_be_hidden()
    with app.app_context(), transaction.atomic():
        played = game_service.get_game(public_id)
        for cards in plan[1:]:
            game_service.record_round(played, [cards, 0, 0], [cards, 0, 0])
    expect(follower.locator("#entry-title")).to_have_text("Final standings")
    expect(invite).to_be_hidden()
    follower.screenshot(path=artifacts / f"final-follower-{each_phone.label}.png")
