"""The trick resolver: settle a disputed trick of a game played with real cards.

Everything lives in the query string (``?trump=red&cards=R5+W+J``): every tap is a plain
link, so the page works with JavaScript off; with htmx the tap swaps only the widget.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import Blueprint, Response, make_response, render_template, request

from scorekeeper import i18n
from scorekeeper.engine import MAX_PLAYERS, Card, Suit, parse_cards
from scorekeeper.engine.disputes import Judgement, judge_trick
from scorekeeper.i18n import _
from scorekeeper.web.access import is_htmx
from scorekeeper.web.cardfaces import face, suit_word

bp = Blueprint("resolver", __name__, url_prefix="/resolver")

TRUMPS = ["yellow", "red", "green", "blue", "none", "unicoloured"]


def _trump_words(trump: str) -> str:
    if trump == "unicoloured":
        return _("unicoloured game (no trump, highest number wins)")
    if trump == "none":
        return _("no trump")
    return _("%(suit)s is trump", suit=i18n.suit_word(trump))


@bp.app_template_global("card_face")
def card_face(text: str, french: bool = False) -> Any:
    """A card's face for templates."""
    return face(text, french)


@bp.get("/")
def page() -> Response:
    """Show the resolver with the trump and the cards tapped so far."""
    trump = request.args.get("trump", "none")
    if trump not in TRUMPS:
        trump = "none"
    message = None
    try:
        cards = parse_cards(request.args.get("cards", ""))[:MAX_PLAYERS]
    except ValueError as exc:
        cards, message = [], i18n.rule_message(exc)
    suit = Suit.from_name(trump) if trump not in ("none", "unicoloured") else None
    judged = judge_trick(cards, suit, unicoloured=trump == "unicoloured")
    judgement = Judgement(
        judged.result, tuple(replace(n, text=i18n.dispute_note(n)) for n in judged.notes)
    )
    texts = [str(c) for c in cards]

    def link(**change: Any) -> dict[str, str]:
        args = {"trump": trump, "cards": " ".join(texts)}
        args.update(change)
        return {k: v for k, v in args.items() if v}

    used = {c for c in cards if c.suit is not None}
    picker = [
        [(Card.number(s, r), link(cards=" ".join([*texts, f"{s.value}{r}"]))) for r in range(1, 14)]
        for s in Suit
    ]
    specials = [
        (Card.parse(t), link(cards=" ".join([*texts, t])), texts.count(t) >= 4) for t in "WJ"
    ]
    context = {
        "trump": trump,
        "trumps": [(t, link(trump=t)) for t in TRUMPS],
        "trump_words": _trump_words(trump),
        "cards": texts,
        "judgement": judgement,
        "result": judgement.result,
        "picker": picker,
        "specials": specials,
        "used": {str(c) for c in used},
        "full": len(cards) >= MAX_PLAYERS,
        "undo": link(cards=" ".join(texts[:-1])),
        "clear": link(cards=""),
        "message": message,
        "suit_word": suit_word,
    }
    template = "resolver/_resolver.html" if is_htmx() else "resolver/page.html"
    response = make_response(render_template(template, **context))
    response.vary.add("HX-Request")
    return response
