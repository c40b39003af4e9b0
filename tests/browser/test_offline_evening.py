"""A whole evening without a connection (Playwright's offline mode): the scorer enters
round after round offline from the rest of the game the page brought as the engine's data,
reloads the page once in the middle (the service worker opens it from its copy and the
queue is drawn on it again), takes a queued entry back, and once the network returns
everything is sent in order: the totals on screen are the server's, and every round is
stored once. And when another phone changed the game meanwhile, the page says which
entries the server didn't take and why, sends the ones that still fit, and shows what the
server holds."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper import transaction
from scorekeeper.extensions import db
from scorekeeper.models import Change
from scorekeeper.services import games as game_service
from tests.browser.test_offline import (
    NAMES,
    key,
    new_game,
    on_the_pad,
    open_pad,
    rounds_played,
    row,
    seat_rows,
)

# Polled: whether the service worker keeps this page (the answer of the last look).
KEPT = """() => {
  caches.open("pages").then(c => c.match(location.origin + location.pathname))
    .then(found => { window.kept = Boolean(found); });
  return window.kept === true;
}"""
PLAN = [1, 3, 5, 7, 9, 11, 12, 13, 14, 15]  # V8, four players


def played(app: Flask, public_id: str, rounds: int) -> None:
    """Rounds 1 to ``rounds`` recorded by the server: bids of 0, Ann took every trick."""
    with app.app_context(), transaction.atomic():
        game = game_service.get_game(public_id)
        for cards in PLAN[:rounds]:
            game_service.record_round(game, [0] * 4, [cards, 0, 0, 0])


def totals_on_screen(page: Page, number: int) -> list[int]:
    """The running totals in round ``number``'s row of the pad, in seat order."""
    texts = page.eval_on_selector_all(
        f"#round-{number} td.total", "tds => tds.map(td => td.lastChild.textContent.trim())"
    )
    return [int(t.replace("\N{MINUS SIGN}", "-")) for t in texts]


def standings_on_screen(page: Page) -> list[tuple[int, str, int]]:
    """The standings line over the round as shown: (place, name, total), in its order."""
    lines = page.eval_on_selector_all(
        "#standings .strip-list li",
        """lis => lis.map(li => [li.value, li.querySelector(".strip-name").textContent,
                                   li.querySelector(".strip-total").textContent])""",
    )
    return [
        (place, name, int(total.replace("\N{MINUS SIGN}", "-"))) for place, name, total in lines
    ]


def server(app: Flask, public_id: str) -> tuple[list[int], list[list[int | None]], int]:
    """The stored totals, each round's bids, and how many bids the change log holds."""
    with app.app_context():
        db.session.expire_all()
        game = game_service.get_game(public_id)
        totals = list(game_service.sheet_of(game).totals)
        bids = [[r.bid for r in rnd.results] for rnd in game.rounds]
        logged = db.session.scalars(db.select(Change).filter_by(game=game, action="bid")).all()
        return totals, bids, len(logged)


def errors_of(page: Page) -> list[str]:
    """The page's script errors, as they happen."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def round_3_offline(
    page: Page, context: BrowserContext, app: Flask, live_server: str, kept: bool = False
) -> str:
    """A short game with the dealer rule (V1, V8), rounds 1 and 2 played, open on the
    scorer's phone at round 3 (``kept``: once the service worker keeps the page, and then
    a trump recorded, so that its copy is older than the pad), which then loses its
    connection. Returns the game's id."""
    public_id, link = new_game(app, {"round_plan": "short", "dealer_rule": "plus_minus_one"})
    played(app, public_id, 2)
    open_pad(page, live_server + link)
    expect(page.locator("#entry-title")).to_contain_text("Round 3")
    if kept:
        page.wait_for_function(KEPT)
        # One more tap online: the worker's copy of the page is older than the pad now.
        page.locator(".trump-pick summary").click()
        page.locator("form.trump-form button[value=red]").click()
        expect(page.locator("#net")).to_contain_text("Saved ✓")
    context.set_offline(True)
    expect(page.locator("#net")).to_contain_text("Offline")
    return public_id


def bid_round(page: Page, cards: int) -> list[str]:
    """The bids of a round: 1, 0, 0 and the dealer 1 (V1 holds back cards − 1 for the
    dealer: the others bid 1 of the ``cards``). Returns the players in bidding order."""
    order = seat_rows(page)
    key(page, 1)
    key(page, 0)
    key(page, 0)
    expect(page.locator("form.taps .ask")).to_contain_text(order[3])
    keys = page.locator("form.taps .keys")
    expect(keys.get_by_role("button", name=str(cards - 1), exact=True)).to_be_disabled()
    expect(page.locator(f"#why-bid-{cards - 1}")).to_contain_text(f"{order[3]} can't bid")
    key(page, 1)
    expect(page.locator("form.taps .ask")).to_have_text(f"Tricks: {order[0]} took")
    return order


