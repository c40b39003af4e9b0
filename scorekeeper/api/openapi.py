"""The OpenAPI 3.1 document of the JSON API v1, served at ``GET /api/v1/openapi.json``.

Generated: the schemas from the pydantic models of ``schemas.py`` (the ones the views read
request bodies with), the operations from the table below. The schemas are JSON Schema
2020-12 and closed (``additionalProperties: false``): the tests check every answer they
get against them, and schemathesis every operation (``bench/schema.py``).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from flask import Response, current_app
from pydantic.json_schema import models_json_schema

from scorekeeper.api import bp, schemas
from scorekeeper.api.payloads import IF_MATCH
from scorekeeper.idempotency import ANONYMOUS_MIN
from scorekeeper.services.circle_api import MAX_ID, RECORDS
from scorekeeper.services.idempotency import KEY_MAX

Schema = dict[str, Any]

JSON = "application/json"
COMPONENTS = "#/components/schemas/"


def _ref(name: str) -> Schema:
    return {"$ref": COMPONENTS + name}


def _tidy(node: Any, answer: bool) -> Any:
    """pydantic's schema as the document writes it: no titles, no ``default: null`` where
    null is refused, every object's ``required`` written out (in an answer, every key)."""
    if isinstance(node, list):
        return [_tidy(item, answer) for item in node]
    if not isinstance(node, dict):
        return node
    if schemas.REF in node:
        return {"$ref": COMPONENTS + node[schemas.REF], "description": node["description"]}
    node = {k: _tidy(v, answer) for k, v in node.items() if k != "title"}
    if node.get("default", 0) is None and not _allows_null(node):
        del node["default"]
    if node.get("type") == "object" and "properties" in node:
        node["required"] = list(node["properties"]) if answer else node.get("required", [])
    return node


def _allows_null(node: Schema) -> bool:
    return (
        None in node.get("enum", ())
        or node.get("type") == "null"
        or any(branch.get("type") == "null" for branch in node.get("anyOf", ()))
    )


def _schemas() -> Schema:
    """Every body's schema, from the models."""
    _keys, generated = models_json_schema(
        [(model, "validation") for model in (*schemas.REQUESTS, *schemas.ANSWERS)],
        ref_template=COMPONENTS + "{model}",
    )
    requests = {model.__name__ for model in schemas.REQUESTS} | {"ScoringInput"}
    return {
        name: _tidy(schema, answer=name not in requests)
        for name, schema in generated["$defs"].items()
    }


def _error(description: str) -> Schema:
    return {"description": description, "content": {JSON: {"schema": _ref("Error")}}}


def _game_answer(description: str, schema: str = "Game", location: bool = False) -> Schema:
    headers: Schema = {"ETag": {"$ref": "#/components/headers/ETag"}}
    if location:
        headers["Location"] = {
            "description": "The new resource's address.",
            "schema": {"type": "string"},
        }
    return {
        "description": description,
        "headers": headers,
        "content": {JSON: {"schema": _ref(schema)}},
    }


def _body(schema: str) -> Schema:
    return {"required": True, "content": {JSON: {"schema": _ref(schema)}}}


_P = "#/components/parameters/"
_R = "#/components/responses/"
_SCORER: list[dict[str, list[str]]] = [{"scorerToken": []}]
_CIRCLE: list[dict[str, list[str]]] = [{"circleToken": []}]


def _circle_read(
    operation_id: str, summary: str, schema: str, description: str, **more: Schema
) -> Schema:
    """A read of the token's circle; ``more`` adds responses."""
    return {
        "operationId": operation_id,
        "summary": summary,
        "security": _CIRCLE,
        "responses": {
            "200": {"description": description, "content": {JSON: {"schema": _ref(schema)}}},
            "401": {"$ref": _R + "CircleUnauthorized"},
            **more,
        },
    }


