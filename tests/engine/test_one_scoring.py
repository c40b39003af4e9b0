"""One scoring for the pad and digital play (R16, V6, V10): a digital game scores each
round it plays where the pad does (``engine.scored_round``), so the two can't part."""

from __future__ import annotations

import random

import pytest

from scorekeeper.engine import DealerRule, Game, RoundEntry, RuleSet, Scoring, pad, score_sheet

from .support import play_until

VARIANTS = [
    RuleSet(),
    RuleSet(saboteur=True, dealer_rule=DealerRule.PLUS_MINUS_ONE),
    RuleSet(scoring=Scoring(exact_bonus=5, per_trick=1, per_miss=100)),
    RuleSet(saboteur=True, scoring=Scoring(exact_bonus=50, per_trick=0, per_miss=3)),
]


@pytest.mark.parametrize("rules", VARIANTS, ids=["r16", "v6-v1", "v10", "v6-v10"])
def test_r16_v6_v10_a_digital_game_adds_up_as_its_pad_does(rules: RuleSet) -> None:
    """After every round of random games, the game's totals are its pad's."""
    rng = random.Random(11)
    for _ in range(3):
        game = Game.new(rules, rng.randint(3, 6), rng.randrange(3))
        while not game.finished:
            rounds = len(game.history)
            play_until(game, rng, lambda g, n=rounds: len(g.history) > n or g.finished)
            sheet = score_sheet(rules, game.players, game.first_dealer, game.history)
            assert game.totals == list(sheet.totals)


def test_a_change_to_the_pads_scoring_reaches_digital_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A new way of scoring a round (a variant rule, say: a point more for everyone)
    made where the pad scores changes a digital game's totals alike: digital play has no
    scoring of its own."""
    book = pad.round_scores

    def one_more(rules: RuleSet, dealer: int, entry: RoundEntry) -> tuple[int, ...]:
        return tuple(score + 1 for score in book(rules, dealer, entry))

    monkeypatch.setattr(pad, "round_scores", one_more)
    game = Game.new(RuleSet(), 4, 2)
    play_until(game, random.Random(5), lambda g: len(g.history) == 3)
    assert game.totals == list(score_sheet(RuleSet(), 4, 2, game.history).totals)
    monkeypatch.undo()
    by_the_book = score_sheet(RuleSet(), 4, 2, game.history).totals
    assert game.totals == [total + 3 for total in by_the_book]
