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

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from .bids import BidLimits, allowed_bids, bid_limits, bidders, bids_seen, check_bid, check_bids
from .errors import IllegalBid, InvalidRound, OutOfTurn, RuleError
from .moves import Move, Taken, standing
from .pad import RoundEntry, TrumpCall, check_trump
from .plan import bidding_order, deals_every_card
from .rules import Bidding, RuleSet
from .sight import SCORER, Reveal, SeenBids, Viewer, reveal_of, seen_bids


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
    """The open round of a pad as entered so far (seat order throughout).

    ``moves`` is its stack of moves, the last one last: the moves whose entries still
    stand (an entry taken back, cleared or made again takes its move off), so Undo steps
    back through it move by move and it stays short enough to store with the round
    (:meth:`with_moves` reads it back). A draft stored before its moves were kept has
    none, and Undo follows the bidding order. It takes no part in equality.
    ``seats_bid``: each seat bids for itself (digital play) rather than a scorer entering
    the table's bids in order; with hidden or secret bids the seats then bid in any order
    (:attr:`waiting`). ``scored``: a round already scored, read back whole
    (:meth:`of_entry`), whose bids everyone sees.
    """

    rules: RuleSet
    number: int
    cards: int
    dealer: int
    totals_before: tuple[int, ...]
    bids: tuple[int | None, ...]
    tricks: tuple[int | None, ...]
    trump: TrumpCall | None = None
    moves: tuple[Move, ...] = field(default=(), compare=False)
    seats_bid: bool = False
    scored: bool = False

    @classmethod
    def empty(
        cls, rules: RuleSet, number: int, cards: int, dealer: int, totals_before: tuple[int, ...]
    ) -> RoundDraft:
        """A round with nothing entered yet."""
        blank = (None,) * len(totals_before)
        return cls(rules, number, cards, dealer, tuple(totals_before), blank, blank)

    @classmethod
    def of_entry(
        cls,
        rules: RuleSet,
        number: int,
        cards: int,
        dealer: int,
        totals_before: tuple[int, ...],
        entry: RoundEntry,
        moves: tuple[Move, ...] = (),
    ) -> RoundDraft:
        """A round entered whole (a scored one, a correction, the API, an import) as a
        draft, to check (:meth:`check`) or to reopen (:meth:`reopen`)."""
        tricks: tuple[int | None, ...] = (
            tuple(entry.tricks) if entry.tricks is not None else (None,) * len(totals_before)
        )
        return cls(
            rules,
            number,
            cards,
            dealer,
            tuple(totals_before),
            tuple(entry.bids),
            tricks,
            entry.trump,
            moves,
            scored=entry.tricks is not None,
        )

    def with_moves(self, moves: Sequence[Move]) -> RoundDraft:
        """This round with the stack of moves storage kept of it (:func:`parse_moves`):
        the moves of seats at this table whose entries still stand (a stack kept before a
        change made elsewhere loses the moves that change undid)."""
        players = self.players
        known = tuple(
            m
            for m in moves
            if (m.kind == "trump" or m.seats) and all(0 <= s < players for s in m.seats)
        )
        return self._entered(moves=known)

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

    @cached_property
    def waiting(self) -> list[int]:
        """The seats whose bid is asked for now: the next bidder in order (R6). When the
        seats bid for themselves with hidden or secret bids (V3, V4), every seat yet to
        bid, but while the dealer rule holds (V1, V2) the last bidder only once all the
        others have: a bid that makes the total must be changed, so it comes last."""
        if not self.seats_bid or self.rules.bidding is Bidding.OPEN:
            seat = self.next_bidder
            return [] if seat is None else [seat]
        waiting = [s for s in self.bidders if self.bids[s] is None]
        last = self.bidders[-1] if self.bidders else None
        if len(waiting) > 1 and last in waiting and self.limits.total_not is not None:
            waiting.remove(last)
        return waiting

    @property
    def tricks_left(self) -> int | None:
        """The tricks no count holds yet while the counts go in (R16: they add up to the
        cards of the round); ``None`` before every bid is in and once every count is."""
        if not self.bids_in or self.tricks_in:
            return None
        return self.cards - sum(t for t in self.tricks if t is not None)

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
        return bids_seen(self.rules, self.bids, self.bidders, played=self.scored)

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

    def bid_options(self, seat: int | None = None) -> list[Option]:
        """The keys of ``seat`` (by default the next bidder), 0 to the cards, each refused
        one with its reason; none for a seat not asked to bid now (:attr:`waiting`).

        With hidden or secret bids (V3, V4) nothing shown before a bid may give the
        others' total away: the keys leave the dealer rule out (the bid that makes the
        total is refused only once it is made: :meth:`bid`)."""
        if seat is None:
            seat = self.next_bidder
        if seat is None or seat not in self.waiting:
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

    def allowed(self, seat: int) -> list[int]:
        """The bids ``seat`` could make now, knowing every bid made (empty when it is not
        asked to bid: :attr:`waiting`)."""
        if seat not in self.waiting:
            return []
        return allowed_bids(
            self.rules,
            round_number=self.number,
            cards=self.cards,
            dealer=self.dealer,
            seat=seat,
            bids=self._others(seat),
            totals_before=self.totals_before,
        )

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

    def only_missed(self, seat: int) -> tuple[int, ...] | None:
        """The counts if ``seat`` alone of the players whose count is missing missed their
        bid and every other one of them made theirs ("only Ben missed"): theirs as bid,
        and ``seat``'s what that leaves of the tricks (R16: they add up to the cards);
        ``None`` when that can't be entered (:meth:`only_one_missed` says why)."""
        try:
            return self._only_missed(seat)
        except RuleError:
            return None

    @property
    def one_missed_offered(self) -> bool:
        """Whether "only one missed" is offered: the bids of the players whose count is
        missing don't add up with the counts in (someone missed), two or more are
        missing, and for one of them at least it can be entered (:meth:`only_missed`)."""
        missing = [s for s, c in enumerate(self.tricks) if c is None]
        return (
            len(missing) >= 2
            and self.rest_as_bid() is None
            and any(self.only_missed(s) is not None for s in missing)
        )

    @property
    def last_bid(self) -> int | None:
        """The last seat in bidding order whose bid is in (what Undo takes back, once no
        trick count is in, when the stack of moves doesn't say)."""
        made = [s for s in self.bidders if self.bids[s] is not None]
        return made[-1] if made else None

    @property
    def counts_in(self) -> list[int]:
        """The seats whose count is in, in bidding order."""
        return [s for s in self.order if self.tricks[s] is not None]

    def seen_by(self, viewer: Viewer = SCORER) -> SeenBids:
        """The bids so far as ``viewer`` may see them (V3, V4): numbers, or sealed."""
        return seen_bids(
            self.rules, self.bids, dealer=self.dealer, played=self.scored, viewer=viewer
        )

    @property
    def reveal(self) -> Reveal:
        """When the bids of the round are shown to all (V3, V4)."""
        return reveal_of(self.rules)

    @property
    def last_count(self) -> Move | None:
        """The trick count entered last, when it is the last move the stack knows."""
        last = self.moves[-1] if self.moves else None
        return last if last is not None and last.kind == "tricks" else None

    @property
    def undo_step(self) -> tuple[str, int] | None:
        """What Undo takes back, move by move down the stack: ``("tricks", seat)`` for the
        count tapped last, else ``("bid", seat)`` for the bid made last; where the stack
        doesn't say (a draft stored before its moves were kept), the last count in bidding
        order, else the last bid. ``None`` when nothing is entered."""
        tapped = self.counts_in
        kind, values = ("tricks", self.tricks) if tapped else ("bid", self.bids)
        for move in reversed(self.moves):
            if move.kind == kind and move.seats:
                # "The rest made their bids" tapped no seat: the last of its counts.
                seat = move.seat if move.seat is not None else max(move.seats, key=self.order.index)
                if values[seat] is not None:
                    return (kind, seat)
        if tapped:
            return ("tricks", tapped[-1])
        bid = self.last_bid
        return None if bid is None else ("bid", bid)

    @property
    def reopen_seats(self) -> list[int] | None:
        """The counts reopening this scored round takes back: the last count tap's seat
        and the counts that filled themselves in with it, or ``None`` when the moves don't
        say what it was (then the round is corrected on the pad instead)."""
        last = self.last_count
        if not self.tricks_in or last is None:
            return None
        return sorted(set(last.filled) | ({last.seat} if last.seat is not None else set()))

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
        :raises OutOfTurn: when the seats bid for themselves, for a seat that has bid or
            is not asked to bid now.
        """
        if self.seats_bid:
            return self._own_bid(seat, value)
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
        return self._entered(
            bids=_put(self.bids, seat, value), moves=self.moves + (Move("bid", seat),)
        )

    def _own_bid(self, seat: int, value: object) -> RoundDraft:
        """A seat bidding for itself (digital play): once, when asked (R6; V1–V4, V6)."""
        self._seat(seat)
        if seat not in self.bidders:
            raise OutOfTurn(
                "The dealer does not bid under Wizard Saboteur.", message_id="saboteur_no_bid"
            )
        if self.bids[seat] is not None:
            raise OutOfTurn("You have already bid this round.", message_id="already_bid")
        waiting = self.waiting
        if seat not in waiting:
            raise OutOfTurn(
                f"It is Player {waiting[0] + 1}'s turn to bid.",
                message_id="turn_to_bid",
                params={"seat": waiting[0]},
            )
        bid = self._check_bid(seat, value, self._others(seat))
        assert bid is not None  # a bidder's bid, checked
        return self._entered(
            bids=_put(self.bids, seat, bid), moves=self.moves + (Move("bid", seat),)
        )

    def with_trump(self, trump: TrumpCall | None) -> RoundDraft:
        """The round's trump (P1).

        :raises InvalidRound: for a suit in a round that has no trump (R8, V9).
        """
        check_trump(self.rules, self.players, self.cards, trump)
        return self._entered(trump=trump, moves=self.moves + (Move("trump"),))

    def record_tricks(self, seat: int, count: int | None) -> tuple[RoundDraft, list[int]]:
        """Enter (``None``: clear) one player's count, in any order. The counts that are
        forced fill themselves in: the last one is what is left, and once every trick is
        taken the others took none. Returns the next draft and the seats filled in.

        :raises RuleError: before every bid is in, or for a count that can't add up.
        """
        self._seat(seat)
        self._need_bids()
        if count is None:
            return self.clear_tricks(seat), []
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
        move = Move("tricks", seat, tuple(filled))
        return self._entered(tricks=tuple(counts), moves=self.moves + (move,)), filled

    def clear_tricks(self, seat: int) -> RoundDraft:
        """Take back ``seat``'s count (the others stay)."""
        self._seat(seat)
        return self._entered(
            tricks=_put(self.tricks, seat, None), moves=self.moves + (Move("clear", seat),)
        )

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
        move = Move("tricks", None, tuple(filled))
        return self._entered(tricks=counts, moves=self.moves + (move,)), filled

    def only_one_missed(self, seat: int) -> tuple[RoundDraft, list[int]]:
        """``seat`` alone of the players whose count is missing missed their bid: the
        others' counts as bid, ``seat``'s what is left (:meth:`only_missed`). Returns the
        next draft and the seats filled in besides ``seat``.

        :raises RuleError: before every bid is in, with secret bids (V4), for a count
            already in, a seat without a bid or a missing count without one (V6), or
            when the others' bids leave ``seat`` a count that isn't a miss.
        """
        counts = self._only_missed(seat)
        filled = [s for s, c in enumerate(self.tricks) if c is None and s != seat]
        move = Move("tricks", seat, tuple(filled))
        return self._entered(tricks=counts, moves=self.moves + (move,)), filled

    def take_back(self, kind: str, seat: int) -> tuple[RoundDraft, Taken]:
        """Take back one player's entry: their bid (``kind`` "bid", alone) or their trick
        count ("tricks"). Returns the next draft and what was taken (nothing when there
        was nothing there), for :meth:`put_back`.

        :raises RuleError: for another kind, or as :meth:`bid` and :meth:`clear_tricks`.
        """
        if kind == "bid":
            after, before = self.bid(seat, None), self.bids
        elif kind == "tricks":
            after, before = self.clear_tricks(seat), self.tricks
        else:
            raise RuleError(
                "There is nothing to take back.",
                code="bad_clear",
                message_id="nothing_to_take_back",
            )
        now = after.bids if kind == "bid" else after.tricks
        values = {
            s: was
            for s, (was, left) in enumerate(zip(before, now, strict=True))
            if was is not None and left is None
        }
        return after, Taken(kind, values)

    def undo(self) -> tuple[RoundDraft, Taken]:
        """Take back what :attr:`undo_step` names.

        :raises RuleError: when nothing is entered.
        """
        step = self.undo_step
        if step is None:
            raise RuleError(
                "There is nothing to take back.",
                code="nothing_to_take_back",
                message_id="nothing_to_take_back",
            )
        return self.take_back(*step)

    def put_back(self, taken: Taken) -> RoundDraft:
        """Undo a take-back: put what it took back where it was, checked again (the bids
        with the totals before the round as they stand now, P2; the counts so that they
        can still add up).

        :raises RuleError: when there is nothing to put back there (a place filled since),
            or for bids the rules now refuse.
        """
        values = taken.values
        current = self.bids if taken.kind == "bid" else self.tricks
        if (
            taken.kind not in ("bid", "tricks")
            or not values
            or any(
                isinstance(s, bool)
                or not isinstance(s, int)
                or not 0 <= s < self.players
                or current[s] is not None
                for s in values
            )
        ):
            raise RuleError(
                "There is nothing to put back.",
                code="nothing_to_put_back",
                message_id="nothing_to_put_back",
            )
        restored = tuple(values.get(s, v) for s, v in enumerate(current))
        first = min(values, key=self.order.index)
        if taken.kind == "bid":
            draft = self._entered(bids=restored, moves=self.moves + (Move("bid", first),))
            draft.check()
            return draft
        self._need_bids()
        tapped, *filled = sorted(values)
        move = Move("tricks", tapped, tuple(filled))
        draft = self._entered(tricks=restored, moves=self.moves + (move,))
        draft._check_counts()
        return draft

    def reopen(self) -> RoundDraft:
        """Undo the tap that scored this round (a draft of it with every count in, its
        moves ending with that tap): the round open again without that count and the
        counts that filled themselves in with it.

        :raises RuleError: when the moves don't say what that tap was.
        """
        seats = self.reopen_seats
        if seats is None:
            raise RuleError(
                "That round can't be reopened any more: correct it on the pad instead.",
                code="cannot_reopen",
                message_id="cannot_reopen",
            )
        tricks = tuple(None if s in seats else t for s, t in enumerate(self.tricks))
        return self._entered(tricks=tricks, moves=self.moves[:-1], scored=False)

    def check(self, names: Sequence[str] | None = None) -> None:
        """Check the round as it stands under the rule set, with the totals before it as
        they are now (P2): the trump, the bids as if made one by one in bidding order
        (R9; V1, V2, V6, V7), and once every count is in, that they add up (R16). A round
        entered whole (a correction, the API, an import) is read with :meth:`of_entry`
        and checked here; ``names`` name the players in the errors' English text.

        :raises IllegalBid: for a bid the rule set forbids.
        :raises InvalidRound: for tricks or trump that do not fit the round.
        """
        check_trump(self.rules, self.players, self.cards, self.trump)
        check_bids(
            self.rules,
            self.bids,
            round_number=self.number,
            cards=self.cards,
            dealer=self.dealer,
            totals_before=self.totals_before,
            names=names,
        )
        if self.scored or any(t is not None for t in self.tricks):
            if not self.bids_in:
                raise InvalidRound("Every bid must be in before the tricks.", code="bids_missing")
            if len(self.tricks) != self.players:
                raise InvalidRound(
                    f"There must be one trick count per player ({self.players}), "
                    f"not {len(self.tricks)}.",
                    code="wrong_count",
                    message_id="wrong_trick_count",
                    params={"players": self.players, "count": len(self.tricks)},
                )
            self._check_counts()

    def confirm(self, names: Sequence[str] | None = None) -> RoundEntry:
        """The round, every count in, checked as a whole (:meth:`check`) and ready to
        score (R16); "no trump" filled in for a round that deals every card (R8, V9).

        :raises RuleError: while a count is missing, or as :meth:`check` says.
        """
        if not self.tricks_in:
            raise RuleError("Enter every player's tricks first.", code="tricks_missing")
        self.check(names)
        entry = self.entry(tricks=True)
        if entry.trump is None and deals_every_card(self.rules, self.players, self.cards):
            entry = replace(entry, trump=TrumpCall(None))
        return entry

    # -- helpers ------------------------------------------------------------------------

    def _entered(self, **changes: Any) -> RoundDraft:
        """This round with more (or less) entered: the answers that depend on the
        round's facts alone (who bids, in what order, the bid limits) are kept."""
        get = changes.get
        bids, tricks, trump = (
            get("bids", self.bids),
            get("tricks", self.tricks),
            get("trump", self.trump),
        )
        moves = self.moves
        if "moves" in changes:
            moves = standing(changes["moves"], bids, tricks, trump)
        draft = RoundDraft(  # dataclasses.replace, without looking the fields up each time
            self.rules,
            self.number,
            self.cards,
            self.dealer,
            self.totals_before,
            bids,
            tricks,
            trump,
            moves,
            self.seats_bid,
            get("scored", self.scored),
        )
        kept = self.__dict__
        for name in _FACTS:
            if name in kept:
                draft.__dict__[name] = kept[name]
        return draft

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

    def _only_missed(self, seat: int) -> tuple[int, ...]:
        """The counts of :meth:`only_missed`, or the error that says why not."""
        self._seat(seat)
        self._need_bids()
        if self.rules.bidding is Bidding.SECRET:
            raise RuleError(
                "The bids are secret until the round is scored: enter each count.",
                code="not_only_miss",
                message_id="secret_bids_each_count",
            )
        if self.tricks[seat] is not None:
            raise RuleError(
                f"{_who(seat)}'s count is already in.",
                code="not_only_miss",
                message_id="count_already_in",
                params={"seat": seat},
            )
        missing = [s for s, c in enumerate(self.tricks) if c is None]
        no_bid = next((s for s in missing if self.bids[s] is None), None)
        if no_bid is not None:
            # A saboteur dealer has no bid to miss, nor one to go by (V6).
            raise RuleError(
                f"{_who(no_bid)} deals and does not bid under Wizard Saboteur: enter each count.",
                code="not_only_miss",
                message_id="no_bid_to_go_by",
                params={"seat": no_bid},
            )
        left = self.cards - sum(c for c in self.tricks if c is not None)
        others = sum(self.bids[s] or 0 for s in missing if s != seat)
        value = left - others
        if value < 0:
            raise RuleError(
                f"{_who(seat)} can't be the only one who missed: the others' bids come to "
                f"{others}, and only {left} trick{' is' if left == 1 else 's are'} left.",
                code="not_only_miss",
                message_id="others_bid_too_many",
                params={"seat": seat, "bids": others, "left": left},
            )
        if value == self.bids[seat]:
            raise RuleError(
                f"If the others made their bids, {_who(seat)} made theirs too.",
                code="not_only_miss",
                message_id="made_it_too",
                params={"seat": seat},
            )
        counts = [c if c is not None else self.bids[s] for s, c in enumerate(self.tricks)]
        counts[seat] = value
        return tuple(c for c in counts if c is not None)

    def _check_counts(self) -> None:
        """The counts in may not pass the cards, and once all are in they add up (R16)."""
        counts = self.tricks
        for won in counts:
            if won is not None and (
                isinstance(won, bool) or not isinstance(won, int) or not 0 <= won <= self.cards
            ):
                raise InvalidRound(
                    f"Tricks taken must be whole numbers from 0 to {self.cards}, not {won!r}.",
                    code="tricks_out_of_range",
                    params={"cards": self.cards, "value": won},
                )
        total = sum(t for t in counts if t is not None)
        if total > self.cards or (self.tricks_in and total != self.cards):
            cards = self.cards
            raise InvalidRound(
                f"The tricks add up to {total}, but {cards} trick"
                f"{'s were' if cards != 1 else ' was'} played this round.",
                code="tricks_do_not_add_up",
                params={"total": total, "cards": cards},
            )

    def _others(self, seat: int) -> dict[int, int]:
        return {s: b for s, b in enumerate(self.bids) if s != seat and b is not None}

    def _check_bid(self, seat: int, value: object, known: dict[int, int]) -> int | None:
        return check_bid(
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


# The cached answers of a draft that depend on the facts of its round alone.
_FACTS = ("order", "bidders", "limits")


def _put(values: tuple[int | None, ...], seat: int, value: int | None) -> tuple[int | None, ...]:
    return values[:seat] + (value,) + values[seat + 1 :]
