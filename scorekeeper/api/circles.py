"""A circle over JSON: its games, players, statistics and records, for its circle token.

The token (``Authorization: Bearer <circle id>.<key>``, shown on the circle's page) is the
circle link's secret in another form: a new link makes the old token worthless. Without
a token the answer is 401; with any token that is not a circle's current one it is 401
too, with the same words whether or not a circle of that id exists.
"""

from __future__ import annotations

import re
from math import ceil

from flask import Response, jsonify, request, url_for
from werkzeug.datastructures import WWWAuthenticate
from werkzeug.exceptions import Unauthorized

from scorekeeper.api import bp
from scorekeeper.api.payloads import (
    circle_json,
    game_summary_json,
    page_args,
    player_line_json,
    player_stats_json,
    records_json,
)
from scorekeeper.i18n import _
from scorekeeper.models import Circle
from scorekeeper.services import circle_api, stats
from scorekeeper.services import circles as circle_service
from scorekeeper.services import games as game_service

REALM = "scorekeeper"
# The shape of ``services.circles.api_token``: anything else is refused before it
# reaches the database.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,32}\.[A-Za-z0-9_-]{1,100}")

# OPTIONS is not part of the documented API; werkzeug answers it with a 405 then.
ROUTE = {"provide_automatic_options": False}


def _bearer() -> str | None:
    """The request's bearer token: ``None`` without an ``Authorization`` header, ``""``
    for one that carries no bearer token."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _space, token = header.strip().partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def token_circle(required: bool = True) -> Circle | None:
    """The circle whose token the request carries; ``None`` when it carries no
    ``Authorization`` header and the token is not ``required``.

    :raises Unauthorized: without a bearer token where one is required, and for any token
        that is not a circle's current one (401).
    """
    token = _bearer()
    if token is None and not required:
        return None
    if not token and required:
        raise Unauthorized(
            _(
                "A circle's games and players need its circle token: Authorization: Bearer "
                "<circle token>, from the circle's page."
            ),
            www_authenticate=WWWAuthenticate("bearer", {"realm": REALM}),
        )
    circle = circle_service.from_token(token) if token and TOKEN_SHAPE.fullmatch(token) else None
    if circle is None:
        raise Unauthorized(
            _(
                "This is not a valid circle token: it may be mistyped, or the circle has a "
                "new link since. Copy the token from the circle's page again."
            ),
            www_authenticate=WWWAuthenticate("bearer", {"realm": REALM, "error": "invalid_token"}),
        )
    return circle


def _circle() -> Circle:
    circle = token_circle()
    assert circle is not None  # required: a missing token raised
    return circle


@bp.get("/games", **ROUTE)
def list_games() -> Response:
    """The circle's games, newest first, one page at a time."""
    circle = _circle()
    page, per_page = page_args()
    games, total = game_service.list_games(circle.id, page, per_page)
    pages = max(1, ceil(total / per_page))

    def link(number: int) -> str:
        return url_for("api.list_games", page=number, per_page=per_page)

    return jsonify(
        {
            "games": [game_summary_json(game) for game in games],
            "page": page,
            "per_page": per_page,
            "total": total,
            "pages": pages,
            "links": {
                "self": link(page),
                "first": link(1),
                "last": link(pages),
                "next": link(page + 1) if page < pages else None,
                "prev": link(min(page - 1, pages)) if page > 1 else None,
            },
        }
    )


@bp.get("/circle", **ROUTE)
def get_circle() -> Response:
    """The token's circle: its name, size and where to find its games and players."""
    circle = _circle()
    games, players = circle_api.counts(circle.id)
    return jsonify(circle_json(circle, games, players))


@bp.get("/circle/players", **ROUTE)
def list_players() -> Response:
    """The circle's players by name, with games, wins, exact-bid rate and rating."""
    circle = _circle()
    return jsonify({"players": [player_line_json(p) for p in stats.player_lines(circle.id)]})


@bp.get("/circle/players/<int:player_id>", **ROUTE)
def get_player(player_id: int) -> Response:
    """One of the circle's players with their statistics."""
    circle = _circle()
    player = circle_api.circle_player(player_id, circle.id)
    return jsonify(player_stats_json(stats.player_stats(player.id, circle.id)))


@bp.get("/circle/records", **ROUTE)
def get_records() -> Response:
    """The best of the circle's finished games."""
    circle = _circle()
    return jsonify(records_json(stats.records(circle.id, limit=circle_api.RECORDS)))
