"""Logs never carry a secret: the secret part of every capability link is masked.

Scorer links (``/games/<id>/score/<token>``), seat and table links of digital play
(``/digital/<id>/s/<token>``, ``/digital/<id>/t/<token>``, polled every second) and circle
links (``/c/<id>/<key>``) are keys in their own right: whoever reads them in a log could
use them. :func:`mask` replaces that part with ``***``; gunicorn uses :class:`Logger` (set
in ``gunicorn.conf.py``) for its access and error logs, and :func:`init_app` puts the same
filter on the app's own logger (Flask logs the path of a request that failed).
"""

from __future__ import annotations

import functools
import logging
import re
from typing import Any
from urllib.parse import unquote

from flask import Flask
from gunicorn.glogging import Logger as GunicornLogger  # type: ignore[import-untyped]

MASK = "***"  # ASCII: log files and tools that read them need not know UTF-8
# A slash, raw or percent-encoded (a path given as ?next=… in a query string).
_SLASH = r"(?:/|%2[Ff])"
_PART = r"[^/%?#&\s\"']+"
_SECRET_CHAR = r"[^/?#&\s\"';,]"
_LINKS = re.compile(
    rf"(?P<head>{_SLASH}games{_SLASH}{_PART}{_SLASH}score{_SLASH}"
    rf"|{_SLASH}digital{_SLASH}{_PART}{_SLASH}[st]{_SLASH}"
    rf"|{_SLASH}c{_SLASH}{_PART}{_SLASH})"
    # The secret ends at the next slash, raw or encoded.
    rf"(?P<secret>(?:(?!%2[Ff]){_SECRET_CHAR})+)"
)
_SLASHES = re.compile(r"/{2,}")
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f]")
# Headers that carry a secret themselves, as gunicorn names their atoms: a request
# header ({authorization}i), the same in the WSGI environ ({http_authorization}e), and
# the cookie an answer sets ({set-cookie}o).
_SECRET_HEADERS = ("authorization", "cookie", "x-passphrase", "x-csrftoken")
_REQUEST_NAMES = "|".join(re.escape(name) for name in _SECRET_HEADERS)
_ENVIRON_NAMES = "|".join(re.escape(name.replace("-", "_")) for name in _SECRET_HEADERS)
_SECRET_ATOM = re.compile(
    rf"\{{(?:(?:{_REQUEST_NAMES})\}}i|http_(?:{_ENVIRON_NAMES})\}}e|set-cookie\}}o)"
)


def mask(text: str) -> str:
    """``text`` with the secret part of every scorer, seat, table and circle link masked.

    A link may be written otherwise and still work (``/games/g/scor%65/…``, doubled
    slashes, encoded twice in a ``next``): when the text, decoded and with its slashes
    single, still holds a secret, that form of it is what is logged, masked."""
    if "/" not in text and "%" not in text:
        return text
    masked = _LINKS.sub(_masked, text)
    plain = _plain(masked)
    if any(m.group("secret") != MASK for m in _LINKS.finditer(plain)):
        return _LINKS.sub(_masked, plain)
    return masked


def _masked(match: re.Match[str]) -> str:
    return match.group("head") + MASK


def _plain(text: str) -> str:
    """``text`` percent-decoded (a few times over: a path in a query string is encoded
    again) and with every run of slashes one slash, as the app's routing reads a path."""
    for _ in range(3):
        decoded = unquote(text)
        if decoded == text:
            break
        text = decoded
    # What decoding brought out that a log line must not hold (a newline would forge a
    # line of its own) goes back to its %XX.
    text = _UNPRINTABLE.sub(lambda m: f"%{ord(m.group()):02X}", text)
    return _SLASHES.sub("/", text)


class MaskSecrets(logging.Filter):
    """Mask the secrets in a log record's message (and its traceback) before any handler
    writes it."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = mask(message)
        if masked != message:
            record.msg, record.args = masked, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = mask(record.exc_text)
        return True


class Logger(GunicornLogger):
    """gunicorn's logger, masking secrets in every access and error log line."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            if not any(isinstance(f, MaskSecrets) for f in log.filters):
                log.addFilter(MaskSecrets())

    def atoms(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> Any:
        """Only the atoms the line's format writes, masked (gunicorn offers every header
        and environ value, some 60 a request: masking them all was a twentieth of a busy
        server's CPU, and those left out never reach a log handler, not even in the
        record's arguments). The whole line is masked again before it is written."""
        atoms = super().atoms(resp, req, environ, request_time)
        written = {}
        for name in _written(self.cfg.access_log_format):
            if name not in atoms:
                continue
            value = atoms[name]
            if _SECRET_ATOM.fullmatch(name):
                value = MASK
            elif isinstance(value, str):
                value = mask(value)
            written[name] = value
        return written


@functools.cache
def _written(line_format: str) -> tuple[str, ...]:
    """The atoms an access log format writes (``%(r)s`` → ``r``), as gunicorn looks them
    up (header and environ names in lower case)."""
    return tuple(
        name.lower() if name.startswith("{") else name
        for name in re.findall(r"%\(([^)]*)\)", line_format)
    )


def init_app(app: Flask) -> None:
    """Mask secrets in what the app itself logs (e.g. "Exception on /games/…/score/…")."""
    if not any(isinstance(f, MaskSecrets) for f in app.logger.filters):
        app.logger.addFilter(MaskSecrets())
