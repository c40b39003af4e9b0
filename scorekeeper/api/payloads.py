"""JSON in and out of the API, exactly as ``openapi.py`` describes it.

Out: games and rounds are built from :func:`pad_view`, the one place where hidden (V3)
and secret (V4) bids are masked, so no answer can show a bid the pad would not.

In: request bodies are checked for their JSON shape here (wrong shape → 400); whether
the values keep the rules is for the services and the engine to say (→ 422).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Annotated, Any, TypeVar, get_args, get_origin

from flask import request, url_for
from pydantic import ValidationError
from werkzeug.exceptions import BadRequest, UnsupportedMediaType

from scorekeeper import limits
from scorekeeper.api.schemas import (
    DEFAULT_PER_PAGE,
    MAX_PER_PAGE,
    TRUMPS,
    WIZARD_TRUMPS,
    Closed,
)
from scorekeeper.engine import TrumpCall
from scorekeeper.i18n import _, _l, _n
from scorekeeper.models import Circle, Game
from scorekeeper.services import games as game_service
from scorekeeper.services.errors import Conflict, Rejected
from scorekeeper.services.padview import Row, pad_view
from scorekeeper.services.ratings import Shown
from scorekeeper.services.stats import GameLine, PlayerLine, PlayerStats, Record, Records

M = TypeVar("M", bound=Closed)
# If-Match: the game's version (an entity tag, weak or strong, or bare), or "*".
IF_MATCH = re.compile(r'^[ \t]*(\*|(W/)?"?([0-9]{1,18})"?)[ \t]*$')

# The pages of the web blueprint that a game links to.
VIEW_ENDPOINT = "web.game"
SCORER_ENDPOINT = "web.claim_scorer"


# -- out ------------------------------------------------------------------------------------


def etag(game: Game) -> str:
    """The game's version as an entity tag: what ``If-Match`` sends back."""
    return f'"{game.version}"'


def _timestamp(value: datetime) -> str:
    # SQLite hands back naive datetimes; every stored time is UTC.
    return (value if value.tzinfo else value.replace(tzinfo=UTC)).isoformat()


def game_links(game: Game, scorer_token: str | None = None) -> dict[str, str]:
    """The game's addresses: the API's own, and the pages to view (and, with the token,
    to score) it, as whole URLs to share with the other phones at the table."""
    links = {
        "self": url_for("api.get_game", game_id=game.public_id),
        "view": url_for(VIEW_ENDPOINT, public_id=game.public_id, _external=True),
    }
    if scorer_token is not None:
        links["scorer"] = url_for(
            SCORER_ENDPOINT, public_id=game.public_id, token=scorer_token, _external=True
        )
    return links


def _trump_json(stored: str | None) -> tuple[str | None, bool]:
    """``("red", True)`` for "Wizard turned, dealer chose red"; ``("none", False)`` for no
    trump; ``(None, False)`` when no trump was recorded."""
    if not stored:
        return None, False
    trump = TrumpCall.parse(stored)
    return ("none" if trump.suit is None else trump.suit.colour), trump.wizard_turned


def _round_json(row: Row, stored_trump: str | None) -> dict[str, Any]:
    trump, wizard = _trump_json(stored_trump)
    cells = row.cells
    return {
        "number": row.number,
        "cards": row.cards,
        "dealer": row.dealer,
        "trump": trump,
        "trump_wizard": wizard,
        # A bid only when it may be seen (the round model's value: a number, or sealed).
        "bids": [c.bid_number for c in cells],
        "bids_hidden": any(c.sealed for c in cells),
        "tricks": [c.tricks for c in cells] if row.complete else None,
        "scores": [c.score for c in cells] if row.complete else None,
        "totals": [c.total for c in cells] if row.complete else None,
        "complete": row.complete,
        "flag": row.flag,
        "adjustments": [
            {"seat": a.seat, "points": a.points, "reason": a.reason} for a in row.adjustments
        ],
    }


