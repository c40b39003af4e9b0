"""The rule set of a game: the book's standard rules plus the variants V1–V10 and R17.

A :class:`RuleSet` is an immutable value with named options. It serialises to a plain
dict (``to_dict``) whose keys are the JSON API's; ``from_dict`` fills missing keys with
the book's defaults and rejects unknown keys and bad values with a clear message.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields, replace
from enum import Enum
from typing import Any

from .errors import EngineError

MIN_PLAYERS = 3
MAX_PLAYERS = 6


def check_player_count(players: int) -> None:
    """:raises ValueError: unless ``players`` is a whole number from 3 to 6 (R3)."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError("The number of players must be a whole number.")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise EngineError(
            f"Wizard is played by 3 to 6 players, not {players}.",
            message_id="bad_player_count",
            params={"players": players},
        )


class DealerRule(Enum):
    """Whether the last bidder is constrained (V1, V2)."""

    NONE = "none"
    PLUS_MINUS_ONE = "plus_minus_one"  # V1, "German rule" in 004
    CANADIAN = "canadian"  # V2


class Bidding(Enum):
    """How bids are made and shown (R9, V3, V4)."""

    OPEN = "open"
    HIDDEN = "hidden"  # V3: all at once, revealed before play
    SECRET = "secret"  # V4: revealed only after the round is played


class Plan(Enum):
    """Which round plan the game follows (R4, V8, V9)."""

    FULL = "full"
    SHORT = "short"
    UNICOLOURED = "unicoloured"


class TieBreak(Enum):
    """How equal final totals are settled (R17)."""

    SHARED = "shared"
    BID_TOTAL = "bid_total"


class SuitNames(Enum):
    """How suits are named on screen (R1, P3); the rules do not change."""

    COLOURS = "colours"
    FRENCH = "french"


