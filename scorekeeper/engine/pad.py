"""The score pad: rounds recorded at a real table, checked and added up (R16, R17, P1, P2).

The app stores what the table said (bids, tricks, trump) and asks this module for
everything else: whether a round may be recorded, the scores, running totals and winners.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .cards import Suit
from .errors import InvalidRound
from .plan import dealer_of_round, deals_every_card, plan_for
from .rules import RuleSet
from .scoring import saboteur_score, score_round, winners
from .text import has_control


@dataclass(frozen=True, slots=True)
class TrumpCall:
    """The trump of a round as recorded: a suit, no trump (``suit is None``), or a Wizard
    turned up and the dealer's choice (R7, P1).

    Text form: ``"red"``, ``"none"``, ``"wizard:red"``; French names are read too (P3).
    """

    suit: Suit | None
    wizard_turned: bool = False

    def __post_init__(self) -> None:
        if self.wizard_turned and self.suit is None:
            raise ValueError("When a Wizard is turned up the dealer must choose a suit.")

    @classmethod
    def parse(cls, text: str) -> TrumpCall:
        """:raises ValueError: for text that is not a trump."""
        if not isinstance(text, str):
            raise ValueError(f"Trump must be text like 'red' or 'none', not {text!r}.")
        t = text.strip().lower()
        if t in ("none", "no trump", "jester"):
            return cls(None)
        if t.startswith("wizard:"):
            return cls(Suit.from_name(t.removeprefix("wizard:")), wizard_turned=True)
        return cls(Suit.from_name(t))

    def __str__(self) -> str:
        if self.suit is None:
            return "none"
        return f"wizard:{self.suit.colour}" if self.wizard_turned else self.suit.colour


ADJUSTMENT_MAX = 500  # points, either way
ADJUSTMENTS_MAX = 20  # bonuses and penalties in one round
REASON_MAX = 60  # characters


@dataclass(frozen=True, slots=True)
class Adjustment:
    """A one-off bonus or penalty for one player in a played round (a misdeal, a revoke,
    a house rule): counted in their total from that round on, beside the round's score."""

    seat: int
    points: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class RoundEntry:
    """What the table recorded for a round, in seat order. ``tricks`` is ``None`` while the
    round is being played; a bid is ``None`` for a dealer under Wizard Saboteur (V6).
    ``adjustments``: the bonuses and penalties given in the round once it was played."""

    bids: tuple[int | None, ...]
    tricks: tuple[int, ...] | None = None
    trump: TrumpCall | None = None
    adjustments: tuple[Adjustment, ...] = ()


@dataclass(frozen=True, slots=True)
class ScoredRound:
    """A round on the pad with its scores (``None`` until the tricks are in) and totals."""

    number: int
    cards: int
    dealer: int
    entry: RoundEntry
    scores: tuple[int, ...] | None
    totals: tuple[int, ...]

    @property
    def complete(self) -> bool:
        return self.scores is not None

    @property
    def adjusted(self) -> tuple[int, ...]:
        """Each seat's bonuses and penalties in this round (0 for none), in its total."""
        points = [0] * len(self.totals)
        for a in self.entry.adjustments:
            points[a.seat] += a.points
        return tuple(points)


