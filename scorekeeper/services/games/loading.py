"""Creating and loading score pad games, and looking them up."""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
from collections.abc import Sequence

from flask import current_app
from sqlalchemy import Select, and_, bindparam, func, literal, select, true, union_all
from sqlalchemy.orm import contains_eager, selectinload

from scorekeeper import i18n
from scorekeeper.engine import RuleSet
from scorekeeper.extensions import db
from scorekeeper.i18n import _, _n, rule_message
from scorekeeper.models import Change, Game, Player, Round, RoundResult, Seat
from scorekeeper.services import changelog
from scorekeeper.services import players as player_service
from scorekeeper.services.errors import NotFound, Rejected


def token_hash(token: str) -> str:
    """A scorer token as stored: only its hash is."""
    return hashlib.sha256(token.encode()).hexdigest()


DEFAULT_CIRCLE_MAX_GAMES = 10_000


def parse_rules(data: object) -> RuleSet:
    """A rule set from API/form data. :raises Rejected: naming the bad option."""
    try:
        return RuleSet.from_dict(data)
    except (ValueError, TypeError) as exc:
        raise Rejected(rule_message(exc), "bad_rules") from None


def check_room(circle_id: int, adding: int = 1) -> None:
    """Refuse ``adding`` more games to a circle that would then hold more than
    ``CIRCLE_MAX_GAMES`` (default 10,000): a bound on what one circle stores.

    :raises Rejected: 413 ``circle_full``.
    """
    most = int(current_app.config.get("CIRCLE_MAX_GAMES") or DEFAULT_CIRCLE_MAX_GAMES)
    held = db.session.scalar(select(func.count()).where(Game.circle_id == circle_id)) or 0
    if held + adding <= most:
        return
    if adding == 1:
        message = _(
            "This circle holds %(most)s games, the most a circle keeps here: this game "
            "can be a one-off game (no circle), or start a new circle.",
            most=i18n.number(most),
        )
    else:
        message = _n(
            "This file has %(num)s new game, but the circle holds %(held)s of the "
            "%(most)s games a circle keeps here. Nothing was imported.",
            "This file has %(num)s new games, but the circle holds %(held)s of the "
            "%(most)s games a circle keeps here. Nothing was imported.",
            adding,
            held=i18n.number(held),
            most=i18n.number(most),
        )
    raise Rejected(message, "circle_full", 413)


def create_game(
    names: Sequence[object],
    first_dealer: object,
    rules: RuleSet,
    mode: str = "pad",
    circle_id: int | None = None,
) -> tuple[Game, str]:
    """Create a game; returns it with the scorer token (shown once, stored only hashed).

    :raises Rejected: for a wrong number of players, empty, too long or repeated names,
        a dealer who isn't at the table, or a rule set those players can't play.
    """
    if not isinstance(names, (list, tuple)):
        raise Rejected(_("Players must be a list of 3 to 6 names."), "bad_players")
    clean = [player_service.clean_name(n) for n in names]
    try:
        rules.check_players(len(clean))
    except ValueError as exc:
        raise Rejected(rule_message(exc), "bad_players") from None
    keys = [player_service.name_key(n) for n in clean]
    if len(set(keys)) != len(keys):
        twice = next(n for n, k in zip(clean, keys, strict=True) if keys.count(k) > 1)
        raise Rejected(
            _("%(name)s is at the table twice: each player needs their own name.", name=twice),
            "bad_players",
        )
    if (
        isinstance(first_dealer, bool)
        or not isinstance(first_dealer, int)
        or not (0 <= first_dealer < len(clean))
    ):
        raise Rejected(_("The first dealer must be one of the players."), "bad_dealer")
    if circle_id is not None:
        check_room(circle_id)
    token = secrets.token_urlsafe(24)
    game = Game(
        public_id=secrets.token_urlsafe(16),
        scorer_token_hash=token_hash(token),
        mode=mode,
        circle_id=circle_id,
        rules=rules.to_dict(),
        player_count=len(clean),
        first_dealer=first_dealer,
    )
    for seat, player in enumerate(player_service.get_or_create(clean, circle_id)):
        game.seats.append(Seat(seat=seat, player=player))
    game.changes.append(
        changelog.line(
            "created",
            "game_set_up",
            data={"players": clean, "first_dealer": first_dealer, "rules": rules.to_dict()},
        )
    )
    db.session.add(game)
    db.session.flush()
    return game, token


# Two rows, 0 and 1: the part of the game a row of :func:`get_game` carries (0 a seat and
# its player, 1 a round's result).
_PARTS = union_all(select(literal(0).label("part")), select(literal(1).label("part"))).subquery(
    "part"
)


def get_game(public_id: str) -> Game:
    """:raises NotFound: when no game has this id (or its game was deleted)."""
    game: Game | None = read_whole_game(public_id)
    if game is None:
        raise NotFound()
    return game


