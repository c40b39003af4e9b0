"""The standings at a glance on phones: at the top of the scorer's and a follower's page
without scrolling, current after every round, shared places shared (R17), every name
whole (the leader's too) and the points behind apart from the totals; and before the
first round, the other phones invited at the top with a QR code that loads when asked."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, Locator, Page, expect

from scorekeeper import transaction
from scorekeeper.services import games as game_service
from tests.browser.conftest import LAYOUT, Phone
from tests.browser.test_a11y import TAP_TARGETS, axe_problems

# The phones of phone_in and each_phone stay open from test to test (KeptPages): the
# tests that take them add no handlers, scripts or routes to them (``phones`` below,
# which get a handler, are made anew for each test).
KEEP_PAGES = True

NAMES = ["Maximilian", "Anna-Lena", "Christopher", "Dora", "Emil", "Friederike"]


def game(app: Flask, names: list[str], rounds: list[tuple[list[int], list[int]]]) -> str:
    """A game with these rounds played, (bids, tricks) in seat order; the scorer link."""
    with app.app_context(), transaction.atomic():
        made, token = game_service.create_game(names, 0, game_service.parse_rules({}))
        for bids, tricks in rounds:
            game_service.record_round(made, bids, tricks)
        return f"/games/{made.public_id}/score/{token}"


# Six players, two rounds (bids, tricks): Maximilian and Christopher 50, Anna-Lena and
# Friederike 40, Dora and Emil 10; Christopher deals round 3.
TWO_ROUNDS = [
    ([1, 0, 0, 0, 1, 0], [1, 0, 0, 0, 0, 0]),  # +30 +20 +20 +20 −10 +20
    ([0, 0, 1, 0, 0, 0], [0, 0, 1, 1, 0, 0]),  # +20 +20 +30 −10 +20 +20
]


@pytest.fixture
def phones(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[list[Page]]:
    """Two phones: the scorer's, light, and a follower's, dark (CSP bypassed for axe)."""
    contexts = [
        browser.new_context(
            **browser_context_args,
            color_scheme=scheme,
            bypass_csp=True,  # type: ignore[arg-type]
            **LAYOUT,
        )
        for scheme in ("light", "dark")
    ]
    yield [c.new_page() for c in contexts]
    for context in contexts:
        context.close()


def lines(page: Page) -> list[str]:
    """The standings as they read on screen: place, name, total, points behind."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#standings .strip-list li')].map(li =>
            [...li.querySelectorAll('.strip-place, .strip-name, .strip-total, .strip-gap')]
            .map(part => (part.querySelector('[aria-hidden]') || part).textContent.trim())
            .filter(Boolean).join(' '))"""
    )


def accessible(page: Page) -> None:
    """axe-core finds nothing serious, every tap target is 44×44."""
    assert axe_problems(page) == []
    assert page.evaluate(TAP_TARGETS) == []


def show_pad(page: Page) -> None:
    """On the scorer's phone held upright the standings are a line over the round; the
    whole table stands over the pad, a tab away."""
    tab = page.locator(".game-tabs a[href='#pad-view']")  # in any language
    if tab.is_visible():
        tab.click()
        expect(page.locator("#pad")).to_be_visible()


def show_round(page: Page) -> None:
    tab = page.locator(".game-tabs a[href='#entry']")
    if tab.is_visible():
        tab.click()
        expect(page.locator("#entry")).to_be_visible()


def in_view(page: Page, element: Locator) -> None:
    """Wholly on screen, without scrolling by the person. Waited for: after a tap the page
    settles (a shorter panel, the scroll the browser then clamps) a moment after the
    answer's words are in."""
    expect(element).to_be_visible()
    expect(element).to_be_in_viewport(ratio=1)
    box = element.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (box, size)
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (box, size)


