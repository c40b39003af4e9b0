"""Filled pads of a game (issue 4): names, bids, totals, trump, dealers, winners, rules."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.engine import RuleSet
from scorekeeper.models import Game
from scorekeeper.services import games
from tests.pdf.support import (
    NAMES,
    assert_valid_pdf,
    pad_rows,
    pdftext,
    r16,
    save_png,
    signed,
    story_text,
)

COMBOS = [
    (players, plan)
    for plan in ("full", "short", "unicoloured")
    for players in range(3, 7)
    if not (plan == "unicoloured" and players > 4)
]


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    with app.app_context():
        yield


@dataclass
class Played:
    """A game played through the services, and what its pad must show (restated here)."""

    game: Game
    names: list[str]
    rows: dict[int, list[str]] = field(default_factory=dict)
    totals: list[int] = field(default_factory=list)


def _trump(number: int, rounds: int, rules: RuleSet) -> tuple[str | None, list[str]]:
    """The trump recorded in a round, and the words the pad shows for it."""
    if rules.unicoloured:
        return None, []  # V9: no trump column at all
    if number == rounds:
        return None, ["none"]  # R8: recorded by itself
    return {
        0: ("red", ["Red"]),
        1: ("wizard:blue", ["Blue", "Wizard", "turned"]),
        2: ("none", ["none"]),
    }.get(number % 4, (None, []))


def play(names: list[str], rules: RuleSet, rounds: int | None = None, first: int = 0) -> Played:
    game, _ = games.create_game(names, first, rules)
    n = len(names)
    plan = games.sheet_of(game).plan
    played = Played(game, names, totals=[0] * n)
    for number, cards in enumerate(plan[:rounds], start=1):
        dealer = (first + number - 1) % n
        bids = [(number + s) % (cards + 1) for s in range(n)]
        # Spread the tricks, starting with a different player each round.
        tricks = [cards // n + (1 if (s - number) % n < cards % n else 0) for s in range(n)]
        trump, trump_words = _trump(number, len(plan), rules)
        games.record_round(game, bids, tricks, trump)
        scores = [r16(b, t) for b, t in zip(bids, tricks, strict=True)]
        played.totals = [t + s for t, s in zip(played.totals, scores, strict=True)]
        cells = [
            word
            for s in range(n)
            for word in (signed(scores[s]), str(played.totals[s]), str(bids[s]))
        ]
        played.rows[number] = [str(number), str(cards), names[dealer], *trump_words, *cells]
    return played


def assert_row(actual: list[str], expected: list[str], players: int) -> None:
    """Round, cards and dealer first, the players' cells last; trump words in between."""
    tail = 3 * players
    assert actual[:3] == expected[:3]
    assert actual[-tail:] == expected[-tail:]
    assert sorted(actual[3:-tail]) == sorted(expected[3:-tail])


@pytest.mark.parametrize(("players", "plan"), COMBOS)
def test_finished_game(
    client: FlaskClient, ctx: None, artifacts: Path, players: int, plan: str
) -> None:
    rules = RuleSet.from_dict({"round_plan": plan})
    played = play(NAMES[:players], rules)
    response = client.get(f"/games/{played.game.public_id}/pad.pdf")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    data = response.data
    save_png(data, artifacts, f"game-{plan}-{players}")
    # The pad on one page; the game's story (issue 5's chart) on a second.
    assert_valid_pdf(data, "a4", pages=2)
    story = " ".join(story_text(data).split())
    assert "Running totals" in story and "Bids against tricks taken" in story
    for name in played.names:
        assert name in story

    rows = pad_rows(data, len(played.rows))
    for number, expected in played.rows.items():
        assert_row(rows[number], expected, players)

    text = " ".join(pdftext(data).split())
    for name in played.names:
        assert text.count(name) >= 2  # heading the columns, and in the standings
    best = max(played.totals)
    winners = [n for n, t in zip(played.names, played.totals, strict=True) if t == best]
    assert "Final standings:" in text
    for name in winners:
        assert f"★ {name}" in text  # R17: highest total wins, ties share
    assert "Rules of this game: " + "; ".join(rules.describe()) + "." in text
    assert played.game.created_at.strftime("%B %Y") in text


