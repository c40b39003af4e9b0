from pathlib import Path

from playwright.sync_api import Page, expect


def test_home_page_on_a_phone(page: Page, live_server: str, artifacts: Path) -> None:
    page.goto(live_server + "/")
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text("Scorekeeper")
    expect(heading).to_be_visible()
    expect(page.get_by_text("The score pad for Wizard")).to_be_visible()
    # Its links: start a game, or a circle (a phone that holds no link sees no history).
    expect(page.get_by_role("link", name="New game")).to_be_visible()
    expect(page.get_by_role("heading", name="Your circles")).to_be_visible()
    expect(page.get_by_role("link", name="New circle")).to_be_visible()
    expect(page.get_by_role("link", name="All games")).to_have_count(0)
    # The vendored htmx loaded and ran (no CDN, no inline script).
    assert page.evaluate("typeof htmx") == "object"
    # Nothing wider than the phone: no sideways scrolling.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=artifacts / "home.png", full_page=True)