def game_json(game: Game) -> dict[str, Any]:
    """A whole game as ``GET /api/v1/games/{id}`` shows it."""
    pad = pad_view(game)
    rows = [row for row in pad.rows if row.recorded]
    draft = pad.draft
    return {
        "id": game.public_id,
        "players": pad.names,
        "rules": pad.rules.to_dict(),
        "first_dealer": game.first_dealer,
        "round_plan": pad.plan,
        "rounds": [
            _round_json(row, stored.trump) for row, stored in zip(rows, game.rounds, strict=True)
        ],
        "totals": pad.totals,
        "finished": pad.finished,
        "winners": pad.winner_names,
        "next_round": None
        if draft is None
        else {
            "number": draft.number,
            "cards": draft.cards,
            "dealer": draft.dealer,
            "bidding_order": draft.bidding_order,
            "leader": draft.leader,
            "open": draft.number <= len(rows),
        },
        "version": game.version,
        "created_at": _timestamp(game.created_at),
        "links": game_links(game),
    }


def game_summary_json(game: Game) -> dict[str, Any]:
    """A game's line in the list of games."""
    sheet = game_service.sheet_of(game)
    names = game_service.names_of(game)
    return {
        "id": game.public_id,
        "players": names,
        "created_at": _timestamp(game.created_at),
        "rounds_played": sum(1 for r in sheet.rounds if r.complete),
        "rounds_in_plan": len(sheet.plan),
        "totals": list(sheet.totals),
        "finished": sheet.finished,
        "winners": [names[s] for s in sheet.winners],
        "version": game.version,
        "links": {"self": url_for("api.get_game", game_id=game.public_id)},
    }


# -- circles -------------------------------------------------------------------------------


def circle_json(circle: Circle, games: int, players: int) -> dict[str, Any]:
    """The circle of the request's token, as ``GET /api/v1/circle`` shows it."""
    return {
        "id": circle.public_id,
        "name": circle.name,
        "games": games,
        "players": players,
        "created_at": _timestamp(circle.created_at),
        "links": {
            "self": url_for("api.get_circle"),
            "games": url_for("api.list_games"),
            "players": url_for("api.list_players"),
            "records": url_for("api.get_records"),
        },
    }


def _player_link(player_id: int) -> str:
    return url_for("api.get_player", player_id=player_id)


def rating_json(rating: Shown | None) -> dict[str, Any] | None:
    """A rating as the pages show it, with the model's own numbers."""
    if rating is None:
        return None
    return {
        "value": rating.value,
        "margin": rating.margin,
        "games": rating.games,
        "provisional": rating.provisional,
        "mu": rating.mu,
        "sigma": rating.sigma,
    }


def player_line_json(line: PlayerLine) -> dict[str, Any]:
    """A player's line in the circle's list of players."""
    return {
        "id": line.id,
        "name": line.name,
        "games": line.games,
        "wins": line.wins,
        "exact_rate": line.exact_rate,
        "rating": rating_json(line.rating),
        "links": {"self": _player_link(line.id)},
    }


def _game_line_json(line: GameLine | None) -> dict[str, Any] | None:
    if line is None:
        return None
    return {
        "id": line.public_id,
        "created_at": _timestamp(line.created_at),
        "total": line.total,
        "links": {"self": url_for("api.get_game", game_id=line.public_id)},
    }


def player_stats_json(stats: PlayerStats) -> dict[str, Any]:
    """A player's statistics over the circle's games, as the player page shows them."""
    player = stats.player
    return {
        "id": player.id,
        "name": player.name,
        "games": stats.games,
        "finished": stats.finished,
        "wins": stats.wins,
        "win_rate": stats.win_rate,
        "average_final": stats.avg_final,
        "rounds": stats.rounds,
        "points": stats.points,
        "average_round_score": stats.avg_round_score,
        "bid_rounds": stats.bid_rounds,
        "exact": stats.exact,
        "exact_rate": stats.exact_rate,
        "overs": stats.overs,
        "unders": stats.unders,
        "best_streak": stats.best_streak,
        "best_game": _game_line_json(stats.best_game),
        "worst_game": _game_line_json(stats.worst_game),
        "by_cards": [
            {"cards": c.cards, "rounds": c.rounds, "exact": c.exact, "exact_rate": c.rate}
            for c in stats.by_cards
        ],
        "head_to_head": [
            {
                "id": h.player_id,
                "name": h.name,
                "games": h.games,
                "ahead": h.ahead,
                "behind": h.behind,
                "level": h.level,
                "links": {"self": _player_link(h.player_id)},
            }
            for h in stats.head_to_head
        ],
        "links": {"self": _player_link(player.id), "players": url_for("api.list_players")},
    }


