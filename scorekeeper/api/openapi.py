"""The OpenAPI 3.1 document of the JSON API v1, served at ``GET /api/v1/openapi.json``.

The schemas are JSON Schema 2020-12 and closed (``additionalProperties: false``): the
tests check every answer they get against them, so the document and the API can't drift.
"""

from __future__ import annotations

import copy
from typing import Any

from flask import Response, jsonify

from scorekeeper.api import bp
from scorekeeper.api.payloads import DEFAULT_PER_PAGE, MAX_PER_PAGE, TRUMPS, WIZARD_TRUMPS
from scorekeeper.engine import (
    ADJUSTMENT_MAX,
    MAX_PLAYERS,
    MIN_PLAYERS,
    REASON_MAX,
    Bidding,
    DealerRule,
    Plan,
    SuitNames,
    TieBreak,
)
from scorekeeper.models import NAME_MAX
from scorekeeper.services.circle_api import MAX_ID, RECORDS

Schema = dict[str, Any]

JSON = "application/json"


def _ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def _closed(properties: Schema, required: list[str] | None = None, **more: Any) -> Schema:
    schema: Schema = {"type": "object", "properties": properties, "additionalProperties": False}
    schema["required"] = list(properties) if required is None else required
    schema.update(more)
    return schema


def _nullable(schema: Schema) -> Schema:
    return {"anyOf": [schema, {"type": "null"}]}


SEAT = {
    "type": "integer",
    "minimum": 0,
    "maximum": MAX_PLAYERS - 1,
    "description": "A seat: 0-based index into `players`.",
}
PER_SEAT_INT = {
    "type": "array",
    "items": {"type": "integer"},
    "description": "One number per player, in seat order.",
}
NAMES = {"type": "array", "items": {"type": "string"}}


def _rules_properties() -> Schema:
    return {
        "dealer_rule": {
            "enum": [r.value for r in DealerRule],
            "description": "V1 plus/minus one (the 'German rule'), V2 Canadian rule.",
            "default": DealerRule.NONE.value,
        },
        "dealer_rule_from_round": {
            "type": "integer",
            "minimum": 1,
            "maximum": 20,
            "default": 1,
            "description": "The round the dealer rule starts from (V1).",
        },
        "no_full_bid": {"type": "boolean", "default": False, "description": "V7."},
        "bidding": {
            "enum": [b.value for b in Bidding],
            "default": Bidding.OPEN.value,
            "description": "V3 hidden bids, V4 secret bids.",
        },
        "saboteur": {"type": "boolean", "default": False, "description": "V6 Wizard Saboteur."},
        "foresight": {"type": "boolean", "default": False, "description": "V5 foresight round."},
        "round_plan": {
            "enum": [p.value for p in Plan],
            "default": Plan.FULL.value,
            "description": "V8 short game, V9 unicoloured (3 or 4 players).",
        },
        "tie_break": {
            "enum": [t.value for t in TieBreak],
            "default": TieBreak.SHARED.value,
            "description": "R17.",
        },
        "scoring": {"$ref": "#/components/schemas/ScoringInput"},
        "suit_names": {
            "enum": [s.value for s in SuitNames],
            "default": SuitNames.COLOURS.value,
            "description": "R1, P3: display names only.",
        },
    }


_SCORING = {
    "exact_bonus": {"type": "integer", "minimum": 0, "maximum": 1000, "default": 20},
    "per_trick": {"type": "integer", "minimum": 0, "maximum": 1000, "default": 10},
    "per_miss": {"type": "integer", "minimum": 0, "maximum": 1000, "default": 10},
}

_TRUMP_OUT = {
    "enum": [*TRUMPS, None],
    "description": "The trump suit; `none` when a Jester was turned up (or in a round that "
    "deals every card); null when no trump was recorded. When a Wizard was "
    "turned up, this is the suit the dealer chose and `trump_wizard` is true.",
}

_TRUMP_IN = {
    "enum": [*TRUMPS, *WIZARD_TRUMPS, None],
    "description": "A suit, `none` (Jester turned), or the dealer's choice after a Wizard "
    "was turned: either `wizard:<suit>` or the suit with `trump_wizard: true`. "
    "null: not recorded (in the last round, and in a unicoloured game, `none` "
    "is recorded by itself when adding a round).",
}


