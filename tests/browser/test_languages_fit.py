"""Every language fits the smallest phone: the main pages at 360 px wide, in each of the
seven languages, scroll only up and down, cut no text off, and keep every button's words
whole (a French or Polish label is longer than the English one it replaces)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from scorekeeper import engine, i18n, transaction
from scorekeeper.services import circles as circle_service
from scorekeeper.services import games as game_service
from tests.browser.conftest import KeptPages

WIDTH, HEIGHT = 360, 640

# What is wrong on the page with its disclosures open, one line per problem: the page
# wider than the screen; an element with text whose box cuts it off (overflow hidden or
# an ellipsis) or that reaches past the screen's right edge outside a box that scrolls
# sideways; a button whose words take more than two lines, or whose word is broken in
# two; a field squeezed too narrow to type in.
PROBLEMS = """() => {
    // What a tap opens is checked too: every disclosure open.
    for (const details of document.querySelectorAll('details')) details.open = true;
    const problems = [];
    const root = document.documentElement;
    const screen = root.clientWidth;
    if (root.scrollWidth > screen) {
        problems.push(`the page is ${root.scrollWidth}px wide on a ${screen}px screen`);
    }
    const describe = el => {
        let what = el.tagName.toLowerCase();
        if (el.id) what += '#' + el.id;
        for (const c of el.classList) what += '.' + c;
        const words = (el.innerText || el.value || el.placeholder || '')
            .trim().replace(/\\s+/g, ' ');
        return `${what} "${words.slice(0, 50)}"`;
    };
    const scrollsSideways = el => {
        for (let up = el.parentElement; up; up = up.parentElement) {
            const o = getComputedStyle(up).overflowX;
            if (o === 'auto' || o === 'scroll') return true;
        }
        return false;
    };
    const ownText = el => [...el.childNodes].some(
        n => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
    for (const el of document.body.querySelectorAll('*')) {
        if (el.closest('.visually-hidden, script, style, template, noscript')) continue;
        const style = getComputedStyle(el);
        const box = el.getBoundingClientRect();
        // Out of sight on purpose: words for screen readers only (a 1 px box) or a
        // default button parked off the screen.
        if (style.visibility === 'hidden' || box.width <= 1 || box.height <= 1) continue;
        if (box.right <= 0) continue;
        if (!ownText(el)) continue;
        const clips = ['hidden', 'clip'].includes(style.overflowX)
            || style.textOverflow === 'ellipsis';
        if (clips && el.scrollWidth > el.clientWidth + 1) {
            problems.push(`cut off by ${el.scrollWidth - el.clientWidth}px: ${describe(el)}`);
        }
        if (box.right > screen + 1 && !scrollsSideways(el)) {
            problems.push(`${Math.round(box.right - screen)}px past the edge: ${describe(el)}`);
        }
    }
    // A box to type a name in keeps room for one (a longer word beside it squeezed it),
    // and shows its placeholder whole.
    const pen = document.createElement('canvas').getContext('2d');
    const fields = 'input:not([type]), input[type=text], input[type=number], select';
    for (const field of document.querySelectorAll(fields)) {
        const box = field.getBoundingClientRect();
        if (box.width <= 1 || box.right <= 0 || field.closest('.visually-hidden')) continue;
        const least = field.matches('input[type=number]') ? 40 : 72;
        if (box.width < least) {
            problems.push(`${Math.round(box.width)}px narrow: ${describe(field)}`);
        }
        if (field.placeholder && !field.value) {
            const style = getComputedStyle(field);
            pen.font = style.font;
            const room = field.clientWidth - parseFloat(style.paddingLeft)
                - parseFloat(style.paddingRight);
            const wide = pen.measureText(field.placeholder).width;
            if (wide > room + 1) {
                const by = Math.round(wide - room);
                problems.push(`placeholder cut off by ${by}px: ${describe(field)}`);
            }
        }
    }
    const range = document.createRange();
    const buttons = 'button, .button, [role=button], input[type=submit], summary.button';
    for (const button of document.querySelectorAll(buttons)) {
        const box = button.getBoundingClientRect();
        if (box.width <= 1 || box.right <= 0 || button.closest('.visually-hidden')) continue;
        // Lines as the text's height over the button's line height (a note set beside
        // two lines, centred, is no third line).
        let top = Infinity, bottom = -Infinity;
        const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
        for (let node; (node = walker.nextNode());) {
            if (node.parentElement.closest('.visually-hidden')) continue;
            for (const word of node.textContent.matchAll(/\\S+/g)) {
                range.setStart(node, word.index);
                range.setEnd(node, word.index + word[0].length);
                const rects = [...range.getClientRects()].filter(r => r.width > 0);
                for (const r of rects) {
                    top = Math.min(top, r.top);
                    bottom = Math.max(bottom, r.bottom);
                }
                const tops = new Set(rects.map(r => Math.round(r.top)));
                if (tops.size > 1) problems.push(`${word[0]} broken in two: ${describe(button)}`);
            }
        }
        const style = getComputedStyle(button);
        const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2;
        const rows = bottom > top ? Math.round((bottom - top) / line) : 0;
        if (rows > 2) problems.push(`${rows} lines: ${describe(button)}`);
    }
    return problems;
}"""


def _play(
    app: Flask,
    names: list[str],
    rounds: int | None,
    circle_id: int | None = None,
    bids: bool = False,
) -> str:
    """A game with ``rounds`` rounds scored (all of them for None), and with ``bids``
    every bid of the next one in, its tricks to come; its scorer link."""
    with app.app_context(), transaction.atomic():
        rules = game_service.parse_rules({"round_plan": "short"})
        game, token = game_service.create_game(names, 0, rules, circle_id=circle_id)
        plan = engine.round_plan(len(names), short=True)
        played = plan[: rounds if rounds is not None else len(plan)]
        for number, cards in enumerate(played):
            made = [cards, *([0] * (len(names) - 1))]
            trump = "red" if number % 2 and number + 1 < len(plan) else None
            game_service.record_round(game, made, made, trump=trump)
        if bids:
            game_service.set_draft_trump(game, "green")
            dealer = len(played) % len(names)
            for turn in range(1, len(names) + 1):
                game_service.set_bid(game, (dealer + turn) % len(names), 1)
        return f"/games/{game.public_id}/score/{token}"


def _pages(app: Flask) -> list[tuple[str, str]]:
    """The main pages, (name, path): the circle's link opens its page (and lets this
    phone in, for its history's pages), the scorer links the pad of a game in its third
    round, its bids to come and its tricks."""
    with app.app_context(), transaction.atomic():
        circle = circle_service.create_circle("Donnerstagszauberer")
        link = f"/c/{circle.public_id}/{circle_service.circle_key(circle)}"
        circle_id, public_id = circle.id, circle.public_id
    names = ["Małgorzata", "Bartholomäus", "Françoise", "Gianfranco"]
    mid = _play(app, names, 2, circle_id=circle_id)
    tricks = _play(app, names, 2, circle_id=circle_id, bids=True)
    done = _play(app, names, None, circle_id=circle_id)
    return [
        ("home", "/"),
        ("setup", "/games/new"),
        ("circle", link),
        ("circle-games", f"/circles/{public_id}/games"),
        ("circle-players", f"/circles/{public_id}/players"),
        ("circle-records", f"/circles/{public_id}/records"),
        ("pad-mid-game", mid),
        ("pad-tricks", tricks),
        ("finished", done.split("/score/")[0]),
        ("resolver", "/resolver/?trump=red&cards=B3+R2+W+J"),
        ("digital-setup", "/digital/new"),
    ]


@pytest.fixture
def phone(kept_pages: KeptPages, live_server: str) -> Iterator[Page]:
    """The phone, kept open from one language's test to the next (KeptPages)."""
    yield kept_pages.take(live_server, {"width": WIDTH, "height": HEIGHT})
    kept_pages.give_back()


@pytest.mark.parametrize("code", sorted(i18n.LANGUAGES))
def test_the_main_pages_fit_a_360_px_phone_in_every_language(
    app: Flask, live_server: str, phone: Page, artifacts: Path, code: str
) -> None:
    phone.context.add_cookies([{"name": "lang", "value": code, "url": live_server}])
    problems: list[str] = []
    for name, path in _pages(app):
        phone.goto(live_server + path)
        expect(phone.locator("html")).to_have_attribute("lang", code)
        expect(phone.locator("footer.langs")).to_be_visible()
        phone.evaluate("document.fonts.ready.then(() => true)")
        if name == "circle":
            expect(phone).to_have_url(re.compile(r"/circles/[^/]+$"))
        found = [f"{name}: {problem}" for problem in phone.evaluate(PROBLEMS)]
        if found:  # a picture of each page with a problem, to look at
            phone.screenshot(path=artifacts / f"fit-{code}-{name}.png", full_page=True)
        problems += found
    assert problems == [], "\n".join(problems)