def _record_json(record: Record) -> dict[str, Any]:
    return {
        "player_id": record.player_id,
        "name": record.name,
        "game_id": record.public_id,
        "created_at": _timestamp(record.created_at),
        "value": record.value,
        "links": {
            "player": _player_link(record.player_id),
            "game": url_for("api.get_game", game_id=record.public_id),
        },
    }


def records_json(records: Records) -> dict[str, Any]:
    """The circle's records, best first."""
    return {
        "highest_final": [_record_json(r) for r in records.highest_final],
        "most_exact": [_record_json(r) for r in records.most_exact],
        "biggest_comeback": [_record_json(r) for r in records.biggest_comeback],
    }


# -- in -------------------------------------------------------------------------------------


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


def _number(text: str) -> int | float:
    """A JSON number written with a fraction or exponent. A whole one (``2.0``, ``1e1``)
    is an integer, as JSON Schema counts them and the OpenAPI document says "integer";
    any other (``2.5``) stays a float, for the shape check to refuse (400)."""
    value = float(text)
    return int(value) if value.is_integer() else value


def read_body(model: type[M]) -> M:
    """The request's JSON object read with ``model``: only its keys, all its required ones,
    each of its JSON type.

    :raises UnsupportedMediaType: when the body is not sent as JSON (415).
    :raises BadRequest: for malformed JSON, a body that is not an object, or unknown or
        missing keys or a value of the wrong type (400), in the reader's words.
    """
    if not request.is_json:
        raise UnsupportedMediaType(_("Send the body as JSON, with Content-Type: application/json."))
    body = request.get_data()
    try:
        # Bounded nesting, text that can be stored (see limits.py; 413 above the size limit).
        data = limits.load_json(body, parse_constant=_reject_constant, parse_float=_number)
    except ValueError as exc:
        raise BadRequest(_("The body is not valid JSON: %(error)s.", error=str(exc))) from None
    if not isinstance(data, dict):
        raise BadRequest(_("The body must be a JSON object."))
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise _shape_error(model, data, exc) from None


def _shape_error(model: type[Closed], data: dict[str, Any], exc: ValidationError) -> BadRequest:
    """The first thing wrong with ``data`` as the API has always said it: unknown keys, then
    missing ones, then a key sent without the one it goes with, then a value's type."""
    fields = model.model_fields
    unknown = sorted(key for key in data if key not in fields)
    if unknown:
        return BadRequest(
            _n(
                "Unknown key: %(keys)s. Allowed: %(allowed)s.",
                "Unknown keys: %(keys)s. Allowed: %(allowed)s.",
                len(unknown),
                keys=", ".join(unknown),
                allowed=", ".join(fields),
            )
        )
    missing = [key for key, field in fields.items() if field.is_required() and key not in data]
    if missing:
        return BadRequest(
            _n(
                "Missing key: %(keys)s.",
                "Missing keys: %(keys)s.",
                len(missing),
                keys=", ".join(missing),
            )
        )
    errors = exc.errors()
    if any(not error["loc"] for error in errors):  # the model's own check
        return BadRequest(_("trump_wizard goes with trump: send the suit the dealer chose."))
    # A rule the model checks with the services' words (422) comes after the types.
    broken = [
        e["ctx"]["error"] for e in errors if isinstance(e.get("ctx", {}).get("error"), Rejected)
    ]
    wrong = {str(e["loc"][0]) for e in errors if e.get("type") != "value_error"}
    if broken and not wrong:
        raise broken[0]
    key = next(key for key in fields if key in wrong)
    shape = _SHAPE_WORDS[_shape(fields[key].annotation)]
    return BadRequest(_("%(key)s must be %(shape)s.", key=key, shape=str(shape)))


