"""Real-browser fixtures: Debian's Chromium driven by Playwright, at a phone's size."""

import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page
from werkzeug.serving import make_server

from scorekeeper import live

# Never `playwright install` here: it downloads a browser. Use the system's Chromium:
# Debian's desktop build for the benchmarks that time a phone's page (bench/taps.py,
# bench/phone.py) ...
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
]
# ... and for the tests its headless shell (Debian's chromium-headless-shell, the build
# Playwright itself runs headless): the same Blink, V8 and DevTools protocol without the
# desktop browser around them. The browser tests took 419 s of CPU with the desktop
# build and 285 s with the shell (tests/browser, two workers): 134 s less, an eighth of a
# whole bin/test run's CPU. The shell places glyphs on whole pixels unless told otherwise
# (--font-render-hinting, default "full"), which made a six-player pad 8 px wider at
# 320 px than in Chrome; "none" lays text out at subpixel positions, as Chrome and the
# phones do.
TEST_BROWSER = "/usr/lib/chromium/chromium-headless-shell"
TEST_BROWSER_ARGS = [*CHROMIUM_ARGS, "--font-render-hinting=none"]
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
# `page.evaluate(SET_VISIBILITY, "hidden")`: the page as the phone locked or the tab left
# (Chromium keeps a page driven by Playwright visible otherwise); "visible" shows it again.
SET_VISIBILITY = """state => {
    Object.defineProperty(document, "visibilityState", {configurable: true, get: () => state});
    document.dispatchEvent(new Event("visibilitychange"));
}"""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_type_launch_args,
        "executable_path": TEST_BROWSER,
        "args": TEST_BROWSER_ARGS,
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_context_args,
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "has_touch": True,
        "device_scale_factor": 2,
    }


class _InFlight:
    """The requests the live server's app is still handling: werkzeug's threads are
    daemons that closing the server does not wait for, so a request a page sent as the
    test ended (a poll) could still hold a database connection when the app is torn
    down."""

    def __init__(self) -> None:
        self._count = 0
        self._changed = threading.Condition()

    def __enter__(self) -> None:
        with self._changed:
            self._count += 1

    def __exit__(self, *_: object) -> None:
        with self._changed:
            self._count -= 1
            self._changed.notify_all()

    def wait_done(self, timeout: float) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: self._count == 0, timeout)


def _closing(app: Flask, in_flight: _InFlight) -> Any:
    """``app``, whose answers are closed even when the browser drops the connection in the
    middle of one (a page closed while its service worker still fetches icons): werkzeug's
    test server then may skip closing it, and the static file it was sending stays open
    until the collector finds it. A generator's ``finally`` runs when it is collected."""

    def serve(environ: dict[str, Any], start_response: Any) -> Iterator[bytes]:
        with in_flight:  # the view runs, and its database session ends, in here
            answer: Iterable[bytes] = app(environ, start_response)
        try:
            yield from answer
        finally:
            close = getattr(answer, "close", None)
            if close is not None:
                close()

    return serve


