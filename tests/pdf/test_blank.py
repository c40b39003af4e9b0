"""Blank pads (issue 4): every player count and round plan, on A4 and US Letter, one page."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask.testing import FlaskClient

from scorekeeper.engine import Plan, RuleSet, plan_for
from scorekeeper.pdf import pad_layout
from scorekeeper.services.padview import blank_pad
from scorekeeper.web.padprint import pad_context
from tests.pdf.support import NAMES, assert_valid_pdf, pad_rows, pdftext, row_pitch_mm, save_png

PLANS = {"full": Plan.FULL, "short": Plan.SHORT, "unicoloured": Plan.UNICOLOURED}
COMBOS = [
    (players, plan)
    for plan in PLANS
    for players in range(3, 7)
    if not (plan == "unicoloured" and players > 4)
]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize(("players", "plan"), COMBOS)
def test_blank_pad(
    client: FlaskClient, artifacts: Path, players: int, plan: str, paper: str
) -> None:
    # R4, V8, V9: a row per round with its number and cards; names printed when given.
    names = NAMES[:players] if paper == "letter" else []
    query = {"players": players, "plan": plan, "paper": paper}
    if names:
        query["names"] = ",".join(names)
    response = client.get("/pads/blank.pdf", query_string=query)
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    data = response.data
    save_png(data, artifacts, f"blank-{plan}-{players}-{paper}")

    assert_valid_pdf(data, paper)
    cards = plan_for(RuleSet(round_plan=PLANS[plan]), players)
    rows = pad_rows(data, len(cards))
    for number, n in enumerate(cards, start=1):
        last = number == len(cards)
        # Round, cards; in the last round (or a unicoloured game) nothing is turned up.
        expected = [str(number), str(n)] + (["none"] if last and plan != "unicoloured" else [])
        assert rows[number] == expected, (number, rows[number])

    text = pdftext(data)
    for name in names:
        assert name in text
    assert "Date" in text
    assert f"{players} players" in text
    assert "scores 20 + 10 per trick taken; otherwise -10 per trick over or under" in " ".join(
        text.split()
    )
    assert ("Trump" in text) is (plan != "unicoloured")
    assert text.count("TOTAL") == players and text.count("BID") == players

    # The rows share the page: as tall as computed, and tall enough to write in.
    layout = pad_context(blank_pad(players, PLANS[plan], names), paper)["layout"]
    pitch = row_pitch_mm(data, len(cards))
    assert pitch >= 7.0
    assert abs(pitch - layout.row) < 0.6, (pitch, layout.row)


@pytest.mark.parametrize(
    ("players", "plan", "landscape"),
    [(3, "full", False), (4, "full", False), (5, "full", True), (6, "full", True)],
)
def test_orientation_follows_what_fits(
    client: FlaskClient, players: int, plan: str, landscape: bool
) -> None:
    # 20 rounds of 3 fit best upright; 6 players need the page's width.
    response = client.get(f"/pads/blank.pdf?players={players}&plan={plan}")
    assert_valid_pdf(response.data, "a4", landscape=landscape)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize(("players", "plan"), COMBOS)
def test_layout_leaves_room_for_a_pen(players: int, plan: str, paper: str) -> None:
    rounds = len(plan_for(RuleSet(round_plan=PLANS[plan]), players))
    layout = pad_layout(paper, players, rounds, trump=plan != "unicoloured")
    assert layout.row >= 7.0
    assert layout.total_col >= 18.0
    assert layout.landscape is (players >= 5)  # 3–4 players upright, 5–6 across
    assert layout.bid_col >= 8.0
    used = (
        layout.round_col
        + layout.cards_col
        + layout.dealer_col
        + layout.trump_col
        + players * (layout.total_col + layout.bid_col)
    )
    assert abs(used - layout.content_width) < 0.1


def test_names_are_optional_and_partial(client: FlaskClient) -> None:
    response = client.get("/pads/blank.pdf?players=5&names=Ann,,Cat")
    assert response.status_code == 200
    text = pdftext(response.data)
    assert "Ann" in text and "Cat" in text
    assert "5 players" in text


def test_players_follow_the_names_when_not_given(client: FlaskClient) -> None:
    response = client.get("/pads/blank.pdf?names=Ann,Ben,Cat,Dan,Eve")
    assert response.status_code == 200
    assert "5 players" in pdftext(response.data)


def test_hostile_names_print_literally(client: FlaskClient, artifacts: Path) -> None:
    names = ["<b>Bold</b>", "=cmd()", "A&amp;B", "</td></tr>"]
    response = client.get("/pads/blank.pdf", query_string={"names": ",".join(names)})
    assert response.status_code == 200
    save_png(response.data, artifacts, "blank-hostile-names")
    text = pdftext(response.data)
    for name in names:
        assert name in text
    # The table kept its shape: four players' columns, fifteen rounds.
    assert text.count("TOTAL") == 4
    assert len(pad_rows(response.data, 15)) == 15
