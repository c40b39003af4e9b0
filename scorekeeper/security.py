"""Response headers and cookie settings that every page gets.

Capability links carry secrets in their path, so no page may send a Referer, be framed
or run a script that did not come from our own static files.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from flask import Flask, Response, current_app, has_request_context, request, session
from flask.sessions import SecureCookieSessionInterface
from flask_wtf.csrf import generate_csrf
from itsdangerous import URLSafeTimedSerializer
from werkzeug.middleware.proxy_fix import ProxyFix

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

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


def csrf_token() -> str:
    """The forms' CSRF token (Flask-WTF's, signed). The secret it stands for, kept in the
    session, is 128 random bits in 22 characters rather than Flask-WTF's 40 hex digits:
    the session cookie every request carries and every form's token are shorter by it."""
    name = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    if name not in session:
        session[name] = secrets.token_urlsafe(16)
    token: str = generate_csrf()
    return token


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


DEFAULT_TRUSTED_PROXIES = "127.0.0.1, ::1"
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_networks(setting: str) -> tuple[Network, ...]:
    """The proxies' addresses (or networks) of a ``TRUSTED_PROXIES`` setting,
    comma-separated.

    :raises ValueError: naming the setting, for an entry that is no address or network.
    """
    networks = []
    for entry in (part.strip() for part in setting.split(",")):
        try:
            networks.append(ipaddress.ip_network(entry))
        except ValueError:
            raise ValueError(
                f"TRUSTED_PROXIES: {entry!r} is not an IP address or network "
                "(comma-separated, e.g. 10.0.0.10, 10.0.1.0/24)"
            ) from None
    return tuple(networks)


def _peer_in(address: str | None, networks: Iterable[Network]) -> bool:
    try:
        peer = ipaddress.ip_address(address or "")
    except ValueError:
        return False
    if isinstance(peer, ipaddress.IPv6Address) and peer.ipv4_mapped is not None:
        peer = peer.ipv4_mapped  # an IPv4 peer on a socket bound to [::]
    return any(peer in network for network in networks)


class _FromTrustedProxies:
    """The proxy fix for requests whose peer is one of the trusted proxies; any other
    peer (a client that reached the app's port directly) is taken as it connected, its
    X-Forwarded-* headers ignored: else it could pick the address its passphrase guesses
    count against, and the scheme, host and prefix of every link it is shown."""

    def __init__(self, app: WSGIApplication, hops: int, networks: tuple[Network, ...]) -> None:
        self.direct = app
        self.proxied = ProxyFix(app, x_for=hops, x_proto=hops, x_host=hops, x_prefix=hops)
        self.networks = networks

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if _peer_in(environ.get("REMOTE_ADDR"), self.networks):
            return self.proxied(environ, start_response)
        return self.direct(environ, start_response)


def hsts_max_age(setting: object) -> int:
    """The seconds of an ``HSTS_MAX_AGE`` setting (0: no Strict-Transport-Security).

    :raises ValueError: naming the setting, for anything but a whole number of seconds.
    """
    text = str(setting).strip()
    if isinstance(setting, bool) or not text.isdigit():
        raise ValueError(
            f"HSTS_MAX_AGE: {setting!r} is not a whole number of seconds "
            "(e.g. 31536000 for a year; 0 or unset: off)"
        )
    return int(text)


def _strict_transport(max_age: int) -> Callable[[Response], Response]:
    value = f"max-age={max_age}"

    def add(response: Response) -> Response:
        # Only over HTTPS: a browser ignores it over plain HTTP (RFC 6797, 8.1).
        if request.is_secure:
            response.headers.setdefault("Strict-Transport-Security", value)
        return response

    return add


def init_app(app: Flask) -> None:
    """Install the headers, cookie flags and (when configured) HSTS and the proxy fix."""
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["SESSION_COOKIE_SAMESITE"] = app.config.get("SESSION_COOKIE_SAMESITE") or "Lax"
    app.session_interface = _SessionInterface()
    app.after_request(_add_headers)
    # Off unless set: a server at the table over plain HTTP, or whose proxy sends it.
    hsts = app.config.get("HSTS_MAX_AGE") or os.environ.get("HSTS_MAX_AGE") or 0
    if max_age := hsts_max_age(hsts):
        app.after_request(_strict_transport(max_age))
    # Behind a reverse proxy, trust this many hops of X-Forwarded-* from the proxy's own
    # addresses (see README: deploy).
    hops = int(app.config.get("PROXY_HOPS") or os.environ.get("PROXY_HOPS") or 0)
    if hops:
        proxies = (
            app.config.get("TRUSTED_PROXIES")
            or os.environ.get("TRUSTED_PROXIES")
            or DEFAULT_TRUSTED_PROXIES
        )
        if not isinstance(proxies, str):  # a list in instance/config.py
            proxies = ",".join(map(str, proxies))
        app.wsgi_app = _FromTrustedProxies(  # type: ignore[method-assign]
            app.wsgi_app, hops, trusted_networks(proxies)
        )
