"""Who may see which bids of a round (V3, V4), as a value.

A round's bids are shown to a viewer as :class:`SeenBids`: each seat's bid as a number,
``None`` when it is not made (or a saboteur dealer has none, V6), or :data:`SEALED` when
it is made but this viewer may not see it yet. The scorer's pad, a follower's, an
export, the API, a digital seat and a bot all read this value; none of them works out
the rule again or reads it back from a mark on a page.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum

from .bids import bidders, bids_seen
from .rules import Bidding, RuleSet


class Sealed(Enum):
    """A bid that is in but may not be seen yet (the one value of this type: SEALED)."""

    SEALED = "sealed"

    def __repr__(self) -> str:
        return "SEALED"


SEALED = Sealed.SEALED

SeenBid = int | None | Sealed


class Reveal(Enum):
    """When the bids of a round are shown to all (V3, V4)."""

    NOW = "now"  # open bids: each as it is made
    ALL_IN = "all_in"  # hidden bids (V3): together, once every bid is in
    SCORED = "scored"  # secret bids (V4): once the round is played


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who looks at a round: the scorer, a follower, an export (none of them holds a
    seat), or a seat at a digital table (a person or a bot), who always sees its own bid.
    """

    kind: str
    seat: int | None = None

    @classmethod
    def at_seat(cls, seat: int | None) -> Viewer:
        """The player at ``seat`` (``None``: a spectator of a digital table)."""
        return FOLLOWER if seat is None else cls("seat", seat)

    @classmethod
    def bot(cls, seat: int) -> Viewer:
        return cls("bot", seat)


SCORER = Viewer("scorer")
FOLLOWER = Viewer("follower")
EXPORT = Viewer("export")


@dataclass(frozen=True, slots=True)
class SeenBids:
    """A round's bids in seat order as one viewer may see them."""

    bids: tuple[SeenBid, ...]
    reveal: Reveal
    shown: bool  # every bid made is shown to all (not only to its own seat)

    def __iter__(self) -> Iterator[SeenBid]:
        return iter(self.bids)

    def __getitem__(self, seat: int) -> SeenBid:
        return self.bids[seat]

    def __len__(self) -> int:
        return len(self.bids)

    @property
    def sealed(self) -> bool:
        """Whether any bid is in but not seen."""
        return any(b is SEALED for b in self.bids)

    @property
    def numbers(self) -> list[int | None]:
        """The bids seen as numbers, ``None`` for a sealed one or one not made."""
        return [b if isinstance(b, int) else None for b in self.bids]

    @property
    def total(self) -> int | None:
        """The sum of the bids made, or ``None`` while they are not shown to all."""
        if not self.shown:
            return None
        return sum(b for b in self.bids if isinstance(b, int))

    def is_made(self, seat: int) -> bool:
        """Whether ``seat``'s bid is in (seen or sealed)."""
        return self.bids[seat] is not None


def reveal_of(rules: RuleSet) -> Reveal:
    """When the bids of a round under ``rules`` are shown to all (V3, V4)."""
    if rules.bidding is Bidding.OPEN:
        return Reveal.NOW
    return Reveal.ALL_IN if rules.bidding is Bidding.HIDDEN else Reveal.SCORED


def seen_bids(
    rules: RuleSet,
    bids: Sequence[int | None],
    *,
    dealer: int,
    played: bool,
    viewer: Viewer,
) -> SeenBids:
    """The bids of a round dealt by ``dealer`` as ``viewer`` may see them (V3, V4):
    every one once the round is played; before that as :func:`bids_seen` says, and a
    seat its own."""
    shown = bids_seen(rules, bids, bidders(rules, dealer, len(bids)), played=played)
    own = viewer.seat
    return SeenBids(
        tuple(b if b is None or shown or s == own else SEALED for s, b in enumerate(bids)),
        reveal_of(rules),
        shown,
    )