@pytest.fixture
def live_server(app: Flask) -> Iterator[str]:
    """Serve `app` from a background thread; yield its base URL."""
    in_flight = _InFlight()
    server = make_server("127.0.0.1", 0, _closing(app, in_flight), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        live.hub_of(app).release()  # the followers' streams end, as a stopping server's do
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
        # A request a page sent as the test ended (a poll) finishes before the app goes.
        assert in_flight.wait_done(timeout=10), "a request to the live server never ended"


@pytest.fixture
def artifacts() -> Path:
    """Directory for screenshots and other output worth looking at (git-ignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@contextmanager
def shot_if_failing(page: Page, path: Path) -> Iterator[None]:
    """A screenshot of ``page`` to ``path`` when a check in the block fails: one a check
    that passed needs nobody to look at, and a picture costs a second's tenth or more."""
    try:
        yield
    except AssertionError:
        page.screenshot(path=path)
        raise


# The phone sizes a screen is checked at, and the two looks (the footer's switch).
PHONES = [(360, 640), (375, 667), (390, 844)]
LOOKS = ["light", "dark"]


# For a page whose looks and sizes are checked: no service worker, whose install fetches
# every static file and, on a scorer's page, the page once more to keep, none of which
# changes how a page looks (the pages work the same without one, as on plain HTTP on a
# home network; tests/browser/test_offline.py and test_pwa.py check the worker).
LAYOUT: dict[str, Any] = {"service_workers": "block"}


class KeptPages:
    """Phones kept open across a module's tests: a browser context and its page cost a
    third of a second of CPU to make (a renderer process and its start), more than many
    a test's own checks. A kept page is handed out as a new one would be: no cookies,
    nothing stored for the test's server, at the size asked, in its own context (one per
    phone a test holds at once); after the test it is left on about:blank, so nothing on
    it still talks to that test's server. For pages to which a test adds no handlers,
    scripts or routes (those would stay with the page): a module opts in with
    ``KEEP_PAGES = True``."""

    def __init__(self, browser: Browser, context_args: dict[str, Any]) -> None:
        self.browser = browser
        self.context_args = context_args
        self.free: dict[str, list[Page]] = {}
        self.taken: list[tuple[str, Page]] = []

    def take(self, base_url: str, viewport: dict[str, int], locale: str = "") -> Page:
        free = self.free.setdefault(locale, [])
        page = free.pop() if free else None
        if page is None or page.is_closed():
            options = {**self.context_args, "viewport": viewport, **LAYOUT}
            if locale:
                options["locale"] = locale
            page = self.browser.new_context(**options).new_page()
        else:
            page.context.clear_cookies()
            # A port the system hands out again: the origin's storage starts empty too.
            session = page.context.new_cdp_session(page)
            session.send("Storage.clearDataForOrigin", {"origin": base_url, "storageTypes": "all"})
            session.detach()
            page.set_viewport_size(viewport)  # type: ignore[arg-type]
        self.taken.append((locale, page))
        return page

    def give_back(self) -> None:
        for locale, page in self.taken:
            if not page.is_closed():
                page.goto("about:blank")
                self.free[locale].append(page)
        self.taken.clear()

    def close(self) -> None:
        for pages in self.free.values():
            for page in pages:
                page.context.close()


@pytest.fixture(scope="module")
def kept_pages(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[KeptPages]:
    kept = KeptPages(browser, browser_context_args)
    yield kept
    kept.close()


@pytest.fixture
def phone_in(
    browser: Browser,
    browser_context_args: dict[str, Any],
    live_server: str,
    request: pytest.FixtureRequest,
) -> Iterator[Callable[[int, int, str], Page]]:
    """A page on a phone of ``width``×``height`` in ``look`` ("light" paper, "dark" card
    table, as the footer's switch keeps it in a cookie); closed after the test, or kept
    for the module's next test (KeptPages) where the module says so."""
    kept: KeptPages | None = None
    if getattr(request.module, "KEEP_PAGES", False):
        kept = request.getfixturevalue("kept_pages")
    contexts: list[BrowserContext] = []

    def open_page(width: int, height: int, look: str) -> Page:
        viewport = {"width": width, "height": height}
        if kept is not None:
            page = kept.take(live_server, viewport)
        else:
            context = browser.new_context(
                **{**browser_context_args, "viewport": viewport}, **LAYOUT
            )
            contexts.append(context)
            page = context.new_page()
        page.context.add_cookies([{"name": "theme", "value": look, "url": live_server}])
        return page

    yield open_page
    for context in contexts:
        context.close()
    if kept is not None:
        kept.give_back()


@dataclass(frozen=True)
class Phone:
    """A page on one of the checked phones, in one look."""

    page: Page
    width: int
    height: int
    look: str

    @property
    def label(self) -> str:
        """For a screenshot's file name: "360-light"."""
        return f"{self.width}-{self.look}"


@pytest.fixture(
    params=[(width, height, look) for width, height in PHONES for look in LOOKS],
    ids=lambda p: f"{p[0]}x{p[1]}-{p[2]}",
)
def each_phone(request: pytest.FixtureRequest, phone_in: Callable[[int, int, str], Page]) -> Phone:
    """The test runs on each checked phone size (PHONES) in each look (LOOKS)."""
    width, height, look = request.param
    return Phone(phone_in(width, height, look), width, height, look)


@pytest.fixture
def small_phone(page: Page, request: pytest.FixtureRequest) -> Page:
    """The page at the screen size the test is parametrised with (indirect)."""
    width, height = request.param
    page.set_viewport_size({"width": width, "height": height})
    return page
