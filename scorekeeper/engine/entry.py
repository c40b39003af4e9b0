"""A round being entered on a score pad, tap by tap: queries answer, commands raise.

:class:`RoundDraft` holds what is in so far — the bids, the trick counts, the trump —
with the facts of the round (its rule set, number, cards, dealer and the totals before
it). Its queries say who bids next, which bids and trick counts each player may be given
(each refused one with the error it would raise), what fills itself in, what "the rest
made their bids" would enter and what a step back takes back; its commands (bid, take a
bid back, record or clear a count, the rest as bid, confirm) return the next draft or
raise the engine's typed errors. The pages, the API and the offline page's data all come
from here; nothing else knows these rules.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from typing import Any

from .bids import BidLimits, allowed_bids, bid_limits, bidders, bids_seen, check_bid
from .errors import IllegalBid, RuleError
from .pad import RoundEntry, TrumpCall
from .plan import bidding_order
from .rules import Bidding, RuleSet


def _who(seat: int) -> str:
    return f"Player {seat + 1}"


@dataclass(frozen=True)
class Option:
    """One key of the pad's keypad: a value, and the error tapping it would raise
    (``None`` when it is allowed)."""

    value: int
    refusal: RuleError | None = None

    @property
    def allowed(self) -> bool:
        return self.refusal is None


@dataclass(frozen=True)
class RoundDraft:
    """The open round of a pad as entered so far (seat order throughout)."""

    rules: RuleSet
    number: int
    cards: int
    dealer: int
    totals_before: tuple[int, ...]
    bids: tuple[int | None, ...]
    tricks: tuple[int | None, ...]
    trump: TrumpCall | None = None

    @classmethod
    def empty(
        cls, rules: RuleSet, number: int, cards: int, dealer: int, totals_before: tuple[int, ...]
    ) -> RoundDraft:
        """A round with nothing entered yet."""
        blank = (None,) * len(totals_before)
        return cls(rules, number, cards, dealer, tuple(totals_before), blank, blank)

    # -- queries ------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.totals_before)

    @cached_property
    def order(self) -> list[int]:
        """Every seat in bidding order, from the dealer's left (R6)."""
        return bidding_order(self.dealer, self.players)

    @cached_property
    def bidders(self) -> list[int]:
        """The seats that bid, in order (a saboteur dealer does not: V6)."""
        return bidders(self.rules, self.dealer, self.players)

    @property
    def bids_in(self) -> bool:
        return all(self.bids[s] is not None for s in self.bidders)

    @property
    def tricks_in(self) -> bool:
        return all(t is not None for t in self.tricks)

    @property
    def next_bidder(self) -> int | None:
        return next((s for s in self.bidders if self.bids[s] is None), None)

    @property
    def next_taker(self) -> int | None:
        """Whose count to ask for next once the bids are in: the first missing one in
        bidding order (counts go in in any order)."""
        if not self.bids_in:
            return None
        return next((s for s in self.order if self.tricks[s] is None), None)

    @property
    def bids_shown(self) -> bool:
        """Whether the bids may be seen while the round is open (V3, V4)."""
        return bids_seen(self.rules, self.bids, self.bidders, played=False)

    @cached_property
    def limits(self) -> BidLimits:
        """The round's bid limits as data (R9; V1, V2, V7): what a page that can't reach
        the server may enforce by itself."""
        return bid_limits(
            self.rules,
            round_number=self.number,
            cards=self.cards,
            dealer=self.dealer,
            totals_before=self.totals_before,
        )

    def bid_options(self) -> list[Option]:
        """The next bidder's keys, 0 to the cards, each refused one with its reason.

        With hidden or secret bids (V3, V4) nothing shown before a bid may give the
        others' total away: the keys leave the dealer rule out (the bid that makes the
        total is refused only once it is made: :meth:`bid`)."""
        seat = self.next_bidder
        if seat is None:
            return []
        known = self._others(seat) if self.bids_shown else {}
        options = []
        for value in range(self.cards + 1):
            try:
                self._check_bid(seat, value, known)
                options.append(Option(value))
            except IllegalBid as exc:
                options.append(Option(value, exc))
        return options

    def trick_options(self, seat: int | None) -> list[Option]:
        """The counts ``seat`` may be given: with the counts already in they may not pass
        the cards of the round, and the last one must make them add up."""
        if seat is None:
            return []
        others = [t for s, t in enumerate(self.tricks) if s != seat]
        left = self.cards - sum(t for t in others if t is not None)
        last = all(t is not None for t in others)
        options = []
        for value in range(self.cards + 1):
            refusal: RuleError | None = None
            if value > left:
                refusal = self._too_many(seat, value, left)
            elif last and value != left:
                refusal = RuleError(
                    f"The tricks must add up to {self.cards}: {_who(seat)} took {left}.",
                    code="tricks_do_not_add_up",
                    message_id="last_count_is_left",
                    params={"seat": seat, "cards": self.cards, "left": left},
                )
            options.append(Option(value, refusal))
        return options

    def rest_as_bid(self) -> tuple[int, ...] | None:
        """The counts if every player whose count is missing took what they bid (a
        saboteur dealer without a bid takes what is left), or ``None`` when that can't be
        entered: fewer than two missing, the bids of the rest not adding up with the
        counts in, a bid missing, or secret bids (V4: the scorer doesn't see them yet)."""
        if self.rules.bidding is Bidding.SECRET or not self.bids_in:
            return None
        counts = list(self.tricks)
        missing = [s for s, c in enumerate(counts) if c is None]
        no_bid = [s for s in missing if self.bids[s] is None]
        if len(missing) < 2 or len(no_bid) > 1:
            return None
        for s in missing:
            counts[s] = self.bids[s]
        taken = sum(c for c in counts if c is not None)
        for s in no_bid:
            counts[s] = self.cards - taken
            taken = self.cards
        if taken != self.cards or any(c is None or c < 0 for c in counts):
            return None
        return tuple(c for c in counts if c is not None)

    @property
    def bid_steps(self) -> BidSteps:
        """What the bid keys of this round refuse at each step besides the top bid, as data
        (for the page that keeps taking a round while it can't reach the server)."""
        return _bid_steps(self.rules, self.number, self.cards, self.dealer, self.totals_before)

    @property
    def count_steps(self) -> CountSteps:
        """What the trick counts of this round do at each step, as data (for the page that
        keeps taking a round while it can't reach the server)."""
        return _count_steps(self.rules, self.players, self.cards)

    @property
    def last_bid(self) -> int | None:
        """The seat whose bid a step back takes back (the last one in, in bidding order),
        once no trick count is in."""
        made = [s for s in self.bidders if self.bids[s] is not None]
        return made[-1] if made else None

    @property
    def counts_in(self) -> list[int]:
        """The seats whose count is in, in bidding order."""
        return [s for s in self.order if self.tricks[s] is not None]

    def entry(self, *, tricks: bool = False) -> RoundEntry:
        """The round as a pad entry: bids and trump, and the counts when ``tricks`` (the
        ones missing as 0: :meth:`confirm` checks they are all in)."""
        counts = tuple(t or 0 for t in self.tricks) if tricks else None
        return RoundEntry(self.bids, counts, self.trump)

    # -- commands -----------------------------------------------------------------------

    def bid(self, seat: int, value: int | None) -> RoundDraft:
        """``seat`` bids ``value`` (``None`` takes the bid back, alone: the others stay,
        maybe made in secret, V3, V4). Bids go in bidding order; a bid made again after
        the others completes the round and the dealer rule holds it (V1, V2).

        :raises RuleError: for a seat not at the table, once the counts have started, for
            a saboteur dealer, out of turn, or for a bid the rules forbid.
        """
        self._seat(seat)
        if any(t is not None for t in self.tricks):
            raise RuleError(
                "The tricks are being entered: clear them before changing a bid.",
                code="tricks_started",
            )
        if seat not in self.bidders:
            raise RuleError(
                f"{_who(seat)} deals and does not bid under Wizard Saboteur.",
                code="dealer_does_not_bid",
                message_id="deals_and_does_not_bid",
                params={"seat": seat},
            )
        if value is not None:
            before = self.bidders[: self.bidders.index(seat)]
            waiting = [s for s in before if self.bids[s] is None]
            if waiting:
                raise RuleError(
                    f"{_who(waiting[0])} bids first.",
                    code="not_your_turn",
                    message_id="bids_first",
                    params={"seat": waiting[0]},
                )
            # Checked as this player's bid, with every other bid made so far: one made
            # again after the dealer's is refused as its own, not as the dealer's.
            self._check_bid(seat, value, self._others(seat))
        return replace(self, bids=_put(self.bids, seat, value))

    def with_trump(self, trump: TrumpCall | None) -> RoundDraft:
        return replace(self, trump=trump)

    def record_tricks(self, seat: int, count: int | None) -> tuple[RoundDraft, list[int]]:
        """Enter (``None``: clear) one player's count, in any order. The counts that are
        forced fill themselves in: the last one is what is left, and once every trick is
        taken the others took none. Returns the next draft and the seats filled in.

        :raises RuleError: before every bid is in, or for a count that can't add up.
        """
        self._seat(seat)
        self._need_bids()
        if count is None:
            return replace(self, tricks=_put(self.tricks, seat, None)), []
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= self.cards:
            raise RuleError(
                f"Tricks taken go from 0 to {self.cards}.",
                code="tricks_out_of_range",
                message_id="tricks_from_zero",
                params={"cards": self.cards},
            )
        counts = list(_put(self.tricks, seat, count))
        others = sum(c for s, c in enumerate(counts) if c is not None and s != seat)
        if others + count > self.cards:
            raise self._too_many(seat, count, self.cards - others)
        missing = [s for s, c in enumerate(counts) if c is None]
        left = self.cards - others - count
        filled: list[int] = []
        if len(missing) == 1 or (missing and left == 0):
            for s in missing:
                counts[s] = left
            filled = missing
        return replace(self, tricks=tuple(counts)), filled

    def clear_tricks(self, seat: int) -> RoundDraft:
        """Take back ``seat``'s count (the others stay)."""
        self._seat(seat)
        return replace(self, tricks=_put(self.tricks, seat, None))

    def rest_made_their_bids(self) -> tuple[RoundDraft, list[int]]:
        """Every missing count as bid (:meth:`rest_as_bid`); returns the next draft and
        the seats filled in.

        :raises RuleError: before every bid is in, or when that can't be entered.
        """
        self._need_bids()
        counts = self.rest_as_bid()
        if counts is None:
            raise RuleError(
                "Their bids don't add up with the tricks entered: enter each count.",
                code="rest_does_not_add_up",
            )
        filled = [s for s, c in enumerate(self.tricks) if c is None]
        return replace(self, tricks=counts), filled

    def confirm(self) -> RoundEntry:
        """The round, every count in, ready to score (R16).

        :raises RuleError: while a count is missing.
        """
        if not self.tricks_in:
            raise RuleError("Enter every player's tricks first.", code="tricks_missing")
        return self.entry(tricks=True)

    # -- helpers ------------------------------------------------------------------------

    def _seat(self, seat: object) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise RuleError(
                "There is no such player at this table.", code="bad_seat", message_id="no_seat"
            )

    def _need_bids(self) -> None:
        if not self.bids_in:
            raise RuleError(
                "Enter every bid before the tricks.",
                code="bids_missing",
                message_id="enter_bids_first",
            )

    def _others(self, seat: int) -> dict[int, int]:
        return {s: b for s, b in enumerate(self.bids) if s != seat and b is not None}

    def _check_bid(self, seat: int, value: object, known: dict[int, int]) -> None:
        check_bid(
            self.rules,
            value,
            round_number=self.number,
            cards=self.cards,
            dealer=self.dealer,
            seat=seat,
            bids=known,
            totals_before=self.totals_before,
        )

    def _too_many(self, seat: int, value: int, left: int) -> RuleError:
        verb = "is" if left == 1 else "are"
        return RuleError(
            f"{_who(seat)} can't have taken {value}: only {left} of the {self.cards} "
            f"tricks {verb} left.",
            code="tricks_do_not_add_up",
            message_id="tricks_left",
            params={"seat": seat, "value": value, "left": left, "cards": self.cards},
        )


@dataclass(frozen=True)
class BidSteps:
    """The bids of a round, step by step, as data this module's own queries produced: a
    page that can't reach the server looks them up instead of knowing rules.

    ``refused[m][s]`` is the bid the next bidder's keys refuse (up to the top bid) when
    ``m`` bids are missing, theirs included, and the bids in add up to ``s``; ``None``
    where none is. Only the ``m`` where something is refused are listed, and nothing with
    hidden or secret bids (V3, V4: the keys give nothing away; the server asks for a
    change once the bid is in).
    """

    refused: tuple[tuple[int, tuple[int | None, ...]], ...]

    def as_data(self) -> dict[str, list[int | None]]:
        """A plain value for JSON, keyed by the number of bids missing."""
        return {str(m): list(row) for m, row in self.refused}


@lru_cache(maxsize=256)
def _bid_steps(
    rules: RuleSet, number: int, cards: int, dealer: int, totals_before: tuple[int, ...]
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
            if not draft.bids_shown:
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


def _put(values: tuple[int | None, ...], seat: int, value: int | None) -> tuple[int | None, ...]:
    return values[:seat] + (value,) + values[seat + 1 :]
