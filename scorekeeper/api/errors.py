"""Every API error is JSON: ``{"error": {"code", "message"}}`` (a 409 adds the current game).

The blueprint's handlers cover what its views raise. Routing errors (an unknown path or
a method a path doesn't take) happen before Flask knows the blueprint, so a hook turns
those into JSON too for every path under ``/api/``, leaving the pages' HTML errors alone.
"""

from __future__ import annotations

from flask import Response, g, jsonify, request
from werkzeug.exceptions import HTTPException, default_exceptions
from werkzeug.routing import RequestRedirect

from scorekeeper import limits
from scorekeeper.api import bp
from scorekeeper.api.payloads import etag, game_json
from scorekeeper.extensions import db
from scorekeeper.i18n import _, _l
from scorekeeper.services import games as game_service
from scorekeeper.services.errors import Conflict, NotFound, Rejected

# Stable codes for the HTTP-level errors; rule errors bring their own code.
HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    415: "unsupported_media_type",
    500: "server_error",
}
# Werkzeug's own descriptions are English: the ones a client can meet, in its language.
HTTP_MESSAGES = {
    400: _l("The request is malformed."),
    403: _l("This is not allowed."),
    413: _l("The request is too large."),
    415: _l("Send the body as JSON, with Content-Type: application/json."),
}


def error_response(status: int, code: str, message: str, **extra: object) -> Response:
    """A JSON error answer with ``status``."""
    response = jsonify({"error": {"code": code, "message": message}, **extra})
    response.status_code = status
    return response


@bp.before_app_request
def json_routing_errors() -> Response | None:
    """404 and 405 under ``/api/`` answer in JSON, not with the pages' HTML."""
    exc = request.routing_exception
    if exc is None or isinstance(exc, RequestRedirect) or not request.path.startswith("/api/"):
        return None
    return http_error(exc)


def http_error(exc: HTTPException) -> Response:
    """HTTP errors (400, 401, 403, 404, 405, 415, 500 …) as JSON, keeping their headers
    (``Allow`` of a 405, ``WWW-Authenticate`` of a 401)."""
    status = exc.code or 500
    if status >= 500:
        db.session.rollback()
        message = _("Something went wrong on the server; nothing was changed.")
    elif status == 404 and not _described(exc):
        message = _("There is nothing at this address.")
    elif status == 413:
        message = _(
            "The request body is larger than %(limit)s, the most this server takes.",
            limit=limits.body_limit_text(),
        )
    elif status == 405:
        allowed = ", ".join(getattr(exc, "valid_methods", None) or [])
        message = _(
            "%(method)s is not allowed here; allowed: %(allowed)s.",
            method=request.method,
            allowed=allowed,
        )
    elif _described(exc):
        message = str(exc.description)
    else:
        message = str(HTTP_MESSAGES.get(status, exc.description or exc.name))
    response = error_response(status, HTTP_CODES.get(status, f"http_{status}"), message)
    for name, value in exc.get_headers():
        if name.lower() != "content-type":
            response.headers[name] = value
    return response


# Flask looks for a handler by status code first, app-wide included, before it looks by
# exception class: the pages' handlers for 403, 404, 500 … would answer in HTML unless
# the blueprint names every code itself.
bp.register_error_handler(HTTPException, http_error)
for _code in default_exceptions:
    bp.register_error_handler(_code, http_error)


def _described(exc: HTTPException) -> bool:
    return exc.description != type(exc).description


@bp.errorhandler(NotFound)
def not_found(exc: NotFound) -> Response:
    """An unknown game or round."""
    db.session.rollback()
    return error_response(404, "not_found", exc.message)


@bp.errorhandler(Conflict)
def conflict(exc: Conflict) -> Response:
    """The game changed since the client loaded it: answer with the current game."""
    db.session.rollback()
    public_id = g.get("game_id")
    if public_id is None:
        return error_response(exc.status, exc.code, exc.message)
    game = game_service.get_game(public_id)
    response = error_response(exc.status, exc.code, exc.message, game=game_json(game))
    response.headers["ETag"] = etag(game)
    return response


@bp.errorhandler(Rejected)
def rejected(exc: Rejected) -> Response:
    """A rule broken (forbidden bid, tricks not adding up, …): nothing was stored."""
    db.session.rollback()
    response = error_response(exc.status, exc.code, exc.message)
    if exc.retry_after is not None:
        response.headers["Retry-After"] = str(exc.retry_after)
    return response


@bp.after_request
def no_store(response: Response) -> Response:
    """Answers carry live scores (and once, the scorer token): no cache, shared or
    private, may keep them."""
    response.headers.setdefault("Cache-Control", "private, no-store")
    return response
