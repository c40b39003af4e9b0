"""Lines of a game's change log: a message id with its facts (worded when read, in the
reader's language: i18n.log_line) and the English words of the time."""

from __future__ import annotations

from typing import Any

from scorekeeper import i18n
from scorekeeper.models import Change


def line(
    action: str,
    message_id: str,
    facts: dict[str, Any] | None = None,
    *,
    round_number: int | None = None,
    data: dict[str, Any] | None = None,
) -> Change:
    """A change log line saying ``message_id`` (one of ``i18n.LOG_MESSAGES``) with ``facts``;
    ``action`` is what changed, for filters and clients; ``data`` what it changed."""
    facts = dict(facts or {})
    return Change(
        action=action,
        message=message_id,
        facts=facts,
        summary=i18n.log_line_in_english(message_id, facts),
        round_number=round_number,
        data=data,
    )
