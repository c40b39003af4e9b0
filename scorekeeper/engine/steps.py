"""The steps of a round's entry as data, for the page that keeps taking a round while it
can't reach the server: worked out by :class:`~.entry.RoundDraft`'s own queries and
commands on stand-in drafts, so the page looks them up instead of knowing rules.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from .bids import allowed_bids
from .entry import RoundDraft
from .rules import RuleSet


def bid_steps(draft: RoundDraft) -> BidSteps:
    """What the bid keys of ``draft``'s round refuse at each step besides the top bid."""
    return _bid_steps(draft.rules, draft.number, draft.cards, draft.dealer, draft.totals_before)


def count_steps(draft: RoundDraft) -> CountSteps:
    """What the trick counts of ``draft``'s round do at each step."""
    return _count_steps(draft.rules, draft.players, draft.cards)


@dataclass(frozen=True)
class BidSteps:
    """The bids of a round, step by step, as data this module's own queries produced: a
    page that can't reach the server looks them up instead of knowing rules.

    ``refused[m][s]`` is the bid the next bidder's keys refuse (up to the top bid) when
    ``m`` bids are missing, theirs included, and the bids in add up to ``s``; ``None``
    where none is. Only the ``m`` where something is refused are listed, and nothing with
    hidden or secret bids (V3, V4: the keys give nothing away; the server asks for a
    change once the bid is in), unless worked out ``blind``: then it is the bid refused
    once it is in, which a page that knows the sealed bids (its own entries) refuses as
    the server would.
    """

    refused: tuple[tuple[int, tuple[int | None, ...]], ...]

    def as_data(self) -> dict[str, list[int | None]]:
        """A plain value for JSON, keyed by the number of bids missing."""
        return {str(m): list(row) for m, row in self.refused}


@lru_cache(maxsize=256)
def _bid_steps(
    rules: RuleSet,
    number: int,
    cards: int,
    dealer: int,
    totals_before: tuple[int, ...],
    blind: bool = False,
) -> BidSteps:
    # Worked out on stand-in drafts of the same round, by the bids query: the first
    # bidders in order have bid, the first of them all that adds up (any split of the
    # same total is refused alike).
    blank = RoundDraft.empty(rules, number, cards, dealer, totals_before)
    order, top = blank.bidders, blank.limits.top
    refused = []
    for missing in range(1, len(order) + 1):
        entered = len(order) - missing
        row: list[int | None] = []
        for total in range((entered * top) + 1):
            bids: list[int | None] = [None] * blank.players
            left = total
            for seat in order[:entered]:
                bids[seat] = min(left, top)
                left -= min(left, top)
            draft = replace(blank, bids=tuple(bids))
            if not (draft.bids_shown or blind):
                row = []
                break
            seat = order[entered]
            allowed = allowed_bids(
                rules,
                round_number=number,
                cards=cards,
                dealer=dealer,
                seat=seat,
                bids=draft._others(seat),
                totals_before=totals_before,
            )
            keys = [value for value in range(top + 1) if value not in allowed]
            row.append(keys[0] if keys else None)
        while row and row[-1] is None:
            row.pop()
        if row:
            refused.append((missing, tuple(row)))
    return BidSteps(tuple(refused))


@dataclass(frozen=True)
class CountSteps:
    """The trick counts of a round, step by step, as data this module's own commands
    produced: a page that can't reach the server looks them up instead of knowing rules.

    ``top[t]`` is the highest count the next player may be given once ``t`` tricks are
    taken; ``fill[(m, t)]`` is what every missing count fills itself in with when a count
    leaves ``m`` of them missing and ``t`` tricks taken (only where something fills).
    """

    top: tuple[int, ...]
    fill: tuple[tuple[int, int, int], ...]  # (missing, taken, each missing count)

    def as_data(self) -> dict[str, Any]:
        """A plain value for JSON: ``fill`` keyed ``"missing taken"``."""
        return {"top": list(self.top), "fill": {f"{m} {t}": v for m, t, v in self.fill}}


@lru_cache(maxsize=256)
def _count_steps(rules: RuleSet, players: int, cards: int) -> CountSteps:
    # Worked out on stand-in drafts of the same table and cards, by the very queries and
    # commands a count goes through online: every bid in (counts don't depend on them)
    # and the first seats holding the counts so far.
    blank = RoundDraft.empty(rules, 1, cards, 0, (0,) * players)
    base = replace(blank, bids=tuple(0 if s in blank.bidders else None for s in range(players)))

    def counts_in(seats: int, taken: int) -> RoundDraft:
        counts: list[int | None] = [None] * players
        counts[:seats] = [taken] + [0] * (seats - 1) if seats else []
        return replace(base, tricks=tuple(counts))

    # One count in, the next player's is never the last (a table has 3 or more players).
    top = tuple(
        max(o.value for o in counts_in(1, t).trick_options(players - 1) if o.allowed)
        for t in range(cards + 1)
    )
    fill = []
    for missing in range(1, players):
        entered = players - missing  # the last of them the count just given
        for taken in range(cards + 1):
            after, filled = counts_in(entered - 1, 0).record_tricks(entered - 1, taken)
            if filled:
                value = after.tricks[filled[0]]
                assert value is not None
                fill.append((missing, taken, value))
    return CountSteps(top, tuple(fill))
