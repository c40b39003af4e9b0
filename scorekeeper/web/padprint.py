"""A printable score pad as the template sees it: the pad (blank, or a game's as far as it
is played), its page layout, its texts in the reader's language, and the PDF rendered
from it (templates/pad/pad.html through WeasyPrint)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from flask import current_app, render_template

from scorekeeper import i18n, pdf
from scorekeeper.engine import Plan, RuleSet
from scorekeeper.i18n import LazyString, _, _l
from scorekeeper.services.charts import game_chart
from scorekeeper.services.padview import HIDDEN_BID, BlankPad, PadView, trump_options

# The usual sizes (pt) of the column heads, as print.css sets them; smaller where a
# language's word would not fit its column.
HEAD_PT = 6.5
SUB_HEAD_PT = 6.0

PLANS: dict[str, Plan] = {"full": Plan.FULL, "short": Plan.SHORT, "unicoloured": Plan.UNICOLOURED}
PLAN_NAMES: dict[Plan, LazyString] = {
    Plan.FULL: _l("Full game"),
    Plan.SHORT: _l("Short game"),
    Plan.UNICOLOURED: _l("Unicoloured game"),
}


def render(pad: PadView | BlankPad, paper: str) -> bytes:
    """The pad as PDF on ``paper``."""
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
    # Heads side by side share one size: the narrow round and cards columns, and each
    # player's total and bid.
    numbers = min(
        pdf.head_pt(_("Round"), layout.round_col, HEAD_PT),
        pdf.head_pt(_("Cards"), layout.cards_col, HEAD_PT),
    )
    sub = min(
        pdf.head_pt(_("total"), layout.total_col, SUB_HEAD_PT, capitals=True),
        pdf.head_pt(_("bid"), layout.bid_col, SUB_HEAD_PT, capitals=True),
    )
    heads = {
        "round": numbers,
        "cards": numbers,
        "dealer": pdf.head_pt(_("Dealer"), layout.dealer_col, HEAD_PT),
        "trump": pdf.head_pt(_("Trump"), layout.trump_col, HEAD_PT),
        "total": sub,
        "bid": sub,
    }
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
        "head_pt": heads,
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


def no_paper(paper: str) -> str:
    """Why ``paper`` is refused, in the reader's words."""
    return _("There is no paper called “%(paper)s”: choose a4 or letter.", paper=paper[:20])


def _paper_name(paper: str) -> str:
    return _("US Letter") if paper == "letter" else str(pdf.PAPER_NAMES[paper])
