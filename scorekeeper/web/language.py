"""The language switch: remember the reader's choice in a cookie and go back."""

from urllib.parse import urlsplit

from flask import abort, redirect, request, url_for
from werkzeug.wrappers import Response

from scorekeeper import i18n
from scorekeeper.web import bp


def _local(target: str | None) -> str | None:
    """``target`` if it is a path on this site, else ``None`` (no open redirect)."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return None
    return target


@bp.route("/lang/<code>", methods=["GET", "POST"])
def set_language(code: str) -> Response:
    """Switch the pages to ``code`` ("en" or "de") and return to where the reader was."""
    if code not in i18n.LANGUAGES:
        abort(404)
    target = _local(request.values.get("next")) or url_for("web.home")
    response = redirect(target, code=303)
    response.set_cookie(
        i18n.COOKIE,
        code,
        max_age=i18n.COOKIE_MAX_AGE,
        secure=request.is_secure,
        httponly=True,
        samesite="Lax",
    )
    return response
