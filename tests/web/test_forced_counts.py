"""Counts that are forced fill themselves in (fewer taps at the table): once every trick of
the round is taken the others took none, and the last count is what is left. The tricks
must add up to the cards dealt (R9: a bid is 0 to the cards in hand; each card is one trick
taken by someone)."""

from __future__ import annotations

import pytest

from tests.web.support import Pages, alert, ok, seat_rows


@pytest.fixture
def pid(pages: Pages) -> str:
    """Ann, Ben, Cat, Dan; round 2 (two cards each): Ann deals, Ben bids first."""
    pid = pages.new_game(["Ann", "Ben", "Cat", "Dan"], dealer=3)
    pages.play_round(pid, {0: 0, 1: 0, 2: 0, 3: 1}, {0: 0, 1: 0, 2: 0})
    for seat, bid in ((1, 1), (2, 1), (3, 0), (0, 0)):
        ok(pages.bid(pid, seat, bid))
    return pid


def test_once_every_trick_is_taken_the_others_took_none(pages: Pages, pid: str) -> None:
    body = ok(pages.tricks(pid, 1, 2)).get_data(as_text=True)
    assert seat_rows(body) == {
        "Ben": ("1", "2"),
        "Cat": ("1", "0"),
        "Dan": ("0", "0"),
        "Ann": ("0", "0"),
    }
    assert "Confirm round 2" in body


def test_the_counts_left_open_until_the_tricks_are_all_taken(pages: Pages, pid: str) -> None:
    body = ok(pages.tricks(pid, 1, 1)).get_data(as_text=True)
    assert seat_rows(body) == {
        "Ben": ("1", "1"),
        "Cat": ("1", "·"),
        "Dan": ("0", "·"),
        "Ann": ("0", "·"),
    }
    body = ok(pages.tricks(pid, 2, 1)).get_data(as_text=True)
    assert [took for _, took in seat_rows(body).values()] == ["1", "1", "0", "0"]


def test_undo_takes_back_the_tap_and_the_counts_it_filled_in(pages: Pages, pid: str) -> None:
    ok(pages.tricks(pid, 1, 1))  # Ben 1
    body = ok(pages.tricks(pid, 2, 1)).get_data(as_text=True)  # Cat 1: Dan and Ann 0
    assert 'name="clear" value="tricks:2" class="secondary small undo"' in body
    body = ok(pages.post(pid, "clear", clear="tricks:2")).get_data(as_text=True)
    assert [took for _, took in seat_rows(body).values()] == ["1", "·", "·", "·"]


def test_a_filled_in_count_is_checked_and_the_tap_can_be_taken_back(pages: Pages, pid: str) -> None:
    ok(pages.tricks(pid, 1, 2))
    refused = pages.tricks(pid, 3, 1)  # Dan's 0 was forced: 1 would make 3 tricks of 2
    assert "can't have taken 1" in alert(refused)
    ok(pages.post(pid, "clear", clear="tricks:1"))
    ok(pages.tricks(pid, 1, 0))
    body = ok(pages.tricks(pid, 2, 2)).get_data(as_text=True)
    assert [took for _, took in seat_rows(body).values()] == ["0", "2", "0", "0"]
