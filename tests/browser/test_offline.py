"""The network drops in the middle of a round (Playwright's offline mode): the taps stay on
screen marked "not saved yet", go out again when the network is back, and the round is
recorded exactly once."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from scorekeeper import transaction
from scorekeeper.extensions import db
from scorekeeper.models import Change
from scorekeeper.services import games as game_service

NAMES = ["Ann", "Ben", "Cat", "Dan"]  # Ann deals: Ben bids first, then Cat, Dan, Ann


def new_game(app: Flask, rules: dict[str, object] | None = None) -> tuple[str, str]:
    """A new game of NAMES (book rules, or ``rules``): its id and its scorer link."""
    with app.app_context(), transaction.atomic():
        game, token = game_service.create_game(NAMES, 0, game_service.parse_rules(rules or {}))
        return game.public_id, f"/games/{game.public_id}/score/{token}"


def stored(app: Flask, public_id: str) -> tuple[list[list[int | None]], list[str]]:
    """Each stored round's bids in seat order, and the change log's actions."""
    with app.app_context():
        db.session.expire_all()
        game = game_service.get_game(public_id)
        bids = [[r.bid for r in rnd.results] for rnd in game.rounds]
        actions = [c.action for c in db.session.scalars(db.select(Change).filter_by(game=game))]
        return bids, actions


# The page loads its offline drawing and the game's data once it has settled (app.js).
OFFLINE_READY = """() => Boolean(window.scorekeeperOffline) &&
  Object.keys(localStorage).some(k => k.startsWith("scorekeeper:plan:"))"""


def open_pad(page: Page, url: str) -> None:
    """The scorer's page, ready to go on without a connection."""
    page.goto(url)
    page.wait_for_function(OFFLINE_READY)


def on_the_pad(page: Page, selector: str) -> None:
    """``selector`` shows on the pad: on a phone held upright the pad is a tab away from
    the round (its tab opened by the link, in any language, and the round shown again)."""
    pad_tab = page.locator(".game-tabs a[href='#pad-view']")
    if pad_tab.is_visible():
        pad_tab.click()
    expect(page.locator(selector)).to_be_visible()
    round_tab = page.locator(".game-tabs a[href='#entry']")
    if round_tab.is_visible():
        round_tab.click()
        expect(page.locator("#entry")).to_be_visible()


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
    open_pad(page, live_server + link)
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
    expect(page.locator("form.taps .ask")).to_have_text("Tricks: Ben took")  # carries on
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
    open_pad(page, live_server + link)
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
    open_pad(page, live_server + link)
    key(page, 0)  # Ben
    expect(row(page, "Ben").locator("td").nth(0)).to_have_text("0")
    context.set_offline(True)
    key(page, 1)  # Cat, not saved yet
    expect(row(page, "Cat").locator(".val.unsaved")).to_contain_text("1")
    with app.app_context(), transaction.atomic():
        game_service.set_bid(game_service.get_game(public_id), 2, 0)  # the other phone
    context.set_offline(False)
    expect(page.locator("#unsaved")).to_contain_text("Already recorded by someone else")
    expect(row(page, "Cat").locator("td").nth(0)).to_have_text("0")
    expect(page.locator(".val.unsaved")).to_have_count(0)
    expect(page.locator("#net")).not_to_contain_text("not saved yet")
    bids, actions = stored(app, public_id)
    assert bids == [[None, 0, 0, None]]
    assert actions == ["created", "bid", "bid"]


def rounds_played(app: Flask, public_id: str, rounds: int) -> None:
    """Record ``rounds`` rounds of 1, 2, … cards (Ann took every trick, bids of 0)."""
    with app.app_context(), transaction.atomic():
        game = game_service.get_game(public_id)
        for cards in range(1, rounds + 1):
            game_service.record_round(game, [0] * 4, [cards, 0, 0, 0])


