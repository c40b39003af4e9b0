"""Typed errors of the rules engine.

Every error is a :class:`ValueError` so that callers who only care that an argument
or an action was wrong can catch that; the subclasses let the app tell a forbidden
bid from a card played out of turn. Messages are written for players, not programmers.
"""

from __future__ import annotations


class RuleError(ValueError):
    """An action or a value that the rules of Wizard do not allow.

    ``code`` is a short stable identifier (``"forbidden_bid"``, ``"must_follow"``, …)
    for clients that want to react to the kind of error rather than its wording.
    ``params`` holds the facts the message was built from (``who``, ``bid``, ``cards``,
    ``allowed``, …), so that an app can word the error in another language.
    """

    code = "rule_broken"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        params: dict[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.params: dict[str, object] = dict(params or {})
        if code is not None:
            self.code = code


class IllegalBid(RuleError):
    """A bid that is out of range or forbidden by the rule set.

    ``allowed`` lists the bids that would have been accepted.
    """

    code = "forbidden_bid"

    def __init__(
        self,
        message: str,
        *,
        allowed: list[int] | None = None,
        code: str | None = None,
        params: dict[str, object] | None = None,
    ) -> None:
        super().__init__(message, code=code, params=params)
        self.allowed = list(allowed or [])


class IllegalPlay(RuleError):
    """A card that may not be played onto the trick (or is not in the hand)."""

    code = "illegal_card"


class OutOfTurn(RuleError):
    """An action by a seat whose turn it is not."""

    code = "not_your_turn"


class WrongPhase(RuleError):
    """An action that does not fit the current phase of the round (bidding, playing…)."""

    code = "wrong_phase"


class InvalidRound(RuleError):
    """A recorded round (score pad) whose bids, tricks or trump do not fit the rules."""

    code = "invalid_round"
