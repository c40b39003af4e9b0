"""Sealed values (scorekeeper/sealing.py): AES-GCM under a key per purpose derived from the
app's SECRET_KEY; what was sealed opens only for the same purpose, associated data,
secret and SECRET_KEY, and never once altered."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from flask import Flask

from scorekeeper import sealing
from scorekeeper.services import idempotency


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    with app.app_context():
        yield


PLAIN = b'{"scorer_token":"t0k3n"}'


def test_a_sealed_value_opens_again(ctx: None) -> None:
    sealed = sealing.seal("take-back", PLAIN, b"game-1")
    assert sealing.unseal("take-back", sealed, b"game-1") == PLAIN
    assert sealing.unseal("take-back", sealing.seal("take-back", b""), b"") == b""


def test_the_value_is_not_in_the_clear_and_each_seal_is_fresh(ctx: None) -> None:
    one, two = (sealing.seal("kept answer", PLAIN, secret=b"client") for _ in range(2))
    assert b"t0k3n" not in one
    assert one != two  # a fresh nonce each time


def test_an_altered_value_is_refused(ctx: None) -> None:
    sealed = sealing.seal("take-back", PLAIN, b"game-1")
    for at in range(len(sealed)):
        for flip in (0x01, 0x80):
            altered = sealed[:at] + bytes([sealed[at] ^ flip]) + sealed[at + 1 :]
            assert sealing.unseal("take-back", altered, b"game-1") is None, (at, flip)
    for cut in (sealed[:-1], sealed[:12], b"", sealed + b"\0"):
        assert sealing.unseal("take-back", cut, b"game-1") is None


def test_a_value_sealed_for_one_purpose_does_not_open_for_another(ctx: None) -> None:
    sealed = sealing.seal("take-back", PLAIN, b"game-1")
    assert sealing.unseal("kept answer", sealed, b"game-1") is None
    kept = sealing.seal("kept answer", PLAIN, b"row", secret=b"client")
    assert sealing.unseal("take-back", kept, b"row", secret=b"client") is None


def test_other_associated_data_or_secret_do_not_open_it(ctx: None) -> None:
    sealed = sealing.seal("kept answer", PLAIN, b"row-1", secret=b"client-1")
    assert sealing.unseal("kept answer", sealed, b"row-1", secret=b"client-1") == PLAIN
    assert sealing.unseal("kept answer", sealed, b"row-2", secret=b"client-1") is None
    assert sealing.unseal("kept answer", sealed, b"row-1", secret=b"client-2") is None
    assert sealing.unseal("kept answer", sealed, b"row-1") is None


def test_another_secret_key_does_not_open_it(app: Flask) -> None:
    with app.app_context():
        sealed = sealing.seal("take-back", PLAIN, b"game-1")
    app.config["SECRET_KEY"] = "another"
    with app.app_context():
        assert sealing.unseal("take-back", sealed, b"game-1") is None


# A kept answer sealed by the format before AES-GCM (SHAKE-256 stream, HMAC-SHA-256 tag),
# under SECRET_KEY "test", for the client secret and row below.
LEGACY = bytes.fromhex(
    "012fbd8cff044ec71f524d06be3e9c38e5e006a4299dce79f64e93694ba517dfa454fa7b8624983365b9"
    "5a9b3b296d4225230329cca4584ad300a2287ca2b91c420d45aeef18c2913fcbb9ec3654f34e426c2d98"
    "1b70316b76ab7ea30ad00ad0699233c82da539af3621875fd0"
)
LEGACY_KEY = "0123456789abcdef-legacy"
LEGACY_SECRET = sealing.joined(b"key\0" + LEGACY_KEY.encode(), LEGACY_KEY)
LEGACY_ROW = json.dumps(["api:new-game/abc", "k", "f" * 64, 201], separators=(",", ":"))


def test_a_kept_answer_sealed_before_still_opens_for_its_retry(ctx: None) -> None:
    """Kept answers live in the database for a day: those sealed before the upgrade are
    read (only for their own client and row), so a retry across it gets its answer."""
    row = LEGACY_ROW.encode()
    opened = sealing.unseal("kept answer", LEGACY, row, LEGACY_SECRET)
    assert opened == b'{"content-type":"application/json"}\n' + PLAIN
    assert sealing.unseal("take-back", LEGACY, row, LEGACY_SECRET) is None
    assert sealing.unseal("kept answer", LEGACY, row, b"another client") is None
    assert sealing.unseal("kept answer", LEGACY, b"another row", LEGACY_SECRET) is None
    altered = LEGACY[:-1] + bytes([LEGACY[-1] ^ 1])
    assert sealing.unseal("kept answer", altered, row, LEGACY_SECRET) is None
    assert sealing.unseal("kept answer", LEGACY[:40], row, LEGACY_SECRET) is None


def test_a_kept_answer_row_opens_only_with_its_clients_secret(app: Flask) -> None:
    from scorekeeper.extensions import db

    with app.app_context():
        idempotency.keep("s", "k", "f", 201, {"location": "/games/x"}, PLAIN, b"client")
        db.session.commit()
        row = idempotency.find("s", "k")
        assert row is not None and b"t0k3n" not in row.body
        kept = idempotency.answer(row, b"client")
        assert kept == idempotency.Answer(201, {"location": "/games/x"}, PLAIN)
        assert idempotency.answer(row, b"another") is None
        row.status = 200  # the seal is bound to the row it was kept in
        assert idempotency.answer(row, b"client") is None