def round_3_once_back_online(
    page: Page, context: BrowserContext, app: Flask, public_id: str
) -> dict[str, tuple[int | None, int | None]]:
    """Back online: everything queued is saved and the pad moves on to round 4. Then
    round 3 as stored, each player's (bid, tricks) by name."""
    context.set_offline(False)
    expect(page.locator("#net")).to_contain_text("Saved ✓")
    expect(page.locator("#entry-title")).to_contain_text("Round 4")
    expect(page.locator(".val.unsaved")).to_have_count(0)
    # The totals worked out on the phone are the server's: no word of a difference.
    expect(page.locator("#unsaved")).to_be_hidden()
    with app.app_context():
        db.session.expire_all()
        results = game_service.get_game(public_id).rounds[2].results
        return {NAMES[r.seat]: (r.bid, r.tricks) for r in results}


def seat_rows(page: Page) -> list[str]:
    """The players in bidding order, as the table lists them."""
    return page.locator("table.seats tbody tr .who").all_text_contents()


def test_v1_v7_a_whole_round_entered_offline_keeps_the_rounds_limits(
    page: Page, context: BrowserContext, app: Flask, live_server: str, artifacts: Path
) -> None:
    """Bids, then trick counts, all while offline: the phone holds the dealer's forbidden
    bid (V1) and the full bid (V7) back with the limits the server sent with the round,
    takes the trick counts, fills in the forced ones, and sends it all when back online."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    rules = {"dealer_rule": "plus_minus_one", "no_full_bid": True}
    public_id, link = new_game(app, rules)
    rounds_played(app, public_id, 2)
    open_pad(page, live_server + link)
    expect(page.locator("#entry-title")).to_contain_text("Round 3")
    first, second, third, dealer = seat_rows(page)
    expect(row(page, dealer).locator(".tag", has_text="deals")).to_be_visible()
    keys = page.locator("form.taps .keys button")
    context.set_offline(True)
    expect(page.locator("#net")).to_contain_text("Offline")

    key(page, 1)  # first
    expect(page.locator("form.taps .ask")).to_contain_text(second)
    expect(keys.filter(has_text="3")).to_be_disabled()  # V7: 3 cards, at most 2
    key(page, 0)  # second
    key(page, 1)  # third: 2 bid of the 3 tricks
    expect(page.locator("form.taps .ask")).to_contain_text(dealer)
    expect(keys.filter(has_text="1")).to_be_disabled()  # V1: 2 + 1 = 3
    why = page.locator("#why-bid-1")
    expect(why).to_have_text(f"{dealer} can't bid 1: the bids would add up to the 3 tricks.")
    expect(keys.filter(has_text="1")).to_have_attribute("aria-describedby", "why-bid-1")
    expect(keys.filter(has_text="3")).to_be_disabled()
    expect(keys.filter(has_text="0")).to_be_enabled()
    expect(keys.filter(has_text="2")).to_be_enabled()
    page.screenshot(path=artifacts / "pad-offline-dealer-rule.png")
    key(page, 2)  # the dealer

    # Every bid is in: the same keys now take the trick counts, 0 to 3.
    expect(page.locator("form.taps .ask")).to_have_text(f"Tricks: {first} took")
    expect(keys).to_have_text(["0", "1", "2", "3"])
    expect(page.locator("form.taps .why")).to_have_count(0)
    key(page, 1)  # first took 1
    expect(page.locator("form.taps .ask")).to_have_text(f"Tricks: {second} took")
    expect(keys.filter(has_text="3")).to_be_disabled()  # only 2 tricks are left
    key(page, 0)  # second took 0
    key(page, 2)  # third took 2: every trick is taken, the dealer took 0
    # The round is scored on the phone and the next one asks for its bids.
    expect(page.locator("#entry-title")).to_contain_text("Round 4")
    on_the_pad(page, "#round-3.unsaved")
    expect(page.locator("#net")).to_contain_text("7 entries not saved yet")
    expect(page.locator("table.seats caption")).to_have_text(
        "Bidding order, bids and tricks of round 4"
    )
    page.screenshot(path=artifacts / "pad-offline-whole-round.png")
    assert len(stored(app, public_id)[0]) == 2  # nothing of round 3 reached the server

    by_name = round_3_once_back_online(page, context, app, public_id)
    assert by_name == {first: (1, 1), second: (0, 0), third: (1, 2), dealer: (2, 0)}
    assert errors == []


def test_v3_sealed_bids_entered_offline_stay_sealed(
    page: Page, context: BrowserContext, app: Flask, live_server: str
) -> None:
    """Hidden bids (V3) tapped offline show as sealed, and the last bidder's keys give
    nothing away (V3: they bid blind; the server asks for a change if the total fits);
    once every bid is in they show together, as online."""
    rules = {"dealer_rule": "plus_minus_one", "bidding": "hidden"}
    public_id, link = new_game(app, rules)
    rounds_played(app, public_id, 2)
    open_pad(page, live_server + link)
    first, second, third, dealer = seat_rows(page)
    context.set_offline(True)
    expect(page.locator("#net")).to_contain_text("Offline")
    key(page, 1)
    key(page, 0)
    key(page, 1)
    expect(page.locator("form.taps .ask")).to_contain_text(dealer)
    for name in (first, second, third):
        expect(row(page, name).locator(".val.unsaved")).to_have_text("✓ (not saved yet)")
    expect(page.locator("form.taps .keys button[disabled]")).to_have_count(0)
    key(page, 0)
    expect(page.locator("form.taps .ask")).to_have_text(f"Tricks: {first} took")
    # Every bid is in: shown together (V3), as online, still marked as not saved yet.
    for name, bid in zip((first, second, third, dealer), (1, 0, 1, 0), strict=True):
        expect(row(page, name).locator(".val.unsaved")).to_have_text(f"{bid} (not saved yet)")
    context.set_offline(False)
    expect(page.locator("#net")).to_contain_text("Saved ✓")
    with app.app_context():
        db.session.expire_all()
        bids = [r.bid for r in game_service.get_game(public_id).rounds[2].results]
    assert sorted(bids) == [0, 0, 1, 1]


def test_v3_v1_a_blind_last_bid_that_makes_the_total_is_refused_offline_as_online(
    page: Page, context: BrowserContext, app: Flask, live_server: str
) -> None:
    """Hidden bids (V3) under the dealer rule (V1): three bids go in online, then the
    network goes. The dealer bids blind (no key held back); the bid that makes the bids
    add up to the round's tricks is refused on the phone, next to the keys, in the words
    the keys use for open bids, and nothing is queued; another one goes in, and once the network is
    back the round's bids are stored as entered."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    public_id, link = new_game(app, {"dealer_rule": "plus_minus_one", "bidding": "hidden"})
    rounds_played(app, public_id, 2)  # round 3: 3 cards
    open_pad(page, live_server + link)
    first, second, third, dealer = seat_rows(page)
    for bid, after in ((1, second), (0, third), (1, dealer)):
        key(page, bid)  # each answered before the next tap
        expect(page.locator("form.taps .ask")).to_contain_text(after)
    expect(page.locator("#net")).to_contain_text("Saved ✓")
    context.set_offline(True)
    expect(page.locator("#net")).to_contain_text("Offline")
    expect(page.locator("form.taps .keys button[disabled]")).to_have_count(0)  # blind
    key(page, 1)  # 1 + 0 + 1 + 1 = 3
    expect(page.locator("#entry .thumb-zone .alert")).to_have_text(
        f"{dealer} can't bid 1: the bids would add up to the 3 tricks."
    )
    expect(page.locator("form.taps .ask")).to_contain_text(dealer)
    expect(page.locator("#net")).not_to_contain_text("not saved yet")
    key(page, 0)
    expect(page.locator("form.taps .ask")).to_have_text(f"Tricks: {first} took")
    expect(page.locator("#entry .alert")).to_have_count(0)
    expect(page.locator("#net")).to_contain_text("1 entry not saved yet")
    context.set_offline(False)
    expect(page.locator("#net")).to_contain_text("Saved ✓")
    assert stored(app, public_id)[0][2] == [0, 1, 0, 1] and errors == []