def test_twenty_rounds_of_three_and_ten_of_six_fit_one_page(
    client: FlaskClient, ctx: None, artifacts: Path
) -> None:
    # The longest and the widest game, with every option that adds small print and the
    # longest names a player may have.
    long_names = [f"{c * 3} the Very Long-Named Wizard {i}"[:40] for i, c in enumerate("ABCDEF")]
    busy = {
        "bidding": "open",
        "dealer_rule": "canadian",
        "dealer_rule_from_round": 3,
        "no_full_bid": True,
        "saboteur": True,
        "foresight": True,
        "tie_break": "bid_total",
        "suit_names": "french",
        "scoring": {"exact_bonus": 30, "per_trick": 5, "per_miss": 15},
    }
    for players, paper, landscape in [(3, "a4", False), (6, "a4", True), (3, "letter", False)]:
        game, _ = games.create_game(long_names[:players], 0, RuleSet.from_dict(busy))
        response = client.get(f"/games/{game.public_id}/pad.pdf?paper={paper}")
        save_png(response.data, artifacts, f"game-busy-{players}-{paper}")
        assert_valid_pdf(response.data, paper, landscape=landscape)
        assert len(pad_rows(response.data, 60 // players)) == 60 // players


def test_game_set_up_but_not_played(client: FlaskClient, ctx: None, artifacts: Path) -> None:
    # Names and the dealer of every round filled in (R5), the rest blank.
    game, _ = games.create_game(["Ann", "Ben", "Cat", "Dan"], 2, RuleSet())
    data = client.get(f"/games/{game.public_id}/pad.pdf").data
    save_png(data, artifacts, "game-not-played")
    assert_valid_pdf(data, "a4")
    rows = pad_rows(data, 15)
    for number in range(1, 16):
        dealer = ["Ann", "Ben", "Cat", "Dan"][(2 + number - 1) % 4]
        expected = [str(number), str(number), dealer] + (["none"] if number == 15 else [])
        assert rows[number] == expected
    text = pdftext(data)
    assert "standings" not in text
    assert "★" not in text


def test_game_in_progress(client: FlaskClient, ctx: None, artifacts: Path) -> None:
    played = play(["Ann", "Ben", "Cat", "Dan"], RuleSet(), rounds=3)
    games.set_bid(played.game, 0, 2)  # round 4, dealer Dan: Ann bids first
    data = client.get(f"/games/{played.game.public_id}/pad.pdf").data
    save_png(data, artifacts, "game-in-progress")
    rows = pad_rows(data, 15)
    for number in (1, 2, 3):
        assert_row(rows[number], played.rows[number], 4)
    assert rows[4] == ["4", "4", "Dan", "2"]  # the open bid, no totals yet
    assert rows[5] == ["5", "5", "Ann"]
    text = " ".join(pdftext(data).split())
    assert "After round 3 of 15:" in text
    assert "★" not in text  # no winner before the end


def test_corrected_round_shows_final_values(client: FlaskClient, ctx: None) -> None:
    played = play(["Ann", "Ben", "Cat"], RuleSet(), rounds=3)
    games.update_round(played.game, 2, tricks=[2, 0, 0])  # bids were 0, 1, 2
    data = client.get(f"/games/{played.game.public_id}/pad.pdf").data
    rows = pad_rows(data, 20)
    # Round 1: bids 1, 0, 1 with tricks 0, 1, 0 → −10, −10, −10.
    assert rows[1][-9:] == ["-10", "-10", "1", "-10", "-10", "0", "-10", "-10", "1"]
    # Round 2 corrected: bids 2, 0, 1 with tricks 2, 0, 0 (were 1, 0, 1) → 40, 20, −10.
    assert rows[2][-9:] == ["+40", "30", "2", "+20", "10", "0", "-10", "-20", "1"]
    # Round 3 as played (bids 3, 0, 1, one trick each), its totals recomputed.
    assert rows[3][-9:] == ["-20", "10", "3", "-10", "0", "0", "+30", "10", "1"]


@pytest.mark.parametrize("tapped", [False, True])
def test_secret_bids_of_a_round_not_played_are_never_printed(
    client: FlaskClient, ctx: None, artifacts: Path, tapped: bool
) -> None:
    # V4: the bids are stored, but shown nowhere until the round's tricks are recorded.
    played = play(["Ann", "Ben", "Cat"], RuleSet.from_dict({"bidding": "secret"}), rounds=4)
    game = played.game
    for seat, bid in ((2, 3), (0, 4), (1, 2)):  # round 5, dealer Ben: Cat bids first
        games.set_bid(game, seat, bid)
    if tapped:
        games.set_tricks(game, 0, 4)
    data = client.get(f"/games/{game.public_id}/pad.pdf").data
    save_png(data, artifacts, f"game-secret-bids-{'tapped' if tapped else 'bid'}")
    rows = pad_rows(data, 20)
    for number in range(1, 5):
        assert_row(rows[number], played.rows[number], 3)  # played rounds: bids shown
    assert rows[5] == ["5", "5", "Ben", "✓", "✓", "✓"]
    assert rows[6] == ["6", "6", "Cat"]


def test_hidden_bids_are_masked_until_all_are_in(client: FlaskClient, ctx: None) -> None:
    # V3: bids entered one by one are masked until the last one is in.
    game, _ = games.create_game(["Ann", "Ben", "Cat"], 0, RuleSet.from_dict({"bidding": "hidden"}))
    games.set_bid(game, 1, 1)
    rows = pad_rows(client.get(f"/games/{game.public_id}/pad.pdf").data, 20)
    assert rows[1] == ["1", "1", "Ann", "✓"]
    games.set_bid(game, 2, 0)
    games.set_bid(game, 0, 1)
    rows = pad_rows(client.get(f"/games/{game.public_id}/pad.pdf").data, 20)
    assert rows[1] == ["1", "1", "Ann", "1", "1", "0"]


def test_hostile_names_print_literally(client: FlaskClient, ctx: None, artifacts: Path) -> None:
    names = ["<b>Bold</b>", "=cmd()", "Tom & Jerry", '"><script>x</script>']
    played = play(names, RuleSet(), rounds=2)
    response = client.get(f"/games/{played.game.public_id}/pad.pdf")
    save_png(response.data, artifacts, "game-hostile-names")
    text = pdftext(response.data)
    for name in names:
        assert name in text
    rows = pad_rows(response.data, 15)
    assert_row(rows[1], played.rows[1], 4)
    assert response.headers["Content-Disposition"].startswith('inline; filename="wizard-')
