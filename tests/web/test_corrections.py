"""Correcting past rounds (P2) and deleting the last one, with the change log."""

import re
from collections.abc import Callable

import pytest
from flask import Flask

from scorekeeper import transaction
from scorekeeper.services import games as game_service
from tests.web.support import Pages, alert, ok, pad_rows, pad_totals, section, text_of

Snapshot = Callable[[str], tuple[object, ...]]


@pytest.fixture
def pid(pages: Pages) -> str:
    """Plus/minus one, short game for 3 (2, 4, 6 … cards); two rounds played."""
    pid = pages.new_game(
        ["Ann", "Ben", "Cat"], dealer=0, dealer_rule="plus_minus_one", round_plan="short"
    )
    pages.play_round(pid, {1: 1, 2: 0, 0: 0}, {1: 1, 2: 0})  # Ann (dealer) takes 1
    pages.play_round(pid, {2: 1, 0: 1, 1: 1}, {2: 1, 0: 1})  # Ben (dealer) takes 2
    return pid


def log_text(body: str) -> str:
    return text_of(section(body, "log"))


def test_round_numbers_link_to_the_correction_form(pages: Pages, pid: str) -> None:
    body = pages.page(pid).get_data(as_text=True)
    assert f'href="/games/{pid}/rounds/1/edit"' in body
    assert f'href="/games/{pid}/rounds/3/edit"' not in body  # not scored yet
    form = pages.client.get(f"/games/{pid}/rounds/1/edit", headers={"HX-Request": "true"})
    html = form.get_data(as_text=True)
    assert "Correct round 1" in section(html, "entry")
    assert 'name="bid0"' in html and 'name="tricks2"' in html and 'name="trump"' in html


def test_correction_recomputes_later_totals_and_is_logged(pages: Pages, pid: str) -> None:
    before = pages.page(pid).get_data(as_text=True)
    assert pad_totals(before, 1) == [-10, 30, 20]
    assert pad_totals(before, 2) == [20, 20, 50]
    # Round 1 really: Cat took the trick, not Ann.
    body = ok(pages.correct(pid, 1, [0, 1, 0], [0, 1, 1], trump="red")).get_data(as_text=True)
    assert "Round 1 corrected." in section(body, "entry")
    assert pad_totals(body, 1) == [20, 30, -10]
    assert pad_totals(body, 2) == [50, 20, 20]  # later totals follow; round 2 as played
    assert pad_rows(body)[0][0].startswith("1 2 R")
    log = log_text(body)
    assert "Round 1 corrected: Ann's tricks 1 → 0; Cat's tricks 0 → 1; trump – → red" in log


def test_correction_breaking_the_rules_is_refused(
    pages: Pages, pid: str, snapshot: Snapshot
) -> None:
    before = snapshot(pid)
    # Round 1 (2 cards): Ann (dealer) may not make the bids add up to 2.
    response = pages.correct(pid, 1, [1, 1, 0], [1, 1, 0])
    assert response.status_code == 422
    assert alert(response) == (
        "Ann (dealer) can't bid 1: the bids would add up to the 2 tricks (plus/minus one). "
        "Allowed: 0, 2."
    )
    # The form comes back with what was sent.
    html = response.get_data(as_text=True)
    assert "Correct round 1" in html
    assert re.search(r'<select name="bid0"[^>]*>\s*<option>0</option><option selected>1<', html)
    for sent in (
        [[0, 1, 0], [1, 1, 1]],  # 3 tricks in a 2-card round
        [[0, 1, "x"], [1, 1, 0]],
        [[0, 1, 0], [1, 1, 5]],
    ):
        assert pages.correct(pid, 1, *sent).status_code == 422
    assert pages.correct(pid, 2, [1, 1, 1], [1, 2, 1], trump="red").status_code == 200
    assert snapshot(pid) != before  # that one was fine …
    again = snapshot(pid)
    assert pages.correct(pid, 2, [1, 1, 1], [1, 2, 1], trump="wizard").status_code == 422
    assert snapshot(pid) == again


