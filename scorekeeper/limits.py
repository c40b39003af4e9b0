"""Bounds on what a request may bring, so that a stranger's odd input is a clear 4xx.

- **Body size**: ``MAX_CONTENT_LENGTH`` (default 2 MB) for every request;
  ``MAX_FORM_MEMORY_SIZE`` follows it unless set. A larger body is refused with 413 before
  it is read; the error pages say the limit in words (:func:`body_limit_text`).
- **JSON nesting**: at most :data:`MAX_JSON_DEPTH` levels, checked before a body or a file
  is parsed (:func:`check_json_depth`): Python's parser would otherwise recurse until it
  fails, and so would everything that walks the parsed value.
- **Numbers typed in forms**: :func:`whole_number` reads plain decimal digits only, so a
  value such as ``--1`` or a 5,000-digit number is text for the services to refuse.
- **Local paths** for redirects (:func:`local_path`): a path on this site with nothing a
  header can't carry.
- **The script root** every link is built with (``X-Forwarded-Prefix`` behind a proxy): a
  plain path or nothing, else 400 before anything is rendered or kept.
- **Hosts**: Flask's ``TRUSTED_HOSTS`` (also from the environment variable of that name,
  comma-separated) refuses any other ``Host`` with 400.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, current_app, request
from werkzeug.exceptions import BadRequest, NotFound, RequestEntityTooLarge, SecurityError

from scorekeeper.i18n import _, decimal1

DEFAULT_MAX_CONTENT_LENGTH = 2 * 1024 * 1024
MAX_JSON_DEPTH = 32

# -- numbers ----------------------------------------------------------------------------

_WHOLE = re.compile(r"[+-]?[0-9]{1,9}")


def whole_number(text: str | None) -> int | None:
    """``text`` as a whole number when it is one written plainly (ASCII digits, at most
    nine, an optional sign), else ``None``. Never raises, whatever the text."""
    if text is None:
        return None
    text = text.strip()
    return int(text) if _WHOLE.fullmatch(text) else None


# -- local paths ------------------------------------------------------------------------

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def local_path(target: str | None) -> str | None:
    """``target`` if it is a path on this site that may go into a ``Location`` header,
    else ``None``: no other host (``//host``, ``https:``, ``\\``), no control characters
    (a line break in a header is an error, and a header injection elsewhere)."""
    if not target or not target.startswith("/") or target.startswith("//"):
        return None
    if "\\" in target or _CONTROL.search(target):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return None
    return target


# -- the script root --------------------------------------------------------------------

# Path segments as RFC 3986 allows them (percent-escapes included), none empty or dots.
_SEGMENT = r"/(?!\.{1,2}(?:/|$))[A-Za-z0-9._~!$&'()*+,;=:@%-]+"
_SCRIPT_ROOT = re.compile(rf"(?:{_SEGMENT})*/?")


def plain_script_root(root: str) -> bool:
    """Whether ``root`` (the request's ``SCRIPT_NAME``) is empty or a plain path such as
    ``/scores`` (or ``/scores/``): never ``//host``, a scheme, a backslash, a space or a
    control character, which would turn every link of a page into a link elsewhere."""
    return _SCRIPT_ROOT.fullmatch(root) is not None


def _check_request() -> None:
    """First thing for every request: refuse what would poison links or parsing."""
    # An untrusted Host (TRUSTED_HOSTS) fails Flask's routing, which happens only after
    # the other hooks; stop here, before any of them builds a URL without a host.
    if isinstance(request.routing_exception, SecurityError):
        raise request.routing_exception
    if not plain_script_root(request.script_root):
        raise BadRequest(_("This address can't be served: its path prefix is not a plain path."))
    if "\x00" in request.path:
        # No page, game, circle or seat has a NUL in its address (PostgreSQL refuses one
        # in any text it is asked to look up).
        raise NotFound()
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if (
        limit is not None
        and not request.environ.get("CONTENT_LENGTH")
        and request.environ.get("wsgi.input_terminated")
        and request.method not in ("GET", "HEAD", "OPTIONS")
        and len(request.get_data(cache=True)) >= limit
    ):
        # A body sent without its length (chunked) is cut off at the limit without a
        # word (Werkzeug reads no further): refuse it rather than read a part of it.
        raise RequestEntityTooLarge()
    if request.is_json and request.method not in ("GET", "HEAD"):
        try:
            check_json_depth(request.get_data(cache=True))
        except TooDeep as exc:
            raise BadRequest(_("The body is not valid JSON: %(error)s.", error=str(exc))) from None


# -- JSON nesting -----------------------------------------------------------------------


class TooDeep(ValueError):
    """JSON nested deeper than :data:`MAX_JSON_DEPTH`."""


_ALL_BUT_BRACKETS = bytes(range(256)).translate(None, b"[]{}")
_ONE_KIND = bytes.maketrans(b"{}", b"[]")


def check_json_depth(text: str | bytes, most: int = MAX_JSON_DEPTH) -> None:
    """Refuse JSON nested more than ``most`` levels deep, before it is parsed.

    Valid JSON within the bound always passes; for invalid JSON that passes, the parser
    says what is wrong without recursing deeper than ``most``. Linear in the length.

    :raises TooDeep: with the reason in the reader's words (a :class:`ValueError`).
    """
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if data.count(b"[") + data.count(b"{") <= most:
        return  # the common case: too few brackets to be deeper, in strings or not
    # Brackets inside strings don't count: drop escaped backslashes and quotes, then
    # every string (the text between two quotes).
    data = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    data = b"".join(data.split(b'"')[::2])
    brackets = data.translate(_ONE_KIND, _ALL_BUT_BRACKETS)
    # Each pass drops the innermost pairs, so a balanced text is gone after as many passes
    # as it is deep.
    for _pass in range(most):
        if not brackets:
            return
        inner = brackets.replace(b"[]", b"")
        if len(inner) == len(brackets):
            break
        brackets = inner
    if b"[]" in brackets or brackets.count(b"[") > most:
        raise TooDeep(_("nested more than %(most)s levels deep", most=most))


# A JSON escape of half a character pair (a UTF-16 surrogate): one of a pair is fine, a
# lone one is text no page, file or database can hold.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class NotText(ValueError):
    """JSON sent as bytes that are not UTF-8 text (JSON sent is UTF-8: RFC 8259)."""


def load_json(text: str | bytes, **options: Any) -> Any:
    """JSON a client sent: UTF-8 text, nested at most ``MAX_JSON_DEPTH`` levels (checked
    before it is parsed), and all of it text that can be stored and shown: no lone
    surrogate, which ``json`` reads from an escape such as ``\\ud800`` (and from bytes in
    UTF-16, or UTF-8 bytes of one, were they parsed as bytes) and which no UTF-8 page, file
    or database column takes: such a name or reason would break every page showing it.
    ``options`` go to :func:`json.loads`.

    :raises ValueError: saying what is wrong (:class:`TooDeep` for the nesting,
        :class:`NotText` for bytes that are not UTF-8).
    """
    if isinstance(text, bytes):
        try:
            # Strict: the UTF-8 bytes of a surrogate are refused, and so is UTF-16.
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise NotText(_("it is not UTF-8 text")) from None
    check_json_depth(text)
    data = json.loads(text, **options)
    try:
        text.encode("utf-8")
        escaped = _SURROGATE_ESCAPE.search(text) is not None
    except UnicodeEncodeError:  # a str given with a lone surrogate in it
        escaped = True
    if escaped:
        try:
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError(
                _("it holds half of a character (a lone surrogate, such as \\ud800)")
            ) from None
    return data


# -- sizes ------------------------------------------------------------------------------


def size_text(size: int) -> str:
    """A size in the reader's words: "2 MB", "1.5 MB", "500 KB"."""
    if size >= 1024 * 1024:
        value, unit = size / (1024 * 1024), "MB"
    else:
        value, unit = size / 1024, "KB"
    number = str(int(value)) if value.is_integer() else decimal1(value)
    return f"{number}\N{NO-BREAK SPACE}{unit}"


def body_limit_text() -> str:
    """The largest request body this server takes, in words ("2 MB")."""
    return size_text(int(current_app.config["MAX_CONTENT_LENGTH"]))


def too_large_message() -> str:
    """Why a request was refused with 413, in the reader's words."""
    return _(
        "What you sent is larger than %(limit)s, the most this server takes at once. "
        "Nothing was stored.",
        limit=body_limit_text(),
    )


def init_app(app: Flask) -> None:
    """Set the size limits (unless configured) and check every request first.

    Call it before anything else registers a ``before_request`` hook: the checks must run
    before any hook builds a URL or reads the body.
    """
    if app.config.get("MAX_CONTENT_LENGTH") is None:
        app.config["MAX_CONTENT_LENGTH"] = DEFAULT_MAX_CONTENT_LENGTH
    if app.config.get("MAX_FORM_MEMORY_SIZE") in (None, 500_000):
        # Flask's default (500 kB per field) would refuse a smaller body with a message
        # naming the larger limit: one limit for both.
        app.config["MAX_FORM_MEMORY_SIZE"] = app.config["MAX_CONTENT_LENGTH"]
    if hosts := os.environ.get("TRUSTED_HOSTS"):
        app.config["TRUSTED_HOSTS"] = [h.strip() for h in hosts.split(",") if h.strip()]
    app.before_request(_check_request)
