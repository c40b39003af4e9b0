"""An optional instance passphrase for a private server.

With ``PASSPHRASE`` in ``instance/config.py`` (or ``SCOREKEEPER_PASSPHRASE`` in the
environment) every page asks for it once per browser (remembered in the signed session);
the JSON API takes it in an ``X-Passphrase`` header or from the session. ``/healthz``,
static files and the language switch stay open. Without a passphrase nothing changes.
Guesses are limited per client (``ratelimit.py``): after too many wrong ones, 429.
"""

from __future__ import annotations

import hashlib
import hmac
import os

from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue

from scorekeeper import limits, ratelimit
from scorekeeper.i18n import _

bp = Blueprint("passphrase", __name__)
SESSION_KEY = "passphrase"
HEADER = "X-Passphrase"
OPEN_ENDPOINTS = {"static", "web.healthz", "web.favicon", "web.set_language", "passphrase.ask"}
LIMIT_KIND = "passphrase"  # the rate limit's name for guesses at the server's passphrase


def _configured() -> str:
    return str(current_app.config.get("PASSPHRASE") or "")


def _proof(passphrase: str) -> str:
    # The session keeps a keyed digest, not the passphrase: a new passphrase (or secret
    # key) makes every browser ask again.
    key = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(key, passphrase.encode(), hashlib.sha256).hexdigest()


def _matches(given: str) -> bool:
    return hmac.compare_digest(given.encode(), _configured().encode())


def _unlocked() -> bool:
    proof = session.get(SESSION_KEY)
    return isinstance(proof, str) and hmac.compare_digest(proof, _proof(_configured()))


def circles_only() -> bool:
    """With ``CIRCLES = "passphrase"`` the passphrase keeps only the making of circles to
    the server's people; every link (a circle's, a game's) opens for whoever holds it."""
    policy = current_app.config.get("CIRCLES") or os.environ.get("CIRCLES") or "anyone"
    return policy == "passphrase"


def _guard() -> ResponseReturnValue | None:
    if not _configured() or request.endpoint in OPEN_ENDPOINTS or _unlocked():
        return None
    if circles_only():
        return None
    if request.path.startswith("/api/"):
        given = request.headers.get(HEADER)
        if given is not None:
            guess = ratelimit.take_guess(LIMIT_KIND, ratelimit.client_address())
            if guess.wait:
                message = ratelimit.wait_message(guess.wait)
                return ratelimit.refused(_api_error(429, "too_many_attempts", message), guess.wait)
            if _matches(given):
                ratelimit.was_right(guess)
                return None
        return _api_error(
            401,
            "passphrase_required",
            _("This server is private: send its passphrase in %(header)s.", header=HEADER),
        )
    if request.method in ("GET", "HEAD"):
        return redirect(url_for("passphrase.ask", next=request.full_path.rstrip("?")), 303)
    return _form(401, _("This server is private: enter its passphrase first."))


def _api_error(status: int, code: str, message: str) -> Response:
    response = jsonify({"error": {"code": code, "message": message}})
    response.status_code = status
    return response


def _safe_next(target: str | None) -> str:
    # Only a path on this server that a Location header can carry: never elsewhere.
    return limits.local_path(target) or url_for("web.home")


def _form(status: int, message: str | None = None) -> Response:
    body = render_template(
        "passphrase.html", message=message, next=_safe_next(request.values.get("next"))
    )
    return make_response(body, status)


@bp.route("/passphrase", methods=["GET", "POST"])
def ask() -> ResponseReturnValue:
    """The passphrase form; the right passphrase unlocks this browser."""
    if not _configured():
        return redirect(url_for("web.home"), 303)
    if request.method == "GET":
        return _form(200)
    guess = ratelimit.take_guess(LIMIT_KIND, ratelimit.client_address())
    if guess.wait:
        return ratelimit.refused(_form(429, ratelimit.wait_message(guess.wait)), guess.wait)
    if _matches(request.form.get("passphrase", "")):
        ratelimit.was_right(guess)
        session[SESSION_KEY] = _proof(_configured())
        session.permanent = True
        return redirect(_safe_next(request.form.get("next")), 303)
    return _form(403, _("That is not this server's passphrase."))


def init_app(app: Flask) -> None:
    """Read the passphrase (the environment wins) and guard every request."""
    if env := os.environ.get("SCOREKEEPER_PASSPHRASE"):
        app.config["PASSPHRASE"] = env
    app.register_blueprint(bp)
    app.before_request(_guard)


def unlocked_here() -> bool:
    """Whether this browser gave the server's passphrase (for making circles on a server
    that keeps that to its people); ``False`` when no passphrase is configured."""
    return bool(_configured()) and _unlocked()