@pytest.mark.parametrize("bids_went", ["online", "offline, then synced"])
def test_v4_a_round_of_secret_bids_made_before_is_scored_offline(
    page: Page,
    context: BrowserContext,
    browser: Browser,
    browser_context_args: dict[str, Any],
    app: Flask,
    live_server: str,
    bids_went: str,
) -> None:
    """Secret bids (V4) entered on the scorer's phone and saved (tapped online, or queued
    offline and sent when the network came back): the server shows them to nobody before
    the round is played, a follower and this page alike. The network goes; the counts
    tapped offline score the round on the phone from the bids it entered itself (R16),
    the pad shows them once played, and the next round asks for its bids. Back online the
    round is stored once, with the totals the phone showed."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    public_id, link = new_game(app, {"bidding": "secret"})
    rounds_played(app, public_id, 2)  # Ann −30, the others 40
    open_pad(page, live_server + link)
    first, second, third, dealer = seat_rows(page)
    if bids_went != "online":
        context.set_offline(True)
        expect(page.locator("#net")).to_contain_text("Offline")
    for bid, after in zip((1, 0, 1, 0), (second, third, dealer, first), strict=True):
        key(page, bid)  # each answered (or queued) before the next tap
        expect(page.locator("form.taps .ask")).to_contain_text(after)
    if bids_went != "online":
        context.set_offline(False)
    expect(page.locator("#net")).to_contain_text("Saved ✓")
    expect(page.locator("form.taps .ask")).to_have_text(f"Tricks: {first} took")
    assert stored(app, public_id)[0][2] == [0, 1, 0, 1]
    # Sealed for everyone: on this page, and on a follower's.
    for name in (first, second, third, dealer):
        expect(row(page, name).locator("td").nth(0)).to_have_text("✓")
    expect(page.locator("table.seats tr[data-bid]")).to_have_count(0)
    follower = browser.new_context(**browser_context_args)
    try:
        view = follower.new_page()
        view.goto(f"{live_server}/games/{public_id}")
        expect(view.locator("table.seats tbody tr td:first-of-type")).to_have_text(["✓"] * 4)
        kept = view.evaluate("Object.keys(localStorage)")
        assert not [k for k in kept if k.startswith("scorekeeper:sealed")]
    finally:
        follower.close()

    context.set_offline(True)
    expect(page.locator("#net")).to_contain_text("Offline")
    key(page, 1)  # first took 1: made it
    key(page, 0)  # second took 0: made it
    key(page, 2)  # third took 2 (bid 1): every trick is taken, the dealer took 0
    expect(page.locator("#entry-title")).to_contain_text("Round 4")
    on_the_pad(page, "#round-3.unsaved")
    drawn = page.eval_on_selector_all(
        "#round-3 td.total", "tds => tds.map(td => td.lastChild.textContent.trim())"
    )
    assert drawn == ["\N{MINUS SIGN}10", "30", "60", "70"]  # Ann 0/0, Ben 1/2, Cat 0/0, Dan 1/1
    expect(page.locator("#round-3 td.bid")).to_have_text(["0", "1", "0", "1"])  # played: shown
    expect(page.locator("#net")).to_contain_text("3 entries not saved yet")

    by_name = round_3_once_back_online(page, context, app, public_id)
    assert by_name == {first: (1, 1), second: (0, 0), third: (1, 2), dealer: (0, 0)}
    assert (
        page.eval_on_selector_all(
            "#round-3 td.total", "tds => tds.map(td => td.lastChild.textContent.trim())"
        )
        == drawn
    )
    expect(page.locator("[data-offline-undo]")).to_have_count(0)
    assert len(stored(app, public_id)[0]) == 3 and errors == []  # round 3 stored once


def test_r16_counts_tapped_offline_fill_in_what_is_forced_from_the_engines_steps(
    page: Page, context: BrowserContext, app: Flask, live_server: str
) -> None:
    """The bids are in and the network goes: the trick counts keep going in from the
    form's own data (the engine's steps). One player taking every trick fills in 0 for
    the rest at once (R16), and the lot is saved when the network is back."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    public_id, link = new_game(app)
    rounds_played(app, public_id, 2)  # round 3: 3 cards
    with app.app_context(), transaction.atomic():
        game = game_service.get_game(public_id)
        for seat in game_service.draft_of(game).bidders:  # type: ignore[union-attr]
            game_service.set_bid(game, seat, 1 if seat == 2 else 0)
    open_pad(page, live_server + link)
    first, second, third, dealer = seat_rows(page)
    expect(page.locator("form.taps .ask")).to_have_text(f"Tricks: {first} took")
    keys = page.locator("form.taps .keys button")
    context.set_offline(True)
    expect(page.locator("#net")).to_contain_text("Offline")

    row(page, third).locator("button[data-taker]").click()  # Cat's count first
    expect(page.locator("form.taps .ask")).to_have_text(f"Tricks: {third} took")
    key(page, 2)
    expect(page.locator("form.taps .ask")).to_have_text(f"Tricks: {first} took")
    expect(keys.filter(has_text="1")).to_be_enabled()
    expect(keys.filter(has_text="2")).to_be_disabled()  # 1 trick is left
    key(page, 1)  # the first took the last one: the others took none, the round is done
    expect(page.locator("#entry-title")).to_contain_text("Round 4")
    on_the_pad(page, "#round-3.unsaved")
    expect(page.locator("#net")).to_contain_text("2 entries not saved yet")

    by_name = round_3_once_back_online(page, context, app, public_id)
    assert {name: tricks for name, (_, tricks) in by_name.items()} == {
        first: 1,
        second: 0,
        third: 2,
        dealer: 0,
    }
    assert errors == []