@dataclass(frozen=True, slots=True)
class Scoring:
    """The three numbers of the scoring rule (R16), settable per game (V10)."""

    exact_bonus: int = 20
    per_trick: int = 10
    per_miss: int = 10

    def __post_init__(self) -> None:
        for name in ("exact_bonus", "per_trick", "per_miss"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 1000:
                raise EngineError(
                    f"Scoring {name!r} ({name.replace('_', ' ')}) must be a whole number "
                    "from 0 to 1000.",
                    message_id="bad_scoring",
                    params={"field": name},
                )

    @property
    def is_standard(self) -> bool:
        return self == Scoring()


_ENUMS: dict[str, type[Enum]] = {
    "dealer_rule": DealerRule,
    "bidding": Bidding,
    "round_plan": Plan,
    "tie_break": TieBreak,
    "suit_names": SuitNames,
}
_BOOLS = ("no_full_bid", "saboteur", "foresight")


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every rule option of a game. The defaults are the book's standard game."""

    dealer_rule: DealerRule = DealerRule.NONE
    dealer_rule_from_round: int = 1
    no_full_bid: bool = False  # V7
    bidding: Bidding = Bidding.OPEN
    saboteur: bool = False  # V6
    foresight: bool = False  # V5
    round_plan: Plan = Plan.FULL
    tie_break: TieBreak = TieBreak.SHARED
    scoring: Scoring = field(default_factory=Scoring)
    suit_names: SuitNames = SuitNames.COLOURS

    def __post_init__(self) -> None:
        n = self.dealer_rule_from_round
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 20:
            raise EngineError(
                "Rule 'dealer_rule_from_round' (the round the dealer rule starts from) must be "
                "a whole number from 1 to 20.",
                message_id="bad_dealer_rule_round",
            )

    # -- questions the rest of the engine asks ----------------------------------------

    @property
    def unicoloured(self) -> bool:
        return self.round_plan is Plan.UNICOLOURED

    def check_players(self, players: int) -> None:
        """Raise :class:`ValueError` when this rule set cannot be played by ``players``."""
        check_player_count(players)
        if self.unicoloured and players > 4:
            raise EngineError(
                "The unicoloured game is for 3 or 4 players only.",
                message_id="unicoloured_players",
            )

    # -- serialisation -----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The rule set as plain JSON-ready values (the API's keys)."""
        return {
            "dealer_rule": self.dealer_rule.value,
            "dealer_rule_from_round": self.dealer_rule_from_round,
            "no_full_bid": self.no_full_bid,
            "bidding": self.bidding.value,
            "saboteur": self.saboteur,
            "foresight": self.foresight,
            "round_plan": self.round_plan.value,
            "tie_break": self.tie_break.value,
            "scoring": {
                "exact_bonus": self.scoring.exact_bonus,
                "per_trick": self.scoring.per_trick,
                "per_miss": self.scoring.per_miss,
            },
            "suit_names": self.suit_names.value,
        }

    @classmethod
    def from_dict(cls, data: Any) -> RuleSet:
        """Build a rule set from API-style data; missing keys take the book's defaults.

        :raises ValueError: for unknown keys or values, naming the key and what is allowed.
        """
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise ValueError("The rules must be an object of named options.")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"Unknown rule option: {', '.join(map(str, unknown))}.")
        kwargs: dict[str, Any] = {}
        for key, enum in _ENUMS.items():
            if key in data:
                try:
                    kwargs[key] = enum(data[key])
                except ValueError:
                    choices = ", ".join(repr(e.value) for e in enum)
                    raise EngineError(
                        f"Rule {key!r} must be one of {choices}.",
                        message_id="bad_rule_choice",
                        params={"rule": key, "choices": choices},
                    ) from None
        for key in _BOOLS:
            if key in data:
                if not isinstance(data[key], bool):
                    raise ValueError(f"Rule {key!r} must be true or false.")
                kwargs[key] = data[key]
        if "dealer_rule_from_round" in data:
            kwargs["dealer_rule_from_round"] = data["dealer_rule_from_round"]
        if "scoring" in data:
            sc = data["scoring"]
            if not isinstance(sc, dict):
                raise ValueError(
                    "Rule 'scoring' must be an object with exact_bonus, per_trick and per_miss."
                )
            extra = sorted(set(sc) - {"exact_bonus", "per_trick", "per_miss"})
            if extra:
                raise ValueError(f"Unknown scoring option: {', '.join(map(str, extra))}.")
            kwargs["scoring"] = Scoring(**sc)
        return cls(**kwargs)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> RuleSet:
        return cls.from_dict(json.loads(text))

    def with_options(self, **changes: Any) -> RuleSet:
        """A copy with some options changed (the value itself never changes)."""
        return replace(self, **changes)

    # -- plain words -------------------------------------------------------------------

    def describe(self) -> list[str]:
        """The rule set in plain words, one line per rule that differs from the book
        (or ``["Standard rules"]``)."""
        lines: list[str] = []
        if self.round_plan is Plan.SHORT:
            lines.append("Short game: 10 rounds")
        elif self.round_plan is Plan.UNICOLOURED:
            lines.append("Unicoloured: each player plays one colour, highest number wins")
        if self.dealer_rule is not DealerRule.NONE:
            start = (
                f" from round {self.dealer_rule_from_round}"
                if self.dealer_rule_from_round > 1
                else ""
            )
            last = "the last bidder" if self.saboteur else "the dealer"
            if self.dealer_rule is DealerRule.PLUS_MINUS_ONE:
                lines.append(
                    f"Plus/minus one{start}: bids may not add up to the cards in the round "
                    f"({last} is held to it)"
                )
            else:
                lines.append(
                    f"Canadian rule{start}: when the dealer leads outright, bids may not "
                    f"add up to the cards in the round ({last} is held to it)"
                )
        if self.no_full_bid:
            lines.append("No full bid: nobody may bid all their cards (1 with a single card)")
        if self.bidding is Bidding.HIDDEN:
            lines.append("Hidden bids: everyone bids at once, shown before play")
        elif self.bidding is Bidding.SECRET:
            lines.append("Secret bids: shown only after the round is played")
        if self.saboteur:
            lines.append(
                f"Wizard Saboteur: the dealer does not bid and scores "
                f"{self.scoring.exact_bonus} every round"
            )
        if self.foresight:
            lines.append("Foresight round: in round 1 you see every card but your own")
        if not self.scoring.is_standard:
            s = self.scoring
            lines.append(
                f"Scoring: {s.exact_bonus} for an exact bid + {s.per_trick} per trick, "
                f"−{s.per_miss} per trick off"
            )
        if self.tie_break is TieBreak.BID_TOTAL:
            lines.append("Ties broken by the higher total of bids")
        if self.suit_names is SuitNames.FRENCH:
            lines.append("French suit names: hearts, diamonds, clubs, spades")
        return lines or ["Standard rules"]
