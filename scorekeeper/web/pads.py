"""Printable score pads (PDF): blank pads to print before game night, filled pads of a game.

The views and HTTP: what a request asks for, ETags, file names; the pad itself is
``padprint.py``'s. Blank pads depend only on their normalised parameters, so their ETag is
a hash of those and of the app's render version: any process answers ``If-None-Match``
with 304 without rendering. A game's filled pad changes with the game: its ETag adds the
game's version. Both are kept in one cache, the page cache (``services/pagecache.py``):
a filled pad per game version (a variant per paper, language and build), a blank pad
under its ETag; so each app process renders a pad once, not once per request.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from importlib import metadata
from pathlib import Path
from urllib.parse import quote

import weasyprint
from flask import Response, current_app, render_template, request
from flask.typing import ResponseReturnValue
from werkzeug.datastructures import MultiDict

from scorekeeper import i18n, pdf
from scorekeeper.engine import MAX_PLAYERS, MIN_PLAYERS, RuleSet
from scorekeeper.i18n import _
from scorekeeper.services import games as game_service
from scorekeeper.services import pagecache
from scorekeeper.services.errors import Rejected
from scorekeeper.services.padview import blank_pad, pad_view
from scorekeeper.services.players import clean_name
from scorekeeper.web import bp, padprint

NAMES_PARAM_MAX = 400  # characters of all names together, commas included
BLANK_MAX_AGE = 24 * 3600
BLANK_KEY = "blank-pad:"  # a blank pad's key in the page cache, before its ETag
FILENAME_MAX = 80


class BadRequest(ValueError):
    """A pad request that can't be printed; the message says what to change."""


# -- blank pads -------------------------------------------------------------------------------


@dataclass(frozen=True)
class BlankRequest:
    """A blank pad's parameters, normalised: equal requests are equal values."""

    players: int
    plan: str
    paper: str
    names: tuple[str, ...]

    def key(self) -> str:
        return "|".join(
            ["blank", str(self.players), self.plan, self.paper, *(n or "\x00" for n in self.names)]
        )


def parse_blank_request(args: MultiDict[str, str]) -> BlankRequest:
    """Read and check a blank pad's query parameters.

    :raises BadRequest: naming the parameter that is wrong and what it may be.
    """
    names = _parse_names(args.getlist("names"))
    raw_players = args.get("players", "").strip()
    if not raw_players:
        players = len(names) if len(names) >= MIN_PLAYERS else 4
    elif raw_players.isascii() and raw_players.isdigit() and len(raw_players) <= 2:
        players = int(raw_players)
    else:
        raise BadRequest(
            _(
                "The number of players must be a whole number from %(low)s to %(high)s.",
                low=MIN_PLAYERS,
                high=MAX_PLAYERS,
            )
        )
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise BadRequest(_("Wizard is played by 3 to 6 players, not %(players)s.", players=players))
    plan = args.get("plan", "full").strip().lower() or "full"
    if plan not in padprint.PLANS:
        raise BadRequest(
            _(
                "There is no round plan called “%(plan)s”: choose full, short or unicoloured.",
                plan=plan[:20],
            )
        )
    try:
        RuleSet(round_plan=padprint.PLANS[plan]).check_players(players)
    except ValueError:
        raise BadRequest(
            _(
                "The unicoloured game is for 3 or 4 players only. For %(players)s players, "
                "choose the full or short game.",
                players=players,
            )
        ) from None
    paper = args.get("paper", "a4").strip().lower() or "a4"
    if paper not in pdf.PAPERS:
        raise BadRequest(padprint.no_paper(paper))
    if len(names) > players:
        raise BadRequest(
            _(
                "%(count)s names for %(players)s players: give at most %(players)s names, "
                "or choose more players.",
                count=len(names),
                players=players,
            )
        )
    return BlankRequest(players, plan, paper, tuple(names))


