"""A whole game on a small phone, one thumb, no scrolling: six players (and three) on a
360×640 and a 375×667 phone, every bid and trick count tapped in as at the table (bots'
games, seeded; bench/thumb.py taps). Before every tap the thing to tap and every message
on the panel (a refused bid's reason, a refusal, "Undo") are wholly on the screen, the
page has not scrolled, and the keys stand where they stood all round. The pad, the change
log and the rules are a tap away, and back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Locator, Page, expect

from bench.thumb import Thumb, bots_game
from scorekeeper import transaction
from scorekeeper.services import games as game_service
from tests.browser.conftest import ARTIFACTS

SIX = ["Maximilian", "Anna-Lena", "Christopher", "Dora", "Emil", "Friederike"]
THREE = ["Bartholomäus", "Anna-Lena", "Christopher"]
SIZES = [(360, 640), (375, 667)]

# Everything a tap can bring up next to the keys.
MESSAGES = ":is(.alert, .note, .why, .undo-line)"


def new_game(app: Flask, names: list[str], rules: dict[str, Any]) -> str:
    with app.app_context(), transaction.atomic():
        made, token = game_service.create_game(names, 0, game_service.parse_rules(rules))
        return f"/games/{made.public_id}/score/{token}"


# What ``Screen.before`` checks, in one call: whether the target and each message on the
# panel are visible and wholly on the screen (inside the window, as their boxes say, and
# not clipped, as an IntersectionObserver says: what expect's to_be_visible and
# to_be_in_viewport(ratio=1) look at), where the keys are, the round's title, the scroll.
LOOK = """async (target, messages) => {
    const entry = document.getElementById('entry');
    const found = [...entry.querySelectorAll(messages)];
    const box = e => {
        const r = e.getBoundingClientRect();
        return {x: r.x, y: r.y, width: r.width, height: r.height};
    };
    const shown = e => e.checkVisibility({visibilityProperty: true})
        && e.getBoundingClientRect().width > 0 && e.getBoundingClientRect().height > 0;
    const watched = [...new Set([target, ...found.filter(shown)])];
    const ratios = await new Promise(resolve => {
        const seen = new Map();
        const observer = new IntersectionObserver(entries => {
            for (const one of entries) seen.set(one.target, one.intersectionRatio);
            if (seen.size === watched.length) { observer.disconnect(); resolve(seen); }
        });
        watched.forEach(e => observer.observe(e));
    });
    const onScreen = e => {
        const r = e.getBoundingClientRect();
        return shown(e) && ratios.get(e) >= 1 && r.x >= 0 && r.y >= 0
            && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
    };
    const keys = entry.querySelector('form.taps .keys');
    return {
        scrolled: window.scrollY,
        title: entry.querySelector('#entry-title').innerText,
        target: onScreen(target),
        messages: found.map(e => ({box: box(e), text: e.innerText,
                                   on_screen: shown(e) && onScreen(e)})),
        keys: keys && shown(keys) ? box(keys) : null,
    };
}"""


class Screen:
    """What the scorer sees before each tap, checked."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.keys: tuple[str, dict[str, float]] | None = None  # the round and where
        self.reasons: list[str] = []  # a struck bid key's reason, each time it showed

    def on_screen(self, element: Locator) -> None:
        """Wholly inside the screen."""
        expect(element).to_be_visible()
        expect(element).to_be_in_viewport(ratio=1)
        box = element.bounding_box()
        size = self.page.viewport_size
        assert box is not None and size is not None
        assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 0.5, (box, size)
        assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 0.5, (box, size)

    def before(self, thumb: Thumb, target: Locator) -> None:
        """The page has not scrolled; the target and every message are on the screen;
        within a round the keys have not moved. One look in the page (LOOK) finds it all
        out; where it finds the target or a message not on the screen, ``on_screen``
        checks it again, with its waits, and says what is wrong."""
        seen = target.evaluate(LOOK, MESSAGES)
        if seen["scrolled"]:
            self.page.screenshot(path=ARTIFACTS / "one-screen-scrolled.png")
        assert seen["scrolled"] == 0, seen["title"]
        if not seen["target"]:
            self.on_screen(target)
        messages = thumb.entry.locator(MESSAGES)
        for index, message in enumerate(seen["messages"]):
            if message["box"]["width"] > 1:  # not for screen readers alone
                if not message["on_screen"]:
                    self.on_screen(messages.nth(index))
                if "can't bid" in message["text"]:
                    self.reasons.append(message["text"])
        if seen["keys"] is not None:
            now, box = seen["title"], seen["keys"]
            if self.keys is not None and self.keys[0] == now:
                assert box == self.keys[1], f"the keys moved in {now}"
            self.keys = (now, box)

    def refused(self, thumb: Thumb, alert: Locator) -> None:
        """A refusal is said next to the keys, on the screen."""
        self.reasons.append(alert.inner_text())
        self.before(thumb, alert)


@pytest.mark.parametrize("small_phone", SIZES, ids=["360x640", "375x667"], indirect=True)
def test_v1_a_whole_six_player_game_without_scrolling(
    small_phone: Page, app: Flask, live_server: str, artifacts: Path
) -> None:
    """Six players, plus/minus one (V1): every round of the full plan on one screen; the
    dealer's struck key says why, next to the keys."""
    rules = {"dealer_rule": "plus_minus_one"}
    played = bots_game(rules, 6, seed=6)
    small_phone.goto(live_server + new_game(app, SIX, rules))
    screen = Screen(small_phone)
    thumb = Thumb(small_phone, screen.before, screen.refused)
    # The other parts are a tap away, and the round is back in one more.
    tabs = small_phone.locator(".game-tabs")
    for tab, shown in [("Pad", "#pad"), ("Log", "#log"), ("More", ".rule-lines")]:
        tabs.get_by_role("link", name=tab).click()
        expect(small_phone.locator(shown)).to_be_visible()
        expect(thumb.entry).to_be_hidden()
    tabs.get_by_role("link", name="Round").click()
    thumb.game(played)
    assert screen.reasons, "no bid was ever struck out by the dealer rule"
    assert all("(plus/minus one)" in reason for reason in screen.reasons), screen.reasons
    size = small_phone.viewport_size or {}
    small_phone.screenshot(path=artifacts / f"one-screen-six-{size.get('width')}.png")


@pytest.mark.parametrize("small_phone", SIZES, ids=["360x640", "375x667"], indirect=True)
def test_v1_v3_a_whole_three_player_game_without_scrolling(
    small_phone: Page, app: Flask, live_server: str
) -> None:
    """Three players, twenty rounds (21 keys in the last), hidden bids with plus/minus
    one (V3, V1): the dealer's forbidden bid is refused after the tap, next to the keys."""
    rules = {"dealer_rule": "plus_minus_one", "bidding": "hidden"}
    played = bots_game(rules, 3, seed=3)
    small_phone.goto(live_server + new_game(app, THREE, rules))
    screen = Screen(small_phone)
    Thumb(small_phone, screen.before, screen.refused).game(played, hidden=True)
    assert len(screen.reasons) >= 5, screen.reasons  # refused in most rounds
