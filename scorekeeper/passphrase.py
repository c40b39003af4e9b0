"""An optional instance passphrase for a private server.

With ``PASSPHRASE`` in ``instance/config.py`` (or ``SCOREKEEPER_PASSPHRASE`` in the
environment) every page asks for it once per browser (remembered in the signed session);
the JSON API takes it in an ``X-Passphrase`` header or from the session. ``/healthz``,
static files and the language switch stay open. Without a passphrase nothing changes.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    Flask,
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

from scorekeeper.i18n import _

bp = Blueprint("passphrase", __name__)
SESSION_KEY = "passphrase"
HEADER = "X-Passphrase"
OPEN_ENDPOINTS = {"static", "web.healthz", "web.favicon", "web.set_language", "passphrase.ask"}


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


def _guard() -> ResponseReturnValue | None:
    if not _configured() or request.endpoint in OPEN_ENDPOINTS or _unlocked():
        return None
    if request.path.startswith("/api/"):
        given = request.headers.get(HEADER)
        if given is not None and _matches(given):
            return None
        response = jsonify(
            {
                "error": {
                    "code": "passphrase_required",
                    "message": f"This server is private: send its passphrase in {HEADER}.",
                }
            }
        )
        response.status_code = 401
        return response
    if request.method in ("GET", "HEAD"):
        return redirect(url_for("passphrase.ask", next=request.full_path.rstrip("?")), 303)
    return _form(401, _("This server is private: enter its passphrase first."))


def _safe_next(target: str | None) -> str:
    # Only a path on this server: never a redirect elsewhere.
    if not target or not target.startswith("/") or target.startswith("//"):
        return url_for("web.home")
    parts = urlsplit(target)
    return target if not parts.scheme and not parts.netloc else url_for("web.home")


def _form(status: int, message: str | None = None) -> ResponseReturnValue:
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
    if _matches(request.form.get("passphrase", "")):
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
