"""A game's story as a chart: every player's running total by round, a static SVG drawn by
pygal on the server (for the game page and the printed pad), plus bids against tricks.

pygal embeds a script for its tooltips even with ``js=[]``; the pages allow no inline
script, so the chart is filtered down to plain SVG before it is rendered. Each player's
line has a dash pattern besides its colour, and the legend shows both: its key is a short
stretch of the line rather than pygal's colour square.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any
from xml.etree.ElementTree import Element, tostring

import pygal
from markupsafe import Markup
from pygal.style import Style

from scorekeeper.i18n import _, number
from scorekeeper.services.padview import PadView

_STYLE = Style(
    background="transparent",
    plot_background="transparent",
    # The page's own text colour, so the chart reads in light and dark mode alike.
    foreground="currentColor",
    foreground_strong="currentColor",
    foreground_subtle="rgba(128, 128, 128, 0.5)",
    guide_stroke_color="rgba(128, 128, 128, 0.3)",
    major_guide_stroke_color="rgba(128, 128, 128, 0.5)",
    font_family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
    label_font_size=13,
    major_label_font_size=13,
    legend_font_size=15,
    value_font_size=13,
    title_font_size=15,
    opacity="1",
    stroke_opacity="1",
    stroke_width="3",
    # Colours that stay apart for the common colour blindnesses (Okabe–Ito).
    colors=("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9"),
)


_DASHES = ("", "10,5", "3,4", "12,4,3,4", "2,7", "7,3,2,3,2,3")
_LINE_WIDTH = 3
# pygal's legend square, and the legend key drawn instead: long enough for a whole
# period of every dash pattern above (the longest is 23).
_BOX = 12
_KEY = 28


@dataclass(frozen=True)
class LineKey:
    """How a player's line is drawn: its colour and dash pattern ("" for a solid line)."""

    colour: str
    dash: str
    width: int = 3


def line_key(seat: int) -> LineKey:
    """The colour and dash of the line of the player in ``seat``: a picture that names the
    players beside their line's key needs no legend under the chart."""
    return LineKey(_STYLE.colors[seat % len(_STYLE.colors)], _DASHES[seat % len(_DASHES)])


def _local(tag: object) -> str:
    return str(tag).rsplit("}", 1)[-1]


def _legend_keys(root: Element) -> Element:
    """Replace each legend entry's colour square by a short line in the player's colour
    and dash pattern, and move the name along to make room: colour is never all. A name
    too long for its column is shortened with "…" (the full name is its title)."""
    legends = [g for g in root.iter() if "legend" in g.get("class", "").split()]
    columns = sorted({float(c.get("x", 0)) for g in legends for c in g if _local(c.tag) == "rect"})
    # pygal's own estimate of text width (0.6 em a letter) is generous: 0.55 em.
    room = (columns[1] - columns[0] - _KEY - 5 - 6) if len(columns) > 1 else None
    longest = None if room is None else max(int(room / (0.55 * _STYLE.legend_font_size)), 3)
    for legend in legends:
        seat = int(legend.get("id", "").rsplit("-", 1)[-1])
        for child in legend:
            if _local(child.tag) == "rect":
                x, y = float(child.get("x", 0)), float(child.get("y", 0))
                middle = y + float(child.get("height", _BOX)) / 2
                key = child.tag.replace("rect", "line") if isinstance(child.tag, str) else "line"
                child.clear()
                child.tag = key
                child.attrib.update(
                    {
                        "x1": f"{x:g}",
                        "x2": f"{x + _KEY:g}",
                        "y1": f"{middle:g}",
                        "y2": f"{middle:g}",
                        "class": f"color-{seat} legend-key",
                        "stroke": _STYLE.colors[seat % len(_STYLE.colors)],
                        "stroke-width": str(_LINE_WIDTH),
                    }
                )
                dash = _DASHES[seat % len(_DASHES)]
                if dash:
                    child.set("stroke-dasharray", dash)
            elif _local(child.tag) == "text":
                child.set("x", f"{float(child.get('x', 0)) + _KEY - _BOX:g}")
                name = child.text or ""
                if longest is not None and len(name) > longest:
                    child.text = name[: longest - 1] + "…"
                    title = legend.makeelement(str(child.tag).replace("text", "title"), {})
                    title.text = name
                    legend.append(title)
    return root


