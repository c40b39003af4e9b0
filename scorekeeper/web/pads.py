"""Printable score pads (PDF): blank pads to print before game night, filled pads of a game.

Blank pads depend only on their normalised parameters, so their ETag is a hash of those
and of the app's render version: any process answers ``If-None-Match`` with 304 without
rendering, and a small in-process LRU keeps recently rendered bytes. A game's filled pad
changes with the game: its ETag adds the game's version, and the rendered PDF is kept in
the page cache per game version (a variant per paper, language and build), so each app
process renders it once per change of the game, not once per request.
"""

from __future__ import annotations

import hashlib
import re
import threading
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import quote

import weasyprint
from cachetools import LRUCache
from flask import Response, current_app, render_template, request
from flask.typing import ResponseReturnValue
from werkzeug.datastructures import MultiDict

from scorekeeper import i18n, pdf
from scorekeeper.engine import MAX_PLAYERS, MIN_PLAYERS, Plan, RuleSet
from scorekeeper.i18n import LazyString, _, _l
from scorekeeper.services import games as game_service
from scorekeeper.services import pagecache
from scorekeeper.services.charts import game_chart
from scorekeeper.services.errors import Rejected
from scorekeeper.services.padview import (
    HIDDEN_BID,
    BlankPad,
    PadView,
    blank_pad,
    pad_view,
    trump_options,
)
from scorekeeper.services.players import clean_name
from scorekeeper.web import bp

PLANS: dict[str, Plan] = {"full": Plan.FULL, "short": Plan.SHORT, "unicoloured": Plan.UNICOLOURED}
PLAN_NAMES: dict[Plan, LazyString] = {
    Plan.FULL: _l("Full game"),
    Plan.SHORT: _l("Short game"),
    Plan.UNICOLOURED: _l("Unicoloured game"),
}
NAMES_PARAM_MAX = 400  # characters of all names together, commas included
BLANK_MAX_AGE = 24 * 3600
CACHE_ENTRIES = 32
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
    if plan not in PLANS:
        raise BadRequest(
            _(
                "There is no round plan called “%(plan)s”: choose full, short or unicoloured.",
                plan=plan[:20],
            )
        )
    try:
        RuleSet(round_plan=PLANS[plan]).check_players(players)
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
        raise BadRequest(_no_paper(paper))
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
    etag = _etag(wanted.key())
    if request.if_none_match.contains(etag):
        return _not_modified(etag, public=True)
    cache = _cache()
    body = cache.get(etag)
    if body is None:
        body = render_blank(wanted)
        cache.put(etag, body)
    filename = _filename(
        ["wizard-pad", wanted.plan, *(wanted.names or [f"{wanted.players} players"])]
    )
    return _pdf_response(body, filename, etag, public=True)


def render_blank(wanted: BlankRequest) -> bytes:
    """Render a blank pad to PDF bytes."""
    pad = blank_pad(wanted.players, PLANS[wanted.plan], list(wanted.names))
    return _render(pad, wanted.paper)


# -- filled pads of a game --------------------------------------------------------------------


@bp.get("/games/<public_id>/pad.pdf")
def game_pad_pdf(public_id: str) -> ResponseReturnValue:
    """A game's score pad as PDF, as far as it has been played (the view id is enough)."""
    game = game_service.get_game(public_id)
    paper = request.args.get("paper", "a4").strip().lower() or "a4"
    if paper not in pdf.PAPERS:
        message = _no_paper(paper)
        return Response(message, status=400, mimetype="text/plain")
    etag = _etag(f"game|{game.public_id}|{game.version}|{paper}")
    if request.if_none_match.contains(etag):
        return _not_modified(etag, public=False)
    body = _kept_pad(game, paper)
    created = game.created_at if isinstance(game.created_at, datetime) else None
    names = game_service.names_of(game)
    parts = ["wizard", created.strftime("%Y-%m-%d") if created else "", *names]
    return _pdf_response(body, _filename(parts), etag, public=False)


def _kept_pad(game: game_service.Game, paper: str) -> bytes:
    """The game's filled pad: rendered once per game version, paper, language and build,
    and kept in the page cache for every later reader this app process serves (a render
    takes a second or two). Every change of the game bumps its version, so a kept pad of
    an older version is never served."""
    keeping = current_app.config.get("PAGE_CACHE", True)
    variant = pad_variant(paper)
    if keeping and (kept := pagecache.lookup(game.public_id, variant, game.version)):
        return kept.body
    body = _render(pad_view(game), paper)
    if keeping:
        pagecache.keep(game.public_id, game.version, variant, body)
    return body


