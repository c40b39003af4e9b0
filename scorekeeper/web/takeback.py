"""Undo of a take-back on the entry panel: what a tap took back, sealed into the answer.

A bid taken back may be hidden or secret (V3, V4), so the page offering to put it back
must not hold it in the clear, and nothing about it may be stored where an export would
show it. The values go out sealed instead: XORed with a keystream that HMAC-SHA256 (a
pseudo-random function) draws from the app's secret key and a fresh nonce, the whole
signed. The "Undo" tap sends the seal back; it is good only for that game and only while
the game is at the version the take-back left it at.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

from flask import current_app
from itsdangerous import BadSignature, URLSafeSerializer

_SALT = "scorekeeper.take-back"
KINDS = ("bid", "tricks")


@dataclass(frozen=True)
class TakenBack:
    """What one take-back removed from the open round: seat → bid or trick count."""

    kind: str
    values: dict[int, int]
    version: int  # the game's version right after the take-back


def _secret() -> bytes:
    return str(current_app.config["SECRET_KEY"]).encode()


def _keystream(nonce: bytes, length: int) -> bytes:
    key = hmac.new(_secret(), _SALT.encode(), hashlib.sha256).digest()
    return hmac.new(key, nonce, hashlib.sha256).digest()[:length]


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(_secret(), salt=_SALT)


def seal(public_id: str, taken: TakenBack) -> str:
    """The take-back of game ``public_id`` as a token for its "Undo" button."""
    seats = sorted(taken.values)
    plain = bytes(taken.values[seat] for seat in seats)  # counts of at most 20 cards
    nonce = secrets.token_bytes(16)
    cipher = bytes(a ^ b for a, b in zip(plain, _keystream(nonce, len(plain)), strict=True))
    data = {"g": public_id, "v": taken.version, "k": taken.kind, "s": seats}
    data.update(n=nonce.hex(), c=cipher.hex())
    return str(_serializer().dumps(data))


def unseal(token: str, public_id: str) -> TakenBack | None:
    """The take-back a token stands for, or ``None`` for anything but a token sealed for
    game ``public_id``."""
    try:
        data: Any = _serializer().loads(token)
        nonce, cipher = bytes.fromhex(data["n"]), bytes.fromhex(data["c"])
        seats, kind, version = data["s"], data["k"], data["v"]
    except (BadSignature, ValueError, KeyError, TypeError):
        return None
    if data.get("g") != public_id or kind not in KINDS or not isinstance(version, int):
        return None
    if not isinstance(seats, list) or len(seats) != len(cipher) or len(cipher) > 32:
        return None
    plain = bytes(a ^ b for a, b in zip(cipher, _keystream(nonce, len(cipher)), strict=True))
    return TakenBack(kind, dict(zip(seats, plain, strict=True)), version)
