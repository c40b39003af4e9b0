"""The final standings on a phone (390×844): a shared win shares first place (R17)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask
from playwright.sync_api import Browser, Page, expect

from tests.web.test_final_standings import finished_game


def test_r17_a_shared_win_is_first_place_twice(
    page: Page, live_server: str, app: Flask, artifacts: Path
) -> None:
    page.goto(live_server + finished_game(app))  # Anna 390, Ben 390, Clara 370
    expect(page.locator("#entry-title")).to_have_text("Final standings")
    expect(page.locator(".winner-line")).to_contain_text("Anna and Ben share the win.")
    places = page.locator(".standings li")
    expect(places).to_have_text(["1. Anna 390", "1. Ben 390", "3. Clara 370"])
    page.screenshot(path=artifacts / "final-shared-win.png")


def test_r17_the_podium_stands_shared_winners_as_high_as_each_other(
    browser: Browser,
    browser_context_args: dict[str, Any],
    live_server: str,
    app: Flask,
    artifacts: Path,
) -> None:
    """The podium reads in place order (Anna, Ben, Clara) and shows second, first, third
    from left to right: Anna and Ben share first place, so their steps are as high; the
    suits' burst plays once, and not at all for a reader who asked for less motion."""
    link = finished_game(app)
    for motion in ("no-preference", "reduce"):
        context = browser.new_context(
            **{**browser_context_args, "viewport": {"width": 390, "height": 844}},
            reduced_motion=motion,  # type: ignore[arg-type]
        )
        page = context.new_page()
        page.goto(live_server + link)
        steps = page.locator(".podium .step")
        expect(steps).to_have_count(3)
        expect(steps.locator(".who")).to_have_text(["Anna", "Ben", "Clara"])
        heights = [s.locator(".block").bounding_box()["height"] for s in steps.all()]  # type: ignore[index]
        assert heights[0] == heights[1] > heights[2]
        lefts = [s.bounding_box()["x"] for s in steps.all()]  # type: ignore[index]
        assert lefts[1] < lefts[0] < lefts[2]  # Ben, Anna, Clara from the left
        burst = page.locator(".burst")
        if motion == "reduce":
            expect(burst).to_be_hidden()
        else:
            expect(burst.locator("span").first).to_have_css("animation-name", "burst")
            page.screenshot(path=artifacts / "final-podium.png")
        context.close()