def test_p2_canadian_rule_checks_the_corrected_round_and_flags_later_ones(
    pages: Pages, snapshot: Snapshot
) -> None:
    pid = pages.new_game(
        ["Ann", "Ben", "Cat"], dealer=0, dealer_rule="canadian", round_plan="short"
    )
    # Round 1 (2 cards, Ann deals): Ann ends in the lead.
    pages.play_round(pid, {1: 0, 2: 0, 0: 1}, {1: 0, 2: 1})  # Ben 20, Cat −10, Ann 30
    # Round 2 (4 cards, Ben deals, not leading): the bids may add up to 4.
    pages.play_round(pid, {2: 1, 0: 1, 1: 2}, {2: 1, 0: 1})
    body = pages.page(pid).get_data(as_text=True)
    assert 'class="flag"' not in body
    # Correct round 1 so that Ben led before round 2: round 1 itself is fine (V2 never
    # holds in round 1) …
    body = ok(pages.correct(pid, 1, [1, 2, 0], [0, 2, 0])).get_data(as_text=True)
    assert pad_totals(body, 1) == [-10, 40, 20]
    # … and round 2 stays as played, with its totals, but is flagged.
    assert pad_totals(body, 2) == [20, 80, 50]
    flag = "Kept as played, though after a correction: Ben (dealer) can&#39;t bid 2"
    assert flag in section(body, "pad")
    # Correcting round 2 now checks it with the totals before it as they now stand.
    before = snapshot(pid)
    response = pages.correct(pid, 2, [1, 2, 1], [2, 1, 1])  # only the tricks changed
    assert response.status_code == 422
    assert (alert(response) or "").startswith(
        "Ben (dealer) can't bid 2: the bids would add up to the 4 tricks (Canadian rule"
    )
    assert snapshot(pid) == before
    body = ok(pages.correct(pid, 2, [1, 3, 1], [1, 2, 1])).get_data(as_text=True)
    assert 'class="flag"' not in body


def test_delete_the_last_round_after_a_confirm_step(
    pages: Pages, pid: str, snapshot: Snapshot
) -> None:
    ask = pages.client.get(f"/games/{pid}/rounds/2/delete", headers={"HX-Request": "true"})
    assert ask.status_code == 200
    assert "Delete round 2?" in section(ask.get_data(as_text=True), "entry")
    body = ok(pages.post(pid, "rounds/2/delete")).get_data(as_text=True)
    assert "Round 2 deleted." in section(body, "entry")
    assert pad_totals(body, 2) == [None, None, None]
    assert pad_totals(body, 1) == [-10, 30, 20]
    assert "Round 2 deleted" in log_text(body)
    assert "Round 2" in section(body, "entry")  # to be entered again
    # Only the last round can go.
    assert pages.client.get(f"/games/{pid}/rounds/0/delete").status_code == 404
    before = snapshot(pid)
    pages.play_round(pid, {2: 1, 0: 1, 1: 1}, {2: 1, 0: 1})
    before = snapshot(pid)
    response = pages.post(pid, "rounds/1/delete")
    assert response.status_code == 422
    assert alert(response) == (
        "Only the last round (2) can be deleted; correct earlier rounds instead."
    )
    assert snapshot(pid) == before
    assert pages.client.get(f"/games/{pid}/rounds/1/delete").status_code == 404


def test_delete_without_javascript_redirects(pages: Pages, pid: str) -> None:
    response = pages.post(pid, "rounds/2/delete", htmx=False)
    assert response.status_code == 303
    page = pages.page(pid).get_data(as_text=True)
    assert "Round 2 deleted." in page


def test_correct_unknown_rounds(pages: Pages, pid: str) -> None:
    assert pages.client.get(f"/games/{pid}/rounds/9/edit").status_code == 404
    assert pages.correct(pid, 9, [0, 0, 0], [0, 0, 0]).status_code == 404
    assert pages.client.get(f"/games/{pid}/rounds/3/edit").status_code == 404  # open round


def test_game_over_shows_final_standings(pages: Pages, app: Flask) -> None:
    pid = pages.new_game(["Ann", "Ben", "Cat"], dealer=0, round_plan="short", tie_break="bid_total")
    with app.app_context(), transaction.atomic():
        game = game_service.get_game(pid)
        for cards in (2, 4, 6, 8, 10, 12, 14, 16, 18):
            game_service.record_round(game, [0, 0, 0], [cards, 0, 0])
    # Last round (20 cards, Ann deals): Ben and Cat both miss by one and end level at
    # 170; Ben bid 1 over the game, Cat 0: Ben wins the tie-break (R17).
    body = pages.play_round(pid, {1: 1, 2: 0, 0: 0}, {1: 0, 2: 1}).get_data(as_text=True)
    panel = text_of(section(body, "entry"))
    assert "Final standings" in panel
    assert "Ben wins on the tie-break: the higher total of bids." in panel
    assert pad_totals(body, 10) == [-1090, 170, 170]
    # The winner first among equals, alone in first place: the tie-break decided (R17).
    assert "1. Ben 170 2. Cat 170 3. Ann −1090" in panel
    assert "Confirm" not in panel and 'name="bid"' not in body
    # After the last round nothing more can be entered.
    refused = pages.bid(pid, 1, 0)
    assert refused.status_code == 422
    assert "The game is over" in (alert(refused) or "")
