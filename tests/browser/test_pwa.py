"""The installed app in a real Chromium: the service worker takes over and serves the
static files from its cache (never the pages), and a game page keeps the screen on."""

from __future__ import annotations

from typing import Any

from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page, Response, expect

from scorekeeper import transaction
from scorekeeper.services import games as game_service

# A stand-in for the Screen Wake Lock API that records each request; `release()` lets a
# test play the browser dropping the lock (as it does when the page is hidden).
WAKE_LOCK_STUB = """
window.__wakeRequests = [];
window.__sentinels = [];
Object.defineProperty(Navigator.prototype, "wakeLock", {configurable: true, get: () => ({
  request(type) {
    window.__wakeRequests.push(type);
    const sentinel = new EventTarget();
    window.__sentinels.push(sentinel);
    return Promise.resolve(sentinel);
  }
})});
window.__release = () => window.__sentinels.at(-1).dispatchEvent(new Event("release"));
"""
NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock;"
REFUSED_WAKE_LOCK = """
Object.defineProperty(Navigator.prototype, "wakeLock", {configurable: true, get: () => ({
  request() { return Promise.reject(new DOMException("battery saver", "NotAllowedError")); }
})});
"""


def game_url(app: Flask) -> str:
    with app.app_context(), transaction.atomic():
        game, token = game_service.create_game(
            ["Ann", "Ben", "Cat"], 0, game_service.parse_rules({})
        )
        return f"/games/{game.public_id}/score/{token}"


def errors_of(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def test_the_worker_serves_static_files_from_its_cache_and_never_pages(
    page: Page, context: BrowserContext, live_server: str
) -> None:
    errors = errors_of(page)
    page.goto(live_server + "/")
    assert page.evaluate("navigator.serviceWorker.ready.then(r => r.active.scriptURL)") == (
        live_server + "/sw.js"
    )
    responses: list[Response] = []
    page.on("response", lambda r: responses.append(r))
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert page.evaluate("navigator.serviceWorker.controller !== null")

    statics = [r for r in responses if "/static/" in r.url]
    assert {r.url.split("?")[0].rsplit("/", 1)[1] for r in statics} >= {
        "app.css",
        "page.js",
    }
    assert all(r.from_service_worker for r in statics), [r.url for r in statics]
    [document] = [r for r in responses if r.request.resource_type == "document"]
    assert not document.from_service_worker

    assert errors == []

    # Offline, the static files are still there; a page is not (no stale score).
    context.set_offline(True)
    try:
        css = page.locator('link[rel="stylesheet"]').first.get_attribute("href")
        assert page.evaluate("u => fetch(u).then(r => r.status)", css) == 200
        assert page.evaluate("fetch('/').then(r => r.status, () => 'failed')") == "failed"
    finally:
        context.set_offline(False)


def test_a_game_page_keeps_the_screen_on(
    app: Flask, page: Page, context: BrowserContext, live_server: str
) -> None:
    context.add_init_script(WAKE_LOCK_STUB)
    errors = errors_of(page)
    page.goto(live_server + "/")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert page.evaluate("window.__wakeRequests") == []  # not on the home page

    page.goto(live_server + game_url(app))
    expect(page.locator("#entry")).to_be_visible()
    page.wait_for_function("window.__wakeRequests.length === 1")
    assert page.evaluate("window.__wakeRequests") == ["screen"]
    # The browser drops the lock when the phone is put away; coming back takes it again.
    page.evaluate("window.__release()")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("window.__wakeRequests.length === 2")
    # While the lock is held, another visibility change does not ask twice.
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    assert page.evaluate("window.__wakeRequests.length") == 2
    assert errors == []


def test_without_wake_lock_or_when_refused_nothing_breaks(
    app: Flask, browser: Browser, browser_context_args: dict[str, Any], live_server: str
) -> None:
    for script in (NO_WAKE_LOCK, REFUSED_WAKE_LOCK):
        url = live_server + game_url(app)  # a game of its own: one bid on it after the tap
        context = browser.new_context(**browser_context_args)
        context.add_init_script(script)
        phone = context.new_page()
        errors = errors_of(phone)
        phone.goto(url)
        expect(phone.locator("#entry")).to_be_visible()
        phone.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        phone.locator("form.taps .key").first.click()  # the page still works
        expect(phone.locator("table.seats button.val")).to_have_count(1)
        assert errors == []
        context.close()


def test_htmx_runs_with_the_apps_settings(app: Flask, page: Page, live_server: str) -> None:
    # Set by app.js (in the pages' one script file) before htmx reads them, not in every
    # page's head: 4xx answers that carry a notice are swapped in, no eval, no scripts
    # from answers, no injected style, 10 s to answer.
    errors = errors_of(page)
    page.goto(live_server + game_url(app))
    expect(page.locator("#entry")).to_be_visible()
    assert page.locator('meta[name="htmx-config"]').count() == 0
    config = page.evaluate(
        """() => ({
            swapped: htmx.config.responseHandling.filter(r => r.swap).map(r => r.code),
            eval: htmx.config.allowEval, scripts: htmx.config.allowScriptTags,
            styles: document.querySelectorAll("head style").length,
            timeout: htmx.config.timeout})"""
    )
    assert config == {
        "swapped": ["[23]..", "^(400|403|404|409|413|422|429)$"],
        "eval": False,
        "scripts": False,
        "styles": 0,
        "timeout": 10000,
    }
    assert errors == []
