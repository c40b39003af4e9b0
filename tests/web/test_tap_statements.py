"""A bid tap is light on the database: the game is read in one statement and shared by the
scorer check and the write, the change log is added to without being read, the score
sheet is worked out for the rounds as they stand and kept, and expired idempotency keys
are swept now and then, not on every tap."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask

from scorekeeper import engine
from scorekeeper.services import idempotency
from tests.history.test_queries import counting as statements
from tests.web.support import HX, Pages, section


def _version(pages: Pages, pid: str) -> str:
    found = re.search(
        r'data-version="(\d+)"', section(pages.page(pid).get_data(as_text=True), "entry")
    )
    assert found is not None
    return found.group(1)


def _bid(pages: Pages, pid: str, seat: int, bid: int, version: str, key: str) -> Any:
    return pages.client.post(
        f"/games/{pid}/bid",
        data={"seat": str(seat), "bid": str(bid), "v": version},
        headers={**HX, "Idempotency-Key": key * 20},
    )


def test_a_bid_tap_takes_at_most_six_statements_and_one_sheet(
    app: Flask, pages: Pages, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(idempotency, "SCOPE_SWEEPS", 0)  # a tap that sweeps nothing
    pid = pages.new_game(["Ann", "Ben", "Cat", "Dan"])
    pages.play_round(pid, {1: 1, 2: 0, 3: 0, 0: 0}, {1: 1})
    assert _bid(pages, pid, 2, 1, _version(pages, pid), "a").status_code == 200  # round 2
    sheets: list[object] = []
    score_sheet = engine.score_sheet

    def counted(*args: Any) -> Any:
        sheets.append(args)
        return score_sheet(*args)

    monkeypatch.setattr(engine, "score_sheet", counted)
    version = _version(pages, pid)
    sheets.clear()
    with statements(app) as seen:
        response = _bid(pages, pid, 3, 0, version, "b")
    assert response.status_code == 200
    assert 'data-bid="0"' in section(response.get_data(as_text=True), "entry")
    # Read the game; the key; write the game's version, the bid and the log; keep the key.
    assert len(seen) <= 6, "\n".join(s.split("\n")[0] for s in seen)
    assert sum(s.lstrip().upper().startswith("SELECT") for s in seen) == 2
    # The sheet is added up once, before the bid (to check it); after it (to show it)
    # only its open round changes (Sheet.with_open_round): nothing is added up again.
    assert len(sheets) == 1


def test_a_sweep_of_expired_keys_comes_now_and_then(
    app: Flask, pages: Pages, monkeypatch: pytest.MonkeyPatch
) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"])
    for sweeps, expected, key in ((idempotency.SWEEP_ONE_IN, 1, "s"), (0, 0, "n")):
        monkeypatch.setattr(idempotency, "SCOPE_SWEEPS", sweeps)  # always, never
        version = _version(pages, pid)
        with statements(app) as seen:
            assert _bid(pages, pid, 1, 0, version, key).status_code == 200
        deletes = [s for s in seen if s.lstrip().upper().startswith("DELETE")]
        assert len(deletes) == expected, deletes
        pages.post(pid, "clear", clear="bid:1")
