"""Pieces of the game page rendered once and kept in the process's memory for as long as
they show the same: the pad's rows and the change log's lines.

A new version of a game changes few of them: a tap in the open round changes that row
alone, a scored round that one and the next, a correction the totals from its round on;
the log gains a line at its top. The page cache (``web/cached.py``) renders each version
once; with these kept, that render renders only the rows that differ and the new lines.
A row is kept under everything it shows — the round's cells, whether it is the open
round, the leaders when it is the last scored round, the scorer's or a follower's view,
the language, the game and the address it was asked at — so a kept row is exactly what
rendering it again would give. A log line is never changed once written: it is kept
under the game, its id and the language, and only the lines not kept are read.
``PAGE_CACHE = False`` renders every piece, as every page. The process keeps up to
``FRAGMENT_CACHE_MB`` of them (default 32, the pieces of about 1,500 games being played),
those used least recently going first.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Hashable
from contextlib import suppress

from cachetools import LRUCache
from flask import current_app, request
from jinja2 import Template
from markupsafe import Markup

from scorekeeper.i18n import current_language
from scorekeeper.services.padview import PadView
from scorekeeper.services.pages import ChangeLog
from scorekeeper.web import bp

ROW_TEMPLATE = "games/_pad_row.html"
LOG_LINE_TEMPLATE = "games/_log_line.html"
DEFAULT_MB = 32
_EXTENSION = "scorekeeper.fragments"
# About what a kept piece takes besides its text: its key and the cache's entry.
_OVERHEAD = 300


class _Kept:
    def __init__(self, limit: int) -> None:
        self.pieces: LRUCache[Hashable, str] = LRUCache(
            maxsize=limit, getsizeof=lambda html: len(html) + _OVERHEAD
        )
        self.lock = threading.Lock()  # worker threads share it


class _Pieces:
    """The pieces of one list (a pad's rows, a log's lines), kept or rendered: what they
    all depend on looked up once."""

    def __init__(self) -> None:
        app = current_app._get_current_object()  # type: ignore[attr-defined]
        self.template_of = app.jinja_env.get_template
        self.language = current_language()
        self.root = request.script_root
        self.kept: _Kept | None = None
        if app.config.get("PAGE_CACHE", True):
            self.kept = app.extensions.get(_EXTENSION)
            if self.kept is None:
                limit = int(float(app.config.get("FRAGMENT_CACHE_MB", DEFAULT_MB)) * 2**20)
                self.kept = app.extensions.setdefault(_EXTENSION, _Kept(limit))

    def kept_html(self, keys: list[Hashable]) -> list[str | None]:
        """The pieces kept under these keys (``None`` where none is)."""
        if self.kept is None:  # PAGE_CACHE off: rendered every time
            return [None] * len(keys)
        with self.kept.lock:
            return [self.kept.pieces.get(key) for key in keys]

    def keep(self, key: Hashable, html: str) -> None:
        if self.kept is not None:
            # (A piece larger than the whole limit is not kept.)
            with self.kept.lock, suppress(ValueError):
                self.kept.pieces[key] = html

    def piece(self, template: str, key: Hashable, values: dict[str, object]) -> Markup:
        """``template`` rendered with ``values`` (nothing else), kept under ``key``."""
        html = self.kept_html([key])[0]
        if html is None:
            html = _render(self.template_of(template), values)
            self.keep(key, html)
        return Markup(html)


def _render(template: Template, values: dict[str, object]) -> str:
    return template.render(values)


@bp.app_template_global("pad_rows")
def pad_rows(
    pad: PadView, done: int, scorer: bool, oob: bool = False, round_number: int | None = None
) -> list[Markup]:
    """The rows of the pad (``done``: how many rounds are scored), or round ``round_number``'s
    alone; ``oob``: sent out of band."""
    pieces = _Pieces()
    rows = []
    for row in pad.rows:
        if round_number is not None and row.number != round_number:
            continue
        current = pad.draft is not None and row.number == pad.draft.number
        leaders = tuple(pad.leaders) if row.number == done else ()
        editable = bool(scorer) and row.complete
        # All the row shows, its cells included (a dataclass's repr names every field),
        # digested: a kept row weighs its text and a few bytes more.
        shown = (pieces.language, pieces.root, pad.public_id, editable, oob, current, leaders)
        key = ("row", hashlib.blake2b(repr((shown, row)).encode(), digest_size=20).digest())
        values = {
            "row": row,
            "current": current,
            "leaders": leaders,
            "editable": editable,
            "public_id": pad.public_id,
            "oob_row": oob,
        }
        rows.append(pieces.piece(ROW_TEMPLATE, key, values))
    return rows


@bp.app_template_global("log_lines")
def log_lines(log: ChangeLog) -> list[Markup]:
    """The lines of a change log: those kept, and the others read and rendered."""
    pieces = _Pieces()
    keys: list[Hashable] = [("log", pieces.language, log.game, i) for i in log.ids]
    found = pieces.kept_html(keys)
    lines = log.lines(i for i, html in zip(log.ids, found, strict=True) if html is None)
    shown = []
    for i, key, html in zip(log.ids, keys, found, strict=True):
        if html is None:
            line = lines.get(i)
            if line is None:  # gone meanwhile (the game was deleted for good)
                continue
            html = _render(pieces.template_of(LOG_LINE_TEMPLATE), {"line": line})
            pieces.keep(key, html)
        shown.append(Markup(html))
    return shown