def test_v6_v1_a_saboteur_round_entered_offline_refuses_what_the_server_would(
    page: Page, context: BrowserContext, app: Flask, live_server: str
) -> None:
    """Wizard Saboteur (V6): the dealer does not bid, so the last bid is the one before
    the dealer's seat, and it is the one the dealer rule holds (V1), offline as online;
    the dealer's trick count is still taken and fills itself in."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    rules = {"dealer_rule": "plus_minus_one", "saboteur": True}
    public_id, link = new_game(app, rules)
    with app.app_context(), transaction.atomic():
        game = game_service.get_game(public_id)
        for cards in (1, 2):  # Ann took every trick; the dealer (Ann, then Ben) has no bid
            bids = [None if seat == cards - 1 else 0 for seat in range(4)]
            game_service.record_round(game, bids, [cards, 0, 0, 0])
    open_pad(page, live_server + link)
    first, second, third, dealer = seat_rows(page)
    keys = page.locator("form.taps .keys button")
    context.set_offline(True)
    expect(page.locator("#net")).to_contain_text("Offline")

    key(page, 1)  # first
    expect(keys.filter(has_text="2")).to_be_enabled()  # not the last bid: nothing held
    key(page, 1)  # second: 2 of the 3 tricks bid
    expect(page.locator("form.taps .ask")).to_contain_text(third)
    expect(keys.filter(has_text="1")).to_be_disabled()  # V1: 1 + 1 + 1 = 3
    expect(page.locator("#why-bid-1")).to_have_text(
        f"{third} can't bid 1: the bids would add up to the 3 tricks."
    )
    key(page, 0)  # third, the last bid: the dealer has none
    expect(page.locator("form.taps .ask")).to_have_text(f"Tricks: {first} took")
    key(page, 1)
    key(page, 1)
    key(page, 0)  # third took 0: the dealer took the last trick, the round is done
    expect(page.locator("#entry-title")).to_contain_text("Round 4")
    expect(page.locator("#net")).to_contain_text("6 entries not saved yet")

    by_name = round_3_once_back_online(page, context, app, public_id)
    assert by_name == {first: (1, 1), second: (1, 1), third: (0, 0), dealer: (None, 1)}
    assert errors == []


def test_a_round_entered_offline_on_a_small_phone_keeps_the_rounds_layout(
    page: Page, context: BrowserContext, app: Flask, live_server: str
) -> None:
    """Five long names on a 360×640 phone, a round entered offline: the next round's rows
    keep their short names, the queued entry's Undo stands next to the keys as the
    server's does, the pad a tab away shows the round not saved yet; back online the
    totals are the ones the phone worked out, with no word of a difference."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_viewport_size({"width": 360, "height": 640})
    five = ["Annabelle", "Benedikt", "Cat", "Dan", "Evangeline"]
    with app.app_context(), transaction.atomic():
        game, token = game_service.create_game(five, 0, game_service.parse_rules({}))
        public_id = game.public_id
        for cards in (1, 2):
            game_service.record_round(game, [0] * 5, [cards, 0, 0, 0, 0])
    open_pad(page, f"{live_server}/games/{public_id}/score/{token}")
    shorts = page.locator("table.seats .who-short")
    expect(shorts).to_have_count(3)
    context.set_offline(True)
    expect(page.locator("#net")).to_contain_text("Offline")
    for _ in five:
        key(page, 0)
    key(page, 3)  # the first took every trick: the others took none
    expect(page.locator("#entry-title")).to_contain_text("Round 4")
    expect(shorts).to_have_count(3)
    expect(page.locator(".thumb-zone > .offline-undo [data-offline-undo]")).to_be_visible()
    on_the_pad(page, "#round-3.unsaved")
    drawn = page.eval_on_selector_all("#round-3 td.total", "tds => tds.map(td => td.textContent)")

    context.set_offline(False)
    expect(page.locator("#net")).to_contain_text("Saved ✓")
    expect(page.locator("#pad tr.unsaved")).to_have_count(0)
    expect(page.locator("#unsaved")).to_be_hidden()
    assert (
        page.eval_on_selector_all("#round-3 td.total", "tds => tds.map(td => td.textContent)")
        == drawn
    )
    assert len(stored(app, public_id)[0]) == 3 and errors == []


