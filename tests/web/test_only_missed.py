"""The score pad's "Only Ben missed": when someone missed, one tap says who alone did;
the others go in as bid, the count of the one who missed is what the tricks left leave
(R16), shown on the button before the tap, and the round is scored. A refused tap says
why and stores nothing; secret bids (V4) never offer it."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from flask import Flask

from scorekeeper.extensions import db
from scorekeeper.models import Change
from tests.web.support import (
    Pages,
    alert,
    ok,
    pad_totals,
    scored,
    section,
    stored_tricks,
    text_of,
)
from tests.web.test_trick_entry import REST, to_round_3

Snapshot = Callable[[str], tuple[object, ...]]


@pytest.fixture
def pid(pages: Pages) -> str:
    pid = pages.new_game(["Ann", "Ben", "Cat", "Dan"], dealer=3)
    to_round_3(pages, pid)  # round 3: 3 cards, Ben deals, Cat bids first
    return pid


def labels(panel: str) -> dict[str, str]:
    found = panel.split("data-labels='", 1)[1].split("'", 1)[0]
    return {k: v for k, v in json.loads(found.replace("&#34;", '"')).items()}


def test_r16_only_one_missed_in_one_tap(pages: Pages, app: Flask, pid: str) -> None:
    for seat, bid in ((2, 1), (3, 0), (0, 1), (1, 0)):  # 2 bid for 3 tricks
        ok(pages.bid(pid, seat, bid))
    panel = section(ok(pages.page(pid)).get_data(as_text=True), "entry")
    # Cat is asked first; if she alone missed she took 2. Each player's words are there
    # for app.js to show when the keys point at them.
    assert "✓ Only Cat missed: took 2" in text_of(panel) and REST not in text_of(panel)
    assert labels(panel) == {
        "2": "Only Cat missed: took 2",
        "3": "Only Dan missed: took 1",
        "0": "Only Ann missed: took 2",
        "1": "Only Ben missed: took 1",
    }
    response = ok(pages.post(pid, "tricks/missed", seat=0))  # Ann took 2
    assert scored(response)
    with app.app_context():
        assert stored_tricks(pid, 3) == [2, 0, 1, 0]
    body = response.get_data(as_text=True)
    assert pad_totals(body, 3) == [40, 70, 70, 70]
    with app.app_context():
        line = db.session.scalars(
            db.select(Change).filter_by(message="only_missed").order_by(Change.id.desc())
        ).first()
        assert line is not None and line.facts == {"number": 3, "name": "Ann"}
        assert line.summary == "Round 3: only Ann missed, the rest made their bids"
    # Undo opens the round again without any of that tap's counts.
    assert "Round 3 is scored. ↶ Undo" in text_of(section(body, "entry"))
    ok(pages.post(pid, "reopen", round=3))
    with app.app_context():
        assert stored_tricks(pid, 3) == [None, None, None, None]


def test_not_offered_while_the_rest_can_have_made_their_bids(pages: Pages, pid: str) -> None:
    for seat, bid in ((2, 1), (3, 1), (0, 1), (1, 0)):  # 3 for 3: maybe nobody missed
        ok(pages.bid(pid, seat, bid))
    panel = section(ok(pages.page(pid)).get_data(as_text=True), "entry")
    assert "missed-form" not in panel and "Everyone made their bid" in text_of(panel)


def refused(pages: Pages, pid: str, snapshot: Snapshot, seat: object, says: str) -> str:
    """The tap is refused with ``says`` and nothing stored changes; the answer."""
    before = snapshot(pid)
    response = pages.post(pid, "tricks/missed", seat=seat)
    assert response.status_code == 422
    assert alert(response) == says
    assert snapshot(pid) == before
    return response.get_data(as_text=True)


def test_a_player_who_cant_be_the_only_one_is_refused_with_why(
    pages: Pages, pid: str, snapshot: Snapshot
) -> None:
    for seat, bid in ((2, 2), (3, 0), (0, 1), (1, 1)):  # 4 bid for 3 tricks
        ok(pages.bid(pid, seat, bid))
    panel = section(ok(pages.page(pid)).get_data(as_text=True), "entry")
    # Dan bid 0: alone he would have taken -1. His button says no count.
    assert labels(panel)["3"] == "Only Dan missed"
    says = "Dan can't be the only one who missed: the others' bids come to 4, and only 3 "
    answer = refused(pages, pid, snapshot, 3, says + "tricks are left.")
    # The refusal is next to the keys (the thumb zone), with the button still there.
    zone = answer.split('class="thumb-zone"', 1)[1]
    assert zone.index('role="alert"') < zone.index('class="keys"')


@pytest.mark.parametrize("seat", ["9", "-1", "x", "", "1" * 5000])
def test_bad_seats_are_refused(pages: Pages, pid: str, snapshot: Snapshot, seat: str) -> None:
    for s, bid in ((2, 1), (3, 0), (0, 1), (1, 0)):
        ok(pages.bid(pid, s, bid))
    refused(pages, pid, snapshot, seat, "There is no such player at this table.")


def test_a_count_already_in_and_bids_missing(pages: Pages, pid: str, snapshot: Snapshot) -> None:
    ok(pages.bid(pid, 2, 1))
    refused(pages, pid, snapshot, 2, "Enter every bid before the tricks.")
    for seat, bid in ((3, 0), (0, 1), (1, 0)):
        ok(pages.bid(pid, seat, bid))
    ok(pages.tricks(pid, 2, 0))
    refused(pages, pid, snapshot, 2, "Cat's count is already in.")


def test_v4_secret_bids_never_offer_it(pages: Pages, snapshot: Snapshot) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"], dealer=0, bidding="secret")
    for seat in (1, 2, 0):
        ok(pages.bid(pid, seat, 0))
    body = ok(pages.page(pid)).get_data(as_text=True)
    assert "missed-form" not in body
    says = "The bids are secret until the round is scored: enter each count."
    refused(pages, pid, snapshot, 1, says)


def test_a_stranger_gets_403(pages: Pages, pid: str, snapshot: Snapshot, app: Flask) -> None:
    for seat, bid in ((2, 1), (3, 0), (0, 1), (1, 0)):
        ok(pages.bid(pid, seat, bid))
    before = snapshot(pid)
    response = app.test_client().post(f"/games/{pid}/tricks/missed", data={"seat": "0"})
    assert response.status_code in (400, 403)
    assert snapshot(pid) == before


def test_the_offline_data_has_its_words_and_where_it_goes(pages: Pages, pid: str) -> None:
    data = pages.client.get(f"/games/{pid}/plan.json").get_json()
    assert data["urls"]["missed"] == f"/games/{pid}/tricks/missed"
    assert data["texts"]["missed"][:2] == [
        "Only {name} missed: took 0",
        "Only {name} missed: took 1",
    ]
    assert len(data["texts"]["missed"]) == 16  # 0 to 15 cards, four players' last round
    assert data["texts"]["missed_none"] == "Only {name} missed"
    german = pages.client.get(f"/games/{pid}/plan.json", headers={"Accept-Language": "de"})
    assert german.get_json()["texts"]["missed"][1] == "Nur {name} daneben: 1 Stich"


def test_the_refusal_and_the_button_in_german(pages: Pages, pid: str) -> None:
    for seat, bid in ((2, 2), (3, 0), (0, 1), (1, 1)):  # 4 bid for 3 tricks
        ok(pages.bid(pid, seat, bid))
    german = {"HX-Request": "true", "Accept-Language": "de"}
    page = pages.client.get(f"/games/{pid}", headers={"Accept-Language": "de"})
    assert "✓ Nur Cat daneben: 1 Stich" in text_of(section(page.get_data(as_text=True), "entry"))
    response = pages.client.post(f"/games/{pid}/tricks/missed", data={"seat": "3"}, headers=german)
    assert response.status_code == 422
    assert alert(response) == (
        "Dan kann nicht allein danebenliegen: Die Ansagen der anderen ergeben schon 4, "
        "und nur 3 Stiche sind übrig."
    )
