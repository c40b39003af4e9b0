"""The picture of a game: standings, podium and chart as a PNG for the group chat.

A phone-screen portrait (1080 × 1920 pixels) in the reader's language and look, laid out
in HTML and CSS (templates/games/picture.html, static/css/picture.css) by WeasyPrint,
the pad's printer, and drawn by PDFium (``scorekeeper/png.py``). Whoever holds the view
link may have it, and it shows what a follower sees: the totals of the rounds scored,
no link, no circle, nothing of the round being entered (whose bids may be hidden). It
is kept in the page cache like the printed pad: per game version, language and look.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from pathlib import Path
from typing import Any

from flask import Response, current_app, render_template, request
from markupsafe import Markup

from scorekeeper import i18n, pdf, png
from scorekeeper.i18n import _
from scorekeeper.models import Game
from scorekeeper.services import games as game_service
from scorekeeper.services.charts import game_chart, line_key
from scorekeeper.services.padview import PadView, pad_view
from scorekeeper.web import bp, padprint, pads
from scorekeeper.web.access import load_game
from scorekeeper.web.language import current_theme

LOOKS = ("light", "dark")
WIDTH = 1080  # pixels: a phone screen's width at three pixels to a CSS pixel
PAGE = (360, 640)  # CSS pixels: a phone's portrait screen, 9:16
# The chart's drawing units across: its text at about 11 CSS pixels on the picture.
CHART_UNITS = 380
MARGIN = 18  # CSS pixels around the page's content (picture.css)
FOOTER = 26  # the footer's CSS pixels under the chart
CHART_MIN = 160  # CSS pixels: the chart's least height, however long the names above
# The chart's text and axes: pygal draws them in currentColor, which WeasyPrint's SVG
# does not take from the page, so they get the look's ink (picture.css's --text).
INK = {"light": "#1e2433", "dark": "#f3ecd6"}


def chosen_look() -> str:
    """The look asked for (``?look=``), else this browser's own; "auto" is the paper."""
    asked = request.args.get("look", "").strip().lower()
    if asked:
        return asked
    theme = current_theme()
    return theme if theme in LOOKS else "light"


@bp.get("/games/<public_id>/picture.png", endpoint="game_picture")
def game_picture(public_id: str) -> Response:
    """The game's picture as PNG, as far as it has been played (the view id is enough)."""
    game = load_game(public_id)
    look = chosen_look()
    if look not in LOOKS:
        message = _("There is no look called “%(look)s”: choose light or dark.", look=look[:20])
        return Response(message, status=400, mimetype="text/plain")
    etag = pads.etag_of(f"picture|{game.public_id}|{game.version}|{look}")
    if request.if_none_match.contains(etag):
        return pads.not_modified(etag, public=False)
    body = pads.kept(game.public_id, game.version, _variant(look), lambda: render(game, look))
    return pads.file_response(body, "image/png", file_names(game), etag, public=False)


def file_names(game: Game) -> tuple[str, str]:
    """``wizard-2026-11-21-ann-ben-cat.png`` (ASCII, and Unicode for ``filename*``)."""
    created = game.created_at if isinstance(game.created_at, datetime) else None
    parts = ["wizard", created.strftime("%Y-%m-%d") if created else ""]
    return pads.file_names([*parts, *game_service.names_of(game)], "png")


def _variant(look: str) -> str:
    """The page-cache variant of a game's picture: the build, language and look."""
    what = f"{pads.render_version()}|{i18n.current_language()}|{look}"
    return "png-" + hashlib.sha256(what.encode()).hexdigest()[:28]


def render(game: Game, look: str) -> bytes:
    """The picture of ``game`` in ``look`` and the reader's language, as PNG bytes."""
    return png.pdf_to_png(render_pdf(game, look), WIDTH)


def render_pdf(game: Game, look: str) -> bytes:
    """The picture's one page as PDF (what :func:`render` draws). Laid out twice: first
    without the chart, to see where it starts (the names above it take one line or
    three), then with the chart drawn to fill the page down to the footer."""
    static = Path(current_app.static_folder or "static")
    context = picture_context(pad_view(game), look)
    top = pdf.first_page_anchors(render_template("games/picture.html", **context), static)
    if context["played"]:
        height = max(CHART_MIN, PAGE[1] - FOOTER - round(top["chart"][1]))
        context["chart_height"] = height
        context["chart"] = _chart(context["pad"], look, height)
    return pdf.html_to_pdf(render_template("games/picture.html", **context), static)


def _chart(pad: PadView, look: str, height: int) -> Markup:
    """The running totals drawn to fill ``height`` CSS pixels of the page's width, each
    player's key beside their name rather than in a legend."""
    width = PAGE[0] - 2 * MARGIN
    units = (CHART_UNITS, round(CHART_UNITS * height / width))
    svg = str(game_chart(pad, size=units, legend=False).svg)
    # pygal escapes the names it writes; the SVG is our own server-made markup.
    return Markup(svg.replace("currentColor", INK[look]))


def picture_context(pad: PadView, look: str) -> dict[str, Any]:
    """What templates/games/picture.html needs: the places and the texts (the chart is
    drawn once the page shows how much room it has: :func:`render_pdf`)."""
    players = len(pad.names)
    played = pad.rounds_done
    if pad.finished:
        heading = _("Final standings")
    elif played:
        heading = _("After round %(played)s of %(rounds)s", played=played, rounds=len(pad.plan))
    else:
        heading = _("Before the first round")
    places = pad.places
    return {
        "pad": pad,
        "look": look,
        "page": PAGE,
        "heading": heading,
        "date_text": i18n.date_text(pad.created_at) if isinstance(pad.created_at, datetime) else "",
        "subtitle": _(
            "%(players)s players · %(plan)s, %(rounds)s rounds",
            players=players,
            plan=padprint.PLAN_NAMES[pad.rules.round_plan],
            rounds=len(pad.plan),
        ),
        # Before the first round nobody stands higher than anyone: no podium yet.
        "podium": places[:3] if played else [],
        "rest": places[3:] if played else places,
        "winners": pad.winners if pad.finished else [],
        "keys": [line_key(seat) for seat in range(players)],
        "played": played,
        "chart": None,
        "chart_height": 0,
        # Names this long take a smaller type on two lines after the podium.
        "long_name": 24,
    }
