"""The rest of a game as data (engine.game_ahead): every figure in it is the one the
engine's own queries and commands give for that round."""

from dataclasses import replace

import pytest

from scorekeeper.engine import (
    Bidding,
    DealerRule,
    DealerRuleHolds,
    Plan,
    RoundDraft,
    RoundEntry,
    RuleError,
    RuleSet,
    Scoring,
    bid_steps,
    count_steps,
    dealer_of_round,
    dealer_rule_applies,
    game_ahead,
    plan_for,
    round_scores,
    score_round,
)

RULE_SETS = [
    RuleSet(),
    RuleSet(dealer_rule=DealerRule.PLUS_MINUS_ONE, no_full_bid=True),
    RuleSet(dealer_rule=DealerRule.CANADIAN, dealer_rule_from_round=4),
    RuleSet(dealer_rule=DealerRule.PLUS_MINUS_ONE, saboteur=True, round_plan=Plan.SHORT),
    RuleSet(bidding=Bidding.HIDDEN, dealer_rule=DealerRule.PLUS_MINUS_ONE),
    RuleSet(bidding=Bidding.SECRET, scoring=Scoring(30, 5, 15)),
]


@pytest.mark.parametrize("rules", RULE_SETS, ids=range(len(RULE_SETS)))
@pytest.mark.parametrize("players", [3, 4, 6])
def test_r4_r5_r6_rounds_ahead_follow_the_plan_dealers_and_order(
    rules: RuleSet, players: int
) -> None:
    ahead = game_ahead(rules, players, 1, 3)
    plan = plan_for(rules, players)
    assert [r.number for r in ahead.rounds] == list(range(3, len(plan) + 1))
    for rnd in ahead.rounds:
        draft = RoundDraft.empty(rules, rnd.number, rnd.cards, rnd.dealer, (0,) * players)
        assert rnd.cards == plan[rnd.number - 1]
        assert rnd.dealer == dealer_of_round(1, rnd.number, players)
        assert list(rnd.order) == draft.order and rnd.leader == draft.order[0]
        assert list(rnd.bidders) == draft.bidders
        assert rnd.top == draft.limits.top
        assert rnd.count_steps == count_steps(draft)


@pytest.mark.parametrize("rules", RULE_SETS, ids=range(len(RULE_SETS)))
def test_v1_v2_the_dealer_rule_holds_as_the_engine_decides_each_round(rules: RuleSet) -> None:
    """Where it holds, the steps are the round's own with the dealer alone in the lead;
    "dealer_leads" (V2) holds exactly when the dealer is strictly ahead."""
    players = 4
    for rnd in game_ahead(rules, players, 0, 1).rounds:
        ahead_of_all = tuple(5 if s == rnd.dealer else 0 for s in range(players))
        tied = tuple(5 if s in (rnd.dealer, rnd.order[0]) else 0 for s in range(players))
        for totals in (ahead_of_all, tied):
            applies = dealer_rule_applies(rules, rnd.number, rnd.dealer, totals)
            expected = rnd.holds is DealerRuleHolds.ALWAYS or (
                rnd.holds is DealerRuleHolds.DEALER_LEADS and totals == ahead_of_all
            )
            assert applies == expected
        if rnd.holds is not DealerRuleHolds.NEVER:
            draft = RoundDraft.empty(rules, rnd.number, rnd.cards, rnd.dealer, ahead_of_all)
            assert rnd.bid_steps == bid_steps(draft)
        else:
            assert rnd.bid_steps.refused == ()


def test_v1_from_round_4_only_from_there() -> None:
    rules = RuleSet(dealer_rule=DealerRule.PLUS_MINUS_ONE, dealer_rule_from_round=4)
    holds = [r.holds for r in game_ahead(rules, 3, 0, 2).rounds]
    assert holds[:2] == [DealerRuleHolds.NEVER] * 2
    assert set(holds[2:]) == {DealerRuleHolds.ALWAYS}
    canadian = [
        r.holds for r in game_ahead(RuleSet(dealer_rule=DealerRule.CANADIAN), 3, 0, 1).rounds
    ]
    assert set(canadian) == {DealerRuleHolds.DEALER_LEADS}


