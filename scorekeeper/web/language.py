"""The language and look switches: remember the reader's choice in a cookie and go back."""

from flask import abort, redirect, request, url_for
from werkzeug.wrappers import Response

from scorekeeper import i18n, limits
from scorekeeper.web import bp


@bp.route("/lang/<code>", methods=["GET", "POST"])
def set_language(code: str) -> Response:
    """Switch the pages to ``code`` (one of ``i18n.LANGUAGES``) and go back to where the
    reader was."""
    if code not in i18n.LANGUAGES:
        abort(404)
    return _remember(i18n.COOKIE, code)


def _remember(cookie: str, value: str) -> Response:
    """Keep ``value`` in ``cookie`` and go back to the page the reader came from."""
    # Only a path on this site (no open redirect, nothing a header can't carry).
    target = limits.local_path(request.values.get("next")) or url_for("web.home")
    response = redirect(target, code=303)
    response.set_cookie(
        cookie,
        value,
        max_age=i18n.COOKIE_MAX_AGE,
        secure=request.is_secure,
        httponly=True,
        samesite="Lax",
    )
    return response


# -- the look: the device's own (auto), ledger paper (light) or the card table (dark) -------

THEMES = ("auto", "light", "dark")
THEME_COOKIE = "theme"


def current_theme() -> str:
    """The theme this browser chose ("auto" until it chooses)."""
    chosen = request.cookies.get(THEME_COOKIE, "auto")
    return chosen if chosen in THEMES else "auto"


@bp.app_context_processor
def theme() -> dict[str, object]:
    return {"theme": current_theme(), "themes": THEMES}


@bp.route("/theme/<choice>", methods=["GET", "POST"])
def set_theme(choice: str) -> Response:
    """Remember the look this browser wants and return to where the reader was."""
    if choice not in THEMES:
        abort(404)
    return _remember(THEME_COOKIE, choice)
