"""gzip for text answers (pages, fragments, CSS, JS, JSON, SVG) when the client takes it.

A phone on a slow network loads a game page in a third of the bytes. Static files are
compressed once per version (their ETag) and kept; everything else is compressed per
answer, which costs well under a millisecond for a page.
"""

from __future__ import annotations

import gzip
from collections import OrderedDict

from flask import Flask, Response, request

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
MIN_SIZE = 512  # below this, gzip's own header and the CPU outweigh the saving
LEVEL = 6
_STATIC: OrderedDict[tuple[str, str], bytes] = OrderedDict()
_STATIC_MAX = 64


def _accepts_gzip() -> bool:
    for part in request.headers.get("Accept-Encoding", "").split(","):
        coding, _, params = part.strip().partition(";")
        if coding.strip().lower() in ("gzip", "*"):
            return params.replace(" ", "") not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


def _compress(response: Response) -> Response:
    response.vary.add("Accept-Encoding")
    if (
        response.status_code != 200
        or response.mimetype not in COMPRESSIBLE
        or "Content-Encoding" in response.headers
        or request.method == "HEAD"
        or not _accepts_gzip()
    ):
        return response
    etag, _weak = response.get_etag()
    key = (request.path, etag) if request.endpoint == "static" and etag else None
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
        body = gzip.compress(data, compresslevel=LEVEL, mtime=0)
        if key:
            _STATIC[key] = body
            while len(_STATIC) > _STATIC_MAX:
                _STATIC.popitem(last=False)
    response.set_data(body)
    response.headers["Content-Encoding"] = "gzip"
    # Ranges would address the uncompressed file; the name is known from the URL.
    for name in ("Accept-Ranges", "Content-Disposition"):
        response.headers.pop(name, None)
    if key and etag:
        # Another representation of the same file: its tag must not claim byte equality.
        # (The API's ETag is the game's version, which gzip does not change.)
        response.set_etag(etag, weak=True)
    return response


def init_app(app: Flask) -> None:
    """Compress every eligible answer."""
    app.after_request(_compress)
