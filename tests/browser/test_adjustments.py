"""A penalty given on a 390×844 phone: tap the round on the pad, fill in the bonus or
penalty, and the total changes with the mark beside it; the page goes back to the round
being entered, saying what was given (with Undo), and axe-core finds nothing serious."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from scorekeeper import transaction
from scorekeeper.services import games as game_service
from tests.browser.test_a11y import (
    PhoneMaker,
    axe_problems,
    phones,  # noqa: F401  (a fixture)
)
from tests.browser.test_in_view import game_with_rounds, in_view, open_correction


def total_of(page: Page, number: int, seat: int) -> str:
    cell = page.locator(f"#round-{number} td.total").nth(seat)
    return cell.evaluate(
        "td => [...td.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join('')"
    ).strip()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_penalty_through_the_correction_panel(
    phones: PhoneMaker,  # noqa: F811
    app: Flask,
    live_server: str,
    artifacts: Path,
    scheme: str,
) -> None:
    """The penalty given, the page is back at the round being entered (round 4), saying
    what was given, with Undo; the correction panel's way back says where it goes."""
    page = phones(scheme)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live_server + game_with_rounds(app, 3))
    before = total_of(page, 3, 1)
    open_correction(page, 2)
    expect(page.locator("#entry .form-actions").get_by_role("link")).to_have_text("Back to round 4")
    section = page.locator("section.adjust")
    section.scroll_into_view_if_needed()
    section.get_by_label("Player").select_option(label="Ben")
    section.get_by_label("Points").fill("10")
    section.get_by_label("Why (optional)").fill("revoke")
    assert axe_problems(page) == []
    section.get_by_role("button", name="− Penalty").click()
    expect(page.locator("#entry-title")).to_have_text("Round 4 of 10")
    given = page.locator("#entry .note", has_text="Round 2: −10 for Ben (revoke).")
    in_view(page, given)
    mark = page.locator("#round-2 sup.adj")
    expect(mark).to_have_count(1)
    expect(mark).to_contain_text("−10")
    assert int(total_of(page, 3, 1).replace("−", "-")) == int(before.replace("−", "-")) - 10
    assert axe_problems(page) == []
    page.screenshot(path=artifacts / f"pad-penalty-{scheme}.png")
    # Undo right there: the total is what it was, and the round being entered stays.
    given.get_by_role("button", name="Undo").click()
    taken = page.locator("#entry .note", has_text="Round 2: −10 for Ben taken back.")
    in_view(page, taken)
    expect(page.locator("#entry-title")).to_have_text("Round 4 of 10")
    expect(page.locator("#round-2 sup.adj")).to_have_count(0)
    assert total_of(page, 3, 1) == before
    expect(taken.get_by_role("button")).to_have_count(0)  # no undo of the undo
    assert errors == []


def test_a_bonus_is_taken_back_on_the_correction_panel(
    page: Page, app: Flask, live_server: str, artifacts: Path
) -> None:
    """Taken back from the round's list later: back at the round being entered too."""
    link = game_with_rounds(app, 3)
    with app.app_context(), transaction.atomic():
        game = game_service.get_game(link.split("/")[2])
        game_service.add_adjustment(game, 2, 0, 15, "house rule")
    page.goto(live_server + link)
    before = total_of(page, 3, 0)
    open_correction(page, 2)
    listed = page.locator("section.adjust li")
    expect(listed).to_contain_text("Anna +15 · house rule")
    listed.get_by_role("button", name="Take back +15 for Anna").click()
    in_view(page, page.locator("#entry .note", has_text="Round 2: +15 for Anna taken back."))
    expect(page.locator("#entry-title")).to_have_text("Round 4 of 10")
    assert int(total_of(page, 3, 0)) == int(before) - 15


def test_a_refused_penalty_says_why_where_the_scorer_looks(
    phones: PhoneMaker,  # noqa: F811
    app: Flask,
    live_server: str,
    artifacts: Path,
) -> None:
    page = phones("light")
    page.goto(live_server + game_with_rounds(app, 3))
    before = total_of(page, 3, 1)
    open_correction(page, 2)
    section = page.locator("section.adjust")
    section.scroll_into_view_if_needed()
    section.get_by_label("Player").select_option(label="Ben")
    section.get_by_label("Points").fill("0")
    section.get_by_role("button", name="− Penalty").click()
    alert = page.locator("#entry .alert")
    in_view(page, alert)  # the message is at the panel's top: brought into the screen
    expect(alert).to_contain_text("not 0")
    expect(page.locator("section.adjust").get_by_label("Points")).to_have_value("0")
    assert total_of(page, 3, 1) == before
    page.screenshot(path=artifacts / "pad-penalty-refused.png")


def test_r16_the_last_round_summary_shows_its_penalty(
    page: Page, app: Flask, live_server: str, artifacts: Path
) -> None:
    """R16 with a penalty: round 3 (3 cards), Clara deals, bids 0 and takes all three
    (−30; 20 + 20 before), and is given −10 for a revoke. The summary under the entry
    panel shows the −10 beside the −30, so the two add up to her total going 40 → 0. (On
    a phone, upright or sideways, the round fills the screen and the summary stays away:
    here a small tablet held sideways, the round and the pad side by side.)"""
    page.set_viewport_size({"width": 1024, "height": 600})
    link = game_with_rounds(app, 3)
    with app.app_context(), transaction.atomic():
        game = game_service.get_game(link.split("/")[2])
        game_service.add_adjustment(game, 3, 2, -10, "revoke")
    page.goto(live_server + link)
    summary = page.locator(".last-round")
    expect(summary.get_by_role("heading")).to_have_text("Round 3")
    clara = summary.locator("li", has_text="Clara")
    expect(clara.locator(".delta")).to_contain_text("−30")
    mark = clara.locator(".delta sup.adj")
    expect(mark).to_have_text("−10 penalty: revoke")
    expect(mark.locator(".visually-hidden")).to_have_text(" penalty: revoke")
    expect(clara.locator(".num").last).to_have_text("0")
    assert total_of(page, 2, 2) == "40"
    # Everyone else's line has no mark: only Clara was given anything.
    expect(summary.locator("sup.adj")).to_have_count(1)
    assert summary.evaluate("el => el.scrollWidth <= el.clientWidth")
    summary.scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "last-round-penalty.png")
