"""Undo of a take-back on the entry panel: what a tap took back, sealed into the answer.

A bid taken back may be hidden or secret (V3, V4), so the page offering to put it back
must not hold it in the clear, and nothing about it may be stored where an export would
show it. The take-back goes out sealed instead (:mod:`scorekeeper.sealing`), bound to its
game. The "Undo" tap sends the seal back; it is good only for that game and only while
the game is at the version the take-back left it at.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from typing import Any

from scorekeeper import sealing

KINDS = ("bid", "tricks")
# Far more than a take-back's seal (some 100 characters); a longer one isn't looked at.
_MOST = 1000


@dataclass(frozen=True)
class TakenBack:
    """What one take-back removed from the open round: seat → bid or trick count."""

    kind: str
    values: dict[int, int]
    version: int  # the game's version right after the take-back


def seal(public_id: str, taken: TakenBack) -> str:
    """The take-back of game ``public_id`` as a token for its "Undo" button."""
    seats = sorted(taken.values)
    data = {"v": taken.version, "k": taken.kind, "s": seats, "n": [taken.values[s] for s in seats]}
    plain = json.dumps(data, separators=(",", ":")).encode()
    sealed = sealing.seal("take-back", plain, public_id.encode())
    return base64.urlsafe_b64encode(sealed).rstrip(b"=").decode()


def unseal(token: str, public_id: str) -> TakenBack | None:
    """The take-back a token stands for, or ``None`` for anything but a token sealed for
    game ``public_id``."""
    if len(token) > _MOST:
        return None
    try:
        sealed = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except (binascii.Error, ValueError):
        return None
    plain = sealing.unseal("take-back", sealed, public_id.encode())
    if plain is None:
        return None
    data: Any = json.loads(plain)
    seats, counts = data["s"], data["n"]
    return TakenBack(data["k"], dict(zip(seats, counts, strict=True)), data["v"])
