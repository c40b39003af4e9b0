"""Sealed values: encrypted and authenticated, for secrets that must leave the server's
hands or be stored where they could be read (a kept answer's scorer token, a hidden bid
taken back).

A value is sealed with AES-256-GCM from ``cryptography`` (OpenSSL underneath): a fresh
random 96-bit nonce each time, and a key of its own for each purpose, derived from the
app's ``SECRET_KEY`` with HKDF-SHA-256. The purpose is also part of the associated data,
so a value sealed for one use never opens for another, and whatever the value belongs to
(a game, a stored row) is bound to it the same way: a sealed value can't be read, altered
or moved elsewhere without the key. A caller may add a ``secret`` of its own to the key
material: then the value opens only for whoever brings that secret back too (a kept
answer, for the client's own retry).

AES-GCM rather than AES-GCM-SIV: every build of ``cryptography`` has it (GCM-SIV needs
OpenSSL 3.2), and random nonces stay far from its bound of 2³² values per key (each
client's kept answers have keys of their own; a take-back is a tap).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Literal

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from flask import current_app

# What a sealed value is for; each has its own key.
Purpose = Literal["kept answer", "take-back"]

# A sealed value: format byte, nonce, ciphertext with its 16-byte tag.
_FORMAT = b"\x02"
_NONCE = 12
_TAG = 16
# The kept answers' earlier seal (a SHAKE-256 key stream and an HMAC-SHA-256 tag). Rows
# sealed so are read for the day they are kept (``services/idempotency.py``'s LIFETIME),
# so that a retry sent across an upgrade still gets its answer; none is sealed so now.
_FORMAT_1 = b"\x01"
_NONCE_1 = 16
_TAG_1 = 32


def seal(purpose: Purpose, plain: bytes, associated: bytes = b"", secret: bytes = b"") -> bytes:
    """``plain`` encrypted and authenticated for ``purpose``, bound to ``associated``;
    opened only with the same ``secret`` (if any) by :func:`unseal`."""
    nonce = secrets.token_bytes(_NONCE)
    cipher = AESGCM(_key(purpose, secret)).encrypt(nonce, plain, _associated(purpose, associated))
    return _FORMAT + nonce + cipher


def unseal(
    purpose: Purpose, sealed: bytes, associated: bytes = b"", secret: bytes = b""
) -> bytes | None:
    """What :func:`seal` sealed, or ``None`` for a value sealed for another purpose, with
    other associated data or another secret, under another ``SECRET_KEY``, or altered."""
    if purpose == "kept answer" and sealed.startswith(_FORMAT_1):
        return _unseal_1(sealed, associated, secret)
    if len(sealed) < len(_FORMAT) + _NONCE + _TAG or not sealed.startswith(_FORMAT):
        return None
    nonce, cipher = sealed[len(_FORMAT) : len(_FORMAT) + _NONCE], sealed[len(_FORMAT) + _NONCE :]
    try:
        return AESGCM(_key(purpose, secret)).decrypt(
            nonce, cipher, _associated(purpose, associated)
        )
    except InvalidTag:
        return None


def secret_key() -> bytes:
    """The app's ``SECRET_KEY`` as bytes, for keyed hashes and the keys derived here."""
    secret = current_app.secret_key
    return secret if isinstance(secret, bytes) else str(secret).encode()


def joined(*parts: bytes | str) -> bytes:
    """The parts, each with its length, so no two lists join to the same bytes."""
    data = [p.encode() if isinstance(p, str) else p for p in parts]
    return b"".join(len(p).to_bytes(4, "big") + p for p in data)


def _key(purpose: Purpose, secret: bytes) -> bytes:
    info = b"scorekeeper seal: " + purpose.encode()
    hkdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info)
    return hkdf.derive(joined(secret_key(), secret))


def _associated(purpose: Purpose, associated: bytes) -> bytes:
    return joined(purpose, associated)


def _unseal_1(sealed: bytes, associated: bytes, secret: bytes) -> bytes | None:
    """A kept answer sealed in the earlier format (read only)."""
    head = len(_FORMAT_1) + _NONCE_1 + _TAG_1
    if len(sealed) < head:
        return None
    nonce = sealed[len(_FORMAT_1) : len(_FORMAT_1) + _NONCE_1]
    tag, cipher = sealed[head - _TAG_1 : head], sealed[head:]
    key = hmac.digest(secret_key(), joined(b"answer") + secret, "sha256")
    stream_key = hmac.digest(key, b"scorekeeper answer stream", "sha256")
    tag_key = hmac.digest(key, b"scorekeeper answer tag", "sha256")
    message = len(associated).to_bytes(8, "big") + associated + nonce + cipher
    if not hmac.compare_digest(tag, hmac.digest(tag_key, message, "sha256")):
        return None
    stream = hashlib.shake_256(stream_key + nonce).digest(len(cipher))
    return bytes(a ^ b for a, b in zip(cipher, stream, strict=True))
