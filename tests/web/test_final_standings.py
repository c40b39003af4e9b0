"""The final standings of a finished game: equal totals share a place (R17)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import transaction
from scorekeeper.services import games as game_service
from tests.web.support import section, text_of

# A short game (V8) of three, ending Anna 390, Ben 390, Clara 370; Anna bid 40 tricks in
# all, Ben 31. (bids, tricks) per round, in seat order.
TIED_GAME = [
    ([0, 1, 0], [0, 2, 0]),
    ([2, 1, 3], [0, 1, 3]),
    ([5, 0, 1], [4, 0, 2]),
    ([1, 1, 7], [1, 2, 5]),
    ([0, 4, 4], [1, 4, 5]),
    ([4, 1, 8], [4, 0, 8]),
    ([6, 2, 6], [6, 2, 6]),
    ([5, 8, 3], [5, 8, 3]),
    ([1, 11, 5], [2, 11, 5]),
    ([16, 2, 2], [16, 2, 2]),
]


def finished_game(app: Flask, **rules: Any) -> str:
    """Anna, Ben and Clara's tied game, played to the end; its scorer link."""
    with app.app_context(), transaction.atomic():
        rule_set = game_service.parse_rules({"round_plan": "short", **rules})
        game, token = game_service.create_game(["Anna", "Ben", "Clara"], 0, rule_set)
        for bids, tricks in TIED_GAME:
            game_service.record_round(game, bids, tricks)
        assert game_service.sheet_of(game).totals == (390, 390, 370)
        return f"/games/{game.public_id}/score/{token}"


def standings(client: FlaskClient, link: str) -> list[str]:
    """The final standings as the scorer's page lists them: "1. Anna 390", …"""
    page = client.get(link, follow_redirects=True).get_data(as_text=True)
    listing = re.search(r'<ol class="standings">(.*?)</ol>', section(page, "entry"), re.S)
    assert listing, "no final standings"
    return [text_of(item) for item in re.findall(r"<li[^>]*>(.*?)</li>", listing.group(1), re.S)]


def test_r17_a_shared_win_shares_first_place(app: Flask, client: FlaskClient) -> None:
    assert standings(client, finished_game(app)) == ["1. Anna 390", "1. Ben 390", "3. Clara 370"]
    body = client.get(finished_game(app), follow_redirects=True).get_data(as_text=True)
    assert "share the win" in text_of(section(body, "entry"))
    # The list's own numbering says the same to a screen reader.
    assert re.findall(r'<li value="(\d)"', section(body, "entry")) == ["1", "1", "3"]


@pytest.mark.parametrize(
    ("totals", "places"),
    [
        ([390, 390, 370], ["1 Anna", "1 Ben", "3 Clara"]),
        ([370, 390, 390], ["1 Ben", "1 Clara", "3 Anna"]),
        ([100, 90, 90, 80], ["1 Anna", "2 Ben", "2 Clara", "4 Dan"]),
        ([50, 50, 50], ["1 Anna", "1 Ben", "1 Clara"]),
    ],
)
def test_r17_equal_totals_share_a_place_and_the_next_place_counts_on(
    app: Flask, totals: list[int], places: list[str]
) -> None:
    from scorekeeper.services.padview import PadView

    names = ["Anna", "Ben", "Clara", "Dan"][: len(totals)]
    with app.app_context():
        view = PadView(
            public_id="x",
            names=names,
            rules=game_service.parse_rules({}),
            rule_lines=[],
            plan=[1],
            rows=[],
            totals=totals,
            leaders=[],
            finished=True,
            winners=[s for s, t in enumerate(totals) if t == max(totals)],
            standings=sorted(enumerate(totals), key=lambda st: (-st[1], st[0])),
            draft=None,
            version=1,
        )
    assert [f"{place} {names[seat]}" for place, seat, _total in view.places] == places


def test_r17_the_tie_break_sets_the_winner_apart(app: Flask, client: FlaskClient) -> None:
    """With the bid-total tie-break, Anna (40 bid) wins over Ben (31): the tie is broken."""
    link = finished_game(app, tie_break="bid_total")
    assert standings(client, link) == ["1. Anna 390", "2. Ben 390", "3. Clara 370"]
    body = client.get(link, follow_redirects=True).get_data(as_text=True)
    assert "Anna wins on the tie-break" in text_of(section(body, "entry"))
