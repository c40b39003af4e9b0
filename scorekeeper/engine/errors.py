"""Typed errors of the rules engine.

Every error is a :class:`ValueError` so that callers who only care that an argument
or an action was wrong can catch that; the subclasses let the app tell a forbidden
bid from a card played out of turn. Messages are written for players, not programmers.
"""

from __future__ import annotations


class EngineError(ValueError):
    """A value the engine can't take, said in English for players, with the message's
    stable id and the facts it was built from.

    ``message_id`` names the message (``"turn_to_bid"``, ``"bad_player_count"``, …) and
    ``params`` holds its facts (``seat``, ``bid``, ``cards``, ``suit``, …): an app words
    the error in the reader's language from these two, never from the English text.
    """

    message_id = "engine_error"

    def __init__(
        self,
        message: str,
        *,
        message_id: str | None = None,
        params: dict[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.params: dict[str, object] = dict(params or {})
        if message_id is not None:
            self.message_id = message_id


class RuleError(EngineError):
    """An action or a value that the rules of Wizard do not allow.

    ``code`` is a short stable identifier of the kind of error (``"forbidden_bid"``,
    ``"must_follow"``, …) for clients that want to react to it rather than its wording;
    the message's own id is ``message_id``, the code unless the error says otherwise.
    """

    code = "rule_broken"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        message_id: str | None = None,
        params: dict[str, object] | None = None,
    ) -> None:
        super().__init__(message, message_id=message_id or code or self.code, params=params)
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
        message_id: str | None = None,
        params: dict[str, object] | None = None,
    ) -> None:
        super().__init__(message, code=code, message_id=message_id, params=params)
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
