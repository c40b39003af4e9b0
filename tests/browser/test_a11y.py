"""Every page in both themes: axe-core finds nothing serious, taps are 44×44, and the
pad can be played with a keyboard alone. Screenshots of each page and theme go to
tests/artifacts/a11y/ (look at them)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page, expect

from scorekeeper import engine, transaction
from scorekeeper.engine import Phase, RuleSet
from scorekeeper.services import circles as circle_service
from scorekeeper.services import digital as digital_service
from scorekeeper.services import games as game_service
from tests.browser.conftest import LAYOUT

# axe-core from npm (`npm pack axe-core`), vendored with its licence: a test-only asset.
AXE = Path(__file__).parent / "axe" / "axe-4.14.1.min.js"
SERIOUS = ("serious", "critical")
PhoneMaker = Callable[..., Page]

# Interactive elements and how big they are on screen. A radio or checkbox counts by its
# label (the label is what a thumb hits); a link inside a sentence is exempt, as in WCAG.
TAP_TARGETS = """() => {
  const out = [];
  const seen = new Set();
  const sel = 'a[href], button, summary, select, input:not([type=hidden]), [role=button]';
  for (let el of document.querySelectorAll(sel)) {
    if (el.closest('[aria-hidden="true"], [hidden]')) continue;
    if (el.matches('input[type=radio], input[type=checkbox]') && el.closest('label')) {
      el = el.closest('label');
    }
    if (seen.has(el)) continue;
    seen.add(el);
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (!r.width || !r.height || style.visibility === 'hidden') continue;
    if (r.right < 0 || r.bottom < 0) continue;  // moved off screen on purpose
    if (el.matches('a') && style.display === 'inline') {
      const block = el.parentElement.closest('p, li, dd, td, span, div');
      if (block && block.textContent.trim() !== el.textContent.trim()) continue;
    }
    if (r.width < 43.5 || r.height < 43.5) {
      const name = (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 30);
      out.push(`${el.tagName.toLowerCase()}.${el.className} "${name}"`
               + ` ${Math.round(r.width)}×${Math.round(r.height)}`);
    }
  }
  return out;
}"""


def axe_problems(page: Page) -> list[str]:
    """Serious and critical axe-core violations of the page as it is now."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=AXE)
    result = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
    )
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(" ".join(n["target"]) for n in v["nodes"][:4])
        for v in result
        if v["impact"] in SERIOUS
    ]