_POINTS: Schema = {
    "type": "integer",
    "minimum": -ADJUSTMENT_MAX,
    "maximum": ADJUSTMENT_MAX,
    "not": {"const": 0},
    "description": "A bonus (> 0) or penalty (< 0), in the player's total from its round on.",
}
_REASON: Schema = {"type": "string", "maxLength": REASON_MAX}


def _round_body(required: list[str], description: str) -> Schema:
    return _closed(
        {
            "bids": {
                "type": "array",
                "items": {"type": ["integer", "null"], "minimum": 0},
                "description": "One bid per player in seat order. null: no bid — the dealer "
                "under Wizard Saboteur (V6), or a player who has not bid yet (a round without "
                "its tricks may be recorded with bids missing, as the pad takes them one at a "
                "time; every bid must be in before the tricks: `bids_missing`).",
            },
            "tricks": {
                "type": ["array", "null"],
                "items": {"type": "integer", "minimum": 0},
                "description": "Tricks taken, one per player in seat order, adding up to the "
                "round's cards. Left out (or null) when adding a round: only "
                "the bids are recorded. null when correcting the last round: "
                "its tricks are taken back.",
            },
            "trump": _TRUMP_IN,
            "trump_wizard": {
                "type": "boolean",
                "description": "true: a Wizard was turned up and the dealer chose `trump`.",
            },
            "version": {
                "type": "integer",
                "minimum": 1,
                "description": "Optimistic versioning: the game's `version` as the "
                "client last saw it (or send If-Match).",
            },
        },
        required=required,
        dependentRequired={"trump_wizard": ["trump"]},
        description=description,
    )


