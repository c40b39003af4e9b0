"""Each round a digital table plays goes into its pad once: checked bid by bid by the
engine's round model as it was played, stored and added up in one write with the next
round's trump, never checked or scored a second time."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from scorekeeper import transaction
from scorekeeper.engine import Bidding, DealerRule, RuleSet, Scoring
from scorekeeper.extensions import db
from scorekeeper.models import Change
from scorekeeper.services import digital as service
from scorekeeper.services import games as game_service
from scorekeeper.services.games import rounds, writing
from tests.digital.support import Table


def test_v1_v3_a_played_round_is_recorded_once_with_the_next_trump(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """V1 and V3: the bids the round model took are stored as played, not checked again;
    the round and the next round's trump go in with one write."""

    def no_second_check(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a played round was checked a second time")

    writes: list[list[str]] = []
    finish = writing.finish

    def counted(game: Any, *changes: Change) -> None:
        writes.append([c.action for c in changes])
        finish(game, *changes)

    monkeypatch.setattr(rounds, "check_round", no_second_check)
    monkeypatch.setattr(rounds, "finish", counted)
    rules = RuleSet(dealer_rule=DealerRule.PLUS_MINUS_ONE, bidding=Bidding.HIDDEN)
    table = Table.create(app, rules, ["person", "bot", "bot"])
    game = table.play_rounds(rounds=2)
    assert len(game.history) >= 2
    # One write per move that finished rounds: each round and the trump after it.
    assert ["round_added", "trump"] in writes or ["round_completed", "trump"] in writes
    assert all(w.count("trump") <= 1 for w in writes)
    with app.app_context():
        pad = service.get_table(table.public_id).game
        recorded = {r.number: [res.bid for res in r.results] for r in pad.rounds if r.complete}
        for number, entry in enumerate(game.history[:2], start=1):
            assert recorded[number] == list(entry.bids)
        lines = db.session.scalars(
            select(Change.action).where(Change.game_id == pad.id, Change.round_number == 1)
        ).all()
        assert sum(a in ("round_added", "round_completed") for a in lines) == 1


def test_r16_v10_the_round_just_played_shows_the_pads_scores_and_totals(app: Flask) -> None:
    """R16 with V10's numbers, and a penalty given on the pad after round 1: the panel of
    the round just played shows its scores and totals as the pad adds them up (the
    engine's one scoring), not a sum of the table's own that leaves the penalty out."""
    rules = RuleSet(scoring=Scoring(exact_bonus=5, per_trick=1, per_miss=100))
    table = Table.create(app, rules, ["person", "bot", "bot"])
    table.play_rounds(rounds=1)
    with app.app_context(), transaction.atomic():
        game_service.add_adjustment(service.get_table(table.public_id).game, 1, 0, -7, "revoke")
    game = table.play_rounds(rounds=2)
    with app.app_context():
        stored = service.get_table(table.public_id)
        scored = game_service.sheet_of(stored.game).rounds[1]
        recent = service.view(stored, 0)["recent"]
        assert recent is not None and recent["round"] == 2
        assert recent["scores"] == list(scored.scores or ())
        assert recent["totals"] == list(scored.totals)
        # The penalty is in, once: the table's totals are the pad's.
        assert recent["totals"] == list(game.totals)
        first = game_service.sheet_of(stored.game).rounds[0]
        assert recent["totals"] == [
            a + b for a, b in zip(first.totals, recent["scores"], strict=True)
        ]
        assert first.totals[0] == (first.scores or ())[0] - 7  # the penalty, in round 1
        entry = game.history[1]
        assert recent["scores"] == [
            5 + won if bid == won else -100 * abs(bid - won)
            for bid, won in zip(entry.bids, entry.tricks or (), strict=True)
        ]


@pytest.mark.parametrize("seed", [7, 8])
def test_v2_a_bonus_or_penalty_on_the_pad_counts_at_the_table(app: Flask, seed: int) -> None:
    """V2 (the dealer rule while the dealer leads) and R17: after a bonus or penalty given
    on the pad, every seat's totals and standings are the pad's, and whether the dealer
    rule holds in the next round goes by the pad's totals, not by the table's own sum of
    the rounds played."""
    rules = RuleSet(dealer_rule=DealerRule.CANADIAN, dealer_rule_from_round=1)
    table = Table.create(app, rules, ["person", "bot", "bot"], seed=seed)
    played = table.play_rounds(rounds=1)
    dealer = played.dealer  # round 2's
    with app.app_context():
        stored = service.get_table(table.public_id)
        before = list(game_service.sheet_of(stored.game).totals)
    led = all(before[dealer] > t for s, t in enumerate(before) if s != dealer)
    # Turn the lead around with the pad alone: the dealer now leads, or no longer does.
    points = -500 if led else 500
    with app.app_context(), transaction.atomic():
        game_service.add_adjustment(
            service.get_table(table.public_id).game, 1, dealer, points, "house rule"
        )
    with app.app_context():
        stored = service.get_table(table.public_id)
        pad = list(game_service.sheet_of(stored.game).totals)
        game = service.engine_game(stored)
        seen = service.view(stored, 0)
    assert pad == [t + points if s == dealer else t for s, t in enumerate(before)]
    assert game.round_number == 2 and game.totals == pad
    assert seen["totals"] == pad
    assert seen["standings"] == sorted(range(3), key=lambda s: (-pad[s], s))
    # The panel of the round just played too: its totals were the table's before.
    assert seen["recent"] is not None and seen["recent"]["round"] == 1
    assert seen["recent"]["totals"] == pad
    holds = game.round_draft().limits.total_not is not None
    assert holds is not led  # the pad's lead decides, where the table's sum said `led`