def _static(root: Element, label: str) -> Element:
    """Drop every <script> (pygal's tooltip config) and the tooltips' texts (a <desc> for
    each dot: half the drawing's elements, and of the time WeasyPrint takes to draw it):
    the chart is a plain picture that fills its box, and says what it shows to screen
    readers."""
    for parent in root.iter():
        for child in list(parent):
            if _local(child.tag) in ("script", "desc"):
                parent.remove(child)
            elif child.tag == "title" and parent is root:
                child.text = label
    root.set("role", "img")
    root.set("aria-label", label)
    root.set("style", "display:block;width:100%;height:auto")
    return root


# A phone-sized drawing: on a 360-px screen the text stays near its font size.
PHONE_SIZE = (420, 320)
# Round steps for the totals axis (times a power of ten); scores move in tens.
_STEPS = (1, 2, 2.5, 5)
# What the drawing spends besides the plot: the axis titles and labels, the legend's rows.
_AROUND_PLOT = 100
_LEGEND_ROW = 26
# Labels of the totals axis at least this many font sizes apart, so they never pile up.
_LABEL_GAP = 3


def _labels_fitting(plot: float) -> int:
    """How many labels an axis of ``plot`` units has room for."""
    return int(plot / (_LABEL_GAP * _STYLE.label_font_size)) + 1


def _line_options(size: tuple[int, int], axis: list[int]) -> dict[str, Any]:
    """What every line chart here shares: a static drawing of ``size`` in our style, the
    values axis labelled at ``axis`` in the reader's format (a real minus sign)."""
    return {
        "js": [],
        "disable_xml_declaration": True,
        "style": _STYLE,
        "width": size[0],
        "height": size[1],
        "y_labels": [{"value": v, "label": number(v)} for v in axis],
        "value_formatter": number,
        "dots_size": 3.5,
    }


def totals_axis(lowest: int, highest: int, most: int) -> list[int]:
    """The labels of the totals axis: a round step (10, 20, 25, 50, 100, …) that needs at
    most ``most`` labels, from 0 or a multiple of it below the lowest total to one at or
    above the highest. The axis always reaches every total (the plot takes in the lines
    too): a total a little below 0 (−20 with a step of 100) gets no label of its own."""
    low, high = min(lowest, 0), max(highest, 0)
    for power in range(1, 12):
        for factor in _STEPS:
            step = round(factor * 10**power)
            bottom = math.floor(low / step) * step if low < -step / 4 else 0
            top = max(math.ceil(high / step) * step, bottom + step)
            if (top - bottom) // step + 1 <= max(most, 2):
                return list(range(bottom, top + 1, step))
    raise ValueError(f"No scale fits totals from {lowest} to {highest}.")


def running_totals(
    points: list[list[int]],
    names: list[str],
    title: str = "",
    size: tuple[int, int] = PHONE_SIZE,
    legend: bool = True,
) -> str:
    """SVG of each player's running total; ``points[seat]`` starts at round 0 (0 points).

    ``size`` is the drawing's width and height in its own units, in which the fonts are
    sized: a larger drawing shown at the same width has smaller text. Without ``legend``,
    whatever shows the chart names each line's key (:func:`line_key`) itself.
    """
    width, height = size
    values = [v for series in points for v in series] or [0]
    columns = max(1, round(math.sqrt(len(names))))
    legend_rows = math.ceil(len(names) / columns) if names and legend else 0
    plot = height - _AROUND_PLOT - legend_rows * _LEGEND_ROW - (30 if title else 0)
    # The axis goes from a round number below the lowest total to one above the highest.
    axis = totals_axis(min(values), max(values), _labels_fitting(plot))
    chart = pygal.Line(
        **_line_options(size, axis),
        show_dots=len(points[0]) <= 21 if points else True,
        show_legend=legend,
        legend_at_bottom=True,
        # No legend_at_bottom_columns: pygal sizes the legend's rows as players // columns
        # (rounded down), which clips a last, part-filled row; its default is square.
        truncate_legend=-1,
        # Round numbers whole: pygal's estimate of their room shortens "10" to "…" on a
        # narrow chart of many rounds.
        truncate_label=-1,
        x_title=_("Round"),
        y_title=_("Total"),
        title=title or None,
        show_y_guides=True,
        show_x_guides=False,
        x_labels=[str(i) for i in range(len(points[0]) if points else 1)],
        x_labels_major_every=5 if points and len(points[0]) > 11 else None,
        show_minor_x_labels=not (points and len(points[0]) > 11),
        explicit_size=False,
    )
    for seat, (name, series) in enumerate(zip(names, points, strict=True)):
        # A dash pattern per player as well as a colour: colour is never the only sign.
        dash = _DASHES[seat % len(_DASHES)]
        style = {"width": _LINE_WIDTH, "dasharray": dash} if dash else None
        chart.add(name, series, stroke_style=style)
    label = title or _("Running totals by round")
    return tostring(_legend_keys(_static(chart.render_tree(), label)), encoding="unicode")