def _schemas() -> Schema:
    error_body = _closed(
        {
            "code": {
                "type": "string",
                "description": "Stable, for programs: `forbidden_bid`, "
                "`bids_equal_tricks`, `tricks_do_not_add_up`, "
                "`game_over`, `bad_rules`, …",
            },
            "message": {"type": "string", "description": "For people."},
        }
    )
    round_schema = _closed(
        {
            "number": {"type": "integer", "minimum": 1},
            "cards": {"type": "integer", "minimum": 1, "description": "Cards per player."},
            "dealer": SEAT,
            "trump": _TRUMP_OUT,
            "trump_wizard": {"type": "boolean"},
            "bids": {
                "type": "array",
                "items": {"type": ["integer", "null"], "minimum": 0},
                "description": "Seat order. null: no bid yet, no bid at all (the dealer under "
                "V6), or a bid that may not be seen yet (see `bids_hidden`).",
            },
            "bids_hidden": {
                "type": "boolean",
                "description": "Some bids are in but masked: hidden bids (V3) until every "
                "bid is in, secret bids (V4) until the round's tricks are.",
            },
            "tricks": _nullable(PER_SEAT_INT),
            "scores": _nullable(PER_SEAT_INT),
            "totals": _nullable({**PER_SEAT_INT, "description": "Running totals after the round."}),
            "complete": {
                "type": "boolean",
                "description": "The tricks are recorded; null lists until then.",
            },
            "flag": {
                "type": ["string", "null"],
                "description": "P2: after a correction before it, this round as played "
                "would now be refused; it is kept as it was.",
            },
            "adjustments": {
                "type": "array",
                "items": _ref("Adjustment"),
                "description": "Bonuses and penalties given in the round, in the order "
                "given (their points are in `totals`, not in `scores`).",
            },
        },
        description="A recorded round.",
    )
    game_properties: Schema = {
        "id": {"type": "string", "description": "The game's unguessable id."},
        "players": {**NAMES, "description": "Names in seat order."},
        "rules": _ref("Rules"),
        "first_dealer": SEAT,
        "round_plan": {
            "type": "array",
            "items": {"type": "integer", "minimum": 1},
            "description": "Cards per player in each round.",
        },
        "rounds": {"type": "array", "items": _ref("Round")},
        "totals": PER_SEAT_INT,
        "finished": {"type": "boolean"},
        "winners": {**NAMES, "description": "Empty until the last round is scored (R17)."},
        "next_round": _nullable(
            _closed(
                {
                    "number": {"type": "integer", "minimum": 1},
                    "cards": {"type": "integer", "minimum": 1},
                    "dealer": SEAT,
                    "bidding_order": {
                        "type": "array",
                        "items": SEAT,
                        "description": "Left of the dealer first (R6).",
                    },
                    "leader": {**SEAT, "description": "Leads the first trick."},
                    "open": {
                        "type": "boolean",
                        "description": "The round is recorded with its bids but not its "
                        "tricks yet: add them with PUT.",
                    },
                },
                description="The round to record next (or to complete); null once finished.",
            )
        ),
        "version": {
            "type": "integer",
            "minimum": 1,
            "description": "Goes up with every change; also the ETag.",
        },
        "created_at": {"type": "string", "format": "date-time"},
        "links": _closed(
            {
                "self": {"type": "string", "description": "This game in the API."},
                "view": {
                    "type": "string",
                    "format": "uri",
                    "description": "The game page, read-only: the link to share.",
                },
            }
        ),
    }
    created_properties = copy.deepcopy(game_properties)
    created_properties["scorer_token"] = {
        "type": "string",
        "description": "The secret that changes this game: send it as a bearer token. "
        "Shown only in this answer.",
    }
    created_properties["links"]["properties"]["scorer"] = {
        "type": "string",
        "format": "uri",
        "description": "The game page for the scorer (can change the game): it carries "
        "the token, so share it only with whoever keeps score.",
    }
    created_properties["links"]["required"].append("scorer")
    summary = _closed(
        {
            "id": {"type": "string"},
            "players": NAMES,
            "created_at": {"type": "string", "format": "date-time"},
            "rounds_played": {"type": "integer", "minimum": 0},
            "rounds_in_plan": {"type": "integer", "minimum": 1},
            "totals": PER_SEAT_INT,
            "finished": {"type": "boolean"},
            "winners": NAMES,
            "version": {"type": "integer", "minimum": 1},
            "links": _closed({"self": {"type": "string"}}),
        }
    )
    page_link = {"type": ["string", "null"]}
    return {
        **_circle_schemas(),
        "Error": _closed({"error": error_body}),
        "ConflictError": _closed(
            {"error": error_body, "game": _ref("Game")},
            description="409: the game changed since the client loaded it; `game` is the "
            "current state.",
        ),
        "Rules": _closed(
            {**_rules_properties(), "scoring": _ref("Scoring")}, description="The game's rule set."
        ),
        "RulesInput": _closed(
            _rules_properties(),
            required=[],
            description="Missing keys take the book's defaults. A value the enums or ranges "
            "don't allow, or an unknown option, is answered 422 `bad_rules`.",
        ),
        "Scoring": _closed(_SCORING, description="V10."),
        "ScoringInput": _closed(_SCORING, required=[], description="V10."),
        "Round": round_schema,
        "Game": _closed(game_properties),
        "CreatedGame": _closed(created_properties),
        "GameSummary": summary,
        "GamePage": _closed(
            {
                "games": {
                    "type": "array",
                    "items": _ref("GameSummary"),
                    "description": "Newest first.",
                },
                "page": {"type": "integer", "minimum": 1},
                "per_page": {"type": "integer", "minimum": 1, "maximum": MAX_PER_PAGE},
                "total": {"type": "integer", "minimum": 0, "description": "Games in all."},
                "pages": {"type": "integer", "minimum": 1},
                "links": _closed(
                    {
                        "self": {"type": "string"},
                        "first": {"type": "string"},
                        "last": {"type": "string"},
                        "next": page_link,
                        "prev": page_link,
                    }
                ),
            }
        ),
        "NewGame": _closed(
            {
                "players": {
                    "type": "array",
                    "items": {"type": "string"},
                    "minItems": MIN_PLAYERS,
                    "maxItems": MAX_PLAYERS,
                    "description": "Names in seat order (the order around the table). White "
                    f"space is trimmed and folded; then a name has 1 to {NAME_MAX} characters "
                    "and no control characters, and names differ in more than case. A wrong "
                    "count or a bad name is answered 422 `bad_players`/`bad_name`.",
                },
                "first_dealer": {**SEAT, "default": 0},
                "rules": _ref("RulesInput"),
            },
            required=["players"],
        ),
        "Adjustment": _closed(
            {"seat": SEAT, "points": _POINTS, "reason": _REASON},
            required=["seat", "points", "reason"],
            description="A one-off bonus or penalty for a player in a played round.",
        ),
        "NewAdjustment": _closed(
            {
                "seat": SEAT,
                "points": _POINTS,
                "reason": {**_REASON, "description": "Optional: a misdeal, a revoke… One line."},
                "version": {
                    "type": "integer",
                    "description": "The game version this change is made on (or If-Match).",
                },
            },
            required=["seat", "points"],
            description="A bonus (points > 0) or penalty (< 0) for a played round.",
        ),
        "NewRound": _round_body(["bids"], "The next round: bids, and tricks now or later."),
        "RoundChange": _round_body(
            [],
            "Only the keys sent change. The corrected round is checked under the rule "
            "set with the totals before it as they now stand; later rounds stay as "
            "played and their totals are recomputed (P2).",
        ),
    }


