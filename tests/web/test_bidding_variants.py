"""Hidden bids (V3), secret bids (V4) and Wizard Saboteur (V6) on the pages."""

import csv
import io
import re
from collections.abc import Callable
from functools import partial

from flask import Flask

from scorekeeper import transaction
from scorekeeper.services import games as game_service
from tests.web.support import (
    HX,
    Pages,
    alert,
    ok,
    pad_bids,
    pad_totals,
    seat_rows,
    section,
    text_of,
)

Snapshot = Callable[[str], tuple[object, ...]]


def test_hidden_bids_are_masked_until_the_last_is_in(pages: Pages, follower: Pages) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"], dealer=0, bidding="hidden", round_plan="short")
    ok(pages.bid(pid, 1, 2))
    body = ok(pages.bid(pid, 2, 1)).get_data(as_text=True)
    for html in (
        body,
        pages.page(pid).get_data(as_text=True),
        follower.page(pid).get_data(as_text=True),
    ):
        rows = seat_rows(html)
        assert rows["Ben"][0] == "✓" and rows["Cat"][0] == "✓" and rows["Ann"][0] == "·"
        assert pad_bids(html, 1) == ["", "✓", "✓"]
        assert "Hidden bids: they are shown together once everyone has bid." in html
        assert 'aria-label="Ben&#39;s bid' not in html
    body = ok(pages.bid(pid, 0, 0)).get_data(as_text=True)
    # Revealed together.
    assert [b for b, _t in seat_rows(body).values()] == ["2", "1", "0"]
    assert pad_bids(body, 1) == ["0", "2", "1"]
    assert "1 over" in body


def test_v3_the_exports_show_hidden_bids_when_the_pad_does(pages: Pages) -> None:
    """One answer for every view (engine.bids_seen): the game's CSV and JSON leave the
    hidden bids out while the pad does, and show them as soon as it does, the round still
    open."""
    pid = pages.new_game(["Ann", "Ben", "Cat"], dealer=0, bidding="hidden", round_plan="short")

    def exported() -> tuple[list[str], list[int | None]]:
        rows = list(csv.reader(io.StringIO(ok(pages.client.get(f"/games/{pid}/export.csv")).text)))
        bid = rows[0].index("bid")
        data = ok(pages.client.get(f"/games/{pid}/export.json")).get_json()
        return [row[bid] for row in rows[1:]], data["game"]["rounds"][0]["bids"]

    ok(pages.bid(pid, 1, 2))
    ok(pages.bid(pid, 2, 1))
    assert pad_bids(pages.page(pid).get_data(as_text=True), 1) == ["", "✓", "✓"]
    assert exported() == (["", "", ""], [None, None, None])
    ok(pages.bid(pid, 0, 0))
    assert pad_bids(pages.page(pid).get_data(as_text=True), 1) == ["0", "2", "1"]
    assert exported() == (["0", "2", "1"], [0, 2, 1])


def normalise(body: str, pids: tuple[str, ...]) -> str:
    """A response with what legitimately differs between two games taken out."""
    for pid in pids:
        body = body.replace(pid, "GAME")
    body = re.sub(r'name="csrf_token" value="[^"]*"', "", body)
    body = re.sub(r'name="idempotency_key" value="[^"]*"', "", body)  # fresh per form
    body = re.sub(r'name="taken" value="[^"]*"', "", body)  # sealed with a fresh nonce
    body = re.sub(r'"X-CSRFToken": "[^"]*"', "", body)
    body = re.sub(r"<time[^>]*>[^<]*</time>", "", body)
    body = re.sub(r"\d{4}-\d\d-\d\dT[\d:.]+(\+00:00|Z)?", "TIME", body)  # API timestamps
    body = re.sub(r"<svg.*?</svg>", "", body, flags=re.S)  # QR codes of different links
    body = re.sub(r"/score/[\w-]+", "/score/TOKEN", body)
    return body


