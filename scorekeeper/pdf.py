"""HTML → PDF with WeasyPrint, and the geometry of a printed score pad.

Rendering never reaches the network: pages are rendered against the static folder as
their base URL, and the URL fetcher serves only files inside that folder (fonts come
from the system). Whatever else a page asks for is refused and left out.
"""

from __future__ import annotations

import math
import mimetypes
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import url2pathname

import weasyprint
from weasyprint.urls import URLFetcher, URLFetcherResponse

# Paper sizes in millimetres, portrait (width, height).
PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
PAPER_NAMES: dict[str, str] = {"a4": "A4", "letter": "US Letter"}


class LocalFetcher(URLFetcher):
    """Serves ``file://`` URLs under one folder and refuses everything else."""

    def __init__(self, root: Path) -> None:
        super().__init__(allowed_protocols={"file"})
        self.root = root.resolve()

    def fetch(self, url: str, headers: Any = None) -> URLFetcherResponse:
        parts = urlsplit(url)
        if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
            raise ValueError(f"Refused to fetch {url!r}: only local static files are used.")
        path = Path(url2pathname(parts.path)).resolve()
        if not path.is_relative_to(self.root) or not path.is_file():
            raise ValueError(f"Refused to fetch {url!r}: not a file in {self.root}.")
        mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(path.as_uri(), path.read_bytes(), {"Content-Type": mime})


def _html(html: str, static_root: Path) -> Any:
    root = static_root.resolve()
    return weasyprint.HTML(
        string=html, base_url=root.as_uri() + "/", url_fetcher=LocalFetcher(root)
    )


def html_to_pdf(html: str, static_root: Path) -> bytes:
    """Render ``html`` to PDF bytes. Relative URLs resolve inside ``static_root``, which is
    the only place anything is read from."""
    pdf: bytes = _html(html, static_root).write_pdf()
    return pdf


def first_page_anchors(html: str, static_root: Path) -> dict[str, tuple[float, float]]:
    """Where the elements with an ``id`` start on the first page of ``html`` laid out (CSS
    pixels from its top left corner, x and y): a page can measure what it holds before
    sizing what fills the rest. The page is laid out, no PDF written."""
    pages = _html(html, static_root).render().pages
    anchors = pages[0].anchors if pages else {}
    return {name: (float(where[0]), float(where[1])) for name, where in anchors.items()}


# -- the pad's geometry -----------------------------------------------------------------------
# Heights and widths in millimetres. The constants are what the print CSS gives those
# parts (templates/pad/pad.html, static/css/print.css); the rows share what is left.

MARGIN = 10.0
HEADER = 19.0  # title, plan, date; the table starts below it
NAME_ROW = 10.0  # the names head the player columns
SUB_ROW = 4.5  # "total | bid" under each name
FOOTER_LINE = 3.3  # one line of small print
FOOTER_GAP = 4.0
SLACK = 5.0  # borders and rounding: a pad must never spill onto a second page

ROW_MAX = 16.0  # taller rows only look empty
ROW_MIN = 5.5
ROW_COMFORT = 9.0  # a pen writes two digits comfortably
PLAYER_COMFORT = 32.0  # a player's total and bid columns together
PLAYER_MIN = 22.0
PLAYER_MAX = 55.0  # wider columns only look stretched

ROUND_COL = 9.0
CARDS_COL = 9.0
DEALER_COL = 17.0
TRUMP_COL = 19.0
SMALL_CHAR = 1.45  # average width of a character of the small print
HEADER_CHAR = 1.8  # ... and of the header's text (standings)
HEADER_LINE = 4.0
TITLE_WIDTH = 75.0  # the title's side of the header; the standings get the rest


# The pad's column heads are set in a type small enough for their words to fit their
# column in every language ("ANSAGE", "ANNONCE", "DEKLARACJA"), at most their usual
# size and never below HEAD_MIN_PT (past that a word breaks, as a last resort).
HEAD_PADDING = 3.0  # a cell's padding, left and right, and its borders
HEAD_MIN_PT = 4.5
MM_PER_PT = 25.4 / 72
# A wide average character of DejaVu Sans, in em, for a word in mixed case ("Manche"
# 0.65) and in capitals spaced 0.05 em apart ("ANNONCE" 0.77).
CHAR_EM = 0.68
CAPS_EM = 0.80


def head_pt(text: str, column: float, usual: float, capitals: bool = False) -> float:
    """The type size (pt) at which ``text`` fits a column ``column`` mm wide."""
    longest = max((len(word) for word in text.split()), default=0)
    if not longest:
        return usual
    per_pt = longest * (CAPS_EM if capitals else CHAR_EM) * MM_PER_PT
    return round(max(HEAD_MIN_PT, min(usual, (column - HEAD_PADDING) / per_pt)), 2)


@dataclass(frozen=True)
class PadLayout:
    """Page size and orientation, and the sizes of a pad's rows and columns."""

    paper: str
    landscape: bool
    page_width: float
    page_height: float
    margin: float
    row: float
    name_row: float
    sub_row: float
    round_col: float
    cards_col: float
    dealer_col: float
    trump_col: float  # 0 when the plan has no trump (V9)
    total_col: float
    bid_col: float

    @property
    def content_width(self) -> float:
        return self.page_width - 2 * self.margin

    @property
    def size(self) -> str:
        return f"{self.page_width:g}mm {self.page_height:g}mm"


