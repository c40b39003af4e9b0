"""A round's bonuses and penalties (the app's own, no rule of the books) are bounded where
one is added, not where a game is read: the engine's ``check_adjustments``."""

import pytest

from scorekeeper.engine import (
    ADJUSTMENTS_MAX,
    Adjustment,
    InvalidRound,
    RoundEntry,
    RuleSet,
    check_adjustments,
    score_sheet,
)


def test_a_round_stored_with_more_adjustments_than_the_bound_still_adds_up() -> None:
    # The bound (ADJUSTMENTS_MAX) is for adding one: a game stored with more before it
    # was set still shows and exports.
    many = tuple(Adjustment(0, 1) for _ in range(ADJUSTMENTS_MAX + 1))
    sheet = score_sheet(RuleSet(), 3, 0, [RoundEntry((1, 0, 0), (1, 0, 0), adjustments=many)])
    assert sheet.rounds[0].totals[0] == sheet.rounds[0].scores[0] + ADJUSTMENTS_MAX + 1  # type: ignore[index]
    with pytest.raises(InvalidRound) as refused:
        check_adjustments(many, 3)
    assert refused.value.code == "adjustments_many"