def test_secret_bids_are_shown_nowhere_until_the_round_is_scored(
    pages: Pages, follower: Pages
) -> None:
    """Two games played alike except for their secret bids: until the tricks are
    recorded, every page and fragment of one is the same as the other's, so no byte of
    any answer depends on a secret bid."""
    a = pages.new_game(["Ann", "Ben", "Cat"], dealer=0, bidding="secret", round_plan="short")
    b = pages.new_game(["Ann", "Ben", "Cat"], dealer=0, bidding="secret", round_plan="short")
    secret = {a: {1: 2, 2: 0, 0: 1}, b: {1: 0, 2: 1, 0: 2}}  # round 1: 2 cards each

    def views(pid: str, action: Callable[[], object]) -> list[str]:
        answer = action()
        return [
            answer.get_data(as_text=True),  # type: ignore[attr-defined]
            pages.page(pid).get_data(as_text=True),
            pages.client.get(f"/games/{pid}", headers=HX).get_data(as_text=True),
            follower.page(pid).get_data(as_text=True),
            follower.client.get(f"/games/{pid}/live?v=0", headers=HX).get_data(as_text=True),
            pages.client.get("/").get_data(as_text=True),
            pages.client.get(f"/api/v1/games/{pid}").get_data(as_text=True),
        ]

    steps: list[Callable[[str], object]] = [
        *(lambda pid, s=s: pages.bid(pid, s, secret[pid][s]) for s in (1, 2, 0)),
        lambda pid: pages.post(pid, "trump", trump="green"),
        lambda pid: pages.tricks(pid, 1, 1),
        lambda pid: pages.post(pid, "clear", clear="tricks:1"),
        lambda pid: pages.tricks(pid, 1, 1),
    ]
    for step in steps:
        seen_a = views(a, partial(step, a))
        seen_b = views(b, partial(step, b))
        for one, other in zip(seen_a, seen_b, strict=True):
            assert normalise(one, (a, b)) == normalise(other, (a, b))
    body = pages.page(a).get_data(as_text=True)
    assert [v[0] for v in seat_rows(body).values()] == ["✓", "✓", "✓"]
    assert "Secret bids: they are shown once the round is scored." in body
    # Cat's count leaves Ann's to fill itself in: scored, and now they show.
    body = ok(pages.tricks(a, 2, 1)).get_data(as_text=True)
    assert pad_bids(body, 1) == ["1", "2", "0"]
    assert pad_totals(body, 1) == [-10, -10, -10]


def test_open_round_of_a_secret_game_cannot_be_opened_for_correction(
    pages: Pages,
) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"], bidding="secret")
    ok(pages.bid(pid, 1, 1))
    assert pages.client.get(f"/games/{pid}/rounds/1/edit").status_code == 404
    assert pages.correct(pid, 1, [0, 1, 0], [0, 1, 0]).status_code == 404


def test_saboteur_dealer_has_no_bid(pages: Pages, app: Flask, snapshot: Snapshot) -> None:
    pid = pages.new_game(
        ["Ann", "Ben", "Cat"], dealer=0, saboteur=True, dealer_rule="plus_minus_one"
    )
    body = pages.whole_page(pid).get_data(as_text=True)
    assert seat_rows(body)["Ann"] == ("no bid", "·")
    assert "Wizard Saboteur: the dealer does not bid" in body
    ok(pages.bid(pid, 1, 0))
    # Cat bids last: the plus/minus one constraint falls on her.
    body = pages.page(pid).get_data(as_text=True)
    assert "Cat can&#39;t bid 1: the bids would add up to the 1 trick" in body
    body = ok(pages.bid(pid, 2, 0)).get_data(as_text=True)
    assert "Tricks: Ben took" in text_of(body)  # no bid asked of Ann
    before = snapshot(pid)
    response = pages.bid(pid, 0, 0)
    assert response.status_code == 422
    assert alert(response) == "Ann deals and does not bid under Wizard Saboteur."
    assert snapshot(pid) == before
    ok(pages.tricks(pid, 1, 0))
    body = ok(pages.tricks(pid, 2, 0)).get_data(as_text=True)  # Ann took the trick: scored
    assert pad_bids(body, 1) == ["–", "0", "0"]
    assert pad_totals(body, 1) == [20, 20, 20]
    with app.app_context():
        assert game_service.get_game(pid).rounds[0].results[0].bid is None
    assert section(body, "entry")


def test_foresight_round_is_a_reminder_on_round_1(pages: Pages) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"], foresight=True)
    reminder = "Foresight round: hold your card to your forehead"
    assert reminder in pages.page(pid).get_data(as_text=True)
    body = pages.play_round(pid, {1: 0, 2: 0, 0: 0}, {1: 1, 2: 0}).get_data(as_text=True)
    assert reminder not in body


def test_unicoloured_rounds_have_no_trump(pages: Pages, snapshot: Snapshot) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat", "Dan"], round_plan="unicoloured")
    body = pages.page(pid).get_data(as_text=True)
    panel = section(body, "entry")
    assert "4</strong> cards each" in panel and "unicoloured game" in panel
    assert 'name="trump"' not in panel
    before = snapshot(pid)
    assert pages.post(pid, "trump", trump="blue").status_code == 422
    assert snapshot(pid) == before


def test_equal_totals_share_the_win(pages: Pages, app: Flask) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"], round_plan="short")
    with app.app_context(), transaction.atomic():
        game = game_service.get_game(pid)
        for cards in (2, 4, 6, 8, 10, 12, 14, 16, 18):
            game_service.record_round(game, [0, 0, 0], [cards, 0, 0])
    body = pages.play_round(pid, {1: 1, 2: 0, 0: 0}, {1: 0, 2: 1}).get_data(as_text=True)
    assert "Ben and Cat share the win." in text_of(section(body, "entry"))
