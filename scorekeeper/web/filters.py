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
# A line that holds one block tag and nothing else (once indentation is gone), and the
# line break after it. Not a tag that trims the white space before it ({%- ...): the
# line break before the tag is what stands between the lines around it.
_TAG_LINE = re.compile(r"^(\{%(?!-)[^\n{}]*%\})\n", re.MULTILINE)


class FoldIndent(Extension):
    """Pages without the templates' indentation: each line break and the white space after
    it become one line break, which a browser shows as it did the whole run (no template
    has a <pre> or a <textarea>; {% trans %} blocks are trimmed anyway). About a twentieth
    of a game page and of a tap's answer, compressed. A line of a block tag alone leaves no
    line of its own either (the line break before it stays)."""

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        if not (name and name.endswith(".html")):
            return source
        return _TAG_LINE.sub(r"\1", _INDENT.sub("\n", source))


@bp.record_once
def _fold_indent(state: BlueprintSetupState) -> None:
    state.app.jinja_env.add_extension(FoldIndent)
    # Data for scripts in attributes (|tojson) without the spaces after , and :.
    state.app.jinja_env.policies["json.dumps_kwargs"] = {
        "sort_keys": True,
        "separators": (",", ":"),
    }