def pad_variant(paper: str) -> str:
    """The page-cache variant of a game's filled pad: everything but the game that the
    PDF depends on (paper, the reader's language, the build), hashed into 32 characters."""
    what = f"{_current_render_version()}|{i18n.current_language()}|{paper}"
    return "pdf-" + hashlib.sha256(what.encode()).hexdigest()[:28]


# -- rendering --------------------------------------------------------------------------------


def _render(pad: PadView | BlankPad, paper: str) -> bytes:
    html = render_template("pad/pad.html", **pad_context(pad, paper))
    return pdf.html_to_pdf(html, Path(current_app.static_folder or "static"))


def _entry(place: int, name: str, total: int, won: bool) -> str:
    """One entry of the standings as the pad prints it: "1. ★ Ann 120"."""
    return f"{place}. {'★ ' if won else ''}{name} {i18n.number(total)}"


def pad_context(pad: PadView | BlankPad, paper: str) -> dict[str, Any]:
    """What templates/pad/pad.html needs: the pad, its page layout and its texts."""
    blank = isinstance(pad, BlankPad)
    rules = pad.rules
    players = len(pad.names)
    show_trump = not rules.unicoloured
    small_print = [_scoring_line(rules), _plan_line(rules, pad.plan)]
    if not blank:
        small_print.append(_("Rules of this game: %(rules)s.", rules="; ".join(pad.rule_lines)))
        given = [
            _(
                "%(name)s %(points)s in round %(number)s",
                name=pad.names[a.seat],
                points=i18n.signed(a.points),
                number=row.number,
            )
            + (f" ({a.reason})" if a.reason else "")
            for row in (pad.rows if isinstance(pad, PadView) else ())
            for a in row.adjustments
        ]
        if given:
            small_print.append(
                _("Bonuses and penalties (marked *): %(list)s.", list="; ".join(given))
            )
    standings: list[tuple[int, str, int, bool]] = []
    standings_label = ""
    winners: list[int] = []
    date_text = None
    if isinstance(pad, PadView):
        if isinstance(pad.created_at, datetime):
            date_text = i18n.date_text(pad.created_at)
        played = sum(1 for row in pad.rows if row.complete)
        if played:
            winners = pad.winners if pad.finished else []
            standings_label = (
                _("Final standings")
                if pad.finished
                else _("After round %(played)s of %(rounds)s", played=played, rounds=len(pad.plan))
            )
            # The places of the game page (R17): equal totals share a place, unless the
            # tie-break set the winners apart.
            standings = [
                (place, pad.names[seat], total, seat in winners)
                for place, seat, total in pad.places
            ]
    layout = pdf.pad_layout(
        paper,
        players,
        len(pad.rows),
        trump=show_trump,
        small_print=small_print,
        header=[f"{standings_label}:", *(_entry(*s) for s in standings)] if standings else [],
    )
    subtitle = (
        _(
            "%(players)s players · %(plan)s, %(rounds)s rounds",
            players=players,
            plan=PLAN_NAMES[rules.round_plan],
            rounds=len(pad.plan),
        )
        + f" · {_paper_name(paper)}"
    )
    if not blank:
        subtitle = subtitle.rsplit(" · ", 1)[0]
    story = pdf.story_layout(layout, players)
    return {
        "pad": pad,
        "blank": blank,
        "layout": layout,
        "names": pad.names,
        "title": _(
            "Wizard score pad: %(names)s", names=", ".join(n for n in pad.names if n) or subtitle
        ),
        "subtitle": subtitle,
        "date_text": date_text,
        "standings": standings,
        "standings_label": standings_label,
        "winners": winners,
        "show_trump": show_trump,
        "small_print": small_print,
        "hidden_bid": HIDDEN_BID,
        "title_width": pdf.TITLE_WIDTH,
        "suit_names": {option.value: option.label for option in trump_options(rules)},
        "number_pt": round(min(13.0, max(9.0, layout.row * 1.35)), 1),
        # A played game's story (running totals, bids against tricks) on a second page,
        # the chart as large as the page allows.
        "story": story,
        "chart": game_chart(pad, size=story.chart_size)
        if isinstance(pad, PadView) and standings
        else None,
    }


def _scoring_line(rules: RuleSet) -> str:
    s = rules.scoring
    return _(
        "Scoring: a player who takes exactly the tricks bid scores %(bonus)s "
        "+ %(per_trick)s per trick taken; otherwise −%(per_miss)s per trick over or under. "
        "Write each bid in the narrow column before the round is played, "
        "the new total in the wide column after it.",
        bonus=s.exact_bonus,
        per_trick=s.per_trick,
        per_miss=s.per_miss,
    )