@dataclass(frozen=True, slots=True)
class Sheet:
    """A whole score pad: the rounds so far, the totals, and once finished the winners."""

    rules: RuleSet
    players: int
    first_dealer: int
    plan: tuple[int, ...]
    rounds: tuple[ScoredRound, ...]

    @property
    def totals(self) -> tuple[int, ...]:
        return self.rounds[-1].totals if self.rounds else (0,) * self.players

    @property
    def finished(self) -> bool:
        return len(self.rounds) == len(self.plan) and all(r.complete for r in self.rounds)

    def with_open_round(self, entry: RoundEntry) -> Sheet:
        """This sheet with ``entry`` (bids and trump so far, no tricks) as its open round:
        the round open now, or the next one when every round so far is scored. The rounds
        scored stay as they are, so nothing is added up again (a tap on the pad).

        :raises ValueError: for an entry with tricks or adjustments, or past the plan.
        """
        if entry.tricks is not None or entry.adjustments:
            raise ValueError("An open round has no tricks and no adjustments yet.")
        rounds = list(self.rounds)
        if rounds and not rounds[-1].complete:
            rounds.pop()
        number = len(rounds) + 1
        if number > len(self.plan):
            raise ValueError(f"The game has only {len(self.plan)} rounds.")
        dealer = dealer_of_round(self.first_dealer, number, self.players)
        totals = rounds[-1].totals if rounds else (0,) * self.players
        rounds.append(
            scored_round(self.rules, number, self.plan[number - 1], dealer, entry, totals)
        )
        return replace(self, rounds=tuple(rounds))

    @property
    def bid_totals(self) -> tuple[int, ...]:
        """Each player's sum of bids (a round without a bid counts 0: V6), for R17."""
        sums = [0] * self.players
        for r in self.rounds:
            for seat, bid in enumerate(r.entry.bids):
                sums[seat] += bid or 0
        return tuple(sums)

    @property
    def winners(self) -> list[int]:
        """Seats of the winner(s) once the last round is scored (R17), else ``[]``."""
        if not self.finished:
            return []
        return winners(self.totals, self.rules.tie_break, self.bid_totals)

    @property
    def leaders(self) -> list[int]:
        """Seats with the highest total so far (shared), for highlighting."""
        if not any(r.complete for r in self.rounds):
            return []
        top = max(self.totals)
        return [s for s, t in enumerate(self.totals) if t == top]

    def totals_before(self, number: int) -> tuple[int, ...]:
        """The totals before round ``number`` (1-based)."""
        if number <= 1 or not self.rounds:
            return (0,) * self.players
        return self.rounds[min(number, len(self.rounds) + 1) - 2].totals

    def dealer(self, number: int) -> int:
        return dealer_of_round(self.first_dealer, number, self.players)

    def next_number(self) -> int | None:
        """The number of the round to record next, or ``None`` when the plan is done."""
        if self.rounds and not self.rounds[-1].complete:
            return self.rounds[-1].number
        n = len(self.rounds) + 1
        return n if n <= len(self.plan) else None


def round_scores(rules: RuleSet, dealer: int, entry: RoundEntry) -> tuple[int, ...]:
    """Scores of a complete round (R16; V6 for the dealer; V10 numbers).

    :raises ValueError: when the tricks are missing or a player who bids has no bid.
    """
    if entry.tricks is None:
        raise ValueError("The round's tricks are not recorded yet.")
    scores = []
    for seat, (bid, won) in enumerate(zip(entry.bids, entry.tricks, strict=True)):
        if rules.saboteur and seat == dealer:
            scores.append(saboteur_score(rules.scoring))
        elif bid is None:
            raise ValueError(f"Player {seat + 1} has no bid, so the round cannot be scored.")
        else:
            scores.append(score_round(bid, won, rules.scoring))
    return tuple(scores)


def check_trump(rules: RuleSet, players: int, cards: int, trump: TrumpCall | None) -> None:
    """P1: a recorded trump must fit the round.

    :raises InvalidRound: a suit in the last round (R8) or in a unicoloured game (V9).
    """
    if trump is None or trump.suit is None:
        return
    if rules.unicoloured:
        raise InvalidRound(
            "The unicoloured game has no trump.",
            code="no_trump_round",
            params={"unicoloured": True},
        )
    if deals_every_card(rules, players, cards):
        raise InvalidRound(
            "The last round deals every card, so there is no trump.",
            code="no_trump_round",
            params={"unicoloured": False, "cards": cards},
        )


