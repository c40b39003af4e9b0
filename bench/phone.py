"""Phone speed: a game page in headless Chromium, as a phone on a slow network sees it.

    .venv/bin/python bench/phone.py [--json]

Serves a temporary SQLite database with gunicorn on 127.0.0.1: a 6-player game in round
7, opened by its scorer (so the bid keys show). Measures, with an empty cache:

- first load: bytes over the wire (compressed bodies plus headers) of every request the
  page makes, and whether any goes to another host (none may);
- time to usable: with CDP CPU throttling ×4 and Lighthouse's fast-3G profile
  (562.5 ms RTT, 1.6 Mbps × 0.9 down, 750 kbps × 0.9 up), milliseconds from navigation
  start until the bid keys are visible and enabled;
- a bid tap: request plus response bytes of the round trip it makes.

Measured twice in one run: at http://127.0.0.1 (Chromium offers Brotli there, as over
HTTPS) and at a LAN name over plain HTTP, as a phone reaches the laptop at the table
(Chromium offers gzip only there). Targets (issue 7): first load ≤ 35 KB plus the
typeface's request (at most 10 KB, as tests/browser/test_phone_bytes.py holds it), no
third-party request, usable ≤ 1.5 s, a bid tap ≤ 3 KB. With --json the last line is one
JSON object.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, Request, sync_playwright  # noqa: E402

from scorekeeper import create_app, transaction  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.services import games as game_service  # noqa: E402
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.robustness.servers import Server, migrate  # noqa: E402

PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
    "service_workers": "block",  # first load as the network sees it, no worker precache
}
FAST_3G = {
    "offline": False,
    "latency": 150 * 3.75,
    "downloadThroughput": 1.6 * 1024 * 1024 / 8 * 0.9,
    "uploadThroughput": 750 * 1024 / 8 * 0.9,
}
BID_KEYS = "form.taps button[name=bid]"
LAN_NAME = "scorekeeper.lan"
USABLE_JS = """(selector) => {
  const keys = [...document.querySelectorAll(selector)];
  const ok = keys.length > 0 && keys.every(
      b => !b.disabled && b.offsetParent !== null && b.getBoundingClientRect().height > 0);
  return ok ? performance.now() : false;
}"""
TARGETS = {"first_load_kb": 45.0, "usable_ms": 1500.0, "bid_tap_bytes": 3072}


def make_game(database_url: str, instance: Path) -> tuple[str, str]:
    """A 6-player game with 6 rounds played: round 7 is open for bids."""
    app = create_app(
        {"SECRET_KEY": "phone", "SQLALCHEMY_DATABASE_URI": database_url}, instance_path=instance
    )
    with app.app_context(), transaction.atomic():
        rules = game_service.parse_rules({})
        game, token = game_service.create_game(
            ["Anna", "Bernd", "Carla", "Dieter", "Eva", "Frank"], 0, rules
        )
        for cards in range(1, 7):
            game_service.record_round(game, [0, 1, 0, 0, 0, 0], [0, 1, cards - 1, 0, 0, 0])
        public_id = game.public_id
    with app.app_context():
        db.engine.dispose()
    return public_id, token


def base_on(base: str, host: str) -> str:
    """The same server under another host name (same port)."""
    return f"http://{host}:{base.rsplit(':', 1)[1]}"


def _bytes(request: Request) -> int:
    sizes = request.sizes()
    return int(
        sizes["requestHeadersSize"]
        + sizes["requestBodySize"]
        + sizes["responseHeadersSize"]
        + sizes["responseBodySize"]
    )


def measure(browser: Browser, base: str, public_id: str, token: str, throttle: bool) -> dict:
    """One phone: claim the scorer link, then load the game page cold and tap a bid."""
    context = browser.new_context(**PHONE)
    try:
        # The scorer's session cookie, without loading the page (that is measured next).
        loopback = base_on(base, "127.0.0.1")
        claim = context.request.get(f"{loopback}/games/{public_id}/score/{token}", max_redirects=0)
        assert claim.status in (302, 303), claim.status
        if loopback != base:  # the same cookie for the LAN name
            host = base.split("//")[1].split(":")[0]
            context.add_cookies(
                [{**c, "domain": host, "path": "/"} for c in context.cookies(loopback)]
            )
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        if throttle:
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
            cdp.send("Network.emulateNetworkConditions", FAST_3G)
        finished: list[Request] = []
        page.on("requestfinished", lambda r: finished.append(r))
        page.goto(f"{base}/games/{public_id}", wait_until="commit")
        usable_ms = page.wait_for_function(USABLE_JS, arg=BID_KEYS, timeout=30000).json_value()
        page.wait_for_load_state("load")
        first = list(finished)
        first_load = sum(_bytes(r) for r in first)
        third_party = [r.url for r in first if not r.url.startswith(base)]

        finished.clear()
        with page.expect_response(lambda r: r.url.endswith(f"/games/{public_id}/bid")) as tap:
            page.locator(BID_KEYS).first.click()
        tap.value.finished()
        bid_request = tap.value.request
        return {
            "first_load_bytes": first_load,
            "first_load_kb": round(first_load / 1024, 1),
            "requests": len(first),
            "by_request": {r.url.removeprefix(base): _bytes(r) for r in first},
            "third_party": third_party,
            "usable_ms": round(float(usable_ms), 1),
            "bid_tap_bytes": _bytes(bid_request),
            "bid_tap_status": tap.value.status,
            "bid_tap_sizes": bid_request.sizes(),
            # How the answers came, but the typeface's: WOFF2 is compressed in itself.
            "codings": sorted(
                {
                    r.response().headers.get("content-encoding", "none")  # type: ignore[union-attr]
                    for r in first
                    if r.response().headers.get("content-type") != "font/woff2"  # type: ignore[union-attr]
                }
            ),
        }
    finally:
        context.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object as last line")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="scorekeeper-phone-") as tmp:
        instance = Path(tmp)
        url = f"sqlite:///{instance / 'phone.sqlite'}"
        migrate(url, instance)
        public_id, token = make_game(url, instance)
        server = Server(url, instance, workers=2).start()
        try:
            results = {}
            with sync_playwright() as p:
                # localhost, as over HTTPS: Chromium offers Brotli. A LAN name over plain
                # HTTP (the laptop at the table): it offers gzip only.
                lan = base_on(server.base, LAN_NAME)
                for name, flags, base in (
                    ("localhost", CHROMIUM_ARGS, server.base),
                    (
                        "lan",
                        [*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1"],
                        lan,
                    ),
                ):
                    browser = p.chromium.launch(executable_path=CHROMIUM, args=flags)
                    try:
                        results[name] = measure(browser, base, public_id, token, throttle=True)
                    finally:
                        browser.close()
        finally:
            server.stop()
    met_all = {}
    print("Chromium, 390×844 phone, CPU ×4, fast 3G (562.5 ms RTT, 1.44 / 0.675 Mbit/s)")
    for name, result in results.items():
        met = met_all[name] = {
            "first_load": result["first_load_kb"] <= TARGETS["first_load_kb"],
            "no_third_party": not result["third_party"],
            "usable": result["usable_ms"] <= TARGETS["usable_ms"],
            "bid_tap": result["bid_tap_bytes"] <= TARGETS["bid_tap_bytes"],
        }
        where = "http://" + LAN_NAME if name == "lan" else "http://127.0.0.1"
        print(f"\n{where}: answers came as {', '.join(result['codings'])}")
        for path, size in result["by_request"].items():
            print(f"  {size:7d} B  {path}")
        print(f"first load: {result['first_load_kb']} KB in {result['requests']} requests")
        print(f"third-party requests: {len(result['third_party'])}")
        print(f"usable (bid keys visible and enabled) after {result['usable_ms']} ms")
        print(f"a bid tap's round trip: {result['bid_tap_bytes']} B ({result['bid_tap_status']})")
        print(f"  ({result['bid_tap_sizes']})")
        print(f"targets met: {met}")
    if args.json:
        print(json.dumps({**results, "targets_met": met_all}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
