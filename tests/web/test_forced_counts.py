"""Counts that are forced fill themselves in (fewer taps at the table): once every trick of
the round is taken the others took none, and the last count is what is left. The tricks
must add up to the cards dealt (R9: a bid is 0 to the cards in hand; each card is one trick
taken by someone). Once every count is in, the round is scored (R16); "Undo" opens it again
without the last tap and what it filled in."""

from __future__ import annotations

import pytest
from flask import Flask

from tests.web.support import (
    Pages,
    alert,
    ok,
    pad_totals,
    scored,
    seat_rows,
    section,
    stored_tricks,
)


@pytest.fixture
def pid(pages: Pages) -> str:
    """Ann, Ben, Cat, Dan; round 2 (two cards each): Ann deals, Ben bids first."""
    pid = pages.new_game(["Ann", "Ben", "Cat", "Dan"], dealer=3)
    pages.play_round(pid, {0: 0, 1: 0, 2: 0, 3: 1}, {0: 0, 1: 0, 2: 0})
    for seat, bid in ((1, 1), (2, 1), (3, 0), (0, 0)):
        ok(pages.bid(pid, seat, bid))
    return pid


def test_once_every_trick_is_taken_the_others_took_none(pages: Pages, app: Flask, pid: str) -> None:
    response = ok(pages.tricks(pid, 1, 2))
    assert scored(response)  # every count is in: the round is scored (R16)
    with app.app_context():
        assert stored_tricks(pid, 2) == [0, 2, 0, 0]
    assert pad_totals(response.get_data(as_text=True), 2) == [40, 10, 10, 50]


def test_the_counts_left_open_until_the_tricks_are_all_taken(
    pages: Pages, app: Flask, pid: str
) -> None:
    body = ok(pages.tricks(pid, 1, 1)).get_data(as_text=True)
    assert seat_rows(body) == {
        "Ben": ("1", "1"),
        "Cat": ("1", "·"),
        "Dan": ("0", "·"),
        "Ann": ("0", "·"),
    }
    assert scored(ok(pages.tricks(pid, 2, 1)))
    with app.app_context():
        assert stored_tricks(pid, 2) == [0, 1, 1, 0]


def test_undo_takes_back_the_tap_and_the_counts_it_filled_in(pages: Pages, pid: str) -> None:
    ok(pages.tricks(pid, 1, 1))  # Ben 1
    body = ok(pages.tricks(pid, 2, 1)).get_data(as_text=True)  # Cat 1: Dan and Ann 0, scored
    assert 'name="round" value="2"' in section(body, "entry")
    body = ok(pages.post(pid, "reopen", round=2)).get_data(as_text=True)
    assert [took for _, took in seat_rows(body).values()] == ["1", "·", "·", "·"]


def test_a_filled_in_count_is_checked_and_the_tap_can_be_taken_back(pages: Pages, pid: str) -> None:
    ok(pages.tricks(pid, 1, 2))
    ok(pages.post(pid, "reopen", round=2))
    refused = pages.tricks(pid, 3, 3)  # Dan can't have 3 tricks of 2
    assert alert(refused) == "Tricks taken go from 0 to 2."
    ok(pages.tricks(pid, 3, 1))
    refused = pages.tricks(pid, 1, 2)  # with Dan's 1, only 1 is left
    assert "can't have taken 2" in (alert(refused) or "")
    ok(pages.post(pid, "clear", clear="tricks:3"))
    ok(pages.tricks(pid, 1, 0))
    body = ok(pages.tricks(pid, 2, 1)).get_data(as_text=True)
    assert [took for _, took in seat_rows(body).values()] == ["0", "1", "·", "·"]