@dataclass(frozen=True)
class BidsLine:
    """One player's bids against tricks over the complete rounds."""

    name: str
    rounds: int
    bid: int  # sum of bids (rounds without a bid, V6 dealer, not counted)
    tricks: int  # sum of tricks taken in the rounds they bid
    exact: int

    @property
    def difference(self) -> int:
        return self.tricks - self.bid


@dataclass(frozen=True)
class GameChart:
    svg: Markup
    bids: list[BidsLine]
    rounds: int


def game_chart(view: PadView, size: tuple[int, int] = PHONE_SIZE, legend: bool = True) -> GameChart:
    """The running-totals chart (drawn at ``size``, with or without its ``legend``, see
    :func:`running_totals`) and the bids-against-tricks lines of a pad."""
    complete = [r for r in view.rows if r.complete]
    n = len(view.names)
    points = [[0] + [r.cells[s].total or 0 for r in complete] for s in range(n)]
    bids = []
    for s, name in enumerate(view.names):
        bid = tricks = exact = rounds = 0
        for r in complete:
            cell = r.cells[s]
            if cell.bid_number is None or cell.tricks is None:
                continue
            rounds += 1
            bid += cell.bid_number
            tricks += cell.tricks
            exact += cell.bid_number == cell.tricks
        bids.append(BidsLine(name, rounds, bid, tricks, exact))
    # pygal escapes the names it writes; the SVG is our own server-made markup.
    svg = running_totals(points, view.names, size=size, legend=legend)
    return GameChart(Markup(svg), bids, len(complete))


def value_axis(lowest: int, highest: int, most: int) -> list[int]:
    """Labels for an axis of values far from 0 (ratings): a round step (10, 20, 25, 50,
    100, …) that needs at most ``most`` labels, from a multiple of it at or below the
    lowest value to one at or above the highest."""
    for power in range(1, 12):
        for factor in _STEPS:
            step = round(factor * 10**power)
            bottom = math.floor(lowest / step) * step
            top = max(math.ceil(highest / step) * step, bottom + step)
            if (top - bottom) // step + 1 <= max(most, 2):
                return list(range(bottom, top + 1, step))
    raise ValueError(f"No scale fits values from {lowest} to {highest}.")


# The rating chart has no legend: a wider, lower drawing.
RATING_SIZE = (420, 260)


def rating_chart(
    values: list[int], label: str, first: int = 0, size: tuple[int, int] = RATING_SIZE
) -> Markup:
    """SVG of a player's rating after each of their rated games (``values``, in order of
    play, the first after game ``first``: 0 is before any), drawn like the running
    totals: a static picture with its ``label``."""
    width, height = size
    axis = value_axis(min(values), max(values), _labels_fitting(height - _AROUND_PLOT))
    chart = pygal.Line(
        **_line_options(size, axis),
        show_dots=len(values) <= 21,
        show_legend=False,
        truncate_label=-1,
        x_title=_("Games"),
        y_title=_("Rating"),
        show_y_guides=True,
        show_x_guides=False,
        x_labels=[str(first + i) for i in range(len(values))],
        x_labels_major_every=max(1, len(values) // 5) if len(values) > 11 else None,
        show_minor_x_labels=len(values) <= 11,
        explicit_size=False,
    )
    chart.add(label, values, stroke_style={"width": _LINE_WIDTH})
    # pygal escapes the label it writes; the SVG is our own server-made markup.
    return Markup(tostring(_static(chart.render_tree(), label), encoding="unicode"))