def _write(
    operation_id: str,
    summary: str,
    status: str,
    answer: Schema,
    body: str | None = None,
    description: str | None = None,
) -> Schema:
    """A write to a game with its scorer token: its answer, and with ``body`` its body."""
    operation: Schema = {"operationId": operation_id, "summary": summary}
    if description is not None:
        operation["description"] = description
    operation["security"] = _SCORER
    operation["parameters"] = [{"$ref": _P + "If-Match"}, {"$ref": _P + "Idempotency-Key"}]
    responses: Schema = {status: answer, "400": {"$ref": _R + "BadRequest"}}
    if body is not None:
        operation["requestBody"] = _body(body)
        responses["415"] = {"$ref": _R + "UnsupportedMediaType"}
    operation["responses"] = _writes(responses)
    return operation


def _writes(responses: Schema) -> Schema:
    """The errors every write to a game can give."""
    return {
        **responses,
        "401": {"$ref": _R + "Unauthorized"},
        "403": {"$ref": _R + "Forbidden"},
        "404": {"$ref": _R + "NotFound"},
        "409": {"$ref": _R + "Conflict"},
        "422": {"$ref": _R + "Rejected"},
    }


def _key(least: int, who: str) -> Schema:
    return {
        "name": "Idempotency-Key",
        "in": "header",
        "required": False,
        "description": "A new random key (e.g. a UUID) per write. A retry with the same key "
        "and the same request gets the first answer again (`Idempotent-Replayed: true`) and "
        "writes nothing twice; the same key with another request is refused (422 "
        "`idempotency_key_reused`). A refused request keeps no key. Keys last 24 hours. " + who,
        "schema": {"type": "string", "pattern": f"^[!-~]{{{least},{KEY_MAX}}}$"},
    }


_ID = "$response.body#/id"
_GAME = {"game_id": _ID}
_FIRST = {"game_id": _ID, "number": "$response.body#/rounds/0/number"}
_OPEN = {"game_id": _ID, "number": "$response.body#/next_round/number"}
# Where a game's answer leads: its reads and writes, on its first round and on the round
# it waits for (recorded already when that round is open).
GAME_LINKS: dict[str, tuple[str, Schema]] = {
    "GetGame": ("getGame", _GAME),
    "AddRound": ("addRound", _GAME),
    "GetFirstRound": ("getRound", _FIRST),
    "CorrectFirstRound": ("changeRound", _FIRST),
    "CompleteOpenRound": ("changeRound", _OPEN),
    "DeleteOpenRound": ("deleteRound", _OPEN),
    "AdjustFirstRound": ("addAdjustment", _FIRST),
    "TakeBackFirstAdjustment": ("removeAdjustment", {**_FIRST, "index": "0"}),
}
# Everyone bids 0 in the first round (a list as long as the table: the totals, all 0).
_ZEROS = {"bids": "$response.body#/totals"}
_RECORD = "$response.body#/highest_final/0/"
LINKS: dict[tuple[str, str], dict[str, tuple[str, Schema]]] = {
    ("listGames", "200"): {"GetListedGame": ("getGame", {"game_id": "$response.body#/games/0/id"})},
    ("listPlayers", "200"): {
        "GetListedPlayer": ("getPlayer", {"player_id": "$response.body#/players/0/id"})
    },
    ("getPlayer", "200"): {
        "GetRival": ("getPlayer", {"player_id": "$response.body#/head_to_head/0/id"}),
        "GetBestGame": ("getGame", {"game_id": "$response.body#/best_game/id"}),
    },
    ("getRecords", "200"): {
        "GetRecordHolder": ("getPlayer", {"player_id": _RECORD + "player_id"}),
        "GetRecordGame": ("getGame", {"game_id": _RECORD + "game_id"}),
    },
}


def _with_links(paths: Schema) -> Schema:
    """Each answer with the operations its values lead to (OpenAPI links): every game's
    answer to the game's operations, the circle's lists to what they list."""
    for item in paths.values():
        for method, operation in item.items():
            if method == "parameters":
                continue
            for status, response in operation["responses"].items():
                if "$ref" in response:
                    continue
                schema = response.get("content", {}).get(JSON, {}).get("schema", {})
                links = LINKS.get((operation["operationId"], status), {})
                if schema.get("$ref") == COMPONENTS + "Game":
                    links = GAME_LINKS
                elif schema.get("$ref") == COMPONENTS + "CreatedGame":  # no round yet
                    links = {k: GAME_LINKS[k] for k in ("GetGame", "AddRound")}
                    links["BidFirstRound"] = ("addRound", _GAME)
                if links:
                    response["links"] = {
                        name: {"operationId": target, "parameters": parameters}
                        | ({"requestBody": _ZEROS} if name == "BidFirstRound" else {})
                        for name, (target, parameters) in links.items()
                    }
    return paths


