"""Template filters the pages share."""

from __future__ import annotations

from datetime import UTC, datetime

from scorekeeper import i18n
from scorekeeper.services import padview
from scorekeeper.web import bp


def _utc(when: datetime) -> datetime:
    # SQLite hands back naive datetimes; they were stored as UTC.
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


@bp.app_template_filter("utc_iso")
def utc_iso(when: datetime) -> str:
    """ISO 8601 in UTC with its zone, for <time datetime> (app.js shows local time)."""
    return _utc(when).isoformat(timespec="seconds")


@bp.app_template_filter("utc_short")
def utc_short(when: datetime) -> str:
    """A short UTC time in the reader's format, for pages read without JavaScript."""
    return i18n.short_datetime(_utc(when))


@bp.app_template_filter("signed")
def signed(value: int | None) -> str:
    """A score change with its sign, in the reader's number format: +30, −10, 0."""
    return i18n.signed(value)


@bp.app_template_filter("breakable")
def breakable(name: str) -> str:
    """A name that may break between syllables in a narrow column (soft hyphens)."""
    return padview.breakable(name)
