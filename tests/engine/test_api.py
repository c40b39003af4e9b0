"""The public API exactly as the issue states it, and every rule tag has a test."""

import re
from pathlib import Path

import pytest

import scorekeeper.engine as engine
from scorekeeper.engine import Card, Suit, legal_plays, round_plan, score_round, trick_winner


def test_issue_api_works_as_written() -> None:
    assert list(Suit) == [Suit.YELLOW, Suit.RED, Suit.GREEN, Suit.BLUE]
    assert Card.parse("R13") == Card.number(Suit.RED, 13)
    assert Card.parse("y1") == Card.number(Suit.YELLOW, 1)
    assert Card.parse("W").is_wizard and Card.parse("Z").is_wizard
    assert Card.parse("J").is_jester and Card.parse("N").is_jester
    assert str(Card.parse("B10")) == "B10"
    trick = [Card.parse(t) for t in ("R5", "B2", "R9")]
    assert trick_winner(trick, Suit.BLUE) == 1
    assert trick_winner(trick, None) == 2
    hand = [Card.parse(t) for t in ("R1", "G4", "W")]
    assert legal_plays(hand, trick[:1]) == [Card.parse("R1"), Card.parse("W")]
    assert score_round(2, 2) == 40 and score_round(2, 0) == -20
    assert round_plan(4) == list(range(1, 16))
    assert round_plan(4, short=True) == [1, 3, 5, 7, 9, 11, 12, 13, 14, 15]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: trick_winner([Card.parse("R1")] * 7, None), "at most 6 cards"),
        (lambda: Card.parse("R99"), "'R99' is not a card"),
        (lambda: Card.parse("Q"), "'Q' is not a card"),
        (lambda: round_plan(2), "3 to 6 players, not 2"),
        (lambda: round_plan(2, short=True), "3 to 6 players, not 2"),
    ],
    ids=["7-card trick", "unknown card R99", "unknown card Q", "2 players", "2 players short"],
)
def test_issue_bad_arguments_raise_clear_value_errors(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()  # type: ignore[operator]


def test_every_public_name_exists_and_has_a_docstring() -> None:
    for name in engine.__all__:
        value = getattr(engine, name)
        if callable(value) and not isinstance(value, Card):
            assert value.__doc__, f"{name} has no docstring"


def test_errors_are_value_errors() -> None:
    for name in ("IllegalBid", "IllegalPlay", "OutOfTurn", "WrongPhase", "InvalidRound"):
        error = getattr(engine, name)
        assert issubclass(error, engine.RuleError) and issubclass(error, ValueError)


# -- every tag of RULES.md is named by a test ------------------------------------------------

TAGS = [f"R{i}" for i in range(1, 18)] + [f"V{i}" for i in range(1, 11)] + ["P1", "P2", "P3"]
RULES_MD = Path(__file__).resolve().parents[3] / "shared" / "RULES.md"


def test_the_tag_list_is_the_one_of_rules_md() -> None:
    # The project is always checked out with shared/ beside it (CI does the same).
    assert RULES_MD.exists(), f"{RULES_MD} is not beside the project"
    found = re.findall(r"^- \*\*([RVP]\d+)[ *]", RULES_MD.read_text(encoding="utf-8"), re.M)
    assert sorted(found) == sorted(TAGS)


@pytest.mark.parametrize("tag", TAGS)
def test_every_rule_tag_is_named_by_a_test(tag: str) -> None:
    """A tag counts when a test function's name, a parametrize id or a docstring names it."""
    here = Path(__file__).parent
    pattern = re.compile(rf"(?<![A-Za-z0-9]){tag}(?![0-9])", re.I)
    names = re.compile(r"def (test_\w+)|ids?=|\"\"\"|\(\"")
    hits = 0
    for path in here.glob("test_*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if names.search(line) and pattern.search(line.replace("_", " ")):
                hits += 1
    assert hits, f"no test names {tag}"
