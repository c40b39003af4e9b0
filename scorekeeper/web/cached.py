"""Game pages served from the page cache (:mod:`scorekeeper.services.pagecache`: kept in
the process's memory, per game version).

A page is rendered once per game version and variant: the page or the update fragment,
the reader's language, viewer or scorer, the root URL it was asked at (scheme, host and
script root: its links and QR codes are built from it) and the app's build (templates,
code, translations, static files).
What must differ per request never goes into the kept copy: the scorer's CSRF token and
each form's idempotency key are rendered as markers and filled in on the way out. A
follower's page has neither, so it is kept compressed too (in its first reader's coding)
and goes out as stored.
"""

from __future__ import annotations

import hashlib
import hmac
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from flask import Flask, Response, current_app, request, session

from scorekeeper import compression
from scorekeeper.i18n import current_language
from scorekeeper.models import Game
from scorekeeper.security import csrf_token
from scorekeeper.services import pagecache
from scorekeeper.web.language import current_theme

Render = Callable[[dict[str, object]], tuple[str, Game]]
_EXTENSION = "scorekeeper.pagecache.setup"


class _Setup:
    """Per app: the build hash and the markers."""

    def __init__(self, app: Flask) -> None:
        # What a page's rendering depends on besides the game: hashed into every variant,
        # so a new release never serves a page kept by the one before.
        package = Path(__file__).resolve().parent.parent
        sources = [
            (package, "**/*.py"),
            (package, "translations/**/*.mo"),
            (Path(app.template_folder or "templates"), "**/*"),
            (Path(app.static_folder or "static"), "**/*"),
        ]
        digest = hashlib.sha256()
        for root, pattern in sources:
            for path in sorted(root.glob(pattern)):
                if path.is_file():
                    digest.update(path.relative_to(root).as_posix().encode())
                    digest.update(path.read_bytes())
        self.build = digest.hexdigest()[:16]
        # Markers nobody can type into a name: derived from the secret key, the same in
        # every app server that shares the database.
        mark = hmac.new(app.config["SECRET_KEY"].encode(), b"page-cache", "sha256").hexdigest()
        self.csrf_mark = f"csrf{mark[:20]}"
        self.key_mark = f"idem{mark[20:40]}"


def _setup() -> _Setup:
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    setup: _Setup | None = app.extensions.get(_EXTENSION)
    if setup is None:
        setup = app.extensions[_EXTENSION] = _Setup(app)
    return setup


def usable() -> bool:
    """Whether this request's page may come from (and go into) the cache: a plain GET
    with no message waiting to be shown."""
    return (
        current_app.config.get("PAGE_CACHE", True)
        and request.method == "GET"
        and "_flashes" not in session
    )


def page(
    public_id: str,
    kind: str,
    role: str,
    render: Render,
    new_key: Callable[[], str],
    secret: str | None = None,
    version: int | None = None,
) -> Response:
    """The page ``kind`` of a game as ``role`` sees it, from the cache or rendered.

    ``render(overrides)`` renders it with ``overrides`` added to the template context and
    returns the HTML and the game it showed; ``new_key`` makes a fresh idempotency key. A
    page that shows ``secret`` is served but never kept. ``version``: the game's version
    when the caller has just read it (else it is read here).
    """
    setup = _setup()
    # The whole root URL (scheme, host and script root) is part of the variant: every link
    # of the page is built from it. (A script root that is not a plain path never gets
    # here: scorekeeper/limits.py refuses it.)
    # The markers too: they come from the secret key, and a page kept with the markers of
    # another key (in the folder a server's workers share, which outlives a reload) would
    # go out with them in place of the CSRF token and keys.
    variant = hashlib.sha256(
        "\n".join(
            (
                setup.build,
                setup.csrf_mark,
                kind,
                current_language(),
                current_theme(),
                role,
                request.url_root,
            )
        ).encode()
    ).hexdigest()[:32]
    kept = pagecache.lookup(public_id, variant, version)
    if kept is None:
        with _first_render(public_id, variant):
            kept = pagecache.lookup(public_id, variant, version)  # rendered meanwhile
            if kept is None:
                return _render(public_id, variant, render, new_key, setup, secret)
    return _answer(kept, setup, new_key, key=(public_id, variant))


