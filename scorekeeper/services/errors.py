"""Errors the services raise; the web and API layers turn them into pages and JSON."""

from __future__ import annotations

from scorekeeper.i18n import _


class Rejected(ValueError):
    """A request that breaks a rule or is malformed; nothing was stored.

    ``code`` is stable for API clients, ``message`` is for people, ``status`` the HTTP
    status a view should answer with.
    """

    status = 422
    retry_after: int | None = None  # seconds, sent as Retry-After

    def __init__(self, message: str, code: str = "invalid", status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        if status is not None:
            self.status = status


class TooMany(Rejected):
    """Too many of something from one client in a while; nothing was stored (429)."""

    status = 429

    def __init__(self, message: str, code: str, retry_after: int) -> None:
        super().__init__(message, code)
        self.retry_after = retry_after


class NotFound(LookupError):
    """No game (or round, or player) with that id."""

    def __init__(self, message: str | None = None) -> None:
        if message is None:
            message = _("There is no game at this address.")
        super().__init__(message)
        self.message = message


class Conflict(Rejected):
    """Someone else changed the game first (optimistic versioning)."""

    status = 409