@pytest.fixture
def phones(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[PhoneMaker]:
    """Phones (browser contexts) in a colour scheme and language; CSP bypassed for axe."""
    made: list[BrowserContext] = []

    def make(scheme: str = "light", locale: str = "en-GB") -> Page:
        context = browser.new_context(
            **browser_context_args,
            color_scheme=scheme,
            locale=locale,
            bypass_csp=True,  # type: ignore[arg-type]
            **LAYOUT,
        )
        made.append(context)
        return context.new_page()

    yield make
    for context in made:
        context.close()


def _circle(app: Flask) -> tuple[int, str, str]:
    """A circle: its database id, public id and link (path)."""
    with app.app_context(), transaction.atomic():
        circle = circle_service.create_circle("Thursday Wizards")
        return (
            circle.id,
            circle.public_id,
            f"/c/{circle.public_id}/{circle_service.circle_key(circle)}",
        )


def _play(
    app: Flask,
    names: list[str],
    rounds: int | None,
    short: bool = False,
    circle_id: int | None = None,
) -> str:
    """A game made through the service with ``rounds`` rounds scored; its scorer link."""
    with app.app_context(), transaction.atomic():
        rules = game_service.parse_rules({"round_plan": "short"} if short else {})
        game, token = game_service.create_game(names, 0, rules, circle_id=circle_id)
        plan = engine.round_plan(len(names), short=short)
        for number, cards in enumerate(plan[: rounds if rounds is not None else len(plan)]):
            bids = [cards, *([0] * (len(names) - 1))]
            bids[number % len(names)] = max(0, bids[number % len(names)] - 1)
            tricks = [cards, *([0] * (len(names) - 1))]
            trump = "red" if number % 2 and number + 1 < len(plan) else None
            game_service.record_round(game, bids, tricks, trump=trump)
        return f"/games/{game.public_id}/score/{token}"


def _pages(app: Flask, base: str, scorer: Page, viewer: Page) -> Iterator[tuple[str, Page]]:
    """Open each page in turn (as scorer or as a phone that only follows); yield its name."""
    circle_id, circle, link = _circle(app)
    live = _play(app, ["Ann", "Ben", "Cat", "Dan"], 2, circle_id=circle_id)
    done = _play(app, ["Eve", "Fay", "Gil"], None, short=True, circle_id=circle_id)
    one_off = _play(app, ["Hal", "Ivy", "Jo"], 1)
    scorer.goto(base + live)
    game_url = scorer.url

    # The round being entered: trump and two bids in.
    scorer.locator(".trump-pick > summary").click()
    scorer.locator('.trump-form button[value="green"]').click()
    expect(scorer.locator(".trump-now .suit-green")).to_be_visible()
    for entered in (1, 2):
        scorer.locator("form.taps .key:not([disabled])").first.click()
        expect(scorer.locator("table.seats button.val")).to_have_count(entered)
    yield "game-scorer-mid-round", scorer
    scorer.goto(game_url + "/rounds/1/edit")
    yield "game-correction", scorer
    scorer.goto(game_url + "/rounds/2/delete")
    yield "game-delete-round", scorer
    viewer.goto(game_url)
    yield "game-viewer", viewer
    viewer.goto(base + done.split("/score/")[0])
    yield "game-finished", viewer
    viewer.goto(viewer.url + "/story")
    yield "game-story", viewer
    # A new one-off game opens with its welcome: the scorer link, the only key.
    scorer.goto(base + one_off)  # this phone keeps its score now
    scorer.goto(base + one_off.split("/score/")[0] + "?welcome=1")
    expect(scorer.locator("section.welcome")).to_be_visible()
    yield "game-welcome", scorer
    # The viewer opens the circle's link: its pages open from then on.
    viewer.goto(base + link)
    expect(viewer).to_have_url(re.compile(rf"/circles/{re.escape(circle)}$"))
    yield "circle-home", viewer
    for path, name in [
        ("/", "home"),
        ("/games/new", "setup"),
        ("/circles/new", "circle-new"),
        (f"/circles/{circle}/games", "history-games"),
        (f"/circles/{circle}/players", "history-players"),
        (f"/circles/{circle}/records", "records"),
        (f"/circles/{circle}/export", "export-import"),
        ("/pads", "pads-form"),
        ("/resolver/?trump=red&cards=B3+R2+W+J", "resolver"),
        ("/no/such/page", "not-found"),
        ("/digital/new", "digital-new"),
    ]:
        viewer.goto(base + path)
        yield name, viewer
    viewer.goto(base + f"/circles/{circle}/players")
    viewer.locator("table.stats a").first.click()
    expect(viewer).to_have_url(re.compile(rf"/circles/{re.escape(circle)}/players/\d+$"))
    yield "player", viewer

    # A digital game: the host's seat links, a seat, the pass-and-play phone.
    viewer.goto(base + "/digital/new")
    for i, (name, kind) in enumerate([("Ann", "person"), ("Ben", "person"), ("Cat", "bot")]):
        viewer.fill(f"input[name=name{i}]", name)
        viewer.select_option(f"select[name=kind{i}]", kind)
    viewer.locator("form.digital-setup button[type=submit]:not([name=do])").click()
    expect(viewer.locator("[data-seat-link='0']")).to_be_visible()
    yield "digital-host", viewer
    viewer.locator("[data-table-link]").click()
    expect(viewer.locator("#seat")).to_be_visible()
    yield "digital-pass-and-play", viewer

    # Seats of dealt tables (seeded, so the same every run): one seat waiting, one whose
    # turn it is, and a dealer who turned up a Wizard and must choose trump.
    for name, phase, acting in [
        ("digital-seat", Phase.BIDDING, False),
        ("digital-seat-to-act", Phase.BIDDING, True),
        ("digital-seat-choose-trump", Phase.CHOOSE_TRUMP, True),
    ]:
        viewer.goto(base + _seat_link(app, phase, acting))
        expect(viewer.locator("#seat")).to_be_visible()
        yield name, viewer


def _seat_link(app: Flask, phase: Phase, acting: bool) -> str:
    """A seat of the first seeded 3-person table in ``phase``: one that must act or not."""
    with app.app_context(), transaction.atomic():
        for seed in range(200):
            made = digital_service.create_table(
                ["Ann", "Ben", "Cat"], ["person"] * 3, 0, RuleSet(), seed=seed
            )
            game = digital_service.engine_game(made.table)
            if game.phase is phase:
                waiting = game.waiting_for()
                seat = next(s for s in range(3) if (s in waiting) == acting)
                return f"/digital/{made.game.public_id}/s/{made.seat_tokens[seat]}"
    raise AssertionError(f"no seed up to 200 deals a table in {phase}")


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_passes_axe_and_has_big_taps(
    app: Flask, phones: PhoneMaker, live_server: str, artifacts: Path, scheme: str, locale: str
) -> None:
    shots = artifacts / "a11y"
    shots.mkdir(exist_ok=True)
    scorer, viewer = phones(scheme, locale), phones(scheme, locale)
    lang = locale[:2]
    assert scorer.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (
        scheme == "dark"
    )
    problems: dict[str, list[str]] = {}
    small: dict[str, list[str]] = {}
    wide: list[str] = []  # pages that scroll sideways on a 390-px phone
    visited = []
    for name, page in _pages(app, live_server, scorer, viewer):
        visited.append(name)
        assert page.evaluate("document.documentElement.lang") == lang, name
        page.screenshot(path=shots / f"{name}-{scheme}-{lang}.png", full_page=True)
        if found := axe_problems(page):
            problems[name] = found
        if found := page.evaluate(TAP_TARGETS):
            small[name] = found
        if page.evaluate("document.documentElement.scrollWidth") > 390:
            wide.append(name)
    assert len(visited) == 25, visited
    assert not problems, "\n".join(f"{k}: {v}" for k, v in problems.items())
    assert not small, "\n".join(f"{k}: {v}" for k, v in small.items())
    assert not wide


def tab_to(page: Page, selector: str, limit: int = 120) -> None:
    """Press Tab until the focused element matches ``selector`` (as a keyboard user would)."""
    for _ in range(limit):
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def test_a_round_entered_with_the_keyboard_alone(
    app: Flask, phones: PhoneMaker, live_server: str, artifacts: Path
) -> None:
    page = phones("light")
    with app.app_context(), transaction.atomic():
        game, token = game_service.create_game(
            ["Ann", "Ben", "Cat"], 0, game_service.parse_rules({})
        )
        url = f"{live_server}/games/{game.public_id}/score/{token}"
    page.goto(url)
    entry = page.locator("#entry")

    def press(selector: str, key: str) -> None:
        before = entry.get_attribute("data-version") or ""
        tab_to(page, selector)
        if key == "Enter":  # the focus ring shows where a keyboard user is
            outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
            assert outline == "solid"
        page.keyboard.press(key)
        expect(entry).not_to_have_attribute("data-version", before)

    # Round 1 (one card each): Ben and Cat bid 0, Ann (the dealer) bids 1; Ann takes it.
    press('form.taps .key[value="0"]', "Enter")
    # The new panel's first key has the focus: no tabbing back from the top of the page.
    expect(page.locator('form.taps .key[value="0"]')).to_be_focused()
    press('form.taps .key[value="0"]', "Space")
    page.screenshot(path=artifacts / "a11y" / "keyboard-focus.png")
    press('form.taps .key[value="1"]', "Enter")
    press('form.taps .key[value="0"]', "Space")  # Ben took none
    # Cat took none; Ann's 1 fills itself in and the round is scored (R16).
    press('form.taps .key[value="0"]', "Enter")
    expect(page.locator("#entry-title")).to_contain_text("2")
    totals = page.locator("#pad tbody tr").first.locator("td.total")
    expect(totals).to_have_text([re.compile(r"30$"), "20", "20"])


CONTRAST = """(pairs) => {
  const lum = (css) => {
    const [r, g, b] = css.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number).map((c) => {
      c /= 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  return pairs.map(([fg, bg]) => {
    const box = document.createElement("div");
    box.style.background = `var(${bg})`;
    const text = document.createElement("span");
    text.style.color = `var(${fg})`;
    box.append(text);
    document.body.append(box);
    const [a, b] = [lum(getComputedStyle(text).color), lum(getComputedStyle(box).backgroundColor)];
    box.remove();
    return [fg, bg, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)];
  });
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_suit_colours_are_readable_on_every_background(
    phones: PhoneMaker, live_server: str, scheme: str
) -> None:
    page = phones(scheme)
    page.goto(live_server + "/")
    suits = ["--suit-yellow", "--suit-red", "--suit-green", "--suit-blue"]
    grounds = ["--bg", "--surface", "--now-bg", "--current-row", "--leader-bg"]
    ratios = page.evaluate(CONTRAST, [[fg, bg] for fg in suits for bg in grounds])
    low = [(fg, bg, round(r, 2)) for fg, bg, r in ratios if r < 4.5]
    assert not low
