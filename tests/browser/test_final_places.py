"""The final standings on a phone (390×844): a shared win shares first place (R17)."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from playwright.sync_api import Page, expect

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