@pytest.mark.parametrize(("width", "height"), [(360, 740), (390, 844), (320, 568)])
def test_r17_the_standings_on_top_of_both_phones_and_current_after_a_round(
    app: Flask, live_server: str, phones: list[Page], artifacts: Path, width: int, height: int
) -> None:
    scorer, follower = phones
    link = game(app, NAMES, TWO_ROUNDS)
    for phone in phones:
        phone.set_viewport_size({"width": width, "height": height})
    scorer.goto(live_server + link)
    follower.goto(live_server + link.split("/score/")[0])
    expected = [
        "1 Maximilian 50",  # equal totals share a place (R17)
        "1 Christopher 50",
        "3 Anna-Lena 40 −10",
        "3 Friederike 40 −10",
        "5 Dora 10 −40",
        "5 Emil 10 −40",
    ]
    show_pad(scorer)
    for phone in phones:
        strip = phone.locator("#standings")
        in_view(phone, strip)
        expect(strip.locator(".strip-head")).to_have_text(
            re.compile(r"After round 2\s+Christopher deals round 3")
        )
        assert lines(phone) == expected
        # Every name is whole on screen (or ends in "…" only where it has to, at 320 px).
        for name in strip.locator(".strip-name").all():
            in_view(phone, name)
        accessible(phone)
    scorer.screenshot(path=artifacts / f"standings-{width}-scorer.png")
    follower.screenshot(path=artifacts / f"standings-{width}-follower.png")

    # Round 3 (3 cards, Christopher deals, Dora bids first): the scorer taps it in.
    show_round(scorer)
    entry = scorer.locator("#entry")

    def tap(name: str) -> None:
        before = entry.get_attribute("data-version")
        entry.locator("form.taps .keys").get_by_role("button", name=name, exact=True).click()
        expect(entry).not_to_have_attribute("data-version", before or "")

    for bid in ["0", "0", "1", "0", "0", "1"]:  # Dora, Emil, Friederike, Max, Anna, Chris
        tap(bid)
    expect(entry.locator("form.taps h3")).to_contain_text("Tricks")
    # Dora, Emil, Friederike took 2, Max, Anna: Christopher's 1 fills itself in, and the
    # round is scored.
    for took in ["0", "0", "2", "0", "0"]:
        tap(took)
    # Dora and Emil +20, Friederike −10 (bid 1, took 2), Maximilian and Anna-Lena +20,
    # Christopher +30: sorted anew.
    after = [
        "1 Christopher 80",
        "2 Maximilian 70 −10",
        "3 Anna-Lena 60 −20",
        "4 Dora 30 −50",
        "4 Emil 30 −50",
        "4 Friederike 30 −50",
    ]
    show_pad(scorer)
    for phone in phones:  # the follower's page catches up by itself
        expect(phone.locator("#standings .strip-head")).to_contain_text("After round 3")
        expect(phone.locator("#standings")).to_contain_text("Dora deals round 4")
        assert lines(phone) == after
        in_view(phone, phone.locator("#standings"))
    scorer.screenshot(path=artifacts / f"standings-{width}-after-a-round.png")


def test_before_the_first_round_the_other_phones_are_invited_at_the_top(
    app: Flask, live_server: str, phones: list[Page], artifacts: Path
) -> None:
    scorer, follower = phones
    link = game(app, NAMES, [])
    qr_asked: list[str] = []
    scorer.on("request", lambda r: qr_asked.append(r.url) if r.url.endswith("/qr.svg") else None)
    scorer.set_viewport_size({"width": 360, "height": 740})
    scorer.goto(live_server + link)
    invite = scorer.locator("details.follow-early")
    in_view(scorer, invite)
    expect(scorer.locator("#standings")).to_be_hidden()  # nothing to rank yet
    # The round's entry stays in reach: the first bid keys are on screen too.
    in_view(scorer, scorer.locator("form.taps .keys .key").first)
    scorer.wait_for_load_state("load")
    assert qr_asked == []  # the QR code loads when asked for, not with the page
    accessible(scorer)
    scorer.screenshot(path=artifacts / "follow-early-360.png")
    invite.locator("summary").click()
    qr = invite.locator("img.qr")
    expect(qr).to_be_visible()
    scorer.wait_for_function(
        "() => document.querySelector('details.follow-early img.qr').naturalWidth > 0"
    )
    assert len(qr_asked) == 1
    view_url = live_server + link.split("/score/")[0]
    expect(invite.locator(".share-link")).to_have_attribute("href", view_url)
    accessible(scorer)
    scorer.screenshot(path=artifacts / "follow-early-360-open.png")
    # A follower is offered the same, to pass the game on.
    follower.goto(view_url)
    expect(follower.locator("details.follow-early")).to_be_visible()
    accessible(follower)

    # The first round scored: the standings take the invitation's place.
    entry = scorer.locator("#entry")
    # The bids, then who took the trick: the others' 0 fill themselves in, and the round
    # is scored.
    for label in ["0", "0", "0", "0", "0", "0", "1"]:
        before = entry.get_attribute("data-version")
        keys = entry.locator("form.taps .keys")
        if label == "1":
            expect(entry.locator("form.taps h3")).to_contain_text("Tricks")
        keys.get_by_role("button", name=label, exact=True).click()
        expect(entry).not_to_have_attribute("data-version", before or "")
    expect(scorer.locator("#standings .strip-head")).to_contain_text("After round 1")
    expect(invite).to_be_hidden()
    expect(follower.locator("#standings .strip-head")).to_contain_text("After round 1")
    expect(follower.locator("details.follow-early")).to_be_hidden()
    # Sharing stays under "More" (loaded when it opens).
    scorer.locator(".game-tabs a[href$='#more-view']").click()
    expect(scorer.locator("details.share").first).to_be_attached()


def test_the_welcome_of_a_new_game_already_shows_the_qr_code(
    app: Flask, live_server: str, page: Page
) -> None:
    link = game(app, NAMES[:4], [])
    page.goto(live_server + link)
    page.goto(page.url + "?welcome=1")
    welcome = page.locator("section.welcome")
    expect(welcome.get_by_role("heading", name="Follow on another phone")).to_be_visible()
    expect(welcome.locator("img.qr")).to_be_visible()
    expect(page.locator("details.follow-early")).to_have_count(0)  # not twice