def test_r16_v1_v8_a_whole_game_entered_offline_with_a_reload_is_stored_once(
    page: Page, context: BrowserContext, app: Flask, live_server: str, artifacts: Path
) -> None:
    errors = errors_of(page)
    public_id = round_3_offline(page, context, app, live_server, kept=True)
    _, _, bids_before = server(app, public_id)

    queued = 0
    for number in range(3, 11):
        cards = PLAN[number - 1]
        expect(page.locator("#entry-title")).to_contain_text(f"Round {number}")
        if number == 5:  # a bid taken back before it was ever sent
            first = seat_rows(page)[0]
            key(page, 1)
            key(page, 2)
            undo = page.locator("[data-offline-undo]")
            expect(undo).to_have_text(f"↶ Undo {seat_rows(page)[1]}'s bid")
            undo.click()
            expect(page.locator("form.taps .ask")).to_contain_text(seat_rows(page)[1])
            expect(row(page, first).locator(".val.unsaved")).to_contain_text("1")
            expect(page.locator(".val.unsaved")).to_have_count(1)
            undo.click()  # and the one before it
            expect(page.locator(".val.unsaved")).to_have_count(0)
            expect(page.locator("form.taps .ask")).to_contain_text(first)
        if number == 7:  # a reload in the middle of a round, still offline
            key(page, 1)
            key(page, 0)
            page.reload()
            expect(page.locator("#entry-title")).to_contain_text("Round 7")
            on_the_pad(page, "#round-3 .trump-mark")  # as last shown
            expect(page.locator("table.seats .val.unsaved")).to_have_count(2)
            on_the_pad(page, "#round-6.unsaved")
            expect(page.locator("#net")).to_contain_text(f"{queued + 2} entries not saved yet")
            order = seat_rows(page)
            key(page, 0)
            key(page, 1)
            expect(page.locator("form.taps .ask")).to_have_text(f"Tricks: {order[0]} took")
        else:
            order = bid_round(page, cards)
        if number == 8:
            page.screenshot(path=artifacts / "pad-offline-round-8.png", full_page=True)
        if number % 2:
            key(page, cards - 1)  # the first took all but one: the rest made their bids
            rest = page.locator("form.rest-form button")
            expect(rest).to_have_text("✓ The rest made their bids")
            rest.click()
            queued += 6
        else:
            key(page, 1)  # made it
            key(page, cards - 2)  # bid 0: off by cards − 2
            key(page, 1)  # every trick is taken: the dealer took 0 and missed
            queued += 7
        on_the_pad(page, f"#round-{number}.unsaved")
        expect(page.locator("#net")).to_contain_text(f"{queued} entries not saved yet")
    expect(page.locator("form.taps .ask")).to_contain_text("Not saved yet")
    drawn = totals_on_screen(page, 10)
    totals, bids, _ = server(app, public_id)
    assert [b for rnd in bids[2:] for b in rnd if b is not None] == []  # none reached it

    context.set_offline(False)
    expect(page.locator("#net")).to_contain_text("Saved ✓", timeout=60_000)
    expect(page.locator(".final, #entry[data-mode=final]")).not_to_have_count(0)
    expect(page.locator("#pad tr.unsaved")).to_have_count(0)
    totals, bids, bids_after = server(app, public_id)
    assert drawn == totals == totals_on_screen(page, 10)
    assert len(bids) == 10 and bids_after - bids_before == 8 * 4  # each bid stored once
    for number, stored in enumerate(bids[2:], start=3):
        dealer = (number - 1) % 4
        assert stored[dealer] == 1 and sorted(stored) == [0, 0, 1, 1], (number, stored)
    expect(page.locator("#unsaved")).to_be_hidden()
    assert errors == []


def round_3_entered_offline(page: Page) -> list[str]:
    """Round 3 (five cards) entered offline to its end: bids 1, 0, 0 and the dealer 1;
    the first took 1, the next 3, the third 1, and the dealer's 0 fills itself in. Returns
    the players in bidding order."""
    order = bid_round(page, 5)
    key(page, 1)
    key(page, 3)
    key(page, 1)
    expect(page.locator("#entry-title")).to_contain_text("Round 4")
    return order


def after_sync(page: Page, errors: list[str]) -> None:
    """Everything this phone queued is either saved or said not to be: no entry shows as
    not saved, no Undo of an entry not sent is left, and the pad is the server's."""
    expect(page.locator("#net")).not_to_contain_text("not saved yet")
    expect(page.locator(".val.unsaved")).to_have_count(0)
    expect(page.locator("#pad tr.unsaved")).to_have_count(0)
    expect(page.locator("[data-offline-undo]")).to_have_count(0)
    assert errors == []


