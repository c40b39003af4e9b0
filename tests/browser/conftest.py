"""Real-browser fixtures: Debian's Chromium driven by Playwright, at a phone's size."""

import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from werkzeug.serving import make_server

# Never `playwright install` here: it downloads a browser. Use the system Chromium.
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
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_context_args,
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "has_touch": True,
        "device_scale_factor": 2,
    }


def _closing(app: Flask) -> Any:
    """``app``, whose answers are closed even when the browser drops the connection in the
    middle of one (a page closed while its service worker still fetches icons): werkzeug's
    test server then may skip closing it, and the static file it was sending stays open
    until the collector finds it. A generator's ``finally`` runs when it is collected."""

    def serve(environ: dict[str, Any], start_response: Any) -> Iterator[bytes]:
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
    server = make_server("127.0.0.1", 0, _closing(app), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture
def artifacts() -> Path:
    """Directory for screenshots and other output worth looking at (git-ignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
