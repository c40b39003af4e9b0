"""The network drops in the middle of a round (Playwright's offline mode): the taps stay on
screen marked "not saved yet", go out again when the network is back, and the round is
recorded exactly once."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask
from playwright.sync_api import BrowserContext, Page, Route, expect

from scorekeeper.extensions import db
from scorekeeper.models import Change
from scorekeeper.services import games as game_service

NAMES = ["Ann", "Ben", "Cat", "Dan"]  # Ann deals: Ben bids first, then Cat, Dan, Ann


def new_game(app: Flask) -> tuple[str, str]:
    with app.app_context():
        game, token = game_service.create_game(NAMES, 0, game_service.parse_rules({}))
        return game.public_id, f"/games/{game.public_id}/score/{token}"


def stored(app: Flask, public_id: str) -> tuple[list[list[int | None]], list[str]]:
    """Each stored round's bids in seat order, and the change log's actions."""
    with app.app_context():
        db.session.expire_all()
        game = game_service.get_game(public_id)
        bids = [[r.bid for r in rnd.results] for rnd in game.rounds]
        actions = [c.action for c in db.session.scalars(db.select(Change).filter_by(game=game))]
        return bids, actions


def key(page: Page, value: int) -> None:
    page.locator("form.taps .keys").get_by_role("button", name=str(value), exact=True).click()


def row(page: Page, name: str):  # type: ignore[no-untyped-def]
    return page.locator("table.seats tbody tr", has=page.locator(".who", has_text=name))


def test_bids_tapped_offline_are_saved_once_when_the_network_returns(
    page: Page, context: BrowserContext, app: Flask, live_server: str, artifacts: Path
) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    public_id, link = new_game(app)
    page.goto(live_server + link)
    net = page.locator("#net")
    expect(net).to_contain_text("Online")

    key(page, 0)  # Ben, online
    expect(row(page, "Ben").locator("td").nth(0)).to_have_text("0")
    expect(net).to_contain_text("Saved ✓")

    context.set_offline(True)
    expect(net).to_contain_text("Offline")
    key(page, 1)  # Cat
    expect(row(page, "Cat").locator(".val.unsaved")).to_contain_text("1")
    expect(page.locator("form.taps .ask")).to_contain_text("Dan")
    key(page, 0)  # Dan
    key(page, 1)  # Ann, the dealer: the last bid of the round
    expect(row(page, "Ann").locator(".val.unsaved")).to_contain_text("1")
    expect(page.locator("#unsaved")).to_have_text("Offline — 3 entries not saved yet")
    expect(net).to_contain_text("3 entries not saved yet")
    expect(page.locator("form.taps .ask")).to_contain_text("Not saved yet")
    page.screenshot(path=artifacts / "pad-offline.png")
    assert stored(app, public_id)[0] == [[None, 0, None, None]]  # only Ben's reached it

    context.set_offline(False)
    expect(net).to_contain_text("Saved ✓")
    expect(page.locator("#unsaved")).to_be_hidden()
    expect(page.locator(".val.unsaved")).to_have_count(0)
    expect(page.locator("form.taps .ask")).to_contain_text("Tricks: Ben took")
    expect(row(page, "Ann").locator("td").nth(0)).to_have_text("1")
    page.screenshot(path=artifacts / "pad-back-online.png")

    bids, actions = stored(app, public_id)
    assert bids == [[1, 0, 1, 0]]  # one round, each bid once, in seat order
    assert actions == ["created", "bid", "bid", "bid", "bid"]
    assert errors == []


def test_an_answer_lost_on_the_way_back_is_not_recorded_twice(
    page: Page, app: Flask, live_server: str
) -> None:
    """The server got the tap but the phone never heard back: the retry (same key) gets
    the first answer, and the bid is stored once."""
    public_id, link = new_game(app)
    page.goto(live_server + link)
    lost: list[str] = []

    def lose_first_answer(route: Route) -> None:
        if not lost:
            response = route.fetch()  # the server records it…
            lost.append(response.headers.get("content-type", ""))
            route.abort("connectionreset")  # …and the answer never arrives
        else:
            route.continue_()

    page.route(re.compile(r"/bid$"), lose_first_answer)
    key(page, 1)  # Ben
    expect(page.locator("#net")).to_contain_text("1 entry not saved yet")
    expect(row(page, "Ben").locator(".val.unsaved")).to_contain_text("1")
    assert stored(app, public_id)[0] == [[None, 1, None, None]]  # it did arrive
    expect(page.locator("#net")).to_contain_text("Saved ✓", timeout=15_000)
    expect(row(page, "Ben").locator("td").nth(0)).to_have_text("1")
    bids, actions = stored(app, public_id)
    assert bids == [[None, 1, None, None]]
    assert actions == ["created", "bid"]
    assert lost


def test_an_entry_someone_else_made_meanwhile_is_not_saved_over_it(
    page: Page, context: BrowserContext, app: Flask, live_server: str
) -> None:
    """Offline, this phone enters Cat's bid; another scorer enters it first. Back online,
    the server refuses the stale entry (409): the phone says so and shows what is stored."""
    public_id, link = new_game(app)
    page.goto(live_server + link)
    key(page, 0)  # Ben
    expect(row(page, "Ben").locator("td").nth(0)).to_have_text("0")
    context.set_offline(True)
    key(page, 1)  # Cat, not saved yet
    expect(row(page, "Cat").locator(".val.unsaved")).to_contain_text("1")
    with app.app_context():
        game_service.set_bid(game_service.get_game(public_id), 2, 0)  # the other phone
    context.set_offline(False)
    expect(page.locator("#unsaved")).to_contain_text("Already recorded by someone else")
    expect(row(page, "Cat").locator("td").nth(0)).to_have_text("0")
    expect(page.locator(".val.unsaved")).to_have_count(0)
    expect(page.locator("#net")).not_to_contain_text("not saved yet")
    bids, actions = stored(app, public_id)
    assert bids == [[None, 0, 0, None]]
    assert actions == ["created", "bid", "bid"]
