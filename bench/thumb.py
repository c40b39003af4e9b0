"""A scorer's thumb on the real game page in Chromium: a bots' game (seeded) tapped in
round by round as at the table. ``bench/taps.py --phone`` counts the taps and scrolls it
takes; ``tests/browser/test_round_on_one_screen.py`` checks the screen before each tap.

Each round: the bids as asked (with hidden bids and plus/minus one, V3 with V1, the
dealer's forbidden bid tapped first, which the server refuses next to the keys), then the
counts: the players who missed their bids first (a tap on their circle under "Took",
then their count; the last of them with "only … missed", which enters the rest as bid),
or "the rest made their bids" as soon as everyone left made theirs.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Locator, Page, expect

from scorekeeper.engine import Game as EngineGame
from scorekeeper.engine import RuleSet
from scorekeeper.engine.bots import Bot, play_game


@dataclass
class Played:
    """A bots' game: each round's bids and trick counts in seat order, and its cards."""

    bids: list[list[int]]
    tricks: list[list[int]]
    plan: list[int]


def bots_game(rules: dict[str, Any], players: int, seed: int) -> Played:
    """A whole game played by normal bots, the first dealer in seat 0."""
    game = play_game(
        EngineGame.new(RuleSet.from_dict(rules), players, 0),
        [Bot()] * players,
        random.Random(seed),
    )
    bids = [[b or 0 for b in entry.bids] for entry in game.history]
    tricks = [list(entry.tricks or ()) for entry in game.history]
    return Played(bids, tricks, list(game.plan))


class Thumb:
    """Taps the page's buttons; ``before`` sees each target just before it is tapped
    (and every message then on the panel), ``refused`` each refusal the server said."""

    def __init__(
        self,
        page: Page,
        before: Callable[[Thumb, Locator], None],
        refused: Callable[[Thumb, Locator], None] | None = None,
        only: Callable[[str, int], str] = lambda name, took: f"✓ Only {name} missed: took {took}",
    ) -> None:
        self.page = page
        self.only = only  # the words of "only … missed" in the page's language
        self.entry = page.locator("#entry")
        self.before = before
        self.refused = refused
        self.taps = 0

    def version(self) -> str:
        return self.entry.get_attribute("data-version") or ""

    def title(self) -> str:
        return self.entry.locator("#entry-title").inner_text()

    def name(self, seat: int) -> str:
        return self.entry.locator(f"tr[data-seat='{seat}'] .who").first.inner_text()

    def asked(self) -> int:
        return int(self.entry.locator("form.taps input[name=seat]").get_attribute("value") or -1)

    def key(self, value: int) -> Locator:
        keys = self.entry.locator("form.taps .keys")
        return keys.get_by_role("button", name=str(value), exact=True)

    def tap(self, target: Locator) -> None:
        """A tap that only changes the page (a circle under "Took")."""
        self.before(self, target)
        target.click()
        self.taps += 1

    def press(self, target: Locator) -> None:
        """A tap the server answers: waits for the panel of the next version."""
        version = self.version()
        self.tap(target)
        expect(self.entry).not_to_have_attribute("data-version", version)

    def refuse(self, target: Locator, says: str) -> None:
        """A tap the server refuses: the same round comes back with why."""
        self.tap(target)
        alert = self.entry.locator(".alert")
        expect(alert).to_contain_text(says)
        if self.refused is not None:
            self.refused(self, alert)

    def round(self, played: Played, number: int, hidden: bool = False) -> None:
        """Round ``number`` of ``played``, from its first bid until it is scored."""
        bids, tricks = played.bids[number - 1], played.tricks[number - 1]
        cards = played.plan[number - 1]
        dealer = (number - 1) % len(bids)
        title = self.title()
        while self.entry.locator("form.taps button[name=bid]").count():
            seat = self.asked()
            forbidden = cards - sum(b for s, b in enumerate(bids) if s != dealer)
            if hidden and seat == dealer and 0 <= forbidden <= cards:
                self.refuse(self.key(forbidden), "can't bid")
            self.press(self.key(bids[seat]))
        while self.title() == title:
            missing = [
                int(pick.get_attribute("data-taker") or -1)
                for pick in self.entry.locator("button[data-taker]").all()
            ]
            rest = self.entry.locator("form.rest-form button")
            if rest.count() and all(bids[s] == tricks[s] for s in missing):
                self.press(rest)
                return
            missed = [s for s in missing if bids[s] != tricks[s]]
            seat = missed[0] if missed else self.asked()
            if seat != self.asked():
                pick = self.entry.locator(f"button[data-taker='{seat}']")
                self.tap(pick)
                expect(pick).to_have_attribute("aria-pressed", "true")
            only = self.entry.locator("form.missed-form button")
            if len(missed) == 1 and only.count():
                # The last one who missed: the button says their count, the rest as bid.
                expect(only).to_have_text(self.only(self.name(seat), tricks[seat]))
                self.press(only)
                return
            self.press(self.key(tricks[seat]))

    def game(self, played: Played, hidden: bool = False) -> None:
        """Every round, then the final standings."""
        for number in range(1, len(played.plan) + 1):
            expect(self.entry.locator("#entry-title")).to_contain_text(f"Round {number} ")
            self.round(played, number, hidden)
        expect(self.entry.locator("#entry-title")).to_have_text("Final standings")
