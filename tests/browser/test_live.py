"""A following phone on the live channel, in a real Chromium: a hidden page asks for
nothing and catches up when shown; a channel that fails leaves the page asking now and
then, still showing every change. Every wait is on the page's state (#sync's data-live,
the pad), never a sleep."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, Route, expect

from scorekeeper import transaction
from scorekeeper.services import games as game_service
from tests.browser.conftest import SET_VISIBILITY


@pytest.fixture
def other_phone(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[Page]:
    context = browser.new_context(**browser_context_args)
    yield context.new_page()
    context.close()


def _game(app: Flask) -> str:
    with app.app_context(), transaction.atomic():
        game, _ = game_service.create_game(
            ["Ann", "Ben", "Cat", "Dan"], 3, game_service.parse_rules({})
        )
        return game.public_id


def _ann_bids(app: Flask, pid: str, bid: int) -> None:
    """The scorer's tap (Dan deals: Ann bids first), made on the server."""
    with app.app_context(), transaction.atomic():
        game_service.set_bid(game_service.get_game(pid), 0, bid)


def _ann(page: Page) -> Any:
    return page.locator("table.seats tbody tr").first.locator("td").first


def test_a_hidden_page_asks_for_nothing_and_catches_up_when_shown(
    page: Page, other_phone: Page, live_server: str, app: Flask
) -> None:
    pid = _game(app)
    for phone in (page, other_phone):
        phone.goto(f"{live_server}/games/{pid}")
        expect(phone.locator("#sync")).to_have_attribute("data-live", "open")
    other_phone.evaluate(SET_VISIBILITY, "hidden")
    expect(other_phone.locator("#sync")).to_have_attribute("data-live", "hidden")
    asked: list[str] = []
    other_phone.on("request", lambda request: asked.append(request.url))

    _ann_bids(app, pid, 1)
    expect(_ann(page)).to_have_text("1")  # the shown phone heard of it and fetched it
    assert asked == []  # meanwhile the hidden one asked for nothing
    expect(_ann(other_phone)).not_to_have_text("1")

    other_phone.evaluate(SET_VISIBILITY, "visible")
    expect(_ann(other_phone)).to_have_text("1")  # shown: it caught up at once
    expect(other_phone.locator("#sync")).to_have_attribute("data-live", "open")
    assert f"/games/{pid}/events?v=" in asked[0]


def test_a_failing_channel_leaves_the_page_asking_now_and_then(
    page: Page, live_server: str, app: Flask
) -> None:
    refused: list[str] = []

    def cut(route: Route) -> None:  # a proxy that cuts the channel
        refused.append(route.request.url)
        route.abort()

    page.route("**/events?*", cut)
    pid = _game(app)
    page.goto(f"{live_server}/games/{pid}")
    expect(page.locator("#sync")).to_have_attribute("data-live", "poll", timeout=15_000)
    assert len(refused) == 3  # three tries, a second and two apart, then polling

    _ann_bids(app, pid, 1)
    expect(_ann(page)).to_have_text("1", timeout=15_000)  # the next ask (every 5 s) shows it
    with app.app_context(), transaction.atomic():
        game_service.set_bid(game_service.get_game(pid), 1, 0)
    ben = page.locator("table.seats tbody tr").nth(1).locator("td").first
    expect(ben).to_have_text("0", timeout=15_000)
    expect(page.locator("#sync")).to_have_attribute("data-live", "poll")