@pytest.mark.parametrize("rules", RULE_SETS, ids=range(len(RULE_SETS)))
def test_r16_v10_every_bid_and_count_scores_as_the_engine_scores_it(rules: RuleSet) -> None:
    ahead = game_ahead(rules, 3, 0, 1)
    most = max(plan_for(rules, 3))
    assert len(ahead.scores) == most + 1
    for bid, row in enumerate(ahead.scores):
        assert list(row) == [score_round(bid, won, rules.scoring) for won in range(most + 1)]


def test_v6_a_seat_without_a_bid_scores_the_saboteurs_points() -> None:
    rules = RuleSet(saboteur=True, scoring=Scoring(exact_bonus=25))
    ahead = game_ahead(rules, 4, 0, 1)
    entry = RoundEntry((None, 0, 0, 1), (0, 0, 0, 1))
    assert ahead.no_bid == round_scores(rules, 0, entry)[0] == 25
    assert game_ahead(RuleSet(), 4, 0, 1).no_bid is None


@pytest.mark.parametrize(
    ("bidding", "offered"),
    [(Bidding.OPEN, True), (Bidding.HIDDEN, True), (Bidding.SECRET, False)],
)
def test_v4_the_rest_as_bid_is_offered_unless_bids_are_secret(
    bidding: Bidding, offered: bool
) -> None:
    rules = RuleSet(bidding=bidding)
    assert game_ahead(rules, 3, 0, 1).rest is offered
    draft = replace(RoundDraft.empty(rules, 1, 1, 0, (0, 0, 0)), bids=(0, 1, 0))
    assert (draft.rest_as_bid() is not None) is offered


def test_the_data_is_plain_json() -> None:
    import json

    rules = RuleSet(dealer_rule=DealerRule.PLUS_MINUS_ONE)
    data = game_ahead(rules, 3, 2, 19).as_data()
    assert json.loads(json.dumps(data)) == data
    last = data["rounds"][-1]
    assert (last["n"], last["cards"], last["dealer"], last["holds"]) == (20, 20, 0, "always")
    assert last["bids"]["1"][:3] == [20, 19, 18]  # the dealer may not make it 20
    assert last["counts"]["top"][0] == 20 and last["counts"]["fill"]["1 5"] == 15


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet(bidding=Bidding.HIDDEN, dealer_rule=DealerRule.PLUS_MINUS_ONE),
        RuleSet(bidding=Bidding.SECRET, dealer_rule=DealerRule.CANADIAN, no_full_bid=True),
        RuleSet(bidding=Bidding.SECRET, dealer_rule=DealerRule.PLUS_MINUS_ONE, saboteur=True),
    ],
    ids=["v3-v1", "v4-v2-v7", "v4-v1-v6"],
)
def test_v3_v4_the_blind_last_bid_is_refused_once_in_as_the_engine_refuses_it(
    rules: RuleSet,
) -> None:
    """Sealed bids: the keys refuse nothing (no steps), and ``blind`` is the last bid the
    engine's own command refuses once the others are in, whatever they add up to."""
    players = 4
    for rnd in game_ahead(rules, players, 0, 1).rounds[:4]:
        assert rnd.bid_steps.refused == ()
        if rnd.holds is DealerRuleHolds.NEVER:
            assert rnd.blind.refused == ()
            continue
        totals = tuple(5 if s == rnd.dealer else 0 for s in range(players))
        draft = RoundDraft.empty(rules, rnd.number, rnd.cards, rnd.dealer, totals)
        *first, last = rnd.bidders
        refused = dict(rnd.blind.refused)[1]
        for total in range(len(first) * rnd.top + 1):
            bids: list[int | None] = [None] * players
            left = total
            for seat in first:
                bids[seat] = min(left, rnd.top)
                left -= min(left, rnd.top)
            made = replace(draft, bids=tuple(bids))
            for value in range(rnd.top + 1):
                try:
                    made.bid(last, value)
                except RuleError:
                    assert refused[total] == value, (rnd.number, total, value)
                else:
                    assert total >= len(refused) or refused[total] != value