def test_a_round_recorded_elsewhere_meanwhile_leaves_the_later_rounds_entries_to_go(
    page: Page, context: BrowserContext, app: Flask, live_server: str
) -> None:
    """Offline, this phone enters round 3 and round 4's bids; another phone records round
    3 otherwise. Back online the server refuses the first entry: the page says which and
    why, lists round 3's other entries as not sent (that round is scored), sends round
    4's bids on top of the server's round 3, and shows what the server holds."""
    errors = errors_of(page)
    public_id = round_3_offline(page, context, app, live_server)
    first, second, third, dealer = round_3_entered_offline(page)
    fourth = bid_round(page, 7)
    expect(page.locator("#net")).to_contain_text("11 entries not saved yet")
    with app.app_context(), transaction.atomic():  # the other phone
        game_service.record_round(game_service.get_game(public_id), [0] * 4, [0, 5, 0, 0])

    context.set_offline(False)
    banner = page.locator("#unsaved")
    expect(banner).to_contain_text(
        f"Not saved: {first}'s bid of 1 in round 3. Already recorded by someone else"
    )
    expect(banner).to_have_attribute("role", "alert")
    expect(banner).to_contain_text(
        f"Not sent: {second}'s bid of 0 in round 3. Round 3 is scored already."
    )
    expect(banner).to_contain_text(f"Not sent: {third}'s bid of 0 in round 3.")
    expect(banner).to_contain_text(f"Not sent: {dealer}'s bid of 1 in round 3.")
    expect(banner).to_contain_text("… and 3 more not sent.")  # the three trick counts
    expect(banner).to_contain_text("The pad shows what the game holds now")
    expect(page.locator("form.taps .ask")).to_have_text(f"Tricks: {fourth[0]} took")
    after_sync(page, errors)
    totals, bids, _ = server(app, public_id)
    assert len(bids) == 4 and bids[2] == [0, 0, 0, 0]
    by_name = {NAMES[seat]: bid for seat, bid in enumerate(bids[3])}
    assert [by_name[name] for name in fourth] == [1, 0, 0, 1]  # round 4 as this phone had it
    assert totals_on_screen(page, 3) == totals


def test_entries_made_elsewhere_meanwhile_stand_and_this_phones_others_go_on_top(
    page: Page, context: BrowserContext, app: Flask, live_server: str
) -> None:
    """Offline, this phone enters round 3; another phone enters its first two bids
    otherwise. Back online the first is refused (said with the server's words), the
    second is not sent (the other phone's stands), and the rest of round 3 goes on top of
    the server's bids: the round is scored by the server, and the page shows it."""
    errors = errors_of(page)
    public_id = round_3_offline(page, context, app, live_server)
    first, second, third, dealer = round_3_entered_offline(page)
    expect(page.locator("#net")).to_contain_text("7 entries not saved yet")
    with app.app_context(), transaction.atomic():  # the other phone: 2 and 1
        game = game_service.get_game(public_id)
        game_service.set_bid(game, NAMES.index(first), 2)
        game_service.set_bid(game, NAMES.index(second), 1)

    context.set_offline(False)
    banner = page.locator("#unsaved")
    expect(banner).to_contain_text(
        f"Not saved: {first}'s bid of 1 in round 3. Already recorded by someone else"
    )
    expect(banner).to_contain_text(
        f"Not sent: {second}'s bid of 0 in round 3. Another phone entered it first."
    )
    expect(banner).not_to_contain_text(third)
    expect(page.locator("#entry-title")).to_contain_text("Round 4")
    after_sync(page, errors)
    totals, bids, _ = server(app, public_id)
    assert len(bids) == 3
    with app.app_context():
        results = game_service.get_game(public_id).rounds[2].results
        stored = {NAMES[r.seat]: (r.bid, r.tricks) for r in results}
    assert stored == {first: (2, 1), second: (1, 3), third: (0, 1), dealer: (1, 0)}
    assert totals_on_screen(page, 3) == totals