# What the strip's lines measure on screen: whether each name shows whole (no "…", no
# letters cut off) and the room between the text of the total and of the points behind.
STRIP_GEOMETRY = """() => {
    const text = el => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return range.getBoundingClientRect();
    };
    return [...document.querySelectorAll('#standings .strip-list li')].map(li => {
        const name = li.querySelector('.strip-name');
        const total = text(li.querySelector('.strip-total'));
        const gap = li.querySelector('.strip-gap [aria-hidden]');
        const shown = text(name);
        const box = name.getBoundingClientRect();
        return {
            name: name.textContent.trim(),
            whole: name.scrollWidth <= name.clientWidth
                && shown.left >= box.left - 0.5 && shown.right <= box.right + 0.5,
            room: gap ? text(gap).left - total.right : null,
            top: li.getBoundingClientRect().top,
        };
    });
}"""
# A long name in the lead, the others long too, and totals far apart (three digits and a
# minus sign behind by more than a hundred).
LONG_LEAD = ["Bartholomäus", "Anna-Lena", "Christopher", "Friederike", "Maximilian", "Clara"]
LONG_ROUNDS = [
    ([1, 0, 0, 0, 1, 1], [1, 0, 0, 0, 0, 0]),  # +30 +20 +20 +20 −10 −10
    ([2, 0, 0, 0, 0, 2], [2, 0, 0, 0, 0, 0]),  # +40 +20 +20 +20 +20 −20
    ([3, 0, 0, 0, 1, 3], [3, 0, 0, 0, 0, 0]),  # +50 +20 +20 +20 −10 −30
    ([4, 0, 0, 1, 0, 4], [4, 0, 0, 0, 0, 0]),  # +60 +20 +20 −10 +20 −40
]


def test_the_standings_show_every_name_whole_with_room_before_the_points_behind(
    app: Flask, live_server: str, each_phone: Phone, artifacts: Path
) -> None:
    link = game(app, LONG_LEAD, LONG_ROUNDS)
    phone = each_phone.page
    phone.goto(live_server + link)
    show_pad(phone)
    in_view(phone, phone.locator("#standings"))
    assert lines(phone) == [
        "1 Bartholomäus 180",
        "2 Anna-Lena 80 −100",
        "2 Christopher 80 −100",
        "4 Friederike 50 −130",
        "5 Maximilian 20 −160",
        "6 Clara −100 −280",
    ]
    found = phone.evaluate(STRIP_GEOMETRY)
    for line in found:
        assert line["whole"], line  # the leader's name too
        # The points behind stand apart from the total: at least a space's width.
        assert line["room"] is None or line["room"] >= 6, line
    phone.screenshot(path=artifacts / f"standings-long-{each_phone.label}.png")


@pytest.mark.parametrize("width", [360, 390])
def test_short_names_keep_the_standings_to_three_lines(
    app: Flask, live_server: str, phones: list[Page], artifacts: Path, width: int
) -> None:
    scorer = phones[0]
    scorer.set_viewport_size({"width": width, "height": 640})
    scorer.goto(live_server + game(app, ["Ann", "Ben", "Cat", "Dora", "Emil", "Lena"], TWO_ROUNDS))
    show_pad(scorer)
    found = scorer.evaluate(STRIP_GEOMETRY)
    assert len({round(line["top"]) for line in found}) == 3, found  # two columns
    for line in found:
        assert line["whole"], line
        assert line["room"] is None or line["room"] >= 6, line
    scorer.screenshot(path=artifacts / f"standings-short-{width}.png")


@pytest.mark.parametrize("look", ["light", "dark"])
@pytest.mark.parametrize(("width", "height"), [(360, 640), (375, 667)])
def test_over_the_round_the_standings_are_one_line_that_scrolls_sideways_to_every_name(
    app: Flask,
    live_server: str,
    phone_in: Callable[[int, int, str], Page],
    artifacts: Path,
    width: int,
    height: int,
    look: str,
) -> None:
    phone = phone_in(width, height, look)
    phone.goto(live_server + game(app, LONG_LEAD, LONG_ROUNDS))
    show_round(phone)
    strip = phone.locator("#standings .strip-list")
    found = phone.evaluate(STRIP_GEOMETRY)
    assert len({round(line["top"]) for line in found}) == 1, found  # one line
    assert all(line["whole"] for line in found), found  # no name cut short
    assert phone.evaluate("document.documentElement.scrollWidth") <= width  # the page stays
    last = strip.locator("li").last
    before = last.bounding_box()
    assert before is not None and before["x"] + before["width"] > width  # Clara to the right
    phone.screenshot(path=artifacts / f"standings-line-{width}-{look}.png")
    # A swipe along the line (a sideways wheel here) brings the last player in whole.
    box = strip.bounding_box()
    assert box is not None
    phone.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    phone.mouse.wheel(1000, 0)
    in_view(phone, last)
    expect(last).to_contain_text("Clara")
    assert phone.evaluate("window.scrollY") == 0
