"""Three phones and a bot play a 4-player short game to the end in real Chromium."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from flask import Flask
from playwright.sync_api import Browser, Page, expect

from scorekeeper.services import digital as service
from scorekeeper.services import games as game_service

MOVE = '#seat form[action$="/act"] button:not([disabled]):not(.illegal)'
ILLEGAL = "#seat form[action$='/act'] button.illegal"


def version_on(page: Page) -> int:
    headers = page.locator("#seat").get_attribute("hx-headers") or ""
    found = re.search(r"t(\d+)-", headers)
    return int(found.group(1)) if found else 0


def test_three_phones_and_a_bot_play_a_short_game(
    app: Flask,
    browser: Browser,
    browser_context_args: dict[str, Any],
    live_server: str,
    artifacts: Path,
) -> None:
    host = browser.new_context(**browser_context_args)
    setup = host.new_page()
    setup.goto(live_server + "/digital/new")
    for i, (name, kind) in enumerate(
        [("Ann", "person"), ("Ben", "person"), ("Cat", "person"), ("Dan", "bot")]
    ):
        setup.fill(f"input[name=name{i}]", name)
        setup.select_option(f"select[name=kind{i}]", kind)
    setup.check("input[name=first_dealer][value='0']")
    setup.select_option("select[name=plan]", "short")
    setup.click("button[type=submit]")
    expect(setup.get_by_role("heading", name="Seat links")).to_be_visible()
    setup.screenshot(path=artifacts / "digital-host.png", full_page=True)
    links = [setup.locator(f"[data-seat-link='{i}']").get_attribute("href") for i in range(3)]
    public_id = setup.url.rstrip("/").rsplit("/", 1)[-1]

    phones: list[Page] = [setup]
    setup.goto(str(links[0]))
    for link in links[1:]:
        page = browser.new_context(**browser_context_args).new_page()
        page.goto(str(link))
        phones.append(page)
    for page in phones:
        assert page.evaluate("typeof htmx") == "object"

    latencies: list[float] = []
    illegal_checked = False
    shots = 0
    deadline = time.monotonic() + 420
    while time.monotonic() < deadline:
        if all(p.locator("[data-final]").count() for p in phones):
            break
        acted = False
        for i, page in enumerate(phones):
            moves = page.locator(MOVE)
            if not moves.count():
                continue
            if not illegal_checked and page.locator(ILLEGAL).count():
                with page.expect_response(lambda r: r.url.endswith("/act")) as bad:
                    page.locator(ILLEGAL).first.click(force=True)  # aria-disabled: still tappable
                assert bad.value.status == 422
                expect(page.locator("[data-message]")).to_contain_text("You must follow")
                page.screenshot(path=artifacts / "digital-must-follow.png", full_page=True)
                illegal_checked = True
                continue
            try:
                with page.expect_response(lambda r: r.url.endswith("/act"), timeout=5000) as done:
                    moves.first.click(timeout=2000)
            except Exception:  # the widget was swapped by a poll just then: try again
                continue
            acted = True
            if done.value.status != 200:
                continue
            etag = done.value.headers.get("etag", "")
            found = re.search(r"t(\d+)-", etag)
            if found and len(latencies) < 12:
                # Another phone sees the change within 1.5 s (polling with ETag/304).
                other = phones[(i + 1) % 3]
                start = time.monotonic()
                target = int(found.group(1))
                while version_on(other) < target and time.monotonic() - start < 3:
                    other.wait_for_timeout(50)
                latencies.append(time.monotonic() - start)
            if shots < 3 and page.locator("[data-trick-result]").count():
                page.screenshot(path=artifacts / f"digital-trick-{shots}.png", full_page=True)
                shots += 1
        if not acted:
            phones[0].wait_for_timeout(200)

    for i, page in enumerate(phones):
        expect(page.locator("[data-final]")).to_be_visible()
        page.screenshot(path=artifacts / f"digital-final-{i}.png", full_page=True)
    assert illegal_checked
    assert latencies and max(latencies) <= 1.5, latencies

    with app.app_context():
        table = service.get_table(public_id)
        game = service.engine_game(table)
        row = game_service.get_game(public_id)
        sheet = game_service.sheet_of(row)
        assert game.finished
        assert sheet.finished
        assert list(sheet.totals) == game.totals

    pad = phones[1]
    pad.goto(f"{live_server}/games/{public_id}")
    body = pad.content()
    for total in game.totals:
        # The pad may print a typographic minus sign.
        assert str(total) in body or str(total).replace("-", "\u2212") in body
    pad.screenshot(path=artifacts / "digital-pad.png", full_page=True)


def test_pass_and_play_on_one_phone(page: Page, live_server: str, artifacts: Path) -> None:
    page.goto(live_server + "/digital/new")
    for i, (name, kind) in enumerate([("Ann", "person"), ("Ben", "person"), ("Cat", "bot")]):
        page.fill(f"input[name=name{i}]", name)
        page.select_option(f"select[name=kind{i}]", kind)
    page.check("input[name=first_dealer][value='2']")  # Cat deals: Ann bids first
    page.screenshot(path=artifacts / "digital-new.png", full_page=True)
    page.click("button[type=submit]")
    page.click("[data-table-link]")
    expect(page.locator("[data-card]")).to_have_count(0)
    page.get_by_role("button", name="Tap when only Ann is looking").click()
    expect(page.locator("[data-card]")).to_have_count(1)
    page.screenshot(path=artifacts / "digital-pass-and-play.png", full_page=True)
    page.locator('#seat form[action$="/act"] button:not([disabled])').first.click()
    expect(page.locator("[data-card]")).to_have_count(0)  # hidden again after the bid
    expect(page.get_by_role("button", name="Tap when only Ben is looking")).to_be_visible()
    expect(page.get_by_role("heading", name="Pass to Ben")).to_be_visible()
