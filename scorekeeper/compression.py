"""Brotli or gzip for text answers (pages, fragments, CSS, JS, JSON, SVG), whichever the
client takes (Brotli first: every current phone browser takes it over HTTPS and on
localhost, and it is a fifth smaller than gzip for our pages and scripts).

A phone on a slow network loads a game page in a fifth of the bytes. Static files are
compressed once per version (their ETag) at the highest levels and kept; everything else
is compressed per answer, which costs a fraction of a millisecond: Brotli at a fast level,
gzip at its best (a scorer's game page 31 B smaller than at level 6, for 0.09 ms more).

Kept static files are gzipped with Zopfli: the same gzip format every browser reads, 3–5 %
smaller than zlib's best level (about 0.7 KB off a game page's first load over a LAN name,
where phones get gzip only), for a fifth of a second once per file and process.
"""

from __future__ import annotations

import gzip
from collections import OrderedDict

import brotli  # type: ignore[import-untyped]
import zopfli.gzip  # type: ignore[import-untyped]
from flask import Flask, Response, request

from scorekeeper.security import add_vary

COMPRESSIBLE = {
    "text/html",
    "text/css",
    "text/plain",
    "text/csv",
    "text/javascript",
    "application/javascript",
    "application/json",
    "application/manifest+json",
    "image/svg+xml",
}
MIN_SIZE = 512  # below this, the coding's own framing and the CPU outweigh the saving
CODINGS = ("br", "gzip")
BEST_MAX = 256 * 1024  # bytes compressed at the best levels (kept pages)
_STATIC: OrderedDict[tuple[str, str, str], bytes] = OrderedDict()
_STATIC_MAX = 64


def accepted_coding() -> str | None:
    """The best content coding the client takes: "br", "gzip" or None."""
    taken = accepted_codings()
    return taken[0] if taken else None


def accepted_codings() -> tuple[str, ...]:
    """Every content coding of ours the client takes, the best first."""
    header = request.headers.get("Accept-Encoding", "")
    if not header:
        return ()
    taken: set[str] = set()
    refused: set[str] = set()
    for part in header.split(","):
        coding, _, params = part.strip().partition(";")
        coding = coding.strip().lower()
        if params.replace(" ", "") in ("q=0", "q=0.0", "q=0.00", "q=0.000"):
            refused.add(coding)
        else:
            taken.update(CODINGS if coding == "*" else (coding,))
    return tuple(c for c in CODINGS if c in taken and c not in refused)


def compress(data: bytes, coding: str, best: bool = False) -> bytes:
    """``data`` in ``coding``; ``best`` for what is compressed once and kept, up to
    ``BEST_MAX`` bytes (Zopfli and Brotli's best take about a second a few hundred KB: a
    bigger page, which no real game makes, is compressed as any answer is)."""
    best = best and len(data) <= BEST_MAX
    if coding == "br":
        packed: bytes = brotli.compress(data, mode=brotli.MODE_TEXT, quality=11 if best else 5)
        return packed
    if best:
        packed = zopfli.gzip.compress(data)
        return packed
    return gzip.compress(data, compresslevel=9, mtime=0)


def _compress(response: Response) -> Response:
    add_vary(response, "Accept-Encoding")
    if (
        response.status_code != 200
        or response.mimetype not in COMPRESSIBLE
        or "Content-Encoding" in response.headers
        or request.method == "HEAD"
        # A generated stream (the history export) goes out as it is made.
        or (response.is_streamed and request.endpoint != "static")
    ):
        return response
    coding = accepted_coding()
    if coding is None:
        return response
    etag, _weak = response.get_etag()
    key = (request.path, etag, coding) if request.endpoint == "static" and etag else None
    body = _STATIC.get(key) if key else None
    # Static files come as an open file passed straight through; the body now goes
    # through set_data, and the answer's close() must close the file too.
    response.direct_passthrough = False
    if body is not None:
        # Kept from before: the file stays unread, closed with the answer.
        close = getattr(response.response, "close", None)
        if close is not None:
            response.call_on_close(close)
    else:
        data = response.get_data()  # static files: read the file into memory
        if len(data) < MIN_SIZE:
            return response
        body = compress(data, coding, best=key is not None)
        if key:
            _STATIC[key] = body
            while len(_STATIC) > _STATIC_MAX:
                _STATIC.popitem(last=False)
    response.set_data(body)
    response.headers["Content-Encoding"] = coding
    # Ranges would address the uncompressed file; the name is known from the URL.
    for name in ("Accept-Ranges", "Content-Disposition"):
        response.headers.pop(name, None)
    if key and etag:
        # Another representation of the same file: its tag must not claim byte equality.
        # (The API's ETag is the game's version, which compression does not change.)
        response.set_etag(etag, weak=True)
    return response


def init_app(app: Flask) -> None:
    """Compress every eligible answer."""
    app.after_request(_compress)
