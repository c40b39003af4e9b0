"""The picture of a finished game on a 360×640 phone: the link downloads it where the
phone's share sheet takes no files, and opens the share sheet with the PNG where it does
(navigator.canShare/share stubbed in the page: Chromium headless shares no files)."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

from flask import Flask
from PIL import Image
from playwright.sync_api import Page, expect

from tests.browser.test_trick_entry import last_round_bid
from tests.web.test_final_standings import finished_game

LINK = "a[data-share-picture]"
# Records what the page would hand the share sheet; says yes to any files.
SHARE_STUB = """
window.sharedFiles = null;
navigator.canShare = function (data) { return !!(data && data.files && data.files.length); };
navigator.share = function (data) {
  window.sharedFiles = data.files.map(function (f) {
    return { name: f.name, type: f.type, size: f.size };
  });
  return Promise.resolve();
};
"""


def _final_screen(page: Page, live_server: str, app: Flask) -> None:
    page.goto(live_server + finished_game(app))
    expect(page.locator("#entry-title")).to_have_text("Final standings")


def test_without_a_share_sheet_for_files_the_link_downloads_the_picture(
    phone_in: Callable[[int, int, str], Page], live_server: str, app: Flask, artifacts: Path
) -> None:
    page = phone_in(360, 640, "light")
    _final_screen(page, live_server, app)
    link = page.locator("#entry " + LINK)
    expect(link).to_have_attribute("data-share", "download")
    expect(link).to_have_text("Save the picture")
    link.scroll_into_view_if_needed()
    box = link.bounding_box()
    assert (
        box and box["height"] >= 44 and box["width"] >= 280
    )  # the panel's width: a thumb's target
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    page.screenshot(path=artifacts / "picture-button-360.png")
    with page.expect_download() as download_info:
        link.click()
    download = download_info.value
    assert download.suggested_filename.endswith("-anna-ben-clara.png")
    saved = artifacts / "picture-downloaded.png"
    download.save_as(saved)
    image = Image.open(io.BytesIO(saved.read_bytes()))
    assert image.format == "PNG" and image.size == (1080, 1920)


def test_where_the_share_sheet_takes_files_the_picture_is_shared(
    phone_in: Callable[[int, int, str], Page], live_server: str, app: Flask
) -> None:
    page = phone_in(360, 640, "dark")
    page.add_init_script(SHARE_STUB)
    downloads: list[object] = []
    page.on("download", lambda download: downloads.append(download))
    _final_screen(page, live_server, app)
    link = page.locator("#entry " + LINK)
    expect(link).to_have_attribute("data-share", "ready")
    expect(link).to_have_text("Share the picture")
    link.click()
    expect(link).to_have_attribute("data-share", "shared")
    shared = page.evaluate("window.sharedFiles")
    assert len(shared) == 1
    assert shared[0]["type"] == "image/png"
    assert shared[0]["name"].endswith("-anna-ben-clara.png")
    assert 10_000 < shared[0]["size"] <= 300 * 1024
    assert downloads == []


def test_a_refused_share_falls_back_to_the_download(
    phone_in: Callable[[int, int, str], Page], live_server: str, app: Flask
) -> None:
    page = phone_in(360, 640, "light")
    page.add_init_script(
        SHARE_STUB
        + "navigator.share = function () {"
        + " return Promise.reject(new DOMException('no', 'NotAllowedError')); };"
    )
    _final_screen(page, live_server, app)
    link = page.locator("#entry " + LINK)
    expect(link).to_have_attribute("data-share", "ready")
    with page.expect_download() as download_info:
        link.click()
    assert download_info.value.suggested_filename.endswith(".png")
    expect(link).to_have_attribute("data-share", "download")


def test_an_auto_look_on_a_dark_phone_asks_for_the_card_table(
    phone_in: Callable[[int, int, str], Page], live_server: str, app: Flask
) -> None:
    page = phone_in(360, 640, "auto")
    page.emulate_media(color_scheme="dark")
    _final_screen(page, live_server, app)
    link = page.locator("#entry " + LINK)
    expect(link).to_have_attribute("data-share", "download")
    assert (link.get_attribute("href") or "").endswith("/picture.png?look=dark")


def test_the_tap_that_ends_the_game_brings_the_share_sheet_with_the_final_screen(
    phone_in: Callable[[int, int, str], Page], live_server: str, app: Flask
) -> None:
    """The final screen comes in place of the last round's panel (an htmx swap), with the
    share sheet's script: the picture is shared from it without a reload."""
    page = phone_in(360, 640, "light")
    page.add_init_script(SHARE_STUB)
    page.goto(live_server + last_round_bid(app))
    tabs = page.locator(".game-tabs")
    tabs.get_by_role("link", name="More").click()  # the downloads, loaded when it opens
    expect(page.locator(LINK)).to_have_count(1)  # the downloads' link: it saves
    expect(page.locator(LINK).first).not_to_have_attribute("data-share", "ready")
    tabs.get_by_role("link", name="Round").click()
    page.locator("#entry form.taps .keys").get_by_role("button", name="15", exact=True).click()
    expect(page.locator("#entry-title")).to_have_text("Final standings")
    link = page.locator("#entry " + LINK)
    expect(link).to_have_attribute("data-share", "ready")
    link.click()
    expect(link).to_have_attribute("data-share", "shared")
    assert page.evaluate("window.sharedFiles")[0]["type"] == "image/png"