@cache
def document() -> Schema:
    """The OpenAPI 3.1 document."""
    return {
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "info": {
            "title": "Scorekeeper API",
            "version": "1.0.0",
            "summary": "Keep score for the card game Wizard.",
            "description": (
                "Lists are in seat order (the order around the table); seats are 0-based. "
                "Rule tags (R16, V4, P2, …) refer to the project's RULES.md.\n\n"
                'Errors are JSON: `{"error": {"code", "message"}}`. 400: the body is '
                "not JSON, not an object, has unknown or missing keys or a value of the "
                "wrong JSON type, or a query parameter is out of range. 422: the values "
                "have the right types but break a rule (a forbidden bid, tricks not adding "
                "up, a round past the end, bad players or rules, a trump that doesn't fit "
                "the round). Integers are read as JSON Schema reads them: a whole number "
                "written `2.0` or `2e0` is 2, while `2.5` where an integer is due is the "
                "wrong type (400; 422 inside `rules`). "
                "409: the `version` or If-Match given is not the game's. "
                "Any path under /api/ answers 404 when unknown and 405 (with Allow) for "
                "a method it does not take (OPTIONS included); 500 if the server fails. "
                "After any error the stored game is unchanged.\n\n"
                "Bids: hidden bids (V3) are null until every bid of the round is in; "
                "secret bids (V4) are null until the round's tricks are recorded.\n\n"
                "Circles: a circle is a group's own games and players. Its games, players, "
                "statistics and records are listed only for its circle token "
                "(`circleToken`); a game set up with that token belongs to the circle. "
                "A game itself is read by its id and changed with its scorer token, as "
                "before, whatever its circle. Nothing lists games or players without a "
                "circle token."
            ),
        },
        "paths": _with_links(_paths()),
        "components": _components(),
    }