def check_adjustment(adjustment: Adjustment, players: int) -> Adjustment:
    """A bonus or penalty must be for a player at the table, a whole number of points
    other than 0 within ±ADJUSTMENT_MAX, with a short plain reason (no invisible or
    control characters: the rule of players' names, :func:`has_control`).

    :raises InvalidRound: saying what is wrong.
    """
    seat, points, reason = adjustment.seat, adjustment.points, adjustment.reason
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise InvalidRound(
            f"Choose one of the {players} players.",
            code="adjustment_seat",
            params={"players": players},
        )
    if (
        isinstance(points, bool)
        or not isinstance(points, int)
        or points == 0
        or abs(points) > ADJUSTMENT_MAX
    ):
        raise InvalidRound(
            f"A bonus or penalty is a whole number of points from −{ADJUSTMENT_MAX} to "
            f"{ADJUSTMENT_MAX}, not 0.",
            code="adjustment_points",
            params={"most": ADJUSTMENT_MAX},
        )
    if not isinstance(reason, str) or len(reason) > REASON_MAX:
        raise InvalidRound(
            f"The reason is a line of at most {REASON_MAX} characters.",
            code="adjustment_reason",
            params={"most": REASON_MAX},
        )
    if has_control(reason):  # the rule names have
        raise InvalidRound(
            "The reason can't contain invisible or control characters.",
            code="adjustment_reason_characters",
        )
    return adjustment


def check_adjustments(adjustments: Sequence[Adjustment], players: int) -> None:
    """A played round's bonuses and penalties as they are to be stored: each as
    :func:`check_adjustment` says, and at most ``ADJUSTMENTS_MAX`` of them (a table gives
    one or two; the bound keeps a game's pages and exports small, and every game exported
    can be imported).

    :raises InvalidRound: saying what is wrong.
    """
    if len(adjustments) > ADJUSTMENTS_MAX:
        raise InvalidRound(
            f"A round has at most {ADJUSTMENTS_MAX} bonuses and penalties.",
            code="adjustments_many",
            params={"most": ADJUSTMENTS_MAX},
        )
    for adjustment in adjustments:
        check_adjustment(adjustment, players)


def score_sheet(
    rules: RuleSet,
    players: int,
    first_dealer: int,
    entries: Sequence[RoundEntry],
) -> Sheet:
    """Add up recorded rounds into a pad. Rounds are not re-checked against the dealer
    rules here: a later round stays as it was played even if a correction before it
    would now refuse it (P2). Only the last round may be without tricks.

    :raises ValueError: for more rounds than the plan, or a shape that cannot be scored.
    """
    plan = plan_for(rules, players)
    if not 0 <= first_dealer < players:
        raise ValueError(f"The first dealer must be a seat from 0 to {players - 1}.")
    if len(entries) > len(plan):
        raise ValueError(f"The game has only {len(plan)} rounds.")
    totals = (0,) * players
    rounds: list[ScoredRound] = []
    for i, entry in enumerate(entries):
        number = i + 1
        if entry.tricks is None and not entry.adjustments and number != len(entries):
            raise ValueError(f"Round {number} has no tricks but a later round is recorded.")
        dealer = dealer_of_round(first_dealer, number, players)
        scored = scored_round(rules, number, plan[i], dealer, entry, totals)
        totals = scored.totals
        rounds.append(scored)
    return Sheet(rules, players, first_dealer, tuple(plan), tuple(rounds))


def scored_round(
    rules: RuleSet,
    number: int,
    cards: int,
    dealer: int,
    entry: RoundEntry,
    totals_before: tuple[int, ...],
) -> ScoredRound:
    """Round ``number`` as the pad scores it: where every score of the engine is worked
    out, on the pad and in digital play alike. Its scores once the tricks are in (R16;
    V6 for a saboteur dealer; V10's numbers), and the totals after it with its bonuses
    and penalties.

    :raises ValueError: for an entry that can't be scored, or adjustments of a round not
        played yet.
    """
    if entry.tricks is None:
        if entry.adjustments:
            raise ValueError(f"Round {number} is not played yet: nothing to adjust.")
        return ScoredRound(number, cards, dealer, entry, None, totals_before)
    scores = round_scores(rules, dealer, entry)
    totals = tuple(t + s for t, s in zip(totals_before, scores, strict=True))
    # Each as the rules say; their number is checked where one is added (a game stored
    # with more before the bound still adds up).
    for a in entry.adjustments:
        check_adjustment(a, len(totals))
        totals = tuple(t + (a.points if s == a.seat else 0) for s, t in enumerate(totals))
    return ScoredRound(number, cards, dealer, entry, scores, totals)
