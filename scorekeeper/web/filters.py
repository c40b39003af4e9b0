"""Template filters the pages share."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from flask.blueprints import BlueprintSetupState
from jinja2.ext import Extension

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


# A line break and the indentation after it, blank lines included.
_INDENT = re.compile(r"\n\s+")


class FoldIndent(Extension):
    """Pages without the templates' indentation: each line break and the white space after
    it become one line break, which a browser shows as it did the whole run (no template
    has a <pre> or a <textarea>; {% trans %} blocks are trimmed anyway). About a twentieth
    of a game page and of a tap's answer, compressed."""

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        return _INDENT.sub("\n", source) if name and name.endswith(".html") else source


@bp.record_once
def _fold_indent(state: BlueprintSetupState) -> None:
    state.app.jinja_env.add_extension(FoldIndent)
