"""A penalty given on a 390×844 phone: tap the round on the pad, fill in the bonus or
penalty, and the total changes with the mark beside it; the panel stays in view and
axe-core finds nothing serious in it."""

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
    page = phones(scheme)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live_server + game_with_rounds(app, 3))
    before = total_of(page, 3, 1)
    open_correction(page, 2)
    section = page.locator("section.adjust")
    section.scroll_into_view_if_needed()
    section.get_by_label("Player").select_option(label="Ben")
    section.get_by_label("Points").fill("10")
    section.get_by_label("Why (optional)").fill("revoke")
    assert axe_problems(page) == []
    section.get_by_role("button", name="− Penalty").click()
    in_view(page, page.locator("#entry .note", has_text="bonus or penalty given"))
    expect(page.locator("section.adjust li")).to_contain_text("Ben −10 · revoke")
    mark = page.locator("#round-2 sup.adj")
    expect(mark).to_have_count(1)
    expect(mark).to_contain_text("−10")
    assert int(total_of(page, 3, 1).replace("−", "-")) == int(before.replace("−", "-")) - 10
    for button in page.locator("section.adjust").get_by_role("button").all():
        box = button.bounding_box()
        assert box is not None and box["height"] >= 44, button
    page.screenshot(path=artifacts / f"pad-penalty-{scheme}.png")
    # Taken back: the total is what it was.
    page.locator("section.adjust").get_by_role("button", name="Take back −10 for Ben").click()
    expect(page.locator("#round-2 sup.adj")).to_have_count(0)
    assert total_of(page, 3, 1) == before
    assert errors == []


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
    panel shows the −10 beside the −30, so the two add up to her total going 40 → 0."""
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
