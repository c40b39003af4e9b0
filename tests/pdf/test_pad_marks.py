"""A printed game pad writes what the paper pad would: a bid made exactly is ringed, as
players circle it (a missed one is not); each entry of the standings stays in one piece
on its line ("6. Clara −100", never "6. Clara" and "−100" on the next); the dealer's name
is whole, however long (broken between syllables, never cut to "Christophe…")."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import transaction
from scorekeeper.engine import RuleSet
from scorekeeper.services import games
from scorekeeper.services.padview import pad_view
from tests.pdf.support import PT_PER_MM, gray_page, pdftext, pdfwords, save_png

LONG = ["Christopher-Alexander", "Bartholomäus", "Anna-Lena", "Friederike", "Maximilian", "Clara"]
ROUNDS = 7


@pytest.fixture
def pad(app: Flask, client: FlaskClient, artifacts: Path) -> Iterator[tuple[bytes, str]]:
    """Six long names, seven rounds: in each, Christopher-Alexander bids every trick and
    takes them, Anna-Lena bids one and takes none, the others bid none and take none.
    The PDF, and the game's id."""
    with app.app_context():
        with transaction.atomic():
            game, _ = games.create_game(LONG, 0, RuleSet())
            for cards in games.sheet_of(game).plan[:ROUNDS]:
                games.record_round(game, [cards, 0, 1, 0, 0, 0], [cards, 0, 0, 0, 0, 0])
        response = client.get(f"/games/{game.public_id}/pad.pdf")
        assert response.status_code == 200
        save_png(response.data, artifacts, "pad-marks")
        yield response.data, game.public_id


def row_words(data: bytes) -> dict[int, list]:  # type: ignore[type-arg]
    """Each played round's words (pdfwords), keyed by round number, top to bottom and
    left to right."""
    words = pdfwords(data)
    head = next(w for w in words if w.text == "Round")
    column = [
        w
        for w in words
        if abs(w.left + w.width / 2 - (head.left + head.width / 2)) < 8 and w.text.isdigit()
    ]
    firsts = {int(w.text): w for w in column if int(w.text) <= ROUNDS}
    pitch = firsts[2].middle - firsts[1].middle
    return {
        number: sorted(
            (w for w in words if abs(w.middle - first.middle) < pitch * 0.45),
            key=lambda w: (round(w.top), w.left),
        )
        for number, first in firsts.items()
    }


def test_a_bid_made_exactly_is_ringed_and_a_missed_one_is_not(pad: tuple[bytes, str]) -> None:
    data, _ = pad
    page = gray_page(data)
    for number, words in row_words(data).items():
        cells = sorted(words, key=lambda w: w.left)[-3 * len(LONG) :]
        for seat in range(len(LONG)):
            bid = cells[3 * seat + 2]
            assert bid.text == str(number if seat == 0 else int(seat == 2)), (number, seat)
            # Around the digits, inside the cell: the ring's ink, or nothing but the
            # column's pale ground.
            reach = bid.height * 0.85
            middle_x = bid.left + bid.width / 2
            around = page.dark(
                middle_x - reach, bid.middle - reach, middle_x + reach, bid.middle + reach
            )
            digits = page.dark(
                bid.left - 0.8,
                bid.top - 0.8,
                bid.left + bid.width + 0.8,
                bid.top + bid.height + 0.8,
            )
            ring = around - digits
            if seat == 2:  # Anna-Lena bid one and took none
                assert ring == 0, (number, seat, ring)
            else:
                assert ring > 20, (number, seat, ring)


def test_each_entry_of_the_standings_stays_on_one_line(app: Flask, pad: tuple[bytes, str]) -> None:
    data, public_id = pad
    with app.app_context():
        places = pad_view(games.get_game(public_id)).places
    lines = pdftext(data).splitlines()
    assert any("After round 7 of 10:" in line for line in lines)
    for place, seat, total in places:
        entry = re.compile(rf"\b{place}\. {re.escape(LONG[seat])} {total}\b")
        assert any(entry.search(line) for line in lines), (place, LONG[seat], total, lines[:4])


def test_the_dealer_column_prints_every_name_whole(pad: tuple[bytes, str]) -> None:
    data, _ = pad
    words = pdfwords(data)
    head = next(w for w in words if w.text == "Dealer")
    middle = head.left + head.width / 2
    half = 17 / 2 * PT_PER_MM  # the column's width (scorekeeper/pdf.py DEALER_COL)
    assert "…" not in pdftext(data)
    for number, row in row_words(data).items():
        dealer = [w.text for w in row if abs(w.left + w.width / 2 - middle) < half - 2]
        # Broken between syllables (a hyphen, U+2010, at the line's end) or at its own.
        printed = "".join(dealer).replace("\u2010", "").replace("-", "")
        assert printed == LONG[(number - 1) % len(LONG)].replace("-", ""), (number, dealer)