def footer_lines(texts: list[str], paper: str, landscape: bool) -> int:
    """How many lines of small print ``texts`` take, each text starting a new line."""
    width, height = PAPERS[paper]
    line = (height if landscape else width) - 2 * MARGIN
    per_line = max(1, int(line / SMALL_CHAR))
    return sum(max(1, math.ceil(len(t) / per_line)) for t in texts)


def _lines(pieces: Sequence[str], per_line: float) -> int:
    """How many lines ``pieces`` take, put side by side (a space apart) and never broken,
    ``per_line`` characters to a line."""
    lines, used = 0, per_line
    for piece in pieces:
        if used + 1 + len(piece) > per_line:
            lines, used = lines + 1, len(piece)
        else:
            used += 1 + len(piece)
    return lines


def pad_layout(
    paper: str,
    players: int,
    rounds: int,
    *,
    trump: bool = True,
    small_print: list[str] | None = None,
    header: Sequence[str] = (),
) -> PadLayout:
    """Choose the orientation that gives a pen the most room and size the rows and
    columns so that the whole pad fills one page.

    ``small_print`` are the texts of the footer (each starts a line); ``header`` the
    pieces that go under the date, beside the title (the standings: a label, then each
    entry, which a line never breaks).

    :raises KeyError: for an unknown paper.
    """
    short, long = PAPERS[paper]
    best: tuple[tuple[float, float], PadLayout] | None = None
    for landscape in (False, True):
        width, height = (long, short) if landscape else (short, long)
        fixed = ROUND_COL + CARDS_COL + DEALER_COL + (TRUMP_COL if trump else 0.0)
        player = (width - 2 * MARGIN - fixed) / players
        lines = footer_lines(small_print or [], paper, landscape)
        beside_title = width - 2 * MARGIN - TITLE_WIDTH
        header_lines = _lines(header, beside_title / HEADER_CHAR)
        table = (
            height
            - 2 * MARGIN
            - HEADER
            - header_lines * HEADER_LINE
            - NAME_ROW
            - SUB_ROW
            - lines * FOOTER_LINE
            - FOOTER_GAP
            - SLACK
        )
        row = min(ROW_MAX, table / rounds)
        # Room beyond comfortable doesn't count. Between two comfortable pages, the one
        # whose cells are less stretched wins, then portrait, the way a pad is held.
        comfort = min(1.0, row / ROW_COMFORT, player / PLAYER_COMFORT)
        if player < PLAYER_MIN or row < ROW_MIN:
            comfort -= 10  # doesn't fit: only if nothing does
        score = (comfort, min(1.0, row / ROW_MAX, PLAYER_MAX / player))
        bid = max(8.0, min(12.0, player * 0.3))
        layout = PadLayout(
            paper=paper,
            landscape=landscape,
            page_width=width,
            page_height=height,
            margin=MARGIN,
            row=round(max(row, ROW_MIN), 2),
            name_row=NAME_ROW,
            sub_row=SUB_ROW,
            round_col=ROUND_COL,
            cards_col=CARDS_COL,
            dealer_col=DEALER_COL,
            trump_col=TRUMP_COL if trump else 0.0,
            total_col=round(player - bid, 2),
            bid_col=round(bid, 2),
        )
        # Portrait wins ties: it is how a pad is held.
        if best is None or score > best[0]:
            best = (score, layout)
    assert best is not None
    return best[1]


# -- the story page: a played game's second page ----------------------------------------------
# The running-totals chart takes what the heading leaves of the page: its whole width with
# the bids-against-tricks table under it (portrait), or beside the table (landscape, where
# under it the chart would be a flat strip). Printed by templates/pad/pad.html with
# static/css/print.css (.story-page).

STORY_HEAD = 34.0  # "Story of the game", the names and date, "Running totals"
STORY_TABLE_ROW = 7.5  # a line of the bids-against-tricks table (its caption and head too)
STORY_TABLE_WIDTH = 85.0  # the table beside the chart
STORY_GAP = 8.0  # between the chart and the table beside it
STORY_UNITS = 3.8  # chart units per millimetre: its 13-unit labels print at about 10 pt
STORY_TALLEST = 1.1  # the chart's height at most this much of its width


@dataclass(frozen=True)
class StoryLayout:
    """The story page's chart in millimetres, and where the table goes."""

    chart_width: float
    chart_height: float
    beside: bool  # the table beside the chart, else under it

    @property
    def chart_size(self) -> tuple[int, int]:
        """The chart's drawing size (width, height) in its own units."""
        return round(self.chart_width * STORY_UNITS), round(self.chart_height * STORY_UNITS)

    @property
    def table_left(self) -> float:
        """Where the table beside the chart starts, from the page's left margin."""
        return round(self.chart_width + STORY_GAP, 2)


def story_layout(layout: PadLayout, players: int) -> StoryLayout:
    """The story page of a pad printed with ``layout``, filling the page."""
    height = layout.page_height - 2 * layout.margin - STORY_HEAD - 2 * SLACK
    if layout.landscape:
        width = layout.content_width - STORY_TABLE_WIDTH - STORY_GAP
        return StoryLayout(round(width, 2), round(min(height, width * STORY_TALLEST), 2), True)
    width = layout.content_width
    height -= (players + 2) * STORY_TABLE_ROW
    return StoryLayout(round(width, 2), round(min(height, width * STORY_TALLEST), 2), False)