def test_v4_v1_a_refused_blind_bid_leaves_what_came_after_it_not_sent_and_said(
    page: Page, context: BrowserContext, app: Flask, live_server: str
) -> None:
    """Secret bids (V4) under the dealer rule (V1), the first three entered on another
    phone, so this one can't know them: offline the dealer bids blind and two counts
    follow. Back online the server refuses the bid (it makes the total): the page says so
    without showing the sealed bid, lists the two counts as not sent (they were made on
    top of it), and shows the round waiting for the dealer's bid."""
    errors = errors_of(page)
    public_id, link = new_game(app, {"bidding": "secret", "dealer_rule": "plus_minus_one"})
    rounds_played(app, public_id, 2)  # round 3: 3 cards, Cat deals
    with app.app_context(), transaction.atomic():  # the other phone: 1, 0, 1
        game = game_service.get_game(public_id)
        for seat, bid in ((3, 1), (0, 0), (1, 1)):
            game_service.set_bid(game, seat, bid)
    open_pad(page, live_server + link)
    first, second, _third, dealer = seat_rows(page)
    context.set_offline(True)
    expect(page.locator("#net")).to_contain_text("Offline")
    key(page, 1)  # blind: 1 + 0 + 1 + 1 = 3, which this phone can't tell
    expect(page.locator("form.taps .ask")).to_have_text(f"Tricks: {first} took")
    key(page, 1)
    key(page, 0)
    expect(page.locator("#net")).to_contain_text("3 entries not saved yet")

    context.set_offline(False)
    banner = page.locator("#unsaved")
    expect(banner).to_contain_text(
        f"Not saved: {dealer}'s bid in round 3. {dealer} (dealer) can't bid 1: the bids"
    )
    expect(banner).to_contain_text(
        f"Not sent: {first} took 1 in round 3. It came after an entry the game didn't take."
    )
    expect(banner).to_contain_text(f"Not sent: {second} took 0 in round 3.")
    expect(page.locator("form.taps .ask")).to_contain_text(dealer)
    after_sync(page, errors)
    _, bids, _ = server(app, public_id)
    assert bids[2] == [0, 1, None, 1]


def test_what_the_page_cant_draw_is_refused_offline_where_it_was_tapped(
    page: Page, context: BrowserContext, app: Flask, live_server: str
) -> None:
    """Taking back a bid the server holds can't be drawn offline: the page says so next to
    it, queues nothing, and the bid stays; a queued bid's own Undo works instead."""
    errors = errors_of(page)
    public_id, link = new_game(app)
    open_pad(page, live_server + link)
    key(page, 0)  # Ben, online
    expect(page.locator("#net")).to_contain_text("Saved ✓")
    context.set_offline(True)
    expect(page.locator("#net")).to_contain_text("Offline")
    expect(page.locator("#entry .undo-line")).to_be_hidden()  # the server's Undo needs it
    row(page, "Ben").locator("button[name=clear]").click()
    expect(page.locator(".offline-refused")).to_have_text(
        "Not while offline: this can be done once the connection is back."
    )
    expect(page.locator("#net")).not_to_contain_text("not saved yet")
    expect(row(page, "Ben").locator("td").nth(0)).to_have_text("0")
    context.set_offline(False)
    expect(page.locator("#net")).not_to_contain_text("Offline")
    expect(page.locator("#entry .undo-line")).to_be_visible()
    assert server(app, public_id)[1] == [[None, 0, None, None]] and errors == []


def test_r17_offline_the_standings_line_shows_the_totals_the_pad_shows(
    page: Page, context: BrowserContext, app: Flask, live_server: str, artifacts: Path
) -> None:
    """Round 3 entered offline to its end: the standings line over the round shows the
    totals of the pad's row (best first, equal totals sharing a place, R17), marked as not
    saved yet, and who deals round 4; once everything is sent, the server's line is the
    same, unmarked."""
    errors = errors_of(page)
    round_3_offline(page, context, app, live_server)
    before = standings_on_screen(page)
    bid_round(page, 5)
    key(page, 1)  # the first in bidding order made 1
    key(page, 3)  # the next, bid 0, took 3
    key(page, 1)  # every trick is taken: the rest 0 and 1
    expect(page.locator("#entry-title")).to_contain_text("Round 4")
    strip = page.locator("#standings")
    expect(strip).to_have_class(re.compile(r"\bunsaved\b"))
    expect(strip.locator(".strip-head")).to_contain_text("After round 3")
    drawn = standings_on_screen(page)
    pad = totals_on_screen(page, 3)
    assert drawn != before
    assert sorted((name, total) for _, name, total in drawn) == sorted(zip(NAMES, pad, strict=True))
    assert [total for _, _, total in drawn] == sorted(pad, reverse=True)
    assert [place for place, _, _ in drawn] == [
        1 + sum(t > total for t in pad) for _, _, total in drawn
    ]
    deal = strip.locator(".strip-deal").inner_text()
    page.screenshot(path=artifacts / "standings-offline.png")

    context.set_offline(False)
    expect(page.locator("#net")).to_contain_text("Saved ✓")
    expect(strip).not_to_have_class(re.compile(r"\bunsaved\b"))
    assert standings_on_screen(page) == drawn
    expect(strip.locator(".strip-deal")).to_have_text(deal)
    assert errors == []
