"""Circles: a group's own players, games, history and statistics, behind a link.

A circle's link is ``/c/<public_id>/<key>``. The key is not stored anywhere: it is an HMAC
of the circle's id and link generation under the server's secret key, so every app
server sharing that key can check it, the server's owner can print it again
(``flask circles``), and "make a new link" (the next generation) makes the old one
worthless. An optional passphrase is stored only as a salted hash.

Players belong to a circle (the same name is the same person within it, and two circles'
"Anna" are two people); a one-off game's players belong to that game alone until the game
is moved into a circle, where they join (or become) the circle's players of those names.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from flask import current_app
from sqlalchemy import delete, func, or_, select, update
from werkzeug.security import check_password_hash, generate_password_hash

from scorekeeper.engine import has_control
from scorekeeper.extensions import db
from scorekeeper.i18n import _
from scorekeeper.models import (
    CIRCLE_NAME_MAX,
    Circle,
    Game,
    Player,
    PlayerCards,
    PlayerPosition,
    Rivalry,
    RoundResult,
)
from scorekeeper.services import changelog, ratings, stats
from scorekeeper.services import games as game_service
from scorekeeper.services.errors import NotFound, Rejected
from scorekeeper.services.players import fold_text

KEY_LENGTH = 32
PASSPHRASE_MIN = 4
PASSPHRASE_MAX = 200


def circle_key(circle: Circle, generation: int | None = None) -> str:
    """The secret part of the circle's link (and its API token), for this generation (or
    for an earlier ``generation``: a key that no longer opens it)."""
    if generation is None:
        generation = circle.link_generation
    secret = str(current_app.config["SECRET_KEY"]).encode()
    message = f"circle-link:{circle.public_id}:{generation}".encode()
    digest = hmac.new(secret, message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")[:KEY_LENGTH]


def key_matches(circle: Circle, key: str | None) -> bool:
    """Whether ``key`` is the circle's current link key (compared in constant time)."""
    return bool(key) and hmac.compare_digest(circle_key(circle).encode(), (key or "").encode())


def clean_circle_name(raw: object) -> str:
    """A circle's name as stored.

    :raises Rejected: for an empty or over-long name, or one with control characters.
    """
    name = fold_text(raw)
    if not name:
        raise Rejected(_("Give the circle a name."), "bad_circle_name")
    if len(name) > CIRCLE_NAME_MAX:
        raise Rejected(
            _("A circle's name has at most %(max)s characters.", max=CIRCLE_NAME_MAX),
            "bad_circle_name",
        )
    if has_control(name):
        raise Rejected(_("Names can't contain control characters."), "bad_circle_name")
    return name


def _passphrase_hash(raw: object) -> str | None:
    """The hash to store for a new circle passphrase ("" or None: no passphrase).

    :raises Rejected: for one that is too short or too long.
    """
    if raw is None or raw == "":
        return None
    if not isinstance(raw, str) or not (PASSPHRASE_MIN <= len(raw) <= PASSPHRASE_MAX):
        raise Rejected(
            _(
                "A passphrase has %(least)s to %(most)s characters.",
                least=PASSPHRASE_MIN,
                most=PASSPHRASE_MAX,
            ),
            "bad_passphrase",
        )
    return generate_password_hash(raw)


def create_circle(name: object, passphrase: object = None) -> Circle:
    """A new circle. :raises Rejected: for a bad name or passphrase."""
    circle = Circle(
        public_id=secrets.token_urlsafe(12),
        name=clean_circle_name(name),
        passphrase_hash=_passphrase_hash(passphrase),
    )
    db.session.add(circle)
    db.session.flush()
    return circle


def get_circle(public_id: str) -> Circle:
    """:raises NotFound: when there is no such circle."""
    circle = db.session.scalar(select(Circle).where(Circle.public_id == public_id))
    if circle is None:
        raise NotFound(_("There is no circle at this address."))
    return circle


