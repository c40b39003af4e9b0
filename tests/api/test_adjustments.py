"""Bonuses and penalties through the API: given and taken back by the scorer, shown with
their round (their points in the totals), refused with a code and nothing stored."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper.engine import ADJUSTMENTS_MAX
from scorekeeper.services import transfer
from tests.api.support import Api, Game, error_of


def _played(api: Api) -> Game:
    game = api.create()
    api.play(game, [1, 0, 0], [1, 0, 0])
    return game


def _give(api: Api, game: Game, number: int, **body: Any) -> Any:
    return api.client.post(f"{game.url}/rounds/{number}/adjustments", json=body, headers=game.auth)


def test_given_shown_and_taken_back(api: Api) -> None:
    game = _played(api)
    before = api.get(game)["totals"]
    given = _give(api, game, 1, seat=2, points=-15, reason="revoke")
    assert given.status_code == 201
    body = given.get_json()
    assert body["rounds"][0]["adjustments"] == [{"seat": 2, "points": -15, "reason": "revoke"}]
    assert body["rounds"][0]["scores"] == [30, 20, 20]  # the rules' scores
    assert body["totals"] == [before[0], before[1], before[2] - 15]
    round_1 = api.client.get(f"{game.url}/rounds/1").get_json()
    assert round_1["adjustments"][0]["points"] == -15
    taken = api.client.delete(f"{game.url}/rounds/1/adjustments/0", headers=game.auth)
    assert taken.status_code == 200
    assert taken.get_json()["totals"] == before
    assert taken.get_json()["rounds"][0]["adjustments"] == []


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"seat": 0, "points": 0}, 422, "adjustment_points"),
        ({"seat": 0, "points": 501}, 422, "adjustment_points"),
        ({"seat": 0, "points": 10**40}, 422, "adjustment_points"),
        ({"seat": 3, "points": 10}, 422, "adjustment_seat"),
        ({"seat": -1, "points": 10}, 422, "adjustment_seat"),
        ({"seat": 0, "points": 10, "reason": "x" * 61}, 422, "adjustment_reason"),
        ({"seat": 0, "points": 10, "reason": "nul\x00here"}, 422, "adjustment_reason_characters"),
        *(
            ({"seat": 0, "points": 10, "reason": f"re{c}voke"}, 422, "adjustment_reason_characters")
            for c in ("\u202e", "\u200b", "\ufeff", "\u2066")
        ),
        ({"seat": 0}, 400, "bad_request"),
        ({"seat": 0, "points": "10"}, 400, "bad_request"),
        ({"seat": 0, "points": 10, "extra": 1}, 400, "bad_request"),
    ],
)
def test_bad_bodies_are_refused_and_nothing_stored(
    api: Api, body: dict[str, Any], status: int, code: str
) -> None:
    game = _played(api)
    with api.unchanged(game):
        assert error_of(_give(api, game, 1, **body)) == (status, code)


def test_a_round_takes_twenty_and_no_more(api: Api, client: FlaskClient) -> None:
    # Before, a round took any number, so a game could be made that every page took
    # seconds to render and that its own export could not bring back.
    game = _played(api)
    for n in range(ADJUSTMENTS_MAX):
        assert _give(api, game, 1, seat=n % 3, points=1).status_code == 201
    with api.unchanged(game):
        refused = _give(api, game, 1, seat=0, points=1)
        assert error_of(refused) == (422, "adjustments_many")
        assert refused.get_json()["error"]["message"] == (
            "A round has at most 20 bonuses and penalties."
        )
    # The game as exported comes back whole.
    exported = client.get(f"/games/{game.id}/export.json")
    assert exported.status_code == 200
    with client.application.test_request_context():
        assert len(transfer.parse_history(exported.data)[0].rounds[0].adjustments) == 20


def test_a_round_not_played_missing_or_without_it(api: Api) -> None:
    game = api.create()
    api.add(game, [1, 0, 0])  # round 1: bids only
    with api.unchanged(game):
        assert error_of(_give(api, game, 1, seat=0, points=10)) == (422, "round_open")
        assert _give(api, game, 2, seat=0, points=10).status_code == 404
        gone = api.client.delete(f"{game.url}/rounds/1/adjustments/0", headers=game.auth)
        assert gone.status_code in (404, 422)


def test_only_the_scorer(api: Api, client: FlaskClient) -> None:
    game = _played(api)
    with api.unchanged(game):
        stranger = client.post(f"{game.url}/rounds/1/adjustments", json={"seat": 0, "points": 5})
        assert stranger.status_code in (401, 403)
        wrong = client.post(
            f"{game.url}/rounds/1/adjustments",
            json={"seat": 0, "points": 5},
            headers={"Authorization": "Bearer not-the-token"},
        )
        assert wrong.status_code in (401, 403)
