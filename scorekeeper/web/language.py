"""The language switch: remember the reader's choice in a cookie and go back."""

from flask import abort, redirect, request, url_for
from werkzeug.wrappers import Response

from scorekeeper import i18n, limits
from scorekeeper.web import bp


@bp.route("/lang/<code>", methods=["GET", "POST"])
def set_language(code: str) -> Response:
    """Switch the pages to ``code`` ("en" or "de") and return to where the reader was."""
    if code not in i18n.LANGUAGES:
        abort(404)
    # Only a path on this site (no open redirect, nothing a header can't carry).
    target = limits.local_path(request.values.get("next")) or url_for("web.home")
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
