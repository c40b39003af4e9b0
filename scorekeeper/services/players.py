"""Players: the same person across games, found by name."""

from __future__ import annotations

import unicodedata

from sqlalchemy import select

from scorekeeper.engine import has_control
from scorekeeper.extensions import db
from scorekeeper.i18n import _
from scorekeeper.models import NAME_MAX, Player
from scorekeeper.services.errors import Rejected


def fold_text(raw: object) -> str:
    """A name as stored: NFC, trimmed, inner white space folded ("" for what isn't text)."""
    if not isinstance(raw, str):
        return ""
    return " ".join(unicodedata.normalize("NFC", raw).split())


def clean_name(raw: object) -> str:
    """A player name as stored: trimmed, inner white space folded, NFC, length-limited.

    :raises Rejected: for an empty or over-long name, or one with control characters.
    """
    name = fold_text(raw)
    if not name:
        raise Rejected(_("Each player needs a name."), "bad_name")
    if len(name) > NAME_MAX:
        raise too_long(name)
    if has_control(name):
        raise Rejected(_("Names can't contain control characters."), "bad_name")
    return name


def too_long(name: str) -> Rejected:
    """The refusal of a name over ``NAME_MAX`` characters."""
    return Rejected(
        _(
            "“%(name)s…” is too long: names have at most %(max)s characters.",
            name=" ".join(name.split())[:20],
            max=NAME_MAX,
        ),
        "bad_name",
    )


def name_key(name: str) -> str:
    """What makes two names the same player: case and accents of case don't count."""
    return name.casefold()


def get_or_create(names: list[str], circle_id: int | None) -> list[Player]:
    """The circle's players with these (clean) names, creating the ones not seen before;
    without a circle (a one-off game), new players of that game alone."""
    keys = [name_key(n) for n in names]
    found: dict[str, Player] = {}
    if circle_id is not None:
        found = {
            p.key: p
            for p in db.session.scalars(
                select(Player).where(Player.circle_id == circle_id, Player.key.in_(keys))
            )
        }
    players = []
    for name, key in zip(names, keys, strict=True):
        player = found.get(key)
        if player is None:
            player = Player(name=name, key=key, circle_id=circle_id)
            db.session.add(player)
            found[key] = player
        players.append(player)
    return players