def _paths() -> Schema:
    """The operations."""
    return {
        "/api/v1/games": {
            "post": {
                "operationId": "createGame",
                "summary": "Set up a game",
                "description": "With a circle token the game belongs to that circle "
                "(its players are the circle's players of those names); without one it "
                "is a one-off game, in no circle and in no list. An `Authorization` "
                "header that is not a valid circle token is answered 401. A client "
                "(its network address) sets up at most so many games an hour (429 "
                "`too_many_games`, with `Retry-After`), and a circle holds at most so "
                "many games (413 `circle_full`).",
                "security": [{}, *_CIRCLE],
                "parameters": [{"$ref": _P + "NewGameKey"}],
                "requestBody": _body("NewGame"),
                "responses": {
                    "201": _game_answer(
                        "The game, with its scorer token.", "CreatedGame", location=True
                    ),
                    "400": {"$ref": _R + "BadRequest"},
                    "401": {"$ref": _R + "CircleUnauthorized"},
                    "413": {"$ref": _R + "CircleFull"},
                    "415": {"$ref": _R + "UnsupportedMediaType"},
                    "422": {"$ref": _R + "Rejected"},
                    "429": {"$ref": _R + "TooMany"},
                },
            },
            "get": {
                "operationId": "listGames",
                "summary": "List the circle's games, newest first",
                "description": "The games of the token's circle only. The token is "
                "checked before the query parameters.",
                "security": _CIRCLE,
                "parameters": [{"$ref": _P + "page"}, {"$ref": _P + "per_page"}],
                "responses": {
                    "200": {
                        "description": "One page of games.",
                        "content": {JSON: {"schema": _ref("GamePage")}},
                    },
                    "400": {"$ref": _R + "BadRequest"},
                    "401": {"$ref": _R + "CircleUnauthorized"},
                },
            },
        },
        "/api/v1/circle": {
            "get": _circle_read(
                "getCircle", "The token's circle", "Circle", "The circle, with links."
            ),
        },
        "/api/v1/circle/players": {
            "get": _circle_read(
                "listPlayers",
                "The circle's players",
                "PlayerList",
                "Every player of the circle with games, wins, exact-bid rate and rating.",
            ),
        },
        "/api/v1/circle/players/{player_id}": {
            "parameters": [{"$ref": _P + "player_id"}],
            "get": {
                **_circle_read(
                    "getPlayer",
                    "A player's statistics",
                    "PlayerStats",
                    "The player's statistics over the circle's games.",
                    **{"404": {"$ref": _R + "NoSuchPlayer"}},
                ),
                "description": "404 for an id that is not one of the token's circle's "
                "players, whether or not it is someone else's.",
            },
        },
        "/api/v1/circle/records": {
            "get": _circle_read(
                "getRecords",
                "The circle's records",
                "Records",
                f"Up to {RECORDS} of each record.",
            ),
        },
        "/api/v1/games/{game_id}": {
            "parameters": [{"$ref": _P + "game_id"}],
            "get": {
                "operationId": "getGame",
                "summary": "A whole game",
                "responses": {
                    "200": _game_answer("The game."),
                    "404": {"$ref": _R + "NotFound"},
                },
            },
        },
        "/api/v1/games/{game_id}/rounds": {
            "parameters": [{"$ref": _P + "game_id"}],
            "post": _write(
                "addRound",
                "Record the next round",
                "201",
                _game_answer("The game with the new round.", location=True),
                body="NewRound",
                description="Bids, and the tricks now or later (PUT). 422 "
                "`round_open` while the last round lacks its tricks, "
                "`game_over` after the last round of the plan.",
            ),
        },
        "/api/v1/games/{game_id}/rounds/{number}": {
            "parameters": [{"$ref": _P + "game_id"}, {"$ref": _P + "number"}],
            "get": {
                "operationId": "getRound",
                "summary": "One recorded round",
                "responses": {
                    "200": {
                        "description": "The round.",
                        "content": {JSON: {"schema": _ref("Round")}},
                    },
                    "404": {"$ref": _R + "NotFound"},
                },
            },
            "put": _write(
                "changeRound",
                "Correct a round, or add the open round's tricks",
                "200",
                _game_answer("The game after the change."),
                body="RoundChange",
            ),
            "delete": _write(
                "deleteRound",
                "Remove the last round",
                "200",
                _game_answer("The game without that round."),
                description="Only the last recorded round can be removed (422 "
                "`not_last_round` otherwise); the change log keeps it.",
            ),
        },
        "/api/v1/games/{game_id}/rounds/{number}/adjustments": {
            "parameters": [{"$ref": _P + "game_id"}, {"$ref": _P + "number"}],
            "post": _write(
                "addAdjustment",
                "Give a player a bonus or penalty in a played round",
                "201",
                _game_answer("The game with the bonus or penalty."),
                body="NewAdjustment",
                description="422 `round_open` for a round whose tricks are not in; "
                "`adjustment_seat`, `adjustment_points`, `adjustment_reason`, "
                "`adjustments_many` for what the rules refuse. Logged in the change log.",
            ),
        },
        "/api/v1/games/{game_id}/rounds/{number}/adjustments/{index}": {
            "parameters": [
                {"$ref": _P + "game_id"},
                {"$ref": _P + "number"},
                {"$ref": _P + "index"},
            ],
            "delete": _write(
                "removeAdjustment",
                "Take back a bonus or penalty",
                "200",
                _game_answer("The game without it."),
            ),
        },
        "/api/v1/openapi.json": {
            "get": {
                "operationId": "getOpenApi",
                "summary": "This document",
                "responses": {
                    "200": {
                        "description": "The OpenAPI 3.1 document.",
                        "content": {JSON: {"schema": {"type": "object"}}},
                    },
                },
            },
        },
    }