def _parse_names(values: list[str]) -> list[str]:
    if sum(len(v) + 1 for v in values) > NAMES_PARAM_MAX:
        raise BadRequest(
            _("The names are too long: at most %(max)s characters in all.", max=NAMES_PARAM_MAX)
        )
    names = [" ".join(part.split()) for value in values for part in value.split(",")]
    while names and not names[-1]:
        names.pop()  # "Ann,Ben," or an empty field: nothing more to print
    if len(names) > MAX_PLAYERS:
        raise BadRequest(
            _(
                "%(count)s names: Wizard has at most %(max)s players.",
                count=len(names),
                max=MAX_PLAYERS,
            )
        )
    try:
        return [clean_name(n) if n else "" for n in names]
    except Rejected as exc:
        raise BadRequest(exc.message) from None


@bp.get("/pads")
def pad_form() -> str:
    """The form that chooses a blank pad to print."""
    return render_template("pad/form.html", values=request.args, error=None)


@bp.get("/pads/blank.pdf")
def blank_pad_pdf() -> ResponseReturnValue:
    """A blank score pad as PDF, from the cache when the same pad was asked for before."""
    try:
        wanted = parse_blank_request(request.args)
    except BadRequest as exc:
        return render_template("pad/form.html", values=request.args, error=str(exc)), 400
    etag = etag_of(wanted.key())
    if request.if_none_match.contains(etag):
        return not_modified(etag, public=True)
    body = kept(BLANK_KEY + etag, 0, "pdf", lambda: render_blank(wanted))
    filename = file_names(
        ["wizard-pad", wanted.plan, *(wanted.names or [f"{wanted.players} players"])]
    )
    return _pdf_response(body, filename, etag, public=True)


def render_blank(wanted: BlankRequest) -> bytes:
    """Render a blank pad to PDF bytes."""
    pad = blank_pad(wanted.players, padprint.PLANS[wanted.plan], list(wanted.names))
    return padprint.render(pad, wanted.paper)


# -- filled pads of a game --------------------------------------------------------------------


@bp.get("/games/<public_id>/pad.pdf")
def game_pad_pdf(public_id: str) -> ResponseReturnValue:
    """A game's score pad as PDF, as far as it has been played (the view id is enough)."""
    game = game_service.get_game(public_id)
    paper = request.args.get("paper", "a4").strip().lower() or "a4"
    if paper not in pdf.PAPERS:
        message = padprint.no_paper(paper)
        return Response(message, status=400, mimetype="text/plain")
    etag = etag_of(f"game|{game.public_id}|{game.version}|{paper}")
    if request.if_none_match.contains(etag):
        return not_modified(etag, public=False)
    body = kept(
        game.public_id,
        game.version,
        pad_variant(paper),
        lambda: padprint.render(pad_view(game), paper),
    )
    created = game.created_at if isinstance(game.created_at, datetime) else None
    names = game_service.names_of(game)
    parts = ["wizard", created.strftime("%Y-%m-%d") if created else "", *names]
    return _pdf_response(body, file_names(parts), etag, public=False)


def kept(key: str, version: int, variant: str, render: Callable[[], bytes]) -> bytes:
    """A PDF (or a game's picture, ``web/picture.py``) rendered once and kept in the page
    cache for every later reader this app process serves (a render takes a second or
    two): a game's filled pad under the game, per version and variant (paper, language,
    build; every change of the game bumps its version, so a kept pad of an older version
    is never served), a blank pad under its ETag, which says all it depends on (version
    0)."""
    keeping = current_app.config.get("PAGE_CACHE", True)
    if keeping and (found := pagecache.lookup(key, variant, version)):
        return found.body
    body = render()
    if keeping:
        pagecache.keep(key, version, variant, body)
    return body


def pad_variant(paper: str) -> str:
    """The page-cache variant of a game's filled pad: everything but the game that the
    PDF depends on (paper, the reader's language, the build), hashed into 32 characters."""
    what = f"{render_version()}|{i18n.current_language()}|{paper}"
    return "pdf-" + hashlib.sha256(what.encode()).hexdigest()[:28]


# -- HTTP details -----------------------------------------------------------------------------