def read_whole_game(public_id: str) -> Game | None:
    game: Game | None = db.session.scalars(_whole_game(), {"public_id": public_id}).unique().first()
    return game


@functools.cache
def _whole_game() -> Select[Game]:
    """One statement: the game with its seats (and players), rounds and their results.

    Seats and results joined side by side would give every seat with every result (80
    rows for 4 players and 5 rounds, 360 for 6 and 10), each row decoded in full; so the
    game is read twice over (``_PARTS``), once with its seats and once with its rounds
    and results: as many rows as seats and results together. Built once (the game's id
    is a parameter): building it took as long as running it."""
    part = _PARTS.c.part
    return (
        select(Game)
        .join(_PARTS, true())
        .outerjoin(Seat, and_(part == 0, Seat.game_id == Game.id))
        .outerjoin(Player, Player.id == Seat.player_id)
        .outerjoin(Round, and_(part == 1, Round.game_id == Game.id))
        .outerjoin(RoundResult, RoundResult.round_id == Round.id)
        .where(Game.public_id == bindparam("public_id"), Game.deleted_at.is_(None))
        .options(
            contains_eager(Game.seats).contains_eager(Seat.player),
            contains_eager(Game.rounds).contains_eager(Round.results),
        )
        # The collections fill in the order of the rows.
        .order_by(part, Seat.seat, Round.number, RoundResult.seat)
    )


TAKEN_OVER = "scorer"  # the change log's action for a new scorer token


def new_scorer_token(game: Game) -> str:
    """A new scorer link for the game (the old one stops working), for a member of its
    circle taking over the scoring; logged in the change log."""
    token = secrets.token_urlsafe(24)
    game.scorer_token_hash = token_hash(token)
    game.changes.append(changelog.line(TAKEN_OVER, "scorer_taken_over", data={}))
    db.session.flush()
    return token


def token_matches(game: Game, token: str | None) -> bool:
    """Whether ``token`` is this game's scorer secret (compared in constant time)."""
    return bool(token) and hmac.compare_digest(game.scorer_token_hash, token_hash(token or ""))


def is_deleted(public_id: str) -> bool:
    """Whether the game with this id was deleted (and not brought back)."""
    deleted = db.session.scalar(
        select(Game.deleted_at.is_not(None)).where(Game.public_id == public_id)
    )
    return bool(deleted)


def scoring_states(public_ids: Sequence[str]) -> dict[str, tuple[str, bool]]:
    """For each of these games found: the hash of its scorer token as stored now, and
    whether its scoring was ever taken over (a new token made: ``new_scorer_token``)."""
    if not public_ids:
        return {}
    taken_over = (
        select(Change.id).where(Change.game_id == Game.id, Change.action == TAKEN_OVER).exists()
    )
    rows = db.session.execute(
        select(Game.public_id, Game.scorer_token_hash, taken_over).where(
            Game.public_id.in_(list(public_ids))
        )
    )
    return {public_id: (stored, bool(over)) for public_id, stored, over in rows}


def circle_of(public_id: str) -> int | None:
    """The id of the game's circle (``None`` for a one-off game or no such game)."""
    circle_id: int | None = db.session.scalar(
        select(Game.circle_id).where(Game.public_id == public_id)
    )
    return circle_id


def version_of(public_id: str) -> int | None:
    """The game's version (bumped by every change) without loading it, or ``None`` when
    there is no such game: lets a following phone ask "anything new?" cheaply."""
    version: int | None = db.session.scalar(select(Game.version).where(Game.public_id == public_id))
    return version


def list_games(circle_id: int, page: int = 1, per_page: int = 20) -> tuple[list[Game], int]:
    """A circle's games newest first (deleted ones left out), one page, with the total
    count."""
    page = max(1, page)
    live = (Game.circle_id == circle_id, Game.deleted_at.is_(None))
    total = db.session.scalar(select(func.count(Game.id)).where(*live)) or 0
    games = list(
        db.session.scalars(
            select(Game)
            .where(*live)
            .options(selectinload(Game.seats), selectinload(Game.rounds))
            .order_by(Game.created_at.desc(), Game.id.desc())
            .limit(per_page)
            .offset((page - 1) * per_page)
        )
    )
    return games, total


def last_rules(public_ids: Sequence[str]) -> RuleSet | None:
    """The rule set of the newest score pad game among ``public_ids`` (the games a phone
    keeps score of, deleted ones left out), to offer again on the setup form; ``None``
    when there is none."""
    if not public_ids:
        return None
    rules = db.session.scalar(
        select(Game.rules)
        .where(Game.public_id.in_(list(public_ids)), Game.mode == "pad", Game.deleted_at.is_(None))
        .order_by(Game.created_at.desc(), Game.id.desc())
        .limit(1)
    )
    if rules is None:
        return None
    try:
        return RuleSet.from_dict(rules)
    except (ValueError, TypeError):
        return None  # a rule set this version no longer reads: the book's rules instead