def _api_key(circle: Circle) -> str:
    # Not the link's key: the token also stands for the passphrase (a new passphrase or a
    # new link makes a new token), so holding the link alone never opens the API.
    secret = str(current_app.config["SECRET_KEY"]).encode()
    message = (
        f"circle-api:{circle.public_id}:{circle.link_generation}:{circle.passphrase_hash}"
    ).encode()
    digest = hmac.new(secret, message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")[:KEY_LENGTH]


def from_token(token: str) -> Circle | None:
    """The circle whose API token (``<public_id>.<key>``) this is, else ``None``."""
    public_id, dot, key = token.partition(".")
    if not dot or len(public_id) > 32:
        return None
    circle = db.session.scalar(select(Circle).where(Circle.public_id == public_id))
    if circle is None:
        return None
    return circle if hmac.compare_digest(_api_key(circle).encode(), key.encode()) else None


def api_token(circle: Circle) -> str:
    """The circle's token for the JSON API (shown to members on the circle's page)."""
    return f"{circle.public_id}.{_api_key(circle)}"


def passphrase_matches(circle: Circle, given: object) -> bool:
    if circle.passphrase_hash is None:
        return True
    return isinstance(given, str) and check_password_hash(circle.passphrase_hash, given)


def passphrase_proof(circle: Circle) -> str:
    """What a browser that gave the passphrase keeps: a new passphrase (or a new link)
    makes every browser ask again."""
    secret = str(current_app.config["SECRET_KEY"]).encode()
    message = f"circle-pass:{circle.public_id}:{circle.passphrase_hash}".encode()
    return hmac.new(secret, message, hashlib.sha256).hexdigest()[:32]


def rename_circle(circle: Circle, name: object) -> None:
    """Rename the circle; its games' pages (which name it) get a new version."""
    circle.name = clean_circle_name(name)
    db.session.execute(
        update(Game)
        .where(Game.circle_id == circle.id)
        .values(version=Game.version + 1)
        .execution_options(synchronize_session=False)
    )
    db.session.flush()


def set_passphrase(circle: Circle, passphrase: object) -> None:
    """Set (or with "" clear) the circle's passphrase."""
    circle.passphrase_hash = _passphrase_hash(passphrase)
    db.session.flush()


def new_link(circle: Circle) -> None:
    """The next link generation: the old link stops working at once, everywhere."""
    circle.link_generation += 1
    db.session.flush()


def all_circles() -> list[tuple[Circle, int]]:
    """Every circle with its number of games, oldest first (for the server's owner)."""
    rows = db.session.execute(
        select(Circle, func.count(Game.id))
        .outerjoin(Game, Game.circle_id == Circle.id)
        .group_by(Circle.id)
        .order_by(Circle.id)
    )
    return [(circle, int(count)) for circle, count in rows]


def circles_by_ids(public_ids: list[str]) -> dict[str, Circle]:
    if not public_ids:
        return {}
    rows = db.session.scalars(select(Circle).where(Circle.public_id.in_(public_ids)))
    return {c.public_id: c for c in rows}


# -- a one-off game joins a circle ---------------------------------------------------------


def move_game(game: Game, circle: Circle) -> None:
    """Move a one-off game into ``circle``: its players become the circle's players of the
    same names (or new ones), and their statistics count from now on.

    :raises Rejected: when the game already belongs to a circle, or the circle holds the
        most games a circle keeps (413).
    """
    if game.circle_id is not None:
        raise Rejected(_("This game already belongs to a circle."), "in_circle")
    game_service.check_room(circle.id)
    old = [seat.player for seat in game.seats]
    keys = [p.key for p in old]
    found = {
        p.key: p
        for p in db.session.scalars(
            select(Player).where(Player.circle_id == circle.id, Player.key.in_(keys))
        )
    }
    old_ids = [p.id for p in old]
    # The one-off players' statistics were this game's alone: drop them, and count the
    # game afresh for the circle's players below.
    db.session.execute(delete(PlayerCards).where(PlayerCards.player_id.in_(old_ids)))
    db.session.execute(delete(PlayerPosition).where(PlayerPosition.player_id.in_(old_ids)))
    db.session.execute(
        delete(Rivalry).where(or_(Rivalry.player_id.in_(old_ids), Rivalry.other_id.in_(old_ids)))
    )
    for seat, player in zip(game.seats, old, strict=True):
        target = found.get(player.key)
        if target is None:
            player.circle_id = circle.id
            continue
        db.session.execute(
            update(RoundResult)
            .where(RoundResult.player_id == player.id)
            .values(player_id=target.id)
        )
        seat.player = target
    db.session.flush()
    for player in old:
        if player.key in found:
            db.session.delete(player)
    for seat in game.seats:
        seat.by_cards = None
        seat.by_position = None
        seat.won = None
        seat.total = 0
    game.circle_id = circle.id
    stats.summarise(game, game_service.sheet_of(game))
    game.changes.append(changelog.line("circle", "moved_into_circle", data={"circle": circle.name}))
    db.session.flush()
    ratings.game_changed(db.session.connection(), game, was_rated=False)


def game_circle(game: Game) -> Circle | None:
    if game.circle_id is None:
        return None
    circle: Circle | None = db.session.get(Circle, game.circle_id)
    return circle


def require_circle_game(game: Game, circle: Circle) -> None:
    if game.circle_id != circle.id:
        raise NotFound()
