"""The whole pad on one phone screen: with 3 to 6 players and long names, at 320, 360
and 390 px wide, the pad needs no sideways scrolling and every name shows whole (long
names break between syllables), with the worst totals a game of six reaches."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from scorekeeper import transaction
from scorekeeper.services import games as game_service
from tests.browser.conftest import KeptPages, Phone, shot_if_failing
from tests.browser.test_standings import show_pad

LONG_NAMES = ["Maximilian", "Anna-Lena", "Christopher", "Bartholomew", "Konstantin", "Friederike"]
SHORT_NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]


def scored_game(app: Flask, names: list[str], rounds: int) -> str:
    """``rounds`` rounds played so that the totals grow wide: the first player bids every
    trick and takes them (three digits), the second bids every trick and takes none (a
    minus and three digits); the scorer link."""
    with app.app_context(), transaction.atomic():
        game, token = game_service.create_game(names, 0, game_service.parse_rules({}))
        n = len(names)
        for cards in game_service.sheet_of(game).plan[:rounds]:
            bids = [cards, cards] + [0] * (n - 2)
            tricks = [cards] + [0] * (n - 1)
            game_service.record_round(game, bids, tricks)
        return f"/games/{game.public_id}/score/{token}"


# The phones stay open from test to test (KeptPages): each test here loads its pages,
# reads their sizes and adds nothing to the page.
KEEP_PAGES = True


@pytest.fixture
def phone(
    kept_pages: KeptPages, browser_context_args: dict[str, Any], live_server: str
) -> Iterator[Page]:
    yield kept_pages.take(live_server, browser_context_args["viewport"])
    kept_pages.give_back()


def sizes(page: Page) -> dict[str, Any]:
    return page.evaluate(
        """() => {
        const box = document.querySelector('.pad-box');
        const names = [...document.querySelectorAll('#pad thead th.name')].map(th => {
            const r = th.getBoundingClientRect();
            const text = th.querySelector('.name-text');
            return {left: r.left, right: r.right, clipped: text.scrollWidth > text.clientWidth
                    || text.scrollHeight > text.clientHeight + 1};
        });
        return {scroll: box.scrollWidth, client: box.clientWidth,
                page: document.documentElement.scrollWidth, names};
    }"""
    )


def assert_fits(page: Page, width: int) -> None:
    found = sizes(page)
    assert found["scroll"] <= found["client"], found
    assert found["page"] <= width, found
    for name in found["names"]:
        assert name["left"] >= 0 and name["right"] <= width + 0.5, found  # sub-pixels
        assert not name["clipped"], found


@pytest.mark.parametrize("players", [5, 6])
def test_the_pad_fits_a_360_screen_without_sideways_scrolling(
    app: Flask, live_server: str, phone: Page, artifacts: Path, players: int
) -> None:
    phone.set_viewport_size({"width": 360, "height": 740})
    names = LONG_NAMES[:players]
    phone.goto(live_server + scored_game(app, names, rounds=7))
    show_pad(phone)
    expect(phone.locator("#pad")).to_be_visible()
    phone.locator("#pad").scroll_into_view_if_needed()
    with shot_if_failing(phone, artifacts / f"pad-fits-360-{players}.png"):
        assert_fits(phone, 360)
        heads = phone.locator("#pad thead th.name")
        for seat, name in enumerate(names):
            # Every name whole, read as it is (soft hyphens break it only on screen).
            text = heads.nth(seat).locator(".name-text")
            expect(text).to_be_visible()
            assert text.inner_text().replace("\N{SOFT HYPHEN}", "").replace("\n", "") == name


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("names", [LONG_NAMES, SHORT_NAMES], ids=["long", "short"])
def test_the_pad_fits_every_phone_width(
    app: Flask,
    live_server: str,
    kept_pages: KeptPages,
    browser_context_args: dict[str, Any],
    artifacts: Path,
    players: int,
    names: list[str],
    locale: str,
) -> None:
    try:
        phone = kept_pages.take(live_server, browser_context_args["viewport"], locale)
        phone.goto(
            live_server + scored_game(app, names[:players], rounds=12 if players == 3 else 7)
        )
        show_pad(phone)
        expect(phone.locator("#pad")).to_be_visible()
        for width in (390, 360, 320):
            phone.set_viewport_size({"width": width, "height": 740})
            phone.locator("#pad").scroll_into_view_if_needed()
            shot = f"pad-fits-{width}-{players}-{len(names[0])}-{locale[:2]}.png"
            with shot_if_failing(phone, artifacts / shot):
                assert_fits(phone, width)
    finally:
        kept_pages.give_back()


ONE_LONG = ["Anna", "Ben", "Clara", "Dieter", "Eva", "Eberhardt-Maximilian"]

# The text of each line a name takes on screen: its letters grouped by the line box they
# sit on (soft hyphens, which take no room unless a line breaks there, left out).
LINES = """el => {
    const text = [...el.childNodes].find(n => n.nodeType === 3 && n.textContent.trim());
    const range = document.createRange();
    const lines = [];
    let top = null;
    for (let i = 0; i < text.length; i++) {
        if (text.data[i] === '\\u00ad') continue;
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        // The letter after a break also yields an empty box at the end of the line before.
        const boxes = [...range.getClientRects()].filter(r => r.width > 0);
        const y = Math.round(boxes[boxes.length - 1].top);
        if (y !== top) { lines.push(''); top = y; }
        lines[lines.length - 1] += text.data[i];
    }
    return lines;
}"""


@pytest.mark.parametrize("width", [390, 360])
@pytest.mark.parametrize("rounds", [0, 1, 7])
def test_short_names_stay_whole_beside_a_long_one(
    app: Flask, live_server: str, phone: Page, artifacts: Path, rounds: int, width: int
) -> None:
    """Six players, one with a long double name, with narrow totals (the first rounds)
    and wide ones: the short names each keep one line (never "Ann/a"), the long one
    breaks at its hyphen and syllables only, and nothing widens the page."""
    phone.set_viewport_size({"width": width, "height": 740})
    phone.goto(live_server + scored_game(app, ONE_LONG, rounds=rounds))
    show_pad(phone)
    expect(phone.locator("#pad")).to_be_visible()
    phone.locator("#pad").scroll_into_view_if_needed()
    with shot_if_failing(phone, artifacts / f"pad-one-long-name-{width}-{rounds}.png"):
        assert_fits(phone, width)
        heads = phone.locator("#pad thead th.name .name-text")
        for seat, name in enumerate(ONE_LONG[:5]):
            assert heads.nth(seat).evaluate(LINES) == [name]
        long_lines = heads.nth(5).evaluate(LINES)
        assert "".join(long_lines) == ONE_LONG[5]
        assert all(len(line.strip("-")) >= 3 for line in long_lines), long_lines


def test_r17_the_podium_breaks_a_long_name_between_syllables(
    app: Flask, live_server: str, phone: Page, artifacts: Path
) -> None:
    """R17: the long name wins (bids every trick and takes them, the others bid and take
    none) and stands on the podium's top step at 360 px, broken at its hyphen or between
    syllables: no line of a letter or two, no lone hyphen."""
    phone.set_viewport_size({"width": 360, "height": 740})
    with app.app_context(), transaction.atomic():
        game, token = game_service.create_game(ONE_LONG, 0, game_service.parse_rules({}))
        for cards in game_service.sheet_of(game).plan:
            game_service.record_round(game, [0] * 5 + [cards], [0] * 5 + [cards])
        public_id = game.public_id
    phone.goto(live_server + f"/games/{public_id}/score/{token}")
    winner = phone.locator(".podium .place-1 .who")
    expect(winner).to_be_visible()
    winner.scroll_into_view_if_needed()
    phone.screenshot(path=artifacts / "podium-long-name-360.png")
    lines = winner.evaluate(LINES)
    assert "".join(lines) == ONE_LONG[5]
    assert all(len(line.strip("-")) >= 3 for line in lines), lines
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360


# Each player's share of the pad's width (their name's head), and the rows where the
# dealer's mark in the corner of a total cell runs into the total's digits.
COLUMNS = """() => {
    const widths = [...document.querySelectorAll('#pad thead th.name')]
        .map(th => th.getBoundingClientRect().width);
    const overlaps = [];
    for (const mark of document.querySelectorAll('#pad td.total .dealer-mark')) {
        const cell = mark.closest('td');
        const digits = [...cell.childNodes].find(n => n.nodeType === 3 && n.data.trim());
        if (!digits) continue;
        const range = document.createRange();
        range.selectNodeContents(digits);
        const a = mark.getBoundingClientRect();
        const b = range.getBoundingClientRect();
        if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) {
            overlaps.push(cell.closest('tr').id + ' ' + digits.data);
        }
    }
    return {widths, overlaps};
}"""
ONE_LONG_AMONG_SHORT = ["Anna", "Bo", "Christopher-Alexander", "Dora", "Eva", "Fay"]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_players_share_the_pad_evenly_and_the_dealer_mark_stays_clear_of_the_total(
    app: Flask, live_server: str, each_phone: Phone, artifacts: Path, players: int
) -> None:
    """With three or four players a long double name among short ones takes no more of
    the pad than theirs (it breaks at its hyphen and syllables instead); five or six
    share a phone's width by what their columns need (a wide total, a name held to
    about its width), never one column twice another. The dealer's mark never touches
    the digits of the total in its cell, however wide they grow."""
    phone = each_phone.page
    names = ONE_LONG_AMONG_SHORT[:players]
    phone.goto(live_server + scored_game(app, names, rounds=12 if players < 5 else 7))
    show_pad(phone)
    phone.locator("#pad").scroll_into_view_if_needed()
    with shot_if_failing(phone, artifacts / f"pad-even-{players}-{each_phone.label}.png"):
        assert_fits(phone, each_phone.width)
        found = phone.evaluate(COLUMNS)
        assert max(found["widths"]) <= min(found["widths"]) * (1.02 if players < 5 else 1.4)
        assert found["overlaps"] == [], found