COUNT = {"type": "integer", "minimum": 0}
RATE = {"type": ["number", "null"], "minimum": 0, "maximum": 1}
AVERAGE = {"type": ["number", "null"]}
PLAYER_ID = {"type": "integer", "minimum": 1, "maximum": MAX_ID}


def _circle_schemas() -> Schema:
    """What the circle token opens: the circle, its players, their statistics, records."""
    game_line = _nullable(
        _closed(
            {
                "id": {"type": "string", "description": "The game's id."},
                "created_at": {"type": "string", "format": "date-time"},
                "total": {"type": "integer", "description": "The player's final score."},
                "links": _closed({"self": {"type": "string", "description": "The game."}}),
            }
        )
    )
    record = _closed(
        {
            "player_id": PLAYER_ID,
            "name": {"type": "string"},
            "game_id": {"type": "string"},
            "created_at": {"type": "string", "format": "date-time"},
            "value": {"type": "integer"},
            "links": _closed({"player": {"type": "string"}, "game": {"type": "string"}}),
        },
        description="One of the best seats of the circle's finished games.",
    )
    records = {"type": "array", "items": _ref("Record"), "maxItems": RECORDS}
    return {
        "Circle": _closed(
            {
                "id": {
                    "type": "string",
                    "description": "The circle's id (the part of its token before the dot).",
                },
                "name": {"type": "string"},
                "games": {**COUNT, "description": "Games in the circle."},
                "players": {**COUNT, "description": "Players in the circle."},
                "created_at": {"type": "string", "format": "date-time"},
                "links": _closed(
                    {
                        "self": {"type": "string"},
                        "games": {"type": "string", "description": "The circle's games."},
                        "players": {"type": "string", "description": "Its players."},
                        "records": {"type": "string", "description": "Its records."},
                    }
                ),
            },
            description="The circle of the token.",
        ),
        "PlayerLine": _closed(
            {
                "id": PLAYER_ID,
                "name": {"type": "string"},
                "games": {**COUNT, "description": "Games played in the circle."},
                "wins": {**COUNT, "description": "Finished games won (shared wins count)."},
                "exact_rate": {
                    **RATE,
                    "description": "Share of the rounds with a bid where the bid was exact; "
                    "null before the first.",
                },
                "rating": {
                    **_nullable(_ref("Rating")),
                    "description": "The player's rating in the circle; null before their "
                    "first finished game.",
                },
                "links": _closed({"self": {"type": "string"}}),
            }
        ),
        "Rating": _closed(
            {
                "value": {
                    "type": "integer",
                    "description": "The rating as the pages show it: 1000 + 25 × (mu − 3 × "
                    "sigma), a cautious estimate (everyone starts at 1000).",
                },
                "margin": {
                    **COUNT,
                    "description": "How far the skill may lie from its estimate, in the "
                    "same points (2 × 25 × sigma).",
                },
                "games": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "Finished games the rating rests on.",
                },
                "provisional": {
                    "type": "boolean",
                    "description": "Fewer than 5 games: the rating is still settling.",
                },
                "mu": {
                    "type": "number",
                    "description": "The skill estimate (openskill's "
                    "Plackett-Luce model; a new player's is 25).",
                },
                "sigma": {
                    "type": "number",
                    "minimum": 0,
                    "description": "Its uncertainty (a new player's is 25/3).",
                },
            },
            description="A rating from the finishing places of the circle's finished "
            "score pad games, in order of play; equal totals share a place.",
        ),
        "PlayerList": _closed(
            {
                "players": {
                    "type": "array",
                    "items": _ref("PlayerLine"),
                    "description": "Every player of the circle, by name.",
                }
            }
        ),
        "PlayerStats": _closed(
            {
                "id": PLAYER_ID,
                "name": {"type": "string"},
                "games": {**COUNT, "description": "Games played, finished or not."},
                "finished": {**COUNT, "description": "Finished games."},
                "wins": {**COUNT, "description": "Finished games won (shared wins count)."},
                "win_rate": {**RATE, "description": "wins / finished; null before the first."},
                "average_final": {
                    **AVERAGE,
                    "description": "Average final score of the finished games.",
                },
                "rounds": {**COUNT, "description": "Rounds played (with their tricks)."},
                "points": {"type": "integer", "description": "All the rounds' scores added."},
                "average_round_score": {**AVERAGE, "description": "points / rounds."},
                "bid_rounds": {**COUNT, "description": "Rounds in which the player bid."},
                "exact": {**COUNT, "description": "Rounds with the bid exactly made."},
                "exact_rate": {**RATE, "description": "exact / bid_rounds."},
                "overs": {**COUNT, "description": "Rounds with more tricks than bid."},
                "unders": {**COUNT, "description": "Rounds with fewer tricks than bid."},
                "best_streak": {**COUNT, "description": "Most exact bids in a row in a game."},
                "best_game": {
                    **game_line,
                    "description": "The finished game with the player's highest final "
                    "score; null before the first.",
                },
                "worst_game": {**game_line, "description": "The one with the lowest."},
                "by_cards": {
                    "type": "array",
                    "description": "Rounds and exact bids by the number of cards in hand.",
                    "items": _closed(
                        {
                            "cards": {"type": "integer", "minimum": 1},
                            "rounds": {"type": "integer", "minimum": 1},
                            "exact": COUNT,
                            "exact_rate": {"type": "number", "minimum": 0, "maximum": 1},
                        }
                    ),
                },
                "head_to_head": {
                    "type": "array",
                    "description": "The others at the player's finished games: how often "
                    "the player finished ahead of, behind, or level with each; most "
                    "games together first.",
                    "items": _closed(
                        {
                            "id": PLAYER_ID,
                            "name": {"type": "string"},
                            "games": {"type": "integer", "minimum": 1},
                            "ahead": COUNT,
                            "behind": COUNT,
                            "level": COUNT,
                            "links": _closed({"self": {"type": "string"}}),
                        }
                    ),
                },
                "links": _closed({"self": {"type": "string"}, "players": {"type": "string"}}),
            },
            description="A player's statistics over the circle's games.",
        ),
        "Record": record,
        "Records": _closed(
            {
                "highest_final": {
                    **records,
                    "description": "Highest final scores; `value` is the score.",
                },
                "most_exact": {
                    **records,
                    "description": "Most exact bids in one game; `value` is their number.",
                },
                "biggest_comeback": {
                    **records,
                    "description": "Winners who were furthest behind the leader during the "
                    "game; `value` is that deficit.",
                },
            },
            description="The best of the circle's finished games, best first (of equal "
            "values the later game first).",
        ),
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
        "paths": {
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
                    "parameters": [{"$ref": _P + "Idempotency-Key"}],
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
                "post": {
                    "operationId": "addRound",
                    "summary": "Record the next round",
                    "description": "Bids, and the tricks now or later (PUT). 422 "
                    "`round_open` while the last round lacks its tricks, "
                    "`game_over` after the last round of the plan.",
                    "security": _SCORER,
                    "parameters": [{"$ref": _P + "If-Match"}, {"$ref": _P + "Idempotency-Key"}],
                    "requestBody": _body("NewRound"),
                    "responses": _writes(
                        {
                            "201": _game_answer("The game with the new round.", location=True),
                            "400": {"$ref": _R + "BadRequest"},
                            "415": {"$ref": _R + "UnsupportedMediaType"},
                        }
                    ),
                },
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
                "put": {
                    "operationId": "changeRound",
                    "summary": "Correct a round, or add the open round's tricks",
                    "security": _SCORER,
                    "parameters": [{"$ref": _P + "If-Match"}, {"$ref": _P + "Idempotency-Key"}],
                    "requestBody": _body("RoundChange"),
                    "responses": _writes(
                        {
                            "200": _game_answer("The game after the change."),
                            "400": {"$ref": _R + "BadRequest"},
                            "415": {"$ref": _R + "UnsupportedMediaType"},
                        }
                    ),
                },
                "delete": {
                    "operationId": "deleteRound",
                    "summary": "Remove the last round",
                    "description": "Only the last recorded round can be removed (422 "
                    "`not_last_round` otherwise); the change log keeps it.",
                    "security": _SCORER,
                    "parameters": [{"$ref": _P + "If-Match"}, {"$ref": _P + "Idempotency-Key"}],
                    "responses": _writes(
                        {
                            "200": _game_answer("The game without that round."),
                            "400": {"$ref": _R + "BadRequest"},
                        }
                    ),
                },
            },
            "/api/v1/games/{game_id}/rounds/{number}/adjustments": {
                "parameters": [{"$ref": _P + "game_id"}, {"$ref": _P + "number"}],
                "post": {
                    "operationId": "addAdjustment",
                    "summary": "Give a player a bonus or penalty in a played round",
                    "description": "422 `round_open` for a round whose tricks are not in; "
                    "`adjustment_seat`, `adjustment_points`, `adjustment_reason`, "
                    "`adjustments_many` for what the rules refuse. Logged in the change log.",
                    "security": _SCORER,
                    "parameters": [{"$ref": _P + "If-Match"}, {"$ref": _P + "Idempotency-Key"}],
                    "requestBody": _body("NewAdjustment"),
                    "responses": _writes(
                        {
                            "201": _game_answer("The game with the bonus or penalty."),
                            "400": {"$ref": _R + "BadRequest"},
                            "415": {"$ref": _R + "UnsupportedMediaType"},
                        }
                    ),
                },
            },
            "/api/v1/games/{game_id}/rounds/{number}/adjustments/{index}": {
                "parameters": [
                    {"$ref": _P + "game_id"},
                    {"$ref": _P + "number"},
                    {"$ref": _P + "index"},
                ],
                "delete": {
                    "operationId": "removeAdjustment",
                    "summary": "Take back a bonus or penalty",
                    "security": _SCORER,
                    "parameters": [{"$ref": _P + "If-Match"}, {"$ref": _P + "Idempotency-Key"}],
                    "responses": _writes(
                        {
                            "200": _game_answer("The game without it."),
                            "400": {"$ref": _R + "BadRequest"},
                        }
                    ),
                },
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
        },
        "components": {
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
                    "schema": PLAYER_ID,
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
                    "description": "A bonus or penalty's place in the round's `adjustments`, "
                    "from 0.",
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
                        "maximum": MAX_PER_PAGE,
                        "default": DEFAULT_PER_PAGE,
                    },
                },
                "If-Match": {
                    "name": "If-Match",
                    "in": "header",
                    "required": False,
                    "description": 'The game\'s version as last seen (its ETag, like "7"); '
                    "409 when the game has moved on. `*` matches any.",
                    "schema": {"type": "string", "pattern": '^ *(\\*|(W/)?"?[0-9]+"?) *$'},
                },
                "Idempotency-Key": {
                    "name": "Idempotency-Key",
                    "in": "header",
                    "required": False,
                    "description": "A new random key (e.g. a UUID) per write. A retry with "
                    "the same key and the same request gets the first answer again "
                    "(`Idempotent-Replayed: true`) and writes nothing twice; the same key "
                    "with another request is refused (422 `idempotency_key_reused`). "
                    "A refused request keeps no key. Keys last 24 hours. Keys are per "
                    "client: per token; without one (setting up a game) the key is the "
                    "client's only secret and must have at least 16 characters, else 400.",
                    "schema": {"type": "string", "pattern": "^[!-~]{1,64}$"},
                },
            },
            "headers": {
                "ETag": {
                    "description": "The game's version, quoted.",
                    "schema": {"type": "string", "pattern": '^"[0-9]+"$'},
                },
            },
            "responses": {
                "BadRequest": _error(
                    "Malformed JSON or a body of the wrong shape, or a "
                    "bad query parameter or If-Match."
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
        },
    }


@bp.get("/openapi.json", provide_automatic_options=False)
def openapi_json() -> Response:
    """This API described in OpenAPI 3.1."""
    return jsonify(document())