def test_the_log_and_more_tabs_load_when_opened_and_say_so_without_a_connection(
    page: Page, context: BrowserContext, app: Flask, live_server: str, artifacts: Path
) -> None:
    """The scorer's page comes without its Log and More tabs' parts; each loads when its
    tab first opens. Opened without a connection, the tab says so in words (the round
    goes on being entered meanwhile), and its part loads once the connection is back."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    _public_id, link = new_game(app)
    open_pad(page, live_server + link)
    tabs = page.locator(".game-tabs")
    log = page.locator("#log")
    expect(page.locator(".rule-lines")).to_have_count(0)
    expect(log.locator(".log")).to_have_count(0)

    context.set_offline(True)
    tabs.get_by_role("link", name="Log").click()
    expect(log.get_by_role("alert")).to_have_text(
        "No connection: this shows once the phone is online again."
    )
    page.screenshot(path=artifacts / "log-tab-offline.png")
    tabs.get_by_role("link", name="Round").click()
    key(page, 0)  # Ben: kept to send later, as ever
    expect(row(page, "Ben").locator(".val.unsaved")).to_contain_text("0")
    tabs.get_by_role("link", name="Log").click()
    context.set_offline(False)  # back: the open tab's part loads
    expect(log.locator("li.log-created")).to_have_count(1)
    expect(log.get_by_role("alert")).to_have_count(0)
    tabs.get_by_role("link", name="More").click()
    expect(page.locator(".rule-lines")).to_be_visible()
    expect(page.locator("#more-view .share-link").first).to_have_attribute(
        "href", re.compile(r"/games/")
    )
    assert errors == []
