"""R17: places at the end, as both the score pad and the digital table show them."""

from scorekeeper.engine import TieBreak, places, winners


def test_equal_totals_share_a_place_and_the_next_is_counted_on() -> None:
    totals = [10, 30, 30, 5]
    assert places(totals, winners(totals)) == [(1, 1, 30), (1, 2, 30), (3, 0, 10), (4, 3, 5)]


def test_a_tie_break_puts_its_winner_alone_in_first_place() -> None:
    totals = [10, 30, 30, 5]
    won = winners(totals, TieBreak.BID_TOTAL, [3, 4, 6, 1])
    assert won == [2]
    assert places(totals, won) == [(1, 2, 30), (2, 1, 30), (3, 0, 10), (4, 3, 5)]


def test_before_the_end_nobody_is_set_apart() -> None:
    assert places([0, 20, 20], []) == [(1, 1, 20), (1, 2, 20), (3, 0, 0)]
