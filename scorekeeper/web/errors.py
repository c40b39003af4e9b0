"""Friendly error pages for the whole app."""

from flask import Response, render_template, request
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import BadRequest, HTTPException, SecurityError

from scorekeeper import limits
from scorekeeper.extensions import db
from scorekeeper.i18n import _
from scorekeeper.services.errors import NotFound
from scorekeeper.web import bp
from scorekeeper.web.access import is_htmx


def _error(status: int, title: str, detail: str | None = None) -> tuple[str, int]:
    """The error page, or for htmx a notice that takes the place of the widget."""
    if is_htmx():
        target = request.headers.get("HX-Target") or "notice"
        html = render_template("_notice.html", target=target, title=title, detail=detail)
        return html, status
    return render_template("error.html", status=status, title=title, detail=detail), status


@bp.app_errorhandler(404)
def not_found(error: HTTPException | NotFound) -> tuple[str, int]:
    """Say the page does not exist and offer the way home."""
    return _error(404, _("Page not found"))


@bp.app_errorhandler(NotFound)
def nothing_there(error: NotFound) -> tuple[str, int]:
    """What a service did not find (a game, round, table, seat, circle or player) is the
    same page, with whatever the request had begun undone. (The API answers its own in
    JSON: see ``api/errors.py``.)"""
    db.session.rollback()
    return not_found(error)


@bp.app_errorhandler(403)
def forbidden(error: HTTPException) -> tuple[str, int]:
    """A change asked for by a browser that only follows the game."""
    return _error(
        403,
        _("You are following this game"),
        _(
            "Only the scorer can change it. To keep score on this phone, open the scorer "
            "link (the scorer finds it under “Share scoring”)."
        ),
    )


@bp.app_errorhandler(400)
def bad_request(error: HTTPException) -> tuple[str, int] | Response:
    """A request the page can't take as it was sent (an odd Idempotency-Key, a choice no
    form offers): said in words where the person is looking (for htmx, in the widget's
    place), with the app's own reason when it gave one."""
    db.session.rollback()
    reason = error.description if error.description != BadRequest.description else None
    if not limits.plain_script_root(request.script_root):
        # A path prefix that is no plain path (limits.py refused it): every link the page
        # would build points elsewhere, so the answer is plain text, as for a bad Host.
        return Response((reason or "") + "\n", status=400, mimetype="text/plain")
    return _error(
        400,
        _("That could not be done"),
        reason or _("Nothing was changed. Reload the page and try again."),
    )


@bp.app_errorhandler(CSRFError)
def csrf_failed(error: CSRFError) -> tuple[str, int]:
    """A form without a valid CSRF token: stale page, or sent from elsewhere."""
    return _error(
        400,
        _("This page has expired"),
        _("Nothing was changed. Reload the page and try again."),
    )


def too_large(error: HTTPException) -> ResponseReturnValue:
    """A body over the size limit (refused before it was read), with the limit in words
    (the app sends the API's own 413 to the API: see ``scorekeeper.create_app``)."""
    db.session.rollback()
    if request.endpoint == "web.history_upload" and request.view_args:
        # The import page again, where the person is looking, with the limit in words.
        from scorekeeper.web.access import holds_circle, load_circle

        circle_id = str(request.view_args.get("circle_id", ""))
        if holds_circle(circle_id):
            html = render_template(
                "history/transfer.html",
                circle=load_circle(circle_id),
                error=_(
                    "The file is larger than %(limit)s, the most this server takes. Export "
                    "fewer games at a time, or ask the server's owner to import it.",
                    limit=limits.body_limit_text(),
                ),
            )
            return html, 413
    return _error(413, _("Too large"), limits.too_large_message())


@bp.app_errorhandler(SecurityError)
def untrusted_host(error: SecurityError) -> Response:
    """A Host the server is not configured for (TRUSTED_HOSTS): plain text, as no link to
    this server can be built for it."""
    text = _("This server does not answer to that address.")
    return Response(text + "\n", status=400, mimetype="text/plain")


@bp.app_errorhandler(500)
def internal_error(error: Exception) -> tuple[str, int]:
    """Roll back whatever the failed request left in the session, then apologise."""
    db.session.rollback()
    return _error(500, _("Something went wrong"))