def _components() -> Schema:
    """The schemas, parameters, headers, answers and security schemes."""
    return {
        "schemas": _schemas(),
        "parameters": {
            "game_id": {
                "name": "game_id",
                "in": "path",
                "required": True,
                "schema": {"type": "string"},
            },
            "player_id": {
                "name": "player_id",
                "in": "path",
                "required": True,
                "description": "A player's `id`, from the circle's list of players.",
                "schema": {"type": "integer", "minimum": 1, "maximum": MAX_ID},
            },
            "number": {
                "name": "number",
                "in": "path",
                "required": True,
                "description": "The round number, from 1.",
                "schema": {"type": "integer", "minimum": 1},
            },
            "index": {
                "name": "index",
                "in": "path",
                "required": True,
                "description": "A bonus or penalty's place in the round's `adjustments`, from 0.",
                "schema": {"type": "integer", "minimum": 0},
            },
            "page": {
                "name": "page",
                "in": "query",
                "required": False,
                "schema": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 999_999_999,
                    "default": 1,
                },
            },
            "per_page": {
                "name": "per_page",
                "in": "query",
                "required": False,
                "schema": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": schemas.MAX_PER_PAGE,
                    "default": schemas.DEFAULT_PER_PAGE,
                },
            },
            "If-Match": {
                "name": "If-Match",
                "in": "header",
                "required": False,
                "description": 'The game\'s version as last seen (its ETag, like "7"); '
                "409 when the game has moved on. `*` matches any.",
                "schema": {"type": "string", "pattern": IF_MATCH.pattern},
            },
            "Idempotency-Key": _key(1, "Keys are per client: per token."),
            "NewGameKey": _key(
                ANONYMOUS_MIN,
                "Without a circle token the key is the client's only secret, so it has at "
                f"least {ANONYMOUS_MIN} characters, with a token too (else 400).",
            ),
        },
        "headers": {
            "ETag": {
                "description": "The game's version, quoted.",
                "schema": {"type": "string", "pattern": '^"[0-9]+"$'},
            },
        },
        "responses": {
            "BadRequest": _error(
                "Malformed JSON or a body of the wrong shape, or a bad query parameter or If-Match."
            ),
            "Unauthorized": {
                **_error("No scorer token: send Authorization: Bearer <scorer_token>."),
                "headers": {"WWW-Authenticate": {"schema": {"type": "string"}}},
            },
            "CircleUnauthorized": {
                **_error(
                    "No circle token, or one that is not a circle's current token (the "
                    "same answer whether or not a circle of that id exists; its "
                    '`WWW-Authenticate` says `error="invalid_token"`).'
                ),
                "headers": {"WWW-Authenticate": {"schema": {"type": "string"}}},
            },
            "NoSuchPlayer": _error("No player of this circle has this id."),
            "Forbidden": _error("The token is not this game's scorer token."),
            "NotFound": _error("No game (or no recorded round) at this address."),
            "Conflict": {
                "description": "The game changed since the client loaded it.",
                "headers": {"ETag": {"$ref": "#/components/headers/ETag"}},
                "content": {JSON: {"schema": _ref("ConflictError")}},
            },
            "UnsupportedMediaType": _error("The body is not sent as application/json."),
            "Rejected": _error("A rule is broken; nothing was stored."),
            "CircleFull": _error(
                "The circle holds the most games a circle keeps here (`circle_full`), or "
                "the body is larger than the server takes (`too_large`); nothing was "
                "stored."
            ),
            "TooMany": {
                **_error(
                    "This client set up too many games within the hour; nothing was "
                    "stored. `Retry-After` says in how many seconds it may again."
                ),
                "headers": {"Retry-After": {"schema": {"type": "string"}}},
            },
        },
        "securitySchemes": {
            "scorerToken": {
                "type": "http",
                "scheme": "bearer",
                "description": "The `scorer_token` returned when the game was set up. "
                "401 without it, 403 with another game's or a wrong one.",
            },
            "circleToken": {
                "type": "http",
                "scheme": "bearer",
                "description": "A circle's token, `<circle id>.<key>`, shown on the "
                "circle's page: it opens the circle's games, players and records. "
                "401 without it and with any token that is not a circle's current one "
                "(a new circle link makes the old token worthless).",
            },
        },
    }


@bp.get("/openapi.json", provide_automatic_options=False)
def openapi_json() -> Response:
    """This API described in OpenAPI 3.1."""
    return current_app.response_class(_served(), mimetype=JSON)


@cache
def _served() -> bytes:
    return json.dumps(document(), ensure_ascii=False, separators=(",", ":")).encode()