def _plan_line(rules: RuleSet, plan: list[int]) -> str:
    if rules.round_plan is Plan.UNICOLOURED:
        return _(
            "Unicoloured game: %(rounds)s rounds, %(first)s to %(last)s cards from each "
            "player's own colour; no trump; the highest number wins a trick.",
            rounds=len(plan),
            first=plan[0],
            last=plan[-1],
        )
    cards = (
        _("1 to %(last)s cards each", last=plan[-1])
        if rules.round_plan is Plan.FULL
        else _("%(cards)s cards each", cards=", ".join(map(str, plan)))
    )
    return _(
        "%(plan)s: %(rounds)s rounds, %(cards)s; the dealer turns up "
        "trump; the last round deals every card and has no trump.",
        plan=PLAN_NAMES[rules.round_plan],
        rounds=len(plan),
        cards=cards,
    )


def _no_paper(paper: str) -> str:
    return _("There is no paper called “%(paper)s”: choose a4 or letter.", paper=paper[:20])


def _paper_name(paper: str) -> str:
    return _("US Letter") if paper == "letter" else str(pdf.PAPER_NAMES[paper])


# -- HTTP details -----------------------------------------------------------------------------


@cache
def _render_version(template_folder: str, static_folder: str) -> str:
    """Changes whenever a printed pad could look different: the app's code, WeasyPrint,
    the templates, the print CSS and the translations."""
    digest = hashlib.sha256()
    digest.update(_app_version().encode())
    digest.update(weasyprint.__version__.encode())
    package = Path(__file__).resolve().parent.parent
    for root, pattern in (
        (package, "**/*.py"),
        (Path(template_folder), "**/*.html"),
        (Path(static_folder, "css"), "print.css"),
    ):
        for path in sorted(root.glob(pattern)):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    for catalog in sorted(i18n.TRANSLATIONS.glob("*/LC_MESSAGES/messages.mo")):
        digest.update(catalog.read_bytes())
    return digest.hexdigest()[:16]


def _current_render_version() -> str:
    return _render_version(
        str(Path(current_app.root_path, current_app.template_folder or "templates")),
        current_app.static_folder or "static",
    )


def _app_version() -> str:
    try:
        return metadata.version("scorekeeper")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "0"


def _etag(key: str) -> str:
    version = _current_render_version()
    # The same pad in another language is another document.
    language = i18n.current_language()
    return hashlib.sha256(f"{version}|{language}|{key}".encode()).hexdigest()[:32]


class PdfCache:
    """A small, bounded, thread-safe LRU of rendered PDFs by ETag (a speed-up only)."""

    def __init__(self, size: int = CACHE_ENTRIES) -> None:
        self._items: LRUCache[str, bytes] = LRUCache(maxsize=size)
        self._lock = threading.Lock()  # LRUCache is not safe to share by itself

    def get(self, key: str) -> bytes | None:
        with self._lock:
            return self._items.get(key)

    def put(self, key: str, body: bytes) -> None:
        with self._lock:
            self._items[key] = body

    def __len__(self) -> int:
        return len(self._items)


def _cache() -> PdfCache:
    cache: PdfCache = current_app.extensions.setdefault("scorekeeper.pad_cache", PdfCache())
    return cache


def _cache_headers(response: Response, etag: str, public: bool) -> Response:
    response.set_etag(etag)
    if public:
        response.cache_control.public = True
        response.cache_control.max_age = BLANK_MAX_AGE
    else:
        # A game changes as it is played: keep it out of shared caches and revalidate.
        response.cache_control.private = True
        response.cache_control.no_cache = True
    return response


def _not_modified(etag: str, public: bool) -> Response:
    return _cache_headers(Response(status=304), etag, public)


def _pdf_response(body: bytes, filename: tuple[str, str], etag: str, public: bool) -> Response:
    response = Response(body, mimetype="application/pdf")
    ascii_name, unicode_name = filename
    disposition = f'inline; filename="{ascii_name}"'
    if unicode_name != ascii_name:
        disposition += f"; filename*=UTF-8''{quote(unicode_name, safe='')}"
    response.headers["Content-Disposition"] = disposition
    response.headers["X-Content-Type-Options"] = "nosniff"
    return _cache_headers(response, etag, public)


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


def _filename(parts: list[str]) -> tuple[str, str]:
    """``wizard-2026-11-21-ann-ben-cat.pdf``: an ASCII name, and a Unicode one for
    ``filename*`` (they are equal when every name is ASCII)."""

    def build(ascii_only: bool) -> str:
        stem = ""
        for slug in (_slug(p, ascii_only) for p in parts):
            if len(stem) + len(slug) + 1 > FILENAME_MAX:
                break  # the names that fit, in seat order: enough to find the file
            if slug:
                stem = f"{stem}-{slug}" if stem else slug
        return f"{stem or 'wizard'}.pdf"

    return build(True), build(False)