def _shape(annotation: Any) -> str:
    """A field's JSON shape in the notation of ``_SHAPE_WORDS`` ("?": or null)."""
    annotation = _base(annotation)
    args = get_args(annotation)
    if get_origin(annotation) is list:
        item = _base(args[0])
        if type(None) in get_args(item):
            return "[int?]"
        return f"[{_NAMES[_base(item)]}]"
    if type(None) in args:
        return f"{_shape(next(a for a in args if a is not type(None)))}?"
    return _NAMES[get_origin(annotation) or annotation]


_NAMES = {int: "int", bool: "bool", str: "str", dict: "object"}


def _base(annotation: Any) -> Any:
    while get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    return annotation


_SHAPE_WORDS = {
    "int": _l("a whole number"),
    "int?": _l("a whole number or null"),
    "bool": _l("true or false"),
    "str": _l("a string"),
    "str?": _l("a string or null"),
    "object": _l("an object"),
    "[str]": _l("a list of strings"),
    "[int]": _l("a list of whole numbers"),
    "[int]?": _l("a list of whole numbers, or null"),
    "[int?]": _l("a list of whole numbers (or null for no bid)"),
}


def trump_text(trump: str | None, wizard: bool | None) -> str | None:
    """The trump in the services' text form from ``trump`` and ``trump_wizard``.

    ``"red"`` with ``trump_wizard: true`` and ``"wizard:red"`` both mean a Wizard was
    turned and the dealer chose red.

    :raises Rejected: for an unknown trump or a contradictory pair (422).
    """
    if trump is None:
        if wizard:
            raise Rejected(
                _("When a Wizard is turned up the dealer chooses a suit: send that suit as trump."),
                "bad_trump",
            )
        return None
    if trump in WIZARD_TRUMPS:
        if wizard is False:
            raise Rejected(
                _(
                    "Trump %(trump)s says a Wizard was turned, but trump_wizard is false.",
                    trump=repr(trump),
                ),
                "bad_trump",
            )
        return trump
    if trump not in TRUMPS:
        raise Rejected(
            _(
                "Unknown trump %(trump)s: use %(trumps)s, or wizard:<suit> when a Wizard is "
                "turned up.",
                trump=repr(trump),
                trumps=", ".join(TRUMPS),
            ),
            "bad_trump",
        )
    if wizard:
        if trump == "none":
            raise Rejected(
                _("When a Wizard is turned up the dealer chooses a suit, never 'none'."),
                "bad_trump",
            )
        return f"wizard:{trump}"
    return trump


def expected_version(body_version: int | None = None) -> int | None:
    """The version the client expects the game to be at: ``If-Match`` or body ``version``.

    :raises BadRequest: for an ``If-Match`` that is not one version number.
    :raises Conflict: when the two are given and disagree (one of them is out of date).
    """
    header = request.headers.get("If-Match")
    header_version: int | None = None
    if header is not None:
        match = IF_MATCH.fullmatch(header)
        if match is None:
            raise BadRequest(_('If-Match must be the game\'s version, like "7".'))
        if match[3] is not None:
            header_version = int(match[3])
    if header_version is not None and body_version is not None and (header_version != body_version):
        raise Conflict(
            _(
                "If-Match says version %(header)s but the body says %(body)s: at most one of "
                "them is current.",
                header=header_version,
                body=body_version,
            ),
            "conflict",
        )
    return body_version if body_version is not None else header_version


def page_args() -> tuple[int, int]:
    """``page`` and ``per_page`` from the query string. :raises BadRequest: out of bounds."""
    page = _positive_arg("page", 1)
    per_page = _positive_arg("per_page", DEFAULT_PER_PAGE)
    if per_page > MAX_PER_PAGE:
        raise BadRequest(_("per_page goes from 1 to %(most)s.", most=MAX_PER_PAGE))
    return page, per_page


def _positive_arg(name: str, default: int) -> int:
    text = request.args.get(name)
    if text is None:
        return default
    if not text.isdecimal() or int(text) < 1 or len(text) > 9:
        raise BadRequest(_("%(name)s must be a whole number from 1.", name=name))
    return int(text)
