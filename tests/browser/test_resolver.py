"""The trick resolver on a phone: taps with htmx, and the same with JavaScript off."""

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect


def tap_trick(page: Page) -> None:
    page.get_by_role("link", name="blue", exact=True).click()
    expect(page.get_by_role("link", name="blue", exact=True)).to_have_attribute(
        "aria-current", "true"
    )
    for name in ("red 5", "green 13", "blue 2", "red 13"):
        page.get_by_role("link", name=name, exact=True).click()
        expect(page.locator("[data-resolver-card]").last).to_have_attribute("title", name)


def test_resolver_with_htmx(page: Page, live_server: str, artifacts: Path) -> None:
    page.goto(live_server + "/")
    page.get_by_role("link", name="Who won that trick?").click()
    tap_trick(page)
    verdict = page.locator(".verdict")
    expect(verdict).to_contain_text("Player 3 wins")
    expect(verdict).to_contain_text("the highest trump wins")
    expect(page.get_by_text("Only legal if player 2 had no red")).to_be_visible()
    assert "cards=R5+G13+B2+R13" in page.url  # the trick is in the address: shareable
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=artifacts / "resolver.png", full_page=True)
    page.get_by_role("link", name="Undo last card").click()
    expect(page.locator("[data-resolver-card]")).to_have_count(3)


def test_resolver_without_javascript(
    browser: Browser, browser_context_args: dict[str, Any], live_server: str
) -> None:
    context = browser.new_context(**{**browser_context_args, "java_script_enabled": False})
    page = context.new_page()
    page.goto(live_server + "/resolver/")
    tap_trick(page)
    expect(page.locator(".verdict")).to_contain_text("Player 3 wins")
    context.close()
