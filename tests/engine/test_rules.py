"""The rule set value: immutable, serialisable, checked (V1–V10, R17, P3 options)."""

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given, settings

from scorekeeper.engine import (
    Bidding,
    DealerRule,
    Plan,
    RuleSet,
    Scoring,
    SuitNames,
    TieBreak,
)

from .support import rule_sets

BOOK = {
    "dealer_rule": "none",
    "dealer_rule_from_round": 1,
    "no_full_bid": False,
    "bidding": "open",
    "saboteur": False,
    "foresight": False,
    "round_plan": "full",
    "tie_break": "shared",
    "scoring": {"exact_bonus": 20, "per_trick": 10, "per_miss": 10},
    "suit_names": "colours",
}


def test_defaults_are_the_book() -> None:
    assert RuleSet().to_dict() == BOOK
    assert RuleSet.from_dict({}) == RuleSet() == RuleSet.from_dict(None)
    assert RuleSet().describe() == ["Standard rules"]


def test_rule_set_is_immutable_and_hashable() -> None:
    rules = RuleSet()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.saboteur = True  # type: ignore[misc]
    changed = rules.with_options(saboteur=True)
    assert changed.saboteur and not rules.saboteur
    assert len({RuleSet(), RuleSet(), changed}) == 2


@pytest.mark.parametrize(
    ("key", "value", "attribute"),
    [
        ("dealer_rule", "plus_minus_one", DealerRule.PLUS_MINUS_ONE),  # V1
        ("dealer_rule", "canadian", DealerRule.CANADIAN),  # V2
        ("dealer_rule_from_round", 3, 3),  # V1 start round
        ("bidding", "hidden", Bidding.HIDDEN),  # V3
        ("bidding", "secret", Bidding.SECRET),  # V4
        ("foresight", True, True),  # V5
        ("saboteur", True, True),  # V6
        ("no_full_bid", True, True),  # V7
        ("round_plan", "short", Plan.SHORT),  # V8
        ("round_plan", "unicoloured", Plan.UNICOLOURED),  # V9
        ("tie_break", "bid_total", TieBreak.BID_TOTAL),  # R17
        ("suit_names", "french", SuitNames.FRENCH),  # P3
    ],
)
def test_v1_to_v9_each_variant_is_a_switch_missing_keys_take_the_book(
    key: str, value: Any, attribute: Any
) -> None:
    rules = RuleSet.from_dict({key: value})
    assert getattr(rules, key) == attribute
    assert rules.to_dict() == {**BOOK, key: value}
    if key != "dealer_rule_from_round":  # a start round without a dealer rule changes nothing
        assert rules.describe() != ["Standard rules"]


def test_v10_partial_scoring_takes_book_defaults_for_the_rest() -> None:
    rules = RuleSet.from_dict({"scoring": {"exact_bonus": 30}})
    assert rules.scoring == Scoring(30, 10, 10)
    assert "Scoring: 30 for an exact bid + 10 per trick, −10 per trick off" in rules.describe()


@settings(max_examples=150, deadline=None)
@given(rule_sets())
def test_to_dict_from_dict_and_json_round_trip(rules: RuleSet) -> None:
    assert RuleSet.from_dict(rules.to_dict()) == rules
    assert RuleSet.from_json(rules.to_json()) == rules
    assert RuleSet.from_dict(json.loads(json.dumps(rules.to_dict()))).to_dict() == rules.to_dict()
    assert rules.describe()


BAD = [
    # (data, words the message must contain: the key, and what is allowed)
    ({"colour_blind": True}, ["colour_blind"]),
    ({"saboteur": True, "zz": 1, "aa": 2}, ["aa", "zz"]),
    ({"dealer_rule": "german"}, ["'dealer_rule'", "'plus_minus_one'", "'canadian'"]),
    ({"dealer_rule": None}, ["'dealer_rule'"]),
    ({"dealer_rule": ["none"]}, ["'dealer_rule'"]),
    ({"bidding": "closed"}, ["'bidding'", "'hidden'", "'secret'"]),
    ({"round_plan": "long"}, ["'round_plan'", "'short'", "'unicoloured'"]),
    ({"tie_break": "arm_wrestle"}, ["'tie_break'", "'bid_total'"]),
    ({"suit_names": "german"}, ["'suit_names'", "'french'"]),
    ({"saboteur": "yes"}, ["'saboteur'", "true or false"]),
    ({"foresight": 1}, ["'foresight'", "true or false"]),
    ({"no_full_bid": None}, ["'no_full_bid'", "true or false"]),
    ({"dealer_rule_from_round": 0}, ["dealer_rule_from_round", "1 to 20"]),
    ({"dealer_rule_from_round": 21}, ["dealer_rule_from_round", "1 to 20"]),
    ({"dealer_rule_from_round": "2"}, ["dealer_rule_from_round"]),
    ({"dealer_rule_from_round": True}, ["dealer_rule_from_round"]),
    ({"scoring": 20}, ["'scoring'"]),
    ({"scoring": {"bonus": 20}}, ["bonus"]),
    ({"scoring": {"exact_bonus": -5}}, ["exact_bonus", "0 to 1000"]),
    ({"scoring": {"per_trick": "10"}}, ["per_trick"]),
    ({"scoring": {"per_miss": 10.0}}, ["per_miss"]),
]


@pytest.mark.parametrize(("data", "words"), BAD, ids=[json.dumps(d) for d, _ in BAD])
def test_unknown_keys_and_bad_values_are_value_errors_naming_the_key(
    data: dict[str, Any], words: list[str]
) -> None:
    with pytest.raises(ValueError) as info:
        RuleSet.from_dict(data)
    for word in words:
        assert word in str(info.value)


@pytest.mark.parametrize("data", [[], "open", 3, '{"saboteur": true}'])
def test_rules_must_be_an_object(data: Any) -> None:
    with pytest.raises(ValueError, match="object of named options"):
        RuleSet.from_dict(data)


def test_from_json_rejects_bad_values_too() -> None:
    with pytest.raises(ValueError, match="'bidding'"):
        RuleSet.from_json('{"bidding": "loud"}')


@pytest.mark.parametrize(
    ("rules", "players", "ok"),
    [
        (RuleSet(), 3, True),
        (RuleSet(), 6, True),
        (RuleSet(), 2, False),
        (RuleSet(round_plan=Plan.UNICOLOURED), 4, True),
        (RuleSet(round_plan=Plan.UNICOLOURED), 5, False),  # V9: 3 or 4 players
    ],
)
def test_r3_v9_check_players(rules: RuleSet, players: int, ok: bool) -> None:
    if ok:
        rules.check_players(players)
    else:
        with pytest.raises(ValueError):
            rules.check_players(players)


def test_v6_v1_describe_names_the_last_bidder_under_saboteur() -> None:
    lines = RuleSet(dealer_rule=DealerRule.CANADIAN, saboteur=True, dealer_rule_from_round=3)
    text = " ".join(lines.describe())
    assert "Canadian rule from round 3" in text and "the last bidder" in text


@pytest.mark.parametrize("bidding", ["hidden", "secret"])
@pytest.mark.parametrize("dealer_rule", ["plus_minus_one", "canadian"])
def test_v1_v2_combine_with_v3_v4_hidden_and_secret_bids(dealer_rule: str, bidding: str) -> None:
    """001's plus/minus one: bids handed to the Trustee; if they add up, the last bidder
    must change theirs. So the dealer rule works with hidden and secret bids too."""
    rules = RuleSet.from_dict({"dealer_rule": dealer_rule, "bidding": bidding})
    assert rules.dealer_rule.value == dealer_rule
    assert rules.bidding.value == bidding
