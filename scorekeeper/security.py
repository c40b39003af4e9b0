"""Response headers and cookie settings that every page gets.

Capability links carry secrets in their path, so no page may send a Referer, be framed
or run a script that did not come from our own static files.
"""

from __future__ import annotations

import os

from flask import Flask, Response, has_request_context, request
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import URLSafeTimedSerializer
from werkzeug.middleware.proxy_fix import ProxyFix

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        # Inline *styles* stay allowed: htmx injects its indicator style and SVG charts
        # carry their own; no inline script is ever allowed.
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}


_SIGNER = "scorekeeper.session_signer"


class _SessionInterface(SecureCookieSessionInterface):
    """The session cookie is ``Secure`` whenever the request came over HTTPS (also behind
    a reverse proxy that says so), so plain-HTTP use on a home network still works."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or (
            has_request_context() and request.is_secure
        )

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        # Flask builds the signer anew for every request; it only changes with the keys.
        keys = (app.secret_key, app.config.get("SECRET_KEY_FALLBACKS"))
        kept = app.extensions.get(_SIGNER)
        if kept is None or kept[0] != keys:
            kept = app.extensions[_SIGNER] = (keys, super().get_signing_serializer(app))
        signer: URLSafeTimedSerializer | None = kept[1]
        return signer


# Headers that only mean something for what a browser shows as a page (or runs as a
# worker). Scripts, style sheets and images from static/, and the fragments htmx swaps
# into a page, live under the page's own policy: sent with them, these headers would
# only cost every tap's answer half a kilobyte on a slow network.
DOCUMENT_ONLY = {
    "content-security-policy",
    "x-frame-options",
    "cross-origin-opener-policy",
    "permissions-policy",
}
_LOWER = [(name.lower(), name, value) for name, value in HEADERS.items()]
_SUBRESOURCES = {"text/css", "text/javascript", "application/javascript", "image/png"}


def _is_document(response: Response) -> bool:
    """Whether a browser may show this answer as a page or run it as a worker."""
    if response.mimetype == "image/svg+xml" or request.endpoint == "web.service_worker":
        return True
    if request.endpoint == "static" or response.mimetype in _SUBRESOURCES:
        return False
    return not (
        request.headers.get("HX-Request") == "true"
        and request.headers.get("HX-History-Restore-Request") != "true"
    )


def _add_headers(response: Response) -> Response:
    # (Runs on every answer: one pass over the headers rather than a lookup per name.)
    present = {name.lower() for name in response.headers.keys()}  # noqa: SIM118
    document = _is_document(response)
    for lower, name, value in _LOWER:
        if lower not in present and (document or lower not in DOCUMENT_ONLY):
            response.headers.add(name, value)
    return response


def add_vary(response: Response, *names: str) -> None:
    """Add ``names`` to the answer's ``Vary`` header (once each)."""
    current = response.headers.get("Vary")
    if not current:
        response.headers["Vary"] = ", ".join(names)
        return
    have = {part.strip().lower() for part in current.split(",")}
    missing = [name for name in names if name.lower() not in have]
    if missing:
        response.headers["Vary"] = ", ".join([current, *missing])


def init_app(app: Flask) -> None:
    """Install the headers, cookie flags and (when configured) the proxy fix."""
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["SESSION_COOKIE_SAMESITE"] = app.config.get("SESSION_COOKIE_SAMESITE") or "Lax"
    app.session_interface = _SessionInterface()
    app.after_request(_add_headers)
    # Behind a reverse proxy, trust this many hops of X-Forwarded-* (see README: deploy).
    hops = int(app.config.get("PROXY_HOPS") or os.environ.get("PROXY_HOPS") or 0)
    if hops:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_prefix=hops
        )
