"""Round plans (R4, V8, V9) and who deals, bids and leads (R5, R6)."""

from __future__ import annotations

from .rules import Plan, RuleSet, check_player_count

# V8: cards per player in each of the 10 rounds of the short game, by player count.
SHORT_GAME: dict[int, list[int]] = {
    3: [2, 4, 6, 8, 10, 12, 14, 16, 18, 20],
    4: [1, 3, 5, 7, 9, 11, 12, 13, 14, 15],
    5: [2, 4, 5, 6, 7, 8, 9, 10, 11, 12],
    6: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
}

# V9: 12 rounds, 4 to 15 cards from each player's own 15-card pile.
UNICOLOURED_GAME: list[int] = list(range(4, 16))


def round_plan(players: int, short: bool = False) -> list[int]:
    """Cards per player for each round: the full game (R4) or the short game (V8).

    :raises ValueError: for fewer than 3 or more than 6 players.
    """
    check_player_count(players)
    if short:
        return list(SHORT_GAME[players])
    return list(range(1, 60 // players + 1))


def plan_for(rules: RuleSet, players: int) -> list[int]:
    """The round plan a rule set gives for a number of players (R4, V8, V9).

    :raises ValueError: when the rule set cannot be played by that many players.
    """
    rules.check_players(players)
    if rules.round_plan is Plan.UNICOLOURED:
        return list(UNICOLOURED_GAME)
    return round_plan(players, short=rules.round_plan is Plan.SHORT)


def deals_every_card(rules: RuleSet, players: int, cards: int) -> bool:
    """Whether a round with ``cards`` per player leaves no stock to turn a trump (R8)."""
    if rules.unicoloured:
        return True  # V9 has no trump at all
    return cards * players == 60


def dealer_of_round(first_dealer: int, round_number: int, players: int) -> int:
    """The seat that deals round ``round_number`` (1-based): the deal passes left (R5)."""
    check_player_count(players)
    if not 0 <= first_dealer < players:
        raise ValueError(f"The first dealer must be a seat from 0 to {players - 1}.")
    if round_number < 1:
        raise ValueError("Rounds are numbered from 1.")
    return (first_dealer + round_number - 1) % players


def bidding_order(dealer: int, players: int) -> list[int]:
    """Seats in bidding order: left of the dealer first, the dealer last (R6)."""
    return [*range(dealer + 1, players), *range(dealer + 1)]


def first_lead(dealer: int, players: int) -> int:
    """The seat that leads the first trick: left of the dealer (R6)."""
    return (dealer + 1) % players
