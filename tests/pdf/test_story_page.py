"""The second page of a played game's PDF: its story, with a chart that uses the page."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import transaction
from scorekeeper.services import games as game_service
from tests.pdf.support import NAMES, Word, _run, page_size
from tests.web.test_final_standings import TIED_GAME


def story_words(data: bytes) -> list[Word]:
    """The words of the second page, as printed (minus signs as they are)."""
    words = []
    for line in _run(["pdftotext", "-tsv", "-f", "2", "-l", "2"], data).splitlines()[1:]:
        cols = line.split("\t")
        if cols[0] == "5":
            left, top, width, height = map(float, cols[6:10])
            words.append(Word(cols[11], left, top, width, height))
    return words


def save_story(data: bytes, folder: Path, name: str) -> None:
    """The second page as a picture, to look at."""
    folder.mkdir(parents=True, exist_ok=True)
    pdf = folder / f"{name}.pdf"
    pdf.write_bytes(data)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", "-f", "2", "-l", "2", "-singlefile", str(pdf)]
        + [str(folder / name)],
        check=True,
        timeout=30,
    )


def played(app: Flask, players: int) -> str:
    """A finished game: Anna, Ben and Clara's short game, or six players' full one."""
    with app.app_context(), transaction.atomic():
        if players == 3:
            rules = game_service.parse_rules({"round_plan": "short"})
            game, _token = game_service.create_game(["Anna", "Ben", "Clara"], 0, rules)
            for bids, tricks in TIED_GAME:
                game_service.record_round(game, bids, tricks)
        else:
            rules = game_service.parse_rules({})
            game, _token = game_service.create_game(NAMES[:players], 0, rules)
            for number, cards in enumerate(game_service.sheet_of(game).plan, start=1):
                tricks = [0] * players
                tricks[number % players] = cards
                # The first seat bids one more than it takes: its total goes below 0.
                bids = [min(cards, t + (s == 0)) for s, t in enumerate(tricks)]
                game_service.record_round(game, bids, tricks)
        return game.public_id


@pytest.mark.parametrize("players", [3, 6])
def test_the_chart_fills_the_story_page(
    app: Flask, client: FlaskClient, artifacts: Path, players: int
) -> None:
    data = client.get(f"/games/{played(app, players)}/pad.pdf").data
    save_story(data, artifacts, f"story-page-{players}")
    width, height = page_size(data)
    words = [w for w in story_words(data) if w.text != "Scorekeeper"]  # the page's footer
    round_title = next(w for w in words if w.text == "Round")
    total_title = next(w for w in words if w.text == "Total")
    # The axes' labels: round numbers just above "Round", totals left of the plot.
    x_labels = [w for w in words if w.text.isdigit() and 0 < round_title.top - w.top < 30]
    y_labels = [
        w
        for w in words
        if w.text.lstrip("\N{MINUS SIGN}").isdigit()
        and total_title.left < w.left < min(x.left for x in x_labels)
    ]
    # The chart is tall: its totals axis takes more than 40 % of the page's height...
    plot = max(w.top for w in y_labels) - min(w.top for w in y_labels)
    assert plot > 0.4 * height, (plot, height)
    # ... and with the bids against tricks the page is used across and down to its last
    # quarter (10 mm margins aside).
    assert max(w.left + w.width for w in words) > 0.75 * width
    assert max(w.top + w.height for w in words) > 0.75 * height
    assert len(y_labels) >= 4


def test_the_story_page_prints_negative_totals_with_a_minus_sign(
    app: Flask, client: FlaskClient
) -> None:
    data = client.get(f"/games/{played(app, 3)}/pad.pdf").data
    texts = [w.text for w in story_words(data)]
    assert "\N{MINUS SIGN}1" in texts  # Anna took one trick fewer than she bid, in all
    assert not [t for t in texts if t.startswith("-")]
