"""A round's stack of moves: each step of its entry (a bid, a trick count, the trump), its
short text form as storage keeps it, and which moves of a stack still stand.

:class:`~scorekeeper.engine.entry.RoundDraft` keeps the stack and steps back through it
(Undo); this module knows the moves alone, not the rules of a round.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .pad import TrumpCall


@dataclass(frozen=True, slots=True)
class Move:
    """One step of a round's entry, as its stack of moves keeps it: a bid, a trick count
    (``seat`` the one tapped, ``None`` for "the rest made their bids"; ``filled`` the
    counts that filled themselves in with it) or the trump.

    Text form, as storage keeps it (:func:`moves_text`, :func:`parse_moves`): ``b2`` (a
    bid), ``t1`` or ``t1+0+3`` (a count, with the counts filled in), ``t+0+3`` (the rest
    made their bids), ``c2`` (a count taken back), ``T`` (the trump)."""

    kind: str  # "bid", "tricks", "clear" (a count taken back) or "trump"
    seat: int | None = None
    filled: tuple[int, ...] = ()

    def __str__(self) -> str:
        letter = _LETTERS.get(self.kind)
        if letter is None:
            raise ValueError(f"A move of kind {self.kind!r} has no text form.")
        seat = "" if self.seat is None else str(self.seat)
        return letter + seat + "".join(f"+{s}" for s in self.filled)

    @classmethod
    def parse(cls, text: str) -> Move:
        """:raises ValueError: for text that is not a move (:class:`Move`'s text form)."""
        found = _MOVE.fullmatch(text) if isinstance(text, str) else None
        if found is None:
            raise ValueError(f"{text!r} is not a move.")
        kind = _KINDS[found["kind"]]
        seat = None if found["seat"] is None else int(found["seat"])
        filled = tuple(int(s) for s in found["filled"].split("+")[1:])
        if (kind == "trump") != (seat is None and not filled) or (
            kind in ("bid", "clear") and (seat is None or filled)
        ):
            raise ValueError(f"{text!r} is not a move.")
        return cls(kind, seat, filled)

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats whose entry this move set or took back."""
        return self.filled if self.seat is None else (self.seat, *self.filled)


_LETTERS = {"bid": "b", "tricks": "t", "clear": "c", "trump": "T"}
_KINDS = {letter: kind for kind, letter in _LETTERS.items()}
_MOVE = re.compile(r"(?P<kind>[btcT])(?P<seat>[0-9])?(?P<filled>(?:\+[0-9])*)")


def moves_text(moves: Sequence[Move]) -> str:
    """A stack of moves as text, the last one last (:func:`parse_moves` reads it back).

    :raises ValueError: for a move without a text form.
    """
    return " ".join(str(m) for m in moves)


def parse_moves(text: str) -> tuple[Move, ...]:
    """A stack of moves from its text form (:func:`moves_text`).

    :raises ValueError: for text that is not one.
    """
    if not isinstance(text, str):
        raise ValueError(f"{text!r} is not a stack of moves.")
    return tuple(Move.parse(t) for t in text.split())


@dataclass(frozen=True)
class Taken:
    """What a take-back took: the kind ("bid" or "tricks") and each seat's value, to be
    put back with :meth:`RoundDraft.put_back`."""

    kind: str
    values: dict[int, int]


def standing(
    moves: tuple[Move, ...],
    bids: tuple[int | None, ...],
    tricks: tuple[int | None, ...],
    trump: TrumpCall | None,
) -> tuple[Move, ...]:
    """The moves of a stack whose entries still stand, in order: a move stands while what
    it entered is in and no later move entered or took back the same again. A count
    taken back ("clear") stands for nothing: it only takes the count's move off."""
    done: set[tuple[str, int | None]] = set()
    kept: list[Move] = []
    for move in reversed(moves):
        kind = move.kind
        keys: tuple[tuple[str, int | None], ...]
        if kind == "bid" and move.seat is not None:
            keys = (("bid", move.seat),)
            stands = bids[move.seat] is not None
        elif kind == "tricks" or kind == "clear":
            keys = tuple(("tricks", s) for s in move.seats)
            stands = kind == "tricks" and all(tricks[s] is not None for s in move.seats)
        elif kind == "trump":
            keys = (("trump", None),)
            stands = trump is not None
        else:  # a move this stack doesn't know how to read: kept as it is
            kept.append(move)
            continue
        if stands and done.isdisjoint(keys):
            kept.append(move)
        done.update(keys)
    kept.reverse()
    return tuple(kept)
