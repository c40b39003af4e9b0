"""The printed pad's standings give the places of the game page (R17): equal totals share
a place, and when the tie-break (R17's option, the higher total of bids) decided the win,
the winner stands alone in first place and the one it beat is second."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.engine import RuleSet
from scorekeeper.services import games
from scorekeeper.services.padview import pad_view
from tests.pdf.support import pdftext

SHORT_CARDS = [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    with app.app_context():
        yield


def _rules(tie_break: str) -> RuleSet:
    # V10 with no points per trick: every exact bid scores 20 whatever was bid, so Ann
    # (who bids every card) and Ben (who bids none) end level on 200, Ann with the higher
    # total of bids.
    return RuleSet.from_dict(
        {
            "round_plan": "short",
            "tie_break": tie_break,
            "scoring": {"exact_bonus": 20, "per_trick": 0, "per_miss": 10},
        }
    )


def _standings(
    client: FlaskClient, tie_break: str, rounds: int
) -> tuple[str, list[tuple[int, int, int]]]:
    game, _ = games.create_game(["Ann", "Ben", "Cat"], 0, _rules(tie_break))
    for cards in SHORT_CARDS[:rounds]:
        # Ann bids all and takes all, Ben bids and takes none, Cat bids 1 and takes none.
        games.record_round(game, [cards, 0, 1], [cards, 0, 0])
    response = client.get(f"/games/{game.public_id}/pad.pdf")
    assert response.status_code == 200
    text = " ".join(pdftext(response.data).split())
    return text, pad_view(game).places


def test_a_tie_broken_by_bids_prints_the_loser_second(client: FlaskClient, ctx: None) -> None:
    text, places = _standings(client, "bid_total", 10)
    assert places == [(1, 0, 200), (2, 1, 200), (3, 2, -100)]
    assert "Final standings: 1. ★ Ann 200 2. Ben 200 3. Cat -100" in text
    assert "1. Ben" not in text and "★ Ben" not in text


def test_a_shared_win_prints_both_first(client: FlaskClient, ctx: None) -> None:
    text, places = _standings(client, "shared", 10)
    assert places == [(1, 0, 200), (1, 1, 200), (3, 2, -100)]
    assert "Final standings: 1. ★ Ann 200 1. ★ Ben 200 3. Cat -100" in text


def test_level_totals_share_a_place_while_the_game_goes_on(client: FlaskClient, ctx: None) -> None:
    # The tie-break settles a finished game only: after round 3, Ann and Ben share first.
    text, places = _standings(client, "bid_total", 3)
    assert places == [(1, 0, 60), (1, 1, 60), (3, 2, -30)]
    assert "After round 3 of 10: 1. Ann 60 1. Ben 60 3. Cat -30" in text
