"""Players, rounds, dealer (R3–R6, R8) and the round plans (R4, V8, V9)."""

import pytest

from scorekeeper.engine import (
    Plan,
    RuleSet,
    bidding_order,
    check_player_count,
    dealer_of_round,
    deals_every_card,
    first_lead,
    plan_for,
    round_plan,
)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_r3_three_to_six_players(players: int) -> None:
    check_player_count(players)
    assert round_plan(players)


@pytest.mark.parametrize("players", [-1, 0, 1, 2, 7, 10])
def test_r3_other_player_counts_are_value_errors(players: int) -> None:
    with pytest.raises(ValueError, match=f"3 to 6 players, not {players}"):
        round_plan(players)
    with pytest.raises(ValueError, match="3 to 6 players"):
        round_plan(players, short=True)
    with pytest.raises(ValueError, match="3 to 6 players"):
        plan_for(RuleSet(), players)


@pytest.mark.parametrize("players", [3.0, "4", True, None])
def test_r3_player_count_must_be_a_whole_number(players: object) -> None:
    with pytest.raises(ValueError, match="whole number"):
        round_plan(players)  # type: ignore[arg-type]


@pytest.mark.parametrize(("players", "rounds"), [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_r4_round_r_deals_r_cards_and_60_over_players_rounds(players: int, rounds: int) -> None:
    plan = round_plan(players)
    assert plan == list(range(1, rounds + 1))
    assert plan[-1] * players == 60  # R4: the last round deals every card
    assert plan_for(RuleSet(), players) == plan


@pytest.mark.parametrize(("players", "rounds"), [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_r8_only_the_last_round_deals_every_card(players: int, rounds: int) -> None:
    rules = RuleSet()
    every = [deals_every_card(rules, players, n) for n in round_plan(players)]
    assert every == [False] * (rounds - 1) + [True]


# V8: the table of RULES.md, copied cell by cell (round → 3, 4, 5, 6 players).
V8_TABLE = {
    1: (2, 1, 2, 1),
    2: (4, 3, 4, 2),
    3: (6, 5, 5, 3),
    4: (8, 7, 6, 4),
    5: (10, 9, 7, 5),
    6: (12, 11, 8, 6),
    7: (14, 12, 9, 7),
    8: (16, 13, 10, 8),
    9: (18, 14, 11, 9),
    10: (20, 15, 12, 10),
}


@pytest.mark.parametrize(
    ("players", "round_number", "cards"),
    [(p, r, row[p - 3]) for r, row in V8_TABLE.items() for p in (3, 4, 5, 6)],
)
def test_v8_short_game_table(players: int, round_number: int, cards: int) -> None:
    assert round_plan(players, short=True)[round_number - 1] == cards
    assert plan_for(RuleSet(round_plan=Plan.SHORT), players)[round_number - 1] == cards


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_v8_short_game_has_10_rounds_and_the_last_deals_every_card(players: int) -> None:
    rules = RuleSet(round_plan=Plan.SHORT)
    plan = plan_for(rules, players)
    assert len(plan) == 10
    assert [deals_every_card(rules, players, n) for n in plan] == [False] * 9 + [True]


def test_round_plan_returns_a_fresh_list() -> None:
    round_plan(4, short=True).append(99)
    assert round_plan(4, short=True)[-1] == 15


@pytest.mark.parametrize("players", [3, 4])
def test_v9_unicoloured_plan_is_12_rounds_of_4_to_15_cards(players: int) -> None:
    rules = RuleSet(round_plan=Plan.UNICOLOURED)
    assert plan_for(rules, players) == list(range(4, 16))
    # V9 has no trump in any round (P1 relies on this).
    assert all(deals_every_card(rules, players, n) for n in range(4, 16))


@pytest.mark.parametrize("players", [5, 6])
def test_v9_unicoloured_is_for_3_or_4_players(players: int) -> None:
    with pytest.raises(ValueError, match="3 or 4 players"):
        plan_for(RuleSet(round_plan=Plan.UNICOLOURED), players)


@pytest.mark.parametrize(
    ("first", "players", "dealers"),
    [
        (0, 3, [0, 1, 2, 0, 1]),
        (2, 4, [2, 3, 0, 1, 2]),
        (5, 6, [5, 0, 1, 2, 3]),
    ],
)
def test_r5_deal_passes_clockwise_every_round(first: int, players: int, dealers: list[int]) -> None:
    assert [dealer_of_round(first, n, players) for n in range(1, 6)] == dealers


@pytest.mark.parametrize(
    ("first", "number", "players", "message"),
    [
        (3, 1, 3, "seat from 0 to 2"),
        (-1, 1, 4, "seat from 0 to 3"),
        (0, 0, 4, "numbered from 1"),
        (0, 1, 2, "3 to 6 players"),
    ],
)
def test_r5_bad_dealer_arguments(first: int, number: int, players: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        dealer_of_round(first, number, players)


@pytest.mark.parametrize(
    ("dealer", "players", "order"),
    [(0, 3, [1, 2, 0]), (2, 3, [0, 1, 2]), (1, 4, [2, 3, 0, 1]), (5, 6, [0, 1, 2, 3, 4, 5])],
)
def test_r6_bidding_starts_left_of_dealer_and_dealer_bids_last(
    dealer: int, players: int, order: list[int]
) -> None:
    assert bidding_order(dealer, players) == order
    assert first_lead(dealer, players) == order[0]  # R6: left of the dealer leads
