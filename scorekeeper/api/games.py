"""Games and rounds over JSON: thin views over the game services."""

from __future__ import annotations

from typing import Any

from flask import Response, g, jsonify, request, url_for
from werkzeug.datastructures import WWWAuthenticate
from werkzeug.exceptions import Forbidden, Unauthorized

from scorekeeper import ratelimit
from scorekeeper.api import bp
from scorekeeper.api.circles import token_circle
from scorekeeper.api.errors import error_response
from scorekeeper.api.payloads import (
    etag,
    expected_version,
    game_json,
    game_links,
    read_body,
    trump_text,
)
from scorekeeper.api.schemas import NewAdjustment, NewGame, NewRound, RoundChange
from scorekeeper.i18n import _
from scorekeeper.idempotency import idempotent
from scorekeeper.models import Game
from scorekeeper.services import games as game_service
from scorekeeper.services.errors import Conflict, NotFound

# OPTIONS is not part of the documented API; werkzeug answers it with a 405 then.
ROUTE = {"provide_automatic_options": False}


def _load(game_id: str) -> Game:
    game = game_service.get_game(game_id)
    g.game_id = game.public_id  # a 409 answers with the current game
    return game


def _scorer_game(game_id: str) -> Game:
    """The game, once the request carries its scorer token.

    :raises Unauthorized: without a bearer token (401).
    :raises Forbidden: with a token that isn't this game's (403).
    """
    game = _load(game_id)
    scheme, _space, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized(
            _("Changing a game needs its scorer token: Authorization: Bearer <scorer_token>."),
            www_authenticate=WWWAuthenticate("bearer", {"realm": "scorekeeper"}),
        )
    if not game_service.token_matches(game, token.strip()):
        raise Forbidden(
            _("This scorer token does not belong to this game: only its scorer can change it.")
        )
    return game


def _refuse(message: str, **_: object) -> Response:
    return error_response(422, "idempotency_key_reused", message)


# Writes take an optional Idempotency-Key: a retry gets the first answer, written once.
# A new game's key is scoped to the circle token it carries (checked first, so a bad token
# is a 401 even on a retry), or without one to the key itself; either way it has at least
# 16 characters.
new_game_write = idempotent(
    _refuse, authorize=lambda **_: token_circle(required=False), form=False, long_keys=True
)
# A game's writes check the game's version: they read without the write turn (SQLite).
game_write = idempotent(
    _refuse, authorize=lambda game_id, **_: _scorer_game(game_id), form=False, checked=True
)


def _check_version(game: Game, version: int | None) -> None:
    # Before the body's values are looked at: a stale client hears 409 first, not 422.
    if version is not None and version != game.version:
        raise Conflict(
            _(
                "The game is at version %(current)s, not %(sent)s: it changed since you loaded "
                "it. Here is the current state.",
                current=game.version,
                sent=version,
            ),
            "conflict",
        )


def _game_response(
    game: Game, status: int = 200, location: str | None = None, **extra: Any
) -> Response:
    response = jsonify({**game_json(game), **extra})
    response.status_code = status
    response.headers["ETag"] = etag(game)
    if location is not None:
        response.headers["Location"] = location
    return response


@bp.post("/games", **ROUTE)
@new_game_write
def create_game() -> Response:
    """Set up a game, in the circle of the circle token if one is sent; the answer carries
    the scorer token, shown only this once."""
    circle = token_circle(required=False)
    body = read_body(NewGame)
    rules = game_service.parse_rules(body.rules)
    ratelimit.spend("game")
    game, token = game_service.create_game(
        body.players,
        body.first_dealer,
        rules,
        circle_id=None if circle is None else circle.id,
    )
    g.game_id = game.public_id
    return _game_response(
        game,
        201,
        url_for("api.get_game", game_id=game.public_id),
        scorer_token=token,
        links=game_links(game, token),
    )


@bp.get("/games/<game_id>", **ROUTE)
def get_game(game_id: str) -> Response:
    """The whole game; bids not to be seen yet (V3, V4) are null."""
    return _game_response(_load(game_id))


@bp.post("/games/<game_id>/rounds", **ROUTE)
@game_write
def add_round(game_id: str) -> Response:
    """Record the next round: bids, and the tricks now or later (PUT)."""
    game = _scorer_game(game_id)
    body = read_body(NewRound)
    version = expected_version(body.version)
    _check_version(game, version)
    number = game_service.record_round(
        game, body.bids, body.tricks, trump_text(body.trump, body.trump_wizard), version=version
    )
    return _game_response(
        game, 201, url_for("api.get_round", game_id=game.public_id, number=number)
    )


@bp.get("/games/<game_id>/rounds/<int:number>", **ROUTE)
def get_round(game_id: str, number: int) -> Response:
    """One recorded round, masked as in the game."""
    rounds = game_json(_load(game_id))["rounds"]
    if not 1 <= number <= len(rounds):
        raise NotFound(_("Round %(number)s is not recorded.", number=number))
    return jsonify(rounds[number - 1])


@bp.put("/games/<game_id>/rounds/<int:number>", **ROUTE)
@game_write
def change_round(game_id: str, number: int) -> Response:
    """Correct a round (later rounds stay as played, P2) or add the open round's tricks."""
    game = _scorer_game(game_id)
    body = read_body(RoundChange)
    version = expected_version(body.version)
    _check_version(game, version)
    sent = body.model_fields_set
    changes: dict[str, object] = {k: getattr(body, k) for k in ("bids", "tricks") if k in sent}
    if "trump" in sent:
        changes["trump"] = trump_text(body.trump, body.trump_wizard)
    game_service.update_round(game, number, version=version, **changes)
    return _game_response(game)


@bp.delete("/games/<game_id>/rounds/<int:number>", **ROUTE)
@game_write
def delete_round(game_id: str, number: int) -> Response:
    """Remove the last round (the change log keeps it)."""
    game = _scorer_game(game_id)
    version = expected_version()
    _check_version(game, version)
    game_service.delete_last_round(game, number, version=version)
    return _game_response(game)


@bp.post("/games/<game_id>/rounds/<int:number>/adjustments", **ROUTE)
@game_write
def add_adjustment(game_id: str, number: int) -> Response:
    """A one-off bonus (points > 0) or penalty (< 0) for a player in a played round."""
    game = _scorer_game(game_id)
    body = read_body(NewAdjustment)
    version = expected_version(body.version)
    _check_version(game, version)
    game_service.add_adjustment(game, number, body.seat, body.points, body.reason, version=version)
    return _game_response(game, 201)


@bp.delete("/games/<game_id>/rounds/<int:number>/adjustments/<int:index>", **ROUTE)
@game_write
def remove_adjustment(game_id: str, number: int, index: int) -> Response:
    """Take back a round's bonus or penalty (by its place in the round's list, from 0)."""
    game = _scorer_game(game_id)
    version = expected_version()
    _check_version(game, version)
    game_service.remove_adjustment(game, number, index, version=version)
    return _game_response(game)