@cache
def _render_version(template_folder: str, static_folder: str) -> str:
    """Changes whenever a printed pad or a game's picture could look different: the app's
    code, WeasyPrint and PDFium, the templates, their CSS and the translations."""
    digest = hashlib.sha256()
    digest.update(_app_version().encode())
    digest.update(weasyprint.__version__.encode())
    digest.update(_version_of("pypdfium2").encode())
    package = Path(__file__).resolve().parent.parent
    for root, pattern in (
        (package, "**/*.py"),
        (Path(template_folder), "**/*.html"),
        (Path(static_folder, "css"), "print.css"),
        (Path(static_folder, "css"), "picture.css"),
    ):
        for path in sorted(root.glob(pattern)):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    for catalog in sorted(i18n.TRANSLATIONS.glob("*/LC_MESSAGES/messages.mo")):
        digest.update(catalog.read_bytes())
    return digest.hexdigest()[:16]


def render_version() -> str:
    """What the app renders pads and pictures with, as a hash (see ``_render_version``)."""
    return _render_version(
        str(Path(current_app.root_path, current_app.template_folder or "templates")),
        current_app.static_folder or "static",
    )


def _app_version() -> str:
    return _version_of("scorekeeper")


def _version_of(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "0"


def etag_of(key: str) -> str:
    """The ETag of what ``key`` names, as this build renders it in the reader's language."""
    version = render_version()
    # The same pad in another language is another document.
    language = i18n.current_language()
    return hashlib.sha256(f"{version}|{language}|{key}".encode()).hexdigest()[:32]


def cache_headers(response: Response, etag: str, public: bool) -> Response:
    """A blank pad may be kept anywhere for a day; what shows a game, only revalidated."""
    response.set_etag(etag)
    if public:
        response.cache_control.public = True
        response.cache_control.max_age = BLANK_MAX_AGE
    else:
        # A game changes as it is played: keep it out of shared caches and revalidate.
        response.cache_control.private = True
        response.cache_control.no_cache = True
    return response


def not_modified(etag: str, public: bool) -> Response:
    return cache_headers(Response(status=304), etag, public)


def _pdf_response(body: bytes, filename: tuple[str, str], etag: str, public: bool) -> Response:
    return file_response(body, "application/pdf", filename, etag, public)


def file_response(
    body: bytes, mimetype: str, filename: tuple[str, str], etag: str, public: bool
) -> Response:
    """A rendered file, shown in place, saved under ``filename`` (ASCII, Unicode)."""
    response = Response(body, mimetype=mimetype)
    ascii_name, unicode_name = filename
    disposition = f'inline; filename="{ascii_name}"'
    if unicode_name != ascii_name:
        disposition += f"; filename*=UTF-8''{quote(unicode_name, safe='')}"
    response.headers["Content-Disposition"] = disposition
    response.headers["X-Content-Type-Options"] = "nosniff"
    return cache_headers(response, etag, public)


# Letters that Unicode doesn't decompose into an ASCII letter plus marks.
_ASCII_LETTERS = str.maketrans(
    {
        "ø": "o",
        "Ø": "O",
        "æ": "ae",
        "Æ": "AE",
        "œ": "oe",
        "Œ": "OE",
        "ß": "ss",
        "đ": "d",
        "Đ": "D",
        "ł": "l",
        "Ł": "L",
        "þ": "th",
        "Þ": "Th",
        "ð": "d",
        "Ð": "D",
        "ı": "i",
    }
)


def _slug(text: str, ascii_only: bool) -> str:
    if ascii_only:  # "Zoë" → "zoe", "Øyvind" → "oyvind"; other scripts drop out
        text = unicodedata.normalize("NFKD", text.translate(_ASCII_LETTERS))
        text = text.encode("ascii", "ignore").decode()
        words = re.split(r"[^a-z0-9]+", text.casefold())
    else:
        words = re.split(r"[\W_]+", unicodedata.normalize("NFC", text).casefold())
    return "-".join(w for w in words if w)[:24].strip("-")


def file_names(parts: list[str], extension: str = "pdf") -> tuple[str, str]:
    """``wizard-2026-11-21-ann-ben-cat.pdf``: an ASCII name, and a Unicode one for
    ``filename*`` (they are equal when every name is ASCII)."""

    def build(ascii_only: bool) -> str:
        stem = ""
        for slug in (_slug(p, ascii_only) for p in parts):
            if len(stem) + len(slug) + 1 > FILENAME_MAX:
                break  # the names that fit, in seat order: enough to find the file
            if slug:
                stem = f"{stem}-{slug}" if stem else slug
        return f"{stem or 'wizard'}.{extension}"

    return build(True), build(False)