# Every follower of a game hears of its new version at the same moment (the live
# channel) and asks for it at once: one of them renders and compresses it, the others of
# this process wait for that copy instead of rendering it again each (and those of the
# server's other processes too: services/pagecache.py).
_rendering: dict[tuple[str, str], threading.Lock] = {}
_rendering_guard = threading.Lock()


@contextmanager
def _first_render(public_id: str, variant: str) -> Iterator[None]:
    key = (public_id, variant)
    with _rendering_guard:
        lock = _rendering.setdefault(key, threading.Lock())
    try:
        with lock, pagecache.rendering(public_id, variant):
            yield
    finally:
        with _rendering_guard:
            if _rendering.get(key) is lock and not lock.locked():
                del _rendering[key]


def _render(
    public_id: str,
    variant: str,
    render: Render,
    new_key: Callable[[], str],
    setup: _Setup,
    secret: str | None,
) -> Response:
    """Render the page, keep it (unless it shows ``secret``), and answer with it."""
    html, game = render(
        {
            "csrf_token": lambda: setup.csrf_mark,
            "idempotency_key": lambda: setup.key_mark,
        }
    )
    body = html.encode()
    if secret and secret in html:
        return _answer(pagecache.Kept(body, None, None), setup, new_key, private=True)
    version = game.version
    if not pagecache.has_room(public_id, version, variant):
        # The version's variants are taken (odd Host headers): served, not kept.
        return _answer(pagecache.Kept(body, None, None), setup, new_key)
    personal = setup.csrf_mark in html or setup.key_mark in html
    # Kept compressed in the coding its first reader takes, at the fast level: a version
    # is read by the few phones following the game and then left behind, so the best
    # levels (Zopfli and Brotli's 11: over half a second a page) would cost a busy server
    # far more than the bytes they save. A reader taking another coding gets the page
    # compressed on the way out, as any answer.
    coding = compression.accepted_coding() or "gzip"
    copies = {} if personal else {coding: compression.compress(body, coding)}
    pagecache.keep(public_id, version, variant, body, copies.get("gzip"), copies.get("br"))
    kept = pagecache.Kept(body, copies.get("gzip"), copies.get("br"))
    return _answer(kept, setup, new_key)


def _answer(
    kept: pagecache.Kept,
    setup: _Setup,
    new_key: Callable[[], str],
    private: bool = False,
    key: tuple[str, str] | None = None,
) -> Response:
    """The page as this reader gets it (``key``: the game and variant it is kept under)."""
    headers = {"Vary": "HX-Request, Accept-Encoding"}
    if private:
        # The page shows the scorer link: no cache anywhere may keep it.
        headers["Cache-Control"] = "private, no-store"
    if kept.gzip is None and kept.br is None:  # a page with markers: kept uncompressed
        html = kept.body.decode()
        html = html.replace(setup.csrf_mark, csrf_token())
        parts = html.split(setup.key_mark)
        html = parts[0] + "".join(new_key() + part for part in parts[1:])
        # Compressed on the way out like any other answer.
        return Response(html, mimetype="text/html", headers=headers)
    taken = compression.accepted_codings()
    if taken and kept.copy(taken[0]) is None and key is not None:
        # Kept in another coding (its first reader took no Brotli): compressed once more
        # for the readers that take this one, and kept so for the next of them.
        public_id, variant = key
        copy = compression.compress(kept.body, taken[0])
        kept = pagecache.add_copy(public_id, variant, kept, taken[0], copy)
    for coding in taken:
        stored = kept.copy(coding)
        if stored is not None:
            headers["Content-Encoding"] = coding
            return Response(stored, mimetype="text/html", headers=headers)
    return Response(kept.body, mimetype="text/html", headers=headers)
