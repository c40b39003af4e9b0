"""Scoring a round (R16, V6, V10) and naming the winners (R17)."""

from __future__ import annotations

from collections.abc import Sequence

from .rules import Scoring, TieBreak

BOOK_SCORING = Scoring()


def _count(value: object, what: str) -> int:
    if type(value) is int and value >= 0:  # the usual case, decided first (games score often)
        return value
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{what} must be a whole number of tricks, 0 or more, not {value!r}.")
    return value


def score_round(bid: int, won: int, scoring: Scoring = BOOK_SCORING) -> int:
    """Points for one player's round (R16): exactly the bid scores 20 + 10 per trick;
    otherwise −10 per trick of difference. The three numbers come from ``scoring`` (V10).

    :raises ValueError: for a negative or non-integer bid or trick count.
    """
    bid = _count(bid, "A bid")
    won = _count(won, "Tricks taken")
    if bid == won:
        return scoring.exact_bonus + scoring.per_trick * won
    return -scoring.per_miss * abs(bid - won)


def saboteur_score(scoring: Scoring = BOOK_SCORING) -> int:
    """What the dealer scores under Wizard Saboteur (V6), whatever the tricks: the bonus
    for an exact bid (20 in the book)."""
    return scoring.exact_bonus


def winners(
    totals: Sequence[int],
    tie_break: TieBreak = TieBreak.SHARED,
    bid_totals: Sequence[int] | None = None,
) -> list[int]:
    """Seats of the winner(s) (R17): the highest total; equal totals share the win, unless
    ``tie_break`` is BID_TOTAL, when the higher sum of bids breaks it (still shared if equal).

    :raises ValueError: when there are no totals or the bid totals don't match them.
    """
    if not totals:
        raise ValueError("There are no totals to rank.")
    top = max(totals)
    best = [seat for seat, total in enumerate(totals) if total == top]
    if tie_break is TieBreak.BID_TOTAL and len(best) > 1:
        if bid_totals is None or len(bid_totals) != len(totals):
            raise ValueError("The bid-total tie-break needs each player's sum of bids.")
        most = max(bid_totals[seat] for seat in best)
        best = [seat for seat in best if bid_totals[seat] == most]
    return best


def places(totals: Sequence[int], winners: Sequence[int]) -> list[tuple[int, int, int]]:
    """(place, seat, total), best first (R17): equal totals share a place, and the place
    after them is counted on ("1, 1, 3": a shared win). When the tie-break decided between
    equal top totals (``winners`` fewer than the seats with the top total), the winners
    come first and alone in place 1."""
    top = max(totals) if totals else 0
    ahead = set(winners) if len(winners) < list(totals).count(top) else set()
    ranked = sorted(enumerate(totals), key=lambda st: (-st[1], st[0] not in ahead, st[0]))
    result: list[tuple[int, int, int]] = []
    for index, (seat, total) in enumerate(ranked, start=1):
        previous = result[-1] if result else None
        shared = previous is not None and (previous[2], previous[1] in ahead) == (
            total,
            seat in ahead,
        )
        result.append((previous[0] if previous and shared else index, seat, total))
    return result
