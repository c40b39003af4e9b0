"""A player's insights against numbers worked out by hand from the fixture history
(support.py: g1 and g2 short games of 3 with the first dealer in seat 0, g3 two rounds
of a full game of 4)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from flask import Flask

from scorekeeper.services import insights, ratings, stats
from tests.history.support import Fixture

# Ann sits in seat 0. In g1 and g2 (3 players) the dealer of round r is seat (r - 1) % 3,
# so Ann deals (position 0) in rounds 1, 4, 7, 10, bids first (position 1: (0 - 2) % 3)
# in rounds 3, 6, 9 and second (position 2) in rounds 2, 5, 8. Round r has 2r cards.
#   g1: exact every round: 20 + 20r.
#   g2: exact in rounds 1-5 (20 + 20r), then bid 2r and took none: -20r.
#   g3: round 1 (she deals, 1 card) exact on 1: 30; round 2 (dealer seat 1: position 3)
#       bid 0, took 1: -10.
DEALING = (40 + 100 + 160 + 220) + (40 + 100 - 140 - 200) + 30  # 9 rounds: 350
FIRST = (80 + 140 + 200) + (80 - 120 - 180)  # 6 rounds: 200
SECOND = (60 + 120 + 180) + (60 + 120 - 160)  # 6 rounds: 380


def test_points_by_seat_relative_to_the_dealer(app: Flask, fx: Fixture) -> None:
    with app.app_context():
        lines = {
            line.position: (line.rounds, line.points, line.bid_rounds, line.exact)
            for line in insights.by_seat(fx.ann)
        }
    assert lines == {
        0: (9, DEALING, 9, 4 + 2 + 1),  # g2 rounds 1 and 4 exact; 7 and 10 not
        1: (6, FIRST, 6, 3 + 1),  # g2 round 3
        2: (6, SECOND, 6, 3 + 2),  # g2 rounds 2 and 5
        3: (1, -10, 1, 0),
    }


def _sentences(app: Flask, fx: Fixture, player: int) -> list[str]:
    with app.test_request_context(headers={"Accept-Language": "en"}):
        s = stats.player_stats(player, fx.circle_id)
        return insights.for_player(s).sentences


def test_annes_insights_in_words(app: Flask, fx: Fixture, monkeypatch: pytest.MonkeyPatch) -> None:
    # Ann by cards: 1-4 cards: 1 + 3 + 2 rounds, 1 + 2 + 2 exact (83 %); 5-10: 6 of 6;
    # 11-20: 5 of 10. Missed: 1 over (g3), 5 under (g2).
    assert _sentences(app, fx, fx.ann) == [
        "Bids are most often exact with 5 to 10 cards in hand (100% of 6 rounds), least "
        "often with 11 or more cards (50% of 10).",
        "Bids tend to be too high: 5 of 6 missed bids took fewer tricks than bid.",
        "Longest winning streak: 1 game.",  # g1 won, g2 not
    ]
    # Six rounds in a seat are enough to compare it: bidding second is her best seat.
    monkeypatch.setattr(insights, "MIN_SEAT_ROUNDS", 6)
    assert (
        f"Best seat: bidding second, {SECOND / 6:.1f} points a round (6 rounds); worst: "
        f"bidding first, {FIRST / 6:.1f} (6 rounds)." in _sentences(app, fx, fx.ann)
    )


def test_insights_in_german(app: Flask, fx: Fixture) -> None:
    with app.test_request_context(headers={"Accept-Language": "de"}):
        s = stats.player_stats(fx.ann, fx.circle_id)
        found = insights.for_player(s).sentences
    assert found[0].startswith("Am häufigsten genau sind die Ansagen mit 5 bis 10 Karten")
    assert "100\u00a0% von 6 Runden" in found[0]
    assert found[1] == (
        "Ansagen sind eher zu hoch: 5 von 6 verfehlten Ansagen brachten weniger Stiche als "
        "angesagt."
    )


def test_too_few_rounds_say_nothing(app: Flask, fx: Fixture) -> None:
    """Cat played g1 (10 rounds, every bid 1 and none taken: all too high) and the two
    rounds of g3 (exact): 4 rounds of 1-4 cards, 3 of 5-10, 5 of 11-20. Only the last
    band has rounds enough, so there is no comparison, one band's rate; she never won."""
    found = _sentences(app, fx, fx.cat)
    assert found[0] == "With 11 or more cards in hand, bids were exact in 0% of 5 rounds."
    assert "Bids tend to be too high: 10 of 10 missed bids took fewer tricks than bid." in found
    assert not any("winning streak" in text for text in found)


def _streaks(places: tuple[int, ...]) -> tuple[int, int]:
    """Player 1's longest and current winning run after games with these places."""
    games = [
        ratings.Finished(
            (datetime(2026, 1, 1 + i, tzinfo=UTC), i + 1),
            ((1, 100, True), (2, 0, False)) if place == 1 else ((1, 0, False), (2, 100, True)),
        )
        for i, place in enumerate(places)
    ]
    steps = [s for s in ratings.rate(games, {}) if s["player_id"] == 1]
    return (steps[-1]["best_run"], steps[-1]["run"]) if steps else (0, 0)


@pytest.mark.parametrize(
    ("places", "expected"),
    [
        ((), (0, 0)),
        ((2, 2), (0, 0)),
        ((1, 1, 2, 1), (2, 1)),
        ((1, 2, 1, 1, 1), (3, 3)),
        ((1, 1, 1, 2, 1, 1), (3, 2)),
    ],
)
def test_winning_streaks(places: tuple[int, ...], expected: tuple[int, int]) -> None:
    assert _streaks(places) == expected
