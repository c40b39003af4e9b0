"""What a phone downloads: the game page's first load and a bid tap, in bytes over the
wire (compressed bodies plus headers), in real Chromium against gunicorn. Timing is for
bench/phone.py; this test holds the issue's byte budgets and the no-third-party rule:
35 KB for the first load, plus the typeface of names and figures (at most 10 KB, its
file's request alone: cached for a year after it), 3 KB for a bid tap's round trip.

Both ways a phone reaches the server: at localhost (as over HTTPS, Chromium offers
Brotli) and at a LAN name over plain HTTP, as at the table (Chromium offers gzip only).
"""

from pathlib import Path

import pytest
from playwright.sync_api import Playwright

from bench.phone import LAN_NAME, base_on, make_game, measure
from tests.browser.conftest import TEST_BROWSER, TEST_BROWSER_ARGS
from tests.robustness.servers import Server, migrate

# The typeface of names and figures: its file's request (static/fonts/ledger/: 8,564 B of
# WOFF2 and the headers, 9,807 B with Brotli offered) and the rules of app.css that declare
# and use it (about 0.25 KB): the first load grew by that much and no more.
FONT_BUDGET = 10 * 1024
FIRST_LOAD_BUDGET = 35 * 1024 + FONT_BUDGET
BID_TAP_BUDGET = 3 * 1024


@pytest.mark.parametrize(("where", "coding"), [("localhost", "br"), ("lan", "gzip")])
def test_game_page_and_bid_tap_bytes(
    playwright: Playwright, tmp_path: Path, where: str, coding: str
) -> None:
    url = f"sqlite:///{tmp_path / 'phone.sqlite'}"
    migrate(url, tmp_path)
    public_id, token = make_game(url, tmp_path)
    server = Server(url, tmp_path, workers=1).start()
    flags = [*TEST_BROWSER_ARGS]
    base = server.base
    if where == "lan":
        flags.append(f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1")
        base = base_on(server.base, LAN_NAME)
    browser = playwright.chromium.launch(executable_path=TEST_BROWSER, args=flags)
    try:
        result = measure(browser, base, public_id, token, throttle=False)
    finally:
        browser.close()
        server.stop()
    assert result["codings"] == [coding], result["codings"]
    assert result["third_party"] == []
    assert result["requests"] <= 4, result["by_request"]  # page, CSS, scripts, typeface
    # Over plain HTTP (gzip only) too: one script file for htmx and app.js, and leaner
    # headers, paid for the one-screen round there (36,616 B before, the typeface aside).
    assert result["first_load_bytes"] <= FIRST_LOAD_BUDGET, list(result["by_request"].items())
    fonts = {path: size for path, size in result["by_request"].items() if "/fonts/" in path}
    assert len(fonts) == 1 and sum(fonts.values()) <= FONT_BUDGET, fonts
    assert result["bid_tap_status"] == 200
    assert result["bid_tap_bytes"] <= BID_TAP_BUDGET, result["bid_tap_sizes"]
